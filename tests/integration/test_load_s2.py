"""Loading the shared Semantic Scholar files into the real server: Graph API and dataset samples."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from neo4j import Driver

from tests.conftest import shared_path
from tests.integration.test_load_arxiv import graph_state
from weft.graph.migrate import counts, reset
from weft.graph.settings import Settings
from weft.loaders.run import load_paths
from weft.queries import read_researchers


def graph_api(name: str) -> Path:
    return shared_path("semanticscholar", "graph_api", name)


def dataset_file(kind: str) -> Path:
    (path,) = shared_path("semanticscholar", "datasets_sample", kind).glob("*.jsonl.gz")
    return path


def dataset(kind: str) -> list[dict]:
    with gzip.open(dataset_file(kind), "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def raw_graph_api() -> tuple[dict, dict]:
    paper = json.loads(graph_api("Paper.json").read_text(encoding="utf-8"))
    author = json.loads(graph_api("Author.json").read_text(encoding="utf-8"))
    return paper, author


def load(driver: Driver, settings: Settings, *paths: Path, source: str = "s2"):
    return load_paths(driver, list(paths), source=source, database=settings.neo4j_database)


def one(driver: Driver, settings: Settings, query: str, **params):
    rows, _, _ = driver.execute_query(query, params, database_=settings.neo4j_database)
    assert len(rows) == 1, rows
    return rows[0]


@pytest.fixture(scope="module")
def loaded(driver: Driver, settings: Settings) -> Driver:
    summary = load(driver, settings, graph_api("Paper.json"), graph_api("Author.json"))
    assert summary.read == 2 and summary.rejected == 0
    return driver


def test_graph_api_counts_match_the_raw_files(loaded: Driver, settings: Settings) -> None:
    paper, author = raw_graph_api()
    raw = [paper, *paper["citations"], *paper["references"], *author["papers"]]
    papers = {p["paperId"] for p in raw if p["paperId"]}
    authors = {a["authorId"] for p in raw for a in p.get("authors") or [] if a["authorId"]}
    idless = [a for p in raw for a in p.get("authors") or [] if not a["authorId"]]
    authorships = {
        (p["paperId"], a["authorId"] or f"{p['paperId']}#{rank}")
        for p in raw
        if p["paperId"]
        for rank, a in enumerate(p.get("authors") or [])
    }
    internal = [c for c in paper["citations"] if c["paperId"]] + [r for r in paper["references"] if r["paperId"]]
    found = counts(loaded, settings.neo4j_database)
    assert found["Paper"] == len(papers) == 1068
    assert found["Researcher"] == len(authors) + len(idless) == 3309 + 3
    assert found["AUTHORED"] == len(authorships) == 3532 + 3
    assert found["CITES"] == len(internal) == 1008
    scoped = one(loaded, settings, "MATCH (r:Researcher {paper_scoped: true}) RETURN count(r) AS n")["n"]
    assert scoped == 3
    arxiv = one(loaded, settings, "MATCH (p:Paper) WHERE p.arxiv_id IS NOT NULL RETURN count(p) AS n")["n"]
    assert (
        arxiv == len({p["paperId"] for p in raw if p["paperId"] and (p.get("externalIds") or {}).get("ArXiv")}) == 243
    )


def test_turing_paper_and_author(loaded: Driver, settings: Settings) -> None:
    paper, author = raw_graph_api()
    row = one(loaded, settings, "MATCH (p:Paper {s2_id: $id}) RETURN p", id=paper["paperId"])
    p = row["p"]
    assert p["doi"] == paper["externalIds"]["DOI"].lower() and p["corpus_id"] == str(paper["corpusId"])
    assert p["title"] == paper["title"] and p["year"] == 1950
    assert p["cited_by_count_s2"] == paper["citationCount"]
    cites = one(
        loaded, settings, "MATCH (:Paper)-[c:CITES]->(:Paper {s2_id: $id}) RETURN count(c) AS n", id=paper["paperId"]
    )
    assert cites["n"] == len({c["paperId"] for c in paper["citations"] if c["paperId"]})
    r = one(loaded, settings, "MATCH (r:Researcher {s2_id: '2262347'}) RETURN r")["r"]
    # the author profile (a full record) wins over the author as Paper.json mentions it
    assert (r["h_index_s2"], r["works_count_s2"], r["cited_by_count_s2"]) == (
        author["hIndex"],
        author["paperCount"],
        author["citationCount"],
    )
    assert r["name_key"] == "turing a" and r["is_person"] is True
    n = one(loaded, settings, "MATCH (:Researcher {s2_id: '2262347'})-[:AUTHORED]->(p) RETURN count(p) AS n")["n"]
    assert n == len({p["paperId"] for p in author["papers"]} | {paper["paperId"]})


def test_two_a_turing_ids_stay_two_researchers_linked_as_same_name(loaded: Driver, settings: Settings) -> None:
    paper, author = raw_graph_api()
    raw = {
        p["paperId"]: p for p in [paper, *paper["citations"], *paper["references"], *author["papers"]] if p["paperId"]
    }

    def slots(p: dict) -> list[str]:
        return [a["authorId"] or f"{p['paperId']}#{rank}" for rank, a in enumerate(p["authors"])]

    def profile(author_id: str) -> tuple[set[str], list[int], set[str]]:
        papers = [p for p in raw.values() if author_id in slots(p)]
        coauthors = {c for p in papers for c in slots(p)} - {author_id}
        return coauthors, [p["year"] for p in papers if p["year"]], {p["paperId"] for p in papers}

    (co_a, years_a, papers_a), (co_b, years_b, papers_b) = profile("2262347"), profile("2079681794")
    overlap = max(0, min(max(years_a), max(years_b)) - max(min(years_a), min(years_b)) + 1)
    shared, together = len(co_a & co_b - {"2262347", "2079681794"}), len(papers_a & papers_b)
    rows, _, _ = loaded.execute_query(
        "MATCH (r:Researcher) WHERE r.s2_id IN ['2262347', '2079681794'] RETURN r.id AS id, r.name_key AS key",
        database_=settings.neo4j_database,
    )
    assert len({r["id"] for r in rows}) == 2 and {r["key"] for r in rows} == {"turing a"}
    a, b = (r["id"] for r in rows)
    links = loaded.execute_query(read_researchers.RESEARCHER_SAME_NAME, ids=[a], database_=settings.neo4j_database)
    [link] = [r for r in links.records if r["researcher"]["id"] == b]
    assert link["evidence"] == (
        ["same name key: turing a"]
        + ([f"shared co-authors: {shared}"] if shared else [])
        + ([f"overlapping years: {overlap}"] if overlap else [])
        + ([f"listed together on {together} paper(s)"] if together else [])
    )


def test_reload_and_reverse_order_change_nothing(loaded: Driver, settings: Settings) -> None:
    before = graph_state(loaded, settings.neo4j_database)
    load(loaded, settings, graph_api("Paper.json"), graph_api("Author.json"))
    assert graph_state(loaded, settings.neo4j_database) == before
    reset(loaded, settings.neo4j_database)
    load(loaded, settings, graph_api("Author.json"))
    load(loaded, settings, graph_api("Paper.json"))
    assert graph_state(loaded, settings.neo4j_database) == before


def test_dataset_samples(driver: Driver, settings: Settings) -> None:
    reset(driver, settings.neo4j_database)
    summary = load(driver, settings, shared_path("semanticscholar", "datasets_sample"))
    per_file = {Path(f.path).parent.name: f for f in summary.files}
    assert {k: f.read for k, f in per_file.items()} == {
        k: 100 for k in ("papers", "authors", "citations", "paper-ids", "abstracts", "tldrs", "publication-venues")
    }
    assert summary.rejected == 0, summary.rejects[:3]
    papers, authors = dataset("papers"), dataset("authors")
    found = counts(driver, settings.neo4j_database)
    # The samples never join: citations, abstracts and tldrs name papers that are not loaded, so they
    # add no paper stubs; paper-ids and venues write nothing.
    assert found["Paper"] == len({p["corpusid"] for p in papers}) == 100
    paper_authors = {a["authorId"] for p in papers for a in p["authors"] if a["authorId"]}
    assert found["Researcher"] == len(paper_authors | {a["authorid"] for a in authors})
    assert found["AUTHORED"] == sum(len(p["authors"]) for p in papers)
    assert "CITES" not in found
    sample = papers[0]
    p = one(driver, settings, "MATCH (p:Paper {corpus_id: $c}) RETURN p", c=str(sample["corpusid"]))["p"]
    assert p["s2_id"] == sample["url"].rsplit("/", 1)[-1] and p["title"] == sample["title"]
    roldan = one(driver, settings, "MATCH (r:Researcher {s2_id: '144501675'}) RETURN r")["r"]
    assert sorted(roldan["alt_names"]) == sorted({"J. Roldán", "Joseph Roldan", "J. Roldan"})


def test_dataset_rows_attach_to_loaded_papers_by_corpus_id(driver: Driver, settings: Settings, tmp_path: Path) -> None:
    """The samples never join, so real abstract, tldr and citation rows are pointed at sample papers.

    One load of one folder: the attaching files sort before `papers` by name, the loader runs them after.
    """
    reset(driver, settings.neo4j_database)
    papers = dataset("papers")
    citing, cited = str(papers[0]["corpusid"]), str(papers[1]["corpusid"])
    abstract = dict(dataset("abstracts")[0], corpusid=int(citing))
    tldr = dict(dataset("tldrs")[0], corpusid=int(citing))
    citation = dict(dataset("citations")[0], citingcorpusid=citing, citedcorpusid=cited)
    for kind, row in (("abstracts", abstract), ("tldrs", tldr), ("citations", citation)):
        (tmp_path / f"a-{kind}.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    (tmp_path / "z-papers.jsonl.gz").write_bytes(dataset_file("papers").read_bytes())
    summary = load(driver, settings, tmp_path)
    assert [Path(f.path).name for f in summary.files][-3:] == [
        "a-abstracts.jsonl",
        "a-citations.jsonl",
        "a-tldrs.jsonl",
    ]
    assert summary.rejected == 0
    assert counts(driver, settings.neo4j_database)["Paper"] == len(papers)
    p = one(driver, settings, "MATCH (p:Paper {corpus_id: $c}) RETURN p", c=citing)["p"]
    assert p["abstract"] == " ".join(abstract["abstract"].split())
    assert p["tldr"] == tldr["text"]
    one(
        driver,
        settings,
        "MATCH (:Paper {corpus_id: $a})-[:CITES]->(:Paper {corpus_id: $b}) RETURN 1 AS x",
        a=citing,
        b=cited,
    )
    before = graph_state(driver, settings.neo4j_database)
    load(driver, settings, tmp_path)
    assert graph_state(driver, settings.neo4j_database) == before


def test_bad_dataset_lines_are_reported_with_file_and_line(driver: Driver, settings: Settings, tmp_path: Path) -> None:
    reset(driver, settings.neo4j_database)
    papers = dataset("papers")
    lines = [
        json.dumps(papers[0]),
        '{"corpusid": 5, "title": "cut short',
        json.dumps(dict(papers[1], corpusid=None, externalids=None, url=None)),
        json.dumps(dict(papers[2], corpusid="12x")),
        json.dumps(papers[3]),
    ]
    path = tmp_path / "papers-bad.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    summary = load(driver, settings, path)
    assert summary.read == 5 and summary.rejected == 2
    assert [(r["file"], r["where"]) for r in summary.rejects] == [(str(path), "line 2"), (str(path), "line 3")]
    rows, _, _ = driver.execute_query(
        "MATCH (p:Paper) RETURN p.corpus_id AS c ORDER BY c", database_=settings.neo4j_database
    )
    # line 4's corpusid is not a number: its externalids.CorpusId (a string) still gives the key
    assert sorted(r["c"] for r in rows if r["c"]) == sorted(
        str(p["corpusid"]) for p in (papers[0], papers[2], papers[3])
    )


def test_a_graph_api_result_page_loads(driver: Driver, settings: Settings, tmp_path: Path) -> None:
    """An `/author/{id}/papers` page (`{offset, next, data}`) built from Author.json's real papers."""
    reset(driver, settings.neo4j_database)
    _, author = raw_graph_api()
    page = tmp_path / "author-papers-page.json"
    page.write_text(json.dumps({"offset": 0, "next": 100, "data": author["papers"]}), encoding="utf-8")
    summary = load(driver, settings, page, source="auto")
    assert (summary.read, summary.rejected) == (1, 0) and summary.files[0].source == "s2"
    found = counts(driver, settings.neo4j_database)
    assert found["Paper"] == len({p["paperId"] for p in author["papers"]})
    assert found["AUTHORED"] == len({(p["paperId"], a["authorId"]) for p in author["papers"] for a in p["authors"]})
