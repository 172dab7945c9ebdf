from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cortexgraph_vault.core.credentials import iban_valid, luhn_valid
from cortexgraph_vault.core.intent import analyze_save
from cortexgraph_vault.core.secrets import find_secrets, find_secrets_in_fields, redact, visible


@pytest.mark.parametrize(
    "text",
    [
        "my key is AKIAIOSFODNN7EXAMPLE for the staging bucket",
        "token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "use sk-ant-api03-abcdefghijklmnopqrstuvwxyz",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=",
        "the wifi password is hunter2!x",
        "db url postgres://maya:s3cretpw@db.internal/app",
        "API_KEY=4f9a8b7c6d5e4f3a2b1c",
    ],
)
def test_credentials_are_found_and_masked(text: str) -> None:
    findings = find_secrets(text)
    assert findings
    assert all(len(f.excerpt) <= 5 for f in findings)


@pytest.mark.parametrize(
    "text",
    [
        "Maya prefers TypeScript over JavaScript.",
        "We rotate the API key every 90 days; the policy lives in the wiki.",
        "Her password manager is 1Password.",
        "The secret to good ramen is the broth.",
        "See https://example.org/docs for details.",
    ],
)
def test_ordinary_sentences_about_secrets_pass(text: str) -> None:
    assert find_secrets(text) == []


# Issue 15 item 6 ----------------------------------------------------------------------------


LABELLED = [
    json.loads(line)
    for line in (Path(__file__).parent / "credential_sentences.jsonl").read_text().splitlines()
    if line.strip()
]
ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff\u00ad"


def test_the_labelled_sentences_are_at_least_forty_of_each_kind_mixed() -> None:
    assert len(LABELLED) >= 40
    assert sum(r["secret"] for r in LABELLED) >= 20
    assert sum(not r["secret"] for r in LABELLED) >= 20


def test_everyday_credentials_are_found_and_ordinary_sentences_pass() -> None:
    missed = [r["text"] for r in LABELLED if r["secret"] and not find_secrets(r["text"])]
    refused = [r["text"] for r in LABELLED if not r["secret"] and find_secrets(r["text"])]
    assert missed == []
    assert len(refused) <= 1, refused


def test_analyze_save_never_recommends_saving_a_credential() -> None:
    for r in LABELLED:
        if r["secret"]:
            intent = analyze_save(r["text"] + " Remember this, it is important.")
            assert not intent.should and intent.decision == "skip", r["text"]
            assert "credential" in intent.reasoning


@pytest.mark.parametrize(
    ("text", "kept", "gone"),
    [
        ("The wifi password at home is hunter2-Garden!", "The wifi password at home is", "hunter2"),
        ("My bank PIN is 4921", "My bank PIN is", "4921"),
        ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret", "wJalr"),
        ("token gh\u200bp_abcdefghijklmnopqrstuvwxyz0123456789 ok", "token", "ghp_"),
        ("card 4111-1111-1111-1111 expires soon", "expires soon", "4111"),
        ("IBAN DE89 3704 0044 0532 0130 00 FOR THE REFUND", "FOR THE REFUND", "3704"),
        ("db: postgres://maya:s3cretpw@db.internal/app", "db.internal", "s3cret"),
    ],
)
def test_redaction_keeps_the_words_and_drops_the_secret(text: str, kept: str, gone: str) -> None:
    out = redact(text)
    assert kept in out and gone not in out and "[redacted]" in out
    assert find_secrets(out) == []


def test_a_field_finding_names_the_field_and_reads_key_value_pairs() -> None:
    found = find_secrets_in_fields(
        {
            "content": "fine",
            "title": "deploy ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "tags": ["ok", "AKIAIOSFODNN7EXAMPLE"],
            "meta": {"pin": 4921, "note": "plain"},
            "metadata": {"sk-ant-api03-abcdefghijklmnopqrstuvwxyz": "key as a key"},
        }
    )
    assert {f.field for f in found} == {
        "title",
        "tags[1]",
        "meta.pin",
        "metadata.[redacted]",  # a key that is itself a secret is named redacted
    }
    assert find_secrets_in_fields({"meta": {"pin_colour": "blue"}, "tags": ["pin"]}) == []


def test_check_digits_decide_cards_and_ibans() -> None:
    assert luhn_valid("4111111111111111") and not luhn_valid("4111111111111112")
    assert iban_valid("DE89370400440532013000") and not iban_valid("DE89370400440532013001")
    assert find_secrets("card 4111 1111 1111 1112") == []
    assert find_secrets("IBAN DE89 3704 0044 0532 0130 01") == []


TOKENS = st.one_of(
    st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=16, max_size=16).map(
        lambda s: "AKIA" + s
    ),
    st.text(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=36, max_size=40
    ).map(lambda s: "ghp_" + s),
    st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=24, max_size=30).map(
        lambda s: "sk-ant-" + s
    ),
)


@settings(max_examples=150)
@given(
    token=TOKENS,
    cuts=st.lists(st.tuples(st.integers(1, 60), st.sampled_from(ZERO_WIDTH)), max_size=4),
    before=st.sampled_from(["", "my key: ", "Use ", "note\n"]),
    after=st.sampled_from(["", " for staging", ".", "\nthanks"]),
)
def test_tokens_split_by_invisible_characters_are_still_found(
    token: str, cuts: list[tuple[int, str]], before: str, after: str
) -> None:
    split = token
    for at, ch in cuts:
        at = min(at, len(split) - 1)
        split = split[:at] + ch + split[at:]
    text = before + split + after
    assert find_secrets(text), text
    assert token not in redact(text) and visible(split) not in redact(text)


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("The wifi password at home is hunter2-Garden!", "hunt"),
        ("My bank PIN is 4921", "49"),
        ("card 4111 1111 1111 1111", "4111"),
        ("My SSN is 078-05-1120.", "078"),
        ("My security answer is Fluffy.", "Fluf"),
    ],
)
def test_a_finding_shows_no_part_of_a_password_or_number(text: str, part: str) -> None:
    findings = find_secrets(text)
    assert findings and all(part not in f.excerpt for f in findings)


def test_an_assignment_inside_another_is_still_read() -> None:
    """`note: aws_secret_access_key = …`: the outer value must not swallow the inner name."""
    text = "note: aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    assert find_secrets(text) and "wJalr" not in redact(text)
    found = find_secrets_in_fields({"meta": {"note": "aws_secret_access_key = abcdefgh/12345678"}})
    assert [f.field for f in found] == ["meta.note"]


def test_the_digits_of_a_decimal_number_are_no_card() -> None:
    # 0.4111111111111111 would pass the Luhn check as a card number without the decimal point
    from cortexgraph_vault.core import credentials

    assert not list(credentials._card_spans("score 0.4111111111111111 today"))
    assert not list(credentials._card_spans("word0.4111111111111111"))
    assert list(credentials._card_spans("card: 4111 1111 1111 1111"))
