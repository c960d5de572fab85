"""Enumerations: sort orders, search scopes and how a network limit ranks researchers.

Each member's name is its GraphQL name and the word the graph reads take: resolvers pass `.name`
(a `str` to type checkers, where `.value` is Strawberry's value definition).
"""

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


@strawberry.enum(description="How `limit` chooses which researchers to keep (nearer rings always first).")
class RankBy(Enum):
    WEIGHT = strawberry.enum_value(
        "WEIGHT", description="Shared papers with the researchers one hop nearer the centre."
    )
    PAPERS = strawberry.enum_value("PAPERS", description="Paper count.")
    CENTRALITY = strawberry.enum_value(
        "CENTRALITY", description="Number of co-authors in the whole graph (a centrality the database can rank by)."
    )
