"""Whether this worker takes requests now, so that none waits for its timeout while the database is known down.

Issue 48, item 5: after kill -9 of Neo4j, requests hung until their 15 s deadline while Neo4j restarted
(its Bolt port accepts connections tens of seconds before the database answers), and kept timing out
after it answered while the restarted JVM planned the API's queries afresh. So each worker keeps one
`Availability` (server/app.py's lifespan):

- a watch reads the graph's data version through the app's own driver, bounded in time: every
  UP_INTERVAL_S while Neo4j answers, every DOWN_INTERVAL_S while it does not. A failure that says the
  database is unreachable marks it down; a probe that only runs out of time leaves the state as it was
  (a busy database is not a dead one); the first answer marks it up again;
- while it is down, or the server shuts down, `Drain` answers every request except /health, /ready and
  static files at once: 503 with `Retry-After`, as a GraphQL error coded UNAVAILABLE on /graphql;
- the first answer after an outage (and, for `weft serve`, the first one at start-up) runs the API's
  queries once in the background (server/warm_up.py); until that warm-up ends, GraphQL requests go
  through one at a time (RECOVERY_GATE; one waiting longer than GATE_WAIT_S is refused like the rest),
  so the restarted database plans queries for a few clients, not for every client at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncGenerator

from neo4j import AsyncDriver
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send
from strawberry.schema.base import BaseSchema

from weft.graph.errors import Unavailable
from weft.graph.reads.meta import data_version
from weft.graph.reads.reader import GraphReader
from weft.graph.settings import Settings
from weft.server.warm_up import warm_up

log = logging.getLogger("weft.server")
api_log = logging.getLogger("weft.api")

UP_INTERVAL_S = 1.0
"""Pause between probes while the database answers."""
DOWN_INTERVAL_S = 0.2
"""Pause between probes while it does not: the first answer is seen within this (plus one round trip)."""
DOWN_PROBE_TIMEOUT_S = 1.0
"""How long a probe waits while the database is down (a starting Neo4j accepts connections it does not
answer yet: a fresh attempt soon beats waiting long on that one)."""
RECOVERY_GATE = 1
"""GraphQL requests let through at once between an outage's end and the end of the warm-up after it: a
restarted Neo4j plans each new query on a cold JVM, and planning many at once made every one of them
outlive its deadline (bench/RESULTS.md, "Recovery after kill -9"); one at a time, the first answers soon."""
GATE_WAIT_S = 2.0
"""How long a request waits for the recovery gate before it is refused (503, Retry-After)."""
RETRY_AFTER_S = 1
"""The `Retry-After` of a refusal, in seconds."""
ALWAYS_ANSWERED = ("/health", "/ready", "/static/")
"""Paths answered even while draining: the checks themselves, and files that need no database."""


class Availability:
    """One worker's view of whether it can serve: the database's state from the watch, and shutting down."""

    def __init__(self, driver: AsyncDriver, settings: Settings, schema: BaseSchema, warm: bool = False) -> None:
        self.driver = driver
        self.schema = schema
        self.settings = settings
        self.down: str | None = None  # why the database is known down, None while it answers (or unknown)
        self.draining: str | None = None  # why the server takes no more requests
        self.warmed = asyncio.Event()  # set once a warm-up after the last (re)connection ended
        self._warm_next = warm
        self._warming: asyncio.Task[None] | None = None
        self.recovering = False  # between an outage's end and the end of the warm-up after it
        self.gate = asyncio.Semaphore(RECOVERY_GATE)

    def refusal(self) -> str | None:
        """Why a new request is refused now, or None when it may go ahead."""
        return self.draining or self.down

    def drain(self, reason: str) -> None:
        """Refuse every new request from now on (the server is shutting down)."""
        self.draining = reason

    @property
    def probe_timeout_s(self) -> float:
        """How long one probe waits: briefly while down, else as long as /ready does."""
        return DOWN_PROBE_TIMEOUT_S if self.down else max(self.settings.connect_timeout_s, 1.0) * 2

    async def probe(self) -> None:
        """Read the data version once and update `down` (starting a warm-up on the way back up)."""
        reader = GraphReader(self.driver, self.settings.neo4j_database, self.settings.query_timeout_s, retry_s=0.0)
        try:
            async with asyncio.timeout(self.probe_timeout_s):
                await data_version(reader)
        except TimeoutError:
            return  # no answer in time: down stays down, and a slow database that answers stays up
        except Unavailable as exc:
            if self.down is None:
                log.warning("Neo4j is down (%s); refusing requests until it answers", exc)
            self.down = f"Neo4j is unavailable ({_cause(exc)})"
            self._warm_next = True
            self.warmed.clear()
            return
        except Exception as exc:  # noqa: BLE001 - anything else (a bug in the probe) must not drain the server
            log.warning("availability probe failed: %s", exc)
            return
        if self.down is not None:
            log.warning("Neo4j answers again; taking requests, %d at a time until warmed", RECOVERY_GATE)
            self.recovering = True
        self.down = None
        if self._warm_next and self._warming is None:
            self._warm_next = False
            self._warming = asyncio.create_task(self._warm())
        elif self._warming is None:
            self.warmed.set()

    async def _warm(self) -> None:
        try:
            warmed = await warm_up(self.settings, self.driver, self.schema)
            if warmed is not None:  # None: a database with no schema yet, nothing to warm
                answered, seconds, errors = warmed
                log.info("warmed %d API queries in %.1fs%s", answered, seconds, f" ({errors[0]})" if errors else "")
        except Exception as exc:  # noqa: BLE001 - warming is a shortcut; its failure changes no answer
            log.warning("warm-up failed: %s", exc)
        finally:
            self._warming = None
            self.recovering = False
            self.warmed.set()

    async def _watch(self) -> None:
        while True:
            await self.probe()
            await asyncio.sleep(DOWN_INTERVAL_S if self.down else UP_INTERVAL_S)

    @contextlib.asynccontextmanager
    async def watching(self) -> AsyncGenerator[None]:
        """Run the watch while the app runs (lifespan); drain before the block's end returns."""
        task = asyncio.create_task(self._watch())
        try:
            yield
        finally:
            self.drain("the server is shutting down")
            for running in (task, self._warming):
                if running is not None:
                    running.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await running


def _cause(exc: BaseException) -> str:
    cause = exc.__cause__
    return (cause or exc).__class__.__name__


def refused(path: str, reason: str) -> Response:
    """The at-once answer to a request the worker cannot serve now: 503 with Retry-After."""
    headers = {"retry-after": str(RETRY_AFTER_S)}
    message = f"Weft cannot answer now: {reason}. Try again in a moment."
    if path == "/graphql":
        body = {"errors": [{"message": message, "extensions": {"code": "UNAVAILABLE"}}]}
        return JSONResponse(body, 503, headers)
    return PlainTextResponse(message, 503, headers)


class Drain:
    """ASGI middleware: refuses requests at once while `app.state.availability` says so (see the module)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope["path"].startswith(ALWAYS_ANSWERED):
            app = scope.get("app")
            availability: Availability | None = getattr(getattr(app, "state", None), "availability", None)
            reason = availability.refusal() if availability is not None else None
            if reason is not None:
                await self._refuse(scope, receive, send, reason)
                return
            if availability is not None and availability.recovering and scope["path"] == "/graphql":
                await self._gated(availability, scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, reason: str) -> None:
        """The refusal, logged with the request's id as the API logs its errors (schema/support/errors.py)."""
        headers: dict[bytes, bytes] = dict(scope.get("headers") or ())
        request_id = headers.get(b"x-request-id", b"-").decode("latin-1")
        api_log.info("request %s: refused: %s", request_id, reason)
        await refused(scope["path"], reason)(scope, receive, send)

    async def _gated(self, availability: Availability, scope: Scope, receive: Receive, send: Send) -> None:
        """Through the recovery gate (RECOVERY_GATE at once), or refused after GATE_WAIT_S of waiting."""
        try:
            async with asyncio.timeout(GATE_WAIT_S):
                await availability.gate.acquire()
        except TimeoutError:
            await self._refuse(scope, receive, send, "Neo4j has just restarted and is planning the API's queries")
            return
        try:
            await self.app(scope, receive, send)
        finally:
            availability.gate.release()


__all__ = ["Availability", "Drain", "refused"]
