"""Issue 48 at the GraphQL edge: malformed requests (invalid UTF-8, JSON nested past 1,024 levels, an
`extensions` of the wrong type) get a GraphQL-shaped 400 on every path (response cache on and
off), and a real uvicorn server keeps the connection open for the next request; a browser's GET
carrying `query` (GraphiQL's reload) gets GraphiQL, JSON clients the answer."""

from __future__ import annotations

import dataclasses
import http.client
import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.api.conftest import GraphQLClient, LiveServer
from weft.graph.settings import Settings
from weft.server.app import create_app

CHROME_ACCEPT = (
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,"
    "application/signed-exchange;v=b3;q=0.7"
)
VERSION = b'{"query": "{ version }"}'


def nested(depth: int) -> str:
    return "[" * depth + '"PAPER"' + "]" * depth


def version_with(field: str, raw_json: str) -> bytes:
    """A POST body asking `{ version }` with one more member, written as given (the last one wins)."""
    return ('{"query": "{ version }", "' + field + '": ' + raw_json + "}").encode()


MALFORMED = {
    "invalid UTF-8": b'{"query": "{ version }", "variables": {"x": "\xff\xfe"}}',
    "invalid UTF-8 in the query": b'{"query": "{ version \xc3\x28 }"}',
    "variables 1,100 deep": version_with("variables", '{"x": ' + nested(1100) + "}"),
    "variables 50,000 deep": version_with("variables", '{"x": ' + nested(50_000) + "}"),
}


def _post(connection: http.client.HTTPConnection, body: bytes, **headers: str) -> tuple[int, dict[str, Any]]:
    connection.request("POST", "/graphql", body=body, headers={"content-type": "application/json", **headers})
    response = connection.getresponse()
    return response.status, json.loads(response.read())


@pytest.mark.parametrize("name", list(MALFORMED))
def test_a_malformed_body_is_400_and_the_connection_stays_open(live_server: LiveServer, name: str) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=30)
    try:
        status, body = _post(connection, MALFORMED[name])
        first_socket = connection.sock
        assert status == 400, body
        (error,) = body["errors"]
        assert error["extensions"] == {"code": "BAD_REQUEST"} and "data" not in body
        assert first_socket is not None  # http.client drops the socket when the server says it closes
        again, answer = _post(connection, VERSION)
        assert connection.sock is first_socket  # the same HTTP/1.1 connection answered the next request
        assert again == 200 and answer == {"data": {"version": "weft 0.1.0"}}
    finally:
        connection.close()


def test_the_error_names_what_is_wrong(client: GraphQLClient) -> None:
    def message(body: bytes) -> str:
        response = client.http.post("/graphql", content=body, headers={"content-type": "application/json"})
        assert response.status_code == 400
        return response.json()["errors"][0]["message"]

    assert "UTF-8" in message(MALFORMED["invalid UTF-8"])
    assert "1024 levels" in message(MALFORMED["variables 1,100 deep"])


def test_variables_nested_under_the_limit_are_a_graphql_error(client: GraphQLClient) -> None:
    """1,000 levels pass the JSON limit; the argument caps measure them without recursing (it was a Python
    RecursionError's message as the error), and graphql-core refuses them by name."""
    query = 'query($t: [SearchType!]) { search(query: "malaria", types: $t) { totalCount } }'
    body = ('{"query": ' + json.dumps(query) + ', "variables": {"t": ' + nested(1000) + "}}").encode()
    response = client.http.post("/graphql", content=body, headers={"content-type": "application/json"})
    (error,) = response.json()["errors"]
    assert response.status_code == 200 and error["extensions"]["code"] == "GRAPHQL_VALIDATION_FAILED", error
    assert error["message"] == "Variable values are nested too deeply."  # graphql-core's own check


def test_a_lone_surrogate_in_any_text_argument_is_bad_input(client: GraphQLClient) -> None:
    """Search checks its own text (tests/api/test_semantic_api.py); any other text the database would get
    is refused as bad input too, not INTERNAL_SERVER_ERROR (Bolt cannot encode it)."""
    asked = [
        ("query($q: String!) { institution(id: $q) { name } }", {"q": "\udfff"}),
        ('query($q: String!) { search(query: "malaria", category: $q) { totalCount } }', {"q": "x\udfff"}),
    ]
    for query, variables in asked:
        body = json.dumps({"query": query, "variables": variables})  # ASCII: the surrogate as its escape
        response = client.http.post("/graphql", content=body, headers={"content-type": "application/json"})
        (error,) = response.json()["errors"]
        assert error["extensions"]["code"] == "BAD_USER_INPUT", (variables, error)
        assert "not valid Unicode" in error["message"]


WRONG_EXTENSIONS = ['"string"', "42", "true", "[]"]


@pytest.fixture(scope="module", params=["response cache on", "response cache off"])
def app_http(settings: Settings, request: pytest.FixtureRequest) -> Iterator[TestClient]:
    cache_mb = 48 if request.param == "response cache on" else 0
    with TestClient(create_app(dataclasses.replace(settings, response_cache_mb=cache_mb))) as http:
        yield http


def test_extensions_of_the_wrong_type_are_400_on_every_path(app_http: TestClient) -> None:
    headers = {"content-type": "application/json"}
    for n in range(3):  # a repeated document (other bytes each time: no cache hit)
        primed = app_http.post("/graphql", content=version_with("extensions", f'{{"n": {n}}}'), headers=headers)
    assert primed.status_code == 200 and primed.json()["data"]["version"]
    for extensions in WRONG_EXTENSIONS:
        body = version_with("extensions", extensions)
        for _ in range(2):  # twice: a refusal is never cached
            posted = app_http.post("/graphql", content=body, headers=headers)
            assert posted.status_code == 400, (extensions, posted.text)
            assert posted.json()["errors"][0]["extensions"]["code"] == "BAD_REQUEST"
        got = app_http.get("/graphql", params={"query": "{ version }", "extensions": extensions})
        assert got.status_code == 400, (extensions, got.text)
    for field, value in (("operationName", "7"), ("variables", "[]"), ("query", "{}")):
        body = version_with(field, value)
        assert app_http.post("/graphql", content=body, headers=headers).status_code == 400, field


def test_graphiql_for_a_browser_get_with_a_query_json_for_clients(client: GraphQLClient) -> None:
    params = {"query": "{ version }"}
    page = client.http.get("/graphql", params=params, headers={"accept": CHROME_ACCEPT})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "graphiql" in page.text.lower()
    for accept in ("application/json", "application/graphql-response+json", "*/*", "application/json, text/html"):
        answer = client.http.get("/graphql", params=params, headers={"accept": accept})
        assert answer.status_code == 200 and answer.json() == {"data": {"version": "weft 0.1.0"}}, accept
    plain = client.http.get("/graphql", params=params, headers={"accept": ""})
    assert plain.json() == {"data": {"version": "weft 0.1.0"}}
    bare = client.http.get("/graphql", headers={"accept": CHROME_ACCEPT})  # no query: GraphiQL, as before
    assert bare.status_code == 200 and "graphiql" in bare.text.lower()
