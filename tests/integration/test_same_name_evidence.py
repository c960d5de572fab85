"""Same-name evidence as the online loader derives it on the real server: overlap needs both researchers' years."""

from __future__ import annotations

from neo4j import Driver

from weft.loaders.derived import recompute

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
