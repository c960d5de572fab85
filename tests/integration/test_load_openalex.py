"""The OpenAlex loader against the real server, checked against counts computed here from the raw JSON."""

from __future__ import annotations

import gzip
import itertools
import json
from pathlib import Path

import pytest
from neo4j import Driver

from tests.conftest import shared_path
from weft.graph.errors import InvalidInput
from weft.graph.identity.ids import normalize_openalex
from weft.graph.migrate import counts
from weft.loaders.run import load_paths

pytestmark = pytest.mark.writes_shared_load  # analytics, loads: the next module loads afresh

BUTCHER, RITSOS = "A5032473237", "A5065371627"


def _short(url: str) -> str:
    return url.rsplit("/", 1)[-1]


def _entities(folder: str) -> list[tuple[Path, dict]]:
    """(file, entity) for every entity in every file under openalex/<folder>, all versions."""
    found = []
    for path in sorted(shared_path("openalex", folder).rglob("*.json")):
        doc = json.loads(path.read_text())
        if isinstance(doc, dict) and "results" in doc:
            found += [(path, e) for e in doc["results"]]
        elif isinstance(doc, list):
            found += [(path, e) for e in doc]
        else:
            found.append((path, doc))
    return found


@pytest.fixture(scope="module")
def raw() -> dict:
    """What the raw files say: newest version of every work, all author and institution records."""
    works: dict[str, dict] = {}
    versions: dict[str, set[str]] = {}
    for _, w in _entities("works"):
        wid = _short(w["id"])
        versions.setdefault(wid, set()).add(w["updated_date"])
        if wid not in works or w["updated_date"] > works[wid]["updated_date"]:
            works[wid] = w
    return {
        "works": works,
        "versions": versions,
        "authors": [a for _, a in _entities("authors")],
        "institutions": [i for _, i in _entities("institutions")],
    }


def _authors(work: dict) -> list[str]:
    return [_short(a["author"]["id"]) for a in work["authorships"]]


def _one(driver: Driver, query: str, **params):
    records, _, _ = driver.execute_query(query, params, routing_="r")
    return records[0][0] if records else None


def test_node_and_edge_counts_match_the_raw_json(openalex_graph: Driver, raw: dict) -> None:
    works = raw["works"]
    author_ids = {a for w in works.values() for a in _authors(w)} | {_short(a["id"]) for a in raw["authors"]}
    authored = {(wid, a) for wid, w in works.items() for a in _authors(w)}
    pairs = set()
    for w in works.values():
        pairs |= set(itertools.combinations(sorted(set(_authors(w))), 2))
    cites = {
        (wid, _short(r))
        for wid, w in works.items()
        for r in w["referenced_works"]
        if _short(r) in works and _short(r) != wid
    }  # a work listing itself is no citation
    inst_ids = {_short(i["id"]) for w in works.values() for a in w["authorships"] for i in a["institutions"]}
    inst_ids |= {_short(x["institution"]["id"]) for a in raw["authors"] for x in a.get("affiliations") or []}
    inst_ids |= {_short(i["id"]) for i in raw["institutions"]}
    inst_ids |= {
        _short(p["id"])
        for i in raw["institutions"]
        for p in i["associated_institutions"]
        if p["relationship"] == "parent"
    }
    found = counts(openalex_graph, "neo4j")
    assert found["Paper"] == len(works) == 725
    assert found["Researcher"] == len(author_ids)
    assert found["AUTHORED"] == len(authored)
    assert found["COAUTHORED_WITH"] == len(pairs)
    assert found["CITES"] == len(cites)
    assert found["Institution"] == len(inst_ids)
    assert _one(openalex_graph, "MATCH (n:Researcher) WHERE n.openalex_id IS NULL RETURN count(n)") == 0


def test_coauthor_weight_and_one_edge_per_pair(openalex_graph: Driver, raw: dict) -> None:
    shared = sum(1 for w in raw["works"].values() if {BUTCHER, RITSOS} <= set(_authors(w)))
    years = [w["publication_year"] for w in raw["works"].values() if {BUTCHER, RITSOS} <= set(_authors(w))]
    records, _, _ = openalex_graph.execute_query(
        "MATCH (a:Researcher {openalex_id: $a})-[c:COAUTHORED_WITH]-(b:Researcher {openalex_id: $b}) "
        "RETURN c.weight AS w, c.first_year AS f, c.last_year AS l, startNode(c).id < endNode(c).id AS ordered",
        a=BUTCHER,
        b=RITSOS,
    )
    assert len(records) == 1
    assert records[0]["w"] == shared == 15
    assert (records[0]["f"], records[0]["l"]) == (min(years), max(years))
    assert records[0]["ordered"] is True
    assert _one(openalex_graph, "MATCH (a)-[:COAUTHORED_WITH]->(b)-[:COAUTHORED_WITH]->(a) RETURN count(*)") == 0
    assert (
        _one(openalex_graph, "MATCH ()-[c:COAUTHORED_WITH]->() WHERE startNode(c).id >= endNode(c).id RETURN count(c)")
        == 0
    )


def test_newest_updated_date_wins(openalex_graph: Driver, raw: dict) -> None:
    repeated = {wid for wid, dates in raw["versions"].items() if len(dates) > 1}
    assert "W2741809807" in repeated
    records, _, _ = openalex_graph.execute_query(
        "MATCH (p:Paper) WHERE p.openalex_id IN $ids RETURN p.openalex_id AS id, p.updated_date AS u, "
        "p.cited_by_count_openalex AS c, p.cited_by_count AS shown",
        ids=sorted(repeated),
        routing_="r",
    )
    assert len(records) == len(repeated)
    for rec in records:
        newest = raw["works"][rec["id"]]
        assert rec["u"] == newest["updated_date"] == max(raw["versions"][rec["id"]])
        assert rec["c"] == rec["shown"] == newest["cited_by_count"]


def test_authorship_positions_ranks_and_institutions(openalex_graph: Driver, raw: dict) -> None:
    work = raw["works"]["W2741809807"]
    records, _, _ = openalex_graph.execute_query(
        "MATCH (r:Researcher)-[a:AUTHORED]->(:Paper {openalex_id: 'W2741809807'}) "
        "RETURN r.openalex_id AS id, a.rank AS rank, a.position AS pos, a.raw_name AS raw, "
        "[i IN a.institution_ids | COLLECT { MATCH (x:Institution {id: i}) RETURN x.openalex_id }[0]] AS insts "
        "ORDER BY rank",
        routing_="r",
    )
    expected = [
        (
            _short(a["author"]["id"]),
            i,
            a["author_position"],
            a["raw_author_name"],
            [_short(x["id"]) for x in a["institutions"]],
        )
        for i, a in enumerate(work["authorships"])
    ]
    assert [(r["id"], r["rank"], r["pos"], r["raw"], r["insts"]) for r in records] == expected


def test_papers_state_the_institutions_of_their_authorships(openalex_graph: Driver, raw: dict) -> None:
    """STATES_AFFILIATION: each work to every institution one of its authorships names, with how many of
    its authors name it, as the raw JSON's newest version of the work says."""
    expected: set[tuple[str, str, int]] = set()
    for wid, work in raw["works"].items():
        stating: dict[str, set[str]] = {}
        for rank, a in enumerate(work["authorships"]):
            author = _short(a["author"]["id"]) if a["author"].get("id") else f"slot {rank}"
            for institution in a.get("institutions") or []:
                if institution.get("id"):
                    stating.setdefault(_short(institution["id"]), set()).add(author)
        expected |= {(wid, iid, len(authors)) for iid, authors in stating.items()}
    records, _, _ = openalex_graph.execute_query(
        "MATCH (p:Paper)-[s:STATES_AFFILIATION]->(i:Institution) "
        "RETURN p.openalex_id AS w, i.openalex_id AS i, s.authors AS n",
        routing_="r",
    )
    assert {(r["w"], r["i"], r["n"]) for r in records} == expected
    assert any(n > 1 for _, _, n in expected)  # some papers have several authors at one institution


def test_null_titles_and_abstracts_load(openalex_graph: Driver, raw: dict) -> None:
    untitled = sorted(wid for wid, w in raw["works"].items() if not w.get("display_name"))
    assert len(untitled) == 3
    assert _one(openalex_graph, "MATCH (p:Paper) WHERE p.title IS NULL RETURN collect(p.openalex_id)") == untitled
    with_abstract = sum(1 for w in raw["works"].values() if w.get("abstract_inverted_index"))
    assert _one(openalex_graph, "MATCH (p:Paper) WHERE p.abstract IS NOT NULL RETURN count(p)") == with_abstract


def test_institution_hierarchy_and_affiliations(openalex_graph: Driver, raw: dict) -> None:
    parents = {
        (_short(i["id"]), _short(p["id"]))
        for i in raw["institutions"]
        for p in i["associated_institutions"]
        if p["relationship"] == "parent" and _short(i["id"]) != _short(p["id"])
    }
    records, _, _ = openalex_graph.execute_query(
        "MATCH (c:Institution)-[:PART_OF]->(p:Institution) RETURN c.openalex_id AS c, p.openalex_id AS p", routing_="r"
    )
    assert {(r["c"], r["p"]) for r in records} == parents
    butcher = next(a for a in raw["authors"] if _short(a["id"]) == BUTCHER)
    bangor = next(x for x in butcher["affiliations"] if _short(x["institution"]["id"]) == "I161548249")
    papers_there = [
        w
        for w in raw["works"].values()
        for a in w["authorships"]
        if _short(a["author"]["id"]) == BUTCHER and any(_short(i["id"]) == "I161548249" for i in a["institutions"])
    ]
    years = bangor["years"] + [w["publication_year"] for w in papers_there]
    rec = openalex_graph.execute_query(
        "MATCH (:Researcher {openalex_id: $a})-[r:AFFILIATED_WITH]->(:Institution {openalex_id: 'I161548249'}) "
        "RETURN r.first_year AS f, r.last_year AS l, r.papers AS n",
        a=BUTCHER,
        routing_="r",
    ).records[0]
    assert (rec["f"], rec["l"], rec["n"]) == (min(years), max(years), len(papers_there))


def _snapshot(driver: Driver) -> tuple:
    """Counts, co-author weights and every node's properties except load times."""
    weights, _, _ = driver.execute_query(
        "MATCH (a)-[c:COAUTHORED_WITH]->(b) RETURN a.id + '>' + b.id AS k, c.weight AS w, c.first_year AS f, "
        "c.last_year AS l ORDER BY k",
        routing_="r",
    )
    nodes, _, _ = driver.execute_query(
        "MATCH (n) WHERE NOT n:Meta RETURN n.id AS id, labels(n)[0] AS label, "
        "properties(n) AS p ORDER BY label, id, n.key",
        routing_="r",
    )
    strip = [(r["label"], {k: v for k, v in r["p"].items() if not k.endswith("_loaded_at")}) for r in nodes]
    edges, _, _ = driver.execute_query(
        "MATCH (a)-[r]->(b) RETURN type(r) AS t, coalesce(a.id, a.key) AS a, coalesce(b.id, b.key) AS b, "
        "properties(r) AS p ORDER BY t, a, b",
        routing_="r",
    )
    return (
        counts(driver, "neo4j"),
        [tuple(r.values()) for r in weights],
        strip,
        [(r["t"], r["a"], r["b"], sorted(r["p"].items())) for r in edges],
    )


def test_reload_is_idempotent(openalex_graph: Driver) -> None:
    before = _snapshot(openalex_graph)
    version = _one(openalex_graph, "MATCH (m:Meta {key: 'graph'}) RETURN m.data_version")
    summary = load_paths(openalex_graph, [shared_path("openalex")], source="openalex")
    after = _snapshot(openalex_graph)
    assert after[0] == before[0]
    assert after[1] == before[1]
    assert after[2] == before[2]
    assert after[3] == before[3]
    assert summary.rejected == 0 and summary.warnings == []
    assert summary.merged == summary.read  # every record named an entity already there
    # every write transaction moved it (readers' caches see each commit)
    assert _one(openalex_graph, "MATCH (m:Meta {key: 'graph'}) RETURN m.data_version") > version


def test_bad_lines_are_reported_and_skipped(openalex_graph: Driver, raw: dict, tmp_path: Path) -> None:
    good = raw["works"]["W2741809807"]
    no_id = {k: v for k, v in good.items() if k != "id"}
    no_id["ids"] = {}
    lines = [
        json.dumps(good),
        '{"id": "https://openalex.org/W1", "title": ',
        json.dumps(no_id),
        json.dumps("just a string"),
        json.dumps(
            {**good, "id": "https://openalex.org/W99999999999", "doi": None, "ids": {}, "authorships": "not a list"}
        ),
    ]
    path = tmp_path / "mixed.jsonl.gz"
    with gzip.open(path, "wt") as fh:
        fh.write("\n".join(lines) + "\n")
    rejects = tmp_path / "rejects.jsonl"
    before = counts(openalex_graph, "neo4j")
    summary = load_paths(openalex_graph, [path], source="openalex", rejects_path=rejects)
    assert (summary.read, summary.written, summary.rejected) == (5, 1, 4)
    where = [(r["file"], r["where"]) for r in summary.rejects]
    assert where == [(str(path), f"line {n}") for n in (2, 3, 4, 5)]
    assert "authorships" in summary.rejects[3]["reason"]
    assert [json.loads(x)["where"] for x in rejects.read_text().splitlines()] == [
        "line 2",
        "line 3",
        "line 4",
        "line 5",
    ]
    assert counts(openalex_graph, "neo4j") == before


def test_unknown_file_is_refused_before_writing(openalex_graph: Driver, tmp_path: Path) -> None:
    """A readable JSON file of no known source refuses the load (a wrong command, not bad data); an
    unreadable one is only reported (tests/integration/test_bad_input.py)."""
    (tmp_path / "notes.dat").write_text(json.dumps({"DOI": "10.1/x", "title": ["A"], "author": []}))
    work = tmp_path / "W1.json"
    work.write_text(json.dumps({"id": "https://openalex.org/W424242", "authorships": [], "referenced_works": []}))
    version = _one(openalex_graph, "MATCH (m:Meta {key: 'graph'}) RETURN m.data_version")
    with pytest.raises(InvalidInput, match="notes.dat"):
        load_paths(openalex_graph, [tmp_path], source="openalex")
    assert _one(openalex_graph, "MATCH (p:Paper {openalex_id: 'W424242'}) RETURN count(p)") == 0
    assert _one(openalex_graph, "MATCH (m:Meta {key: 'graph'}) RETURN m.data_version") == version
    assert normalize_openalex("https://openalex.org/W424242") == "W424242"
