"""Which tests take the tests' clock (`NOW`, `NOW_ISO`, `CLOCK_SHIFT` of tests/conftest.py):
the ones `./scripts/test` runs a second time with it moved the other way.

A test takes the clock when the clock can reach what it runs: its own code, a parametrize
argument, a fixture it asks for (directly or through another fixture), or any function,
class or module-level value of the tests' code that one of those names, followed through
every module under `tests/` (the builders, a folder's helpers). Read from the source (the
syntax tree), name by name: a value computed from the clock at import time
(`OLD = NOW - timedelta(days=40)`) carries it as well as a function that reads it. A test
none of whose code can reach the clock runs the same whichever way the clock is moved, so a
second run would tell nothing; one that asks for a fixture by string
(`request.getfixturevalue`) is counted as taking it.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import sys
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path

ROOTS = frozenset({"NOW", "NOW_ISO", "CLOCK_SHIFT"})
# A fixture reached by its name in a string is not in the test's fixture closure: assume clock.
DYNAMIC = frozenset({"getfixturevalue"})
TESTS = Path(__file__).resolve().parent


def _names_bound(stmt: ast.stmt) -> set[str]:
    """The module-level names one top-level statement binds."""
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {stmt.name}
    if isinstance(stmt, ast.Import | ast.ImportFrom):
        return {(a.asname or a.name).split(".")[0] for a in stmt.names}
    bound: set[str] = set()
    for sub in ast.walk(stmt):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            bound.add(sub.id)
    return bound


def _statement_names(stmt: ast.stmt, file: Path) -> tuple[set[str], set[str]]:
    """The module-level names a top-level statement of the module at `file` binds, and every
    name it reads with every attribute it reads that is a root, in one walk of it (the walks
    are most of the marking's time). An import inside a function or a guard that brings in
    something reaching the clock counts as reading a root."""
    definition = isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    bound = _names_bound(stmt) if definition else set()
    used: set[str] = set()
    for sub in ast.walk(stmt):
        if isinstance(sub, ast.Name):
            used.add(sub.id)
            if not definition and isinstance(sub.ctx, ast.Store):
                bound.add(sub.id)
        elif isinstance(sub, ast.Attribute) and (sub.attr in ROOTS or sub.attr in DYNAMIC):
            used.add(sub.attr)
        elif isinstance(sub, ast.Import | ast.ImportFrom) and _imported_clock_names(sub, file):
            used |= ROOTS
    return bound, used


@lru_cache(maxsize=16)
def _syntax_tree(file: Path) -> ast.Module:
    """A test module's syntax tree, parsed once for both readings of it (`_defined_names`,
    `clock_names`), which come one after the other; the last few kept, not all."""
    return ast.parse(file.read_text(encoding="utf-8"), filename=str(file))


def _module_file(name: str) -> Path | None:
    module = sys.modules.get(name)
    file = getattr(module, "__file__", None)
    if file is None:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            return None
        file = spec.origin if spec is not None else None
    return Path(file).resolve() if file else None


@cache
def _in_tests(file: Path | None) -> bool:
    return file is not None and file.suffix == ".py" and file.is_relative_to(TESTS)


def _imported_clock_names(stmt: ast.Import | ast.ImportFrom, file: Path) -> set[str]:
    """The names an import binds to something of another test module that reaches the clock."""
    if isinstance(stmt, ast.ImportFrom):
        source = _module_file(stmt.module) if stmt.module and stmt.level == 0 else None
        if not _in_tests(source) or source is None or source == file:
            return set()
        theirs = clock_names(source)
        return {a.asname or a.name for a in stmt.names if a.name in theirs or a.name == "*"}
    found = set()
    for alias in stmt.names:
        source = _module_file(alias.name)
        if _in_tests(source) and source is not None and source != file and clock_names(source):
            found.add((alias.asname or alias.name).split(".")[0])
    return found


_reading: set[Path] = set()  # the modules whose names are being worked out (an import cycle)


@cache
def clock_names(file: Path) -> frozenset[str]:
    """The top-level names of the test module at `file` that can reach the clock. A module
    met again through an import cycle counts every name it binds as reaching the clock: a
    test marked once too often costs a run, one missed would hide a date it leans on."""
    tree = _syntax_tree(file)
    if file in _reading:
        return frozenset(ROOTS | {n for s in tree.body for n in _names_bound(s)})
    _reading.add(file)
    try:
        return _clock_names(file, tree)
    finally:
        _reading.discard(file)


def _clock_names(file: Path, tree: ast.Module) -> frozenset[str]:
    tainted = set(ROOTS)
    reads: list[tuple[set[str], set[str]]] = []  # (names bound, names read) per statement
    for stmt in tree.body:
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            imported = _imported_clock_names(stmt, file)
            if "*" in imported:  # any name may carry the clock: count every one as doing so
                return frozenset(ROOTS | {n for s in tree.body for n in _names_bound(s)})
            tainted |= imported
            continue
        bound, used = _statement_names(stmt, file)
        if isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign):
            # `NOW = ...` binds a root; its own right-hand side need not name one.
            used |= bound & ROOTS
        reads.append((bound, used))
    changed = True
    while changed:
        changed = False
        for bound, used in reads:
            if bound - tainted and used & (tainted | DYNAMIC):
                tainted |= bound
                changed = True
    return frozenset(tainted)


def _reaches_the_clock(file: Path | None, qualname: str, code: object) -> bool:
    """Whether the function `qualname` of the module at `file` (a test or a fixture) can reach
    the clock. Code of no module under tests/ (pytest's own fixtures, the package's) cannot."""
    if not _in_tests(file) or file is None:
        return False
    top = qualname.split(".")[0]
    if top in _defined_names(file):
        return top in clock_names(file)
    # Defined inside another function: what its own code names, and the module's clock names.
    used = set(getattr(code, "co_names", ()))
    return bool(used & (clock_names(file) | DYNAMIC))


@cache
def _defined_names(file: Path) -> frozenset[str]:
    tree = _syntax_tree(file)
    return frozenset(name for stmt in tree.body for name in _names_bound(stmt))


def _function_file(function: object) -> Path | None:
    code = getattr(inspect.unwrap(function), "__code__", None)
    return _resolved(code.co_filename) if code is not None else None


@cache
def _resolved(filename: str) -> Path:
    """A file's resolved path, asked once: every test asks it of each fixture of its closure
    (the same few hundred files), each time a walk of the folders' links."""
    return Path(filename).resolve()


def takes_the_clock(module_file: Path, test: object, fixtures: Iterable[object]) -> bool:
    """Whether a collected test (its module's file, its function, the functions of the
    fixtures in its closure) takes the clock: its function, its module's `pytestmark` or
    `pytest_generate_tests`, or one of the fixtures can reach it."""
    module_file = _resolved(str(module_file))
    qualname = getattr(test, "__qualname__", "") or ""
    code = getattr(inspect.unwrap(test), "__code__", None)
    if _reaches_the_clock(module_file, qualname, code):
        return True
    if _in_tests(module_file) and {"pytestmark", "pytest_generate_tests"} & clock_names(
        module_file
    ):
        return True
    return any(_fixture_reaches_the_clock(f) for f in fixtures)


def _fixture_reaches_the_clock(fixture: object) -> bool:
    qualname = getattr(fixture, "__qualname__", "") or ""
    return _reaches_the_clock(_function_file(fixture), qualname, getattr(fixture, "__code__", None))
