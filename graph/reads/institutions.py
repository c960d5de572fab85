"""Institution reads: lookup by any id form or exact name, hierarchy, roster and collaborators."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from weft.graph.errors import InvalidInput
from weft.graph.identity.lookup import escape_lucene, fold_name, parse_institution_id
from weft.graph.reads.page import Page, Props, Row, keys_param, props_param, unpicked_in
from weft.graph.reads.reader import GraphReader
from weft.queries import read_institutions as q


async def find_institution(reader: GraphReader, raw_id: str, argument: str = "id") -> Row | None:
    """The institution for any accepted id form or exact (alternative) name, or None.

    A name shared by several institutions raises InvalidInput listing the candidates.
    """
    keys = parse_institution_id(raw_id)
    if not keys:
        return None
    if keys[0].property == "name":
        return await _find_by_name(reader, raw_id, str(keys[0].value), argument)
    found = await reader.one(q.INSTITUTION_LOOKUP, {"keys": keys_param(keys)}, "looking up an institution")
    if found is None and any(k.property == "alias" for k in keys):
        alias = next(k.value for k in keys if k.property == "alias")
        found = await reader.one(q.INSTITUTION_BY_ALIAS, {"value": alias}, "looking up an institution alias")
    return found["node"] if found else None


def _names(node: Row) -> set[str]:
    alt_names: list[str] = node.get("alt_names") or []
    acronyms: list[str] = node.get("acronyms") or []
    names: list[str | None] = [node.get("name"), *alt_names, *acronyms]
    return {fold_name(n) for n in names if n}


async def _find_by_name(reader: GraphReader, raw: str, folded: str, argument: str) -> Row | None:
    as_typed, folded_words = escape_lucene(raw), escape_lucene(folded)
    if not as_typed:
        return None
    query = f"({as_typed}) OR ({folded_words})"
    params = {"key": folded, "query": query}
    rows = await reader.rows(q.INSTITUTION_NAME_CANDIDATES, params, "looking up an institution name")
    matches = [r["node"] for r in rows if folded in _names(r["node"])]
    if len(matches) > 1:
        listed = "; ".join(f"{m.get('name')} ({m.get('id')}, ROR {m.get('ror')})" for m in matches[:10])
        raise InvalidInput(
            f"`{argument}`: the name {raw!r} is ambiguous; {len(matches)} institutions have it: {listed}",
            argument=argument,
        )
    return matches[0] if matches else None


async def institutions_by_ids(reader: GraphReader, ids: list[str]) -> dict[str, Row]:
    """`{id: properties}` for the ids that exist."""
    rows = await reader.rows(q.INSTITUTIONS_BY_IDS, {"ids": ids}, "loading institutions")
    return {r["id"]: r["node"] for r in rows}


async def parents_of(reader: GraphReader, ids: list[str]) -> dict[str, list[Row]]:
    """`{id: [parent properties]}`."""
    rows = await reader.rows(q.PARENTS_OF_INSTITUTIONS, {"ids": ids}, "loading parent institutions")
    out: dict[str, list[Row]] = {i: [] for i in ids}
    for r in rows:
        out[r["id"]].append(r["parent"])
    return out


async def children_of(reader: GraphReader, ids: list[str]) -> dict[str, list[Row]]:
    """`{id: [child properties]}`."""
    rows = await reader.rows(q.CHILDREN_OF_INSTITUTIONS, {"ids": ids}, "loading child institutions")
    out: dict[str, list[Row]] = {i: [] for i in ids}
    for r in rows:
        out[r["id"]].append(r["child"])
    return out


async def family(reader: GraphReader, institution_id: str, include_children: bool) -> list[str]:
    """The institution's id, plus its descendants' ids through PART_OF when `include_children`."""
    params = {"id": institution_id, "include_children": include_children}
    row = await reader.one(q.INSTITUTION_FAMILY, params, "expanding the institution hierarchy")
    return row["ids"] if row else [institution_id]


def _as_key(value: list[str] | None) -> tuple[str, ...] | None:
    """A Cypher key map's list of ids back as a hashable DataLoader key part (a tuple; None stays)."""
    return tuple(value) if value is not None else None


async def families(reader: GraphReader, keys: list[tuple[str, bool]]) -> dict[tuple[str, bool], list[str]]:
    """`{(id, include_children): [ids]}`: each institution plus, if asked, its PART_OF descendants."""
    params = {"keys": [{"id": i, "include_children": c} for i, c in keys]}
    rows = await reader.rows(q.INSTITUTION_FAMILIES, params, "expanding the institution hierarchy")
    return {(r["key"]["id"], r["key"]["include_children"]): r["ids"] for r in rows}


RosterKey = tuple[tuple[str, ...], int | None, int | None, int, int]


async def roster_pages(reader: GraphReader, keys: list[RosterKey]) -> dict[RosterKey, Page]:
    """`{(ids, year_from, year_to, skip, limit): Page}` of researchers affiliated with any of ids."""
    params = {
        "keys": [{"ids": list(i), "year_from": f, "year_to": t, "skip": k, "end": k + n} for i, f, t, k, n in keys]
    }
    rows = await reader.rows(q.ROSTER_PAGES, params, "listing rosters")
    out: dict[RosterKey, Page] = {}
    for r in rows:
        k = r["key"]
        out[(tuple(k["ids"]), k["year_from"], k["year_to"], k["skip"], k["end"] - k["skip"])] = Page(
            r["page"], r["total"]
        )
    return out


CollaboratorKey = tuple[str, int, int, bool]


async def collaborator_pages(reader: GraphReader, keys: list[CollaboratorKey]) -> dict[CollaboratorKey, Page]:
    """`{(id, skip, limit, researchers): Page}` of the institutions each co-publishes with; each row's
    `researchers` is counted only when asked (it reads every author of the shared papers)."""
    params = {"keys": [{"id": i, "skip": k, "end": k + n, "researchers": w} for i, k, n, w in keys]}
    rows = await reader.rows(q.COLLABORATOR_PAGES, params, "listing collaborating institutions")
    return {
        (k["id"], k["skip"], k["end"] - k["skip"], k["researchers"]): Page(r["page"], r["total"])
        for r in rows
        for k in [r["key"]]
    }


InstitutionPageKey = tuple[tuple[str, ...], tuple[str, ...] | None, int | None, int | None, str, int, int]


async def paper_pages(reader: GraphReader, keys: list[InstitutionPageKey]) -> dict[InstitutionPageKey, Page]:
    """`{(ids, category ids, year_from, year_to, sort, skip, limit): Page}` of papers stating any of ids."""
    params = {
        "keys": [
            {
                "ids": list(i),
                "categories": list(c) if c is not None else None,
                "year_from": f,
                "year_to": t,
                "sort": s,
                "skip": k,
                "end": k + n,
            }
            for i, c, f, t, s, k, n in keys
        ]
    }
    rows = await reader.rows(q.INSTITUTION_PAPER_PAGES, params, "listing institutions' papers")
    out: dict[InstitutionPageKey, Page] = {}
    for r in rows:
        k = r["key"]
        key = (
            tuple(k["ids"]),
            _as_key(k["categories"]),
            k["year_from"],
            k["year_to"],
            k["sort"],
            k["skip"],
            k["end"] - k["skip"],
        )
        out[key] = Page(r["page"], r["total"])
    return out


@dataclass(frozen=True)
class RosterPart:
    """The roster page an institution page folds (of the institution alone, not its children)."""

    year_from: int | None
    year_to: int | None
    skip: int
    limit: int
    props: Props = None  # the researchers' properties the selection reads (None: every one)


@dataclass(frozen=True)
class InstitutionParts:
    """Which parts of an institution page `institution_details` reads with it (False/None: not read):
    its parents, its children, a roster page, its `most_cited` first papers, a page of collaborating
    institutions."""

    parents: bool = False
    children: bool = False
    roster: RosterPart | None = None
    most_cited: int | None = None
    collaborators: tuple[int, int, bool] | None = None  # skip, limit, whether rows count their researchers

    def params(self) -> dict[str, Any]:
        """The parameters of INSTITUTION_DETAILS other than `$keys`."""
        r, c = self.roster, self.collaborators
        return {
            "parents": self.parents,
            "children": self.children,
            "roster": None
            if r is None
            else {
                "year_from": r.year_from,
                "year_to": r.year_to,
                "skip": r.skip,
                "end": r.skip + r.limit,
                "props": props_param(r.props),
            },
            "most_cited": None if self.most_cited is None else {"end": self.most_cited},
            "collaborators": None if c is None else {"skip": c[0], "end": c[0] + c[1], "researchers": c[2]},
        }


@dataclass(frozen=True)
class InstitutionDetails:
    """An institution and the parts of its page read with it (empty where not asked), shaped as the
    DataLoader queries of the same names return them."""

    node: Row
    parents: list[Row]
    children: list[Row]
    roster: Page
    most_cited: Page
    collaborators: Page


def _page(part: Row | None) -> Page:
    return Page(part["page"], part["total"]) if part else Page([], 0)


async def institution_details(reader: GraphReader, raw_id: str, parts: InstitutionParts) -> InstitutionDetails | None:
    """The institution for any accepted id form or exact name with the `parts` of its page; None if unknown.

    An id costs one query; a name or a merged-away id (an alias) costs the look-up first, then one.
    """
    keys = parse_institution_id(raw_id)
    if not keys:
        return None
    params = parts.params()
    if keys[0].property == "name":
        found = await _find_by_name(reader, raw_id, str(keys[0].value), "id")
        row = None if found is None else await _details(reader, [{"property": "id", "value": found["id"]}], params)
    else:
        row = await _details(reader, keys_param(keys), params)
        if row is None and any(k.property == "alias" for k in keys):
            alias = next(k.value for k in keys if k.property == "alias")
            by_alias = await reader.one(q.INSTITUTION_BY_ALIAS, {"value": alias}, "looking up an institution alias")
            if by_alias is not None:
                row = await _details(reader, [{"property": "id", "value": by_alias["node"]["id"]}], params)
    if row is None:
        return None
    return InstitutionDetails(
        node=row["node"],
        parents=row["parents"] or [],
        children=row["children"] or [],
        roster=_roster_page(row["roster"], parts.roster.props if parts.roster else None),
        most_cited=_page(row["most_cited"]),
        collaborators=_page(row["collaborators"]),
    )


def _roster_page(part: Row | None, props: Props) -> Page:
    """A folded roster part {total, page}, its researchers read with `picked` for `props`."""
    if not part:
        return Page([], 0, props)
    return Page(unpicked_in(part["page"], "researcher", props), part["total"], props)


async def _details(reader: GraphReader, keys: list[dict[str, Any]], params: dict[str, Any]) -> Row | None:
    # Maps, lists and scalars only (every node is projected): the driver's values are kept as decoded.
    return await reader.one(q.INSTITUTION_DETAILS, {"keys": keys, **params}, "reading an institution", values_only=True)
