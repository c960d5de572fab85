"""TOP_TIE, the network backbone (graph/MODEL.md "Network backbone"), kept by the online loader and the
migration on real OpenAlex records, against the real server: after loads in parts (new papers weighed
against each researcher's heaviest ties), an update that takes an author off a paper (ties lose weight:
read whole), and a changed `network_top_ties` (the migration), every researcher's TOP_TIE edges equal its
heaviest co-authors computed here from the stored COAUTHORED_WITH ties.

A small limit (3) makes hundreds of the page's researchers hubs.
"""

from __future__ import annotations

import copy
import json
from collections import defaultdict
from pathlib import Path

from neo4j import Driver

from tests.conftest import shared_path
from weft.graph.migrate import migrate, reset
from weft.loaders.derived import PairLimits
from weft.loaders.run import load_paths

PAGE = ("openalex", "works", "openalexPro_query_page_1.json")  # 200 works
TOP = 3


def _works_file(path: Path, works: list[dict]) -> Path:
    path.write_text(json.dumps({"meta": {}, "results": works, "group_by": []}), encoding="utf-8")
    return path


def heaviest(driver: Driver, k: int) -> dict[tuple[str, str], tuple[int, int | None, int | None]]:
    """{(researcher, co-author): (weight, first_year, last_year)} for each researcher with more than `k`
    co-authors and its `k` heaviest (weight descending, then id), from the stored ties."""
    records, _, _ = driver.execute_query(
        "MATCH (a:Researcher)-[r:COAUTHORED_WITH]->(b:Researcher) "
        "RETURN a.id AS a, b.id AS b, r.weight AS w, r.first_year AS f, r.last_year AS l"
    )
    ends: dict[str, list[tuple[int, str, int | None, int | None]]] = defaultdict(list)
    for r in records:
        ends[r["a"]].append((-r["w"], r["b"], r["f"], r["l"]))
        ends[r["b"]].append((-r["w"], r["a"], r["f"], r["l"]))
    return {
        (rid, other): (-w, first, last)
        for rid, ties in ends.items()
        if len(ties) > k
        for w, other, first, last in sorted(ties)[:k]
    }


def stored(driver: Driver) -> dict[tuple[str, str], tuple[int, int | None, int | None]]:
    records, _, _ = driver.execute_query(
        "MATCH (a:Researcher)-[t:TOP_TIE]->(b:Researcher) "
        "RETURN a.id AS a, b.id AS b, t.weight AS w, t.first_year AS f, t.last_year AS l"
    )
    return {(r["a"], r["b"]): (r["w"], r["f"], r["l"]) for r in records}


def test_loads_in_parts_an_update_and_a_new_limit_keep_the_heaviest_ties(driver: Driver, tmp_path: Path) -> None:
    works = json.loads(shared_path(*PAGE).read_text(encoding="utf-8"))["results"]
    limits = PairLimits(top_ties=TOP)
    reset(driver, "neo4j")
    for part in range(3):  # later parts add papers to researchers who are hubs already
        chosen = works[part::3]
        load_paths(driver, [_works_file(tmp_path / f"part{part}.json", chosen)], source="openalex", limits=limits)
        want = heaviest(driver, TOP)
        assert stored(driver) == want
    assert len({a for a, _ in want}) > 100  # hundreds of hubs were kept

    # The paper whose authors hold the most TOP_TIE edges among them, loaded again twice as new papers:
    # those edges take their ties' new weights in place, and other co-authors may overtake a hub's lightest.
    records, _, _ = driver.execute_query(
        "MATCH (a:Researcher)-[:TOP_TIE]->(b:Researcher), (a)-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(b) "
        "WHERE COUNT { (p)<-[:AUTHORED]-() } <= 20 "
        "RETURN p.openalex_id AS id, count(*) AS edges ORDER BY edges DESC, id LIMIT 1"
    )
    source = next(w for w in works if w["id"].endswith("/" + records[0]["id"]))
    copies = [
        copy.deepcopy(source) | {"id": f"https://openalex.org/W99999999{n}", "doi": None, "ids": {}} for n in (1, 2)
    ]
    before = want
    load_paths(driver, [_works_file(tmp_path / "again.json", copies)], source="openalex", limits=limits)
    want = heaviest(driver, TOP)
    assert stored(driver) == want
    raised = [key for key in want.keys() & before.keys() if want[key][0] == before[key][0] + 2]
    assert len(raised) >= records[0]["edges"]

    # An author taken off a paper: its pairs lose weight, so the ties of its authors are read whole.
    target = max(works, key=lambda w: len(w["authorships"]) if len(w["authorships"]) <= 20 else 0)
    cut = copy.deepcopy(target)
    cut["authorships"] = cut["authorships"][1:]
    cut["updated_date"] = "2099-01-01T00:00:00.000000"
    before = want
    load_paths(driver, [_works_file(tmp_path / "cut.json", [cut])], source="openalex", limits=limits)
    want = heaviest(driver, TOP)
    assert stored(driver) == want and want != before

    # Another limit: the migration gives every researcher the right number (and marks the graph changed, so
    # servers drop the networks they keep), and then has nothing to do.
    lines: list[str] = []
    version = _data_version(driver)
    migrate(driver, "neo4j", echo=lines.append, top_ties=TOP + 2)
    assert stored(driver) == heaviest(driver, TOP + 2)
    assert _data_version(driver) == version + 1
    assert any(line.startswith("heaviest ties") and " 0 researchers" not in line for line in lines), lines
    lines.clear()
    migrate(driver, "neo4j", echo=lines.append, top_ties=TOP + 2)
    assert any(line.startswith("heaviest ties (TOP_TIE): 0 researchers") for line in lines), lines
    assert _data_version(driver) == version + 1

    # A load with the first limit again, of one work: the graph says its ties were made for TOP + 2, so
    # the load's migration checks them all (it skips a graph marked with its own limit).
    load_paths(driver, [_works_file(tmp_path / "cut.json", [cut])], source="openalex", limits=limits)
    assert stored(driver) == heaviest(driver, TOP)


def _data_version(driver: Driver) -> int:
    return driver.execute_query("MATCH (m:Meta {key: 'graph'}) RETURN m.data_version AS v").records[0]["v"]
