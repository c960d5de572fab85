"""Paper reads: lookup by any id form, batched authors/categories, filtered and citation pages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from weft.graph.identity.lookup import parse_paper_id
from weft.graph.reads.page import Page, Props, Row, keys_param, picked_page, props_param, unpicked, unpicked_in
from weft.graph.reads.reader import GraphReader
from weft.queries import read_facets
from weft.queries import read_papers as q


async def find_paper(reader: GraphReader, raw_id: str) -> Row | None:
    """The paper's properties for any accepted id form, or None when nothing answers to it."""
    keys = parse_paper_id(raw_id)
    if not keys:
        return None
    found = await reader.one(q.PAPER_LOOKUP, {"keys": keys_param(keys)}, "looking up a paper")
    if found is None and any(k.property == "alias" for k in keys):
        alias = next(k.value for k in keys if k.property == "alias")
        found = await reader.one(q.PAPER_BY_ALIAS, {"value": alias}, "looking up a paper alias")
    return found["node"] if found else None


async def papers_by_ids(reader: GraphReader, ids: list[str]) -> dict[str, Row]:
    """`{id: properties}` for the ids that exist."""
    rows = await reader.rows(q.PAPERS_BY_IDS, {"ids": ids}, "loading papers")
    return {r["id"]: r["node"] for r in rows}


async def authorships_of(reader: GraphReader, paper_ids: list[str]) -> dict[str, list[Row]]:
    """`{paper id: [{researcher, authorship}]}` in author order."""
    rows = await reader.rows(q.AUTHORSHIPS_OF_PAPERS, {"ids": paper_ids}, "loading paper authors")
    out: dict[str, list[Row]] = {pid: [] for pid in paper_ids}
    for r in rows:
        out[r["paper_id"]].append(r)
    return out


async def categories_of(reader: GraphReader, paper_ids: list[str]) -> dict[str, list[Row]]:
    """`{paper id: [{category, primary, score}]}`, primary and best-scored first."""
    rows = await reader.rows(q.CATEGORIES_OF_PAPERS, {"ids": paper_ids}, "loading paper categories")
    out: dict[str, list[Row]] = {pid: [] for pid in paper_ids}
    for r in rows:
        out[r["paper_id"]].append(r)
    return out


@dataclass(frozen=True)
class PaperFilter:
    """Which papers a page draws from; None means 'no restriction'."""

    researcher: str | None = None
    institutions: list[str] | None = None
    categories: list[str] | None = None
    year_from: int | None = None
    year_to: int | None = None
    min_citations: int | None = None
    ids: list[str] | None = None
    country: str | None = None
    venue: str | None = None
    type: str | None = None
    language: str | None = None

    @property
    def beyond_page(self) -> bool:
        """True when a filter PAPER_PAGE does not take is set (search hits, country, venue, type, language):
        the list is then read by read_facets.FILTERED_PAPER_PAGE."""
        return any(v is not None for v in (self.ids, self.country, self.venue, self.type, self.language))


def filter_params(where: PaperFilter) -> dict[str, Any]:
    """read_facets.FILTERED_PAPERS' parameters for `where`, its `$anchor` the narrowest filter given (what one
    researcher wrote before an institution's papers, before a category's, ...; every paper when none is)."""
    anchors = (
        ("ids", where.ids),
        ("researcher", where.researcher),
        ("institutions", where.institutions),
        ("categories", where.categories),
        ("venue", where.venue),
        ("country", where.country),
        ("language", where.language),
        ("type", where.type),
    )
    anchor = next((name for name, value in anchors if value is not None), None)
    if anchor is None:
        anchor = "years" if where.year_from is not None or where.year_to is not None else "all"
    return {
        "anchor": anchor,
        "ids": where.ids,
        "researcher": where.researcher,
        "institutions": where.institutions,
        "categories": where.categories,
        "country": where.country,
        "venue": where.venue,
        "type": where.type,
        "language": where.language,
        "year_from": where.year_from,
        "year_to": where.year_to,
        "min_citations": where.min_citations,
    }


class PaperKey(NamedTuple):
    """Where a paper sits in a sorted list (queries/read_papers.py, `_SORT_RANK`): rank, date, id."""

    rank: int
    date: str
    id: str


KEY_PROPS = ("id", "sort_cited", "sort_date")
"""The properties `paper_key` reads."""


def paper_key(row: Row, sort: str) -> PaperKey:
    """The key of a paper (its node map) in a list sorted by `sort` (NEWEST, OLDEST, MOST_CITED)."""
    date: str = row.get("sort_date") or ""
    if sort == "MOST_CITED":
        rank = int(row.get("sort_cited") or 0)
    elif sort == "OLDEST":
        rank = 1 if date else 0
    else:
        rank = 0
    return PaperKey(rank, date, row["id"])


@dataclass(frozen=True)
class KeyedPage:
    """One page of a list paged by key: the rows shown, the whole list's size, and whether rows follow."""

    rows: list[Row]
    total: int
    has_more: bool


_ABOVE_EVERY_COUNT = 2**62
_AFTER_EVERY_DATE = "~"  # sorts after every ISO date, year and ''


def _start(sort: str, after: PaperKey | None) -> dict[str, Any]:
    """EVERY_PAPER_PAGES' parameters saying where a page after `after` starts (None: the first page)."""
    start: dict[str, Any] = dict.fromkeys(
        ("tie_cited", "tie_date", "tie_id", "below_cited", "below_date", "above_date", "undated_after")
    )
    if after is not None and (sort != "OLDEST" or after.rank == 0):
        start.update(tie_cited=after.rank, tie_date=after.date, tie_id=after.id)
    if sort == "MOST_CITED":
        start["below_cited"] = _ABOVE_EVERY_COUNT if after is None else after.rank
    elif sort == "NEWEST":
        start["below_date"] = _AFTER_EVERY_DATE if after is None else after.date
    elif after is None:
        start.update(above_date="", undated_after="")
    elif after.rank == 1:  # OLDEST, after a dated paper: its ties, later dates, then every undated paper
        start.update(tie_date=after.date, tie_id=after.id, above_date=after.date, undated_after="")
    return start


async def paper_page(
    reader: GraphReader, where: PaperFilter, sort: str, after: PaperKey | None, limit: int, props: Props = None
) -> KeyedPage:
    """Papers matching `where` in `sort` order (NEWEST, OLDEST, MOST_CITED): `limit` of them after the
    key `after` (None: from the start). Without a researcher, institution or category the list is read
    in index order from the cursor on; with one, that smaller set is sorted, except that one large
    category (and nothing else) is also read in index order (q.CATEGORY_PAPER_PAGES). `props`: the
    properties the caller reads of each paper (the sort keys and the id, which the cursor needs, are added)."""
    if props is not None:
        props = tuple(dict.fromkeys((*props, *KEY_PROPS)))
    params: dict[str, Any] = {
        "props": props_param(props),
        "researcher": where.researcher,
        "institutions": where.institutions,
        "categories": where.categories,
        "year_from": where.year_from,
        "year_to": where.year_to,
        "min_citations": where.min_citations,
        "min_cited": where.min_citations or 0,
        "sort": sort,
        "limit": limit + 1,
    }
    narrowed = where.year_from is not None or where.year_to is not None or where.min_citations is not None
    if where.beyond_page:
        params.update(filter_params(where), after=None if after is None else after._asdict())
        query = read_facets.FILTERED_PAPER_PAGE
    elif where.researcher is not None or where.institutions is not None or where.categories is not None:
        params["after"] = None if after is None else after._asdict()
        query = q.PAPER_PAGE
        alone = where.researcher is None and where.institutions is None and not narrowed
        if alone and where.categories is not None and len(where.categories) == 1:
            params.update(_start(sort, after), category=where.categories[0])
            query = q.CATEGORY_PAPER_PAGES[sort]
    else:
        params.update(_start(sort, after))
        query = q.EVERY_PAPER_PAGES[(sort, narrowed, after is not None)]
    # Maps, lists and scalars only (each paper is `picked`): the driver's values are kept as decoded.
    row = await reader.one(query, params, "listing papers", values_only=True)
    rows = unpicked(row["page"], props) if row else []
    return KeyedPage(rows=rows[:limit], total=row["total"] if row else 0, has_more=len(rows) > limit)


ResearcherPageKey = tuple[str, tuple[str, ...] | None, int | None, int | None, str, int, int]


async def researcher_paper_pages(reader: GraphReader, keys: list[ResearcherPageKey]) -> dict[ResearcherPageKey, Page]:
    """`{(researcher id, category ids, year_from, year_to, sort, skip, limit): Page}` of each researcher's papers."""
    params = {
        "keys": [
            {
                "id": i,
                "categories": list(c) if c is not None else None,
                "year_from": yf,
                "year_to": yt,
                "sort": s,
                "skip": k,
                "end": k + n,
            }
            for i, c, yf, yt, s, k, n in keys
        ]
    }
    rows = await reader.rows(q.RESEARCHER_PAPER_PAGES, params, "listing researchers' papers")
    out: dict[ResearcherPageKey, Page] = {}
    for r in rows:
        k = r["key"]
        cats = tuple(k["categories"]) if k["categories"] is not None else None
        key = (k["id"], cats, k["year_from"], k["year_to"], k["sort"], k["skip"], k["end"] - k["skip"])
        out[key] = Page(r["page"], r["total"])
    return out


async def category_lookups(reader: GraphReader, values: list[str]) -> dict[str, list[str]]:
    """`{string: [category ids]}` for ids, keys or (case-insensitive) names."""
    rows = await reader.rows(q.CATEGORY_LOOKUPS, {"values": values}, "looking up categories")
    return {r["value"]: r["ids"] for r in rows}


CitedByKey = tuple[str, str, int, int]


async def cited_by_pages(reader: GraphReader, keys: list[CitedByKey]) -> dict[CitedByKey, Page]:
    """`{(id, sort, skip, limit): Page}` of loaded papers citing each paper, in `sort` order."""
    params = {"keys": [{"id": i, "sort": s, "skip": k, "end": k + n} for i, s, k, n in keys]}
    rows = await reader.rows(q.CITED_BY_PAGES, params, "listing citing papers")
    return {(r["id"], r["sort"], r["skip"], r["end"] - r["skip"]): Page(r["page"], r["total"]) for r in rows}


ReferencesKey = tuple[str, int, int]


async def references_pages(reader: GraphReader, keys: list[ReferencesKey]) -> dict[ReferencesKey, Page]:
    """`{(id, skip, limit): Page}` of loaded papers each paper cites, most cited first."""
    params = {"keys": [{"id": i, "skip": k, "end": k + n} for i, k, n in keys]}
    rows = await reader.rows(q.REFERENCES_PAGES, params, "listing references")
    return {(r["id"], r["skip"], r["end"] - r["skip"]): Page(r["page"], r["total"]) for r in rows}


@dataclass(frozen=True)
class CitedByPart:
    """The page of citing papers a paper page folds; `props`: the properties its papers' selection reads."""

    sort: str
    skip: int
    limit: int
    props: Props = None


@dataclass(frozen=True)
class ReferencesPart:
    """The page of cited papers a paper page folds; `props`: the properties its papers' selection reads."""

    skip: int
    limit: int
    props: Props = None


@dataclass(frozen=True)
class PaperParts:
    """Which parts of a paper page `paper_details` reads along with the paper (False/None: not read).

    `affiliations` (the institutions each authorship states), `author_stats` (each author's metrics) and
    `author_paper_counts` (each author's paper count alone, in its node map) are read only with `authors`.
    """

    authors: bool = False
    affiliations: bool = False
    author_stats: bool = False
    author_paper_counts: bool = False
    categories: bool = False
    category_scheme: str | None = None
    """Only the categories of this scheme (None: every one): when every `categories` field asks it."""
    researcher_props: Props = None
    """The properties the authors' `researcher` selection reads (None: every property)."""
    cited_by: CitedByPart | None = None
    references: ReferencesPart | None = None

    def params(self) -> dict[str, Any]:
        """The parameters of PAPER_DETAILS other than `$keys`."""
        cited_by, references = self.cited_by, self.references
        return {
            "want": {
                "authors": self.authors,
                "affiliations": self.affiliations,
                "author_stats": self.author_stats,
                "author_paper_counts": self.author_paper_counts,
                "categories": self.categories,
                "category_scheme": self.category_scheme,
                "researcher_props": props_param(self.researcher_props),
            },
            "cited_by": None
            if cited_by is None
            else {
                "sort": cited_by.sort,
                "skip": cited_by.skip,
                "end": cited_by.skip + cited_by.limit,
                "props": props_param(cited_by.props),
            },
            "references": None
            if references is None
            else {
                "skip": references.skip,
                "end": references.skip + references.limit,
                "props": props_param(references.props),
            },
        }


@dataclass(frozen=True)
class PaperDetails:
    """A paper and the parts of its page read with it, each shaped as its DataLoader query returns it.

    `authorships` rows also hold `institutions` (the found institutions the authorship states) and
    `metrics` (the author's); only the parts asked for in the `PaperParts` hold data.
    """

    node: Row
    authorships: list[Row]
    categories: list[Row]
    cited_by: Page
    references: Page


async def paper_details(reader: GraphReader, raw_id: str, parts: PaperParts) -> PaperDetails | None:
    """The paper for any accepted id form with the `parts` of its page, in one query; None if unknown.

    A merged-away id (an alias) costs two more: the alias lookup, then the page by the current id.
    """
    keys = parse_paper_id(raw_id)
    if not keys:
        return None
    params = parts.params()
    keyed = keys_param(keys)
    query = q.PAPER_DETAILS_BY_KEY.get(keyed[0]["property"], q.PAPER_DETAILS) if len(keyed) == 1 else q.PAPER_DETAILS
    row = await reader.one(query, {"keys": keyed, **params}, "reading a paper", values_only=True)
    if row is None and any(k.property == "alias" for k in keys):
        alias = next(k.value for k in keys if k.property == "alias")
        found = await reader.one(q.PAPER_BY_ALIAS, {"value": alias}, "looking up a paper alias")
        if found is not None:
            by_id = [{"property": "id", "value": found["node"]["id"]}]
            row = await reader.one(
                q.PAPER_DETAILS_BY_KEY["id"], {"keys": by_id, **params}, "reading a paper", values_only=True
            )
    if row is None:
        return None
    pid = row["node"]["id"]
    authors: list[Row] = row["authors"] or []
    categories: list[Row] = row["categories"] or []
    cited_by: Row = row["cited_by"] or {}
    references: Row = row["references"] or {}
    return PaperDetails(
        node=row["node"],
        authorships=[
            {"paper_id": pid, "researcher_props": parts.researcher_props, **a}
            for a in unpicked_in(authors, "researcher", parts.researcher_props, "paper_count")
        ],
        categories=[{"paper_id": pid, **c} for c in categories],
        cited_by=picked_page(cited_by, parts.cited_by.props if parts.cited_by else None),
        references=picked_page(references, parts.references.props if parts.references else None),
    )
