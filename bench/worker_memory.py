"""How large `weft serve` workers grow as distinct depth-2 networks fill their caches (issue 9: a worker
stays under 300 MB). Every request names the busiest researchers under a new spelling, so each one is a
network cache miss that is then kept, and its answer is kept by the response cache; `--analytics` also
asks for stats and centrality, which build and keep the networkx graph. Prints each process's RSS.

`--query profile` fills the response cache alone: researcher profiles (a few kB each, no network) under a
new spelling each, sent by `--threads` clients, so WEFT_RESPONSE_CACHE_MB (set it in the environment; `0`
for the baseline) is what grows the worker (issue 53: its bound holds for the RSS, not only the bodies).

    .venv/bin/python -m bench.worker_memory --uri bolt://127.0.0.1:7891 --weft-bin /tmp/prod/bin/weft --analytics
    WEFT_RESPONSE_CACHE_MB=48 .venv/bin/python -m bench.worker_memory --query profile --workers 1 --rounds 400
"""

from __future__ import annotations

import argparse
import json
import os
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import neo4j

from bench import serve_queries as gq
from bench.serve import BUSIEST, MODEST, OUT, WEFT_BIN, rss_each_mb, weft_server


def post(url: str, query: str, variables: dict[str, object]) -> bytes:
    """One request on a new connection, so that uvicorn hands the requests to every worker in turn."""
    body = json.dumps({"query": query, "variables": variables}).encode()
    request = urllib.request.Request(url, body, {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.read()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uri", default="bolt://127.0.0.1:7891", help="a graph with large networks (the 20k one)")
    parser.add_argument("--weft-bin", type=Path, default=WEFT_BIN, help="the `weft` to serve with")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=8976)
    parser.add_argument("--researchers", type=int, default=20, help="the busiest researchers, asked in turn")
    parser.add_argument("--rounds", type=int, default=24, help="rounds over the researchers")
    parser.add_argument("--analytics", action="store_true", help="also ask for stats and centrality")
    parser.add_argument("--query", choices=("network", "profile"), default="network", help="what fills the caches")
    parser.add_argument("--threads", type=int, default=4, help="clients sending at once")
    args = parser.parse_args()

    with neo4j.GraphDatabase.driver(args.uri, auth=None) as driver:
        # profiles of researchers with a few co-authors: small answers, quick to make, many to keep
        chosen = BUSIEST if args.query == "network" else MODEST
        ids = [r["id"] for r in driver.execute_query(chosen, n=args.researchers).records]
    query = gq.NETWORK if args.query == "network" else gq.PROFILE
    if args.analytics:
        query = query.replace("nodes {", "stats { density components } nodes { centrality ")
    os.environ["WEFT_WORKERS"] = str(args.workers)  # what `weft serve` reads without --workers
    OUT.mkdir(parents=True, exist_ok=True)
    with weft_server(args.uri, args.port, None, OUT / "worker-memory-weft.log", weft_bin=args.weft_bin) as server:
        assert server.pid is not None
        print(f"idle: {', '.join(f'{mb:.0f}' for mb in rss_each_mb(server.pid))} MB", flush=True)
        asked = 0
        kept = 0

        def ask(k: int) -> int:
            variables: dict[str, object] = {"id": f"{ids[k % len(ids)]}-m{k}"}
            if args.query == "network":
                variables["limit"] = 200
            answer = post(server.url, query, variables)
            if b'"errors"' in answer:
                raise SystemExit(f"an error: {answer[:300]!r}")
            return len(answer)

        with ThreadPoolExecutor(args.threads) as pool:
            for _ in range(args.rounds):
                kept += sum(pool.map(ask, range(asked, asked + len(ids))))
                asked += len(ids)
                each = rss_each_mb(server.pid)
                print(
                    f"after {asked} {args.query}s ({kept / 2**20:.1f} MB of answers): "
                    f"{', '.join(f'{mb:.0f}' for mb in each)} MB",
                    flush=True,
                )


if __name__ == "__main__":
    main()
