"""Load benchmark: online loader at several batch sizes vs the bulk path (weft build + weft import), one run.

Generates a seeded synthetic OpenAlex works file (bench/synth.py), then on a local Neo4j of its
own port: for each batch size a fresh database and `loaders.run.load_paths`; then `weft build`
+ `weft import` on the same file. Prints a table and writes bench/RESULTS.md.

    .venv/bin/python -m bench.load --works 20000 --port 7701
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bench.machine import describe, load_average
from bench.profile import QueryStats, query_timer
from bench.synth import write_works
from weft.graph import local_server
from weft.graph.bulk_import import discard_store, import_built
from weft.graph.driver import open_driver
from weft.graph.migrate import counts, migrate
from weft.graph.settings import PROJECT_ROOT, Settings
from weft.loaders.bulk.build import build_paths
from weft.loaders.run import load_paths

DEFAULT_RESULTS = PROJECT_ROOT / "bench" / "RESULTS.md"


@dataclass
class Run:
    """One measured way of loading the file."""

    name: str
    seconds: float
    records: int
    nodes: int
    relationships: int
    detail: str = ""
    stats: QueryStats | None = None

    @property
    def records_per_s(self) -> float:
        return self.records / self.seconds

    @property
    def relationships_per_s(self) -> float:
        return self.relationships / self.seconds


def split_counts(found: dict[str, int]) -> tuple[int, int]:
    """(nodes, relationships) from graph.migrate.counts (relationship types are UPPER_CASE)."""
    rels = sum(n for name, n in found.items() if name.isupper())
    return sum(found.values()) - rels, rels


def fresh_database(settings: Settings) -> None:
    """Stop the bench instance, delete its database files, start it and create the schema."""
    local_server.stop(settings)
    discard_store(local_server.Instance(settings), settings.neo4j_database)
    local_server.start(settings, echo=lambda m: None)
    with open_driver(settings) as driver:
        migrate(driver, settings.neo4j_database)


def online_run(settings: Settings, works_file: Path, batch_size: int) -> tuple[Run, dict[str, int]]:
    fresh_database(settings)
    with open_driver(settings) as driver, query_timer() as stats:
        summary = load_paths(
            driver, [works_file], source="openalex", database=settings.neo4j_database, batch_size=batch_size
        )
    with open_driver(settings) as driver:
        found = counts(driver, settings.neo4j_database)
    nodes, rels = split_counts(found)
    write_s = summary.seconds - summary.derive_seconds
    detail = (
        f"batches {write_s:.0f}s + derived {summary.derive_seconds:.0f}s; Cypher and commits "
        f"{stats.total:.0f}s, Python {summary.seconds - stats.total:.0f}s"
    )
    name = f"online, batch {batch_size:,} rows"
    return Run(name, summary.seconds, summary.read, nodes, rels, detail, stats), found


def bulk_run(settings: Settings, works_file: Path, csv_dir: Path) -> tuple[Run, Run, dict[str, int]]:
    began = time.perf_counter()
    exported = build_paths([works_file], csv_dir, source="openalex", echo=lambda m: None)
    export_s = time.perf_counter() - began
    imported = import_built(settings, csv_dir, echo=lambda m: None)
    total = time.perf_counter() - began
    nodes, rels = split_counts(imported.counts)
    whole = Run(
        "weft build + weft import",
        total,
        exported.records,
        nodes,
        rels,
        f"build {export_s:.0f}s + neo4j-admin {imported.admin_seconds:.0f}s + "
        f"stop/start/schema {imported.total_seconds - imported.admin_seconds:.0f}s",
    )
    admin = Run("neo4j-admin import only", imported.admin_seconds, exported.records, nodes, rels)
    return whole, admin, imported.counts


def table(runs: list[Run]) -> list[str]:
    lines = [
        "| path | seconds | records/s | relationships/s | nodes | relationships | where the time went |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in runs:
        lines.append(
            f"| {r.name} | {r.seconds:.1f} | {r.records_per_s:,.0f} | {r.relationships_per_s:,.0f} | "
            f"{r.nodes:,} | {r.relationships:,} | {r.detail} |"
        )
    return lines


def profile_lines(run: Run) -> list[str]:
    """The statements an online run spent its Cypher time in (most first)."""
    assert run.stats is not None
    lines = [
        f"Where {run.name} spent its {run.seconds:.0f}s: {run.stats.total:.0f}s in Cypher statements "
        "(parameters packed, server work, results fetched) and transaction commits, "
        f"{run.seconds - run.stats.total:.0f}s in Python (reading JSON, building and grouping rows, "
        "driver work outside statements).",
        "",
        "| statement | calls | parameter rows | seconds | share of run |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, calls, rows, seconds in run.stats.top(12):
        lines.append(f"| `{name}` | {calls:,} | {rows:,} | {seconds:.1f} | {100 * seconds / run.seconds:.0f}% |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--works", type=int, default=20000, help="synthetic works to generate")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--port", type=int, default=7701, help="Bolt port of the bench's own local Neo4j")
    parser.add_argument("--batch-sizes", default="1000,10000,50000", help="rows per write transaction")
    parser.add_argument("--data", type=Path, default=Path("/tmp/weft-bench"), help="where the works file and CSV go")
    parser.add_argument("--results", type=Path, default=DEFAULT_RESULTS)
    args = parser.parse_args(argv)
    command = "python -m bench.load " + " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
    settings = Settings(neo4j_uri=f"bolt://127.0.0.1:{args.port}")
    works_file = args.data / f"works_{args.works}_seed{args.seed}.jsonl"
    if not works_file.exists():
        print(f"generating {args.works:,} works -> {works_file}")
        write_works(works_file, args.works, args.seed)
    load_before = load_average()
    print(local_server.start(settings, echo=lambda m: None))
    machine = describe(settings)
    runs: list[Run] = []
    online_counts: dict[str, int] = {}
    try:
        for size in (int(s) for s in args.batch_sizes.split(",")):
            run, online_counts = online_run(settings, works_file, size)
            runs.append(run)
            print(f"{run.name}: {run.seconds:.1f}s, {run.records_per_s:,.0f} records/s ({run.detail})")
        whole, admin, bulk_counts = bulk_run(settings, works_file, args.data / "csv")
        runs += [whole, admin]
        print(f"{whole.name}: {whole.seconds:.1f}s ({whole.detail})")
    finally:
        local_server.stop(settings)
    load_after = load_average()
    online = [r for r in runs if r.name.startswith("online")]
    best = max(online, key=lambda r: r.records_per_s)
    ratio = best.records_per_s / whole.records_per_s
    ratio_admin = best.records_per_s / admin.records_per_s
    lines = [
        "# Load benchmark",
        "",
        f"Command: `{command}` (from the repository root, `.venv/bin/python`).",
        "",
        f"Data: {args.works:,} synthetic OpenAlex works (bench/synth.py, seed {args.seed}; "
        "lognormal authors per work, Zipf-Mandelbrot papers per author, repeat collaborators, "
        "preferential-attachment citations among the works plus references outside them), "
        f"{works_file.stat().st_size / 1e6:,.0f} MB of JSON Lines.",
        "",
        "## Machine",
        "",
        *machine.lines(),
        f"- Load average (1/5/15 min) before: {load_before}; after: {load_after}. The 2 cores are "
        "shared with other engineers' test runs, so absolute rates are noisy; compare the rows of "
        "one run with each other.",
        "",
        "## Results",
        "",
        *table(runs),
        "",
        f"Online and bulk give the same counts: {'yes' if online_counts == bulk_counts else 'NO'}.",
        "",
        f"Best online rate ({best.name}) / weft build + weft import: **{ratio:.2f}x** "
        f"(target >= 0.35x); / neo4j-admin import alone: **{ratio_admin:.2f}x**.",
        "",
        "## Where the online time goes",
        "",
        *profile_lines(best),
        "",
        "A record is one OpenAlex work; relationships/s counts every relationship in the finished "
        "graph, derived ones included. Batch size counts rows (nodes + relationships) per write "
        "transaction, as `weft load --batch-size` does. Each online run starts from an empty "
        "database with the schema in place; the bulk time includes building the graph in DuckDB, "
        "writing Parquet, stopping the server, neo4j-admin, starting it and creating the schema.",
        "",
    ]
    args.results.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(table(runs)))
    print(f"online/bulk ratio {ratio:.2f}x; written to {args.results}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
