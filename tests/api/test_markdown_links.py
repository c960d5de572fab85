"""llms.txt v2 link tags on the shared OpenAlex data: every kind of HTML page names its markdown version in
`<link rel="alternate" type="text/markdown">`, an absolute URL from configuration (WEFT_PUBLIC_URL), and that URL
answers the page's markdown (200, text/markdown) without any Accept header; llms.txt names the interfaces for
programs (resolve, matchReferences, facets, the MCP server and its tools)."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

import pytest
from neo4j import Driver

from tests.api.conftest import GraphQLClient
from weft.graph.settings import load_settings

BASE = load_settings().base_url.rstrip("/")
BUTCHER = "A5032473237"
BANGOR = "I161548249"
OA_PAPER = "W2741809807"


class Links(HTMLParser):
    """The `<link rel="alternate" type="text/markdown">` hrefs of a page's head."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.markdown: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "link" and found.get("rel") == "alternate" and found.get("type") == "text/markdown":
            self.markdown.append(found.get("href") or "")


@pytest.fixture(scope="module", autouse=True)
def loaded(openalex_graph: Driver) -> Driver:
    return openalex_graph


def _get(client: GraphQLClient, path: str, **headers: str) -> Any:
    return client.http.get(path, headers=headers, follow_redirects=False)


def _canonical(client: GraphQLClient, path: str) -> str:
    """The path a page's other spellings move to (or the path itself)."""
    answer = _get(client, path)
    return answer.headers["location"] if answer.status_code == 301 else path


def _page_kinds(client: GraphQLClient) -> list[str]:
    return [
        "/",
        "/developers",
        "/search?q=visualization",
        "/search?q=visualization&type=papers&year=2018",
        "/papers",
        "/papers?page=2",
        "/researchers",
        "/institutions",
        _canonical(client, f"/papers/{OA_PAPER}"),
        _canonical(client, f"/researchers/{BUTCHER}"),
        _canonical(client, f"/institutions/{BANGOR}"),
    ]


def test_every_page_kind_links_its_markdown_version(client: GraphQLClient) -> None:
    for path in _page_kinds(client):
        html = _get(client, path)
        assert html.status_code == 200 and html.headers["content-type"].startswith("text/html"), path
        links = Links(html.text).markdown
        assert len(links) == 1, (path, links)
        href = links[0]
        assert href.startswith(BASE + "/"), (path, href)  # from configuration, not the request's host
        parts = urlsplit(href)
        assert parts.path == urlsplit(path).path, (path, href)
        linked = _get(client, f"{parts.path}?{parts.query}")  # no Accept header: the URL alone says markdown
        assert linked.status_code == 200, (path, href, linked.status_code)
        assert linked.headers["content-type"].startswith("text/markdown"), (path, href)
        negotiated = _get(client, path, accept="text/markdown")
        assert linked.text == negotiated.text, path  # the same page's markdown
        assert "<html" not in linked.text and linked.text.strip(), path


def test_a_page_that_is_not_found_links_no_markdown_version(client: GraphQLClient) -> None:
    missing = _get(client, "/researchers/A0000000000")
    assert missing.status_code == 404 and Links(missing.text).markdown == []


def test_the_link_does_not_follow_the_host_header(client: GraphQLClient) -> None:
    html = _get(client, "/developers", host="localhost")
    assert html.status_code == 200
    assert Links(html.text).markdown == [BASE + "/developers?format=md"]


def test_llms_txt_names_the_interfaces_for_programs(client: GraphQLClient) -> None:
    text = _get(client, "/llms.txt").text
    for needed in ("resolve(ids:)", "matchReferences(texts:)", "facets(by:", BASE + "/mcp", "format=md"):
        assert needed in text, needed
    tools = ("search", "get_paper", "facets", "resolve_ids", "match_references", "cypher_read")
    mcp_line = next(line for line in text.splitlines() if "/mcp" in line)
    for tool in tools:
        assert tool in mcp_line, tool
