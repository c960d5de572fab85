"""How large `weft serve` workers grow as distinct depth-2 networks fill their caches (issue 9: a worker
stays under 300 MB). Every request names the busiest researchers under a new spelling, so each one is a
network cache miss that is then kept, and its answer is kept by the response cache; `--analytics` also
asks for stats and centrality, which build and keep the networkx graph. Prints each process's RSS.

    .venv/bin/python -m bench.worker_memory --uri bolt://127.0.0.1:7891 --weft-bin /tmp/prod/bin/weft --analytics
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import time
import urllib.request
from pathlib import Path

import neo4j

from bench import serve_queries as gq
from bench.serve import WEFT_BIN, rss_each_mb

BUSIEST = """
MATCH (r:Researcher)
RETURN r.id AS id ORDER BY COUNT { (r)-[:COAUTHORED_WITH]-() } DESC, r.id LIMIT $n
"""


def post(port: int, query: str, variables: dict[str, object]) -> bytes:
    body = json.dumps({"query": query, "variables": variables}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/graphql", body, {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.read()


def wait_ready(port: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uri", default="bolt://127.0.0.1:7891", help="a graph with large networks (the 20k one)")
    parser.add_argument("--weft-bin", type=Path, default=WEFT_BIN, help="the `weft` to serve with")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=8976)
    parser.add_argument("--researchers", type=int, default=20, help="the busiest researchers, asked in turn")
    parser.add_argument("--rounds", type=int, default=24, help="rounds over the researchers")
    parser.add_argument("--analytics", action="store_true", help="also ask for stats and centrality")
    args = parser.parse_args()

    with neo4j.GraphDatabase.driver(args.uri, auth=None) as driver:
        ids = [r["id"] for r in driver.execute_query(BUSIEST, n=args.researchers).records]
    query = gq.NETWORK
    if args.analytics:
        query = query.replace("nodes {", "stats { density components } nodes { centrality ")
    env = dict(os.environ, NEO4J_URI=args.uri)
    command = [str(args.weft_bin), "serve", "--workers", str(args.workers), "--port", str(args.port)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_ready(args.port)
        print(f"idle: {', '.join(f'{mb:.0f}' for mb in rss_each_mb(server.pid))} MB", flush=True)
        asked = 0
        for _ in range(args.rounds):
            for researcher in ids:
                asked += 1
                answer = post(args.port, query, {"id": f"{researcher}-m{asked}", "limit": 200})
                if b'"errors"' in answer:
                    raise SystemExit(f"an error: {answer[:300]!r}")
            each = rss_each_mb(server.pid)
            print(f"after {asked} networks: {', '.join(f'{mb:.0f}' for mb in each)} MB", flush=True)
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
