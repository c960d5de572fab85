"""The layers around every request (server/app.py adds them in one place): only configured Host headers are
answered, every response says `nosniff` and every document carries a Content-Security-Policy with
framing and referrer rules, redirects to the request's own host are sent as paths, and sitemaps are
gzipped for clients that accept it."""

from __future__ import annotations

from typing import TypedDict
from urllib.parse import urlsplit, urlunsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from weft.graph.settings import Settings

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",  # no inline script and no eval: every script is a file under /static
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'self'",  # the researcher page embeds the network page; no other site may frame either
    )
)
DOCUMENT_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"SAMEORIGIN"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
)
DOCUMENT_TYPES = (b"text/html", b"image/svg+xml", b"application/xhtml+xml")
"""Responses a browser renders as a document (an SVG opened on its own runs its scripts)."""
PROBES = frozenset({"/health", "/ready"})
"""Answered whatever the Host header: load balancers and orchestrators probe by IP address, or with none."""
SITEMAPS = ("/sitemap.xml", "/sitemaps/")


class SecurityHeaders:
    """`X-Content-Type-Options: nosniff` on every response; on documents also the Content-Security-Policy,
    `X-Frame-Options: SAMEORIGIN` (older browsers' frame-ancestors) and a Referrer-Policy."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("x-content-type-options", "nosniff")
                if headers.get("content-type", "").encode().startswith(DOCUMENT_TYPES):
                    for name, value in DOCUMENT_HEADERS:
                        headers.setdefault(name.decode(), value.decode())
            await send(message)

        await self.app(scope, receive, send_with_headers)


class TrustedHosts:
    """Starlette's TrustedHostMiddleware for the configured hosts (400 for any other Host header), except
    for the health probes."""

    def __init__(self, app: ASGIApp, hosts: tuple[str, ...]) -> None:
        self.app = app
        self.checked = TrustedHostMiddleware(app, allowed_hosts=list(hosts), www_redirect=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] in PROBES:
            await self.app(scope, receive, send)
        else:
            await self.checked(scope, receive, send)


class RelativeRedirects:
    """A redirect to the request's own host is sent as a path: Starlette's trailing-slash redirects build an
    absolute URL from the Host header, and no absolute URL may come from a request header."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = Headers(scope=scope).get("host", "")

        async def send_relative(message: Message) -> None:
            if message["type"] == "http.response.start" and 300 <= message["status"] < 400:
                headers = MutableHeaders(scope=message)
                target = urlsplit(headers.get("location", ""))
                if target.netloc and target.netloc == host:
                    headers["location"] = urlunsplit(("", "", target.path or "/", target.query, target.fragment))
            await send(message)

        await self.app(scope, receive, send_relative)


class CompressedSitemaps:
    """Sitemaps (the index and the streamed children, up to 50,000 URLs each) gzipped when accepted; the
    pages and feeds gzip themselves (server/site/render.py), static files are kept gzipped
    (server/static_files.py), and GraphQL answers stay as they are (small, and hot)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzipped = GZipMiddleware(app, minimum_size=512, compresslevel=6)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith(SITEMAPS):
            await self.gzipped(scope, receive, send)
        else:
            await self.app(scope, receive, send)


WILDCARD_BINDS = frozenset({"0.0.0.0", "::", ""})


def own_url(host: str, port: int) -> str:
    """The server's own address as a base URL, for absolute links when WEFT_PUBLIC_URL is unset (`weft serve`);
    a wildcard bind is written as 127.0.0.1.

    >>> own_url("0.0.0.0", 8000), own_url("::1", 8101)
    ('http://127.0.0.1:8000', 'http://[::1]:8101')
    """
    name = "127.0.0.1" if host in WILDCARD_BINDS else host
    return f"http://[{name}]:{port}" if ":" in name else f"http://{name}:{port}"


class ProxyOptions(TypedDict):
    """uvicorn's two options on proxy headers."""

    proxy_headers: bool
    forwarded_allow_ips: str | None


def proxy_options(settings: Settings) -> ProxyOptions:
    """uvicorn's options for X-Forwarded-For/-Proto: read only from the proxies in WEFT_FORWARDED_ALLOW_IPS,
    and from no one when it is unset (uvicorn's own default would trust 127.0.0.1)."""
    if settings.forwarded_allow_ips:
        return {"proxy_headers": True, "forwarded_allow_ips": settings.forwarded_allow_ips}
    return {"proxy_headers": False, "forwarded_allow_ips": None}


def middleware(settings: Settings) -> list[Middleware]:
    """The app's middleware, outermost first."""
    return [
        Middleware(TrustedHosts, hosts=settings.trusted_hosts),
        Middleware(SecurityHeaders),
        Middleware(RelativeRedirects),
        Middleware(CompressedSitemaps),
    ]
