"""Does the cost budget charge network fields by what they cost? (issue 11, item 10)

The cost model (schema/support/limits.py) charges `researcherNetwork` `1 + limit × depth` plus its
`nodes` and `edges` selections at `limit` items each. This runs the same selection over a grid of depth
and limit against one `weft serve` worker (cache misses: a new spelling of the id per request, so every
request reads and builds its network), for the best-connected researchers and for ones of median degree,
and reports milliseconds per cost unit per cell. A model that charges by real cost keeps that ratio
within a small band; a cell far above the rest is under-charged (a request could hold many of them).

    .venv/bin/python -m bench.network_cost --uri bolt://127.0.0.1:7801 --port 8291

Writes a markdown table to bench/out/ and prints it with the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from graphql import GraphQLSchema, parse

from bench.serve import BUSIEST, OUT, Http, column, fmt_load, load_average, open_driver, weft_server
from weft.schema.root import build_schema
from weft.schema.support.limits import QueryCost

QUERY = """query Network($id: String!) {
  researcherNetwork(id: $id, depth: %d, limit: %d) {
    centre truncated totalNodeCount
    nodes { id name paperCount distance }
    edges { source target weight firstYear lastYear }
  }
}"""
DEPTHS = (1, 2, 3)
LIMITS = (50, 200, 1000)
# Researchers of median co-author count (among those with any), $n of them from the middle up.
MEDIAN = """
MATCH (r:Researcher) WITH r, COUNT { (r)-[:COAUTHORED_WITH]-() } AS ties WHERE ties > 0
WITH r.id AS id ORDER BY ties, r.id WITH collect(id) AS ids
UNWIND range(0, $n - 1) AS k RETURN ids[size(ids) / 2 + k] AS id
"""


def cost_of(text: str, schema: GraphQLSchema) -> int:
    """What the budget charges for `text` (the server's own cost model)."""
    return QueryCost(schema, {}).of_operation(parse(text).definitions[0])  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uri", required=True, help="Bolt URI of the graph to measure (the 20k synthetic graph)")
    parser.add_argument("--port", type=int, default=8291, help="port for the `weft serve` this starts")
    parser.add_argument("--ids", type=int, default=4, help="researchers per group (busiest, median degree)")
    parser.add_argument("--rounds", type=int, default=3, help="requests per id and cell (the median is kept)")
    args = parser.parse_args()

    driver = open_driver(args.uri)
    busiest = column(driver, BUSIEST, n=args.ids)
    median = column(driver, MEDIAN, n=args.ids)
    driver.close()
    before = load_average()
    OUT.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    os.environ["WEFT_RESPONSE_CACHE_MB"] = "0"
    os.environ["WEFT_WORKERS"] = "1"
    schema = build_schema()._schema  # noqa: SLF001 - graphql-core's schema, as the validation rule sees it
    rows = []
    with weft_server(args.uri, args.port, None, OUT / f"network-cost-weft-{stamp}.log") as server:
        http = Http(server.url, timeout=120)
        counter = 0
        for group, ids in (("busiest", busiest), ("median", median)):
            for depth in DEPTHS:
                for limit in LIMITS:
                    text = QUERY % (depth, limit)
                    cost = cost_of(text, schema)
                    per_id = []
                    for rid in ids:
                        times = []
                        for _ in range(args.rounds):
                            counter += 1
                            seconds, _ = http.data(text, {"id": f"{rid}-cost{os.getpid()}x{counter}"})
                            times.append(seconds * 1000)
                        per_id.append(statistics.median(times))
                    ms = statistics.median(per_id)
                    rows.append((group, depth, limit, cost, ms, max(per_id)))
                    print(f"  {group} depth {depth} limit {limit}: cost {cost}, {ms:.0f} ms", flush=True)
        http.close()
    after = load_average()
    unit = [ms / cost for *_, cost, ms, _ in rows]
    lines = [
        f"Command: `python -m bench.network_cost --uri {args.uri} --ids {args.ids} --rounds {args.rounds}`",
        "",
        "| researchers | depth | limit | cost charged | p50 ms (median over ids) | slowest id ms | ms per 1,000 cost |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *(
            f"| {g} | {d} | {lim} | {c:,} | {ms:.0f} | {worst:.0f} | {1000 * ms / c:.1f} |"
            for g, d, lim, c, ms, worst in rows
        ),
        "",
        f"ms per 1,000 cost: {min(unit) * 1000:.1f}-{max(unit) * 1000:.1f} (max/min {max(unit) / min(unit):.1f}x).",
        f"Load average (1/5/15 min) before: {fmt_load(before)}; after: {fmt_load(after)}.",
    ]
    out = OUT / f"network-cost-{stamp}.md"
    out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"written to {out}")


if __name__ == "__main__":
    main()
