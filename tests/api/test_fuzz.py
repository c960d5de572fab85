"""Issue 11: generated GraphQL queries (hypothesis-graphql, from the served schema) against the app in-process,
bounded in examples and time: no 5xx, and every answer is a valid GraphQL response with a known code.

Valid queries (POSITIVE mode) reach the resolvers with odd arguments (empty, huge, unicode, negative); invalid
ones (NEGATIVE mode) exercise parsing and validation. The database is the session's (whatever earlier tests
left in it); the fuzz needs no particular data.
"""

from __future__ import annotations

from typing import Any

import hypothesis_graphql
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.conftest import GraphQLClient
from weft.schema.root import build_schema

SDL = build_schema().as_str()
KNOWN_CODES = {
    "BAD_USER_INPUT",
    "NOT_FOUND",
    "GRAPHQL_PARSE_FAILED",
    "GRAPHQL_VALIDATION_FAILED",
    "QUERY_TOO_DEEP",
    "TOO_MANY_ALIASES",
    "TOO_MANY_TOKENS",
    "TOO_COMPLEX",
    "BAD_REQUEST",
    "PAYLOAD_TOO_LARGE",
    "UNAVAILABLE",
}
FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)


def _check(client: GraphQLClient, query: str) -> None:
    response = client.http.post("/graphql", json={"query": query}, headers={"accept": "application/json"})
    assert response.status_code < 500, (query, response.status_code, response.text[:500])
    body: Any = response.json()
    assert isinstance(body, dict) and set(body) <= {"data", "errors", "extensions"} and body, body
    assert "data" in body or body.get("errors"), body
    for error in body.get("errors") or []:
        assert isinstance(error.get("message"), str), error
        code = (error.get("extensions") or {}).get("code")
        assert code in KNOWN_CODES, (query, error)  # never INTERNAL_SERVER_ERROR


@FUZZ
@given(query=hypothesis_graphql.from_schema(SDL, mode=hypothesis_graphql.Mode.POSITIVE))
def test_generated_valid_queries_get_valid_answers(driver, client: GraphQLClient, query: str) -> None:
    _check(client, query)


@FUZZ
@given(
    query=st.one_of(
        hypothesis_graphql.from_schema(SDL, mode=hypothesis_graphql.Mode.NEGATIVE),
        st.text(max_size=300),
    )
)
def test_generated_invalid_queries_get_request_errors(driver, client: GraphQLClient, query: str) -> None:
    _check(client, query)
