"""A command's operations sent to the daemon that already serves the vault, when there is one.

The daemon has the vault's index loaded and warm: a read through it skips this process's
imports of the service and the index (most of a CLI call's time). It is used only when it
serves this very vault (its claim, daemon/instance.py: held by a live process, same folder), at
the same `now`, with no `--set` overrides (the daemon has its own settings). Otherwise, and
whenever it cannot be reached or refuses the token, the command works in this process: the
same request model, the same service, the same answer.

The answer is the operation's result model rebuilt from its JSON for the same renderer; an
error is rebuilt as the same `VaultError` (class, message, the parameters it names), so the
stderr line and the exit code are the ones the command gives in-process. Kept to the standard
library (http.client, json), so deciding is cheap.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.cli.operation_calls import InProcess, given
from cortexgraph_vault.errors import BY_CODE, Ambiguous, VaultError

if TYPE_CHECKING:
    from cortexgraph_vault.config import Config

ROUTE = "/api/v1/operations/"
CONNECT_SECONDS = 2.0
NO_DAEMON = "CORTEXGRAPH_NO_DAEMON"  # set (to anything): always work in this process
log = logging.getLogger("cortexgraph_vault.cli")


class DaemonGone(Exception):
    """The daemon could not be asked (nothing ran there): work in this process instead."""


def daemon_may_answer(config: Config, overridden: bool) -> bool:
    """Whether the CLI may use a daemon and one holds the claim of `config.vault`: asked
    before the claim is read (pydantic), so a command that works alone knows it at once."""
    if os.environ.get(NO_DAEMON) or overridden or config.vault is None:
        return False
    from cortexgraph_vault.daemon.claim_files import claimed

    return claimed(Path(config.vault))


def daemon_for(config: Config, overridden: bool) -> tuple[int, str] | None:
    """The port and token of the live daemon serving `config.vault`, if the CLI may use it."""
    if config.vault is None or not daemon_may_answer(config, overridden):
        return None
    from cortexgraph_vault.daemon.instance import daemon_serving

    claim = daemon_serving(config.vault)
    if claim is None or claim.port is None or (claim.host or "127.0.0.1") != "127.0.0.1":
        return None
    now = config.fixed_now.isoformat() if config.fixed_now else None
    if claim.now != now:
        return None
    from cortexgraph_vault.api.token import existing_token  # only with a daemon to ask

    try:
        token = existing_token()
    except VaultError:  # a broken token file: the daemon refuses it too
        return None
    return (claim.port, token) if token else None


class ThroughDaemon:
    """Runs operations on the daemon; falls back to `local` when the daemon cannot be asked."""

    def __init__(self, port: int, token: str, local: InProcess) -> None:
        self.port, self.token, self.local = port, token, local
        self.gone = False

    def run(self, name: str, params: Mapping[str, Any]) -> Any:
        if not self.gone:
            try:
                answer = self._ask(name, given(params))
                log.info("%s: answered by the daemon on port %d", name, self.port)
                return answer
            except VaultError:
                log.info("%s: refused by the daemon on port %d", name, self.port)
                raise
            except DaemonGone as why:
                log.info(
                    "the daemon on port %d cannot be asked (%s): working alone", self.port, why
                )
                self.gone = True
        return self.local.run(name, params)

    def _ask(self, name: str, params: dict[str, Any]) -> Any:
        import http.client  # loads ssl and email: only when there is a daemon to ask

        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=CONNECT_SECONDS)
        try:
            try:
                conn.connect()
            except OSError as exc:  # refused, or no longer listening: nothing was sent
                raise DaemonGone(str(exc)) from None
            assert conn.sock is not None
            conn.sock.settimeout(None)  # a long gc is answered when it is done
            conn.request(
                "POST",
                ROUTE + name,
                body=json.dumps(params).encode(),
                headers={
                    "Authorization": f"Bearer {self.token}",
                    "Content-Type": "application/json",
                },
            )
            response = conn.getresponse()
            body = response.read()
            model = response.getheader("X-Result-Model")
        finally:
            conn.close()
        if response.status == 200 and model:
            from cortexgraph_vault import models

            return getattr(models, model).model_validate_json(body)
        raise _failure(response.status, body)


def _failure(status: int, body: bytes) -> Exception:
    """The daemon's error as the same VaultError, or DaemonGone when nothing ran there."""
    try:
        data = json.loads(body)
    except ValueError:
        data = {}
    if not isinstance(data, dict):
        data = {}
    code, detail = str(data.get("error", "")), str(data.get("detail", ""))
    # a rotated token, a daemon that does not know the route (older), a Host it refuses:
    # nothing ran; this process can do it
    if status in (401, 403, 421) or (status == 404 and "no such endpoint" in detail):
        return DaemonGone(f"{status} {code}")
    cls = BY_CODE.get(code)
    if cls is None:
        return VaultError(detail or f"the daemon answered {status}")
    exc = cls.__new__(cls)
    Exception.__init__(exc, detail)
    exc.params = tuple(data.get("params") or ())
    exc.operations = tuple(data.get("operations") or ())
    if isinstance(exc, Ambiguous):
        exc.candidates = list(data.get("candidates") or [])
    return exc
