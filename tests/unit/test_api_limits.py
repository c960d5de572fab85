"""The query cost rule, media-type negotiation and error coding (pure: no server, no database)."""

from __future__ import annotations

import doctest

import pytest
from graphql import GraphQLError, parse

from weft.graph.errors import InvalidInput, NotFound, Unavailable
from weft.schema.root import build_schema
from weft.schema.support.errors import coded
from weft.schema.support.limits import LIST_FACTOR, MAX_COST, QueryCost
from weft.server import graphql_request
from weft.server.graphql_request import preferred_media_type, prefers_html

SCHEMA = build_schema()._schema


def cost_of(query: str) -> int:
    document = parse(query)
    fragments = {d.name.value: d for d in document.definitions if d.kind == "fragment_definition"}
    operation = next(d for d in document.definitions if d.kind == "operation_definition")
    return QueryCost(SCHEMA, fragments).of_operation(operation)


def test_cost_counts_fields_and_multiplies_by_first() -> None:
    assert cost_of("{ version }") == 1
    # mostCited(first: 5): 1 + 5 * (edges: 1 + (node: 1 + title 1)); authors is a plain list (x LIST_FACTOR)
    assert cost_of("{ mostCited(first: 5) { edges { node { title } } } }") == 1 + 5 * (1 + (1 + 1))
    with_authors = "{ mostCited(first: 5) { edges { node { authors { rank } } } } }"
    assert cost_of(with_authors) == 1 + 5 * (1 + (1 + (1 + LIST_FACTOR * 1)))


def test_cost_uses_defaults_and_fragments() -> None:
    with_default = cost_of("{ mostCited { totalCount } }")
    assert with_default == 1 + 20 * 1
    via_fragment = cost_of("query { mostCited { ...F } } fragment F on PaperConnection { totalCount }")
    assert via_fragment == with_default


def test_nested_connections_exceed_budget() -> None:
    query = """{ researcher(id: "x") { coauthors(first: 100) { edges { node { researcher {
      coauthors(first: 100) { edges { node { researcher { papers(first: 100) { totalCount } } } } } } } } } } }"""
    assert cost_of(query) > MAX_COST


def test_fields_selected_through_an_interface_cost_as_on_the_type() -> None:
    on_type = cost_of('{ researcher(id: "x") { ... on Researcher { ids { id } altNames } } }')
    on_interface = cost_of('{ researcher(id: "x") { ... on NamedEntity { ids { id } altNames } } }')
    assert on_type == on_interface == 1 + (1 + LIST_FACTOR * 1) + 1


def test_introspection_is_free() -> None:
    assert cost_of("{ __schema { types { name fields { name } } } }") == 0


@pytest.mark.parametrize(
    ("accept", "media"),
    [
        (None, "application/json"),
        ("*/*", "application/json"),
        ("application/json", "application/json"),
        ("application/graphql-response+json", "application/graphql-response+json"),
        ("application/graphql-response+json, application/json", "application/graphql-response+json"),
        ("application/json, application/graphql-response+json", "application/json"),
        ("application/json;q=0.5, application/graphql-response+json", "application/graphql-response+json"),
        ("application/graphql-response+json;q=0", "application/json"),
    ],
)
def test_preferred_media_type(accept: str | None, media: str) -> None:
    assert preferred_media_type(accept) == media


@pytest.mark.parametrize(
    ("accept", "html"),
    [
        ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", True),  # Firefox
        ("text/html", True),
        ("text/*, application/json;q=0.5", True),
        (None, False),
        ("", False),
        ("*/*", False),
        ("application/json", False),
        ("application/json, text/html", False),
        ("text/html;q=0.5, application/graphql-response+json", False),
        ("text/html;q=0, */*", False),
    ],
)
def test_graphiql_only_when_html_is_preferred(accept: str | None, html: bool) -> None:
    assert prefers_html(accept) is html


def test_request_module_examples() -> None:
    failed, attempted = doctest.testmod(graphql_request)
    assert failed == 0 and attempted > 0


def _field_error(exc: Exception) -> GraphQLError:
    return GraphQLError(str(exc), path=["paper"], original_error=exc)


def test_expected_errors_keep_message_and_get_code() -> None:
    err = coded(_field_error(InvalidInput("`first` must be at most 100", argument="first")), "req1")
    assert err.extensions == {"code": "BAD_USER_INPUT", "argument": "first"}
    assert coded(_field_error(Unavailable("Neo4j is unavailable")), "r").extensions["code"] == "UNAVAILABLE"
    assert coded(_field_error(NotFound("no such")), "r").extensions["code"] == "NOT_FOUND"


def test_unexpected_errors_are_masked_with_request_id() -> None:
    err = coded(_field_error(KeyError("secret internals")), "abc123")
    assert "secret" not in err.message
    assert err.extensions == {"code": "INTERNAL_SERVER_ERROR", "requestId": "abc123"}
    assert err.original_error is None


NETWORK = "researcherNetwork(id: $id, depth: 3, limit: 1000) { nodes { id name } edges { source target weight } }"


def test_a_network_costs_its_limit_times_depth_and_limit_items_per_list() -> None:
    # 1 + 1000 × 3 researchers expanded + nodes (1 + 1000 × 2) + edges (1 + 1000 × 3)
    assert cost_of(f"query ($id: String!) {{ {NETWORK} }}") == 1 + 3000 + (1 + 2000) + (1 + 3000)
    small = 'query { institutionNetwork(id: "x", limit: 10) { nodes { id } } }'
    assert cost_of(small) == 1 + 10 + (1 + 10)
    default = '{ researcherNetwork(id: "x") { nodes { id } } }'
    assert cost_of(default) == 1 + 200 + (1 + 200)  # the defaults: depth 1, limit 200
    variables = 'query ($d: Int!, $l: Int!) { researcherNetwork(id: "x", depth: $d, limit: $l) { nodes { id } } }'
    assert cost_of(variables) == 1 + 1000 * 3 + (1 + 1000)  # unknown until run: the largest allowed


def test_thirty_of_the_largest_networks_exceed_the_budget_and_one_does_not() -> None:
    # issue 11 item 10: 30 aliases of researcherNetwork(depth: 3, limit: 1000) passed the budget and took 20 s
    one = f"query ($id: String!) {{ {NETWORK} }}"
    thirty = "query ($id: String!) { " + " ".join(f"n{k}: {NETWORK}" for k in range(30)) + " }"
    assert cost_of(one) <= MAX_COST < cost_of(thirty)
