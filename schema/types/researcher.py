"""The Researcher type: everything a researcher's profile page shows, and `PROFILE`, the parts of it that
`researcher(id:)` reads with the researcher in one RESEARCHER_PROFILE query (schema/support/parts.py).
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any

import strawberry

from weft.graph.errors import InvalidInput
from weft.graph.reads import facets, semantic
from weft.graph.reads.page import Props
from weft.graph.reads.papers import ResearcherPageKey, researcher_paper_pages
from weft.graph.reads.researchers import (
    CoauthorPageKey,
    CoauthorsPart,
    PapersPart,
    Profile,
    ProfileParts,
    coauthor_pages,
)
from weft.graph.sources import SOURCE_KEYS
from weft.schema.context import Info
from weft.schema.support.connection import (
    After,
    CategoryArg,
    Connection,
    First,
    PaperSortArg,
    YearFromArg,
    YearToArg,
    connection,
)
from weft.schema.support.dataloaders import Loaders
from weft.schema.support.enums import CoauthorSort, PaperSort
from weft.schema.support.filters import category_ids
from weft.schema.support.paging import Window, check_range, window
from weft.schema.support.parts import Part, by_root_id, flag
from weft.schema.support.prefetch import AskedField, NodeReads, Selection, covers, node_props
from weft.schema.support.values import Identity, SourceCount, source_counts
from weft.schema.types.affiliation import Affiliation
from weft.schema.types.author_positions import AuthorPositions
from weft.schema.types.category import Category
from weft.schema.types.category_count import CategoryCount
from weft.schema.types.coauthor import Coauthor
from weft.schema.types.entity import resolve_ids
from weft.schema.types.facet import CountsByYear
from weft.schema.types.linked_record import LinkedRecord, linked_records
from weft.schema.types.named_entity import NamedEntity, resolve_alt_names
from weft.schema.types.refs import PaperRef
from weft.schema.types.same_name_researcher import SameNameResearcher
from weft.schema.types.similar_researcher import SimilarResearcher

RESEARCHER_READS: NodeReads = {
    "id": (),
    "ids": ("openalex_id", "s2_id", "orcid"),
    "identities": ("openalex_id", "s2_id", "orcid"),
    "slug": ("name",),
    "canonicalUrl": ("name",),
    "name": ("name",),
    "altNames": ("alt_names",),
    "orcid": ("orcid",),
    "isPerson": ("is_person",),
    "pageRank": ("page_rank",),
    "community": ("community",),
    "paperCount": (),
    "citationCount": (),
    "hIndex": (),
    "i10Index": (),
    "worksCount": tuple(f"works_count_{source}" for source in SOURCE_KEYS),
    "citedByCountSources": tuple(f"cited_by_count_{source}" for source in SOURCE_KEYS),
    "authorPositions": (),
    "fields": (),
    "mostCitedPaper": (),
    "sameName": (),
    "linkedRecords": (),
    "possiblySamePerson": (),
    "institutions": (),
    "papers": (),
    "coauthors": (),
    "similarResearchers": (),
    "countsByYear": (),
}
"""The properties each Researcher field reads beside `id` (the metrics come from their DataLoader, or a paper
count read with the node); every field is listed (a unit test checks). See schema/types/paper.py PAPER_READS."""


def coauthor_props(sel: Selection) -> Props:
    """The properties the co-authors of a `coauthors` connection (`sel`: what the field asks) read."""
    return node_props(sel.every("edges", "node", "researcher"), RESEARCHER_READS)


@strawberry.type(
    description="A person who authored papers in the graph (one node per real person, whatever source named them)."
)
class Researcher(NamedEntity):
    label = "Researcher"
    site_section = "researchers"
    id_props = (("openalex", "openalex_id"), ("s2", "s2_id"), ("orcid", "orcid"))
    ids: list[Identity] = strawberry.field(resolver=resolve_ids, description="Each source's id for this researcher.")
    identities: list[Identity] = strawberry.field(
        resolver=resolve_ids, description="Each source's id for this researcher with a link to its page there."
    )
    alt_names: list[str] = strawberry.field(
        resolver=resolve_alt_names, description="Other spellings of the name seen in the sources."
    )

    @classmethod
    def from_record(cls, props: dict[str, Any]) -> Researcher:
        """From a Researcher node's properties (a `r {.*}` map)."""
        return cls(props=props, id=props["id"], name=props.get("name"))

    @strawberry.field(description="ORCID iD, bare (`0000-0002-1825-0097`), where known.")
    def orcid(self) -> str | None:
        return self.props.get("orcid")

    @strawberry.field(
        description="False for junk author records whose name is not a person's (e.g. 'Machine Learning')."
    )
    def is_person(self) -> bool:
        return self.props.get("is_person") is not False

    @strawberry.field(
        description="Weighted PageRank over the whole co-authorship graph, stored by `weft analytics`; "
        "null before it runs."
    )
    def page_rank(self) -> float | None:
        return self.props.get("page_rank")

    @strawberry.field(
        description="Louvain community over the whole co-authorship graph (seeded), stored by `weft analytics`; "
        "null before it runs."
    )
    def community(self) -> int | None:
        return self.props.get("community")

    async def _stats(self, info: Info) -> dict[str, Any]:
        if "paper_count" in self.props and "h_index" in self.props:
            return self.props
        found = await info.context.data.researcher_stats.load(self.id)
        return found or {"paper_count": 0, "citation_count": 0, "h_index": 0, "i10_index": 0}

    @strawberry.field(description="Papers by this researcher in this graph.")
    async def paper_count(self, info: Info) -> int:
        if (count := self.props.get("paper_count")) is not None:  # read with the node (a folded co-author page)
            return int(count)
        return int((await self._stats(info))["paper_count"])

    @strawberry.field(description="Sum of `citedByCount` over this researcher's papers in this graph.")
    async def citation_count(self, info: Info) -> int:
        return int((await self._stats(info))["citation_count"])

    @strawberry.field(description="h-index over this researcher's papers in this graph.")
    async def h_index(self, info: Info) -> int:
        return int((await self._stats(info))["h_index"])

    @strawberry.field(description="i10-index: papers in this graph cited at least 10 times.")
    async def i10_index(self, info: Info) -> int:
        return int((await self._stats(info))["i10_index"])

    @strawberry.field(
        description="Works count as each source reports it (the source's whole record, not just this graph)."
    )
    def works_count(self) -> list[SourceCount]:
        return source_counts(self.props, "works_count")

    @strawberry.field(description="Citation count as each source reports it for the whole author record.")
    def cited_by_count_sources(self) -> list[SourceCount]:
        return source_counts(self.props, "cited_by_count")

    @strawberry.field(description="First, middle and last authorships over papers whose author list is complete.")
    async def author_positions(self, info: Info) -> AuthorPositions:
        row = await info.context.data.author_positions.load(self.id) or {
            "first": 0,
            "middle": 0,
            "last": 0,
            "matched_papers": 0,
        }
        return AuthorPositions(
            first=row["first"], middle=row["middle"], last=row["last"], matched_papers=row["matched_papers"]
        )

    @strawberry.field(description="Categories of one scheme over this researcher's papers, most papers first.")
    async def fields(
        self,
        info: Info,
        scheme: Annotated[
            str, strawberry.argument(description="Category scheme: field, subfield, topic, domain, arxiv, concept.")
        ] = "field",
        first: Annotated[int, strawberry.argument(description="At most this many (0..100).")] = 10,
    ) -> list[CategoryCount]:
        check_range("first", first, 0, 100)
        rows = await info.context.data.fields.load(fields_key(self.id, scheme, first))
        return [CategoryCount(category=Category.from_record(r["category"]), count=r["count"]) for r in rows]

    @strawberry.field(
        description="Works (papers in this graph) and citations received per year; citations from the OpenAlex "
        "record's `counts_by_year` where it has one, else counted from citations in the graph (`citationSource`)."
    )
    async def counts_by_year(self, info: Info) -> CountsByYear:
        return CountsByYear.of(await facets.counts_by_year(info.context.reader, "researcher", [self.id]))

    @strawberry.field(description="This researcher's most cited paper in this graph.")
    async def most_cited_paper(self, info: Info) -> PaperRef | None:
        from weft.schema.types.paper import Paper

        found = await info.context.data.most_cited_paper.load(self.id)
        return Paper.from_record(found) if found else None

    @strawberry.field(description="Researcher records with the same normalised name, with the evidence linking them.")
    async def same_name(self, info: Info) -> list[SameNameResearcher]:
        rows = await info.context.data.same_name.load(self.id)
        return [
            SameNameResearcher(researcher=Researcher.from_record(r["researcher"]), evidence=r["evidence"]) for r in rows
        ]

    @strawberry.field(
        description="Other researcher records linked to this one as the same person on evidence (score at or above "
        "the link threshold), with the evidence and score; links are read, never merged."
    )
    async def linked_records(self, info: Info) -> list[LinkedRecord]:
        return await linked_records(info, self.id, linked=True)

    @strawberry.field(
        description="Possibly the same person: same-name records whose evidence scored below the link threshold."
    )
    async def possibly_same_person(self, info: Info) -> list[LinkedRecord]:
        return await linked_records(info, self.id, linked=False)

    @strawberry.field(description="Institutions this researcher is affiliated with, most recent first.")
    async def institutions(self, info: Info) -> list[Affiliation]:
        rows = await info.context.data.affiliations.load(self.id)
        return [Affiliation.from_record(r) for r in rows]

    @strawberry.field(description="This researcher's papers in this graph, newest first by default.")
    async def papers(
        self,
        info: Info,
        first: First = 24,
        after: After = None,
        sort: PaperSortArg = PaperSort.NEWEST,
        category: CategoryArg = None,
        year_from: YearFromArg = None,
        year_to: YearToArg = None,
    ) -> Connection[PaperRef]:
        from weft.schema.types.paper import Paper, connection_props

        page = window(first, after)
        categories = await category_ids(info, category)
        key = _papers_key(self.id, categories, year_from, year_to, sort.name, page)
        found = await info.context.data.researcher_papers.load(key)
        if not covers(found.props, info, connection_props):
            found = (await researcher_paper_pages(info.context.reader, [key]))[key]
        return connection(found, page, Paper.from_record)

    @strawberry.field(description="Co-authors with the number of shared papers, heaviest first by default.")
    async def coauthors(
        self,
        info: Info,
        first: First = 20,
        after: After = None,
        min_weight: Annotated[
            int, strawberry.argument(description="Only co-authors sharing at least this many papers.")
        ] = 1,
        sort: Annotated[
            CoauthorSort, strawberry.argument(description="Order of the co-authors.")
        ] = CoauthorSort.WEIGHT,
    ) -> Connection[Coauthor]:
        page = window(first, after)
        check_range("minWeight", min_weight, 1, 1_000_000)
        key = _coauthors_key(self.id, min_weight, sort.name, page)
        found = await info.context.data.coauthors.load(key)
        if not covers(found.props, info, coauthor_props):
            found = (await coauthor_pages(info.context.reader, [key]))[key]
        return connection(found, page, Coauthor.from_record)

    @strawberry.field(
        description="Researchers whose papers are about the same things as this one's (the centroids of their "
        "papers' sentence vectors compared by cosine), best first; empty when none of this researcher's papers "
        "has a vector (run `weft embed`)."
    )
    async def similar_researchers(
        self,
        info: Info,
        first: Annotated[int, strawberry.argument(description="How many, at most 50.")] = 10,
        exclude_coauthors: Annotated[
            bool, strawberry.argument(description="Leave out everyone who has written a paper with this researcher.")
        ] = False,
    ) -> list[SimilarResearcher]:
        check_range("first", first, 0, 50)
        found = await semantic.similar_researchers(info.context.reader, self.id, first, exclude_coauthors)
        return [SimilarResearcher.from_record(r) for r in found.rows]


def _papers_key(
    rid: str, categories: list[str] | None, year_from: int | None, year_to: int | None, sort: str, page: Window
) -> ResearcherPageKey:
    """The `researcher_papers` DataLoader key of one `papers` page."""
    cats = tuple(categories) if categories is not None else None
    return (rid, cats, year_from, year_to, sort, page.skip, page.limit)


def _coauthors_key(rid: str, min_weight: int, sort: str, page: Window) -> CoauthorPageKey:
    """The `coauthors` DataLoader key of one `coauthors` page."""
    return (rid, min_weight, sort, page.skip, page.limit)


STATS_FIELDS = ("paperCount", "citationCount", "hIndex", "i10Index")
"""The Researcher fields answered from its paper metrics (the `researcher_stats` DataLoader)."""


def metrics_asked(researcher: Selection) -> tuple[bool, bool]:
    """(the metrics, the paper count alone) a folded list of researchers reads for `researcher`'s selection:
    paperCount alone is each one's AUTHORED degree, read with the node; the other metrics read every paper
    of each researcher (thousands for a prolific one), so only when asked."""
    metrics = researcher.asks(*STATS_FIELDS[1:])
    return metrics, researcher.asks(STATS_FIELDS[0]) and not metrics


def enum_name(value: Any) -> str:
    """An enum argument's name (GraphQL gives enum members; a plain string stays itself)."""
    return value.name if isinstance(value, Enum) else str(value)


def connection_window(asked: AskedField) -> Window | None:
    """The page a connection field asks for, or None when its `first`/`after` are invalid (not folded)."""
    try:
        return window(asked.args["first"], asked.args["after"])
    except InvalidInput:
        return None


def fields_key(rid: str, scheme: str, first: int) -> tuple[str, str, int]:
    """The `fields` DataLoader key of one `fields` list."""
    return (rid, scheme, first)


def _fold_fields(sel: Selection) -> dict[str, Any] | None:
    asked = sel.first("fields")
    if asked is None or not 0 <= asked.args["first"] <= 100:
        return None
    return {"fields": (asked.args["scheme"], asked.args["first"])}


def _fold_papers(sel: Selection) -> dict[str, Any] | None:
    from weft.schema.types.paper import paper_props

    asked = sel.first("papers")
    if asked is None or asked.args["category"] is not None:  # a category is looked up first: not folded
        return None
    page = connection_window(asked)
    if page is None:
        return None
    args = asked.args
    props = paper_props(sel.every("papers", "edges", "node"))  # every alias: the page is primed for each
    return {
        "papers": PapersPart(enum_name(args["sort"]), page.skip, page.limit, args["yearFrom"], args["yearTo"], props)
    }


def _fold_coauthors(sel: Selection) -> dict[str, Any] | None:
    asked = sel.first("coauthors")
    if asked is None or not 1 <= asked.args["minWeight"] <= 1_000_000:
        return None
    page = connection_window(asked)
    if page is None:
        return None
    stats, counts = metrics_asked(asked.selection.at("edges", "node", "researcher"))
    props = node_props(sel.every("coauthors", "edges", "node", "researcher"), RESEARCHER_READS)  # every alias
    args = asked.args
    return {
        "coauthors": CoauthorsPart(
            args["minWeight"], enum_name(args["sort"]), page.skip, page.limit, stats, counts, props
        )
    }


def _folded_papers_key(rid: str, parts: ProfileParts) -> ResearcherPageKey:
    p = parts.papers
    assert p is not None
    return _papers_key(rid, None, p.year_from, p.year_to, p.sort, Window(p.skip, p.limit))


def _folded_coauthors_key(rid: str, parts: ProfileParts) -> CoauthorPageKey:
    c = parts.coauthors
    assert c is not None
    return _coauthors_key(rid, c.min_weight, c.sort, Window(c.skip, c.limit))


def _folded_fields_key(rid: str, parts: ProfileParts) -> tuple[str, str, int]:
    assert parts.fields is not None
    return fields_key(rid, *parts.fields)


def _coauthor_stats(data: Loaders, parts: ProfileParts, profile: Profile) -> None:
    """The co-authors' metrics read with the folded page, under each co-author's id."""
    if parts.coauthors is not None and parts.coauthors.stats:
        for row in profile.coauthor_stats:
            data.researcher_stats.prime(row["id"], row)


ProfilePart = Part[ProfileParts, Profile]

PROFILE: tuple[ProfilePart, ...] = (
    Part("stats", flag("stats", *STATS_FIELDS), lambda d: d.researcher_stats, by_root_id, lambda p: p.stats, "hIndex"),
    Part(
        "positions",
        flag("positions", "authorPositions"),
        lambda d: d.author_positions,
        by_root_id,
        lambda p: p.positions,
        "authorPositions { first }",
    ),
    Part(
        "most_cited",
        flag("most_cited", "mostCitedPaper"),
        lambda d: d.most_cited_paper,
        by_root_id,
        lambda p: p.most_cited,
        "mostCitedPaper { title }",
    ),
    Part(
        "institutions",
        flag("institutions", "institutions"),
        lambda d: d.affiliations,
        by_root_id,
        lambda p: p.institutions,
        "institutions { firstYear }",
    ),
    Part(
        "same_name",
        flag("same_name", "sameName"),
        lambda d: d.same_name,
        by_root_id,
        lambda p: p.same_name,
        "sameName { evidence }",
    ),
    Part("fields", _fold_fields, lambda d: d.fields, _folded_fields_key, lambda p: p.fields, "fields { count }"),
    Part(
        "papers",
        _fold_papers,
        lambda d: d.researcher_papers,
        _folded_papers_key,
        lambda p: p.papers,
        "papers(first: 3) { totalCount edges { node { title } } }",
    ),
    Part(
        "coauthors",
        _fold_coauthors,
        lambda d: d.coauthors,
        _folded_coauthors_key,
        lambda p: p.coauthors,
        "coauthors(first: 3) { totalCount edges { node { weight researcher { name hIndex } } } }",
        _coauthor_stats,
    ),
)
"""The parts of a profile RESEARCHER_PROFILE reads with the researcher (schema/support/parts.py): the metrics,
authorPositions, mostCitedPaper, institutions, sameName, the first `fields`, the first `papers` without a
category, and the first `coauthors` (with its co-authors' metrics when asked)."""
