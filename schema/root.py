"""The root Query: each area's query class merged into one, and the executable schema."""

from __future__ import annotations

import strawberry
from graphql import GraphQLError
from strawberry.types import ExecutionContext

from weft.schema.roots.changes import ChangeQuery
from weft.schema.roots.institutions import InstitutionQuery
from weft.schema.roots.networks import NetworkQuery
from weft.schema.roots.papers import PaperQuery
from weft.schema.roots.programs import ProgramQuery
from weft.schema.roots.researchers import ResearcherQuery
from weft.schema.roots.search import SearchQuery
from weft.schema.roots.service import ServiceQuery
from weft.schema.support.errors import CodedErrors, log_errors
from weft.schema.support.execution import FlatListExecutor
from weft.schema.support.limits import PreparedDocuments


@strawberry.type(
    description="Papers, researchers, institutions, rankings, search, collaboration networks and the change log."
)
class Query(
    ServiceQuery, PaperQuery, ResearcherQuery, InstitutionQuery, SearchQuery, NetworkQuery, ChangeQuery, ProgramQuery
):
    """Each area's root fields, merged."""


class WeftSchema(strawberry.Schema):
    """Strawberry's schema, logging errors with the request id (before they are coded and masked)."""

    def process_errors(self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None) -> None:
        log_errors(errors, execution_context.context if execution_context else None)


def build_schema() -> WeftSchema:
    """The executable schema with its limits (checked before execution, once per query text) and coded errors."""
    prepared = PreparedDocuments()
    return WeftSchema(
        query=Query,
        extensions=[prepared.extension, CodedErrors],
        execution_context_class=FlatListExecutor,
    )


def export_sdl() -> str:
    """The SDL that `schema.graphql` must equal."""
    return build_schema().as_str() + "\n"
