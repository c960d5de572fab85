"""410 Gone: the page of a node a sync deleted (its source withdrew it, and no other source states it) says so,
instead of the 404 an id the graph never held gets. The change log's deletion entry is the tombstone."""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import Response

from weft.graph.identity.lookup import IdKey
from weft.graph.reads.changes import deletion_of
from weft.server.site import urls
from weft.server.site.render import not_found, page, reader_of

_INTERNAL_KEYS = ("id", "alias")
_SOURCE_KEYS = ("openalex_id",)


async def missing(request: Request, what: str, raw: str, parse: Callable[[str], list[IdKey]]) -> Response:
    """The 410 page when the change log holds the deletion of the node `raw` names (in any of its spellings,
    read as `parse` reads ids), else the helpful 404."""
    ids: list[str] = []
    source_ids: list[str] = []
    for spelled in urls.spellings(raw):
        for key in parse(spelled):
            if key.property in _INTERNAL_KEYS:
                ids.append(str(key.value))
            elif key.property in _SOURCE_KEYS:
                source_ids.append(str(key.value))
    deletion = await deletion_of(reader_of(request), list(dict.fromkeys(ids)), list(dict.fromkeys(source_ids)))
    if deletion is None:
        return not_found(request, what)
    return page(request, "410.html", {"what": what, "deletion": deletion, "title": "Gone"}, status=410)
