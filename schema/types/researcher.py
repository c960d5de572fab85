"""The Researcher type: everything a researcher's profile page shows."""

from __future__ import annotations

from typing import Annotated, Any

import strawberry

from weft.schema.context import Info
from weft.schema.support.connection import After, Connection, First, connection
from weft.schema.support.enums import CoauthorSort, PaperSort
from weft.schema.support.filters import category_ids
from weft.schema.support.paging import check_range, window
from weft.schema.support.values import Identity, SourceCount, source_counts
from weft.schema.types.affiliation import Affiliation
from weft.schema.types.author_positions import AuthorPositions
from weft.schema.types.category import Category
from weft.schema.types.category_count import CategoryCount
from weft.schema.types.coauthor import Coauthor
from weft.schema.types.entity import resolve_ids
from weft.schema.types.named_entity import NamedEntity, resolve_alt_names
from weft.schema.types.refs import PaperRef
from weft.schema.types.same_name_researcher import SameNameResearcher


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
        rows = await info.context.data.fields.load((self.id, scheme, first))
        return [CategoryCount(category=Category.from_record(r["category"]), count=r["count"]) for r in rows]

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
        sort: Annotated[PaperSort, strawberry.argument(description="Order of the papers.")] = PaperSort.NEWEST,
        category: Annotated[
            str | None, strawberry.argument(description="Only papers in this category (id, key or name).")
        ] = None,
        year_from: Annotated[int | None, strawberry.argument(description="Only papers from this year on.")] = None,
        year_to: Annotated[int | None, strawberry.argument(description="Only papers up to this year.")] = None,
    ) -> Connection[PaperRef]:
        from weft.schema.types.paper import Paper

        page = window(first, after)
        categories = await category_ids(info, category)
        key = (
            self.id,
            tuple(categories) if categories is not None else None,
            year_from,
            year_to,
            sort.name,
            page.skip,
            page.limit,
        )
        found = await info.context.data.researcher_papers.load(key)
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
        found = await info.context.data.coauthors.load((self.id, min_weight, sort.name, page.skip, page.limit))
        return connection(found, page, Coauthor.from_record)
