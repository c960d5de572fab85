"""The API over HTTP on the shared OpenAlex data, every answer checked against the raw JSON.

One module (one load of the shared data): lookups in every id form, the researcher profile,
papers, institutions, rankings, search, paging, the DataLoader query bound, and the gql client
running demo/EXAMPLES.md.
"""

from __future__ import annotations

import itertools
import re

import pytest
from gql import Client, gql
from gql.transport.httpx import HTTPXTransport

from tests.api.conftest import GraphQLClient
from tests.api.openalex_truth import OpenAlexTruth, abstract_of, short
from tests.conftest import shared_path
from weft.graph.identity.lookup import fold_name
from weft.graph.settings import PROJECT_ROOT
from weft.schema.support import prefetch
from weft.schema.types.institution import INSTITUTION_PAGE as INSTITUTION_TABLE
from weft.schema.types.paper import PAPER_PAGE as PAPER_TABLE
from weft.schema.types.researcher import PROFILE as PROFILE_TABLE

BUTCHER = "A5032473237"
RITSOS = "A5065371627"
BANGOR = "I161548249"
BANGOR_ROR = "006jb1a24"
OA_PAPER = "W2741809807"  # The state of OA (9 authors, cited by loaded works)
ARXIV_PAPER = "W3188841554"  # DOI 10.48550/arxiv.2108.04680


@pytest.fixture(scope="module")
def truth() -> OpenAlexTruth:
    return OpenAlexTruth.load(shared_path("openalex"))


@pytest.fixture(scope="module", autouse=True)
def loaded(openalex_graph):
    """Every test here runs on the shared OpenAlex data, loaded once for the module."""
    return openalex_graph


def openalex_id(node: dict) -> str | None:
    return next((i["id"] for i in node["ids"] if i["source"] == "openalex"), None)


# --- lookups -------------------------------------------------------------------------------


def test_paper_every_id_form(client: GraphQLClient, truth: OpenAlexTruth, openalex_graph) -> None:
    query = "query($id: String!) { paper(id: $id) { id slug title doi ids { source id } } }"
    base = client.data(query, {"id": OA_PAPER})["paper"]
    assert base["title"] == truth.works[OA_PAPER]["title"]
    doi = truth.works[OA_PAPER]["doi"].removeprefix("https://doi.org/")
    records, _, _ = openalex_graph.execute_query("MATCH (p:Paper {id: $id}) RETURN p.aliases AS aliases", id=base["id"])
    aliases = records[0]["aliases"] or []
    forms = [
        f"https://openalex.org/{OA_PAPER}",
        doi,
        doi.upper(),
        f"doi:{doi}",
        f"https://doi.org/{doi}",
        f"https://dx.doi.org/{doi.upper()}",
        base["id"],
        base["slug"],
        *aliases,
    ]
    for form in forms:
        assert client.data(query, {"id": form})["paper"]["id"] == base["id"], form
    arxiv = client.data(query, {"id": ARXIV_PAPER})["paper"]
    for form in ["2108.04680", "2108.04680v2", "arXiv:2108.04680", "10.48550/arXiv.2108.04680", "MAG:3188841554"]:
        assert client.data(query, {"id": form})["paper"]["id"] == arxiv["id"], form
    pmid_work = next(k for k, w in truth.works.items() if (w.get("ids") or {}).get("pmid"))
    pmid = truth.works[pmid_work]["ids"]["pmid"].rsplit("/", 1)[-1]
    assert openalex_id(client.data(query, {"id": f"PMID:{pmid}"})["paper"]) == pmid_work


def test_researcher_every_id_form(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    query = "query($id: String!) { researcher(id: $id) { id slug name orcid canonicalUrl } }"
    base = client.data(query, {"id": BUTCHER})["researcher"]
    orcid = truth.authors[BUTCHER]["orcid"]
    assert base["orcid"] == orcid.rsplit("/", 1)[-1]
    assert base["canonicalUrl"] == f"/researchers/{base['slug']}"
    for form in [f"https://openalex.org/{BUTCHER}", orcid, orcid.rsplit("/", 1)[-1], base["id"], base["slug"]]:
        assert client.data(query, {"id": form})["researcher"]["id"] == base["id"], form


def test_institution_every_id_form_and_names(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    query = "query($id: String!) { institution(id: $id) { id slug name ror country } }"
    base = client.data(query, {"id": BANGOR})["institution"]
    raw = truth.institutions[BANGOR]
    assert base["name"] == raw["display_name"] and base["ror"] == BANGOR_ROR
    forms = [
        BANGOR_ROR,
        f"https://ror.org/{BANGOR_ROR}",
        f"https://openalex.org/{BANGOR}",
        base["id"],
        base["slug"],
        "bangor university",
        "  BANGOR   University ",
        *raw["display_name_alternatives"],
    ]
    for form in forms:
        assert client.data(query, {"id": form})["institution"]["id"] == base["id"], form
    accented = next(e for e in truth.institutions.values() if e["display_name"] == "Université Paris Cité")
    found = client.data(query, {"id": "universite paris cite"})["institution"]
    assert found["ror"] == short(accented["ror"])


def test_ambiguous_institution_name_lists_candidates(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    name, owners = next((n, o) for n, o in sorted(truth.name_owners().items()) if len(o) > 1 and n == fold_name("BU"))
    body = client.post("query($id: String!) { institution(id: $id) { id } }", {"id": name.upper()})
    assert body["data"] == {"institution": None}
    (error,) = body["errors"]
    assert error["extensions"] == {"code": "BAD_USER_INPUT", "argument": "id"}
    for owner in owners:
        assert short(truth.institutions[owner]["ror"]) in error["message"]


# --- researcher profile --------------------------------------------------------------------

PROFILE = """
query Profile($id: String!) {
  researcher(id: $id) {
    id name paperCount citationCount hIndex i10Index
    worksCount { source value }
    authorPositions { first middle last matchedPapers }
    fields(scheme: "field") { category { name key } count }
    mostCitedPaper { title citedByCount ids { source id } }
    institutions { institution { name ror } firstYear lastYear paperCount }
    identities { source id url }
    coauthors(first: 100) { totalCount edges { node { weight researcher { ids { source id } paperCount } } } }
  }
}
"""


def test_profile_matches_raw_json(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    r = client.data(PROFILE, {"id": BUTCHER})["researcher"]
    expected = truth.profile(BUTCHER)
    for key, value in expected.items():
        assert r[key] == value, key
    assert r["worksCount"] == [{"source": "openalex", "value": truth.authors[BUTCHER]["works_count"]}]
    top = truth.most_cited(truth.works_of(BUTCHER))[0]
    assert (openalex_id(r["mostCitedPaper"]), r["mostCitedPaper"]["citedByCount"]) == top
    assert {"source": "openalex", "id": BUTCHER, "url": f"https://openalex.org/{BUTCHER}"} in r["identities"]
    field_counts: dict[str, int] = {}
    for w in truth.works_of(BUTCHER):
        for f in truth.field_of_work[short(w["id"])]:
            field_counts[f] = field_counts.get(f, 0) + 1
    assert {f["category"]["name"]: f["count"] for f in r["fields"]} == field_counts
    bangor = next(i for i in r["institutions"] if i["institution"]["ror"] == BANGOR_ROR)
    stating = [
        w
        for w in truth.works_of(BUTCHER)
        if any(
            short(i.get("id")) == BANGOR
            for a in w["authorships"]
            if short(a["author"]["id"]) == BUTCHER
            for i in a["institutions"]
        )
    ]
    assert bangor["paperCount"] == len(stating)


def test_coauthors_and_weights(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    r = client.data(PROFILE, {"id": BUTCHER})["researcher"]
    weights = truth.coauthor_weights(BUTCHER)
    assert weights[RITSOS] == 15
    got = {openalex_id(e["node"]["researcher"]): e["node"]["weight"] for e in r["coauthors"]["edges"]}
    assert r["coauthors"]["totalCount"] == len(weights)
    assert got == weights
    shown = [e["node"]["weight"] for e in r["coauthors"]["edges"]]
    assert shown == sorted(shown, reverse=True)
    ritsos = next(
        e["node"]["researcher"] for e in r["coauthors"]["edges"] if openalex_id(e["node"]["researcher"]) == RITSOS
    )
    assert ritsos["paperCount"] == truth.profile(RITSOS)["paperCount"]
    # every co-author's count (read with the folded page as the AUTHORED degree, not from their papers)
    shown_researchers = [e["node"]["researcher"] for e in r["coauthors"]["edges"]]
    counts = {openalex_id(x): x["paperCount"] for x in shown_researchers}
    assert counts == {a: truth.profile(a)["paperCount"] for a in counts}
    heavy = client.data(
        "query($id: String!) { researcher(id: $id) { coauthors(minWeight: 5) { totalCount } } }", {"id": BUTCHER}
    )["researcher"]["coauthors"]
    assert heavy["totalCount"] == sum(1 for w in weights.values() if w >= 5)
    recent = client.data(
        "query($id: String!) { researcher(id: $id) { "
        "coauthors(first: 100, sort: RECENT) { edges { node { lastYear } } } } }",
        {"id": BUTCHER},
    )["researcher"]["coauthors"]["edges"]
    last_years = [e["node"]["lastYear"] for e in recent]
    assert last_years == sorted(last_years, reverse=True) and len(last_years) == len(weights)


def test_papers_paging_and_sorting(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    query = """query($id: String!, $after: String, $sort: PaperSort!, $from: Int) {
      researcher(id: $id) { papers(first: 10, after: $after, sort: $sort, yearFrom: $from) {
        totalCount pageInfo { hasNextPage hasPreviousPage endCursor }
        edges { cursor node { publicationDate citedByCount ids { source id } } } } } }"""
    seen, after, pages = [], None, 0
    while True:
        page = client.data(query, {"id": BUTCHER, "after": after, "sort": "NEWEST"})["researcher"]["papers"]
        assert page["totalCount"] == 28
        assert page["pageInfo"]["hasPreviousPage"] == (pages > 0)
        seen += page["edges"]
        pages += 1
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert pages == 3
    assert sorted(openalex_id(e["node"]) for e in seen) == sorted(short(w["id"]) for w in truth.works_of(BUTCHER))
    dates = [e["node"]["publicationDate"] for e in seen]
    assert dates == sorted(dates, reverse=True)
    cited = client.data(query, {"id": BUTCHER, "sort": "MOST_CITED"})["researcher"]["papers"]["edges"]
    assert [e["node"]["citedByCount"] for e in cited] == [c for _, c in truth.most_cited(truth.works_of(BUTCHER))[:10]]
    recent = client.data(query, {"id": BUTCHER, "sort": "OLDEST", "from": 2020})["researcher"]["papers"]
    assert recent["totalCount"] == sum(1 for w in truth.works_of(BUTCHER) if w["publication_year"] >= 2020)


# --- papers --------------------------------------------------------------------------------

PAPER = """
query($id: String!) {
  paper(id: $id) {
    title year publicationDate citedByCount abstract type language isAuthorsTruncated referencedWorksCount
    citedByCountSources { source value }
    authors { position rank rawName researcher { name ids { source id } } affiliations { name ror } }
    categories { primary score category { key name scheme ids { source id url } } }
    citedBy(first: 100) { totalCount edges { node { ids { source id } } } }
    references(first: 100) { totalCount edges { node { ids { source id } } } }
  }
}
"""


def test_paper_page_matches_raw_json(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    for work_id in (OA_PAPER, "W3000695681", "W3045921891"):
        raw = truth.works[work_id]
        p = client.data(PAPER, {"id": work_id})["paper"]
        assert (p["title"], p["year"], p["publicationDate"], p["citedByCount"]) == (
            raw["title"],
            raw["publication_year"],
            raw["publication_date"],
            raw["cited_by_count"],
        )
        assert p["citedByCountSources"] == [{"source": "openalex", "value": raw["cited_by_count"]}]
        assert p["abstract"] == abstract_of(raw.get("abstract_inverted_index"))
        assert p["referencedWorksCount"] == raw["referenced_works_count"]
        assert [(a["position"], a["rank"], openalex_id(a["researcher"])) for a in p["authors"]] == [
            (a["author_position"], k, short(a["author"]["id"])) for k, a in enumerate(raw["authorships"])
        ]
        for got, want in zip(p["authors"], raw["authorships"], strict=True):
            assert sorted(i["ror"] for i in got["affiliations"]) == sorted(
                short(i["ror"]) for i in want["institutions"]
            )
        primary = [c["category"]["key"] for c in p["categories"] if c["primary"]]
        topic = short(raw["primary_topic"]["id"])
        assert {"source": "openalex", "id": topic, "url": f"https://openalex.org/{topic}"} in next(
            c["category"]["ids"] for c in p["categories"] if c["category"]["key"] == f"topic:{topic}"
        )
        assert f"topic:{short(raw['primary_topic']['id'])}" in primary
        assert {c["category"]["key"] for c in p["categories"] if c["category"]["scheme"] == "topic"} == {
            f"topic:{short(t['id'])}" for t in raw["topics"]
        }
        assert {openalex_id(e["node"]) for e in p["citedBy"]["edges"]} == truth.cited_by(work_id)
        assert p["citedBy"]["totalCount"] == len(truth.cited_by(work_id))
        assert {openalex_id(e["node"]) for e in p["references"]["edges"]} == truth.references(work_id)


# --- institutions --------------------------------------------------------------------------

ROSTER = """
query($id: String!, $children: Boolean!, $from: Int) {
  institution(id: $id) {
    name parent { name } children { ids { source id } }
    roster(first: 100, includeChildren: $children, yearFrom: $from) { totalCount
      edges { node { paperCount firstYear lastYear researcher { ids { source id } } } } }
    mostCited(first: 3) { citedByCount ids { source id } }
    collaborators(first: 5) { totalCount edges { node { weight researchers institution { ids { source id } } } } }
  }
}
"""


def test_roster_matches_raw_json(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    i = client.data(ROSTER, {"id": BANGOR, "children": False})["institution"]
    expected = truth.roster(BANGOR)
    got = {openalex_id(e["node"]["researcher"]): e["node"]["paperCount"] for e in i["roster"]["edges"]}
    assert i["roster"]["totalCount"] == len(expected)
    assert got == expected
    counts = [e["node"]["paperCount"] for e in i["roster"]["edges"]]
    assert counts == sorted(counts, reverse=True)
    top = [(openalex_id(p), p["citedByCount"]) for p in i["mostCited"]]
    assert top == truth.most_cited(truth.works_at(BANGOR))[:3]
    assert i["collaborators"]["totalCount"] > 0
    papers = client.data(
        "query($id: String!) { institution(id: $id) { papers(first: 100, sort: MOST_CITED) { totalCount "
        "edges { node { citedByCount ids { source id } } } } } }",
        {"id": BANGOR},
    )["institution"]["papers"]
    assert papers["totalCount"] == len(truth.works_at(BANGOR))
    expected = truth.most_cited(truth.works_at(BANGOR))
    assert [c for _, c in ranked(papers)] == [c for _, c in expected][: len(papers["edges"])]
    assert {w for w, _ in ranked(papers)} <= {w for w, _ in expected}
    weights = [e["node"]["weight"] for e in i["collaborators"]["edges"]]
    assert weights == sorted(weights, reverse=True) and all(w > 0 for w in weights)


def test_collaborators_are_co_publications_in_the_raw_json(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    """Each collaborating institution: the works stating it and Bangor (weight) and the authors stating it
    on them (researchers), from the raw JSON's newest versions."""
    shared: dict[str, set[str]] = {}
    authors: dict[str, set[str]] = {}
    for work in truth.works_at(BANGOR):
        for rank, a in enumerate(work["authorships"]):
            author = a["author"].get("id") or f"{work['id']} slot {rank}"
            for institution in a.get("institutions") or []:
                iid = short(institution.get("id"))
                if iid and iid != BANGOR:
                    shared.setdefault(iid, set()).add(work["id"])
                    authors.setdefault(iid, set()).add(author)
    i = client.data(ROSTER, {"id": BANGOR, "children": False})["institution"]
    got = {
        openalex_id(e["node"]["institution"]): (e["node"]["weight"], e["node"]["researchers"])
        for e in i["collaborators"]["edges"]
    }
    assert i["collaborators"]["totalCount"] == len(shared)
    assert got == {iid: (len(shared[iid]), len(authors[iid])) for iid in got}
    heaviest = sorted((len(works) for works in shared.values()), reverse=True)[:5]
    assert sorted((w for w, _ in got.values()), reverse=True) == heaviest and heaviest[0] > 1


def test_roster_year_window(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    i = client.data(ROSTER, {"id": BANGOR, "children": False, "from": 2024})["institution"]
    counts = {}
    for w in truth.works_at(BANGOR):
        if w["publication_year"] < 2024:
            continue
        for a in w["authorships"]:
            if any(short(x.get("id")) == BANGOR for x in a["institutions"]):
                counts[short(a["author"]["id"])] = counts.get(short(a["author"]["id"]), 0) + 1
    got = {openalex_id(e["node"]["researcher"]): e["node"]["paperCount"] for e in i["roster"]["edges"]}
    assert {k: v for k, v in got.items() if v} == counts
    assert all(e["node"]["lastYear"] is None or e["node"]["lastYear"] >= 2024 for e in i["roster"]["edges"])


def test_hierarchy_and_include_children(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    parent = "I1325736334"  # has a child that has a child of its own (PART_OF twice)
    children = truth.children(parent)
    assert children
    i = client.data(ROSTER, {"id": parent, "children": False})["institution"]
    assert children <= {openalex_id(c) for c in i["children"]}
    child = client.data(ROSTER, {"id": sorted(children)[0], "children": False})["institution"]
    assert child["parent"] is not None
    rolled = client.data(ROSTER, {"id": parent, "children": True})["institution"]
    own = set(truth.roster(parent))
    family = own.union(*(truth.roster(c) for c in truth.descendants(parent)))
    assert len(family) > len(own)
    assert rolled["roster"]["totalCount"] == len(family)
    assert {openalex_id(e["node"]["researcher"]) for e in rolled["roster"]["edges"]} == family


# --- collections ---------------------------------------------------------------------------

MOST_CITED = """
query($category: String, $from: Int, $to: Int, $institution: String, $researcher: String, $after: String) {
  mostCited(category: $category, yearFrom: $from, yearTo: $to, institution: $institution, researcher: $researcher,
            first: 5, after: $after) {
    totalCount pageInfo { endCursor } edges { node { citedByCount year ids { source id } } } } }
"""


def ranked(conn: dict) -> list[tuple[str, int]]:
    return [(openalex_id(e["node"]), e["node"]["citedByCount"]) for e in conn["edges"]]


def test_most_cited_matches_raw_json(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    top = client.data(MOST_CITED)["mostCited"]
    assert top["totalCount"] == len(truth.works)
    assert ranked(top) == truth.most_cited()[:5]
    second = client.data(MOST_CITED, {"after": top["pageInfo"]["endCursor"]})["mostCited"]
    assert ranked(second) == truth.most_cited()[5:10]
    cs = [w for k, w in truth.works.items() if "Computer Science" in truth.field_of_work[k]]
    by_field = client.data(MOST_CITED, {"category": "field:17"})["mostCited"]
    assert by_field["totalCount"] == len(cs) and ranked(by_field) == truth.most_cited(cs)[:5]
    window = [w for w in truth.works.values() if 2018 <= w["publication_year"] <= 2020]
    assert ranked(client.data(MOST_CITED, {"from": 2018, "to": 2020})["mostCited"]) == truth.most_cited(window)[:5]
    at_bangor = client.data(MOST_CITED, {"institution": "Bangor University"})["mostCited"]
    assert ranked(at_bangor) == truth.most_cited(truth.works_at(BANGOR))[:5]
    by_butcher = client.data(MOST_CITED, {"researcher": BUTCHER})["mostCited"]
    assert ranked(by_butcher) == truth.most_cited(truth.works_of(BUTCHER))[:5]


def test_papers_with_filter(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    query = """query($f: PaperFilterInput) { papers(filter: $f, sort: OLDEST, first: 100) {
      totalCount edges { node { year citedByCount ids { source id } } } } }"""
    f = {"researcher": BUTCHER, "yearFrom": 2015, "minCitations": 10}
    got = client.data(query, {"f": f})["papers"]
    want = [w for w in truth.works_of(BUTCHER) if w["publication_year"] >= 2015 and w["cited_by_count"] >= 10]
    assert got["totalCount"] == len(want)
    assert {openalex_id(e["node"]) for e in got["edges"]} == {short(w["id"]) for w in want}
    years = [e["node"]["year"] for e in got["edges"]]
    assert years == sorted(years)


def test_search_and_autocomplete(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    query = """query($q: String!, $types: [SearchType!]) { search(query: $q, types: $types, first: 50) {
      totalCount edges { node { kind score node { __typename ... on Paper { title ids { source id } }
      ... on Researcher { name ids { source id } } ... on Institution { name } } } } } }"""
    papers = client.data(query, {"q": "visualisation", "types": ["PAPER"]})["search"]
    expected = truth.text_matches("visualisation")
    assert papers["totalCount"] == len(expected)
    assert {openalex_id(e["node"]["node"]) for e in papers["edges"]} == expected
    scores = [e["node"]["score"] for e in papers["edges"]]
    assert scores == sorted(scores, reverse=True) and all(s > 0 for s in scores)
    people = client.data(query, {"q": "Butcher", "types": ["RESEARCHER"]})["search"]["edges"]
    assert BUTCHER in {openalex_id(e["node"]["node"]) for e in people}
    assert all("butcher" in e["node"]["node"]["name"].lower() for e in people)
    mixed = client.data(query, {"q": "Bangor"})["search"]["edges"]
    assert {"Institution", "Researcher"} & {e["node"]["node"]["__typename"] for e in mixed}
    assert any(e["node"]["node"].get("name") == "Bangor University" for e in mixed)
    # Lucene syntax is text; any word of the query matches except a stop word alone; every word matches first
    hostile_query = """query($q: String!) { search(query: $q, types: [PAPER], mode: KEYWORD, first: 50) {
      totalCount edges { node { matchedAllTerms node { ... on Paper { ids { source id } } } } } } }"""
    hostile = client.data(hostile_query, {"q": 'GloVe: "Global Vectors" (for) AND word~ representation*'})["search"]
    content = ["glove", "global", "vectors", "word", "representation"]
    anywhere = set().union(*(truth.text_matches(w) for w in content))
    every = set.intersection(*(truth.text_matches(w) for w in [*content, "for", "and"]))
    assert len(every) == 1 and hostile["totalCount"] == len(anywhere) > 1
    leading = hostile["edges"][: len(every)]
    assert {openalex_id(e["node"]["node"]) for e in leading} == every
    assert [e["node"]["matchedAllTerms"] for e in hostile["edges"]] == [True] + [False] * (len(hostile["edges"]) - 1)
    for only_syntax in ('( ) * : "" ~', "🦠", "   "):
        errors = client.post("query($q: String!) { search(query: $q) { totalCount } }", {"q": only_syntax})["errors"]
        assert errors[0]["extensions"]["code"] == "BAD_USER_INPUT" and "at least one word" in errors[0]["message"]
    complete = client.data('{ autocomplete(prefix: "peter butch", first: 3) { kind id label } }')["autocomplete"]
    assert complete[0]["kind"] == "RESEARCHER" and complete[0]["label"] == "Peter Butcher"


def test_a_paper_pages_author_paper_counts_alone(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    """paperCount without the other metrics is each author's AUTHORED degree, read with the folded page."""
    query = "query($id: String!) { paper(id: $id) { authors { researcher { ids { source id } paperCount } } } }"
    authors = [a["researcher"] for a in client.data(query, {"id": OA_PAPER})["paper"]["authors"]]
    assert client.cypher_queries == 1 and len(authors) == 9
    counts = {openalex_id(x): x["paperCount"] for x in authors}
    assert counts == {a: truth.profile(a)["paperCount"] for a in counts}


# --- batching ------------------------------------------------------------------------------

PAGE = """
query($first: Int!) {
  mostCited(first: $first) { edges { node { id title
    authors { position researcher { id name paperCount hIndex } affiliations { name parent { name } } }
    categories { primary category { key name } } } } }
}
"""


def test_page_query_count_is_independent_of_page_size(client: GraphQLClient) -> None:
    counts = {}
    for first in (6, 12, 24):
        data = client.data(PAGE, {"first": first})
        assert len(data["mostCited"]["edges"]) == first
        assert sum(len(e["node"]["authors"]) for e in data["mostCited"]["edges"]) > first
        counts[first] = client.cypher_queries
    # page, authorships, categories, researcher metrics, institutions, parents
    assert counts == {6: 6, 12: 6, 24: 6}


CONNECTIONS_OF_ITEMS = """
query($first: Int!) { mostCited(first: $first) { edges { node {
  citedBy(first: 2, sort: NEWEST) { totalCount edges { node { title } } }
  references(first: 2) { totalCount }
  authors { researcher { ids { source id } coauthors(first: 2) { totalCount edges { node { weight } } }
    papers(first: 1, category: "field:17", sort: MOST_CITED) { totalCount } } } } } } }
"""


def test_connections_of_list_items_are_batched(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    counts = {}
    for first in (4, 16):
        edges = client.data(CONNECTIONS_OF_ITEMS, {"first": first})["mostCited"]["edges"]
        assert len(edges) == first
        counts[first] = client.cypher_queries
    ranked_ids = [w for w, _ in truth.most_cited()[:16]]
    got = [e["node"]["citedBy"]["totalCount"] for e in edges]
    assert got == [len(truth.cited_by(w)) for w in ranked_ids]
    assert [e["node"]["references"]["totalCount"] for e in edges] == [len(truth.references(w)) for w in ranked_ids]
    for author in (a["researcher"] for e in edges for a in e["node"]["authors"][:3]):
        works = truth.works_of(openalex_id(author))
        cs_works = [w for w in works if "Computer Science" in truth.field_of_work[short(w["id"])]]
        assert author["coauthors"]["totalCount"] == len(truth.coauthor_weights(openalex_id(author)))
        assert author["papers"]["totalCount"] == len(cs_works)
    # page, cited-by pages, reference pages, authorships, co-author pages, category lookup, paper pages
    assert counts == {4: 7, 16: 7}


INSTITUTIONS_OF_ITEMS = """
{ mostCited(first: FIRST) { edges { node { authors { affiliations {
  ids { source id } roster(first: 1) { totalCount } collaborators(first: 1) { totalCount }
  mostCited(first: 1) { citedByCount } papers(first: 1, includeChildren: true) { totalCount } } } } } } }
"""


def test_institution_connections_of_list_items_are_batched(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    counts = {}
    for first in (2, 8):
        # a literal `first`: the cost rule counts a variable as the maximum, 100
        edges = client.data(INSTITUTIONS_OF_ITEMS.replace("FIRST", str(first)))["mostCited"]["edges"]
        affiliations = [i for e in edges for a in e["node"]["authors"] for i in a["affiliations"]]
        assert len(affiliations) > first
        counts[first] = client.cypher_queries
    for inst in affiliations[:10]:
        oa = openalex_id(inst)
        assert inst["roster"]["totalCount"] == len(truth.roster(oa))
        assert inst["mostCited"][0]["citedByCount"] == truth.most_cited(truth.works_at(oa))[0][1]
        family = {oa} | truth.descendants(oa)
        stating = {
            short(w["id"])
            for w in truth.works.values()
            if any(
                short(i.get("id")) in family for a in w.get("authorships") or [] for i in a.get("institutions") or []
            )
        }
        assert inst["papers"]["totalCount"] == len(stating)
    # page, authorships, institutions, rosters, collaborators, most-cited pages, families, then the
    # includeChildren paper pages (a second batch: they wait for the families)
    assert counts == {2: 8, 8: 8}


COAUTHOR_PROFILES = """
query($id: String!, $first: Int!) { researcher(id: $id) { coauthors(first: $first) { edges { node { researcher {
  paperCount hIndex authorPositions { first } fields(first: 3) { count } mostCitedPaper { title }
  institutions { institution { name } } sameName { evidence } } } } } } }
"""


def test_profile_fields_of_list_items_are_batched(client: GraphQLClient) -> None:
    counts = {}
    for first in (3, 20):
        edges = client.data(COAUTHOR_PROFILES, {"id": BUTCHER, "first": first})["researcher"]["coauthors"]["edges"]
        assert len(edges) == first and all(e["node"]["researcher"]["paperCount"] >= 1 for e in edges)
        counts[first] = client.cypher_queries
    # the profile query (lookup, co-author page and the co-authors' metrics folded), then one query each:
    # positions, fields, most cited, institutions, same name
    assert counts == {3: 6, 20: 6}


# --- one Cypher query per root field (issue 9): folded answers equal the DataLoader path's ---------

# Before each argument-taking field, an alias with other arguments: the alias is folded, the README's
# field loads through its DataLoader.
DECOYS = {
    "ResearcherProfile": {
        "fields": "fields(first: 1) { count }",
        "papers": "papers(first: 1) { totalCount }",
        "coauthors": "coauthors(first: 1) { totalCount }",
    },
    "PaperPage": {"citedBy": "citedBy(first: 1) { totalCount }", "references": "references(first: 1) { totalCount }"},
}


def readme_query(name: str) -> str:
    """The README's ```graphql block `query <name>`."""
    blocks = re.findall(r"```graphql\n(.*?)```", (PROJECT_ROOT / "README.md").read_text(encoding="utf-8"), re.DOTALL)
    return next(b for b in blocks if re.search(rf"query {name}\b", b))


def decoyed(query: str, decoys: dict[str, str]) -> str:
    """`query` with `decoy_<field>: <decoy>` asked just before each field named in `decoys`."""
    for name, decoy in decoys.items():
        query, n = re.subn(rf"^(\s+)({name}\()", rf"\1decoy_{name}: {decoy}\n\1\2", query, count=1, flags=re.M)
        assert n == 1, name
    return query


@pytest.mark.parametrize(("name", "unfolded"), [("ResearcherProfile", 9), ("PaperPage", 6)])
def test_readme_query_is_one_cypher_query(client: GraphQLClient, monkeypatch, name: str, unfolded: int) -> None:
    query = readme_query(name)
    folded = client.data(query)
    assert client.cypher_queries == 1
    root = next(iter(folded))
    assert folded[root] is not None
    with monkeypatch.context() as m:
        m.setattr(prefetch, "FOLDING", False)
        assert client.data(query) == folded
        assert client.cypher_queries == unfolded
    decoy = client.data(decoyed(query, DECOYS[name]))[root]
    assert client.cypher_queries > 1
    assert {k: v for k, v in decoy.items() if not k.startswith("decoy_")} == folded[root]


def test_a_merged_away_id_reads_the_same_profile(client: GraphQLClient, openalex_graph) -> None:
    records, _, _ = openalex_graph.execute_query(
        "MATCH (r:Researcher {openalex_id: $oa}) RETURN r.aliases AS aliases", oa=BUTCHER
    )
    alias = records[0]["aliases"][0]
    query = readme_query("ResearcherProfile")
    by_id = client.data(query)
    by_alias = client.data(query.replace(f'"{BUTCHER}"', f'"{alias}"'))
    assert client.cypher_queries == 3  # the profile by the alias finds nothing, the alias lookup, the profile
    assert by_alias == by_id


TWO_OF_EACH = """query($id: String!) { researcher(id: $id) {
  top: papers(first: 2, sort: MOST_CITED) { totalCount edges { node { citedByCount ids { source id } } } }
  papers(first: 7) { totalCount pageInfo { hasNextPage } edges { node { publicationDate } } }
  heavy: coauthors(first: 1) { edges { node { weight researcher { paperCount ids { source id } } } } }
  coauthors(first: 4, sort: RECENT) { totalCount edges { node { lastYear researcher { hIndex } } } }
  fields(scheme: "topic", first: 2) { count }
  field: fields(first: 1) { count category { name } }
} }"""


def test_aliases_with_other_arguments_answer_each(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    r = client.data(TWO_OF_EACH, {"id": BUTCHER})["researcher"]
    assert [e["node"]["citedByCount"] for e in r["top"]["edges"]] == [
        c for _, c in truth.most_cited(truth.works_of(BUTCHER))[:2]
    ]
    assert (r["top"]["totalCount"], r["papers"]["totalCount"], len(r["papers"]["edges"])) == (28, 28, 7)
    assert r["papers"]["pageInfo"]["hasNextPage"]
    dates = [e["node"]["publicationDate"] for e in r["papers"]["edges"]]
    assert dates == sorted(dates, reverse=True)
    heavy = r["heavy"]["edges"][0]["node"]
    assert (openalex_id(heavy["researcher"]), heavy["weight"]) == (RITSOS, truth.coauthor_weights(BUTCHER)[RITSOS])
    assert heavy["researcher"]["paperCount"] == truth.profile(RITSOS)["paperCount"]
    years = [e["node"]["lastYear"] for e in r["coauthors"]["edges"]]
    assert len(years) == 4 and years == sorted(years, reverse=True)
    field_counts: dict[str, int] = {}
    for w in truth.works_of(BUTCHER):
        for f in truth.field_of_work[short(w["id"])]:
            field_counts[f] = field_counts.get(f, 0) + 1
    assert [(f["category"]["name"], f["count"]) for f in r["field"]] == [max(field_counts.items(), key=lambda x: x[1])]
    # each alias answers as it does when asked alone
    for alias, text in re.findall(r"^  (?:(\w+): )?(\w+\(.*)$", TWO_OF_EACH, flags=re.M):
        alone = client.data(f"query($id: String!) {{ researcher(id: $id) {{ {text} }} }}", {"id": BUTCHER})
        field = text.split("(")[0]
        assert r[alias or field] == alone["researcher"][field], alias or field


FRAGMENTED = """query($id: String!, $no: Boolean!) { researcher(id: $id) {
  ...Counts
  ... on Researcher { papers(first: 3) @include(if: $no) { totalCount } institutions { paperCount } }
  hIndex @skip(if: $no) mostCitedPaper @skip(if: true) { title } }
}
fragment Counts on NamedEntity { name ... on Researcher { paperCount
  coauthors(first: 2) { edges { node { researcher { hIndex name } } } } } }"""


@pytest.mark.parametrize("no", [True, False])
def test_fragments_and_directives_fold(client: GraphQLClient, monkeypatch, no: bool) -> None:
    folded = client.data(FRAGMENTED, {"id": BUTCHER, "no": no})
    assert client.cypher_queries == 1
    assert ("papers" in folded["researcher"]) == no and ("hIndex" in folded["researcher"]) != no
    with monkeypatch.context() as m:
        m.setattr(prefetch, "FOLDING", False)
        assert client.data(FRAGMENTED, {"id": BUTCHER, "no": no}) == folded


KEPT_SELECTION = """query($id: String!, $n: Int!, $more: Boolean!) { researcher(id: $id) { name
  papers(first: $n) { edges { node { title } } } ...More } }
fragment More on Researcher { coauthors(first: 2) @include(if: $more) { totalCount } }"""


def test_a_kept_selection_follows_the_variables_it_uses(client: GraphQLClient, monkeypatch) -> None:
    """Issue 53: a root's selection is worked out once per query text and kept across requests (its fold too),
    keyed by the variables used inside it: another `$id` walks nothing again, another `$n` (or `$more`, in
    a fragment's directive) folds anew, so its page is primed under the key its resolver loads (one query)."""
    walks: list[int] = []
    walk = prefetch._selection_of  # noqa: SLF001
    monkeypatch.setattr(prefetch, "_selection_of", lambda *args: walks.append(1) or walk(*args))
    walked: list[int] = []
    for rid, n, more in [(BUTCHER, 1, False), (RITSOS, 1, False), (BUTCHER, 3, True), (RITSOS, 3, False)]:
        before = len(walks)
        answer = client.data(KEPT_SELECTION, {"id": rid, "n": n, "more": more})["researcher"]
        walked.append(len(walks) - before)
        assert client.cypher_queries == 1
        assert len(answer["papers"]["edges"]) == n
        assert ("coauthors" in answer) == more
    assert walked[0] > 0 and walked[1] == 0, walked  # another id: the kept selection
    assert walked[2] > 0 and walked[3] > 0, walked  # another $n, another $more: walked anew
    with monkeypatch.context() as m:
        m.setattr(prefetch, "FOLDING", False)
        assert client.data(KEPT_SELECTION, {"id": RITSOS, "n": 3, "more": False})["researcher"] == answer


# --- folded pages read only the properties their papers are asked (issue 9) --------------------

EVERY_PAPER_FIELD = """id slug canonicalUrl title year publicationDate citedByCount doi arxivId abstract type language
  venue license pdfUrl referencedWorksCount isAuthorsTruncated ids { source id url } versions { version date }
  citedByCountSources { source value }"""

PICKED_PAGES = [
    (
        "query($id: String!) { researcher(id: $id) { papers(first: 30, sort: MOST_CITED) { edges { node { %s } } } } }",
        BUTCHER,
    ),
    ("query($id: String!) { paper(id: $id) { citedBy(first: 30) { edges { node { %s } } } } }", OA_PAPER),
    ("query($id: String!) { paper(id: $id) { references(first: 30) { edges { node { %s } } } } }", "W3045921891"),
    ("query($id: String!) { mostCited(first: 40, researcher: $id) { edges { cursor node { %s } } } }", BUTCHER),
    ("query($id: String!) { papers(filter: {researcher: $id}, first: 40) { edges { cursor node { %s } } } }", BUTCHER),
]


EVERY_RESEARCHER_FIELD = """id slug canonicalUrl name altNames orcid isPerson pageRank community paperCount
  ids { source id url } identities { source id } worksCount { source value } citedByCountSources { source value }"""


@pytest.mark.parametrize("fields", [EVERY_RESEARCHER_FIELD, "name", "paperCount orcid", "hIndex ids { id }"])
def test_a_folded_page_of_coauthors_answers_every_field_as_whole_nodes_do(
    client: GraphQLClient, monkeypatch, fields: str
) -> None:
    query = "query($id: String!) { researcher(id: $id) { coauthors(first: 30) { edges { node { weight researcher {"
    query += " %s } } } } } }"
    folded = client.data(query % fields, {"id": BUTCHER})["researcher"]
    assert client.cypher_queries == 1
    people = [e["node"]["researcher"] for e in folded["coauthors"]["edges"]]
    assert len(people) == 30
    if fields == EVERY_RESEARCHER_FIELD:
        assert all(p["name"] and p["ids"] for p in people)
        for asked in ("orcid", "altNames", "worksCount", "citedByCountSources"):
            assert any(p[asked] for p in people), asked
    with monkeypatch.context() as m:
        m.setattr(prefetch, "FOLDING", False)
        assert client.data(query % fields, {"id": BUTCHER})["researcher"] == folded


@pytest.mark.parametrize("fields", [EVERY_RESEARCHER_FIELD, "name", "paperCount orcid", "hIndex ids { id }"])
def test_a_folded_paper_reads_its_authors_as_whole_nodes_do(client: GraphQLClient, monkeypatch, fields: str) -> None:
    query = "query($id: String!) { paper(id: $id) { authors { position researcher { " + fields + " } } } }"
    folded = client.data(query, {"id": OA_PAPER})["paper"]
    assert client.cypher_queries == 1 and len(folded["authors"]) == 9
    with monkeypatch.context() as m:
        m.setattr(prefetch, "FOLDING", False)
        assert client.data(query, {"id": OA_PAPER})["paper"] == folded


def test_a_papers_authors_met_again_below_asking_more_are_read_whole(client: GraphQLClient, monkeypatch) -> None:
    """The folded authors of the paper hold names alone; each author's papers include it again, its authors
    asked there with works counts: they are read again, whole."""
    query = """query($id: String!) { paper(id: $id) { id authors { researcher { name
      papers(first: 10, sort: MOST_CITED) { edges { node { id authors { researcher { worksCount { value } } } } } }
    } } } }"""
    folded = client.data(query, {"id": OA_PAPER})["paper"]
    again = [
        e["node"]["authors"]
        for a in folded["authors"]
        for e in a["researcher"]["papers"]["edges"]
        if e["node"]["id"] == folded["id"]
    ]
    assert again and any(a["researcher"]["worksCount"] for a in again[0])
    with monkeypatch.context() as m:
        m.setattr(prefetch, "FOLDING", False)
        assert client.data(query, {"id": OA_PAPER})["paper"] == folded


def test_a_coauthor_page_met_again_below_asking_more_is_read_whole(client: GraphQLClient, monkeypatch) -> None:
    """Butcher's folded co-author page holds names alone; his most cited paper's authors include him, and his
    same page asked there wants works counts: it is read again, whole."""
    query = """query($id: String!) { researcher(id: $id) {
      id coauthors(first: 3) { edges { node { researcher { name } } } }
      mostCitedPaper { authors { researcher { id coauthors(first: 3) { edges { node { researcher {
        name worksCount { value } } } } } } } } } }"""
    folded = client.data(query, {"id": BUTCHER})["researcher"]
    again = [
        a["researcher"]["coauthors"]
        for a in folded["mostCitedPaper"]["authors"]
        if a["researcher"]["id"] == folded["id"]
    ]
    assert len(again) == 1 and any(e["node"]["researcher"]["worksCount"] for e in again[0]["edges"])
    with monkeypatch.context() as m:
        m.setattr(prefetch, "FOLDING", False)
        assert client.data(query, {"id": BUTCHER})["researcher"] == folded


@pytest.mark.parametrize(("query", "id_"), PICKED_PAGES)
@pytest.mark.parametrize("fields", [EVERY_PAPER_FIELD, "title", "canonicalUrl citedByCountSources { value }"])
def test_a_folded_page_of_papers_answers_every_field_as_whole_nodes_do(
    client: GraphQLClient, monkeypatch, query: str, id_: str, fields: str
) -> None:
    folded = client.data(query % fields, {"id": id_})
    page = next(iter(folded.values()))
    nodes = [e["node"] for e in (page if "edges" in page else next(iter(page.values())))["edges"]]
    assert len(nodes) >= 3
    if fields == EVERY_PAPER_FIELD:  # what the whole node holds shows up: the projection lost nothing
        assert all(n["ids"] and n["canonicalUrl"] for n in nodes)
        for asked in ("abstract", "title", "citedByCountSources"):
            assert any(n[asked] for n in nodes), asked
    with monkeypatch.context() as m:
        m.setattr(prefetch, "FOLDING", False)
        assert client.data(query % fields, {"id": id_}) == folded


def test_aliases_of_one_folded_page_each_get_what_they_ask(client: GraphQLClient, monkeypatch) -> None:
    query = """query($id: String!) { researcher(id: $id) {
      papers(first: 5) { edges { node { title } } }
      again: papers(first: 5) { edges { node { abstract doi } alias: node { year } } }
    } }"""
    folded = client.data(query, {"id": BUTCHER})["researcher"]
    assert client.cypher_queries == 1
    assert all(e["node"]["abstract"] and e["alias"]["year"] for e in folded["again"]["edges"])
    with monkeypatch.context() as m:
        m.setattr(prefetch, "FOLDING", False)
        assert client.data(query, {"id": BUTCHER})["researcher"] == folded


def test_a_field_meeting_a_page_folded_for_fewer_properties_reads_it_whole(client: GraphQLClient, monkeypatch) -> None:
    """The folded page of Butcher's papers holds titles alone; the same page reached again below (Butcher is an
    author of his papers) asks abstracts, so it is read again, whole."""
    query = """query($id: String!) { researcher(id: $id) { id papers(first: 3) { edges { node { title
      authors { researcher { id papers(first: 3) { edges { node { abstract } } } } } } } } } }"""
    folded = client.data(query, {"id": BUTCHER})["researcher"]
    again = [
        a["researcher"]["papers"]
        for e in folded["papers"]["edges"]
        for a in e["node"]["authors"]
        if a["researcher"]["id"] == folded["id"]
    ]
    assert len(again) == 3 and any(e["node"]["abstract"] for e in again[0]["edges"])
    with monkeypatch.context() as m:
        m.setattr(prefetch, "FOLDING", False)
        assert client.data(query, {"id": BUTCHER})["researcher"] == folded


# --- the institution page in one query, lists paged by key (issue 9) ---------------------------

ROSTER_DECOYS = {
    "roster": "roster(first: 1) { totalCount }",
    "mostCited": "mostCited(first: 1) { title }",
    "collaborators": "collaborators(first: 1) { totalCount }",
}


def test_readme_roster_is_one_cypher_query(client: GraphQLClient, monkeypatch, truth: OpenAlexTruth) -> None:
    query = readme_query("InstitutionRoster")
    folded = client.data(query)
    assert client.cypher_queries == 1
    i = folded["institution"]
    assert i["roster"]["totalCount"] == len(truth.roster(BANGOR)) and len(i["roster"]["edges"]) == 10
    top = [p["citedByCount"] for p in i["mostCited"]]
    assert top == [c for _, c in truth.most_cited(truth.works_at(BANGOR))[:3]]
    assert i["collaborators"]["edges"] and {"source": "ror", "id": BANGOR_ROR} in [
        {k: x[k] for k in ("source", "id")} for x in i["ids"]
    ]
    with monkeypatch.context() as m:
        m.setattr(prefetch, "FOLDING", False)
        assert client.data(query) == folded
        assert client.cypher_queries == 5  # lookup, parents, roster, most cited, collaborators
    decoy = client.data(decoyed(query, ROSTER_DECOYS))["institution"]
    assert client.cypher_queries > 1
    assert {k: v for k, v in decoy.items() if not k.startswith("decoy_")} == i
    assert client.data(query.replace(f'"{BANGOR_ROR}"', '"Bangor University"')) == folded
    assert client.cypher_queries == 2  # the name look-up, then the page by id


KEYED = """query($after: String) { mostCited(first: 100, after: $after) {
  totalCount pageInfo { hasNextPage hasPreviousPage endCursor }
  edges { node { id publicationDate citedByCount ids { source id } } } } }"""


def in_order(a: dict, b: dict) -> bool:
    """Most cited first, then the newest, then the smaller internal id (every paper here has a date)."""
    ka, kb = (a["citedByCount"], a["publicationDate"]), (b["citedByCount"], b["publicationDate"])
    return ka > kb or (ka == kb and a["id"] < b["id"])


def test_most_cited_pages_by_key_cover_every_work_once(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    seen: list[dict] = []
    after = None
    while len(seen) <= len(truth.works):
        conn = client.data(KEYED, {"after": after})["mostCited"]
        assert conn["totalCount"] == len(truth.works) and conn["pageInfo"]["hasPreviousPage"] == (after is not None)
        seen += [e["node"] for e in conn["edges"]]
        if not conn["pageInfo"]["hasNextPage"]:
            break
        after = conn["pageInfo"]["endCursor"]
    assert sorted(openalex_id(n) for n in seen) == sorted(truth.works)
    assert [n["citedByCount"] for n in seen] == [c for _, c in truth.most_cited()]
    assert all(in_order(a, b) for a, b in itertools.pairwise(seen))


PAPERS_KEYED = """query($after: String, $sort: PaperSort!) { papers(first: 100, after: $after, sort: $sort) {
  totalCount pageInfo { hasNextPage endCursor } edges { node { id publicationDate ids { source id } } } } }"""


@pytest.mark.parametrize("sort", ["NEWEST", "OLDEST"])
def test_papers_pages_by_key_cover_every_work_once(client: GraphQLClient, truth: OpenAlexTruth, sort: str) -> None:
    seen: list[dict] = []
    after = None
    while len(seen) <= len(truth.works):
        conn = client.data(PAPERS_KEYED, {"after": after, "sort": sort})["papers"]
        assert conn["totalCount"] == len(truth.works)
        seen += [e["node"] for e in conn["edges"]]
        if not conn["pageInfo"]["hasNextPage"]:
            break
        after = conn["pageInfo"]["endCursor"]
    assert sorted(openalex_id(n) for n in seen) == sorted(truth.works)
    keys = [(n["publicationDate"], n["id"]) for n in seen]
    newest = sorted(sorted(keys, key=lambda k: k[1]), key=lambda k: k[0], reverse=True)
    assert keys == (newest if sort == "NEWEST" else sorted(keys))


def test_keyed_lists_refuse_other_cursors(client: GraphQLClient) -> None:
    newest = client.data("{ papers(first: 2) { pageInfo { endCursor } } }")["papers"]["pageInfo"]["endCursor"]
    old_offset = "d2VmdDp2MTox"  # weft:v1:1, a position cursor from before keyset paging
    for query, cursor in (
        ("query($a: String) { mostCited(first: 2, after: $a) { totalCount } }", newest),
        ("query($a: String) { papers(first: 2, after: $a) { totalCount } }", old_offset),
        ("query($a: String) { mostCited(first: 2, after: $a) { totalCount } }", old_offset),
    ):
        error = client.post(query, {"a": cursor})["errors"][0]
        assert error["extensions"] == {"code": "BAD_USER_INPUT", "argument": "after"}, error


# --- a real client: gql with schema introspection runs demo/EXAMPLES.md ---------------------

EXAMPLES = PROJECT_ROOT / "demo" / "EXAMPLES.md"


def example_queries() -> dict[str, str]:
    """`{operation name: query}` for every ```graphql block of demo/EXAMPLES.md."""
    blocks = re.findall(r"```graphql\n(.*?)```", EXAMPLES.read_text(encoding="utf-8"), flags=re.DOTALL)
    return {re.search(r"query (\w+)", b).group(1): b for b in blocks}


def test_examples_run_with_gql_client(live_server, truth: OpenAlexTruth) -> None:
    examples = example_queries()
    assert set(examples) == {
        "ResearcherProfile",
        "PaperPage",
        "InstitutionRoster",
        "MostCited",
        "Search",
        "SemanticSearch",
    }
    transport = HTTPXTransport(url=live_server.url, timeout=60)
    with Client(transport=transport, fetch_schema_from_transport=True) as session:
        results = {name: session.execute(gql(text)) for name, text in examples.items()}
        assert session.client.schema.query_type.fields["researcher"].description
    profile = results["ResearcherProfile"]["researcher"]
    assert {k: profile[k] for k in ("paperCount", "hIndex")} == {
        k: truth.profile(BUTCHER)[k] for k in ("paperCount", "hIndex")
    }
    assert len(profile["papers"]["edges"]) == 5 and profile["papers"]["pageInfo"]["hasNextPage"]
    top = profile["coauthors"]["edges"][0]["node"]
    assert (top["researcher"]["name"], top["weight"]) == (
        "Panagiotis D. Ritsos",
        truth.coauthor_weights(BUTCHER)[RITSOS],
    )
    paper = results["PaperPage"]["paper"]
    assert paper["title"] == truth.works["W3000695681"]["title"]
    assert [a["position"] for a in paper["authors"]] == [
        a["author_position"] for a in truth.works["W3000695681"]["authorships"]
    ]
    assert sum(c["primary"] for c in paper["categories"]) == 1
    assert paper["citedBy"]["totalCount"] == len(truth.cited_by("W3000695681"))
    roster = results["InstitutionRoster"]["institution"]["roster"]
    assert roster["totalCount"] == len(truth.roster(BANGOR)) and len(roster["edges"]) == 10
    cs = [w for k, w in truth.works.items() if "Computer Science" in truth.field_of_work[k]]
    assert [e["node"]["citedByCount"] for e in results["MostCited"]["mostCited"]["edges"]] == [
        c for _, c in truth.most_cited(cs)[:5]
    ]
    hits = results["Search"]["search"]["edges"]
    assert hits and hits[0]["node"]["node"]["__typename"] == "Paper"
    assert "immersive" in hits[0]["node"]["node"]["title"].lower()
    assert results["Search"]["autocomplete"][0]["label"] == "Peter Butcher"
    # no vectors here (tests/api/test_demo_semantic.py runs it embedded): HYBRID is the word ranking alone
    semantic = results["SemanticSearch"]
    words = [e["node"] for e in semantic["search"]["edges"]]
    assert len(words) == 5 and all(h["semanticScore"] is None and h["keywordScore"] for h in words)
    assert semantic["paper"]["title"] == truth.works["W3000695681"]["title"]
    assert semantic["paper"]["vectorModel"] is None and semantic["paper"]["similar"] == []
    assert semantic["researcher"]["name"] == "Peter Butcher" and semantic["researcher"]["similarResearchers"] == []


# --- each folded part, asked alone, is answered by the one query (issue 53) ------------------------

PART_ROOTS = [
    ("researcher", BUTCHER, PROFILE_TABLE),
    ("paper", OA_PAPER, PAPER_TABLE),
    ("institution", BANGOR, INSTITUTION_TABLE),
]


@pytest.mark.parametrize(
    ("root", "id", "part"),
    [(root, id, part) for root, id, table in PART_ROOTS for part in table],
    ids=lambda x: getattr(x, "name", x) if not isinstance(x, str) else x,
)
def test_each_folded_part_alone_is_one_cypher_query(client: GraphQLClient, monkeypatch, root, id, part) -> None:
    """A part primed under another key than its field resolver loads with costs that resolver a query of its
    own: asked alone, each part of each root's table must be answered by the root's one query, as unfolded."""
    query = f'{{ {root}(id: "{id}") {{ id {part.example} }} }}'
    folded = client.data(query)
    assert folded[root] is not None
    assert client.cypher_queries == 1, (part.name, client.cypher_queries)
    with monkeypatch.context() as m:
        m.setattr(prefetch, "FOLDING", False)
        assert client.data(query) == folded
        assert client.cypher_queries > 1
