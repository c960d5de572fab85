"""The root Query: each area's query class merged into one, and the executable schema."""

from __future__ import annotations

import strawberry
from strawberry.tools import merge_types

from schema.network_query import NetworkQuery
from schema.paper_query import PaperQuery

Query = merge_types("Query", (PaperQuery, NetworkQuery))


def build_schema() -> strawberry.Schema:
    """The executable schema with its validation rules and extensions."""
    return strawberry.Schema(query=Query)


def export_sdl() -> str:
    """The SDL that `schema.graphql` must equal."""
    return build_schema().as_str() + "\n"
