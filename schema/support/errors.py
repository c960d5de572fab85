"""The API edge: graph.errors and GraphQL failures become coded errors; anything unexpected is masked."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from graphql import GraphQLError, GraphQLSyntaxError
from neo4j.exceptions import Neo4jError
from strawberry.extensions import SchemaExtension

from weft.graph.errors import InvalidInput, WeftError

log = logging.getLogger("weft.api")

# Messages of Strawberry's and graphql-core's limit errors, mapped to our codes.
_LIMIT_CODES = (
    ("exceeds maximum operation depth", "QUERY_TOO_DEEP"),
    ("aliases found. Allowed", "TOO_MANY_ALIASES"),
    ("tokens. Parsing aborted", "TOO_MANY_TOKENS"),
)


def request_id_of(context: object) -> str:
    """The request id a context carries ('-' when there is none)."""
    return str(getattr(context, "request_id", "-"))


def is_unexpected(error: GraphQLError) -> bool:
    """True for errors from bugs or unforeseen failures (to be logged in full and masked)."""
    original = error.original_error
    return original is not None and not isinstance(original, (WeftError, GraphQLError))


def coded(error: GraphQLError, request_id: str) -> GraphQLError:
    """The error clients see: a message fit for users and `extensions.code`."""
    original = error.original_error
    if isinstance(original, WeftError):
        extensions = {"code": original.code}
        if isinstance(original, InvalidInput) and original.argument:
            extensions["argument"] = original.argument
        return _with(error, _public_message(original), extensions)
    if is_unexpected(error):
        return _with(
            error,
            f"Internal server error (request {request_id}).",
            {"code": "INTERNAL_SERVER_ERROR", "requestId": request_id},
            keep_original=False,
        )
    if error.extensions and "code" in error.extensions:
        return error
    return _with(error, error.message, {"code": _code_of(error)})


def _public_message(error: WeftError) -> str:
    """The error's message, without the database's own words when Neo4j refused the input (they name Java
    classes, indexes and procedures: database internals, not something a client can act on)."""
    message = str(error)
    if isinstance(error, InvalidInput) and isinstance(error.__cause__, Neo4jError):
        what = message.split(": ", 1)[0]
        return f"{what}: the database could not use the given arguments"
    return message


def _code_of(error: GraphQLError) -> str:
    for fragment, code in _LIMIT_CODES:
        if fragment in error.message:
            return code
    if isinstance(error, GraphQLSyntaxError) or error.message.startswith("Syntax Error"):
        return "GRAPHQL_PARSE_FAILED"
    if error.message.startswith("Variable '$"):
        return "BAD_USER_INPUT"
    if error.path is None:
        return "GRAPHQL_VALIDATION_FAILED"
    return "INTERNAL_SERVER_ERROR"


def _with(error: GraphQLError, message: str, extensions: dict[str, Any], keep_original: bool = True) -> GraphQLError:
    return GraphQLError(
        message,
        nodes=error.nodes,
        source=error.source,
        positions=error.positions,
        path=error.path,
        original_error=error.original_error if keep_original else None,
        extensions={**(error.extensions or {}), **extensions},
    )


class CodedErrors(SchemaExtension):
    """Rewrites every error of a result into its coded, client-safe form (after Schema.process_errors logged it)."""

    def on_operation(self) -> Iterator[None]:
        yield
        result = self.execution_context.result
        if result is not None and result.errors:
            request_id = request_id_of(self.execution_context.context)
            result.errors = [coded(e, request_id) for e in result.errors]


def log_errors(errors: list[GraphQLError], context: object) -> None:
    """Unexpected errors logged with their traceback and the request id; expected ones at info level."""
    request_id = request_id_of(context)
    for error in errors:
        if is_unexpected(error):
            log.error("request %s: unexpected error at %s", request_id, error.path, exc_info=error.original_error)
        else:
            log.info("request %s: %s", request_id, error.message)
