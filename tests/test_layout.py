"""The tests mirror the source: every module of `core/` and `handlers/` has a test file, so a
new module without tests is noticed here rather than in a review.

A module counts as tested when a test file imports it, or when a file named after it sits in
the mirrored folder (`tests/handlers/search/test_search.py` or `test_search_*.py` beside it for
`cortexgraph_vault/handlers/search/search.py`): most handlers are reached through the service,
as a door reaches them, and their tests rightly import only the service.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
MIRRORED = ("core", "handlers")

# Modules without a test file of their own, and why that is right: each is a part of a larger
# operation and is exercised through the tests named. A module listed here that gains its own
# test file must leave the list (test_every_exception_is_still_needed).
EXCEPTIONS: dict[str, str] = {
    "core.credential_phrases": "phrasings of credentials: tests/core/test_secrets.py (540 labelled)",
    "core.credential_words": "word lists of core/credential_phrases: tests/core/test_secrets.py",
    "core.block_scan": "the Markdown block scanner of core/code_ranges: tests/core/test_code_ranges.py",
    "core.english": "word lists of core/intent, enrich, gazetteer: tests/core/test_intent*.py ...",
    "core.relation_types": "one Literal: tests/operations/test_cli_options.py (relate --type), tests/importers/test_import_cortexgraph.py",
    "core.recall_bar": "the bar of core/use_relevance: tests/core/test_use_relevance.py, its labelled set",
    "core.synonyms": "a word table of handlers/search/relevance: tests/index/vectors/test_recall.py, tests/handlers/search/test_search.py",
    "core.yaml_values": "scalar formatting of core/note: tests/core/test_note*.py round-trips",
    "handlers.graph.catalog_memo": "a per-catalogue cache: tests/handlers/graph/test_relation_index.py (follows edits)",
    "handlers.search.current_facts": "search's current fact first: tests/handlers/writes/test_supersession.py, test_search.py",
    "handlers.history.memory_past": "history/version/restore/forgotten: tests/test_service.py, tests/history/",
    "handlers.vault.memory_import": "imports: tests/importers/test_import_cortexgraph.py, test_memory_json_import.py",
    "handlers.intelligence.merging": "the merge step of consolidate: tests/handlers/intelligence/test_consolidate.py",
    "handlers.writes.note_fields": "field changes of writes: tests/test_service.py",
    "handlers.browse.notes": "read_note: tests/mcp/test_mcp_read_note.py, tests/handlers/browse/test_result_budget.py",
    "handlers.search.search_page": "the page of a search: tests/handlers/search/test_search.py, tests/handlers/browse/test_answer_budget.py",
    "handlers.sync.sync": "multi-device scenarios: tests/integration/test_sync*.py, reliability/test_devices.py",
    "handlers.sync.sync_ids": "id merging during sync: tests/integration/test_sync.py",
    "handlers.sync.sync_record": "the last-sync record: tests/integration/test_sync.py",
    "handlers.lifecycle.undo": "rolling back a failed commit: tests/integration/test_git_faults.py, reliability/",
    "handlers.vault.vault_setup": "init/config: tests/cli/test_main.py, integration/test_merge_driver.py, api/",
}


def modules(root: Path = ROOT) -> list[str]:
    package = root / "cortexgraph_vault"
    return sorted(
        ".".join(path.relative_to(package).with_suffix("").parts)
        for pkg in MIRRORED
        for path in (package / pkg).rglob("*.py")
        if path.stem != "__init__"
    )


def imported_by_tests(tests: Path = TESTS) -> set[str]:
    """Every `cortexgraph_vault.<pkg>…<module>` some test file imports (`pkg.….module` keys)."""
    seen: set[str] = set()
    for path in tests.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                if len(parts) >= 3 and parts[0] == "cortexgraph_vault" and parts[1] in MIRRORED:
                    seen.update(".".join(parts[1:end]) for end in range(3, len(parts) + 1))
    return seen


def named_after(module: str, tests: Path = TESTS) -> list[Path]:
    *folders, stem = module.split(".")
    folder = tests.joinpath(*folders)
    return [*folder.glob(f"test_{stem}.py"), *folder.glob(f"test_{stem}_*.py")]


def untested(root: Path = ROOT) -> list[str]:
    tests = root / "tests"
    imported = imported_by_tests(tests)
    return [m for m in modules(root) if m not in imported and not named_after(m, tests)]


def test_every_core_and_handlers_module_has_a_test_file() -> None:
    missing = [m for m in untested() if m not in EXCEPTIONS]
    assert not missing, (
        "modules without a test file (add tests/<pkg>/test_<module>.py, or a reasoned "
        f"entry in EXCEPTIONS of {Path(__file__).name}): {missing}"
    )


def test_every_exception_is_still_needed() -> None:
    stale = sorted(set(EXCEPTIONS) - set(untested()))
    assert not stale, (
        f"these modules have tests now or are gone; remove them from EXCEPTIONS: {stale}"
    )


def test_the_guard_notices_a_module_without_tests(tmp_path: Path) -> None:
    # The guard itself must be able to fail: a new handler no test mentions is reported,
    # and a test file named after it in the mirrored folder, or one importing it, answers for it.
    (tmp_path / "cortexgraph_vault" / "core").mkdir(parents=True)
    (tmp_path / "cortexgraph_vault" / "handlers" / "search").mkdir(parents=True)
    (tmp_path / "cortexgraph_vault" / "handlers" / "search" / "brand_new.py").write_text(
        '"""Untested."""\n'
    )
    (tmp_path / "cortexgraph_vault" / "core" / "pure.py").write_text('"""Untested."""\n')
    (tmp_path / "tests" / "handlers" / "search").mkdir(parents=True)
    (tmp_path / "tests" / "handlers" / "test_brand_new.py").write_text("")
    assert untested(tmp_path) == ["core.pure", "handlers.search.brand_new"]
    (tmp_path / "tests" / "handlers" / "search" / "test_brand_new_paths.py").write_text("")
    (tmp_path / "tests" / "test_other.py").write_text("from cortexgraph_vault.core import pure\n")
    assert untested(tmp_path) == []
