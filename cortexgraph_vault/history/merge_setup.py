"""Installing the merge driver for memory notes in a vault's repository.

Two halves, because git versions one and not the other: the `.gitattributes` line that routes
memory notes to the driver is committed (every clone gets it), while the `[merge "cortexgraph"]`
section naming the command lives in `.git/config`, which every clone must get from `init` or
`doctor --fix`.

The command must outlive the install that wrote it: a person upgrades with `uv tool`, moves to
a new venv, deletes a checkout's .venv, and every merge of a memory would then fail. So it is
a short shell chain, tried in order, the first program found running `merge-driver`:

1. `cortexgraph-vault` on the PATH of the process that merges (a terminal, obsidian-git);
2. `~/.local/bin/cortexgraph-vault`, where `uv tool install` and `pipx install` put it (a
   desktop app's PATH often lacks that folder);
3. the `cortexgraph-vault` that wrote the chain, by its absolute path (a checkout's .venv);
4. the Python that wrote it, running `-m cortexgraph_vault.merge_driver`.

None found: one line on stderr naming `doctor --fix`, and git keeps the note in conflict.
`doctor` runs the configured command on a probe note to see that it merges.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cortexgraph_vault.core import wording
from cortexgraph_vault.history.recording import record
from cortexgraph_vault.history.runner import GitRunner

DRIVER = "cortexgraph"
DRIVER_TITLE = "cortexgraph-vault memory notes (field by field)"
ATTRIBUTES_HEADER = (
    "# Written by cortexgraph-vault: memory notes merge field by field across devices."
)


PROGRAM = "cortexgraph-vault"
SUBCOMMAND = "merge-driver"
PLACEHOLDERS = "%O %A %B %L %P"  # base, ours (the result goes there), theirs, marker size, path
CHAIN_NAME = "cortexgraph-vault-merge"  # $0 of the chain's shell, named in its messages


def this_program() -> Path | None:
    """The `cortexgraph-vault` program of this install, if there is one."""
    script = Path(sys.argv[0])
    if script.name == PROGRAM and script.is_file():
        return script.absolute()
    beside = Path(sys.executable).absolute().parent / PROGRAM
    return beside if beside.is_file() else None


def driver_command() -> str:
    """The chain of the module's docstring, as this install writes it."""
    programs = [PROGRAM, f'"$HOME"/.local/bin/{PROGRAM}']
    mine = this_program()
    if mine is not None:
        programs.append(shlex.quote(str(mine)))
    python = shlex.quote(str(Path(sys.executable).absolute()))
    script = (
        f"for p in {' '.join(programs)}; do "
        f'if command -v "$p" >/dev/null 2>&1; then exec "$p" {SUBCOMMAND} "$@"; fi; done; '
        f'if [ -x {python} ]; then exec {python} -m cortexgraph_vault.merge_driver "$@"; fi; '
        f'echo "$0: no {PROGRAM} program found (PATH, ~/.local/bin, where it was installed); '
        f'run: {PROGRAM} doctor --fix" >&2; exit 1'
    )
    return f"sh -c {shlex.quote(script)} {CHAIN_NAME} {PLACEHOLDERS}"


def probe_driver(command: str, cwd: Path) -> str | None:
    """Run `command` as git runs a merge driver, on one small memory note changed alike on
    both sides; None when it merged, else why not (its exit status and last words)."""
    with tempfile.TemporaryDirectory(prefix="cortexgraph-merge-probe-") as folder:
        note = b"---\nid: merge-driver-probe\nuse_count: 1\n---\nA probe of the merge driver.\n"
        files = {name: Path(folder) / name for name in ("base", "ours", "theirs")}
        for file in files.values():
            file.write_bytes(note)
        line = (
            command.replace("%O", shlex.quote(str(files["base"])))
            .replace("%A", shlex.quote(str(files["ours"])))
            .replace("%B", shlex.quote(str(files["theirs"])))
            .replace("%L", "7")
            .replace("%P", shlex.quote("_stm/merge-driver-probe.md"))
        )
        shell = shutil.which("sh") or "/bin/sh"
        try:
            ran = subprocess.run([shell, "-c", line], cwd=cwd, capture_output=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"could not run it: {exc}"
        if ran.returncode == 0 and files["ours"].read_bytes() == note:
            return None
        said = ran.stderr.decode(errors="replace").strip().splitlines()
        return f"exit status {ran.returncode}" + (f": {said[-1]}" if said else "")


def attribute_lines(folders: Iterable[str]) -> list[str]:
    # gitattributes splits on whitespace: a space in a folder name is written as a class.
    return [
        f"{folder.strip('/').replace(' ', '[[:space:]]')}/**/*.md merge={DRIVER}"
        for folder in folders
    ]


@dataclass(frozen=True)
class DriverState:
    config_command: str | None  # what .git/config says, if anything
    missing_lines: tuple[str, ...]  # .gitattributes lines the vault lacks
    # with `probe`: why the configured command did not merge a probe note (None: it did)
    fails: str | None = None

    @property
    def installed(self) -> bool:
        return self.config_command == driver_command() and not self.missing_lines

    @property
    def survives_upgrades(self) -> bool:
        """The command is a chain that finds `cortexgraph-vault` anew at each merge (not an
        older single absolute path)."""
        return self.config_command is not None and f'"$p" {SUBCOMMAND}' in self.config_command


def driver_state(runner: GitRunner, folders: Iterable[str], *, probe: bool = False) -> DriverState:
    """What the clone has of the driver; `probe`: also run its command on a probe note."""
    found = runner.run("config", "--local", "--get", f"merge.{DRIVER}.driver")
    command = found.out.decode().strip() if found.ok else None
    path = runner.vault_root / ".gitattributes"
    try:
        present = {line.strip() for line in path.read_text(encoding="utf-8").splitlines()}
    except (FileNotFoundError, UnicodeDecodeError):
        present = set()
    missing = tuple(line for line in attribute_lines(folders) if line not in present)
    fails = probe_driver(command, runner.vault_root) if probe and command else None
    return DriverState(command, missing, fails)


def install_driver(runner: GitRunner, folders: Iterable[str], lock_wait: float) -> list[str]:
    """Make the driver work in this clone; returns what was changed (empty: nothing needed)."""
    folders = list(folders)
    state = driver_state(runner, folders)
    done: list[str] = []
    if state.config_command != driver_command():
        runner.check("config", "--local", f"merge.{DRIVER}.name", DRIVER_TITLE)
        runner.check("config", "--local", f"merge.{DRIVER}.driver", driver_command())
        done.append(f"merge driver in {runner.git_dir / 'config'}")
    if state.missing_lines:
        path = runner.vault_root / ".gitattributes"
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        if text and not text.endswith("\n"):
            text += "\n"
        if ATTRIBUTES_HEADER not in text:
            text += ATTRIBUTES_HEADER + "\n"
        path.write_text(text + "".join(f"{line}\n" for line in state.missing_lines), "utf-8")
        if runner.has_head():
            message = "cortexgraph-vault: merge memory notes field by field"
            record(runner, [".gitattributes"], message, lock_wait)
        done.append(f"{wording.count(len(state.missing_lines), 'line')} in {path}")
    return done
