"""Pure parts of the network work: parameters, ego assembly, ranking/truncation, cache, exports."""

from __future__ import annotations

import gc
import io
import json
import weakref

import networkx as nx
import pytest

from weft.graph.analytics import centrality, communities, components, structure
from weft.graph.errors import InvalidInput
from weft.graph.network import Network, NetworkParams, network_from_row, network_weight
from weft.graph.network_cache import MISSING, VersionedCache
from weft.graph.network_institutions import institution_network_from_rows
from weft.graph.network_paths import check_path_args, result_from_row
from weft.graph.network_scores import score_rows
from weft.graph.nx_bridge import canonical_graph, coauthor_graph_from_rows
from weft.server import exports
from weft.server.cli.analysis import parse_param
from weft.server.network_routes import params_from_query


def node(node_id: str, distance: int, papers: int = 1) -> dict:
    return {"id": node_id, "name": node_id.upper(), "paper_count": papers, "distance": distance}


def edge(a: str, b: str, weight: int, first: int = 2000, last: int = 2001) -> list:
    return [a, b, weight, first, last]


# An EGO_NETWORK row: c - a (3), c - b (1), a - d (2); 5 researchers within depth 3, 4 kept.
ROW = {
    "centre": "c",
    "total": 5,
    "explored_depth": 3,
    "truncated": True,
    "nodes": [node("c", 0, 5), node("a", 1, 4), node("b", 1, 9), node("d", 2, 2)],
    "edges": [edge("c", "a", 3), edge("c", "b", 1), edge("d", "a", 2)],
}


def test_a_networks_graphql_object_is_built_once() -> None:
    from weft.schema.types.researcher_network import ResearcherNetwork

    network = network_from_row(ROW)
    built = ResearcherNetwork.from_record(network)
    assert ResearcherNetwork.from_record(network) is built
    assert [(s, t, w) for s, t, w, _, _ in built.ties] == [("a", "c", 3), ("a", "d", 2), ("b", "c", 1)]
    assert [n.id for n in built.nodes] == ["c", "a", "b", "d"]
    assert ResearcherNetwork.from_record(network_from_row(ROW)) is not built


def test_a_cached_networks_ties_are_not_tracked_by_the_garbage_collector() -> None:
    """What a cached network keeps of its ties is plain tuples, which a collection stops tracking: a full
    collection then does not rescan 10,000 objects per cached network (issue 9)."""
    from weft.schema.types.researcher_network import ResearcherNetwork

    built = ResearcherNetwork.from_record(network_from_row(ROW))
    gc.collect()
    assert built.ties and not any(gc.is_tracked(tie) for tie in built.ties)


def test_a_released_network_forgets_its_graphql_object() -> None:
    """The built object refers back to its network; release() (the cache calls it on dropping a network)
    breaks that cycle so the pair is freed by reference counting, without a full collection."""
    from weft.schema.types.researcher_network import ResearcherNetwork

    network = network_from_row(ROW)
    built = ResearcherNetwork.from_record(network)
    gone = weakref.ref(built)
    network.release()
    assert ResearcherNetwork.from_record(network) is not built
    gc.disable()
    try:
        del built, network
        assert gone() is None
    finally:
        gc.enable()


def test_the_network_cache_releases_what_it_drops() -> None:
    released: list[str] = []

    class Value:
        def __init__(self, name: str) -> None:
            self.name = name

        def release(self) -> None:
            released.append(self.name)

    cache = VersionedCache(max_entries=2)
    cache.put("a", 1, Value("a"))
    cache.put("b", 1, Value("b"))
    cache.put("c", 1, Value("c"))  # evicts a
    cache.put("b", 1, Value("b2"))  # replaces b
    cache.get("c", 2)  # a newer version drops c and b2
    assert released == ["a", "b", "c", "b2"]


@pytest.mark.parametrize(
    ("params", "argument"),
    [
        (NetworkParams(depth=0), "depth"),
        (NetworkParams(depth=9), "depth"),
        (NetworkParams(limit=0), "limit"),
        (NetworkParams(limit=5000), "limit"),
        (NetworkParams(min_weight=0), "minWeight"),
        (NetworkParams(year_from=2010, year_to=2000), "yearFrom"),
        (NetworkParams(year_to=99999), "yearTo"),
        (NetworkParams(rank_by="RANDOM"), "rankBy"),
    ],
)
def test_bad_parameters_name_the_argument(params: NetworkParams, argument: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        params.validated()
    assert caught.value.argument == argument
    assert argument in str(caught.value)


def test_network_from_row_is_the_row_in_canonical_order() -> None:
    network = network_from_row(ROW)
    assert list(network.graph.nodes) == ["a", "b", "c", "d"]
    assert list(network.graph.edges(data="weight")) == [("a", "c", 3), ("a", "d", 2), ("b", "c", 1)]
    assert network.graph.edges["a", "d"] == {"weight": 2, "first_year": 2000, "last_year": 2001}
    assert dict(network.graph.nodes(data="distance")) == {"a": 1, "b": 1, "c": 0, "d": 2}
    assert network.graph.nodes["b"] == {"name": "B", "paper_count": 9, "distance": 1}
    assert (network.centre, network.kind, network.truncated) == ("c", "researcher", True)
    assert (network.total_node_count, network.explored_depth) == (5, 3)
    alone = network_from_row(ROW | {"nodes": [node("c", 0)], "edges": [], "total": 1, "truncated": False})
    assert list(alone.graph.nodes) == ["c"] and alone.graph.number_of_edges() == 0 and not alone.truncated


@pytest.mark.parametrize("seed", range(20))
def test_network_parts_are_the_canonical_graph_in_its_order(seed: int) -> None:
    """A Network keeps its nodes and ties as canonical_graph would hold them and in its order (what the API
    lists without building the graph), and its lazily built graph is that same graph: ids out of order,
    pairs in either direction and repeated with other values, ties to oneself, and (every third seed) an
    endpoint that is no node."""
    import random

    rng = random.Random(seed)
    ids = [f"r{i:02d}" for i in range(rng.randint(1, 12))]
    nodes = [(i, {"name": i.upper(), "distance": rng.randint(0, 2)}) for i in rng.sample(ids, len(ids))]
    nodes += [(rng.choice(ids), {"name": "again", "distance": 1}) for _ in range(rng.randint(0, 2))]
    ends = [*ids, "x9", "x1"] if seed % 3 == 0 else ids
    ties = [
        (rng.choice(ends), rng.choice(ends), rng.randint(1, 5), rng.choice([None, 2001]), 2002)
        for _ in range(rng.randint(0, 40))
    ]
    expected = canonical_graph(
        nodes, ((a, b, {"weight": w, "first_year": f, "last_year": last}) for a, b, w, f, last in ties)
    )
    network = Network.of("researcher", ids[0], nodes, ties, False, len(ids))
    assert network.nodes == list(expected.nodes(data=True))
    listed = [(a, b, {"weight": w, "first_year": f, "last_year": last}) for a, b, w, f, last in network.ties]
    if ends == ids:
        assert listed == list(expected.edges(data=True))
    else:  # two bare endpoints come out of the graph in the order they joined it; the ties keep the smaller first
        assert sorted(listed) == sorted((min(a, b), max(a, b), d) for a, b, d in expected.edges(data=True))
    assert list(network.graph.nodes(data=True)) == list(expected.nodes(data=True))
    assert list(network.graph.edges(data=True)) == list(expected.edges(data=True))
    assert all(a < b for a, b, *_ in network.ties)


def _decoded(text: str) -> str:
    """A copy of `text` as the driver hands it over: a new string object for every occurrence."""
    return (text + ".")[:-1]


def test_a_cached_network_weighs_at_least_the_bytes_it_holds() -> None:
    """The network cache's bound (WEFT_NETWORK_CACHE_MB) holds only if `network_weight` covers what a
    network keeps: its nodes and ties as network_from_row makes them from a driver row (the ties sharing
    the nodes' id strings), then with the networkx graph and analytics a request adds; and is not far above."""
    import random
    import tracemalloc

    rng = random.Random(3)
    ids = [f"https://openalex.org/A{rng.randrange(10**10):010d}" for _ in range(150)]
    pairs = sorted({tuple(sorted(rng.sample(ids, 2))) for _ in range(3000)})
    warm = Network.of("researcher", "a", [("a", {}), ("b", {})], [("a", "b", 1, None, None)], False, 2)
    warm.summary, warm.pagerank  # noqa: B018 - the modules they import are not the network's
    gc.collect()
    tracemalloc.start()
    try:
        row = {  # made while traced: what the network keeps of it counts
            "centre": ids[0],
            "total": 900,
            "explored_depth": 2,
            "truncated": True,
            "nodes": [
                {"id": _decoded(i), "name": _decoded("A Researcher Name"), "paper_count": 3000 + k, "distance": 2}
                for k, i in enumerate(ids)
            ],
            "edges": [
                [_decoded(a), _decoded(b), rng.randint(1, 9), 1990 + k % 30, 2000 + k % 20]
                for k, (a, b) in enumerate(pairs)
            ],
        }
        network = network_from_row(row)
        del row
        gc.collect()
        listed, listed_weight = tracemalloc.get_traced_memory()[0], network_weight(network)
        grown = []
        network.watch_growth(grown.append)
        network.summary, network.pagerank  # noqa: B018 - the graph and analytics a request may add
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert listed <= listed_weight <= 1.5 * listed
    assert held <= network_weight(network) <= 1.5 * held
    assert grown == [network]  # told once, when the graph was built
    node_ids = {id(n) for n, _ in network.nodes}
    assert all(id(a) in node_ids and id(b) in node_ids for a, b, *_ in network.ties)


def test_network_analytics_equal_networkx_on_the_same_graph() -> None:
    graph = nx.karate_club_graph()
    named = canonical_graph(
        ((f"r{n:02d}", {"name": str(n)}) for n in graph.nodes),
        ((f"r{a:02d}", f"r{b:02d}", {"weight": d["weight"]}) for a, b, d in graph.edges(data=True)),
    )
    network = Network.from_graph("researcher", "r00", _with_distance(named, "r00"), False, named.number_of_nodes())
    direct = nx.Graph()
    direct.add_nodes_from(sorted(named.nodes))
    direct.add_edges_from(sorted(named.edges(data=True)))
    expected = nx.community.louvain_communities(direct, weight="weight", seed=42)
    found: dict[int, set] = {}
    for node, c in network.communities.items():
        found.setdefault(c, set()).add(node)
    assert sorted(map(sorted, found.values())) == sorted(map(sorted, expected))
    pr = nx.pagerank(direct, weight="weight")
    assert network.pagerank == pytest.approx(pr)
    assert network.betweenness == pytest.approx(nx.betweenness_centrality(direct))
    assert network.degree == pytest.approx(nx.degree_centrality(direct))
    assert network.summary.average_clustering == pytest.approx(nx.average_clustering(direct))
    assert network.summary.components == 1 and network.summary.edge_count == 78


def _with_distance(graph: nx.Graph, centre: str) -> nx.Graph:
    nx.set_node_attributes(graph, nx.single_source_shortest_path_length(graph, centre), "distance")
    return graph


def test_analytics_helpers_on_two_components() -> None:
    g = nx.Graph([("a", "b"), ("c", "d"), ("d", "e")])
    assert [sorted(c) for c in components.components(g)] == [["c", "d", "e"], ["a", "b"]]
    assert structure.summary(g).components == 2
    assert communities.louvain(nx.Graph()) == []
    assert centrality.pagerank(nx.Graph()) == {}


def test_cache_hits_and_drops_on_new_data_version() -> None:
    cache = VersionedCache(max_entries=2)
    cache.put("k", 1, "v")
    assert cache.get("k", 1) == "v" and cache.hits == 1
    cache.put("k2", 1, "v2")
    cache.put("k3", 1, "v3")
    assert cache.get("k", 1) is MISSING  # evicted, least recently used
    assert cache.get("k3", 2) is MISSING and len(cache) == 0


def test_institution_network_keeps_strongest_partners() -> None:
    rows = [
        {"centre": "i1", "partners": 2, "id": "i1", "name": "A", "country": "GB", "papers": ["p1", "p2", "p3"]},
        {"centre": "i1", "partners": 2, "id": "i2", "name": "B", "country": "US", "papers": ["p1", "p2"]},
        {"centre": "i1", "partners": 2, "id": "i3", "name": "C", "country": "US", "papers": ["p3"]},
    ]
    network = institution_network_from_rows(rows, 1, 2)
    assert sorted(network.graph.nodes) == ["i1", "i2"] and network.truncated
    assert network.graph.edges["i1", "i2"]["weight"] == 2
    assert institution_network_from_rows([], 1, 2) is None


def test_path_results_order_and_reasons() -> None:
    weak = {"nodes": [{"id": "s"}, {"id": "m1"}, {"id": "t"}], "hops": [{"weight": 1}, {"weight": 5}]}
    strong = {"nodes": [{"id": "s"}, {"id": "m2"}, {"id": "t"}], "hops": [{"weight": 2}, {"weight": 2}]}
    result = result_from_row({"source": {"id": "s"}, "target": {"id": "t"}, "paths": [weak, strong]}, 3)
    assert [p["nodes"][1]["id"] for p in result.paths] == ["m2", "m1"] and result.reason is None
    none = result_from_row({"source": {"id": "s"}, "target": {"id": "t"}, "paths": []}, 2)
    assert none.paths == [] and "at most 2 hops" in none.reason
    assert result_from_row({"source": None, "target": {"id": "t"}, "paths": []}, 2) is None
    with pytest.raises(InvalidInput) as caught:
        check_path_args(9, 1, 10)
    assert caught.value.argument == "maxLength"


def test_export_parameters_from_query_string() -> None:
    assert params_from_query({"depth": "2", "minWeight": "3", "rankBy": "papers"}) == NetworkParams(
        depth=2, min_weight=3, rank_by="PAPERS"
    )
    for query, argument in (({"depth": "x"}, "depth"), ({"depth": "9"}, "depth"), ({"bogus": "1"}, "bogus")):
        with pytest.raises(InvalidInput) as caught:
            params_from_query(query)
        assert caught.value.argument == argument


def test_exports_round_trip_through_networkx_readers() -> None:
    network = network_from_row(ROW)
    expected_edges = {frozenset((a, b)): w for a, b, w in network.graph.edges(data="weight")}
    for fmt in ("graphml", "gexf"):
        body = exports.render(network, fmt)
        reader = nx.read_graphml if fmt == "graphml" else nx.read_gexf
        back = reader(io.BytesIO(body))
        assert set(back.nodes) == set(network.graph.nodes)
        assert {frozenset((a, b)): int(w) for a, b, w in back.edges(data="weight")} == expected_edges
    data = json.loads(json.dumps(exports.render(network, "json")))
    back = nx.cytoscape_graph(data)
    assert set(back.nodes) == set(network.graph.nodes)
    assert {frozenset((a, b)): w for a, b, w in back.edges(data="weight")} == expected_edges


def test_whole_graph_scores_and_params() -> None:
    graph = coauthor_graph_from_rows([{"id": "a", "ties": [["b", 2], ["zz", 1]]}, {"id": "b", "ties": []}])
    assert list(graph.edges) == [("a", "b")]  # ties to unknown researchers are ignored
    rows = score_rows(graph)
    assert {r["id"] for r in rows} == {"a", "b"} and {r["community"] for r in rows} == {0}
    assert parse_param("x=1.5") == ("x", 1.5)
    with pytest.raises(InvalidInput):
        parse_param("no-equals-sign")


def test_analytics_wanted_reads_the_selection_through_fragments() -> None:
    from strawberry.types.nodes import FragmentSpread, InlineFragment, SelectedField

    from weft.schema.support.analytics import analytics_wanted

    def field(name: str, *children: object) -> SelectedField:
        return SelectedField(name=name, directives={}, arguments={}, selections=list(children))

    plain = [field("nodes", field("id"), field("name")), field("edges", field("weight"))]
    assert analytics_wanted(plain) == set()
    rich = [
        field("nodes", field("id"), InlineFragment(None, [field("community")], {})),
        FragmentSpread("F", "ResearcherNetwork", {}, [field("stats", field("density"))]),
        field("nodes", FragmentSpread("community", "NetworkNode", {}, [field("betweenness")])),
    ]
    assert analytics_wanted(rich) == {"communities", "summary", "betweenness"}
