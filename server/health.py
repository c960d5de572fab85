"""What a load balancer asks a worker: /health (is Neo4j answering?) and /ready (can this worker serve?).

`health` answers 200 while the driver completes a Bolt handshake (a starting Neo4j passes it before its
database answers). `ready` answers 200 only when the worker takes requests (it is not draining,
server/availability.py), a real read of the graph (its data version) succeeds through the app's own
driver within a short bound, AND the schema `weft migrate` creates is in place: every constraint and
index of queries/admin.py exists and is ONLINE (a replica loaded from a dump, or a database still being
migrated or re-indexed, is not ready before then); otherwise 503 with a JSON `reason`. Both read
`request.app.state.driver` (an AsyncDriver) and `request.app.state.settings`, as server/app.py's
lifespan sets them, and name the answering process in `x-weft-worker`.
"""

from __future__ import annotations

import asyncio
import os
import re
from typing import TYPE_CHECKING, Any

from neo4j import READ_ACCESS, AsyncDriver
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from weft.graph.errors import Unavailable
from weft.graph.reads.meta import data_version
from weft.graph.reads.reader import GraphReader
from weft.graph.settings import Settings
from weft.queries import admin

if TYPE_CHECKING:
    from weft.server.availability import Availability

_NAME = re.compile(r"CREATE (?:\w+ )?(?:CONSTRAINT|INDEX) (\w+) IF NOT EXISTS")


def schema_names() -> tuple[str, ...]:
    """The names of every constraint and index `weft migrate` creates (queries/admin.py), the co-author
    pair keys' last: networks look ties up by it, and it exists only once every tie is keyed."""
    names: list[str] = []
    for statement in (*admin.CONSTRAINTS, *admin.INDEXES, admin.COAUTHORED_PAIR_CONSTRAINT):
        found = _NAME.match(statement)
        if found is None:
            raise ValueError(f"no name in the schema statement {statement!r}")
        names.append(found.group(1))
    return tuple(names)


SCHEMA_NAMES = schema_names()


def _worker() -> dict[str, str]:
    return {"x-weft-worker": str(os.getpid())}


def _bound(settings: Settings) -> float:
    """How long /ready waits for Neo4j: a little more than opening a connection may take."""
    return max(settings.connect_timeout_s, 1.0) * 2


async def health(request: Request) -> JSONResponse:
    """200 when Neo4j answers, 503 otherwise; `x-weft-worker` names the process that answered."""
    headers = _worker()
    try:
        await request.app.state.driver.verify_connectivity()
    except Exception as exc:  # noqa: BLE001 - any failure means unhealthy
        return JSONResponse({"status": "unavailable", "neo4j": exc.__class__.__name__}, 503, headers)
    return JSONResponse({"status": "ok", "neo4j": "up"}, headers=headers)


async def ready(request: Request) -> JSONResponse:
    """200 when Neo4j answers and every constraint and index is ONLINE; 503 with a `reason` otherwise."""
    headers = _worker()
    settings: Settings = request.app.state.settings
    driver: AsyncDriver = request.app.state.driver
    availability: Availability | None = getattr(request.app.state, "availability", None)
    if availability is not None and (refusal := availability.refusal()) is not None:
        # the worker refuses GraphQL now (server/availability.py): not ready either
        neo4j = "down" if availability.down else "up"
        return JSONResponse({"status": "unavailable", "neo4j": neo4j, "reason": refusal}, 503, headers)
    bound = _bound(settings)
    try:
        async with (
            asyncio.timeout(bound),
            # one auto-commit read, not a managed transaction: no retrying while Neo4j is down
            driver.session(database=settings.neo4j_database, default_access_mode=READ_ACCESS) as session,
        ):
            await data_version(GraphReader(driver, settings.neo4j_database, settings.query_timeout_s, retry_s=0.0))
            result = await session.run(admin.SCHEMA_STATE)
            states: dict[str, str] = {record["name"]: record["state"] async for record in result}
    except TimeoutError:
        reason = f"Neo4j did not answer within {bound:g} s"
        return JSONResponse({"status": "unavailable", "neo4j": "TimeoutError", "reason": reason}, 503, headers)
    except Exception as exc:  # noqa: BLE001 - any failure means not ready
        failure = (exc.__cause__ or exc) if isinstance(exc, Unavailable) else exc  # the driver's, not ours
        reason = f"Neo4j did not answer ({failure.__class__.__name__})"
        failed = {"status": "unavailable", "neo4j": failure.__class__.__name__, "reason": reason}
        return JSONResponse(failed, 503, headers)
    missing = [name for name in SCHEMA_NAMES if name not in states]
    not_online = [name for name in SCHEMA_NAMES if name in states and states[name] != "ONLINE"]
    if missing or not_online:
        parts = [f"missing: {', '.join(missing)}"] if missing else []
        parts += [f"not online yet: {', '.join(f'{n} ({states[n]})' for n in not_online)}"] if not_online else []
        body: dict[str, Any] = {
            "status": "not_ready",
            "neo4j": "up",
            "reason": f"the schema is not in place ({'; '.join(parts)}); run `weft migrate` or wait for the indexes",
            "missing": missing,
            "not_online": not_online,
        }
        return JSONResponse(body, 503, headers)
    return JSONResponse({"status": "ready", "neo4j": "up", "schema": len(SCHEMA_NAMES)}, headers=headers)


routes = [Route("/health", health), Route("/ready", ready)]
"""The two routes, for server/app.py's route list."""

__all__ = ["SCHEMA_NAMES", "health", "ready", "routes"]
