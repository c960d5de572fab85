"""Completing lists of plain data in one pass: graphql-core's executor with a fast path for flat subtrees.

Issue 9: a network of 200 researchers has ~15,000 ties; graphql-core completes each field of each tie
on its own (resolve info, resolver call, awaitable check, leaf coercion, ~10 µs a field), so serving a
cached network cost ~350 ms of which the data was 10. Most lists Weft returns are *plain data*: objects
whose selected fields are Strawberry's basic fields (an attribute, no resolver, no arguments) holding
scalars, enums, or further plain objects and lists. For those the executor below compiles the
selection once per request into a `_Plan` and builds the response rows directly.

The same plans complete a plain field of any object (issue 53): a profile's `name`, `paperCount` or
`mostCitedPaper { title }` is read and coerced directly, without the resolve info, resolver call,
awaitable checks and leaf completion graphql-core spends on each (a request's fixed cost is mostly such
fields; a list's plain items were already done in one pass).

The fast path changes no answer: anything it does not expect (a resolver, an argument, an abstract
type, `@defer`/`@stream`, a middleware, a null in a non-null field, a value its scalar would refuse)
sends that whole list down graphql-core's ordinary path, which then produces the value or the error
exactly as before; tests set `FLAT_LISTS` to False to compare both paths.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from graphql import (
    BREAK,
    FragmentDefinitionNode,
    GraphQLBoolean,
    GraphQLFloat,
    GraphQLID,
    GraphQLInt,
    GraphQLLeafType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLString,
    Node,
    OperationDefinitionNode,
    Visitor,
    is_leaf_type,
    visit,
)
from graphql.execution.collect_fields import FieldDetailsList
from graphql.pyutils import Path
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

FLAT_LISTS = True
"""Whether lists of plain data take the one-pass path (tests set it False: graphql-core completes every field)."""

_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1


_MISSING = object()
"""An attribute the source does not have: graphql-core's path reports it."""


class Refused(Exception):
    """A value the fast path will not complete: the list goes down graphql-core's path instead."""


def _int(value: Any) -> Any:
    if type(value) is int and _INT_MIN <= value <= _INT_MAX:
        return value
    raise Refused


def _float(value: Any) -> Any:
    if type(value) is float and math.isfinite(value):
        return value
    if type(value) is int and abs(value) < 2**53:
        return float(value)
    raise Refused


def _str(value: Any) -> Any:
    if type(value) is str:
        return value
    raise Refused


def _id(value: Any) -> Any:
    if type(value) is str:
        return value
    if type(value) is int:
        return str(value)
    raise Refused


def _bool(value: Any) -> Any:
    if type(value) is bool:
        return value
    raise Refused


_BUILT_IN: dict[str, Callable[[Any], Any]] = {
    GraphQLInt.name: _int,
    GraphQLFloat.name: _float,
    GraphQLString.name: _str,
    GraphQLID.name: _id,
    GraphQLBoolean.name: _bool,
}
_STANDARD = (GraphQLInt, GraphQLFloat, GraphQLString, GraphQLID, GraphQLBoolean)


def leaf_coercion(leaf: GraphQLLeafType) -> Callable[[Any], Any]:
    """The strict coercion of a leaf type: built-in scalars exact, others through their `serialize`."""
    built_in = _BUILT_IN.get(leaf.name)
    if built_in is not None and leaf in _STANDARD:
        return built_in

    def serialize(value: Any) -> Any:
        if value is None:
            raise Refused
        try:
            out = leaf.serialize(value)
        except Exception as exc:  # the ordinary path reports it as a field error
            raise Refused from exc
        if out is None:
            raise Refused
        return out

    return serialize


@dataclass(frozen=True)
class _Field:
    """One selected field of a plain object: response key, attribute and how to complete its value."""

    key: str
    attribute: str | None  # None: `__typename`
    non_null: bool
    complete: Callable[[Any], Any]


@dataclass(frozen=True)
class _Plan:
    """How to complete a plain object of one type for one selection."""

    type_name: str
    fields: tuple[_Field, ...]
    is_type_of: Callable[[Any, Any], Any] | None
    # The fields as plain tuples, read in `row`'s loop (a network has ~50,000 such fields per response).
    steps: tuple[tuple[str, str | None, bool, Callable[[Any], Any]], ...] = ()

    def __post_init__(self) -> None:
        steps = tuple((f.key, f.attribute, f.non_null, f.complete) for f in self.fields)
        object.__setattr__(self, "steps", steps)

    def row(self, item: Any) -> dict[str, Any]:
        if item is None:
            raise Refused
        is_type_of = self.is_type_of
        if is_type_of is not None and is_type_of(item, None) is not True:
            raise Refused  # not this type (or an awaitable check): the ordinary path reports it
        row: dict[str, Any] = {}
        for key, attribute, non_null, complete in self.steps:
            if attribute is None:
                row[key] = self.type_name
                continue
            value = getattr(item, attribute)
            if value is None:
                if non_null:
                    raise Refused
                row[key] = None
            else:
                row[key] = complete(value)
        return row


def _list_of(complete: Callable[[Any], Any], non_null_items: bool) -> Callable[[Any], Any]:
    def complete_list(value: Any) -> Any:
        if not isinstance(value, list | tuple):
            raise Refused
        if non_null_items:  # every `complete` refuses None itself
            return [complete(item) for item in value]  # type: ignore[reportUnknownVariableType]
        return [None if item is None else complete(item) for item in value]  # type: ignore[reportUnknownVariableType]

    return complete_list


class _SharedPlans:
    """Plans kept across requests, for operations whose selections no variable can change.

    Strawberry caches parsed documents, so a repeated query string brings the very same AST nodes: a plan
    is keyed by the identity of the field nodes it was built from (held, so an id is never reused) and
    found again by the next request. Only operations without directives share plans: `@skip`/`@include`
    (and `@defer`) depend on variables. Bounded, least recently used out first.
    """

    def __init__(self, size: int = 2048) -> None:
        self._size = size
        self._plans: OrderedDict[tuple[Any, ...], tuple[tuple[Any, ...], _Plan | None]] = OrderedDict()
        self._directive_free: OrderedDict[int, tuple[OperationDefinitionNode, bool]] = OrderedDict()

    def shareable(self, operation: OperationDefinitionNode, fragments: list[FragmentDefinitionNode]) -> bool:
        found = self._directive_free.get(id(operation))
        if found is None or found[0] is not operation:
            free = not any(has_directive(node) for node in (operation, *fragments))
            found = (operation, free)
            self._directive_free[id(operation)] = found
            if len(self._directive_free) > self._size:
                self._directive_free.popitem(last=False)
        return found[1]

    def get(self, key: tuple[Any, ...], nodes: tuple[Any, ...]) -> tuple[bool, _Plan | None]:
        found = self._plans.get(key)
        if found is None or any(a is not b for a, b in zip(found[0], nodes, strict=True)):
            return False, None
        self._plans.move_to_end(key)
        return True, found[1]

    def put(self, key: tuple[Any, ...], nodes: tuple[Any, ...], plan: _Plan | None) -> None:
        self._plans[key] = (nodes, plan)
        if len(self._plans) > self._size:
            self._plans.popitem(last=False)


def has_directive(root: Node) -> bool:
    """True when any node under `root` carries a directive."""
    found = False

    class Finder(Visitor):
        def enter_directive(self, *_: Any) -> Any:
            nonlocal found
            found = True
            return BREAK

    visit(root, Finder())
    return found


_SHARED = _SharedPlans()

KEPT_FIELDS = 8192
"""Field nodes whose completion a process keeps (all forgotten at once when full)."""
_FIELDS: dict[int, tuple[Any, GraphQLObjectType, _Field | None]] = {}


class FlatListExecutor(StrawberryGraphQLCoreExecutionContext):
    """graphql-core's executor (as Strawberry configures it) completing plain-data lists in one pass."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._plans: dict[tuple[str, int], _Plan | None] = {}
        manager = self.middleware_manager
        self._has_middleware = bool(manager and manager.middlewares)  # a middleware must see every field
        self._shareable = _SHARED.shareable(self.operation, [f.definition for f in self.fragments.values()])

    def complete_list_value(
        self,
        return_type: Any,  # GraphQLList[GraphQLOutputType]: graphql-core's wrapping types leave theirs unknown
        field_details_list: FieldDetailsList,
        info: Any,  # GraphQLResolveInfo
        path: Path,
        result: Any,
        position_context: Any,
    ) -> Any:
        if FLAT_LISTS and isinstance(result, list | tuple) and not self._has_middleware:
            complete = self._complete_for(return_type, field_details_list)
            if complete is not None:
                try:
                    return complete(result)
                except Refused:
                    pass
        ordinary: Any = cast(Any, super()).complete_list_value
        return ordinary(return_type, field_details_list, info, path, result, position_context)

    def execute_field(
        self,
        parent_type: GraphQLObjectType,
        source: Any,
        field_details_list: FieldDetailsList,
        path: Path,
        position_context: Any,
    ) -> Any:
        if FLAT_LISTS and not self._has_middleware:
            field = self._field(parent_type, field_details_list)
            if field is not None:
                value = getattr(source, cast(str, field.attribute), _MISSING)
                try:
                    if value is None and not field.non_null:
                        return None
                    if value is not None and value is not _MISSING:
                        return field.complete(value)
                except Refused:
                    pass
        ordinary: Any = cast(Any, super()).execute_field
        return ordinary(parent_type, source, field_details_list, path, position_context)

    def _field(self, parent_type: GraphQLObjectType, details: FieldDetailsList) -> _Field | None:
        """How to complete this plain field of `parent_type` directly (None: graphql-core's path), kept per field
        node across requests (one look-up a field) where no variable can change its selection."""
        if len(details) != 1:
            return None  # the same key asked twice (fragments): graphql-core merges them
        node = details[0].node
        found = _FIELDS.get(id(node))
        if found is not None and found[0] is node and found[1] is parent_type:
            return found[2]
        field = self._field_plan(parent_type, details)
        if self._shareable or node.selection_set is None:
            if len(_FIELDS) >= KEPT_FIELDS:
                _FIELDS.clear()
            _FIELDS[id(node)] = (node, parent_type, field)  # the node held: its id is not reused meanwhile
        return field

    def _field_plan(self, parent_type: GraphQLObjectType, details: FieldDetailsList) -> _Field | None:
        node = details[0].node
        if node.name.value.startswith("__") or node.directives:
            return None  # meta fields, and `@defer`/`@stream` or a custom directive: graphql-core's path
        definition = parent_type.fields.get(node.name.value)
        extensions: dict[str, Any] = (definition.extensions or {}) if definition else {}
        strawberry_field: Any = extensions.get("strawberry-definition")
        if not getattr(strawberry_field, "is_basic_field", False) or getattr(strawberry_field, "extensions", None):
            return None  # a resolver, or a field extension that must see the value: graphql-core's path
        field = self._plain_field(parent_type, node.name.value, details)
        return field if field is not None and field.attribute is not None else None

    def _complete_for(self, output: Any, details: FieldDetailsList) -> Callable[[Any], Any] | None:
        """How to complete a value of `output` (a GraphQLOutputType) selected by `details` in one pass; None when
        not plain."""
        inner: Any = cast(Any, output).of_type if isinstance(output, GraphQLNonNull) else output
        if isinstance(inner, GraphQLList):
            item: Any = cast(Any, inner).of_type
            complete = self._complete_for(item, details)
            return None if complete is None else _list_of(complete, isinstance(item, GraphQLNonNull))
        if is_leaf_type(inner):
            return leaf_coercion(inner)  # type: ignore[arg-type]
        if isinstance(inner, GraphQLObjectType):
            plan = self._plan(inner, details)
            return None if plan is None else plan.row
        return None  # interfaces and unions resolve their runtime type per item

    def _plan(self, object_type: GraphQLObjectType, details: FieldDetailsList) -> _Plan | None:
        key = (object_type.name, id(details))
        if key not in self._plans:
            self._plans[key] = self._shared_plan(object_type, details)
        return self._plans[key]

    def _shared_plan(self, object_type: GraphQLObjectType, details: FieldDetailsList) -> _Plan | None:
        if not self._shareable:
            return self._build_plan(object_type, details)
        nodes = tuple(d.node for d in details)
        key = (object_type.name, *map(id, nodes))
        found, plan = _SHARED.get(key, nodes)
        if not found:
            plan = self._build_plan(object_type, details)
            _SHARED.put(key, nodes, plan)
        return plan

    def _build_plan(self, object_type: GraphQLObjectType, details: FieldDetailsList) -> _Plan | None:
        grouped, new_defer_usages, forbidden = self.collect_subfields(object_type, details)
        if new_defer_usages or forbidden:
            return None
        fields: list[_Field] = []
        for response_key, field_details in grouped.items():
            field = self._plain_field(object_type, response_key, field_details)
            if field is None:
                return None
            fields.append(field)
        return _Plan(object_type.name, tuple(fields), object_type.is_type_of)

    def _plain_field(self, object_type: GraphQLObjectType, key: str, details: FieldDetailsList) -> _Field | None:
        node = details[0].node
        name = node.name.value
        if name == "__typename":
            return _Field(key, None, True, _str)
        definition = object_type.fields.get(name)
        if definition is None or definition.args or node.arguments:
            return None
        if not getattr(definition.resolve, "_is_default", False):
            return None  # a resolver (or a field Strawberry wraps): the ordinary path runs it
        extensions: dict[str, Any] = definition.extensions or {}
        strawberry_field = extensions.get("strawberry-definition")
        attribute = getattr(strawberry_field, "python_name", None)
        complete = self._complete_for(definition.type, details)
        if attribute is None or complete is None:
            return None
        return _Field(key, attribute, isinstance(definition.type, GraphQLNonNull), complete)
