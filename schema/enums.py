"""Enumerations used as sort orders and search scopes."""

from __future__ import annotations

from enum import Enum

import strawberry


@strawberry.enum(description="How a list of papers is ordered.")
class PaperSort(Enum):
    NEWEST = strawberry.enum_value("NEWEST", description="Latest publication date first.")
    OLDEST = strawberry.enum_value("OLDEST", description="Earliest publication date first.")
    MOST_CITED = strawberry.enum_value("MOST_CITED", description="Highest `citedByCount` first.")


@strawberry.enum(description="How a researcher's co-authors are ordered.")
class CoauthorSort(Enum):
    WEIGHT = strawberry.enum_value("WEIGHT", description="Most shared papers first.")
    RECENT = strawberry.enum_value("RECENT", description="Most recent shared year first, then weight.")


@strawberry.enum(description="What kinds of node a search or completion covers.")
class SearchType(Enum):
    PAPER = strawberry.enum_value("PAPER", description="Papers, by title and abstract.")
    RESEARCHER = strawberry.enum_value("RESEARCHER", description="Researchers, by name and alternative names.")
    INSTITUTION = strawberry.enum_value("INSTITUTION", description="Institutions, by name and alternative names.")
