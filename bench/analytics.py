"""Whole-graph analytics benchmark: `weft analytics` with networkx and with Graph Data Science, step by step.

For each --works size: bench/synth.py writes that many synthetic works, `weft build` + `weft import` make
them the database of the local Neo4j on NEO4J_URI's port (replacing what it holds; --reuse skips this when
the database already holds that build), then each engine scores every researcher in a child process of its
own (graph/network_scores.compute_and_store, the code `weft analytics` runs), which reports each step's end.

Memory: for networkx, the child's peak RSS (the whole graph lives in Python objects there); for GDS, the
projection's size (gds.graph.list) and the server's JVM heap in use after each step (gds.debug.sysInfo),
beside the child's own peak RSS. A child that does not finish within --timeout seconds is stopped and
reported with the steps it finished.

    NEO4J_URI=bolt://127.0.0.1:7871 .venv/bin/python -m bench.analytics --works 10000 --works 100000
"""

from __future__ import annotations

import argparse
import json
import resource
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.machine import describe, load_average
from weft.graph.driver import open_driver
from weft.graph.settings import PROJECT_ROOT, Settings, load_settings

OUT = PROJECT_ROOT / "bench" / "out" / "analytics"
RESULTS = PROJECT_ROOT / "bench" / "RESULTS.md"
WEFT = str(Path(sys.executable).with_name("weft"))
STEPS = {
    "networkx": ["read", "pagerank", "louvain", "components", "degree", "betweenness", "write"],
    "gds": ["project", "pagerank", "components", "degree", "betweenness", "louvain", "stream", "write"],
}
GDS_MEMORY = """
CALL gds.graph.list() YIELD graphName, sizeInBytes
WHERE graphName STARTS WITH 'weft-coauthors-'
RETURN sum(sizeInBytes) AS projection
"""
HEAP = """
CALL gds.debug.sysInfo() YIELD key, value
WITH key, value WHERE key IN ['heapTotalInBytes', 'heapFreeInBytes']
RETURN collect([key, value]) AS pairs
"""


@dataclass
class Run:
    """One engine on one graph: seconds per step, memory, and whether it finished."""

    works: int
    engine: str
    researchers: int = 0
    ties: int = 0
    steps: dict[str, float] = field(default_factory=dict)
    peak_rss_mb: float = 0.0
    projection_mb: float = 0.0
    heap_mb: float = 0.0
    finished: bool = False
    note: str = ""

    @property
    def seconds(self) -> float:
        return sum(self.steps.values())


def rss_mb() -> float:
    """This process's peak resident memory so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(engine: str) -> None:
    """Score with one engine, printing a JSON line as each step ends (run as `--child ENGINE`)."""
    from weft.graph.network_scores import compute_and_store

    settings = load_settings()
    with open_driver(settings) as driver:
        began = last = time.monotonic()

        def step(name: str) -> None:
            nonlocal last
            now = time.monotonic()
            line: dict[str, Any] = {"step": name, "seconds": now - last, "rss_mb": rss_mb()}
            if engine == "gds":
                records, _, _ = driver.execute_query(GDS_MEMORY, database_=settings.neo4j_database)
                line["projection_mb"] = (records[0]["projection"] or 0) / 1e6
                heap, _, _ = driver.execute_query(HEAP, database_=settings.neo4j_database)
                values = dict(heap[0]["pairs"])
                line["heap_mb"] = (int(values["heapTotalInBytes"]) - int(values["heapFreeInBytes"])) / 1e6
            print(json.dumps(line), flush=True)
            last = time.monotonic()

        summary = compute_and_store(driver, settings.neo4j_database, engine=engine, on_step=step)
        print(json.dumps({"researchers": summary.researchers, "ties": summary.ties, "total": last - began}), flush=True)


def measure(works: int, engine: str, timeout_s: float) -> Run:
    """One engine in a child process; what it reported before finishing or being stopped."""
    run = Run(works=works, engine=engine)
    proc = subprocess.Popen(
        [sys.executable, "-m", "bench.analytics", "--child", engine],
        stdout=subprocess.PIPE,
        text=True,
        cwd=PROJECT_ROOT,
    )
    try:
        out, _ = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        run.note = f"stopped after {timeout_s:.0f}s"
    for line in out.splitlines():
        data = json.loads(line)
        if "step" in data:
            run.steps[data["step"]] = data["seconds"]
            run.peak_rss_mb = max(run.peak_rss_mb, data["rss_mb"])
            run.projection_mb = max(run.projection_mb, data.get("projection_mb", 0.0))
            run.heap_mb = max(run.heap_mb, data.get("heap_mb", 0.0))
        else:
            run.researchers, run.ties, run.finished = data["researchers"], data["ties"], True
    if proc.returncode not in (0, -9) and not run.note:
        run.note = f"exit {proc.returncode}"
    return run


def build(works: int, settings: Settings, reuse: bool) -> str:
    """Synthetic works into the server's database (bulk path); returns what it took."""
    folder = OUT / f"build-{works}"
    if reuse and (folder / "manifest.json").exists() and _holds(settings, works):
        return "reused"
    source = OUT / f"works-{works}.jsonl"
    began = time.monotonic()
    if not source.exists():
        subprocess.run([sys.executable, "-m", "bench.synth", "--works", str(works), "--out", str(source)], check=True)
    if not (folder / "manifest.json").exists():
        subprocess.run([WEFT, "build", str(source), "--out", str(folder), "--source", "openalex"], check=True)
    subprocess.run([WEFT, "import", str(folder), "--yes"], check=True)
    return f"synth + build + import {time.monotonic() - began:.0f}s"


def _holds(settings: Settings, works: int) -> bool:
    with open_driver(settings) as driver:
        records, _, _ = driver.execute_query("MATCH (p:Paper) RETURN count(p) AS n", database_=settings.neo4j_database)
    return records[0]["n"] == works


def report(runs: list[Run], command: str, settings: Settings, before: str, after: str) -> list[str]:
    machine = describe(settings)
    lines = [
        "## Whole-graph analytics: networkx vs Graph Data Science (issue 14)",
        "",
        f"Command: `{command}` (from the repository root). Graphs: bench/synth.py works (seed 7) through "
        "`weft build` + `weft import`; each engine runs `weft analytics`' code (graph/network_scores.py) in a "
        "child process of its own, scoring every researcher (PageRank, Louvain, components, degree, sampled "
        "betweenness above 400 researchers) and writing the five properties back.",
        "",
        *machine.lines(),
        f"- GDS 2.13.9 open edition (4 threads at most; this machine has {machine.nproc} cores); Neo4j heap "
        f"{settings.neo4j_heap}, page cache {settings.neo4j_pagecache}",
        f"- Load average (1/5/15 min) before: {before}; after: {after}. The cores are shared with other "
        "agents' test runs, so absolute seconds are noisy; compare engines within a size.",
        "",
        "| works | researchers | ties | engine | seconds | "
        + " | ".join(sorted({s for steps in STEPS.values() for s in steps}))
        + " | peak RSS of the weft process (MB) | GDS projection (MB) | server heap used (MB) |",
        "|" + "---:|" * 3 + "---|" + "---:|" * (1 + len({s for steps in STEPS.values() for s in steps}) + 3),
    ]
    names = sorted({s for steps in STEPS.values() for s in steps})
    for run in runs:
        cells = [
            f"{run.steps[s]:.1f}" if s in run.steps else ("–" if s not in STEPS[run.engine] else "…") for s in names
        ]
        seconds = f"{run.seconds:.1f}" if run.finished else f"> {run.seconds:.0f} ({run.note})"
        lines.append(
            f"| {run.works:,} | {run.researchers or '?'} | {run.ties or '?'} | {run.engine} | {seconds} | "
            + " | ".join(cells)
            + f" | {run.peak_rss_mb:,.0f} | {run.projection_mb:,.0f} | {run.heap_mb:,.0f} |"
        )
    lines.append("")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--works", type=int, action="append", help="synthetic works per graph (repeatable)")
    parser.add_argument("--engine", action="append", choices=sorted(STEPS), help="default: both")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds one engine may take")
    parser.add_argument("--reuse", action="store_true", help="keep the database when it holds that many works")
    parser.add_argument("--results", type=Path, default=None, help="append the table to this Markdown file")
    parser.add_argument("--child", choices=sorted(STEPS), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child)
        return 0
    settings = load_settings()
    command = (
        "NEO4J_URI=" + settings.neo4j_uri + " .venv/bin/python -m bench.analytics " + shlex.join(argv or sys.argv[1:])
    )
    before = load_average()
    runs: list[Run] = []
    for works in args.works or [10_000]:
        print(f"{works:,} works: {build(works, settings, args.reuse)}", flush=True)
        for engine in args.engine or ["gds", "networkx"]:
            run = measure(works, engine, args.timeout)
            print(json.dumps(run.__dict__), flush=True)
            runs.append(run)
    lines = report(runs, command, settings, before, load_average())
    print("\n".join(lines))
    if args.results:
        with args.results.open("a", encoding="utf-8") as fh:
            fh.write("\n" + "\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
