"""The one-pass completion of plain-data lists gives graphql-core's answers, errors included."""

from __future__ import annotations

import asyncio
import datetime
import enum
from typing import Any

import pytest
import strawberry

from weft.schema.support import execution
from weft.schema.support.limits import PreparedDocuments


@strawberry.enum
class Kind(enum.Enum):
    FIRST = "first"
    LAST = "last"


@strawberry.interface
class Named:
    name: str


@strawberry.type
class Tie:
    source: str
    weight: int
    share: float | None
    kind: Kind
    when: datetime.date | None
    tags: list[str]
    big: int | None = None


@strawberry.type
class Node(Named):
    id: strawberry.ID
    ties: list[Tie]
    best: Tie | None

    @strawberry.field
    def shout(self) -> str:
        return self.name.upper()


def _nodes(broken: str | None) -> list[Node]:
    ties = [
        Tie(source="a", weight=3, share=0.5, kind=Kind.FIRST, when=datetime.date(2024, 5, 1), tags=["x", "y"]),
        Tie(source="b", weight=1, share=None, kind=Kind.LAST, when=None, tags=[]),
    ]
    if broken == "null":
        ties.append(Tie(source=None, weight=2, share=1.0, kind=Kind.LAST, when=None, tags=[]))  # type: ignore[arg-type]
    if broken == "overflow":
        ties.append(Tie(source="c", weight=2, share=1.0, kind=Kind.LAST, when=None, tags=[], big=2**40))
    return [Node(id=strawberry.ID(f"n{k}"), name=f"node {k}", ties=ties, best=ties[0] if k else None) for k in range(3)]


@strawberry.type
class Query:
    @strawberry.field
    def nodes(self, broken: str | None = None) -> list[Node]:
        return _nodes(broken)

    @strawberry.field
    def named(self) -> list[Named]:
        return list(_nodes(None))

    @strawberry.field
    def one(self, broken: str | None = None) -> Node:
        return _nodes(broken)[1]


def _run(query: str, flat: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any] | None, list[Any], int]:
    """The answer with the fast path on or off, and how many rows the fast path built."""
    built = 0
    row = execution._Plan.row

    def counting(self: Any, item: Any) -> dict[str, Any]:
        nonlocal built
        built += 1
        return row(self, item)

    monkeypatch.setattr(execution, "FLAT_LISTS", flat)
    monkeypatch.setattr(execution._Plan, "row", counting)
    schema = strawberry.Schema(query=Query, execution_context_class=execution.FlatListExecutor)
    result = asyncio.run(schema.execute(query))
    errors = [(e.message, e.path) for e in result.errors or []]
    return result.data, errors, built


QUERIES = {
    "plain": "{ nodes { id name ties { source weight share kind when tags } best { weight } } }",
    "aliases and typename": "{ nodes { __typename key: id ties { w: weight, __typename, s: source } } }",
    "fragments and skip": """query { nodes { ...N ties { ... on Tie { weight } source @skip(if: true) } } }
        fragment N on Node { name ties { kind } }""",
    "a resolver inside": "{ nodes { id shout ties { weight } } }",
    "an interface": "{ named { name ... on Node { id ties { weight } } } }",
    "null in a non-null field": '{ nodes(broken: "null") { id ties { source weight } } }',
    "an Int out of range": '{ nodes(broken: "overflow") { id ties { weight big } } }',
    "one object": "{ one { id name shout best { weight kind when } ties { source } } }",
    "one object, a bad value in its list": '{ one(broken: "overflow") { id name ties { big } } }',
}


@pytest.mark.parametrize("name", list(QUERIES))
def test_fast_path_answers_as_graphql_core(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _run(QUERIES[name], True, monkeypatch)
    slow = _run(QUERIES[name], False, monkeypatch)
    assert fast[:2] == slow[:2]
    assert slow[2] == 0
    if name in ("plain", "aliases and typename", "fragments and skip"):
        assert fast[2] >= 3  # the node lists themselves went the fast way
    if name in ("null in a non-null field", "an Int out of range"):
        assert fast[1], "the ordinary path reports the bad value"


def test_plain_fields_of_one_object_complete_without_graphql_cores_field_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 53: a plain field of any object (an attribute, a built-in or custom scalar, a plain object) is read and
    coerced directly; graphql-core's per-field path runs only for resolvers (and what the fast path refuses)."""
    ordinary = execution.StrawberryGraphQLCoreExecutionContext.execute_field
    asked: list[str] = []

    def counting(self: Any, parent_type: Any, source: Any, details: Any, *rest: Any) -> Any:
        asked.append(details[0].node.name.value)
        return ordinary(self, parent_type, source, details, *rest)

    monkeypatch.setattr(execution.StrawberryGraphQLCoreExecutionContext, "execute_field", counting)
    schema = strawberry.Schema(query=Query, execution_context_class=execution.FlatListExecutor)
    result = asyncio.run(schema.execute("{ one { id name shout best { weight when } __typename } }"))
    assert result.errors is None
    assert result.data == {
        "one": {
            "id": "n1",
            "name": "node 1",
            "shout": "NODE 1",
            "best": {"weight": 3, "when": "2024-05-01"},
            "__typename": "Node",
        }
    }
    assert asked == ["one", "shout", "__typename"]


def test_plain_rows_keep_selection_order_and_coerce() -> None:
    schema = strawberry.Schema(query=Query, execution_context_class=execution.FlatListExecutor)
    result = asyncio.run(schema.execute("{ nodes { ties { when weight kind } } }"))
    assert result.errors is None and result.data is not None
    first = result.data["nodes"][0]["ties"][0]
    assert list(first) == ["when", "weight", "kind"]
    assert first == {"when": "2024-05-01", "weight": 3, "kind": "FIRST"}


def test_plans_are_shared_across_requests_unless_a_variable_can_change_the_selection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built = 0
    build = execution.FlatListExecutor._build_plan

    def counting(self: Any, *args: Any) -> Any:
        nonlocal built
        built += 1
        return build(self, *args)

    monkeypatch.setattr(execution.FlatListExecutor, "_build_plan", counting)
    monkeypatch.setattr(execution, "_SHARED", execution._SharedPlans())
    prepared = PreparedDocuments()  # the app's parsed-document cache: a repeated text brings the same nodes
    schema = strawberry.Schema(
        query=Query, extensions=[prepared.extension], execution_context_class=execution.FlatListExecutor
    )
    plain = "query { nodes { id ...T } } fragment T on Node { ties { source weight } }"
    first = asyncio.run(schema.execute(plain))
    after_first = built
    again = asyncio.run(schema.execute(plain))
    assert after_first >= 2 and built == after_first, "the second request reuses the first one's plans"
    assert first.data == again.data and again.errors is None

    skipping = "query($s: Boolean!) { nodes { id ties { source @skip(if: $s) weight } } }"
    answers = [asyncio.run(schema.execute(skipping, variable_values={"s": s})) for s in (True, False, True)]
    assert [list(a.data["nodes"][0]["ties"][0]) for a in answers if a.data] == [
        ["weight"],
        ["source", "weight"],
        ["weight"],
    ]
