"""Save and recall intent: the phrasing that decides, the confidence bands, the query."""

from __future__ import annotations

import pytest

from cortexgraph_vault.core.intent import analyze_recall, analyze_save, recall_query, topics


def test_a_request_to_recall_is_not_a_request_to_save() -> None:
    asked = "Can you remember my API key rotation policy?"
    assert analyze_recall(asked).should and analyze_recall(asked).decision == "auto"
    assert not analyze_save(asked).should and analyze_save(asked).decision == "skip"
    told = "Remember that my API keys rotate every 90 days."
    assert analyze_save(told).should and analyze_save(told).decision == "auto"
    assert not analyze_recall(told).should


@pytest.mark.parametrize(
    ("text", "query"),
    [
        ("What did I say about databases?", "databases"),
        ("Can you remember my API key rotation policy?", "API key rotation policy"),
        ("Remind me what we decided about the event bus.", "event bus"),
        ("What's my manager's name again?", "manager"),
        ("Hi!", None),
    ],
)
def test_the_suggested_query_drops_the_recall_phrasing(text: str, query: str | None) -> None:
    assert recall_query(text) == query


def test_confidence_bands_and_reasoning_in_plain_words() -> None:
    sure = analyze_save("I prefer tabs over spaces.")
    assert sure.confidence >= 0.7 and sure.decision == "auto"
    assert "states a preference (“I prefer”)" in sure.reasoning and "save it" in sure.reasoning
    unsure = analyze_save("Maybe I prefer tabs, not sure.")
    assert unsure.confidence < sure.confidence and not unsure.should
    assert "sounds unsure" in unsure.reasoning
    for intent in (sure, unsure, analyze_save("ok")):
        band = "auto" if intent.confidence >= 0.7 else "ask" if intent.confidence >= 0.4 else "skip"
        assert intent.decision == band


def test_an_opinion_without_commitment_is_asked_about() -> None:
    intent = analyze_save("I think Kafka is overkill.")
    assert intent.decision == "ask" and 0.4 <= intent.confidence < 0.7


def test_importance_raises_confidence() -> None:
    plain = analyze_save("All customer data stays in the EU region.")
    marked = analyze_save("Important: all customer data stays in the EU region.")
    assert marked.confidence > plain.confidence and marked.should


def test_vault_mentions_raise_recall_confidence() -> None:
    question = "When does Atlas launch?"
    assert (
        analyze_recall(question, ["Project Atlas"]).confidence > analyze_recall(question).confidence
    )
    assert "names something in the vault" in analyze_recall(question, ["Project Atlas"]).reasoning


def test_topics_are_entities_then_distinctive_words() -> None:
    assert topics("I'm setting up Postgres for the ledger service today", ["Postgres"]) == [
        "Postgres", "ledger", "service",
    ]  # fmt: skip
    assert topics("hi, thanks!", []) == []
