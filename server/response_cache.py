"""A per-process cache of whole GraphQL responses, valid while the graph's data version stands still.

Weft's data changes only when a load (or `weft analytics`, `weft migrate`) commits, and each of those
bumps the graph's version (graph/reads/meta.py). So an answer depends on the request and the version
alone, and a repeated request (the same bytes, the same Accept) can be answered from memory: no
parsing, no execution, no Cypher. A background task reads the version every `ttl_s` seconds (one tiny
query, not one per request); a newer version drops every entry. An answer can thus be up to `ttl_s`
old just after a load commits (WEFT_RESPONSE_CACHE_TTL_MS, default 250 ms).

Only complete successes are kept (status 200, no `errors`), within WEFT_RESPONSE_CACHE_MB of memory per
process (least recently used out first; one answer at most an eighth of it). Anything else (errors,
refusals, the database down, an unknown version) goes to the app unchanged. Responses say
`x-weft-cache: hit` or `miss`; a hit ran no Cypher (`x-weft-cypher-queries: 0`). WEFT_RESPONSE_CACHE_MB=0
turns it off.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import orjson
from neo4j import AsyncDriver
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from weft.graph.reads.meta import DataVersion, data_version
from weft.graph.reads.reader import GraphReader
from weft.graph.settings import Settings

log = logging.getLogger("weft.server")

FIRST_VERSION_WAIT_S = 2.0
"""How long start-up waits for the data version (the cache stays off until it is known)."""

_PER_REQUEST = {b"x-request-id", b"x-weft-cypher-queries", b"content-length", b"x-weft-cache", b"x-weft-direct"}


@dataclass(frozen=True)
class CachedResponse:
    """A complete 200 answer: its headers (less the per-request ones) and body."""

    headers: tuple[tuple[bytes, bytes], ...]
    body: bytes


class ResponseStore:
    """An LRU of responses for one data version, within `max_bytes`; `see(version)` drops older ones.

    >>> store = ResponseStore(max_bytes=16)
    >>> store.see((1, "m", 2, 3)); store.put(b"k", CachedResponse((), b"{}")); store.get(b"k").body
    b'{}'
    >>> store.see((2, "m", 2, 3)); store.get(b"k") is None
    True
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.max_entry_bytes = max_bytes // 8
        self.version: DataVersion | None = None
        self.size = 0
        self._entries: OrderedDict[bytes, CachedResponse] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def see(self, version: DataVersion | None) -> None:
        if version != self.version:
            self._entries.clear()
            self.size = 0
            self.version = version

    def get(self, key: bytes) -> CachedResponse | None:
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
        return found

    def put(self, key: bytes, response: CachedResponse) -> None:
        if len(response.body) > self.max_entry_bytes:
            return
        old = self._entries.pop(key, None)
        self.size += len(response.body) - (len(old.body) if old else 0)
        self._entries[key] = response
        while self.size > self.max_bytes:
            _, dropped = self._entries.popitem(last=False)
            self.size -= len(dropped.body)


def request_key(scope: Scope, body: bytes) -> bytes:
    """What an answer depends on besides the data: method, query string, body and the headers the
    GraphQL view reads (Accept picks the media type and status, Content-Type the body's parsing)."""
    headers = dict(scope.get("headers") or ())
    digest = hashlib.blake2b(digest_size=20)
    for part in (
        scope.get("method", "").encode(),
        scope.get("query_string", b""),
        headers.get(b"accept", b""),
        headers.get(b"content-type", b""),
        body,
    ):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.digest()


def is_complete_success(status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> bool:
    """A 200 JSON answer with data and no errors."""
    content_type = dict(headers).get(b"content-type", b"")
    if status != 200 or b"json" not in content_type or not body.startswith(b'{"data"'):
        return False
    if b'"errors"' not in body:
        return True
    try:
        return "errors" not in orjson.loads(body)  # the word inside some value, not a key
    except orjson.JSONDecodeError:
        return False


class ResponseCache:
    """ASGI wrapper of the GraphQL app answering repeated requests from a `ResponseStore`."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.store = ResponseStore(settings.response_cache_mb * 1024 * 1024)

    @property
    def enabled(self) -> bool:
        return self.store.max_bytes > 0

    @contextlib.asynccontextmanager
    async def version_watch(self, driver: AsyncDriver) -> AsyncIterator[None]:
        """Keep `store.version` current while the app runs (lifespan): a read every `ttl_s` seconds."""
        if not self.enabled:
            yield
            return
        reader = GraphReader(driver, self.settings.neo4j_database, self.settings.query_timeout_s, retry_s=0.0)
        # Known before the first request when the database answers; a silent one must not hold up start-up
        # (/health answers 503 meanwhile, and the watch below keeps asking).
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(FIRST_VERSION_WAIT_S):
                await self._read_version(reader)
        task = asyncio.create_task(self._watch(reader))
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _watch(self, reader: GraphReader) -> None:
        while True:
            await asyncio.sleep(self.settings.response_cache_ttl_s)
            await self._read_version(reader)

    async def _read_version(self, reader: GraphReader) -> None:
        try:
            self.store.see(await data_version(reader))
        except Exception as exc:  # noqa: BLE001 - whatever failed, the watch goes on and nothing is served
            log.debug("data version unknown (%s); response cache off until it answers", exc)
            self.store.see(None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.enabled or scope["type"] != "http" or scope.get("method") not in ("GET", "POST"):
            await self.app(scope, receive, send)
            return
        body, complete = await self._read_body(receive)
        if not complete:  # larger than the app accepts: let it refuse
            await self.app(scope, _replay(body, receive, complete), send)
            return
        version = self.store.version
        key = request_key(scope, body)
        found = self.store.get(key) if version is not None else None
        if found is not None:
            request_id = dict(scope.get("headers") or ()).get(b"x-request-id") or uuid.uuid4().hex[:16].encode()
            await _send_cached(found, request_id, send)
            return
        await self._run_and_keep(scope, _replay(body, receive, complete), send, key, version)

    async def _read_body(self, receive: Receive) -> tuple[bytes, bool]:
        """The request body, or what was read of it once it passes the app's body limit (complete=False)."""
        limit = self.settings.max_body_bytes
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return bytes(body), False
            body += message.get("body", b"")
            if len(body) > limit:
                return bytes(body), False
            if not message.get("more_body", False):
                return bytes(body), True

    async def _run_and_keep(self, scope: Scope, receive: Receive, send: Send, key: bytes, version: Any) -> None:
        status = 0
        headers: list[tuple[bytes, bytes]] = []
        chunks: list[bytes] = []
        size = 0

        async def capture(message: Message) -> None:
            nonlocal status, headers, size
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers") or ())
                message = {**message, "headers": [*headers, (b"x-weft-cache", b"miss")]}
            elif message["type"] == "http.response.body" and size <= self.store.max_entry_bytes:
                chunk = message.get("body", b"")
                chunks.append(chunk)
                size += len(chunk)
            await send(message)

        await self.app(scope, receive, capture)
        body = b"".join(chunks)
        if (
            version is not None
            and version == self.store.version
            and size <= self.store.max_entry_bytes
            and is_complete_success(status, headers, body)
        ):
            kept = tuple((k, v) for k, v in headers if k.lower() not in _PER_REQUEST)
            self.store.put(key, CachedResponse(kept, body))


def _replay(body: bytes, receive: Receive, complete: bool) -> Receive:
    """A `receive` giving back the body read so far, then the rest of the request as it comes."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": not complete}
        return await receive()

    return replayed


async def _send_cached(found: CachedResponse, request_id: bytes, send: Send) -> None:
    headers = [
        *found.headers,
        (b"content-length", str(len(found.body)).encode()),
        (b"x-request-id", request_id),
        (b"x-weft-cypher-queries", b"0"),
        (b"x-weft-cache", b"hit"),
    ]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": found.body})
