"""`sync` with a git remote through the real service and real git: clean merges, structural
conflicts between devices (README, "One memory on several devices"), and every refusal."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from cortexgraph_vault.errors import SyncError
from cortexgraph_vault.progress import TransferLine, steps_to
from tests.integration.clones import Devices, a_memory, fields, git, service

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TEA = "3f1c9a0e-0000-4000-8000-0000000000aa"
NOTE = "_stm/Tea.md"
LATER = timedelta(days=200)  # long enough for the tea memory to fade below the forget threshold
COFFEE = {
    "coffee-1": "Maya takes oat milk in her coffee, never cow's milk.",
    "coffee-2": "Maya takes oat milk in coffee, never cow's milk.",
    "coffee-3": "maya takes oat milk in her coffee, never cow's milk",
}


@pytest.fixture
def d(tmp_path: Path) -> Devices:
    return Devices(tmp_path, {NOTE: a_memory(TEA, uses=5)}, NOW)


def commit_count(vault: Path) -> int:
    return int(git(vault, "rev-list", "--count", "HEAD").stdout)


def test_two_devices_sync_their_uses_exactly_and_end_in_step(d: Devices) -> None:
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    s_laptop, s_desktop = (
        d.service(laptop, timedelta(hours=1)),
        d.service(desktop, timedelta(hours=2)),
    )
    for _ in range(2):
        s_laptop.touch(TEA)
    for _ in range(3):
        s_desktop.touch(TEA)
    first = s_laptop.sync()
    assert first.recorded == 1 and first.sent == 1 and first.received == 0
    steps: list[str] = []
    with steps_to(steps.append):
        second = s_desktop.sync()
    assert second.received == 1 and second.sent == 2  # its snapshot and the merge
    assert [s for s in steps if not isinstance(s, TransferLine)] == [
        "recorded 1 memories used here", "fetching from origin",
        "bringing in 1 commit from origin", "sending 2 commits to origin",
    ]  # fmt: skip
    assert second.merged == [NOTE] and second.message.startswith("1 memory merged from origin")
    third = s_laptop.sync()
    assert third.received == 2 and third.sent == 0
    for vault in (laptop, desktop):
        assert fields(vault / NOTE)["use_count"] == 5 + 2 + 3
        assert git(vault, "status", "--porcelain").stdout == ""
    assert git(laptop, "rev-parse", "HEAD").stdout == git(desktop, "rev-parse", "HEAD").stdout
    # The index follows the merge at once.
    assert s_laptop.open([TEA]).memories[0].use_count == 10


def test_sync_with_nothing_to_do_changes_nothing(d: Devices) -> None:
    laptop = d.clone("laptop")
    s = d.service(laptop)
    s.sync()
    before = git(laptop, "rev-parse", "HEAD").stdout
    result = s.sync()
    assert result.up_to_date and result.message == "already in step with origin"
    assert git(laptop, "rev-parse", "HEAD").stdout == before


def test_forgotten_here_but_used_there_is_kept_by_its_merged_history(d: Devices) -> None:
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    gc = d.service(laptop, LATER).gc(dry_run=False)
    assert TEA in gc.memory_ids
    d.service(laptop, LATER).sync()
    used = d.service(desktop, LATER)
    used.touch(TEA)
    result = used.sync()
    [decision] = result.decisions
    assert decision.rule == "forgotten-vs-used" and decision.outcome.startswith("kept")
    assert fields(desktop / NOTE)["use_count"] == 6
    message = git(desktop, "log", "-1", "--format=%B").stdout
    assert f"Cortexgraph-Kept: {TEA}" in message
    d.service(laptop, LATER).sync()
    assert fields(laptop / NOTE)["use_count"] == 6


def test_forgotten_here_and_used_there_long_ago_stays_forgotten(d: Devices) -> None:
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    early = d.service(desktop)
    early.touch(TEA)  # a use at NOW: by NOW + 60 days it has faded all the same
    early.snapshot()
    d.service(laptop, LATER).gc(dry_run=False)
    d.service(laptop, LATER).sync()
    result = d.service(desktop, LATER).sync()
    [decision] = result.decisions
    assert decision.outcome.startswith("forgotten") and decision.score is not None
    assert decision.score < 0.05
    assert not (desktop / NOTE).exists()
    assert f"Cortexgraph-Forgotten: {TEA}" in git(desktop, "log", "-1", "--format=%B").stdout
    assert TEA in [f.id for f in d.service(desktop, LATER).forgotten().forgotten]


def test_promoted_on_one_device_and_touched_on_the_other_is_one_promoted_note(d: Devices) -> None:
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    d.service(laptop).promote(TEA, force=True)
    d.service(laptop).sync()
    s = d.service(desktop, timedelta(hours=1))
    s.touch(TEA)
    s.touch(TEA)
    s.sync()
    assert not (desktop / NOTE).exists()
    promoted = fields(desktop / "memories/Tea.md")
    assert promoted["use_count"] == 7 and promoted["status"] == "promoted"
    assert len(list(desktop.rglob("Tea*.md"))) == 1


def test_same_title_saved_on_both_devices_keeps_both(d: Devices) -> None:
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    one = d.service(laptop).save("Standup moved to 9:30 on Mondays.", title="Standup")
    d.service(laptop).sync()
    two = d.service(desktop).save("Standup is now in room B.", title="Standup")
    result = d.service(desktop).sync()
    assert [x.rule for x in result.decisions] == ["two-memories"]
    ids = {str(fields(p)["id"]) for p in (desktop / "_stm").glob("Standup*.md")}
    assert ids == {one.id, two.id}
    assert git(desktop, "status", "--porcelain").stdout == ""
    d.service(laptop).sync()
    assert {str(fields(p)["id"]) for p in (laptop / "_stm").glob("Standup*.md")} == ids


def test_consolidated_on_one_device_while_an_original_was_touched(tmp_path: Path) -> None:
    notes = {
        f"_stm/{mid}.md": a_memory(mid, uses=2, body=text + "\n") for mid, text in COFFEE.items()
    }
    d = Devices(tmp_path, notes, NOW)
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    s = d.service(laptop)
    [cluster] = [c for c in s.cluster().clusters if "coffee-1" in c.memory_ids]
    s.consolidate(cluster_id=cluster.id, mode="apply")
    s.sync()
    touched = d.service(desktop, timedelta(hours=1))
    touched.touch("coffee-2")
    touched.sync()
    holders = [p for p in desktop.rglob("*.md") if fields(p).get("id") == "coffee-2"]
    assert len(holders) == 1, holders
    [original] = holders
    assert fields(original)["use_count"] == 3 and fields(original)["status"] == "archived"
    assert not (desktop / "_stm/coffee-2.md").exists()


def test_no_remote_is_a_clear_refusal(tmp_path: Path) -> None:
    vault = tmp_path / "solo"
    vault.mkdir()
    (vault / "_stm").mkdir()
    s = service(vault, NOW)
    s.init_git()
    with pytest.raises(SyncError, match="no remote to sync with; add one: git remote add origin"):
        s.sync()


def test_an_unknown_remote_name_is_refused(d: Devices) -> None:
    with pytest.raises(SyncError, match=r"--remote phone: no such remote .*remotes: origin"):
        d.service(d.clone("laptop")).sync(remote="phone")


def test_uncommitted_own_notes_are_never_committed(d: Devices) -> None:
    laptop = d.clone("laptop")
    (laptop / "Home.md").write_text("# Home\nHalf-written thought\n")
    s = d.service(laptop)
    s.touch(TEA)
    before = commit_count(laptop)
    with pytest.raises(SyncError, match=r"your own notes have uncommitted changes \(Home.md\)"):
        s.sync()
    assert commit_count(laptop) == before
    assert "Half-written thought" in (laptop / "Home.md").read_text()


def test_a_remote_with_an_unrelated_history_is_refused(d: Devices, tmp_path: Path) -> None:
    laptop = d.clone("laptop")
    stranger = Devices(tmp_path / "other", {"_stm/x.md": a_memory("xx", uses=1)}, NOW)
    git(laptop, "remote", "add", "stranger", str(stranger.remote))
    s = d.service(laptop)
    head = git(laptop, "rev-parse", "HEAD").stdout
    with pytest.raises(SyncError, match="unrelated history"):
        s.sync(remote="stranger")
    assert git(laptop, "rev-parse", "HEAD").stdout == head
    assert git(laptop, "status", "--porcelain").stdout == ""


class _Refuses(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="vault"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def refusing_server() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Refuses)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/vault.git"
    server.shutdown()
    server.server_close()


def test_refused_credentials_are_named(d: Devices, refusing_server: str) -> None:
    laptop = d.clone("laptop")
    git(laptop, "remote", "set-url", "origin", refusing_server)
    with pytest.raises(SyncError, match="the remote refused our credentials"):
        d.service(laptop).sync()


def test_sync_on_the_command_line_prints_json(d: Devices, cli) -> None:  # type: ignore[no-untyped-def]
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    d.service(laptop).touch(TEA)
    d.service(laptop).sync()
    d.service(desktop, timedelta(minutes=5)).touch(TEA)
    out = cli("--json", "sync", vault=desktop)
    assert out.code == 0, out.err
    data = out.json()
    assert data["merged"] == [NOTE] and data["remote"] == "origin"
    assert fields(desktop / NOTE)["use_count"] == 7
    d.service(laptop, timedelta(minutes=9)).touch(TEA)
    d.service(laptop).sync()
    steps = cli("sync", "--progress", vault=desktop)
    assert steps.code == 0 and steps.out.startswith("1 memory merged from origin")
    assert steps.err.splitlines() == [
        "fetching from origin…",
        "bringing in 2 commits from origin…",
    ]
    refused = cli("sync", "--remote", "nowhere", vault=desktop)
    assert refused.code == 7 and "--remote nowhere: no such remote" in refused.err


def test_a_sync_killed_in_its_merge_leaves_nothing_that_outlives_the_next(d: Devices) -> None:
    laptop = d.clone("laptop")
    attributes = laptop / ".git/info/attributes"
    attributes.write_text(
        "*.pdf binary\n"
        "# cortexgraph-vault sync: memory notes are merged by sync itself (removed after)\n"
        "_stm/**/*.md merge=binary\n"
    )
    d.service(laptop).sync()
    assert attributes.read_text() == "*.pdf binary\n"  # the person's own line stays
    assert git(laptop, "check-attr", "merge", "--", NOTE).stdout.strip().endswith("cortexgraph")


def test_one_use_on_each_device_in_the_same_second_counts_twice(d: Devices) -> None:
    # Both devices touch once from the same base at the same second: without something of each
    # device's own in the note the two versions are byte for byte one file, git merges them
    # without asking anyone, and one use is lost.
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    d.service(laptop).touch(TEA)
    d.service(desktop).touch(TEA)
    d.service(laptop).sync()
    d.service(desktop).sync()
    d.service(laptop).sync()
    for vault in (laptop, desktop):
        assert fields(vault / NOTE)["use_count"] == 5 + 1 + 1
    assert git(laptop, "rev-parse", "HEAD").stdout == git(desktop, "rev-parse", "HEAD").stdout


def test_a_long_fetch_reports_git_transfer_progress(d: Devices) -> None:
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    for n in range(400):
        (laptop / f"_stm/Note {n}.md").write_text(a_memory(f"id-{n}", uses=1, body=f"Fact {n}.\n"))
    git(laptop, "add", "_stm")
    git(laptop, "commit", "-qm", "many memories")
    pushed: list[str] = []
    with steps_to(pushed.append):
        assert d.service(laptop).sync().sent == 1
    writing = [x for x in pushed if isinstance(x, TransferLine) and x.phase == "Writing objects"]
    assert writing and writing[-1].percent == 100 and writing[-1].total >= 400
    heard: list[str] = []
    with steps_to(heard.append):
        result = d.service(desktop).sync()
    assert result.received == 1 and (desktop / "_stm/Note 399.md").exists()
    transfer = [line for line in heard if isinstance(line, TransferLine)]
    objects = [line for line in transfer if line.phase.endswith("objects")]
    assert objects, heard
    assert max(line.total for line in objects) >= 400  # 400 notes, their tree and commit
    assert any(line.percent == 100 for line in objects)
    assert all(line.done <= line.total for line in transfer)
    # Without a listener git is asked for no progress at all.
    quiet = d.service(laptop)
    quiet.touch(TEA)
    assert quiet.sync().sent == 1


def test_the_command_line_redraws_transfer_lines_in_place() -> None:
    import io

    from cortexgraph_vault.cli.sync_commands import TransferShown
    from cortexgraph_vault.history.transfer import transfer_line

    shown = io.StringIO()
    bar = TransferShown(shown)
    for text in ("remote: Counting objects:  50% (2/4)", "Receiving objects: 100% (4/4), done."):
        line = transfer_line(text)
        assert line is not None
        bar.show(line)
    bar.end()
    bar.end()  # a second end draws nothing more
    assert shown.getvalue() == (
        "\r  Counting objects:  50% (2/4)\x1b[K\r  Receiving objects: 100% (4/4), done.\x1b[K\n"
    )
    assert transfer_line("Already up to date.") is None


def test_a_sync_says_which_devices_the_merged_memories_came_from(d: Devices) -> None:
    laptop, desktop, phone = d.clone("laptop"), d.clone("desktop"), d.clone("phone")
    for vault, name, minutes in ((desktop, "desktop", 1), (phone, "phone", 2)):
        s = service(vault, NOW + timedelta(minutes=minutes), device_name=name)
        s.touch(TEA)
        assert s.sync().sources == ([] if name == "desktop" else ["desktop"])
    here = service(laptop, NOW + timedelta(minutes=3), device_name="laptop")
    here.touch(TEA)
    result = here.sync()
    assert result.device == "laptop" and result.sources == ["phone", "desktop"]
    assert result.message.startswith("1 memory merged from phone and desktop")
    assert (result.merged_count, result.conflicts, result.sent) == (1, 0, 2)
    assert "Cortexgraph-Device: laptop" in git(laptop, "log", "-1", "--format=%B").stdout
    assert fields(laptop / NOTE)["use_count"] == 8
    assert str(fields(laptop / NOTE)["last_used_on"]).startswith("laptop (")
    again = here.sync()
    assert (
        again.up_to_date and again.sources == [] and again.message == "already in step with origin"
    )


def test_the_last_sync_is_kept_for_every_process_on_this_device(d: Devices) -> None:
    laptop = d.clone("laptop")
    assert d.service(laptop).last_sync().at is None
    d.service(laptop).touch(TEA)
    done = d.service(laptop, timedelta(minutes=1)).sync()
    seen = d.service(laptop).last_sync()  # another service, as another process would be
    assert seen.ok and seen.result == done and seen.at == "2026-12-01T12:01:00Z"
    with pytest.raises(SyncError) as refused:
        d.service(laptop).sync(remote="phone")
    failed = d.service(laptop).last_sync()
    assert not failed.ok and failed.result is None and failed.error == str(refused.value)
    assert d.service(d.clone("desktop")).last_sync().at is None  # kept per vault
