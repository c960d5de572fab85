"""Facets and totals through a running `weft serve` (response cache off), interleaved shape by shape:

* `facets(by: YEAR)` under a field filter, `facets(by: INSTITUTION, first: 20)` under a field filter,
  `facets(by: COUNTRY)` for one institution: p50 and p95 of each (the issue's target: p95 <= 100 ms at 1M works);
* the `papers` page of a field with `totalCount` against the same page without it (target: <= 1.2x).

    WEFT_RESPONSE_CACHE_MB=0 NEO4J_URI=bolt://127.0.0.1:7851 .venv/bin/weft serve --workers 1 --port 8851 &
    .venv/bin/python -m bench.facets --uri bolt://127.0.0.1:7851 --weft http://127.0.0.1:8851/graphql

The fields are the `--fields` largest `field` categories, the institutions the `--institutions` with most papers
(STATES_AFFILIATION); every round asks every shape for each of them, the shapes' order rotating each round so a
busy machine slows them alike. Round 0 warms (the page cache) and is not counted. Each answer's Cypher query
count (x-weft-cypher-queries) is reported, and every answer must be free of errors.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
from typing import Any

import neo4j

from bench.serve import Http

FIELDS = """
MATCH (c:Category {scheme: 'field'})
RETURN c.key AS key, COUNT { (c)<-[:IN_CATEGORY]-() } AS papers ORDER BY papers DESC, key LIMIT $n
"""
INSTITUTIONS = """
MATCH (i:Institution)
RETURN i.id AS id, COUNT { (i)<-[:STATES_AFFILIATION]-() } AS papers ORDER BY papers DESC, id LIMIT $n
"""
YEAR = """query($f: String!) { facets(by: [YEAR], filter: {category: $f}, first: 200) {
  totalCount facets { groups { key count citationSum } unknown { count } } } }"""
INSTITUTION = """query($f: String!) { facets(by: [INSTITUTION], filter: {category: $f}, first: 20) {
  totalCount facets { groups { key name count citationSum url } unknown { count } } } }"""
COUNTRY = """query($i: String!) { facets(by: [COUNTRY], filter: {institution: $i}) {
  totalCount facets { groups { key count citationSum } unknown { count } } } }"""
PAGE_TOTAL = """query($f: String!) { papers(filter: {category: $f}, first: 24, sort: MOST_CITED) {
  totalCount edges { node { id title year citedByCount } } } }"""
PAGE = """query($f: String!) { papers(filter: {category: $f}, first: 24, sort: MOST_CITED) {
  edges { node { id title year citedByCount } } } }"""
SHAPES: dict[str, tuple[str, str]] = {
    "facets(by: YEAR) · field": (YEAR, "f"),
    "facets(by: INSTITUTION, first: 20) · field": (INSTITUTION, "f"),
    "facets(by: COUNTRY) · institution": (COUNTRY, "i"),
    "papers · field, with totalCount": (PAGE_TOTAL, "f"),
    "papers · field, without totalCount": (PAGE, "f"),
}


def pick(uri: str, fields: int, institutions: int) -> dict[str, list[str]]:
    """The largest fields (keys) and the institutions with most papers (ids)."""
    with neo4j.GraphDatabase.driver(uri, auth=None) as driver:
        f = driver.execute_query(FIELDS, n=fields)[0]
        i = driver.execute_query(INSTITUTIONS, n=institutions)[0]
    return {"f": [r["key"] for r in f], "i": [r["id"] for r in i]}


def measure(http: Http, inputs: dict[str, list[str]], rounds: int) -> tuple[dict[str, list[float]], dict[str, str]]:
    """Milliseconds per shape over rounds 1..rounds (round 0 warms), shapes rotating; each shape's query count."""
    times: dict[str, list[float]] = {name: [] for name in SHAPES}
    queries: dict[str, str] = {}
    names = list(SHAPES)
    for round_no in range(rounds + 1):
        shift = round_no % len(names)
        for name in names[shift:] + names[:shift]:
            query, var = SHAPES[name]
            for value in inputs[var]:
                seconds, body, error = http.post(query, {var: value})
                if error or body is None or "errors" in json.loads(body):
                    raise SystemExit(f"{name} {value}: {error or body!r}")
                queries[name] = http.cypher_queries or "?"
                if round_no:
                    times[name].append(seconds * 1000)
    return times, queries


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def report(times: dict[str, list[float]], queries: dict[str, str], inputs: dict[str, list[str]]) -> str:
    lines = [
        f"fields {inputs['f']}, institutions {inputs['i']}; load average {os.getloadavg()[0]:.2f}",
        "",
        "| shape | p50 ms | p95 ms | Cypher queries | n |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, values in times.items():
        lines.append(
            f"| {name} | {statistics.median(values):.1f} | {percentile(values, 95):.1f} | {queries[name]} |"
            f" {len(values)} |"
        )
    with_total = statistics.median(times["papers · field, with totalCount"])
    without = statistics.median(times["papers · field, without totalCount"])
    lines += ["", f"totalCount cost: page with it / without it (p50) = {with_total / without:.2f}x"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--uri", default=os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7687"))
    parser.add_argument("--weft", default="http://127.0.0.1:8000/graphql", help="a weft serve's /graphql")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--fields", type=int, default=3)
    parser.add_argument("--institutions", type=int, default=3)
    args = parser.parse_args(argv)
    inputs: dict[str, Any] = pick(args.uri, args.fields, args.institutions)
    times, queries = measure(Http(args.weft), inputs, args.rounds)
    print(report(times, queries, inputs))


if __name__ == "__main__":
    main()
