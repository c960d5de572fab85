"""The vector index at scale (issue 13): N papers with synthetic sentence vectors, on a scratch local server.

    .venv/bin/python -m bench.vector_scale --papers 100000
    nohup .venv/bin/python -m bench.vector_scale --papers 1000000 > /tmp/vector_scale_1m.log 2>&1 &

Embedding a million real papers is out of reach here (3-10 papers/s), so the vectors are synthetic but shaped
like real ones: `--bases` titles of the shared OpenAlex works are embedded with Weft's model
(graph/embeddings.py), and each paper's vector is a random convex mixture of 2 or 3 of them (Dirichlet
weights) plus Gaussian noise (`--noise` per dimension), L2-normalised: clustered around real topics, not
uniform noise. Another `--queries` titles, none of them a base, are the query vectors.

Steps, timed: start a scratch server (`--port`, its own instance folder), run Weft's migrate, drop the
vector index, write N (:Paper)-[:EMBEDDED_AS]->(:PaperVector) with Weft's own vector writer
(queries/semantic.py WRITE_VECTORS, model property included) in UNWIND batches, create the index again with
Weft's definition (queries/admin.py) and wait until it is online (its population), checkpoint, then measure
the latency of the Cypher Weft's
SEMANTIC search runs (queries/read_search.py SEARCH_PAGE with graph/reads/search.py's parameters, first 10
and 20; one warm-up pass, then a timed one per page size), and its recall@10 against the exact 10 nearest
(brute force over every vector written, kept as they are written). Last, `--append` more papers are written with the
index online (what `weft embed` does to a large graph). The server is stopped at the end (`--keep` leaves it)
and the sizes on disk are read after that clean shutdown: the vector index folder (schema/index/vector-2.0),
the property arrays store (where the vectors are kept) and the whole database folder.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from neo4j import Driver

from bench.machine import describe, load_average
from weft.graph import local_server
from weft.graph.driver import open_driver
from weft.graph.embeddings import DIMENSION, embedder, model_id
from weft.graph.migrate import migrate
from weft.graph.reads.search import PaperFilters, search_params
from weft.graph.settings import PROJECT_ROOT, Settings, load_settings
from weft.queries import admin
from weft.queries import read_search as search_q
from weft.queries import semantic as semantic_q

SHARED = Path(os.environ.get("WEFT_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data"))
VECTOR_INDEX_DDL = next(s for s in admin.INDEXES if "INDEX paper_vector " in s)

# Papers without text of their own (the vectors are what is measured): one row per paper.
CREATE_PAPERS = "UNWIND $rows AS row CREATE (:Paper {id: row.id, title: row.title, year: row.year})"
DROP_VECTOR_INDEX = "DROP INDEX paper_vector IF EXISTS"
INDEX_STATE = (
    "SHOW INDEXES YIELD name, state, populationPercent WHERE name = 'paper_vector' RETURN state, populationPercent"
)


def _records(path: Path) -> Iterator[object]:
    """The records of a shared file: a JSON document (a list, or an object with `results`/`data`) or JSON Lines."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        text = handle.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        yield from (json.loads(line) for line in text.splitlines() if line.strip())
        return
    if isinstance(data, dict):
        data = data.get("results") or data.get("data") or [data]
    yield from data if isinstance(data, list) else []


def shared_titles() -> list[str]:
    """Distinct titles (3 words or more) of the shared OpenAlex, Semantic Scholar and arXiv records, in a fixed
    order."""
    seen: dict[str, None] = {}
    files = sorted(f for f in SHARED.rglob("*") if f.is_file() and f.name.endswith((".json", ".jsonl", ".gz")))
    for path in files:
        for record in _records(path):
            title = record.get("title") if isinstance(record, dict) else None
            title = " ".join(title.split()) if isinstance(title, str) else ""
            if len(title.split()) >= 3:
                seen.setdefault(title, None)
    return list(seen)


def vectors(bases: np.ndarray, n: int, noise: float, rng: np.random.Generator) -> np.ndarray:
    """`n` unit vectors: convex mixtures of 2 or 3 random bases plus Gaussian noise, normalised."""
    picks = rng.integers(0, len(bases), size=(n, 3))
    weights = rng.dirichlet(np.ones(3), size=n)
    two = rng.random(n) < 0.5
    weights[two, 2] = 0.0
    weights /= weights.sum(axis=1, keepdims=True)
    mixed = np.einsum("nk,nkd->nd", weights, bases[picks]) + rng.normal(0.0, noise, size=(n, bases.shape[1]))
    return (mixed / np.linalg.norm(mixed, axis=1, keepdims=True)).astype(np.float32)


class Exact:
    """The exact 10 nearest papers to each query vector (by cosine, brute force), kept up to date as papers are
    written: what the vector index's answers are compared with (recall@10)."""

    def __init__(self, queries: np.ndarray, k: int = 10) -> None:
        self.queries = queries
        self.k = k
        self.ids = np.full((len(queries), 0), -1, dtype=np.int64)
        self.sims = np.zeros((len(queries), 0), dtype=np.float32)

    def add(self, first: int, vecs: np.ndarray) -> None:
        sims = np.concatenate([self.sims, self.queries @ vecs.T], axis=1)
        ids = np.concatenate(
            [self.ids, np.broadcast_to(np.arange(first, first + len(vecs)), (len(sims), len(vecs)))], 1
        )
        keep = np.argsort(-sims, axis=1)[:, : self.k]
        self.sims = np.take_along_axis(sims, keep, axis=1)
        self.ids = np.take_along_axis(ids, keep, axis=1)

    def recall(self, found: list[list[str]]) -> float:
        """Mean share of each query's exact 10 nearest among the ids found for it (first 10)."""
        hits = [
            len({f"s{i:08d}" for i in want} & set(got[: self.k])) for want, got in zip(self.ids, found, strict=True)
        ]
        return sum(hits) / (self.k * len(found))


def batches(start: int, n: int, size: int) -> Iterator[range]:
    for first in range(start, start + n, size):
        yield range(first, min(first + size, start + n))


def write(
    driver: Driver, db: str, bases: np.ndarray, start: int, n: int, args: argparse.Namespace, exact: Exact | None = None
) -> float:
    """Writes papers start..start+n with vectors (told to `exact` too); returns seconds."""
    rng = np.random.default_rng(args.seed + start)
    model = model_id()
    began = time.perf_counter()
    last = began
    for ids in batches(start, n, args.batch):
        vecs = vectors(bases, len(ids), args.noise, rng)
        if exact is not None:
            exact.add(ids.start, vecs)
        papers = [{"id": f"s{i:08d}", "title": f"synthetic paper {i}", "year": 1990 + i % 35} for i in ids]
        driver.execute_query(CREATE_PAPERS, rows=papers, database_=db)
        rows = [{"id": p["id"], "vector": v.tolist(), "text_hash": p["id"]} for p, v in zip(papers, vecs, strict=True)]
        driver.execute_query(semantic_q.WRITE_VECTORS, rows=rows, model=model, database_=db)
        now = time.perf_counter()
        if now - last > 30 or ids.stop == start + n:
            done = ids.stop - start
            print(f"  wrote {done:,} in {now - began:.0f} s ({done / (now - began):.0f}/s)", flush=True)
            last = now
    return time.perf_counter() - began


def populate(driver: Driver, db: str) -> float:
    """Creates the vector index with Weft's definition and waits until it is online; returns seconds."""
    began = time.perf_counter()
    driver.execute_query(VECTOR_INDEX_DDL, database_=db)
    while True:
        records, _, _ = driver.execute_query(INDEX_STATE, database_=db)
        state, percent = records[0]["state"], records[0]["populationPercent"]
        if state == "ONLINE":
            return time.perf_counter() - began
        if state == "FAILED":
            raise RuntimeError("the vector index failed to populate (see the server's neo4j.log)")
        print(f"  index {state} {percent:.1f}% after {time.perf_counter() - began:.0f} s", flush=True)
        try:
            driver.execute_query("CALL db.awaitIndex('paper_vector', 60)", database_=db)
        except Exception:  # noqa: BLE001 - the timeout: poll again
            pass


def folder_bytes(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) if folder.is_dir() else 0


def sizes(settings: Settings) -> dict[str, int]:
    """Bytes on disk: the vector index folder, the property arrays store (the vectors), the whole database."""
    db = local_server.Instance(settings).home / "data" / "databases" / settings.neo4j_database
    arrays = sum(f.stat().st_size for f in db.glob("neostore.propertystore.db.arrays*") if f.is_file())
    return {
        "vector_index": folder_bytes(db / "schema" / "index" / "vector-2.0"),
        "all_indexes": folder_bytes(db / "schema"),
        "vector_arrays": arrays,
        "database": folder_bytes(db),
    }


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def query_times(
    driver: Driver, db: str, queries: list[tuple[str, list[float]]], first: int
) -> tuple[list[float], list[list[str]]]:
    """Milliseconds per SEARCH_PAGE run (SEMANTIC, papers, first `first`), one query at a time, and the ids found."""
    times, found = [], []
    for text, vector in queries:
        params = search_params(text, ["PAPER"], 0, first, "SEMANTIC", PaperFilters(), vector)
        tick = time.perf_counter()
        records, _, _ = driver.execute_query(search_q.SEARCH_PAGE, params, database_=db, routing_="r")
        times.append((time.perf_counter() - tick) * 1000)
        found.append([hit["node"]["id"] for hit in records[0]["page"]])
        assert len(found[-1]) == first
    return times, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--append", type=int, default=10_000, help="papers written with the index online")
    parser.add_argument("--bases", type=int, default=600, help="real titles embedded as mixture bases")
    parser.add_argument("--queries", type=int, default=300, help="other real titles embedded as queries")
    parser.add_argument("--noise", type=float, default=0.01, help="Gaussian noise per dimension")
    parser.add_argument("--batch", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--port", type=int, default=7921)
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--pagecache", default="3g")
    parser.add_argument("--keep", action="store_true", help="leave the scratch server running")
    args = parser.parse_args()
    settings = dataclasses.replace(
        load_settings(),
        neo4j_uri=f"bolt://127.0.0.1:{args.port}",
        neo4j_heap=args.heap,
        neo4j_pagecache=args.pagecache,
        neo4j_start_timeout_s=300,
    )
    db = settings.neo4j_database
    print(f"load average at start {load_average()}", flush=True)

    titles = shared_titles()
    order = np.random.default_rng(args.seed).permutation(len(titles))
    base_titles = [titles[i] for i in order[: args.bases]]
    query_titles = [titles[i] for i in order[args.bases : args.bases + args.queries]]
    tick = time.perf_counter()
    bases = embedder().embed(base_titles)
    queries = [(t, [float(x) for x in v]) for t, v in zip(query_titles, embedder().embed(query_titles), strict=True)]
    print(f"embedded {len(base_titles)} bases and {len(queries)} queries in {time.perf_counter() - tick:.0f} s")
    assert bases.shape[1] == DIMENSION and len(queries) == args.queries, f"{len(titles)} shared titles"

    print(local_server.start(settings, echo=print), flush=True)
    try:
        with open_driver(settings) as driver:
            records, _, _ = driver.execute_query("MATCH (n) RETURN count(n) AS n", database_=db)
            if records[0]["n"]:
                raise SystemExit(f"the scratch database on port {args.port} is not empty: remove its instance folder")
            migrate(driver, db)
            driver.execute_query(DROP_VECTOR_INDEX, database_=db)
            print(f"writing {args.papers:,} papers (load {load_average()})", flush=True)
            exact = Exact(np.array([v for _, v in queries], dtype=np.float32))
            write_s = write(driver, db, bases, 0, args.papers, args, exact)
            print(f"populating the vector index (load {load_average()})", flush=True)
            index_s = populate(driver, db)
            print(f"index online in {index_s:.0f} s; on disk {sizes(settings)} (load {load_average()})", flush=True)
            latency = {}
            for first in (10, 20):
                query_times(driver, db, queries, first)  # warm-up pass
                latency[first], found = query_times(driver, db, queries, first)
                ms = latency[first]
                print(f"  first {first}: p50 {pct(ms, 0.5):.1f} ms, p95 {pct(ms, 0.95):.1f} ms", flush=True)
            recall = exact.recall(found)  # of the first 20's first 10, the same ranking
            print(f"  recall@10 against brute force: {recall:.3f}", flush=True)
            append_s = write(driver, db, bases, args.papers, args.append, args) if args.append else 0.0
            load_end = load_average()
        machine = describe(settings)
    finally:
        if not args.keep:
            print(local_server.stop(settings), flush=True)
    on_disk = sizes(settings)  # after a clean shutdown (everything flushed), append included
    print(f"on disk: {on_disk}")

    mib = 2**20
    per_paper = on_disk["vector_index"] / (args.papers + args.append)
    print(f"\n### {args.papers:,} papers with synthetic vectors (bench/vector_scale.py)\n")
    print(
        f"`.venv/bin/python -m bench.vector_scale --papers {args.papers}` (heap {args.heap}, page cache "
        f"{args.pagecache}, {args.bases} bases, noise {args.noise}, batches of {args.batch})\n"
    )
    print("\n".join(machine.lines()))
    print(f"- Load average (1/5/15 min) at the end: {load_end}\n")
    print(
        "| papers | write | index population | vector index on disk | vector arrays in store | database on disk "
        "| SEMANTIC search p50 / p95 (first 10) | (first 20) | recall@10 | online append |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    p10, p20 = latency[10], latency[20]
    append = f"{args.append:,} in {append_s:.0f} s ({args.append / append_s:.0f}/s)" if args.append else "–"
    print(
        f"| {args.papers:,} (+{args.append:,}) | {write_s:.0f} s ({args.papers / write_s:.0f}/s) | {index_s:.0f} s | "
        f"{on_disk['vector_index'] / mib:.0f} MiB ({per_paper:.0f} B/paper) | "
        f"{on_disk['vector_arrays'] / mib:.0f} MiB | {on_disk['database'] / mib:.0f} MiB | "
        f"{pct(p10, 0.5):.1f} / {pct(p10, 0.95):.1f} ms | {pct(p20, 0.5):.1f} / {pct(p20, 0.95):.1f} ms | "
        f"{recall:.3f} | {append} |"
    )


if __name__ == "__main__":
    main()
