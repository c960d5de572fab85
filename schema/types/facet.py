"""Facets: papers under a filter grouped by a dimension (FacetDimension), each group with its count."""

from __future__ import annotations

from enum import Enum

import strawberry

from weft.graph.identity.lookup import with_words
from weft.graph.reads import facets


@strawberry.enum(description="What `facets` groups papers by.")
class FacetDimension(Enum):
    YEAR = strawberry.enum_value("YEAR", description="Publication year.")
    FIELD = strawberry.enum_value("FIELD", description="OpenAlex field (category scheme `field`).")
    SUBFIELD = strawberry.enum_value("SUBFIELD", description="OpenAlex subfield (category scheme `subfield`).")
    TOPIC = strawberry.enum_value("TOPIC", description="OpenAlex topic (category scheme `topic`).")
    INSTITUTION = strawberry.enum_value("INSTITUTION", description="An institution an author stated.")
    COUNTRY = strawberry.enum_value(
        "COUNTRY", description="The country of an institution an author stated (key: ISO code; name: English name)."
    )
    VENUE = strawberry.enum_value("VENUE", description="Venue (journal, conference, repository) name.")
    TYPE = strawberry.enum_value("TYPE", description="Work type (`article`, `preprint`, ...).")
    LANGUAGE = strawberry.enum_value("LANGUAGE", description="Language (key: ISO 639-1 code; name: English name).")
    RESEARCHER = strawberry.enum_value("RESEARCHER", description="An author (top authors).")


@strawberry.enum(description="How the groups of a facet are ordered.")
class FacetOrder(Enum):
    COUNT = strawberry.enum_value("COUNT", description="Most papers first, then by key.")
    KEY = strawberry.enum_value("KEY", description="By key, ascending (years oldest first).")


_SECTION = {"INSTITUTION": "institutions", "RESEARCHER": "researchers", "FIELD": "categories"}
_SECTION.update(SUBFIELD="categories", TOPIC="categories")


@strawberry.type(description="One group of a facet: the papers sharing one value of the dimension.")
class FacetGroup:
    key: str | None = strawberry.field(
        description="The value: a year, an internal id (institution, researcher, category), a country or language "
        "code, a type or venue name; null for the papers without one (`Facet.unknown`)."
    )
    name: str | None = strawberry.field(
        description="Display name: the entity's, a country's or language's English name, else the key itself."
    )
    count: int = strawberry.field(description="Papers in the group (each paper once).")
    citation_sum: int = strawberry.field(description="The sum of the group's papers' `citedByCount` (0 when unknown).")
    url: str | None = strawberry.field(
        description="The entity's path on the site (institutions, researchers, categories); null for other values."
    )

    @classmethod
    def of(cls, dimension: str, group: facets.Group) -> FacetGroup:
        section = _SECTION.get(dimension)
        url = f"/{section}/{with_words(group.key, group.name)}" if section and group.key else None
        return cls(key=group.key, name=group.name, count=group.count, citation_sum=group.citations, url=url)


@strawberry.type(description="Papers grouped by one dimension.")
class Facet:
    dimension: FacetDimension = strawberry.field(description="What the papers are grouped by.")
    groups: list[FacetGroup] = strawberry.field(description="The first groups asked for, in the order asked.")
    group_count: int = strawberry.field(description="How many groups there are in all (before `first`).")
    unknown: FacetGroup = strawberry.field(
        description="The papers with no value for the dimension (no year, no institution, ...); key null."
    )

    @classmethod
    def of(cls, found: facets.Facet) -> Facet:
        dimension = found.dimension.upper()
        return cls(
            dimension=FacetDimension[dimension],
            groups=[FacetGroup.of(dimension, g) for g in found.groups],
            group_count=found.distinct,
            unknown=FacetGroup.of(dimension, found.unknown),
        )


@strawberry.type(description="Counts of the papers matching a filter, grouped by each dimension asked for.")
class Facets:
    total_count: int = strawberry.field(description="How many papers match the filter.")
    facets: list[Facet] = strawberry.field(description="One facet per dimension asked for, in the order asked.")

    @classmethod
    def of(cls, found: facets.Facets) -> Facets:
        return cls(total_count=found.total, facets=[Facet.of(f) for f in found.facets])


@strawberry.enum(description="Where the per-year citations of a trend come from.")
class CitationSource(Enum):
    OPENALEX = strawberry.enum_value("OPENALEX", description="The OpenAlex record's own `counts_by_year`.")
    CITES = strawberry.enum_value("CITES", description="Counted from the graph's citations between loaded papers.")


@strawberry.type(description="One year of a trend.")
class YearCount:
    year: int = strawberry.field(description="The year.")
    works: int = strawberry.field(description="Papers published that year.")
    citations: int = strawberry.field(description="Citations received that year (see `citationSource`).")


@strawberry.type(description="Works and citations received, per year, oldest first.")
class CountsByYear:
    years: list[YearCount] = strawberry.field(description="The years with works or citations, ascending.")
    citation_source: CitationSource = strawberry.field(description="Where `citations` come from.")

    @classmethod
    def of(cls, trend: facets.Trend) -> CountsByYear:
        return cls(
            years=[YearCount(year=y.year, works=y.works, citations=y.citations) for y in trend.years],
            citation_source=CitationSource[trend.citation_source.upper()],
        )
