"""Site benchmark (issue 12): a page's p50 against the GraphQL request that fetches the same data.

Starts `weft serve` (one worker, GraphQL response cache off so neither side is answered from memory)
on loopback against NEO4J_URI's database, which must hold the shared OpenAlex data (`weft load
../shared/data/openalex`). Per round and shape, the page and its GraphQL request are sent one after
the other on one keep-alive connection each, the order alternating by round (interleaved, so both see
the same load). Pages are fetched gzipped, as a browser asks for them.

    NEO4J_URI=bolt://127.0.0.1:7811 .venv/bin/python -m bench.site --rounds 40

Prints a markdown table (p50 and p95 per side, ratio of p50s) and the load average before and after,
and writes it with the raw timings to bench/out/site.json.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
WEFT_BIN = ROOT / ".venv" / "bin" / "weft"

# Each page's id and the GraphQL query for what that page shows (the same parts, page sizes and sorts).
RESEARCHER = """query($id: String!) { researcher(id: $id) {
  id name slug canonicalUrl ids { source id url } worksCount { source value }
  paperCount hIndex citationCount i10Index
  authorPositions { first middle last matchedPapers }
  fields(first: 12) { count category { key name } }
  mostCitedPaper { id title citedByCount arxivId }
  institutions { institution { id name } firstYear lastYear paperCount }
  sameName { researcher { id name } evidence }
  coauthors(first: 12) { totalCount edges { node { weight researcher { id name } } } }
  papers(first: 24) { totalCount edges { node { id title year citedByCount venue arxivId } } } } }"""
PAPER = """query($id: String!) { paper(id: $id) {
  id title slug arxivId doi year publicationDate citedByCount abstract venue type license pdfUrl
  referencedWorksCount isAuthorsTruncated versions { version }
  ids { source id url }
  categories { primary score category { key name } }
  authors { position researcher { id name } affiliations { id name } }
  citedBy(first: 20) { totalCount edges { node { id title year citedByCount venue arxivId
    categories { primary category { key name } } } } }
  references(first: 20) { totalCount edges { node { id title year citedByCount venue arxivId } } } } }"""
INSTITUTION = """query($id: String!) { institution(id: $id) {
  id name slug canonicalUrl ror country type city worksCount ids { source id url }
  parents { id name } children { id name }
  roster(first: 25) { totalCount edges { node { paperCount firstYear lastYear researcher { id name } } } }
  mostCited(first: 10) { id title year citedByCount venue arxivId }
  collaborators(first: 10) { totalCount edges { node { weight researchers institution { id name } } } } } }"""
SHAPES = {
    "researcher": ("/researchers/", "A5032473237", RESEARCHER),  # Peter Butcher: 28 papers
    "paper": ("/papers/", "W2741809807", PAPER),  # The state of OA: 9 authors, cited by loaded works
    "institution": ("/institutions/", "I161548249", INSTITUTION),  # Bangor University
}


@dataclass
class Timings:
    page: list[float] = field(default_factory=list)
    graphql: list[float] = field(default_factory=list)


def load_average() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def start_server(port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "WEFT_RESPONSE_CACHE_MB": "0"}
    server = subprocess.Popen(
        [str(WEFT_BIN), "serve", "--port", str(port), "--workers", "1", "--log-level", "warning"], env=env
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/health")
            if conn.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.3)
    server.terminate()
    sys.exit("weft serve did not start")


def timed(
    conn: http.client.HTTPConnection, method: str, path: str, body: bytes | None, headers: dict[str, str]
) -> float:
    start = time.perf_counter()
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    data = response.read()
    elapsed = (time.perf_counter() - start) * 1000
    if response.status != 200 or (method == "POST" and b'"errors"' in data):
        raise RuntimeError(f"{method} {path}: {response.status} {data[:300]!r}")
    return elapsed


def canonical(conn: http.client.HTTPConnection, prefix: str, ident: str) -> str:
    conn.request("GET", prefix + ident)
    response = conn.getresponse()
    response.read()
    if response.status != 301:
        raise RuntimeError(f"{prefix}{ident}: expected 301, got {response.status}")
    return response.getheader("location") or ""


def run(port: int, rounds: int, warmup: int) -> dict[str, Timings]:
    pages = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    api = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    page_headers = {"Accept": "text/html", "Accept-Encoding": "gzip"}
    api_headers = {"Content-Type": "application/json", "Accept-Encoding": "gzip"}
    paths = {name: canonical(pages, prefix, ident) for name, (prefix, ident, _) in SHAPES.items()}
    bodies = {
        name: json.dumps({"query": query, "variables": {"id": ident}}).encode()
        for name, (_, ident, query) in SHAPES.items()
    }
    timings = {name: Timings() for name in SHAPES}
    for round_no in range(warmup + rounds):
        for name in SHAPES:
            sides = [
                ("page", lambda n=name: timed(pages, "GET", paths[n], None, page_headers)),
                ("graphql", lambda n=name: timed(api, "POST", "/graphql", bodies[n], api_headers)),
            ]
            for side, call in sides if round_no % 2 == 0 else reversed(sides):
                elapsed = call()
                if round_no >= warmup:
                    getattr(timings[name], side).append(elapsed)
    return timings


def p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] if len(values) > 1 else values[0]


def table(timings: dict[str, Timings]) -> str:
    lines = [
        "| page | page p50 / p95 | GraphQL p50 / p95 | page ÷ GraphQL (p50) |",
        "|---|---:|---:|---:|",
    ]
    for name, t in timings.items():
        page50, api50 = statistics.median(t.page), statistics.median(t.graphql)
        lines.append(
            f"| {name} | {page50:.1f} / {p(t.page, 95):.1f} ms | {api50:.1f} / {p(t.graphql, 95):.1f} ms "
            f"| {page50 / api50:.2f}x |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--port", type=int, default=8731)
    args = parser.parse_args()
    before = load_average()
    server = start_server(args.port)
    try:
        timings = run(args.port, args.rounds, args.warmup)
    finally:
        server.terminate()
        server.wait(timeout=30)
    after = load_average()
    report = table(timings)
    print(report)
    print(f"load before: {before}\nload after:  {after}")
    OUT.mkdir(exist_ok=True)
    raw = {k: {"page": v.page, "graphql": v.graphql} for k, v in timings.items()}
    data = {"table": report, "before": before, "after": after, "rounds": args.rounds, "timings_ms": raw}
    (OUT / "site.json").write_text(json.dumps(data, indent=1))


if __name__ == "__main__":
    main()
