"""Rendering a site page: Jinja2 (autoescaped) HTML, or the same content as markdown when the client
asks for `text/markdown`; gzip when accepted, an ETag so a repeat visit gets 304."""

from __future__ import annotations

import gzip
import hashlib
import time
from email.utils import formatdate, parsedate_to_datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from markdownify import MarkdownConverter
from starlette.requests import Request
from starlette.responses import Response
from starlette.templating import Jinja2Templates

from weft.graph.errors import WeftError
from weft.graph.reads.meta import data_changed_at
from weft.graph.reads.reader import GraphReader
from weft.server.site import jsonld, urls
from weft.server.site.links import web_link
from weft.server.static_files import static_url

TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "site"
MARKDOWN = "text/markdown"
HTML = "text/html"
MIN_GZIP_BYTES = 512
MAIN_START, MAIN_END = "<!-- main -->", "<!-- /main -->"
DESCRIPTION = (
    "A knowledge graph of scholarly work: papers, researchers and institutions from OpenAlex, Semantic Scholar"
    " and arXiv, woven together."
)
"""What a page says of itself (meta description, OpenGraph, Twitter card) when it has nothing of its own."""

templates = Jinja2Templates(directory=TEMPLATES)


def paper_title(node: dict[str, Any]) -> str:
    """A paper's title, or for the few records without one, what they are called by their source id."""
    return node.get("title") or f"Untitled paper ({node.get('openalex_id') or node.get('doi') or node['id']})"


def count(n: int, word: str) -> str:
    """`1 paper`, `2 papers`."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def site_base(request: Request) -> str:
    """The site's absolute base URL, from configuration (WEFT_PUBLIC_URL), never from the request's Host."""
    return request.app.state.settings.base_url


_environment: Any = templates.env  # jinja2's Environment (its globals and filters are plain dicts)
_environment.globals.update(
    paper_path=urls.paper_path,
    researcher_path=urls.researcher_path,
    institution_path=urls.institution_path,
    category_feed_path=urls.category_feed_path,
    jsonld_script=jsonld.script,
    paper_title=paper_title,
    count=count,
    site_base=site_base,
    static_url=static_url,
    default_description=DESCRIPTION,
)
_environment.filters["web_link"] = web_link


def reader_of(request: Request) -> GraphReader:
    """A reader for this request on the app's driver (counts its queries like the GraphQL context's)."""
    settings = request.app.state.settings
    return GraphReader(request.app.state.driver, settings.neo4j_database, settings.query_timeout_s)


def markdown_url(request: Request) -> str:
    """The absolute URL of this page's markdown version: the configured base (never the Host header), the
    request's path and query, and `format=md` (llms.txt's alternate link; any other `format` replaced)."""
    query = [(k, v) for k, v in request.query_params.multi_items() if k != "format"]
    return site_base(request).rstrip("/") + request.url.path + "?" + urlencode([*query, ("format", "md")])


def wants_markdown(request: Request) -> bool:
    """True for the markdown version's URL (`?format=md`), or when the Accept header ranks text/markdown above
    text/html (or names it and not HTML)."""
    if request.query_params.get("format") == "md":
        return True
    best: dict[str, float] = {}
    for part in request.headers.get("accept", "").split(","):
        media, *params = [p.strip() for p in part.split(";")]
        quality = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        best[media.lower()] = max(quality, best.get(media.lower(), 0.0))
    return best.get(MARKDOWN, 0.0) > max(best.get(HTML, 0.0), best.get("*/*", 0.0) if HTML not in best else 0.0)


class SafeMarkdown(MarkdownConverter):
    """markdownify where text from data makes no link and no HTML: `\\`, `&` and `<` in text are
    backslash-escaped (CommonMark shows them as they are; code spans keep them literally), so are `[` and `]`
    (a title written `[x](javascript:…)` stays text), and a link whose scheme is not http(s) is its text alone."""

    def escape(self, text: str, parent_tags: set[str]) -> str:
        if not text:
            return text
        text = text.replace("\\", "\\\\").replace("&", "\\&").replace("<", "\\<")
        base: Any = super()  # markdownify's converter is untyped
        escaped = str(base.escape(text, parent_tags))
        return escaped.replace("[", "\\[").replace("]", "\\]")

    def convert_svg(self, el: Any, text: str, parent_tags: set[str]) -> str:
        """A chart is drawn for the eye only: its numbers are in the table beside it."""
        return ""

    def convert_a(self, el: Any, text: str, parent_tags: set[str]) -> str:
        href = str(el.get("href") or "").strip()
        try:
            scheme = urlsplit(href).scheme
        except ValueError:
            scheme = "?"
        if scheme and web_link(href) is None:  # an absolute link, and not http(s)
            return text
        base: Any = super()  # markdownify's converter is untyped
        return str(base.convert_a(el, text, parent_tags))


_MARKDOWN = SafeMarkdown(heading_style="ATX", strip=["script", "style", "form", "button", "input"])


def as_markdown(html: str) -> str:
    """The page's main content (between the main markers) as markdown."""
    start, end = html.find(MAIN_START), html.find(MAIN_END)
    main = html[start + len(MAIN_START) : end] if start >= 0 and end > start else html
    text = _MARKDOWN.convert(main)
    lines = [line.rstrip() for line in text.splitlines()]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip() + "\n"


CODE_CHANGED_AT = float(max(int(p.stat().st_mtime) for p in TEMPLATES.iterdir()))
"""When the templates last changed (the same in every worker): pages are no older than that."""
SETTLED_S = 2.0
"""How long after a change Last-Modified is left out: uvicorn's Date is refreshed once a second, so a
Last-Modified any newer could be later than the response's own Date."""


async def read_changed_at(request: Request) -> None:
    """Note when the graph last changed (its newest data version's commit), read before the page is, for
    `finish` to date it: every worker reads the same time, so the same body gets the same Last-Modified.
    Unknown while the database does not answer (pages that need no data still render, undated)."""
    try:
        request.state.data_changed_at = await data_changed_at(reader_of(request))
    except WeftError:
        return


def last_modified(request: Request) -> float | None:
    """The response's Last-Modified: the later of the graph's last change and the templates'; None when
    unknown or so recent that it could be later than Date."""
    if not hasattr(request.state, "data_changed_at"):
        return None  # not read for this response: no date is better than a made-up one
    modified = float(int(max(request.state.data_changed_at or 0.0, CODE_CHANGED_AT)))
    return modified if modified <= time.time() - SETTLED_S else None


def not_modified(request: Request, etag: str, modified: float | None) -> bool:
    """True when the client's copy is current: its If-None-Match names the ETag, or (without an
    If-None-Match, as RFC 9110 says) its If-Modified-Since is not before Last-Modified."""
    if match := request.headers.get("if-none-match"):
        return etag in [t.strip().removeprefix("W/") for t in match.split(",")] or match.strip() == "*"
    if modified is not None and (since := request.headers.get("if-modified-since")):
        try:
            return parsedate_to_datetime(since).timestamp() >= modified
        except (TypeError, ValueError):
            return False
    return False


def finish(
    request: Request, body: bytes, media_type: str, status: int = 200, headers: dict[str, str] | None = None
) -> Response:
    """The response for `body`: 304 when the client's copy is current (ETag or Last-Modified), gzip
    when the client accepts it."""
    etag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
    zipped = len(body) >= MIN_GZIP_BYTES and "gzip" in request.headers.get("accept-encoding", "")
    base = {
        "ETag": "W/" + etag if zipped else etag,  # weak when gzipped, as nginx does: the same content, other bytes
        "Vary": "Accept, Accept-Encoding",
        "Cache-Control": "public, max-age=60",
        **(headers or {}),
    }
    if status == 200:
        modified = last_modified(request)
        if modified is not None:
            base["Last-Modified"] = formatdate(modified, usegmt=True)
        if not_modified(request, etag, modified):
            return Response(status_code=304, headers=base)
    if zipped:
        body = gzip.compress(body, compresslevel=6, mtime=0)
        base["Content-Encoding"] = "gzip"
    return Response(body, status_code=status, media_type=media_type, headers=base)


def page(request: Request, template: str, context: dict[str, Any], status: int = 200) -> Response:
    """A page as HTML (a found page's head linking its markdown version), or as markdown for `?format=md` or
    `Accept: text/markdown`."""
    markdown_href = markdown_url(request) if status == 200 else None
    html = templates.get_template(template).render({"request": request, "markdown_href": markdown_href, **context})
    if wants_markdown(request):
        return finish(request, as_markdown(html).encode(), f"{MARKDOWN}; charset=utf-8", status)
    return finish(request, html.encode(), "text/html; charset=utf-8", status)


def int_param(request: Request, name: str, default: int = 1, most: int = 10_000) -> int:
    """A positive whole-number query parameter (a page number), `default` when absent or malformed."""
    raw = request.query_params.get(name, "")
    return min(int(raw), most) if raw.isdigit() and int(raw) >= 1 else default


def pages_of(total: int, per_page: int) -> int:
    """How many pages a list of `total` rows takes: at least one (an empty list still has its page)."""
    return max(1, -(-total // per_page))


def moved(request: Request, canonical: str) -> Response | None:
    """301 to the canonical path (query string kept) unless the request is already there."""
    if request.scope["path"] == canonical:
        return None
    query = request.url.query
    return Response(status_code=301, headers={"Location": canonical + (f"?{query}" if query else "")})


def not_found(request: Request, what: str) -> Response:
    """The helpful 404 page, saying what was not found."""
    return page(request, "404.html", {"what": what, "title": "Not found"}, status=404)
