"""The home page (what the graph holds, the most cited works), search, /developers and the 404 page."""

from __future__ import annotations

from functools import partial

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from weft.graph.errors import InvalidInput
from weft.graph.reads.page import Page
from weft.graph.reads.papers import PaperFilter, paper_page
from weft.graph.reads.search import KEYWORD_HITS, search_page
from weft.graph.reads.site import site_counts
from weft.server.site import jsonld
from weft.server.site.render import DESCRIPTION, int_param, not_found, page, pages_of, reader_of
from weft.server.site.search_facets import (
    FORMATS,
    SHOWN,
    TITLES,
    Narrowing,
    export,
    hit_facets,
    narrowed_hits,
    search_url,
    year_histogram,
)

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
    meaning (papers only) or both fused (as the API's search modes). Paper hits are counted by year, field,
    institution, country and type (facets), and the facet filters (`year`, `field`, `institution`, `country`,
    `work_type`) narrow the hits to papers; `format=csv` or `format=json` answers the facets themselves."""
    text = request.query_params.get("q", "").strip()
    kind = request.query_params.get("type", "")
    kind = kind if kind in KINDS else ""
    mode = request.query_params.get("mode", "")
    mode = mode if mode in MODES else "both"
    page_no = int_param(request, "page", most=500)
    narrowing = Narrowing.of(request)
    fmt = request.query_params.get("format", "")
    if narrowing.active:
        kind = "papers"
    hits, error, found = Page([], 0), None, None
    if text:
        reader = reader_of(request)
        try:
            skip = (page_no - 1) * PER_PAGE
            if kind in ("", "papers") or fmt in FORMATS:
                papers = await search_page(reader, text, ["PAPER"], 0, KEYWORD_HITS, MODES[mode])
                found = await hit_facets(reader, papers.rows, narrowing)
                if kind == "papers":
                    rows = await narrowed_hits(reader, papers.rows, narrowing)
                    hits = Page(rows[skip : skip + PER_PAGE], len(rows))
            if kind != "papers" and fmt not in FORMATS:
                kinds = KINDS.get(kind, ["PAPER", "RESEARCHER", "INSTITUTION"])
                hits = await search_page(reader, text, kinds, skip, PER_PAGE, MODES[mode])
        except InvalidInput as exc:
            error = str(exc)
    if fmt in FORMATS and found is not None:
        return export(found, fmt, {"q": text, "mode": mode, **narrowing.params()})
    if page_no > pages_of(hits.total, PER_PAGE):
        return not_found(request, "page")
    shareable = search_url(text, kind, mode, narrowing, page_no) + ("&format=md" if fmt == "md" else "")
    if text and narrowing.active and f"{request.url.path}?{request.url.query}" != shareable:
        return RedirectResponse(shareable, status_code=301)  # one spelling per filtered search
    context = {
        "title": f"Search: {text}" if text else "Search",
        "canonical": "/search",
        "q": text,
        "kind": kind,
        "mode": mode,
        "hits": hits,
        "error": error,
        "page_no": page_no,
        "pages": pages_of(hits.total, PER_PAGE),
        "facets": found,
        "histogram": year_histogram(found),
        "narrowing": narrowing,
        "filter_titles": TITLES,
        "dimension_filter": {v: k for k, v in SHOWN.items()},
        "search_url": partial(search_url, text, kind, mode, narrowing),
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
