"""Folded pages read only what their papers are asked (queries/projection.py `picked`): which properties a
selection reads (prefetch.node_props over schema/types/paper.py PAPER_READS) and the maps made again."""

from __future__ import annotations

import pytest
from graphql import GraphQLObjectType, OperationDefinitionNode, get_named_type, parse
from graphql.execution.values import VariableValues

from weft.graph.reads.page import unpicked, unpicked_in
from weft.graph.reads.papers import KEY_PROPS, PaperKey, paper_key
from weft.queries.projection import UNREAD, picked
from weft.schema.root import build_schema
from weft.schema.support.prefetch import NodeReads, Selection, _Walk, node_props
from weft.schema.types.paper import PAPER_READS, paper_props
from weft.schema.types.researcher import RESEARCHER_READS

SCHEMA = build_schema()._schema


def selection(text: str, variables: dict[str, object] | None = None) -> Selection:
    """What the query's first root field asks of the object it returns."""
    document = parse(text)
    operation = next(d for d in document.definitions if isinstance(d, OperationDefinitionNode))
    fragments = {d.name.value: d for d in document.definitions if not isinstance(d, OperationDefinitionNode)}
    root = operation.selection_set.selections[0]
    walk = _Walk(SCHEMA, fragments, VariableValues(sources={}, coerced=dict(variables or {})))
    query = SCHEMA.query_type
    assert query is not None
    field = query.fields[root.name.value]  # type: ignore[union-attr]
    return walk.selection(get_named_type(field.type), [root.selection_set])  # type: ignore[union-attr,list-item]


@pytest.mark.parametrize(("type_name", "reads"), [("Paper", PAPER_READS), ("Researcher", RESEARCHER_READS)])
def test_every_field_says_what_it_reads(type_name: str, reads: NodeReads) -> None:
    found = SCHEMA.get_type(type_name)
    assert isinstance(found, GraphQLObjectType)
    assert set(reads) == set(found.fields)


def test_a_page_reads_what_every_alias_of_its_nodes_asks() -> None:
    sel = selection(
        """query($no: Boolean!) { researcher(id: "x") {
          papers(first: 2) { edges { node { __typename title ...More } } }
          other: papers(first: 9) { edges { n: node { doi year @skip(if: $no) } } }
        } }
        fragment More on Paper { citedByCountSources { value } slug }""",
        {"no": True},
    )
    props = paper_props(sel.every("papers", "edges", "node"))
    assert props is not None and props[0] == "id"
    assert set(props) == {"id", "title", "doi"} | {p for p in props if p.startswith("cited_by_count_")}
    assert "year" not in props  # skipped
    cursors = selection("{ mostCited { edges { cursor } } }")
    assert paper_props(cursors.every("edges", "node")) == ("id",)  # no node asked: the id alone


def test_a_field_the_table_does_not_list_reads_every_property() -> None:
    sel = selection("{ mostCited { edges { node { title abstract } } } }")
    assert node_props(sel.every("edges", "node"), {"title": ("title",)}) is None
    assert paper_props(sel.every("edges", "node")) == ("id", "title", "abstract")


def test_nodes_inside_rows_become_maps_again() -> None:
    rows = [{"weight": 2, "researcher": ["r1", "Ada", None]}]
    assert unpicked_in(rows, "researcher", ("id", "name"), "paper_count") == [
        {"weight": 2, "researcher": {"id": "r1", "name": "Ada"}}
    ]
    assert unpicked_in(rows, "researcher", None) is rows


def test_values_become_maps_without_the_unset_properties() -> None:
    rows = unpicked([["p1", "A title", None], ["p2", None, 3]], ("id", "title", "year"))
    assert rows == [{"id": "p1", "title": "A title"}, {"id": "p2", "year": 3}]
    whole = [{"id": "p1", "abstract": "…"}]
    assert unpicked(whole, None) is whole


def test_a_keyed_page_reads_what_its_cursor_needs() -> None:
    row = dict(zip(KEY_PROPS, ("p9", 12, "2021-02-03"), strict=True))
    assert paper_key(row, "MOST_CITED") == PaperKey(12, "2021-02-03", "p9")


def test_picked_projects_the_named_properties_or_the_lean_map() -> None:
    text = picked("x", "$papers.props")
    assert "[k IN $papers.props | x[k]]" in text and "x {.*, " + UNREAD + "}" in text


def test_an_institution_page_reads_what_its_roster_researchers_ask() -> None:
    """The folded roster reads the researchers' properties every alias of the roster asks, the id first."""
    from weft.graph.reads.institutions import InstitutionParts
    from weft.schema.support.parts import fold_parts
    from weft.schema.types.institution import INSTITUTION_PAGE

    def fold_institution(sel: Selection) -> InstitutionParts:
        return fold_parts(sel, INSTITUTION_PAGE, InstitutionParts)

    sel = selection(
        """{ institution(id: "x") { name
          roster(first: 3) { totalCount edges { node { paperCount researcher { name } } } }
          again: roster(first: 3) { edges { node { researcher { orcid } } } } } }"""
    )
    roster = fold_institution(sel).roster
    assert roster is not None and roster.props == ("id", "name", "orcid")
    counted = selection('{ institution(id: "x") { roster { totalCount } } }')
    assert fold_institution(counted).roster.props == ("id",)  # type: ignore[union-attr]
    nested = selection(
        '{ institution(id: "x") { roster { edges { node { researcher { papers { totalCount } } } } } } }'
    )
    assert fold_institution(nested).roster.props == ("id",)  # type: ignore[union-attr]  # a list loads by id
