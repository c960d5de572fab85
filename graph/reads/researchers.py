"""Researcher reads: lookup by any id form, the folded profile, batched metrics, profile aggregates, co-author pages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from weft.graph.identity.lookup import parse_researcher_id
from weft.graph.reads.page import Page, Props, Row, keys_param, picked_page, props_param, unpicked_in
from weft.graph.reads.reader import GraphReader
from weft.queries import read_researchers as q


async def find_researcher(reader: GraphReader, raw_id: str) -> Row | None:
    """The researcher's properties for any accepted id form, or None."""
    keys = parse_researcher_id(raw_id)
    if not keys:
        return None
    found = await reader.one(q.RESEARCHER_LOOKUP, {"keys": keys_param(keys)}, "looking up a researcher")
    if found is None and any(k.property == "alias" for k in keys):
        alias = next(k.value for k in keys if k.property == "alias")
        found = await reader.one(q.RESEARCHER_BY_ALIAS, {"value": alias}, "looking up a researcher alias")
    return found["node"] if found else None


async def researchers_by_ids(reader: GraphReader, ids: list[str]) -> dict[str, Row]:
    """`{id: properties}` for the ids that exist."""
    rows = await reader.rows(q.RESEARCHERS_BY_IDS, {"ids": ids}, "loading researchers")
    return {r["id"]: r["node"] for r in rows}


async def researcher_stats(reader: GraphReader, ids: list[str]) -> dict[str, Row]:
    """`{id: {paper_count, citation_count, h_index, i10_index}}` over the papers in this graph."""
    rows = await reader.rows(q.RESEARCHER_STATS, {"ids": ids}, "computing researcher metrics")
    return {r["id"]: r for r in rows}


async def author_positions(reader: GraphReader, ids: list[str]) -> dict[str, Row]:
    """`{id: {first, middle, last, matched_papers}}` over papers with a complete author list."""
    rows = await reader.rows(q.AUTHOR_POSITIONS, {"ids": ids}, "counting author positions")
    return {r["id"]: r for r in rows}


async def fields(reader: GraphReader, keys: list[tuple[str, str, int]]) -> dict[tuple[str, str, int], list[Row]]:
    """`{(id, scheme, limit): [{category, count}]}`: categories of one scheme over each researcher's papers."""
    params = {"keys": [{"id": i, "scheme": s, "limit": n} for i, s, n in keys]}
    rows = await reader.rows(q.RESEARCHER_FIELDS, params, "counting research fields")
    return {(r["id"], r["scheme"], r["limit"]): r["fields"] for r in rows}


def _grouped(ids: list[str], rows: list[Row]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = {i: [] for i in ids}
    for r in rows:
        out[r["id"]].append(r)
    return out


async def institutions(reader: GraphReader, ids: list[str]) -> dict[str, list[Row]]:
    """`{id: [{institution, first_year, last_year, paper_count}]}`, most recent first."""
    return _grouped(ids, await reader.rows(q.RESEARCHER_INSTITUTIONS, {"ids": ids}, "listing affiliations"))


async def same_name(reader: GraphReader, ids: list[str]) -> dict[str, list[Row]]:
    """`{id: [{researcher, evidence}]}` linked by SAME_NAME_AS."""
    return _grouped(ids, await reader.rows(q.RESEARCHER_SAME_NAME, {"ids": ids}, "listing same-name researchers"))


async def most_cited_paper(reader: GraphReader, ids: list[str]) -> dict[str, Row]:
    """`{id: paper properties}` of each researcher's most cited paper."""
    rows = await reader.rows(q.MOST_CITED_PAPER, {"ids": ids}, "finding most cited papers")
    return {r["id"]: r["node"] for r in rows}


CoauthorPageKey = tuple[str, int, str, int, int]


async def coauthor_pages(reader: GraphReader, keys: list[CoauthorPageKey]) -> dict[CoauthorPageKey, Page]:
    """`{(id, min_weight, sort, skip, limit): Page}` of co-authors sharing at least `min_weight` papers."""
    params = {"keys": [{"id": i, "min_weight": w, "sort": s, "skip": k, "end": k + n} for i, w, s, k, n in keys]}
    rows = await reader.rows(q.COAUTHOR_PAGES, params, "listing co-authors")
    return {
        (r["id"], r["min_weight"], r["sort"], r["skip"], r["end"] - r["skip"]): Page(r["page"], r["total"])
        for r in rows
    }


@dataclass(frozen=True)
class PapersPart:
    """The page of a researcher's papers a profile folds (no category filter): sort, window, years, and the
    properties its papers' selection reads (`props`)."""

    sort: str
    skip: int
    limit: int
    year_from: int | None = None
    year_to: int | None = None
    props: Props = None


@dataclass(frozen=True)
class CoauthorsPart:
    """The page of co-authors a profile folds; `stats`: with the metrics of the co-authors on it;
    `paper_counts`: with each one's paper count in its node map (`paper_count`); `props`: the properties
    its co-authors' selection reads."""

    min_weight: int
    sort: str
    skip: int
    limit: int
    stats: bool = False
    paper_counts: bool = False
    props: Props = None


@dataclass(frozen=True)
class ProfileParts:
    """Which parts of a profile `researcher_profile` reads along with the researcher (False/None: not read)."""

    stats: bool = False
    positions: bool = False
    most_cited: bool = False
    institutions: bool = False
    same_name: bool = False
    fields: tuple[str, int] | None = None
    """(scheme, limit) of the categories counted over the researcher's papers."""
    papers: PapersPart | None = None
    coauthors: CoauthorsPart | None = None

    def names(self) -> frozenset[str]:
        """The parts asked, as queries/read_researchers.py `researcher_profile` names them."""
        asked = {
            "stats": self.stats,
            "positions": self.positions,
            "fields": self.fields is not None,
            "most_cited": self.most_cited,
            "institutions": self.institutions,
            "same_name": self.same_name,
            "papers": self.papers is not None,
            "coauthors": self.coauthors is not None,
        }
        return frozenset(name for name, yes in asked.items() if yes)

    def params(self) -> dict[str, Any]:
        """The parameters of RESEARCHER_PROFILE other than `$keys`."""
        papers, coauthors = self.papers, self.coauthors
        return {
            "want": {
                "stats": self.stats,
                "positions": self.positions,
                "most_cited": self.most_cited,
                "institutions": self.institutions,
                "same_name": self.same_name,
            },
            "fields": {"scheme": self.fields[0], "limit": self.fields[1]} if self.fields else None,
            "papers": None
            if papers is None
            else {
                "sort": papers.sort,
                "skip": papers.skip,
                "end": papers.skip + papers.limit,
                "year_from": papers.year_from,
                "year_to": papers.year_to,
                "props": props_param(papers.props),
            },
            "coauthors": None
            if coauthors is None
            else {
                "min_weight": coauthors.min_weight,
                "sort": coauthors.sort,
                "skip": coauthors.skip,
                "end": coauthors.skip + coauthors.limit,
                "stats": coauthors.stats,
                "paper_counts": coauthors.paper_counts,
                "props": props_param(coauthors.props),
            },
        }


@dataclass(frozen=True)
class Profile:
    """A researcher and the parts of its profile read with it, each shaped as its DataLoader query returns it.

    Only the parts asked for in the `ProfileParts` hold data; the others are empty.
    """

    node: Row
    stats: Row
    positions: Row
    fields: list[Row]
    most_cited: Row | None
    institutions: list[Row]
    same_name: list[Row]
    papers: Page
    coauthors: Page
    coauthor_stats: list[Row]


async def researcher_profile(reader: GraphReader, raw_id: str, parts: ProfileParts) -> Profile | None:
    """The researcher for any accepted id form with the `parts` of its profile, in one query; None if unknown.

    A merged-away id (an alias) costs two more: the alias lookup, then the profile by the current id.
    """
    keys = parse_researcher_id(raw_id)
    if not keys:
        return None
    params = parts.params()
    keyed = keys_param(keys)
    query = q.researcher_profile(parts.names(), keyed[0]["property"] if len(keyed) == 1 else None)
    row = await reader.one(query, {"keys": keyed, **params}, "reading a researcher", values_only=True)
    if row is None and any(k.property == "alias" for k in keys):
        alias = next(k.value for k in keys if k.property == "alias")
        found = await reader.one(q.RESEARCHER_BY_ALIAS, {"value": alias}, "looking up a researcher alias")
        if found is not None:
            by_id = [{"property": "id", "value": found["node"]["id"]}]
            by_id_query = q.researcher_profile(parts.names(), "id")
            row = await reader.one(by_id_query, {"keys": by_id, **params}, "reading a researcher", values_only=True)
    if row is None:
        return None
    rid = row["node"]["id"]
    institutions: list[Row] = row["institutions"] or []
    same_name: list[Row] = row["same_name"] or []
    papers: Row = row["papers"] or {}
    coauthors: Row = row["coauthors"] or {}
    return Profile(
        node=row["node"],
        stats={"id": rid, **(row["stats"] or {})},
        positions={"id": rid, **(row["positions"] or {})},
        fields=row["fields"] or [],
        most_cited=row["most_cited"],
        institutions=[{"id": rid, **x} for x in institutions],
        same_name=[{"id": rid, **x} for x in same_name],
        papers=picked_page(papers, parts.papers.props if parts.papers else None),
        coauthors=_coauthor_page(coauthors, parts.coauthors.props if parts.coauthors else None),
        coauthor_stats=coauthors.get("metrics") or [],
    )


def _coauthor_page(part: Row, props: Props) -> Page:
    """The folded co-author page {total, page}, each co-author read with `picked` for `props` and its paper
    count (queries/read_researchers.py RESEARCHER_PROFILE)."""
    rows: list[Row] = part.get("page") or []
    return Page(unpicked_in(rows, "researcher", props, "paper_count"), part.get("total") or 0, props)
