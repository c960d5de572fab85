"""The API on OpenAlex + Semantic Scholar + arXiv together: S2 and arXiv id forms, versions, provenance.

Expected values come from the raw S2 Graph API JSON and the arXiv snapshot lines.
"""

from __future__ import annotations

import json

import pytest

from tests.api.conftest import GraphQLClient
from tests.conftest import shared_path
from weft.schema.support import prefetch

TURING_PAPER = "2d5673caa9e6af3a7b82a43f19ee920992db07ad"
TURING_AUTHOR = "2262347"


@pytest.fixture(scope="module", autouse=True)
def loaded(all_sources_graph):
    """Every test here runs on all shared sources, loaded once for the module."""
    return all_sources_graph


@pytest.fixture(scope="module")
def s2_paper() -> dict:
    return json.loads(shared_path("semanticscholar", "graph_api", "Paper.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def s2_author() -> dict:
    return json.loads(shared_path("semanticscholar", "graph_api", "Author.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def arxiv_records() -> dict[str, dict]:
    path = shared_path("arxiv", "arxiv-metadata-oai-snapshot.head200.jsonl")
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {r["id"]: r for r in records}


def ident(node: dict, source: str) -> str | None:
    return next((i["id"] for i in node["ids"] if i["source"] == source), None)


PAPER = """query($id: String!) { paper(id: $id) {
  id title year citedByCount citedByCountSources { source value } ids { source id url }
  versions { version date } pdfUrl license
  authors { rank position researcher { name } }
  categories { primary category { key scheme } }
  citedBy(first: 1) { totalCount } } }"""


def test_s2_paper_id_forms_and_provenance(client: GraphQLClient, s2_paper: dict) -> None:
    by_s2 = client.data(PAPER, {"id": TURING_PAPER})["paper"]
    assert by_s2["title"] == s2_paper["title"] and by_s2["year"] == s2_paper["year"]
    corpus = s2_paper["corpusId"]
    for form in (
        f"CorpusId:{corpus}",
        f"corpusid:{corpus}",
        TURING_PAPER.upper(),
        s2_paper["externalIds"]["DOI"],
        f"https://doi.org/{s2_paper['externalIds']['DOI'].lower()}",
    ):
        assert client.data(PAPER, {"id": form})["paper"]["id"] == by_s2["id"], form
    assert ident(by_s2, "s2") == TURING_PAPER and ident(by_s2, "corpus") == str(corpus)
    assert {"source": "s2", "value": s2_paper["citationCount"]} in by_s2["citedByCountSources"]
    citing = {c["paperId"] for c in s2_paper["citations"] if c.get("paperId")}
    assert by_s2["citedBy"]["totalCount"] == len(citing)


def test_s2_author_lookup_and_papers(client: GraphQLClient, s2_paper: dict, s2_author: dict) -> None:
    query = """query($id: String!) { researcher(id: $id) { name paperCount identities { source id url }
      papers(first: 100) { totalCount edges { node { ids { source id } } } } } }"""
    r = client.data(query, {"id": TURING_AUTHOR})["researcher"]
    assert r["name"] == s2_author["name"]
    assert {"source": "s2", "id": TURING_AUTHOR, "url": f"https://www.semanticscholar.org/author/{TURING_AUTHOR}"} in r[
        "identities"
    ]
    everything = [s2_paper, *s2_paper["citations"], *s2_paper["references"], *s2_author["papers"]]
    expected = {
        p["paperId"]
        for p in everything
        if p.get("paperId") and any(a.get("authorId") == TURING_AUTHOR for a in p.get("authors") or [])
    }
    assert r["paperCount"] == r["papers"]["totalCount"] == len(expected)
    assert {ident(e["node"], "s2") for e in r["papers"]["edges"]} == expected
    assert (
        client.data(query, {"id": f"https://www.semanticscholar.org/author/{TURING_AUTHOR}"})["researcher"]["name"]
        == r["name"]
    )


def test_arxiv_id_forms_versions_and_authors(client: GraphQLClient, arxiv_records: dict[str, dict]) -> None:
    record = arxiv_records["0704.0001"]
    base = client.data(PAPER, {"id": "0704.0001"})["paper"]
    for form in (
        "0704.0001v1",
        "0704.0001v2",
        "arXiv:0704.0001",
        "ARXIV:0704.0001v2",
        "https://arxiv.org/abs/0704.0001",
        "10.48550/arXiv.0704.0001",
        f"https://doi.org/{record['doi']}",
        base["id"],
    ):
        assert client.data(PAPER, {"id": form})["paper"]["id"] == base["id"], form
    assert [v["version"] for v in base["versions"]] == [v["version"] for v in record["versions"]]
    assert base["versions"][0]["date"] == "2007-04-02" and base["versions"][1]["date"] == "2007-07-24"
    assert base["pdfUrl"] == "https://arxiv.org/pdf/0704.0001"
    assert [a["rank"] for a in base["authors"]] == list(range(len(record["authors_parsed"])))
    assert [a["researcher"]["name"].split()[-1] for a in base["authors"]] == [p[0] for p in record["authors_parsed"]]
    assert [a["position"] for a in base["authors"]] == ["first", "middle", "middle", "last"]
    arxiv_categories = {c["category"]["key"] for c in base["categories"] if c["category"]["scheme"] == "arxiv"}
    assert arxiv_categories == {f"arxiv:{c}" for c in record["categories"].split()}


def test_arxiv_category_ranking_and_search(client: GraphQLClient, arxiv_records: dict[str, dict]) -> None:
    in_astro = [k for k, r in arxiv_records.items() if "astro-ph" in r["categories"].split()]
    ranked = client.data('{ mostCited(category: "arxiv:astro-ph", first: 100) { totalCount } }')["mostCited"]
    assert ranked["totalCount"] == len(in_astro)
    query = """query($q: String!) { search(query: $q, types: [PAPER], first: 5) {
      edges { node { node { ... on Paper { arxivId } } } } } }"""
    hits = client.data(query, {"q": "prompt diphoton production"})["search"]["edges"]
    assert hits[0]["node"]["node"]["arxivId"] == "0704.0001"


def test_same_name_matches_the_graph(client: GraphQLClient, all_sources_graph) -> None:
    records, _, _ = all_sources_graph.execute_query(
        "MATCH (r:Researcher {s2_id: $id})-[:SAME_NAME_AS]-(o) RETURN collect(o.id) AS ids", id=TURING_AUTHOR
    )
    query = "query($id: String!) { researcher(id: $id) { sameName { researcher { id } paperCount evidence } } }"
    same = client.data(query, {"id": TURING_AUTHOR})["researcher"]["sameName"]
    assert sorted(s["researcher"]["id"] for s in same) == sorted(records[0]["ids"])
    assert all(s["paperCount"] >= 1 for s in same)


# --- one Cypher query per root field (issue 9) on records from every source ------------------

PAPER_PAGE = """query($id: String!) { paper(id: $id) {
  id slug title year doi arxivId citedByCount citedByCountSources { source value } ids { source id url }
  versions { version date } pdfUrl license venue abstract
  authors { rank position rawName researcher { name paperCount hIndex } affiliations { name country } }
  categories { primary score category { key scheme name } }
  arxiv: categories(scheme: "arxiv") { primary category { key } }
  citedBy(first: 3, sort: NEWEST) { totalCount pageInfo { hasNextPage endCursor } edges { node { title year } } }
  references(first: 3) { totalCount edges { cursor node { title citedByCount } } } } }"""

PROFILE = """query($id: String!) { researcher(id: $id) {
  id name paperCount citationCount hIndex i10Index worksCount { source value }
  citedByCountSources { source value } identities { source id url }
  authorPositions { first middle last matchedPapers }
  fields(scheme: "s2field", first: 5) { count category { key } }
  mostCitedPaper { title citedByCount } institutions { institution { name } paperCount }
  sameName { researcher { id name } evidence }
  papers(first: 10, sort: MOST_CITED, yearTo: 2023) { totalCount edges { node { title citedByCount } } }
  coauthors(first: 10, minWeight: 1) { totalCount edges { node { weight researcher { name hIndex } } } } } }"""


@pytest.mark.parametrize(
    ("query", "node_id"),
    [(PAPER_PAGE, TURING_PAPER), (PAPER_PAGE, "0704.0001"), (PROFILE, TURING_AUTHOR)],
    ids=["s2 paper", "arxiv paper", "s2 author"],
)
def test_pages_fold_into_one_query(client: GraphQLClient, monkeypatch, query: str, node_id: str) -> None:
    folded = client.data(query, {"id": node_id})
    assert client.cypher_queries == 1
    assert next(iter(folded.values())) is not None
    with monkeypatch.context() as m:
        m.setattr(prefetch, "FOLDING", False)
        assert client.data(query, {"id": node_id}) == folded
        assert client.cypher_queries > 1
