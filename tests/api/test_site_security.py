"""The site as a hostile internet meets it (issue 48, items 1, 2, 19 and 22), over HTTP on real data:

- a `javascript:` (or any non-http(s)) URL from a source becomes no link in pages, JSON-LD, feeds or markdown;
- every document carries a Content-Security-Policy without inline script, with framing and referrer rules,
  and every response `nosniff`;
- a foreign Host header is refused (400), and where hosts are not checked it still writes no absolute URL:
  they all come from WEFT_PUBLIC_URL;
- static files have content-hashed URLs with a year's immutable cache and are gzipped, so a researcher
  page's transfer shrinks; sitemaps are gzipped;
- Last-Modified is the graph's last change, the same from any worker, never later than Date.

The pages in Chromium under the policy: tests/api/test_site_browser.py, test_page_network.py and the last
test here."""

from __future__ import annotations

import dataclasses
import gzip
import json
import re
import time
from collections.abc import Iterator
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import feedparser
import httpx
import pytest
from neo4j import Driver
from starlette.routing import Route
from starlette.testclient import TestClient

from tests.api.conftest import LiveServer, executing
from tests.api.test_site_browser import run_pages
from tests.conftest import shared_path
from weft.graph.settings import Settings
from weft.loaders.run import load_paths
from weft.server.app import create_app
from weft.server.site.render import CODE_CHANGED_AT

PUBLIC = "https://weft.example.org"
EVIL = "evil.example"
JS_PAPER = "W9999999981"  # OpenAlex work whose pdf_url is javascript:alert(1)
S2_PAPER = "9999999999999999999999999999999999999982"  # S2 paper whose openAccessPdf is a mixed-case javascript:
GOOD_PAPER = "W2741809807"  # a real OpenAlex work with an https pdf_url
HOSTILE_URLS = ("javascript:alert(1)", " JaVaScRiPt:alert(2)")
LINK_ATTRIBUTE = re.compile(r"""\b(?:href|src|action|formaction|poster|data)\s*=\s*["']?\s*([^"'\s>]*)""", re.I)
MARKDOWN_TARGET = re.compile(r"(?<!\\)\]\(\s*<?([^)\s>]*)")  # a link's target (not an escaped `\]`)


def hostile_openalex(tmp_path: Path) -> Path:
    """A shared OpenAlex work made new (id, DOI) with `javascript:alert(1)` as every location's pdf_url."""
    work = json.loads(shared_path("openalex", "works", "single", f"{GOOD_PAPER}.json").read_text(encoding="utf-8"))
    work["id"] = f"https://openalex.org/{JS_PAPER}"
    work["doi"] = "https://doi.org/10.9999/javascript-pdf"
    work["ids"] = {"openalex": work["id"], "doi": work["doi"]}
    work["title"] = work["display_name"] = "A paper whose PDF link is [a script](javascript:alert(9))"
    for location in (work.get("best_oa_location"), work.get("primary_location"), *(work.get("locations") or [])):
        if location:
            location["pdf_url"] = location["landing_page_url"] = HOSTILE_URLS[0]
    path = tmp_path / "hostile-openalex.json"
    path.write_text(json.dumps(work), encoding="utf-8")
    return path


def hostile_s2(tmp_path: Path) -> Path:
    """The shared S2 paper made new (ids) with a mixed-case, space-led `javascript:` open-access PDF URL."""
    paper = json.loads(shared_path("semanticscholar", "graph_api", "Paper.json").read_text(encoding="utf-8"))
    paper.update(
        paperId=S2_PAPER,
        corpusId=999999982,
        externalIds={"CorpusId": 999999982},
        url=f"https://www.semanticscholar.org/paper/{S2_PAPER}",
        title="An S2 paper whose open-access PDF is a script",
        openAccessPdf={"url": HOSTILE_URLS[1], "status": "GREEN"},
        citations=[],
        references=[],
    )
    path = tmp_path / "hostile-s2.json"
    path.write_text(json.dumps(paper), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def graph(driver: Driver, settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Driver:
    """The shared single OpenAlex works and institutions, and the two hostile records."""
    folder = tmp_path_factory.mktemp("hostile")
    database = settings.neo4j_database
    load_paths(
        driver,
        [shared_path("openalex", "works", "single"), shared_path("openalex", "institutions"), hostile_openalex(folder)],
        source="openalex",
        database=database,
    )
    load_paths(driver, [hostile_s2(folder)], source="s2", database=database)
    return driver


def app_settings(settings: Settings, **changes: Any) -> Settings:
    return dataclasses.replace(executing(settings), public_url=PUBLIC, **changes)


@pytest.fixture(scope="module")
def client(graph: Driver, settings: Settings) -> Iterator[TestClient]:
    """The app with WEFT_PUBLIC_URL set (hosts: its own, the local names and Starlette's `testserver`)."""
    hosts = ("weft.example.org", "testserver", "localhost", "127.0.0.1")
    with TestClient(create_app(app_settings(settings, allowed_hosts=hosts))) as http:
        yield http


@pytest.fixture(scope="module")
def any_host(graph: Driver, settings: Settings) -> Iterator[TestClient]:
    """The app answering every Host header (WEFT_ALLOWED_HOSTS=*), its URLs still from WEFT_PUBLIC_URL."""
    with TestClient(create_app(app_settings(settings, allowed_hosts=("*",)))) as http:
        yield http


def canonical(http: TestClient, path: str) -> str:
    """The canonical path of a page asked for by any id (its 301's Location)."""
    response = http.get(path, follow_redirects=False)
    return response.headers["location"] if response.status_code == 301 else path


def link_targets(html: str) -> list[str]:
    """Every URL an HTML document names in a link-bearing attribute."""
    return [m.group(1) for m in LINK_ATTRIBUTE.finditer(html)]


def is_web_or_relative(url: str) -> bool:
    scheme = urlsplit(url.strip()).scheme.lower()
    return scheme in ("", "http", "https") and not url.strip().startswith("//")


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def jsonld_of(html: str) -> list[Any]:
    blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    return [json.loads(b) for b in blocks]


# --- item 1: URLs from data ------------------------------------------------------------------------------


@pytest.mark.parametrize("key", [JS_PAPER, S2_PAPER])
def test_a_javascript_pdf_url_is_no_link_in_page_jsonld_or_markdown(client: TestClient, key: str) -> None:
    path = canonical(client, f"/papers/{key}")
    html = client.get(path).text
    assert "<h1>" in html and ("javascript" in html.lower()) == (key == JS_PAPER)  # the title may say it, as text
    targets = link_targets(html)
    assert targets and all(is_web_or_relative(t) for t in targets), [t for t in targets if not is_web_or_relative(t)]
    assert ">PDF</a>" not in html
    data = jsonld_of(html)
    assert data and not [s for s in strings(data) if "javascript:" in s.lower() and not s.startswith("A paper")]
    assert all(urlsplit(u).scheme == "https" for d in data for u in d.get("sameAs", []))
    markdown = client.get(path, headers={"accept": "text/markdown"}).text
    assert markdown.startswith("# ")
    assert all(is_web_or_relative(t) for t in MARKDOWN_TARGET.findall(markdown)), markdown
    assert "[a script](javascript" not in markdown  # the title's bracketed text is escaped, not a link


def test_an_https_pdf_url_is_still_a_link(client: TestClient) -> None:
    html = client.get(canonical(client, f"/papers/{GOOD_PAPER}")).text
    assert '<a href="https://peerj.com/articles/4375.pdf" rel="noopener">PDF</a>' in html


def test_feeds_carry_only_web_links(client: TestClient) -> None:
    response = client.get("/feeds/papers.xml")
    feed = feedparser.parse(response.content)
    assert not feed.bozo and len(feed.entries) >= 3
    links = [feed.feed.link] + [e.link for e in feed.entries] + [e.id for e in feed.entries]
    assert all(link.startswith(PUBLIC + "/") for link in links), links
    assert "javascript:" not in response.text.lower().replace("[a script](javascript:alert(9))", "")


# --- item 1 cont.: the headers --------------------------------------------------------------------------


def test_documents_carry_the_policy_and_every_response_nosniff(client: TestClient) -> None:
    for path in ("/", canonical(client, f"/papers/{GOOD_PAPER}"), "/graphql", "/developers", "/no-such-page"):
        response = client.get(path, headers={"accept": "text/html"})
        assert response.headers["content-type"].startswith("text/html"), path
        policy = response.headers["content-security-policy"]
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        assert directives["script-src"] == "'self'" and directives["default-src"] == "'self'", policy
        assert directives["frame-ancestors"] == "'self'" and directives["object-src"] == "'none'", policy
        assert response.headers["x-frame-options"] == "SAMEORIGIN"
        assert response.headers["referrer-policy"] == "strict-origin-when-cross-origin"
        assert response.headers["x-content-type-options"] == "nosniff"
        # every script is a file or a data block (JSON-LD, never executed); no style block or attribute either
        for script in re.findall(r"<script\b[^>]*>", response.text):
            assert " src=" in script or 'type="application/ld+json"' in script, (path, script)
        assert "<style" not in response.text and " style=" not in response.text, path
    api = client.post("/graphql", json={"query": "{ __typename }"})
    assert api.headers["x-content-type-options"] == "nosniff" and "content-security-policy" not in api.headers


def test_the_network_page_is_policed_and_only_framed_by_the_site(client: TestClient) -> None:
    page = client.get("/researchers/anyone/network")
    assert "frame-ancestors 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "SAMEORIGIN"
    assert all(" src=" in s for s in re.findall(r"<script\b[^>]*>", page.text))


# --- item 2: the Host header writes nothing -------------------------------------------------------------


def test_a_foreign_host_is_refused_but_health_probes_answer(client: TestClient) -> None:
    for path in ("/", "/sitemap.xml", "/llms.txt", "/openapi.json", "/graphql"):
        assert client.get(path, headers={"host": EVIL}).status_code == 400, path
    assert client.get("/", headers={"host": "weft.example.org"}).status_code == 200
    assert client.get("/health", headers={"host": "10.0.0.7:8000"}).status_code in (200, 503)


def test_no_absolute_url_comes_from_the_host_header(any_host: TestClient) -> None:
    paper = canonical(any_host, f"/papers/{GOOD_PAPER}")
    evil = {"host": EVIL, "x-forwarded-host": EVIL, "x-forwarded-proto": "https", "accept": "text/html"}
    routes = [r for r in any_host.app.routes if isinstance(r, Route) and "GET" in (r.methods or ())]  # type: ignore[attr-defined]
    for path in [r.path for r in routes if "{" not in r.path]:  # every fixed route, those added later too
        response = any_host.get(path, headers=evil, follow_redirects=False)
        assert EVIL not in response.text and EVIL not in response.headers.get("location", ""), path
    for path, target in (("/developers/", "/developers"), ("/search/", "/search")):  # Starlette's slash redirects
        assert any_host.get(path, headers=evil, follow_redirects=False).headers["location"] == target
    bodies: dict[str, str] = {}
    for path in (
        paper,
        "/",
        "/sitemap.xml",
        "/sitemaps/pages.xml",
        "/sitemaps/papers-0.xml",
        "/feeds/papers.xml",
        "/llms.txt",
        "/openapi.json",
    ):
        response = any_host.get(path, headers=evil)
        assert response.status_code == 200, path
        assert EVIL not in response.text, path
        bodies[path] = response.text
    assert f'<link rel="canonical" href="{PUBLIC}{paper}">' in bodies[paper]
    assert jsonld_of(bodies[paper])[0]["@id"] == PUBLIC + paper
    assert f"<loc>{PUBLIC}{paper}</loc>" in bodies["/sitemaps/papers-0.xml"]
    assert f"<loc>{PUBLIC}/sitemaps/papers-0.xml</loc>" in bodies["/sitemap.xml"]
    assert f"{PUBLIC}/graphql" in bodies["/llms.txt"]
    assert json.loads(bodies["/openapi.json"])["servers"] == [{"url": PUBLIC}]
    feed = feedparser.parse(bodies["/feeds/papers.xml"])
    assert feed.feed.link.startswith(PUBLIC + "/") and all(e.link.startswith(PUBLIC + "/") for e in feed.entries)


# --- item 19: static files ------------------------------------------------------------------------------


def test_static_files_are_hashed_long_cached_and_gzipped(client: TestClient) -> None:
    home = client.get("/").text
    scripts = re.findall(r'src="(/static/[^"]+)"', home)
    assert scripts and all(re.search(r"\?v=[0-9a-f]{12}$", s) for s in scripts), scripts
    hashed = scripts[0]
    first = client.get(hashed, headers={"accept-encoding": "gzip"})
    assert first.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert first.headers["content-encoding"] == "gzip" and "accept-encoding" in first.headers["vary"].lower()
    stale = client.get(hashed.split("?")[0] + "?v=000000000000")
    assert stale.headers["cache-control"] == "no-cache"  # an old URL is not cached for a year with new content
    assert client.get(hashed, headers={"if-none-match": first.headers["etag"]}).status_code == 304
    plain = client.get(hashed, headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == first.content


def test_a_researcher_page_transfers_far_less(client: TestClient) -> None:
    """The researcher page, its static files, its network frame and that frame's files: gzip halves it at least."""
    researcher = canonical(client, "/researchers/A5032473237")
    html = client.get(researcher).text
    network = next(t for t in link_targets(html) if t.endswith("/network"))
    frame = client.get(network).text
    files = [researcher, network] + [t for t in link_targets(html) + link_targets(frame) if t.startswith("/static/")]
    sizes = {}
    for encoding in ("identity", "gzip"):
        total = 0
        for path in files:
            with client.stream("GET", path, headers={"accept-encoding": encoding}) as response:
                assert response.status_code == 200, path
                total += sum(len(chunk) for chunk in response.iter_raw())
        sizes[encoding] = total
    print(f"researcher page and its files: {sizes['identity']} bytes plain, {sizes['gzip']} gzipped")
    assert any("cytoscape" in f for f in files)
    assert sizes["gzip"] < sizes["identity"] * 0.4, sizes


def test_sitemaps_are_gzipped_when_accepted(client: TestClient) -> None:
    with client.stream("GET", "/sitemaps/papers-0.xml", headers={"accept-encoding": "gzip"}) as response:
        raw = b"".join(response.iter_raw())
    assert response.headers["content-encoding"] == "gzip"
    assert gzip.decompress(raw).decode().count("<url>") >= 10
    plain = client.get("/sitemaps/papers-0.xml", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and gzip.decompress(raw) == plain.content


# --- item 22: Last-Modified -----------------------------------------------------------------------------


def graph_changed_at(driver: Driver, settings: Settings) -> float:
    records, _, _ = driver.execute_query(
        "MATCH (m:Meta {key: 'graph'}) RETURN m.loaded_at.epochMillis / 1000.0 AS t", database_=settings.neo4j_database
    )
    return float(records[0]["t"])


def test_last_modified_is_the_graphs_last_change_in_every_worker(graph: Driver, settings: Settings) -> None:
    changed = graph_changed_at(graph, settings)
    time.sleep(max(0.0, changed + 2.5 - time.time()))  # a change under 2 s old is left undated (see render.py)
    answers = []
    for _ in range(2):  # two servers, as two `weft serve` workers: each its own process state
        with LiveServer(app_settings(settings)) as server:
            response = httpx.get(f"http://127.0.0.1:{server.port}/developers", timeout=30)
            answers.append((response.headers["etag"], response.headers["last-modified"], response.headers["date"]))
    (etag_1, modified_1, date_1), (etag_2, modified_2, date_2) = answers
    assert etag_1 == etag_2 and modified_1 == modified_2
    expected = int(max(changed, CODE_CHANGED_AT))
    assert parsedate_to_datetime(modified_1).timestamp() == expected
    assert parsedate_to_datetime(modified_1) <= parsedate_to_datetime(date_1)


# --- in Chromium ----------------------------------------------------------------------------------------


@pytest.mark.browser
def test_chromium_finds_no_script_link_and_no_policy_violation(graph: Driver, settings: Settings) -> None:
    with LiveServer(executing(settings)) as server:
        base = f"http://127.0.0.1:{server.port}"
        with httpx.Client(base_url=base) as http:
            paths = {key: http.get(f"/papers/{key}").headers.get("location", "") for key in (JS_PAPER, S2_PAPER)}
        pages = {"js-pdf": paths[JS_PAPER], "s2-pdf": paths[S2_PAPER], "graphiql": "/graphql"}
        reports = run_pages(base, pages)
    for name, report in reports.items():
        assert report["status"] == 200, name
        assert report["cspViolations"] == [] and report["consoleErrors"] == [], (name, report)
        assert "script-src 'self'" in report["headers"]["content-security-policy"], name
        bad = [link for link in report["links"] if not is_web_or_relative(link)]
        assert report["links"] and bad == [], (name, bad)
    assert any("graphiql.min.js" in u for u in reports["graphiql"]["requests"])
    assert reports["graphiql"]["graphiqlDrawn"], "GraphiQL did not draw under the policy"
