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


@strawberry.enum(description="What kind of node a logged change is about.")
class ChangeEntity(Enum):
    PAPER = strawberry.enum_value("PAPER", description="A paper (an OpenAlex work).")
    RESEARCHER = strawberry.enum_value("RESEARCHER", description="A researcher (an OpenAlex author).")
    INSTITUTION = strawberry.enum_value("INSTITUTION", description="An institution.")


@strawberry.enum(description="What a sync did to a node.")
class ChangeKind(Enum):
    NEW = strawberry.enum_value("NEW", description="The source sent a record the graph did not hold.")
    UPDATED = strawberry.enum_value("UPDATED", description="The source's newer record replaced what it said.")
    MERGED = strawberry.enum_value("MERGED", description="The source merged the id into another (`into`).")
    DELETED = strawberry.enum_value(
        "DELETED", description="The source withdrew the record: what only it stated is gone."
    )
