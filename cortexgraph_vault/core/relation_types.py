"""The typed relations one memory may have to another, each a link property of its note.

The request field that names one (`requests/fields.py`), the CLI's `relate --type` choices and
the core read this one list; it imports nothing, so a door's `--help` can list it cheaply.
"""

from typing import Literal, get_args

RelationType = Literal[
    "related",
    "causes",
    "supports",
    "contradicts",
    "has_decision",
    "consolidated_from",
    "supersedes",
]
RELATION_TYPES: tuple[RelationType, ...] = get_args(RelationType)
