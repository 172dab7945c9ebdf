"""`python -m bench recall`: how often search finds the dialogue turn that answers a question.

On LoCoMo (bench/locomo.py has the protocol), for each question: does an evidence turn come
among the top 5 / top 10 results, at which rank (MRR over the top 10), and how long the search
call took. Three variants run in one process, conversation by conversation, so their ratio
holds on a noisy machine (a fourth, BM25 with stop words dropped, costs nothing):

- shipped: `search_memory` through the MCP tool (the SDK's in-memory client to the real server);
- decay off: the same with a half-life of 10 years (every decay model's rate set that slow);
- bm25: a plain BM25 over the same turn texts (bench/bm25.py), and bm25+stop the same without
  the product's query stop words (the usual set-up; what the issue's BM25 figure was near).

Then two sets of notes: note search on Obsidian's help vault
(bench/note_search.py: its path given with --help-vault, never stored here; skipped, saying how
to get it, when absent) and paraphrases on the sample vault (bench/paraphrase.py). LoCoMo's
figures include the distinct sessions among the top 10 (how diverse the results are).

    python -m bench recall --help-vault DIR/en   # every set, every variant, through MCP
    python -m bench recall --sets notes,paraphrase --help-vault DIR/en
    python -m bench recall                       # the dev split, every variant, through MCP
    python -m bench recall --in-process          # service.search called directly (fast)
    python -m bench recall --limit-conversations 1 --questions 50 --json
    python -m bench recall --in-process --variants shipped --dump ranks.jsonl  # what it misses

For tuning from Python: `evaluate(service_variant(), load_conversations(DEFAULT_DATA))`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from bench.bm25 import BM25, STOP_WORDS
from bench.locomo import CATEGORIES, Conversation, load_conversations, write_vault

_REPO = Path(__file__).resolve().parent.parent
_DATA = "shared/bench-data/locomo-dev.json"
# `../shared/bench-data/` next to the checkout; a worktree nested one level deeper finds it too.
DEFAULT_DATA = next(
    (d / _DATA for d in _REPO.parents if (d / _DATA).is_file()), _REPO.parent / _DATA
)
TOP_K = 10
# Ten years, in every decay model's own unit, each within the setting's allowed range.
_SLOW = math.log(2) / (3650 * 86400)
DECAY_OFF = {
    "pl_halflife_days": 3650.0,
    "decay_lambda": _SLOW,
    "tc_lambda_fast": _SLOW,
    "tc_lambda_slow": _SLOW,
}
# Search only reads; commits off all the same, so a slip could never write git history.
BASE_SETTINGS = {"git_commit_writes": False, "git_auto_commit": False}

Search = Callable[[str], Awaitable[list[str]]]  # a query → dia_ids, best first


@dataclass(frozen=True)
class BuiltVault:
    root: Path
    conversation: Conversation
    dia_of: Mapping[str, str]  # vault-relative path → dia_id


Variant = Callable[[BuiltVault], AbstractAsyncContextManager[Search]]


@dataclass
class Metrics:
    questions: int = 0
    hits5: int = 0
    hits10: int = 0
    reciprocal: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)
    sessions: int = 0  # distinct sessions in the top 10, summed over questions
    by_category: dict[int, list[int]] = field(default_factory=dict)  # category → [n, hits@5]
    # One row per question (conversation, question, category, evidence, rank, top 10), for
    # looking at what a ranking misses: `--dump`.
    rows: list[dict[str, Any]] = field(default_factory=list)

    def add(self, rank: int | None, category: int, ms: float, top: Sequence[str] = ()) -> None:
        """`rank`: 1-based rank of the first evidence turn in the top 10, None when absent;
        `top`: the dia_ids of the top 10."""
        self.questions += 1
        self.sessions += len({session_of(dia) for dia in top[:TOP_K]})
        self.hits5 += rank is not None and rank <= 5
        self.hits10 += rank is not None and rank <= 10
        self.reciprocal += 1 / rank if rank is not None and rank <= 10 else 0.0
        self.latencies_ms.append(ms)
        tally = self.by_category.setdefault(category, [0, 0])
        tally[0] += 1
        tally[1] += rank is not None and rank <= 5

    def summary(self) -> dict[str, Any]:
        n = max(1, self.questions)
        return {
            "questions": self.questions,
            "recall@5": self.hits5 / n,
            "recall@10": self.hits10 / n,
            "mrr@10": self.reciprocal / n,
            "sessions@10": self.sessions / n,
            "p50_ms": percentile(self.latencies_ms, 50),
            "p95_ms": percentile(self.latencies_ms, 95),
            "recall@5_by_category": {
                CATEGORIES[c]: {"questions": t[0], "recall@5": t[1] / t[0]}
                for c, t in sorted(self.by_category.items())
            },
        }


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def session_of(dia_id: str) -> str:
    """`D3:14` → `D3`: the session a turn was said in."""
    return dia_id.partition(":")[0]


def first_hit(ranked: Sequence[str], evidence: frozenset[str]) -> int | None:
    return next((i for i, dia in enumerate(ranked, 1) if dia in evidence), None)


# variants ------------------------------------------------------------------------------
def _service(vault: BuiltVault, settings: Mapping[str, object]) -> Any:
    from cortexgraph_vault.config import load_config
    from cortexgraph_vault.service import MemoryService

    values = {**BASE_SETTINGS, **settings, "vault": str(vault.root)}
    values["now"] = vault.conversation.now.strftime("%Y-%m-%dT%H:%M:%SZ")
    # Neither the user's config file nor CORTEXGRAPH_* variables change what is measured.
    config = load_config(values, env={}, user_file=vault.root.parent / "no-user-config.toml")
    service = MemoryService(config)
    meaning_ready(service)
    return service


def meaning_ready(service: Any) -> float:
    """Seconds until every note has its sentence-encoder vector (a search before would rank
    by the word vectors), also told on stderr; 0 when the encoder is off or unusable."""
    started = time.perf_counter()
    catalog = service.engine.catalog
    if catalog.meaning.wait() is None:
        return 0.0
    took = time.perf_counter() - started
    print(f"sentence vectors of {len(catalog)} notes made in {took:.1f} s", file=sys.stderr)
    return took


def _dia_ids(vault: BuiltVault, paths: Sequence[str]) -> list[str]:
    return [vault.dia_of.get(p, f"?{p}") for p in paths]


def service_variant(settings: Mapping[str, object] | None = None) -> Variant:
    """`search_memory` called on the service in-process: the fast loop for tuning ranking."""

    @asynccontextmanager
    async def open_(vault: BuiltVault) -> AsyncIterator[Search]:
        service = _service(vault, settings or {})
        service.engine.start_watcher()  # as the MCP server and daemon run: no walk per call
        try:

            async def search(query: str) -> list[str]:
                hits = service.search(query, top_k=TOP_K).results
                return _dia_ids(vault, [h.path for h in hits])

            yield search
        finally:
            service.engine.stop_watcher()

    return open_


def mcp_variant(settings: Mapping[str, object] | None = None) -> Variant:
    """`search_memory` through the MCP tool: the real server, the SDK's in-memory client."""
    from mcp import Client

    from cortexgraph_vault.mcp import build_server

    @asynccontextmanager
    async def open_(vault: BuiltVault) -> AsyncIterator[Search]:
        service = _service(vault, settings or {})
        service.engine.start_watcher()
        try:
            async with Client(build_server(service)) as client:

                async def search(query: str) -> list[str]:
                    result = await client.call_tool(
                        "search_memory", {"query": query, "top_k": TOP_K}
                    )
                    if result.is_error or result.structured_content is None:
                        text = " ".join(getattr(b, "text", "") for b in result.content)
                        raise RuntimeError(f"search_memory failed for {query!r}: {text}")
                    hits = result.structured_content["results"]
                    return _dia_ids(vault, [h["path"] for h in hits])

                yield search
        finally:
            service.engine.stop_watcher()

    return open_


def bm25_variant(*, stop_words: bool = False) -> Variant:
    """The baseline over the same turn texts; `stop_words` drops the product's query stop words."""

    @asynccontextmanager
    async def open_(vault: BuiltVault) -> AsyncIterator[Search]:
        turns = vault.conversation.turns
        index = BM25([t.body for t in turns], stop=STOP_WORDS if stop_words else frozenset())

        async def search(query: str) -> list[str]:
            return [turns[i].dia_id for i in index.top(query, TOP_K)]

        yield search

    return open_


# running -------------------------------------------------------------------------------
async def evaluate_all_async(
    variants: Mapping[str, Variant],
    conversations: Sequence[Conversation],
    *,
    questions: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Metrics]:
    """Every variant over every conversation; each conversation's vault is built once, in a
    temporary folder removed afterwards, and the variants take turns on it."""
    results = {name: Metrics() for name in variants}
    for conversation in conversations:
        asked = conversation.questions[:questions]
        with tempfile.TemporaryDirectory(prefix="cgv-recall-") as tmp:
            root = Path(tmp) / "vault"
            vault = BuiltVault(root, conversation, write_vault(conversation, root))
            for name, variant in variants.items():
                if progress:
                    progress(f"{conversation.name}: {name}, {len(asked)} questions")
                async with variant(vault) as search:
                    for question in asked:
                        start = time.perf_counter()
                        ranked = await search(question.text)
                        ms = (time.perf_counter() - start) * 1000
                        rank = first_hit(ranked[:TOP_K], question.evidence)
                        results[name].add(rank, question.category, ms, ranked)
                        results[name].rows.append(
                            {"conversation": conversation.name, "question": question.text,
                             "category": question.category, "evidence": sorted(question.evidence),
                             "rank": rank, "top": ranked[:TOP_K]}
                        )  # fmt: skip
    return results


def evaluate_all(
    variants: Mapping[str, Variant],
    conversations: Sequence[Conversation],
    *,
    questions: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Metrics]:
    async def run() -> dict[str, Metrics]:
        return await evaluate_all_async(
            variants, conversations, questions=questions, progress=progress
        )

    with _isolated_dirs():
        return anyio.run(run)


def evaluate(
    variant: Variant, conversations: Sequence[Conversation], *, questions: int | None = None
) -> dict[str, Any]:
    """One variant's figures (`Metrics.summary()`), e.g. `evaluate(service_variant(), convs)`."""
    return evaluate_all({"variant": variant}, conversations, questions=questions)[
        "variant"
    ].summary()


@contextmanager
def _isolated_dirs() -> Iterator[None]:
    """The product's cache, config and data folders in a temporary folder for the run."""
    names = ("CORTEXGRAPH_CACHE_DIR", "CORTEXGRAPH_CONFIG_DIR", "CORTEXGRAPH_DATA_DIR")
    saved = {n: os.environ.get(n) for n in names}
    home = tempfile.mkdtemp(prefix="cgv-recall-home-")
    try:
        for n in names:
            os.environ[n] = str(Path(home) / n.split("_")[1].lower())
        yield
    finally:
        for n, value in saved.items():
            if value is None:
                os.environ.pop(n, None)
            else:
                os.environ[n] = value
        shutil.rmtree(home, ignore_errors=True)


# output --------------------------------------------------------------------------------
def table(summaries: Mapping[str, dict[str, Any]]) -> str:
    lines = [
        "| variant | recall@5 | recall@10 | MRR@10 | sessions in top 10 | p50 ms | p95 ms |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, s in summaries.items():
        lines.append(
            f"| {name} | {s['recall@5']:.3f} | {s['recall@10']:.3f} | {s['mrr@10']:.3f} "
            f"| {s['sessions@10']:.2f} | {s['p50_ms']:.2f} | {s['p95_ms']:.2f} |"
        )
    first = next(iter(summaries.values()))["recall@5_by_category"]
    header = " | ".join(f"{c} (n={v['questions']})" for c, v in first.items())
    lines += ["", f"| recall@5 by category | {header} |", "|---" + "|---:" * len(first) + "|"]
    for name, s in summaries.items():
        cells = " | ".join(f"{v['recall@5']:.3f}" for v in s["recall@5_by_category"].values())
        lines.append(f"| {name} | {cells} |")
    return "\n".join(lines)


def _setting(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"--set {text!r}: expected KEY=VALUE")
    return key.strip(), value.strip()


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench recall", description=__doc__.split("\n")[0])
    p.add_argument("--data", type=Path, default=DEFAULT_DATA, help="LoCoMo JSON (locomo10 layout)")
    p.add_argument("--limit-conversations", type=int, metavar="N", help="the first N only")
    p.add_argument("--questions", type=int, metavar="N", help="the first N per conversation")
    p.add_argument("--in-process", action="store_true", help="call service.search, not MCP")
    p.add_argument("--variants", default="shipped,decay-off,bm25,bm25+stop",
                   help="comma-separated, among the default's")  # fmt: skip
    p.add_argument("--set", type=_setting, action="append", default=[], metavar="KEY=VALUE",
                   help="a product setting for both product variants (e.g. pl_alpha=1.5)")  # fmt: skip
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--dump", type=Path, metavar="PATH",
                   help="write every question's rank and top 10 per variant (JSON lines)")  # fmt: skip
    p.add_argument("--help-vault", type=Path, metavar="DIR",
                   help="the `en/` folder of Obsidian's help vault, for the note-search set "
                        "(default: $CGV_HELP_VAULT; skipped when neither is given)")  # fmt: skip
    p.add_argument("--sets", default="locomo,notes,paraphrase",
                   help="comma-separated, among the default's")  # fmt: skip
    args = p.parse_args(argv)
    sets = [v.strip() for v in args.sets.split(",") if v.strip()]
    if not sets or any(v not in ("locomo", "notes", "paraphrase") for v in sets):
        p.error("--sets: choose among locomo, notes, paraphrase")
    for flag in ("limit_conversations", "questions"):
        if getattr(args, flag) is not None and getattr(args, flag) < 1:
            p.error(f"--{flag.replace('_', '-')}: must be at least 1")
    from cortexgraph_vault.config import BY_NAME, load_config
    from cortexgraph_vault.errors import ConfigError

    unknown = [k for k, _ in args.set if k not in BY_NAME]
    if unknown:
        p.error(f"--set: unknown setting {unknown[0]!r} (see cortexgraph_vault/config.py)")
    settings = dict(args.set)
    try:  # a bad value is named before any vault is built
        load_config(settings, env={}, user_file=Path(tempfile.gettempdir()) / "no-config.toml")
    except ConfigError as exc:
        p.error(f"--set: {exc}")
    door = service_variant if args.in_process else mcp_variant
    known: dict[str, Callable[[], Variant]] = {
        "shipped": lambda: door(settings),
        "decay-off": lambda: door({**settings, **DECAY_OFF}),
        "bm25": bm25_variant,
        "bm25+stop": lambda: bm25_variant(stop_words=True),
    }
    chosen = [v.strip() for v in args.variants.split(",") if v.strip()]
    if not chosen or any(v not in known for v in chosen):
        p.error(f"--variants: choose among {', '.join(known)}")
    # The LoCoMo data read first: a wrong --data is named before the other sets take minutes.
    conversations = (
        load_conversations(args.data)[: args.limit_conversations] if "locomo" in sets else []
    )
    from bench.note_search import HOW_TO_GET, evaluate_notes, help_vault

    vault = help_vault(args.help_vault) if "notes" in sets else None
    extra: dict[str, Any] = {}
    if "notes" in sets and vault is None:
        extra["notes"] = {"skipped": HOW_TO_GET}
    elif vault is not None:
        extra["notes"] = {
            "vault": str(vault),
            "sets": {
                name: {**m.summary(), "rows": m.rows}
                for name, m in evaluate_notes(vault, settings=settings).items()
            },
        }
    if "paraphrase" in sets:
        from bench.paraphrase import evaluate_paraphrases

        extra["paraphrase"] = evaluate_paraphrases(settings)
    if "locomo" not in sets:
        _print_extra(extra, as_json=args.json)
        return 0
    load = os.getloadavg()[0]  # latency depends on what else the machine runs
    started = time.perf_counter()
    results = evaluate_all(
        {name: known[name]() for name in chosen},
        conversations,
        questions=args.questions,
        progress=lambda text: print(text, file=sys.stderr, flush=True),
    )
    summaries = {name: m.summary() for name, m in results.items()}
    if args.dump:
        with args.dump.open("w", encoding="utf-8") as out:
            for name, metrics in results.items():
                for row in metrics.rows:
                    out.write(json.dumps({"variant": name, **row}) + "\n")
    elapsed = time.perf_counter() - started
    if args.json:
        out = {"data": str(args.data), "conversations": len(conversations),
               "door": "in-process" if args.in_process else "mcp", "seconds": elapsed, "load": load,
               "variants": summaries, **extra}  # fmt: skip
        print(json.dumps(out, indent=2))
        return 0
    questions = next(iter(summaries.values()))["questions"]
    door_name = "service.search in-process" if args.in_process else "MCP search_memory"
    print(
        f"LoCoMo recall: {args.data.name}, {len(conversations)} conversations, {questions} "
        f"questions (categories 1–4); product via {door_name}; MRR over the top 10; "
        f"latency per search call; {elapsed:.0f} s, load {load:.1f} at start"
    )
    print()
    print(table(summaries))
    _print_extra(extra, as_json=False)
    return 0


def _print_extra(extra: Mapping[str, Any], *, as_json: bool) -> None:
    """The note-search and paraphrase sets' figures (bench/note_search.py, bench/paraphrase.py)."""
    if as_json:
        print(json.dumps(extra, indent=2))
        return
    notes = extra.get("notes")
    if notes is not None:
        print()
        if "skipped" in notes:
            print(f"Note search on Obsidian's help vault: skipped; {notes['skipped']}")
        else:
            sets = notes["sets"]
            vectors = next(iter(sets.values()))["vectors_s"]
            print(
                f"Note search on Obsidian's help vault ({notes['vault']}) through MCP "
                f"search_unified; sentence vectors of its notes made in {vectors:.0f} s"
            )
            print()
            print("| questions | n | hit@3 | hit@10 | MRR@10 |")
            print("|---|---:|---:|---:|---:|")
            for name, s in sets.items():
                n = s["questions"]
                print(
                    f"| {name} | {n} | {s['hit@3']}/{n} | {s['hit@10']}/{n} | {s['mrr@10']:.3f} |"
                )
    para = extra.get("paraphrase")
    if para is not None:
        print()
        print(
            f"Paraphrases on the sample vault, {para['questions']} questions through MCP "
            f"search_memory: hit@1 {para['hit@1']:.3f}, hit@3 {para['hit@3']:.3f}, "
            f"hit@10 {para['hit@10']:.3f}"
        )


if __name__ == "__main__":
    sys.exit(main())
