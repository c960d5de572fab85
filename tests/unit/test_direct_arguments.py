"""A planned field's arguments (schema/support/direct.py): converted once when they are literals of immutable
values, converted on every request when a variable is among them or a value could be changed by a resolver."""

from __future__ import annotations

from graphql import OperationDefinitionNode, parse
from graphql.execution.values import get_argument_values
from strawberry.types.arguments import convert_arguments

from weft.schema.root import build_schema
from weft.schema.support.direct import FieldPlan, Plan, Run
from weft.schema.support.enums import PaperSort
from weft.schema.types.paper_filter_input import PaperFilterInput

SCHEMA = build_schema()
assert SCHEMA.direct is not None

QUERY = """query($id: String!, $n: Int!) {
  cited: mostCited(first: 2, yearFrom: 2015) { totalCount }
  listed: papers(filter: {yearFrom: 2019}, first: 2, sort: OLDEST) { totalCount }
  paged: mostCited(first: $n) { totalCount }
  researcher(id: $id) { name }
}"""


def plan_of(query: str) -> tuple[Plan, dict[str, FieldPlan]]:
    document = parse(query)
    assert isinstance(document.definitions[0], OperationDefinitionNode)
    plan = SCHEMA.direct._build(document, None)  # type: ignore[union-attr]
    return plan, {f.key: f for f in plan.root.fields}


def arguments(field: FieldPlan, run: Run) -> dict[str, object]:
    kwargs = field._kwargs(run)
    return {k: v for k, v in kwargs.items() if k != "info"}


def converted_afresh(field: FieldPlan, plan: Plan, run: Run) -> dict[str, object]:
    assert field.strawberry is not None and field.definition is not None
    raw = get_argument_values(field.definition, field.nodes[0], run.variables)
    return convert_arguments(raw, field.strawberry.arguments, plan.scalar_registry, plan.config)


def test_literal_scalars_are_converted_once() -> None:
    plan, fields = plan_of(QUERY)
    run = Run(plan, object(), plan.variables({"id": "x", "n": 3}))
    cited = fields["cited"]
    first = arguments(cited, run)
    assert first["first"] == 2 and first["year_from"] == 2015
    assert cited.converted is not None
    again = cited._kwargs(run)
    again["first"] = 99  # a resolver's own dict: changing it changes nothing kept
    assert arguments(cited, run) == first == converted_afresh(cited, plan, run)
    assert again is not cited.converted


def test_input_objects_and_variables_are_converted_every_request() -> None:
    plan, fields = plan_of(QUERY)
    listed, paged = fields["listed"], fields["paged"]
    for n in (3, 5):
        run = Run(plan, object(), plan.variables({"id": "x", "n": n}))
        found = arguments(listed, run)
        assert isinstance(found["filter"], PaperFilterInput) and found["sort"] is PaperSort.OLDEST
        assert found == converted_afresh(listed, plan, run)
        assert arguments(paged, run)["first"] == n
    assert listed.converted is None and paged.converted is None
    run = Run(plan, object(), plan.variables({"id": "x", "n": 3}))
    assert arguments(listed, run)["filter"] is not arguments(listed, run)["filter"]  # a new input object each time
