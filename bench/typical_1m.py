"""Per-query latency of typical (not the busiest) ids on a large graph, through a running `weft serve`.

    NEO4J_URI=bolt://127.0.0.1:7831 WEFT_RESPONSE_CACHE_MB=0 .venv/bin/weft serve --workers 1 --port 8821 &
    NEO4J_URI=bolt://127.0.0.1:7831 .venv/bin/python -m bench.typical_1m --port 8821

Eight researchers, papers, institutions and network centres from the middle of the graph (a fixed SKIP
and a seeded sample), the README shapes of bench/serve_queries.py, three rounds of which the first warms
and is not counted. bench/serve.py picks the busiest ids instead: the worst case.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import time

import neo4j

from bench import serve_queries as gq

MIDDLE = {
    "PROFILE": "MATCH (r:Researcher) WITH r SKIP 200000 LIMIT 2000 RETURN r.openalex_id AS id",
    "PAPER": "MATCH (p:Paper) WITH p SKIP 500000 LIMIT 2000 RETURN p.openalex_id AS id",
    "ROSTER": "MATCH (i:Institution) WHERE i.ror IS NOT NULL WITH i SKIP 20000 LIMIT 2000 RETURN i.ror AS id",
    "NETWORK": "MATCH (r:Researcher) WITH r SKIP 300000 LIMIT 2000 RETURN r.id AS id",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8821)
    parser.add_argument("--ids", type=int, default=8)
    args = parser.parse_args()
    random.seed(7)
    uri = os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7831")
    with neo4j.GraphDatabase.driver(uri, auth=None) as driver:
        shapes: dict[str, list[str | None]] = {
            name: random.sample([r["id"] for r in driver.execute_query(query).records], args.ids)
            for name, query in MIDDLE.items()
        }
    shapes["MOST_CITED"] = [None] * args.ids
    conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
    print(f"load average before: {os.getloadavg()}")
    for name, ids in shapes.items():
        query, times, errors = getattr(gq, name), list[float](), 0
        for round_no in range(3):
            for id_ in ids:
                began = time.perf_counter()
                body = json.dumps({"query": query, "variables": {"id": id_} if id_ else {}})
                conn.request("POST", "/graphql", body, {"content-type": "application/json"})
                answer = conn.getresponse().read()
                if round_no:
                    times.append((time.perf_counter() - began) * 1000)
                errors += b'"errors"' in answer
        times.sort()
        p95 = times[max(0, int(0.95 * len(times)) - 1)]
        print(f"{name}: p50 {statistics.median(times):.1f} ms, p95 {p95:.1f} ms, n {len(times)}, errors {errors}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
