"""GET /papers, /researchers, /institutions: every paper (most cited first), researcher and institution
(by name) in numbered pages, the way in for a reader who has no name to search for."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from weft.graph.reads.site import index_page
from weft.server.site import jsonld
from weft.server.site.render import int_param, not_found, page, pages_of, reader_of

PER_PAGE = 25
HEADINGS = {
    "papers": ("Papers", "Every paper in the graph, most cited first."),
    "researchers": ("Researchers", "Every researcher in the graph, by family name."),
    "institutions": ("Institutions", "Every institution in the graph, by name."),
}


async def _index(request: Request, section: str) -> Response:
    page_no = int_param(request, "page", most=1_000_000)
    rows = await index_page(reader_of(request), section, (page_no - 1) * PER_PAGE, PER_PAGE)
    pages = pages_of(rows.total, PER_PAGE)
    if page_no > pages:
        return not_found(request, "page")
    title, lead = HEADINGS[section]
    path = "/" + section
    context = {
        "title": title,
        "canonical": path,
        "description": f"{lead} {rows.total} in all.",
        "section": section,
        "lead": lead,
        "rows": rows,
        "first": (page_no - 1) * PER_PAGE + 1,
        "page_no": page_no,
        "pages": pages,
        "jsonld": jsonld.collection_page(path, title, lead),
    }
    return page(request, "index.html", context)


async def papers_index(request: Request) -> Response:
    """GET /papers?page=: every paper, most cited first."""
    return await _index(request, "papers")


async def researchers_index(request: Request) -> Response:
    """GET /researchers?page=: every researcher by family name, with their paper count."""
    return await _index(request, "researchers")


async def institutions_index(request: Request) -> Response:
    """GET /institutions?page=: every institution by name, with the papers stating it."""
    return await _index(request, "institutions")
