"""Query limits checked before any database work: depth, aliases, tokens and a cost budget.

The cost of a query is the number of objects it could return: every field costs 1, a field with a
`first` argument multiplies the cost of what it selects by `first` (its default when not a literal,
100 when a variable), other list fields by `LIST_FACTOR`
(a connection's `edges` excepted: its `first` already counts). Introspection fields are free.
A network field (one with a `limit` argument whose type has `nodes` and `edges`: researcherNetwork,
institutionNetwork) is charged by its real size: `limit × depth` for the researchers it expands, and its
`nodes` and `edges` lists count `limit` items each (`NETWORK_MAX_LIMIT` and `NETWORK_MAX_DEPTH` when
given as variables), so a request holds a few of the largest networks, not thirty (issue 11).

Parsing and validation (the limits included) depend on the query text alone, so `PreparedDocuments`
keeps each valid text's document (bounded LRU, one per process): a repeated query is parsed and
depth-, alias- and cost-checked once, not per request.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import Any, NamedTuple, cast

from graphql import (
    ArgumentNode,
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLInterfaceType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    ListValueNode,
    NameNode,
    Node,
    ObjectValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    StringValueNode,
    ValidationContext,
    ValidationRule,
    ValueNode,
    VariableNode,
    get_named_type,
)
from graphql.validation import ASTValidationRule
from strawberry.extensions import SchemaExtension, max_aliases, query_depth_limiter
from strawberry.schema.schema import validate_document

from weft.schema.support.paging import MAX_FIRST

MAX_DEPTH = 10
MAX_ALIASES = 30
MAX_TOKENS = 2000
MAX_COST = 50_000
LIST_FACTOR = 10
NETWORK_MAX_LIMIT = 1000
NETWORK_MAX_DEPTH = 3
# Tokens of valid documents a process keeps parsed (PreparedDocuments): about 20 MB at most.
PREPARED_TOKENS = 50_000
# Every string argument (ids, names, cursors, search text; literal or variable, inside input objects too) and
# list argument, checked on every request before any database work (issue 11: a 1 MB id cost 6-18 s).
MAX_ARGUMENT_CHARS = 512
MAX_ARGUMENT_WORDS = 32
MAX_ARGUMENT_ITEMS = 100


class Caps(NamedTuple):
    """How large one argument's value may be: characters and words per string, items per list."""

    chars: int = MAX_ARGUMENT_CHARS
    words: int = MAX_ARGUMENT_WORDS
    items: int = MAX_ARGUMENT_ITEMS


# Arguments of fields made for programs, allowed more than the caps above: `resolve` takes a bibliography's or
# a CRIS export's ids (graph/reads/resolve.py, MAX_IDS), `matchReferences` whole references (graph/reads/references.py).
ARGUMENT_CAPS: dict[tuple[str, str], Caps] = {
    ("resolve", "ids"): Caps(items=500),
    ("matchReferences", "texts"): Caps(chars=2000, words=400, items=25),
}


class CheckedArgument(NamedTuple):
    """An argument node whose value could be too large, and the caps of its field's argument."""

    node: ArgumentNode
    caps: Caps

    @property
    def name(self) -> NameNode:
        """The argument's name."""
        return self.node.name


def _unwrap(type_: Any) -> tuple[Any, bool]:
    """The named type and whether a list wraps it."""
    is_list = False
    while isinstance(type_, (GraphQLNonNull, GraphQLList)):
        is_list = is_list or isinstance(type_, GraphQLList)
        type_ = cast(Any, type_).of_type
    return type_, is_list


class QueryCost:
    """Computes the cost of an operation from the document and the schema (pure)."""

    def __init__(self, schema: GraphQLSchema, fragments: dict[str, FragmentDefinitionNode]) -> None:
        self.schema = schema
        self.fragments = fragments

    def of_operation(self, operation: OperationDefinitionNode) -> int:
        root = self.schema.get_root_type(operation.operation)
        return self._selection(operation.selection_set, root, set()) if root else 0

    def _selection(
        self, selection_set: SelectionSetNode | None, parent: Any, seen: set[str], items: int = LIST_FACTOR
    ) -> int:
        """The cost of a selection on `parent`, whose list fields count `items` each."""
        if selection_set is None:
            return 0
        total = 0
        for node in selection_set.selections:
            if isinstance(node, FieldNode):
                total += self._field(node, parent, seen, items)
            elif isinstance(node, InlineFragmentNode):
                cond = self.schema.get_type(node.type_condition.name.value) if node.type_condition else parent
                total += self._selection(node.selection_set, cond or parent, seen, items)
            elif isinstance(node, FragmentSpreadNode):
                name = node.name.value
                fragment = self.fragments.get(name)
                if fragment is None or name in seen:
                    continue
                cond = self.schema.get_type(fragment.type_condition.name.value)
                total += self._selection(fragment.selection_set, cond or parent, seen | {name}, items)
        return total

    def _field(self, node: FieldNode, parent: Any, seen: set[str], items: int = LIST_FACTOR) -> int:
        name = node.name.value
        if name.startswith("__"):
            return 0
        field_def = parent.fields.get(name) if isinstance(parent, (GraphQLObjectType, GraphQLInterfaceType)) else None
        if field_def is None:
            return 1 + self._selection(node.selection_set, get_named_type(parent), seen)
        child, is_list = _unwrap(field_def.type)
        if _is_network(field_def.args, child):
            limit = _int_argument(node, "limit", field_def.args["limit"].default_value, NETWORK_MAX_LIMIT)
            depth = _int_argument(node, "depth", 1, NETWORK_MAX_DEPTH) if "depth" in field_def.args else 1
            return 1 + limit * depth + self._selection(node.selection_set, child, seen, items=limit)
        factor = 1
        if name == "edges" and parent.name.endswith("Connection"):
            factor = 1  # the connection's `first` already multiplied
        elif parent.name in _FIRST_COUNTED:
            factor = 1  # `facets(first:)` already multiplied its groups (and its few dimensions)
        elif "first" in field_def.args:
            factor = self._first(node, field_def.args["first"].default_value)
        elif is_list:
            factor = items
        return 1 + factor * self._selection(node.selection_set, child, seen)

    @staticmethod
    def _first(node: FieldNode, default: Any) -> int:
        for arg in node.arguments or ():
            if arg.name.value == "first":
                if isinstance(arg.value, IntValueNode):
                    return max(int(arg.value.value), 1)
                return MAX_FIRST
        return default if isinstance(default, int) and default > 0 else MAX_FIRST


_FIRST_COUNTED = frozenset({"Facets", "Facet"})
"""Types whose lists the `first` of the field returning them counts: `facets` returns at most `first` groups per
dimension, of at most ten dimensions."""


def _is_network(args: dict[str, Any], child: Any) -> bool:
    fields = getattr(child, "fields", {})
    return "limit" in args and "nodes" in fields and "edges" in fields


def _int_argument(node: FieldNode, name: str, default: Any, unknown: int) -> int:
    """A literal int argument (at least 1), its default when absent, `unknown` when a variable gives it."""
    for arg in node.arguments or ():
        if arg.name.value == name:
            return max(int(arg.value.value), 1) if isinstance(arg.value, IntValueNode) else unknown
    return default if isinstance(default, int) and default > 0 else unknown


class CostLimitRule(ValidationRule):
    """Rejects operations whose cost exceeds MAX_COST, with code TOO_COMPLEX."""

    def __init__(self, context: ValidationContext) -> None:
        super().__init__(context)
        document = context.document
        fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
        cost = QueryCost(context.schema, fragments)
        for definition in document.definitions:
            if isinstance(definition, OperationDefinitionNode):
                spent = cost.of_operation(definition)
                if spent > MAX_COST:
                    context.report_error(
                        GraphQLError(
                            f"Query cost {spent} exceeds the budget of {MAX_COST}; "
                            "ask for fewer items (`first`) or less nesting.",
                            definition,
                            extensions={"code": "TOO_COMPLEX", "cost": spent, "budget": MAX_COST},
                        )
                    )


# Strawberry's depth and alias rules, built once (its limiter extensions build a new rule class per request).
DepthLimitRule = query_depth_limiter.create_validator(MAX_DEPTH, None)
AliasLimitRule = max_aliases.create_validator(MAX_ALIASES)
LIMIT_RULES: tuple[type[ASTValidationRule], ...] = (DepthLimitRule, AliasLimitRule, CostLimitRule)


class PreparedDocuments:
    """Documents that passed validation (every limit included), by query text: least recently used go first.

    Bounded by their tokens (a 2,000-token document holds about 0.8 MB). Only valid documents are kept,
    so refused texts are refused afresh each time and no error keeps a document alive. Each keeps the
    argument nodes `argument_errors` checks (found once per text, not per request).
    """

    def __init__(self, max_tokens: int = PREPARED_TOKENS) -> None:
        self.max_tokens = max_tokens
        self.tokens = 0
        self.documents: OrderedDict[str, tuple[DocumentNode, tuple[CheckedArgument, ...]]] = OrderedDict()

    def get(self, text: str) -> DocumentNode | None:
        entry = self.documents.get(text)
        if entry is None:
            return None
        self.documents.move_to_end(text)
        return entry[0]

    def arguments(self, text: str | None, document: DocumentNode) -> tuple[CheckedArgument, ...]:
        """The checked argument nodes of a document: kept with a prepared text, else found now."""
        entry = self.documents.get(text) if text is not None else None
        if entry is not None and entry[0] is document:
            return entry[1]
        return checked_arguments(document)

    def put(self, text: str, document: DocumentNode) -> None:
        if text in self.documents:
            return
        self.documents[text] = (document, checked_arguments(document))
        self.tokens += _tokens(document)
        while self.tokens > self.max_tokens and self.documents:
            self.tokens -= _tokens(self.documents.popitem(last=False)[1][0])

    def extension(self) -> SchemaExtension:
        """The per-request extension that applies the limits, reading and filling this cache."""
        return Limits(self)


def _tokens(document: DocumentNode) -> int:
    return max(getattr(document, "token_count", 0), 1)


class Limits(SchemaExtension):
    """Every limit (tokens while parsing; depth, aliases and cost while validating), each valid text checked once.

    Strawberry parses and validates only when the document or the errors are still unset: a known valid
    text gets its document before parsing and no errors before validating, so both steps are skipped.
    """

    def __init__(self, prepared: PreparedDocuments) -> None:
        self.prepared = prepared
        self.known_valid = False

    def on_operation(self) -> Iterator[None]:
        context = self.execution_context
        context.parse_options["max_tokens"] = MAX_TOKENS
        context.validation_rules = (*context.validation_rules, *LIMIT_RULES)
        yield

    def on_parse(self) -> Iterator[None]:
        context = self.execution_context
        if context.query is not None and context.graphql_document is None:
            document = self.prepared.get(context.query)
            if document is not None:
                context.graphql_document = document
                self.known_valid = True
        yield

    def on_validate(self) -> Iterator[None]:
        """Validate here (Strawberry then skips its own step), so the argument caps are part of validation:
        errors set after Strawberry's step would come too late to stop the execution."""
        context = self.execution_context
        document = context.graphql_document
        if document is not None and context.pre_execution_errors is None:
            errors: list[GraphQLError] = []
            if not self.known_valid:
                core: GraphQLSchema = context.schema._schema  # noqa: SLF001  # pyright: ignore[reportPrivateUsage]
                errors = validate_document(core, document, context.validation_rules)
                if not errors and context.query is not None:
                    self.prepared.put(context.query, document)
            if not errors:
                arguments = self.prepared.arguments(context.query, document)
                errors = argument_errors(arguments, context.variables or {}) if arguments else []
            context.pre_execution_errors = errors
        yield


def checked_arguments(document: DocumentNode) -> tuple[CheckedArgument, ...]:
    """The argument nodes whose value could be too large: strings, lists, input objects and variables
    (numbers, booleans and enums never are), each with its caps."""
    return tuple(
        CheckedArgument(node, ARGUMENT_CAPS.get((field, node.name.value), _DEFAULT_CAPS))
        for field, node in _argument_nodes(document, "")
        if isinstance(node.value, _SIZED_VALUES)
    )


def argument_errors(
    arguments: DocumentNode | tuple[CheckedArgument, ...], variables: dict[str, Any]
) -> list[GraphQLError]:
    """BAD_USER_INPUT errors for argument values past the caps (MAX_ARGUMENT_CHARS, _WORDS, _ITEMS), literal
    or given as variables; the first one found per argument. Takes a document or its `checked_arguments`."""
    nodes = checked_arguments(arguments) if isinstance(arguments, DocumentNode) else arguments
    errors: list[GraphQLError] = []
    for node, caps in nodes:
        problem = _oversized(_value_of(node.value, variables), caps)
        if problem:
            errors.append(
                GraphQLError(
                    f"`{node.name.value}` is too long: {problem}",
                    node,
                    extensions={"code": "BAD_USER_INPUT", "argument": node.name.value},
                )
            )
    return errors


_SIZED_VALUES = (StringValueNode, ListValueNode, ObjectValueNode, VariableNode)


def _argument_nodes(node: Any, field: str) -> Iterator[tuple[str, ArgumentNode]]:
    """Every argument node of every field and directive of a document (fragments included), with the name of
    the field it belongs to."""
    if isinstance(node, ArgumentNode):
        yield field, node
        return
    if isinstance(node, FieldNode):
        field = node.name.value
    for key in getattr(node, "keys", ()):
        if key in ("loc", "value"):
            continue
        child = getattr(node, key, None)
        if isinstance(child, (list, tuple)):
            items: list[Any] = list(cast(Any, child))
            for item in items:
                if isinstance(item, Node):
                    yield from _argument_nodes(item, field)
        elif isinstance(child, Node):
            yield from _argument_nodes(child, field)


def _value_of(value: ValueNode, variables: dict[str, Any]) -> Any:
    """The plain value of an argument: literals as they are written, variables from the request."""
    if isinstance(value, VariableNode):
        return variables.get(value.name.value)
    if isinstance(value, ListValueNode):
        return [_value_of(v, variables) for v in value.values]
    if isinstance(value, ObjectValueNode):
        return {f.name.value: _value_of(f.value, variables) for f in value.fields}
    if isinstance(value, StringValueNode):
        return value.value
    return None


_DEFAULT_CAPS = Caps()


def _oversized(value: Any, caps: Caps = _DEFAULT_CAPS) -> str | None:
    """What makes a value too large, or None. Walked with a stack, not recursion: a variable nested a
    thousand levels deep (the request's JSON allows 1,024) is measured like any other."""
    pending = [value]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            if len(value) > caps.chars or len(value.split()) > caps.words:
                return f"at most {caps.chars} characters and {caps.words} words"
        elif isinstance(value, list):
            values: list[Any] = cast(Any, value)
            if len(values) > caps.items:
                return f"at most {caps.items} items"
            pending.extend(reversed(values))
        elif isinstance(value, dict):
            fields: dict[str, Any] = cast(Any, value)
            pending.extend(reversed(fields.values()))
    return None
