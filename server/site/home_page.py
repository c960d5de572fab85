"""The home page (what the graph holds, the most cited works), search, /developers and the 404 page."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from weft.graph.errors import InvalidInput
from weft.graph.reads.page import Page
from weft.graph.reads.papers import PaperFilter, paper_page
from weft.graph.reads.search import search_page
from weft.graph.reads.site import site_counts
from weft.server.site import jsonld
from weft.server.site.render import DESCRIPTION, int_param, not_found, page, pages_of, reader_of

MOST_CITED = 10
PER_PAGE = 20
KINDS = {"papers": ["PAPER"], "researchers": ["RESEARCHER"], "institutions": ["INSTITUTION"]}
SEARCH_TEXT = "Search Weft's papers (by words or meaning), researchers and institutions."
DEVELOPERS_TEXT = "Weft's machine interfaces: GraphQL, its schema, openapi.json, llms.txt, exports, feeds and sitemaps."
MODES = {"both": "HYBRID", "words": "KEYWORD", "meaning": "SEMANTIC"}
"""The search page's `mode`: the API's SearchMode under a reader's name (`both`, the default, is HYBRID)."""


async def home(request: Request) -> Response:
    """GET /: counts per label and source, the most cited works, a search box."""
    reader = reader_of(request)
    counts = await site_counts(reader)
    top = await paper_page(reader, PaperFilter(), "MOST_CITED", None, MOST_CITED)
    context = {
        "title": "Weft",
        "canonical": "/",
        "counts": counts,
        "top": top.rows,
        "jsonld": jsonld.website(DESCRIPTION),
    }
    return page(request, "home.html", context)


async def search(request: Request) -> Response:
    """GET /search?q=&type=&mode=&page=: hits over papers, researchers and institutions, best first, by words,
    meaning (papers only) or both fused (as the API's search modes)."""
    text = request.query_params.get("q", "").strip()
    kind = request.query_params.get("type", "")
    mode = request.query_params.get("mode", "")
    mode = mode if mode in MODES else "both"
    page_no = int_param(request, "page", most=500)
    hits, error = Page([], 0), None
    if text:
        try:
            kinds = KINDS.get(kind, ["PAPER", "RESEARCHER", "INSTITUTION"])
            skip = (page_no - 1) * PER_PAGE
            hits = await search_page(reader_of(request), text, kinds, skip, PER_PAGE, MODES[mode])
        except InvalidInput as exc:
            error = str(exc)
    if page_no > pages_of(hits.total, PER_PAGE):
        return not_found(request, "page")
    context = {
        "title": f"Search: {text}" if text else "Search",
        "canonical": "/search",
        "q": text,
        "kind": kind if kind in KINDS else "",
        "mode": mode,
        "hits": hits,
        "error": error,
        "page_no": page_no,
        "pages": pages_of(hits.total, PER_PAGE),
        "description": SEARCH_TEXT,
        "jsonld": jsonld.web_page("SearchResultsPage", "/search", "Search", SEARCH_TEXT),
    }
    return page(request, "search.html", context, status=400 if error else 200)


async def developers(request: Request) -> Response:
    """GET /developers: the machine interfaces (GraphQL, SDL, openapi.json, llms.txt, exports, feeds)."""
    context = {
        "title": "Developers",
        "canonical": "/developers",
        "description": DEVELOPERS_TEXT,
        "jsonld": jsonld.web_page("WebPage", "/developers", "Developers", DEVELOPERS_TEXT),
    }
    return page(request, "developers.html", context)


async def missing(request: Request, exc: Exception) -> Response:
    """The 404 page for any path no route answers."""
    return not_found(request, "page")
