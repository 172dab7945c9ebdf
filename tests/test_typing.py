"""The type checker's settings: the whole package strict, no module left out, and every kept
`type: ignore` naming the error it silences and why."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "cortexgraph_vault"
MYPY = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
KEPT_IGNORE = re.compile(r"type: ignore\[[\w-]+(?:, ?[\w-]+)*\]  # \S")


def test_the_package_is_checked_strictly() -> None:
    assert MYPY["files"] == ["cortexgraph_vault", "release"]
    assert MYPY["strict"] is True
    assert "ignore-without-code" in MYPY["enable_error_code"]
    for override in MYPY.get("overrides", []):
        relaxed = {k: v for k, v in override.items() if k != "module" and v is not True}
        assert relaxed == {}, f"an override turns a check off: {relaxed}"


def test_no_module_is_left_unchecked() -> None:
    unchecked = [
        override["module"]
        for override in MYPY.get("overrides", [])
        if override.get("ignore_errors") or override.get("follow_imports") == "skip"
    ]
    assert unchecked == []


def test_every_kept_type_ignore_names_its_error_and_why() -> None:
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 150
    kept = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "type: ignore" in line:
                where = f"{path.relative_to(REPO)}:{number}"
                assert KEPT_IGNORE.search(line), f"{where}: say which error is ignored and why"
                kept.append(where)
    # Two are left where no type can say it: a stand-in proxying the service, and a
    # function's __signature__ (which typeshed does not declare). A new one needs a reason.
    assert len(kept) <= 2, kept


def test_the_test_command_runs_mypy_before_pytest() -> None:
    script = (REPO / "scripts" / "test").read_text(encoding="utf-8")
    mypy = script.index('phase "mypy"\n')
    assert script.index("\n.venv/bin/mypy\n", mypy) < script.index('phase "pytest')
    dev = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert any(dep.startswith("mypy") for dep in dev["optional-dependencies"]["dev"])
