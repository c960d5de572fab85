"""Answering repeated documents without graphql-core: a plan per query text, resolvers called directly.

Issue 9: once a root field folds its selection into one Cypher query, every nested resolver answers from
a primed DataLoader or from the node's properties, yet each request still paid Strawberry's view and
extensions and graphql-core's per-field machinery (resolve info, wrappers, awaitable checks, leaf
coercion): 1.5-2 ms against a ~2.4 ms query. For a document already parsed and validated
(`PreparedDocuments`, limits included), `DirectPlans.plan` builds once, per query text and operation
name, a `Plan`: each field's response key, how to get its value (an attribute, or the Strawberry resolver
itself called with its converted arguments and a real `Info`) and how to complete it (leaf coercion,
lists, objects, `__typename`). A request then costs variable coercion, the argument caps, the resolvers
(the root ones run concurrently; anything that has to wait is awaited together, level by level, as
graphql-core gathers) and one orjson dump. What a resolver folds of its selection (`prefetch.fold`: the
folded roots' parts, read from the selection) is kept by its field's plan (`prefetch.Folds`, on the
`PlannedInfo` each call gets), per value of the variables that selection uses: no selection walk and no
fold per request, only the root arguments vary.

Planned only: query operations without directives, whose root fields are in `ROOTS` (the folded
lookups, the key-paged paper lists and `version`), with concrete object types all the way down (no
interface or union), no field extensions. Any other document, and any request the plan refuses on the
way (an exception in a resolver, a null in a non-null field, a value its scalar would not take, bad
variables, an argument past its cap), is answered by the ordinary path, which then produces the value or
the error exactly as before: errors are never formatted here. `DIRECT` (environment `WEFT_DIRECT=0`
turns it off) lets tests and benchmarks compare both paths.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from graphql import (
    ArgumentNode,
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    GraphQLField,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLSchema,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    VariableNode,
    get_operation_ast,
    is_leaf_type,
)
from graphql.execution.values import VariableValues, get_argument_values, get_variable_values
from graphql.pyutils import Path, is_awaitable
from strawberry.types.arguments import convert_arguments
from strawberry.types.field import StrawberryField

from weft.graph.settings import load_switches
from weft.schema.support.execution import Refused, has_directive, leaf_coercion
from weft.schema.support.limits import PreparedDocuments, argument_errors, checked_arguments
from weft.schema.support.prefetch import Folds, PlannedInfo, collect_fields

log = logging.getLogger("weft.schema")

DIRECT = load_switches().direct
"""Whether repeated documents the plans cover skip graphql-core (False: every request takes the ordinary path)."""

ROOTS = frozenset({"researcher", "paper", "institution", "mostCited", "papers", "version"})
"""The root fields a plan may hold: each answered by one constant Cypher query (its nested fields primed)."""


class NotPlanned(Exception):
    """A document the direct path does not answer (checked once per text)."""


Complete = Callable[["Run", Any], Any]


@dataclass
class Run:
    """One request's state: the context, coerced variables, each field's arguments, and awaited values."""

    plan: Plan
    context: Any
    variables: VariableValues
    calls: dict[int, dict[str, Any]] = field(default_factory=lambda: {})
    holes: list[tuple[Any, Complete, dict[str, Any], str]] = field(default_factory=lambda: [])


@dataclass
class FieldPlan:
    """One response key of an object: how its value is found and completed."""

    key: str
    typename: str | None  # `__typename`: the constant answer
    attribute: str | None  # a plain Strawberry field: the attribute read
    definition: GraphQLField | None
    nodes: list[FieldNode]
    parent: GraphQLObjectType
    strawberry: StrawberryField | None
    complete: Complete
    static_args: dict[str, Any] | None  # the arguments when no variable is among them
    folds: Folds | None = None  # what its resolver folds of its selection, kept across requests (prefetch.fold)
    converted: dict[str, Any] | None = None  # `static_args` as Strawberry converts them, kept when all immutable

    def resolve(self, run: Run, source: Any) -> Any:
        if self.attribute is not None:
            return getattr(source, self.attribute)
        kwargs = run.calls.get(id(self))
        if kwargs is None:
            kwargs = run.calls[id(self)] = self._kwargs(run)
        assert self.strawberry is not None and self.strawberry.base_resolver is not None
        resolver = self.strawberry.base_resolver
        call: Callable[..., Any] = resolver.wrapped_func  # type: ignore[assignment]
        return call(source, **kwargs) if resolver.self_parameter else call(**kwargs)

    def _kwargs(self, run: Run) -> dict[str, Any]:
        """The resolver's keyword arguments for this request, as Strawberry converts them, with its `Info`."""
        assert self.definition is not None and self.strawberry is not None
        resolver = self.strawberry.base_resolver
        assert resolver is not None
        plan = run.plan
        kwargs = self._arguments(run)
        if resolver.info_parameter is not None:
            info = PlannedInfo(
                self.nodes[0].name.value,
                self.nodes,
                self.definition.type,
                self.parent,
                Path(None, self.key, self.parent.name),  # the field's key, not its full path (no resolver reads it)
                plan.schema,
                plan.fragments,
                None,
                plan.operation,
                run.variables,
                run.context,
                is_awaitable,
                None,
                None,  # type: ignore[arg-type]
            )
            info.folds = self.folds
            kwargs[resolver.info_parameter.name] = plan.config.info_class(_raw_info=info, _field=self.strawberry)
        return kwargs

    def _arguments(self, run: Run) -> dict[str, Any]:
        """The arguments as Strawberry converts them (a new dict each request); converted once when no variable
        is among them and every value is immutable (no input object or list a resolver could change)."""
        if self.converted is not None:
            return dict(self.converted)
        assert self.definition is not None and self.strawberry is not None
        plan = run.plan
        raw = self.static_args
        if raw is None:
            raw = get_argument_values(self.definition, self.nodes[0], run.variables) if self.definition.args else {}
        kwargs = convert_arguments(raw, self.strawberry.arguments, plan.scalar_registry, plan.config)
        if self.static_args is not None and all(_immutable(v) for v in kwargs.values()):
            self.converted = dict(kwargs)
        return kwargs


@dataclass
class ObjectPlan:
    """How to complete one object type for one selection."""

    type: GraphQLObjectType
    fields: list[FieldPlan]

    def complete(self, run: Run, source: Any) -> dict[str, Any]:
        is_type_of: Callable[[Any, Any], Any] | None = self.type.is_type_of
        if is_type_of is not None and is_type_of(source, None) is not True:
            raise Refused
        row: dict[str, Any] = {}
        for f in self.fields:
            if f.typename is not None:
                row[f.key] = f.typename
                continue
            value = f.resolve(run, source)
            if hasattr(value, "__await__"):
                row[f.key] = None
                run.holes.append((value, f.complete, row, f.key))
            else:
                row[f.key] = f.complete(run, value)
        return row


@dataclass
class Plan:
    """One operation of one query text, ready to answer without graphql-core."""

    schema: GraphQLSchema
    operation: OperationDefinitionNode
    fragments: dict[str, FragmentDefinitionNode]
    arguments: tuple[ArgumentNode, ...]  # the argument nodes whose size is capped (limits.argument_errors)
    root: ObjectPlan
    scalar_registry: Any
    config: Any

    def variables(self, inputs: dict[str, Any]) -> VariableValues:
        """The request's variables coerced as graphql-core does; Refused when they are wrong or too large."""
        coerced = get_variable_values(self.schema, self.operation.variable_definitions or (), inputs)
        if not isinstance(coerced, VariableValues) or argument_errors(self.arguments, inputs):
            raise Refused
        return coerced

    async def execute(self, context: Any, inputs: dict[str, Any]) -> dict[str, Any]:
        """The `data` of the response; Refused (or the resolver's exception) when the ordinary path must answer."""
        run = Run(self, context, self.variables(inputs))
        try:
            data = self.root.complete(run, None)
            while run.holes:
                holes, run.holes = run.holes, []
                values = await _gather([h[0] for h in holes])
                for (_, complete, row, key), value in zip(holes, values, strict=True):
                    row[key] = complete(run, value)
        except BaseException:
            await _settle([h[0] for h in run.holes])
            raise
        return data


async def _gather(awaitables: list[Any]) -> list[Any]:
    """Await all together (DataLoaders batch across them); on a failure the others are cancelled. A lone
    one is awaited as it is (a task and a gather cost more than the rest of a small request's round)."""
    if len(awaitables) == 1:
        return [await awaitables[0]]
    tasks = [asyncio.ensure_future(a) for a in awaitables]
    try:
        return await asyncio.gather(*tasks)
    except BaseException:
        await _settle(tasks)
        raise


async def _settle(awaitables: list[Any]) -> None:
    """Stop work a refused request no longer needs and wait until it has: a resolver whose first step already
    sent a query is cancelled inside its await (its session closed properly, not by the garbage collector)."""
    tasks: list[asyncio.Future[Any]] = []
    for waiting in awaitables:
        if asyncio.iscoroutine(waiting) and inspect.getcoroutinestate(waiting) == inspect.CORO_CREATED:
            waiting.close()  # never started: nothing to stop
        else:
            tasks.append(asyncio.ensure_future(waiting))
    if tasks:
        await asyncio.sleep(0)  # each task takes its first step, so a cancellation reaches the resolver
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


class DirectPlans:
    """Plans by (query text, operation name), built from documents `prepared` holds; bounded, LRU.

    A text the prepared documents do not hold yet has not been validated: the ordinary path answers it
    (and prepares it), so a plan is built from the second request on. A text that cannot be planned is
    remembered as such.
    """

    def __init__(self, strawberry_schema: Any, prepared: PreparedDocuments, size: int = 512) -> None:
        self.schema: GraphQLSchema = strawberry_schema._schema  # noqa: SLF001 - the graphql-core schema
        self.scalar_registry = strawberry_schema.schema_converter.scalar_registry
        self.config = strawberry_schema.config
        self.prepared = prepared
        self.size = size
        self.plans: OrderedDict[tuple[str, str | None], Plan | None] = OrderedDict()

    def plan(self, query: str, operation_name: str | None) -> Plan | None:
        key = (query, operation_name)
        if key in self.plans:
            self.plans.move_to_end(key)
            return self.plans[key]
        document = self.prepared.get(query)
        if document is None:
            return None
        try:
            found: Plan | None = self._build(document, operation_name)
        except NotPlanned:
            found = None
        except Exception:  # a bug here must not fail the request: the ordinary path answers
            log.exception("could not plan a document; the ordinary path answers it")
            found = None
        self.forget_later(key, found)
        return found

    def refuse(self, query: str, operation_name: str | None) -> None:
        """Answer this text the ordinary way from now on (its plan refused a request that nothing varies)."""
        self.forget_later((query, operation_name), None)

    def forget_later(self, key: tuple[str, str | None], plan: Plan | None) -> None:
        self.plans[key] = plan
        self.plans.move_to_end(key)
        if len(self.plans) > self.size:
            self.plans.popitem(last=False)

    def _build(self, document: DocumentNode, operation_name: str | None) -> Plan:
        definitions = document.definitions
        operation = get_operation_ast(document, operation_name)
        if operation is None or operation.operation != OperationType.QUERY:
            raise NotPlanned
        fragments = {d.name.value: d for d in definitions if isinstance(d, FragmentDefinitionNode)}
        if has_directive(document):
            raise NotPlanned  # @skip/@include depend on variables: not planned
        query_type = self.schema.query_type
        assert query_type is not None
        builder = _Builder(self.schema, fragments)
        root = builder.object(query_type, [operation.selection_set], roots=True)
        return Plan(
            self.schema, operation, fragments, checked_arguments(document), root, self.scalar_registry, self.config
        )


@dataclass
class _Builder:
    schema: GraphQLSchema
    fragments: dict[str, FragmentDefinitionNode]

    def object(self, of: GraphQLObjectType, sets: list[SelectionSetNode], roots: bool = False) -> ObjectPlan:
        grouped = collect_fields(self.schema, self.fragments, of, sets)
        fields = [self._field(of, key, nodes, roots) for key, nodes in grouped.items()]
        return ObjectPlan(of, fields)

    def _field(self, of: GraphQLObjectType, key: str, nodes: list[FieldNode], roots: bool) -> FieldPlan:
        name = nodes[0].name.value
        if name == "__typename":
            return FieldPlan(key, of.name, None, None, nodes, of, None, _identity, None)
        if name.startswith("__") or (roots and name not in ROOTS):
            raise NotPlanned
        definition = of.fields.get(name)
        strawberry_field = (definition.extensions or {}).get("strawberry-definition") if definition else None
        if definition is None or not isinstance(strawberry_field, StrawberryField) or strawberry_field.extensions:
            raise NotPlanned
        sets = [n.selection_set for n in nodes if n.selection_set is not None]
        complete = self._complete(definition.type, sets)
        if getattr(definition.resolve, "_is_default", False):
            return FieldPlan(key, None, strawberry_field.python_name, definition, nodes, of, None, complete, None)
        resolver = strawberry_field.base_resolver
        if resolver is None or resolver.parent_parameter is not None or resolver.root_parameter is not None:
            raise NotPlanned
        uses_variables = any(_has_variable(a) for a in nodes[0].arguments or ())
        no_variables = VariableValues(sources={}, coerced={})
        static = None if uses_variables else get_argument_values(definition, nodes[0], no_variables)
        folds = Folds(self.fragments, nodes)
        return FieldPlan(key, None, None, definition, nodes, of, strawberry_field, complete, static, folds)

    def _complete(self, output: GraphQLOutputType, sets: list[SelectionSetNode]) -> Complete:
        inner: Any = output.of_type if isinstance(output, GraphQLNonNull) else output
        base: Complete
        if isinstance(inner, GraphQLList):
            base = _list_of(self._complete(inner.of_type, sets))
        elif is_leaf_type(inner):
            leaf = leaf_coercion(inner)

            def complete_leaf(_: Run, value: Any) -> Any:
                return leaf(value)

            base = complete_leaf
        elif isinstance(inner, GraphQLObjectType):
            base = self.object(inner, sets).complete
        else:
            raise NotPlanned  # interfaces and unions resolve their runtime type per value
        return _nullable(base, isinstance(output, GraphQLNonNull))


def _list_of(item: Complete) -> Complete:
    def complete_list(run: Run, value: Any) -> Any:
        if not isinstance(value, list | tuple):
            raise Refused
        return [item(run, v) for v in value]  # type: ignore[reportUnknownVariableType]

    return complete_list


def _nullable(base: Complete, non_null: bool) -> Complete:
    if non_null:

        def complete_non_null(run: Run, value: Any) -> Any:
            if value is None:
                raise Refused  # graphql-core reports it (and nulls the parent)
            return base(run, value)

        return complete_non_null

    def complete_nullable(run: Run, value: Any) -> Any:
        return None if value is None else base(run, value)

    return complete_nullable


def _identity(_: Run, value: Any) -> Any:
    return value


def _immutable(value: Any) -> bool:
    return value is None or type(value) in (bool, int, float, str) or isinstance(value, Enum)


def _has_variable(node: Any) -> bool:
    """Whether an argument's value (at any depth) is a variable."""
    value = node.value if isinstance(node, ArgumentNode) else node
    if isinstance(value, VariableNode):
        return True
    children = getattr(value, "values", None) or [f.value for f in getattr(value, "fields", None) or ()]
    return any(_has_variable(v) for v in children)
