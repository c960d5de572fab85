"""A per-process cache of whole GraphQL responses, valid while the graph's data version stands still.

Weft's data changes only when a load (or `weft analytics`, `weft migrate`) commits, and each of those
bumps the graph's version (graph/reads/meta.py). So an answer depends on the request and the version
alone, and a repeated request can be answered from memory: no execution, no Cypher. A request is the
same when it asks the same: its document as graphql-core prints it (so spacing, commas and comments do
not matter), its operation name, its variables and extensions with their keys sorted, its method and
its Accept header (which picks the media type and status). A query text is parsed once per process
for that key, and the parsed document is handed to the execution (`ParsedDocument`), never parsed twice.
A background task reads the version every `ttl_s` seconds (one tiny query, not one per request); a newer
version drops every entry. An answer can thus be up to `ttl_s` old just after a load commits
(WEFT_RESPONSE_CACHE_TTL_MS, default 250 ms).

Only complete successes are kept (status 200, no `errors`), within WEFT_RESPONSE_CACHE_MB of the worker's
memory (least recently used out first; one answer at most an eighth of it). Each answer weighs what it
holds in the process, not only its body: the objects around the body and the key, and what the allocator
keeps beside them (`entry_weight`; bench/worker_memory.py measures the worker's RSS). Anything else
(errors, refusals, the database down, an unknown version, a body that is no GraphQL request) goes to the
app unchanged. Responses say `x-weft-cache: hit` or `miss`; a hit ran no Cypher (`x-weft-cypher-queries:
0`). WEFT_RESPONSE_CACHE_MB=0 turns it off.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import uuid
from collections.abc import AsyncGenerator, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

import orjson
from cachetools import LRUCache
from cross_web import HTTPException
from graphql import DocumentNode, GraphQLError, parse, print_ast
from neo4j import AsyncDriver
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from strawberry.extensions import SchemaExtension

from weft.graph.reads.meta import DataVersion, data_version
from weft.graph.reads.reader import GraphReader
from weft.graph.settings import Settings
from weft.schema.support.limits import MAX_TOKENS
from weft.server.graphql_request import JSON, Params, checked, decode_json

log = logging.getLogger("weft.server")

FIRST_VERSION_WAIT_S = 2.0
"""How long start-up waits for the data version (the cache stays off until it is known)."""

_PER_REQUEST = {b"x-request-id", b"x-weft-cypher-queries", b"content-length", b"x-weft-cache"}

ENTRY_OVERHEAD_BYTES = 4096
"""What a kept answer costs beside its body. tracemalloc sees ~300 bytes (`CachedResponse`, its key, the
bytes object's header, the cache's slots and LRU link), but the worker's RSS grew by ~8 kB per kept
1.35 kB profile (bench/worker_memory.py --query profile, bench/RESULTS.md, issue 53): a kept answer pins
allocator memory around it. With ALLOCATOR_SLACK this weighs such an answer 10.9 kB."""
ALLOCATOR_SLACK = 2.0
"""What the allocator holds but cannot reuse, per byte kept (the same measurement; see ENTRY_OVERHEAD_BYTES)."""
DOCUMENT_SHARE = 16
"""The query texts known (text -> key of its printed document) take at most this share of the cache's bytes."""
STATE_KEY = "weft_parsed_document"
"""Where a request's scope state carries the document parsed for its key (read by `ParsedDocument`)."""


@dataclass(frozen=True, slots=True)
class CachedResponse:
    """A complete 200 answer: its headers (less the per-request ones, shared between answers) and body."""

    headers: tuple[tuple[bytes, bytes], ...]
    body: bytes


def entry_weight(response: CachedResponse) -> int:
    """The bytes a kept answer holds in the worker: its body, the objects around it and the allocator's slack."""
    return int((len(response.body) + ENTRY_OVERHEAD_BYTES) * ALLOCATOR_SLACK)


class ResponseStore:
    """An LRU of responses for one data version, within `max_bytes` (`entry_weight` each); `see(version)`
    drops older ones.

    >>> store = ResponseStore(max_bytes=1 << 20)
    >>> store.see((1, "m", 2, 3)); store.put(b"k", CachedResponse((), b"{}")); store.get(b"k").body
    b'{}'
    >>> store.see((2, "m", 2, 3)); store.get(b"k") is None
    True
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.max_entry_bytes = max_bytes // 8
        self.version: DataVersion | None = None
        self._entries: LRUCache[bytes, CachedResponse] = LRUCache(max(max_bytes, 1), getsizeof=entry_weight)
        self._headers: dict[tuple[tuple[bytes, bytes], ...], tuple[tuple[bytes, bytes], ...]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def size(self) -> int:
        """The weight of every kept answer (at most `max_bytes`)."""
        return int(self._entries.currsize)

    def see(self, version: DataVersion | None) -> None:
        if version != self.version:
            self._entries.clear()
            self._headers.clear()
            self.version = version

    def get(self, key: bytes) -> CachedResponse | None:
        return self._entries.get(key)

    def put(self, key: bytes, response: CachedResponse) -> None:
        if entry_weight(response) > self.max_entry_bytes:
            return
        # Answers of one kind carry the same headers: one tuple for all of them (a handful of kinds).
        headers = self._headers.setdefault(response.headers, response.headers)
        self._entries[key] = CachedResponse(headers, response.body)


class DocumentKeys:
    """The key of each query text seen: a digest of its document as graphql-core prints it, so texts that
    differ only in spacing, commas or comments share one. Bounded by the texts' bytes (LRU)."""

    def __init__(self, max_bytes: int) -> None:
        # text -> (key, the bytes the entry holds): cachetools weighs values, and a text's weight is its own
        self._keys: LRUCache[str, tuple[bytes, int]] = LRUCache(max(max_bytes, 1), getsizeof=lambda v: v[1])

    def key(self, text: str) -> tuple[bytes, DocumentNode | None] | None:
        """(key, the document parsed for it now, or None when the text was known); None when no GraphQL."""
        known = self._keys.get(text)
        if known is not None:
            return known[0], None
        try:
            document = parse(text, max_tokens=MAX_TOKENS)  # as the execution parses it (limits.py)
        except GraphQLError:
            return None
        digest = hashlib.blake2b(print_ast(document).encode(), digest_size=20).digest()
        with contextlib.suppress(ValueError):  # a text larger than the whole share is not kept
            self._keys[text] = (digest, int((len(text) + ENTRY_OVERHEAD_BYTES) * ALLOCATOR_SLACK))
        return digest, document


def request_params(scope: Scope, body: bytes) -> Params | None:
    """The GraphQL parameters of a GET, or of a POST with a JSON body, as the app reads them
    (server/graphql_request.py); None for anything else (the app answers it, and nothing is kept)."""
    try:
        if scope.get("method") == "GET":
            given = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True))
            fields: dict[str, object] = {k: given[k] for k in ("query", "operationName") if k in given}
            for name in ("variables", "extensions"):
                if given.get(name):
                    fields[name] = decode_json(given[name])
            return checked(fields)
        headers: dict[bytes, bytes] = dict(scope.get("headers") or ())
        content_type = headers.get(b"content-type", b"").decode("latin-1")
        if JSON not in content_type.partition(";")[0].strip().lower():
            return None
        return checked(decode_json(body))
    except (HTTPException, UnicodeDecodeError):
        return None


def request_key(scope: Scope, params: Params, document_key: bytes) -> bytes:
    """What an answer depends on besides the data: the document's key, the operation name, the variables
    and extensions (keys sorted), the method and the Accept header (media type and status)."""
    headers: dict[bytes, bytes] = dict(scope.get("headers") or ())
    digest = hashlib.blake2b(digest_size=20)
    method: str = scope.get("method", "")
    for part in (
        method.encode(),
        headers.get(b"accept", b""),
        document_key,
        (params.operation_name or "").encode(),
        _canonical(params.variables),
        _canonical(params.extensions),
    ):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.digest()


def _canonical(value: dict[str, Any] | None) -> bytes:
    """JSON with sorted keys (the same variables in another order are the same request)."""
    if value is None:
        return b"-"
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # past orjson's integers: the standard library sorts too
        return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


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


class ParsedDocument(SchemaExtension):
    """Hands the document the cache parsed for a request's key to its execution, so it is parsed once."""

    def on_parse(self) -> Iterator[None]:
        context = self.execution_context
        if context.graphql_document is None and context.query is not None:
            request = getattr(context.context, "request", None)
            scope: Scope = getattr(request, "scope", {})
            state: dict[str, Any] = scope.get("state") or {}
            handed: tuple[str, DocumentNode] | None = state.pop(STATE_KEY, None)
            if handed is not None and handed[0] == context.query:
                context.graphql_document = handed[1]
        yield


class ResponseCache:
    """ASGI wrapper of the GraphQL app answering repeated requests from a `ResponseStore`."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        budget = settings.response_cache_mb * 1024 * 1024
        self.documents = DocumentKeys(budget // DOCUMENT_SHARE)
        self.store = ResponseStore(budget - budget // DOCUMENT_SHARE)

    @property
    def enabled(self) -> bool:
        return self.store.max_bytes > 0

    @contextlib.asynccontextmanager
    async def version_watch(self, driver: AsyncDriver) -> AsyncGenerator[None]:
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
        params = request_params(scope, body) if version is not None else None
        known = self.documents.key(params.query) if params is not None and params.query else None
        if params is None or known is None:  # nothing to keep: no version, or no GraphQL request
            await self.app(scope, _replay(body, receive, complete), send)
            return
        document_key, parsed = known
        if parsed is not None:
            scope.setdefault("state", {})[STATE_KEY] = (params.query, parsed)
        key = request_key(scope, params, document_key)
        found = self.store.get(key)
        if found is not None:
            headers: dict[bytes, bytes] = dict(scope.get("headers") or ())
            request_id = headers.get(b"x-request-id") or uuid.uuid4().hex[:16].encode()
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
