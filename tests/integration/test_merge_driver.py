"""The merge driver through real git: two clones of one vault, `git pull` merges memories."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cortexgraph_vault.cli.doctor import diagnose
from cortexgraph_vault.core.note import parse_note
from tests.integration.clones import Devices, a_memory, fields, git

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TEA = "3f1c9a0e-0000-4000-8000-0000000000aa"
NOTE = "_stm/Tea.md"


def devices(tmp_path: Path, notes: dict[str, str] | None = None) -> Devices:
    return Devices(tmp_path, notes or {NOTE: a_memory(TEA, uses=5)}, NOW)


def touch_and_push(d: Devices, vault: Path, times: int, later: timedelta) -> None:
    s = d.service(vault, later)
    for _ in range(times):
        s.touch(TEA)
    s.snapshot()
    git(vault, "push", "-q", "origin", "main")


def pull(vault: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    how = extra or ("--no-rebase",)
    return git(vault, "pull", "-q", "--no-edit", *how, "origin", "main", check=False)


def test_init_installs_the_driver_in_config_and_gitattributes(tmp_path: Path) -> None:
    d = devices(tmp_path)
    laptop = d.clone("laptop")
    command = git(laptop, "config", "--get", "merge.cortexgraph.driver").stdout
    assert '"$p" merge-driver "$@"' in command and command.endswith(" %O %A %B %L %P\n")
    attributes = (laptop / ".gitattributes").read_text()
    assert "_stm/**/*.md merge=cortexgraph" in attributes
    assert "memories/**/*.md merge=cortexgraph" in attributes
    assert git(laptop, "check-attr", "merge", "--", NOTE).stdout.strip().endswith("cortexgraph")
    assert git(laptop, "status", "--porcelain").stdout == ""  # .gitattributes was committed


def test_two_devices_touching_one_memory_merge_their_uses_exactly(tmp_path: Path) -> None:
    d = devices(tmp_path)
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    touch_and_push(d, laptop, 2, timedelta(hours=1))
    s = d.service(desktop, timedelta(hours=2))
    for _ in range(4):
        s.touch(TEA)
    s.snapshot()
    result = pull(desktop)
    assert result.returncode == 0, result.stderr
    fm = fields(desktop / NOTE)
    assert fm["use_count"] == 5 + 2 + 4
    assert str(fm["last_used"]).startswith("2026-12-01 14:00")
    text = (desktop / NOTE).read_text()
    assert "# kept by hand\nmood: calm\n" in text and "<<<<<<<" not in text
    assert git(desktop, "status", "--porcelain").stdout == ""
    assert len(git(desktop, "log", "--merges", "--format=%H").stdout.split()) == 1


def test_a_rebase_merges_the_same_way(tmp_path: Path) -> None:
    d = devices(tmp_path)
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    touch_and_push(d, laptop, 3, timedelta(hours=1))
    s = d.service(desktop, timedelta(hours=2))
    s.touch(TEA)
    s.snapshot()
    result = pull(desktop, "--rebase")
    assert result.returncode == 0, result.stderr
    assert fields(desktop / NOTE)["use_count"] == 5 + 3 + 1
    assert git(desktop, "log", "--merges", "--format=%H").stdout == ""


def test_body_edited_on_both_keeps_both_and_the_note_is_reported(tmp_path: Path) -> None:
    d = devices(tmp_path)
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    (laptop / NOTE).write_text(a_memory(TEA, body="I prefer sencha.\n"))
    git(laptop, "commit", "-qam", "laptop edit")
    git(laptop, "push", "-q", "origin", "main")
    (desktop / NOTE).write_text(a_memory(TEA, body="I prefer matcha.\n"))
    git(desktop, "commit", "-qam", "desktop edit")
    result = pull(desktop)
    assert result.returncode == 0, result.stderr
    text = (desktop / NOTE).read_text()
    parsed = parse_note(text)
    assert parsed.problem is None
    assert "sencha" in parsed.body and "matcha" in parsed.body
    assert "merge_conflict" in parsed.frontmatter
    status = d.service(desktop).vault_status()
    assert any(p.path == NOTE and "merged with conflicting edits" in p.reason
               for p in status.unparseable)  # fmt: skip
    svc = d.service(desktop)
    doctor = diagnose(svc.config, svc.engine)
    [finding] = [f for f in doctor.findings if f.check == "sync" and f.level == "warning"]
    assert (
        "1 memory notes hold edits from two devices" in finding.message and NOTE in finding.message
    )
    assert finding.fix is not None and "delete its merge_conflict property" in finding.fix


def test_same_title_saved_on_both_devices_keeps_both_memories(tmp_path: Path) -> None:
    d = devices(tmp_path)
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    saved_l = d.service(laptop).save("Standup moved to 9:30 on Mondays.", title="Standup")
    git(laptop, "push", "-q", "origin", "main")
    saved_d = d.service(desktop).save("Standup is now in room B.", title="Standup")
    result = pull(desktop)
    assert result.returncode == 0, result.stderr
    # The driver keeps ours at the path and the other memory beside it; our next snapshot
    # (or `sync`) records it.
    d.service(desktop).snapshot()
    ids = {str(fields(p)["id"]) for p in (desktop / "_stm").glob("Standup*.md")}
    assert ids == {saved_l.id, saved_d.id}
    assert git(desktop, "status", "--porcelain").stdout == ""


def test_broken_frontmatter_on_one_side_falls_back_to_a_text_merge(tmp_path: Path) -> None:
    d = devices(tmp_path)
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    broken = a_memory(TEA).replace("tags: [drinks]", "tags: [drinks")
    (laptop / NOTE).write_text(broken)
    git(laptop, "commit", "-qam", "broken by hand")
    git(laptop, "push", "-q", "origin", "main")
    touch_and_push_local = d.service(desktop, timedelta(hours=1))
    touch_and_push_local.touch(TEA)
    touch_and_push_local.snapshot()
    result = pull(desktop)
    assert "not valid YAML" in result.stderr and "merged as plain text" in result.stderr
    assert result.returncode == 0, result.stderr
    text = (desktop / NOTE).read_text()
    assert "tags: [drinks\n" in text and "use_count: 6" in text


def test_binary_file_in_memory_folder_is_left_to_git(tmp_path: Path) -> None:
    d = devices(tmp_path, {NOTE: a_memory(TEA), "_stm/pic.md": "\0\1\2base"})
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    (laptop / "_stm/pic.md").write_bytes(b"\0\1\2laptop")
    git(laptop, "commit", "-qam", "pic")
    git(laptop, "push", "-q", "origin", "main")
    (desktop / "_stm/pic.md").write_bytes(b"\0\1\2desktop")
    git(desktop, "commit", "-qam", "pic")
    result = pull(desktop)
    assert result.returncode != 0
    assert "not UTF-8 text" in result.stderr
    unmerged = git(desktop, "ls-files", "-u").stdout
    assert "_stm/pic.md" in unmerged and NOTE not in unmerged
    git(desktop, "merge", "--abort")


def test_deleted_on_both_devices_stays_deleted(tmp_path: Path) -> None:
    d = devices(tmp_path)
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    for vault in (laptop, desktop):
        git(vault, "rm", "-q", NOTE)
        git(vault, "commit", "-qm", "forget")
    git(laptop, "push", "-q", "origin", "main")
    result = pull(desktop)
    assert result.returncode == 0, result.stderr
    assert not (desktop / NOTE).exists()


def test_doctor_finds_a_missing_driver_and_fix_installs_it(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    d = devices(tmp_path)
    phone = tmp_path / "phone"
    git(tmp_path, "clone", "-q", str(d.remote), str(phone))  # a plain clone: no driver yet
    before = cli("--json", "doctor", vault=phone).json()
    sync = [f for f in before["findings"] if f["check"] == "sync"]
    assert (
        sync
        and sync[0]["level"] == "warning"
        and sync[0]["fix"] == "cortexgraph-vault doctor --fix"
    )
    fixed = cli("--json", "doctor", "--fix", vault=phone).json()
    assert any(
        f["check"] == "sync" and f["message"].startswith("installed") for f in fixed["findings"]
    )
    assert "merge-driver" in git(phone, "config", "merge.cortexgraph.driver").stdout
    after = cli("--json", "doctor", vault=phone).json()
    assert [f["level"] for f in after["findings"] if f["check"] == "sync"] == ["ok"]


def test_one_use_on_each_device_in_the_same_second_is_merged_by_the_driver(
    tmp_path: Path,
) -> None:
    d = devices(tmp_path)
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    touch_and_push(d, laptop, 1, timedelta(hours=1))
    s = d.service(desktop, timedelta(hours=1))  # the same second as the laptop's use
    s.touch(TEA)
    s.snapshot()
    result = pull(desktop)
    assert result.returncode == 0, result.stderr
    assert fields(desktop / NOTE)["use_count"] == 5 + 1 + 1
