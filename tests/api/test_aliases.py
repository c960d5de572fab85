"""Retired ids (a merged node's old ids, kept in `aliases`) on the shared data of every source: found through each
label's full-text alias index (queries/aliases.py) by GraphQL `resolve`, the one-node lookups and the site's
301, exactly (an alias with Lucene syntax in it, a part of an alias), and planned as an index query, never a
label scan."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from neo4j import Driver

from tests.api.conftest import GraphQLClient
from weft.queries import read_institutions, read_papers, read_researchers, read_resolve

pytestmark = pytest.mark.writes_shared_load  # adds (and removes) one probe paper with odd aliases

LOOKUP = """query($id: String!) {
  paper(id: $id) { id canonicalUrl }
  researcher(id: $id) { id canonicalUrl }
  institution(id: $id) { id canonicalUrl }
}"""
RESOLVE = "query($ids: [String!]!) { resolve(ids: $ids) { input status mergedInto } }"
SECTION = {"Paper": "papers", "Researcher": "researchers", "Institution": "institutions"}
FIELD = {"Paper": "paper", "Researcher": "researcher", "Institution": "institution"}
PROBE_ID = "zzaliasprobe"
ODD = ['zzodd "quoted" id', "zzodd\\back:slash*?", "zzodd (a) OR b"]
ALIAS_STATEMENTS = {
    "PAPER_BY_ALIAS": read_papers.PAPER_BY_ALIAS,
    "RESEARCHER_BY_ALIAS": read_researchers.RESEARCHER_BY_ALIAS,
    "INSTITUTION_BY_ALIAS": read_institutions.INSTITUTION_BY_ALIAS,
    "RESOLVE_PAPERS": read_resolve.RESOLVE_PAPERS,
    "RESOLVE_RESEARCHERS": read_resolve.RESOLVE_RESEARCHERS,
    "RESOLVE_INSTITUTIONS": read_resolve.RESOLVE_INSTITUTIONS,
}


@pytest.fixture(scope="module", autouse=True)
def loaded(all_sources_graph: Driver) -> Driver:
    return all_sources_graph


@pytest.fixture(scope="module")
def merged(loaded: Driver) -> dict[str, dict[str, Any]]:
    """One node of each label that holds aliases (the shared data merges records of each kind)."""
    found: dict[str, dict[str, Any]] = {}
    for label in ("Paper", "Researcher", "Institution"):
        records, _, _ = loaded.execute_query(
            f"MATCH (n:{label}) WHERE size(coalesce(n.aliases, [])) > 0 "
            "RETURN n.id AS id, n.aliases AS aliases ORDER BY n.id LIMIT 1"
        )
        assert records, f"the shared data holds a merged {label}"
        found[label] = dict(records[0])
    return found


@pytest.fixture
def probe(loaded: Driver) -> Iterator[None]:
    """A paper whose aliases hold Lucene syntax (quotes, a backslash, operators, wildcards, spaces)."""
    loaded.execute_query("CREATE (:Paper {id: $id, title: 'Alias probe', aliases: $odd})", id=PROBE_ID, odd=ODD)
    try:
        yield
    finally:
        loaded.execute_query("MATCH (p:Paper {id: $id}) DETACH DELETE p", id=PROBE_ID)


def test_a_merged_id_resolves_looks_up_and_moves(
    client: GraphQLClient, merged: dict[str, dict[str, Any]], loaded: Driver
) -> None:
    for label, node in merged.items():
        for alias in node["aliases"]:
            answer = client.data(RESOLVE, {"ids": [alias]})["resolve"][0]
            assert (answer["status"], answer["mergedInto"]) == ("MERGED_INTO", node["id"]), (label, alias)
            found = client.data(LOOKUP, {"id": alias})[FIELD[label]]
            assert found is not None and found["id"] == node["id"], (label, alias)
            moved = client.http.get(f"/{SECTION[label]}/{alias}", follow_redirects=False)
            assert moved.status_code == 301, (label, alias, moved.status_code)
            assert moved.headers["location"] == found["canonicalUrl"], (label, alias)


def test_an_alias_is_matched_exactly_whatever_it_holds(loaded: Driver, probe: None) -> None:
    """The statements themselves (`resolve` recognises only id shapes): every odd alias finds the probe; parts of
    one, other letter case and Lucene syntax that would match one find nothing."""
    near = ["zzodd", "quoted", 'ZZODD "QUOTED" ID', "zzodd*", "zzodd\\back:slash", "zzodd (a)"]
    for value, want in [*[(v, [PROBE_ID]) for v in ODD], *[(v, []) for v in near]]:
        records, _, _ = loaded.execute_query(read_papers.PAPER_BY_ALIAS, value=value)
        assert [r["node"]["id"] for r in records] == want, value
    keys = {p: [] for p in read_resolve.RESOLVE_KEYS["Paper"]}
    keys["alias"] = [{"at": at, "property": "alias", "value": v} for at, v in enumerate([*ODD, *near])]
    row = loaded.execute_query(read_resolve.RESOLVE_PAPERS, keys=keys).records[0]
    assert sorted((m["at"], m["node"]["id"]) for m in row["merged"]) == [(at, PROBE_ID) for at in range(len(ODD))]


@pytest.mark.parametrize("name", list(ALIAS_STATEMENTS))
def test_alias_lookups_are_planned_as_index_queries(loaded: Driver, name: str) -> None:
    """The plan of each statement that looks aliases up: the alias index's procedure, no label or node scan."""
    records, summary, _ = loaded.execute_query("EXPLAIN " + ALIAS_STATEMENTS[name], value="x", keys=_keys())
    del records
    operators = _operators(summary.plan)
    assert "ProcedureCall" in operators, (name, operators)
    scans = [o for o in operators if o in ("NodeByLabelScan", "AllNodesScan")]
    assert not scans, (name, operators)


def test_an_alias_lookup_reads_only_the_nodes_it_finds(loaded: Driver, merged: dict[str, dict[str, Any]]) -> None:
    """PROFILE of the paper alias lookup, for an alias and for an id no node holds (the slow path of a label
    scan, which reads every paper): fewer database hits in all than there are papers."""
    papers = loaded.execute_query("MATCH (p:Paper) RETURN count(p) AS n").records[0]["n"]
    node = merged["Paper"]
    for value, want in ((node["aliases"][0], [node["id"]]), ("pzzzznosuchid", [])):
        records, summary, _ = loaded.execute_query("PROFILE " + read_papers.PAPER_BY_ALIAS, value=value)
        assert [r["node"]["id"] for r in records] == want
        hits = sum(o.get("dbHits", 0) for o in _profiled(summary.profile))
        assert hits < papers, (value, hits, papers)


def _keys() -> dict[str, list[Any]]:
    properties = {p for keys in read_resolve.RESOLVE_KEYS.values() for p in keys}
    return {p: [{"at": 0, "property": p, "value": "x"}] for p in properties}


def _operators(plan: Any) -> list[str]:
    name = str(plan["operatorType"]).split("@")[0]
    return [name, *[o for child in plan.get("children", []) for o in _operators(child)]]


def _profiled(plan: Any) -> list[dict[str, Any]]:
    return [dict(plan), *[p for child in plan.get("children", []) for p in _profiled(child)]]
