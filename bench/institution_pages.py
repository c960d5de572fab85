"""Institution pages on a large graph: the README's roster shape, the institution network and a page of
papers, for typical and the busiest institutions, through one or more running `weft serve`s.

Several servers (say, two commits on the same database) are compared interleaved, request by request,
their order rotating, so a busy machine slows them alike:

    NEO4J_URI=bolt://127.0.0.1:7841 WEFT_RESPONSE_CACHE_MB=0 .venv/bin/weft serve --workers 1 --port 8843 &
    .venv/bin/python -m bench.institution_pages --uri bolt://127.0.0.1:7841 --weft new=http://127.0.0.1:8843/graphql

Typical institutions: a seeded sample of those whose researcher count is the median's (AFFILIATED_WITH);
the busiest: the most researchers. Each id is asked once to warm, then `--rounds` times counted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections import Counter
from urllib.parse import urlparse

import neo4j

from bench import serve_queries as gq
from bench.serve import Http

BY_RESEARCHERS = """
MATCH (i:Institution) WHERE i.ror IS NOT NULL
RETURN i.ror AS id, COUNT { (i)<-[:AFFILIATED_WITH]-() } AS researchers ORDER BY researchers DESC, id
"""
NETWORK = """query($id: String!) { institutionNetwork(id: $id, limit: 50) {
  truncated nodes { id name paperCount } edges { source target weight } } }"""
PAPERS = """query($id: String!) { institution(id: $id) {
  papers(first: 24, sort: MOST_CITED) { totalCount edges { node { id title year citedByCount } } } } }"""
SHAPES = {"roster": gq.ROSTER, "network": NETWORK, "papers": PAPERS}


def pick(uri: str, typical: int, busiest: int) -> dict[str, list[str]]:
    with neo4j.GraphDatabase.driver(uri, auth=None) as driver:
        rows = driver.execute_query(BY_RESEARCHERS)[0]
    median = statistics.median(r["researchers"] for r in rows)
    middle = [r["id"] for r in rows if r["researchers"] == median] or [rows[len(rows) // 2]["id"]]
    random.seed(7)
    return {
        "typical": random.sample(middle, min(typical, len(middle))),
        "busiest": [r["id"] for r in rows[:busiest]],
    }


Times = dict[tuple[str, str, str], list[float]]
Answers = dict[tuple[str, str, str, str], set[str]]


def measure(servers: dict[str, Http], ids: dict[str, list[str]], rounds: int) -> tuple[Times, Answers]:
    """Every shape for every id on every server, the servers' order rotating; round 0 warms."""
    times: Times = {}
    answers: Answers = {}
    turn = 0
    for round_no in range(rounds + 1):
        for group, group_ids in ids.items():
            for shape, query in SHAPES.items():
                for iid in group_ids:
                    labels = list(servers)
                    for label in labels[turn % len(labels) :] + labels[: turn % len(labels)]:
                        began = time.perf_counter()
                        _, body, error = servers[label].post(query, {"id": iid})
                        took = (time.perf_counter() - began) * 1000
                        parsed = json.loads(body) if body else {}
                        if error or parsed.get("errors"):
                            print(f"  {label} {shape} {iid}: {error} {str(parsed.get('errors'))[:200]}")
                        if round_no:
                            times.setdefault((group, shape, label), []).append(took)
                            answers.setdefault((label, group, shape, iid), set()).add(
                                json.dumps(parsed, sort_keys=True)
                            )
                    turn += 1
        print(f"  round {round_no}/{rounds} done, load {os.getloadavg()[0]:.2f}", flush=True)
    return times, answers


def report(servers: list[str], ids: dict[str, list[str]], times: Times, answers: Answers) -> None:
    print("\n| institutions | shape | " + " | ".join(f"{label} p50 / p95 ms" for label in servers) + " | n |")
    print("|---|---|" + "---:|" * len(servers) + "---:|")
    for group in ids:
        for shape in SHAPES:
            cells = []
            for label in servers:
                xs = sorted(times[(group, shape, label)])
                cells.append(f"{statistics.median(xs):.1f} / {xs[int(0.95 * (len(xs) - 1))]:.1f}")
            print(f"| {group} | {shape} | " + " | ".join(cells) + f" | {len(times[(group, shape, servers[0])])} |")
    unstable = sorted({f"{label} {shape} {iid}" for (label, _, shape, iid), seen in answers.items() if len(seen) > 1})
    by_id: dict[tuple[str, str], set[str]] = {}
    for (_, _, shape, iid), seen in answers.items():
        by_id.setdefault((shape, iid), set()).update(seen)
    differ = Counter(shape for (shape, _), seen in by_id.items() if len(seen) > 1)
    print(f"\nanswers that changed between rounds: {unstable or 'none'}")
    print(f"ids whose answers differ between servers, per shape: {dict(differ) or 'none'}; load {os.getloadavg()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uri", default=os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7841"))
    parser.add_argument("--weft", action="append", required=True, help="label=URL of a running /graphql")
    parser.add_argument("--typical", type=int, default=8)
    parser.add_argument("--busiest", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    servers = {label: Http(url, timeout=120) for label, _, url in (w.partition("=") for w in args.weft)}
    ids = pick(args.uri, args.typical, args.busiest)
    print(f"{urlparse(args.uri).port}: ids {json.dumps(ids)}; load {os.getloadavg()}", flush=True)
    times, answers = measure(servers, ids, args.rounds)
    report(list(servers), ids, times, answers)


if __name__ == "__main__":
    main()
