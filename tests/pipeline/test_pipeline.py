"""The five-stage pipeline: reviewable plans, applying exactly what a plan lists, refusals,
rate limit, one commit per stage with trailers, relationship discovery, the scheduler."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.pipeline.rate import RateLimiter
from cortexgraph_vault.pipeline.runner import RunControls, apply_plan_file
from cortexgraph_vault.pipeline.scheduler import Scheduler
from cortexgraph_vault.requests.lifecycle import ApplyPlanRequest
from tests.conftest import NOW, git
from tests.consolidation.builders import (
    a_memory,
    commit_all,
    commits,
    days,
    frontmatter,
    message_of,
    service_for,
)
from tests.mcp.mcp_session import vault_fingerprint

LINK_AT = 0.4  # low enough that the two standup memories form a (loose) cluster


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    v = tmp_path / "vault"
    a_memory(
        v,
        "Staging database",
        "The staging database runs Postgres 16 on the db-stage-2 host.",
        memory_id="db-1",
        created=NOW - days(6),
        tags=["infrastructure"],
        entities=["Postgres"],
    )
    a_memory(
        v,
        "Staging DB host",
        "Staging database runs on Postgres 16, host db-stage-2.",
        memory_id="db-2",
        created=NOW - days(5),
        tags=["infrastructure"],
        entities=["Postgres"],
    )
    a_memory(
        v,
        "Standup time",
        "The team standup moved to 10:30 starting next week.",
        memory_id="standup-1",
        created=NOW - days(4),
    )
    a_memory(
        v,
        "Standup holidays",
        "The team standup is cancelled on public holidays starting next week.",
        memory_id="standup-2",
        created=NOW - days(3),
    )
    a_memory(
        v,
        "Strict TypeScript",
        "Maya wants strict mode on in every TypeScript project.",
        memory_id="ts",
        created=NOW - days(3),
        last_used=NOW - days(1),
        use_count=6,
    )
    a_memory(
        v,
        "Cabin key",
        "The cabin key is under the blue flower pot by the door.",
        memory_id="key",
        created=NOW - days(10),
        last_used=NOW - days(9),
    )
    a_memory(
        v,
        "Billing cutover",
        "The billing cutover happens on the first weekend of March.",
        memory_id="bill-1",
        created=NOW - days(2),
        entities=["Kestrel Billing"],
    )
    a_memory(v, "Billing owner", "Jonas owns the invoicing service until the migration ends.",
             memory_id="bill-2", created=NOW - days(1), entities=["Kestrel Billing"])  # fmt: skip
    commit_all(v)
    return v


def service(v: Path):  # type: ignore[no-untyped-def]
    return service_for(v, cluster_link_threshold=LINK_AT)


def plan_of(v: Path, tmp_path: Path) -> tuple[Path, dict]:  # type: ignore[type-arg]
    out = tmp_path / "plan.json"
    service(v).run_pipeline(dry_run=True, plan_out=out)
    return out, json.loads(out.read_text(encoding="utf-8"))


def by_stage(plan: dict) -> dict[str, list[dict]]:  # type: ignore[type-arg]
    found: dict[str, list[dict]] = {}  # type: ignore[type-arg]
    for item in plan["items"]:
        found.setdefault(item["stage"], []).append(item)
    return found


def test_a_dry_run_writes_a_reviewable_plan_and_changes_nothing(
    vault: Path, tmp_path: Path
) -> None:
    before = vault_fingerprint(vault)
    result = service(vault).run_pipeline(dry_run=True, plan_out=tmp_path / "plan.json")
    assert result.dry_run and vault_fingerprint(vault) == before
    plan = json.loads((tmp_path / "plan.json").read_text(encoding="utf-8"))
    stages = by_stage(plan)
    assert {s: [sorted(m["id"] for m in i["memories"]) for i in items] for s, items in stages.items()} == {
        "decay": [["key"], ["db-1"]],
        "cluster": [["standup-1", "standup-2"]],
        "merge": [["db-1", "db-2"]],
        "promote": [["ts"]],
        "relations": [["bill-1", "bill-2"]],
    }  # fmt: skip
    for item in plan["items"]:
        for m in item["memories"]:
            assert len(m["content_hash"]) == 64 and m["path"].startswith("_stm/")
    summary = Path(result.summary_path or "").read_text(encoding="utf-8")
    assert summary == result.summary
    for title in ("DecayAnalyzer", "ClusterDetector", "SemanticMerge", "LTMPromoter",
                  "RelationshipDiscovery", "both name Kestrel Billing", "Strict TypeScript"):  # fmt: skip
        assert title in summary


def test_applying_a_plan_commits_once_per_stage_with_trailers(vault: Path, tmp_path: Path) -> None:
    out, plan = plan_of(vault, tmp_path)
    before = commits(vault)
    result = service(vault).apply_plan(out)
    assert {o.outcome for o in result.outcomes} == {"applied", "reported"}
    made = [s for s in result.stages if s.commit]
    assert [s.stage for s in made] == ["cluster", "merge", "promote", "relations"]
    assert len(commits(vault)) == len(before) + 4  # decay flags write nothing
    for stage in made:
        message = message_of(vault, stage.commit or "")
        assert f"Cortexgraph-Plan: {plan['plan_id']}" in message
        assert f"Cortexgraph-Stage: {stage.stage}" in message
        assert f"Cortexgraph-Operation: consolidate-{stage.stage}" in message
        for item in by_stage(plan)[stage.stage]:
            assert f"Cortexgraph-Item: {item['id']}" in message
    assert not (vault / "_stm" / "Staging database.md").exists()
    assert frontmatter(vault / "_archive" / "Staging DB host.md")["status"] == "archived"
    assert (vault / "memories" / "Strict TypeScript.md").exists()
    owner = frontmatter(vault / "_stm" / "Billing owner.md")
    assert owner["related"] == ["[[Billing cutover]]"]
    assert (
        owner["related_meta"]["Billing cutover"] == "strength=1; reason=both name Kestrel Billing"
    )
    assert "[[Standup time]]" in frontmatter(vault / "_stm" / "Standup holidays.md")["related"]
    assert git(vault, "status", "--porcelain") == ""


def test_a_plan_edited_by_hand_applies_only_what_is_left(vault: Path, tmp_path: Path) -> None:
    out, plan = plan_of(vault, tmp_path)
    plan["items"] = [i for i in plan["items"] if i["stage"] not in ("merge", "promote")]
    out.write_text(json.dumps(plan, indent=2), encoding="utf-8")
    before = commits(vault)
    result = service(vault).apply_plan(out)
    assert sorted(o.stage for o in result.outcomes) == ["cluster", "decay", "decay", "relations"]
    assert len(commits(vault)) == len(before) + 2  # cluster and relations
    assert (vault / "_stm" / "Staging database.md").exists()  # not merged
    assert (vault / "_stm" / "Staging DB host.md").exists()
    assert (vault / "_stm" / "Strict TypeScript.md").exists()  # not promoted
    assert not (vault / "_archive").exists() and not (vault / "memories").exists()
    assert frontmatter(vault / "_stm" / "Billing owner.md")["related"] == ["[[Billing cutover]]"]


def test_items_whose_memories_changed_since_planning_are_refused(
    vault: Path, tmp_path: Path
) -> None:
    out, _ = plan_of(vault, tmp_path)
    s = service(vault)
    s.update("db-2", content="Staging moved to Postgres 17 on db-stage-3.")
    s.delete("ts", mode="archive")
    s.touch("bill-1")  # use alone does not spoil a plan
    result = service(vault).apply_plan(out)
    outcome = {o.stage: o for o in result.outcomes if o.stage in ("merge", "promote", "relations")}
    assert outcome["merge"].outcome == "refused"
    assert "Staging DB host (db-2) was edited since planning" in outcome["merge"].reason
    assert outcome["promote"].outcome == "refused"
    assert "Strict TypeScript (ts) is now archived, was active" in outcome["promote"].reason
    assert outcome["relations"].outcome == "applied"
    assert (vault / "_stm" / "Staging database.md").exists()
    refused = {s.stage: s.refused for s in result.stages}
    assert refused["merge"] == 1 and refused["promote"] == 1


def test_a_broken_or_foreign_plan_is_refused_whole(vault: Path, tmp_path: Path) -> None:
    out, plan = plan_of(vault, tmp_path)
    before = vault_fingerprint(vault)
    broken = tmp_path / "broken.json"
    broken.write_text(out.read_text(encoding="utf-8")[:-20], encoding="utf-8")
    with pytest.raises(InvalidArgument, match=r"broken.json: not valid JSON \(line"):
        service(vault).apply_plan(broken)
    plan["items"][2]["action"] = "delete"
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(plan), encoding="utf-8")
    with pytest.raises(
        InvalidArgument,
        match=r"wrong.json: items\[2\] \(cluster-.*\): stage cluster does 'link', not 'delete'",
    ):
        service(vault).apply_plan(wrong)
    plan["items"][2]["action"] = "link"
    plan["vault"] = "/elsewhere"
    wrong.write_text(json.dumps(plan), encoding="utf-8")
    with pytest.raises(InvalidArgument, match="was made for the vault /elsewhere"):
        service(vault).apply_plan(wrong)
    assert vault_fingerprint(vault) == before


def test_one_agent_plans_only_its_stage(vault: Path, tmp_path: Path) -> None:
    result = service(vault).run_pipeline(agent="RelationshipDiscovery", dry_run=True,
                                         plan_out=tmp_path / "p.json")  # fmt: skip
    plan = json.loads((tmp_path / "p.json").read_text(encoding="utf-8"))
    assert plan["stages"] == ["relations"] and result.items == 1
    with pytest.raises(InvalidArgument, match="agent 'sorting': not a pipeline stage"):
        service(vault).run_pipeline(agent="sorting")


def test_relationship_discovery_never_duplicates_a_relation(vault: Path, tmp_path: Path) -> None:
    s = service(vault)
    s.relate("bill-1", "bill-2", "supports")  # an existing relation, the other way round
    result = service(vault).run_pipeline(
        agent="relations", dry_run=True, plan_out=tmp_path / "p.json"
    )
    assert result.items == 0
    vault2 = tmp_path / "v2"
    a_memory(vault2, "A", "Atlas ships in January.", memory_id="a", entities=["Project Atlas"])
    a_memory(vault2, "B", "Atlas uses feature flags.", memory_id="b", entities=["Project Atlas"])
    commit_all(vault2)
    first = service(vault2).run_pipeline(agent="relations", dry_run=False)
    assert [o.outcome for o in first.outcomes] == ["applied"]
    again = service(vault2).run_pipeline(agent="relations", dry_run=False)
    assert again.outcomes == []


def test_rate_limit_spaces_writes_within_a_minute(vault: Path, tmp_path: Path) -> None:
    out, _ = plan_of(vault, tmp_path)
    now = [0.0]
    pauses: list[float] = []

    def sleep(seconds: float) -> None:
        pauses.append(seconds)
        now[0] += seconds

    controls = RunControls(rate_limit=2, sleep=sleep, clock=lambda: now[0])
    result = apply_plan_file(service(vault).engine, ApplyPlanRequest(plan_file=out), controls)
    writes = sum(o.outcome == "applied" for o in result.outcomes)
    assert writes == 4 and pauses == [60.0]  # the third write waits for the window


def test_a_run_stopped_midway_defers_the_items_left_and_keeps_what_it_applied(
    vault: Path, tmp_path: Path
) -> None:
    out, _ = plan_of(vault, tmp_path)
    asked = [0]

    def stopped() -> bool:  # the scheduler is told to stop after the third item began
        asked[0] += 1
        return asked[0] > 3

    controls = RunControls(stopped=stopped)
    result = apply_plan_file(service(vault).engine, ApplyPlanRequest(plan_file=out), controls)
    said = [o.outcome for o in result.outcomes]
    assert "deferred" in said and said.index("deferred") == len(said) - said.count("deferred")
    assert {"applied", "reported"} & set(said[:3])
    assert all(o.reason == "the run was stopped first" for o in result.outcomes[3:])
    assert "deferred" in result.message


def test_rate_limiter_window() -> None:
    now = [100.0]
    slept: list[float] = []
    limiter = RateLimiter(
        3, clock=lambda: now[0], sleep=lambda s: (slept.append(s), now.__setitem__(0, now[0] + s))
    )
    for step in (0, 10, 10):
        now[0] += step
        assert limiter.acquire()
    assert slept == []
    assert limiter.acquire() and slept == [40.0]  # until the first leaves the window
    stop = RateLimiter(1, clock=lambda: 0.0, sleep=lambda s: None, stopped=lambda: True)
    assert stop.acquire() and not stop.acquire()


def test_the_scheduler_runs_on_a_thread_and_stops(vault: Path) -> None:
    s = service(vault)
    scheduler = Scheduler(s.engine, interval_hours=24)
    scheduler.start()
    deadline = time.monotonic() + 30
    while scheduler.runs == 0 and scheduler.last_error is None and time.monotonic() < deadline:
        time.sleep(0.05)
    scheduler.stop()
    assert not scheduler.running and scheduler.last_error is None and scheduler.runs == 1
    assert scheduler.last_result is not None and not scheduler.last_result.dry_run
    assert (vault / "_archive" / "Staging DB host.md").exists()
    with pytest.raises(ValueError):
        Scheduler(s.engine, interval_hours=0)
