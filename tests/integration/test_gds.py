"""Graph Data Science on the local server, and `weft analytics` with either engine on the shared
OpenAlex data: both engines write the same five properties, and their answers agree (PageRank rank
correlation over researchers ≥ 0.99, equal component counts, Louvain modularity within 0.02)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from neo4j import Driver
from typer.testing import CliRunner

from tests.conftest import ANALYTICS_SCORES_REMOVED, restoring
from weft.graph import local_server
from weft.graph.analytics.gds import gds_version
from weft.graph.network_scores import AUTO_GDS_MIN_TIES, choose_engine
from weft.graph.settings import Settings
from weft.server.cli import app as cli_app

SCORES = ("page_rank", "community", "component", "degree_centrality", "betweenness")
STORED = """
MATCH (n:Researcher)
RETURN n.id AS id, n.page_rank AS page_rank, n.community AS community, n.component AS component,
       n.degree_centrality AS degree_centrality, n.betweenness AS betweenness
"""
TIES = "MATCH (a:Researcher)-[r:COAUTHORED_WITH]->(b:Researcher) RETURN a.id AS a, b.id AS b, r.weight AS w"


@pytest.fixture(scope="module", autouse=True)
def shared_load(openalex_graph: Driver, settings: Settings) -> Iterator[Driver]:
    """Every test here runs on the shared OpenAlex data; the scores the analytics store are removed at the
    end of the module (the next module takes the shared load as it was)."""
    with restoring(openalex_graph, settings, "openalex_graph", ANALYTICS_SCORES_REMOVED):
        yield openalex_graph


def pom_gds_version() -> str:
    found = re.search(r"<gds.version>(.+?)</gds.version>", local_server.POM.read_text())
    assert found
    return found.group(1)


def test_the_local_server_has_the_pinned_gds_open_edition(driver: Driver, settings: Settings) -> None:
    records, _, _ = driver.execute_query("RETURN gds.version() AS version")
    assert records[0]["version"] == pom_gds_version() == "2.13.9"
    assert gds_version(driver, settings.neo4j_database) == "2.13.9"
    info, _, _ = driver.execute_query(
        "CALL gds.debug.sysInfo() YIELD key, value WITH key, value WHERE key = 'gdsEdition' RETURN value"
    )
    assert info[0]["value"] == "OpenGDS"


def analytics(engine: str, driver: Driver) -> tuple[str, dict[str, dict[str, Any]]]:
    """`weft analytics --engine ENGINE` on cleared scores: its output and every researcher's stored scores."""
    driver.execute_query(ANALYTICS_SCORES_REMOVED)
    result = CliRunner().invoke(cli_app, ["analytics", "--engine", engine])
    assert result.exit_code == 0, result.output
    records, _, _ = driver.execute_query(STORED)
    return result.output, {r["id"]: r.data() for r in records}


@pytest.fixture(scope="module")
def runs(openalex_graph: Driver) -> dict[str, tuple[str, dict[str, dict[str, Any]]]]:
    return {engine: analytics(engine, openalex_graph) for engine in ("networkx", "gds")}


@pytest.fixture(scope="module")
def stored_graph(openalex_graph: Driver) -> nx.Graph[str]:
    """The stored co-authorship graph, weighted by shared papers, read independently of either engine."""
    g: nx.Graph[str] = nx.Graph()
    g.add_nodes_from(r["id"] for r in openalex_graph.execute_query("MATCH (n:Researcher) RETURN n.id AS id").records)
    g.add_weighted_edges_from((r["a"], r["b"], r["w"] or 1) for r in openalex_graph.execute_query(TIES).records)
    return g


def numbered_groups(scores: dict[str, dict[str, Any]], key: str) -> dict[int, set[str]]:
    found: dict[int, set[str]] = defaultdict(set)
    for node, row in scores.items():
        found[row[key]].add(node)
    return found


def groups(scores: dict[str, dict[str, Any]], key: str) -> list[set[str]]:
    return list(numbered_groups(scores, key).values())


def test_both_engines_write_the_same_properties_on_every_researcher(
    runs: dict[str, tuple[str, dict[str, dict[str, Any]]]], stored_graph: nx.Graph[str]
) -> None:
    for engine, (output, scores) in runs.items():
        assert set(scores) == set(stored_graph.nodes)
        assert all(row[key] is not None for row in scores.values() for key in SCORES), engine
        assert f"{stored_graph.number_of_nodes()} researchers, {stored_graph.number_of_edges()} co-authorship" in output
        assert f"by {engine} in" in output
        assert sum(row["page_rank"] for row in scores.values()) == pytest.approx(1.0)
        for key in ("community", "component"):  # numbered from 0 = the largest group, in both engines
            sizes = {number: len(members) for number, members in sorted(numbered_groups(scores, key).items())}
            assert list(sizes) == list(range(len(sizes)))
            assert list(sizes.values()) == sorted(sizes.values(), reverse=True)


def ranked(scores: dict[str, dict[str, Any]], ids: list[str], key: str) -> list[float]:
    """Scores in `ids` order, equal to 9 significant digits made exactly equal: researchers of one
    many-author paper have the same PageRank, but each engine's float arithmetic leaves them a few ulps
    apart in a different order, which Spearman's ranks would otherwise count as disagreement."""
    values = [float(scores[i][key]) for i in ids]
    mean = sum(values) / len(values)
    return [round(v / mean, 9) for v in values]


def spearman(x: list[float], y: list[float]) -> float:
    """Spearman's rank correlation: Pearson's on the ranks, ties given their average rank."""
    return float(np.corrcoef(pd.Series(x).rank(), pd.Series(y).rank())[0, 1])


def test_pagerank_agrees_across_engines(runs: dict[str, tuple[str, dict[str, dict[str, Any]]]]) -> None:
    nx_scores, gds_scores = runs["networkx"][1], runs["gds"][1]
    ids = sorted(nx_scores)
    rho = spearman(ranked(nx_scores, ids, "page_rank"), ranked(gds_scores, ids, "page_rank"))
    assert rho >= 0.99


def test_components_are_the_same_in_both_engines(
    runs: dict[str, tuple[str, dict[str, dict[str, Any]]]], stored_graph: nx.Graph[str]
) -> None:
    expected = nx.number_connected_components(stored_graph)
    for _, scores in runs.values():
        assert len(groups(scores, "component")) == expected
    nx_parts = sorted(map(sorted, groups(runs["networkx"][1], "component")))
    gds_parts = sorted(map(sorted, groups(runs["gds"][1], "component")))
    assert nx_parts == gds_parts
    assert all(runs["networkx"][1][i]["component"] == runs["gds"][1][i]["component"] for i in stored_graph.nodes)


def test_degree_and_betweenness_agree_across_engines(runs: dict[str, tuple[str, dict[str, dict[str, Any]]]]) -> None:
    nx_scores, gds_scores = runs["networkx"][1], runs["gds"][1]
    for i in nx_scores:
        assert gds_scores[i]["degree_centrality"] == pytest.approx(nx_scores[i]["degree_centrality"])
    # above 400 researchers both engines estimate betweenness from 400 sampled sources, each its own
    # sample, so only the leaders are compared: the same first, and four of the first five shared
    leaders = [sorted(scores, key=lambda i: -scores[i]["betweenness"])[:5] for scores in (nx_scores, gds_scores)]
    assert leaders[0][0] == leaders[1][0]
    assert len(set(leaders[0]) & set(leaders[1])) >= 4


def test_louvain_modularity_agrees_across_engines(
    runs: dict[str, tuple[str, dict[str, dict[str, Any]]]], stored_graph: nx.Graph[str]
) -> None:
    nx_q = nx.community.modularity(stored_graph, groups(runs["networkx"][1], "community"), weight="weight")
    gds_q = nx.community.modularity(stored_graph, groups(runs["gds"][1], "community"), weight="weight")
    assert nx_q > 0.5
    assert abs(nx_q - gds_q) <= 0.02


def test_auto_picks_by_size_and_gds_engine_is_named(openalex_graph: Driver, settings: Settings) -> None:
    ties = openalex_graph.execute_query("MATCH ()-[r:COAUTHORED_WITH]->() RETURN count(r) AS n").records[0]["n"]
    expected = "gds" if ties >= AUTO_GDS_MIN_TIES else "networkx"
    assert choose_engine(openalex_graph, settings.neo4j_database, "auto") == expected
    result = CliRunner().invoke(cli_app, ["analytics", "--engine", "spark"])
    assert result.exit_code != 0 and "--engine must be one of auto, gds, networkx" in result.output
