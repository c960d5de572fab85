"""Identity links on the real server: a load links same-name records the evidence joins (and only those), each
link keeps its evidence and score, `weft identity unlink` keeps a pair apart through later loads, and the
links show in GraphQL and on the researcher page."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from neo4j import Driver
from starlette.testclient import TestClient
from typer.testing import CliRunner

from weft.graph.identity.linking import FEATURES, LinkModel
from weft.graph.identity.links import relink
from weft.graph.migrate import reset
from weft.graph.settings import Settings
from weft.graph.writer_lock import writer_lock
from weft.loaders.run import load_paths
from weft.server.app import create_app
from weft.server.cli import app

ROR = "https://ror.org/02jx3x895"


def _work(wid: str, year: int, authors: list[tuple[str, str, bool]]) -> dict:
    """An OpenAlex work with the given authors ((OpenAlex author id, name, at the shared institution))."""
    return {
        "id": f"https://openalex.org/{wid}",
        "title": f"Work {wid}",
        "publication_year": year,
        "type": "article",
        "updated_date": "2024-01-01T00:00:00",
        "referenced_works": [],
        "authorships": [
            {
                "author_position": "first" if rank == 0 else "middle",
                "author": {"id": f"https://openalex.org/{aid}", "display_name": name},
                "raw_author_name": name,
                "institutions": [
                    {"id": "https://openalex.org/I1", "display_name": "University College London", "ror": ROR}
                ]
                if here
                else [],
            }
            for rank, (aid, name, here) in enumerate(authors)
        ],
    }


# A1 and A2: one Ada Lovelace under two OpenAlex ids, same co-authors and institution, years apart by none.
# A3: another A. Lovelace, other co-authors, elsewhere, decades later.
TEAM = [("A10", "Charles Babbage", True), ("A11", "Mary Somerville", True)]
WORKS = [
    _work("W1", 1843, [("A1", "Ada Lovelace", True), *TEAM]),
    _work("W2", 1844, [("A2", "Ada Lovelace", True), *TEAM]),
    _work("W3", 1990, [("A3", "A. Lovelace", False), ("A12", "Grace Hopper", False)]),
    _work("W4", 1842, [("A1", "Ada Lovelace", True), ("A10", "Charles Babbage", True)]),
]


def _load(driver: Driver, folder: Path) -> None:
    path = folder / "works.json"
    path.write_text(json.dumps({"meta": {}, "results": WORKS, "group_by": []}), encoding="utf-8")
    load_paths(driver, [path], source="openalex")


def _id(driver: Driver, openalex: str) -> str:
    records, _, _ = driver.execute_query("MATCH (r:Researcher {openalex_id: $o}) RETURN r.id AS id", o=openalex)
    return records[0]["id"]


def _links(driver: Driver, kind: str) -> dict[frozenset[str], dict]:
    records, _, _ = driver.execute_query(
        "MATCH (a:Researcher)-[l]->(b:Researcher) WHERE type(l) = $kind "
        "RETURN a.openalex_id AS a, b.openalex_id AS b, properties(l) AS props",
        kind=kind,
    )
    return {frozenset((r["a"], r["b"])): r["props"] for r in records}


@pytest.fixture(scope="module")
def loaded(driver: Driver, tmp_path_factory: pytest.TempPathFactory) -> Driver:
    reset(driver, "neo4j")
    _load(driver, tmp_path_factory.mktemp("identity"))
    return driver


def test_a_load_links_the_records_the_evidence_joins(loaded: Driver) -> None:
    links = _links(loaded, "SAME_PERSON")
    assert set(links) == {frozenset(("A1", "A2"))}
    link = links[frozenset(("A1", "A2"))]
    assert link["score"] >= 0.9
    assert "co-author names in common: 2" in link["evidence"]
    assert "institutions in common: 1" in link["evidence"]
    assert "same full name" in link["evidence"]
    # the decades-later namesake is a candidate at most, never a link
    assert not any("A3" in pair for pair in links)


def test_relinking_an_unchanged_bucket_leaves_its_links_untouched(loaded: Driver) -> None:
    """relink writes only what differs from the links held: the same evidence keeps the same edge (a probe set on
    it stays), not a deleted and recreated one."""
    before = _links(loaded, "SAME_PERSON")
    loaded.execute_query("MATCH (:Researcher)-[l:SAME_PERSON]->(:Researcher) SET l.probe = true")
    with writer_lock(loaded, "neo4j", "test"):
        relink(loaded, "neo4j", [_id(loaded, a) for a in ("A1", "A2", "A3")])
    after = _links(loaded, "SAME_PERSON")
    assert after == {pair: {**props, "probe": True} for pair, props in before.items()}
    loaded.execute_query("MATCH (:Researcher)-[l:SAME_PERSON]->(:Researcher) REMOVE l.probe")


def test_the_threshold_decides_link_or_candidate(loaded: Driver) -> None:
    """A model that only believes shared co-authors: two of them score sigmoid(4 log 3 - 3) = 0.80, none 0.047."""
    only_coauthors = LinkModel(tuple(4.0 if f == "shared_coauthors" else 0.0 for f in FEATURES), -3.0, threshold=0.5)
    ids = [_id(loaded, a) for a in ("A1", "A2", "A3")]
    with writer_lock(loaded, "neo4j", "test"):
        relink(loaded, "neo4j", ids, model=only_coauthors, version="test")
    assert set(_links(loaded, "SAME_PERSON")) == {frozenset(("A1", "A2"))}
    maybe = _links(loaded, "MAYBE_SAME_PERSON")
    # Ada and A. share no co-author: sigmoid(-3) = 0.047 is below the floor, so no candidate is stored
    assert maybe == {}
    assert _links(loaded, "SAME_PERSON")[frozenset(("A1", "A2"))]["model"] == "test"


def test_graphql_and_the_page_show_the_link_with_its_evidence(loaded: Driver, settings: Settings) -> None:
    with TestClient(create_app(dataclasses.replace(settings, response_cache_mb=0))) as http:
        query = "query($id: String!) { researcher(id: $id) { linkedRecords { researcher { id } score evidence } } }"
        body = http.post("/graphql", json={"query": query, "variables": {"id": "A1"}}).json()
        page = http.get(f"/researchers/{_id(loaded, 'A1')}")
    (link,) = body["data"]["researcher"]["linkedRecords"]
    assert link["researcher"]["id"] == _id(loaded, "A2")
    assert link["score"] >= 0.5 and "same full name" in link["evidence"]
    assert page.status_code == 200
    assert "The same person" in page.text and "co-author names in common: 2" in page.text


def test_unlink_keeps_a_pair_apart_through_later_loads(loaded: Driver, tmp_path: Path) -> None:
    a1, a2 = _id(loaded, "A1"), _id(loaded, "A2")
    result = CliRunner().invoke(app, ["identity", "unlink", a2, a1])
    assert result.exit_code == 0, result.output
    assert _links(loaded, "SAME_PERSON") == {}
    _load(loaded, tmp_path)  # the same records again: the derived step relinks their candidates
    assert _links(loaded, "SAME_PERSON") == {}
    assert set(_links(loaded, "NOT_SAME_PERSON")) == {frozenset(("A1", "A2"))}
    result = CliRunner().invoke(app, ["identity", "link"])
    assert result.exit_code == 0, result.output
    assert _links(loaded, "SAME_PERSON") == {}


def test_unlinking_unknown_researchers_is_refused(loaded: Driver) -> None:
    result = CliRunner().invoke(app, ["identity", "unlink", "rnothere0000", "rnothere0001"])
    assert result.exit_code == 1
    assert "no researcher pair" in result.output
