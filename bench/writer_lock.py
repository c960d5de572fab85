"""What the per-commit data-version mark costs a write transaction (issue 48 item 4, graph/versions.py).

Every write transaction of a load now ends with `mark_written`: one SET on the Meta node, and, when the
process holds the writer lock, one on the lock node (FENCED_BUMP). This times small write transactions
(a MERGE of 100 probe nodes, about a derive chunk's size) three ways, interleaved: without the mark, with
the plain mark, and with the fenced mark under a held lock; and prints the median and p90 per
transaction with the load average. The probe nodes are removed at the end.

    NEO4J_URI=bolt://127.0.0.1:7731 .venv/bin/python -m bench.writer_lock --rounds 300
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import LiteralString

from neo4j import ManagedTransaction

from weft.graph.driver import open_driver
from weft.graph.settings import load_settings
from weft.graph.versions import mark_written
from weft.graph.writer_lock import writer_lock

PROBE: LiteralString = "UNWIND range(1, 100) AS i MERGE (p:BenchProbe {k: i}) SET p.round = $round"
DROP_PROBES: LiteralString = "MATCH (p:BenchProbe) DELETE p"


def _probe(tx: ManagedTransaction, round_: int) -> None:
    tx.run(PROBE, round=round_).consume()


def _marked(tx: ManagedTransaction, round_: int) -> None:
    _probe(tx, round_)
    mark_written(tx)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    settings = load_settings()
    times: dict[str, list[float]] = {"no mark": [], "mark": [], "fenced mark (lock held)": []}
    with open_driver(settings) as driver, driver.session(database=settings.neo4j_database) as session:

        def timed(name: str, work: Callable[[ManagedTransaction, int], None], round_: int) -> None:
            began = time.perf_counter()
            session.execute_write(work, round_)
            times[name].append((time.perf_counter() - began) * 1000)

        for round_ in range(args.rounds):
            timed("no mark", _probe, round_)
            timed("mark", _marked, round_)
            with writer_lock(driver, settings.neo4j_database, "bench", lease_s=settings.writer_lease_s):
                timed("fenced mark (lock held)", _marked, round_)
        driver.execute_query(DROP_PROBES, database_=settings.neo4j_database)
    print(f"{args.rounds} rounds, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| transaction | p50 ms | p90 ms |")
    print("|---|---:|---:|")
    for name, values in times.items():
        p90 = statistics.quantiles(values, n=10)[-1]
        print(f"| {name} | {statistics.median(values):.2f} | {p90:.2f} |")


if __name__ == "__main__":
    main()
