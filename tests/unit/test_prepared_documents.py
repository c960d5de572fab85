"""Each valid query text is parsed and validated (limits included) once per process; refused texts every time."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from graphql import parse
from strawberry.extensions import SchemaExtension

from weft.schema.root import Query, WeftSchema
from weft.schema.support import limits
from weft.schema.support.errors import CodedErrors
from weft.schema.support.limits import MAX_ALIASES, MAX_ARGUMENT_CHARS, MAX_TOKENS, PreparedDocuments


class Steps(SchemaExtension):
    """Counts the parses Strawberry itself runs (those the cache left to it) and the validations the limits
    extension runs (it validates itself, so that the argument caps stop a request: `validate_document`)."""

    parsed = 0
    validated = 0

    def on_parse(self) -> Iterator[None]:
        unset = self.execution_context.graphql_document is None
        yield
        Steps.parsed += unset and self.execution_context.graphql_document is not None


def schema_with(cache: PreparedDocuments) -> WeftSchema:
    Steps.parsed = Steps.validated = 0
    # Steps comes after the limits extension, so it sees whether that one left the step to Strawberry.
    return WeftSchema(query=Query, extensions=[cache.extension, Steps, CodedErrors])


@pytest.fixture
def cache(monkeypatch: pytest.MonkeyPatch) -> PreparedDocuments:
    real = limits.validate_document

    def counted(*args: Any) -> Any:
        Steps.validated += 1
        return real(*args)

    monkeypatch.setattr(limits, "validate_document", counted)
    return PreparedDocuments()


async def test_a_repeated_query_is_parsed_and_validated_once(cache: PreparedDocuments) -> None:
    schema = schema_with(cache)
    for _ in range(3):
        result = await schema.execute("{ version }")
        assert result.errors is None and result.data == {"version": "weft 0.1.0"}
    assert (Steps.parsed, Steps.validated) == (1, 1)
    assert list(cache.documents) == ["{ version }"]


async def test_refused_texts_are_checked_and_refused_every_time(cache: PreparedDocuments) -> None:
    schema = schema_with(cache)
    aliases = "{ " + " ".join(f"a{k}: version" for k in range(MAX_ALIASES + 1)) + " }"
    too_long = "{ " + " ".join(["version"] * (MAX_TOKENS + 1)) + " }"
    cases = [(aliases, "TOO_MANY_ALIASES"), ("{ version", "GRAPHQL_PARSE_FAILED"), (too_long, "TOO_MANY_TOKENS")]
    for text, code in cases:
        for _ in range(2):
            result = await schema.execute(text)
            assert result.data is None and [e.extensions for e in result.errors or []] == [{"code": code}]
    assert (Steps.parsed, Steps.validated) == (2, 2)  # the aliases text, parsed and validated each time
    assert cache.documents == {}


async def test_the_cache_is_bounded_by_tokens_least_recently_used_first() -> None:
    cache = PreparedDocuments(max_tokens=10)  # `{ version }` is 3 tokens, `{ a: version }` 5
    schema = schema_with(cache)
    for text in ("{ version }", "{ a: version }", "{ version }", "{ b: version }"):
        assert (await schema.execute(text)).errors is None
    assert list(cache.documents) == ["{ version }", "{ b: version }"] and cache.tokens == 8


async def test_argument_caps_are_found_once_per_text_and_checked_every_request(
    cache: PreparedDocuments, monkeypatch: pytest.MonkeyPatch
) -> None:
    found: list[int] = []
    real = limits.checked_arguments
    monkeypatch.setattr(limits, "checked_arguments", lambda document: found.append(1) or real(document))
    schema = schema_with(cache)
    text = "query ($id: String!) { institution(id: $id) { id } networkOf: institutionNetwork(id: $id) { truncated } }"
    for size in (MAX_ARGUMENT_CHARS + 1, 2**20, 4 * MAX_ARGUMENT_CHARS):
        result = await schema.execute(text, variable_values={"id": "I" * size})
        assert result.data is None
        assert [e.extensions for e in result.errors or []] == [{"code": "BAD_USER_INPUT", "argument": "id"}] * 2
    assert len(found) == 1  # the argument nodes of the text, found when it was first validated


async def test_a_text_without_sized_arguments_checks_none() -> None:
    document = parse("{ version a: version }")
    assert limits.checked_arguments(document) == ()
    with_args = parse('{ papers(first: 5, filter: {institution: "x"}) { totalCount } n: version }')
    assert [node.name.value for node in limits.checked_arguments(with_args)] == ["filter"]
