"""How a command's handler runs operations of the catalogue: `ops.run("search_memory", params)`.

The parameters are checked by the operation's request model before anything runs (a value
out of range is one `InvalidArgument` naming the parameter, which cli/failure.py says as the
command's flag: `--limit: must be from 1 to 100, got 500`), then the service runs it in this
process. (cli/daemon_calls.py sends it to the daemon serving the vault instead.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService


class Operations(Protocol):
    """What a handler runs operations with: this process (`InProcess`) or the daemon serving
    the vault (cli/daemon_calls.py `ThroughDaemon`), alike to the handler. `local` runs them
    in this process (plan files, progress on this terminal)."""

    @property
    def local(self) -> InProcess: ...

    def run(self, name: str, params: Mapping[str, Any]) -> Any: ...


def given(params: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters a person gave: an option left out is the operation's default."""
    return {name: value for name, value in params.items() if value is not None}


class InProcess:
    """Runs operations on a service over the vault, made when first needed."""

    def __init__(self, make_service: Callable[[], MemoryService]) -> None:
        self._make = make_service
        self._service: MemoryService | None = None

    @property
    def local(self) -> InProcess:
        return self

    def service(self) -> MemoryService:
        """This process's service, for what only it can do (files, progress on the terminal)."""
        if self._service is None:
            self._service = self._make()
        return self._service

    def run(self, name: str, params: Mapping[str, Any]) -> Any:
        from cortexgraph_vault.operations import operation_named

        operation = operation_named(name)
        request = operation.parse(given(params))  # before the service: a refusal costs nothing
        return self.service().run(operation, request)
