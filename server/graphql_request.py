"""A GraphQL-over-HTTP request's parameters, decoded and checked once, before any path answers it.

/graphql answers from server/response_cache.py (which keeps only complete successes) or with Strawberry's
view and graphql-core (server/app.py), so a malformed request is refused here, the same way for both: a body
that is no JSON (invalid UTF-8 included), JSON nested past `MAX_DEPTH`, no object, or an object whose
`query`, `operationName`, `variables` or `extensions` has the wrong type gets a 400 (`HTTPException`, which
the app turns into a GraphQL-shaped error), never a 500 that drops the connection.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, cast

import orjson
from cross_web import HTTPException  # what Strawberry's view raises for a request it refuses
from starlette.requests import Request

JSON = "application/json"
HTML = "text/html"
JSON_TYPES = (JSON, "application/graphql-response+json")
MAX_DEPTH = 1024
"""The deepest JSON nesting a request may have (orjson's own limit; the standard library's is lower)."""


def decode_json(data: str | bytes) -> object:
    """orjson first; text only the standard library accepts (NaN, lone surrogates) decodes as before.

    Anything else (not UTF-8, not JSON, nested past `MAX_DEPTH`) is a 400 `HTTPException`.
    """
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        pass
    try:
        return json.loads(data)
    except UnicodeDecodeError as exc:
        raise HTTPException(400, "The request body is not valid UTF-8.") from exc
    except RecursionError as exc:
        raise HTTPException(400, f"The request's JSON is nested too deeply (at most {MAX_DEPTH} levels).") from exc
    except ValueError as exc:  # json.JSONDecodeError
        raise HTTPException(400, f"Unable to parse the request as JSON: {exc}.") from exc


@dataclass(frozen=True)
class Params:
    """The parameters of one GraphQL request, of the types GraphQL over HTTP requires."""

    query: str | None
    operation_name: str | None
    variables: dict[str, Any] | None
    extensions: dict[str, Any] | None


def checked(fields: object) -> Params:
    """`fields` (a decoded body or the query string's parameters) as `Params`, or a 400 `HTTPException`."""
    if not isinstance(fields, dict):
        raise HTTPException(400, "The request body must be a JSON object with a `query`.")
    query, name = fields.get("query"), fields.get("operationName")  # type: ignore[union-attr]
    variables, extensions = fields.get("variables"), fields.get("extensions")  # type: ignore[union-attr]
    if not isinstance(query, str | None):
        raise HTTPException(400, "The GraphQL operation's `query` must be a string or null, if provided.")
    if not isinstance(name, str | None):
        raise HTTPException(400, "The GraphQL operation's `operationName` must be a string or null, if provided.")
    if not isinstance(variables, dict | None):
        raise HTTPException(400, "The GraphQL operation's `variables` must be an object or null, if provided.")
    if not isinstance(extensions, dict | None):
        raise HTTPException(400, "The GraphQL operation's `extensions` must be an object or null, if provided.")
    return Params(query, name, variables, extensions)  # type: ignore[arg-type]


async def request_params(request: Request) -> Params | None:
    """The checked parameters of a GET, or of a POST with a JSON body; None for a JSON list (a batch: the
    view refuses it, each item checked here all the same) and for other bodies (the view refuses those).
    Raises a 400 `HTTPException` for a malformed request."""
    if request.method == "GET":
        given = request.query_params
        fields: dict[str, object] = {k: given[k] for k in ("query", "operationName") if k in given}
        for key in ("variables", "extensions"):
            if given.get(key):  # empty means not given, as in Strawberry's view
                fields[key] = decode_json(given[key])
        return checked(fields)
    content_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if request.method != "POST" or JSON not in content_type:
        return None
    body = decode_json(await request.body())
    if isinstance(body, list):
        for item in cast(list[object], body):
            checked(item)
        return None
    return checked(body)


def prefers_html(accept: str | None) -> bool:
    """True when an Accept header ranks text/html above every JSON type GraphQL answers in (a browser's
    does); `*/*`, none at all, or JSON ranked as high get JSON.

    >>> prefers_html("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
    True
    >>> prefers_html("*/*"), prefers_html(None), prefers_html("application/json, text/html")
    (False, False, False)
    """
    ranges = [media_range(part) for part in (accept or "*/*").split(",") if part.strip()]
    html = _quality(HTML, ranges)
    return html > 0 and all(html > _quality(media, ranges) for media in JSON_TYPES)


def preferred_media_type(accept: str | None) -> str:
    """The response media type for an Accept header: the graphql-response one only when the client
    ranks it at least as high as application/json; application/json otherwise (also for `*/*`).

    >>> preferred_media_type("application/graphql-response+json, application/json;q=0.9")
    'application/graphql-response+json'
    """
    best: tuple[float, int, str] | None = None
    for position, part in enumerate((accept or "").split(",")):
        media, quality = media_range(part)
        if media in JSON_TYPES and quality > 0:
            candidate = (quality, -position, media)
            best = candidate if best is None or candidate > best else best
    return best[2] if best else JSON


def media_range(part: str) -> tuple[str, float]:
    """('type/subtype', q) of one element of an Accept header (q 1 unless given; 0 when unreadable)."""
    media, *params = [p.strip() for p in part.split(";")]
    quality = 1.0
    for param in params:
        key, _, value = param.partition("=")
        if key.strip().lower() == "q":
            try:
                quality = float(value)
            except ValueError:
                quality = 0.0
    return media.lower(), quality


def _quality(media: str, ranges: list[tuple[str, float]]) -> float:
    """The quality the most specific matching range gives `media` (exact, then `type/*`, then `*/*`)."""
    kind = media.split("/")[0]
    for candidate in (media, f"{kind}/*", "*/*"):
        found = [q for m, q in ranges if m == candidate]
        if found:
            return max(found)
    return 0.0
