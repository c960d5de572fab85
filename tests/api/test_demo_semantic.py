"""demo/EXAMPLES.md's SemanticSearch block, run as written over HTTP on the part of the demo slice it is about (loaded,
then embedded by `weft embed`'s code, as `make demo` does), every answer recomputed outside Neo4j: the semantic
ranking, the similar papers and researchers by brute-force numpy cosines of the stored vectors (each checked against
the model run outside Neo4j on the paper's text), HYBRID's fusion from that ranking and KEYWORD's, co-authors also
from the raw JSON.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from neo4j import Driver

from tests.api.conftest import GraphQLClient
from tests.api.test_api_openalex import example_queries
from tests.conftest import DEMO_DATA
from weft.graph.embed_papers import embed_papers
from weft.graph.embeddings import embedder, model_id, paper_text
from weft.graph.reads.search import RRF_K, SEMANTIC_FLOOR, SEMANTIC_HITS
from weft.graph.reads.semantic import RESEARCHER_CANDIDATE_PAPERS
from weft.graph.settings import Settings

pytestmark = pytest.mark.usefixtures("graph")

BLOCK = example_queries()["SemanticSearch"]
QUERY = re.search(r'search\(query: "([^"]+)"', BLOCK).group(1)
PAPER = re.search(r'paper\(id: "(\w+)"\)', BLOCK).group(1)
RESEARCHER = re.search(r'researcher\(id: "(\w+)"\)', BLOCK).group(1)

DEMO_WORKS = DEMO_DATA / "openalex" / "works"
WORKS = ("academic_explorer_author_A5032473237_works.json", "academic_explorer_author_A5017898742_works.json")
"""The demo slice's works files the example's papers and people are in: Peter Butcher's (VRIA, the situated and
immersive analytics papers) and Joseph Mearman's (heritage visualisation: the similar researchers). 34 works load
and embed in seconds; the whole slice would take about a minute."""


@pytest.fixture(scope="module")
def graph(driver: Driver, settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Driver:
    from weft.loaders.run import load_paths

    folder = tmp_path_factory.mktemp("demo_semantic")
    for name in WORKS:
        (folder / name).write_bytes((DEMO_WORKS / name).read_bytes())
    load_paths(driver, [folder], source="openalex", database=settings.neo4j_database)
    embed_papers(driver, settings.neo4j_database)
    return driver


class Vectors:
    """Every embedded paper's stored vector (float64, as Neo4j compares them), checked against the model run
    outside Neo4j on its text, with its OpenAlex id and title."""

    def __init__(self, graph: Driver, database: str) -> None:
        records, _, _ = graph.execute_query(
            "MATCH (p:Paper)-[:EMBEDDED_AS]->(v) RETURN p.id AS id, p.openalex_id AS w, p.title AS title, "
            "p.abstract AS abstract, v.vector AS vector ORDER BY id",
            database_=database,
        )
        self.ids = [r["id"] for r in records]
        self.openalex = {r["id"]: r["w"] for r in records}
        self.title = {r["id"]: r["title"] for r in records}
        self.stored = np.array([r["vector"] for r in records], dtype=np.float64)
        self.model = embedder().embed([paper_text(r["title"], r["abstract"]) or "" for r in records])
        # the int8 model quantises activations per batch tensor, so a vector may differ a little by batch
        assert (self.model * self.stored).sum(axis=1).min() > 0.98

    def ranking(self, vector: np.ndarray, leave_out: str | None = None) -> list[tuple[str, float]]:
        """Papers by cosine to `vector` (unit length), best first, ties by id as the Cypher orders them."""
        cosines = self.stored @ vector.astype(np.float64)
        pairs = [(pid, float(c)) for pid, c in zip(self.ids, cosines, strict=True) if pid != leave_out]
        return sorted(pairs, key=lambda pc: (-pc[1], pc[0]))


@pytest.fixture(scope="module")
def vectors(graph: Driver, settings: Settings) -> Vectors:
    return Vectors(graph, settings.neo4j_database)


@pytest.fixture(scope="module")
def answer(client: GraphQLClient) -> dict:
    return client.data(BLOCK)


KEYWORD = """query($q: String!, $after: String) { search(query: $q, mode: KEYWORD, types: [PAPER], first: 100,
  after: $after) { pageInfo { hasNextPage endCursor } edges { node { keywordScore matchedAllTerms
  node { ... on Paper { id } } } } } }"""


def keyword_ranking(client: GraphQLClient) -> list[dict]:
    found, after = [], None
    while True:
        page = client.data(KEYWORD, {"q": QUERY, "after": after})["search"]
        found += [e["node"] for e in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            return found
        after = page["pageInfo"]["endCursor"]


def raw_works() -> dict[str, dict]:
    works: dict[str, dict] = {}
    for name in WORKS:
        data = json.loads((DEMO_WORKS / name).read_text())
        for work in data["results"] if isinstance(data, dict) else data:
            works.setdefault(work["id"].rsplit("/", 1)[-1], work)
    return works


SEMANTIC = """query($q: String!) { search(query: $q, mode: SEMANTIC, first: 100) {
  pageInfo { hasNextPage } edges { node { semanticScore node { ... on Paper { id } } } } } }"""


def test_search_is_the_fusion_of_words_and_brute_force_meaning(
    client: GraphQLClient, vectors: Vectors, answer: dict
) -> None:
    """HYBRID recomputed from KEYWORD's ranking, its hits with every word and SEMANTIC's, which is the brute-force
    ranking (the vector index is approximate: near the end of its papers a near-tie may be left out)."""
    query_vector = embedder().embed([QUERY])[0]
    brute = vectors.ranking(query_vector)
    cosine = dict(brute)
    model_cosine = dict(zip(vectors.ids, vectors.model @ query_vector, strict=True))
    page = client.data(SEMANTIC, {"q": QUERY})["search"]
    semantic = [(e["node"]["node"]["id"], e["node"]["semanticScore"]) for e in page["edges"]]
    above = [(pid, c) for pid, c in brute if c >= SEMANTIC_FLOOR]  # the semantic hits: not every paper is one
    assert 10 <= len(above) < len(brute)
    assert len(semantic) == min(SEMANTIC_HITS, len(above)) and not page["pageInfo"]["hasNextPage"]
    assert all(abs(s - cosine[pid]) < 1e-5 and abs(s - model_cosine[pid]) < 0.01 for pid, s in semantic)
    found = {pid for pid, _ in semantic}
    assert [pid for pid, _ in semantic] == [pid for pid, _ in brute if pid in found]
    assert {pid for pid, _ in above[:10]} <= found
    assert all(c - semantic[-1][1] < 0.01 for pid, c in above[:SEMANTIC_HITS] if pid not in found)

    keyword = keyword_ranking(client)
    every_word = [h for h in keyword if h["matchedAllTerms"]]
    fused: dict[str, float] = {}
    for ranking in (
        [h["node"]["id"] for h in keyword],
        [h["node"]["id"] for h in every_word],
        [p for p, _ in semantic],
    ):
        for rank, pid in enumerate(ranking, start=1):
            fused[pid] = fused.get(pid, 0.0) + 1.0 / (RRF_K + rank)
    words = re.findall(r"[^\W_]+", QUERY.lower())
    assert not any(re.findall(r"[^\W_]+", (w.get("title") or "").lower()) == words for w in raw_works().values())
    want = sorted(fused.items(), key=lambda kv: (-round(kv[1], 9), kv[0]))[:5]

    search = answer["search"]
    hits = [e["node"] for e in search["edges"]]
    assert search["totalCount"] == len(fused)
    assert [h["node"]["id"] for h in hits] == [pid for pid, _ in want]
    assert np.allclose([h["score"] for h in hits], [s for _, s in want])
    assert [h["titleMatch"] for h in hits] == [False] * 5, "no paper is titled as the query"
    words_score = {h["node"]["id"]: h["keywordScore"] for h in keyword}
    for hit in hits:
        pid = hit["node"]["id"]
        assert hit["keywordScore"] == words_score.get(pid) and hit["node"]["title"] == vectors.title[pid]
        assert hit["semanticScore"] == dict(semantic).get(pid)
    assert all(h["keywordScore"] is not None and h["semanticScore"] is not None for h in hits[:3])
    # what EXAMPLES.md promises: view management for handheld AR, situated analytics, DashSpace
    assert {"W4382451443", "W4380520404", "W4407098491"} <= {vectors.openalex[h["node"]["id"]] for h in hits}


def test_similar_papers_are_the_brute_force_nearest(vectors: Vectors, answer: dict) -> None:
    paper = answer["paper"]
    (source,) = [pid for pid, w in vectors.openalex.items() if w == PAPER]
    want = vectors.ranking(vectors.stored[vectors.ids.index(source)], leave_out=source)[:3]
    assert paper["vectorModel"] == model_id()
    assert [s["paper"]["title"] for s in paper["similar"]] == [vectors.title[pid] for pid, _ in want]
    assert np.allclose([s["score"] for s in paper["similar"]], [c for _, c in want], atol=1e-5)
    assert vectors.openalex[want[0][0]] == "W2943339944", "VRIA's 2019 version first, as EXAMPLES.md says"


def test_similar_researchers_are_the_nearest_centroids_of_strangers(
    graph: Driver, settings: Settings, vectors: Vectors, answer: dict
) -> None:
    # every embedded paper is among the candidates' papers the vector index is asked for: all authors compete
    assert len(vectors.ids) <= RESEARCHER_CANDIDATE_PAPERS
    records, _, _ = graph.execute_query(
        "MATCH (r:Researcher)-[:AUTHORED]->(p:Paper)-[:EMBEDDED_AS]->() WHERE coalesce(r.is_person, true) "
        "RETURN r.id AS id, r.openalex_id AS a, r.name AS name, collect(DISTINCT p.id) AS papers",
        database_=settings.neo4j_database,
    )
    everyone = records
    papers = {r["id"]: r["papers"] for r in everyone}
    name = {r["id"]: r["name"] for r in everyone}
    (me,) = [r["id"] for r in everyone if r["a"] == RESEARCHER]
    row = {pid: i for i, pid in enumerate(vectors.ids)}

    def centroid(rid: str) -> np.ndarray:
        return vectors.stored[[row[p] for p in papers[rid]]].sum(axis=0)

    records, _, _ = graph.execute_query(  # on any paper of his, with a vector or not
        "MATCH (:Researcher {id: $me})-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(other) RETURN collect(other.id) AS ids",
        me=me,
        database_=settings.neo4j_database,
    )
    coauthors = {me, *records[0]["ids"]}
    scores = {
        rid: float(centroid(rid) @ centroid(me) / np.linalg.norm(centroid(rid)) / np.linalg.norm(centroid(me)))
        for rid in papers
        if rid not in coauthors
    }
    got = answer["researcher"]["similarResearchers"]
    assert answer["researcher"]["name"] == "Peter Butcher"
    assert np.allclose([g["score"] for g in got], sorted(scores.values(), reverse=True)[:3], atol=1e-5)
    # people with the same papers have the same centroid: which of them fills the last place is a tie
    chosen = [
        rid
        for g in got
        for rid, s in scores.items()
        if abs(s - g["score"]) < 1e-5 and name[rid] == g["researcher"]["name"]
    ]
    assert len(set(chosen)) == len(got) == 3, "each answer is one brute-force candidate with its score and name"
    assert [g["nearbyPapers"] for g in got] == [len(papers[rid]) for rid in chosen]
    # strangers by the raw JSON too: none of them is an author of a paper of his
    raw_coauthors = {
        a["author"]["id"].rsplit("/", 1)[-1]
        for w in raw_works().values()
        if any(a["author"]["id"].endswith(RESEARCHER) for a in w["authorships"])
        for a in w["authorships"]
    }
    openalex = {r["id"]: r["a"] for r in everyone}
    assert RESEARCHER in raw_coauthors and not raw_coauthors & {openalex[rid] for rid in chosen}
