"""Cluster routing (issue 15): with a `neo4j://` URI the driver fetches a routing table and sends reads
to readers, writes to the writer. A Neo4j Community server answers the routing request for itself (every
role is its own address), so the whole path runs here against the session's single server: the routing
table, a write and a read through the routing driver, and the API's answers through it equal to those
through `bolt://`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import neo4j
import pytest
from neo4j import Driver
from starlette.testclient import TestClient

from weft.graph.driver import open_async_driver, open_driver
from weft.graph.settings import Settings
from weft.server.app import create_app

QUERIES = {
    "researcher": """{ researcher(id: "A5032473237") {
        name paperCount hIndex
        papers(first: 5) { totalCount edges { node { id title year } } }
        coauthors(first: 5) { totalCount edges { node { weight researcher { name } } } } } }""",
    "mostCited": """{ mostCited(category: "field:17", first: 5) { totalCount edges { node { id citedByCount } } } }""",
}


@pytest.fixture(scope="module")
def routed(settings: Settings) -> Settings:
    """The session's settings with a routing URI (neo4j://) for the same server."""
    return dataclasses.replace(settings, neo4j_uri=f"neo4j://{settings.bolt_host}:{settings.bolt_port}")


def _answers(settings: Settings) -> dict[str, Any]:
    with TestClient(create_app(dataclasses.replace(settings, response_cache_mb=0))) as http:
        found: dict[str, Any] = {}
        for name, query in QUERIES.items():
            response = http.post("/graphql", json={"query": query})
            assert response.status_code == 200 and "errors" not in response.json(), response.text
            found[name] = response.json()["data"]
    return found


def test_the_routing_table_names_the_single_server_in_every_role(openalex_graph: Driver, routed: Settings) -> None:
    with open_driver(routed) as driver:
        assert isinstance(driver, neo4j.Neo4jDriver)  # the routing driver, not a direct Bolt one
        driver.verify_connectivity()  # fetches the routing table first
        records, _, _ = driver.execute_query(
            "CALL dbms.routing.getRoutingTable({}, $database) YIELD ttl, servers RETURN ttl, servers",
            database=routed.neo4j_database,
            routing_="r",
        )
    table = records[0]
    address = f"{routed.bolt_host}:{routed.bolt_port}"
    roles = {server["role"]: server["addresses"] for server in table["servers"]}
    assert roles == {"WRITE": [address], "READ": [address], "ROUTE": [address]}
    assert table["ttl"] > 0


def test_a_write_and_a_read_go_through_the_routing_driver(openalex_graph: Driver, routed: Settings) -> None:
    database = routed.neo4j_database
    with open_driver(routed) as driver, driver.session(database=database) as session:
        created = session.execute_write(lambda tx: tx.run("CREATE (p:RoutingProbe {n: 1}) RETURN p.n AS n").single())
        assert created is not None and created["n"] == 1
        try:
            found = session.execute_read(lambda tx: tx.run("MATCH (p:RoutingProbe) RETURN count(p) AS n").single())
            assert found is not None and found["n"] == 1
            researchers = session.execute_read(
                lambda tx: tx.run("MATCH (r:Researcher {openalex_id: 'A5032473237'}) RETURN r.name AS name").single()
            )
            assert researchers is not None and researchers["name"]
        finally:  # the shared load is left exactly as it was
            session.execute_write(lambda tx: tx.run("MATCH (p:RoutingProbe) DELETE p").consume())


async def test_the_async_driver_of_the_api_routes_too(openalex_graph: Driver, routed: Settings) -> None:
    driver = open_async_driver(routed)
    try:
        assert isinstance(driver, neo4j.AsyncNeo4jDriver)
        await driver.verify_connectivity()
        records, _, _ = await driver.execute_query(
            "MATCH (p:Paper) RETURN count(p) AS n", database_=routed.neo4j_database, routing_="r"
        )
        assert records[0]["n"] > 0
    finally:
        await driver.close()


def test_the_api_answers_the_same_through_neo4j_and_bolt_uris(
    openalex_graph: Driver, settings: Settings, routed: Settings
) -> None:
    through_routing = _answers(routed)
    assert through_routing["researcher"]["researcher"]["paperCount"] > 0
    assert through_routing["mostCited"]["mostCited"]["edges"]
    assert through_routing == _answers(settings)
