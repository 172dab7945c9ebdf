"""Every failure becomes `{error, detail}` JSON with its status; never a stack trace.

VaultError subclasses carry their own status (errors.py); the error code is the class name in
snake case, so a new error class needs nothing here.
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse

from cortexgraph_vault.api.security import BodyTooLarge
from cortexgraph_vault.errors import Ambiguous, Conflict, VaultError, error_code

log = logging.getLogger("cortexgraph_vault.api")


def error_response(status: int, code: str, detail: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": code, "detail": detail, **extra}, status_code=status)


def vault_error_response(exc: VaultError) -> JSONResponse:
    extra: dict[str, Any] = {}
    if isinstance(exc, Conflict):
        extra = {
            "expected_hash": exc.expected_hash,
            "actual_hash": exc.actual_hash,
            "current_text": exc.current_text,
        }
    elif isinstance(exc, Ambiguous):
        extra = {"candidates": list(exc.candidates)}
    # which words of the detail are a parameter's or an operation's name, so a client that
    # calls them otherwise (the CLI: `--limit`, `cortexgraph-vault search`) can say so
    if exc.params:
        extra["params"] = list(exc.params)
    if exc.operations:
        extra["operations"] = list(exc.operations)
    return error_response(exc.http_status, error_code(exc), str(exc), **extra)


def _location(loc: tuple[Any, ...]) -> str:
    return ".".join(str(part) for part in loc) or "body"


def validation_response(exc: ValidationError, where: str) -> JSONResponse:
    """422 naming each bad field (`body.content`, `query.page`) and what is wrong with it."""
    errors = exc.errors(include_url=False)
    problems = [
        _shortened(
            f"{where}.{_location(err['loc'])}: {err['msg']}"
            if err["loc"]
            else f"{where}: {err['msg']}"
        )
        for err in errors[:MAX_PROBLEMS]
    ]
    if len(errors) > MAX_PROBLEMS:
        # A body of a million unknown keys must not earn a reply four times its size.
        problems.append(f"and {len(errors) - MAX_PROBLEMS} more")
    return error_response(422, "invalid_request", "; ".join(problems))


MAX_PROBLEMS = 10
MAX_PROBLEM_CHARS = 200


def _shortened(text: str) -> str:
    return text if len(text) <= MAX_PROBLEM_CHARS else text[: MAX_PROBLEM_CHARS - 1] + "…"


async def on_vault_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, VaultError)
    return vault_error_response(exc)


async def on_body_too_large(request: Request, exc: Exception) -> JSONResponse:
    return error_response(413, "body_too_large", "request body too large; send less at once")


async def on_not_found(request: Request, exc: Exception) -> JSONResponse:
    status = getattr(exc, "status_code", 404)
    if status == 405:
        return error_response(
            405, "method_not_allowed", f"{request.method} is not allowed on {request.url.path}"
        )
    return error_response(
        status, "not_found", f"{request.url.path}: no such endpoint; see /api/v1/openapi.json"
    )


async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    # The trace goes to the daemon's log (stderr), never to the client.
    log.exception("%s %s failed", request.method, request.url.path)
    return error_response(
        500, "internal_error", "the daemon failed unexpectedly; its log (stderr) has the details"
    )


EXCEPTION_HANDLERS = {
    VaultError: on_vault_error,
    BodyTooLarge: on_body_too_large,
    404: on_not_found,
    405: on_not_found,
    Exception: on_unexpected,
}
