"""What each operation takes: its request model, declared once and received by every layer.

A door validates its arguments into the request (MCP, REST and the CLI alike: the field's
limits and description are written once, in its `Annotated[...]`), the service runs the
operation with it, and the logic in `handlers/` reads its fields. One module per area of the
catalogue (`operations/`); the field types several requests share are in `fields.py`.
Nothing here imports the logic: a door builds a request without loading numpy or git.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Request(BaseModel):
    """An operation's arguments; an unknown one is refused (a typo never silently does nothing)."""

    model_config = ConfigDict(extra="forbid", defer_build=True, frozen=True)


class NoArguments(Request):
    """The request of an operation that takes none."""
