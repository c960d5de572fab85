"""Identity linking at scale: time and peak memory of `weft identity link` over a synthetic graph of N
researchers, to show the work grows linearly (issue 51, item 4).

The graph is made on the server (UNWIND range, no loader): N researchers whose names come from a pool of N/4
names (so same-name buckets keep their size as N grows, as real name frequencies do), N papers of three authors,
one category of 500 and one of N/100 institutions each; SAME_NAME_AS comes from the loader's own same-name step.
Then every researcher is linked (graph/identity/links.relink) and the seconds, the candidate pairs and this
process's peak RSS growth are printed. It EMPTIES the database at NEO4J_URI first.

    NEO4J_URI=bolt://127.0.0.1:7841 python bench/identity_scale.py --researchers 100000 [--link-only]
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from weft.graph.driver import open_driver
from weft.graph.identity.links import all_researcher_ids, relink
from weft.graph.identity.names import name_key
from weft.graph.migrate import migrate, reset
from weft.graph.settings import load_settings
from weft.graph.writer_lock import writer_lock
from weft.loaders.derived import _chunks, _same_names  # pyright: ignore[reportPrivateUsage]

GIVEN = ["Wei", "Jing", "Ana", "Maria", "John", "Peter", "Li", "Yan", "Ahmed", "Olga", "Raj", "Sara", "Tom", "Emma"]

MAKE = """
UNWIND range($start, $end - 1) AS i
WITH i, $names[i % size($names)] AS n
CREATE (:Researcher {id: 'rx' + right('000000000' + toString(i), 10), name: n[0], name_key: n[1], is_person: true})
"""
PAPERS = """
UNWIND range($start, $end - 1) AS j
CREATE (p:Paper {id: 'px' + right('000000000' + toString(j), 10), year: 1990 + j % 30,
                 category_ids: ['cx' + toString(j % 500)]})
WITH p, j
UNWIND [j, (j * 13 + 1) % $n, (j * 101 + 7) % $n] AS k
MATCH (r:Researcher {id: 'rx' + right('000000000' + toString(k), 10)})
MERGE (r)-[:AUTHORED]->(p)
"""
AFFILIATE = """
UNWIND range($start, $end - 1) AS i
MATCH (r:Researcher {id: 'rx' + right('000000000' + toString(i), 10)})
MERGE (inst:Institution {id: 'ix' + toString(i % $institutions)})
MERGE (r)-[:AFFILIATED_WITH]->(inst)
"""


def names(count: int) -> list[list[str]]:
    """`count` distinct (name, name key) pairs: given names × numbered surnames."""
    out: list[list[str]] = []
    for i in range(count):
        text = f"{GIVEN[i % len(GIVEN)]} Surname{i // len(GIVEN)}"
        out.append([text, name_key(text)])
    return out


def build(n: int) -> None:
    settings = load_settings()
    with open_driver(settings) as driver, writer_lock(driver, settings.neo4j_database, "bench identity scale"):
        reset(driver, settings.neo4j_database)
        migrate(driver, settings.neo4j_database, recheck=False)
        pool = names(max(1, n // 4))
        for statement, params in ((MAKE, {"names": pool}), (PAPERS, {"n": n}), (AFFILIATE, {"institutions": n // 100})):
            for start in range(0, n, 20_000):
                driver.execute_query(statement, start=start, end=min(n, start + 20_000), **params)
        ids = all_researcher_ids(driver, settings.neo4j_database)
        with driver.session(database=settings.neo4j_database) as session:
            for _, chunk in _chunks(ids, 20_000):
                _same_names(session, chunk, settings.same_name_max_bucket, None)


def server_cpu_seconds() -> float | None:
    """CPU seconds the local Neo4j has used so far (its pid from WEFT_BENCH_SERVER_PID), or None: a load-proof
    companion to wall time on a shared machine."""
    pid = os.environ.get("WEFT_BENCH_SERVER_PID")
    if not pid:
        return None
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def link(n: int) -> None:
    settings = load_settings()
    with open_driver(settings) as driver, writer_lock(driver, settings.neo4j_database, "bench identity scale"):
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        cpu_before = time.process_time(), server_cpu_seconds()
        started = time.perf_counter()
        ids = all_researcher_ids(driver, settings.neo4j_database)
        linked = relink(driver, settings.neo4j_database, ids)
        seconds = time.perf_counter() - started
        cpu_after = time.process_time(), server_cpu_seconds()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        records, _, _ = driver.execute_query(
            "MATCH ()-[s:SAME_NAME_AS]->() RETURN count(s) AS n", database_=settings.neo4j_database
        )
    print(
        f"| {n:,} | {records[0]['n']:,} | {linked:,} | {seconds:.1f} | {seconds / n * 1e6:.0f} | "
        f"{before / 1024:.0f} | {peak / 1024:.0f} | {os.getloadavg()[0]:.1f} |"
    )
    server = "" if cpu_before[1] is None or cpu_after[1] is None else f", server {cpu_after[1] - cpu_before[1]:.1f}"
    print(f"CPU seconds while linking: this process {cpu_after[0] - cpu_before[0]:.1f}{server}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--researchers", type=int, default=100_000)
    parser.add_argument("--link-only", action="store_true", help="Relink the graph a former run built (no reset).")
    args = parser.parse_args()
    if not args.link_only:
        started = time.perf_counter()
        build(args.researchers)
        print(f"built in {time.perf_counter() - started:.0f} s", flush=True)
    print(
        "| researchers | candidate pairs | links | link s | µs per researcher | RSS before MiB | peak RSS MiB | load |"
    )
    link(args.researchers)


if __name__ == "__main__":
    main()
