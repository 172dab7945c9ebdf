"""The first searches of a stdio session, answered before the MCP SDK has loaded.

Importing the SDK costs a second of CPU, the time it takes to open a large vault and search
it. A client that spawns the server to ask one question sends `initialize` (answered at once,
mcp/handshake.py) and then its `tools/call`: a search of `QUICK_TOOLS` arriving while the SDK
is still loading is answered here, from the service as soon as the vault is open, with the
answer the SDK would give (the same operation, the same result shape). The SDK starts loading
once nothing here is waiting for the CPU: when the vault is open and no quick call is running,
or when the client asks anything this does not answer (`tools/list`, another tool, a ping).

Whatever this cannot answer exactly as the SDK would — an argument the tool does not take, a
value its request model refuses, an error — it hands to the SDK, which answers it as usual.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel, JsonValue

    from cortexgraph_vault.service import MemoryService

log = logging.getLogger("cortexgraph_vault.mcp")

QUICK_TOOLS = frozenset({"search_memory", "search_unified"})
# Messages that ask nothing of the SDK while it loads: it gets them (queued), in order.
_WAITING_FREELY = frozenset({"initialize", "notifications/initialized"})


def result_text(result: BaseModel) -> tuple[str, dict[str, JsonValue]]:
    """A tool's result as compact JSON text and as structured content (the SDK would
    pretty-print it, characters of the model's context for nothing). A field with no value is
    left out rather than sent as null, paid for in context on every result (values inside a
    note's frontmatter are data, and kept)."""
    data = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")), data


def tool_answer(request_id: Any, result: BaseModel) -> bytes:
    """The JSON-RPC answer to a `tools/call` that returned `result`, as the SDK writes it."""
    text, data = result_text(result)
    message = {
        "jsonrpc": "2.0",
        "id": request_id,
        "result": {
            "content": [{"type": "text", "text": text}],
            "structuredContent": data,
            "isError": False,
        },
    }
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


class QuickCalls:
    """Sees each client message before the SDK does (`take`), answers the quick ones on a
    thread of its own, and says when the SDK may start loading (`sdk_may_load`)."""

    def __init__(
        self,
        service: Callable[[], MemoryService],
        send: Callable[[bytes], None],
        forward: Callable[[str], None],
    ) -> None:
        self._service = service  # waits for the vault to open
        self._send = send
        self._forward = forward  # to the SDK's queue
        self.sdk_may_load = threading.Event()
        self._serving = threading.Event()  # the SDK reads the queue: nothing more here
        # (id, tool, arguments, the line, when it was read: time.monotonic())
        self._calls: queue.Queue[tuple[Any, str, dict[str, JsonValue], str, float]] = queue.Queue()
        self._lock = threading.Lock()
        self._in_flight = 0
        self._vault_open = False
        self._worker: threading.Thread | None = None

    def take(self, line: str) -> bool:
        """Whether this answers `line` (else the caller queues it for the SDK)."""
        if self._serving.is_set():
            return False
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        call = _quick_call(message)
        if call is None:
            method = message.get("method") if isinstance(message, dict) else None
            if method not in _WAITING_FREELY:
                self.sdk_may_load.set()  # the client asks what only the SDK answers
            return False
        with self._lock:
            self._in_flight += 1
            if self._worker is None:
                self._worker = threading.Thread(
                    target=self._work, name="mcp-quick-calls", daemon=True
                )
                self._worker.start()
        self._calls.put((*call, line, time.monotonic()))
        return True

    def vault_opened(self) -> None:
        """The service is ready (or failed): the SDK may load unless a quick call runs."""
        with self._lock:
            self._vault_open = True
            if not self._in_flight:
                self.sdk_may_load.set()

    def serving(self) -> None:
        """The SDK serves the session from now on."""
        self._serving.set()
        self.sdk_may_load.set()

    def closed(self) -> None:
        self.sdk_may_load.set()

    def _work(self) -> None:
        while True:
            request_id, name, arguments, line, asked_at = self._calls.get()
            try:
                answer = self._answer(request_id, name, arguments, asked_at)
            except Exception as exc:  # the SDK answers it, errors and all, as it always does
                log.debug("quick %s handed to the SDK: %s", name, exc)
                answer = None
            if answer is None:
                self._forward(line)
                self.sdk_may_load.set()
            else:
                self._send(answer)
                log.info("%s answered without waiting for the SDK", name)
            with self._lock:
                self._in_flight -= 1
                if not self._in_flight and self._vault_open:
                    self.sdk_may_load.set()

    def _answer(
        self, request_id: Any, name: str, arguments: dict[str, JsonValue], asked_at: float
    ) -> bytes | None:
        from cortexgraph_vault.operations import operation_named, params_of

        op = operation_named(name)
        taken = {p.name for p in params_of(op.request)}  # unlisted ones are taken too
        if not taken.issuperset(arguments):
            return None  # the SDK says what it makes of an argument the tool does not take
        request = op.request.model_validate(arguments)
        service = self._service()
        # A search sent while the vault was opening reads the walk that opened it: that walk
        # saw the vault after the search was asked (a loaded machine took longer than the
        # moment a one-call process trusts its walk for, and walked 10k files again).
        service.engine.trust_start_walk(asked_at)
        result = service.run(op, request)
        return tool_answer(request_id, op.mcp_answer(result) if op.mcp_answer else result)


def _quick_call(message: Any) -> tuple[Any, str, dict[str, JsonValue]] | None:
    """(id, tool name, arguments) of a `tools/call` of a quick tool; else None."""
    if not isinstance(message, dict) or message.get("method") != "tools/call":
        return None
    request_id = message.get("id")
    params = message.get("params")
    if request_id is None or not isinstance(params, dict):
        return None
    name, arguments = params.get("name"), params.get("arguments", {})
    if name not in QUICK_TOOLS or not isinstance(arguments, dict):
        return None
    if isinstance(params.get("_meta"), dict) and "progressToken" in params["_meta"]:
        return None  # progress notifications are the SDK's
    return request_id, name, arguments
