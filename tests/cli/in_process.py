"""The CLI's `main` run in the test's own process, as the program would run it: its own
environment, stdin, stdout and stderr, logging set up by `-v` as at a fresh start, and the
threads it leaves working (a cache being written) waited for, as the program's exit waits
for them (`cli.main.entry`). For the tests about what a command answers, not about the
program as a process: those start it for real (the `cli` fixture of tests/conftest.py)."""

from __future__ import annotations

import contextlib
import io
import logging
import os
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence

from cortexgraph_vault.cli.main import main


@contextlib.contextmanager
def _environment(env: Mapping[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


@contextlib.contextmanager
def _fresh_logging() -> Iterator[None]:
    """No handler on the root logger, so `main`'s `logging.basicConfig` writes to the stderr
    of this call, as in a new process; the test's own handlers put back after."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    root.handlers = []
    try:
        yield
    finally:
        root.handlers = handlers
        root.setLevel(level)


def run_main(argv: Sequence[str], env: Mapping[str, str], stdin: str = "") -> tuple[int, str, str]:
    """`cortexgraph-vault ARGV` in this process, with exactly `env` as its environment: its
    exit code, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    before = set(threading.enumerate())
    with (
        _environment(env),
        _fresh_logging(),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        saved_stdin, sys.stdin = sys.stdin, io.StringIO(stdin)
        try:
            code = main(list(argv))
        except SystemExit as exit:  # argparse's refusals
            code = exit.code if isinstance(exit.code, int) else 1
        finally:
            sys.stdin = saved_stdin
            for thread in set(threading.enumerate()) - before:
                if not thread.daemon:
                    thread.join()
    return code, out.getvalue(), err.getvalue()
