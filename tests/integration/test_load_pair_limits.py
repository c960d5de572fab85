"""The pair-edge rules (graph/MODEL.md "Pair edges") on real records, against the real server:
a paper above the author limit keeps every AUTHORED edge but makes no co-author pairs, and a
same-name bucket that grows past its limit loses its links, incrementally.

The third "mearman r" person is derived from a real author record (new id and name), marked `derived`. The
"Wei Zhang" works of the renaming test are derived too: copies of a real work with new ids, years and authors.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections import Counter
from pathlib import Path

from neo4j import Driver

from tests.conftest import shared_path
from weft.graph.migrate import reset
from weft.loaders.derived import PairLimits
from weft.loaders.run import load_paths
from weft.queries import read_researchers

MEARMAN_WORKS = ("openalex", "works", "academic_explorer_author_A5017898742_works.json")  # 9 works, 1-11 authors
MAX_AUTHORS = 5


def _rows(driver: Driver, query: str) -> list[dict]:
    records, _, _ = driver.execute_query(query, routing_="r")
    return [r.data() for r in records]


def _short(url: str) -> str:
    return url.rsplit("/", 1)[-1]


def test_a_paper_above_the_limit_has_authored_edges_but_no_pairs(driver: Driver) -> None:
    works = json.loads(shared_path(*MEARMAN_WORKS).read_text(encoding="utf-8"))["results"]
    authors = {_short(w["id"]): sorted({_short(a["author"]["id"]) for a in w["authorships"]}) for w in works}
    big = {wid for wid, team in authors.items() if len(team) > MAX_AUTHORS}
    assert big and len(big) < len(authors)  # the file has papers on both sides of the limit
    weights: Counter[tuple[str, str]] = Counter()
    for wid, team in authors.items():
        if wid not in big:
            weights.update(itertools.combinations(team, 2))

    reset(driver, "neo4j")
    load_paths(driver, [shared_path(*MEARMAN_WORKS)], source="openalex", limits=PairLimits(max_authors=MAX_AUTHORS))

    authored = _rows(driver, "MATCH (p:Paper)<-[:AUTHORED]-(r) RETURN p.openalex_id AS p, count(r) AS n")
    assert {row["p"]: row["n"] for row in authored} == {wid: len(team) for wid, team in authors.items()}
    pairs = _rows(
        driver,
        "MATCH (a:Researcher)-[c:COAUTHORED_WITH]->(b:Researcher) "
        "RETURN a.openalex_id AS a, b.openalex_id AS b, c.weight AS weight",
    )
    assert {tuple(sorted((row["a"], row["b"]))): row["weight"] for row in pairs} == dict(weights)
    # a pair met only on a large paper has no edge at all
    only_big = {pair for wid in big for pair in itertools.combinations(authors[wid], 2) if pair not in weights}
    assert only_big


def _mearman_r(tmp_path: Path) -> Path:
    """derived: a third "mearman r" person, copied from ROBERT C. MEARMAN with a new id and name."""
    authors = json.loads(shared_path("openalex", "authors", "search_mearman.json").read_text(encoding="utf-8"))
    robert = next(a for a in authors["results"] if a["display_name"] == "ROBERT C. MEARMAN")
    third = copy.deepcopy(robert)
    third.update(id="https://openalex.org/A5999999901", display_name="R. Mearman", orcid=None)
    third["ids"] = {"openalex": third["id"]}
    path = tmp_path / "third.json"
    path.write_text(json.dumps(third), encoding="utf-8")
    return path


def _mearman_r_links(driver: Driver) -> set[tuple[str, str]]:
    rows = _rows(
        driver,
        "MATCH (a:Researcher {name_key: 'mearman r'})-[:SAME_NAME_AS]->(b) RETURN a.name AS a, b.name AS b",
    )
    return {tuple(sorted((row["a"], row["b"]))) for row in rows}


def test_a_same_name_bucket_past_its_limit_is_unlinked_and_relinked(driver: Driver, tmp_path: Path) -> None:
    reset(driver, "neo4j")
    mearman = shared_path("openalex", "authors", "search_mearman.json")
    load_paths(driver, [mearman], source="openalex", limits=PairLimits(same_name_bucket=2))
    assert _mearman_r_links(driver) == {("R. C. MEARMAN", "ROBERT C. MEARMAN")}

    third = _mearman_r(tmp_path)
    load_paths(driver, [third], source="openalex", limits=PairLimits(same_name_bucket=2))
    assert _mearman_r_links(driver) == set()  # three people: over the limit, no links left

    load_paths(driver, [third], source="openalex", limits=PairLimits(same_name_bucket=3))
    everyone = {
        ("R. C. MEARMAN", "ROBERT C. MEARMAN"),
        ("R. C. MEARMAN", "R. Mearman"),
        ("R. Mearman", "ROBERT C. MEARMAN"),
    }
    assert _mearman_r_links(driver) == everyone  # the untouched pair is rebuilt too


def _works_file(path: Path, works: list[dict]) -> Path:
    path.write_text(json.dumps({"meta": {}, "results": works, "group_by": []}), encoding="utf-8")
    return path


def _derived(driver: Driver) -> tuple[list, list]:
    """Every derived edge a load recounts (co-authors, same-name, affiliations), with its properties."""
    rows = _rows(
        driver,
        "MATCH (a:Researcher)-[r:COAUTHORED_WITH|SAME_NAME_AS|AFFILIATED_WITH]->(b) "
        "RETURN type(r) AS type, a.id AS a, b.id AS b, properties(r) AS props",
    )
    return sorted(json.dumps(r, sort_keys=True) for r in rows), sorted({r["type"] for r in rows})


def test_loading_in_two_parts_derives_what_one_load_does(driver: Driver, tmp_path: Path) -> None:
    works = json.loads(shared_path(*MEARMAN_WORKS).read_text(encoding="utf-8"))["results"]
    limits = PairLimits(max_authors=MAX_AUTHORS)
    reset(driver, "neo4j")
    load_paths(driver, [shared_path(*MEARMAN_WORKS)], source="openalex", limits=limits)
    at_once, types = _derived(driver)
    assert types == ["AFFILIATED_WITH", "COAUTHORED_WITH", "SAME_NAME_AS"]

    reset(driver, "neo4j")
    for part, chosen in (("even", works[0::2]), ("odd", works[1::2])):  # the second part meets the first's authors
        load_paths(driver, [_works_file(tmp_path / f"{part}.json", chosen)], source="openalex", limits=limits)
    assert _derived(driver)[0] == at_once


def test_a_paper_growing_past_the_limit_and_back_recounts_its_pairs(driver: Driver, tmp_path: Path) -> None:
    works = json.loads(shared_path(*MEARMAN_WORKS).read_text(encoding="utf-8"))["results"]
    small = next(w for w in works if 2 <= len(w["authorships"]) <= MAX_AUTHORS - 1)
    donor = next(w for w in works if len(w["authorships"]) > MAX_AUTHORS)
    grown = copy.deepcopy(small)
    grown["updated_date"] = "2099-01-01T00:00:00.000000"
    have = {a["author"]["id"] for a in small["authorships"]}
    grown["authorships"] += [a for a in donor["authorships"] if a["author"]["id"] not in have][:MAX_AUTHORS]
    shrunk = copy.deepcopy(small)
    shrunk["updated_date"] = "2099-06-01T00:00:00.000000"

    def expected(version: dict) -> dict[tuple[str, str], int]:
        weights: Counter[tuple[str, str]] = Counter()
        for w in [version if w["id"] == small["id"] else w for w in works]:
            team = sorted({_short(a["author"]["id"]) for a in w["authorships"]})
            if len(team) <= MAX_AUTHORS:
                weights.update(itertools.combinations(team, 2))
        return dict(weights)

    def found() -> dict[tuple[str, str], int]:
        rows = _rows(
            driver,
            "MATCH (a:Researcher)-[c:COAUTHORED_WITH]->(b:Researcher) "
            "RETURN a.openalex_id AS a, b.openalex_id AS b, c.weight AS weight",
        )
        return {tuple(sorted((row["a"], row["b"]))): row["weight"] for row in rows}

    limits = PairLimits(max_authors=MAX_AUTHORS)
    reset(driver, "neo4j")
    load_paths(driver, [shared_path(*MEARMAN_WORKS)], source="openalex", limits=limits)
    assert found() == expected(small)
    load_paths(driver, [_works_file(tmp_path / "grown.json", [grown])], source="openalex", limits=limits)
    assert expected(grown) != expected(small)  # the grown paper's own pairs lose a shared paper
    assert found() == expected(grown)
    load_paths(driver, [_works_file(tmp_path / "shrunk.json", [shrunk])], source="openalex", limits=limits)
    assert found() == expected(small)


def _work(template: dict, wid: str, year: int, updated: str, authors: list[tuple[str, str]]) -> dict:
    """A copy of a real work with a new id, year, updated_date and authors ((OpenAlex id, display name))."""
    work = copy.deepcopy(template)
    work.update(id=f"https://openalex.org/{wid}", doi=None, publication_year=year, updated_date=updated)
    work["publication_date"] = f"{year}-01-01"
    work["ids"] = {"openalex": work["id"]}
    work["referenced_works"] = []
    work["authorships"] = [
        {
            "author": {"id": f"https://openalex.org/{aid}", "display_name": name},
            "institutions": [],
            "raw_author_name": name,
        }
        for aid, name in authors
    ]
    return work


def _same_name(driver: Driver, openalex_id: str) -> dict[str, list[str]]:
    """{OpenAlex id: evidence} of the researcher's same-name links, as the API reads them."""
    lookup = "MATCH (r:Researcher {openalex_id: $openalex_id}) RETURN r.id AS id"
    [rid] = [r["id"] for r in driver.execute_query(lookup, openalex_id=openalex_id, routing_="r").records]
    records, _, _ = driver.execute_query(read_researchers.RESEARCHER_SAME_NAME, ids=[rid], routing_="r")
    return {r["researcher"]["openalex_id"]: r["evidence"] for r in records}


def test_a_researcher_renamed_by_a_newer_paper_loses_the_links_its_new_name_breaks(
    driver: Driver, tmp_path: Path
) -> None:
    template = json.loads(shared_path(*MEARMAN_WORKS).read_text(encoding="utf-8"))["results"][0]
    first = [
        _work(
            template,
            "W9000000001",
            2001,
            "2020-01-01T00:00:00",
            [("A9000000001", "Wei Zhang"), ("A9000000003", "Co Author")],
        ),
        _work(
            template,
            "W9000000002",
            2002,
            "2020-01-01T00:00:00",
            [("A9000000002", "Wei Zhang"), ("A9000000003", "Co Author")],
        ),
    ]
    growing = [
        _work(
            template,
            "W9000000003",
            2001,
            "2020-01-01T00:00:00",
            [("A9000000002", "Wei Zhang"), ("A9000000005", "Another Author")],
        )
    ]
    # a newer paper names A9000000001 "Wen Zhang": same name key, no longer compatible with "Wei Zhang"
    renaming = [_work(template, "W9000000004", 2003, "2099-01-01T00:00:00", [("A9000000001", "Wen Zhang")])]
    reset(driver, "neo4j")
    load_paths(driver, [_works_file(tmp_path / "first.json", first)], source="openalex")
    links = "MATCH (a:Researcher)-[s:SAME_NAME_AS]->(b) RETURN a.name AS a, b.name AS b, elementId(s) AS link"
    [link] = _rows(driver, links)
    assert (link["a"], link["b"]) == ("Wei Zhang", "Wei Zhang")
    assert _same_name(driver, "A9000000001") == {"A9000000002": ["same name key: zhang w", "shared co-authors: 1"]}
    # a paper for A9000000002 in 2001 keeps the link as it is (a link holds no count): the evidence read grows
    load_paths(driver, [_works_file(tmp_path / "grown.json", growing)], source="openalex")
    assert _rows(driver, links) == [link]
    assert _same_name(driver, "A9000000001") == {
        "A9000000002": ["same name key: zhang w", "shared co-authors: 1", "overlapping years: 1"]
    }
    load_paths(driver, [_works_file(tmp_path / "renaming.json", renaming)], source="openalex")
    names = _rows(driver, "MATCH (r:Researcher {openalex_id: 'A9000000001'}) RETURN r.name AS name")
    assert names == [{"name": "Wen Zhang"}]
    assert _rows(driver, links) == []  # its links are counted again: a name that changed may leave its group
