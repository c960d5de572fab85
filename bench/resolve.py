"""`resolve` speed (issue 50): 500 mixed ids of every form from the graph at NEO4J_URI, p50/p95 over N rounds.

    NEO4J_URI=bolt://127.0.0.1:7871 .venv/bin/python -m bench.resolve --rounds 30
    NEO4J_URI=… .venv/bin/python -m bench.resolve --url http://127.0.0.1:8000/graphql   # through a running server

The ids are drawn (seeded) from the graph's own nodes, written in every form the README names: DOIs bare, upper
case, `doi:` and doi.org URLs; arXiv ids bare, versioned, `arXiv:` and abs URLs; OpenAlex W/A/I short and URL;
S2 paperIds and `CorpusId:N`; S2 author ids; ORCIDs bare and URL; RORs short and URL; Weft ids and page URLs; and
a few unknown ones. Each round shuffles them (so a server's response cache never answers). Without `--url` a
round is `graph.reads.resolve.resolve_ids` (what the GraphQL field runs); with it, a POST of the query.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import subprocess
import time
from typing import Any, LiteralString

import httpx

from weft.graph.driver import open_async_driver
from weft.graph.identity.lookup import paper_path
from weft.graph.reads.reader import GraphReader
from weft.graph.reads.resolve import MAX_IDS, resolve_ids
from weft.graph.settings import load_settings

SAMPLE: dict[str, LiteralString] = {
    "doi": "MATCH (n:Paper) WHERE n.doi IS NOT NULL RETURN n.doi AS v, n.id AS id LIMIT 5000",
    "arxiv": "MATCH (n:Paper) WHERE n.arxiv_id IS NOT NULL RETURN n.arxiv_id AS v, n.id AS id LIMIT 5000",
    "work": "MATCH (n:Paper) WHERE n.openalex_id IS NOT NULL RETURN n.openalex_id AS v, n.id AS id LIMIT 5000",
    "s2": "MATCH (n:Paper) WHERE n.s2_id IS NOT NULL RETURN n.s2_id AS v, n.id AS id LIMIT 5000",
    "corpus": "MATCH (n:Paper) WHERE n.corpus_id IS NOT NULL RETURN n.corpus_id AS v, n.id AS id LIMIT 5000",
    "page": "MATCH (n:Paper) RETURN n {.id, .title, .arxiv_id, .openalex_id} AS v, n.id AS id LIMIT 5000",
    "orcid": "MATCH (n:Researcher) WHERE n.orcid IS NOT NULL RETURN n.orcid AS v, n.id AS id LIMIT 5000",
    "author": "MATCH (n:Researcher) WHERE n.openalex_id IS NOT NULL RETURN n.openalex_id AS v, n.id AS id LIMIT 5000",
    "s2_author": "MATCH (n:Researcher) WHERE n.s2_id IS NOT NULL RETURN n.s2_id AS v, n.id AS id LIMIT 5000",
    "ror": "MATCH (n:Institution) WHERE n.ror IS NOT NULL RETURN n.ror AS v, n.id AS id LIMIT 5000",
    "institution": "MATCH (n:Institution) WHERE n.openalex_id IS NOT NULL RETURN n.openalex_id AS v, n.id AS id "
    "LIMIT 5000",
}
BASE = "https://weft.example.org"


def spellings(kind: str, value: Any, node_id: str) -> list[str]:
    """The forms a program might send one id in."""
    v = str(value)
    return {
        "doi": [v, v.upper(), f"doi:{v}", f"https://doi.org/{v}"],
        "arxiv": [v, f"{v}v2", f"arXiv:{v}", f"https://arxiv.org/abs/{v}v1"],
        "work": [v, f"https://openalex.org/{v}", node_id],
        "s2": [v],
        "corpus": [f"CorpusId:{v}"],
        "page": [BASE + paper_path(value) if isinstance(value, dict) else v],
        "orcid": [v, f"https://orcid.org/{v}"],
        "author": [v, f"https://openalex.org/{v}", node_id],
        "s2_author": [v],
        "ror": [v, f"https://ror.org/{v}"],
        "institution": [v, f"https://openalex.org/{v}", node_id],
    }[kind]


async def mixed_ids(reader: GraphReader, n: int, seed: int, unknown_aliases: bool) -> tuple[list[str], dict[str, int]]:
    """`n` ids, every available form about equally often, plus 2% unknown ones."""
    rng = random.Random(seed)
    pools: dict[str, list[str]] = {}
    for kind, query in SAMPLE.items():
        rows = await reader.rows(query, {}, f"sampling {kind} ids")
        pools[kind] = [s for r in rows for s in spellings(kind, r["v"], r["id"])]
    pools = {k: v for k, v in pools.items() if v}
    # Unknown DOIs only: an unknown OpenAlex or internal id may be an alias, whose look-up scans the label
    # (graph/MODEL.md, "Sync"), which `--unknown-aliases` measures.
    unknown = ["10.9999/unknown-" + str(i) for i in range(n // 50)]
    if unknown_aliases:
        unknown += ["W9" + str(i) for i in range(n // 100)]
    ids = list(unknown)
    kinds = sorted(pools)
    while len(ids) < n:
        kind = kinds[len(ids) % len(kinds)]
        ids.append(rng.choice(pools[kind]))
    return ids[:n], {k: len(v) for k, v in pools.items()}


async def run(rounds: int, n: int, url: str | None, seed: int, unknown_aliases: bool) -> None:
    settings = load_settings()
    driver = open_async_driver(settings)
    timings: list[float] = []
    try:
        reader = GraphReader(driver, settings.neo4j_database, 60.0)
        ids, pools = await mixed_ids(reader, n, seed, unknown_aliases)
        rng = random.Random(seed)
        query = "query($ids: [String!]!) { resolve(ids: $ids) { kind status entity { __typename } } }"
        async with httpx.AsyncClient(timeout=60) as http:
            for i in range(rounds + 2):
                rng.shuffle(ids)
                began = time.perf_counter()
                if url:
                    response = await http.post(url, json={"query": query, "variables": {"ids": ids}})
                    response.raise_for_status()
                    answers = response.json()["data"]["resolve"]
                    found = sum(a["status"] != "NOT_FOUND" for a in answers)
                else:
                    answers = await resolve_ids(GraphReader(driver, settings.neo4j_database, 60.0), ids)
                    found = sum(a.status != "NOT_FOUND" for a in answers)
                elapsed = (time.perf_counter() - began) * 1000
                if i >= 2:  # two warm-up rounds
                    timings.append(elapsed)
    finally:
        await driver.close()
    timings.sort()
    p95 = timings[min(len(timings) - 1, round(0.95 * (len(timings) - 1)))]
    load = subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()
    where = f"POST {url}" if url else "resolve_ids"
    forms = ", ".join(f"{k} {v}" for k, v in sorted(pools.items()))
    print(
        f"resolve: {n} mixed ids ({found} found), {rounds} rounds via {where}: "
        f"p50 {statistics.median(timings):.1f} ms, p95 {p95:.1f} ms; forms sampled: {forms}; {load}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--ids", type=int, default=MAX_IDS)
    parser.add_argument("--url", help="a running server's /graphql (else the graph function, in this process)")
    parser.add_argument("--seed", type=int, default=50)
    parser.add_argument("--unknown-aliases", action="store_true", help="add unknown OpenAlex ids (alias scans)")
    args = parser.parse_args()
    asyncio.run(run(args.rounds, args.ids, args.url, args.seed, args.unknown_aliases))


if __name__ == "__main__":
    main()
