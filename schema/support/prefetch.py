"""Folding a root field into one Cypher round trip: read the selection, run one constant query, prime DataLoaders.

Issue 9: `researcher(id:)`, `paper(id:)` and `institution(id:)` should each cost one Cypher query, as the
Neo4j GraphQL Library's root fields do, without ever building Cypher from the request. So the selection is
compiled into *parameters* of one constant query in `queries/`: a boolean or a map per foldable field (its
subquery runs only `WHERE $want.stats` / `WHERE $papers IS NOT NULL`), each connection's window, sort and
filters passed as values.

How a root resolver folds (see `schema/roots/researchers.py` and `schema/types/researcher.py`):

1. `sel = Selection.of(info)` is what the query asks of the object the root field returns, through
   fragments, inline fragments and `@skip`/`@include`; each field comes with its arguments as the
   resolver receives them (defaults applied, enums as members, GraphQL names such as `yearFrom`).
   `sel.first("papers")` is the first field asked under that name whatever its alias (None when not
   asked), `sel.asks("hIndex", "paperCount")` whether any of them is asked, and
   `field.selection.at("edges", "node")` what that field asks further down.
2. Fold the *first* occurrence of each field into the query's parameters; leave out any field whose
   arguments are invalid (its resolver raises the error, as before) or not worth folding.
3. Run the one query, then `prime(loader, key, value)` each folded part under exactly the key its field
   resolver loads with, in the shape that loader's batch function returns.

A root resolver asks for its parts with `parts = fold(info, fold_profile)`, which is `fold_profile(Selection.of(info))`
but for a field of a document the direct path planned (schema/support/direct.py): there the field's `Folds`
keep each fold across requests, by the values of the variables the field's selection uses (none, mostly),
since a fold reads nothing but the selection. Only the root arguments (the id) vary from one request to the
next, and they are not part of the selection. `KEEP_FOLDS` (environment `WEFT_KEEP_FOLDS=0` turns it off)
lets benchmarks compare.

Field resolvers keep their DataLoader path unchanged: one whose arguments were folded finds its key
primed and runs no query; any other (a second alias with other arguments, a filter not folded, a nested
object the root did not fold) misses the cache and loads through its DataLoader as before, batched. So
folding changes how many round trips a request takes, never an answer. `FOLDING` (environment
`WEFT_FOLD=0` turns it off) lets tests and benchmarks compare both paths.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import Any, TypeVar

from graphql import (
    ArgumentNode,
    DirectiveNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLIncludeDirective,
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLResolveInfo,
    GraphQLSchema,
    GraphQLSkipDirective,
    InlineFragmentNode,
    SelectionSetNode,
    VariableNode,
    get_named_type,
    is_abstract_type,
)
from graphql.execution.values import VariableValues, get_argument_values, get_directive_values
from strawberry.dataloader import DataLoader

from weft.graph.settings import load_switches
from weft.schema.context import Info

FOLDING = load_switches().fold
"""Whether root fields fold their selection (False: every field loads through its DataLoader, as before)."""

KEEP_FOLDS = load_switches().keep_folds
"""Whether a planned field keeps its folds across requests (False: `fold` works each one out every request)."""

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class AskedField:
    """One field the query asks (one response key): its name, alias, arguments and what it asks in turn.

    `args` and `selection` are worked out on first use, so a root reads only as deep as it folds.
    """

    def __init__(self, walk: _Walk, of: GraphQLObjectType, key: str, nodes: list[FieldNode]) -> None:
        self.name = nodes[0].name.value
        self.key = key
        self._walk, self._nodes = walk, nodes
        self._definition = of.fields.get(self.name)  # None for __typename

    @cached_property
    def args(self) -> dict[str, Any]:
        """The arguments as the resolver receives them: defaults applied, enums as members, GraphQL names."""
        if self._definition is None:
            return {}
        return get_argument_values(self._definition, self._nodes[0], self._walk.variables)

    @cached_property
    def selection(self) -> Selection:
        """What this field asks of its result (empty for a leaf or an abstract type)."""
        if self._definition is None:
            return Selection()
        sets = [n.selection_set for n in self._nodes if n.selection_set is not None]
        return self._walk.selection(get_named_type(self._definition.type), sets)


@dataclass(frozen=True)
class Selection:
    """The fields asked of one object, in query order, one per response key (same-key fields merged)."""

    fields: list[AskedField] = field(default_factory=lambda: list[AskedField]())

    @classmethod
    def of(cls, info: Info) -> Selection:
        """What the current field's query asks of the object it returns (empty for abstract types)."""
        raw = info._raw_info
        # Strawberry's executor hands resolvers the plain coerced dict, graphql-core's its VariableValues.
        coerced: Any = getattr(raw.variable_values, "coerced", raw.variable_values)
        walk = _Walk(raw.schema, raw.fragments, VariableValues(sources={}, coerced=dict(coerced)))
        sets = [n.selection_set for n in raw.field_nodes if n.selection_set is not None]
        return walk.selection(get_named_type(raw.return_type), sets)

    def all(self, name: str) -> list[AskedField]:
        """Every field asked under `name` (one per alias), in query order."""
        return [f for f in self.fields if f.name == name]

    def first(self, name: str) -> AskedField | None:
        """The first field asked under `name`, whatever its alias; None when not asked."""
        return next((f for f in self.fields if f.name == name), None)

    def asks(self, *names: str) -> bool:
        """True when any of `names` is asked."""
        return any(f.name in names for f in self.fields)

    def every(self, *path: str) -> list[Selection]:
        """What each field along `path` asks, through every alias (`at` follows only the first of each name)."""
        found: list[Selection] = [self]
        for name in path:
            found = [f.selection for s in found for f in s.all(name)]
        return found

    def at(self, *path: str) -> Selection:
        """What the first field of each name along `path` asks (empty when one of them is not asked)."""
        here = self
        for name in path:
            found = here.first(name)
            if found is None:
                return Selection()
            here = found.selection
        return here


@dataclass
class _Walk:
    """Collects selections like graphql-core's executor does: fragments flattened, @skip/@include applied."""

    schema: GraphQLSchema
    fragments: dict[str, FragmentDefinitionNode]
    variables: VariableValues

    def selection(self, of: GraphQLNamedType | None, sets: list[SelectionSetNode]) -> Selection:
        if not isinstance(of, GraphQLObjectType):
            return Selection()
        return Selection([AskedField(self, of, key, nodes) for key, nodes in self.grouped(of, sets).items()])

    def grouped(self, of: GraphQLObjectType, sets: list[SelectionSetNode]) -> dict[str, list[FieldNode]]:
        """The fields `sets` ask of `of`, by response key, in query order."""
        grouped: dict[str, list[FieldNode]] = {}
        for s in sets:
            self._collect(of, s, grouped, set())
        return grouped

    def _collect(
        self, of: GraphQLObjectType, s: SelectionSetNode, out: dict[str, list[FieldNode]], seen: set[str]
    ) -> None:
        for node in s.selections:
            if not self._included(node):
                continue
            if isinstance(node, FieldNode):
                out.setdefault(node.alias.value if node.alias else node.name.value, []).append(node)
            elif isinstance(node, InlineFragmentNode):
                condition = node.type_condition.name.value if node.type_condition else None
                if self._applies(of, condition):
                    self._collect(of, node.selection_set, out, seen)
            elif isinstance(node, FragmentSpreadNode):
                name = node.name.value
                fragment = self.fragments.get(name)
                if name in seen or fragment is None:
                    continue
                seen.add(name)
                if self._applies(of, fragment.type_condition.name.value):
                    self._collect(of, fragment.selection_set, out, seen)

    def _included(self, node: FieldNode | InlineFragmentNode | FragmentSpreadNode | Any) -> bool:
        skip = get_directive_values(GraphQLSkipDirective, node, self.variables)
        if skip is not None and skip.get("if") is True:
            return False
        include = get_directive_values(GraphQLIncludeDirective, node, self.variables)
        return not (include is not None and include.get("if") is False)

    def _applies(self, of: GraphQLObjectType, condition: str | None) -> bool:
        if condition is None or condition == of.name:
            return True
        wanted = self.schema.get_type(condition)
        return is_abstract_type(wanted) and self.schema.is_sub_type(wanted, of)  # type: ignore[arg-type]


def collect_fields(
    schema: GraphQLSchema,
    fragments: dict[str, FragmentDefinitionNode],
    of: GraphQLObjectType,
    sets: list[SelectionSetNode],
) -> dict[str, list[FieldNode]]:
    """The fields `sets` ask of `of` by response key, fragments flattened, as graphql-core collects them
    (with no variables: for a document whose @skip/@include, if any, take literals)."""
    return _Walk(schema, fragments, VariableValues(sources={}, coerced={})).grouped(of, sets)


NodeReads = Mapping[str, tuple[str, ...]]
"""What each field of a node type reads of the node's properties (a type module's `*_READS`)."""


def node_props(selections: list[Selection], reads: NodeReads) -> tuple[str, ...] | None:
    """The node properties `selections` of one node type read, `id` first; None (every property) when one of
    them asks a field `reads` does not list. A folded page reads only these (queries/projection.py `picked`)."""
    props: dict[str, None] = {"id": None}
    for sel in selections:
        for f in sel.fields:
            if f.name == "__typename":
                continue
            needed = reads.get(f.name)
            if needed is None:
                return None
            props.update(dict.fromkeys(needed))
    return tuple(props)


def covers(held: tuple[str, ...] | None, info: Info, reads: Callable[[Selection], tuple[str, ...] | None]) -> bool:
    """Whether a page whose node maps hold the properties `held` (None: whole nodes) has every property this
    field's selection reads (`reads` of it, kept by the plan like any fold). A page is primed under its field's
    key with what the folding root's selection asked; another field of the same key elsewhere in the document
    may ask more, and then reads the page again whole."""
    if held is None:
        return True
    mine = fold(info, reads)
    return mine is not None and all(p in held for p in mine)


def prime(loader: DataLoader[K, V], key: K, value: V) -> None:
    """Put a folded value in this request's DataLoader cache under the key its field resolver loads."""
    loader.prime(key, value)


def fold(info: Info, fold: Callable[[Selection], T]) -> T:
    """`fold(Selection.of(info))`: what a resolver folds of its field's selection. For a field of a planned
    document (schema/support/direct.py) it is worked out once per set of values of the variables the
    selection uses, and kept (`Folds`); `fold` must read nothing but the selection and return a value no one
    changes (the parts are frozen dataclasses)."""
    raw = info._raw_info
    if KEEP_FOLDS and isinstance(raw, PlannedInfo) and raw.folds is not None:
        return raw.folds.get(info, fold)
    return fold(Selection.of(info))


class PlannedInfo(GraphQLResolveInfo):
    """graphql-core's resolve info for a field of a planned document, carrying the `Folds` the plan keeps for
    that field across requests (set by schema/support/direct.py on each info it makes; None elsewhere)."""

    folds: Folds | None = None


class Folds:
    """The folds of one field of one planned document, kept across requests.

    A fold reads only the field's selection: the same text with the same values for the variables used
    anywhere in that selection (through fragments, in arguments and directives) folds the same. So a result
    is kept under those values (`uses`: usually none, so one result serves every request), the fold function
    and nothing else; a value that cannot be compared safely (anything but null, booleans, numbers, strings,
    enum members, and lists and input objects of them) is not kept. At most `size` results, oldest dropped.
    """

    def __init__(
        self, fragments: dict[str, FragmentDefinitionNode], nodes: Iterable[FieldNode], size: int = 16
    ) -> None:
        sets = [n.selection_set for n in nodes if n.selection_set is not None]
        self.uses: tuple[str, ...] = tuple(sorted(variables_used(fragments, sets)))
        self.size = size
        self.kept: dict[tuple[Any, ...], Any] = {}

    def get(self, info: Info, fold: Callable[[Selection], T]) -> T:
        key = self.key(info._raw_info.variable_values, fold)
        if key is None:
            return fold(Selection.of(info))
        if key in self.kept:
            return self.kept[key]
        found = fold(Selection.of(info))
        if len(self.kept) >= self.size:
            del self.kept[next(iter(self.kept))]
        self.kept[key] = found
        return found

    def key(self, variables: Any, fold: Callable[..., Any]) -> tuple[Any, ...] | None:
        """(fold, each used variable's value made comparable); None when one of them cannot be."""
        coerced: dict[str, Any] = getattr(variables, "coerced", variables)
        try:
            return (fold, *(_comparable(coerced.get(name, _ABSENT)) for name in self.uses))
        except _Incomparable:
            return None


_ABSENT = object()
"""A variable the request did not give (its argument then takes its default, unlike an explicit null)."""


class _Incomparable(Exception):
    """A variable value whose equality need not mean the same answer: not kept."""


def _comparable(value: Any) -> Any:
    """A hashable stand-in for a coerced variable value, equal only for values that answer the same: the
    type is part of it (1, 1.0 and True are equal in Python), floats by their repr (0.0 and -0.0)."""
    kind = type(value)
    if value is None or value is _ABSENT or kind in (bool, int, str):
        return (kind, value)
    if kind is float:
        return (kind, repr(value))
    if isinstance(value, Enum):
        return (kind, value.name)
    if kind is list or kind is tuple:
        return (kind, tuple(_comparable(v) for v in value))  # type: ignore[reportUnknownVariableType]
    if kind is dict:
        return (kind, tuple((k, _comparable(v)) for k, v in value.items()))  # type: ignore[reportUnknownVariableType]
    raise _Incomparable


def variables_used(fragments: dict[str, FragmentDefinitionNode], sets: Iterable[SelectionSetNode]) -> set[str]:
    """The names of the variables `sets` use anywhere: in arguments and directives, at any depth, through
    fragments (each fragment read once)."""
    used: set[str] = set()
    seen: set[str] = set()
    pending = list(sets)
    while pending:
        for node in pending.pop().selections:
            _add_variables(used, node.directives or ())
            if isinstance(node, FieldNode):
                _add_variables(used, node.arguments or ())
                if node.selection_set is not None:
                    pending.append(node.selection_set)
            elif isinstance(node, InlineFragmentNode):
                pending.append(node.selection_set)
            elif isinstance(node, FragmentSpreadNode) and node.name.value not in seen:
                seen.add(node.name.value)
                fragment = fragments.get(node.name.value)
                if fragment is not None:
                    _add_variables(used, fragment.directives or ())
                    pending.append(fragment.selection_set)
    return used


def _add_variables(used: set[str], nodes: Iterable[ArgumentNode | DirectiveNode]) -> None:
    for node in nodes:
        if isinstance(node, DirectiveNode):
            _add_variables(used, node.arguments or ())
        else:
            _value_variables(used, node.value)


def _value_variables(used: set[str], value: Any) -> None:
    if isinstance(value, VariableNode):
        used.add(value.name.value)
        return
    for child in getattr(value, "values", None) or ():  # a list
        _value_variables(used, child)
    for item in getattr(value, "fields", None) or ():  # an input object
        _value_variables(used, item.value)
