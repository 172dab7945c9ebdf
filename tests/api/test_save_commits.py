"""A save whose commit git refuses says so in its answer, on every door, and keeps no other save
out of git; a control character in a field that names a file or a commit is refused, naming
the field, before anything is written."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import pytest

from tests.api.daemon_process import Daemon
from tests.conftest import git

REFUSING_HOOK = """#!/bin/sh
# A person's rule: no commit may mention a poison pill.
if grep -q POISON "$1"; then echo "commit-msg: no poison pills here" >&2; exit 1; fi
"""


def refuse_poison(vault: Path) -> None:
    hook = vault / ".git" / "hooks" / "commit-msg"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(REFUSING_HOOK)
    hook.chmod(0o755)


def committed(vault: Path) -> set[str]:
    return set(git(vault, "ls-tree", "-r", "--name-only", "HEAD").splitlines())


def test_one_save_git_refuses_keeps_none_of_the_concurrent_saves_out_of_git(
    daemon: Daemon, git_vault: Path
) -> None:
    refuse_poison(git_vault)
    client = daemon.client()
    answers: dict[str, dict] = {}
    start = threading.Barrier(6)

    def save(words: str) -> None:
        start.wait()
        answer = client.post("/api/v1/memories", json={"content": words})
        assert answer.status_code == 201, answer.text
        answers[words] = answer.json()

    words = [f"Concurrent save {n}: Maya waters the plants on day {n}." for n in range(5)]
    words.append("POISON pill: a save the person's hook refuses.")
    threads = [threading.Thread(target=save, args=(w,)) for w in words]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    in_git = committed(git_vault)
    for w in words[:5]:
        answer = answers[w]
        assert answer["commit"] is not None and answer["warning"] is None, answer
        assert answer["path"] in in_git
        assert answer["path"] in git(git_vault, "show", "--name-only", "--format=",
                                     answer["commit"]).splitlines()  # fmt: skip
    refused = answers[words[5]]
    assert refused["commit"] is None
    assert "not committed to git" in refused["warning"], refused
    assert "no poison pills here" in refused["warning"] or "commit-msg" in refused["warning"]
    assert (git_vault / refused["path"]).is_file()  # saved: the file is the truth
    assert refused["path"] not in in_git
    assert git(git_vault, "status", "--porcelain", "-z") == f"?? {refused['path']}\0"
    assert git(git_vault, "diff", "--cached", "--name-only") == ""  # nothing of ours staged


def test_a_control_character_in_a_title_is_refused_over_rest(
    shared_daemon: Daemon,
) -> None:
    client = shared_daemon.client()
    answer = client.post(
        "/api/v1/operations/save_memory", json={"content": "Tea at four.", "title": "Tea\u0000"}
    )
    assert answer.status_code == 422
    assert answer.json()["detail"].startswith(
        "title: holds the control character U+0000 (NUL) at character 4"
    )
    tagged = client.post("/api/v1/memories", json={"content": "Tea at four.", "tags": ["a\u001b"]})
    assert tagged.status_code == 422 and "tags[0]" in tagged.json()["detail"]


def test_the_cli_says_a_failed_commit_and_refuses_a_control_character(
    git_vault: Path,
    cli,  # type: ignore[no-untyped-def]
) -> None:
    refuse_poison(git_vault)
    done = cli("save", "POISON pill from the terminal.", vault=git_vault)
    assert done.code == 0, done.err
    assert "warning: saved, but not committed to git" in done.err
    before = set(p.name for p in (git_vault / "_stm").iterdir())
    refused = cli("save", "Tea at four.", "--title", "Tea\x01time", vault=git_vault)
    assert refused.code == 2
    assert "title" in refused.err and "U+0001" in refused.err
    assert set(p.name for p in (git_vault / "_stm").iterdir()) == before


@pytest.mark.anyio
async def test_the_mcp_save_says_a_failed_commit(git_vault: Path) -> None:
    from tests.mcp.mcp_session import connected, service_for

    refuse_poison(git_vault)
    async with connected(service_for(git_vault)) as client:
        result = await client.call_tool("save_memory", {"content": "POISON pill over MCP."})
    assert not result.is_error
    assert result.structured_content is not None
    assert "commit" not in result.structured_content  # no value: left out, not null
    assert "not committed to git" in result.structured_content["warning"]


def test_the_saves_kept_commit_is_made_at_the_next_start_once_git_takes_it(
    git_vault: Path,
    cli,  # type: ignore[no-untyped-def]
) -> None:
    refuse_poison(git_vault)
    assert cli("save", "POISON pill, kept for later.", vault=git_vault).code == 0
    (git_vault / ".git" / "hooks" / "commit-msg").unlink()  # the person drops the rule
    assert cli("stats", vault=git_vault).code == 0  # any start
    assert git(git_vault, "log", "-1", "--format=%s").startswith("save: POISON pill")
    assert git(git_vault, "status", "--porcelain") == ""
    subprocess.run(["git", "-C", str(git_vault), "fsck", "--no-progress"], check=True)
