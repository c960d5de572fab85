"""Root field for the sync change log: `changes`, a Relay connection in log order (cursor: the change's number)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import strawberry

from weft.graph.errors import InvalidInput
from weft.graph.reads.changes import change_page
from weft.schema.context import Info
from weft.schema.support.connection import After, Connection, Edge, First, PageInfo
from weft.schema.support.enums import ChangeEntity
from weft.schema.support.paging import decode_seq_cursor, encode_seq_cursor, window
from weft.schema.types.change import LOG_ENTITIES, Change


def parse_since(since: str | None) -> datetime | None:
    """An ISO 8601 date or date-time as an aware datetime (UTC when it names no zone); InvalidInput otherwise.

    >>> parse_since("2025-12-01")
    datetime.datetime(2025, 12, 1, 0, 0, tzinfo=datetime.timezone.utc)
    """
    if since is None:
        return None
    try:
        when = datetime.fromisoformat(since.strip())
    except ValueError as exc:
        raise InvalidInput(
            "`since` must be an ISO 8601 date or date-time, e.g. 2025-12-01 or 2025-12-01T12:00:00Z",
            argument="since",
        ) from exc
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


@strawberry.type
class ChangeQuery:
    @strawberry.field(
        description="What syncs changed in the graph (`weft sync`), oldest first: each paper, researcher and "
        "institution a sync added, updated, merged away or deleted. Follow it with `after` the last `endCursor`."
    )
    async def changes(
        self,
        info: Info,
        since: Annotated[
            str | None,
            strawberry.argument(description="Only changes logged at or after this ISO 8601 date or date-time."),
        ] = None,
        entity: Annotated[
            ChangeEntity | None, strawberry.argument(description="Only changes to this kind of node.")
        ] = None,
        first: First = 20,
        after: After = None,
    ) -> Connection[Change]:
        limit = window(first, None).limit
        after_seq = 0 if after is None else decode_seq_cursor(after)
        found = await change_page(
            info.context.reader,
            after_seq,
            limit,
            None if entity is None else LOG_ENTITIES[entity],
            parse_since(since),
        )
        edges = [Edge(node=Change.from_record(r), place=r["seq"], encode=encode_seq_cursor) for r in found.rows]
        return Connection(
            edges=edges,
            page_info=PageInfo(
                has_next_page=found.has_more,
                has_previous_page=after is not None,
                start_cursor=edges[0].encoded() if edges else None,
                end_cursor=edges[-1].encoded() if edges else None,
            ),
            total_count=found.total,
        )
