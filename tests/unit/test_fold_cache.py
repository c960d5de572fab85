"""A planned field's folds kept across requests (schema/support/prefetch.py `Folds`): kept only under the values
of every variable its selection uses, and never for values whose equality would not mean the same answer."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from graphql import FieldNode, GraphQLResolveInfo, OperationDefinitionNode, parse
from graphql.execution.values import VariableValues

from weft.schema.root import build_schema
from weft.schema.support.enums import PaperSort
from weft.schema.support.prefetch import Folds, PlannedInfo, Selection, fold, variables_used
from weft.schema.types.researcher import fold_profile

SCHEMA = build_schema()._schema

PROFILE = """query($id: String!, $n: Int!, $s: String, $no: Boolean!, $y: Int, $f: PaperFilterInput) {
  researcher(id: $id) {
    name @skip(if: $no)
    papers(first: $n, yearFrom: $y) { totalCount }
    ...Fields
    ... on Researcher { coauthors(first: 2) { edges { node { weight } } } }
  }
  papers(filter: $f) { totalCount }
}
fragment Fields on Researcher { fields(scheme: $s, first: 3) { count } ...Fields2 }
fragment Fields2 on Researcher { topics: fields(scheme: "topic") { count } ...Fields }"""


def parsed(text: str) -> tuple[Any, FieldNode, dict[str, Any]]:
    document = parse(text)
    operation = next(d for d in document.definitions if isinstance(d, OperationDefinitionNode))
    fragments = {d.name.value: d for d in document.definitions if not isinstance(d, OperationDefinitionNode)}
    root = operation.selection_set.selections[0]
    assert isinstance(root, FieldNode)
    return operation, root, fragments


def test_variables_used_by_a_selection() -> None:
    """Arguments and directives at any depth, through fragments (cycles read once); not the root field's own
    arguments, nor other root fields'."""
    _, root, fragments = parsed(PROFILE)
    assert root.selection_set is not None
    assert variables_used(fragments, [root.selection_set]) == {"no", "n", "y", "s"}
    _, literal, _ = parsed('{ researcher(id: "x") { papers(first: 2, sort: OLDEST) { totalCount } } }')
    assert literal.selection_set is not None
    assert variables_used({}, [literal.selection_set]) == set()


def test_variables_inside_lists_and_input_objects() -> None:
    _, root, _ = parsed(
        "query($a: Int, $b: [String!]) { x(id: 1) { y(f: {min: $a, list: [1, $b]}, g: [[$a]]) { z } } }"
    )
    assert root.selection_set is not None
    assert variables_used({}, [root.selection_set]) == {"a", "b"}


def folds_over(text: str) -> tuple[Folds, Any]:
    operation, root, fragments = parsed(text)
    return Folds(fragments, [root]), operation


def test_keys_tell_apart_values_python_calls_equal() -> None:
    folds, _ = folds_over("query($n: Int, $m: Float) { researcher(id: 1) { a: papers(first: $n) { totalCount } } }")
    assert folds.uses == ("n",)

    def key(**coerced: Any) -> Any:
        return folds.key(VariableValues(sources={}, coerced=coerced), fold_profile)

    assert key(n=1) == key(n=1) and key(n=1, m=2.0) == key(n=1, m=3.0)  # `m` is not used below the root
    assert len({key(n=1), key(n=True), key(n=1.0), key(n=2)}) == 4
    assert key() != key(n=None)  # not given (the argument's default) is not null
    assert key(n=0.0) != key(n=-0.0)
    assert key(n=PaperSort.NEWEST) == key(n=PaperSort.NEWEST) != key(n=PaperSort.OLDEST)
    assert key(n=[1, {"a": 2}]) == key(n=[1, {"a": 2}]) != key(n=[1, {"a": 2.0}])
    assert key(n=object()) is None and key(n=[1, {2}]) is None  # anything else is not kept
    assert folds.key({"n": 1}, fold_profile) == key(n=1)  # a plain dict of coerced values too


def planned_info(operation: Any, root: FieldNode, fragments: dict[str, Any], folds: Folds | None, **coerced: Any):
    raw = PlannedInfo(
        root.name.value,
        [root],
        SCHEMA.query_type.fields[root.name.value].type,  # type: ignore[union-attr]
        SCHEMA.query_type,
        None,
        SCHEMA,
        fragments,
        None,
        operation,
        VariableValues(sources={}, coerced=coerced),
        None,
        None,
        None,
        None,
    )
    raw.folds = folds
    return SimpleNamespace(_raw_info=raw)


QUERY = """query($id: String!, $n: Int!) { researcher(id: $id) {
  hIndex papers(first: $n) { totalCount } coauthors(first: 2) { totalCount } } }"""


def counting() -> tuple[list[Selection], Any]:
    seen: list[Selection] = []

    def fold_counted(sel: Selection) -> Any:
        seen.append(sel)
        return fold_profile(sel)

    return seen, fold_counted


def test_a_fold_is_kept_per_value_of_the_variables_its_selection_uses() -> None:
    operation, root, fragments = parsed(QUERY)
    folds = Folds(fragments, [root])
    seen, fold_counted = counting()
    first = fold(planned_info(operation, root, fragments, folds, id="a", n=5), fold_counted)
    assert first.papers is not None and first.papers.limit == 5 and first.stats and first.coauthors is not None
    # another id: the same fold, not worked out again
    assert fold(planned_info(operation, root, fragments, folds, id="b", n=5), fold_counted) is first
    assert len(seen) == 1
    # another page size: its own fold
    other = fold(planned_info(operation, root, fragments, folds, id="a", n=2), fold_counted)
    assert other.papers is not None and other.papers.limit == 2 and len(seen) == 2
    assert fold(planned_info(operation, root, fragments, folds, id="c", n=5), fold_counted) is first
    # the same value in another type (not possible for an Int! variable, but a key must not mix them)
    fold(planned_info(operation, root, fragments, folds, id="c", n=5.0), fold_counted)
    assert len(seen) == 3
    # another fold function over the same field is its own entry
    assert fold(planned_info(operation, root, fragments, folds, id="c", n=5), fold_profile) == first


def test_unplanned_infos_fold_every_time() -> None:
    operation, root, fragments = parsed(QUERY)
    seen, fold_counted = counting()
    for _ in range(2):
        fold(planned_info(operation, root, fragments, None, id="a", n=5), fold_counted)
    raw = planned_info(operation, root, fragments, None, id="a", n=5)._raw_info
    ordinary = SimpleNamespace(_raw_info=GraphQLResolveInfo(*raw))  # graphql-core's own info
    fold(ordinary, fold_counted)
    assert len(seen) == 3


class Scheme(str):
    """A value equal to a plain string that need not answer as one (not kept)."""


def test_values_not_kept_fold_every_time() -> None:
    operation, root, fragments = parsed('query($s: String) { researcher(id: "a") { fields(scheme: $s) { count } } }')
    folds = Folds(fragments, [root])
    seen, fold_counted = counting()
    for _ in range(2):
        fold(planned_info(operation, root, fragments, folds, s=Scheme("topic")), fold_counted)
    assert len(seen) == 2 and not folds.kept
    fold(planned_info(operation, root, fragments, folds, s="topic"), fold_counted)
    assert len(folds.kept) == 1


@pytest.mark.parametrize("size", [1, 3])
def test_at_most_size_folds_are_kept(size: int) -> None:
    operation, root, fragments = parsed(QUERY)
    folds = Folds(fragments, [root], size=size)
    seen, fold_counted = counting()
    for n in range(10):
        parts = fold(planned_info(operation, root, fragments, folds, id="a", n=n), fold_counted)
        assert parts.papers is not None and parts.papers.limit == n
    assert len(folds.kept) == size and len(seen) == 10
    fold(planned_info(operation, root, fragments, folds, id="a", n=9), fold_counted)  # the newest is kept
    fold(planned_info(operation, root, fragments, folds, id="a", n=0), fold_counted)  # the oldest is not
    assert len(seen) == 11


def test_the_selection_read_is_the_ordinary_one() -> None:
    """A kept fold is what `Selection.of` reads for that request (the same walk, same variables)."""
    operation, root, fragments = parsed(QUERY)
    folds = Folds(fragments, [root])
    for n in (3, 7, 3):
        info = planned_info(operation, root, fragments, folds, id="a", n=n)
        assert fold(info, fold_profile) == fold_profile(Selection.of(info))  # type: ignore[arg-type]


def test_the_switch_turns_keeping_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """WEFT_KEEP_FOLDS=0 (`prefetch.KEEP_FOLDS`): planned fields fold every request too."""
    from weft.schema.support import prefetch

    monkeypatch.setattr(prefetch, "KEEP_FOLDS", False)
    operation, root, fragments = parsed(QUERY)
    folds = Folds(fragments, [root])
    seen, fold_counted = counting()
    for _ in range(2):
        fold(planned_info(operation, root, fragments, folds, id="a", n=5), fold_counted)
    assert len(seen) == 2 and not folds.kept
