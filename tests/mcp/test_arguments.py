"""Argument errors in words, from a tool's input schema (values in, sentences out)."""

from __future__ import annotations

from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field, ValidationError

from cortexgraph_vault.mcp.arguments import accepts, explain_arguments


class Arguments(BaseModel):
    query: Annotated[str, Field(min_length=1, max_length=20, description="words to look for")]
    top_k: Annotated[int, Field(ge=1, le=100, description="how many results")] = 10
    status: Literal["active", "all"] | list[Literal["active", "all"]] | None = None
    tags: Annotated[list[Annotated[str, Field(max_length=5)]] | None, Field(max_length=2)] = None
    weight: Annotated[float | None, Field(gt=0)] = None


SCHEMA = Arguments.model_json_schema()


def explain(data: dict) -> tuple[str, list[dict]]:
    with pytest.raises(ValidationError) as caught:
        Arguments.model_validate(data)
    return explain_arguments("search", caught.value, SCHEMA)


def test_what_an_argument_takes_reads_from_its_schema() -> None:
    props = SCHEMA["properties"]
    assert accepts(props["top_k"], SCHEMA) == "an integer from 1 to 100"
    assert accepts(props["query"], SCHEMA) == "a text of 1 to 20 characters"
    assert accepts(props["status"], SCHEMA) == (
        "one of active, all or a list of items, each one of active, all"
    )
    assert accepts(props["tags"], SCHEMA) == (
        "a list of at most 2 items, each a text of at most 5 characters"
    )
    assert accepts(props["weight"], SCHEMA) == "a number more than 0"


def test_each_bad_argument_is_one_sentence_with_what_it_takes() -> None:
    text, problems = explain({"top_k": "lots", "status": "gone", "tags": ["a", "toolong"]})
    assert text == (
        "Invalid arguments for search: "
        "query: missing. query takes a text of 1 to 20 characters: words to look for. "
        "top_k: 'lots' is not an integer. top_k takes an integer from 1 to 100: how many results. "
        "status: 'gone' is not one of 'active' or 'all'. status takes one of active, all or a "
        "list of items, each one of active, all. "
        "tags[1]: 7 characters, more than 5. tags takes a list of at most 2 items, each a text "
        "of at most 5 characters."
    )
    assert [p["argument"] for p in problems] == ["query", "top_k", "status", "tags[1]"]
    assert "pydantic" not in text and "http" not in text


def test_a_long_value_is_described_not_repeated() -> None:
    text, _ = explain({"query": "x" * 5000})
    assert "query: 5000 characters, more than 20." in text and "xxxx" not in text
