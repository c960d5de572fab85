"""Batch id resolution: up to `MAX_IDS` ids of any form, each to its node (or why not), one query per kind."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from weft.graph.errors import InvalidInput
from weft.graph.identity.id_forms import IdForm, id_form
from weft.graph.reads.page import Row
from weft.graph.reads.reader import GraphReader
from weft.queries import read_resolve as q

MAX_IDS = 500
"""Ids one call resolves at most (Semantic Scholar's batch endpoint takes as many)."""

FOUND, MERGED_INTO, NOT_FOUND, UNRECOGNISED = "FOUND", "MERGED_INTO", "NOT_FOUND", "UNRECOGNISED"


@dataclass(frozen=True)
class Resolution:
    """One input id: its form (None when unrecognised), the label it names, the node (the survivor when the id
    is an alias of a merged or re-keyed node), and the status: FOUND, MERGED_INTO, NOT_FOUND or UNRECOGNISED."""

    input: str
    kind: str | None
    label: str | None
    node: Row | None
    status: str


def check_ids(ids: list[str]) -> None:
    """InvalidInput when there are more ids than one call takes."""
    if len(ids) > MAX_IDS:
        raise InvalidInput(f"`ids` holds {len(ids)} ids; at most {MAX_IDS} per call", argument="ids")


async def resolve_ids(reader: GraphReader, ids: list[str]) -> list[Resolution]:
    """Each id in input order: recognised by its form, then looked up with every other id of its kind of node
    in one query (the kinds' queries run concurrently)."""
    check_ids(ids)
    forms = [id_form(raw) for raw in ids]
    labels = sorted({f.label for f in forms if f is not None})
    answers = await asyncio.gather(*(_resolve_label(reader, label, forms) for label in labels))
    hits: dict[int, tuple[Row, str]] = {}
    for answer in answers:
        hits.update(answer)
    out: list[Resolution] = []
    for at, (raw, form) in enumerate(zip(ids, forms, strict=True)):
        if form is None:
            out.append(Resolution(raw, None, None, None, UNRECOGNISED))
        elif at in hits:
            node, status = hits[at]
            out.append(Resolution(raw, form.kind, form.label, node, status))
        else:
            out.append(Resolution(raw, form.kind, form.label, None, NOT_FOUND))
    return out


async def _resolve_label(reader: GraphReader, label: str, forms: list[IdForm | None]) -> dict[int, tuple[Row, str]]:
    """`{input position: (node, status)}` for the ids naming a `label` node that the graph holds."""
    keys = _keys_param(label, forms)
    row = await reader.one(q.RESOLVE[label], {"keys": keys}, f"resolving {label.lower()} ids", values_only=True)
    if row is None:
        return {}
    best: dict[int, tuple[int, Row]] = {}
    rank_of = _key_ranks(label, forms)
    for hit in row["found"]:
        at: int = hit["at"]
        rank = rank_of.get((at, hit["property"]), 0)
        if at not in best or rank < best[at][0]:
            best[at] = (rank, hit["node"])
    found = {at: (node, FOUND) for at, (_, node) in best.items()}
    for hit in row["merged"]:
        found.setdefault(hit["at"], (hit["node"], MERGED_INTO))
    return found


def _keys_param(label: str, forms: list[IdForm | None]) -> dict[str, list[dict[str, Any]]]:
    """`$keys`: per key property the `{at, property, value}` of every id of this label (each list present)."""
    keys: dict[str, list[dict[str, Any]]] = {prop: [] for prop in q.RESOLVE_KEYS[label]}
    for at, form in enumerate(forms):
        if form is None or form.label != label:
            continue
        for key in form.keys:
            keys[key.property].append({"at": at, "property": key.property, "value": key.value})
    return keys


def _key_ranks(label: str, forms: list[IdForm | None]) -> dict[tuple[int, str], int]:
    """(position, key property) -> the key's rank among the id's keys (0 most specific)."""
    return {
        (at, key.property): rank
        for at, form in enumerate(forms)
        if form is not None and form.label == label
        for rank, key in enumerate(form.keys)
    }
