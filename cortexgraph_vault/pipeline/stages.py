"""The five consolidation stages. Each plans items from the vault as it is, and applies one
item it planned. Later stages leave alone what an earlier stage of the same plan will merge.

- DecayAnalyzer (decay): memories at risk — in the review danger zone or close to being
  forgotten — flagged for a person (reinforce what is still true); it writes nothing.
- ClusterDetector (cluster): clusters too loose to merge; their members get `related` links.
- SemanticMerge (merge): clusters cohesive enough to be one fact; merged, originals archived.
- LTMPromoter (promote): memories that earned it move to the long-term folder.
- RelationshipDiscovery (relations): memories naming the same entities or linking the same
  notes get a `related` link with strength and reason, never a second one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import ClassVar

from cortexgraph_vault.core import wording
from cortexgraph_vault.core.cluster import Cluster, find_clusters
from cortexgraph_vault.core.decay import DAY
from cortexgraph_vault.core.link_values import link_target
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.relatedness import RelationFeatures, related_pairs
from cortexgraph_vault.core.relation_types import RELATION_TYPES
from cortexgraph_vault.core.rules import in_danger_zone, promote_reason
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.handlers.intelligence.consolidate import (
    Target,
    candidates,
    link_members,
    similarity_model,
)
from cortexgraph_vault.handlers.intelligence.merging import apply_merge, merged_title
from cortexgraph_vault.handlers.intelligence.shown_clusters import member_key
from cortexgraph_vault.handlers.lifecycle import gc_and_promotion as lifecycle
from cortexgraph_vault.handlers.writes import writes
from cortexgraph_vault.models import PlanItem
from cortexgraph_vault.pipeline.plan import new_item
from cortexgraph_vault.requests.lifecycle import PromoteMemoryRequest
from cortexgraph_vault.requests.memories import CreateRelationRequest


@dataclass
class PlanContext:
    engine: VaultEngine
    now: datetime
    cohesion_threshold: float
    min_confidence: float
    claimed: set[str] = field(default_factory=set)  # keys an earlier stage will merge away

    @cached_property
    def stm(self) -> list[Memory]:
        return candidates(self.engine)

    @cached_property
    def clusters(self) -> list[Cluster]:
        cfg = self.engine.config
        model = similarity_model(self.stm)
        return find_clusters(
            model,
            cfg.cluster_link_threshold,
            cfg.cluster_max_size,
            merge_at=self.cohesion_threshold,
        )

    @cached_property
    def by_key(self) -> dict[str, Memory]:
        return {member_key(m): m for m in self.stm}


@dataclass
class Applied:
    touched: list[str] = field(default_factory=list)
    new_memory_id: str | None = None
    note: str = "applied"
    follow: dict[str, str] = field(default_factory=dict)  # old path → new path


class Stage:
    name: ClassVar[str]
    writes: ClassVar[bool] = True

    def plan(self, ctx: PlanContext) -> list[PlanItem]:
        raise NotImplementedError

    def apply(self, engine: VaultEngine, item: PlanItem, members: list[Memory]) -> Applied:
        raise NotImplementedError


class DecayAnalyzer(Stage):
    name = "decay"
    writes = False

    def plan(self, ctx: PlanContext) -> list[PlanItem]:
        engine, rules = ctx.engine, ctx.engine.rules
        items = []
        for m in ctx.stm:
            s = engine.score(m, ctx.now)
            if s < rules.forget_threshold:
                continue  # gc's business
            near = s < rules.danger_zone_min
            if not near and not in_danger_zone(s, rules):
                continue
            until = m.decay.seconds_until(rules.forget_threshold, ctx.now, engine.decay)
            days = round(until / DAY, 2)
            urgency = "high" if near else "medium"
            items.append(
                new_item(
                    self.name,
                    [m],
                    f"score {s:.3f}, forgotten in {wording.days(days)} unless used: reinforce it if it "
                    "is still true, or let it fade",
                    score=round(s, 4),
                    urgency=urgency,
                    days_until_forgotten=days,
                )
            )
        items.sort(key=lambda i: (i.details["urgency"] != "high", i.details["score"]))
        return items

    def apply(self, engine: VaultEngine, item: PlanItem, members: list[Memory]) -> Applied:
        return Applied(note=f"flagged for review ({item.details.get('urgency', 'medium')} urgency)")


def _target(item: PlanItem, members: list[Memory]) -> Target:
    """The item's cluster; its pinned hashes are checked again under the vault lock."""
    pinned = {pm.id or pm.path: pm.content_hash for pm in item.memories}
    cohesion = float(item.details.get("cohesion", item.confidence or 0.0))
    return Target(str(item.details.get("cluster_id", item.id)), members, cohesion, pinned)


def _clusters(ctx: PlanContext, action: str) -> list[tuple[Cluster, list[Memory]]]:
    """The clusters found to be acted on so (`link`, `merge`), each with its memories."""
    return [(c, [ctx.by_key[k] for k in c.members]) for c in ctx.clusters if c.action == action]


def _cluster_item(stage: str, c: Cluster, members: list[Memory], why: str) -> PlanItem:
    return new_item(
        stage, members, why, confidence=c.cohesion, cluster_id=c.id, cohesion=c.cohesion
    )


class ClusterDetector(Stage):
    name = "cluster"

    def plan(self, ctx: PlanContext) -> list[PlanItem]:
        return [
            _cluster_item(
                self.name,
                c,
                members,
                f"similar (cohesion {c.cohesion:.2f}) but not one fact: link them as related",
            )
            for c, members in _clusters(ctx, "link")
        ]

    def apply(self, engine: VaultEngine, item: PlanItem, members: list[Memory]) -> Applied:
        created, touched = link_members(engine, _target(item, members))
        return Applied(touched=touched, note=f"{created} related links added")


class SemanticMerge(Stage):
    name = "merge"

    def plan(self, ctx: PlanContext) -> list[PlanItem]:
        items = []
        for c, members in _clusters(ctx, "merge"):
            ctx.claimed.update(c.members)
            why = (
                f"{len(members)} memories say one thing (cohesion {c.cohesion:.2f}): merge "
                f"into {merged_title(members)!r}; the originals are archived and linked"
            )
            items.append(_cluster_item(self.name, c, members, why))
        return items

    def apply(self, engine: VaultEngine, item: PlanItem, members: list[Memory]) -> Applied:
        target = _target(item, members)
        done = apply_merge(engine, target.members, target.cohesion, pinned=target.pinned)
        return Applied(
            touched=done.touched,
            new_memory_id=done.memory_id,
            follow=done.archived,
            note=f"merged into {done.path}",
        )


class LTMPromoter(Stage):
    name = "promote"

    def plan(self, ctx: PlanContext) -> list[PlanItem]:
        items = []
        for m in ctx.stm:
            if member_key(m) in ctx.claimed or m.superseded:
                continue
            s = ctx.engine.score(m, ctx.now)
            reason = promote_reason(m.decay, s, ctx.now, ctx.engine.rules)
            if reason:
                items.append(new_item(self.name, [m], reason, score=round(s, 4)))
        return items

    def apply(self, engine: VaultEngine, item: PlanItem, members: list[Memory]) -> Applied:
        m = members[0]
        asked = PromoteMemoryRequest(memory_id=member_key(m), force=True)
        result = lifecycle.promote(engine, asked, record=False)
        moved = result.moved
        return Applied(
            touched=[p for pair in moved.items() for p in pair],
            follow=dict(moved),
            note=f"promoted to {next(iter(moved.values()), m.path)}",
        )


class RelationshipDiscovery(Stage):
    name = "relations"

    def plan(self, ctx: PlanContext) -> list[PlanItem]:
        engine = ctx.engine
        catalog = engine.fresh()
        pool = [
            m
            for m in catalog.memories()
            if m.status in ("active", "promoted")
            and member_key(m) not in ctx.claimed
            and engine.layout.folder_of(m.path) in ("stm", "ltm")
        ]
        by_key = {member_key(m): m for m in pool}
        by_path = {m.path: member_key(m) for m in pool}
        names = _names_to_keys(pool)
        features: list[RelationFeatures] = []
        exclude: dict[str, set[str]] = {}
        with catalog.lock:
            for m in pool:
                key = member_key(m)
                linked: list[str] = []
                for edge in catalog.graph.outgoing(m.path):
                    if edge.target is None or edge.target == m.path:
                        continue
                    if edge.target in by_path:
                        exclude.setdefault(key, set()).add(by_path[edge.target])
                    note = catalog.note(edge.target)
                    if note is not None:
                        linked.append(note.title)
                for kind in RELATION_TYPES:
                    for value in m.relations.get(kind, ()):
                        other = names.get(link_target(value).lower().removesuffix(".md"))
                        if other is not None:
                            exclude.setdefault(key, set()).add(other)
                features.append(RelationFeatures(key, m.entities, tuple(dict.fromkeys(linked))))
        items = []
        for pair in related_pairs(features, ctx.min_confidence, exclude=exclude):
            a, b = by_key[pair.a], by_key[pair.b]
            newer, older = (a, b) if (a.created, a.path) >= (b.created, b.path) else (b, a)
            items.append(
                new_item(
                    self.name,
                    [newer, older],
                    pair.reason,
                    confidence=pair.confidence,
                    source=member_key(newer),
                    target=member_key(older),
                    strength=round(pair.confidence, 2),
                )
            )
        return items

    def apply(self, engine: VaultEngine, item: PlanItem, members: list[Memory]) -> Applied:
        source, target = members[0], members[1]
        strength = float(item.details.get("strength", item.confidence or 1.0))
        link = CreateRelationRequest(
            from_memory_id=member_key(source),
            to_memory_id=member_key(target),
            relation_type="related",
            strength=min(1.0, max(0.0, strength)),
            metadata={"reason": item.reason},
        )
        result = writes.relate(engine, link, record=False)
        if not result.created:
            return Applied(note="already related; nothing added")
        path = engine.resolve(result.relation.from_memory_id or source.path).path
        return Applied(touched=[path], note=f"related link added (strength {strength:g})")


def _names_to_keys(pool: Sequence[Memory]) -> dict[str, str]:
    """Every way a link can name a memory (id, title, path without .md) → its key."""
    names: dict[str, str] = {}
    for m in pool:
        key = member_key(m)
        names[m.title.lower()] = key
        names[m.path.lower().removesuffix(".md")] = key
        if m.id:
            names[m.id.lower()] = key
    return names


STAGES: dict[str, Stage] = {
    s.name: s
    for s in (
        DecayAnalyzer(),
        ClusterDetector(),
        SemanticMerge(),
        LTMPromoter(),
        RelationshipDiscovery(),
    )
}
