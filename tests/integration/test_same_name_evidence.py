"""Same-name evidence as a read counts it (queries/read_researchers.SAME_NAME_EVIDENCE) on the real server:
overlap needs both researchers' years; what a prolific group-mate shares with a newcomer comes out the same
from either end; papers above the pair-edge limit count as papers together though they make no tie."""

from __future__ import annotations

from neo4j import Driver

from tests.integration.test_coauthor_pairs import _profiled
from weft.loaders.derived import PairLimits, recompute
from weft.queries import read_researchers

GRAPH = """
CREATE (a:Researcher {id: 'r-undated', name: 'Wei Zhang', name_key: 'zhang w'}),
       (b:Researcher {id: 'r-dated', name: 'Wei Zhang', name_key: 'zhang w'}),
       (c:Researcher {id: 'r-later', name: 'W. Zhang', name_key: 'zhang w'}),
       (a)-[:AUTHORED]->(:Paper {id: 'p-undated'}),
       (b)-[:AUTHORED]->(:Paper {id: 'p-2005', year: 2005}),
       (b)-[:AUTHORED]->(:Paper {id: 'p-2020', year: 2020}),
       (c)-[:AUTHORED]->(:Paper {id: 'p-2018', year: 2018}),
       (c)-[:AUTHORED]->(:Paper {id: 'p-2024', year: 2024})
"""


def _evidence(driver: Driver, rid: str) -> dict[str, list[str]]:
    """{linked researcher id: evidence} of `rid`'s SAME_NAME_AS links, as the API reads them."""
    records, _, _ = driver.execute_query(read_researchers.RESEARCHER_SAME_NAME, ids=[rid], routing_="r")
    return {r["researcher"]["id"]: r["evidence"] for r in records}


def test_overlapping_years_count_only_years_both_were_active(driver: Driver) -> None:
    driver.execute_query("MATCH (n) DETACH DELETE n")
    driver.execute_query(GRAPH)
    recompute(driver, "neo4j", papers=set(), researchers={"r-undated", "r-dated", "r-later"})

    seen = _evidence(driver, "r-dated")
    assert seen["r-undated"] == ["same name key: zhang w"]  # no year to compare
    assert seen["r-later"] == ["same name key: zhang w", f"overlapping years: {len(range(2018, 2020 + 1))}"]
    assert _evidence(driver, "r-undated") == {
        "r-dated": ["same name key: zhang w"],
        "r-later": ["same name key: zhang w"],
    }


HUB_GRAPH = """
UNWIND $people AS person
CREATE (:Researcher {id: person[0], name: person[1], name_key: person[2]})
WITH count(*) AS made
UNWIND $papers AS paper
CREATE (p:Paper {id: paper.id, year: paper.year})
WITH p, paper
UNWIND paper.authors AS author
MATCH (r:Researcher {id: author})
CREATE (r)-[:AUTHORED]->(p)
"""


def _graph(driver: Driver, people: list[tuple[str, str, str]], papers: list[dict], limits: PairLimits) -> None:
    driver.execute_query("MATCH (n) DETACH DELETE n")
    driver.execute_query(HUB_GRAPH, people=people, papers=papers)
    recompute(driver, "neo4j", papers={p["id"] for p in papers}, researchers={p[0] for p in people}, limits=limits)


def _hub_graph(driver: Driver) -> None:
    """'Wei Zhang' (r-hub: 60 co-authors c00..c59, one paper each in 2000..2059) and two newer 'W. Zhang's:
    r-new (papers with c00, c01, x1, x2 in 2030..2033, and one with the hub in 2031) and r-late (papers
    with x3 in 2058 and 2070), with the ties and links the online loader derives from them."""
    people = [("r-hub", "Wei Zhang", "zhang w"), ("r-new", "W. Zhang", "zhang w"), ("r-late", "W. Zhang", "zhang w")]
    people += [(c, f"Co {c}", f"co {c}") for c in [f"c{n:02d}" for n in range(60)] + ["x1", "x2", "x3"]]
    papers = [{"id": f"p-hub-{n}", "year": 2000 + n, "authors": ["r-hub", f"c{n:02d}"]} for n in range(60)]
    papers += [
        {"id": f"p-new-{c}", "year": year, "authors": ["r-new", c]}
        for c, year in (("c00", 2030), ("c01", 2031), ("x1", 2032), ("x2", 2033))
    ]
    papers += [{"id": "p-together", "year": 2031, "authors": ["r-hub", "r-new"]}]
    papers += [{"id": f"p-late-{year}", "year": year, "authors": ["r-late", "x3"]} for year in (2058, 2070)]
    _graph(driver, people, papers, PairLimits())


def test_a_prolific_group_mates_evidence_is_the_same_from_either_end(driver: Driver) -> None:
    _hub_graph(driver)
    from_hub, from_new, from_late = (_evidence(driver, rid) for rid in ("r-hub", "r-new", "r-late"))

    # c00 and c01 shared; both active 2030..2033; one paper together
    assert from_hub["r-new"] == [
        "same name key: zhang w",
        "shared co-authors: 2",
        "overlapping years: 4",
        "listed together on 1 paper(s)",
    ]
    assert from_new["r-hub"] == from_hub["r-new"]
    # r-late's span (2058..2070) outruns the hub's (2000..2059): 2058..2059 shared
    assert from_hub["r-late"] == from_late["r-hub"] == ["same name key: zhang w", "overlapping years: 2"]
    assert from_new["r-late"] == from_late["r-new"] == ["same name key: zhang w"]


def test_papers_above_the_pair_limit_count_as_papers_together(driver: Driver) -> None:
    """p1's three authors make no tie under a limit of two; r1 and r2 are still listed together on it and
    on p2 (a tie); x, r2's co-author on p3, is not r1's; 2001..2005 lies within r2's 2001..2010."""
    people = [("r1", "Ada Lovelace", "lovelace a"), ("r2", "A. Lovelace", "lovelace a")]
    people += [("x", "C. Babbage", "babbage c")]
    papers = [
        {"id": "p1", "year": 2001, "authors": ["r1", "r2", "x"]},
        {"id": "p2", "year": 2005, "authors": ["r1", "r2"]},
        {"id": "p3", "year": 2010, "authors": ["r2", "x"]},
    ]
    _graph(driver, people, papers, PairLimits(max_authors=2))

    assert _evidence(driver, "r1") == {
        "r2": ["same name key: lovelace a", "overlapping years: 5", "listed together on 2 paper(s)"]
    }


def test_shared_coauthors_are_looked_up_by_pair_key_not_walked_from_the_prolific_end(driver: Driver) -> None:
    _hub_graph(driver)
    plan = _profiled(driver, read_researchers.RESEARCHER_SAME_NAME, ids=["r-hub"])
    seeks = [op for op in plan if op.startswith("DirectedRelationshipUniqueIndexSeek ")]
    assert seeks and all("COAUTHORED_WITH(pair)" in op for op in seeks), plan
    assert [op for op in plan if "COAUTHORED_WITH" in op and op.startswith("Expand(Into)")] == [], plan
