"""One graph from OpenAlex, Semantic Scholar and arXiv: shared papers merge, load order does not matter.

The shared files overlap in one paper only (computed below from the raw JSON): LLaMA, arXiv
2302.13971, OpenAlex W4322718191 and S2 57e849d0…. The 200 arXiv snapshot records (0704.*) appear in
no other file, so the arXiv side of LLaMA is an arXiv snapshot line written by the test from the real
S2 record's id, title, abstract, date and author names (marked `derived` where used).
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from neo4j import Driver

from tests.conftest import shared_path
from tests.integration.test_load_arxiv import graph_state
from weft.graph.identity.ids import internal_id
from weft.graph.migrate import counts, reset
from weft.graph.settings import Settings
from weft.loaders.run import load_paths

LLAMA_ARXIV = "2302.13971"
LLAMA_OPENALEX = "W4322718191"
OPENALEX_FILE = ("openalex", "works", "pages2", "academic_explorer_works_from_2023-01-01.json")
ARXIV_FILE = ("arxiv", "arxiv-metadata-oai-snapshot.head200.jsonl")


def _json(*parts: str):
    return json.loads(shared_path(*parts).read_text(encoding="utf-8"))


def _entities(value) -> list[dict]:
    if isinstance(value, dict) and "results" in value:
        return value["results"]
    return value if isinstance(value, list) else [value]


def raw_keys_openalex() -> dict[str, set[str]]:
    """Every hard key of every OpenAlex work, from the raw JSON (`doi:`, `arxiv:`, `mag:`, `pmid:`)."""
    out: dict[str, set[str]] = {}
    for path in sorted(shared_path("openalex", "works").rglob("*.json")):
        for work in _entities(json.loads(path.read_text(encoding="utf-8"))):
            keys = {f"openalex:{work['id'].rsplit('/', 1)[-1]}"}
            doi = (work.get("doi") or "").lower().removeprefix("https://doi.org/")
            if doi.startswith("10.48550/arxiv."):
                keys.add("arxiv:" + doi.removeprefix("10.48550/arxiv."))
            elif doi:
                keys.add(f"doi:{doi}")
            ids = work.get("ids") or {}
            if ids.get("mag"):
                keys.add(f"mag:{int(ids['mag'])}")
            if ids.get("pmid"):
                keys.add("pmid:" + re.findall(r"\d+", ids["pmid"])[-1])
            out.setdefault(work["id"], set()).update(keys)
    return out


def raw_keys_s2_graph_api() -> dict[str, set[str]]:
    paper, author = (
        _json("semanticscholar", "graph_api", "Paper.json"),
        _json("semanticscholar", "graph_api", "Author.json"),
    )
    out: dict[str, set[str]] = {}
    for p in [paper, *paper["citations"], *paper["references"], *author["papers"]]:
        if not p["paperId"]:
            continue
        ext = p.get("externalIds") or {}
        keys = {f"s2:{p['paperId']}", f"corpus:{p['corpusId']}"}
        doi = (ext.get("DOI") or "").lower()
        if doi.startswith("10.48550/arxiv."):
            keys.add("arxiv:" + doi.removeprefix("10.48550/arxiv."))
        elif doi:
            keys.add(f"doi:{doi}")
        for name, scheme in (("ArXiv", "arxiv"), ("MAG", "mag"), ("PubMed", "pmid")):
            if ext.get(name):
                keys.add(f"{scheme}:{ext[name]}")
        out.setdefault(p["paperId"], set()).update(keys)
    return out


def raw_keys_s2_datasets() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    (path,) = shared_path("semanticscholar", "datasets_sample", "papers").glob("*.gz")
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            p = json.loads(line)
            ext = p["externalids"]
            keys = {f"corpus:{p['corpusid']}", "s2:" + p["url"].rsplit("/", 1)[-1]}
            keys |= {
                f"{s}:{ext[n].lower() if n == 'DOI' else ext[n]}"
                for n, s in (("DOI", "doi"), ("ArXiv", "arxiv"), ("MAG", "mag"), ("PubMed", "pmid"))
                if ext.get(n)
            }
            out.setdefault(str(p["corpusid"]), set()).update(keys)
    return out


def raw_keys_arxiv() -> dict[str, set[str]]:
    out = {}
    for line in shared_path(*ARXIV_FILE).read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        out[r["id"]] = {f"arxiv:{r['id']}"} | ({f"doi:{r['doi'].split()[0].lower()}"} if r["doi"] else set())
    return out


def overlapping(a: dict[str, set[str]], b: dict[str, set[str]]) -> set[str]:
    keys_b = set().union(*b.values())
    return {k for keys in a.values() for k in keys if k in keys_b}


def test_the_shared_files_overlap_in_llama_only() -> None:
    oa, s2, ax = raw_keys_openalex(), raw_keys_s2_graph_api(), raw_keys_arxiv()
    datasets = raw_keys_s2_datasets()
    assert overlapping(oa, s2) == {f"arxiv:{LLAMA_ARXIV}"}
    assert overlapping(ax, oa) == overlapping(ax, s2) == set()
    assert overlapping(datasets, oa) == overlapping(datasets, s2) == overlapping(datasets, ax) == set()


def llama_s2() -> dict:
    paper = _json("semanticscholar", "graph_api", "Paper.json")
    return next(p for p in paper["citations"] if (p.get("externalIds") or {}).get("ArXiv") == LLAMA_ARXIV)


def derived_llama_arxiv_line() -> dict:
    """LLaMA as an arXiv snapshot line (derived from the real S2 record: id, title, abstract, names)."""
    s2 = llama_s2()
    names = [a["name"] for a in s2["authors"]]
    return {
        "id": LLAMA_ARXIV,
        "submitter": names[0],
        "authors": ", ".join(names[:-1]) + " and " + names[-1],
        "title": s2["title"],
        "comments": None,
        "journal-ref": None,
        "doi": None,
        "report-no": None,
        "categories": "cs.CL",
        "license": None,
        "abstract": s2["abstract"],
        "versions": [{"version": "v1", "created": "Mon, 27 Feb 2023 17:11:15 GMT"}],
        "update_date": "2023-02-28",
        "authors_parsed": [[n.rsplit(" ", 1)[-1], n.rsplit(" ", 1)[0], ""] for n in names],
    }


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    folder = tmp_path_factory.mktemp("derived")
    line = folder / "llama-arxiv.jsonl"
    line.write_text(json.dumps(derived_llama_arxiv_line()) + "\n", encoding="utf-8")
    return {
        "openalex": [shared_path(*OPENALEX_FILE)],
        "s2": [shared_path("semanticscholar", "graph_api")],
        "arxiv": [shared_path(*ARXIV_FILE), line],
    }


_STATES: dict[tuple[str, ...], object] = {}  # the graph state each order loaded into an empty database gave


def load_in_order(driver: Driver, settings: Settings, sources: dict[str, list[Path]], order: list[str]) -> object:
    """Empty the database and load the sources in `order`; skipped when the database already holds the state
    that order gave (loaded by it, or by another order that gave the same graph). Returns that state."""
    known = _STATES.get(tuple(order))
    if known is not None and graph_state(driver, settings.neo4j_database) == known:
        return known
    reset(driver, settings.neo4j_database)
    for name in order:
        summary = load_paths(driver, sources[name], source=name, database=settings.neo4j_database)
        assert summary.rejected == 0, summary.rejects[:3]
    state = _STATES[tuple(order)] = graph_state(driver, settings.neo4j_database)
    return state


REFERENCE_ORDER = ["arxiv", "openalex", "s2"]


def llama(driver: Driver, settings: Settings) -> dict:
    rows, _, _ = driver.execute_query(
        "MATCH (p:Paper) WHERE p.arxiv_id = $a OR p.openalex_id = $o OR p.s2_id = $s RETURN p",
        a=LLAMA_ARXIV,
        o=LLAMA_OPENALEX,
        s=llama_s2()["paperId"],
        database_=settings.neo4j_database,
    )
    assert len(rows) == 1, "LLaMA must be one node"
    return dict(rows[0]["p"])


def test_arxiv_then_openalex_then_s2_is_one_paper_with_every_id(driver: Driver, settings: Settings, sources) -> None:
    load_in_order(driver, settings, sources, REFERENCE_ORDER)
    p = llama(driver, settings)
    s2 = llama_s2()
    oa = next(w for w in _entities(_json(*OPENALEX_FILE)) if w["id"].endswith(LLAMA_OPENALEX))
    assert (p["arxiv_id"], p["openalex_id"], p["s2_id"], p["corpus_id"]) == (
        LLAMA_ARXIV,
        LLAMA_OPENALEX,
        s2["paperId"],
        str(s2["corpusId"]),
    )
    assert p["id"] == internal_id("Paper", f"arxiv:{LLAMA_ARXIV}")
    assert p["cited_by_count_openalex"] == oa["cited_by_count"]
    assert p["cited_by_count_s2"] == s2["citationCount"]
    assert p["versions"] == ["v1@2023-02-27"]
    assert p["title"] == oa["title"]
    assert p.get("arxiv_loaded_at") and p.get("openalex_loaded_at") and p.get("s2_loaded_at")
    oa_papers = {w["id"] for w in _entities(_json(*OPENALEX_FILE))}
    expected = len(oa_papers) + len(raw_keys_s2_graph_api()) + len(raw_keys_arxiv()) + 1 - 2  # LLaMA thrice, once
    assert counts(driver, settings.neo4j_database)["Paper"] == expected


def test_id_less_arxiv_authors_are_claimed_by_the_paper_author_list(
    driver: Driver, settings: Settings, sources
) -> None:
    """Rule: an arXiv author slot (same paper, same rank, compatible name) is claimed by an id'd author."""
    load_in_order(driver, settings, sources, REFERENCE_ORDER)
    rows, _, _ = driver.execute_query(
        "MATCH (r:Researcher)-[a:AUTHORED]->(:Paper {arxiv_id: $a}) RETURN r.paper_scoped AS scoped, "
        "r.openalex_id AS oa, r.s2_id AS s2, a.rank AS rank",
        a=LLAMA_ARXIV,
        database_=settings.neo4j_database,
    )
    assert not [r for r in rows if r["scoped"]]
    assert len([r for r in rows if r["oa"]]) == len([r for r in rows if r["s2"]]) == 14


def test_same_people_from_openalex_and_s2_are_same_name_candidates(driver: Driver, settings: Settings, sources) -> None:
    load_in_order(driver, settings, sources, REFERENCE_ORDER)
    rows, _, _ = driver.execute_query(
        "MATCH (a:Researcher)-[:AUTHORED]->(:Paper {arxiv_id: $a})<-[:AUTHORED]-(b:Researcher) "
        "WHERE a.openalex_id IS NOT NULL AND b.s2_id IS NOT NULL AND a.name_key = b.name_key "
        "OPTIONAL MATCH (a)-[s:SAME_NAME_AS]-(b) RETURN a.name AS name, s IS NOT NULL AS linked",
        a=LLAMA_ARXIV,
        database_=settings.neo4j_database,
    )
    assert len(rows) == 14 and all(r["linked"] for r in rows)


@pytest.mark.parametrize("order", [["openalex", "s2", "arxiv"], ["s2", "arxiv", "openalex"]])
def test_load_order_does_not_matter(driver: Driver, settings: Settings, sources, order: list[str]) -> None:
    reference = load_in_order(driver, settings, sources, REFERENCE_ORDER)
    assert load_in_order(driver, settings, sources, order) == reference
    if order[0] == "openalex":  # and loading everything again changes nothing
        for name in order:
            load_paths(driver, sources[name], source=name, database=settings.neo4j_database)
        assert graph_state(driver, settings.neo4j_database) == reference
