"""Where a `weft sync openalex` spends its time, per statement: the sync run in this process with every Cypher
statement timed (run to last record), counted, and named by the weft.queries constant it is.

    NEO4J_URI=bolt://127.0.0.1:7811 .venv/bin/python -m bench.sync_profile DIR/after [--json OUT]

Prints the echo lines with elapsed seconds (the phases), then the statements by total time: calls, rows
returned, seconds, the share of the sync's time, and the counters the server reports (nodes and
relationships created and deleted, properties set). The machine is shared: calls, rows and writes are the
load-independent figures; seconds show where the wall time went on this run.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pkgutil
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from neo4j._sync.work.result import Result
from neo4j._sync.work.session import Session
from neo4j._sync.work.transaction import TransactionBase

import weft.queries

_NAMES: dict[str, str] = {}
_STATS: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
_UNITS: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))  # the same, per unit applied
_BY_UNIT: dict[str, dict[str, dict[str, float]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(float)))
_UNIT = ["in flight"]  # the unit being applied: renamed by the echo line that ends it
_COUNTERS = ("nodes_created", "nodes_deleted", "relationships_created", "relationships_deleted", "properties_set")


def _index_queries() -> None:
    """Map each statement text in weft.queries (and the loaders' own) to its constant's name."""
    for info in pkgutil.iter_modules(weft.queries.__path__):
        module = importlib.import_module(f"weft.queries.{info.name}")
        for name, value in vars(module).items():
            if isinstance(value, str) and name.isupper():
                _NAMES.setdefault(value, f"{info.name}.{name}")


def _name(query: Any) -> str:
    text = query if isinstance(query, str) else getattr(query, "text", str(query))
    return _NAMES.get(text) or " ".join(text.split())[:70]


def _timed(original: Any) -> Any:
    def run(self: Any, query: Any, parameters: Any = None, **kwargs: Any) -> Result:
        began = time.perf_counter()
        result = original(self, query, parameters, **kwargs)
        result._buffer_all()  # noqa: SLF001 - timing the statement to its last record
        summary = result._obtain_summary()  # noqa: SLF001
        for stats in (_STATS[_name(query)], _UNITS[_UNIT[0]], _BY_UNIT[_UNIT[0]][_name(query)]):
            stats["calls"] += 1
            stats["rows"] += len(result._record_buffer)  # noqa: SLF001
            stats["seconds"] += time.perf_counter() - began
            for counter in _COUNTERS:
                stats[counter] += getattr(summary.counters, counter)
        return result

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("location")
    parser.add_argument("--json", type=Path, help="write the per-statement figures here")
    args = parser.parse_args()
    _index_queries()
    TransactionBase.run = _timed(TransactionBase.run)  # type: ignore[method-assign]
    Session.run = _timed(Session.run)  # type: ignore[method-assign]

    from weft.graph.driver import open_driver
    from weft.graph.settings import load_settings
    from weft.loaders.derived import PairLimits
    from weft.loaders.sync.openalex import sync_openalex

    settings = load_settings()
    driver = open_driver(settings)
    began = time.perf_counter()
    load0 = os.getloadavg()

    def echo(line: str) -> None:
        print(f"{time.perf_counter() - began:8.1f}s  {line}", flush=True)
        unit = line.split(":")[0].removeprefix("applied ")
        _UNITS[unit] = _UNITS.pop(_UNIT[0], defaultdict(float))
        _BY_UNIT[unit] = _BY_UNIT.pop(_UNIT[0], defaultdict(lambda: defaultdict(float)))

    report = sync_openalex(driver, args.location, limits=PairLimits.of(settings), echo=echo)
    total = time.perf_counter() - began
    driver.close()
    print(f"sync {total:.1f}s, load average {load0} -> {os.getloadavg()}; {report.entities}")
    rows = sorted(_STATS.items(), key=lambda kv: -kv[1]["seconds"])
    in_db = sum(s["seconds"] for _, s in rows)
    print(f"statements {sum(s['calls'] for _, s in rows):.0f}, {in_db:.1f}s of {total:.1f}s in the database")
    print(f"{'statement':<48} {'calls':>6} {'rows':>8} {'s':>7} {'%':>5}  created/deleted n, r; props")
    for name, s in rows[:40]:
        writes = (
            f"{s['nodes_created']:.0f}/{s['nodes_deleted']:.0f}, "
            f"{s['relationships_created']:.0f}/{s['relationships_deleted']:.0f}; {s['properties_set']:.0f}"
        )
        print(
            f"{name[:48]:<48} {s['calls']:>6.0f} {s['rows']:>8.0f} {s['seconds']:>7.2f} "
            f"{100 * s['seconds'] / total:>5.1f}  {writes}"
        )
    print("per unit (statements, rows, seconds, relationships created/deleted; properties set):")
    for unit, s in _UNITS.items():
        print(
            f"  {unit[:46]:<46} {s['calls']:>6.0f} {s['rows']:>8.0f} {s['seconds']:>7.2f}        "
            f"{s['relationships_created']:.0f}/{s['relationships_deleted']:.0f}; {s['properties_set']:.0f}"
        )
        for name, t in sorted(_BY_UNIT[unit].items(), key=lambda kv: -kv[1]["seconds"])[:8]:
            print(f"      {name[:42]:<42} {t['calls']:>6.0f} {t['rows']:>8.0f} {t['seconds']:>7.2f}")
    if args.json:
        doc = {"seconds": total, "load average": [load0, os.getloadavg()], "statements": _STATS, "units": _UNITS}
        doc["statements per unit"] = _BY_UNIT
        args.json.write_text(json.dumps(doc, indent=1, default=float) + "\n")


if __name__ == "__main__":
    main()
