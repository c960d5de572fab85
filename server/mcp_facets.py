"""The MCP `facets` tool's input (the filter of GraphQL's `PaperFilterInput`, snake_case) and how it becomes the
graph's paper filter: the same lookups GraphQL's `facets` makes, each unknown name a BAD_USER_INPUT error."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from weft.graph.errors import InvalidInput
from weft.graph.reads import institutions, papers, researchers
from weft.graph.reads.papers import PaperFilter
from weft.graph.reads.reader import GraphReader
from weft.graph.reads.search import KEYWORD_HITS, search_page

Dimension = Literal[
    "YEAR", "FIELD", "SUBFIELD", "TOPIC", "INSTITUTION", "COUNTRY", "VENUE", "TYPE", "LANGUAGE", "RESEARCHER"
]
"""What papers can be grouped by, as GraphQL's FacetDimension."""

SECTION = {"INSTITUTION": "institutions", "RESEARCHER": "researchers", "FIELD": "categories"}
SECTION.update(SUBFIELD="categories", TOPIC="categories")
"""The site section of the dimensions whose groups are entities (their keys internal ids)."""


class FacetFilter(BaseModel):
    """Which papers to count; every filter given must hold (GraphQL's PaperFilterInput)."""

    model_config = ConfigDict(extra="forbid")

    category: str | None = Field(default=None, description="Category id, key (`topic:T10181`, `field:17`) or name.")
    year_from: int | None = Field(default=None, description="Published in this year or later.")
    year_to: int | None = Field(default=None, description="Published in this year or earlier.")
    researcher: str | None = Field(default=None, description="Authored by this researcher (any id form).")
    institution: str | None = Field(
        default=None, description="An author stated this institution (any id form or name)."
    )
    include_children: bool = Field(
        default=False, description="With `institution`: also its descendants (ROR hierarchy)."
    )
    min_citations: Annotated[int | None, Field(ge=0, le=10**9, description="At least this many citations.")] = None
    country: str | None = Field(default=None, description="An author stated an institution in this country (ISO code).")
    type: str | None = Field(default=None, description="Work type, e.g. `article`, `preprint`.")
    venue: str | None = Field(default=None, description="Venue (journal, conference) name, exactly.")
    language: str | None = Field(default=None, description="Language code, e.g. `en`.")
    query: str | None = Field(
        default=None, description="Only the papers a search for these words finds (best 1,000 hits)."
    )
    mode: Literal["HYBRID", "KEYWORD", "SEMANTIC"] = Field(default="HYBRID", description="How `query` finds papers.")


async def paper_filter(reader: GraphReader, f: FacetFilter) -> PaperFilter:
    """The graph's paper filter for `f`, its names and ids looked up as GraphQL's `facets` looks them up."""
    categories = None
    if f.category is not None:
        found = await papers.category_lookups(reader, [f.category.strip()])
        categories = sorted(found.get(f.category.strip()) or [])
        if not categories:
            raise InvalidInput(f"`filter.category`: no category has the id, key or name {f.category!r}")
    researcher = None
    if f.researcher is not None:
        person = await researchers.find_researcher(reader, f.researcher)
        if person is None:
            raise InvalidInput(f"`filter.researcher`: no researcher answers to {f.researcher!r}")
        researcher = person["id"]
    places = None
    if f.institution is not None:
        place = await institutions.find_institution(reader, f.institution, argument="filter.institution")
        if place is None:
            raise InvalidInput(f"`filter.institution`: no institution answers to {f.institution!r}")
        places = await institutions.family(reader, place["id"], f.include_children)
    ids = None
    if f.query is not None:
        hits = await search_page(reader, f.query, ["PAPER"], 0, KEYWORD_HITS, mode=f.mode)
        ids = [h["node"]["id"] for h in hits.rows]
    return PaperFilter(
        researcher=researcher,
        institutions=places,
        categories=categories,
        year_from=f.year_from,
        year_to=f.year_to,
        min_citations=f.min_citations,
        ids=ids,
        country=f.country.strip().upper() if f.country is not None else None,
        venue=f.venue,
        type=f.type,
        language=f.language,
    )
