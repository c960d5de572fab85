"""CPU seconds per 1,000 requests: Weft's processes against the @neo4j/graphql peer's, a load-robust figure.

Throughput on the shared 2-core machine swings with the other helpers' load (busy runs flattered Weft: the peer's one
Node process suffered more than Weft's workers). What a server's own processes spend per request moves far less: it is
read from /proc (utime + stime of the server and every descendant, before and after a fixed autocannon slice) and
divided by the requests the slice completed. On a quiet machine at saturation, requests per second ≈ cores ÷ CPU per
request (both servers also share Neo4j's cost, which is not counted here). Pairs A, C, D, P as `bench.serve
throughput` sends them, Weft and peer interleaved slice by slice, the order alternating per repeat:

    .venv/bin/python -m bench.serve cpu --uri bolt://127.0.0.1:7831 --pairs A,C,D,P --repeats 3 --peer-dir /tmp/peer

(`bench.serve cpu` starts Weft with the response cache off, as P3 is measured.)
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import serve_queries as gq

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    """`pid` and every process below it (from /proc's children lists)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children", encoding="ascii") as f:
                    todo += [int(c) for c in f.read().split()]
        except OSError:
            continue
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds spent so far by `pid` and its live descendants."""
    total = 0
    for each in descendants(pid):
        try:
            with open(f"/proc/{each}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / TICKS


def listening_pid(port: int) -> int | None:
    """The process listening on TCP `port` on this machine (e.g. Neo4j's Bolt port), from /proc; None if none."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table, encoding="ascii") as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cells = row.split()
            if cells[3] == "0A" and int(cells[1].rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                inodes.add(f"socket:[{cells[9]}]")
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            links = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
        except OSError:
            continue
        if links & inodes:
            return int(pid)
    return None


@dataclass(frozen=True)
class CpuSlice:
    """One autocannon slice against one server: requests completed, wall seconds, CPU seconds its processes spent."""

    pair: str
    server: str
    requests: int
    errors: int
    seconds: float
    cpu_seconds: float
    load1: float
    neo4j_cpu_seconds: float | None = None

    @property
    def neo4j_ms_per_request(self) -> float | None:
        if self.neo4j_cpu_seconds is None or not self.requests:
            return None
        return 1000 * self.neo4j_cpu_seconds / self.requests

    @property
    def cpu_ms_per_request(self) -> float:
        return 1000 * self.cpu_seconds / self.requests if self.requests else float("nan")


def autocannon(url: str, bodies: list[str], clients: int, seconds: float) -> dict[str, Any]:
    """One autocannon run (bench/autocannon.mjs): its JSON summary."""
    config = {"url": url, "connections": clients, "seconds": max(1, round(seconds)), "bodies": bodies}
    done = subprocess.run(
        ["node", str(ROOT / "bench" / "autocannon.mjs"), json.dumps(config)],
        capture_output=True,
        text=True,
        timeout=seconds + 120,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def bodies_of(pair: gq.Pair, for_peer: bool) -> list[str]:
    query = pair.peer if for_peer else pair.weft
    assert query is not None
    return [
        json.dumps({"query": query, "variables": pair.variables(k, for_peer)}) for k in range(max(1, len(pair.ids)))
    ]


def run_cpu(
    servers: dict[str, tuple[str, int]],
    pairs: list[gq.Pair],
    clients: int,
    seconds: float,
    repeats: int,
    neo4j_pid: int | None = None,
) -> list[CpuSlice]:
    """For each pair, `repeats` times, each server (url, pid) in alternating order: one slice, its CPU measured
    (and Neo4j's, when its pid is given: the database work each server's requests cause)."""
    results: list[CpuSlice] = []
    names = list(servers)
    for pair in pairs:
        for rep in range(repeats):
            for name in names if rep % 2 == 0 else names[::-1]:
                if name == "peer" and pair.peer is None:
                    continue
                url, pid = servers[name]
                bodies = bodies_of(pair, name == "peer")
                autocannon(url, bodies, clients, 1)  # warm: connections, plans, JIT
                before, neo4j_before = cpu_seconds(pid), cpu_seconds(neo4j_pid) if neo4j_pid else 0.0
                out = autocannon(url, bodies, clients, seconds)
                spent = cpu_seconds(pid) - before
                neo4j = cpu_seconds(neo4j_pid) - neo4j_before if neo4j_pid else None
                done = out["ok"] + out["non2xx"]
                errors = out["non2xx"] + out["errors"] + out["timeouts"]
                one = CpuSlice(pair.name, name, done, errors, float(out["seconds"]), spent, os.getloadavg()[0], neo4j)
                results.append(one)
                print(
                    f"  pair {pair.name} {name:4}: {done / one.seconds:7.1f} req/s, "
                    f"{one.cpu_ms_per_request:.2f} CPU ms/request (Neo4j {one.neo4j_ms_per_request or 0:.2f}), "
                    f"{errors} errors, load {one.load1:.2f}",
                    flush=True,
                )
    return results


def cpu_table(results: list[CpuSlice]) -> list[str]:
    """Per pair: median CPU ms per request of each server (and of Neo4j for its requests), their ratios, req/s,
    errors and load. Slices that completed no request (a starved generator on a busy machine) are left out.
    With a `before` Weft (`--before-code`), a second table sets it beside this one."""
    lines = [
        "| pair | Weft CPU s / 1,000 req | peer CPU s / 1,000 req | **peer ÷ Weft** | Neo4j for Weft | Neo4j for peer "
        "| **(peer + its Neo4j) ÷ (Weft + its Neo4j)** | Weft req/s | peer req/s | slices (Weft, peer; empty) "
        "| errors | load (1 min) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|",
    ]
    for pair in dict.fromkeys(r.pair for r in results):
        mine = [r for r in results if r.pair == pair]
        kept = {s: [r for r in mine if r.server == s and r.requests] for s in ("weft", "peer")}

        weft = med([r.cpu_ms_per_request for r in kept["weft"]])
        peer = med([r.cpu_ms_per_request for r in kept["peer"]])
        neo_w = med([r.neo4j_ms_per_request for r in kept["weft"]])
        neo_p = med([r.neo4j_ms_per_request for r in kept["peer"]])
        ratio = peer / weft if weft and peer else None
        total = (peer + neo_p) / (weft + neo_w) if weft and peer and neo_w is not None and neo_p is not None else None
        rps = {s: med([r.requests / r.seconds for r in kept[s]]) for s in kept}
        empty = sum(1 for r in mine if not r.requests)
        errors = [sum(r.errors for r in mine if r.server == s) for s in ("weft", "peer")]
        loads = [r.load1 for r in mine]
        lines.append(
            f"| {pair} | {num(weft)} | {num(peer)} | {num(ratio, True)} | {num(neo_w)} | {num(neo_p)} | "
            f"{num(total, True)} | {num(rps['weft'])} | {num(rps['peer'])} | "
            f"{len(kept['weft'])}, {len(kept['peer'])}; {empty} | {errors[0]}, {errors[1]} | "
            f"{min(loads):.1f}–{max(loads):.1f} |"
        )
    if any(r.server == "before" for r in results):
        lines += ["", *before_after_table(results)]
    return lines


def med(values: list[float | None]) -> float | None:
    """The median of the values given (None: none given)."""
    got = [v for v in values if v is not None]
    return statistics.median(got) if got else None


def num(value: float | None, bold: bool = False) -> str:
    """A figure for a table: two decimals, bold as a ratio, `–` for none."""
    return "–" if value is None else (f"**{value:.2f}x**" if bold else f"{value:.2f}")


def before_after_table(results: list[CpuSlice]) -> list[str]:
    """Per pair: median CPU ms per request of Weft before and after (and of Neo4j for each), the change, and
    the peer's beside them."""
    lines = [
        "| pair | Weft before CPU ms/req | Weft after | change | Neo4j for before / after | peer | "
        "peer ÷ before | peer ÷ after | load (1 min) |",
        "|---|---:|---:|---:|---|---:|---:|---:|---|",
    ]
    for pair in dict.fromkeys(r.pair for r in results):
        mine = [r for r in results if r.pair == pair and r.requests]

        def of(server: str, neo4j: bool = False, mine: list[CpuSlice] = mine) -> float | None:
            return med([r.neo4j_ms_per_request if neo4j else r.cpu_ms_per_request for r in mine if r.server == server])

        before, after, peer = of("before"), of("weft"), of("peer")
        neo_b, neo_a = of("before", True), of("weft", True)

        def ratio(top: float | None, bottom: float | None) -> str:
            return "–" if top is None or not bottom else f"{top / bottom:.2f}x"

        change = "–" if before is None or after is None else f"{100 * (after - before) / before:+.0f}%"
        loads = [r.load1 for r in mine]
        lines.append(
            f"| {pair} | {num(before)} | {num(after)} | {change} | {num(neo_b)} / {num(neo_a)} | {num(peer)} | "
            f"{ratio(peer, before)} | {ratio(peer, after)} | {min(loads):.1f}–{max(loads):.1f} |"
        )
    return lines
