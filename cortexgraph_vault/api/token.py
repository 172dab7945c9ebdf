"""The daemon's bearer token: 32 random bytes in the user's config folder, mode 0600.

Never in the vault: vaults are synced and committed, and a token there would travel with them.
The daemon re-reads the file when it changes, so `cortexgraph-vault token --rotate` takes
effect without a restart.
"""

from __future__ import annotations

import hmac
import logging
import os
import re
import secrets
import stat
from pathlib import Path

from cortexgraph_vault.config import user_config_dir
from cortexgraph_vault.errors import ConfigError

log = logging.getLogger("cortexgraph_vault.api")

TOKEN_BYTES = 32
_TOKEN = re.compile(r"[A-Za-z0-9_-]{32,512}")  # base64url, as `secrets.token_urlsafe` writes


def token_path() -> Path:
    return user_config_dir() / "token"


def _write_new(path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    # Written beside the old file and renamed over it, so a reader never sees half a token,
    # and created 0600 so there is no moment where another user could read it.
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, (token + "\n").encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temp, path)
    return token


def is_valid_token(text: str) -> bool:
    """Whether `text` is a token the daemon accepts (the doctor asks the same question)."""
    return _TOKEN.fullmatch(text) is not None


def _read(path: Path) -> str | None:
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return None
    if mode & 0o077:
        log.warning("%s: was readable by others (mode %o); set to 0600", path, mode)
        os.chmod(path, 0o600)
    token = path.read_bytes().decode("ascii", errors="replace").strip()
    if not is_valid_token(token):
        raise ConfigError(
            f"{path}: does not hold a valid token; run `cortexgraph-vault token --rotate`"
        )
    return token


def existing_token(path: Path | None = None) -> str | None:
    """The token if one was made (a client must not make one the daemon never saw)."""
    return _read(path or token_path())


def load_or_create_token(path: Path | None = None) -> str:
    """The token, made on first use."""
    path = path or token_path()
    return _read(path) or _write_new(path)


def rotate_token(path: Path | None = None) -> str:
    """A new token; clients holding the old one get 401 from then on."""
    return _write_new(path or token_path())


class TokenSource:
    """The current token for a running daemon, re-read when the file changes."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or token_path()
        self._token = load_or_create_token(self.path)
        self._stamp = self._stat()
        self._warned: tuple[int, int, int, int] | None = None

    def _stat(self) -> tuple[int, int, int, int] | None:
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return None
        # The mode too: a file opened to others by a chmod is read (and made private) again.
        return (st.st_ino, st.st_mtime_ns, st.st_size, st.st_mode)

    def current(self) -> str:
        """The token; ConfigError (naming the file and the fix) when the file holds garbage."""
        stamp = self._stat()
        if stamp != self._stamp:
            # Deleted: make a new one, as on first start; the old one must stop working.
            try:
                self._token = load_or_create_token(self.path)
            except ConfigError as exc:
                if stamp != self._warned:
                    log.warning("%s", exc)  # once per version of the file, no traceback
                    self._warned = stamp
                raise
            self._stamp = self._stat()
        return self._token

    def matches(self, presented: str) -> bool:
        return hmac.compare_digest(presented.encode(), self.current().encode())
