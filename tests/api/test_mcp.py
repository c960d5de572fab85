"""The MCP server, driven by the `mcp` SDK's own client: over streamable HTTP at `/mcp` (the app under uvicorn)
and over stdio (`weft mcp` as a subprocess). Each tool's answer is checked against GraphQL's on the shared
data; `cypher_read` refuses every kind of write."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.api.conftest import GraphQLClient, LiveServer
from tests.conftest import server_env
from weft.graph.settings import Settings

TOOLS = {
    "search",
    "get_paper",
    "get_researcher",
    "get_institution",
    "most_cited",
    "researcher_network",
    "collaboration_path",
    "resolve_ids",
    "match_references",
    "cypher_read",
    "facets",
}
TURING = "Turing, A. M. (1950). Computing machinery and intelligence. Mind, 59(236), 433-460."
FACETS = """query($by: [FacetDimension!]!, $filter: PaperFilterInput, $first: Int!, $order: FacetOrder!) {
  facets(by: $by, filter: $filter, first: $first, order: $order) {
    totalCount
    facets { dimension groupCount groups { key name count citationSum url } unknown { count citationSum } }
  }
}"""
# (MCP arguments, the same as GraphQL variables): several dimensions under several filters and orders
FACET_ASKS: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"by": ["YEAR", "INSTITUTION", "FIELD"]}, {"by": ["YEAR", "INSTITUTION", "FIELD"], "first": 10}),
    (
        {
            "by": ["COUNTRY", "RESEARCHER", "TYPE"],
            "filter": {"institution": "006jb1a24", "include_children": True, "year_from": 2012},
            "order": "KEY",
            "first": 25,
        },
        {
            "by": ["COUNTRY", "RESEARCHER", "TYPE"],
            "filter": {"institution": "006jb1a24", "includeChildren": True, "yearFrom": 2012},
            "order": "KEY",
            "first": 25,
        },
    ),
    (
        {
            "by": ["TOPIC", "VENUE", "LANGUAGE", "SUBFIELD"],
            "filter": {"category": "field:17", "query": "immersive analytics", "mode": "KEYWORD", "min_citations": 1},
            "first": 1000,
        },
        {
            "by": ["TOPIC", "VENUE", "LANGUAGE", "SUBFIELD"],
            "filter": {"category": "field:17", "query": "immersive analytics", "mode": "KEYWORD", "minCitations": 1},
            "first": 1000,
        },
    ),
    (
        {"by": ["YEAR", "COUNTRY"], "filter": {"country": "gb", "researcher": "A5032473237", "type": "article"}},
        {"by": ["YEAR", "COUNTRY"], "filter": {"country": "gb", "researcher": "A5032473237", "type": "article"}},
    ),
]
# Refused with a clear error: (arguments, words the error must hold)
FACET_ERRORS: list[tuple[dict[str, Any], str]] = [
    ({"by": ["COLOUR"]}, "COLOUR"),
    ({"by": []}, "by"),
    ({"by": ["YEAR"], "first": 1001}, "first"),
    ({"by": ["YEAR"], "filter": {"category": "no such category at all"}}, "BAD_USER_INPUT"),
    ({"by": ["YEAR"], "filter": {"researcher": "A0000000000"}}, "BAD_USER_INPUT"),
    ({"by": ["YEAR"], "filter": {"colour": "red"}}, "colour"),
]
WRITES = [
    "CREATE (n:McpProbe) RETURN n",
    "MERGE (n:McpProbe {k: 1}) RETURN n",
    "MATCH (n:Paper) WITH n LIMIT 1 SET n.mcp_probe = 1 RETURN n.id",
    "MATCH (n:McpProbe) DELETE n",
    "MATCH (n:Paper) WITH n LIMIT 1 REMOVE n.title RETURN n.id",
    "LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row",
    "CALL db.createLabel('McpProbe')",
    "CALL db.clearQueryCaches()",
    "CALL dbms.listConfig() YIELD name RETURN name",
    "SHOW USERS",
]


@pytest.fixture(scope="module", autouse=True)
def loaded(all_sources_graph):
    return all_sources_graph


@pytest.fixture(scope="module")
def mcp_url(settings: Settings) -> Iterator[str]:
    with LiveServer(settings) as server:
        yield f"http://127.0.0.1:{server.port}/mcp"


def _stdio(settings: Settings) -> StdioServerParameters:
    weft = Path(sys.executable).with_name("weft")
    return StdioServerParameters(command=str(weft), args=["mcp"], env={**os.environ, **server_env(settings)})


def _calls(server: Any, calls: list[tuple[str, dict[str, Any]]]) -> tuple[set[str], list[Any]]:
    """The tool names the server lists, and each call's result, over one client session."""

    async def run() -> tuple[set[str], list[Any]]:
        async with Client(server) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            return names, [await client.call_tool(name, args) for name, args in calls]

    return asyncio.run(run())


def _structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    return result.structured_content


@pytest.fixture(scope="module")
def facts(client: GraphQLClient) -> dict[str, Any]:
    """GraphQL's answers that the tools must agree with."""
    data: dict[str, Any] = {}
    for part in (
        "mostCited(first: 5) { edges { node { id title citedByCount canonicalUrl } } }",
        """search(query: "immersive analytics", mode: KEYWORD, first: 5) {
          totalCount
          edges { node { kind node { ... on Paper { id } ... on Researcher { id } ... on Institution { id } } } }
        }""",
        'paper(id: "W3000695681") { id title year doi canonicalUrl authors { researcher { id } } }',
        """researcher(id: "A5032473237") { id name canonicalUrl paperCount citationCount hIndex
          coauthors(first: 1) { edges { node { researcher { id } } } } }""",
        'institution(id: "006jb1a24") { id name ror canonicalUrl }',
        """inField: search(query: "immersive analytics", mode: KEYWORD, category: "field:17", first: 5) {
          totalCount edges { node { node { ... on Paper { id } } } }
        }""",
    ):
        data.update(client.data("{ " + part + " }"))
    rid = data["researcher"]["id"]
    other = data["researcher"]["coauthors"]["edges"][0]["node"]["researcher"]["id"]
    more = client.data(
        """query($r: String!, $o: String!) {
          researcherNetwork(id: $r, limit: 20) { truncated nodes { id } edges { source target weight } }
          collaborationPath(from: $r, to: $o, maxPaths: 5) { allShortestPaths { researchers { id } } }
        }""",
        {"r": rid, "o": other},
    )
    more |= client.data(
        "query($ids: [String!]!) { resolve(ids: $ids) { input status entity { ... on Paper { id } "
        "... on Researcher { id } } } }",
        {"ids": ["W3000695681", "A5032473237", "10.9999/none", "not an id"]},
    )
    more |= client.data(
        "query($t: [String!]!) { matchReferences(texts: $t) { paper { id } } }",
        {"t": [TURING, "Nobody, N. (2031). No such work at all in any graph. Nowhere."]},
    )
    more["facets"] = [
        client.data(FACETS, {"order": "COUNT", "filter": None, "first": 10, **variables})["facets"]
        for _, variables in FACET_ASKS
    ]
    return {**data, **more, "other": other}


def _tool_calls(facts: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    rid = facts["researcher"]["id"]
    return [
        ("most_cited", {"first": 5}),
        ("search", {"query": "immersive analytics", "mode": "KEYWORD", "first": 5}),
        ("get_paper", {"id": "W3000695681"}),
        ("get_researcher", {"id": "A5032473237"}),
        ("get_institution", {"id": "006jb1a24"}),
        ("researcher_network", {"id": rid, "limit": 20}),
        ("collaboration_path", {"source": rid, "target": facts["other"]}),
        ("resolve_ids", {"ids": ["W3000695681", "A5032473237", "10.9999/none", "not an id"]}),
        ("cypher_read", {"query": "MATCH (p:Paper) RETURN count(p) AS papers"}),
        ("get_paper", {"id": "10.9999/none"}),
        ("most_cited", {"first": 1000}),
        ("search", {"query": "immersive analytics", "mode": "KEYWORD", "category": "field:17", "first": 5}),
        ("match_references", {"texts": [TURING, "Nobody, N. (2031). No such work at all in any graph. Nowhere."]}),
        *[("facets", arguments) for arguments, _ in FACET_ASKS],
        *[("facets", arguments) for arguments, _ in FACET_ERRORS],
    ]


def _check_answers(results: list[Any], facts: dict[str, Any], settings: Settings) -> None:
    base = settings.base_url.rstrip("/")
    top = [e["node"] for e in facts["mostCited"]["edges"]]
    cited = _structured(results[0])
    assert [(p["id"], p["title"], p["cited_by_count"]) for p in cited["papers"]] == [
        (p["id"], p["title"], p["citedByCount"]) for p in top
    ]
    assert [p["url"] for p in cited["papers"]] == [base + p["canonicalUrl"] for p in top]

    hits = _structured(results[1])
    assert hits["total"] == facts["search"]["totalCount"]
    assert [h["id"] for h in hits["hits"]] == [e["node"]["node"]["id"] for e in facts["search"]["edges"]]

    paper = _structured(results[2])
    assert (paper["id"], paper["title"], paper["year"], paper["doi"]) == tuple(
        facts["paper"][k] for k in ("id", "title", "year", "doi")
    )
    assert paper["url"] == base + facts["paper"]["canonicalUrl"]
    assert [a["id"] for a in paper["authors"]] == [a["researcher"]["id"] for a in facts["paper"]["authors"]]

    person = _structured(results[3])
    want = facts["researcher"]
    assert (person["id"], person["name"], person["url"]) == (want["id"], want["name"], base + want["canonicalUrl"])
    assert (person["paper_count"], person["citation_count"], person["h_index"]) == (
        want["paperCount"],
        want["citationCount"],
        want["hIndex"],
    )

    place = _structured(results[4])
    assert (place["id"], place["name"], place["ror"], place["url"]) == (
        facts["institution"]["id"],
        facts["institution"]["name"],
        facts["institution"]["ror"],
        base + facts["institution"]["canonicalUrl"],
    )

    network = _structured(results[5])
    assert sorted(n["id"] for n in network["nodes"]) == sorted(n["id"] for n in facts["researcherNetwork"]["nodes"])
    assert len(network["edges"]) == len(facts["researcherNetwork"]["edges"])
    assert all(n["url"].startswith(base + "/researchers/") for n in network["nodes"])

    path = _structured(results[6])
    assert path["paths"]
    assert [[r["id"] for r in p["researchers"]] for p in path["paths"]] == [
        [n["id"] for n in p["researchers"]] for p in facts["collaborationPath"]["allShortestPaths"]
    ]

    resolved = _structured(results[7])["results"]
    assert [(r["input"], r["status"], (r["entity"] or {}).get("id")) for r in resolved] == [
        (r["input"], r["status"], (r["entity"] or {}).get("id")) for r in facts["resolve"]
    ]

    counted = _structured(results[8])
    assert counted["columns"] == ["papers"] and counted["rows"][0][0] > 0

    assert results[9].is_error and "NOT_FOUND" in results[9].content[0].text
    assert results[10].is_error  # past the bound of 100: refused, not cut silently

    in_field = _structured(results[11])
    assert in_field["total"] == facts["inField"]["totalCount"] > 0
    assert [h["id"] for h in in_field["hits"]] == [e["node"]["node"]["id"] for e in facts["inField"]["edges"]]

    matched = _structured(results[12])["results"]
    assert [(m["paper"] or {}).get("id") for m in matched] == [
        (m["paper"] or {}).get("id") for m in facts["matchReferences"]
    ]
    assert matched[0]["paper"]["url"].startswith(base + "/papers/") and matched[1]["paper"] is None

    _check_facets(results[13 : 13 + len(FACET_ASKS)], facts["facets"], base)
    refused = results[13 + len(FACET_ASKS) :]
    for (arguments, words), result in zip(FACET_ERRORS, refused, strict=True):
        assert result.is_error, arguments
        assert words in result.content[0].text, (arguments, result.content[0].text)


def _check_facets(results: list[Any], asked: list[dict[str, Any]], base: str) -> None:
    """Each `facets` answer equals GraphQL's, group for group, with absolute URLs for entity groups."""
    entity_urls = 0
    for result, want in zip(results, asked, strict=True):
        got = _structured(result)
        assert got["total"] == want["totalCount"] > 0
        assert [f["dimension"] for f in got["facets"]] == [f["dimension"] for f in want["facets"]]
        for facet, expected in zip(got["facets"], want["facets"], strict=True):
            assert facet["group_count"] == expected["groupCount"]
            assert facet["unknown"] == {
                "count": expected["unknown"]["count"],
                "citation_sum": expected["unknown"]["citationSum"],
            }
            assert [(g["key"], g["name"], g["count"], g["citation_sum"]) for g in facet["groups"]] == [
                (g["key"], g["name"], g["count"], g["citationSum"]) for g in expected["groups"]
            ]
            assert [g["url"] for g in facet["groups"]] == [
                base + g["url"] if g["url"] else None for g in expected["groups"]
            ]
            entity_urls += sum(g["url"] is not None for g in facet["groups"])
    assert entity_urls > 0


def test_tools_over_http_agree_with_graphql(mcp_url: str, facts: dict[str, Any], settings: Settings) -> None:
    names, results = _calls(mcp_url, _tool_calls(facts))
    assert names >= TOOLS
    _check_answers(results, facts, settings)


def test_tools_over_stdio_agree_with_graphql(facts: dict[str, Any], settings: Settings) -> None:
    names, results = _calls(_stdio(settings), _tool_calls(facts))
    assert names >= TOOLS
    _check_answers(results, facts, settings)


def test_cypher_read_refuses_every_write(mcp_url: str, loaded) -> None:
    _, results = _calls(mcp_url, [("cypher_read", {"query": q}) for q in WRITES])
    for query, result in zip(WRITES, results, strict=True):
        assert result.is_error, query
        assert "refused" in result.content[0].text, (query, result.content[0].text)
    with loaded.session() as session:
        assert session.run("MATCH (n:McpProbe) RETURN count(n) AS n").single()["n"] == 0
        assert session.run("MATCH (n:Paper) WHERE n.mcp_probe IS NOT NULL RETURN count(n) AS n").single()["n"] == 0


def test_resources_are_llms_txt_and_the_schema(mcp_url: str) -> None:
    async def run() -> tuple[str, str]:
        async with Client(mcp_url) as client:
            llms = await client.read_resource("weft://llms.txt")
            sdl = await client.read_resource("weft://schema.graphql")
            return llms.contents[0].text, sdl.contents[0].text

    llms, sdl = asyncio.run(run())
    assert llms.startswith("# Weft") and "/mcp" in llms
    assert sdl == Path("schema.graphql").read_text(encoding="utf-8")
