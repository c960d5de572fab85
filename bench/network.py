"""Latency of researcherNetwork(depth: 2) on whatever NEO4J_URI holds (load the shared data first).

Measures, over the researchers with the most co-authors, p50/p95 of one GraphQL request in-process
(Starlette TestClient, real Neo4j): cold (network cache cleared before each request) without and
with the analytics fields, and warm (served from the cache).

    NEO4J_URI=bolt://127.0.0.1:7690 .venv/bin/python bench/network.py --researchers 20 --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings

from starlette.testclient import TestClient

from weft.graph.driver import open_driver
from weft.graph.network_cache import NETWORK_CACHE
from weft.graph.settings import load_settings
from weft.server.app import create_app

PLAIN = """query($id: String!) { researcherNetwork(id: $id, depth: 2) {
  truncated nodes { id name paperCount distance } edges { source target weight } } }"""
ANALYTICS = """query($id: String!) { researcherNetwork(id: $id, depth: 2) {
  truncated nodes { id name paperCount distance community centrality degreeCentrality betweenness }
  edges { source target weight } stats { nodeCount edgeCount density components averageClustering } } }"""
# Researchers with the most co-authors: the heaviest depth-2 networks.
BUSIEST = """
MATCH (r:Researcher)
RETURN r.id AS id ORDER BY COUNT { (r)-[:COAUTHORED_WITH]-() } DESC, r.id LIMIT $n
"""
# A spread of researchers with at least one co-author, for a typical mix.
SPREAD = """
MATCH (r:Researcher) WHERE EXISTS { (r)-[:COAUTHORED_WITH]-() }
RETURN r.id AS id ORDER BY r.id LIMIT $n
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(client: TestClient, query: str, ids: list[str], rounds: int, cold: bool) -> list[float]:
    times = []
    for _ in range(rounds):
        for researcher in ids:
            if cold:
                NETWORK_CACHE.clear()
            began = time.perf_counter()
            body = client.post("/graphql", json={"query": query, "variables": {"id": researcher}}).json()
            times.append((time.perf_counter() - began) * 1000)
            assert "errors" not in body, body["errors"]
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--researchers", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    settings = load_settings()
    with open_driver(settings) as driver:
        picks = {}
        for name, query in (("busiest", BUSIEST), ("spread", SPREAD)):
            records, _, _ = driver.execute_query(query, n=args.researchers, database_=settings.neo4j_database)
            picks[name] = [r["id"] for r in records]
    with TestClient(create_app(settings)) as client:
        measure(client, ANALYTICS, picks["spread"][:3], 1, cold=True)  # warm up the driver and JIT plans
        print(f"researcherNetwork(depth: 2), {args.rounds} rounds x {args.researchers} researchers, ms")
        print(f"{'set':8} {'case':28} {'p50':>8} {'p95':>8} {'n':>5}")
        for name, ids in picks.items():
            for case, query, cold in (
                ("cold, no analytics fields", PLAIN, True),
                ("cold, with analytics fields", ANALYTICS, True),
                ("warm (cached), analytics", ANALYTICS, False),
            ):
                times = measure(client, query, ids, args.rounds, cold)
                print(
                    f"{name:8} {case:28} {statistics.median(times):8.1f} {percentile(times, 0.95):8.1f} {len(times):5d}"
                )


if __name__ == "__main__":
    main()
