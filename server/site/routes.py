"""The site's routes (mounted by server/app.py) and its 404 handler; graph errors become error pages."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from weft.graph.errors import InvalidInput, WeftError
from weft.server.site import feeds, home_page, index_pages, machines, sitemap
from weft.server.site.institution_page import institution_page
from weft.server.site.paper_page import paper_page
from weft.server.site.render import page, read_changed_at
from weft.server.site.researcher_page import researcher_page

Endpoint = Callable[[Request], Awaitable[Response]]


def guarded(endpoint: Endpoint) -> Endpoint:
    """The endpoint with graph errors answered as pages: bad input 400, the database down 503."""

    async def run(request: Request) -> Response:
        try:
            await read_changed_at(request)  # before the page's own reads: its Last-Modified (render.finish)
            return await endpoint(request)
        except InvalidInput as exc:
            return page(request, "error.html", {"title": "Bad request", "message": str(exc)}, status=400)
        except WeftError as exc:
            status = 503 if exc.code == "UNAVAILABLE" else 500
            return page(request, "error.html", {"title": "Unavailable", "message": str(exc)}, status=status)

    return run


def _to(path: str) -> Endpoint:
    """An endpoint answering 301 to `path` (`/papers/` with nothing after it is the index)."""

    async def move(request: Request) -> Response:
        return RedirectResponse(path, status_code=301)

    return move


def _get(path: str, endpoint: Endpoint) -> Route:
    return Route(path, guarded(endpoint), methods=["GET", "HEAD"])


routes: list[BaseRoute] = [
    _get("/", home_page.home),
    _get("/search", home_page.search),
    _get("/developers", home_page.developers),
    _get("/researchers", index_pages.researchers_index),
    _get("/institutions", index_pages.institutions_index),
    _get("/papers", index_pages.papers_index),
    _get("/researchers/", _to("/researchers")),
    _get("/institutions/", _to("/institutions")),
    _get("/papers/", _to("/papers")),
    _get("/researchers/{key:path}", researcher_page),
    _get("/institutions/{key:path}", institution_page),
    _get("/papers/{rest:path}", paper_page),
    _get("/robots.txt", machines.robots_txt),
    _get("/feeds/papers.xml", feeds.all_papers_feed),
    _get("/feeds/changes.xml", feeds.changes_feed),
    _get("/feeds/researchers/{key}.xml", feeds.researcher_feed),
    _get("/feeds/institutions/{key}.xml", feeds.institution_feed),
    _get("/feeds/categories/{key}.xml", feeds.category_feed),
    _get("/sitemap.xml", sitemap.sitemap_index),
    _get("/sitemaps/pages.xml", sitemap.static_sitemap),
    _get("/sitemaps/{section}-{n:int}.xml", sitemap.child_sitemap),
    _get("/llms.txt", machines.llms_txt),
    _get("/openapi.json", machines.openapi_json),
    _get("/schema.graphql", machines.schema_sdl),
]

exception_handlers = {404: home_page.missing}
