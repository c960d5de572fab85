"""Change: one entry of the sync change log (a node a sync added, updated, merged away or deleted)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry

from weft.graph.reads.changes import ENTITY_LABELS
from weft.schema.context import Info
from weft.schema.support.enums import ChangeEntity, ChangeKind
from weft.schema.types.entity import Entity
from weft.schema.types.institution import Institution
from weft.schema.types.paper import Paper
from weft.schema.types.researcher import Researcher

_LABELS = {ChangeEntity.PAPER: "Paper", ChangeEntity.RESEARCHER: "Researcher", ChangeEntity.INSTITUTION: "Institution"}
LOG_ENTITIES: dict[ChangeEntity, list[str]] = {
    entity: [name for name, label in ENTITY_LABELS.items() if label == _LABELS[entity]] for entity in ChangeEntity
}
"""The entity names the change log uses for each kind of node."""
_ENTITY_OF_LOG = {name: entity for entity, names in LOG_ENTITIES.items() for name in names}


async def resolve_current(self: Change, info: Info) -> Entity | None:
    """The node as it is now: the survivor for a merge, the node itself otherwise; null once it is gone."""
    target = self.into if self.kind is ChangeKind.MERGED else self.id
    if target is None or self.entity is None:
        return None
    data = info.context.data
    if self.entity is ChangeEntity.PAPER:
        props = await data.paper.load(target)
        return Paper.from_record(props) if props else None
    if self.entity is ChangeEntity.RESEARCHER:
        props = await data.researcher.load(target)
        return Researcher.from_record(props) if props else None
    props = await data.institution.load(target)
    return Institution.from_record(props) if props else None


@strawberry.type(description="One change a sync applied to the graph, in the order the log numbers them.")
class Change:
    seq: int = strawberry.field(description="The change's number in the log (1, 2, …: commit order).")
    at: datetime = strawberry.field(description="When the sync logged it.")
    source: str = strawberry.field(description="The source whose update it applied, e.g. `openalex`.")
    entity: ChangeEntity | None = strawberry.field(description="What kind of node it is about.")
    kind: ChangeKind = strawberry.field(description="What the sync did.")
    id: str | None = strawberry.field(description="The node's internal id (of the node merged away, for a merge).")
    source_id: str = strawberry.field(description="The source's id of the record, e.g. an OpenAlex W id.")
    into: str | None = strawberry.field(description="For a merge: the internal id of the node it went into.")
    current: Entity | None = strawberry.field(
        resolver=resolve_current,
        description="The node as it is now (for a merge, the one it went into); null once deleted.",
    )

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> Change:
        """From a change log row (graph/reads/changes.py)."""
        return cls(
            seq=row["seq"],
            at=row["at"],
            source=row["source"],
            entity=_ENTITY_OF_LOG.get(row.get("entity") or ""),
            kind=ChangeKind(str(row["kind"]).upper()),
            id=row.get("id"),
            source_id=row["source_id"],
            into=row.get("into"),
        )
