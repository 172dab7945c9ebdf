"""What the operations that read a message take."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from cortexgraph_vault.requests import Request
from cortexgraph_vault.requests.fields import Message


class MessageRequest(Request):
    message: Message


class AutoRecallRequest(Request):
    message: Message
    mode: Annotated[
        Literal["silent", "subtle", "interactive"] | None,
        Field(
            description="silent: reinforce, list without text; subtle: with text; interactive: ask before reinforcing (default: configured)"
        ),
    ] = None


class ReviewMemoriesRequest(Request):
    limit: Annotated[int, Field(ge=1, le=100, description="how many memories to list")] = 20
