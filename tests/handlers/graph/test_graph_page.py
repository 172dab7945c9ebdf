"""`graph --html`: one offline page; checked as data, and rendered in a real headless Chromium."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from cortexgraph_vault.handlers.graph.graph_page import RELATION_COLOURS, STATUS_COLOURS
from tests.importers.helpers import CORTEXGRAPH, service

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def page_data(page: str) -> dict[str, object]:
    found = re.search(r'<script id="graph-data" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_the_page_holds_the_memory_graph_and_needs_no_network(
    git_vault: Path, tmp_path: Path
) -> None:
    svc = service(git_vault)
    svc.import_cortexgraph(str(CORTEXGRAPH))
    result = svc.graph_html(str(tmp_path / "graph.html"))
    page = (tmp_path / "graph.html").read_text(encoding="utf-8")
    assert result.bytes == len(page.encode())
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "fetch(" not in page and "XMLHttpRequest" not in page and "@import" not in page
    data = page_data(page)
    nodes = {n["id"]: n for n in data["nodes"]}  # type: ignore[union-attr,index]
    assert (result.nodes, result.edges) == (len(nodes), len(data["edges"]))  # type: ignore[arg-type]
    memories = [n for n in nodes.values() if n["kind"] != "note"]
    assert len(memories) == 29
    coffee = nodes["_stm/Maya drinks her coffee black, no sugar.md"]
    assert (coffee["kind"], coffee["uses"], coffee["tags"]) == (
        "active",
        4,
        ["preferences", "food"],
    )
    assert coffee["score"] > 0 and coffee["preview"] == "Maya drinks her coffee black, no sugar."
    assert nodes["memories/Commit style.md"]["kind"] == "promoted"
    assert nodes["_archive/Project Falcon ran on Python 3.8.md"]["kind"] == "archived"
    assert any(n["kind"] == "note" for n in nodes.values())  # People/..., linked from memories
    assert {"from": "_stm/Maya drinks her coffee black, no sugar.md", "type": "related",
            "to": "_stm/Jonas works from Berlin (CET) and prefers meetings after 10 00.md"} in data["edges"]  # type: ignore[operator]  # fmt: skip
    assert data["statusColours"] == STATUS_COLOURS
    assert data["relationColours"]["contradicts"] == RELATION_COLOURS["contradicts"]  # type: ignore[index]


def test_memories_only_leaves_out_ordinary_notes(git_vault: Path, tmp_path: Path) -> None:
    result = service(git_vault).graph_html(str(tmp_path / "g.html"), include_notes=False)
    data = page_data((tmp_path / "g.html").read_text(encoding="utf-8"))
    assert result.nodes == 24 and all(n["kind"] != "note" for n in data["nodes"])  # type: ignore[union-attr,index]


def test_text_that_looks_like_markup_cannot_break_out_of_the_page(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    svc = service(vault)
    svc.save("</script><script>alert(1)</script> & <b>bold</b>", title="Markup", entities=[])
    svc.graph_html(str(tmp_path / "g.html"))
    page = (tmp_path / "g.html").read_text(encoding="utf-8")
    assert page.count("</script>") == 2  # the data block's and the program's own
    [node] = page_data(page)["nodes"]  # type: ignore[misc]
    assert node["preview"] == "</script><script>alert(1)</script> & <b>bold</b>"


@pytest.fixture
def short_tmp() -> Iterator[str]:
    """A temp folder with a short path for Chromium: its singleton socket lives there, and a
    socket's path may not pass 107 bytes (a test run's own TMPDIR can be much deeper)."""
    folder = tempfile.mkdtemp(prefix="cgv-", dir="/tmp" if os.path.isdir("/tmp") else None)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed")
def test_the_page_runs_in_a_real_browser(git_vault: Path, tmp_path: Path, short_tmp: str) -> None:
    svc = service(git_vault)
    svc.import_cortexgraph(str(CORTEXGRAPH))
    svc.graph_html(str(tmp_path / "graph.html"))
    target = (tmp_path / "graph.html").as_uri() + "#node=memories/Commit%20style.md"
    browser = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}",
               "--window-size=1200,800"]  # fmt: skip
    env = {**os.environ, "TMPDIR": short_tmp}
    dom = subprocess.run(
        [*browser, "--dump-dom", target], capture_output=True, text=True, timeout=120, env=env
    )
    assert 'data-ready="true"' in dom.stdout, dom.stderr[-2000:]
    # The tooltip of the node named in the address shows its title, status and score.
    assert re.search(r'<div id="tip"[^>]*display: block', dom.stdout)
    assert '<div class="t">Commit style</div>' in dom.stdout
    assert re.search(r'<div class="m">promoted · score [0-9.]+ · 8 uses', dom.stdout)
    shot = tmp_path / "graph.png"
    subprocess.run(
        [*browser, f"--screenshot={shot}", target], capture_output=True, timeout=120, env=env
    )
    assert shot.stat().st_size > 10_000
