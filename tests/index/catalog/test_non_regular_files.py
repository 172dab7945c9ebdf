"""Only regular files inside the vault are ever read: a symlink (to a file elsewhere, or a
folder elsewhere) or a FIFO named like a note is reported as a problem and never opened for
reading, by the start-up walk, the watcher's reload, our own writes' record, or the store."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from cortexgraph_vault.errors import VaultError
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from cortexgraph_vault.index.watcher import VaultWatcher
from cortexgraph_vault.vault.layout import VaultLayout
from cortexgraph_vault.vault.lock import VaultLock
from cortexgraph_vault.vault.store import NoteStore
from tests.index.index_helpers import catalog_of, wait_until

SECRET = "zanzibarsecret"


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "secret.md").write_text(f"# Secret\n\nThe {SECRET} lives here.\n")
    (folder / "secret.txt").write_text(f"The {SECRET} as plain text.\n")
    return folder


def problems_of(catalog: VaultCatalog) -> dict[str, str]:
    return dict(catalog.problems())


def in_thread(fn: object, timeout: float = 5.0) -> None:
    """Run fn in a thread; fail (instead of hanging the suite) when it does not return."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            fn()  # type: ignore[operator]
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), f"{fn} still blocked after {timeout} s"
    if errors:
        raise errors[0]


def test_the_walk_reports_symlinks_and_fifos_and_reads_neither(
    link_vault: Path, elsewhere: Path
) -> None:
    (link_vault / "_stm" / "leak.md").symlink_to(elsewhere / "secret.md")
    (link_vault / "leak-txt.md").symlink_to(elsewhere / "secret.txt")
    os.mkfifo(link_vault / "_stm" / "fifo.md")
    catalog = VaultCatalog(VaultLayout(link_vault))
    in_thread(catalog.refresh)
    assert catalog.search_text([SECRET])[0] == {}
    problems = problems_of(catalog)
    assert "symbolic link" in problems["_stm/leak.md"]
    assert "symbolic link" in problems["leak-txt.md"]
    assert "FIFO" in problems["_stm/fifo.md"]
    assert catalog.note("_stm/leak.md") is None


def test_reload_of_a_symlink_never_reads_its_target(link_vault: Path, elsewhere: Path) -> None:
    catalog = catalog_of(link_vault)
    (link_vault / "_stm" / "leak.md").symlink_to(elsewhere / "secret.md")
    in_thread(lambda: catalog.reload("_stm/leak.md"))
    assert catalog.note("_stm/leak.md") is None
    assert catalog.search_text([SECRET])[0] == {}
    assert "symbolic link" in problems_of(catalog)["_stm/leak.md"]


def test_a_note_replaced_by_a_symlink_is_taken_out(link_vault: Path, elsewhere: Path) -> None:
    catalog = catalog_of(link_vault)
    assert catalog.note("Lonely.md") is not None
    (link_vault / "Lonely.md").unlink()
    (link_vault / "Lonely.md").symlink_to(elsewhere / "secret.md")
    in_thread(lambda: catalog.reload("Lonely.md"))
    assert catalog.note("Lonely.md") is None
    assert catalog.search_text([SECRET])[0] == {}
    # the reconciling walk agrees: it is not a note any more, but it is there
    catalog.refresh()
    assert catalog.note("Lonely.md") is None
    assert "symbolic link" in problems_of(catalog)["Lonely.md"]


def test_a_symlinked_folder_inside_the_vault_is_not_followed(
    link_vault: Path, elsewhere: Path
) -> None:
    catalog = catalog_of(link_vault)
    (link_vault / "_stm" / "sub").symlink_to(elsewhere, target_is_directory=True)
    in_thread(lambda: catalog.reload("_stm/sub/secret.md"))
    assert catalog.note("_stm/sub/secret.md") is None
    assert catalog.search_text([SECRET])[0] == {}
    assert "outside the vault" in problems_of(catalog)["_stm/sub/secret.md"]


def test_reload_and_record_of_a_fifo_return_at_once(link_vault: Path) -> None:
    catalog = catalog_of(link_vault)
    os.mkfifo(link_vault / "_stm" / "fifo.md")
    in_thread(lambda: catalog.reload("_stm/fifo.md"))
    assert "FIFO" in problems_of(catalog)["_stm/fifo.md"]
    # a note of ours replaced by a FIFO just after our write
    (link_vault / "Lonely.md").unlink()
    os.mkfifo(link_vault / "Lonely.md")
    in_thread(lambda: catalog.record("Lonely.md", b"Nobody links here.\n"))
    assert catalog.note("Lonely.md") is None
    assert "FIFO" in problems_of(catalog)["Lonely.md"]


def test_the_watcher_never_serves_a_symlink_and_survives_a_fifo(
    link_vault: Path, elsewhere: Path
) -> None:
    catalog = catalog_of(link_vault)
    watcher = VaultWatcher(catalog, debounce=0.03, max_delay=0.2)
    watcher.start()
    try:
        (link_vault / "_stm" / "leak.md").symlink_to(elsewhere / "secret.md")
        os.mkfifo(link_vault / "_stm" / "fifo.md")
        (link_vault / "_stm" / "after.md").write_text("A note written after: quokka.\n")
        wait_until(lambda: bool(catalog.search_text(["quokka"])[0]), what="the note after")
        wait_until(lambda: "_stm/fifo.md" in problems_of(catalog), what="the FIFO reported")
        assert catalog.search_text([SECRET])[0] == {}
        assert catalog.note("_stm/leak.md") is None
    finally:
        in_thread(watcher.stop, timeout=15)


def refusal_of(read: Callable[[], object]) -> str:
    caught: list[str] = []

    def attempt() -> None:
        try:
            read()
        except VaultError as exc:
            caught.append(str(exc))

    in_thread(attempt)
    assert caught, "it was read"
    return caught[0]


def test_the_store_refuses_to_read_a_symlink_or_a_fifo(link_vault: Path, elsewhere: Path) -> None:
    store = NoteStore(VaultLayout(link_vault), VaultLock(link_vault, link_vault.parent / "locks"))
    (link_vault / "_stm" / "leak.md").symlink_to(elsewhere / "secret.md")
    (link_vault / "_stm" / "twin.md").symlink_to(link_vault / "Lonely.md")
    os.mkfifo(link_vault / "_stm" / "fifo.md")
    assert "outside the vault" in refusal_of(lambda: store.read("_stm/leak.md"))
    for rel, reason in (("_stm/twin.md", "symbolic link"), ("_stm/fifo.md", "FIFO")):
        refused = refusal_of(lambda rel=rel: store.read(rel))  # type: ignore[misc]
        assert rel in refused and reason in refused


def test_a_name_that_is_not_utf8_is_reported_while_it_is_there(link_vault: Path) -> None:
    catalog = catalog_of(link_vault)
    bad = os.path.join(os.fsencode(link_vault / "_stm"), b"caf\xe9.md")
    with open(bad, "wb") as fh:
        fh.write(b"# Cafe\n\nquokka\n")
    rel = os.fsdecode(bad)[len(str(link_vault)) + 1 :]
    catalog.reload(rel)
    assert "not UTF-8" in problems_of(catalog)["_stm/caf\\xe9.md"]
    assert catalog.search_text(["quokka"])[0] == {}
    os.unlink(bad)
    catalog.reload(rel)
    assert "_stm/caf\\xe9.md" not in problems_of(catalog)
