"""COAUTHORED_WITH pair keys (graph/MODEL.md "Pair edges") on real records, against the real server:
every edge is keyed by its ends' ids, each co-author `MERGE` is one seek in the `coauthored_pair`
constraint's index (no walk of a prolific researcher's ties), and a store whose edges lack keys or hold
stale ones is mended by the migration without a duplicate edge.
"""

from __future__ import annotations

import json
from typing import Any, LiteralString

from neo4j import Driver

from tests.conftest import shared_path
from tests.integration.test_load_pair_limits import MEARMAN_WORKS
from tests.integration.test_query_plans import kind, operators
from weft.graph.migrate import backfill_coauthored_pairs, migrate, reset
from weft.loaders.run import load_paths
from weft.queries import admin, derive

EDGES = """
MATCH (a:Researcher)-[c:COAUTHORED_WITH]->(b:Researcher)
RETURN a.id AS a, b.id AS b, c.pair AS pair, c.weight AS weight, c.first_year AS first_year, c.last_year AS last_year
ORDER BY a, b
"""


def _edges(driver: Driver) -> list[dict[str, Any]]:
    return [r.data() for r in driver.execute_query(EDGES).records]


def _load(driver: Driver) -> None:
    load_paths(driver, [shared_path(*MEARMAN_WORKS)], source="openalex")


def _profiled(driver: Driver, query: LiteralString, **params: Any) -> list[str]:
    """The operators of `query`'s plan as run (`PROFILE`) as "<operator> <details>", its writes rolled back."""
    with driver.session() as session:
        tx = session.begin_transaction()
        try:
            summary = tx.run("PROFILE " + query, **params).consume()
        finally:
            tx.rollback()
    assert summary.profile is not None
    return [f"{kind(op)} {op.get('args', {}).get('Details', '')}" for op in operators(summary.profile)]


def test_every_coauthor_edge_is_keyed_by_its_ends(driver: Driver) -> None:
    reset(driver, "neo4j")
    _load(driver)
    edges = _edges(driver)
    works = json.loads(shared_path(*MEARMAN_WORKS).read_text(encoding="utf-8"))["results"]
    assert len(edges) > 10 and len(works) == 9
    assert all(e["a"] < e["b"] and e["pair"] == f"{e['a']} {e['b']}" for e in edges)
    assert len({e["pair"] for e in edges}) == len(edges)


def test_each_coauthor_merge_is_one_index_seek(driver: Driver) -> None:
    if not _edges(driver):
        reset(driver, "neo4j")
        _load(driver)
    papers = [r["id"] for r in driver.execute_query("MATCH (p:Paper) RETURN p.id AS id ORDER BY id").records]
    researchers = [r["id"] for r in driver.execute_query("MATCH (r:Researcher) RETURN r.id AS id ORDER BY id").records]
    pairs = [{"a": e["a"], "b": e["b"]} for e in _edges(driver)]
    plans = {
        "ADD_NEW_PAPER_PAIRS": _profiled(driver, derive.ADD_NEW_PAPER_PAIRS, ids=papers, skip={}, max_authors=100),
        "BUILD_COAUTHORED": _profiled(driver, derive.BUILD_COAUTHORED, ids=researchers, done=[], max_authors=100),
        "RECOUNT_PARTNERS": _profiled(
            driver,
            derive.RECOUNT_PARTNERS,
            rows=[{"id": p["a"], "partners": [p["b"]]} for p in pairs],
            max_authors=100,
        ),
        "RECOUNT_COAUTHORED": _profiled(driver, derive.RECOUNT_COAUTHORED, pairs=pairs, max_authors=100),
    }
    for name, plan in plans.items():
        seeks = [op for op in plan if op.startswith("DirectedRelationshipUniqueIndexSeek(Locking) ")]
        assert seeks and all("COAUTHORED_WITH(pair)" in op for op in seeks), (name, plan)
        walks = [op for op in plan if "COAUTHORED_WITH" in op and op.startswith(("Expand", "OptionalExpand"))]
        assert walks == [], (name, walks)  # no pair found by walking a researcher's ties


def test_migrate_keys_unkeyed_and_stale_edges_and_a_reload_adds_no_edge(driver: Driver) -> None:
    reset(driver, "neo4j")
    _load(driver)
    before = _edges(driver)
    driver.execute_query("DROP CONSTRAINT coauthored_pair")  # a store from before the keys
    try:
        driver.execute_query("MATCH ()-[c:COAUTHORED_WITH]->() REMOVE c.pair")
        driver.execute_query("MATCH ()-[c:COAUTHORED_WITH]->() WITH c LIMIT 1 SET c.pair = 'stale'")
        assert backfill_coauthored_pairs(driver, "neo4j") == len(before)
    finally:
        migrate(driver, "neo4j")  # the constraint back whatever happened
    assert _edges(driver) == before
    assert driver.execute_query(admin.COAUTHORED_PAIR_CONSTRAINED).records[0]["present"]
    assert backfill_coauthored_pairs(driver, "neo4j") == 0  # the constraint stands: nothing read again
    _load(driver)  # the same records again: every pair found by its key, none added
    assert _edges(driver) == before
