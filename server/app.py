"""The Starlette app: one async Neo4j driver per process (lifespan), /graphql, /health."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator

from neo4j.exceptions import Neo4jError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL

from graph.driver import open_async_driver
from graph.settings import Settings, load_settings
from schema.context import Context
from schema.root import build_schema
from server import network_routes


class WeftGraphQL(GraphQL[Context, None]):
    """Strawberry's ASGI app with Weft's typed context."""

    async def get_context(self, request: Request | WebSocket, response: Response | WebSocket | None = None) -> Context:  # type: ignore[override]
        state = request.app.state
        return Context(
            request=request,  # type: ignore[arg-type]
            response=response if isinstance(response, Response) else None,
            driver=state.driver,
            settings=state.settings,
            request_id=request.headers.get("x-request-id") or uuid.uuid4().hex[:16],
        )


async def health(request: Request) -> JSONResponse:
    """200 when Neo4j answers, 503 otherwise."""
    try:
        await request.app.state.driver.verify_connectivity()
    except (Neo4jError, OSError, Exception) as exc:  # noqa: BLE001 - any failure means unhealthy
        return JSONResponse({"status": "unavailable", "neo4j": exc.__class__.__name__}, status_code=503)
    return JSONResponse({"status": "ok", "neo4j": "up"})


def create_app(settings: Settings | None = None) -> Starlette:
    """Build the app; the driver is opened in the lifespan and closed on shutdown."""
    settings = settings or load_settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        app.state.settings = settings
        app.state.driver = open_async_driver(settings)
        try:
            yield
        finally:
            await app.state.driver.close()

    graphql_app = WeftGraphQL(build_schema(), graphql_ide="graphiql")
    routes: list[BaseRoute] = [
        Route("/graphql", graphql_app, methods=["GET", "POST"]),
        Route("/health", health),
        *network_routes.routes,
    ]
    return Starlette(routes=routes, lifespan=lifespan)
