"""The parts a root field reads with its node in one Cypher query, each declared once, in one table per root.

`researcher(id:)`, `paper(id:)` and `institution(id:)` each run one constant statement (queries/) whose
optional blocks read the parts of a page the selection asks for (prefetch.py says how a selection is read).
Each root's table (`PROFILE` in schema/types/researcher.py, `PAPER_PAGE` in paper.py, `INSTITUTION_PAGE` in
institution.py) lists those parts; a `Part` holds everything about one of them:

- `name`: its Cypher block and column in the root's statement, and the field of the graph's parts
  (`ProfileParts`, `PaperParts`, `InstitutionParts`) that asks the statement for it;
- `asked`: the selection that asks for it, as the values of those parts' fields (None: not folded);
- `loader` and `key`: the DataLoader it primes and the key it is primed under, made by the same function
  the field resolver loads with (a key that differs would cost that resolver a query of its own;
  tests/api/test_api_openalex.py asks each part's `example` alone and counts one query);
- `value`: what it primes, from what the statement read; `more`: what else it primes under other keys.

`fold_parts` and `prime_parts` work over any table.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from strawberry.dataloader import DataLoader

from weft.graph.reads.reader import GraphReader
from weft.schema.context import Info
from weft.schema.support.dataloaders import Loaders
from weft.schema.support.prefetch import Selection


class Read(Protocol):
    """What a root's one query read: its node's properties (and the parts, as attributes)."""

    @property
    def node(self) -> dict[str, Any]: ...


P = TypeVar("P")
D = TypeVar("D", bound=Read)


@dataclass(frozen=True)
class Part(Generic[P, D]):
    """One part of a root's page read with its node (`P`: the graph's parts asked; `D`: what was read)."""

    name: str
    asked: Callable[[Selection], Mapping[str, Any] | None]
    loader: Callable[[Loaders], DataLoader[Any, Any]]
    key: Callable[[str, P], Any]
    value: Callable[[D], Any]
    example: str
    more: Callable[[Loaders, P, D], None] | None = None


def fold_parts(sel: Selection, table: Sequence[Part[P, D]], make: Callable[..., P]) -> P:
    """The parts of `table` that `sel` asks, as the graph's parts object `make` builds (worked out once per
    selection: a kept selection keeps its fold)."""

    def fold(sel: Selection) -> P:
        asked: dict[str, Any] = {}
        for part in table:
            found = part.asked(sel)
            if found is not None:
                asked.update(found)
        return make(**asked)

    return sel.memo(("fold", id(table), make), fold)


def prime_parts(data: Loaders, table: Sequence[Part[P, D]], parts: P, read: D, root_id: str) -> None:
    """Each part of `table` that `parts` asked, put in its DataLoader under the key its field resolver loads."""
    for part in table:
        wanted = getattr(parts, part.name)
        if wanted is None or wanted is False:
            continue
        part.loader(data).prime(part.key(root_id, parts), part.value(read))
        if part.more is not None:
            part.more(data, parts, read)


async def read_folded(
    info: Info,
    table: Sequence[Part[P, D]],
    make: Callable[..., P],
    read: Callable[[GraphReader, str, P], Awaitable[D | None]],
    raw_id: str,
) -> D | None:
    """A root's node for `raw_id` with the parts of `table` its field's selection asks, read in one query by
    `read` and primed (None when nothing answers to the id)."""
    parts = fold_parts(Selection.of(info), table, make)
    found = await read(info.context.reader, raw_id, parts)
    if found is not None:
        prime_parts(info.context.data, table, parts, found, found.node["id"])
    return found


def flag(name: str, *fields: str) -> Callable[[Selection], Mapping[str, Any] | None]:
    """`asked` of a part read whole whenever any of `fields` is asked (`name`: True)."""

    def asked(sel: Selection) -> Mapping[str, Any] | None:
        return {name: True} if sel.asks(*fields) else None

    return asked


def by_root_id(root_id: str, _parts: object) -> str:
    """`key` of a part its DataLoader keys by the root's id alone (the resolver loads `self.id`)."""
    return root_id
