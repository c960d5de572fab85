"""The OpenAPI 3.1 description of Weft's HTTP routes other than the GraphQL operations themselves."""

from __future__ import annotations

from typing import Any

HTML = {"text/html": {"schema": {"type": "string"}}, "text/markdown": {"schema": {"type": "string"}}}
XML = {"application/xml": {"schema": {"type": "string"}}}
RSS = {"application/rss+xml": {"schema": {"type": "string"}}}
NOT_FOUND = {"description": "Nothing has that id (an HTML page saying so).", "content": HTML}
PAST_LAST = {"description": "Nothing has that id, or the page number is past the list's last page.", "content": HTML}
PAGE = {"type": "integer", "minimum": 1}
MOVED = {"description": "Another spelling of the page: Location holds the canonical path."}


def _param(name: str, where: str, description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "name": name,
        "in": where,
        "required": where == "path",
        "description": description,
        "schema": schema or {"type": "string"},
    }


def _get(
    summary: str,
    content: dict[str, Any],
    params: list[dict[str, Any]] | None = None,
    errors: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One GET operation: its 200 response, parameters and the other responses by status code."""
    responses: dict[str, Any] = {"200": {"description": summary, "content": content}, **(errors or {})}
    return {"get": {"summary": summary, "parameters": params or [], "responses": responses}}


def _entity(kind: str, name: str) -> dict[str, Any]:
    key = _param(name, "path", f"The {kind}'s canonical key with its slug, or any id form (301 to the canonical path).")
    page = _param("page", "query", "Page of the list (1-based).", PAGE)
    return _get(f"The {kind}'s page", HTML, [key, page], errors={"301": MOVED, "404": PAST_LAST})


def _index(what: str) -> dict[str, Any]:
    page = _param("page", "query", "Page of the list (1-based).", PAGE)
    return _get(f"Every {what}, in numbered pages", HTML, [page], errors={"404": PAST_LAST})


def _feed(kind: str) -> dict[str, Any]:
    key = _param("key", "path", f"Any id of the {kind}.")
    return _get(f"RSS 2.0 feed of the {kind}'s newest papers", RSS, [key], errors={"404": NOT_FOUND})


def openapi_document(base: str) -> dict[str, Any]:
    """The document, with `base` as the server URL."""
    query = _param("query", "query", "A GraphQL query (GET runs queries only; POST takes a JSON body).")
    paths: dict[str, Any] = {
        "/": _get("Home: what the graph holds, the most cited works", HTML),
        "/search": _get(
            "Full-text search over papers, researchers and institutions",
            HTML,
            [
                _param("q", "query", "Words to look for."),
                _param(
                    "type",
                    "query",
                    "Only one kind.",
                    {"type": "string", "enum": ["papers", "researchers", "institutions"]},
                ),
                _param("page", "query", "Page of hits (1-based).", PAGE),
            ],
            errors={"404": {"description": "The page number is past the last page of hits.", "content": HTML}},
        ),
        "/developers": _get("The machine interfaces, linked", HTML),
        "/papers": _index("paper, most cited first"),
        "/researchers": _index("researcher, by family name"),
        "/institutions": _index("institution, by name"),
        "/papers/{key}": _entity("paper", "key"),
        "/researchers/{key}": _entity("researcher", "key"),
        "/institutions/{key}": _entity("institution", "key"),
        "/researchers/{id}/network": _get(
            "The researcher's co-author network, drawn",
            {"text/html": {"schema": {"type": "string"}}},
            [_param("id", "path", "Any researcher id.")],
            errors={"404": NOT_FOUND},
        ),
        "/export/researchers/{id}/network.{fmt}": _get(
            "The researcher's network as GraphML, GEXF or Cytoscape.js JSON",
            {
                "application/octet-stream": {"schema": {"type": "string"}},
                "application/json": {"schema": {"type": "object"}},
            },
            [
                _param("id", "path", "Any researcher id."),
                _param("fmt", "path", "File format.", {"type": "string", "enum": ["graphml", "gexf", "json"]}),
            ],
            errors={"404": {"description": "Unknown researcher or format."}},
        ),
        "/feeds/papers.xml": _get("RSS 2.0 feed of the newest papers", RSS),
        "/feeds/researchers/{key}.xml": _feed("researcher"),
        "/feeds/institutions/{key}.xml": _feed("institution"),
        "/feeds/categories/{key}.xml": _get(
            "RSS 2.0 feed of a category's newest papers",
            RSS,
            [_param("key", "path", "Category key (e.g. `field:17`), id or name.")],
            errors={"404": NOT_FOUND},
        ),
        "/sitemap.xml": _get("Sitemap index (child sitemaps of at most 50,000 URLs)", XML),
        "/sitemaps/pages.xml": _get("Sitemap of the pages that are not an entity's", XML),
        "/sitemaps/{section}-{n}.xml": _get(
            "The n-th 50,000 pages of a section, streamed",
            XML,
            [
                _param(
                    "section",
                    "path",
                    "Which pages.",
                    {"type": "string", "enum": ["papers", "researchers", "institutions"]},
                ),
                _param("n", "path", "Chunk number (0-based).", {"type": "integer", "minimum": 0}),
            ],
            errors={"404": {"description": "No such section, or the chunk is past its last page.", "content": HTML}},
        ),
        "/robots.txt": _get(
            "What crawlers may fetch, and the sitemap index", {"text/plain": {"schema": {"type": "string"}}}
        ),
        "/llms.txt": _get(
            "What Weft holds and how an automated reader should use it", {"text/plain": {"schema": {"type": "string"}}}
        ),
        "/schema.graphql": _get("The GraphQL schema (SDL)", {"text/plain": {"schema": {"type": "string"}}}),
        "/openapi.json": _get("This document", {"application/json": {"schema": {"type": "object"}}}),
        "/health": _get(
            "200 when Neo4j answers",
            {"application/json": {"schema": {"type": "object"}}},
            errors={"503": {"description": "Neo4j does not answer."}},
        ),
        "/mcp": {
            "post": {
                "summary": "The read-only MCP server (Model Context Protocol, streamable HTTP, stateless JSON): "
                "Weft's reads as tools for agents (README, 'MCP: tools for agents')",
                "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
                "responses": {"200": {"description": "A JSON-RPC answer.", "content": {"application/json": {}}}},
            }
        },
        "/graphql": _get(
            "GraphiQL in a browser; GraphQL over HTTP (GET for queries, POST) otherwise",
            {"text/html": {"schema": {"type": "string"}}, "application/json": {"schema": {"type": "object"}}},
            [query],
        ),
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Weft",
            "version": "0.1.0",
            "description": "Pages, feeds, sitemaps and exports of the Weft scholarly graph; data queries: /graphql.",
        },
        "servers": [{"url": base}],
        "paths": paths,
    }
