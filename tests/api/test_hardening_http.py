"""Issue 11 at the HTTP edge, in-process: body size limit (413 before parsing), JSON bodies that are no
object (400, GraphQL-shaped), a database that accepts connections but never answers (UNAVAILABLE with
503, bounded by the connect timeout) and the per-request deadline over all of a request's work."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.silent_port import silent_listener
from weft.graph.settings import Settings
from weft.server.app import create_app

GRAPHQL_RESPONSE = "application/graphql-response+json"


def _only_error(body: dict[str, Any]) -> dict[str, Any]:
    assert set(body) == {"errors"}, body
    (error,) = body["errors"]
    return error


@pytest.fixture(scope="module")
def silent_port() -> Iterator[int]:
    """A port that accepts TCP connections and never says a word (a database hung or half restarted)."""
    with silent_listener() as (port, _):
        yield port


def _client(settings: Settings, **changes: Any) -> TestClient:
    return TestClient(create_app(dataclasses.replace(settings, **changes)))


def test_a_body_over_the_limit_is_413_before_parsing(settings: Settings) -> None:
    with _client(settings, max_body_bytes=1000) as http:
        big = b'{"query": "{ version }", "pad": "' + b"x" * 2000 + b'"}'
        declared = http.post("/graphql", content=big, headers={"content-type": "application/json"})
        streamed = http.post(
            "/graphql", content=iter([big[:600], big[600:]]), headers={"content-type": "application/json"}
        )
        small = http.post("/graphql", json={"query": "{ version }"})
    for response in (declared, streamed):
        assert response.status_code == 413
        assert _only_error(response.json())["extensions"] == {"code": "PAYLOAD_TOO_LARGE"}
    assert small.status_code == 200 and small.json() == {"data": {"version": "weft 0.1.0"}}


def test_the_default_limit_refuses_a_50_mb_body(settings: Settings) -> None:
    assert settings.max_body_bytes == 1_048_576
    with _client(settings) as http:
        response = http.post(
            "/graphql",
            content=b"[" + b"0," * (25 * 2**20) + b"0]",
            headers={"content-type": "application/json"},
        )
    assert response.status_code == 413


@pytest.mark.parametrize("body", [b"null", b"42", b'"query"', b"true", b"[]"])
def test_json_that_is_no_object_is_a_400_graphql_error(settings: Settings, body: bytes) -> None:
    with _client(settings) as http:
        response = http.post("/graphql", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text
    assert _only_error(response.json())["extensions"]["code"] in {"BAD_REQUEST", "BAD_USER_INPUT"}


def test_a_database_that_never_answers_gives_503_within_the_connect_timeout(
    settings: Settings, silent_port: int
) -> None:
    with _client(settings, neo4j_uri=f"bolt://127.0.0.1:{silent_port}", connect_timeout_s=1.0) as http:
        began = time.monotonic()
        response = http.post(
            "/graphql",
            json={"query": '{ researcher(id: "A5032473237") { name } }'},
            headers={"accept": GRAPHQL_RESPONSE},
        )
        took = time.monotonic() - began
    assert response.status_code == 503
    assert _only_error(response.json())["extensions"]["code"] == "UNAVAILABLE"
    assert took < settings.request_deadline_s  # bounded by the connect timeout and retries, not the deadline


def test_the_deadline_bounds_the_whole_request(settings: Settings, silent_port: int) -> None:
    changes = {"neo4j_uri": f"bolt://127.0.0.1:{silent_port}", "connect_timeout_s": 30.0, "request_deadline_s": 0.5}
    launched = time.monotonic()
    with _client(settings, **changes) as http:
        began = time.monotonic()
        response = http.post(
            "/graphql",
            json={"query": '{ a: researcher(id: "A1") { name } b: paper(id: "W1") { title } }'},
            headers={"accept": GRAPHQL_RESPONSE},
        )
        took = time.monotonic() - began
    assert began - launched < 10.0  # a silent database does not hold start-up for its 30 s connect timeout
    assert response.status_code == 503
    error = _only_error(response.json())
    assert error["extensions"]["code"] == "UNAVAILABLE" and "deadline" in error["message"]
    assert took < 30.0  # the deadline cut it, not the 30 s connect timeout
