"""HTTP routes for collaboration networks: exports, the network page and its static files."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from weft.graph.errors import InvalidInput, Unavailable, WeftError
from weft.graph.interruptible import run_interruptible
from weft.graph.network import NetworkParams, researcher_network
from weft.graph.reads.reader import GraphReader
from weft.graph.reads.researchers import find_researcher
from weft.server import exports
from weft.server.pages import network_page
from weft.server.site.render import not_found, reader_of
from weft.server.site.routes import guarded
from weft.server.static_files import STATIC, CachedStaticFiles

INT_PARAMS = {
    "depth": "depth",
    "minWeight": "min_weight",
    "yearFrom": "year_from",
    "yearTo": "year_to",
    "limit": "limit",
}
KNOWN_PARAMS = {*INT_PARAMS, "rankBy"}


def params_from_query(query: Mapping[str, str]) -> NetworkParams:
    """NetworkParams from the same query parameters as the GraphQL field; InvalidInput when bad."""
    unknown = sorted(set(query) - KNOWN_PARAMS)
    if unknown:
        raise InvalidInput(f"unknown query parameter {unknown[0]!r}", argument=unknown[0])
    values: dict[str, int | str] = {}
    for name, field in INT_PARAMS.items():
        raw = query.get(name)
        if raw is None or raw == "":
            continue
        try:
            values[field] = int(raw)
        except ValueError as exc:
            raise InvalidInput(f"{name} must be a whole number, got {raw!r}", argument=name) from exc
    if query.get("rankBy"):
        values["rank_by"] = query["rankBy"].upper()
    return NetworkParams(**values).validated()  # type: ignore[arg-type]


def error_response(exc: WeftError, status: int) -> JSONResponse:
    body = {"error": {"code": exc.code, "message": str(exc)}}
    if isinstance(exc, InvalidInput) and exc.argument:
        body["error"]["argument"] = exc.argument
    return JSONResponse(body, status_code=status)


async def export_network(request: Request) -> Response:
    """GET /export/researchers/{id}/network.{graphml|gexf|json}: the network as a file.

    The read and the analytics the file carries (communities, PageRank: seconds for a thousand
    researchers) run within the request deadline, the analytics in an interruptible thread."""
    researcher_id, fmt = request.path_params["id"], request.path_params["fmt"]
    if fmt not in exports.FORMATS:
        return error_response(
            InvalidInput(f"format must be one of {', '.join(exports.FORMATS)}, got {fmt!r}", argument="format"),
            404,
        )
    settings = request.app.state.settings
    deadline = settings.request_deadline_s
    try:
        params = params_from_query(request.query_params)
        reader = GraphReader(request.app.state.driver, settings.neo4j_database, settings.query_timeout_s)
        async with asyncio.timeout(deadline):
            network = await researcher_network(reader, researcher_id, params)
            if network is None:
                return JSONResponse(
                    {"error": {"code": "NOT_FOUND", "message": f"no researcher has the id {researcher_id!r}"}},
                    status_code=404,
                )
            body = await run_interruptible(exports.render, network, fmt)
    except InvalidInput as exc:
        return error_response(exc, 400)
    except WeftError as exc:
        return error_response(exc, 503 if exc.code == "UNAVAILABLE" else 500)
    except TimeoutError:
        message = f"The export took longer than its deadline of {deadline:g} s; ask for a smaller network."
        return error_response(Unavailable(message), 503)
    filename = f"network-{network.centre}.{fmt}"
    headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
    if isinstance(body, dict):
        return JSONResponse(body, headers=headers)
    return Response(body, media_type=exports.FORMATS[fmt], headers=headers)


async def researcher_network_page(request: Request) -> Response:
    """GET /researchers/{id}/network: the network page of a known researcher (any id form), else the
    site's 404, as /researchers/{id} answers."""
    if await find_researcher(reader_of(request), request.path_params["id"]) is None:
        return not_found(request, "researcher")
    return await network_page(request)


routes: list[BaseRoute] = [
    Route("/export/researchers/{id}/network.{fmt}", export_network, methods=["GET"]),
    Route("/researchers/{id}/network", guarded(researcher_network_page), methods=["GET"]),
    Mount("/static", app=CachedStaticFiles(directory=STATIC), name="static"),
]
