"""Text bound for a person's terminal (kept free of heavy imports: the CLI's error path uses it)."""

from __future__ import annotations

import re

# C0 controls but newline and tab, DEL, and C1 controls (U+009B is a CSI on its own): a memory's
# text could otherwise move the cursor, retitle the window or ring the bell of whoever reads it.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def terminal_safe(text: str) -> str:
    """Text for a terminal: control characters shown as `\\x1b`, never sent as themselves."""
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
