"""Online loading into a large graph vs into an empty one (issue 10): the same new works, both ways.

New works are the ones the generator of the large graph's `--base` works (bench/synth.py, same seed)
draws next: W ids the graph does not have, by authors drawn from the same pool (most already in the
graph, with the same names and institutions), citing earlier works. They are loaded with the online
loader (`loaders.run.load_paths`, derived data included) into an empty database on a scratch local
server, then into the large graph at `--uri` (which keeps them). Reported: seconds, works/s and the
ratio of the two rates.

With `--warm`, each server first loads as many other works (the ones the generator draws before the
measured ones; the scratch database is emptied again after them): a server that has been running and
loading, its JIT-compiled code and page cache warm, as a service taking regular updates is. Without it,
the servers are as started, so both loads also pay for the JVM's compiling and the store's first reads.

    .venv/bin/python -m bench.synth --works 100000 --snapshot /tmp/s100k/in --per-part 25000
    .venv/bin/weft build /tmp/s100k/in --out /tmp/s100k/out2 && NEO4J_URI=bolt://127.0.0.1:7861 weft import ...
    .venv/bin/python -m bench.incremental_load --uri bolt://127.0.0.1:7861 --base 100000 --new 10000
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import hashlib
import json
import os
import time
from collections.abc import Iterable
from pathlib import Path

from bench import synth
from weft.graph import local_server
from weft.graph.driver import open_driver
from weft.graph.migrate import counts, migrate, reset
from weft.graph.settings import Settings, load_settings
from weft.loaders.run import load_paths


def new_works(folder: Path, base: int, new: int, seed: int) -> Path:
    """The `new` works the generator of `base` works draws after them, as JSON Lines in `folder`. The file is
    named for its inputs and bench/synth.py's text and reused while they hold: reaching the generator's
    state after a million base works takes minutes."""
    digest = hashlib.sha256(Path(synth.__file__).read_bytes()).hexdigest()[:12]
    path = folder / f"new-{base}-{new}-seed{seed}-synth{digest}.jsonl.gz"
    if path.exists():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    generator = synth.Generator(base, seed)
    for _ in generator:  # the base works, drawn only to reach the generator's state after them
        pass
    written(path, (json.dumps(generator.work(index)) + "\n" for index in range(base, base + new)))
    return path


def written(path: Path, lines: Iterable[str]) -> None:
    """Write `lines` to the gzip file `path` through a `.partial` file renamed at the end, so an interrupted
    run leaves no file that looks whole."""
    partial = path.with_name(path.name + ".partial")
    with gzip.open(partial, "wt", encoding="utf-8") as out:
        out.writelines(lines)
    partial.replace(path)


def halves(path: Path) -> tuple[Path, Path]:
    """The first and second half of a works file, as files beside it (kept, reused)."""
    first, second = (path.with_name(path.name.replace(".jsonl.gz", f".{half}.jsonl.gz")) for half in ("a", "b"))
    if not (first.exists() and second.exists()):
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            works = lines.readlines()
        written(first, works[: len(works) // 2])
        written(second, works[len(works) // 2 :])
    return first, second


def emptied(settings: Settings) -> None:
    """Empty the database of `settings` and set its schema up again."""
    with open_driver(settings) as driver:
        reset(driver, settings.neo4j_database)
        migrate(driver, settings.neo4j_database)


def warm_up(uri: str, path: Path) -> None:
    """Load the works in `path` untimed (the server's code and page cache warm up)."""
    settings = dataclasses.replace(load_settings(), neo4j_uri=uri)
    with open_driver(settings) as driver:
        began = time.perf_counter()
        load_paths(driver, [path], source="openalex", database=settings.neo4j_database)
        print(f"  warm-up: {time.perf_counter() - began:.1f} s", flush=True)


def timed_load(uri: str, path: Path) -> tuple[float, dict[str, int]]:
    """Seconds for the whole load, printing the records' share and each derive step's; counts after."""
    settings = dataclasses.replace(load_settings(), neo4j_uri=uri)
    steps: dict[str, float] = {}
    last = [time.perf_counter()]

    def progress(step: str, done: int, total: int) -> None:
        now = time.perf_counter()
        steps[step] = steps.get(step, 0.0) + now - last[0]
        last[0] = now

    with open_driver(settings) as driver:
        began = last[0] = time.perf_counter()
        summary = load_paths(driver, [path], source="openalex", database=settings.neo4j_database, progress=progress)
        took = time.perf_counter() - began
        shares = ", ".join(f"{step} {seconds:.1f}" for step, seconds in steps.items())
        print(f"  {took:.1f} s: derived data {summary.derive_seconds:.1f} s; seconds by step: {shares}", flush=True)
        return took, counts(driver, settings.neo4j_database)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uri", required=True, help="the large graph (it keeps the new works)")
    parser.add_argument("--base", type=int, default=100_000, help="works the large graph was built from")
    parser.add_argument("--new", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--empty-port", type=int, default=7891, help="Bolt port of the scratch server")
    parser.add_argument(
        "--data", type=Path, default=Path("/tmp/weft-incremental"), help="folder of the new works (kept, reused)"
    )
    parser.add_argument(
        "--empty-only",
        action="store_true",
        help="time only the load into an empty database (again, e.g. after a disturbed run; the large graph keeps "
        "the works it was given, so a second load into it would be a reload)",
    )
    parser.add_argument(
        "--warm",
        action="store_true",
        help="first load as many other works into each server, untimed (a running server taking updates)",
    )
    args = parser.parse_args()
    warm: Path | None = None
    if args.warm:
        warm, path = halves(new_works(args.data, args.base, 2 * args.new, args.seed))
    else:
        path = new_works(args.data, args.base, args.new, args.seed)
    print(f"{args.new} new works in {path}; load {os.getloadavg()}", flush=True)

    scratch = dataclasses.replace(
        load_settings(), neo4j_uri=f"bolt://127.0.0.1:{args.empty_port}", neo4j_heap="2g", neo4j_pagecache="2g"
    )
    local_server.start(scratch, echo=print)
    try:
        emptied(scratch)  # the scratch store keeps the last run's works
        if warm is not None:
            warm_up(scratch.neo4j_uri, warm)
            emptied(scratch)
        empty_s, empty_counts = timed_load(scratch.neo4j_uri, path)
    finally:
        local_server.stop(scratch)
    print(f"empty database: {empty_s:.1f} s, {args.new / empty_s:.1f} works/s; load {os.getloadavg()}", flush=True)
    if args.empty_only:
        return
    if warm is not None:
        warm_up(args.uri, warm)
    big_s, big_counts = timed_load(args.uri, path)
    print(f"large graph: {big_s:.1f} s, {args.new / big_s:.1f} works/s; load {os.getloadavg()}", flush=True)
    print(f"rate into the large graph / into an empty one: {empty_s / big_s:.2f}x")
    print(f"graph after: {big_counts.get('Paper')} papers; the empty one got {empty_counts.get('Paper')}")


if __name__ == "__main__":
    main()
