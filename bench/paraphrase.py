"""Paraphrase recall on the sample vault: questions worded unlike the memory that answers them.

Protocol: the sample vault (its times rebased to NOW) in a temporary folder; the memories of
bench/paraphrase_set.json saved into it through the service, a minute apart (so each is an
episode of its own, as memories said on different days are); then each question through MCP
`search_memory` (top 10). hit@1 / hit@3: the question's memory is first / among the first 3.
A dev set written for this project; tune to the protocol, not to these sentences.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import anyio

SET = Path(__file__).resolve().parent / "paraphrase_set.json"
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TOP_K = 10


def evaluate_paraphrases(
    settings: Mapping[str, object] | None = None, path: Path = SET
) -> dict[str, Any]:
    from bench.recall import BASE_SETTINGS, _isolated_dirs, meaning_ready
    from cortexgraph_vault.config import load_config
    from cortexgraph_vault.service import MemoryService
    from cortexgraph_vault.vault.sample import copy_sample_vault

    data = json.loads(path.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="cgv-para-") as tmp, _isolated_dirs():
        root = copy_sample_vault(Path(tmp) / "vault", NOW)
        saved: dict[str, str] = {}
        start = NOW - timedelta(days=30)
        for i, (key, text) in enumerate(data["memories"].items()):
            values = {**BASE_SETTINGS, **(settings or {}), "vault": str(root),
                      "now": (start + timedelta(days=i)).strftime("%Y-%m-%dT%H:%M:%SZ")}  # fmt: skip
            config = load_config(values, env={}, user_file=Path(tmp) / "no-user-config.toml")
            saved[key] = MemoryService(config).save(text).path
        values = {**BASE_SETTINGS, **(settings or {}), "vault": str(root),
                  "now": NOW.strftime("%Y-%m-%dT%H:%M:%SZ")}  # fmt: skip
        config = load_config(values, env={}, user_file=Path(tmp) / "no-user-config.toml")
        service = MemoryService(config)
        meaning_ready(service)

        async def run() -> list[dict[str, Any]]:
            from mcp import Client

            from cortexgraph_vault.mcp import build_server

            rows = []
            async with Client(build_server(service)) as client:
                for item in data["questions"]:
                    want = saved.get(item["memory"], item["memory"])
                    result = await client.call_tool(
                        "search_memory", {"query": item["q"], "top_k": TOP_K}
                    )
                    if result.is_error or result.structured_content is None:
                        raise RuntimeError(f"search_memory failed for {item['q']!r}")
                    top = [h["path"] for h in result.structured_content["results"]]
                    rank = top.index(want) + 1 if want in top else None
                    rows.append({"question": item["q"], "memory": want, "rank": rank,
                                 "top": top[:3]})  # fmt: skip
            return rows

        rows = anyio.run(run)
    n = max(1, len(rows))
    return {
        "questions": len(rows),
        "hit@1": sum(r["rank"] == 1 for r in rows) / n,
        "hit@3": sum(r["rank"] is not None and r["rank"] <= 3 for r in rows) / n,
        "hit@10": sum(r["rank"] is not None for r in rows) / n,
        "rows": rows,
    }
