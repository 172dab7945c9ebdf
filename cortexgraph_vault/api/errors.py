"""Every failure becomes `{error, detail}` JSON with its status; never a stack trace.

VaultError subclasses carry their own status (errors.py); the error code is the class name in
snake case, so a new error class needs nothing here.
"""

from __future__ import annotations

import logging

from starlette.requests import Request
from starlette.responses import JSONResponse

from cortexgraph_vault.api.security import BodyTooLarge
from cortexgraph_vault.errors import Conflict, VaultError, error_body

log = logging.getLogger("cortexgraph_vault.api")


def error_response(status: int, code: str, detail: str) -> JSONResponse:
    return JSONResponse({"error": code, "detail": detail}, status_code=status)


def vault_error_response(exc: VaultError) -> JSONResponse:
    body = error_body(exc)
    if isinstance(exc, Conflict):
        body["current_text"] = exc.current_text  # the plugin shows both versions
    return JSONResponse(body, status_code=exc.http_status)


async def on_vault_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, VaultError)
    return vault_error_response(exc)


def body_too_large() -> JSONResponse:
    return error_response(413, "body_too_large", "request body too large; send less at once")


async def on_body_too_large(request: Request, exc: Exception) -> JSONResponse:
    return body_too_large()


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
