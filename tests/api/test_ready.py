"""/health and /ready (server/health.py) against the session's real Neo4j: ready only when every constraint
and index of `weft migrate` is ONLINE, 503 with a reason when one is missing or Neo4j is down.

The handlers run in a small Starlette app whose lifespan sets `app.state` as server/app.py's does
(`settings`, an async `driver`), so they are tested on their own; the last test asks the real app.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator, Iterator

import pytest
from neo4j import Driver
from starlette.applications import Starlette
from starlette.testclient import TestClient

from tests.conftest import free_port
from weft.graph.driver import open_async_driver
from weft.graph.migrate import migrate
from weft.graph.settings import Settings
from weft.server import health
from weft.server.app import create_app


def health_app(settings: Settings) -> Starlette:
    """server/health.py's routes with app.state shaped as server/app.py's lifespan shapes it."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        app.state.settings = settings
        app.state.driver = open_async_driver(settings)
        try:
            yield
        finally:
            await app.state.driver.close()

    return Starlette(routes=health.routes, lifespan=lifespan)


@contextlib.contextmanager
def http(settings: Settings) -> Iterator[TestClient]:
    with TestClient(health_app(settings)) as client:
        yield client


def test_ready_and_healthy_on_a_migrated_database(driver: Driver, settings: Settings) -> None:
    with http(settings) as client:
        ready = client.get("/ready")
        assert ready.status_code == 200, ready.text
        assert ready.json() == {"status": "ready", "neo4j": "up", "schema": len(health.SCHEMA_NAMES)}
        assert ready.headers["x-weft-worker"].isdigit()
        healthy = client.get("/health")
        assert healthy.status_code == 200
        assert healthy.json() == {"status": "ok", "neo4j": "up"}


def test_not_ready_while_an_index_is_missing_and_ready_once_migrated(driver: Driver, settings: Settings) -> None:
    database = settings.neo4j_database
    driver.execute_query("DROP INDEX ref_pmid IF EXISTS", database_=database)
    driver.execute_query("DROP CONSTRAINT paper_pmid IF EXISTS", database_=database)
    try:
        with http(settings) as client:
            answer = client.get("/ready")
            assert answer.status_code == 503
            body = answer.json()
            assert body["status"] == "not_ready" and body["neo4j"] == "up"
            assert body["missing"] == ["paper_pmid", "ref_pmid"]  # constraints first, as migrate creates them
            assert "missing: paper_pmid, ref_pmid" in body["reason"] and "weft migrate" in body["reason"]
            assert client.get("/health").status_code == 200  # healthy all the same: Neo4j answers
    finally:
        migrate(driver, database)
    with http(settings) as client:
        assert client.get("/ready").status_code == 200


@pytest.mark.parametrize("path", ["/ready", "/health"])
def test_neither_ready_nor_healthy_when_neo4j_does_not_answer(settings: Settings, path: str) -> None:
    down = dataclasses.replace(settings, neo4j_uri=f"bolt://127.0.0.1:{free_port()}", connect_timeout_s=0.5)
    with http(down) as client:
        answer = client.get(path)
    assert answer.status_code == 503
    body = answer.json()
    assert body["status"] == "unavailable" and body["neo4j"] == "ServiceUnavailable"
    if path == "/ready":
        assert body["reason"] == "Neo4j did not answer (ServiceUnavailable)"


def test_the_served_app_answers_ready_and_health(driver: Driver, settings: Settings) -> None:
    """`weft serve`'s app mounts both (a load balancer's /ready check must not get a 404)."""
    with TestClient(create_app(settings)) as client:
        ready = client.get("/ready")
        assert ready.status_code == 200, ready.text
        assert ready.json()["status"] == "ready"
        assert client.get("/health").json() == {"status": "ok", "neo4j": "up"}
