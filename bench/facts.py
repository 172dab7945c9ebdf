"""`python -m bench facts`: does the memory answer with the fact that is true now?

The protocol is `../shared/bench-data/README.md` ("changing-facts"), so figures compare across
versions: one git vault, the clock from 2026-01-05 09:00 UTC; each scenario's old fact saved
and used on four days, its replacement saved weeks later, among noise memories; promote and gc
every 30 days; everything through the CLI with `--now`, as a person or a model would. At day
90 (after that day's maintenance) and day 200, each scenario's question goes through MCP
`search_memory` (top 5) over real stdio.

- current@1: the new fact is the first of {new, old} returned, and in the top 3;
- stale@3: the old fact is in the top 3, above the new one or without it, and its result
  does not say it was superseded;
- false supersessions: pairs recorded in the notes (`supersedes`) that are not a scenario's
  (old, new) — whoever recorded them.

Variants: *unassisted* (the saves as they are), *assisted* (after each new fact is saved, every
memory its answer lists under `may_supersede` is confirmed with `relate NEW OLD --type
supersedes`, as a model confirming every suggestion would), *oracle* (the true pair confirmed
the same way: what search, standing, gc and promotion make of a supersession once it is
recorded, whatever noticed it). After day 200, auto-recall (`recall --mode silent`) on a dozen
chit-chat messages must reinforce nothing, and each scenario's question should reinforce its
current fact and nothing else.

    python -m bench facts                                # this checkout, every variant
    python -m bench facts --before /path/to/checkout     # adds a column for that checkout
    python -m bench facts --variants oracle --json
    python -m bench facts --variants oracle --explain --keep /tmp/facts  # why each miss

`--before` runs the same protocol against another checkout's package (a `git worktree` of
the version before the change): its CLI and MCP server, not this one's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import anyio

_REPO = Path(__file__).resolve().parent.parent
_DATA = "shared/bench-data/changing-facts-dev.json"
# `../shared/bench-data/` next to the checkout; a worktree nested one level deeper finds it too.
DEFAULT_DATA = next(
    (d / _DATA for d in _REPO.parents if (d / _DATA).is_file()), _REPO.parent / _DATA
)
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
TOUCH_AFTER = (3, 8, 15, 22)
MAINTENANCE = (29.5, 59.5, 89.5, 119.5, 149.5, 179.5, 199.5)
CHECKPOINTS = (90.0, 200.0)
TOP_K = 5
VARIANTS = ("unassisted", "assisted", "oracle")
# Small talk of common words that no memory is about (the bench's own, not the data's).
CHIT_CHAT = (
    "Let's plan the week ahead.",
    "I live for weekends like this.",
    "What a day it has been, honestly.",
    "Can you help me think this through?",
    "Thanks, that makes sense now.",
    "I need a minute to get my thoughts in order.",
    "Time flies when you are busy.",
    "Let's keep going where we left off.",
    "That sounds good to me, go ahead.",
    "Remind me what we were talking about.",
    "I'm not sure yet, let me think about it.",
    "Okay, what's next on the list?",
)


def at(day: float) -> str:
    return (START + timedelta(days=day)).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class Event:
    day: float
    order: int  # same instant: saves before touches before maintenance
    kind: str  # save_old | save_new | save_noise | touch | maintain
    index: int  # scenario or noise index


def timeline(scenarios: int, noise: int) -> list[Event]:
    events: list[Event] = []
    for i in range(scenarios):
        old_day = float(i % 20)
        events.append(Event(old_day, 0, "save_old", i))
        for k, after in enumerate(TOUCH_AFTER, 1):
            events.append(Event(old_day + after + 0.01 * k, 1, "touch_old", i))
        events.append(Event(45.0 + (7 * i) % 30, 0, "save_new", i))
    for j in range(noise):
        day = round((1.7 * j) % 85, 6)
        events.append(Event(day, 0, "save_noise", j))
        if j % 3 == 0:
            events += [Event(day + 5, 1, "touch_noise", j), Event(day + 12, 1, "touch_noise", j)]
    events += [Event(d, 2, "maintain", 0) for d in MAINTENANCE]
    return sorted(events, key=lambda e: (e.day, e.order, e.kind, e.index))


@dataclass
class Outcome:
    variant: str
    current_at_1: dict[float, int] = field(default_factory=dict)
    stale_at_3: dict[float, int] = field(default_factory=dict)
    false_supersessions: dict[float, int] = field(default_factory=dict)
    questions: int = 0
    chit_chat_reinforced: int = 0
    recall_current: int = 0
    recall_others: int = 0
    suggested: int = 0  # may_supersede entries seen
    failures: list[str] = field(default_factory=list)
    # --explain: per checkpoint, per scenario, what search answered and where both notes stood
    explain: list[dict[str, Any]] = field(default_factory=list)


class Vault:
    """One vault driven through one checkout's CLI (and its MCP server)."""

    def __init__(self, root: Path, package: Path, home: Path) -> None:
        self.root = root
        self.package = package
        self.env = dict(os.environ)
        self.env.update({
            "PYTHONPATH": str(package),
            "CORTEXGRAPH_CONFIG_DIR": str(home / "config"),
            "CORTEXGRAPH_CACHE_DIR": str(home / "cache"),
            "CORTEXGRAPH_DATA_DIR": str(home / "data"),
            "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.org",
            "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.org",
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": str(home / "gitconfig"),
        })  # fmt: skip
        self.cwd = home  # never the checkout: `-m` would import the package in the cwd

    def command(self, day: float) -> list[str]:
        return [sys.executable, "-m", "cortexgraph_vault.cli.main", "--vault", str(self.root),
                "--now", at(day), "--json"]  # fmt: skip

    def cli(self, day: float, *args: str) -> Any:
        done = subprocess.run(
            [*self.command(day), *args], env=self.env, cwd=self.cwd, capture_output=True,
            text=True, timeout=300,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} at day {day}: {done.stderr.strip()[-500:]}")
        return json.loads(done.stdout) if done.stdout.strip() else None

    async def search_all(self, day: float, queries: Sequence[str]) -> list[list[dict[str, Any]]]:
        """Each query through MCP `search_memory` (top 5) over real stdio, one server."""
        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client

        cmd = self.command(day)
        params = StdioServerParameters(
            command=cmd[0], args=[*cmd[1:-1], "mcp"], env=self.env, cwd=str(self.cwd)
        )
        answers: list[list[dict[str, Any]]] = []
        with open(os.devnull, "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                for query in queries:
                    result = await session.call_tool(
                        "search_memory", {"query": query, "top_k": TOP_K}
                    )
                    content = result.structured_content or {}
                    answers.append(list(content.get("results", [])))
        return answers


def _suggestions(saved: dict[str, Any]) -> list[str]:
    """The ids a save's answer lists under `may_supersede` (none before it existed)."""
    out = []
    for item in saved.get("may_supersede") or []:
        ref = item.get("memory_id") or item.get("id") if isinstance(item, dict) else item
        if ref:
            out.append(str(ref))
    return out


def _frontmatters(root: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Each note of the vault with its frontmatter (notes without one, or unreadable, left out)."""
    import yaml

    for path in root.rglob("*.md"):
        if ".git" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        if not text.startswith("---"):
            continue
        try:
            fm = yaml.safe_load(text.split("---", 2)[1]) or {}
        except yaml.YAMLError:
            continue
        if isinstance(fm, dict):
            yield path, fm


def _pairs_in_notes(root: Path, identity: dict[str, tuple[str, int]]) -> list[tuple[str, str]]:
    """(new id, old id) of every supersession the notes record, from the new notes'
    `supersedes` values resolved by title among the vault's memories."""
    by_title: dict[str, str] = {}
    claims: list[tuple[str, list[str]]] = []
    for path, fm in _frontmatters(root):
        mid = str(fm.get("id", ""))
        by_title[path.stem.lower()] = mid
        for alias in fm.get("aliases") or []:
            by_title.setdefault(str(alias).lower(), mid)
        values = fm.get("supersedes") or []
        if values:
            claims.append((mid, [str(v) for v in values]))
    pairs = []
    for new_id, values in claims:
        for value in values:
            title = value.strip().removeprefix("[[").removesuffix("]]").split("|")[0].lower()
            pairs.append((new_id, by_title.get(title, f"unresolved:{title}")))
    return pairs


def _notes_by_id(root: Path) -> dict[str, dict[str, Any]]:
    """Every memory note's id → its folder and standing fields (for --explain)."""
    out: dict[str, dict[str, Any]] = {}
    for path, fm in _frontmatters(root):
        if fm.get("id"):
            out[str(fm["id"])] = {
                "path": str(path.relative_to(root)),
                **{k: fm.get(k) for k in _STANDING if fm.get(k) is not None},
            }
    return out


_STANDING = ("status", "use_count", "use_days", "strength", "last_used", "superseded_by")


def _hit_view(hit: dict[str, Any], identity: dict[str, tuple[str, int]]) -> dict[str, Any]:
    key = identity.get(str(hit.get("id") or hit.get("memory_id")), ("?", -1))
    view = {"is": f"{key[0]}{key[1]}", "title": hit.get("title")}
    view.update({k: hit[k] for k in ("score", "status", "superseded_by") if hit.get(k)})
    return view


def explain_text(outcome: Outcome, data: dict[str, Any]) -> str:
    """The scenarios a column missed (current@1 not met, or stale), with what search answered
    and where both notes stood; then the pairs recorded that are no scenario's."""
    lines = [f"== {outcome.variant}"]
    for entry in outcome.explain:
        if entry.get("kind") == "false":
            lines.append(f"day {entry['day']:g} false supersession: {entry['pair']}")
            continue
        if entry.get("kind") == "recall":
            i = entry["scenario"]
            lines.append(f"recall #{i} {data['scenarios'][i]['query']!r} reinforced "
                         f"{entry['reinforced']} (its current fact: new{i})")  # fmt: skip
            continue
        if entry.get("kind") == "chit-chat":
            lines.append(f"recall {entry['message']!r} reinforced {entry['reinforced']}")
            continue
        if entry["current"] and not entry["stale"]:
            continue
        i = entry["scenario"]
        scenario = data["scenarios"][i]
        lines.append(
            f"day {entry['day']:g} #{i} {scenario['slot']}: current={entry['current']} "
            f"stale={entry['stale']}  q: {scenario['query']}"
        )
        for side in ("old", "new"):
            lines.append(f"    {side}: {entry[side]}")
        for rank, hit in enumerate(entry["hits"], 1):
            lines.append(f"    {rank}. {hit}")
    return "\n".join(lines)


def run_variant(
    data: dict[str, Any], variant: str, package: Path, work: Path, explain: bool = False
) -> Outcome:
    scenarios, noise = data["scenarios"], data["noise"]
    home = work / f"{variant}-home"
    home.mkdir(parents=True)
    vault = Vault(work / f"{variant}-vault", package, home)
    vault.root.mkdir()
    vault.cli(0.0, "init")
    out = Outcome(variant, questions=len(scenarios))
    ids: dict[tuple[str, int], str] = {}
    identity: dict[str, tuple[str, int]] = {}
    events = timeline(len(scenarios), len(noise))
    checkpoints = list(CHECKPOINTS)

    def save(day: float, text: str, key: tuple[str, int]) -> dict[str, Any]:
        saved = vault.cli(day, "save", text)
        ids[key] = saved["memory_id"]
        identity[saved["memory_id"]] = key
        return saved

    def measure(day: float) -> None:
        answers = anyio.run(vault.search_all, day, [s["query"] for s in scenarios])
        current = stale = 0
        for i, hits in enumerate(answers):
            order = [identity.get(str(h.get("id") or h.get("memory_id")), ("?", -1)) for h in hits]
            new_at = order.index(("new", i)) if ("new", i) in order else None
            old_at = order.index(("old", i)) if ("old", i) in order else None
            is_current = new_at is not None and new_at < 3 and (old_at is None or new_at < old_at)
            is_stale = (
                old_at is not None
                and old_at < 3
                and (new_at is None or old_at < new_at)
                and not hits[old_at].get("superseded_by")
            )
            current += is_current
            stale += is_stale
            if explain:
                notes = _notes_by_id(vault.root)
                out.explain.append({
                    "day": day, "scenario": i, "current": is_current, "stale": is_stale,
                    "old": notes.get(ids.get(("old", i), ""), "forgotten"),
                    "new": notes.get(ids.get(("new", i), ""), "forgotten"),
                    "hits": [_hit_view(h, identity) for h in hits],
                })  # fmt: skip
        true_pairs = {(ids.get(("new", i)), ids.get(("old", i))) for i in range(len(scenarios))}
        recorded = _pairs_in_notes(vault.root, identity)
        if explain:
            for pair in recorded:
                if pair not in true_pairs:
                    named = [identity.get(p, ("?", -1)) for p in pair]
                    out.explain.append({"kind": "false", "day": day, "pair": named})
        out.current_at_1[day] = current
        out.stale_at_3[day] = stale
        out.false_supersessions[day] = sum(1 for p in recorded if p not in true_pairs)

    for event in events:
        while checkpoints and event.day > checkpoints[0]:
            measure(checkpoints.pop(0))
        day = event.day
        if event.kind == "save_old":
            save(day, scenarios[event.index]["old"], ("old", event.index))
        elif event.kind == "save_noise":
            save(day, noise[event.index], ("noise", event.index))
        elif event.kind == "save_new":
            saved = save(day, scenarios[event.index]["new"], ("new", event.index))
            suggested = _suggestions(saved)
            out.suggested += len(suggested)
            if explain:
                for item in saved.get("may_supersede") or []:
                    ref = str(item.get("memory_id") or item.get("id") or "")
                    if ref != ids.get(("old", event.index)):
                        out.explain.append({
                            "kind": "false", "day": day,
                            "pair": f"listed for new{event.index}: "
                                    f"{identity.get(ref, ('?', -1))} {item}",
                        })  # fmt: skip
            confirm = []
            if variant == "assisted":
                confirm = suggested
            elif variant == "oracle":
                confirm = [ids[("old", event.index)]]
            for old in confirm:
                try:
                    vault.cli(
                        day + 0.001, "relate", saved["memory_id"], old, "--type", "supersedes"
                    )
                except RuntimeError as exc:
                    out.failures.append(str(exc))
        elif event.kind in ("touch_old", "touch_noise"):
            key = ("old" if event.kind == "touch_old" else "noise", event.index)
            try:
                vault.cli(day, "touch", ids[key])
            except RuntimeError as exc:  # forgotten by gc meanwhile: a use that cannot be
                out.failures.append(str(exc))
        elif event.kind == "maintain":
            vault.cli(day, "promote", "--auto", "--yes")
            vault.cli(day, "gc", "--yes")
    for day in checkpoints:
        measure(day)
    # auto-recall after day 200: chit-chat reinforces nothing; each question its current fact
    clock = 200.1
    chatter: list[tuple[str, list[tuple[str, int]]]] = []
    for message in CHIT_CHAT:
        clock += 0.01
        recalled = vault.cli(clock, "recall", message, "--mode", "silent")
        out.chit_chat_reinforced += len(recalled.get("reinforced_ids") or [])
        if recalled.get("reinforced_ids"):
            chatter.append((message, [identity.get(str(x), ("?", -1))
                                      for x in recalled["reinforced_ids"]]))  # fmt: skip
    for i, scenario in enumerate(scenarios):
        clock += 0.01
        recalled = vault.cli(clock, "recall", scenario["query"], "--mode", "silent")
        reinforced = [str(x) for x in recalled.get("reinforced_ids") or []]
        out.recall_current += ids.get(("new", i)) in reinforced
        out.recall_others += sum(1 for x in reinforced if x != ids.get(("new", i)))
        if explain and reinforced != [ids.get(("new", i))]:
            named = [identity.get(x, ("?", -1)) for x in reinforced]
            out.explain.append({"kind": "recall", "scenario": i, "reinforced": named})
    if explain:
        for message, named in chatter:
            out.explain.append({"kind": "chit-chat", "message": message, "reinforced": named})
    return out


def table(columns: list[tuple[str, Outcome]]) -> str:
    n = columns[0][1].questions if columns else 0
    head = f"{'':<34}" + "".join(f"{name:>18}" for name, _ in columns)
    lines = [f"changing facts: {n} scenarios, search_memory top {TOP_K} over MCP stdio", head]

    def row(label: str, values: list[str]) -> None:
        lines.append(f"{label:<34}" + "".join(f"{v:>18}" for v in values))

    def frac(count: int) -> str:
        return f"{count}/{n} ({count / n:.2f})" if n else "-"

    for day in CHECKPOINTS:
        row(f"day {day:g}  current@1", [frac(o.current_at_1.get(day, 0)) for _, o in columns])
        row(f"day {day:g}  stale@3", [frac(o.stale_at_3.get(day, 0)) for _, o in columns])
        row(f"day {day:g}  false supersessions",
            [str(o.false_supersessions.get(day, 0)) for _, o in columns])  # fmt: skip
    row("may_supersede listed", [str(o.suggested) for _, o in columns])
    row(f"recall: chit-chat ({len(CHIT_CHAT)}) reinforced",
        [str(o.chit_chat_reinforced) for _, o in columns])  # fmt: skip
    row("recall: question → current fact", [frac(o.recall_current) for _, o in columns])
    row("recall: question → other memories", [str(o.recall_others) for _, o in columns])
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench facts", description=__doc__)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument(
        "--variants",
        nargs="*",
        choices=VARIANTS,
        default=list(VARIANTS),
        help="this checkout's variants (none: only --before's column)",
    )
    parser.add_argument(
        "--before", type=Path, help="a checkout of the version to compare with (its package)"
    )
    parser.add_argument(
        "--scenarios", type=int, help="only the first N scenarios (a quick look; not the protocol)"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--explain",
        action="store_true",
        help="after the table, each missed scenario: what search answered, where both notes "
        "stood; and the supersessions recorded that are no scenario's",
    )
    parser.add_argument(
        "--keep", type=Path, help="run in this (new) folder and keep the vaults to look at"
    )
    options = parser.parse_args(argv)
    if not options.data.is_file():
        parser.error(f"{options.data}: no such file (the bench data lives in ../shared/bench-data)")
    data = json.loads(options.data.read_text(encoding="utf-8"))
    if options.scenarios:
        data = {**data, "scenarios": data["scenarios"][: options.scenarios]}
    columns: list[tuple[str, Outcome]] = []
    explain = options.explain
    with tempfile.TemporaryDirectory(prefix="bench-facts-") as tmp:
        work = Path(tmp) if options.keep is None else options.keep.resolve()
        if options.before is not None:
            before = run_variant(
                data, "unassisted", options.before.resolve(), work / "before", explain
            )
            columns.append(("before", before))
        for variant in options.variants:
            columns.append((variant, run_variant(data, variant, _REPO, work / "now", explain)))
    if options.json:
        print(json.dumps([{"column": name, **vars(o)} for name, o in columns], default=str))
    else:
        print(table(columns))
        if explain:
            for _, o in columns:
                print(explain_text(o, data))
        for name, o in columns:
            for failure in o.failures[:5]:
                print(f"{name}: {failure}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
