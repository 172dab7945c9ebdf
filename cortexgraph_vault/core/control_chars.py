"""Control characters in the fields that name a file or a commit (pure).

A title, tag, entity, source or relation target ends up in a file name, in a commit message or
on one line of the frontmatter. A NUL there makes git refuse the commit ("a NUL byte in commit
log message"); an escape or a backspace makes `git log` and a terminal show something other
than what is stored. Such a value is refused with the field and the character named. Tabs and
line ends are left to the callers, which fold them into spaces (a title written over two lines
is still one title).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from cortexgraph_vault.errors import InvalidArgument

# Unicode's control characters (category Cc) but the tab and the line ends.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_NAMES = {0: "NUL", 0x1B: "ESC", 0x7F: "DEL", 0x08: "backspace", 0x07: "bell"}


def control_character(text: str) -> tuple[int, str] | None:
    """The first control character (Unicode category Cc) in `text` other than a tab or a line
    end: (its position, how to name it), or None."""
    found = _CONTROL.search(text)
    if found is None:
        return None
    code = ord(found.group())
    name = _NAMES.get(code)
    return found.start(), f"U+{code:04X}" + (f" ({name})" if name else "")


def _strings(value: object, where: str) -> list[tuple[str, str]]:
    """Every string in a field's value (a list, a mapping's keys and values), with where it is."""
    if isinstance(value, str):
        return [(where, value)]
    if isinstance(value, Mapping):
        return [
            pair
            for key, item in value.items()
            for pair in (*_strings(key, where), *_strings(item, f"{where}.{key}"))
        ]
    if isinstance(value, list | tuple):
        return [
            pair for index, item in enumerate(value) for pair in _strings(item, f"{where}[{index}]")
        ]
    return []


def refuse_control_characters(fields: Mapping[str, object]) -> None:
    """Raise InvalidArgument naming the first field (and the character) that holds a control
    character; None values and other types are left to the callers' own checks."""
    for name, value in fields.items():
        for where, text in _strings(value, name):
            found = control_character(text)
            if found is not None:
                position, char = found
                raise InvalidArgument(
                    f"{where}: holds the control character {char} at character {position + 1}; "
                    "it would end up in a file name or a commit message. Nothing was changed",
                    params=(name,),
                )


def without_control_characters(text: str) -> str:
    """`text` with its control characters (other than tabs and line ends) taken out: for a name
    made from a memory's content, which may hold any text."""
    return _CONTROL.sub("", text)
