"""The cookbook's Graph Data Science recipes (queries/cookbook.md, G1–G6) run in order on real OpenAlex
data (the four visualisation authors' works files) and their answers match the raw JSON: the projection's
sizes, PageRank and Louvain against networkx on the co-author pairs of the raw works, Jaccard similarity
of raw co-author sets, and the shortest co-authorship chain."""

from __future__ import annotations

import json
import re
from itertools import combinations
from typing import Any

import networkx as nx
import pytest
from neo4j import Driver

from tests.conftest import shared_path
from weft.graph.settings import PROJECT_ROOT, Settings
from weft.loaders.run import load_paths

COOKBOOK = PROJECT_ROOT / "queries" / "cookbook.md"
_SECTION = re.compile(r"^### (G\d+)\. (.+?)\n(.*?)(?=^##|\Z)", re.MULTILINE | re.DOTALL)
_BLOCK = re.compile(r"```cypher\n(.*?)```", re.DOTALL)
BUTCHER = "A5032473237"


def gds_recipes() -> dict[str, tuple[str, dict[str, Any]]]:
    """{"G1": (Cypher, example params), …} in cookbook order, from the Graph Data Science section."""
    text = COOKBOOK.read_text(encoding="utf-8").split("## Graph Data Science recipes", 1)[1]
    found = {}
    for number, _title, body in _SECTION.findall(text):
        (block,) = _BLOCK.findall(body)
        first, _, _ = block.partition("\n")
        assert first.startswith("// params: "), number
        found[number] = (block, json.loads(first.removeprefix("// params: ")))
    return found


RECIPES = gds_recipes()


@pytest.fixture(scope="module")
def raw_graph() -> nx.Graph[str]:
    """Co-author pairs of the raw works files, by OpenAlex author id."""
    g: nx.Graph[str] = nx.Graph()
    works: dict[str, dict] = {}
    for path in sorted(shared_path("openalex", "works", "author_works").glob("*.json")):
        for work in json.loads(path.read_text(encoding="utf-8")):
            works[work["id"]] = work
    for work in works.values():
        ids = sorted({a["author"]["id"].rsplit("/", 1)[-1] for a in work["authorships"] if a["author"].get("id")})
        g.add_nodes_from(ids)
        for a, b in combinations(ids, 2):
            g.add_edge(a, b, weight=g.get_edge_data(a, b, {"weight": 0})["weight"] + 1)
    return g


@pytest.fixture(scope="module")
def answers(driver: Driver, settings: Settings) -> dict[str, list[dict[str, Any]]]:
    """Every recipe's rows, run in cookbook order (G1 projects, G6 drops)."""
    load_paths(
        driver, [shared_path("openalex", "works", "author_works")], source="openalex", database=settings.neo4j_database
    )
    found = {}
    try:
        for number, (cypher, params) in RECIPES.items():
            records, _, _ = driver.execute_query(cypher, params, database_=settings.neo4j_database)
            found[number] = [r.data() for r in records]
    finally:
        driver.execute_query("CALL gds.graph.drop('coauthors', false) YIELD graphName RETURN graphName")
    return found


def test_the_cookbook_has_the_five_gds_recipes_and_a_drop() -> None:
    assert list(RECIPES) == ["G1", "G2", "G3", "G4", "G5", "G6"]
    text = COOKBOOK.read_text(encoding="utf-8")
    for procedure in ("gds.graph.project", "gds.pageRank", "gds.louvain", "gds.nodeSimilarity", "gds.shortestPath"):
        assert procedure in text


def test_projection_holds_every_researcher_and_tie(answers: dict, raw_graph: nx.Graph[str]) -> None:
    assert answers["G1"] == [
        {"graphName": "coauthors", "researchers": raw_graph.number_of_nodes(), "ties": raw_graph.number_of_edges()}
    ]
    assert answers["G6"] == [{"graphName": "coauthors"}]


def test_pagerank_leaders_are_networkx_leaders(answers: dict, raw_graph: nx.Graph[str]) -> None:
    expected = nx.pagerank(raw_graph, weight="weight")
    rows = answers["G2"]
    assert len(rows) == 10
    assert [r["openalex_id"] for r in rows[:3]] == sorted(expected, key=lambda a: -expected[a])[:3]
    assert [r["page_rank"] for r in rows] == sorted((r["page_rank"] for r in rows), reverse=True)


def test_louvain_communities_cover_the_graph_like_networkx(answers: dict, raw_graph: nx.Graph[str]) -> None:
    rows = answers["G3"]
    expected = nx.community.louvain_communities(raw_graph, weight="weight", seed=42)
    assert len(rows) < 10  # so every community is listed
    assert sum(r["size"] for r in rows) == raw_graph.number_of_nodes()
    assert [r["size"] for r in rows] == sorted((r["size"] for r in rows), reverse=True)
    # never fewer communities than components; Louvain is heuristic (and GDS's has no seed), so the
    # partitions differ in detail, but the largest community is about as large in both
    assert len(rows) >= nx.number_connected_components(raw_graph)
    assert abs(rows[0]["size"] - max(map(len, expected))) <= 0.1 * raw_graph.number_of_nodes()


def test_node_similarity_is_the_jaccard_of_raw_coauthor_sets(answers: dict, raw_graph: nx.Graph[str]) -> None:
    rows = answers["G4"]
    assert rows
    mine = set(raw_graph[BUTCHER])
    for row in rows:
        theirs = set(raw_graph[row["openalex_id"]])
        assert row["jaccard"] == pytest.approx(len(mine & theirs) / len(mine | theirs))
        assert row["jaccard"] >= 0.1


def test_shortest_chain_has_the_raw_hop_count(answers: dict, raw_graph: nx.Graph[str]) -> None:
    _, params = RECIPES["G5"]
    (row,) = answers["G5"]
    assert (
        row["hops"] == nx.shortest_path_length(raw_graph, params["from"], params["to"]) == len(row["researchers"]) - 1
    )
