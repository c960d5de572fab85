"""Relay connections: the `first`/`after` arguments defined once, and graph pages turned into connections."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Generic, TypeVar

import strawberry

from weft.graph.reads.papers import KeyedPage, Page, PaperKey, Row, paper_key
from weft.schema.support.enums import PaperSort
from weft.schema.support.paging import KeyWindow, Window, encode_cursor, encode_key_cursor

NodeT = TypeVar("NodeT")

First = Annotated[int, strawberry.argument(description="Page size, at most 100.")]
"""The `first` argument of every connection field (give the default in the signature: `first: First = 20`)."""

After = Annotated[str | None, strawberry.argument(description="Cursor of the item to continue after.")]
"""The `after` argument of every connection field (`after: After = None`)."""

PaperSortArg = Annotated[PaperSort, strawberry.argument(description="Order of the papers.")]
"""The `sort` argument of paper lists (`sort: PaperSortArg = PaperSort.NEWEST`)."""

CategoryArg = Annotated[str | None, strawberry.argument(description="Only papers in this category (id, key or name).")]
"""The `category` filter of paper lists."""

YearFromArg = Annotated[int | None, strawberry.argument(description="Only papers from this year on.")]
YearToArg = Annotated[int | None, strawberry.argument(description="Only papers up to this year.")]
"""The year window of paper lists."""


@strawberry.type(description="Relay page information.")
class PageInfo:
    has_next_page: bool = strawberry.field(description="True when items follow this page.")
    has_previous_page: bool = strawberry.field(description="True when items precede this page.")
    start_cursor: str | None = strawberry.field(description="Cursor of the first item on this page.")
    end_cursor: str | None = strawberry.field(description="Cursor of the last item on this page.")


def _cursor(self: Edge[Any]) -> str:
    """An edge's cursor, encoded only when asked (`self`: the edge)."""
    return self.encoded()


@strawberry.type(description="One item of a connection with its opaque cursor.")
class Edge(Generic[NodeT]):
    cursor: str = strawberry.field(description="Opaque cursor; pass it as `after` to continue.", resolver=_cursor)
    node: NodeT = strawberry.field(description="The item.")
    place: strawberry.Private[Any]  # what the cursor encodes: an offset, or a (sort, paper key) pair
    encode: strawberry.Private[Callable[[Any], str]]

    def encoded(self) -> str:
        """The cursor, encoded when asked: most pages are read without their items' cursors."""
        return self.encode(self.place)


def _key_cursor(place: tuple[str, PaperKey]) -> str:
    return encode_key_cursor(*place)


@strawberry.type(description="A Relay connection: a page of items, paging information and the total.")
class Connection(Generic[NodeT]):
    edges: list[Edge[NodeT]] = strawberry.field(description="The items on this page, in order.")
    page_info: PageInfo = strawberry.field(description="Where this page sits in the whole list.")
    total_count: int = strawberry.field(description="How many items the whole list has.")

    @classmethod
    def keyed(
        cls, items: list[tuple[tuple[str, PaperKey], NodeT]], total: int, has_next: bool, after: bool
    ) -> Connection[NodeT]:
        """A connection of ((sort, key), node) `items` of a list paged by key, `after` some item when `after`."""
        edges = [Edge(node=n, place=place, encode=_key_cursor) for place, n in items]
        return cls(
            edges=edges,
            page_info=PageInfo(
                has_next_page=has_next,
                has_previous_page=after,
                start_cursor=edges[0].encoded() if edges else None,
                end_cursor=edges[-1].encoded() if edges else None,
            ),
            total_count=total,
        )

    @classmethod
    def build(cls, nodes: list[NodeT], total: int, page: Window) -> Connection[NodeT]:
        """A connection of `nodes`, the items at `page.skip...` of a list of `total` items."""
        edges = [Edge(node=n, place=page.skip + k, encode=encode_cursor) for k, n in enumerate(nodes)]
        return cls(
            edges=edges,
            page_info=PageInfo(
                has_next_page=page.skip + len(nodes) < total,
                has_previous_page=page.skip > 0,
                start_cursor=edges[0].encoded() if edges else None,
                end_cursor=edges[-1].encoded() if edges else None,
            ),
            total_count=total,
        )


def connection(found: Page, page: Window, node: Callable[[Row], NodeT]) -> Connection[NodeT]:
    """The connection of one graph `Page` read for the `page` window, each row made a node by `node`."""
    of: type[Connection[NodeT]] = Connection
    return of.build([node(row) for row in found.rows], found.total, page)


def paper_connection(found: KeyedPage, sort: str, page: KeyWindow, node: Callable[[Row], NodeT]) -> Connection[NodeT]:
    """The connection of one page of papers paged by key in `sort` order, each cursor holding its paper's key."""
    items = [((sort, paper_key(row, sort)), node(row)) for row in found.rows]
    of: type[Connection[NodeT]] = Connection
    return of.keyed(items, found.total, found.has_more, page.after is not None)
