"""Counts: papers under a filter grouped by dimensions (facets), and works and citations per year (trends)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from weft.graph.reads.code_names import country_name, language_name
from weft.graph.reads.papers import PaperFilter, filter_params
from weft.graph.reads.reader import GraphReader
from weft.queries import read_facets as q

DIMENSIONS = q.DIMENSIONS
"""What papers can be grouped by: year, venue, type, language, field, subfield, topic, institution, country,
researcher."""


@dataclass(frozen=True)
class Group:
    """One group of a facet: its key (None for the unknown bucket), display name, papers and their citations."""

    key: str | None
    name: str | None
    count: int
    citations: int


@dataclass(frozen=True)
class Facet:
    """One dimension's groups (the first asked for, in the order asked), how many groups there are in all,
    and the papers with no value for it."""

    dimension: str
    groups: list[Group]
    distinct: int
    unknown: Group


@dataclass(frozen=True)
class Facets:
    """The facets asked for, and how many papers match the filter."""

    total: int
    facets: list[Facet] = field(default_factory=lambda: [])


_NAMED_CODES = {"country": country_name, "language": language_name}
"""Dimensions whose keys are ISO codes, and the display name of each."""


def _facet(dimension: str, raw: dict[str, Any]) -> Facet:
    named = _NAMED_CODES.get(dimension)
    groups = [
        Group(g["key"], named(g["key"]) if named else g["name"], g["count"], g["citations"]) for g in raw["groups"]
    ]
    unknown = raw["unknown"]
    return Facet(dimension, groups, raw["distinct"], Group(None, None, unknown["count"], unknown["citations"]))


async def facets(
    reader: GraphReader, where: PaperFilter, dimensions: list[str], order: str = "COUNT", first: int = 10
) -> Facets:
    """The papers matching `where` grouped by each of `dimensions` (in that order), `first` groups each, most
    papers first (`order` COUNT) or by key (KEY): one Cypher statement for all of them."""
    params = {
        **filter_params(where),
        "want": {d: d in dimensions for d in DIMENSIONS},
        "order": order,
        "first": first,
    }
    row = await reader.one(q.FACETS, params, "counting facets", values_only=True)
    if row is None:
        return Facets(0, [])
    return Facets(row["total"], [_facet(d, row[d]) for d in dict.fromkeys(dimensions)])


@dataclass(frozen=True)
class YearCount:
    """One year of a trend: works published that year, citations received that year."""

    year: int
    works: int
    citations: int


@dataclass(frozen=True)
class Trend:
    """Works and citations per year, and where the citations come from: `openalex` (the record's
    `counts_by_year`) or `cites` (counted from the graph's CITES edges)."""

    years: list[YearCount]
    citation_source: str


async def counts_by_year(reader: GraphReader, anchor: str, ids: list[str]) -> Trend:
    """Works per year of a researcher's, institutions' (`ids`: an institution and any children) or category's
    papers, and citations they received per year: the OpenAlex record's own where it states them (researchers
    and institutions with one id), else counted from CITES."""
    params = {"anchor": anchor, "id": ids[0], "ids": ids}
    row = await reader.one(q.COUNTS_BY_YEAR, params, "counting per year", values_only=True)
    works = {w["year"]: w["works"] for w in row["works"]} if row else {}
    cited = {c["year"]: c["cited"] for c in row["cited"]} if row else {}
    source = "cites"
    if row and row["stated_years"]:
        cited = dict(zip(row["stated_years"], row["stated_counts"], strict=True))
        source = "openalex"
    years = sorted({*works, *cited})
    return Trend([YearCount(y, works.get(y, 0), cited.get(y, 0)) for y in years], source)
