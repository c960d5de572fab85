"""/sitemap.xml: a sitemap index of child sitemaps of at most 50,000 URLs each (the protocol's limit),
each streamed in id order from the unique index, a batch at a time, so it works at any size."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any
from xml.sax.saxutils import escape

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from weft.graph.reads.reader import GraphReader
from weft.graph.reads.site import site_counts, sitemap_nodes
from weft.server.site import urls
from weft.server.site.render import not_found, reader_of, site_base

PER_SITEMAP = 50_000
BATCH = 5_000
XML = "application/xml; charset=utf-8"
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
SECTIONS: dict[str, Callable[[dict[str, Any]], str]] = {
    "papers": urls.paper_path,
    "researchers": urls.researcher_path,
    "institutions": urls.institution_path,
}
STATIC_PAGES = ("/", "/search", "/developers", "/papers", "/researchers", "/institutions")


def _url(loc: str, lastmod: str | None) -> str:
    mod = f"<lastmod>{escape(lastmod[:10])}</lastmod>" if lastmod else ""
    return f"<url><loc>{escape(loc)}</loc>{mod}</url>\n"


async def sitemap_index(request: Request) -> Response:
    """GET /sitemap.xml: one child sitemap per 50,000 pages of each section, plus the static pages."""
    base = site_base(request)
    counts = await site_counts(reader_of(request))
    children = [f"{base}/sitemaps/pages.xml"]
    for section in SECTIONS:
        chunks = -(-int(counts.get(section) or 0) // PER_SITEMAP)
        children += [f"{base}/sitemaps/{section}-{n}.xml" for n in range(chunks)]
    body = "".join(f"<sitemap><loc>{escape(c)}</loc></sitemap>\n" for c in children)
    xml = f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex {NS}>\n{body}</sitemapindex>\n'
    return Response(xml, media_type=XML)


async def _stream(reader: GraphReader, section: str, rows: list[dict[str, Any]], base: str) -> AsyncIterator[str]:
    """The urlset from its first batch `rows` on, each further batch read after the last id of the one before."""
    yield f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>\n'
    path_of, left = SECTIONS[section], PER_SITEMAP
    while True:
        yield "".join(_url(base + path_of(n), n.get("updated_date")) for n in rows)
        left -= len(rows)
        if left <= 0 or len(rows) < BATCH:
            break
        rows = await sitemap_nodes(reader, section, rows[-1]["id"], 0, min(BATCH, left))
    yield "</urlset>\n"


async def child_sitemap(request: Request) -> Response:
    """GET /sitemaps/{section}-{n}.xml: the n-th 50,000 pages of a section, streamed; 404 past the last."""
    section, chunk = request.path_params["section"], request.path_params["n"]
    if section not in SECTIONS:
        return not_found(request, "sitemap")
    reader = reader_of(request)
    first = await sitemap_nodes(reader, section, "", chunk * PER_SITEMAP, min(BATCH, PER_SITEMAP))
    if not first:
        return not_found(request, "sitemap")
    return StreamingResponse(_stream(reader, section, first, site_base(request)), media_type=XML)


async def static_sitemap(request: Request) -> Response:
    """GET /sitemaps/pages.xml: the pages that are not an entity's."""
    base = site_base(request)
    body = "".join(_url(base + p, None) for p in STATIC_PAGES)
    return Response(f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>\n{body}</urlset>\n', media_type=XML)
