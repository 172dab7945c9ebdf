"""Refused arguments in words (values in, sentences out): the one translator of every door."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.operations import refusal as refusal_module
from cortexgraph_vault.operations.refusal import refusal, suggestion, unknown_argument


class Arguments(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: Annotated[str, Field(min_length=1, max_length=20, description="words to look for")]
    top_k: Annotated[int, Field(ge=1, le=100, description="how many results")] = 10
    status: Literal["active", "all"] | list[Literal["active", "all"]] | None = None
    tags: Annotated[list[Annotated[str, Field(max_length=5)]] | None, Field(max_length=2)] = None
    weight: Annotated[float | None, Field(gt=0)] = None
    ids: str | list[str] | None = None
    sha: Annotated[str | None, Field(pattern="^[0-9a-f]+$", description="a commit sha")] = None


def refused(data: dict) -> InvalidArgument:
    with pytest.raises(ValidationError) as caught:
        Arguments.model_validate(data)
    return refusal(Arguments, caught.value)


def test_each_bad_argument_says_what_it_takes() -> None:
    error = refused({"query": "x", "top_k": 500, "status": "gone", "tags": ["a", "toolong"]})
    assert str(error) == (
        "top_k: must be from 1 to 100, got 500; "
        "status: must be 'active' or 'all', got 'gone'; "
        "tags[1]: at most 5 characters, got 7"
    )
    assert error.params == ("top_k", "status", "tags")


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({}, "query: required (words to look for)"),
        ({"query": ""}, "query: must not be empty"),
        ({"query": "x" * 5000}, "query: at most 20 characters, got 5000"),
        ({"query": "x", "top_k": "lots"}, "top_k: must be an integer, got 'lots'"),
        # a query string's number is said as JSON's is: REST and MCP, one sentence
        ({"query": "x", "top_k": "500"}, "top_k: must be from 1 to 100, got 500"),
        ({"query": "x", "weight": 0}, "weight: must be more than 0, got 0"),
        ({"query": "x", "tags": ["a", "b", "c"]}, "tags: at most 2 values, got 3"),
        ({"query": "x", "ids": 5}, "ids: must be a text or a list, got 5"),
        ({"query": "x", "ids": [1]}, "ids[0]: must be a text, got 1"),
        ({"query": "x", "sha": "XYZ"}, "sha: 'XYZ' does not have the expected form: a commit sha"),
    ],
)
def test_one_sentence_per_mistake(data: dict, said: str) -> None:
    assert str(refused(data)) == said


def test_a_long_value_is_described_not_repeated() -> None:
    text = str(refused({"query": "x", "top_k": "y" * 5000}))
    assert text == "top_k: must be an integer, got a text of 5000 characters"


def test_an_unknown_argument_is_named_with_the_one_meant_and_those_there_are() -> None:
    text = str(refused({"q": "coffee"}))
    assert text == (
        "q: unknown argument (did you mean query?). "
        "The arguments are: query, top_k, status, tags, weight, ids, sha"
    )
    two = str(refused({"query": "x", "tag": ["a"], "statuss": "all"}))
    assert two.startswith(
        "tag: unknown argument (did you mean tags?); "
        "statuss: unknown argument (did you mean status?). The arguments are: "
    )


def test_a_body_of_thousands_of_unknown_keys_is_refused_with_ten_suggestions_looked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # what a hostile body costs is bounded by what the message shows, not by its keys
    looked: list[str] = []
    real = refusal_module.suggestion

    def counted(name: str, known: Mapping[str, str]) -> str | None:
        looked.append(name)
        return real(name, known)

    monkeypatch.setattr(refusal_module, "suggestion", counted)
    body = {"query": "x", **{f"tpo_k{i}": 1 for i in range(5000)}}
    text = str(refused(body))
    assert text.startswith("tpo_k0: unknown argument (did you mean top_k?); tpo_k1: ")
    assert "; and 4990 more. The arguments are: query, top_k" in text
    assert len(looked) <= 2 * refusal_module.MAX_PROBLEMS


def test_a_name_as_long_as_a_paragraph_suggests_nothing() -> None:
    assert suggestion("query" * 40, {"query": "words to look for"}) is None


def test_a_required_argument_given_under_another_name_is_said_once() -> None:
    # `query` is missing because it came as `q`: the unknown one says so
    assert str(refused({"q": "coffee"})).count("query") == 2  # the hint and the list
    assert "required" not in str(refused({"q": "coffee"}))
    # an unknown argument meant for something else leaves the missing one said
    assert "query: required" in str(refused({"top": 5}))


@pytest.mark.parametrize(
    ("given", "meant"),
    [
        ("tagz", "tags"),
        ("tag", "tags"),
        ("entity", "entities"),
        ("q", "query"),
        ("Top_K", "top_k"),
        ("path", "ref"),  # described as "path, title, alias…"
        ("colour", None),
    ],
)
def test_did_you_mean(given: str, meant: str | None) -> None:
    known = {
        "query": "words to look for",
        "tags": "tags, made lower case",
        "entities": "people or projects",
        "top_k": "how many results at most",
        "ref": "path, title, alias, [[link]] or memory id",
        "cursor": "next_cursor of the previous page",
    }
    assert suggestion(given, known) == meant


def test_options_of_a_command_line_are_suggested_as_typed() -> None:
    known = {"CONTENT": "the memory", "--tags": "tags", "--entities": "people"}
    assert (
        str(unknown_argument("--tagz", known)) == "--tagz: unknown argument (did you mean --tags?)"
    )
