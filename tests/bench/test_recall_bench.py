"""The recall benchmark follows its protocol and counts right, on a made-up conversation.

(Never the LoCoMo data: it is for evaluation only and stays out of the tests.)
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bench.locomo import load_conversations, write_vault
from bench.recall import BuiltVault, Metrics, evaluate, evaluate_all, first_hit, main
from cortexgraph_vault.core.note import parse_note
from tests.mcp.mcp_session import service_for

DATA = [
    {
        "sample_id": "conv-test",
        "conversation": {
            "speaker_a": "Ada",
            "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ada", "dia_id": "D1:1", "text": "I adopted a greyhound named Pixel."},
                {"speaker": "Bo", "dia_id": "D1:2", "text": "Lovely! Send me a photo.",
                 "blip_caption": "a photo of a grey dog on a sofa", "img_url": ["x"]},
                {"speaker": "Ada", "dia_id": "D1:3", "text": "Pixel loves the beach."},
            ],
            "session_2_date_time": "9:05 am on 2 June, 2023",
            "session_2": [
                {"speaker": "Bo", "dia_id": "D2:1", "text": "I started learning the cello."},
                {"speaker": "Ada", "dia_id": "D2:2", "text": "Cello lessons sound like fun."},
            ],
            # A date-time with no session (as in LoCoMo) does not move the clock.
            "session_3_date_time": "10:00 am on 1 January, 2030",
        },
        "qa": [
            {"question": "What is the name of Ada's dog?", "answer": "Pixel",
             "evidence": ["D1:1"], "category": 4},
            {"question": "Which instrument does Bo learn?", "answer": "cello",
             "evidence": ["D:2:1"], "category": 1},
            {"question": "Where does the greyhound like to go?", "answer": "beach",
             "evidence": ["D1:1; D1:3"], "category": 2},
            {"question": "What is Bo's cat called?", "answer": "-", "evidence": ["D1:2"],
             "category": 5},
            {"question": "Is Ada kind?", "answer": "yes", "evidence": [], "category": 3},
        ],
    }
]  # fmt: skip


@pytest.fixture
def data_file(tmp_path: Path) -> Path:
    path = tmp_path / "tiny-locomo.json"
    path.write_text(json.dumps(DATA), encoding="utf-8")
    return path


def test_conversation_is_read_as_the_protocol_says(data_file: Path) -> None:
    (conversation,) = load_conversations(data_file)
    assert [t.dia_id for t in conversation.turns] == ["D1:1", "D1:2", "D1:3", "D2:1", "D2:2"]
    assert conversation.turns[1].body == (
        "Bo: Lovely! Send me a photo. [shares a photo of a grey dog on a sofa]"
    )
    assert conversation.turns[0].body == "Ada: I adopted a greyhound named Pixel."
    # Categories 1–4 with evidence only; mistyped evidence ids read as the turns they name.
    assert [(q.category, sorted(q.evidence)) for q in conversation.questions] == [
        (4, ["D1:1"]),
        (1, ["D2:1"]),
        (2, ["D1:1", "D1:3"]),
    ]
    assert conversation.now.isoformat() == "2023-06-03T09:05:00+00:00"


def test_vault_holds_one_memory_per_turn_with_protocol_fields(
    data_file: Path, tmp_path: Path
) -> None:
    (conversation,) = load_conversations(data_file)
    root = tmp_path / "vault"
    dia_of = write_vault(conversation, root)
    assert sorted(dia_of.values()) == ["D1:1", "D1:2", "D1:3", "D2:1", "D2:2"]
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*.md")) == sorted(dia_of)
    by_dia = {dia: path for path, dia in dia_of.items()}
    expected_times = {"D1:1": "2023-05-08T13:56:00", "D1:3": "2023-05-08T13:57:00",
                      "D2:2": "2023-06-02T09:05:30"}  # fmt: skip
    for dia, when in expected_times.items():
        parsed = parse_note((root / by_dia[dia]).read_text(encoding="utf-8"))
        front = parsed.frontmatter
        assert front["dia_id"] == dia
        assert uuid.UUID(front["id"])
        assert front["created"].isoformat().startswith(when)
        assert front["last_used"] == front["created"]
        assert (front["use_count"], front["strength"], front["status"]) == (1, 1.0, "active")
    assert parse_note((root / by_dia["D1:2"]).read_text()).body == (
        "Bo: Lovely! Send me a photo. [shares a photo of a grey dog on a sofa]\n"
    )

    # The product reads them as memories of that time, and a search maps back to the turn.
    service = service_for(root, now="2023-06-03T09:05:00Z")
    detail = service.memory_at_path(by_dia["D2:1"])
    assert (detail.created, detail.use_count, detail.status) == (
        "2023-06-02T09:05:00Z",
        1,
        "active",
    )
    hits = service.search("cello").results
    assert {dia_of[h.path] for h in hits} == {"D2:1", "D2:2"}


def test_metrics_from_a_made_up_ranking() -> None:
    evidence = frozenset({"D1:3", "D2:1"})
    assert first_hit(["D9:9", "D1:3", "D2:1"], evidence) == 2
    assert first_hit(["D9:9"], evidence) is None
    metrics = Metrics()
    for rank, category in ((1, 4), (5, 4), (6, 1), (None, 1), (10, 2)):
        metrics.add(rank, category, ms=float(rank or 0))
    summary = metrics.summary()
    assert summary["questions"] == 5
    assert summary["recall@5"] == pytest.approx(2 / 5)
    assert summary["recall@10"] == pytest.approx(4 / 5)
    assert summary["mrr@10"] == pytest.approx((1 + 1 / 5 + 1 / 6 + 0 + 1 / 10) / 5)
    assert summary["recall@5_by_category"] == {
        "multi-hop": {"questions": 2, "recall@5": 0.0},
        "temporal": {"questions": 1, "recall@5": 0.0},
        "single-hop": {"questions": 2, "recall@5": 1.0},
    }
    assert summary["p50_ms"] == 5.0


def test_evaluate_feeds_each_question_to_the_variant(data_file: Path) -> None:
    conversations = load_conversations(data_file)
    asked: list[str] = []
    rankings = {
        "What is the name of Ada's dog?": ["D2:2", "D1:1"],  # rank 2
        "Which instrument does Bo learn?": ["D1:1"] * 5 + ["D2:1"],  # rank 6
        "Where does the greyhound like to go?": [],  # missed
    }

    def fixed(vault: BuiltVault):  # type: ignore[no-untyped-def]
        assert sorted(vault.dia_of.values())[0] == "D1:1"

        @asynccontextmanager
        async def open_() -> AsyncIterator:
            async def search(query: str) -> list[str]:
                asked.append(query)
                return rankings[query]

            yield search

        return open_()

    summary = evaluate(fixed, conversations)
    assert asked == list(rankings)
    assert (summary["recall@5"], summary["recall@10"]) == pytest.approx((1 / 3, 2 / 3))
    assert summary["mrr@10"] == pytest.approx((1 / 2 + 1 / 6) / 3)


def test_product_and_baseline_variants_find_a_precise_turn(data_file: Path) -> None:
    from bench.recall import DECAY_OFF, bm25_variant, mcp_variant, service_variant

    variants = {"mcp": mcp_variant(), "service": service_variant(DECAY_OFF),
                "bm25": bm25_variant(), "bm25+stop": bm25_variant(stop_words=True)}  # fmt: skip
    results = evaluate_all(variants, load_conversations(data_file), questions=2)
    for name, metrics in results.items():
        summary = metrics.summary()
        # "Pixel"/"dog" and "cello" name their turns; both questions are found.
        assert summary["questions"] == 2, name
        assert summary["recall@10"] == 1.0, name


def test_command_prints_a_table_and_json(
    data_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dump = data_file.with_name("ranks.jsonl")
    # LoCoMo alone here; the run below with every set shows the paraphrase set's figures.
    argv = ["--data", str(data_file), "--sets", "locomo", "--in-process", "--variants",
            "decay-off,bm25"]  # fmt: skip
    assert main([*argv, "--dump", str(dump)]) == 0
    out = capsys.readouterr().out
    assert "| decay-off |" in out and "| bm25 |" in out and "3 questions" in out
    rows = [json.loads(line) for line in dump.read_text().splitlines()]
    assert [(r["variant"], r["question"]) for r in rows][:2] == [
        ("decay-off", "What is the name of Ada's dog?"),
        ("decay-off", "Which instrument does Bo learn?"),
    ]
    assert len(rows) == 6 and rows[0]["evidence"] == ["D1:1"]
    assert rows[0]["rank"] == rows[0]["top"].index("D1:1") + 1
    assert main(["--data", str(data_file), "--json", "--questions", "1"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report["variants"]) == {"shipped", "decay-off", "bm25", "bm25+stop"}
    assert report["variants"]["bm25"]["questions"] == 1
    assert report["paraphrase"]["questions"] > 0 and "hit@3" in report["paraphrase"]


def test_bad_input_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises(SystemExit, match=r"nope\.json: cannot read the LoCoMo data"):
        main(["--data", str(missing)])
    broken = tmp_path / "broken.json"
    broken.write_text('[{"conversation": {"session_1_date_time": "yesterday", "session_1": '
                      '[{"speaker": "A", "dia_id": "D1:1", "text": "hi"}]}}]')  # fmt: skip
    with pytest.raises(
        SystemExit, match=r"broken\.json: not in the locomo10\.json layout.*yesterday"
    ):
        main(["--data", str(broken)])
    with pytest.raises(SystemExit):
        main(["--data", str(broken), "--variants", "grep"])
    assert "--variants: choose among" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--data", str(broken), "--set", "pl_halflife_days=abc"])
    assert "PL_HALFLIFE_DAYS (command line) = 'abc' is invalid" in capsys.readouterr().err
