"""For automated readers: /robots.txt, /llms.txt (what Weft holds and how to read it) and /openapi.json."""

from __future__ import annotations

import json
from functools import cache

from starlette.requests import Request
from starlette.responses import Response

from weft.graph.reads.site import site_counts
from weft.schema.root import build_schema
from weft.server.site.openapi import openapi_document
from weft.server.site.render import finish, reader_of, site_base, templates

ROBOTS = """User-agent: *
Disallow: /graphql
Disallow: /search?
Disallow: /export/
Allow: /

Sitemap: {base}/sitemap.xml
"""
"""Crawlers take the pages (listed by the sitemap), not the API, the search answers or the network files."""


async def robots_txt(request: Request) -> Response:
    """GET /robots.txt: what crawlers may fetch, and where the sitemap is."""
    return finish(request, ROBOTS.format(base=site_base(request)).encode(), "text/plain; charset=utf-8")


async def llms_txt(request: Request) -> Response:
    """GET /llms.txt: the graph's size, the GraphQL endpoint and SDL, page URL rules, feeds, exports."""
    counts = await site_counts(reader_of(request))
    base = site_base(request)
    text = templates.get_template("llms.txt").render({"counts": counts, "base": base})
    return finish(request, text.encode(), "text/plain; charset=utf-8")


async def openapi_json(request: Request) -> Response:
    """GET /openapi.json: OpenAPI 3.1 for every HTTP route other than /graphql's operations."""
    body = json.dumps(openapi_document(site_base(request)), indent=1).encode()
    return finish(request, body, "application/json")


@cache
def _sdl() -> bytes:
    return build_schema().as_str().encode()


async def schema_sdl(request: Request) -> Response:
    """GET /schema.graphql: the GraphQL schema as SDL."""
    return finish(request, _sdl(), "text/plain; charset=utf-8")
