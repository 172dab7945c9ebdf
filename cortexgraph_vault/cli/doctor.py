"""`doctor`: check everything a working setup needs, and say how to fix what is wrong.

Each check is independent and reports findings (ok, info, warning, problem), each problem
with the command or setting that fixes it. Nothing here changes anything, except that
`fix=True` (`doctor --fix`) installs what a check found missing and can safely add: the merge
driver for memory notes.

It sits with the doors, above the service, because it looks at every layer, the doors' own
files included (the REST token, the daemon's claim), and must speak even when the vault cannot
be opened; no door but the CLI runs it.
"""

from __future__ import annotations

import difflib
import http.client
import json
import os
import socket
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from cortexgraph_vault.config import BY_NAME, ENV_PREFIX, Config, user_cache_dir
from cortexgraph_vault.core import wording
from cortexgraph_vault.errors import VaultError
from cortexgraph_vault.models import DoctorFinding, DoctorResult, WatcherStatus
from cortexgraph_vault.vault.lock import held_elsewhere, vault_key

if TYPE_CHECKING:
    from cortexgraph_vault.engine import VaultEngine

# Variables that steer where we keep things rather than settings of the memory.
ENV_DIRS = ("CONFIG_DIR", "CACHE_DIR", "DATA_DIR")
HEARTBEAT_STALE_SECONDS = 120.0
HTTP_TIMEOUT = 3.0


class Findings:
    def __init__(self) -> None:
        self.items: list[DoctorFinding] = []

    def add(self, check: str, level: str, message: str, fix: str | None = None) -> None:
        self.items.append(DoctorFinding(check=check, level=level, message=message, fix=fix))

    def result(self) -> DoctorResult:
        problems = sum(f.level == "problem" for f in self.items)
        warnings = sum(f.level == "warning" for f in self.items)
        return DoctorResult(
            ok=problems == 0, problems=problems, warnings=warnings, findings=self.items
        )


def check_vault(config: Config, f: Findings) -> Path | None:
    if config.vault is None:
        f.add(
            "vault",
            "problem",
            "no vault configured",
            "pass --vault PATH or set CORTEXGRAPH_VAULT to your Obsidian vault folder",
        )
        return None
    root = Path(config.vault).expanduser()
    if not root.exists():
        fix = f"check the path, or create it: mkdir -p {root}"
        f.add("vault", "problem", f"{root}: does not exist", fix)
        return None
    if not root.is_dir():
        fix = "point --vault at the vault folder"
        f.add("vault", "problem", f"{root}: is a file, not a folder", fix)
        return None
    root = Path(os.path.realpath(root))
    if not os.access(root, os.R_OK | os.W_OK | os.X_OK):
        f.add(
            "vault", "problem", f"{root}: this user cannot read and write it", f"chmod u+rwx {root}"
        )
        return root
    f.add("vault", "ok", f"{root}: readable and writable")
    if not (root / ".obsidian").is_dir():
        f.add(
            "vault",
            "info",
            "no .obsidian folder: Obsidian has not opened this folder as a vault",
            "open it in Obsidian (Open folder as vault) to browse your memories there",
        )
    for name in (config.stm_folder, config.ltm_folder, config.archive_folder):
        folder = root / name
        if not folder.exists():
            f.add("folders", "info", f"{name}/ does not exist yet; it is made on first use")
        elif not os.access(folder, os.W_OK | os.X_OK):
            f.add("folders", "problem", f"{name}/: not writable", f"chmod u+rwx {folder}")
    return root


def check_git(config: Config, root: Path, f: Findings, *, fix: bool = False) -> None:
    from cortexgraph_vault.history import VaultHistory
    from cortexgraph_vault.history.git_settings import identity_config

    history = VaultHistory(root, lock_wait_seconds=config.git_lock_wait)
    if not history.available:
        f.add(
            "git",
            "warning",
            history.why_unavailable() + " (history, gc and restore need it)",
            "cortexgraph-vault init",
        )
        return
    runner = history.runner
    head = runner.head_or_none()
    f.add(
        "git",
        "ok",
        f"a git repository at {runner.work_tree}"
        + (f", HEAD {head[:7]}" if head else ", no commit yet"),
    )
    if identity_config(runner):
        f.add(
            "git",
            "warning",
            "no git identity (user.name / user.email) for this repository; "
            "commits are made as 'cortexgraph-vault'",
            f'git -C {root} config user.name "Your Name" && git -C {root} config user.email you@example.org',
        )
    else:
        f.add("git", "ok", "git knows who commits")
    check_merge_driver(config, history, f, fix=fix)
    if runner.index_lock.exists():
        f.add(
            "git",
            "warning",
            f"{runner.index_lock} exists: a git command is running or crashed",
            f"if no git command is running, remove it: rm {runner.index_lock}",
        )
    try:
        pending = history.changed_paths(
            [config.stm_folder, config.ltm_folder, config.archive_folder]
        )
    except VaultError as exc:
        f.add("git", "warning", f"could not compare the memory folders with HEAD: {exc}")
        return
    if pending:
        f.add(
            "git",
            "info",
            wording.uncommitted_memory_files(len(pending)),
            "cortexgraph-vault snapshot",
        )
    if not config.git_commit_writes:
        f.add(
            "git",
            "warning",
            "CORTEXGRAPH_GIT_COMMIT_WRITES is off: saves and updates are not committed",
            "set CORTEXGRAPH_GIT_COMMIT_WRITES=true",
        )


def check_lock(root: Path, f: Findings) -> None:
    lock_dir = user_cache_dir() / "locks"
    path = lock_dir / f"{vault_key(root)}.lock"
    if lock_dir.exists() and not os.access(lock_dir, os.W_OK | os.X_OK):
        f.add(
            "lock",
            "problem",
            f"{lock_dir}: not writable, so no write can take the vault lock",
            f"chmod u+rwx {lock_dir}",
        )
        return
    if held_elsewhere(path):
        f.add(
            "lock",
            "warning",
            f"the vault lock ({path}) is held by another process right now",
            "if this lasts, find the process: fuser " + str(path),
        )
    else:
        f.add("lock", "ok", "the vault lock is free")


def _get(port: int, route: str, token: str | None = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HTTP_TIMEOUT)
    try:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        conn.request("GET", route, headers=headers)
        response = conn.getresponse()
        body = response.read()
    finally:
        conn.close()
    try:
        return response.status, json.loads(body or b"null")
    except ValueError:
        return response.status, None


def _port_taken(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(1.0)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def check_daemon(config: Config, root: Path, f: Findings) -> WatcherStatus | None:
    """The vault's daemon, from its claim file; returns its watcher's status if it answers."""
    from cortexgraph_vault.api.token import token_path
    from cortexgraph_vault.daemon.instance import claims_dir, read_claim

    claim = claims_dir() / f"{vault_key(root)}.json"
    info = read_claim(claim)
    if not held_elsewhere(claim):
        f.add(
            "daemon",
            "info",
            "no daemon is serving this vault (the Obsidian plugin needs one)",
            f"cortexgraph-vault --vault {root} serve",
        )
        wanted = int(config.port)
        if _port_taken(wanted):
            f.add(
                "port",
                "warning",
                f"127.0.0.1:{wanted} is in use by another program; `serve` would fail",
                "serve --port N, or set CORTEXGRAPH_PORT to a free port",
            )
        else:
            f.add("port", "ok", f"127.0.0.1:{wanted} is free for the daemon")
        return None
    pid, port = "?" if info.pid is None else info.pid, info.port
    if not port:
        f.add(
            "daemon",
            "warning",
            f"a daemon (pid {pid}) holds the vault but has not said its port yet",
        )
        return None
    try:
        code, _ = _get(int(port), "/health")
    except OSError as exc:
        f.add(
            "daemon",
            "problem",
            f"the daemon (pid {pid}) holds the vault but does not answer on "
            f"127.0.0.1:{port} ({exc})",
            f"stop it (kill {pid}) and start it again: cortexgraph-vault serve",
        )
        return None
    if code != 200:
        fix = f"restart the daemon (kill {pid})"
        f.add("daemon", "problem", f"127.0.0.1:{port}/health answered {code}", fix)
        return None
    f.add("daemon", "ok", f"the daemon (pid {pid}) answers on http://127.0.0.1:{port}")
    try:
        token = token_path().read_text(encoding="ascii").strip()
        code, status = _get(int(port), "/api/v1/status", token)
    except (OSError, UnicodeDecodeError):
        return None
    if code != 200 or not isinstance(status, dict):
        f.add(
            "daemon",
            "warning",
            f"the daemon refused /api/v1/status ({code}) with the token in {token_path()}",
            "cortexgraph-vault token --rotate, then restart the daemon",
        )
        return None
    try:
        return WatcherStatus.model_validate(status.get("watcher"))
    except ValidationError:  # no watcher in the answer: the one in this process is asked
        return None


def check_token(f: Findings) -> None:
    from cortexgraph_vault.api.token import is_valid_token, token_path

    path = token_path()
    if not path.exists():
        f.add("token", "info", f"no token yet at {path}; the daemon makes one on its first start")
        return
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        said = f"{path} can be read by other users (mode {mode:o})"
        f.add("token", "problem", said, f"chmod 600 {path}")
    else:
        f.add("token", "ok", f"{path} is private (mode {mode:o})")
    try:
        valid = is_valid_token(path.read_text(encoding="ascii").strip())
    except (OSError, UnicodeDecodeError):
        valid = False
    if not valid:
        said = f"{path} does not hold a valid token"
        f.add("token", "problem", said, "cortexgraph-vault token --rotate")


def check_config(config: Config, f: Findings) -> None:
    names = [s.env for s in BY_NAME.values()]
    for key in sorted(os.environ):
        if not key.startswith(ENV_PREFIX) or key in names or key[len(ENV_PREFIX) :] in ENV_DIRS:
            continue
        close = difflib.get_close_matches(key, names, n=1, cutoff=0.85)
        if close:
            f.add(
                "config",
                "warning",
                f"{key} is not a setting and is ignored; did you mean {close[0]}?",
                f"rename it to {close[0]}",
            )
        else:
            f.add(
                "config",
                "info",
                f"{key} is not a cortexgraph-vault setting (a CortexGraph one?); ignored",
            )
    rules = config.rules
    if rules.forget_threshold >= rules.danger_zone_min:
        f.add(
            "config",
            "warning",
            "the forget threshold is not below the review danger zone: memories "
            "are forgotten before they are offered for review",
            "lower CORTEXGRAPH_FORGET_THRESHOLD or raise CORTEXGRAPH_REVIEW_DANGER_ZONE_MIN",
        )
    if rules.promote_threshold <= rules.forget_threshold:
        f.add(
            "config",
            "warning",
            "the promote threshold is not above the forget threshold",
            "raise CORTEXGRAPH_PROMOTE_THRESHOLD",
        )
    changed = [
        f"{n}={config.values[n]} ({o})"
        for n, o in sorted(config.origins.items())
        if o != "default" and n not in ("vault", "now")
    ]
    f.add(
        "config",
        "ok",
        "settings are valid"
        + (f"; changed: {', '.join(changed)}" if changed else "; all defaults"),
    )


def check_watcher(
    root: Path, watcher: WatcherStatus | None, engine: VaultEngine | None, f: Findings
) -> None:
    if watcher is None and engine is not None and engine.watching:
        from cortexgraph_vault.handlers.graph.graph import vault_status

        watcher = vault_status(engine).watcher
    if watcher is not None and not watcher.running:
        f.add(
            "watcher",
            "problem",
            "the daemon's file watcher is not running: edits in Obsidian are only seen at the "
            "next full scan",
            "restart the daemon",
        )
    elif watcher is not None:
        age = watcher.heartbeat_age_seconds
        if age is not None and age > HEARTBEAT_STALE_SECONDS:
            said = f"the watcher's last heartbeat was {age:.0f} s ago"
            f.add("watcher", "warning", said, "restart the daemon")
        else:
            f.add("watcher", "ok", f"the watcher is running ({watcher.events} events seen)")
        for error in watcher.errors:
            f.add("watcher", "warning", f"watcher error: {error}")
    _check_inotify(root, f)


def _check_inotify(root: Path, f: Findings) -> None:
    limit_file = Path("/proc/sys/fs/inotify/max_user_watches")
    try:
        limit = int(limit_file.read_text().strip())
    except (OSError, ValueError):
        return
    folders = 0
    for _dir, dirs, _files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        folders += 1
    if folders > limit * 0.8:
        f.add(
            "watcher",
            "warning",
            f"the vault has {folders} folders and inotify allows {limit} watches",
            "sudo sysctl fs.inotify.max_user_watches=524288",
        )


def check_merge_driver(config: Config, history: Any, f: Findings, *, fix: bool) -> None:
    folders = [config.stm_folder, config.ltm_folder, config.archive_folder]
    fixed = ""
    try:
        state = history.merge_driver_state(folders, probe=True)
        if fix and (not state.installed or state.fails):
            fixed = "; ".join(history.install_merge_driver(folders))
            state = history.merge_driver_state(folders, probe=True)
    except VaultError as exc:
        f.add("sync", "warning", f"could not check or install the merge driver: {exc}")
        return
    done = f" (after installing: {fixed})" if fixed else ""
    fix_it = "cortexgraph-vault doctor --fix"
    if state.config_command and state.fails:
        f.add(
            "sync",
            "warning",
            f"the merge driver for memory notes does not run "
            f"({state.fails}): every merge of a memory used on two devices fails{done}",
            fix_it,
        )
    elif state.missing_lines or not state.config_command:
        missing = (
            "the .gitattributes lines" if state.missing_lines else "the command in .git/config"
        )
        f.add(
            "sync",
            "warning",
            f"the merge driver for memory notes lacks {missing}: a memory "
            "used on two devices would be a git conflict",
            fix_it,
        )
    elif not state.survives_upgrades:
        f.add(
            "sync",
            "warning",
            "the merge driver for memory notes runs, but by a path that a "
            "reinstall or upgrade would break",
            fix_it,
        )
    elif fixed:
        f.add("sync", "ok", f"installed the merge driver for memory notes ({fixed}); it runs")
    else:
        f.add("sync", "ok", "memory notes merge field by field (the merge driver runs)")


def check_index(engine: VaultEngine, f: Findings) -> None:
    cache = engine.index_cache.path
    if cache.exists():
        f.add("index", "ok", f"index cache {cache} ({cache.stat().st_size} bytes)")
    else:
        f.add(
            "index",
            "info",
            f"no index cache yet at {cache}; the next command writes one",
            "cortexgraph-vault reindex",
        )
    problems = engine.catalog.problems()
    conflicted = sorted({p for p, r in problems if r.startswith("merged with conflicting edits")})
    if conflicted:
        f.add(
            "sync",
            "warning",
            f"{len(conflicted)} memory notes hold edits from two devices to "
            f"the same lines, e.g. {conflicted[0]}",
            "open each, keep the words you want between the <<<<<<< and >>>>>>> lines, and "
            "delete its merge_conflict property",
        )
    if problems:
        paths = sorted({p for p, _ in problems})
        f.add(
            "notes",
            "warning",
            wording.partly_read_notes(len(paths), paths[0], problems[0][1]),
            "cortexgraph-vault stats lists them all; fix them in Obsidian",
        )
    else:
        f.add("notes", "ok", wording.notes_parse_cleanly(len(engine.catalog)))


def diagnose(
    config: Config, engine: VaultEngine | None = None, *, fix: bool = False
) -> DoctorResult:
    """Every check; `engine` (the caller's, if it has one) adds the index checks."""
    f = Findings()
    root = check_vault(config, f)
    check_config(config, f)
    check_token(f)
    if root is None:
        return f.result()
    check_git(config, root, f, fix=fix)
    check_lock(root, f)
    watcher = check_daemon(config, root, f)
    if engine is None:
        try:
            from cortexgraph_vault.engine import VaultEngine

            engine = VaultEngine(config)
        except (VaultError, OSError) as exc:
            f.add("index", "problem", f"the vault could not be opened: {exc}")
    check_watcher(root, watcher, engine, f)
    if engine is not None:
        check_index(engine, f)
    return f.result()
