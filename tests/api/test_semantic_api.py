"""Semantic search over HTTP: the three search modes, their filters, Paper.similar, Researcher.similarResearchers
and bad input, on a real slice of the shared OpenAlex data embedded by `weft embed`'s code.

The slice: the first 100 works of the malaria query page, the page of highly cited works since 2023 (among
them Long COVID, W4316014106) and Kuncheva's author page (one work with neither title nor abstract). Keyword
expectations come from the raw JSON; semantic ones from brute-force numpy cosines of vectors the model makes
outside Neo4j.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import numpy as np
import pytest
from neo4j import Driver

from tests.api.conftest import GraphQLClient
from tests.api.openalex_truth import abstract_of
from tests.conftest import shared_path
from weft.graph.embed_papers import embed_papers
from weft.graph.embeddings import embedder, paper_text
from weft.graph.reads.search import RRF_K, SEMANTIC_FLOOR, SEMANTIC_HITS
from weft.graph.settings import PROJECT_ROOT, Settings

LONG_COVID = "W4316014106"
NO_TEXT = "W2115629999"
KUNCHEVA = "A5039168231"

SEARCH = """query($q: String!, $mode: SearchMode!, $first: Int! = 20, $after: String, $types: [SearchType!],
  $category: String, $yearFrom: Int, $yearTo: Int) {
  search(query: $q, mode: $mode, first: $first, after: $after, types: $types, category: $category,
         yearFrom: $yearFrom, yearTo: $yearTo) {
    totalCount pageInfo { hasNextPage endCursor }
    edges { node { kind score keywordScore semanticScore matchedAllTerms titleMatch
      node { __typename ... on Paper { id year ids { source id } } ... on Researcher { id } ... on Institution { id } }
    } } } }"""


pytestmark = pytest.mark.usefixtures("graph")  # every test reads the embedded slice, also when run alone

QUERY_PAGE_WORKS = 100
"""The first works of the malaria query page that are loaded (all 200 would double the set-up time)."""


def slice_sources() -> list[Path]:
    works = shared_path("openalex", "works")
    return [
        works / "openalexPro_query_page_1.json",
        works / "pages2" / "academic_explorer_works_from_2023-01-01.json",
        works / "author_works" / f"academic_explorer_author_{KUNCHEVA}_works.json",
    ]


def rows_of(path: Path) -> list[dict]:
    data = json.loads(path.read_text())
    rows = data["results"] if isinstance(data, dict) else data
    return rows[:QUERY_PAGE_WORKS] if path.name == "openalexPro_query_page_1.json" else rows


@functools.cache  # the slice's files do not change during a run; tests only read it
def raw_works() -> dict[str, dict]:
    return {work["id"].rsplit("/", 1)[-1]: work for path in slice_sources() for work in rows_of(path)}


def raw_text(work: dict) -> str:
    return f"{work.get('title') or ''} {abstract_of(work.get('abstract_inverted_index')) or ''}".lower()


def word_matches(works: dict[str, dict], word: str) -> set[str]:
    """Works whose title or abstract has `word` as a token (as the standard analyzer splits text)."""
    pattern = re.compile(rf"(?<![0-9a-z]){re.escape(word)}(?![0-9a-z])")
    return {k for k, w in works.items() if pattern.search(raw_text(w))}


@pytest.fixture(scope="module")
def graph(driver: Driver, settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Driver:
    from weft.loaders.run import load_paths

    folder = tmp_path_factory.mktemp("semantic_slice")
    for path in slice_sources():
        (folder / path.name).write_text(json.dumps(rows_of(path)))
    load_paths(driver, [folder], source="openalex", database=settings.neo4j_database)
    embed_papers(driver, settings.neo4j_database)
    return driver


class Brute:
    """Every embedded paper's stored vector (a sample checked against the model run outside Neo4j), its
    OpenAlex id and year: brute-force cosines the vector index's answers are compared with."""

    def __init__(self, graph: Driver, database: str) -> None:
        records, _, _ = graph.execute_query(
            "MATCH (p:Paper)-[:EMBEDDED_AS]->(v) RETURN p.id AS id, p.openalex_id AS w, p.year AS year, "
            "p.title AS title, p.abstract AS abstract, v.vector AS vector ORDER BY id",
            database_=database,
        )
        self.ids = [r["id"] for r in records]
        self.openalex = {r["id"]: r["w"] for r in records}
        self.year = {r["id"]: r["year"] for r in records}
        self.vectors = np.array([r["vector"] for r in records], dtype=np.float32)
        # every fourth paper's vector checked against the model run here (all of them: 8 s more per run);
        # the int8 model quantises activations per batch tensor, so a vector may differ a little by batch
        checked = records[::4]
        again = embedder().embed([paper_text(r["title"], r["abstract"]) or "" for r in checked])
        assert len(checked) > 25 and (again * self.vectors[::4]).sum(axis=1).min() > 0.98

    def nearest(self, text: str, keep: set[str] | None = None) -> list[tuple[str, float]]:
        cosines = self.vectors @ embedder().embed([text])[0]
        order = sorted(range(len(self.ids)), key=lambda i: (-round(float(cosines[i]), 4), self.ids[i]))
        return [(self.ids[i], float(cosines[i])) for i in order if keep is None or self.ids[i] in keep]


@pytest.fixture(scope="module")
def brute(graph: Driver, settings: Settings) -> Brute:
    return Brute(graph, settings.neo4j_database)


def assert_nearest(page: dict, want: list[tuple[str, float]], n: int, may_be_empty: bool = False) -> None:
    """The page holds the `n` nearest papers (all those reaching SEMANTIC_FLOOR when fewer do): each hit's score
    is its brute-force cosine, best first, and none of the brute-force `n` nearest scores above the page's last
    hit (the vector index is approximate: near-ties may swap, nothing clearly nearer may be missing)."""
    n = min(n, sum(1 for _, c in want if c >= SEMANTIC_FLOOR))
    if n == 0 and may_be_empty:
        assert page["edges"] == [] and page["totalCount"] == 0
        return
    assert n > 0, "the test's query must have semantic hits"
    cosine = dict(want)
    got = [(e["node"]["node"]["id"], e["node"]["semanticScore"]) for e in page["edges"]]
    assert len(got) == n and [s for _, s in got] == sorted((s for _, s in got), reverse=True)
    assert all(abs(score - cosine[pid]) < 0.01 for pid, score in got)
    assert want[n - 1][1] - got[-1][1] < 0.01 and want[0][1] - got[0][1] < 0.01


def hits(client: GraphQLClient, q: str, mode: str, **variables: object) -> dict:
    return client.data(SEARCH, {"q": q, "mode": mode, **variables})["search"]


def every_hit(client: GraphQLClient, q: str, mode: str) -> list[dict]:
    """All hits of a search, paging through it."""
    found, after = [], None
    while True:
        page = hits(client, q, mode, first=100, after=after, types=["PAPER"])
        found += [e["node"] for e in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            return found
        after = page["pageInfo"]["endCursor"]


def paper_ids(page: dict) -> list[str]:
    return [e["node"]["node"]["id"] for e in page["edges"]]


def test_semantic_search_finds_by_meaning(client: GraphQLClient, brute: Brute) -> None:
    """The issue's query shares no word with the Long COVID title; by meaning it is the best hit."""
    query = "persistent symptoms coronavirus"
    page = hits(client, query, "SEMANTIC", first=10)
    assert_nearest(page, brute.nearest(query), 10)
    assert brute.openalex[paper_ids(page)[0]] == LONG_COVID
    assert {e["node"]["kind"] for e in page["edges"]} == {"PAPER"}
    assert all(e["node"]["keywordScore"] is None and e["node"]["matchedAllTerms"] is None for e in page["edges"])


def test_keyword_search_matches_any_word_every_word_first(client: GraphQLClient, graph: Driver) -> None:
    works = raw_works()
    for query, with_every_word in (("malaria drug dormancy", 0), ("malaria drug resistance", 6)):
        words = query.split()
        anywhere = set().union(*(word_matches(works, w) for w in words))
        every = set.intersection(*(word_matches(works, w) for w in words))
        assert len(every) == with_every_word
        found = every_hit(client, query, "KEYWORD")
        assert len(found) == len(anywhere) > len(every)
        assert {openalex(h) for h in found} == anywhere
        assert [h["matchedAllTerms"] for h in found] == [True] * len(every) + [False] * (len(found) - len(every))
        assert {openalex(h) for h in found[: len(every)]} == every
        scores = [h["keywordScore"] for h in found[len(every) :]]
        assert scores == sorted(scores, reverse=True)


def openalex(hit: dict) -> str:
    return next(i["id"] for i in hit["node"]["ids"] if i["source"] == "openalex")


def title_key(title: str | None) -> list[str]:
    """A title's words for known-item search: lower case, split at everything but letters and digits."""
    return re.findall(r"[^\W_]+", (title or "").lower())


def titled(query: str, years: tuple[int, int] | None = None) -> set[str]:
    """OpenAlex ids of the slice's works whose title is `query` up to case, punctuation and spacing (from the raw
    JSON), published within `years` when given."""
    return {
        w
        for w, work in raw_works().items()
        if title_key(work.get("title")) == title_key(query)
        and (years is None or years[0] <= work["publication_year"] <= years[1])
    }


@pytest.mark.parametrize("query", ["malaria drug resistance", "Malaria"])
def test_hybrid_is_the_reciprocal_rank_fusion_of_words_every_word_and_meaning(
    client: GraphQLClient, brute: Brute, query: str
) -> None:
    """HYBRID recomputed from the other modes' rankings and the raw titles: papers titled as the query first
    (three works are titled `Malaria`; none `malaria drug resistance`), then by fused score."""
    keyword = every_hit(client, query, "KEYWORD")
    rankings = [keyword, [h for h in keyword if h["matchedAllTerms"]], every_hit(client, query, "SEMANTIC")]
    every = set.intersection(*(word_matches(raw_works(), w.lower()) for w in query.split()))
    assert len(every) == len(rankings[1]) > 0, "the second ranking is the works with every word"
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, hit in enumerate(ranking, start=1):
            fused[hit["node"]["id"]] = fused.get(hit["node"]["id"], 0.0) + 1.0 / (RRF_K + rank)
    titled_as_query = titled(query)
    known = {pid for pid, w in brute.openalex.items() if w in titled_as_query}
    assert len(known) == (3 if query == "Malaria" else 0) and known <= set(fused)
    want = sorted(fused.items(), key=lambda kv: (kv[0] not in known, -round(kv[1], 9), kv[0]))
    page = hits(client, query, "HYBRID", first=30, types=["PAPER"])
    assert page["totalCount"] == len(fused)
    assert paper_ids(page) == [pid for pid, _ in want[:30]]
    assert np.allclose([e["node"]["score"] for e in page["edges"]], [s for _, s in want[:30]])
    assert [e["node"]["titleMatch"] for e in page["edges"]] == [pid in known for pid, _ in want[:30]]
    both = [e for e in page["edges"] if None not in (e["node"]["keywordScore"], e["node"]["semanticScore"])]
    assert both, "hits both rankings found carry both scores"


@pytest.mark.parametrize("query", ["persistent symptoms coronavirus", "chocolate cake recipe"])
def test_totals_count_the_hits_not_the_candidates(client: GraphQLClient, brute: Brute, query: str) -> None:
    """SEMANTIC counts (and lists) the papers whose cosine reaches SEMANTIC_FLOOR, by brute force, not the
    SEMANTIC_HITS nearest asked of the vector index; HYBRID counts KEYWORD's hits and those, each once (issue 48:
    "100 results" where KEYWORD found 15). A query on nothing the papers are about has no semantic hit at all."""
    cosine = dict(brute.nearest(query))
    surely = {pid for pid, c in cosine.items() if c >= SEMANTIC_FLOOR + 1e-4}
    maybe = {pid for pid, c in cosine.items() if c >= SEMANTIC_FLOOR - 1e-4}  # float rounding at the floor
    semantic = every_hit(client, query, "SEMANTIC")
    found = {h["node"]["id"] for h in semantic}
    assert surely <= found <= maybe and len(found) == len(semantic) < SEMANTIC_HITS
    assert all(h["semanticScore"] >= SEMANTIC_FLOOR for h in semantic)
    assert hits(client, query, "SEMANTIC", types=["PAPER"])["totalCount"] == len(found)
    keyword = {h["node"]["id"] for h in every_hit(client, query, "KEYWORD")}
    hybrid = hits(client, query, "HYBRID", types=["PAPER"])
    assert hybrid["totalCount"] == len(keyword | found) == len(every_hit(client, query, "HYBRID"))
    if query == "chocolate cake recipe":
        assert hybrid["totalCount"] == len(found) == len(keyword) == 0
    else:
        assert 0 < len(found) < len(cosine), "some papers are about it, not all"


@pytest.mark.parametrize(
    ("query", "titles"),
    [
        ("MALARIA.", {"Malaria", "Malaria."}),  # three works
        ("cancer statistics 2023", {"Cancer statistics, 2023"}),  # not "Cancer statistics, 2024"
        ("tractatus logico philosophicus", {"Tractatus Logico-Philosophicus"}),
        ("  science ", {"Science"}),
    ],
)
def test_a_pasted_title_finds_its_paper_first(client: GraphQLClient, query: str, titles: set[str]) -> None:
    """Known-item search: HYBRID puts the papers whose title is the query (case, punctuation and spacing aside)
    first; KEYWORD, the plain full-text baseline, and SEMANTIC do not look at titles (titleMatch null)."""
    known = titled(query)
    assert known and {raw_works()[w]["title"] for w in known} == titles
    page = hits(client, query, "HYBRID", first=10, types=["PAPER"])
    found = [openalex(e["node"]) for e in page["edges"]]
    assert set(found[: len(known)]) == known
    assert [e["node"]["titleMatch"] for e in page["edges"]] == [w in known for w in found]
    for mode in ("KEYWORD", "SEMANTIC"):
        assert {e["node"]["titleMatch"] for e in hits(client, query, mode, first=10)["edges"]} == {None}
    everyone = hits(client, query, "HYBRID", first=10)  # researchers and institutions too: papers titled so lead
    assert {openalex(e["node"]) for e in everyone["edges"][: len(known)]} == known


def test_a_known_item_outside_the_filter_is_left_out(client: GraphQLClient) -> None:
    years = {raw_works()[w]["publication_year"] for w in titled("Malaria")}
    window = (min(years), min(years))  # the oldest `Malaria` paper's year: only the ones of that year remain
    inside = titled("Malaria", window)
    assert 0 < len(inside) < 3
    page = hits(client, "malaria", "HYBRID", first=10, yearFrom=window[0], yearTo=window[1])
    found = [openalex(e["node"]) for e in page["edges"]]
    assert set(found[: len(inside)]) == inside
    assert [e["node"]["titleMatch"] for e in page["edges"]] == [w in inside for w in found]


def test_filters_apply_to_every_mode(client: GraphQLClient, graph: Driver, brute: Brute) -> None:
    query = "antimalarial drug resistance"
    in_window = {pid for pid, year in brute.year.items() if year is not None and 2010 <= year <= 2020}
    page = hits(client, query, "SEMANTIC", first=10, yearFrom=2010, yearTo=2020)
    assert_nearest(page, brute.nearest(query, keep=in_window), 10)
    for mode in ("KEYWORD", "HYBRID"):
        page = hits(client, query, mode, first=50, yearFrom=2010, yearTo=2020)
        assert page["edges"] and all(2010 <= e["node"]["node"]["year"] <= 2020 for e in page["edges"])
        assert {e["node"]["kind"] for e in page["edges"]} == {"PAPER"}, "a paper filter leaves out people"
    records, _, _ = graph.execute_query(
        "MATCH (p:Paper)-[:IN_CATEGORY]->(c:Category) WHERE c.name = $name RETURN collect(p.id) AS ids",
        name="Infectious Diseases",
    )
    in_category = set(records[0]["ids"])
    assert in_category
    for mode in ("KEYWORD", "SEMANTIC", "HYBRID"):
        page = hits(client, query, mode, first=100, category="Infectious Diseases")
        assert page["edges"] and set(paper_ids(page)) <= in_category, mode
    page = hits(client, query, "SEMANTIC", first=10, category="Infectious Diseases")
    assert_nearest(page, brute.nearest(query, keep=in_category), 10)


def bad_input(client: GraphQLClient, q: str, mode: str = "HYBRID") -> dict:
    body = client.post(
        "query($q: String!, $m: SearchMode!) { search(query: $q, mode: $m) { totalCount } }",
        {
            "q": q,
            "m": mode,
        },
    )
    (error,) = body["errors"]
    assert error["extensions"]["code"] == "BAD_USER_INPUT" and error["extensions"]["argument"] == "query", body
    return error


def test_bad_input_answers_or_fails_clearly(client: GraphQLClient, brute: Brute) -> None:
    for mode in ("KEYWORD", "SEMANTIC", "HYBRID"):
        assert "at least one word" in bad_input(client, "", mode)["message"]
        assert "at least one word" in bad_input(client, "🦠🧬 ?!", mode)["message"]
        # the server's argument cap (512 characters, 32 words) or search's own (500 characters, 32 words)
        assert "32 words" in bad_input(client, "malaria " * 33, mode)["message"]
        assert "at most 32 words and 500 characters" in bad_input(client, "m" * 501, mode)["message"]
    long_ok = " ".join(["plasmodium"] * 32)
    assert hits(client, long_ok, "HYBRID")["edges"]
    # other scripts and emoji beside words answer: by meaning where the (English) model reads them well enough to
    # reach SEMANTIC_FLOOR (else no semantic hit, rather than the nearest noise), by words where the words are in
    # the papers
    for query in ("paludisme résistance aux médicaments", "疟疾 耐药性", "🦠 malaria 💊"):
        assert_nearest(hits(client, query, "SEMANTIC", first=5), brute.nearest(query), 5, may_be_empty=True)
    assert hits(client, "🦠 malaria 💊", "HYBRID")["totalCount"] >= 5
    emoji = hits(client, "🦠 malaria 💊", "KEYWORD", first=100, types=["PAPER"])
    assert emoji["totalCount"] == len(word_matches(raw_works(), "malaria"))


def test_a_lone_surrogate_is_bad_input_in_every_mode(client: GraphQLClient) -> None:
    """JSON may escape half a UTF-16 pair (`\\udfff`); neither the model nor Neo4j takes one (it was INTERNAL)."""
    search = "query($q: String!, $m: SearchMode!) { search(query: $q, mode: $m) { totalCount } }"
    complete = "query($q: String!) { autocomplete(prefix: $q) { label } }"
    asked = [(search, {"q": "malaria \udfff", "m": mode}, "query") for mode in ("KEYWORD", "SEMANTIC", "HYBRID")]
    for query, variables, argument in [*asked, (complete, {"q": "mala\udfff"}, "prefix")]:
        body = json.dumps({"query": query, "variables": variables})  # ASCII: the surrogate as its escape
        response = client.http.post("/graphql", content=body, headers={"content-type": "application/json"})
        (error,) = response.json()["errors"]
        assert error["extensions"] == {"code": "BAD_USER_INPUT", "argument": argument}, (variables, error)
        assert "lone surrogate" in error["message"]


SIMILAR = """query($id: String!, $first: Int!) { paper(id: $id) { id vectorModel
  similar(first: $first) { score paper { id } } } }"""


def test_similar_papers_and_the_paper_without_text(client: GraphQLClient, brute: Brute) -> None:
    some = brute.ids[3]
    paper = client.data(SIMILAR, {"id": some, "first": 6})["paper"]
    cosines = brute.vectors @ brute.vectors[3]
    order = [i for i in sorted(range(len(brute.ids)), key=lambda i: (-round(float(cosines[i]), 4), brute.ids[i]))]
    want = [brute.ids[i] for i in order if brute.ids[i] != some][:6]
    assert [s["paper"]["id"] for s in paper["similar"]] == want
    assert paper["vectorModel"].startswith("all-MiniLM-L6-v2-int8")
    empty = client.data(SIMILAR, {"id": NO_TEXT, "first": 6})["paper"]
    assert empty["vectorModel"] is None and empty["similar"] == []
    assert NO_TEXT not in brute.openalex.values()
    error = client.post(SIMILAR, {"id": some, "first": 51})["errors"][0]
    assert error["extensions"]["code"] == "BAD_USER_INPUT"


SIMILAR_PEOPLE = """query($id: String!, $exclude: Boolean!) { researcher(id: $id) {
  similarResearchers(first: 50, excludeCoauthors: $exclude) { score nearbyPapers researcher { id ids { source id } } }
} }"""


def test_similar_researchers_with_and_without_coauthors(client: GraphQLClient) -> None:
    works = raw_works()
    mine = [w for w in works.values() if any(a["author"]["id"].endswith(KUNCHEVA) for a in w["authorships"])]
    coauthors = {a["author"]["id"].rsplit("/", 1)[-1] for w in mine for a in w["authorships"]} - {KUNCHEVA}

    def people(exclude: bool) -> list[tuple[str, float]]:
        rows = client.data(SIMILAR_PEOPLE, {"id": KUNCHEVA, "exclude": exclude})["researcher"]["similarResearchers"]
        return [(next(i["id"] for i in r["researcher"]["ids"] if i["source"] == "openalex"), r["score"]) for r in rows]

    everyone, strangers = people(False), people(True)
    assert everyone and strangers
    scores = [s for _, s in everyone]
    assert scores == sorted(scores, reverse=True) and scores[0] <= 1.0
    assert coauthors & {w for w, _ in everyone}, "her co-authors work on what she works on"
    assert not coauthors & {w for w, _ in strangers}
    kept = [(w, s) for w, s in everyone if w not in coauthors]
    assert strangers[: len(kept)] == kept


def test_the_readme_example_answers(client: GraphQLClient) -> None:
    """README's semantic search block, run as written on the slice (which holds its paper and researcher)."""
    text = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```graphql\n(.*?)```", text, flags=re.DOTALL) if "similarResearchers" in b]
    data = client.data(block)
    hits = [e["node"] for e in data["search"]["edges"]]
    assert len(hits) == 5 and all(h["node"]["year"] >= 2010 for h in hits)
    assert any(h["semanticScore"] is not None for h in hits)
    assert data["paper"]["vectorModel"] and len(data["paper"]["similar"]) == 3
    people = [p["score"] for p in data["researcher"]["similarResearchers"]]
    assert people and people == sorted(people, reverse=True)


PAGE_HITS = """query($q: String!, $mode: SearchMode!) { search(query: $q, mode: $mode, first: 20, types: [PAPER]) {
  totalCount edges { node { node { ... on Paper { canonicalUrl } } } } } }"""


@pytest.mark.parametrize(("mode", "api_mode"), [("meaning", "SEMANTIC"), ("words", "KEYWORD"), ("both", "HYBRID")])
def test_search_page_ranks_as_the_api_in_each_mode(client: GraphQLClient, mode: str, api_mode: str) -> None:
    query = "malaria drug dormancy"
    api = client.data(PAGE_HITS, {"q": query, "mode": api_mode})["search"]
    response = client.http.get("/search", params={"q": query, "type": "papers", "mode": mode})
    assert response.status_code == 200
    hits = response.text.split('<ol class="hits" id="hits">', 1)[1].split("</ol>", 1)[0]
    shown = re.findall(r'href="(/papers/[^"]+)"', hits)
    assert len(shown) == 20 and shown == [e["node"]["node"]["canonicalUrl"] for e in api["edges"]]
    assert f'<span data-metric="hitsTotal">{api["totalCount"]}</span>' in response.text
    assert f"<strong>{mode}</strong>" in response.text  # the mode in use is marked, the others are links
    for other in {"both", "words", "meaning"} - {mode}:
        assert f">{other}</a>" in response.text
