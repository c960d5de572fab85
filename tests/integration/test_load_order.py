"""Load order and interruptions do not change the graph (real OpenAlex files, real server).

A and B overlap: W2741809807 is in both with different `updated_date`s, authors of A's works are
in B's author files, and B's works cite A's (so B then A resolves citations when the cited arrive).
"""

from __future__ import annotations

import json
from typing import Any, LiteralString

import pytest
from neo4j import Driver, ManagedTransaction, Result

from tests.conftest import shared_path
from tests.integration.test_bulk_path import CATEGORY_KEYS_CHECK
from tests.integration.test_load_arxiv import graph_state
from weft.graph.migrate import reset
from weft.loaders import derived, write
from weft.loaders.run import load_paths
from weft.queries import derive


def _a() -> list:
    return [
        shared_path("openalex", "works", "single"),
        shared_path("openalex", "works", "openalexPro_snowball_cited.json"),
        shared_path("openalex", "works", "author_works", "academic_explorer_author_A5017572309_works.json"),
    ]


def _b() -> list:
    authors = shared_path("openalex", "authors")
    return [
        shared_path("openalex", "works", "openalexPro_keypapers.json"),
        shared_path("openalex", "works", "openalexPro_snowball_citing.json"),
        shared_path("openalex", "works", "openalexPro_snowball_keypaper.json"),
        shared_path("openalex", "works", "academic_explorer_author_A5017898742_works.json"),
        *sorted(authors.glob("A5*.json")),
        shared_path("openalex", "institutions", "I161548249.json"),
    ]


def _load(driver: Driver, *groups: list, batch_size: int = 5000) -> None:
    for paths in groups:
        summary = load_paths(driver, paths, source="openalex", batch_size=batch_size)
        assert summary.rejected == 0 and summary.warnings == []


@pytest.fixture(scope="module")
def reference(driver: Driver) -> tuple:
    reset(driver, "neo4j")
    _load(driver, _a(), _b())
    return graph_state(driver, "neo4j")


def test_the_sets_overlap(reference: tuple) -> None:
    names = {p.name for p in _a()} | {p.name for p in _b()}
    assert "W2741809807.json" in {p.name for p in shared_path("openalex", "works", "single").iterdir()}
    assert "openalexPro_keypapers.json" in names and reference[0] and reference[1]


def _works(paths: list) -> dict[str, dict]:
    found = {}
    for path in paths:
        for file in sorted(path.rglob("*.json")) if path.is_dir() else [path]:
            doc = json.loads(file.read_text())
            for w in (
                doc["results"]
                if isinstance(doc, dict) and "results" in doc
                else (doc if isinstance(doc, list) else [doc])
            ):
                if "authorships" in w:
                    found[w["id"].rsplit("/", 1)[-1]] = w
    return found


def _cites(driver: Driver) -> set[tuple[str, str]]:
    records, _, _ = driver.execute_query(
        "MATCH (a:Paper)-[:CITES]->(b:Paper) RETURN a.openalex_id AS a, b.openalex_id AS b", routing_="r"
    )
    return {(r["a"], r["b"]) for r in records}


def test_b_then_a_and_a_b_a_give_the_same_graph(driver: Driver, reference: tuple) -> None:
    a_works, b_works = _works(_a()), _works(_b())
    late = {
        (x, r.rsplit("/", 1)[-1])
        for x, w in b_works.items()
        for r in w["referenced_works"]
        if r.rsplit("/", 1)[-1] in a_works and r.rsplit("/", 1)[-1] not in b_works
    }
    assert len(late) == 40
    reset(driver, "neo4j")
    _load(driver, _b())
    assert not late & _cites(driver)  # the cited papers are not loaded yet
    _load(driver, _a())
    assert late <= _cites(driver)  # resolved when they arrive
    assert graph_state(driver, "neo4j") == reference
    categories = driver.execute_query(CATEGORY_KEYS_CHECK).records[0]
    assert (categories["wrong"], categories["stale"]) == (0, 0)  # A's newer works re-categorised, re-counted
    _load(driver, _a())
    assert graph_state(driver, "neo4j") == reference


def test_small_batches_give_the_same_graph(driver: Driver, reference: tuple) -> None:
    reset(driver, "neo4j")
    _load(driver, _a() + _b(), batch_size=97)
    assert graph_state(driver, "neo4j") == reference


def test_small_derive_chunks_give_the_same_graph(
    driver: Driver, reference: tuple, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Small derive chunks give the graph of large ones: new papers added to their pairs chunk by chunk,
    and the whole recompute (researchers whose authorships moved; here all of them), where co-author
    pairs spanning two chunks are computed by the first chunk only (the second skips them)."""
    reset(driver, "neo4j")
    skipped: list[str] = []  # co-authors BUILD_COAUTHORED was told an earlier chunk computed
    real_tx = derived._coauthors_tx

    class Spy:
        def __init__(self, tx: ManagedTransaction) -> None:
            self.tx = tx

        def run(self, query: LiteralString, **params: Any) -> Result:
            if query == derive.BUILD_COAUTHORED:
                skipped.extend(params["done"])
            return self.tx.run(query, **params)

    def spying(tx: ManagedTransaction, ids: list[str], finished: set[str], max_authors: int) -> list[str]:
        return real_tx(Spy(tx), ids, finished, max_authors)  # type: ignore[arg-type]  # duck-typed transaction

    monkeypatch.setattr(derived, "DERIVE_CHUNK", 37)
    monkeypatch.setattr(derived, "_coauthors_tx", spying)
    _load(driver, _a(), _b())
    assert graph_state(driver, "neo4j") == reference
    assert not skipped  # nobody's authorships moved: no pair was recomputed whole

    records, _, _ = driver.execute_query(
        "MATCH (p:Paper) WITH collect(p.id) AS papers MATCH (r:Researcher) RETURN papers, collect(r.id) AS researchers"
    )
    derived.recompute(driver, "neo4j", set(records[0]["papers"]), set(records[0]["researchers"]))  # all moved
    assert skipped  # pairs across chunks were left to the chunk that computed them
    assert graph_state(driver, "neo4j") == reference


def test_an_interrupted_load_converges_when_rerun(
    driver: Driver, reference: tuple, monkeypatch: pytest.MonkeyPatch
) -> None:
    reset(driver, "neo4j")
    real_write = write.GraphWriter.write
    calls = {"n": 0}

    def interrupted(self, records):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt  # as Ctrl-C between two batches
        return real_write(self, records)

    monkeypatch.setattr(write.GraphWriter, "write", interrupted)
    with pytest.raises(KeyboardInterrupt):
        load_paths(driver, _a() + _b(), source="openalex", batch_size=500)
    monkeypatch.undo()
    partial = graph_state(driver, "neo4j")
    assert partial != reference and partial[0]  # three batches were committed, derived data was not
    _load(driver, _a() + _b(), batch_size=500)
    assert graph_state(driver, "neo4j") == reference
