"""The Starlette app: one async Neo4j driver per process (lifespan), /graphql, /health and /ready (server/health.py).

`weft serve --workers N` runs N such processes on one port (uvicorn's supervisor); each builds its own
app, driver and caches, so nothing here is shared between processes.

/graphql follows GraphQL over HTTP: GET (queries only) and POST, `application/json` and
`application/graphql-response+json` (request errors get 400 and no `data` with the latter),
batching off. Each response carries `x-request-id` and `x-weft-cypher-queries`; repeated requests are
answered from server/response_cache.py while the data stays the same (`x-weft-cache`); every other one by
graphql-core (schema/support/execution.py), one path.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
import logging
import os
from collections.abc import AsyncGenerator
from typing import Any, cast

import orjson
from cross_web import HTTPException  # what Strawberry's view raises for a request it refuses
from graphql import GraphQLError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL
from strawberry.http import GraphQLHTTPResponse
from strawberry.types import ExecutionResult
from strawberry.types.unset import UNSET

from weft.graph.driver import open_async_driver
from weft.graph.network_cache import NETWORK_CACHE
from weft.graph.settings import Settings, load_settings
from weft.schema.context import Context
from weft.schema.root import build_schema
from weft.server import health, mcp_tools, network_routes, protections
from weft.server.availability import Availability, Drain
from weft.server.graphql_request import Params, decode_json, preferred_media_type, prefers_html, request_params
from weft.server.response_cache import ParsedDocument, ResponseCache
from weft.server.site import routes as site
from weft.server.site.graphiql import graphiql_html

log = logging.getLogger("weft.server")
# Unknown-label warnings on an empty or partly loaded graph are not worth a log line per query.
logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)

JSON = "application/json"
GRAPHQL_RESPONSE_JSON = "application/graphql-response+json"
GRAPHQL_RESPONSE_CONTENT_TYPE = f"{GRAPHQL_RESPONSE_JSON}; charset=utf-8"


def is_request_error(result: ExecutionResult) -> bool:
    """True when the operation never executed (parse, validation or variable errors): no field path."""
    return result.data is None and bool(result.errors) and all(e.path is None for e in result.errors)


class WeftGraphQL(GraphQL[Context, None]):
    """Strawberry's ASGI app with Weft's typed context, GraphQL-over-HTTP status codes and orjson."""

    async def render_graphql_ide(self, request: Request) -> Response:
        """GraphiQL from the project's own files, so it works with no internet (Strawberry's uses unpkg)."""
        return HTMLResponse(graphiql_html())

    def encode_json(self, data: object) -> bytes:
        """Compact UTF-8 JSON via orjson; the standard library for anything orjson refuses (ints past 64 bits)."""
        try:
            return orjson.dumps(data)
        except TypeError:
            return json.dumps(data, separators=(",", ":")).encode()

    def decode_json(self, data: str | bytes) -> object:
        """As server/graphql_request.py decodes (400 for what is no JSON); JSON but no object (`null`, `42`, a
        string) is a bad request too, not a crash."""
        value = decode_json(data)
        if not isinstance(value, (dict, list)):
            raise HTTPException(400, "The request body must be a JSON object with a `query`.")
        return cast(object, value)

    async def get_context(self, request: Request | WebSocket, response: Response | WebSocket | None = None) -> Context:  # type: ignore[override]
        state = request.app.state
        context = Context(
            request=request,  # type: ignore[arg-type]
            response=response if isinstance(response, Response) else None,
            driver=state.driver,
            settings=state.settings,
            request_id=request.headers.get("x-request-id") or os.urandom(8).hex(),
        )
        request.state.weft_context = context
        return context

    async def process_result(self, request: Request, result: ExecutionResult) -> GraphQLHTTPResponse:  # type: ignore[override]
        data = await super().process_result(request, result)
        if preferred_media_type(request.headers.get("accept")) == GRAPHQL_RESPONSE_JSON:
            request.state.weft_media_type = GRAPHQL_RESPONSE_JSON
            if is_unavailable(result):  # the whole request fails (GraphQL over HTTP: no `data` with a non-2xx)
                data.pop("data", None)
                request.state.weft_status = 503
            elif is_request_error(result):
                data.pop("data", None)
                request.state.weft_status = 400
        return data

    async def execute_operation(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """The operation within the request deadline (WEFT_REQUEST_DEADLINE): all of its work, not each query."""
        request = kwargs.get("request", args[0] if args else None)
        deadline = request.app.state.settings.request_deadline_s if isinstance(request, Request) else None
        try:
            async with asyncio.timeout(deadline):
                return await super().execute_operation(*args, **kwargs)
        except TimeoutError:
            return past_deadline(deadline)

    def should_render_graphql_ide(self, request: Any) -> bool:
        """GraphiQL for a browser's GET, also one carrying `query` (GraphiQL keeps the query in its URL, so a
        reload or a shared link asks for it): when Accept ranks text/html above JSON (GraphQL over HTTP lets
        a server negotiate); JSON clients get the answer."""
        if super().should_render_graphql_ide(request):
            return True
        return request.method == "GET" and prefers_html(request.headers.get("accept"))

    async def checked_params(self, request: Request) -> Params | None:
        """The request's parameters, checked before execution (a 400 `HTTPException` when malformed); None for
        GraphiQL's page and for bodies the view refuses itself."""
        if self.should_render_graphql_ide(self.request_adapter_class(request)):
            return None
        return await request_params(request)

    async def run(self, request: Any, context: Any = UNSET, root_value: Any = UNSET) -> Any:
        http = cast(Request[Any], request) if isinstance(request, Request) else None
        if http is not None:
            refused = await read_bounded_body(http)
            if refused is not None:
                return refused
            try:
                await self.checked_params(http)
            except HTTPException as exc:
                return error_response(exc.status_code, exc.reason, "BAD_REQUEST")
        try:
            response = await super().run(http or cast(Any, request), context, root_value)
        except HTTPException as exc:  # Strawberry's plain-text refusals, as GraphQL-shaped errors
            return error_response(exc.status_code, exc.reason, "BAD_REQUEST")
        if http is not None:
            stamp(http, response)
        return response


def stamp(request: Request, response: Response) -> None:
    """The media type, status and per-request headers this request's handling decided."""
    state = request.state
    if getattr(state, "weft_media_type", None) == GRAPHQL_RESPONSE_JSON:
        response.headers["content-type"] = GRAPHQL_RESPONSE_CONTENT_TYPE
    status = getattr(state, "weft_status", None)
    if status:
        response.status_code = status
    context = getattr(state, "weft_context", None)
    if context is not None:
        response.headers.update(per_request_headers(context, context.reader.queries_run))


def per_request_headers(context: Context, queries: int) -> dict[str, str]:
    """The headers every GraphQL response carries: its request id and how many Cypher queries it ran."""
    return {"x-request-id": context.request_id, "x-weft-cypher-queries": str(queries)}


def past_deadline(deadline: float | None) -> ExecutionResult:
    """The result of a request that ran out of its deadline (WEFT_REQUEST_DEADLINE)."""
    log.warning("request took longer than its deadline of %ss", deadline)
    message = f"The request took longer than its deadline of {deadline:g} s; ask for less or try again."
    return ExecutionResult(data=None, errors=[GraphQLError(message, extensions={"code": "UNAVAILABLE"})])


def is_unavailable(result: ExecutionResult) -> bool:
    """True when an error says the database is down or the request ran out of time (HTTP 503)."""
    return any((e.extensions or {}).get("code") == "UNAVAILABLE" for e in result.errors or ())


def error_response(status: int, message: str, code: str) -> JSONResponse:
    """A request refused before execution, shaped as a GraphQL response (`errors` only)."""
    return JSONResponse({"errors": [{"message": message, "extensions": {"code": code}}]}, status)


async def read_bounded_body(request: Request) -> JSONResponse | None:
    """Read a POST body of at most WEFT_MAX_BODY_BYTES (kept for the GraphQL view), or a 413 answer: by
    Content-Length before reading, else as soon as the bytes read pass the limit; nothing is parsed."""
    if request.method != "POST":
        return None
    limit = request.app.state.settings.max_body_bytes
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return body_too_large(limit)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return body_too_large(limit)
    request._body = bytes(body)  # noqa: SLF001  # pyright: ignore[reportPrivateUsage] - Starlette's cache of the body, read by the view
    return None


def body_too_large(limit: int) -> JSONResponse:
    """The 413 answer to a body past WEFT_MAX_BODY_BYTES (made only when one is refused)."""
    return error_response(413, f"The request body is larger than {limit} bytes.", "PAYLOAD_TOO_LARGE")


# Net container allocations between collections of the youngest generation (CPython's default: 700).
GC_YOUNG_THRESHOLD = 50_000


@functools.cache  # once per process
def tune_garbage_collection() -> None:
    """Fewer cyclic collections while serving: the objects alive at start-up (schema, modules) are frozen
    out of every collection, and the youngest generation is collected every 50,000 net allocations
    instead of 700, each time with the middle one (survivors reach the old generation, whose own 25%
    growth rule bounds full collections). A 10,000-tie network allocates ~100,000 containers, nearly all
    freed by reference counting, yet set off dozens of collections. One worker, 25 s of network cache
    misses on the 20k graph: 448 ms p50 and 309 MB RSS untuned; 282 ms and 366 MB so; the middle
    threshold left at 10, 273 ms and 615 MB; 20,000 young, 285-324 ms and 312 MB (bench/RESULTS.md)."""
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, 1, 1)


def create_app(settings: Settings | None = None, *, warm: bool = False) -> Starlette:
    """Build the app; the driver is opened in the lifespan and closed on shutdown. `warm`: run the API's
    queries once in the background when the database first answers (server/availability.py)."""
    settings = settings or load_settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncGenerator[None]:
        app.state.settings = settings
        NETWORK_CACHE.resize(settings.network_cache_mb << 20)
        app.state.driver = open_async_driver(settings)
        app.state.availability = Availability(app.state.driver, settings, view.schema, warm=warm)
        mcp_access.driver = app.state.driver
        try:
            async with (
                graphql_app.version_watch(app.state.driver),
                app.state.availability.watching(),
                mcp_server.session_manager.run(),
            ):
                yield
        finally:
            await app.state.driver.close()

    schema = build_schema()
    # After the limits' own look-up: a text parsed for the response cache's key is not parsed again.
    schema.extensions = (*schema.extensions, ParsedDocument)
    view = WeftGraphQL(schema, graphql_ide="graphiql", allow_queries_via_get=True)
    graphql_app = ResponseCache(view, settings)
    mcp_access = mcp_tools.GraphAccess(settings)
    mcp_server = mcp_tools.build_mcp(mcp_access)
    routes: list[BaseRoute] = [
        Route("/graphql", graphql_app, methods=["GET", "POST"]),
        Route("/mcp", mcp_tools.http_app(mcp_server), methods=["GET", "POST", "DELETE"]),
        *health.routes,
        *network_routes.routes,
        *site.routes,
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers=site.exception_handlers,
        middleware=protections.middleware(settings),  # trusted hosts, security headers, gzipped sitemaps
    )
    app.add_middleware(Drain)  # outermost: a draining worker refuses before any other work
    return app


def serving_app() -> Starlette:
    """The app each `weft serve` worker runs: `create_app()` in a process tuned for serving (its garbage
    collection is the process's, so apps built elsewhere, e.g. in tests, leave it alone)."""
    tune_garbage_collection()
    return create_app(warm=True)
