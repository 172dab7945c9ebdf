"""A one-call process (a CLI command) writes the notes and words to the cache without making
the notes' vectors; the next search or a long-lived process makes them and completes the
cache, and what a search finds is what a fully built index finds."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cortexgraph_vault import engine as engine_module
from cortexgraph_vault.config import load_config, user_cache_dir
from cortexgraph_vault.index.cache.index_cache import CachedIndex, cache_path, load_cache
from cortexgraph_vault.index.vectors.embedder import Embedder
from cortexgraph_vault.service import MemoryService
from cortexgraph_vault.vault.layout import VaultLayout
from tests.conftest import NOW_ISO
from tests.index.index_helpers import words_signature

QUERIES = ["running a race", "coffee", "database choice", "pet", "who is my manager"]


def cached(vault: Path, cache_dir: Path | None = None) -> CachedIndex:
    """The vault's index cache as the next process will load it."""
    config = load_config({"vault": str(vault)})
    layout = VaultLayout(vault, config.stm_folder, config.ltm_folder, config.archive_folder)
    path = cache_path(cache_dir or user_cache_dir(), vault)
    found = load_cache(path, layout, config.max_note_bytes)
    assert found is not None, f"no usable cache at {path}"
    return found


def embedded_texts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the embedder is given from now on (in this process)."""
    texts: list[str] = []
    real = Embedder.embed

    def counting(self: Embedder, batch: list[str]):  # type: ignore[no-untyped-def]
        texts.extend(batch)
        return real(self, batch)

    monkeypatch.setattr(Embedder, "embed", counting)
    return texts


def service(vault: Path, *, one_call: bool) -> MemoryService:
    return MemoryService(load_config({"vault": str(vault), "now": NOW_ISO}), one_call=one_call)


def searches(svc: MemoryService) -> list[list[tuple[str, float]]]:
    return [[(h.path, h.score) for h in svc.search_unified(q, limit=10).results] for q in QUERIES]


def test_a_cold_cli_stats_writes_notes_and_words_but_makes_no_vectors(cli, git_vault: Path) -> None:  # type: ignore[no-untyped-def]
    done = cli("stats", vault=git_vault)
    assert done.code == 0, done.err
    index = cached(git_vault)
    notes = {p.relative_to(git_vault).as_posix() for p in git_vault.rglob("*.md")}
    assert set(index.notes) == notes
    assert index.vectors is None  # none made: the cache says so, and the next search makes them
    assert index.text().paths() == notes


def test_a_search_after_a_cold_stats_finds_what_a_fully_built_index_finds(  # type: ignore[no-untyped-def]
    cli, git_vault: Path, tmp_path: Path
) -> None:
    built = tmp_path / "built-cache"
    full = {"CORTEXGRAPH_CACHE_DIR": str(built)}
    # the reference: a cache a long-lived process wrote with every vector made
    subprocess.run(
        [sys.executable, "-c", "import sys; from cortexgraph_vault.config import load_config; "
         "from cortexgraph_vault.service import MemoryService; "
         "MemoryService(load_config({'vault': sys.argv[1]}))", str(git_vault)],
        env={**os.environ, **full}, check=True, timeout=120,
    )  # fmt: skip
    complete = cached(git_vault, built).vectors
    assert complete is not None and complete.complete
    assert cli("stats", vault=git_vault).code == 0  # the cache of this test: no vectors
    for query in QUERIES:
        lean = cli("--json", "search", query, vault=git_vault)
        reference = cli("--json", "search", query, vault=git_vault, env=full)
        assert lean.code == reference.code == 0, lean.err + reference.err
        assert lean.out == reference.out
    # vectors took part: by words alone the same query ranks with other similarities
    by_meaning = json.loads(cli("--json", "search", QUERIES[0], vault=git_vault).out)
    words_only = ("--json", "--set", "semantic_search=false", "search", QUERIES[0])
    by_words = json.loads(cli(*words_only, vault=git_vault).out)
    assert by_meaning["semantic"] is True and by_meaning["results"]
    similarity = [[r["similarity"] for r in a["results"]] for a in (by_meaning, by_words)]
    assert similarity[0] != similarity[1]
    # the first search made the vectors and completed the cache
    now = cached(git_vault).vectors
    assert now is not None and now.complete


@pytest.mark.parametrize("big", [False, True], ids=["small", "big"])
def test_a_cache_without_vectors_is_completed_not_rebuilt(
    git_vault: Path, monkeypatch: pytest.MonkeyPatch, big: bool
) -> None:
    reference = searches(service(git_vault, one_call=False))
    if big:  # its cache is written by a thread, behind the answer
        monkeypatch.setattr(engine_module, "BIG_VAULT_NOTES", 1)
    user_cache = user_cache_dir()
    monkeypatch.setenv("CORTEXGRAPH_CACHE_DIR", str(user_cache.parent / "another-cache"))
    embedded = embedded_texts(monkeypatch)
    cold = service(git_vault, one_call=True)
    assert cold.engine.catalog.parsed == len(cold.engine.catalog) and embedded == []
    assert cached(git_vault).vectors is None
    warm = service(git_vault, one_call=True)
    assert warm.engine.index_cache.loaded_at_start and warm.engine.catalog.parsed == 0
    assert embedded == []
    assert searches(warm) == reference
    assert len(embedded) == len(warm.engine.catalog)  # every note's vector, made once, here
    vectors = cached(git_vault).vectors
    assert vectors is not None and vectors.complete
    embedded.clear()
    later = service(git_vault, one_call=True)
    assert later.engine.catalog.parsed == 0
    assert searches(later) == reference
    assert embedded == []  # found in the cache: nothing embedded again


def test_a_long_lived_process_makes_the_missing_vectors_and_writes_them(
    git_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service(git_vault, one_call=True)
    assert cached(git_vault).vectors is None
    embedded = embedded_texts(monkeypatch)
    daemon_like = service(git_vault, one_call=False)
    assert daemon_like.engine.catalog.parsed == 0  # the words came from the cache
    assert len(embedded) == len(daemon_like.engine.catalog)
    vectors = cached(git_vault).vectors
    assert vectors is not None and vectors.complete
    embedded.clear()
    again = service(git_vault, one_call=False)
    assert again.engine.catalog.parsed == 0 and embedded == []


def test_a_one_call_process_after_a_few_edits_makes_no_vectors_and_leaves_the_cache(
    git_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference = searches(service(git_vault, one_call=False))  # a complete cache
    file = cache_path(user_cache_dir(), git_vault)
    written = file.stat().st_mtime_ns
    note = git_vault / "_stm" / "Oat milk in coffee.md"
    note.write_text(note.read_text("utf-8") + "\nShe switched to soy.\n", "utf-8")
    embedded = embedded_texts(monkeypatch)
    show = service(git_vault, one_call=True)
    assert show.engine.catalog.parsed == 1 and embedded == []
    assert file.stat().st_mtime_ns == written  # one changed note: not worth a rewrite
    assert searches(show)[0] == reference[0]
    assert embedded == [e for e in embedded if "soy" in e] and len(embedded) == 1  # when searched
    assert file.stat().st_mtime_ns == written
    vectors = cached(git_vault).vectors
    assert vectors is not None and vectors.complete


# --- kill -9 while the cache is written ----------------------------------------------------

# The CLI, with the cache writer stopped for good after its third pickle (the stamp, the
# header, then the first records): the file is half written when the test kills it.
HALTED_WRITER = """
import pickle, sys, time
from cortexgraph_vault.index.cache import index_cache as cache

class HaltedWrites:
    calls = 0
    def __getattr__(self, name):
        return getattr(pickle, name)
    def dump(self, obj, fh, protocol=None):
        pickle.dump(obj, fh, protocol=protocol)
        HaltedWrites.calls += 1
        if HaltedWrites.calls == 3:
            fh.flush()
            sys.stderr.write("writing the cache\\n")
            sys.stderr.flush()
            time.sleep(120)

cache.pickle = HaltedWrites()
from cortexgraph_vault.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def killed_while_writing(vault: Path, *command: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", HALTED_WRITER, "--vault", str(vault), "--now", NOW_ISO, *command],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line == "writing the cache\n", line + proc.stderr.read()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)


def test_kill_9_while_a_cold_start_writes_the_cache_leaves_none_and_the_next_rebuilds(  # type: ignore[no-untyped-def]
    cli, git_vault: Path
) -> None:
    reference = [cli("--json", "search", q, vault=git_vault).out for q in QUERIES]
    index_dir = user_cache_dir() / "index"
    for entry in index_dir.iterdir():
        entry.unlink()
    killed_while_writing(git_vault, "stats")
    assert [p for p in index_dir.iterdir() if not p.name.startswith(".")] == []
    assert [cli("--json", "search", q, vault=git_vault).out for q in QUERIES] == reference
    vectors = cached(git_vault).vectors
    assert vectors is not None and vectors.complete


def test_kill_9_while_a_search_completes_the_cache_keeps_the_one_it_had(  # type: ignore[no-untyped-def]
    cli, git_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cli("stats", vault=git_vault).code == 0
    before = cached(git_vault)
    assert before.vectors is None
    killed_while_writing(git_vault, "search", "coffee")
    after = cached(git_vault)  # the file the search started from, whole
    assert after.vectors is None and set(after.notes) == set(before.notes)
    assert words_signature(after.text()) == words_signature(before.text())
    embedded = embedded_texts(monkeypatch)
    warm = service(git_vault, one_call=True)
    assert warm.engine.catalog.parsed == 0
    found = searches(warm)
    assert len(embedded) == len(warm.engine.catalog)
    monkeypatch.setenv("CORTEXGRAPH_CACHE_DIR", str(user_cache_dir().parent / "another-cache"))
    assert found == searches(service(git_vault, one_call=False))
