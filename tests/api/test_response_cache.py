"""Whole answers are kept while the data stands still, and only then (server/response_cache.py)."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from neo4j import Driver
from starlette.testclient import TestClient

from tests.conftest import shared_path
from weft.graph.settings import Settings
from weft.loaders.run import load_paths
from weft.server.app import create_app

MOST_CITED = "{ mostCited(first: 3) { totalCount edges { node { id title citedByCount } } } }"
WEFT = str(Path(sys.executable).parent / "weft")
TTL_S = 0.05


@pytest.fixture(scope="module")
def http(driver: Driver, settings: Settings) -> Iterator[TestClient]:
    """The app, its cache on with a short version period, over one shared file's works."""
    load_paths(
        driver,
        [shared_path("openalex", "works", "openalexPro_keypapers.json")],
        source="openalex",
        database=settings.neo4j_database,
    )
    cached = dataclasses.replace(settings, response_cache_mb=8, response_cache_ttl_s=TTL_S)
    with TestClient(create_app(cached)) as client:
        yield client


def _post(http: TestClient, query: str, **headers: str) -> tuple[str, str, bytes]:
    response = http.post("/graphql", json={"query": query}, headers=headers)
    assert response.status_code in (200, 400)
    return response.headers["x-weft-cache"], response.headers["x-weft-cypher-queries"], response.content


def _papers(driver: Driver) -> int:
    return driver.execute_query("MATCH (p:Paper) RETURN count(p) AS n").records[0]["n"]


def test_a_repeated_request_is_answered_from_memory(http: TestClient, driver: Driver) -> None:
    first = _post(http, MOST_CITED)
    again = _post(http, MOST_CITED)
    assert first[:2] == ("miss", "1") and again[:2] == ("hit", "0")
    assert again[2] == first[2] and b'"totalCount":%d' % _papers(driver) in again[2]


def test_the_answer_follows_the_request_id_and_the_accept_header(http: TestClient) -> None:
    _post(http, MOST_CITED)
    response = http.post("/graphql", json={"query": MOST_CITED}, headers={"x-request-id": "mine"})
    assert response.headers["x-weft-cache"] == "hit" and response.headers["x-request-id"] == "mine"
    other = _post(http, MOST_CITED, accept="application/graphql-response+json")
    assert other[0] == "miss"  # another media type is another answer


def test_errors_are_never_kept(http: TestClient) -> None:
    bad = "{ mostCited(first: 3) { edges { node { nope } } } }"
    assert [_post(http, bad)[0] for _ in range(2)] == ["miss", "miss"]
    too_many = "{ mostCited(first: 100000) { totalCount } }"
    assert [_post(http, too_many)[0] for _ in range(2)] == ["miss", "miss"]


def test_a_load_drops_every_kept_answer(http: TestClient, driver: Driver, settings: Settings) -> None:
    _post(http, MOST_CITED)
    assert _post(http, MOST_CITED)[0] == "hit"
    before = _papers(driver)
    load_paths(
        driver,
        [shared_path("openalex", "works", "openalexPro_result_1.json")],
        source="openalex",
        database=settings.neo4j_database,
    )
    assert _papers(driver) > before
    time.sleep(TTL_S * 4)  # the version is read every TTL_S
    cache, _, body = _post(http, MOST_CITED)
    assert cache == "miss" and b'"totalCount":%d' % _papers(driver) in body


def test_weft_analytics_drops_every_kept_answer(http: TestClient, driver: Driver, settings: Settings) -> None:
    """Scores are written by `weft analytics`, not by a load: it bumps the data version as a load does."""
    from weft.graph.network_scores import compute_and_store

    author = driver.execute_query(
        "MATCH (r:Researcher)-[:COAUTHORED_WITH]-() RETURN r.id AS id ORDER BY r.id LIMIT 1"
    ).records[0]["id"]
    query = '{ researcher(id: "' + author + '") { pageRank } }'
    _post(http, query)
    assert _post(http, query)[0] == "hit"
    compute_and_store(driver, settings.neo4j_database, engine="networkx")
    stored = driver.execute_query("MATCH (r:Researcher {id: $id}) RETURN r.page_rank AS s", id=author).records[0]["s"]
    assert stored is not None
    time.sleep(TTL_S * 4)
    cache, _, body = _post(http, query)
    assert cache == "miss" and orjson.loads(body)["data"]["researcher"]["pageRank"] == stored


def test_a_load_killed_midway_leaves_no_kept_answer_behind_the_database(
    http: TestClient, driver: Driver, settings: Settings, tmp_path: Path
) -> None:
    """Issue 48 item 4: each batch's transaction moves the data version, so an answer kept before a
    `weft load` gives way to what its first batch committed within the version period, though the load is
    then killed (SIGKILL) before its end; it used to stay until the next complete load. The load retitles
    a paper and adds no researcher or tie, so only the data version can tell the caches."""
    works = orjson.loads(shared_path("openalex", "works", "openalexPro_keypapers.json").read_bytes())["results"]
    first, other = works[0], works[1]
    wid = first["id"].rsplit("/", 1)[-1]
    query = '{ paper(id: "' + wid + '") { title } }'
    old_title = orjson.loads(_post(http, query)[2])["data"]["paper"]["title"]
    assert _post(http, query)[0] == "hit"
    new_title = old_title + " (revised)"
    revised = {**first, "title": new_title, "display_name": new_title, "updated_date": "2026-12-01T00:00:00"}
    lines = [revised] + [other] * 300  # one batch each
    path = tmp_path / "revised.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(line) for line in lines))
    env = dict(os.environ, NEO4J_URI=settings.neo4j_uri, NEO4J_PASSWORD=settings.neo4j_password)
    load = subprocess.Popen(
        [WEFT, "load", "openalex", str(path), "--batch-size", "1", "--quiet"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )

    def stored() -> str:
        return driver.execute_query("MATCH (p:Paper {openalex_id: $id}) RETURN p.title AS t", id=wid).records[0]["t"]

    deadline = time.monotonic() + 600
    while stored() != new_title:
        assert load.poll() is None, load.communicate()
        assert time.monotonic() < deadline, "the first batch never committed"
        time.sleep(0.02)
    load.send_signal(signal.SIGKILL)
    load.wait(timeout=30)
    deadline = time.monotonic() + 60  # a bound on failing: a fixed cache gives the new title after TTL_S
    while True:
        cache, _, body = _post(http, query)
        if orjson.loads(body)["data"]["paper"]["title"] == new_title:
            break
        assert cache == "hit" and time.monotonic() < deadline, "the kept answer stayed behind the database"
        time.sleep(TTL_S)
    assert cache == "miss"


REFORMATTED = """
query {   # the same document, written otherwise
  mostCited(first: 3) {
    totalCount,
    edges { node { id, title, citedByCount } }
  }
}
"""


def test_a_reformatted_query_is_the_same_request(http: TestClient) -> None:
    """The key is the document as graphql-core prints it: spacing, commas and comments do not count."""
    first = _post(http, MOST_CITED)
    again = _post(http, REFORMATTED)
    assert again[:2] == ("hit", "0") and again[2] == first[2]
    other = _post(http, MOST_CITED.replace("first: 3", "first: 2"))
    assert other[0] == "miss"


def test_variables_in_another_order_are_the_same_request(http: TestClient) -> None:
    query = "query ($n: Int!, $after: String) { mostCited(first: $n, after: $after) { edges { node { id } } } }"
    http.post("/graphql", json={"query": query, "variables": {"n": 2, "after": None}})
    response = http.post(
        "/graphql",
        content=b'{"variables": {"after": null, "n": 2}, "query": "%s"}' % query.encode(),
        headers={"content-type": "application/json"},
    )
    assert response.headers["x-weft-cache"] == "hit"
    got = http.get("/graphql", params={"query": query, "variables": '{"after":null,"n":2}'})
    assert got.status_code == 200 and got.headers["x-weft-cache"] in ("hit", "miss")
    assert http.post("/graphql", json={"query": query, "variables": {"n": 3}}).headers["x-weft-cache"] == "miss"


def test_a_new_text_is_parsed_once(http: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache parses a text it has not seen for its key and hands the document to the execution."""
    import strawberry.schema.schema as strawberry_schema

    from weft.server import response_cache

    parses: list[str] = []
    for module in (strawberry_schema, response_cache):
        real = module.parse

        def counted(text: str, *args: object, real: object = real, **kwargs: object) -> object:
            parses.append(text)
            return real(text, *args, **kwargs)  # type: ignore[operator]

        monkeypatch.setattr(module, "parse", counted)
    text = "{ mostCited(first: 1) { totalCount } }  # parsed once"
    assert _post(http, text)[0] == "miss" and _post(http, text)[0] == "hit"
    assert parses == [text]
