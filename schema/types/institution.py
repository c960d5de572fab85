"""The Institution type: everything an institution page shows, and `INSTITUTION_PAGE`, the parts of it that
`institution(id:)` reads with the institution in one INSTITUTION_DETAILS query (schema/support/parts.py).
"""

from __future__ import annotations

from typing import Annotated, Any

import strawberry

from weft.graph.errors import InvalidInput
from weft.graph.identity.ids import KEY_PROPERTIES
from weft.graph.reads import facets
from weft.graph.reads.institutions import (
    CollaboratorKey,
    InstitutionDetails,
    InstitutionPageKey,
    InstitutionParts,
    RosterKey,
    RosterPart,
    roster_pages,
)
from weft.graph.reads.page import Props
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
from weft.schema.support.enums import PaperSort
from weft.schema.support.filters import category_ids
from weft.schema.support.paging import Window, check_range, window
from weft.schema.support.parts import Part, by_root_id, flag
from weft.schema.support.prefetch import AskedField, Selection, covers, node_props
from weft.schema.support.values import Identity
from weft.schema.types.collaborating_institution import CollaboratingInstitution
from weft.schema.types.entity import resolve_ids
from weft.schema.types.facet import CountsByYear
from weft.schema.types.named_entity import NamedEntity, resolve_alt_names
from weft.schema.types.refs import PaperRef
from weft.schema.types.researcher import RESEARCHER_READS
from weft.schema.types.roster_entry import RosterEntry


@strawberry.type(description="A university, company, hospital or other organisation researchers state on papers.")
class Institution(NamedEntity):
    label = "Institution"
    site_section = "institutions"
    id_props = KEY_PROPERTIES["Institution"]
    ror: str | None = strawberry.field(description="ROR id, short form (`05dxps055`).")
    country: str | None = strawberry.field(description="ISO country code.")
    ids: list[Identity] = strawberry.field(
        resolver=resolve_ids, description="Each source's id for this institution, with a link there."
    )
    alt_names: list[str] = strawberry.field(resolver=resolve_alt_names, description="Other names of the institution.")

    @classmethod
    def from_record(cls, props: dict[str, Any]) -> Institution:
        """From an Institution node's properties (an `i {.*}` map)."""
        return cls(
            props=props, id=props["id"], name=props.get("name"), ror=props.get("ror"), country=props.get("country")
        )

    @strawberry.field(description="Kind of institution, e.g. `education`, `company`, `healthcare`.")
    def type(self) -> str | None:
        return self.props.get("type")

    @strawberry.field(description="City, where known.")
    def city(self) -> str | None:
        return self.props.get("city")

    @strawberry.field(description="Acronyms of the institution.")
    def acronyms(self) -> list[str]:
        return list(self.props.get("acronyms") or [])

    @strawberry.field(description="Works count OpenAlex reports for the whole institution.")
    def works_count(self) -> int | None:
        return self.props.get("works_count_openalex")

    async def _family(self, info: Info, include_children: bool) -> tuple[str, ...]:
        """This institution's id, plus its PART_OF descendants' when `include_children`."""
        if not include_children:
            return (self.id,)
        return tuple(await info.context.data.family.load((self.id, True)) or [self.id])

    @strawberry.field(description="The institutions this one is part of (ROR hierarchy).")
    async def parent(self, info: Info) -> Institution | None:
        parents = await info.context.data.parents.load(self.id)
        return Institution.from_record(parents[0]) if parents else None

    @strawberry.field(description="Every institution this one is directly part of.")
    async def parents(self, info: Info) -> list[Institution]:
        return [Institution.from_record(p) for p in await info.context.data.parents.load(self.id)]

    @strawberry.field(description="Institutions directly part of this one.")
    async def children(self, info: Info) -> list[Institution]:
        return [Institution.from_record(c) for c in await info.context.data.children.load(self.id)]

    @strawberry.field(description="Researchers affiliated here with their paper counts and years, most papers first.")
    async def roster(
        self,
        info: Info,
        first: First = 50,
        after: After = None,
        year_from: Annotated[
            int | None, strawberry.argument(description="Only affiliations (and papers) from this year on.")
        ] = None,
        year_to: Annotated[
            int | None, strawberry.argument(description="Only affiliations (and papers) up to this year.")
        ] = None,
        include_children: Annotated[
            bool, strawberry.argument(description="Roll up institutions that are part of this one.")
        ] = False,
    ) -> Connection[RosterEntry]:
        page = window(first, after)
        ids = await self._family(info, include_children)
        key = roster_key(ids, year_from, year_to, page)
        found = await info.context.data.roster.load(key)
        if not covers(found.props, info, roster_props):
            found = (await roster_pages(info.context.reader, [key]))[key]
        return connection(found, page, RosterEntry.from_record)

    @strawberry.field(
        description="Works (papers with an author stating it) and citations received per year; citations from the "
        "OpenAlex record's `counts_by_year` where it has one (not with children), else counted from citations in "
        "the graph (`citationSource`)."
    )
    async def counts_by_year(
        self,
        info: Info,
        include_children: Annotated[
            bool, strawberry.argument(description="Include institutions part of this one.")
        ] = False,
    ) -> CountsByYear:
        ids = list(await self._family(info, include_children))
        return CountsByYear.of(await facets.counts_by_year(info.context.reader, "institution", ids))

    @strawberry.field(description="Papers with an author stating this institution.")
    async def papers(
        self,
        info: Info,
        first: First = 24,
        after: After = None,
        sort: PaperSortArg = PaperSort.NEWEST,
        category: CategoryArg = None,
        year_from: YearFromArg = None,
        year_to: YearToArg = None,
        include_children: Annotated[
            bool, strawberry.argument(description="Include institutions part of this one.")
        ] = False,
    ) -> Connection[PaperRef]:
        from weft.schema.types.paper import Paper

        page = window(first, after)
        ids = await self._family(info, include_children)
        categories = await category_ids(info, category)
        key = (
            ids,
            tuple(categories) if categories is not None else None,
            year_from,
            year_to,
            sort.name,
            page.skip,
            page.limit,
        )
        found = await info.context.data.institution_papers.load(key)
        return connection(found, page, Paper.from_record)

    @strawberry.field(description="This institution's most cited papers.")
    async def most_cited(
        self,
        info: Info,
        first: Annotated[int, strawberry.argument(description="How many, at most 100.")] = 10,
    ) -> list[PaperRef]:
        from weft.schema.types.paper import Paper

        check_range("first", first, 0, 100)
        found = await info.context.data.institution_papers.load(most_cited_key(self.id, first))
        return [Paper.from_record(r) for r in found.rows]

    @strawberry.field(
        description="Institutions this one co-publishes with: those stated on papers that also state this "
        "one (by any of their authors), most shared papers first."
    )
    async def collaborators(
        self,
        info: Info,
        first: First = 20,
        after: After = None,
    ) -> Connection[CollaboratingInstitution]:
        page = window(first, after)
        counted = _counts_researchers(Selection.of(info))
        found = await info.context.data.collaborators.load(collaborators_key(self.id, page, counted))
        return connection(found, page, CollaboratingInstitution.from_record)


def _counts_researchers(collaborators: Selection) -> bool:
    """Whether a `collaborators` selection asks each row's `researchers` (part of its DataLoader key)."""
    return collaborators.at("edges", "node").asks("researchers")


def _window(asked: AskedField) -> Window | None:
    """The page a connection field asks for, or None when its `first`/`after` are invalid (not folded)."""
    try:
        return window(asked.args["first"], asked.args["after"])
    except InvalidInput:
        return None


def roster_props(sel: Selection, *via: str) -> Props:
    """The properties the researchers of a `roster` connection read (`sel`: what the field asks, or, with
    `via`, what asks it along that path, through every alias)."""
    return node_props(sel.every(*via, "edges", "node", "researcher"), RESEARCHER_READS)


def roster_key(ids: tuple[str, ...], year_from: int | None, year_to: int | None, page: Window) -> RosterKey:
    """The `roster` DataLoader key of one `roster` page (`ids`: the institution and, rolled up, its family)."""
    return (ids, year_from, year_to, page.skip, page.limit)


def most_cited_key(iid: str, first: int) -> InstitutionPageKey:
    """The `institution_papers` DataLoader key of a `mostCited` list."""
    return ((iid,), None, None, None, "MOST_CITED", 0, first)


def collaborators_key(iid: str, page: Window, counted: bool) -> CollaboratorKey:
    """The `collaborators` DataLoader key of one `collaborators` page (`counted`: with each row's researchers)."""
    return (iid, page.skip, page.limit, counted)


def _fold_roster(sel: Selection) -> dict[str, Any] | None:
    """The first `roster` without `includeChildren` (the properties its researchers are asked)."""
    roster = sel.first("roster")
    page = _window(roster) if roster is not None and not roster.args["includeChildren"] else None
    if roster is None or page is None:
        return None
    args = roster.args
    return {"roster": RosterPart(args["yearFrom"], args["yearTo"], page.skip, page.limit, roster_props(sel, "roster"))}


def _fold_most_cited(sel: Selection) -> dict[str, Any] | None:
    most_cited = sel.first("mostCited")
    first = most_cited.args["first"] if most_cited is not None else None
    return {"most_cited": first} if first is not None and 0 <= first <= 100 else None


def _fold_collaborators(sel: Selection) -> dict[str, Any] | None:
    collaborators = sel.first("collaborators")
    page = _window(collaborators) if collaborators is not None else None
    if collaborators is None or page is None:
        return None
    return {"collaborators": (page.skip, page.limit, _counts_researchers(collaborators.selection))}


def _folded_roster_key(iid: str, parts: InstitutionParts) -> RosterKey:
    r = parts.roster
    assert r is not None
    return roster_key((iid,), r.year_from, r.year_to, Window(r.skip, r.limit))


def _folded_most_cited_key(iid: str, parts: InstitutionParts) -> InstitutionPageKey:
    assert parts.most_cited is not None
    return most_cited_key(iid, parts.most_cited)


def _folded_collaborators_key(iid: str, parts: InstitutionParts) -> CollaboratorKey:
    assert parts.collaborators is not None
    skip, limit, counted = parts.collaborators
    return collaborators_key(iid, Window(skip, limit), counted)


INSTITUTION_PAGE: tuple[Part[InstitutionParts, InstitutionDetails], ...] = (
    Part(
        "parents",
        flag("parents", "parent", "parents"),
        lambda d: d.parents,
        by_root_id,
        lambda i: i.parents,
        "parents { name }",
    ),
    Part(
        "children",
        flag("children", "children"),
        lambda d: d.children,
        by_root_id,
        lambda i: i.children,
        "children { name }",
    ),
    Part(
        "roster",
        _fold_roster,
        lambda d: d.roster,
        _folded_roster_key,
        lambda i: i.roster,
        "roster(first: 3) { totalCount edges { node { paperCount researcher { name } } } }",
    ),
    Part(
        "most_cited",
        _fold_most_cited,
        lambda d: d.institution_papers,
        _folded_most_cited_key,
        lambda i: i.most_cited,
        "mostCited(first: 3) { title }",
    ),
    Part(
        "collaborators",
        _fold_collaborators,
        lambda d: d.collaborators,
        _folded_collaborators_key,
        lambda i: i.collaborators,
        "collaborators(first: 3) { totalCount edges { node { weight researchers institution { name } } } }",
    ),
)
"""The parts of an institution page INSTITUTION_DETAILS reads with the institution (schema/support/parts.py):
parents, children, the first `roster` (without `includeChildren`), `mostCited` and `collaborators`. A field
whose arguments are invalid is left to its resolver, which reports them."""
