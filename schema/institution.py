"""The Institution type: everything an institution page shows."""

from __future__ import annotations

from typing import Annotated, Any

import strawberry

from weft.schema.collaborating_institution import CollaboratingInstitution
from weft.schema.common import Connection, Identity, identities
from weft.schema.context import Info
from weft.schema.entity import Entity
from weft.schema.enums import PaperSort
from weft.schema.filters import category_ids
from weft.schema.paging import check_range, window
from weft.schema.paper import Paper
from weft.schema.roster_entry import RosterEntry


@strawberry.type(description="A university, company, hospital or other organisation researchers state on papers.")
class Institution(Entity):
    site_section = "institutions"
    name: str | None = strawberry.field(description="Display name.")
    ror: str | None = strawberry.field(description="ROR id, short form (`05dxps055`).")
    country: str | None = strawberry.field(description="ISO country code.")

    @classmethod
    def from_record(cls, props: dict[str, Any]) -> Institution:
        """From an Institution node's properties (an `i {.*}` map)."""
        return cls(
            props=props, id=props["id"], name=props.get("name"), ror=props.get("ror"), country=props.get("country")
        )

    def slug_text(self) -> str | None:
        return self.name

    @strawberry.field(description="Each source's id for this institution, with a link there.")
    def ids(self) -> list[Identity]:
        p = self.props
        return identities("Institution", [("ror", p.get("ror")), ("openalex", p.get("openalex_id"))])

    @strawberry.field(description="Kind of institution, e.g. `education`, `company`, `healthcare`.")
    def type(self) -> str | None:
        return self.props.get("type")

    @strawberry.field(description="City, where known.")
    def city(self) -> str | None:
        return self.props.get("city")

    @strawberry.field(description="Other names of the institution.")
    def alt_names(self) -> list[str]:
        return list(self.props.get("alt_names") or [])

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
        first: Annotated[int, strawberry.argument(description="Page size, at most 100.")] = 50,
        after: Annotated[str | None, strawberry.argument(description="Cursor of the item to continue after.")] = None,
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
        page = window(first, after, 50)
        ids = await self._family(info, include_children)
        found = await info.context.data.roster.load((ids, year_from, year_to, page.skip, page.limit))
        return Connection.build([RosterEntry.from_record(r) for r in found.rows], found.total, page)

    @strawberry.field(description="Papers with an author stating this institution.")
    async def papers(
        self,
        info: Info,
        first: Annotated[int, strawberry.argument(description="Page size, at most 100.")] = 24,
        after: Annotated[str | None, strawberry.argument(description="Cursor of the item to continue after.")] = None,
        sort: Annotated[PaperSort, strawberry.argument(description="Order of the papers.")] = PaperSort.NEWEST,
        category: Annotated[
            str | None, strawberry.argument(description="Only papers in this category (id, key or name).")
        ] = None,
        year_from: Annotated[int | None, strawberry.argument(description="Only papers from this year on.")] = None,
        year_to: Annotated[int | None, strawberry.argument(description="Only papers up to this year.")] = None,
        include_children: Annotated[
            bool, strawberry.argument(description="Include institutions part of this one.")
        ] = False,
    ) -> Connection[Paper]:
        page = window(first, after, 24)
        ids = await self._family(info, include_children)
        categories = await category_ids(info, category)
        key = (
            ids,
            tuple(categories) if categories is not None else None,
            year_from,
            year_to,
            sort.value,
            page.skip,
            page.limit,
        )
        found = await info.context.data.institution_papers.load(key)
        return Connection.build([Paper.from_record(r) for r in found.rows], found.total, page)

    @strawberry.field(description="This institution's most cited papers.")
    async def most_cited(
        self,
        info: Info,
        first: Annotated[int, strawberry.argument(description="How many, at most 100.")] = 10,
    ) -> list[Paper]:
        check_range("first", first, 0, 100)
        found = await info.context.data.institution_papers.load(((self.id,), None, None, None, "MOST_CITED", 0, first))
        return [Paper.from_record(r) for r in found.rows]

    @strawberry.field(
        description="Institutions whose researchers co-author with this one's, by summed co-authorship weight."
    )
    async def collaborators(
        self,
        info: Info,
        first: Annotated[int, strawberry.argument(description="Page size, at most 100.")] = 20,
        after: Annotated[str | None, strawberry.argument(description="Cursor of the item to continue after.")] = None,
    ) -> Connection[CollaboratingInstitution]:
        page = window(first, after, 20)
        found = await info.context.data.collaborators.load((self.id, page.skip, page.limit))
        return Connection.build([CollaboratingInstitution.from_record(r) for r in found.rows], found.total, page)
