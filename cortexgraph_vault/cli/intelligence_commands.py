"""CLI commands for memory intelligence: analyze a message, recall from it, the review list."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cortexgraph_vault.cli.command import Arg, Command, Request, number, runs

if TYPE_CHECKING:
    from cortexgraph_vault.cli.operation_calls import Operations

MESSAGE = Arg(
    "message",
    "the message (every word; quotes optional), or - to read it from stdin",
    words=True,
    stdin_dash=True,
)


def _analyze(ops: Operations, r: Request) -> Any:
    operation = "analyze_for_recall" if r.params["for_recall"] else "analyze_message"
    return ops.run(operation, {"message": r.params["message"]})


COMMANDS = (
    Command(
        "analyze",
        "should this message be saved (or --for-recall: searched)?",
        _analyze,
        operation="analyze_message",
        also=("analyze_for_recall",),
        args=(
            MESSAGE,
            Arg("--for-recall", "judge whether to search memory", flag=True, local=True),
        ),
    ),
    runs(
        "recall",
        "recall and reinforce memories a message is about",
        "auto_recall_process_message",
        MESSAGE,
        Arg(
            "--mode",
            "silent: only reinforce; subtle: also list them; interactive: suggest, "
            "reinforce nothing",
            choices=["silent", "subtle", "interactive"],
        ),
    ),
    runs(
        "review",
        "fading memories worth revisiting, most urgent first",
        "review_memories",
        number("--limit", "how many memories at most (default 20)", 20),
    ),
)
