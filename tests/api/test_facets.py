"""`facets` and the per-year trends over HTTP on the shared OpenAlex data, every count checked against an
independent recount of the raw JSON in DuckDB (tests/api/facets_recount.py): every dimension under several
filter combinations."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from neo4j import Driver

from tests.api.conftest import GraphQLClient
from tests.api.facets_recount import DIMENSIONS, FacetRecount
from tests.api.openalex_truth import OpenAlexTruth
from tests.conftest import shared_path

BANGOR = "I161548249"
BUTCHER = "A5032473237"
FACETS = """query($by: [FacetDimension!]!, $filter: PaperFilterInput, $first: Int!, $order: FacetOrder!) {
  facets(by: $by, filter: $filter, first: $first, order: $order) {
    totalCount
    facets { dimension groupCount groups { key name count citationSum url } unknown { key count citationSum } }
  }
}"""

# (the API's filter, the same filter as SQL over the recount's `base` table)
FILTERS: list[tuple[dict[str, Any], str]] = [
    ({}, "TRUE"),
    ({"yearFrom": 2015, "yearTo": 2021, "type": "article"}, "year BETWEEN 2015 AND 2021 AND type = 'article'"),
    ({"institution": BANGOR}, "wid IN (SELECT wid FROM inst_pairs WHERE openalex = 'I161548249')"),
    (
        {"category": "field:17", "language": "en"},
        "language = 'en' AND wid IN (SELECT wid FROM category_pairs WHERE key = 'field:17')",
    ),
    ({"country": "gb", "yearFrom": 2010}, "year >= 2010 AND wid IN (SELECT wid FROM inst_pairs WHERE country = 'GB')"),
    (
        {"researcher": BUTCHER, "minCitations": 1},
        "cited >= 1 AND wid IN (SELECT wid FROM author_pairs WHERE openalex = 'A5032473237')",
    ),
]


@pytest.fixture(scope="module", autouse=True)
def loaded(openalex_graph: Driver) -> Driver:
    return openalex_graph


@pytest.fixture(scope="module")
def recount() -> FacetRecount:
    return FacetRecount(shared_path("openalex"))


@pytest.fixture(scope="module")
def source_keys(openalex_graph: Driver) -> dict[str, str]:
    """Each institution's, researcher's and category's internal id -> the key the recount groups it by (ROR,
    ORCID, OpenAlex id, category key)."""
    records, _, _ = openalex_graph.execute_query(
        "MATCH (n) WHERE n:Institution OR n:Researcher OR n:Category "
        "RETURN n.id AS id, coalesce(n.ror, n.orcid, n.key, n.openalex_id, n.scoped_key) AS key"
    )
    return {r["id"]: r["key"] for r in records}


def _asked(client: GraphQLClient, f: dict[str, Any], first: int = 800, order: str = "COUNT") -> dict[str, Any]:
    body = client.data(FACETS, {"by": list(DIMENSIONS), "filter": f, "first": first, "order": order})
    return body["facets"]


@pytest.mark.parametrize(("api_filter", "sql"), FILTERS, ids=[str(f) for f, _ in FILTERS])
def test_every_dimension_equals_the_recount(
    client: GraphQLClient, recount: FacetRecount, source_keys: dict[str, str], api_filter: dict[str, Any], sql: str
) -> None:
    answer = _asked(client, api_filter)
    assert client.cypher_queries <= 3  # the filter's lookups, then one statement for all ten dimensions
    assert [f["dimension"] for f in answer["facets"]] == list(DIMENSIONS)
    for facet in answer["facets"]:
        dimension = facet["dimension"]
        expected = recount.recount(dimension, sql)
        assert answer["totalCount"] == expected.total, dimension
        assert expected.total > 0, api_filter  # every combination finds papers
        assert facet["groupCount"] == len(expected.groups), dimension
        unknown = facet["unknown"]
        assert (unknown["key"], unknown["count"], unknown["citationSum"]) == (None, *expected.unknown), dimension
        groups = facet["groups"]
        counts = [g["count"] for g in groups]
        assert counts == sorted(counts, reverse=True), dimension
        keyed = {(source_keys[g["key"]] if g["url"] else g["key"]): (g["count"], g["citationSum"]) for g in groups}
        assert len(keyed) == len(groups), dimension
        if len(expected.groups) <= len(groups):
            assert keyed == expected.groups, dimension
        else:  # the first 800 by count: every group above the cut's count, each exactly
            cut = counts[-1]
            assert {k: v for k, v in keyed.items() if v[0] > cut} == {
                k: v for k, v in expected.groups.items() if v[0] > cut
            }, dimension
            assert all(expected.groups[k] == v for k, v in keyed.items()), dimension


def test_first_and_key_order(client: GraphQLClient, recount: FacetRecount) -> None:
    answer = client.data(FACETS, {"by": ["YEAR", "COUNTRY"], "filter": {}, "first": 3, "order": "KEY"})["facets"]
    years, countries = answer["facets"]
    expected = recount.recount("YEAR", "TRUE").groups
    assert [g["key"] for g in years["groups"]] == sorted(expected)[:3]
    assert years["groupCount"] == len(expected) and len(years["groups"]) == 3
    assert [g["key"] for g in countries["groups"]] == sorted(recount.recount("COUNTRY", "TRUE").groups)[:3]
    assert all(g["url"] is None for g in years["groups"])


def test_codes_are_named(client: GraphQLClient) -> None:
    answer = client.data(FACETS, {"by": ["COUNTRY", "LANGUAGE"], "filter": {}, "first": 50, "order": "KEY"})["facets"]
    countries, languages = ({g["key"]: g["name"] for g in f["groups"]} for f in answer["facets"])
    assert countries["GB"] == "United Kingdom" and all(name != key for key, name in countries.items())
    assert languages["en"] == "English"


def test_links_name_the_entity(client: GraphQLClient) -> None:
    answer = client.data(
        FACETS, {"by": ["INSTITUTION"], "filter": {"researcher": BUTCHER}, "first": 1, "order": "COUNT"}
    )["facets"]
    (top,) = answer["facets"][0]["groups"]
    institution = client.data("query($id: String!) { institution(id: $id) { id name canonicalUrl } }", {"id": BANGOR})
    assert top["key"] == institution["institution"]["id"] and top["name"] == institution["institution"]["name"]
    assert top["url"] == institution["institution"]["canonicalUrl"]


def test_bad_arguments_are_coded(client: GraphQLClient) -> None:
    for variables in ({"by": [], "first": 10}, {"by": ["YEAR"], "first": 0}, {"by": ["YEAR"], "first": 1001}):
        body = client.post(FACETS, {"filter": {}, "order": "COUNT", **variables})
        assert body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT", body


def test_papers_take_the_new_filters(client: GraphQLClient, recount: FacetRecount) -> None:
    query = "query($f: PaperFilterInput) { papers(filter: $f, first: 100) { totalCount edges { node { year } } } }"
    found = client.data(query, {"f": {"country": "GB", "yearFrom": 2010}})["papers"]
    assert found["totalCount"] == recount.recount("YEAR", FILTERS[4][1]).total
    assert all(e["node"]["year"] >= 2010 for e in found["edges"])


def test_search_query_filter(client: GraphQLClient) -> None:
    hits = client.data('{ search(query: "visualisation", types: [PAPER], mode: KEYWORD, first: 100) { totalCount } }')
    answer = client.data(
        FACETS,
        {"by": ["TYPE"], "filter": {"query": "visualisation", "mode": "KEYWORD"}, "first": 100, "order": "COUNT"},
    )["facets"]
    assert answer["totalCount"] == hits["search"]["totalCount"] > 0
    assert (
        sum(g["count"] for g in answer["facets"][0]["groups"]) + answer["facets"][0]["unknown"]["count"]
        == (answer["totalCount"])
    )


# --- trends ---------------------------------------------------------------------------------

TRENDS = """query($r: String!, $i: String!) {
  researcher(id: $r) { countsByYear { citationSource years { year works citations } } }
  institution(id: $i) { countsByYear { citationSource years { year works citations } } }
}"""


def test_counts_by_year(client: GraphQLClient, recount: FacetRecount) -> None:
    truth = OpenAlexTruth.load(shared_path("openalex"))
    data = client.data(TRENDS, {"r": BUTCHER, "i": BANGOR})
    researcher = data["researcher"]["countsByYear"]
    assert researcher["citationSource"] == "OPENALEX"
    stated = {c["year"]: c["cited_by_count"] for c in truth.authors[BUTCHER]["counts_by_year"]}
    assert {y["year"]: y["citations"] for y in researcher["years"] if y["year"] in stated} == stated
    works = recount.recount("YEAR", FILTERS[5][1].replace("cited >= 1 AND ", "")).groups
    assert {str(y["year"]): y["works"] for y in researcher["years"] if y["works"]} == {
        k: v[0] for k, v in works.items()
    }
    institution = data["institution"]["countsByYear"]
    assert institution["citationSource"] == "OPENALEX"
    inst_works = recount.recount("YEAR", FILTERS[2][1]).groups
    assert {str(y["year"]): y["works"] for y in institution["years"] if y["works"]} == {
        k: v[0] for k, v in inst_works.items()
    }


def test_counts_by_year_from_cites(client: GraphQLClient, openalex_graph: Driver) -> None:
    """A category has no stated counts: its citations per year are the CITES into its papers, by citing year."""
    records, _, _ = openalex_graph.execute_query(
        "MATCH (c:Category {key: 'field:17'})<-[:IN_CATEGORY]-(p:Paper)<-[:CITES]-(q:Paper) "
        "RETURN q.year AS year, count(*) AS n"
    )
    expected = {r["year"]: r["n"] for r in records if r["year"] is not None}
    category = client.data(
        '{ papers(filter: {category: "field:17"}, first: 1) { edges { node { categories { '
        "category { key countsByYear { citationSource years { year citations } } } } } } } }"
    )
    found = next(
        c["category"]["countsByYear"]
        for e in category["papers"]["edges"]
        for c in e["node"]["categories"]
        if c["category"]["key"] == "field:17"
    )
    assert found["citationSource"] == "CITES"
    assert {y["year"]: y["citations"] for y in found["years"] if y["citations"]} == expected
    assert expected  # the shared data has citations into computer science


# --- the site ----------------------------------------------------------------------------------


def _facet_counts(html: str, dimension: str) -> dict[str, int]:
    """{link text: count} of a facet table on the search page."""
    table = html[html.index(f'data-facet="{dimension}"') :]
    table = table[: table.index("</table>")]
    return {
        name: int(n)
        for name, n in re.findall(
            r'<td><a href="[^"]*"(?: aria-current="true")?>([^<]*)</a></td><td data-count>(\d+)', table
        )
    }


def test_search_page_facets_narrow_and_export(client: GraphQLClient) -> None:
    http = client.http
    page = http.get("/search", params={"q": "visualisation", "mode": "words"})
    assert page.status_code == 200
    api = client.data(
        FACETS,
        {
            "by": ["COUNTRY", "YEAR"],
            "filter": {"query": "visualisation", "mode": "KEYWORD"},
            "first": 100,
            "order": "COUNT",
        },
    )["facets"]
    countries = {g["key"]: g["count"] for g in api["facets"][0]["groups"]}
    named = {g["name"]: g["count"] for g in api["facets"][0]["groups"]}
    assert _facet_counts(page.text, "country") == dict(list(named.items())[:10]) and "United Kingdom" in named
    years = {g["key"]: g["count"] for g in api["facets"][1]["groups"]}
    assert _facet_counts(page.text, "year") == dict(sorted(years.items(), reverse=True)[:10])
    assert re.search(r'<svg class="histogram"', page.text) and page.text.count("<rect") >= len(years)

    # a facet link narrows the hits to that group's papers, at a canonical URL that reads back the same page
    link = re.search(r'<a href="(/search\?[^"]*country=GB)"', page.text)
    assert link is not None
    narrowed = http.get(link.group(1).replace("&amp;", "&"))
    assert narrowed.status_code == 200
    assert int(re.search(r'data-metric="hitsTotal">(\d+)', narrowed.text).group(1)) == countries["GB"]  # type: ignore[union-attr]
    assert link.group(1).replace("&amp;", "&") == "/search?q=visualisation&type=papers&mode=words&country=GB"
    again = http.get("/search?country=gb&mode=words&q=visualisation", follow_redirects=False)  # another spelling
    assert again.status_code == 301 and again.headers["location"] == link.group(1).replace("&amp;", "&")

    csv_body = http.get("/search", params={"q": "visualisation", "mode": "words", "format": "csv"})
    assert csv_body.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(csv_body.text)))
    assert {r["key"]: int(r["count"]) for r in rows if r["dimension"] == "country" and r["key"]} == dict(
        list(countries.items())[:10]
    )
    as_json = http.get("/search", params={"q": "visualisation", "mode": "words", "format": "json"}).json()
    assert as_json["totalCount"] == api["totalCount"]
    assert [f["dimension"] for f in as_json["facets"]] == ["year", "field", "institution", "country", "type"]


def test_entity_pages_chart_per_year(client: GraphQLClient) -> None:
    data = client.data(TRENDS, {"r": BUTCHER, "i": BANGOR})
    for path, key in ((f"/researchers/{BUTCHER}", "researcher"), (f"/institutions/{BANGOR}", "institution")):
        html = client.http.get(path).text
        assert '<div class="columns">' in html and '<aside class="side"' in html
        assert html.count('role="img"') == 2  # works and citations
        years = data[key]["countsByYear"]["years"]
        markdown = client.http.get(path, headers={"accept": "text/markdown"}).text
        table = re.findall(r"^\| (\d{4}) \| (\d+) \| (\d+) \|$", markdown, re.MULTILINE)
        assert [(int(y), int(w), int(c)) for y, w, c in table] == [
            (y["year"], y["works"], y["citations"]) for y in years
        ]
        assert "<svg" not in markdown and "<rect" not in markdown
