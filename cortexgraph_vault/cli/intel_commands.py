"""CLI commands for memory intelligence: analyze a message, recall from it, the review list."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cortexgraph_vault.cli.command import Arg, Command, Request, calls

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService

MESSAGE = Arg("message", stdin_dash=True, help="the message, or - to read it from stdin")


def _analyze(s: MemoryService, r: Request) -> Any:
    message = r.params["message"]
    if r.params["for_recall"]:
        return s.analyze_for_recall(message)
    return s.analyze_message(message)


COMMANDS = (
    Command(
        "analyze",
        "should this message be saved (or --for-recall: searched)?",
        _analyze,
        operation="analyze_message",
        args=(MESSAGE, Arg("--for-recall", flag=True, help="judge whether to search memory")),
    ),
    Command(
        "recall",
        "recall and reinforce memories a message is about",
        calls("auto_recall"),
        operation="auto_recall_process_message",
        args=(
            MESSAGE,
            Arg(
                "--mode",
                choices=["silent", "subtle", "interactive"],
                help="silent: only reinforce; subtle: also list them; interactive: suggest, "
                "reinforce nothing",
            ),
        ),
    ),
    Command(
        "review",
        "fading memories worth revisiting, most urgent first",
        calls("review"),
        operation="review_memories",
        args=(Arg("--limit", type=int, default=20),),
    ),
)
