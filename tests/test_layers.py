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
SHARED = {"models", "requests", "errors", "progress", "deferred_import"}


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
    lazy.write_text("def f():\n    import subprocess\n    from ..handlers import _private\n")
    assert imports_of(lazy, tmp_path) == [
        ("subprocess", 2, ()),
        ("cortexgraph_vault.handlers", 3, ("_private",)),
    ]


# A module named in a string (`deferred("…")`, `import_module("…")`, a table of module names)
# is imported all the same, but `lint-imports` reads only import statements.
MODULE_NAME = re.compile(r"^cortexgraph_vault(?:\.\w+)+$")
DYNAMIC_IMPORTS = {"deferred", "import_module"}


def string_imports_of(path: Path, root: Path = ROOT) -> tuple[list[tuple[str, int]], list[str]]:
    """Modules of ours that the file imports by name — a literal given to `deferred` or
    `import_module`, or a table (tuple, list) of module names — and the dynamic imports whose
    module cannot be read from the file (neither a literal nor `f"{__name__}.…"`, a module of
    its own package, nor a name when the file lists its modules in a table)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def module_name(node: ast.expr) -> bool:
        return isinstance(node, ast.Constant) and MODULE_NAME.match(str(node.value)) is not None

    named: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and module_name(node.args[0]):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in DYNAMIC_IMPORTS:
                named.append((node.args[0].value, node.lineno))  # type: ignore[attr-defined]
        elif (
            isinstance(node, ast.Tuple | ast.List)
            and node.elts
            and all(map(module_name, node.elts))
        ):
            named += [(e.value, e.lineno) for e in node.elts]  # type: ignore[attr-defined]
    unreadable = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if called not in DYNAMIC_IMPORTS:
            continue
        arg = node.args[0]
        literal = isinstance(arg, ast.Constant)
        own_package = (
            isinstance(arg, ast.JoinedStr)
            and isinstance(arg.values[0], ast.FormattedValue)
            and getattr(arg.values[0].value, "id", "") == "__name__"
        )
        listed = isinstance(arg, ast.Name) and bool(named)
        if not (literal or own_package or listed):
            unreadable.append(f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(arg)}")
    return named, unreadable


def importlinter_contracts() -> list[dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts: list[dict[str, object]] = config["tool"]["importlinter"]["contracts"]
    return contracts


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _ignored(source: str, target: str, patterns: object) -> bool:
    for pattern in patterns if isinstance(patterns, list) else []:
        left, right = (p.strip() for p in str(pattern).split("->"))
        wanted = right.removesuffix(".**")
        if source == left and (
            target == right or (right.endswith(".**") and _within(target, wanted))
        ):
            return True
    return False


def contract_breaches(source: str, target: str) -> list[str]:
    """The contracts of pyproject.toml that `source` importing `target` would break."""
    breaches = []
    for contract in importlinter_contracts():
        if contract["type"] == "layers":
            layers = [
                [name.strip() for name in str(layer).split("|")]
                for layer in contract["layers"]  # type: ignore[attr-defined]
            ]
            where = {name: i for i, names in enumerate(layers) for name in names}
            src = next((n for n in where if _within(source, n)), None)
            dst = next((n for n in where if _within(target, n)), None)
            if src and dst and src != dst and where[dst] <= where[src]:
                breaches.append(str(contract["name"]))
        elif contract["type"] == "forbidden":
            sources = contract["source_modules"]
            forbidden = contract["forbidden_modules"]
            if (
                any(_within(source, s) for s in sources)  # type: ignore[attr-defined]
                and any(_within(target, f) for f in forbidden)  # type: ignore[attr-defined]
                and not _ignored(source, target, contract.get("ignore_imports"))
            ):
                breaches.append(str(contract["name"]))
    return breaches


def module_of(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_modules_named_in_strings_keep_the_contracts_too() -> None:
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = module_of(path)
        named, unreadable = string_imports_of(path)
        if source == "cortexgraph_vault.deferred_import":
            unreadable = []  # the mechanism: its callers' literals are what is checked
        problems += [f"{u}: name the module in a string literal" for u in unreadable]
        for target, line in named:
            problems += [
                f"{path.relative_to(ROOT)}:{line}: {target}: breaks «{breach}»"
                for breach in contract_breaches(source, target)
            ]
    assert problems == []


def test_a_deferred_import_from_the_core_of_the_service_is_caught(tmp_path: Path) -> None:
    lazy = tmp_path / "cortexgraph_vault" / "core" / "lazy.py"
    lazy.parent.mkdir(parents=True)
    lazy.write_text(
        "from cortexgraph_vault.deferred_import import deferred\n"
        'service = deferred("cortexgraph_vault.service")\n'
        "def load(name):\n    return importlib.import_module(name)\n"
    )
    named, unreadable = string_imports_of(lazy, tmp_path)
    assert named == [("cortexgraph_vault.service", 2)]
    assert unreadable == []  # the file names its modules: `name` is one of them
    source = module_of(lazy, tmp_path)
    assert source == "cortexgraph_vault.core.lazy"
    assert contract_breaches(source, "cortexgraph_vault.service") == [
        "Layers: a layer imports only the layers below it"
    ]
    assert contract_breaches(
        "cortexgraph_vault.mcp.server", "cortexgraph_vault.handlers.search.search"
    ) == ["MCP and REST reach the vault only through the service"]
    assert (
        contract_breaches("cortexgraph_vault.service", "cortexgraph_vault.handlers.search.search")
        == []
    )
