"""The layers of ARCHITECTURE.md, beyond what `lint-imports` checks (scripts/test runs that):
every part of the package has a place in the layer contract, the core does no I/O and reads no
clock, and no module borrows another package's private names. Imports inside functions count."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "cortexgraph_vault"

# What the core may not import: files, processes, sockets, threads, clocks.
IMPURE_MODULES = {
    "os", "io", "shutil", "subprocess", "socket", "tempfile", "time", "threading",
    "asyncio", "sqlite3", "git", "watchdog", "urllib.request", "http",
}  # fmt: skip
CLOCK_CALLS = re.compile(r"\b(?:datetime|date)\.(?:now|today|utcnow)\(|\btime\.time\(")
# Modules of ours that every layer may use (they import nothing of ours but each other).
SHARED = {"models", "errors", "progress", "deferred_import"}


def imports_of(path: Path, root: Path = ROOT) -> list[tuple[str, int, tuple[str, ...]]]:
    """Every import in the file, at any depth: (module, line, names), relative ones resolved."""
    package = list(path.relative_to(root).parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno, ()) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            found.append((module, node.lineno, tuple(a.name for a in node.names)))
    return found


def contract_layers() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    [layers] = [c["layers"] for c in contracts if c["type"] == "layers"]
    return {name.strip().split(".")[1] for layer in layers for name in layer.split("|")}


def test_every_part_of_the_package_has_a_layer() -> None:
    parts = {
        p.stem if p.is_file() else p.name
        for p in PACKAGE.iterdir()
        if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").is_file()
    }
    placed = contract_layers() | SHARED
    assert parts - placed == set(), "add these to the layers in pyproject.toml and ARCHITECTURE.md"


def test_the_core_does_no_io_and_reads_no_clock() -> None:
    problems = []
    for path in sorted((PACKAGE / "core").rglob("*.py")):
        for module, line, _ in imports_of(path):
            if module in IMPURE_MODULES or module.split(".")[0] in IMPURE_MODULES:
                problems.append(f"{path.relative_to(ROOT)}:{line}: imports {module}")
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if CLOCK_CALLS.search(text):
                problems.append(f"{path.relative_to(ROOT)}:{number}: reads the clock")
    assert problems == []


def test_no_module_borrows_another_packages_private_names() -> None:
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        own = path.relative_to(ROOT).parts[:2]
        for module, line, names in imports_of(path):
            if not module.startswith("cortexgraph_vault.") or tuple(module.split(".")[:2]) == own:
                continue
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            private += [p for p in module.split(".") if p.startswith("_") and p != "__init__"]
            if private:
                problems.append(f"{path.relative_to(ROOT)}:{line}: {module} {private}")
    assert problems == []


def test_the_checks_see_imports_inside_functions(tmp_path: Path) -> None:
    lazy = tmp_path / "cortexgraph_vault" / "core" / "lazy.py"
    lazy.parent.mkdir(parents=True)
    lazy.write_text("def f():\n    import subprocess\n    from ..ops import _private\n")
    assert imports_of(lazy, tmp_path) == [
        ("subprocess", 2, ()),
        ("cortexgraph_vault.ops", 3, ("_private",)),
    ]
