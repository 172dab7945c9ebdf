"""The secret check: how well it tells credentials from look-alikes, whether ids of an import
are ever taken for card numbers, and how long it takes on hostile input (every write runs it
over every field, so no input of the largest allowed size, 50,000 characters, may make it
slow: no pattern rescans a run).

    python bench/bench_secrets.py [--ids N]

Prints precision, recall and the false refusals on the labelled sentences
(tests/core/credential_sentences.jsonl, by language), the memories of a CortexGraph import
of N records with random UUIDs (seeded) refused, and the time of `find_secrets` + `redact`
on each hostile shape, worst first.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import uuid
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cortexgraph_vault.core.secrets import find_secrets, redact
from cortexgraph_vault.handlers.writes.secret_check import screen_import
from cortexgraph_vault.importers.cortexgraph import plan_import

SIZE = 50_000
LABELLED = Path(__file__).resolve().parent.parent / "tests" / "core" / "credential_sentences.jsonl"


def shapes() -> dict[str, str]:
    def fill(unit: str) -> str:
        return (unit * (SIZE // len(unit) + 1))[:SIZE]

    units = ["a", "a_", "a.", "password", "password is ", "secret_", "x=", "key=", "4", "4 ",
             "AB12 ", "sk-", "xoxb-", "ghp_", "AKIA", "a://b:", "PIN for the ", "123-45-",
             "mother's maiden name is ", 'password is "', "lorem ipsum dolor 1234 ", "\u200b",
             "hunter4 is my password ", "use 8842 for the alarm ", "four nine two two ",
             "code de la porte : ", "d6755870-be0a-5297-9123-723605b93ccf "]  # fmt: skip
    return {repr(u): fill(u) for u in units}


def labelled_scores() -> None:
    rows = [json.loads(line) for line in LABELLED.read_text().splitlines() if line.strip()]
    by_lang: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # tp, fn, fp, tn
    refused: list[str] = []
    missed: list[str] = []
    for row in rows:
        found = bool(find_secrets(row["text"]))
        counts = by_lang[row.get("lang", "en")]
        if row["secret"]:
            counts[0 if found else 1] += 1
            if not found:
                missed.append(row["text"])
        else:
            counts[2 if found else 3] += 1
            if found:
                refused.append(row["text"])
    print(f"labelled sentences: {len(rows)} ({LABELLED.name})")
    print("  lang  credentials  found  look-alikes  refused  precision  recall")
    total = [0, 0, 0, 0]
    for lang, (tp, fn, fp, tn) in sorted(by_lang.items()):
        total = [a + b for a, b in zip(total, (tp, fn, fp, tn), strict=True)]
        _row(lang, tp, fn, fp, tn)
    _row("all", *total)
    for text in missed:
        print(f"  missed:  {text}")
    for text in refused:
        print(f"  refused: {text}")


def _row(lang: str, tp: int, fn: int, fp: int, tn: int) -> None:
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    print(
        f"  {lang:4}  {tp + fn:11}  {tp:5}  {fp + tn:11}  {fp:7}  {precision:9.3f}  {recall:6.3f}"
    )


def uuid_import(count: int) -> None:
    """A CortexGraph store whose ids (memories and relations) are random UUIDs."""
    rng = random.Random(33)
    ids = [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(count)]
    memories = "".join(
        json.dumps({"id": mid, "content": f"note {i} after {ids[i - 1]}", "created_at": 1,
                    "meta": {"tags": ["x"], "extra": {"ref": ids[i - 1]}}}) + "\n"
        for i, mid in enumerate(ids)
    )  # fmt: skip
    relations = "".join(
        json.dumps({"id": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                    "from_memory_id": mid, "to_memory_id": ids[i - 1], "relation_type": "related"})
        + "\n"
        for i, mid in enumerate(ids)
    )  # fmt: skip
    start = time.perf_counter()
    plan = screen_import(
        plan_import(memories.encode(), relations.encode(), "bench"), allow_secrets=False
    )
    seconds = time.perf_counter() - start
    refused = [p for p in plan.problems if "--allow-secrets" in p.reason]
    print(
        f"CortexGraph import of {count:,} records with random UUIDs (seed 33): "
        f"{len(refused)} refused as secrets, {len(plan.drafts):,} kept ({seconds:.1f} s)"
    )


def hostile_times() -> None:
    rows = []
    for name, text in shapes().items():
        start = time.perf_counter()
        find_secrets(text)
        redact(text)
        rows.append((time.perf_counter() - start, name))
    print("hostile input, find_secrets + redact:")
    for seconds, name in sorted(rows, reverse=True):
        print(f"  {seconds * 1000:8.1f} ms  {name} × {SIZE:,} characters")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ids", type=int, default=29_450, help="records in the UUID import")
    args = parser.parse_args(argv)
    labelled_scores()
    uuid_import(args.ids)
    hostile_times()
    return 0


if __name__ == "__main__":
    sys.exit(main())
