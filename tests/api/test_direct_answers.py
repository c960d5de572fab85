"""Repeated documents answered without graphql-core (schema/support/direct.py) answer exactly as the ordinary path.

Every request here is sent twice to one app on the shared OpenAlex data: once with the direct path off, once
on (the first request has prepared the document, so the second finds a plan). The two responses must be
the same bytes with the same status and headers (Cypher query count included), and `x-weft-direct` says
which path answered, so a test fails when the direct path did not run where it should, or ran where it
must not.
"""

from __future__ import annotations

import dataclasses
import gc
import re
import socket
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from bench import serve_queries as shapes
from tests.api.conftest import executing
from weft.graph.settings import PROJECT_ROOT, Settings
from weft.schema.support import direct, prefetch
from weft.server.app import create_app

BUTCHER = "A5032473237"
README_PAPER = "W3000695681"
BANGOR_ROR = "006jb1a24"
PER_REQUEST = ("x-request-id", "x-weft-direct")


@pytest.fixture(scope="module", autouse=True)
def loaded(openalex_graph):
    return openalex_graph


@pytest.fixture(scope="module")
def http(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(executing(settings))) as client:
        yield client


def _post(http: TestClient, on: bool, body: dict[str, Any], headers: dict[str, str]) -> httpx.Response:
    direct.DIRECT = on
    try:
        return http.post("/graphql", json=body, headers=headers)
    finally:
        direct.DIRECT = True


def both(
    http: TestClient,
    query: str,
    variables: dict[str, Any] | None = None,
    *,
    operation: str | None = None,
    accept: str = "application/json",
) -> tuple[httpx.Response, httpx.Response]:
    """(ordinary, direct) responses to one request; asserts they are the same bytes, status and headers
    (but for `x-weft-cypher-queries` when the direct path gave up and the ordinary path answered)."""
    body: dict[str, Any] = {"query": query, "variables": variables}
    if operation is not None:
        body["operationName"] = operation
    headers = {"accept": accept}
    ordinary = _post(http, False, body, headers)
    answered = _post(http, True, body, headers)
    assert "x-weft-direct" not in ordinary.headers
    assert answered.status_code == ordinary.status_code
    assert answered.content == ordinary.content
    skip = PER_REQUEST if answered.headers.get("x-weft-direct") else (*PER_REQUEST, "x-weft-cypher-queries")
    assert _headers(answered, skip) == _headers(ordinary, skip)
    return ordinary, answered


def _headers(response: httpx.Response, skip: tuple[str, ...]) -> dict[str, str]:
    return {k: v for k, v in response.headers.items() if k not in skip}


def direct_answers(http: TestClient, query: str, variables: dict[str, Any] | None = None, **kw: Any) -> dict:
    """The request answered the same both ways, the second time by the direct path; its decoded body."""
    _, answered = both(http, query, variables, **kw)
    assert answered.headers.get("x-weft-direct") == "1", answered.text[:300]
    return answered.json()


def ordinary_answers(http: TestClient, query: str, variables: dict[str, Any] | None = None, **kw: Any) -> dict:
    """The request answered the same both ways, both times by the ordinary path; its decoded body."""
    _, answered = both(http, query, variables, **kw)
    assert "x-weft-direct" not in answered.headers
    return answered.json()


def readme_queries() -> dict[str, str]:
    text = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```graphql\n(.*?)```", text, re.DOTALL)
    return {m.group(1): b for b in blocks if (m := re.search(r"query (\w+)", b))}


# --- covered: the direct path answers, byte for byte as the ordinary one ----------------------------


@pytest.mark.parametrize("name", ["ResearcherProfile", "PaperPage", "InstitutionRoster", "MostCited"])
def test_readme_queries(http: TestClient, name: str) -> None:
    body = direct_answers(http, readme_queries()[name])
    assert all(v is not None for v in body["data"].values())


def test_readme_search_takes_the_ordinary_path(http: TestClient) -> None:
    """`search` returns a union (its runtime type is resolved per hit): not planned."""
    body = ordinary_answers(http, readme_queries()["Search"])
    assert body["data"]["search"]["edges"]


@pytest.mark.parametrize(
    ("query", "ids"),
    [
        (shapes.PROFILE, [BUTCHER, "A5065371627", "A5039168231"]),
        (shapes.PAPER, [README_PAPER, "W2741809807", "W3188841554"]),
        (shapes.ROSTER, [BANGOR_ROR, "0197nmp73"]),
        (shapes.PAPER_PAIR_WEFT, [README_PAPER, "W2741809807"]),
    ],
    ids=["profile", "paper", "roster", "paper-pair"],
)
def test_benchmark_shapes(http: TestClient, query: str, ids: list[str]) -> None:
    for id_ in ids:
        body = direct_answers(http, query, {"id": id_})
        assert next(iter(body["data"].values())) is not None, id_


def test_most_cited_shape(http: TestClient) -> None:
    assert len(direct_answers(http, shapes.MOST_CITED)["data"]["mostCited"]["edges"]) == 20


def test_peer_pairs(http: TestClient) -> None:
    pairs = shapes.shared_pairs()
    for pair in pairs.values():
        for k in range(max(1, len(pair.ids))):
            direct_answers(http, pair.weft, pair.variables(k))


def test_network_pair_takes_the_ordinary_path(http: TestClient, openalex_graph) -> None:
    rid = openalex_graph.execute_query("MATCH (r:Researcher {openalex_id: $oa}) RETURN r.id AS id", oa=BUTCHER)
    ordinary_answers(http, shapes.NETWORK, {"id": rid.records[0]["id"]})


ALIASED = """query($id: String!, $n: Int!) { who: researcher(id: $id) {
  __typename
  name
  recent: papers(first: $n) { totalCount edges { cursor node { __typename title year } } }
  cited: papers(first: 2, sort: MOST_CITED) { totalCount pageInfo { hasNextPage endCursor } edges { node { title } } }
  coauthors(first: 3) { edges { node { weight researcher { name paperCount hIndex } } } }
  heavy: coauthors(first: 1, minWeight: 2) { totalCount }
  fields(first: 2) { count category { name } }
  topics: fields(scheme: "topic", first: 1) { count }
} same: researcher(id: $id) { paperCount } __typename }"""


def test_aliases_variables_and_typename(http: TestClient) -> None:
    """Second aliases with other arguments load through their DataLoaders (awaited, level by level)."""
    body = direct_answers(http, ALIASED, {"id": BUTCHER, "n": 4})
    who = body["data"]["who"]
    assert who["__typename"] == "Researcher" and len(who["recent"]["edges"]) == 4
    assert who["heavy"]["totalCount"] > 0 and body["data"]["__typename"] == "Query"
    assert direct_answers(http, ALIASED, {"id": BUTCHER, "n": 0})["data"]["who"]["recent"]["edges"] == []


FRAGMENTS = """query Page($id: String!) { paper(id: $id) { ...Head ... on Paper { authors { ...Who position } } } }
fragment Head on Entity { id slug canonicalUrl ids { source id url } ... on Paper { title doi } }
fragment Who on Authorship { researcher { ... on NamedEntity { name } ...Head } rank }
query Other { version }"""


def test_fragments_and_operation_names(http: TestClient) -> None:
    page = direct_answers(http, FRAGMENTS, {"id": README_PAPER}, operation="Page")["data"]["paper"]
    assert page["title"] and page["authors"][0]["researcher"]["slug"]
    assert direct_answers(http, FRAGMENTS, operation="Other") == {"data": {"version": "weft 0.1.0"}}


def test_several_root_fields(http: TestClient) -> None:
    query = f"""{{ researcher(id: "{BUTCHER}") {{ name }} paper(id: "{README_PAPER}") {{ title }}
      institution(id: "{BANGOR_ROR}") {{ name parent {{ name }} children {{ name }} }}
      mostCited(first: 2, yearFrom: 2015) {{ totalCount edges {{ node {{ year }} }} }}
      papers(first: 2, sort: OLDEST) {{ edges {{ node {{ year }} }} }} }}"""
    body = direct_answers(http, query)
    assert None not in body["data"].values()


@pytest.mark.parametrize("root", ["researcher", "paper", "institution"])
def test_unknown_ids_answer_null(http: TestClient, root: str) -> None:
    query = f"query($id: String!) {{ {root}(id: $id) {{ id name: __typename }} }}"
    assert direct_answers(http, query, {"id": "no-such-thing-42"}) == {"data": {root: None}}


def test_graphql_response_media_type(http: TestClient) -> None:
    ordinary, answered = both(http, shapes.MOST_CITED, accept="application/graphql-response+json")
    assert answered.headers["x-weft-direct"] == "1"
    assert answered.headers["content-type"].startswith("application/graphql-response+json")


def test_unfolded_answers_are_the_same(http: TestClient, monkeypatch) -> None:
    """With folding off every nested field loads through its DataLoader: the direct path awaits them all."""
    monkeypatch.setattr(prefetch, "FOLDING", False)
    direct_answers(http, shapes.PROFILE, {"id": BUTCHER})
    direct_answers(http, shapes.PAPER, {"id": README_PAPER})


# --- not covered, or refused on the way: the ordinary path answers (and reports the errors) ------------


def test_invalid_arguments(http: TestClient) -> None:
    """A literal the resolver refuses: the direct attempt gives up, and the text is not tried again."""
    query = f'{{ researcher(id: "{BUTCHER}") {{ name papers(first: 500) {{ totalCount }} }} }}'
    ordinary, answered = both(http, query)
    assert "x-weft-direct" not in answered.headers
    assert answered.json()["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    again = _post(http, True, {"query": query}, {})
    assert "x-weft-direct" not in again.headers
    assert again.headers["x-weft-cypher-queries"] == ordinary.headers["x-weft-cypher-queries"]


@pytest.mark.parametrize(
    "variables",
    [
        {"id": BUTCHER, "n": 500},  # refused by the resolver
        {"id": BUTCHER, "n": -1},
        {"id": BUTCHER, "n": "five"},  # not an Int: a request error
        {"id": BUTCHER},  # missing
        {"id": 42, "n": 1},  # not a String
        {"id": "x" * 600, "n": 1},  # past the argument cap
    ],
)
@pytest.mark.parametrize("accept", ["application/json", "application/graphql-response+json"])
def test_bad_variables(http: TestClient, variables: dict[str, Any], accept: str) -> None:
    body = ordinary_answers(http, ALIASED, variables, accept=accept)
    assert body["errors"]
    # a good request of the same text still goes the direct way
    direct_answers(http, ALIASED, {"id": BUTCHER, "n": 1}, accept=accept)


def test_bad_cursor(http: TestClient) -> None:
    query = "query($after: String) { mostCited(first: 2, after: $after) { edges { cursor } } }"
    assert ordinary_answers(http, query, {"after": "not-a-cursor"})["errors"]
    direct_answers(http, query, {"after": None})


@pytest.mark.parametrize(
    "query",
    [
        f'query($no: Boolean!) {{ researcher(id: "{BUTCHER}") {{ name @skip(if: $no) }} }}',  # directives
        f'{{ researcher(id: "{BUTCHER}") {{ nope }} }}',  # invalid: never prepared
        '{ autocomplete(prefix: "butch", first: 2) { label } }',  # a root field not planned
        "{ __schema { queryType { name } } }",  # introspection
    ],
)
def test_not_planned(http: TestClient, query: str) -> None:
    ordinary_answers(http, query, {"no": False})


def test_past_the_deadline(http: TestClient) -> None:
    """A direct answer that runs out of time answers as the ordinary path does (UNAVAILABLE, 503 with
    graphql-response+json)."""
    state = http.app.state  # type: ignore[attr-defined]
    before = state.settings
    _post(http, True, {"query": shapes.MOST_CITED}, {})  # prepared and planned
    state.settings = dataclasses.replace(before, request_deadline_s=0.0)
    try:
        for accept in ("application/json", "application/graphql-response+json"):
            ordinary = _post(http, False, {"query": shapes.MOST_CITED}, {"accept": accept})
            answered = _post(http, True, {"query": shapes.MOST_CITED}, {"accept": accept})
            assert answered.status_code == ordinary.status_code and answered.content == ordinary.content
            assert ordinary.json()["errors"][0]["extensions"]["code"] == "UNAVAILABLE"
    finally:
        state.settings = before


def test_off_switch(http: TestClient) -> None:
    """WEFT_DIRECT=0 (`direct.DIRECT`): every request takes the ordinary path."""
    _post(http, True, {"query": shapes.MOST_CITED}, {})
    assert "x-weft-direct" not in _post(http, False, {"query": shapes.MOST_CITED}, {}).headers
    assert _post(http, True, {"query": shapes.MOST_CITED}, {}).headers["x-weft-direct"] == "1"


@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")
def test_work_of_a_refused_request_is_stopped(http: TestClient) -> None:
    """`vectorModel` has sent its query when `similar(first: 500)` is refused: the direct attempt cancels it
    and waits (no session left to the garbage collector), then the ordinary path answers."""
    query = "query($id: String!) { paper(id: $id) { vectorModel title similar(first: 500) { score } } }"
    for _ in range(3):
        body = ordinary_answers(http, query, {"id": README_PAPER})
        assert body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    gc.collect()


def test_an_outage_does_not_take_a_document_off_the_direct_path(settings: Settings) -> None:
    """A document with no variables that the database could not answer keeps its plan (a refused one would
    take the ordinary path for the worker's lifetime, long after Neo4j is back)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    dead = dataclasses.replace(executing(settings), neo4j_uri=f"bolt://127.0.0.1:{closed}", connect_timeout_s=1.0)
    with TestClient(create_app(dead)) as client:
        # a draining worker refuses before any plan (server/availability.py): these are requests begun
        # before its probe saw the outage, which do reach the direct path
        client.app.state.availability = None  # type: ignore[attr-defined]
        for _ in range(2):  # prepared, then planned and tried
            response = client.post("/graphql", json={"query": shapes.MOST_CITED})
            assert response.json()["errors"][0]["extensions"]["code"] == "UNAVAILABLE"
        route = next(r for r in client.app.routes if getattr(r, "path", None) == "/graphql")  # type: ignore[attr-defined]
        plans = route.app.app.schema.direct
        assert isinstance(plans.plans[(shapes.MOST_CITED, None)], direct.Plan)


# --- folds kept by the plan (prefetch.Folds): only under the values of the variables the selection uses ----

NESTED_VARIABLES = """query($id: String!, $n: Int!, $k: Int, $sort: PaperSort, $min: Int! = 1, $scheme: String,
  $y: Int) {
  researcher(id: $id) {
    name hIndex
    papers(first: $n, sort: $sort, yearFrom: $y) { totalCount edges { cursor node { title year } } }
    coauthors(first: $k, minWeight: $min) { totalCount edges { node { weight researcher { name paperCount } } } }
    fields(scheme: $scheme, first: $n) { count category { name } }
  }
}"""


def _queries(response: httpx.Response) -> int:
    return int(response.headers["x-weft-cypher-queries"])


def test_a_kept_fold_follows_the_nested_variables(http: TestClient) -> None:
    """Each request runs the one folded query both ways: a fold kept for other values of `$n`, `$k`, `$sort`,
    `$min`, `$scheme` or `$y` would prime pages the resolvers do not load (more queries, a different
    x-weft-cypher-queries). Values come back after others (a kept fold is reused), variables are left out
    (their defaults) and given null, and ids change (the fold is reused: the id is no part of it)."""
    requests: list[dict[str, Any]] = [
        {"id": BUTCHER, "n": 4, "k": 3},
        {"id": BUTCHER, "n": 2, "k": 3},
        {"id": BUTCHER, "n": 4, "k": 3},
        {"id": BUTCHER, "n": 4, "k": 1},
        {"id": BUTCHER, "n": 4},  # not given: the default page size
        {"id": BUTCHER, "n": 4, "k": 3, "y": 2019},
        {"id": BUTCHER, "n": 4, "k": 3, "y": None},
        {"id": BUTCHER, "n": 4, "k": 3, "sort": "MOST_CITED"},
        {"id": BUTCHER, "n": 4, "k": 3, "sort": "OLDEST"},
        {"id": BUTCHER, "n": 4, "k": 3, "min": 2},
        {"id": BUTCHER, "n": 4, "k": 3, "scheme": "topic"},
        {"id": BUTCHER, "n": 0, "k": 0},
        {"id": "A5065371627", "n": 4, "k": 3},
        {"id": "A5039168231", "n": 2, "k": 3, "sort": "MOST_CITED"},
        {"id": BUTCHER, "n": 4, "k": 3},
    ]
    for variables in requests:
        ordinary, answered = both(http, NESTED_VARIABLES, variables)
        assert answered.headers.get("x-weft-direct") == "1", variables
        assert _queries(answered) == _queries(ordinary) == 1, variables
        researcher = answered.json()["data"]["researcher"]
        assert len(researcher["papers"]["edges"]) == min(variables["n"], researcher["papers"]["totalCount"])


NESTED_PAGE = """query($id: String!, $cited: Int, $refs: Int, $sort: PaperSort) {
  paper(id: $id) {
    title authors { rank researcher { name paperCount } }
    citedBy(first: $cited, sort: $sort) { totalCount edges { node { title } } }
    references(first: $refs) { totalCount edges { node { title } } }
  }
}"""

NESTED_ROSTER = """query($id: String!, $n: Int, $m: Int, $c: Int, $children: Boolean, $yearFrom: Int) {
  institution(id: $id) {
    name
    roster(first: $n, includeChildren: $children, yearFrom: $yearFrom) {
      totalCount edges { node { paperCount researcher { name } } }
    }
    mostCited(first: $m) { title }
    collaborators(first: $c) { totalCount edges { node { weight institution { name } } } }
  }
}"""


ROSTER_ALIASES = """query($id: String!) { institution(id: $id) {
  roster(first: 5) { totalCount edges { node { paperCount researcher { name } } } }
  wider: roster(first: 5) { edges { node { researcher { id name orcid hIndex slug ids { source id } } } } }
  other: roster(first: 2, yearFrom: 2018) { edges { node { researcher { name paperCount } } } }
} }"""


def test_roster_researchers_read_as_asked(http: TestClient, monkeypatch) -> None:
    """The folded roster reads only the researchers' properties its aliases ask (`picked`): the answer is the
    same both ways and as with nothing folded (every researcher read whole by its DataLoader), and asking more
    of the researchers costs no more queries."""
    for ror in (BANGOR_ROR, "0197nmp73"):
        _, answered = both(http, ROSTER_ALIASES, {"id": ror})
        _, narrow = both(
            http, ROSTER_ALIASES.replace("id name orcid hIndex slug ids { source id }", "hIndex"), {"id": ror}
        )
        assert _queries(answered) == _queries(narrow)  # the folded page holds what `wider` asks: no re-read
        folded = direct_answers(http, ROSTER_ALIASES, {"id": ror})
        with monkeypatch.context() as unfolded:
            unfolded.setattr(prefetch, "FOLDING", False)
            assert direct_answers(http, ROSTER_ALIASES, {"id": ror}) == folded
        body = folded["data"]["institution"]
        names = [e["node"]["researcher"]["name"] for e in body["roster"]["edges"]]
        wider = body["wider"]["edges"]
        assert names == [e["node"]["researcher"]["name"] for e in wider] and all(names)
        assert all(e["node"]["researcher"]["slug"] and e["node"]["researcher"]["ids"] for e in wider)


@pytest.mark.parametrize(
    ("query", "requests"),
    [
        (
            NESTED_PAGE,
            [
                {"id": README_PAPER, "cited": 5, "refs": 5},
                {"id": README_PAPER, "cited": 1, "refs": 5},
                {"id": README_PAPER, "cited": 5, "refs": 2},
                {"id": README_PAPER, "cited": 5, "refs": 5, "sort": "NEWEST"},
                {"id": README_PAPER},
                {"id": "W2741809807", "cited": 5, "refs": 5},
                {"id": README_PAPER, "cited": 5, "refs": 5},
            ],
        ),
        (
            NESTED_ROSTER,
            [
                {"id": BANGOR_ROR, "n": 10, "m": 3, "c": 5},
                {"id": BANGOR_ROR, "n": 2, "m": 3, "c": 5},
                {"id": BANGOR_ROR, "n": 10, "m": 1, "c": 5},
                {"id": BANGOR_ROR, "n": 10, "m": 3, "c": 2},
                {"id": BANGOR_ROR, "n": 10, "m": 3, "c": 5, "children": True},
                {"id": BANGOR_ROR, "n": 10, "m": 3, "c": 5, "yearFrom": 2018},
                {"id": "0197nmp73", "n": 10, "m": 3, "c": 5},
                {"id": BANGOR_ROR, "n": 10, "m": 3, "c": 5},
            ],
        ),
    ],
    ids=["paper", "roster"],
)
def test_kept_folds_of_pages_and_rosters(http: TestClient, query: str, requests: list[dict[str, Any]]) -> None:
    """As above for the paper page and the roster: same bytes and the same Cypher count both ways, request
    after request, whatever values the nested pages take."""
    for variables in requests:
        ordinary, answered = both(http, query, variables)
        assert answered.headers.get("x-weft-direct") == "1", variables
        assert _queries(answered) == _queries(ordinary), variables


def test_a_fold_is_worked_out_once_per_plan(http: TestClient, monkeypatch) -> None:
    """With no variable below the root, the direct path folds the profile once for every id; the ordinary
    path folds it on each request. A new nested value is folded once more."""
    from weft.schema.roots import researchers

    folded: list[bool] = []
    real = researchers.fold_profile

    def counted(sel: prefetch.Selection) -> Any:
        folded.append(direct.DIRECT)
        return real(sel)

    monkeypatch.setattr(researchers, "fold_profile", counted)
    query = shapes.PROFILE.replace("ResearcherProfile", "FoldedOnce")  # a text no other test planned
    ids = [BUTCHER, "A5065371627", "A5039168231", BUTCHER]
    for id_ in ids:
        direct_answers(http, query, {"id": id_})
    assert folded.count(False) == len(ids) and folded.count(True) == 1
    folded.clear()
    for n in (3, 1, 3, 1):
        direct_answers(http, NESTED_VARIABLES.replace("query(", "query FoldedPerValue("), {"id": BUTCHER, "n": n})
    assert folded.count(False) == 4 and folded.count(True) == 2


def test_literal_arguments_kept_converted(http: TestClient) -> None:
    """Literal arguments are converted once per plan when immutable (`first`, `sort`), every request when a
    resolver gets an input object (`filter`): the same answers request after request."""
    query = """{ papers(filter: {yearFrom: 2015, minCitations: 5}, first: 3, sort: MOST_CITED) {
      totalCount edges { cursor node { title year citedByCount authors { rank } } } }
      mostCited(first: 2, yearTo: 2020) { edges { node { title references(first: 2) { totalCount } } } } }"""
    for _ in range(3):
        body = direct_answers(http, query)
        assert all(e["node"]["year"] >= 2015 for e in body["data"]["papers"]["edges"])
