"""The secret check on hostile input: every write runs it over every field, so no input of
the largest allowed size (50,000 characters) may make it slow (no pattern rescans a run).

    python bench/bench_secrets.py

Prints the time of `find_secrets` + `redact` on each shape, worst first.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cortexgraph_vault.core.secrets import find_secrets, redact

SIZE = 50_000


def shapes() -> dict[str, str]:
    def fill(unit: str) -> str:
        return (unit * (SIZE // len(unit) + 1))[:SIZE]

    units = ["a", "a_", "a.", "password", "password is ", "secret_", "x=", "key=", "4", "4 ",
             "AB12 ", "sk-", "xoxb-", "ghp_", "AKIA", "a://b:", "PIN for the ", "123-45-",
             "mother's maiden name is ", 'password is "', "lorem ipsum dolor 1234 ", "\u200b"]  # fmt: skip
    return {repr(u): fill(u) for u in units}


def main() -> int:
    rows = []
    for name, text in shapes().items():
        start = time.perf_counter()
        find_secrets(text)
        redact(text)
        rows.append((time.perf_counter() - start, name))
    for seconds, name in sorted(rows, reverse=True):
        print(f"{seconds * 1000:8.1f} ms  {name} × {SIZE:,} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
