"""The source-neutral rows every loader builds and `loaders.write` writes.

A source module (loaders/openalex.py, loaders/s2.py, loaders/arxiv.py) turns one raw record into a
`RecordRows`: the node rows it states (the record's own entity first, then every entity it mentions)
and the relationship rows between them. Builders are pure: no I/O, no database.

Identity is the writer's job. A node row names its node only by hard keys (`keys`, the properties of
`graph.identity.ids.KEY_PROPERTIES`, normalised with `graph.identity.ids.paper_keys`/`normalize_*`); the writer finds
or creates the node, merges nodes a row proves to be one, and gives it its internal id. A relationship
row names its ends by `(label, canonical key)` (`graph.identity.ids.canonical_keys(label, keys)[0]`), and each end
must be a node row of the same `RecordRows` (or, for `REFERENCES`, a `Ref` key).

Who wins:
* `props` (shared: `title`, `name`, `year`…): each property holds the value of the highest-ranked row
  that gave it one, rank = (`level`, source priority openalex > s2 > arxiv, `updated`, a digest as
  tie-break). None values are never written, so a newer record lacking a value does not erase it.
* `source_props` (this source's own values: `cited_by_count_openalex`, `openalex_loaded_at`…) come from
  the newest row of that source (`level`, `updated`).
* Relationship rows with an `owner` belong to that node row: they are written only when it is the
  newest row of its source for that node, and they then replace what that source said before through
  that node (so a newer version of a work that drops an author drops the AUTHORED edge).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from weft.graph.identity.ids import canonical_keys

FULL_RECORD = 2  # the source's own record of this entity (a work, an author profile)
MENTION = 1  # an entity seen inside another record (an author inside a work)
ATTACH = 0  # only adds to an entity already in the graph (an S2 abstract row); never creates it

# Relationship types a loader may emit, with (start label, end label).
REL_ENDS: dict[str, tuple[str, str]] = {
    "AUTHORED": ("Researcher", "Paper"),
    "IN_CATEGORY": ("Paper", "Category"),
    "REFERENCES": ("Paper", "Ref"),
    "CATEGORY_PART_OF": ("Category", "Category"),
    "INSTITUTION_PART_OF": ("Institution", "Institution"),
    "LISTED_AFFILIATION": ("Researcher", "Institution"),
}


class RejectedRecord(ValueError):
    """A record a builder cannot use (no id, wrong type…); the message says why, for the rejects file."""


@dataclass
class NodeRow:
    """One entity as one record states it.

    label: Paper | Researcher | Institution | Category.
    keys: hard key properties, at least one (`{"doi": "10.1/x", "openalex_id": "W1"}`; Category: `{"key": …}`).
    source: openalex | s2 | arxiv.
    props: shared properties (None values are dropped). `alt_names` (a list) is merged as a set union.
    source_props: this source's own values, already suffixed (`cited_by_count_openalex`).
    level: FULL_RECORD, MENTION or ATTACH (a row, and every relationship touching it, is dropped when
      its entity is neither in the graph nor stated by another row of the batch).
    updated: the source's last-modified date of the record (ISO string; "" when unknown).
    owns: relationship types this row replaces for its source when it is the newest row of that
      source (works: AUTHORED, IN_CATEGORY, REFERENCES; authors: LISTED_AFFILIATION; institutions:
      INSTITUTION_PART_OF). An owned type with no rows in the record removes what was there.
    """

    label: str
    keys: dict[str, str]
    source: str
    props: dict[str, Any] = field(default_factory=dict[str, Any])
    source_props: dict[str, Any] = field(default_factory=dict[str, Any])
    level: int = FULL_RECORD
    updated: str = ""
    owns: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """The row's best canonical key: how relationship rows of the same record refer to it."""
        ranked = canonical_keys(self.label, self.keys)
        if not ranked:
            raise RejectedRecord(f"{self.label} without any id")
        return ranked[0]


@dataclass
class RelRow:
    """One relationship: `type` from REL_ENDS, ends as canonical keys of node rows of the same record.

    AUTHORED props: position, rank, raw_name, is_corresponding and `institution_keys` (canonical keys
    of Institution rows; the writer turns them into `institution_ids`). LISTED_AFFILIATION props:
    `years` (a list of ints). IN_CATEGORY props: primary, score. Others: none.
    owner: index into `RecordRows.nodes` of the row these relationships belong to (see module doc);
    None for facts that are only ever added (category hierarchy, a citation seen from the cited side).
    The owner of AUTHORED, IN_CATEGORY and REFERENCES is the Paper row; of LISTED_AFFILIATION the
    Researcher row; of INSTITUTION_PART_OF the child Institution row.
    """

    type: str
    start: str
    end: str
    props: dict[str, Any] = field(default_factory=dict[str, Any])
    owner: int | None = 0


@dataclass
class RecordRows:
    """Everything one raw record says; `nodes[0]` is the record's own entity (counted in summaries)."""

    nodes: list[NodeRow] = field(default_factory=list[NodeRow])
    rels: list[RelRow] = field(default_factory=list[RelRow])

    def size(self) -> int:
        """Rows in this record (what batch sizes count)."""
        return len(self.nodes) + len(self.rels)
