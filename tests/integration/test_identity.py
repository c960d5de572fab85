"""One identity per paper, researcher and institution, on real records, against the real server.

Where a step needs a record the shared data does not have (an S2 author stating an ORCID, an S2
paper known only by its S2 ids), it is derived from a real record by dropping or adding one field,
and marked `derived`.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from neo4j import Driver

from tests.conftest import shared_path
from tests.integration.test_load_arxiv import graph_state
from weft.graph.identity.ids import aliases, canonical_keys, internal_id, node_id
from weft.graph.migrate import counts, reset
from weft.loaders import openalex, s2
from weft.loaders.run import load_paths
from weft.loaders.write import GraphWriter
from weft.queries import read_researchers

LLAMA_OPENALEX = "W4322718191"
LLAMA_ARXIV = "2302.13971"
BUTCHER = "A5032473237"


def _entities(*parts: str) -> list[dict]:
    doc = json.loads(shared_path(*parts).read_text(encoding="utf-8"))
    if isinstance(doc, dict) and "results" in doc:
        return doc["results"]
    return doc if isinstance(doc, list) else [doc]


def _llama_openalex() -> dict:
    return next(
        w
        for w in _entities("openalex", "works", "pages2", "academic_explorer_works_from_2023-01-01.json")
        if w["id"].endswith(LLAMA_OPENALEX)
    )


def _llama_s2() -> dict:
    paper = json.loads(shared_path("semanticscholar", "graph_api", "Paper.json").read_text(encoding="utf-8"))
    return next(p for p in paper["citations"] if (p.get("externalIds") or {}).get("ArXiv") == LLAMA_ARXIV)


def _one(driver: Driver, query: str, **params):
    records, _, _ = driver.execute_query(query, params, routing_="r")
    return [r.data() for r in records]


def _write(driver: Driver, *batches) -> None:
    writer = GraphWriter(driver, "neo4j")
    for batch in batches:
        writer.write(list(batch))
    writer.finish()


def test_a_row_linking_two_nodes_merges_them_and_order_does_not_matter(driver: Driver) -> None:
    oa, full = _llama_openalex(), _llama_s2()
    only_s2_ids = copy.deepcopy(full)  # derived: the same S2 paper without its external ids
    only_s2_ids["externalIds"] = {}
    rows_oa, rows_full, rows_stub = openalex.build_rows(oa), s2.build_rows(full), s2.build_rows(only_s2_ids)
    assert rows_stub is not None and rows_full is not None
    union: dict[str, str] = {**rows_oa.nodes[0].keys, **rows_full.nodes[0].keys}

    reset(driver, "neo4j")
    _write(driver, [rows_oa], [rows_stub])
    assert len(_one(driver, "MATCH (p:Paper) RETURN p.id")) == 2
    _write(driver, [rows_full])  # names both: the OpenAlex/arXiv node and the S2-only node
    papers = _one(
        driver,
        "MATCH (p:Paper) RETURN p.id AS id, p.aliases AS aliases, "
        "COUNT { (p)<-[:AUTHORED]-() } AS authors, p.openalex_id AS oa, p.s2_id AS s2",
    )
    assert len(papers) == 1
    paper = papers[0]
    assert paper["id"] == node_id("Paper", union) == internal_id("Paper", canonical_keys("Paper", union)[0])
    assert paper["aliases"] == aliases("Paper", union)
    assert internal_id("Paper", f"s2:{full['paperId']}") in paper["aliases"]  # the old S2 node's id resolves
    assert (paper["oa"], paper["s2"]) == (LLAMA_OPENALEX, full["paperId"])
    assert paper["authors"] == len(oa["authorships"]) + len(full["authors"])  # two sources' people, not merged
    merged = graph_state(driver, "neo4j")

    reset(driver, "neo4j")
    _write(driver, [rows_full], [rows_oa], [rows_stub])  # the same rows, no merge needed on the way
    assert graph_state(driver, "neo4j") == merged
    reset(driver, "neo4j")
    _write(driver, [rows_stub, rows_oa, rows_full])  # all in one batch
    assert graph_state(driver, "neo4j") == merged


def test_an_orcid_joins_an_openalex_and_an_s2_researcher(driver: Driver, tmp_path: Path) -> None:
    author = _entities("openalex", "authors", f"{BUTCHER}.json")[0]
    orcid = author["orcid"].rsplit("/", 1)[-1]
    s2_author = {"authorId": "1741339", "name": "P. Butcher", "externalIds": {"ORCID": orcid}, "papers": []}
    derived = tmp_path / "s2-author.json"  # derived: an S2 author record stating Butcher's ORCID
    derived.write_text(json.dumps(s2_author))
    reset(driver, "neo4j")
    load_paths(driver, [derived], source="s2")
    load_paths(driver, [shared_path("openalex", "authors", f"{BUTCHER}.json")], source="openalex")
    rows = _one(
        driver,
        "MATCH (r:Researcher) WHERE r.orcid IS NOT NULL RETURN r.id AS id, r.openalex_id AS oa, "
        "r.s2_id AS s2, r.aliases AS aliases, r.name AS name, r.h_index_openalex AS h",
    )
    assert len(rows) == 1
    keys = {"orcid": orcid, "openalex_id": BUTCHER, "s2_id": "1741339"}
    assert rows[0]["id"] == internal_id("Researcher", f"orcid:{orcid}")
    assert rows[0]["aliases"] == aliases("Researcher", keys)
    assert (rows[0]["oa"], rows[0]["s2"], rows[0]["h"]) == (BUTCHER, "1741339", author["summary_stats"]["h_index"])
    assert rows[0]["name"] == author["display_name"]  # OpenAlex's full record outranks S2's


def test_two_openalex_wei_zhangs_stay_two_researchers_linked_as_candidates(driver: Driver) -> None:
    files = [shared_path("openalex", "works", f"openalexPro_pipeline_chunk_{n}.json") for n in (1, 2)]
    reset(driver, "neo4j")
    load_paths(driver, files, source="openalex")
    ids = {"A5100609014", "A5100642365"}
    names = {
        a["author"]["id"].rsplit("/", 1)[-1]: a["author"]["display_name"]
        for f in files
        for w in json.loads(f.read_text())["results"]
        for a in w["authorships"]
        if a["author"]["id"].rsplit("/", 1)[-1] in ids
    }
    assert set(names) == ids and set(names.values()) == {"Wei Zhang"}
    rows = _one(
        driver,
        "MATCH (a:Researcher {openalex_id: 'A5100609014'}), (b:Researcher {openalex_id: 'A5100642365'}) "
        "OPTIONAL MATCH (a)-[s:SAME_NAME_AS]-(b) RETURN a.id <> b.id AS two, a.id AS a, b.id AS b, "
        "startNode(s).id < endNode(s).id AS ordered",
    )
    assert [(r["two"], r["ordered"]) for r in rows] == [(True, True)]
    [link] = driver.execute_query(read_researchers.RESEARCHER_SAME_NAME, ids=[rows[0]["a"]]).records
    assert link["researcher"]["id"] == rows[0]["b"] and link["evidence"][0] == "same name key: zhang w"
    # never a merge: no researcher holds two OpenAlex ids, and SAME_NAME_AS joins only same-name people
    assert (
        _one(driver, "MATCH (a)-[:SAME_NAME_AS]-(b) WHERE a.name_key <> b.name_key RETURN count(*) AS n")[0]["n"] == 0
    )


def test_papers_state_the_institution_two_nodes_merge_into(driver: Driver) -> None:
    """Two papers name one institution in two ways (derived: one mention keeps only its OpenAlex id, the
    other only its ROR id), so it starts as two nodes; a record naming both merges them, and both papers
    then state (STATES_AFFILIATION) the one survivor, with their AUTHORED.institution_ids rewritten."""
    works = [w for w in _entities("openalex", "works", "pages2", "academic_explorer_works_page_1.json")]
    stating = [w for w in works if any(i.get("ror") for a in w["authorships"] for i in a["institutions"])][:2]
    institution = next(i for a in stating[0]["authorships"] for i in a["institutions"] if i.get("ror"))
    first, second = copy.deepcopy(stating[0]), copy.deepcopy(stating[1])
    for work in (first, second):  # derived: only this institution, on every authorship
        for a in work["authorships"]:
            a["institutions"] = []
    first["authorships"][0]["institutions"] = [{**institution, "ror": None}]
    second["authorships"][0]["institutions"] = [{**institution, "id": None}]
    both = {**institution, "lineage": [institution["id"]]}  # an institution record names both ids

    reset(driver, "neo4j")
    _write(driver, [openalex.build_rows(first)], [openalex.build_rows(second)])
    assert len(_one(driver, "MATCH (i:Institution) RETURN i.id")) == 2
    _write(driver, [openalex.build_rows(both)])
    (survivor,) = _one(driver, "MATCH (i:Institution) RETURN i.id AS id, i.openalex_id AS oa, i.ror AS ror")
    assert (survivor["oa"], survivor["ror"]) == (
        institution["id"].rsplit("/", 1)[-1],
        institution["ror"].rsplit("/", 1)[-1],
    )
    stated = _one(
        driver,
        "MATCH (p:Paper)-[s:STATES_AFFILIATION]->(i:Institution) RETURN p.openalex_id AS paper, i.id AS i, "
        "s.authors AS authors ORDER BY paper",
    )
    ids = sorted(w["id"].rsplit("/", 1)[-1] for w in (first, second))
    assert stated == [{"paper": pid, "i": survivor["id"], "authors": 1} for pid in ids]
    listed = _one(driver, "MATCH ()-[a:AUTHORED]->() UNWIND a.institution_ids AS i RETURN DISTINCT i")
    assert listed == [{"i": survivor["id"]}]


def test_the_mearman_search_page(driver: Driver) -> None:
    page = _entities("openalex", "authors", "search_mearman.json")
    reset(driver, "neo4j")
    load_paths(driver, [shared_path("openalex", "authors", "search_mearman.json")], source="openalex")
    rows = _one(driver, "MATCH (r:Researcher) RETURN r.name AS name, r.is_person AS person ORDER BY name")
    assert sorted(r["name"] for r in rows) == sorted(a["display_name"] for a in page)
    assert [r["name"] for r in rows if not r["person"]] == ["Downward and Mearman Tony Lawson"]
    links = _one(driver, "MATCH (a)-[s:SAME_NAME_AS]->(b) RETURN a.name AS a, b.name AS b")
    assert [{r["a"], r["b"]} for r in links] == [{"ROBERT C. MEARMAN", "R. C. MEARMAN"}]


def test_junk_author_records_are_flagged_and_never_candidates(driver: Driver) -> None:
    reset(driver, "neo4j")
    load_paths(driver, [shared_path("openalex", "authors", "search_machine_learning.json")], source="openalex")
    junk = _one(driver, "MATCH (r:Researcher) WHERE r.is_person = false RETURN r.name AS name")
    assert {"Machine Learning", "UCI Machine Learning"} <= {r["name"] for r in junk}
    assert _one(driver, "MATCH (r:Researcher {is_person: false})-[s:SAME_NAME_AS]-() RETURN count(s) AS n")[0]["n"] == 0


def test_newer_version_updates_and_older_does_not_overwrite(driver: Driver, tmp_path: Path) -> None:
    versions = sorted(
        (
            w
            for f in ("openalexPro_keypapers.json", "openalexPro_snowball_cited.json")
            for w in _entities("openalex", "works", f)
            if w["id"].endswith("W2741809807")
        ),
        key=lambda w: w["updated_date"],
    )
    versions.append(_entities("openalex", "works", "single", "W2741809807.json")[0])
    assert len({w["updated_date"] for w in versions}) == 3
    paths = []
    for i, w in enumerate(versions):
        paths.append(tmp_path / f"v{i}.json")
        paths[-1].write_text(json.dumps(w))

    def state() -> dict:
        return _one(
            driver, "MATCH (p:Paper {openalex_id: 'W2741809807'}) RETURN p.updated_date AS u, p.cited_by_count AS c"
        )[0]

    reset(driver, "neo4j")
    load_paths(driver, [paths[0]], source="openalex")
    assert state() == {"u": versions[0]["updated_date"], "c": versions[0]["cited_by_count"]}
    load_paths(driver, [paths[2]], source="openalex")
    newest = {"u": versions[2]["updated_date"], "c": versions[2]["cited_by_count"]}
    assert state() == newest
    before = graph_state(driver, "neo4j")
    summary = load_paths(driver, [paths[1], paths[0]], source="openalex")  # older ones arrive late
    assert (summary.written, summary.merged) == (0, 2)
    assert state() == newest
    assert graph_state(driver, "neo4j") == before
    assert counts(driver, "neo4j")["AUTHORED"] == len(versions[2]["authorships"])
