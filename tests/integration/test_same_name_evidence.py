"""Same-name evidence as the online loader derives it on the real server: overlap needs both researchers' years;
what a prolific group-mate shares with a newcomer is counted from the newcomer's end, without reading its ties
or papers, and comes out as if both had been read."""

from __future__ import annotations

from neo4j import Driver

from tests.integration.test_coauthor_pairs import _profiled
from weft.loaders.derived import counted_by_key, recompute
from weft.queries import derive

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


def _evidence(driver: Driver, a: str, b: str) -> dict:
    records, _, _ = driver.execute_query(
        "MATCH (:Researcher {id: $a})-[s:SAME_NAME_AS]->(:Researcher {id: $b}) RETURN properties(s) AS s",
        a=a,
        b=b,
    )
    return records[0]["s"]


def test_overlapping_years_count_only_years_both_were_active(driver: Driver) -> None:
    driver.execute_query(GRAPH)
    recompute(driver, "neo4j", papers=set(), researchers={"r-undated", "r-dated", "r-later"})

    undated = _evidence(driver, "r-dated", "r-undated")
    assert undated["overlapping_years"] == 0
    assert not any(e.startswith("overlapping years") for e in undated["evidence"])

    dated = _evidence(driver, "r-dated", "r-later")
    assert dated["overlapping_years"] == len(range(2018, 2020 + 1))
    assert "overlapping years: 3" in dated["evidence"]


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
    driver.execute_query("MATCH (n) DETACH DELETE n")
    driver.execute_query(HUB_GRAPH, people=people, papers=papers)
    recompute(driver, "neo4j", papers={p["id"] for p in papers}, researchers={p[0] for p in people})


def test_a_prolific_group_mate_is_compared_from_the_newcomers_side(driver: Driver) -> None:
    _hub_graph(driver)
    ties = {
        r["id"]: r["ties"]
        for r in driver.execute_query(
            "MATCH (r:Researcher {name_key: 'zhang w'}) RETURN r.id AS id, COUNT { (r)-[:COAUTHORED_WITH]-() } AS ties"
        ).records
    }
    pairs = [{"a": "r-hub", "b": "r-late"}, {"a": "r-hub", "b": "r-new"}, {"a": "r-late", "b": "r-new"}]
    assert counted_by_key(pairs, ties) == {"r-hub"}  # 61 ties against 5 + 1: its ties and papers are not read

    recompute(driver, "neo4j", papers=set(), researchers={"r-new", "r-late"})

    # c00 and c01 shared; both active 2030..2033; one paper together
    assert _evidence(driver, "r-hub", "r-new")["evidence"] == [
        "same name key: zhang w",
        "shared co-authors: 2",
        "overlapping years: 4",
        "listed together on 1 paper(s)",
    ]
    # r-late's span (2058..2070) outruns the hub's (2000..2059): the hub's last year is read, 2058..2059 shared
    late = _evidence(driver, "r-hub", "r-late")
    assert late["evidence"] == ["same name key: zhang w", "overlapping years: 2"]
    assert (late["shared_coauthors"], late["overlapping_years"]) == (0, 2)
    assert _evidence(driver, "r-late", "r-new")["evidence"] == ["same name key: zhang w"]


def test_a_prolific_group_mates_pair_is_counted_by_index_seeks(driver: Driver) -> None:
    _hub_graph(driver)
    keys = ["c00 r-hub", "c01 r-hub", "r-hub x1", "r-hub x2"]  # r-new's co-authors paired with the hub
    papers = ["p-new-c00", "p-new-c01", "p-new-x1", "p-new-x2", "p-together"]  # r-new's
    rows = [{"a": "r-hub", "b": "r-new", "hub": "r-hub", "keys": keys, "papers": papers, "first": 2030, "last": 2033}]
    plan = _profiled(driver, derive.SAME_NAME_HUB_PAIRS, rows=rows)
    seeks = [op for op in plan if op.startswith("DirectedRelationshipUniqueIndexSeek ")]
    assert seeks and all("COAUTHORED_WITH(pair)" in op for op in seeks), plan
    assert [op for op in plan if "COAUTHORED_WITH" in op and op.startswith(("Expand", "OptionalExpand"))] == []
    [row] = driver.execute_query(derive.SAME_NAME_HUB_PAIRS, rows=rows).records
    assert (row["coauthors"], row["papers"], row["first_year"], row["last_year"]) == (2, 1, 2030, 2033)
