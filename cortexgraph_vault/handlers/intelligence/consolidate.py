"""Clusters of similar short-term memories, and consolidating them: preview, merge, link.

`cluster_memories` finds clusters (or near-duplicate pairs) and remembers what it showed;
`consolidate_memories` acts on a cluster id from it — or on every cluster cohesive enough
(auto_detect) — and refuses, naming the member, when a member changed since.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from cortexgraph_vault.core import wording
from cortexgraph_vault.core.cluster import (
    ClusterDoc,
    SimilarityModel,
    cluster_id,
    duplicate_pairs,
    find_clusters,
)
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import InvalidArgument, NotFound, Stale
from cortexgraph_vault.handlers.browse.size_budget import answer_within, json_size, shrink_text
from cortexgraph_vault.handlers.intelligence.merging import apply_merge, preview_of
from cortexgraph_vault.handlers.intelligence.shown_clusters import (
    ClusterBook,
    PinnedCluster,
    member_key,
    pin,
)
from cortexgraph_vault.handlers.writes import writes
from cortexgraph_vault.history.trailers import trailers
from cortexgraph_vault.models import (
    ClusterResult,
    ClusterView,
    ConsolidatedCluster,
    ConsolidateResult,
    DuplicatePair,
)
from cortexgraph_vault.requests.lifecycle import ClusterMemoriesRequest, ConsolidateMemoriesRequest
from cortexgraph_vault.requests.memories import CreateRelationRequest

STRATEGY = "similarity"  # how clusters are found (the result says so)
PREVIEW_CHARS = 200


@dataclass(frozen=True)
class Target:
    """A cluster to act on: its members as seen, their pinned hashes, its cohesion."""

    id: str
    members: list[Memory]
    cohesion: float
    pinned: dict[str, str]


class _Asked(TypedDict):
    """What cluster_memories was asked, as its answer repeats it."""

    strategy: str
    threshold: float
    max_cluster_size: int
    find_duplicates: bool
    memories_considered: int


def candidates(engine: VaultEngine) -> list[Memory]:
    """Active short-term memories that can be merged: readable, with some text."""
    out = []
    for note in engine.fresh().notes():
        m = note.memory
        if m is None or m.status != "active" or engine.layout.folder_of(m.path) != "stm":
            continue
        if note.problems or not m.content:
            continue  # a note we cannot read cleanly is the person's to fix
        out.append(m)
    out.sort(key=lambda m: m.path)
    return out


def similarity_model(memories: Sequence[Memory]) -> SimilarityModel:
    return SimilarityModel(
        [ClusterDoc(member_key(m), m.content, m.tags, m.entities) for m in memories]
    )


def _preview(m: Memory) -> str:
    text = " ".join(m.content.split())
    return text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS].rstrip() + "…"


@answer_within("clusters", "duplicate_pairs")
def cluster_memories(engine: VaultEngine, req: ClusterMemoriesRequest) -> ClusterResult:
    """threshold, max_cluster_size and duplicate_threshold default to the settings
    (cluster_link_threshold, cluster_max_size, semantic_hi)."""
    cfg = engine.config
    find_duplicates = req.find_duplicates
    link_at = cfg.cluster_link_threshold if req.threshold is None else req.threshold
    size = cfg.cluster_max_size if req.max_cluster_size is None else req.max_cluster_size
    dup_at = cfg.semantic_hi if req.duplicate_threshold is None else req.duplicate_threshold
    memories = candidates(engine)
    by_key = {member_key(m): m for m in memories}
    model = similarity_model(memories)
    book = ClusterBook(engine.root)
    base = _Asked(
        strategy=STRATEGY,
        threshold=link_at,
        max_cluster_size=size,
        find_duplicates=find_duplicates,
        memories_considered=len(memories),
    )
    if find_duplicates:
        pairs = duplicate_pairs(model, dup_at)
        book.remember(
            PinnedCluster(
                cluster_id((p.a, p.b)), (pin(by_key[p.a]), pin(by_key[p.b])), p.similarity
            )
            for p in pairs
        )
        pair_views = [
            DuplicatePair(
                cluster_id=cluster_id((p.a, p.b)),
                memory_ids=[p.a, p.b],
                similarity=p.similarity,
                titles=[by_key[p.a].title, by_key[p.b].title],
                previews=[_preview(by_key[p.a]), _preview(by_key[p.b])],
            )
            for p in pairs
        ]
        return ClusterResult(
            **base,
            duplicate_threshold=dup_at,
            pairs_compared=model.compared,
            duplicate_pairs=pair_views,
            message=wording.duplicate_pairs(len(pair_views), len(memories), dup_at),
        )
    clusters = find_clusters(model, link_at, size)
    book.remember(
        PinnedCluster(c.id, tuple(pin(by_key[k]) for k in c.members), c.cohesion) for c in clusters
    )
    views = [
        ClusterView(
            id=c.id,
            size=len(c.members),
            cohesion=c.cohesion,
            suggested_action=c.action,
            memory_ids=list(c.members),
            titles=[by_key[k].title for k in c.members],
            paths=[by_key[k].path for k in c.members],
            previews=[_preview(by_key[k]) for k in c.members],
        )
        for c in clusters
    ]
    merges = sum(1 for c in clusters if c.action == "merge")
    return ClusterResult(
        **base,
        pairs_compared=model.compared,
        clusters=views,
        message=wording.clusters_found(len(views), len(memories), merges),
    )


def _current(engine: VaultEngine, key: str) -> Memory | None:
    catalog = engine.fresh()
    found = catalog.memory_by_id(key)
    if found is not None:
        return found
    note = catalog.note(key)
    return note.memory if note is not None else None


def locate(engine: VaultEngine, wanted: str) -> Target:
    """The cluster `wanted` names, with members that have not changed since it was shown."""
    wanted = (wanted or "").strip()
    pinned = ClusterBook(engine.root).recall(wanted)
    if pinned is None:
        found = next((t for t in auto_targets(engine, -math.inf) if t.id == wanted), None)
        if found is None:
            raise NotFound(
                f"no cluster has id {wanted!r}: it is not one cluster_memories returned for this "
                "vault, or its members changed so that it no longer forms. Run cluster_memories "
                "again and use an id from its answer",
                operations=("cluster_memories",),
            )
        return found
    members: list[Memory] = []
    changed: list[str] = []
    for p in pinned.members:
        now = _current(engine, p.key)
        if now is None:
            changed.append(f"{p.title} ({p.key}) no longer exists (was {p.path})")
        elif now.status != "active":
            changed.append(f"{p.title} ({p.key}) is now {now.status} ({now.path})")
        elif pin(now).hash != p.hash:
            changed.append(f"{p.title} ({p.key}) was edited (text, tags or entities)")
        else:
            members.append(now)
    if changed:
        raise Stale(
            f"cluster {wanted} is stale, its members changed since cluster_memories: "
            + "; ".join(changed)
            + ". Nothing was done; run cluster_memories again",
            operations=("cluster_memories",),
        )
    return Target(wanted, members, pinned.cohesion, {p.key: p.hash for p in pinned.members})


def auto_targets(engine: VaultEngine, cohesion_threshold: float) -> list[Target]:
    memories = candidates(engine)
    by_key = {member_key(m): m for m in memories}
    clusters = find_clusters(
        similarity_model(memories),
        engine.config.cluster_link_threshold,
        engine.config.cluster_max_size,
    )
    return [
        Target(
            c.id,
            [by_key[k] for k in c.members],
            c.cohesion,
            {k: pin(by_key[k]).hash for k in c.members},
        )
        for c in clusters
        if c.cohesion >= cohesion_threshold
    ]


def link_members(engine: VaultEngine, target: Target) -> tuple[int, list[str]]:
    """`related` links between every two members (newer to older); none duplicated."""
    ordered = sorted(target.members, key=lambda m: (m.created, m.path))
    created = 0
    touched: list[str] = []
    reason = f"same cluster {target.id} (cohesion {target.cohesion:.2f})"
    for i, older in enumerate(ordered):
        for newer in ordered[i + 1 :]:
            link = CreateRelationRequest(
                from_memory_id=member_key(newer),
                to_memory_id=member_key(older),
                relation_type="related",
                strength=round(min(1.0, target.cohesion), 2),
                metadata={"reason": reason},
            )
            result = writes.relate(engine, link, record=False)
            if result.created:
                created += 1
                touched.append(engine.resolve(result.relation.from_memory_id or newer.path).path)
    return created, sorted(set(touched))


def merge_message(target: Target, title: str, memory_id: str, stage: str | None = None) -> str:
    lines = [f"- {m.title} ({member_key(m)})" for m in target.members]
    extra = [f"Cortexgraph-Cluster: {target.id}", f"Cortexgraph-Merged-Into: {memory_id}"]
    if stage:
        extra.append(f"Cortexgraph-Stage: {stage}")
    return (
        wording.merge_subject(len(target.members), title)
        + "\n\n"
        + "\n".join(lines)
        + "\n\n"
        + trailers("consolidate", [member_key(m) for m in target.members])
        + "\n"
        + "\n".join(extra)
    )


def act_on(
    engine: VaultEngine, target: Target, mode: str, *, record: bool = True
) -> ConsolidatedCluster:
    view = ConsolidatedCluster(
        cluster_id=target.id,
        memory_ids=[member_key(m) for m in target.members],
        titles=[m.title for m in target.members],
        cohesion=target.cohesion,
        action="previewed",
    )
    if mode == "preview":
        view.preview = preview_of(target.members, target.cohesion)
        return view
    if mode == "link":
        created, touched = link_members(engine, target)
        view.action, view.relations_created = "linked", created
        if record and touched:
            view.commit = engine.commit(
                touched,
                wording.link_subject(len(target.members), target.id)
                + "\n\n"
                + trailers("consolidate-link", view.memory_ids)
                + f"\nCortexgraph-Cluster: {target.id}",
            )
        return view
    view.preview = preview_of(target.members, target.cohesion)
    engine.git_state.refuse_change("consolidation")
    done = apply_merge(engine, target.members, target.cohesion, pinned=target.pinned)
    view.action, view.new_memory_id, view.new_path = "merged", done.memory_id, done.path
    view.archived = done.archived
    if record:
        view.commit = engine.commit(done.touched, merge_message(target, done.title, done.memory_id))
    return view


@answer_within("results")
def consolidate(engine: VaultEngine, req: ConsolidateMemoriesRequest) -> ConsolidateResult:
    mode = req.mode
    if req.cluster_id:
        targets = [locate(engine, req.cluster_id)]
    elif req.auto_detect:
        targets = auto_targets(engine, req.cohesion_threshold)
    else:
        raise InvalidArgument("give a cluster_id from cluster_memories, or auto_detect")
    progress = engine.progress("consolidating")
    results = []
    # A merged text too long for the answer is shown cut: the first cluster's must fit.
    room = engine.config.result_max_chars // 2
    for t in targets:
        results.append(_preview_within(act_on(engine, t, mode), room))
        progress(len(results), len(targets))
    merged = sum(1 for r in results if r.action == "merged")
    linked = sum(1 for r in results if r.action == "linked")
    if mode == "preview":
        message = wording.consolidate_preview(len(results))
    elif mode == "apply":
        message = wording.consolidate_merged(merged, engine.layout.archive)
    else:
        message = wording.consolidate_linked(linked)
    if not results:
        message = f"no cluster reaches cohesion {req.cohesion_threshold:g}"
    return ConsolidateResult(
        success=True,
        mode=mode,
        cluster_id=req.cluster_id,
        auto_detect=req.auto_detect,
        results=results,
        merged_count=merged,
        linked_count=linked,
        message=message,
    )


def _preview_within(done: ConsolidatedCluster, room: int) -> ConsolidatedCluster:
    if done.preview is None or json_size(done) <= room:
        return done
    others = json_size(done) - json_size(done.preview)
    cut = shrink_text(done.preview, "content", max(0, room - others), _merged_tail)
    return done.model_copy(update={"preview": cut})


def _merged_tail(kept: int, total: int) -> str:
    return f"…[{total - kept} more characters of the merged text; mode apply writes it whole]"
