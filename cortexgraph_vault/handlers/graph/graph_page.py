"""`graph --html FILE`: the memory graph as one self-contained page that works offline.

The data (memories, the notes they link to, typed links) is gathered here and embedded as
JSON; the page's own small script lays it out (force-directed, seeded so the same vault draws
the same picture) and draws it on a canvas with pan, zoom and tooltips. No CDN, no fetch.

The page itself is `graph_page.html` beside this module (package data): HTML, CSS and the
script, with `__TITLE__` and `__DATA__` filled in by `render_page`. Drag to pan, wheel to zoom,
hover for a tooltip, drag a node to move it, `0` or the Fit button to see everything.
"""

from __future__ import annotations

import html
import json
from datetime import datetime
from functools import cache
from importlib import resources
from pathlib import Path
from typing import NotRequired, TypedDict

from cortexgraph_vault.core import wording
from cortexgraph_vault.core.times import format_time
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.handlers.browse.notes import link_kind
from cortexgraph_vault.index.notes.records import IndexedNote
from cortexgraph_vault.models import GraphPictureResult
from cortexgraph_vault.requests.maintenance import GraphHtmlRequest
from cortexgraph_vault.vault.temp_names import temp_path_for

STATUS_COLOURS = {
    "active": "#2f81f7",
    "promoted": "#2da44e",
    "archived": "#8c959f",
    "note": "#d4a72c",
}
RELATION_COLOURS = {
    "related": "#57606a",
    "causes": "#cf222e",
    "supports": "#1a7f37",
    "contradicts": "#e16f24",
    "has_decision": "#8250df",
    "consolidated_from": "#0969da",
    "link": "#b6bec8",
    "embed": "#b6bec8",
}
# Types a person made up (owner, works_at, ...) take these in turn.
OTHER_RELATIONS = ("#bf3989", "#1b7c83", "#9a6700", "#6639ba", "#116329", "#953800", "#d1242f")
PREVIEW = 280


class GraphNode(TypedDict):
    """A note drawn on the page; a memory carries its decay figures for the tooltip."""

    id: str
    title: str
    kind: str
    tags: list[str]
    preview: str
    memory_id: NotRequired[str | None]
    uses: NotRequired[int]
    strength: NotRequired[float]
    score: NotRequired[float]
    last_used: NotRequired[str]


# `from` is a Python keyword: the key the page's script reads is spelt in a string
GraphEdge = TypedDict("GraphEdge", {"from": str, "to": str, "type": str})


class GraphData(TypedDict):
    """What the page embeds as JSON; its script reads these keys (hence the camelCase)."""

    title: str
    generated: str
    nodes: list[GraphNode]
    edges: list[GraphEdge]
    statusColours: dict[str, str]
    relationColours: dict[str, str | None]


def _node(engine: VaultEngine, note: IndexedNote, now: datetime) -> GraphNode:
    m = note.memory
    text = " ".join((m.content if m else note.body).split())
    node: GraphNode = {
        "id": note.path,
        "title": note.title,
        "kind": m.status if m else "note",
        "tags": list(m.tags if m else note.tags),
        "preview": text[:PREVIEW] + ("…" if len(text) > PREVIEW else ""),
    }
    if m is not None:
        node["memory_id"] = m.id
        node["uses"] = m.use_count
        node["strength"] = m.strength
        node["score"] = round(engine.score(m, now), 4)
        node["last_used"] = format_time(m.last_used)
    return node


def graph_data(engine: VaultEngine, *, include_notes: bool = True) -> GraphData:
    """Memories, (optionally) the notes linked to or from them, and the links among them."""
    now = engine.now()
    catalog = engine.fresh()
    with catalog.lock:
        graph = catalog.graph
        memories = sorted(
            (n for n in catalog.notes() if n.memory is not None), key=lambda n: n.path
        )
        chosen = {n.path: n for n in memories}
        if include_notes:
            for n in memories:
                near = [e.target for e in graph.outgoing(n.path) if e.target] + graph.backlinks(
                    n.path
                )
                for path in near:
                    other = catalog.note(path)
                    if other is not None and path not in chosen:
                        chosen[path] = other
        nodes = [_node(engine, n, now) for n in sorted(chosen.values(), key=lambda n: n.path)]
        edges: list[GraphEdge] = []
        seen: set[tuple[str, str, str]] = set()
        for path in sorted(chosen):
            for edge in graph.outgoing(path):
                if edge.target is None or edge.target == path or edge.target not in chosen:
                    continue
                kind = link_kind(edge.link)
                key = (path, edge.target, kind)
                if key not in seen:
                    seen.add(key)
                    edges.append({"from": path, "to": edge.target, "type": kind})
    kinds = sorted({e["type"] for e in edges})
    others = iter([k for k in kinds if k not in RELATION_COLOURS])
    colours = {k: RELATION_COLOURS.get(k) for k in kinds}
    for i, kind in enumerate(others):
        colours[kind] = OTHER_RELATIONS[i % len(OTHER_RELATIONS)]
    return {
        "title": f"Memory graph — {engine.root.name}",
        "generated": format_time(now),
        "nodes": nodes,
        "edges": edges,
        "statusColours": STATUS_COLOURS,
        "relationColours": colours,
    }


@cache
def page_template() -> str:
    return (
        resources.files("cortexgraph_vault.handlers.graph")
        .joinpath("graph_page.html")
        .read_text(encoding="utf-8")
    )


def render_page(data: GraphData) -> str:
    # `</` inside the JSON would end the script element early; `<\/` is the same JSON string.
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return (
        page_template()
        .replace("__TITLE__", html.escape(data["title"]))
        .replace("__DATA__", payload)
    )


def graph_html(engine: VaultEngine, req: GraphHtmlRequest) -> GraphPictureResult:
    out = Path(req.file).expanduser()
    if out.is_dir():
        raise InvalidArgument(f"{out}: is a folder; give a file name such as graph.html")
    data = graph_data(engine, include_notes=req.include_notes)
    text = render_page(data).encode("utf-8")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_path_for(out)
    try:
        tmp.write_bytes(text)
        tmp.replace(out)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    nodes, edges = len(data["nodes"]), len(data["edges"])
    return GraphPictureResult(
        path=str(out),
        nodes=nodes,
        edges=edges,
        bytes=len(text),
        message=wording.graph_page_written(str(out), nodes, edges),
    )
