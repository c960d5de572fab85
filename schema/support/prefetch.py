"""Folding a root field into one Cypher round trip: read the selection, run one constant query, prime DataLoaders.

Issue 9: `researcher(id:)`, `paper(id:)` and `institution(id:)` should each cost one Cypher query, as the
Neo4j GraphQL Library's root fields do, without ever building Cypher from the request. So the selection is
compiled into *parameters* of one constant query in `queries/`: a boolean or a map per foldable field (its
subquery runs only `WHERE $want.stats` / `WHERE $papers IS NOT NULL`), each connection's window, sort and
filters passed as values.

How a root resolver folds (the parts are declared in one table per root: schema/support/parts.py):

1. `sel = Selection.of(info)` is what the query asks of the object the root field returns, through
   fragments, inline fragments and `@skip`/`@include`; each field comes with its arguments as the
   resolver receives them (defaults applied, enums as members, GraphQL names such as `yearFrom`).
   `sel.first("papers")` is the first field asked under that name whatever its alias (None when not
   asked), `sel.asks("hIndex", "paperCount")` whether any of them is asked, and
   `field.selection.at("edges", "node")` what that field asks further down.
2. Fold the *first* occurrence of each field into the query's parameters; leave out any field whose
   arguments are invalid (its resolver raises the error, as before) or not worth folding.
3. Run the one query, then prime each folded part's DataLoader under exactly the key its field resolver
   loads with, in the shape that loader's batch function returns (`parts.read_folded` does all three).

Field resolvers keep their DataLoader path unchanged: one whose arguments were folded finds its key
primed and runs no query; any other (a second alias with other arguments, a filter not folded, a nested
object the root did not fold) misses the cache and loads through its DataLoader as before, batched. So
folding changes how many round trips a request takes, never an answer; tests set `FOLDING` to False to
compare both paths.

A selection depends on the document and on the variables used inside it, never on the root field's own
arguments: so `Selection.of` keeps each one across requests (Strawberry hands every request of a prepared
query text the same AST nodes), keyed by the field nodes and the values of the variables their selection
sets use, and what is worked out from a selection (its fold, the properties a page reads) is kept with it
(`Selection.memo`). A request of a known query thus walks none of its selection again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar, cast

from cachetools import LRUCache
from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLIncludeDirective,
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLSchema,
    GraphQLSkipDirective,
    InlineFragmentNode,
    SelectionSetNode,
    VariableNode,
    Visitor,
    get_named_type,
    is_abstract_type,
    visit,
)
from graphql.execution.values import VariableValues, get_argument_values, get_directive_values

from weft.schema.context import Info

FOLDING = True
"""Whether root fields fold their selection; tests set it False to compare with every field loading alone."""

KEPT_SELECTIONS = 2048
"""Selections a process keeps across requests (least recently used out first)."""

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
        return self._walk.selection(_named(self._definition.type), sets)


@dataclass(frozen=True)
class Selection:
    """The fields asked of one object, in query order, one per response key (same-key fields merged)."""

    fields: list[AskedField] = field(default_factory=lambda: list[AskedField]())
    _memo: dict[Hashable, Any] = field(default_factory=lambda: dict[Hashable, Any](), compare=False, repr=False)

    @classmethod
    def of(cls, info: Info) -> Selection:
        """What the current field's query asks of the object it returns (empty for abstract types); the same
        object for every request of the same prepared document with the same values of the variables it uses."""
        raw: Any = info._raw_info  # noqa: SLF001  # pyright: ignore[reportPrivateUsage, reportUnknownMemberType, reportUnknownVariableType]
        # Strawberry's executor hands resolvers the plain coerced dict, graphql-core's its VariableValues.
        coerced: dict[str, Any] = dict(getattr(raw.variable_values, "coerced", raw.variable_values))
        nodes: tuple[FieldNode, ...] = tuple(raw.field_nodes)
        return _KEPT.get(nodes, raw.return_type, raw.fragments, coerced, lambda: _selection_of(raw, nodes, coerced))

    def memo(self, key: Hashable, work: Callable[[Selection], T]) -> T:
        """`work(self)`, worked out once per selection (`key` names the work: the function and what it uses)."""
        if key not in self._memo:
            self._memo[key] = work(self)
        return cast(T, self._memo[key])

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


def _selection_of(raw: Any, nodes: tuple[FieldNode, ...], coerced: dict[str, Any]) -> Selection:
    walk = _Walk(raw.schema, raw.fragments, VariableValues(sources={}, coerced=coerced))
    return walk.selection(_named(raw.return_type), [n.selection_set for n in nodes if n.selection_set is not None])


class _KeptSelections:
    """Selections kept across requests, keyed by the identity of the field nodes (held, so an id is never reused)
    and the values of the variables their selection sets use (a variable anywhere below, in a fragment or a
    directive, makes its value part of the key)."""

    def __init__(self, size: int = KEPT_SELECTIONS) -> None:
        self._used: LRUCache[tuple[int, ...], tuple[tuple[FieldNode, ...], tuple[str, ...]]] = LRUCache(size)
        self._kept: LRUCache[tuple[Any, ...], tuple[tuple[FieldNode, ...], Selection]] = LRUCache(size)

    def get(
        self,
        nodes: tuple[FieldNode, ...],
        of: Any,
        fragments: Mapping[str, FragmentDefinitionNode],
        coerced: dict[str, Any],
        make: Callable[[], Selection],
    ) -> Selection:
        ids = tuple(map(id, nodes))
        used = self._used.get(ids)
        if used is None or any(a is not b for a, b in zip(used[0], nodes, strict=True)):
            used = (nodes, tuple(sorted(_variables_in(nodes, fragments))))
            self._used[ids] = used
        key = (id(of), *ids, *(repr(coerced.get(name)) for name in used[1]))
        found = self._kept.get(key)
        if found is not None and all(a is b for a, b in zip(found[0], nodes, strict=True)):
            return found[1]
        made = make()
        self._kept[key] = (nodes, made)
        return made


def _variables_in(nodes: tuple[FieldNode, ...], fragments: Mapping[str, FragmentDefinitionNode]) -> set[str]:
    """The names of the variables used anywhere in the selection sets of `nodes`, the fragments they spread
    included (in arguments and in directives alike)."""
    found: set[str] = set()
    seen: set[str] = set()

    class Finder(Visitor):
        def enter_variable(self, node: VariableNode, *_: Any) -> None:
            found.add(node.name.value)

        def enter_fragment_spread(self, node: FragmentSpreadNode, *_: Any) -> None:
            name = node.name.value
            fragment = fragments.get(name)
            if name not in seen and fragment is not None:
                seen.add(name)
                visit(fragment, self)

    for node in nodes:
        if node.selection_set is not None:
            visit(node.selection_set, Finder())
    return found


_KEPT = _KeptSelections()


def _named(of: Any) -> GraphQLNamedType | None:
    """The named type under any list and non-null wrappers (graphql-core's `get_named_type`, typed)."""
    named: GraphQLNamedType | None = cast(Any, get_named_type)(of)
    return named


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
    mine = Selection.of(info).memo(reads, reads)
    return mine is not None and all(p in held for p in mine)
