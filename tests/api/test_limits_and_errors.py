"""Limits rejected before any Cypher runs, argument errors naming the argument, a dead Neo4j as UNAVAILABLE."""

from __future__ import annotations

import dataclasses
import logging

import httpx
import pytest

from tests.api.conftest import GraphQLClient, LiveServer
from tests.conftest import free_port
from weft.graph.settings import Settings
from weft.schema.support.limits import MAX_ALIASES, MAX_DEPTH, MAX_TOKENS


def only_error(body: dict) -> dict:
    assert len(body.get("errors", [])) == 1, body
    return body["errors"][0]


def test_too_deep_is_rejected_before_any_query(driver, client: GraphQLClient) -> None:
    nested = "researcher { name }"
    for _ in range(3):
        nested = f"researcher {{ coauthors(first: 1) {{ edges {{ node {{ {nested} }} }} }} }}"
    query = f'{{ researcher(id: "x") {{ coauthors(first: 1) {{ edges {{ node {{ {nested} }} }} }} }} }}'
    error = only_error(client.post(query))
    assert error["extensions"]["code"] == "QUERY_TOO_DEEP"
    assert str(MAX_DEPTH) in error["message"]
    assert client.cypher_queries == 0


def test_too_many_aliases(driver, client: GraphQLClient) -> None:
    aliases = " ".join(f"a{k}: version" for k in range(MAX_ALIASES + 1))
    error = only_error(client.post(f"{{ {aliases} }}"))
    assert error["extensions"]["code"] == "TOO_MANY_ALIASES"
    # Fragments do not hide aliases from the limiter (strawberry >= 0.315.7).
    fragment_aliases = " ".join(f"f{k}: version" for k in range(MAX_ALIASES + 1))
    error = only_error(client.post(f"query {{ ...F }} fragment F on Query {{ {fragment_aliases} }}"))
    assert error["extensions"]["code"] == "TOO_MANY_ALIASES"
    assert client.cypher_queries == 0


def test_too_many_tokens(driver, client: GraphQLClient) -> None:
    query = "{ " + " ".join(["version"] * (MAX_TOKENS + 1)) + " }"
    error = only_error(client.post(query))
    assert error["extensions"]["code"] == "TOO_MANY_TOKENS"


def test_too_complex(driver, client: GraphQLClient) -> None:
    query = """{ mostCited(first: 100) { edges { node { authors { researcher {
        coauthors(first: 100) { edges { node { researcher { name } } } } } } } } } }"""
    error = only_error(client.post(query))
    assert error["extensions"]["code"] == "TOO_COMPLEX"
    assert error["extensions"]["cost"] > error["extensions"]["budget"]
    assert client.cypher_queries == 0


@pytest.mark.parametrize(
    ("query", "argument"),
    [
        ("{ mostCited(first: 101) { totalCount } }", "first"),
        ('{ mostCited(after: "bm90LWEtY3Vyc29y") { totalCount } }', "after"),
        ('{ search(query: "x", first: 500) { totalCount } }', "first"),
        ('{ search(query: "  ") { totalCount } }', "query"),
        ('{ search(query: "' + "w " * 40 + '") { totalCount } }', "query"),
        ('{ autocomplete(prefix: "' + "a" * 600 + '") { id } }', "prefix"),
        ('{ autocomplete(prefix: "x", first: 101) { id } }', "first"),
        ("{ papers(filter: {minCitations: -1}) { totalCount } }", "filter.minCitations"),
        ('{ mostCited(category: "no such category anywhere") { totalCount } }', "category"),
        ('{ mostCited(institution: "I0") { totalCount } }', "institution"),
        ('{ mostCited(researcher: "A0") { totalCount } }', "researcher"),
    ],
)
def test_bad_arguments_are_named(driver, client: GraphQLClient, query: str, argument: str) -> None:
    error = only_error(client.post(query))
    assert error["extensions"] == {"code": "BAD_USER_INPUT", "argument": argument}
    assert f"`{argument}`" in error["message"]


@pytest.mark.parametrize("kind", ["paper", "researcher", "institution"])
def test_unknown_id_is_null_without_error(driver, client: GraphQLClient, kind: str) -> None:
    for raw in ("W1", "A1", "I1", "10.1/none", "pzzzzzzzzzzz", "'; MATCH (n) DETACH DELETE n //", ""):
        body = client.post(f"query($id: String!) {{ {kind}(id: $id) {{ id }} }}", {"id": raw})
        assert body == {"data": {kind: None}}


def test_hostile_search_text_is_searched_as_words(driver, client: GraphQLClient) -> None:
    """Lucene syntax is never interpreted (the database is empty here: words find nothing); text with no
    word at all is refused rather than matching everything."""
    query = "query($q: String!) { search(query: $q) { totalCount } }"
    for text in ['title:"x" OR *:*', "a AND NOT b~2^3", "/regex/"]:
        assert client.post(query, {"q": text}) == {"data": {"search": {"totalCount": 0}}}, text
    for text in ["((((", "\\", "*:*"]:
        error = only_error(client.post(query, {"q": text}))
        assert error["extensions"]["code"] == "BAD_USER_INPUT", text


def test_variable_errors_are_request_errors(driver, client: GraphQLClient) -> None:
    body = client.post("query($n: Int!) { mostCited(first: $n) { totalCount } }", {"n": "ten"})
    assert only_error(body)["extensions"]["code"] == "BAD_USER_INPUT"
    body = client.http.post(
        "/graphql",
        json={"query": "query($n: Int!) { mostCited(first: $n) { totalCount } }", "variables": {"n": "ten"}},
        headers={"accept": "application/graphql-response+json"},
    )
    assert body.status_code == 400 and "data" not in body.json()


def test_batching_is_off(driver, client: GraphQLClient) -> None:
    response = client.http.post("/graphql", json=[{"query": "{ version }"}, {"query": "{ version }"}])
    assert response.status_code == 400


def test_mutation_via_get_is_refused(driver, client: GraphQLClient) -> None:
    response = client.http.get("/graphql", params={"query": "mutation { version }"})
    assert response.status_code in (400, 405)
    assert client.http.get("/graphql", params={"query": "{ version }"}).json() == {"data": {"version": "weft 0.1.0"}}


def test_request_id_is_echoed(driver, client: GraphQLClient) -> None:
    response = client.http.post("/graphql", json={"query": "{ version }"}, headers={"x-request-id": "req-42"})
    assert response.headers["x-request-id"] == "req-42"


def test_dead_neo4j_gives_unavailable(settings: Settings, caplog: pytest.LogCaptureFixture) -> None:
    """A live uvicorn server whose NEO4J_URI points at a closed port answers UNAVAILABLE, never a trace."""
    dead = dataclasses.replace(settings, neo4j_uri=f"bolt://127.0.0.1:{free_port()}")
    caplog.set_level(logging.INFO, logger="weft.api")
    with LiveServer(dead) as server, httpx.Client(timeout=60) as http:
        response = http.post(
            server.url,
            json={"query": '{ version researcher(id: "A5032473237") { name } }'},
            headers={"x-request-id": "dead-1", "accept": "application/graphql-response+json"},
        )
        assert response.status_code == 503  # issue 11: load balancers see it; no partial `data` with a 503
        body = response.json()
        assert "data" not in body
        error = only_error(body)
        assert error["extensions"] == {"code": "UNAVAILABLE"}
        assert "Traceback" not in error["message"] and "neo4j" not in error["message"].split(":")[0]
        assert http.get(server.url.replace("/graphql", "/health")).status_code == 503
    assert any("dead-1" in r.getMessage() for r in caplog.records)


def test_unexpected_error_is_masked_and_logged(driver, client: GraphQLClient, caplog: pytest.LogCaptureFixture) -> None:
    """A malformed stored value (versions not a list) breaks a resolver: the client sees a masked error."""
    driver.execute_query("MERGE (p:Paper {id: 'pbadbadbadba'}) SET p.title = 'Broken', p.versions = 5")
    caplog.set_level(logging.INFO, logger="weft.api")
    body = client.post(
        '{ paper(id: "pbadbadbadba") { title versions { version } } version }', **{"x-request-id": "broken-7"}
    )
    assert body["data"] == {"paper": None, "version": "weft 0.1.0"}
    error = only_error(body)
    assert error["message"] == "Internal server error (request broken-7)."
    assert error["extensions"] == {"code": "INTERNAL_SERVER_ERROR", "requestId": "broken-7"}
    assert "TypeError" not in str(body) and "Traceback" not in str(body)
    logged = [r for r in caplog.records if "broken-7" in r.getMessage()]
    assert logged and logged[0].exc_info is not None
    driver.execute_query("MATCH (p:Paper {id: 'pbadbadbadba'}) DETACH DELETE p")


def test_graphiql_and_health(driver, client: GraphQLClient) -> None:
    page = client.http.get("/graphql", headers={"accept": "text/html"})
    assert page.status_code == 200 and "graphiql" in page.text.lower()
    assert client.http.get("/health").json() == {"status": "ok", "neo4j": "up"}


async def test_a_broken_statement_is_a_bug_not_bad_input(settings: Settings) -> None:
    """Neo4j rejecting our own Cypher must not reach clients as BAD_USER_INPUT (it is masked instead)."""
    from weft.graph.driver import open_async_driver
    from weft.graph.reads.reader import GraphReader, QueryBug

    driver = open_async_driver(settings)
    try:
        reader = GraphReader(driver, settings.neo4j_database, settings.query_timeout_s)
        with pytest.raises(QueryBug):
            await reader.rows("RETURN $x +", {"x": 1}, "a broken statement")
        assert await reader.rows("RETURN $x + 1 AS y", {"x": 1}, "a fine statement") == [{"y": 2}]
        assert reader.queries_run == 2
    finally:
        await driver.close()


async def test_every_read_has_a_transaction_timeout(settings: Settings) -> None:
    """A read running past the timeout is stopped by Neo4j and reported as UNAVAILABLE."""
    from weft.graph.driver import open_async_driver
    from weft.graph.errors import Unavailable
    from weft.graph.reads.reader import GraphReader

    driver = open_async_driver(settings)
    try:
        reader = GraphReader(driver, settings.neo4j_database, timeout_s=0.2)
        with pytest.raises(Unavailable, match="timed out"):
            await reader.rows(
                "UNWIND range(1, 500000000) AS x WITH x WHERE x % 7 = 3 RETURN count(*) AS n", {}, "a slow read"
            )
    finally:
        await driver.close()
