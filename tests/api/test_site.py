"""The site over HTTP on the shared OpenAlex data: every URL rule answers 301 to the one canonical
URL, pages carry rel=canonical and JSON-LD, their numbers equal the GraphQL answers for the same
entity, feeds parse, the sitemap is well formed, markdown is served by content negotiation, HTML is
gzipped and revalidates to 304, hostile text is escaped, and a crawl from / finds no broken link.

One module, one load of the shared data (the escaping test adds one changed record at its end)."""

from __future__ import annotations

import gzip
import json
import re
import time
import xml.etree.ElementTree as ET
from collections import deque
from email.utils import format_datetime, parsedate_to_datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import feedparser
import pytest
from markdown_it import MarkdownIt
from neo4j import Driver
from openapi_spec_validator import validate

from tests.api.conftest import GraphQLClient
from tests.api.openalex_truth import OpenAlexTruth, short
from tests.conftest import shared_path
from weft.graph.settings import Settings, load_settings
from weft.loaders.run import load_paths

pytestmark = pytest.mark.writes_shared_load  # loads hostile and cross-source records: the next module loads afresh

BUTCHER = "A5032473237"
BANGOR = "I161548249"
OA_PAPER = "W2741809807"  # The state of OA: DOI, no arXiv id
ARXIV_PAPER = "W3188841554"  # DOI 10.48550/arxiv.2108.04680
ARXIV_ID = "2108.04680"
BASE = load_settings().base_url  # absolute URLs come from configuration (WEFT_PUBLIC_URL), not the Host
SITEMAP_NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
ONE_RESEARCHER = "query($id: String!) {{ researcher(id: $id) {{ {} }} }}"
ONE_INSTITUTION = "query($id: String!) {{ institution(id: $id) {{ {} }} }}"
NEWEST_30 = "papers(first: 30) { edges { node { title } } }"
CATEGORY_30 = "query($key: String!) { papers(first: 30, filter: {category: $key}) { edges { node { title } } } }"
HOSTILE = '<script>alert("x")</script> O\'Brien & "quoted" — Ünïcødé ✓ 数学'


@pytest.fixture(scope="module")
def truth() -> OpenAlexTruth:
    return OpenAlexTruth.load(shared_path("openalex"))


@pytest.fixture(scope="module", autouse=True)
def loaded(openalex_graph: Driver) -> Driver:
    """Every test here runs on the shared OpenAlex data, loaded once for the module."""
    return openalex_graph


class Doc(HTMLParser):
    """What the tests read from a page: links, rel=canonical, rel=alternate, JSON-LD, data-metric
    values, the h1, lists' link texts by list id, and scripts (to find unescaped ones)."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.canonical: list[str] = []
        self.alternates: list[dict[str, str]] = []
        self.jsonld: list[Any] = []
        self.metrics: dict[str, str] = {}
        self.scripts: list[dict[str, str]] = []
        self.meta: dict[str, str] = {}
        self.h1 = ""
        self.lists: dict[str, list[str]] = {}
        self.text: list[str] = []
        self._capture: str | None = None
        self._buffer: list[str] = []
        self._list: str | None = None
        self._in_link = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self._links(tag, a)
        if tag == "meta" and (a.get("name") or a.get("property")):
            self.meta[a.get("name") or a.get("property") or ""] = a.get("content", "")
        if tag == "script":
            self.scripts.append(a)
            if a.get("type") == "application/ld+json":
                self._capture, self._buffer = "jsonld", []
            elif "src" in a:
                self.links.append(a["src"])
        if "data-metric" in a:
            self._capture, self._buffer = "metric:" + a["data-metric"], []
        if tag == "h1":
            self._capture, self._buffer = "h1", []
        if tag == "ol" and "id" in a:
            self._list = a["id"]
            self.lists[a["id"]] = []

    def _links(self, tag: str, a: dict[str, str]) -> None:
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
            self._in_link = True
            self._buffer = []
        if tag == "iframe" and "src" in a:
            self.links.append(a["src"])
        if tag == "link" and a.get("rel") == "canonical":
            self.canonical.append(a["href"])
        if tag == "link" and a.get("rel") == "alternate":
            self.alternates.append(a)
        if tag == "link" and a.get("rel") == "stylesheet":
            self.links.append(a["href"])

    def handle_endtag(self, tag: str) -> None:
        text = "".join(self._buffer)
        if self._capture == "jsonld" and tag == "script":
            self.jsonld.append(json.loads(text))
            self._capture = None
        elif self._capture and self._capture.startswith("metric:") and tag == "span":
            self.metrics[self._capture.removeprefix("metric:")] = text.strip()
            self._capture = None
        elif self._capture == "h1" and tag == "h1":
            self.h1 = text.strip()
            self._capture = None
        if tag == "a" and self._in_link:
            if self._list is not None:
                self.lists[self._list].append(text.strip())
            self._in_link = False
        if tag == "ol":
            self._list = None

    def handle_data(self, data: str) -> None:
        self._buffer.append(data)
        self.text.append(data)

    def metric(self, name: str) -> int:
        return int(self.metrics[name])


def get(client: GraphQLClient, path: str, **headers: str) -> Any:
    return client.http.get(path, headers=headers, follow_redirects=False)


def page(client: GraphQLClient, path: str) -> Doc:
    """The page at a canonical path: 200, HTML, its rel=canonical naming that path."""
    response = get(client, path)
    assert response.status_code == 200, (path, response.status_code, response.headers.get("location"))
    assert response.headers["content-type"].startswith("text/html")
    doc = Doc(response.text)
    assert doc.canonical == [BASE + urlsplit(path).path], path
    return doc


def assert_moves(client: GraphQLClient, prefix: str, forms: list[str], canonical: str) -> None:
    """Each id form under `prefix` answers 301 to `canonical`, and `canonical` answers 200."""
    for form in forms:
        response = get(client, prefix + quote(form, safe="/:"))
        assert response.status_code == 301, (form, response.status_code)
        assert response.headers["location"] == canonical, form
    page(client, canonical)


# --- URL rules -----------------------------------------------------------------------------


def test_researcher_id_forms_move_to_the_canonical_url(client: GraphQLClient, truth: OpenAlexTruth, loaded) -> None:
    api = client.data(ONE_RESEARCHER.format("id slug canonicalUrl orcid"), {"id": BUTCHER})["researcher"]
    canonical = api["canonicalUrl"]
    assert canonical == f"/researchers/{api['slug']}" and api["slug"].startswith(api["id"] + "-")
    orcid = truth.authors[BUTCHER]["orcid"].removeprefix("https://orcid.org/")
    assert api["orcid"] == orcid
    aliases = loaded.execute_query("MATCH (r:Researcher {id: $id}) RETURN r.aliases AS a", id=api["id"])[0][0]["a"]
    assert aliases, "the shared data merges author records, so Butcher has an alias"
    forms = [
        BUTCHER,
        BUTCHER.lower(),
        f"https://openalex.org/{BUTCHER}",
        orcid,
        f"https://orcid.org/{orcid}",
        api["id"],
        api["id"].upper(),
        f"{api['id']}-an-old-name",
        canonical.removeprefix("/researchers/").upper(),
        *aliases,
    ]
    assert_moves(client, "/researchers/", forms, canonical)
    response = get(client, f"/researchers/{BUTCHER}?page=2&sort=citations")
    assert response.headers["location"] == canonical + "?page=2&sort=citations"


def test_paper_id_forms_move_to_the_canonical_url(client: GraphQLClient, truth: OpenAlexTruth, loaded) -> None:
    query = "query($id: String!) { paper(id: $id) { id slug title arxivId doi canonicalUrl } }"
    api = client.data(query, {"id": OA_PAPER})["paper"]
    words = api["slug"].removeprefix(api["id"] + "-")
    canonical = f"/papers/{OA_PAPER}-{words}"
    assert api["canonicalUrl"] == canonical  # the API names the page the site serves, not a 301
    doi = truth.works[OA_PAPER]["doi"].removeprefix("https://doi.org/")
    aliases = loaded.execute_query("MATCH (p:Paper {id: $id}) RETURN p.aliases AS a", id=api["id"])[0][0]["a"] or []
    forms = [
        OA_PAPER,
        OA_PAPER.lower(),
        f"{OA_PAPER}-an-old-title",
        f"https://openalex.org/{OA_PAPER}",
        doi,
        doi.upper(),
        f"https://doi.org/{doi}",
        api["id"],
        api["slug"],
        canonical.removeprefix("/papers/").upper(),
        *aliases,
    ]
    assert_moves(client, "/papers/", forms, canonical)

    arxiv = client.data(query, {"id": ARXIV_PAPER})["paper"]
    assert arxiv["arxivId"] == ARXIV_ID
    canonical = f"/papers/{ARXIV_ID}-{arxiv['slug'].removeprefix(arxiv['id'] + '-')}"
    assert arxiv["canonicalUrl"] == canonical
    arxiv_aliases = loaded.execute_query("MATCH (p:Paper {id: $id}) RETURN p.aliases AS a", id=arxiv["id"])[0][0]["a"]
    forms = [
        ARXIV_ID,
        f"{ARXIV_ID}v2",
        f"{ARXIV_ID}v2-some-old-title",
        f"arXiv:{ARXIV_ID}",
        f"10.48550/arXiv.{ARXIV_ID}",
        ARXIV_PAPER,
        arxiv["id"],
        *(arxiv_aliases or []),
    ]
    assert_moves(client, "/papers/", forms, canonical)


def test_institution_id_forms_and_exact_name_move_to_the_canonical_url(
    client: GraphQLClient, truth: OpenAlexTruth, loaded
) -> None:
    api = client.data(ONE_INSTITUTION.format("id slug canonicalUrl ror name"), {"id": BANGOR})["institution"]
    ror = truth.institutions[BANGOR]["ror"].removeprefix("https://ror.org/")
    assert api["ror"] == ror and api["name"] == truth.institutions[BANGOR]["display_name"]
    aliases = loaded.execute_query("MATCH (i:Institution {id: $id}) RETURN i.aliases AS a", id=api["id"])[0][0]["a"]
    forms = [
        BANGOR,
        BANGOR.lower(),
        f"https://openalex.org/{BANGOR}",
        ror,
        f"https://ror.org/{ror}",
        api["name"],
        api["name"].upper(),
        api["id"],
        f"{api['id']}-old-name",
        *(aliases or []),
    ]
    assert_moves(client, "/institutions/", forms, api["canonicalUrl"])


def test_unknown_pages_answer_the_helpful_404(client: GraphQLClient) -> None:
    for path in ["/no-such-page", "/researchers/A0000000000", "/papers/10.9999/none", "/institutions/I0", "/feeds/x"]:
        response = get(client, path)
        assert response.status_code == 404, path
        doc = Doc(response.text)
        assert "/" in doc.links and "/search" in response.text and 'name="q"' in response.text, path
        assert "not found" in response.text.lower() or "no " in response.text.lower()
    markdown = get(client, "/researchers/A0000000000", accept="text/markdown")
    assert markdown.status_code == 404 and markdown.headers["content-type"].startswith("text/markdown")


# --- numbers equal the GraphQL answers -------------------------------------------------------

RESEARCHER_NUMBERS = """query($id: String!, $sort: PaperSort!, $category: String) { researcher(id: $id) {
  canonicalUrl name paperCount hIndex citationCount i10Index
  authorPositions { first middle last matchedPapers }
  fields(first: 12) { count category { key name } }
  newest: papers(first: 24) { totalCount edges { node { title } } }
  sorted: papers(first: 24, sort: $sort, category: $category) { totalCount edges { node { title } } } } }"""


def titles(connection: dict) -> list[str]:
    return [e["node"]["title"] for e in connection["edges"]]


def test_researcher_page_numbers_equal_graphql(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    api = client.data(RESEARCHER_NUMBERS, {"id": BUTCHER, "sort": "MOST_CITED", "category": None})["researcher"]
    doc = page(client, api["canonicalUrl"])
    assert doc.h1 == api["name"] == truth.authors[BUTCHER]["display_name"]
    for metric in ("paperCount", "hIndex", "citationCount", "i10Index"):
        assert doc.metric(metric) == api[metric], metric
    for part in ("first", "middle", "last", "matchedPapers"):
        assert doc.metric(part) == api["authorPositions"][part], part
    assert doc.metric("papersTotal") == api["newest"]["totalCount"] == 28
    assert doc.lists["paper-list"] == titles(api["newest"])
    cited = page(client, api["canonicalUrl"] + "?sort=citations")
    assert cited.lists["paper-list"] == titles(api["sorted"])
    second = page(client, api["canonicalUrl"] + "?page=2")
    assert len(second.lists["paper-list"]) == api["newest"]["totalCount"] - 24

    field = api["fields"][0]
    assert f"?category={quote(field['category']['key'], safe='')}" in doc.links
    variables = {"id": BUTCHER, "sort": "NEWEST", "category": field["category"]["key"]}
    filtered_api = client.data(RESEARCHER_NUMBERS, variables)["researcher"]["sorted"]
    filtered = page(client, api["canonicalUrl"] + f"?category={quote(field['category']['key'], safe='')}")
    assert filtered.metric("papersTotal") == filtered_api["totalCount"] == field["count"]
    assert filtered.lists["paper-list"] == titles(filtered_api)
    assert any(a["type"] == "application/rss+xml" and "/feeds/researchers/" in a["href"] for a in doc.alternates)


PAPER_NUMBERS = """query($id: String!) { paper(id: $id) { title citedByCount
  authors { researcher { name } }
  citedBy(first: 20) { totalCount edges { node { title } } }
  references(first: 20) { totalCount edges { node { title } } } } }"""


def test_paper_page_numbers_equal_graphql(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    for work in (OA_PAPER, ARXIV_PAPER):
        api = client.data(PAPER_NUMBERS, {"id": work})["paper"]
        location = get(client, f"/papers/{work}").headers["location"]
        doc = page(client, location)
        assert doc.h1 == api["title"] == truth.works[work]["title"]
        assert doc.metric("citedByCount") == api["citedByCount"] == truth.works[work]["cited_by_count"]
        assert doc.metric("citedByTotal") == api["citedBy"]["totalCount"]
        assert doc.metric("referencesTotal") == api["references"]["totalCount"]
        assert doc.metric("authorCount") == len(api["authors"]) == len(truth.works[work]["authorships"])
        assert doc.lists["cited-by"] == titles(api["citedBy"])
        assert doc.lists["references"] == titles(api["references"])
    assert api["citedBy"]["totalCount"] + api["references"]["totalCount"] > 0


INSTITUTION_NUMBERS = """query($id: String!) { institution(id: $id) { canonicalUrl name country
  roster(first: 25) { totalCount } mostCited(first: 10) { id title } } }"""


def test_institution_page_numbers_equal_graphql(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    api = client.data(INSTITUTION_NUMBERS, {"id": BANGOR})["institution"]
    doc = page(client, api["canonicalUrl"])
    assert doc.h1 == api["name"]
    assert doc.metric("rosterTotal") == api["roster"]["totalCount"] > 25
    untitled = [t if not t.startswith("Untitled paper (") else None for t in doc.lists["most-cited"]]
    assert untitled == [p["title"] for p in api["mostCited"]] and None in untitled  # one of them has no title
    assert api["country"] == truth.institutions[BANGOR]["country_code"]
    assert page(client, api["canonicalUrl"] + "?page=2").metric("rosterTotal") == api["roster"]["totalCount"]


def test_home_counts_what_the_graph_holds(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    response = get(client, "/")
    assert response.status_code == 200
    counts = dict(re.findall(r'data-count="(\w+)">(\d+)<', response.text))
    assert int(counts["papers"]) == len(truth.works) == int(counts["openalex"])
    cites = {(w, short(r)) for w, work in truth.works.items() for r in work.get("referenced_works") or []}
    assert int(counts["citations"]) == sum(1 for w, r in cites if r in truth.works and r != w)  # no self-citations
    top = client.data("{ mostCited(first: 10) { edges { node { title } } } }")["mostCited"]
    assert Doc(response.text).lists["most-cited"] == titles(top)


def test_search_finds_each_kind(client: GraphQLClient) -> None:
    doc = page(client, "/search?q=Butcher")
    api = client.data(ONE_RESEARCHER.format("canonicalUrl"), {"id": BUTCHER})["researcher"]
    assert api["canonicalUrl"] in doc.links
    assert "/institutions/" in " ".join(page(client, "/search?q=Bangor&type=institutions").links)
    assert get(client, "/search?q=").status_code == 200


# --- for machines --------------------------------------------------------------------------


def parse_feed(client: GraphQLClient, path: str) -> Any:
    response = get(client, path)
    assert response.status_code == 200, path
    assert response.headers["content-type"].startswith("application/rss+xml")
    feed = feedparser.parse(response.content)
    assert not feed.bozo, (path, feed.get("bozo_exception"))
    assert feed.version == "rss20"
    return feed


def test_feeds_parse_and_list_the_newest_papers(client: GraphQLClient) -> None:
    newest = client.data("{ papers(first: 30) { edges { node { title } } } }")["papers"]
    overall = parse_feed(client, "/feeds/papers.xml")
    assert [e.title for e in overall.entries] == titles(newest)
    for entry in overall.entries[:3]:
        assert get(client, entry.link.removeprefix(BASE)).status_code == 200

    api = client.data(RESEARCHER_NUMBERS, {"id": BUTCHER, "sort": "NEWEST", "category": None})["researcher"]
    doc = page(client, api["canonicalUrl"])
    feed_path = next(a["href"] for a in doc.alternates if "/feeds/researchers/" in a["href"])
    researcher = parse_feed(client, feed_path)
    thirty = client.data(ONE_RESEARCHER.format(NEWEST_30), {"id": BUTCHER})
    assert [e.title for e in researcher.entries] == titles(thirty["researcher"]["papers"])

    inst = client.data(ONE_INSTITUTION.format("canonicalUrl papers(first: 30) { totalCount }"), {"id": BANGOR})
    inst_doc = page(client, inst["institution"]["canonicalUrl"])
    feed_path = next(a["href"] for a in inst_doc.alternates if "/feeds/institutions/" in a["href"])
    assert len(parse_feed(client, feed_path).entries) == min(30, inst["institution"]["papers"]["totalCount"]) > 0

    key = api["fields"][0]["category"]["key"]
    category = client.data(CATEGORY_30, {"key": key})
    assert [e.title for e in parse_feed(client, f"/feeds/categories/{quote(key, safe='')}.xml").entries] == titles(
        category["papers"]
    )


def xml_of(client: GraphQLClient, path: str) -> ET.Element:
    response = get(client, path)
    assert response.status_code == 200, path
    assert response.headers["content-type"].startswith("application/xml")
    return ET.fromstring(response.content)


def test_sitemap_index_and_children_are_well_formed(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    index = xml_of(client, "/sitemap.xml")
    assert index.tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}sitemapindex"
    children = [loc.text or "" for loc in index.findall("s:sitemap/s:loc", SITEMAP_NS)]
    assert all(c.startswith(BASE + "/sitemaps/") for c in children)
    urls: dict[str, list[str]] = {}
    for child in children:
        urlset = xml_of(client, child.removeprefix(BASE))
        assert urlset.tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}urlset"
        entries = urlset.findall("s:url", SITEMAP_NS)
        assert 0 < len(entries) <= 50_000
        for entry in entries:
            lastmod = entry.find("s:lastmod", SITEMAP_NS)
            assert lastmod is None or re.fullmatch(r"\d{4}-\d\d-\d\d", lastmod.text or "")
        urls[child] = [e.findtext("s:loc", namespaces=SITEMAP_NS) or "" for e in entries]
    every = [u for locs in urls.values() for u in locs]
    assert len(every) == len(set(every))
    papers = [u for u in every if u.startswith(BASE + "/papers/")]
    assert len(papers) == len(truth.works)
    counts = client.data(ONE_RESEARCHER.format("canonicalUrl"), {"id": BUTCHER})["researcher"]
    assert BASE + counts["canonicalUrl"] in every
    for sample in (papers[0], papers[-1], every[0]):
        assert get(client, sample.removeprefix(BASE)).status_code == 200, sample


def test_llms_txt_says_how_to_read_the_graph(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    response = get(client, "/llms.txt")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    text = response.text
    assert text.startswith("# Weft")
    for needed in ("/graphql", "/schema.graphql", "/openapi.json", "/sitemap.xml", "/papers/", "/researchers/"):
        assert needed in text, needed
    assert str(len(truth.works)) in text
    assert get(client, "/schema.graphql").text.startswith(("type ", '"""', "schema", "directive", "enum", "scalar"))


def test_pages_answer_markdown_by_content_negotiation(client: GraphQLClient) -> None:
    api = client.data(ONE_RESEARCHER.format("canonicalUrl name paperCount"), {"id": BUTCHER})["researcher"]
    html = get(client, api["canonicalUrl"])
    assert "Accept" in html.headers["vary"]
    markdown = get(client, api["canonicalUrl"], accept="text/markdown")
    assert markdown.status_code == 200
    assert markdown.headers["content-type"].startswith("text/markdown")
    assert "Accept" in markdown.headers["vary"] and markdown.headers["etag"] != html.headers["etag"]
    assert markdown.text.startswith(f"# {api['name']}")
    assert f"{api['paperCount']} papers" in markdown.text and "<" not in markdown.text.split("\n", 1)[0]
    preferred = get(client, api["canonicalUrl"], accept="text/markdown;q=0.9, text/html;q=1")
    assert preferred.headers["content-type"].startswith("text/html")
    for path in ("/", get(client, f"/papers/{OA_PAPER}").headers["location"], "/developers"):
        answer = get(client, path, accept="text/markdown")
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/markdown"), path


def jsonld_of(client: GraphQLClient, path: str) -> dict:
    doc = page(client, path)
    assert len(doc.jsonld) == 1, path
    data = doc.jsonld[0]
    assert data["@context"] == "https://schema.org"
    assert data["url"] == BASE + urlsplit(path).path
    return data


def test_jsonld_of_each_page_type(client: GraphQLClient, truth: OpenAlexTruth) -> None:
    person = jsonld_of(client, get(client, f"/researchers/{BUTCHER}").headers["location"])
    author = truth.authors[BUTCHER]
    assert person["@type"] == "Person" and person["name"] == author["display_name"]
    assert f"https://openalex.org/{BUTCHER}" in person["sameAs"] and author["orcid"] in person["sameAs"]
    assert person["affiliation"] and all(a["@type"] == "Organization" and a["name"] for a in person["affiliation"])

    article = jsonld_of(client, get(client, f"/papers/{OA_PAPER}").headers["location"])
    work = truth.works[OA_PAPER]
    assert article["@type"] == "ScholarlyArticle"
    assert article["name"] == work["title"] and article["headline"] == work["title"][:110]
    assert [a["name"] for a in article["author"]] == [a["author"]["display_name"] for a in work["authorships"]]
    assert all(a["@type"] == "Person" and a["url"].startswith(BASE + "/researchers/") for a in article["author"])
    assert article["datePublished"] == work["publication_date"]
    ids = {i["propertyID"]: i["value"] for i in article["identifier"]}
    assert ids["openalex"] == OA_PAPER and ids["doi"] == work["doi"].removeprefix("https://doi.org/")
    assert f"https://openalex.org/{OA_PAPER}" in article["sameAs"]
    assert all(c["@type"] == "ScholarlyArticle" and c["url"].startswith(BASE) for c in article["citation"])

    org = jsonld_of(client, get(client, f"/institutions/{BANGOR}").headers["location"])
    inst = truth.institutions[BANGOR]
    assert org["@type"] == "Organization" and org["name"] == inst["display_name"]
    assert inst["ror"] in org["sameAs"]
    assert org["address"]["addressCountry"] == inst["country_code"]


def test_openapi_json_is_valid_and_names_every_route(client: GraphQLClient) -> None:
    response = get(client, "/openapi.json")
    assert response.status_code == 200
    spec = response.json()
    assert spec["openapi"].startswith("3.1")
    validate(spec)
    for path in (
        "/",
        "/search",
        "/researchers/{key}",
        "/papers/{key}",
        "/institutions/{key}",
        "/papers",
        "/researchers",
        "/institutions",
        "/feeds/papers.xml",
        "/sitemap.xml",
        "/robots.txt",
        "/llms.txt",
        "/health",
        "/export/researchers/{id}/network.{fmt}",
    ):
        assert path in spec["paths"], path
    developers = page(client, "/developers")
    for link in ("/graphql", "/schema.graphql", "/openapi.json", "/llms.txt"):
        assert link in developers.links, link


# --- compression and revalidation -------------------------------------------------------------


def test_html_is_gzipped_and_revalidates_to_304(client: GraphQLClient) -> None:
    path = get(client, f"/researchers/{BUTCHER}").headers["location"]
    raw = client.http.get(path, headers={"accept-encoding": "gzip"})
    first = client.http.stream("GET", path, headers={"accept-encoding": "gzip"})
    with first as response:
        body = b"".join(response.iter_raw())
    assert response.headers["content-encoding"] == "gzip"
    assert gzip.decompress(body).decode() == raw.text
    etag, modified = raw.headers["etag"], raw.headers["last-modified"]
    assert parsedate_to_datetime(modified).tzinfo is not None
    repeat = get(client, path, **{"if-none-match": etag})
    assert repeat.status_code == 304 and repeat.content == b"" and repeat.headers["etag"] == etag
    since = get(client, path, **{"if-modified-since": modified})
    assert since.status_code == 304
    earlier = format_datetime(parsedate_to_datetime(modified).replace(year=2000), usegmt=True)
    assert get(client, path, **{"if-modified-since": earlier}).status_code == 200
    assert get(client, path, **{"if-none-match": '"other"'}).status_code == 200
    plain = get(client, path, **{"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.text == raw.text


# --- index pages, paging, robots.txt, meta tags (issue 48) ------------------------------------


def test_robots_txt_names_the_sitemap(client: GraphQLClient) -> None:
    response = get(client, "/robots.txt")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    lines = response.text.splitlines()
    assert "User-agent: *" in lines and "Disallow: /graphql" in lines
    sitemaps = [line.removeprefix("Sitemap: ") for line in lines if line.startswith("Sitemap: ")]
    assert sitemaps == [BASE + "/sitemap.xml"]
    xml_of(client, "/sitemap.xml")


def index_links(client: GraphQLClient, section: str) -> tuple[int, list[str]]:
    """Every page of an index page in turn: the total it states and the links it lists, page after page."""
    doc = page(client, f"/{section}")
    total, n = doc.metric("indexTotal"), 1
    hrefs = [h for h in doc.links if h.startswith(f"/{section}/")]
    while f"?page={n + 1}" in doc.links:
        n += 1
        doc = Doc(get(client, f"/{section}?page={n}").text)
        hrefs += [h for h in doc.links if h.startswith(f"/{section}/")]
    assert get(client, f"/{section}?page={n + 1}").status_code == 404, section
    return total, hrefs


def test_index_pages_list_every_entity_once(client: GraphQLClient) -> None:
    """/papers, /researchers and /institutions answer 200 (not 307 to a 404) and, page by page, link
    every paper, researcher and institution the home page counts, each once, to a page that exists."""
    home = get(client, "/").text
    for section in ("papers", "researchers", "institutions"):
        assert get(client, f"/{section}/").headers["location"] == f"/{section}"
        total, hrefs = index_links(client, section)
        counted = int(re.search(rf'data-count="{section}">(\d+)<', home).group(1))  # type: ignore[union-attr]
        assert total == counted == len(hrefs) == len(set(hrefs)) > 0, section
        for href in (hrefs[0], hrefs[-1]):
            assert get(client, href).status_code == 200, href
    most_cited = client.data("{ papers(sort: MOST_CITED, first: 25) { edges { node { canonicalUrl } } } }")
    listed = page(client, "/papers").links
    assert [h for h in listed if h.startswith("/papers/")] == [
        e["node"]["canonicalUrl"] for e in most_cited["papers"]["edges"]
    ]


def test_pages_past_the_last_answer_404(client: GraphQLClient) -> None:
    """A page number past a list's last page is 404 (not "Page 99 of 2"); the last page itself is 200."""
    researcher = get(client, f"/researchers/{BUTCHER}").headers["location"]
    institution = get(client, f"/institutions/{BANGOR}").headers["location"]
    paper = get(client, f"/papers/{OA_PAPER}").headers["location"]
    for path in (researcher, institution, "/search?q=visualisation&"):
        last = Doc(get(client, path.rstrip("&")).text)
        pages = max([1] + [int(m) for h in last.links for m in re.findall(r"[?&]page=(\d+)", h)])
        joiner = "" if path.endswith("&") else "?"
        assert get(client, f"{path}{joiner}page={pages}").status_code == 200, path
        assert get(client, f"{path}{joiner}page=99").status_code == 404, path
    for name in ("cited", "refs"):
        assert get(client, f"{paper}?{name}=1").status_code == 200
        assert get(client, f"{paper}?{name}=99").status_code == 404, name
    assert get(client, "/papers?page=99").status_code == 404


def test_an_empty_sitemap_chunk_is_404(client: GraphQLClient) -> None:
    children = [loc.text or "" for loc in xml_of(client, "/sitemap.xml").findall("s:sitemap/s:loc", SITEMAP_NS)]
    for section in ("papers", "researchers", "institutions"):
        chunks = [c for c in children if f"/sitemaps/{section}-" in c]
        assert chunks == [f"{BASE}/sitemaps/{section}-0.xml"], section  # the shared data: under 50,000 each
        assert get(client, f"/sitemaps/{section}-1.xml").status_code == 404, section
        assert get(client, f"/sitemaps/{section}-7.xml").status_code == 404, section


def test_network_page_of_an_unknown_researcher_is_404(client: GraphQLClient) -> None:
    assert get(client, f"/researchers/{BUTCHER}/network").status_code == 200
    for unknown in ("A0000000000", "no-such-researcher"):
        assert get(client, f"/researchers/{unknown}").status_code == 404
        response = get(client, f"/researchers/{unknown}/network")
        assert response.status_code == 404 and "No researcher answers" in response.text, unknown


def test_pages_carry_description_opengraph_and_twitter_tags(client: GraphQLClient) -> None:
    paths = [
        "/",
        "/search?q=visualisation",
        "/developers",
        "/papers",
        "/researchers",
        get(client, f"/researchers/{BUTCHER}").headers["location"],
        get(client, f"/papers/{OA_PAPER}").headers["location"],
        get(client, f"/institutions/{BANGOR}").headers["location"],
    ]
    descriptions = set()
    for path in paths:
        doc = page(client, path)
        meta = doc.meta
        assert 20 <= len(meta["description"]) <= 301 and meta["og:description"] == meta["description"], path
        assert meta["og:title"] and meta["og:title"] == meta["twitter:title"], path
        assert meta["og:url"] == doc.canonical[0] and meta["twitter:card"] == "summary", path
        assert meta["og:site_name"] == "Weft" and meta["og:type"], path
        descriptions.add(meta["description"])
    assert len(descriptions) == len(paths)  # each page says what it is
    researcher = page(client, paths[5])
    assert researcher.meta["description"].startswith(researcher.h1) and researcher.meta["og:type"] == "profile"


def test_home_search_and_developers_pages_have_jsonld(client: GraphQLClient) -> None:
    home = jsonld_of(client, "/")
    assert home["@type"] == "WebSite" and home["@id"] == BASE + "/"
    action = home["potentialAction"]
    assert action["@type"] == "SearchAction" and action["query-input"] == "required name=search_term_string"
    template = action["target"]["urlTemplate"]
    assert template == BASE + "/search?q={search_term_string}"
    found = page(client, template.replace("{search_term_string}", "visualisation").removeprefix(BASE))
    assert found.metric("hitsTotal") > 0
    for path, kind, name in (
        ("/search", "SearchResultsPage", "Search"),
        ("/developers", "WebPage", "Developers"),
        ("/papers", "CollectionPage", "Papers"),
    ):
        data = jsonld_of(client, path)
        assert data["@type"] == kind and data["name"] == name, path
        trail = data["breadcrumb"]["itemListElement"]
        assert data["breadcrumb"]["@type"] == "BreadcrumbList"
        assert [(t["position"], t["item"]) for t in trail] == [(1, BASE + "/"), (2, BASE + path)], path


CC = "https://creativecommons.org/licenses/{}/4.0/"
LICENCE_URLS = {
    **{f"cc-{kind}": CC.format(kind) for kind in ("by", "by-sa", "by-nd", "by-nc", "by-nc-sa", "by-nc-nd")},
    "cc0": "https://creativecommons.org/publicdomain/zero/1.0/",
    "public-domain": "https://creativecommons.org/publicdomain/mark/1.0/",
    "mit": "https://opensource.org/licenses/MIT",
}


def test_jsonld_license_is_a_url(client: GraphQLClient) -> None:
    """schema.org's `license` is a URL: a licence key becomes its licence's URL, a URL stays, others go."""
    by_license: dict[str, str] = {}
    query = """query($after: String) { papers(first: 100, after: $after) {
      edges { node { license canonicalUrl } } pageInfo { hasNextPage endCursor } } }"""
    after = None
    while True:
        papers = client.data(query, {"after": after})["papers"]
        by_license |= {e["node"]["license"]: e["node"]["canonicalUrl"] for e in papers["edges"] if e["node"]["license"]}
        if not papers["pageInfo"]["hasNextPage"]:
            break
        after = papers["pageInfo"]["endCursor"]
    assert {"cc-by", "other-oa"} <= set(by_license), by_license
    for key, path in by_license.items():
        expected = key if key.startswith(("http://", "https://")) else LICENCE_URLS.get(key)
        assert jsonld_of(client, path).get("license") == expected, key


def rendered(markdown: str) -> str:
    """The markdown as a CommonMark renderer (raw HTML allowed, as on most sites) turns it into HTML."""
    return MarkdownIt("commonmark").render(markdown)


def test_markdown_code_spans_and_category_tags_read_right(client: GraphQLClient) -> None:
    developers = get(client, "/developers", accept="text/markdown").text
    assert "`/export/researchers/<id>/network.graphml`" in developers and "&lt;" not in developers
    assert "<code>/export/researchers/&lt;id&gt;/network.graphml</code>" in rendered(developers)

    query = "query($id: String!) { paper(id: $id) { canonicalUrl categories { category { name } } } }"
    api = client.data(query, {"id": ARXIV_PAPER})["paper"]
    names = [c["category"]["name"] for c in api["categories"]]
    assert len(names) >= 2
    markdown = get(client, api["canonicalUrl"], accept="text/markdown").text
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)  # links as their text
    assert ", ".join(names[:2]) in text, names


# --- feeds (issue 48) ---------------------------------------------------------------------------


def test_feeds_link_their_page_and_date_from_their_newest_item(client: GraphQLClient) -> None:
    """The channel <link> is the entity's page (atom:link rel=self is the feed), lastBuildDate is the
    newest item's date, so a feed read again later is the same bytes: its ETag answers 304."""
    api = client.data(ONE_RESEARCHER.format("canonicalUrl fields(first: 1) { category { key name } }"), {"id": BUTCHER})
    researcher = api["researcher"]
    key, name = researcher["fields"][0]["category"]["key"], researcher["fields"][0]["category"]["name"]
    doc = page(client, researcher["canonicalUrl"])
    own_feed = next(a["href"] for a in doc.alternates if "/feeds/researchers/" in a["href"])
    feeds = {"/feeds/papers.xml": BASE + "/", own_feed: BASE + researcher["canonicalUrl"]}
    for feed_path, page_url in feeds.items():
        feed = parse_feed(client, feed_path)
        assert feed.feed.link == page_url, feed_path
        assert [link.href for link in feed.feed.links if link.rel == "self"] == [BASE + feed_path], feed_path
        newest = max(e.published_parsed for e in feed.entries)
        assert feed.feed.updated_parsed == newest, feed_path
    category = parse_feed(client, f"/feeds/categories/{quote(key, safe='')}.xml")
    assert name in category.feed.title and key not in category.feed.title, (key, category.feed.title)
    assert category.feed.link.startswith(BASE + "/") and not category.feed.link.endswith(".xml")
    first = get(client, "/feeds/papers.xml")
    time.sleep(1.1)  # a second later: a feed dated "now" would differ here
    again = get(client, "/feeds/papers.xml", **{"if-none-match": first.headers["etag"]})
    assert again.status_code == 304


# --- escaping and the crawl (last: the escaping test adds a record) ----------------------------


def hostile_work(tmp_path: Path) -> tuple[Path, dict]:
    """A shared work record changed: a new id and DOI, hostile title, abstract, author and institution."""
    work = json.loads(shared_path("openalex", "works", "single", f"{OA_PAPER}.json").read_text(encoding="utf-8"))
    work["id"] = "https://openalex.org/W9999999990"
    work["doi"] = "https://doi.org/10.9999/hostile"
    work["ids"] = {"openalex": work["id"], "doi": work["doi"]}
    work["title"] = work["display_name"] = HOSTILE
    work["abstract_inverted_index"] = {w: [i] for i, w in enumerate(["</p><script>alert(1)</script>", "ä\"'&"])}
    first = work["authorships"][0]
    first["author"] = {"id": "https://openalex.org/A9999999990", "display_name": HOSTILE, "orcid": None}
    first["institutions"] = [
        {**inst, "id": "https://openalex.org/I9999999990", "ror": None, "display_name": HOSTILE, "lineage": []}
        for inst in first["institutions"][:1]
    ]
    work["authorships"] = [first]
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(work), encoding="utf-8")
    return path, work


def test_hostile_text_is_escaped_everywhere(
    client: GraphQLClient, tmp_path: Path, loaded: Driver, settings: Settings
) -> None:
    path, _ = hostile_work(tmp_path)
    load_paths(loaded, [path], source="openalex", database=settings.neo4j_database)
    paper_path = get(client, "/papers/W9999999990").headers["location"]
    researcher_path = get(client, "/researchers/A9999999990").headers["location"]
    institution_path = get(client, "/institutions/I9999999990").headers["location"]
    pages = (paper_path, researcher_path, institution_path, "/search?q=alert")
    for where in (*pages, "/feeds/researchers/A9999999990.xml"):
        response = get(client, where)
        assert response.status_code == 200, where
        assert "<script>alert" not in response.text, where
        if where.startswith("/feeds"):
            feed = feedparser.parse(response.content)
            assert not feed.bozo and HOSTILE in [e.title for e in feed.entries]
            continue
        doc = Doc(response.text)
        assert all(s.get("type") == "application/ld+json" or s.get("src") for s in doc.scripts), where
        assert HOSTILE in "".join(doc.text), where
    paper = Doc(get(client, paper_path).text)
    assert paper.h1 == HOSTILE and paper.jsonld[0]["name"] == HOSTILE
    assert paper.jsonld[0]["author"][0]["name"] == HOSTILE
    assert Doc(get(client, researcher_path).text).h1 == HOSTILE == Doc(get(client, institution_path).text).h1
    markdown = get(client, paper_path, accept="text/markdown").text
    assert "<script" not in rendered(markdown)  # as a renderer shows it: text, not an element
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in rendered(markdown)


def internal(href: str, here: str) -> str | None:
    """The path (with query) a link on `here` leads to when it stays on the site."""
    if href.startswith("#") or href.startswith(("mailto:", "javascript:")):
        return None
    if href.startswith(BASE):
        href = href.removeprefix(BASE)
    if href.startswith("?"):
        return urlsplit(here).path + href
    if href.startswith("/") and not href.startswith("//"):
        return href.split("#", 1)[0]
    return None


CRAWL_LIMIT = 600
SEARCH = "/search?q=visualisation"  # the search box is a form: its first answer page seeds the crawl


def test_crawl_from_home_finds_no_broken_link(client: GraphQLClient) -> None:
    """Breadth first from / and a search's answer page, every internal link (pages, paging, sorting,
    feeds, exports, static files) fetched until CRAWL_LIMIT pages: none answers 404 or 5xx, every HTML
    page carries rel=canonical."""
    seen, queue, kinds = {"/", SEARCH}, deque(["/", SEARCH]), set()
    fetched = 0
    while queue and fetched < CRAWL_LIMIT:
        here = queue.popleft()
        response = client.http.get(here)
        fetched += 1
        assert response.status_code == 200, (here, response.status_code)
        kinds.add(urlsplit(here).path.split("/")[1])
        if not response.headers.get("content-type", "").startswith("text/html") or here.startswith("/graphql"):
            continue
        doc = Doc(response.text)
        if not here.startswith("/researchers/") or "/network" not in here:
            assert len(doc.canonical) == 1, here
        for href in doc.links:
            target = internal(href, here)
            if target and target not in seen:
                seen.add(target)
                queue.append(target)
    assert {"", "papers", "researchers", "institutions", "search", "feeds", "static"} <= kinds, kinds


# --- arXiv and Semantic Scholar id forms (last: they add records) -----------------------------


def arxiv_and_s2_records(tmp_path: Path) -> tuple[Path, Path, dict, dict]:
    """Two shared arXiv records, one of them changed to an old-style id (`hep-th/9901001`, which the
    shared files lack), and the shared S2 author record with his papers."""
    lines = shared_path("arxiv", "arxiv-metadata-oai-snapshot.head200.jsonl").read_text(encoding="utf-8").splitlines()
    new_style = json.loads(lines[0])
    old_style = {**json.loads(lines[1]), "id": "hep-th/9901001", "doi": None, "title": "An old-style arXiv id"}
    arxiv = tmp_path / "arxiv.jsonl"
    arxiv.write_text("\n".join(json.dumps(r) for r in (new_style, old_style)) + "\n", encoding="utf-8")
    author = json.loads(shared_path("semanticscholar", "graph_api", "Author.json").read_text(encoding="utf-8"))
    s2 = tmp_path / "s2"
    s2.mkdir()
    (s2 / "Author.json").write_text(json.dumps(author), encoding="utf-8")
    return arxiv, s2, new_style, author


def test_arxiv_old_and_new_style_and_s2_ids_move_to_the_canonical_url(
    client: GraphQLClient, tmp_path: Path, loaded: Driver, settings: Settings
) -> None:
    arxiv, s2, new_style, author = arxiv_and_s2_records(tmp_path)
    load_paths(loaded, [arxiv], source="arxiv", database=settings.neo4j_database)
    load_paths(loaded, [s2], source="s2", database=settings.neo4j_database)
    query = "query($id: String!) { paper(id: $id) { id slug arxivId versions { version date } } }"

    api = client.data(query, {"id": new_style["id"]})["paper"]
    canonical = f"/papers/{new_style['id']}-{api['slug'].removeprefix(api['id'] + '-')}"
    latest = new_style["versions"][-1]["version"]
    forms = [new_style["id"], f"{new_style['id']}{latest}", f"{new_style['id']}v1-old-words", api["id"]]
    assert_moves(client, "/papers/", [*forms, new_style["doi"]], canonical)
    text = get(client, canonical).text
    assert f"version {latest}" in text and new_style["categories"].split()[0] in text.lower()

    old = client.data(query, {"id": "hep-th/9901001"})["paper"]
    assert old["arxivId"] == "hep-th/9901001"
    canonical = "/papers/hep-th/9901001-an-old-style-arxiv-id"
    assert_moves(client, "/papers/", ["hep-th/9901001", "hep-th/9901001v1", "HEP-TH/9901001", old["id"]], canonical)
    assert get(client, "/sitemaps/papers-0.xml").text.count(f"{BASE}{canonical}<") == 1

    turing = client.data(ONE_RESEARCHER.format("canonicalUrl name"), {"id": author["authorId"]})["researcher"]
    assert turing["name"] == author["name"]
    assert_moves(client, "/researchers/", [author["authorId"]], turing["canonicalUrl"])
    paper = author["papers"][0]
    s2_paper = client.data(query, {"id": paper["paperId"]})["paper"]
    canonical = f"/papers/{s2_paper['id']}-{s2_paper['slug'].removeprefix(s2_paper['id'] + '-')}"
    assert_moves(
        client, "/papers/", [paper["paperId"], paper["paperId"].upper(), f"CorpusId:{paper['corpusId']}"], canonical
    )
