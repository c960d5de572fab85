"""researcherNetwork chooses and cuts in the database: the answers equal an independent reading of the
documented rule, computed here with networkx from the raw co-author ties and authorships read from
Neo4j (shared OpenAlex data), for limits cutting ring 1, ring 2 and ring 3, every `rankBy`, `minWeight`
and a year window.

The rule (schema/roots/networks.py, graph/MODEL.md "Network backbone"): ring 1 is the centre's
co-authors; each later ring the researchers the one before reaches, a researcher with more than
`network_top_ties` co-authors reaching only that many of its heaviest (weight descending, then id) and
any other all of its co-authors; the first `limit` researchers by (ring, score descending, id), score
by `rankBy`: WEIGHT the summed weight of the reaching ties from the ring before, PAPERS the paper count,
CENTRALITY the number of co-authors in the whole graph; rings are read only while the nearer ones hold
fewer than `limit` researchers; the edges are the centre's ties and the reaching ties among the kept.
With a year window every tie reaches (the window recounts them).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from itertools import combinations
from typing import Any

import networkx as nx
import pytest
from neo4j import Driver
from starlette.testclient import TestClient

from tests.api.conftest import executing
from tests.integration.test_query_plans import kind, operators
from weft.graph.settings import Settings
from weft.queries import network
from weft.server.app import create_app

BUTCHER = "A5032473237"
KUNCHEVA = "A5039168231"
WINDOW = (2019, 2021)

NETWORK = """
query($id: String!, $depth: Int!, $minWeight: Int!, $yearFrom: Int, $yearTo: Int, $limit: Int!, $rankBy: RankBy!) {
  researcherNetwork(id: $id, depth: $depth, minWeight: $minWeight, yearFrom: $yearFrom, yearTo: $yearTo,
                    limit: $limit, rankBy: $rankBy) {
    centre truncated totalNodeCount exploredDepth
    nodes { id paperCount distance }
    edges { source target weight firstYear lastYear }
  }
}"""


class RawGraph:
    """Co-author ties and authorships exactly as stored in Neo4j, read with two plain MATCHes."""

    def __init__(self, driver: Driver) -> None:
        ties, _, _ = driver.execute_query(
            "MATCH (a:Researcher)-[r:COAUTHORED_WITH]->(b:Researcher) "
            "RETURN a.id AS a, b.id AS b, r.weight AS w, r.first_year AS f, r.last_year AS l"
        )
        self.ties = [(r["a"], r["b"], r["w"], r["f"], r["l"]) for r in ties]
        authored, _, _ = driver.execute_query(
            "MATCH (r:Researcher)-[:AUTHORED]->(p:Paper) RETURN r.id AS r, p.id AS p, p.year AS y"
        )
        self.papers: dict[str, dict[str, int | None]] = defaultdict(dict)
        self.authors: dict[str, set[str]] = defaultdict(set)
        self.year: dict[str, int | None] = {}
        for r in authored:
            self.papers[r["r"]][r["p"]] = r["y"]
            self.authors[r["p"]].add(r["r"])
            self.year[r["p"]] = r["y"]
        self.degree: Counter[str] = Counter()
        weights: dict[str, list[tuple[int, str]]] = defaultdict(list)
        for a, b, w, *_ in self.ties:
            self.degree[a] += 1
            self.degree[b] += 1
            weights[a].append((-w, b))
            weights[b].append((-w, a))
        top_ties = Settings.network_top_ties
        # The co-authors each researcher with more than `top_ties` of them reaches: its heaviest.
        self.top: dict[str, set[str]] = {
            r: {b for _, b in sorted(ends)[:top_ties]} for r, ends in weights.items() if len(ends) > top_ties
        }
        self.graphs: dict[tuple[int, tuple[int, int] | None], nx.Graph] = {}

    def reach(self, g: nx.Graph, n: str, window: tuple[int, int] | None) -> set[str]:
        """Whom `n`, in a ring past the centre, reaches in `g`: its heaviest co-authors if it is a hub
        (stored ties only), else all."""
        if n not in g:
            return set()
        if window is None and n in self.top:
            return {m for m in g[n] if m in self.top[n]}
        return set(g[n])

    def graph(self, min_weight: int, window: tuple[int, int] | None) -> nx.Graph:
        """Ties of at least `min_weight`: stored ones, or recounted from the papers in `window` (built once)."""
        if (min_weight, window) not in self.graphs:
            self.graphs[min_weight, window] = self._graph(min_weight, window)
        return self.graphs[min_weight, window]

    def _graph(self, min_weight: int, window: tuple[int, int] | None) -> nx.Graph:
        g = nx.Graph()
        if window is None:
            for a, b, w, first, last in self.ties:
                if w >= min_weight:
                    g.add_edge(a, b, weight=w, first_year=first, last_year=last)
            return g
        shared: dict[tuple[str, str], list[int]] = defaultdict(list)
        for paper, authors in self.authors.items():
            year = self.year[paper]
            if year is not None and window[0] <= year <= window[1]:
                for a, b in combinations(sorted(authors), 2):
                    shared[a, b].append(year)
        for (a, b), years in shared.items():
            if len(years) >= min_weight:
                g.add_edge(a, b, weight=len(years), first_year=min(years), last_year=max(years))
        return g

    def paper_count(self, researcher: str, window: tuple[int, int] | None) -> int:
        years = self.papers[researcher].values()
        if window is None:
            return len(years)
        return sum(1 for y in years if y is not None and window[0] <= y <= window[1])


def rings(raw: RawGraph, g: nx.Graph, centre: str, depth: int, window: tuple[int, int] | None) -> dict[str, int]:
    """Each researcher's ring: the centre's co-authors, then whom each ring reaches."""
    dist = {centre: 0}
    ring = set(g[centre]) if centre in g else set()
    for k in range(1, depth + 1):
        ring -= dist.keys()
        dist.update(dict.fromkeys(ring, k))
        ring = set().union(*(raw.reach(g, n, window) for n in ring))
    return dist


def reaching(raw: RawGraph, g: nx.Graph, centre: str, a: str, b: str, window: tuple[int, int] | None) -> bool:
    """Whether the tie a-b is drawn among kept researchers: the centre's own, or reaching from either end."""
    if not g.has_edge(a, b):
        return False
    return centre in (a, b) or b in raw.reach(g, a, window) or a in raw.reach(g, b, window)


def expected(
    raw: RawGraph, centre: str, depth: int, min_weight: int, window: tuple[int, int] | None, limit: int, rank_by: str
) -> dict[str, Any]:
    """The network the documented rule gives, from the whole graph (no bound needed here)."""
    g = raw.graph(min_weight, window)
    dist = rings(raw, g, centre, depth, window)

    def score(n: str) -> int:
        if rank_by == "PAPERS":
            return raw.paper_count(n, window)
        if rank_by == "CENTRALITY":
            return raw.degree[n]
        before = [m for m in g[n] if dist.get(m) == dist[n] - 1]
        return sum(g[n][m]["weight"] for m in before if dist[m] == 0 or n in raw.reach(g, m, window))

    order = sorted(dist, key=lambda n: (dist[n], 0 if n == centre else -score(n), n))
    kept = order[:limit]
    size = Counter(dist.values())
    explored = depth
    for k in range(1, depth):
        inner = sum(size[j] for j in range(k + 1))
        if inner >= limit:
            if inner > limit or size[k + 1]:
                explored = k
            break
    return {
        "kept": {n: dist[n] for n in kept},
        "papers": {n: raw.paper_count(n, window) for n in kept},
        "edges": {
            frozenset((a, b)): (g[a][b]["weight"], g[a][b]["first_year"], g[a][b]["last_year"])
            for a, b in combinations(kept, 2)
            if reaching(raw, g, centre, a, b, window)
        },
        "truncated": len(dist) > limit,
        "total": sum(size[j] for j in range(explored + 1)),
        "explored": explored,
        "ring_sizes": [size[k] for k in range(depth + 1)],
    }


def lookup(raw: RawGraph, centre: str, kept: list[str]) -> str:
    """How the statement finds the centre's ties to the kept (queries/network._KEPT_TIES_STORED): through
    its ties, or a key lookup per kept researcher when it has more than five ties per kept researcher."""
    return "expand" if raw.degree[centre] <= 5 * len(kept) else "seek"


@pytest.fixture(scope="module")
def raw(openalex_graph: Driver) -> RawGraph:
    return RawGraph(openalex_graph)


@pytest.fixture(scope="module")
def client(openalex_graph: Driver, settings: Settings) -> Iterator[TestClient]:
    from weft.graph.network_cache import NETWORK_CACHE

    NETWORK_CACHE.clear()
    with TestClient(create_app(executing(settings))) as c:
        yield c


@pytest.fixture(scope="module")
def centres(openalex_graph: Driver) -> list[str]:
    """Butcher, Kuncheva and the researcher with the most co-authors (internal ids)."""
    named, _, _ = openalex_graph.execute_query(
        "MATCH (r:Researcher) WHERE r.openalex_id IN $ids RETURN r.id AS id ORDER BY r.openalex_id",
        ids=[BUTCHER, KUNCHEVA],
    )
    busiest, _, _ = openalex_graph.execute_query(
        "MATCH (r:Researcher) RETURN r.id AS id ORDER BY COUNT { (r)-[:COAUTHORED_WITH]-() } DESC, r.id LIMIT 1"
    )
    return [r["id"] for r in named] + [r["id"] for r in busiest]


def ask(
    client: TestClient,
    centre: str,
    depth: int,
    min_weight: int,
    window: tuple[int, int] | None,
    limit: int,
    rank_by: str,
) -> dict[str, Any]:
    variables = {"id": centre, "depth": depth, "minWeight": min_weight, "limit": limit, "rankBy": rank_by}
    if window:
        variables |= {"yearFrom": window[0], "yearTo": window[1]}
    body = client.post("/graphql", json={"query": NETWORK, "variables": variables}).json()
    assert "errors" not in body, body["errors"]
    return body["data"]["researcherNetwork"]


def check(net: dict[str, Any], want: dict[str, Any], centre: str) -> None:
    assert net["centre"] == centre
    nodes = {n["id"]: n for n in net["nodes"]}
    assert centre in nodes and nodes[centre]["distance"] == 0
    assert {n: node["distance"] for n, node in nodes.items()} == want["kept"]
    assert {n: node["paperCount"] for n, node in nodes.items()} == want["papers"]
    assert all(e["source"] in nodes and e["target"] in nodes for e in net["edges"])
    got_edges = {
        frozenset((e["source"], e["target"])): (e["weight"], e["firstYear"], e["lastYear"]) for e in net["edges"]
    }
    assert len(got_edges) == len(net["edges"]) and got_edges == want["edges"]
    assert net["truncated"] == want["truncated"]
    assert (net["totalNodeCount"], net["exploredDepth"]) == (want["total"], want["explored"])


def limits_around_rings(sizes: list[int]) -> list[int]:
    """Limits just below, at and just above the end of each ring, inside the farthest ring, and 1000."""
    found = {1000, sum(sizes[:-1]) + sizes[-1] // 2}
    inner = 0
    for size in sizes[:-1]:
        inner += size
        found |= {inner - 1, inner, inner + 1}
    return sorted(n for n in found if 1 <= n <= 1000)


@pytest.mark.parametrize("rank_by", ["WEIGHT", "PAPERS", "CENTRALITY"])
def test_cut_at_every_ring_boundary_keeps_the_top_ranked(
    client: TestClient, raw: RawGraph, centres: list[str], rank_by: str
) -> None:
    checked = Counter()
    for centre in centres:
        for depth in (1, 2, 3):
            sizes = expected(raw, centre, depth, 1, None, 1000, rank_by)["ring_sizes"]
            for limit in limits_around_rings(sizes):
                want = expected(raw, centre, depth, 1, None, limit, rank_by)
                check(ask(client, centre, depth, 1, None, limit, rank_by), want, centre)
                checked["truncated" if want["truncated"] else "whole"] += 1
                checked["explored short"] += want["explored"] < depth
    assert checked["truncated"] >= 20 and checked["whole"] >= 5 and checked["explored short"] >= 5


@pytest.mark.parametrize(("min_weight", "window"), [(2, None), (1, WINDOW), (2, WINDOW)])
def test_min_weight_and_window_cuts_keep_the_top_ranked(
    client: TestClient, raw: RawGraph, centres: list[str], min_weight: int, window: tuple[int, int] | None
) -> None:
    truncated = 0
    for centre in centres:
        for depth in (2, 3):
            sizes = expected(raw, centre, depth, min_weight, window, 1000, "WEIGHT")["ring_sizes"]
            for k, limit in enumerate(limits_around_rings(sizes)):
                rank_by = ("WEIGHT", "PAPERS")[k % 2]
                want = expected(raw, centre, depth, min_weight, window, limit, rank_by)
                check(ask(client, centre, depth, min_weight, window, limit, rank_by), want, centre)
                truncated += want["truncated"]
    assert truncated >= 5


def test_a_limit_inside_ring_two_keeps_ring_one_whole_and_the_heaviest_of_ring_two(
    client: TestClient, raw: RawGraph, openalex_graph: Driver
) -> None:
    butcher = openalex_graph.execute_query(
        "MATCH (r:Researcher {openalex_id: $oa}) RETURN r.id AS id", oa=BUTCHER
    ).records[0]["id"]
    whole = expected(raw, butcher, 2, 1, None, 1000, "WEIGHT")
    ring1 = whole["ring_sizes"][1]
    assert whole["ring_sizes"][2] > 10
    limit = 1 + ring1 + 5
    net = ask(client, butcher, 2, 1, None, limit, "WEIGHT")
    assert net["truncated"] and len(net["nodes"]) == limit and net["exploredDepth"] == 2
    assert Counter(n["distance"] for n in net["nodes"]) == {0: 1, 1: ring1, 2: 5}
    # The five of ring 2 are those with the heaviest reaching ties from ring 1 (ties read here from Neo4j).
    g = raw.graph(1, None)
    dist = rings(raw, g, butcher, 2, None)
    into_ring1 = {
        n: sum(g[n][m]["weight"] for m in g[n] if dist.get(m) == 1 and n in raw.reach(g, m, None))
        for n, d in dist.items()
        if d == 2
    }
    top = sorted(into_ring1, key=lambda n: (-into_ring1[n], n))[:5]
    assert {n["id"] for n in net["nodes"] if n["distance"] == 2} == set(top)
    kept = {n["id"] for n in net["nodes"]}
    assert all(e["source"] in kept and e["target"] in kept for e in net["edges"])


def test_a_hub_among_few_kept_finds_its_ties_by_key(
    client: TestClient, raw: RawGraph, centres: list[str], openalex_graph: Driver
) -> None:
    busiest = centres[-1]
    assert raw.degree[busiest] > 5 * 12  # so up to 12 kept, its ties are looked up by key
    found: Counter[str] = Counter()
    for depth in (1, 2):
        for limit in range(2, 13):
            want = expected(raw, busiest, depth, 1, None, limit, "WEIGHT")
            check(ask(client, busiest, depth, 1, None, limit, "WEIGHT"), want, busiest)
            found[lookup(raw, busiest, list(want["kept"]))] += 1
    assert found["seek"] >= 20  # looked up by key, and equal to networkx (other tests cover expansion)
    profile = openalex_graph.execute_query(
        "PROFILE " + network.EGO_NETWORK,
        id=busiest,
        depth=2,
        min_weight=1,
        limit=3,
        rank_by="WEIGHT",
        year_from=None,
        year_to=None,
    ).summary.profile
    assert profile is not None
    plan = [(kind(op), str(op["args"].get("Details", "")), op["rows"]) for op in operators(profile)]
    on_pairs = [(k, rows) for k, details, rows in plan if "COAUTHORED_WITH(pair)" in details]
    assert on_pairs and all("Seek" in k for k, _ in on_pairs), plan
    assert sum(rows for _, rows in on_pairs) > 0  # one seek per pair, no scan of the index


INSTITUTIONS = """query($id: String!, $minWeight: Int!, $limit: Int!) {
  institutionNetwork(id: $id, minWeight: $minWeight, limit: $limit) {
    centre truncated nodes { id paperCount } edges { source target weight } } }"""


@pytest.mark.parametrize(("min_weight", "limit"), [(1, 2), (1, 6), (2, 4), (1, 1000)])
def test_institution_network_keeps_the_partners_sharing_most_papers(
    client: TestClient, openalex_graph: Driver, min_weight: int, limit: int
) -> None:
    stated: dict[str, set[str]] = defaultdict(set)
    authored, _, _ = openalex_graph.execute_query(
        "MATCH (:Researcher)-[a:AUTHORED]->(p:Paper) UNWIND a.institution_ids AS i "
        "MATCH (:Institution {id: i}) RETURN DISTINCT p.id AS p, i"
    )
    for r in authored:
        stated[r["i"]].add(r["p"])
    centre = openalex_graph.execute_query("MATCH (i:Institution {ror: '006jb1a24'}) RETURN i.id AS id").records[0]["id"]
    shared = {i: len(papers & stated[centre]) for i, papers in stated.items() if i != centre}
    partners = sorted((i for i, n in shared.items() if n >= min_weight), key=lambda i: (-shared[i], i))
    kept = [centre, *partners[: limit - 1]]
    body = client.post(
        "/graphql", json={"query": INSTITUTIONS, "variables": {"id": centre, "minWeight": min_weight, "limit": limit}}
    ).json()
    net = body["data"]["institutionNetwork"]
    assert net["centre"] == centre and net["truncated"] == (len(partners) > limit - 1)
    assert {n["id"]: n["paperCount"] for n in net["nodes"]} == {i: len(stated[i]) for i in kept}
    assert {frozenset((e["source"], e["target"])): e["weight"] for e in net["edges"]} == {
        frozenset((a, b)): len(stated[a] & stated[b])
        for a, b in combinations(kept, 2)
        if len(stated[a] & stated[b]) >= min_weight
    }
    assert len(partners) > 6  # the cuts above do cut
