"""Collaboration networks over HTTP on the shared OpenAlex data: researcherNetwork, collaborationPath,
institutionNetwork, their analytics against networkx, the cache, the exports and `weft analytics`.

Expected values are computed here from the raw OpenAlex JSON (the newest version of each work) or,
for analytics, by networkx run directly on the edges this test reads from Neo4j.
"""

from __future__ import annotations

import dataclasses
import io
import json
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from itertools import combinations
from pathlib import Path

import networkx as nx
import pytest
from neo4j import Driver
from starlette.testclient import TestClient
from typer.testing import CliRunner

from tests.api.conftest import executing
from tests.conftest import shared_path
from weft.graph.analytics import centrality
from weft.graph.interruptible import THREAD_NAME
from weft.graph.settings import Settings
from weft.server.app import create_app
from weft.server.cli import app as cli_app

pytestmark = pytest.mark.writes_shared_load  # analytics, loads: the next module loads afresh

BUTCHER = "A5032473237"  # Peter Butcher: 28 works in the set
KUNCHEVA = "A5039168231"  # Ludmila I. Kuncheva
JEMAL = "A5009198168"  # Ahmedin Jemal (cancer statistics; no tie to the visualisation group)
BANGOR_ROR = "006jb1a24"


def short(url: str | None) -> str | None:
    return url.rsplit("/", 1)[-1] if url else None


def raw_works() -> dict[str, dict]:
    """Every OpenAlex work in the shared files, newest `updated_date` winning, by short id."""
    works: dict[str, dict] = {}
    for path in sorted(Path(shared_path("openalex", "works")).rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        items = data["results"] if isinstance(data, dict) and "results" in data else data
        for work in items if isinstance(items, list) else [items]:
            wid = short(work["id"])
            if wid not in works or (work.get("updated_date") or "") > (works[wid].get("updated_date") or ""):
                works[wid] = work
    return works


def authors_of(work: dict) -> set[str]:
    return {short(a["author"]["id"]) for a in work["authorships"] if a["author"].get("id")}


class Raw:
    """Co-authorship facts straight from the raw JSON, keyed by OpenAlex author id."""

    def __init__(self) -> None:
        self.works = raw_works()
        self.papers: dict[str, set[str]] = defaultdict(set)
        for wid, work in self.works.items():
            for author in authors_of(work):
                self.papers[author].add(wid)

    def shared(self, a: str, b: str, years: tuple[int, int] | None = None) -> int:
        both = self.papers[a] & self.papers[b]
        if years:
            both = {w for w in both if years[0] <= (self.works[w]["publication_year"] or 0) <= years[1]}
        return len(both)

    def coauthors(self, a: str, years: tuple[int, int] | None = None) -> dict[str, int]:
        counts: Counter[str] = Counter()
        for wid in self.papers[a]:
            year = self.works[wid]["publication_year"]
            if years and not (year and years[0] <= year <= years[1]):
                continue
            for other in authors_of(self.works[wid]) - {a}:
                counts[other] += 1
        return dict(counts)

    def graph(self) -> nx.Graph:
        g = nx.Graph()
        for work in self.works.values():
            g.add_edges_from(combinations(sorted(authors_of(work)), 2))
        return g


@pytest.fixture(scope="module")
def raw() -> Raw:
    return Raw()


@pytest.fixture(scope="module")
def client(openalex_graph: Driver, settings: Settings) -> Iterator[TestClient]:
    from weft.graph.network_cache import NETWORK_CACHE

    NETWORK_CACHE.clear()
    with TestClient(create_app(executing(settings))) as c:
        yield c


def gql(client: TestClient, query: str, **variables: object) -> dict:
    response = client.post("/graphql", json={"query": query, "variables": variables})
    return response.json()


def openalex_ids(driver: Driver, ids: list[str]) -> dict[str, str]:
    records, _, _ = driver.execute_query(
        "MATCH (r:Researcher) WHERE r.id IN $ids RETURN r.id AS id, r.openalex_id AS oa", ids=ids
    )
    return {r["id"]: r["oa"] for r in records}


NETWORK = """
query($id: String!, $depth: Int!, $minWeight: Int! = 1, $yearFrom: Int, $yearTo: Int, $limit: Int! = 200,
      $rankBy: RankBy! = WEIGHT) {
  researcherNetwork(id: $id, depth: $depth, minWeight: $minWeight, yearFrom: $yearFrom, yearTo: $yearTo,
                    limit: $limit, rankBy: $rankBy) {
    centre truncated totalNodeCount
    nodes { id name paperCount distance }
    edges { source target weight firstYear lastYear }
  }
}"""

ANALYTICS = """
query($id: String!) {
  researcherNetwork(id: $id, depth: 2, limit: 1000) {
    nodes { id community centrality degreeCentrality betweenness }
    edges { source target weight }
    stats { nodeCount edgeCount density components averageClustering }
  }
}"""


def test_depth_one_network_equals_coauthors_in_the_raw_json(
    client: TestClient, openalex_graph: Driver, raw: Raw
) -> None:
    net = gql(client, NETWORK, id=BUTCHER, depth=1)["data"]["researcherNetwork"]
    oa = openalex_ids(openalex_graph, [n["id"] for n in net["nodes"]])
    expected = raw.coauthors(BUTCHER)
    assert oa[net["centre"]] == BUTCHER
    assert {oa[n["id"]] for n in net["nodes"]} == set(expected) | {BUTCHER}
    assert not net["truncated"] and net["totalNodeCount"] == len(expected) + 1
    for node in net["nodes"]:
        assert node["paperCount"] == len(raw.papers[oa[node["id"]]])
        assert node["distance"] == (0 if node["id"] == net["centre"] else 1)
    got = {frozenset((oa[e["source"]], oa[e["target"]])): e["weight"] for e in net["edges"]}
    want = {
        frozenset((a, b)): raw.shared(a, b)
        for a, b in combinations(sorted(set(expected) | {BUTCHER}), 2)
        if raw.shared(a, b)
    }
    assert got == want
    assert got[frozenset((BUTCHER, "A5065371627"))] == 15  # Butcher and Ritsos share 15 works


def test_year_window_weights_count_only_papers_in_the_window(
    client: TestClient, openalex_graph: Driver, raw: Raw
) -> None:
    window = (2019, 2021)
    net = gql(client, NETWORK, id=BUTCHER, depth=1, yearFrom=2019, yearTo=2021)["data"]["researcherNetwork"]
    oa = openalex_ids(openalex_graph, [n["id"] for n in net["nodes"]])
    expected = raw.coauthors(BUTCHER, window)
    assert {oa[n["id"]] for n in net["nodes"]} == set(expected) | {BUTCHER}
    centre_edges = {
        oa[e["target"] if e["source"] == net["centre"] else e["source"]]: e
        for e in net["edges"]
        if net["centre"] in (e["source"], e["target"])
    }
    assert {k: e["weight"] for k, e in centre_edges.items()} == expected
    assert all(2019 <= e["firstYear"] <= e["lastYear"] <= 2021 for e in net["edges"])
    centre = next(n for n in net["nodes"] if n["id"] == net["centre"])
    assert centre["paperCount"] == sum(
        1 for w in raw.papers[BUTCHER] if 2019 <= raw.works[w]["publication_year"] <= 2021
    )


def test_min_weight_and_limit_keep_the_most_relevant(client: TestClient, openalex_graph: Driver, raw: Raw) -> None:
    heavy = gql(client, NETWORK, id=BUTCHER, depth=1, minWeight=3)["data"]["researcherNetwork"]
    oa = openalex_ids(openalex_graph, [n["id"] for n in heavy["nodes"]])
    assert {oa[n["id"]] for n in heavy["nodes"]} == {a for a, w in raw.coauthors(BUTCHER).items() if w >= 3} | {BUTCHER}
    assert all(e["weight"] >= 3 for e in heavy["edges"])

    cut = gql(client, NETWORK, id=BUTCHER, depth=2, limit=10)["data"]["researcherNetwork"]
    assert cut["truncated"] and cut["totalNodeCount"] > 10 and len(cut["nodes"]) == 10
    assert cut["centre"] in {n["id"] for n in cut["nodes"]}
    kept = [n for n in cut["nodes"] if n["distance"] == 1]
    assert len(kept) == 9  # Butcher has 35 direct co-authors: the nearest ring fills the limit
    top = sorted(raw.coauthors(BUTCHER).values(), reverse=True)[:9]
    weights = {frozenset((e["source"], e["target"])): e["weight"] for e in cut["edges"]}
    assert sorted((weights[frozenset((cut["centre"], n["id"]))] for n in kept), reverse=True) == top

    by_papers = gql(client, NETWORK, id=BUTCHER, depth=1, limit=4, rankBy="PAPERS")["data"]["researcherNetwork"]
    oa = openalex_ids(openalex_graph, [n["id"] for n in by_papers["nodes"]])
    top_papers = sorted((len(raw.papers[a]) for a in raw.coauthors(BUTCHER)), reverse=True)[:3]
    assert sorted((n["paperCount"] for n in by_papers["nodes"] if n["distance"] == 1), reverse=True) == top_papers


def test_analytics_equal_networkx_on_the_edges_read_from_neo4j(client: TestClient, openalex_graph: Driver) -> None:
    net = gql(client, ANALYTICS, id=BUTCHER)["data"]["researcherNetwork"]
    ids = [n["id"] for n in net["nodes"]]
    records, _, _ = openalex_graph.execute_query(
        "MATCH (a:Researcher)-[r:COAUTHORED_WITH]-(b:Researcher) WHERE a.id IN $ids AND b.id IN $ids "
        "AND a.id < b.id RETURN a.id AS a, b.id AS b, r.weight AS w",
        ids=ids,
    )
    g = nx.Graph()
    g.add_nodes_from(sorted(ids))
    g.add_weighted_edges_from(sorted((r["a"], r["b"], r["w"]) for r in records))
    assert {frozenset((e["source"], e["target"])): e["weight"] for e in net["edges"]} == {
        frozenset((a, b)): w for a, b, w in g.edges(data="weight")
    }
    expected = nx.community.louvain_communities(g, weight="weight", seed=42)
    found: dict[int, set[str]] = defaultdict(set)
    for n in net["nodes"]:
        found[n["community"]].add(n["id"])
    assert sorted(map(sorted, found.values())) == sorted(map(sorted, expected))
    by_id = {n["id"]: n for n in net["nodes"]}
    pagerank, degree = nx.pagerank(g, weight="weight"), nx.degree_centrality(g)
    betweenness = nx.betweenness_centrality(g)
    for node_id, node in by_id.items():
        assert node["centrality"] == pytest.approx(pagerank[node_id])
        assert node["degreeCentrality"] == pytest.approx(degree[node_id])
        assert node["betweenness"] == pytest.approx(betweenness[node_id])
    stats = net["stats"]
    assert (stats["nodeCount"], stats["edgeCount"]) == (g.number_of_nodes(), g.number_of_edges())
    assert stats["density"] == pytest.approx(nx.density(g))
    assert stats["components"] == nx.number_connected_components(g) == 1
    assert stats["averageClustering"] == pytest.approx(nx.average_clustering(g))


def test_bad_arguments_are_coded_errors_naming_the_argument(client: TestClient) -> None:
    for variables, argument in (
        ({"depth": 0}, "depth"),
        ({"depth": 9}, "depth"),
        ({"depth": 1, "limit": 5000}, "limit"),
        ({"depth": 1, "minWeight": 0}, "minWeight"),
        ({"depth": 1, "yearFrom": 2020, "yearTo": 2010}, "yearFrom"),
    ):
        body = gql(client, NETWORK, id=BUTCHER, **variables)
        assert body["data"]["researcherNetwork"] is None
        error = body["errors"][0]
        assert error["extensions"]["code"] == "BAD_USER_INPUT"
        assert error["extensions"]["argument"] == argument and argument in error["message"]


def test_a_researcher_without_coauthors_is_a_one_node_network(client: TestClient, raw: Raw) -> None:
    loner = min(a for a, papers in raw.papers.items() if papers and not raw.coauthors(a))
    query = """query($id: String!) { researcherNetwork(id: $id, depth: 3) {
        nodes { paperCount distance community centrality betweenness } edges { weight }
        stats { nodeCount edgeCount density components averageClustering } } }"""
    net = gql(client, query, id=loner)["data"]["researcherNetwork"]
    assert net["edges"] == []
    assert net["nodes"] == [
        {"paperCount": len(raw.papers[loner]), "distance": 0, "community": 0, "centrality": 1.0, "betweenness": 0.0}
    ]
    assert net["stats"] == {"nodeCount": 1, "edgeCount": 0, "density": 0.0, "components": 1, "averageClustering": 0.0}


def test_unknown_id_gives_null(client: TestClient) -> None:
    body = gql(client, NETWORK, id="A1", depth=1)
    assert body["data"] == {"researcherNetwork": None} and "errors" not in body


def test_repeat_is_served_from_cache_until_a_load_bumps_the_data_version(
    client: TestClient, openalex_graph: Driver, settings: Settings
) -> None:
    from weft.loaders.run import load_paths

    query = "query($id: String!) { researcherNetwork(id: $id, depth: 2) { stats { nodeCount } } }"
    first = client.post("/graphql", json={"query": query, "variables": {"id": KUNCHEVA}})
    again = client.post("/graphql", json={"query": query, "variables": {"id": KUNCHEVA}})
    assert first.json() == again.json()
    assert first.headers["x-weft-cypher-queries"] == "1"  # version, lookup and subgraph in one read
    assert again.headers["x-weft-cypher-queries"] == "1"  # only the data version
    before = openalex_graph.execute_query("MATCH (m:Meta {key: 'graph'}) RETURN m.data_version AS v").records[0]["v"]
    load_paths(
        openalex_graph,
        [shared_path("openalex", "works", "single", "W3209445140.json")],
        source="openalex",
        database=settings.neo4j_database,
    )
    after = openalex_graph.execute_query("MATCH (m:Meta {key: 'graph'}) RETURN m.data_version AS v").records[0]["v"]
    assert after > before
    recomputed = client.post("/graphql", json={"query": query, "variables": {"id": KUNCHEVA}})
    assert int(recomputed.headers["x-weft-cypher-queries"]) >= 3  # held at the old version: version, lookup, subgraph
    assert recomputed.json() == first.json()


def test_the_network_cache_is_sized_from_the_settings(openalex_graph: Driver, settings: Settings) -> None:
    """WEFT_NETWORK_CACHE_MB bounds the networks a worker keeps: with 0 none is kept, so a repeat reads
    the network again (and answers the same); by default it is kept, weighing its nodes and ties, and
    more once a request's analytics have built its graph."""
    from weft.graph.network_cache import NETWORK_CACHE

    listed = "query($id: String!) { researcherNetwork(id: $id, depth: 2) { edges { weight } } }"
    analysed = "query($id: String!) { researcherNetwork(id: $id, depth: 2) { stats { density } } }"
    try:
        for megabytes, kept in ((0, False), (Settings.network_cache_mb, True)):
            NETWORK_CACHE.clear()
            start = NETWORK_CACHE.misses
            with TestClient(create_app(executing(dataclasses.replace(settings, network_cache_mb=megabytes)))) as http:
                assert NETWORK_CACHE.max_weight == megabytes << 20
                first = http.post("/graphql", json={"query": listed, "variables": {"id": KUNCHEVA}})
                again = http.post("/graphql", json={"query": listed, "variables": {"id": KUNCHEVA}})
                weight = NETWORK_CACHE.weight
                http.post("/graphql", json={"query": analysed, "variables": {"id": KUNCHEVA}})
            assert again.json() == first.json() and first.json()["data"]["researcherNetwork"]["edges"]
            assert first.headers["x-weft-cypher-queries"] == "1"  # a miss: version, lookup and network in one
            misses = NETWORK_CACHE.misses - start
            if kept:
                assert again.headers["x-weft-cypher-queries"] == "1" and len(NETWORK_CACHE) == 1
                assert 0 < weight < NETWORK_CACHE.weight  # the graph the stats built is counted
            else:  # read again in full each time (one read too), nothing held
                assert misses == 3 and len(NETWORK_CACHE) == 0 and NETWORK_CACHE.weight == 0
    finally:
        NETWORK_CACHE.resize(settings.network_cache_mb << 20)


PATH = """
query($from: String!, $to: String!, $maxLength: Int! = 4) {
  collaborationPath(from: $from, to: $to, maxLength: $maxLength) {
    source { id name } target { id name } reason
    path { length researchers { id name } hops { source target weight papers { id title year } } }
    allShortestPaths { length researchers { id } }
  }
}"""


def test_collaboration_path_is_a_shortest_raw_path_with_its_papers(
    client: TestClient, openalex_graph: Driver, raw: Raw
) -> None:
    result = gql(client, PATH, **{"from": BUTCHER, "to": KUNCHEVA})["data"]["collaborationPath"]
    g = raw.graph()
    expected_length = nx.shortest_path_length(g, BUTCHER, KUNCHEVA)
    path = result["path"]
    assert result["reason"] is None and path["length"] == expected_length
    ids = [r["id"] for r in path["researchers"]]
    oa = openalex_ids(openalex_graph, ids)
    chain = [oa[i] for i in ids]
    assert chain[0] == BUTCHER and chain[-1] == KUNCHEVA
    for hop, (a, b) in zip(path["hops"], zip(chain, chain[1:], strict=False), strict=True):
        assert hop["weight"] == raw.shared(a, b) == len(hop["papers"])
    expected_paths = list(nx.all_shortest_paths(g, BUTCHER, KUNCHEVA))
    assert len(result["allShortestPaths"]) == min(len(expected_paths), 10)
    assert all(p["length"] == expected_length for p in result["allShortestPaths"])


def test_no_path_within_max_length_gives_a_reason(client: TestClient, raw: Raw) -> None:
    g = raw.graph()
    reachable = nx.has_path(g, BUTCHER, JEMAL)
    assert not reachable or nx.shortest_path_length(g, BUTCHER, JEMAL) > 2
    result = gql(client, PATH, **{"from": BUTCHER, "to": JEMAL, "maxLength": 2})["data"]["collaborationPath"]
    assert result["path"] is None and result["allShortestPaths"] == []
    assert "at most 2 hops" in result["reason"]
    assert gql(client, PATH, **{"from": BUTCHER, "to": "A1"})["data"]["collaborationPath"] is None
    bad = gql(client, PATH, **{"from": BUTCHER, "to": JEMAL, "maxLength": 9})
    assert bad["errors"][0]["extensions"]["argument"] == "maxLength"


def test_institution_network_weights_are_papers_stating_both(
    client: TestClient, openalex_graph: Driver, raw: Raw
) -> None:
    query = """query($id: String!) { institutionNetwork(id: $id, limit: 1000) {
        centre truncated nodes { id name paperCount } edges { source target weight } stats { nodeCount } } }"""
    net = gql(client, query, id=f"https://ror.org/{BANGOR_ROR}")["data"]["institutionNetwork"]
    records, _, _ = openalex_graph.execute_query(
        "MATCH (i:Institution) WHERE i.id IN $ids RETURN i.id AS id, i.ror AS ror",
        ids=[n["id"] for n in net["nodes"]],
    )
    ror = {r["id"]: r["ror"] for r in records}
    stated: dict[str, set[str]] = defaultdict(set)
    for wid, work in raw.works.items():
        for authorship in work["authorships"]:
            for inst in authorship.get("institutions") or []:
                if inst.get("ror"):
                    stated[short(inst["ror"])].add(wid)
    expected = {
        r: len(stated[r] & stated[BANGOR_ROR]) for r in stated if r != BANGOR_ROR and stated[r] & stated[BANGOR_ROR]
    }
    centre_edges = {
        ror[e["target"] if e["source"] == net["centre"] else e["source"]]: e["weight"]
        for e in net["edges"]
        if net["centre"] in (e["source"], e["target"])
    }
    assert ror[net["centre"]] == BANGOR_ROR and not net["truncated"]
    assert centre_edges == expected
    assert net["stats"]["nodeCount"] == len(expected) + 1


def read_back(fmt: str, body: bytes) -> nx.Graph:
    if fmt == "graphml":
        return nx.read_graphml(io.BytesIO(body))
    if fmt == "gexf":
        return nx.read_gexf(io.BytesIO(body))
    return nx.cytoscape_graph(json.loads(body))


@pytest.mark.parametrize("fmt", ["graphml", "gexf", "json"])
def test_exports_round_trip_through_networkx(client: TestClient, fmt: str) -> None:
    net = gql(client, NETWORK, id=BUTCHER, depth=2, minWeight=2)["data"]["researcherNetwork"]
    response = client.get(f"/export/researchers/{BUTCHER}/network.{fmt}?depth=2&minWeight=2")
    assert response.status_code == 200
    back = read_back(fmt, response.content)
    assert set(back.nodes) == {n["id"] for n in net["nodes"]}
    assert {frozenset((a, b)): int(w) for a, b, w in back.edges(data="weight")} == {
        frozenset((e["source"], e["target"])): e["weight"] for e in net["edges"]
    }
    names = dict(back.nodes(data="name"))
    assert all(names[n["id"]] == n["name"] for n in net["nodes"])


def test_export_errors_are_json(client: TestClient) -> None:
    missing = client.get("/export/researchers/A1/network.json")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "NOT_FOUND"
    bad = client.get(f"/export/researchers/{BUTCHER}/network.gexf?depth=9")
    assert bad.status_code == 400 and bad.json()["error"]["argument"] == "depth"
    not_int = client.get(f"/export/researchers/{BUTCHER}/network.graphml?limit=lots")
    assert not_int.status_code == 400 and not_int.json()["error"]["argument"] == "limit"
    assert client.get(f"/export/researchers/{BUTCHER}/network.png").status_code == 404


def _analytics_running_until_stopped(progress: list[int]) -> Callable[[nx.Graph], dict[str, float]]:
    """Stands in for an analytics function too slow for the deadline: pure Python that runs until it is
    interrupted (or 60 s), counting its rounds."""

    def slow(graph: nx.Graph) -> dict[str, float]:
        began = time.monotonic()
        while time.monotonic() - began < 60.0:
            progress[0] += 1
            sum(i * i for i in range(1000))
        return dict.fromkeys(graph, 0.0)

    return slow


def test_the_deadline_stops_network_analytics_in_their_thread(
    openalex_graph: Driver, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 11: the request deadline bounds all of a request's work, networkx included: the request
    answers UNAVAILABLE at the deadline and the thread computing its analytics stops then too."""
    from weft.graph.network_cache import NETWORK_CACHE

    progress = [0]
    monkeypatch.setattr(centrality, "betweenness", _analytics_running_until_stopped(progress))
    monkeypatch.setattr(centrality, "pagerank", _analytics_running_until_stopped(progress))
    NETWORK_CACHE.clear()
    accept = {"accept": "application/graphql-response+json"}
    query = "query($id: String!) { researcherNetwork(id: $id, depth: 2) { nodes { id betweenness } } }"
    try:
        with TestClient(create_app(dataclasses.replace(executing(settings), request_deadline_s=1.0))) as http:
            answer = http.post("/graphql", json={"query": query, "variables": {"id": BUTCHER}}, headers=accept)
            export = http.get(f"/export/researchers/{BUTCHER}/network.json?depth=2")
            for thread in [t for t in threading.enumerate() if t.name == THREAD_NAME]:
                thread.join(10.0)
            assert not [t for t in threading.enumerate() if t.name == THREAD_NAME]
    finally:
        NETWORK_CACHE.clear()
    assert answer.status_code == 503
    (error,) = answer.json()["errors"]
    assert error["extensions"]["code"] == "UNAVAILABLE" and "deadline" in error["message"]
    assert export.status_code == 503
    assert export.json()["error"]["code"] == "UNAVAILABLE" and "deadline" in export.json()["error"]["message"]
    stopped_at = progress[0]
    time.sleep(0.2)
    assert progress[0] == stopped_at > 0  # both ran, and neither computes any more


def test_weft_analytics_stores_networkx_pagerank_and_louvain(client: TestClient, openalex_graph: Driver) -> None:
    result = CliRunner().invoke(cli_app, ["analytics", "--engine", "networkx", "--batch-size", "1000"])
    assert result.exit_code == 0, result.output
    ties, _, _ = openalex_graph.execute_query(
        "MATCH (a:Researcher)-[r:COAUTHORED_WITH]->(b:Researcher) RETURN a.id AS a, b.id AS b, r.weight AS w"
    )
    stored, _, _ = openalex_graph.execute_query(
        "MATCH (n:Researcher) RETURN n.id AS id, n.page_rank AS pr, n.community AS c"
    )
    g = nx.Graph()
    g.add_nodes_from(sorted(r["id"] for r in stored))
    g.add_weighted_edges_from(sorted((min(r["a"], r["b"]), max(r["a"], r["b"]), r["w"]) for r in ties))
    pagerank = nx.pagerank(g, weight="weight")
    assert {r["id"]: r["pr"] for r in stored} == pytest.approx(pagerank)
    found: dict[int, set[str]] = defaultdict(set)
    for r in stored:
        found[r["c"]].add(r["id"])
    expected = nx.community.louvain_communities(g, weight="weight", seed=42)
    assert sorted(map(sorted, found.values())) == sorted(map(sorted, expected))
    assert f"{g.number_of_nodes()} researchers" in result.output
    butcher = next(
        r
        for r in stored
        if r["id"]
        == openalex_graph.execute_query(
            "MATCH (r:Researcher {openalex_id: $oa}) RETURN r.id AS id", oa=BUTCHER
        ).records[0]["id"]
    )
    body = gql(client, "query($id: String!) { researcher(id: $id) { pageRank community } }", id=BUTCHER)
    assert body["data"]["researcher"] == {"pageRank": pytest.approx(butcher["pr"]), "community": butcher["c"]}
