"""Serving benchmark (issue 9): Weft over HTTP vs hand-written Cypher vs the @neo4j/graphql peer.

Modes (each starts its own `weft serve` and peer on loopback and stops them at the end, unless
`--weft-url` / `--peer-url` name running ones; every loop is bounded by rounds, seconds or counts):

    check       raw Cypher (bench/raw_cypher.py) returns the same values as Weft, per shape and id
    latency     interleaved request by request: Weft vs raw Cypher vs peer (where a pair exists); p50/p95
    p2          issue 53's P2 in one command: Weft's response cache off, GraphQL p50 / lean raw Cypher p50 for
                profile, paper, roster, mostCited and depth-2 networks (cache misses), small and large
    throughput  1 and 16 concurrent clients, Weft and peer in alternating time slices; req/s, errors, RSS;
                the load comes from autocannon (`make bench-tools`), each slice's answers checked first by
                one Python request per body (`--generator python`: the Python clients, for correctness only)
    cpu         CPU seconds per 1,000 requests of Weft's processes and the peer's at 16 clients (autocannon), response
                cache off: a load-robust stand-in for P3 (bench/serve_cpu.py)
    network20k  on the 20,000-work graph: depth-2 networks (limit 200) of the 20 best-connected
                researchers, cache miss and hit, p95; mostCited p50 there vs on the shared data, interleaved

    .venv/bin/python -m bench.serve check --uri bolt://127.0.0.1:7791
    .venv/bin/python -m bench.serve latency --uri bolt://127.0.0.1:7791 --rounds 20
    .venv/bin/python -m bench.serve p2 --uri bolt://127.0.0.1:7791 --rounds 20 --no-peer
    .venv/bin/python -m bench.serve throughput --uri bolt://127.0.0.1:7791 --slice-seconds 5 --repeats 3
    .venv/bin/python -m bench.serve cpu --uri bolt://127.0.0.1:7791 --slice-seconds 5 --repeats 3
    .venv/bin/python -m bench.serve network20k --uri bolt://127.0.0.1:7795 --shared-uri bolt://127.0.0.1:7791

Each run writes a markdown table and JSON to bench/out/ and prints the load average with each figure.
Networks are reported per size class (`LARGE_TIES`): small and large ones answer in very different times,
and a pooled p50 falls between the two.
A cache miss is forced by a different spelling of the same researcher per request: the internal id
followed by a unique slug (`r…-m17`), which Weft resolves to the same researcher but caches apart.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import neo4j

from bench import raw_cypher as rc
from bench import serve_cpu
from bench import serve_queries as gq
from bench.raw_cypher import RAW

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
WEFT_BIN = ROOT / ".venv" / "bin" / "weft"
DATABASE = "neo4j"

# The README's ids (also in queries.json), the ids the shapes use on the shared data.
README_PAPER = "W3000695681"
# Ids picked from the graph: the best-connected researchers (for networks), and, where the README's ids
# are not in the graph (the synthetic one), papers, researchers and institutions with the most links.
BUSIEST = """
MATCH (r:Researcher)
RETURN r.id AS id ORDER BY COUNT { (r)-[:COAUTHORED_WITH]-() } DESC, r.id LIMIT $n
"""
CITED_PAPERS = """
MATCH (p:Paper) WHERE p.openalex_id IS NOT NULL
RETURN p.openalex_id AS id ORDER BY COUNT { (p)<-[:CITES]-() } DESC, p.id LIMIT $n
"""
PROLIFIC = """
MATCH (r:Researcher) WHERE r.openalex_id IS NOT NULL
RETURN r.openalex_id AS id ORDER BY COUNT { (r)-[:AUTHORED]->() } DESC, r.id LIMIT $n
"""
BIG_INSTITUTIONS = """
MATCH (i:Institution) WHERE i.ror IS NOT NULL
RETURN i.ror AS id ORDER BY COUNT { (i)<-[:AFFILIATED_WITH]-() } DESC, i.id LIMIT $n
"""
# Researchers with a handful of co-authors: on the 20k graph their depth-2 networks still pass 200
# researchers (so `limit` cuts them) yet Weft answers them within its timeout (check mode).
MODEST = """
MATCH (r:Researcher) WITH r, COUNT { (r)-[:COAUTHORED_WITH]-() } AS degree
WHERE 3 <= degree <= 6
RETURN r.id AS id ORDER BY r.id LIMIT $n
"""
INTERNAL_IDS = "UNWIND $ids AS oa MATCH (r:Researcher {openalex_id: oa}) RETURN r.id AS id"
EXISTS = "RETURN EXISTS { MATCH (p:Paper {openalex_id: $id}) } AS found"
LARGE_TIES = 1000
"""A depth-2 network with at least this many ties (limit 200) is large: reported apart from the small ones."""
P2_TARGET = 1.5
"""Issue 53, P2: GraphQL p50 at most this times lean raw Cypher's, response cache off."""
AUTOCANNON = ROOT / "bench" / "node_modules" / "autocannon"


def load_average() -> tuple[float, float, float]:
    return os.getloadavg()


def fmt_load(load: tuple[float, float, float]) -> str:
    return " / ".join(f"{x:.2f}" for x in load)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


# ---------------------------------------------------------------------------------------------------
# Servers


@dataclass
class Server:
    """A server this run started (or was pointed at): its GraphQL URL and its pid when started here."""

    name: str
    url: str
    process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None


def _http_ok(url: str, timeout: float = 2.0) -> bool:
    parts = urlparse(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80, timeout=timeout)
    try:
        body = json.dumps({"query": "{ __typename }"}).encode()
        conn.request("POST", parts.path, body, {"content-type": "application/json"})
        return conn.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        conn.close()


def _port_free(name: str, url: str) -> None:
    """SystemExit when something already answers at `url`: the run would measure that instead."""
    if _http_ok(url, timeout=1.0):
        raise SystemExit(f"something already answers at {url}: stop it or point --{name}-url at it")


def _wait_ready(server: Server, timeout_s: float = 90.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.process is not None and server.process.poll() is not None:
            raise SystemExit(f"{server.name} exited with {server.process.returncode} before answering")
        if _http_ok(server.url):
            return
        time.sleep(0.5)
    raise SystemExit(f"{server.name} did not answer at {server.url} within {timeout_s:.0f}s")


def _stop(server: Server) -> None:
    proc = server.process
    if proc is None or proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)  # its own session: the server and anything it started
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=15)


@contextmanager
def weft_server(
    uri: str,
    port: int,
    url: str | None,
    log: Path,
    code: Path | None = None,
    weft_bin: Path = WEFT_BIN,
    extra_env: dict[str, str] | None = None,
) -> Iterator[Server]:
    """`weft serve` on 127.0.0.1:port against `uri` (fresh process, so a fresh network cache); with
    `code`, the `weft` package found there (a snapshot: CODE/weft/{graph,schema,server,...}) is served
    instead of the working tree's, which other people may be changing."""
    if url:
        yield Server("weft", url)
        return
    _port_free("weft", f"http://127.0.0.1:{port}/graphql")
    env = dict(os.environ, NEO4J_URI=uri, **(extra_env or {}))
    if code is not None:
        env["PYTHONPATH"] = str(code)  # the regular package there wins over the editable install's finder
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(weft_bin), "serve", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = Server("weft", f"http://127.0.0.1:{port}/graphql", proc)
    try:
        _wait_ready(server)
        yield server
    finally:
        _stop(server)


@contextmanager
def peer_server(uri: str, port: int, url: str | None, peer_dir: Path | None, log: Path) -> Iterator[Server | None]:
    """The @neo4j/graphql peer (node server.mjs in `peer_dir`) on 127.0.0.1:port, or None without one."""
    if url:
        yield Server("peer", url)
        return
    if peer_dir is None or not (peer_dir / "node_modules").exists():
        print(f"no peer: {peer_dir} has no node_modules (cp -r ../shared/bench/peer-neo4j-graphql there, npm install)")
        yield None
        return
    _port_free("peer", f"http://127.0.0.1:{port}/graphql")
    env = dict(os.environ, NEO4J_URI=uri, PORT=str(port))
    with log.open("wb") as out:
        proc = subprocess.Popen(
            ["node", "server.mjs"], cwd=peer_dir, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    server = Server("peer", f"http://127.0.0.1:{port}/graphql", proc)
    try:
        _wait_ready(server)
        yield server
    finally:
        _stop(server)


def rss_each_mb(pid: int) -> list[float]:
    """Resident memory of a process and of each of its descendants, MB, largest first (from /proc): a
    `weft serve` is its supervisor and one process per worker."""
    each: list[float] = []
    pending = [pid]
    seen: set[int] = set()
    while pending and len(seen) < 256:
        p = pending.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    each.append(int(line.split()[1]) / 1024)
            for task in Path(f"/proc/{p}/task").iterdir():
                pending.extend(int(c) for c in (task / "children").read_text().split())
        except (OSError, ValueError):
            continue
    return sorted(each, reverse=True)


class RssSampler:
    """Samples the RSS of the given pids every `interval` seconds in a thread; keeps the maximum of each
    process tree (`peak`) and of its largest single process (`peak_one`: for Weft, a worker)."""

    def __init__(self, pids: dict[str, int | None], interval: float = 0.25) -> None:
        self.pids = {k: v for k, v in pids.items() if v}
        self.interval = interval
        self.peak: dict[str, float] = dict.fromkeys(self.pids, 0.0)
        self.peak_one: dict[str, float] = dict.fromkeys(self.pids, 0.0)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            for name, pid in self.pids.items():
                each = rss_each_mb(pid)
                self.peak[name] = max(self.peak[name], sum(each))
                self.peak_one[name] = max(self.peak_one[name], max(each, default=0.0))
            self._stop.wait(self.interval)

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


# ---------------------------------------------------------------------------------------------------
# Clients


class RequestFailed(Exception):
    """A request that got no answer, or an error: how long it took and why."""

    def __init__(self, seconds: float, message: str) -> None:
        super().__init__(message)
        self.seconds = seconds


class Http:
    """One keep-alive HTTP/1.1 connection to a GraphQL endpoint."""

    def __init__(self, url: str, timeout: float = 60.0) -> None:
        parts = urlparse(url)
        self.host, self.port, self.path = parts.hostname or "127.0.0.1", parts.port or 80, parts.path
        self.timeout = timeout
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        self.last_used = 0.0
        self.cypher_queries: str | None = None  # Weft's x-weft-cypher-queries of the last response

    def post(self, query: str, variables: dict[str, Any]) -> tuple[float, bytes | None, str | None]:
        """(seconds to the last body byte, body, error): error on a transport failure or non-200."""
        body = json.dumps({"query": query, "variables": variables}).encode()
        headers = {"content-type": "application/json", "accept": "application/json"}
        if time.monotonic() - self.last_used > 2.0:  # servers drop idle keep-alive connections (uvicorn: 5 s)
            self.conn.close()
            self.conn.connect()
        began = time.perf_counter()
        try:
            self.conn.request("POST", self.path, body, headers)
            response = self.conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as exc:
            self.conn.close()
            self.last_used = 0.0
            return time.perf_counter() - began, None, f"{type(exc).__name__}: {exc}"
        elapsed = time.perf_counter() - began
        self.last_used = time.monotonic()
        self.cypher_queries = response.getheader("x-weft-cypher-queries")
        if response.status != 200:
            return elapsed, data, f"HTTP {response.status}"
        return elapsed, data, None

    def data(self, query: str, variables: dict[str, Any]) -> tuple[float, Any]:
        """(seconds, `data`); RequestFailed (with the seconds) on a transport, HTTP or GraphQL error."""
        elapsed, body, error = self.post(query, variables)
        try:
            parsed = json.loads(body) if body else {}
        except ValueError:
            parsed = {"errors": ["unparseable body"]}
        if error or parsed.get("errors"):
            message = f"{variables}: {error or ''} {json.dumps(parsed.get('errors'))[:300]}"
            raise RequestFailed(elapsed, message)
        return elapsed, parsed["data"]

    def close(self) -> None:
        self.conn.close()


def open_driver(uri: str) -> neo4j.Driver:
    user, password = os.environ.get("NEO4J_USER", "neo4j"), os.environ.get("NEO4J_PASSWORD", "")
    # As Weft's own driver (graph/driver.py): no planner notifications.
    auth = (user, password) if password else None
    return neo4j.GraphDatabase.driver(uri, auth=auth, notifications_min_severity="OFF")


def column(driver: neo4j.Driver, query: str, **params: Any) -> list[str]:
    records, _, _ = driver.execute_query(query, params, database_=DATABASE, routing_=neo4j.RoutingControl.READ)
    return [r["id"] for r in records]


@dataclass
class Ids:
    """The ids each shape is asked with."""

    researchers: list[str]  # OpenAlex ids
    papers: list[str]  # OpenAlex ids
    institutions: list[str]  # ROR ids
    networks: list[str]  # internal ids
    peer_networks: list[str]  # internal ids (the peer's N pair)

    @classmethod
    def pick(cls, driver: neo4j.Driver, network_count: int, modest: bool = False) -> Ids:
        """The README / queries.json ids on the shared data; else the most linked nodes of the graph."""
        spec = json.loads(gq.PEER_QUERIES.read_text(encoding="utf-8"))
        records, _, _ = driver.execute_query(EXISTS, id=README_PAPER, database_=DATABASE)
        if records[0]["found"]:
            researchers = list(spec["researchers"])
            papers = [README_PAPER, *[p for p in column(driver, CITED_PAPERS, n=4) if p != README_PAPER][:3]]
            institutions = list(spec["institutions"])
            typical = column(driver, INTERNAL_IDS, ids=researchers)
            busiest = column(driver, BUSIEST, n=network_count + len(typical))
            networks = typical + [r for r in busiest if r not in typical][:network_count]
        else:
            researchers = column(driver, PROLIFIC, n=4)
            papers = column(driver, CITED_PAPERS, n=4)
            institutions = column(driver, BIG_INSTITUTIONS, n=4)
            networks = column(driver, MODEST if modest else BUSIEST, n=network_count)
        return cls(researchers, papers, institutions, networks, networks[:4])


# ---------------------------------------------------------------------------------------------------
# Contenders and shapes


@dataclass
class Contender:
    """One way of answering a shape: `call(k)` answers the k-th request and returns (seconds, data)."""

    name: str
    call: Callable[[int], tuple[float, Any]]


@dataclass
class Shape:
    name: str
    ids: list[str]
    contenders: list[Contender]
    note: str = ""


class Contenders:
    """Builds the contenders for each shape over one Weft, one driver and maybe one peer."""

    def __init__(self, weft: Http, driver: neo4j.Driver, peer: Http | None) -> None:
        self.weft, self.driver, self.peer = weft, driver, peer
        self.miss_counter = 0

    def weft_call(self, query: str, ids: list[str], spell: Callable[[str], str] = str) -> Contender:
        def call(k: int) -> tuple[float, Any]:
            return self.weft.data(query, {"id": spell(ids[k % len(ids)])} if ids else {})

        return Contender("weft", call)

    def raw_call(self, shape: str, ids: list[str], extra: dict[str, Any] | None = None) -> Contender:
        raw = RAW[shape]

        def call(k: int) -> tuple[float, Any]:
            params = {"id": ids[k % len(ids)]} if ids else {}
            began = time.perf_counter()
            data = raw.run(self.driver, DATABASE, {**params, **(extra or {})})
            return time.perf_counter() - began, data

        return Contender("raw", call)

    def peer_call(self, query: str, ids: list[str]) -> Contender | None:
        if self.peer is None:
            return None
        peer = self.peer

        def call(k: int) -> tuple[float, Any]:
            return peer.data(query, {"id": ids[k % len(ids)]} if ids else {})

        return Contender("peer", call)

    def miss_spelling(self, internal_id: str) -> str:
        """The same researcher under a never-seen spelling: Weft's network cache misses."""
        self.miss_counter += 1
        return f"{internal_id}-m{os.getpid()}x{self.miss_counter}"

    def network_classes(self, ids: list[str]) -> dict[str, tuple[list[str], str]]:
        """The network ids by size class, small (fewer than LARGE_TIES ties) and large, each with a note
        giving its range of ties (read once with raw Cypher)."""
        ties = {}
        for rid in ids:
            data = RAW["network"].run(self.driver, DATABASE, {"id": rid, "limit": 200, **rc.NETWORK_PARAMS})
            ties[rid] = len((data.get("researcherNetwork") or {}).get("edges") or [])
        out = {}
        for size, members in (
            ("small", [r for r in ids if ties[r] < LARGE_TIES]),
            ("large", [r for r in ids if ties[r] >= LARGE_TIES]),
        ):
            if members:
                counts = [ties[r] for r in members]
                out[size] = (members, f"{len(members)} ids, {min(counts):,}–{max(counts):,} ties")
        return out

    def shapes(self, ids: Ids, with_pairs: bool = True) -> list[Shape]:
        pairs = gq.shared_pairs()
        net = ids.networks
        networks: list[Shape] = []
        for size, (members, note) in self.network_classes(net).items():
            raw_network = self.raw_call("network", members, {"limit": 200, **rc.NETWORK_PARAMS})
            networks += [
                Shape(
                    f"network {size}, miss",
                    members,
                    [self.weft_call(gq.NETWORK, members, self.miss_spelling), raw_network],
                    f"{note}; Weft's caches miss (a new spelling of the id per request)",
                ),
                Shape(
                    f"network {size}, hit",
                    members,
                    [self.weft_call(gq.NETWORK, members), raw_network],
                    f"{note}; Weft's network cache holds it (warmed); raw has no cache",
                ),
            ]
        out = [
            Shape(
                "profile",
                ids.researchers,
                [self.weft_call(gq.PROFILE, ids.researchers), self.raw_call("profile", ids.researchers)],
            ),
            Shape("paper", ids.papers, [self.weft_call(gq.PAPER, ids.papers), self.raw_call("paper", ids.papers)]),
            Shape(
                "roster",
                ids.institutions,
                [self.weft_call(gq.ROSTER, ids.institutions), self.raw_call("roster", ids.institutions)],
            ),
            Shape(
                "mostCited",
                [],
                [
                    self.weft_call(gq.MOST_CITED, []),
                    self.raw_call("mostCited", []),
                    self.peer_call(pairs["D"].peer or "", []),
                ],
                "peer: pair D",
            ),
            *networks,
        ]
        if with_pairs:
            out += [
                Shape(
                    "pair A",
                    list(pairs["A"].ids),
                    [
                        self.weft_call(pairs["A"].weft, list(pairs["A"].ids)),
                        self.raw_call("A", list(pairs["A"].ids)),
                        self.peer_call(pairs["A"].peer or "", list(pairs["A"].ids)),
                    ],
                ),
                Shape(
                    "pair C",
                    list(pairs["C"].ids),
                    [
                        self.weft_call(pairs["C"].weft, list(pairs["C"].ids)),
                        self.raw_call("C", list(pairs["C"].ids)),
                        self.peer_call(pairs["C"].peer or "", list(pairs["C"].ids)),
                    ],
                ),
                Shape(
                    "pair P",
                    ids.papers,
                    [
                        self.weft_call(gq.PAPER_PAIR_WEFT, ids.papers),
                        self.peer_call(gq.PAPER_PAIR_PEER, ids.papers),
                    ],
                    "a paper with its authors (added pair)",
                ),
                Shape(
                    "pair N",
                    ids.peer_networks,
                    [
                        self.weft_call(gq.NETWORK_PAIR_WEFT, ids.peer_networks, self.miss_spelling),
                        self.peer_call(gq.NETWORK_PAIR_PEER, ids.peer_networks),
                    ],
                    "approximate (added pair; Weft cache miss per request): " + gq.NETWORK_NOTE,
                ),
            ]
        for shape in out:
            shape.contenders = [c for c in shape.contenders if c is not None]
        return out


# ---------------------------------------------------------------------------------------------------
# check


def canonical(shape: str, data: Any) -> Any:
    """Order-free parts made comparable: a network's edges (Weft lists them in graph order)."""
    if shape.startswith("network") and data and data.get("researcherNetwork"):
        net = dict(data["researcherNetwork"])
        net["edges"] = sorted(net["edges"], key=lambda e: (e["source"], e["target"]))
        return {"researcherNetwork": net}
    return data


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):  # JSON objects (and Cypher maps) are unordered
            return f"{path or '.'}: keys {sorted(a)} vs {sorted(b)}"
        for key in a:
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items vs {len(b)}"
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{path}[{k}]")
            if found:
                return found
        return None
    return None if a == b and type(a) is type(b) else f"{path}: {a!r} vs {b!r}"


def leaves(data: Any) -> int:
    """How many scalar values an answer holds (what a check compared)."""
    if isinstance(data, dict):
        return sum(leaves(v) for v in data.values())
    if isinstance(data, list):
        return sum(leaves(v) for v in data)
    return 1


def run_check(contenders: Contenders, ids: Ids) -> list[dict[str, Any]]:
    """Weft's answer vs raw Cypher's for every shape and id; one row per shape."""
    rows = []
    for shape in contenders.shapes(ids, with_pairs=True):
        by_name = {c.name: c for c in shape.contenders}
        if "raw" not in by_name:
            continue
        problems = []
        empty = 0
        compared = 0
        queries = []
        for k in range(max(1, len(shape.ids))):
            try:
                if shape.name.endswith("hit"):  # the first request fills Weft's network cache; count the second
                    by_name["weft"].call(k)
                _, weft = by_name["weft"].call(k)
                queries.append(contenders.weft.cypher_queries or "?")
            except RequestFailed as exc:
                problems.append(f"{shape.ids[k] if shape.ids else '-'}: Weft failed after {exc.seconds:.1f}s: {exc}")
                continue
            _, raw = by_name["raw"].call(k)
            compared += leaves(weft)
            if not any(weft.values()):
                empty += 1
            difference = first_difference(canonical(shape.name, weft), canonical(shape.name, raw))
            if difference:
                problems.append(f"{shape.ids[k] if shape.ids else '-'}: {difference}")
        n = max(1, len(shape.ids))
        rows.append(
            {
                "shape": shape.name,
                "ids": n,
                "values": compared,
                "null answers": empty,
                "cypher queries": "/".join(queries),
                "problems": problems,
            }
        )
        status = "same values" if not problems else f"{len(problems)} DIFFER"
        print(f"{shape.name:14} {status} over {n} ids ({compared} values)" + "".join(f"\n    {p}" for p in problems))
    return rows


# ---------------------------------------------------------------------------------------------------
# latency


@dataclass
class Timing:
    """Milliseconds per (shape, contender), failed requests included (their time until the failure)."""

    times: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    errors: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    loads: dict[str, list[float]] = field(default_factory=dict)

    def add(self, shape: str, contender: str, seconds: float) -> None:
        self.times.setdefault((shape, contender), []).append(seconds * 1000)


def timed_call(timing: Timing | None, shape: str, contender: Contender, k: int) -> float:
    """Run one request; record its time (and its error, if any) in `timing` when given."""
    try:
        seconds, _ = contender.call(k)
    except RequestFailed as exc:
        seconds = exc.seconds
        if timing is not None:
            timing.errors.setdefault((shape, contender.name), []).append(str(exc)[:300])
        print(f"    {shape} {contender.name}: failed after {seconds:.1f}s: {str(exc)[:200]}", flush=True)
    if timing is not None:
        timing.add(shape, contender.name, seconds)
    return seconds


def run_latency(shapes: list[Shape], rounds: int, warmup: int = 1, budget_s: float = 3600.0) -> Timing:
    """`rounds` rounds; in each, every shape, every id, every contender in turn (the order rotates
    per request so no contender always goes first). No new round starts after `budget_s` seconds."""
    timing = Timing()
    turn = 0
    began = time.monotonic()
    for round_no in range(warmup + rounds):
        if time.monotonic() - began > budget_s:
            print(f"  time budget of {budget_s:.0f}s spent: stopping after {round_no - warmup} rounds")
            break
        measured = round_no >= warmup
        for shape in shapes:
            for k in range(max(1, len(shape.ids))):
                n = len(shape.contenders)
                for j in range(n):
                    contender = shape.contenders[(turn + j) % n]
                    timed_call(timing if measured else None, shape.name, contender, k + round_no * len(shape.ids))
                turn += 1
            if measured:
                timing.loads.setdefault(shape.name, []).append(load_average()[0])
        if measured:
            print(f"  round {round_no - warmup + 1}/{rounds}, load {fmt_load(load_average())}", flush=True)
    return timing


def latency_rows(shapes: list[Shape], timing: Timing) -> list[dict[str, Any]]:
    rows = []
    for shape in shapes:
        row: dict[str, Any] = {"shape": shape.name, "note": shape.note, "load1": timing.loads.get(shape.name, [])}
        for contender in shape.contenders:
            values = timing.times.get((shape.name, contender.name), [])
            if not values:
                continue
            errors = timing.errors.get((shape.name, contender.name), [])
            row[contender.name] = {
                "p50": statistics.median(values),
                "p95": percentile(values, 0.95),
                "n": len(values),
                "errors": len(errors),
                "error_samples": errors[:3],
            }
        if "raw" in row and "weft" in row:
            row["weft/raw p50"] = row["weft"]["p50"] / row["raw"]["p50"]
        if "peer" in row and "weft" in row:
            row["weft/peer p50"] = row["weft"]["p50"] / row["peer"]["p50"]
        rows.append(row)
    return rows


def latency_table(rows: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| shape | Weft p50 / p95 ms | raw Cypher p50 / p95 ms | peer p50 / p95 ms | Weft/raw p50 | Weft/peer p50 "
        "| n | errors (Weft, peer) | load (1 min) |",
        "|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]

    def cell(row: dict[str, Any], name: str) -> str:
        return f"{row[name]['p50']:.1f} / {row[name]['p95']:.1f}" if name in row else "–"

    for row in rows:
        ratio_raw = f"**{row['weft/raw p50']:.2f}x**" if "weft/raw p50" in row else "–"
        ratio_peer = f"**{row['weft/peer p50']:.2f}x**" if "weft/peer p50" in row else "–"
        loads = row["load1"]
        load = f"{min(loads):.1f}–{max(loads):.1f}" if loads else "–"
        lines.append(
            f"| {row['shape']} | {cell(row, 'weft')} | {cell(row, 'raw')} | {cell(row, 'peer')} | {ratio_raw} | "
            f"{ratio_peer} | {row['weft']['n']} | {row['weft']['errors']}, "
            f"{row['peer']['errors'] if 'peer' in row else '–'} | {load} |"
        )
    return lines


def p2_table(rows: list[dict[str, Any]]) -> list[str]:
    """Issue 53's P2 per shape: Weft p50 / lean raw Cypher p50 against P2_TARGET, with the load it ran at."""
    lines = [
        f"P2 (response cache off): GraphQL p50 / lean raw Cypher p50, target ≤ {P2_TARGET}x",
        "",
        "| shape | Weft p50 ms | raw p50 ms | Weft/raw | ≤ 1.5x | n | errors | load (1 min) |",
        "|---|---:|---:|---:|---|---:|---:|---|",
    ]
    for row in rows:
        if "weft/raw p50" not in row:
            continue
        ratio, loads = row["weft/raw p50"], row["load1"]
        load = f"{min(loads):.1f}–{max(loads):.1f}" if loads else "–"
        lines.append(
            f"| {row['shape']} | {row['weft']['p50']:.1f} | {row['raw']['p50']:.1f} | **{ratio:.2f}x** | "
            f"{'met' if ratio <= P2_TARGET else 'not met'} | {row['weft']['n']} | {row['weft']['errors']} | {load} |"
        )
    return lines


# ---------------------------------------------------------------------------------------------------
# throughput


@dataclass
class SliceResult:
    pair: str
    server: str
    clients: int
    seconds: float
    requests: int
    errors: int
    error_samples: list[str]
    load1: float


def graphql_error(body: bytes | None) -> str | None:
    """The start of a GraphQL response that carries errors (or cannot be parsed), else None."""
    if not body:
        return None
    try:
        return body[:300].decode(errors="replace") if json.loads(body).get("errors") else None
    except ValueError:
        return "unparseable body"


def run_slice(
    url: str, pair: gq.Pair, for_peer: bool, clients: int, seconds: float, max_requests: int
) -> tuple[int, int, float, list[str]]:
    """`clients` threads, each on its own connection, sending the pair's request (ids in turn) until
    `seconds` pass or `max_requests` are sent in all: (completed, errors, elapsed, error samples)."""
    query = pair.peer if for_peer else pair.weft
    assert query is not None
    lock = threading.Lock()
    counts = {"done": 0, "errors": 0, "sent": 0}
    samples: list[str] = []
    start = threading.Barrier(clients + 1)
    deadline = [0.0]

    def client(t: int) -> None:
        http_client = Http(url, timeout=30)
        start.wait()
        k = t
        while time.perf_counter() < deadline[0]:
            with lock:
                if counts["sent"] >= max_requests:
                    break
                counts["sent"] += 1
            _, body, error = http_client.post(query, pair.variables(k, for_peer))
            k += clients
            error = error or graphql_error(body)
            with lock:
                counts["done"] += 1
                if error:
                    counts["errors"] += 1
                    if len(samples) < 5:
                        samples.append(error)
        http_client.close()

    threads = [threading.Thread(target=client, args=(t,), daemon=True) for t in range(clients)]
    for thread in threads:
        thread.start()
    began = time.perf_counter()
    deadline[0] = began + seconds
    start.wait()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    elapsed = time.perf_counter() - began
    return counts["done"], counts["errors"], elapsed, samples


def run_slice_autocannon(
    url: str, pair: gq.Pair, for_peer: bool, clients: int, seconds: float
) -> tuple[int, int, float, list[str]]:
    """One slice driven by autocannon (bench/autocannon.mjs): `clients` keep-alive connections sending the
    pair's request, its ids in turn. Its answers are checked first, one Python request per id (autocannon
    counts HTTP errors only, and a GraphQL error is a 200): (completed, errors, elapsed, error samples)."""
    query = pair.peer if for_peer else pair.weft
    assert query is not None
    count = max(1, len(pair.ids))
    bodies = [json.dumps({"query": query, "variables": pair.variables(k, for_peer)}) for k in range(count)]
    samples = []
    checker = Http(url, timeout=30)
    for k in range(len(bodies)):
        _, body, error = checker.post(query, pair.variables(k, for_peer))
        if error or graphql_error(body):
            samples.append(error or graphql_error(body) or "")
    checker.close()
    result = serve_cpu.autocannon(url, bodies, clients, seconds)
    errors = result["non2xx"] + result["errors"] + result["timeouts"]
    if samples:  # a request that fails when checked fails under load too
        errors = max(errors, result["ok"])
    return result["ok"] + result["non2xx"], errors, float(result["seconds"]), samples[:5]


def run_throughput(
    servers: dict[str, Server],
    pairs: list[gq.Pair],
    clients_list: list[int],
    slice_seconds: float,
    repeats: int,
    max_requests: int,
    generator: str = "autocannon",
) -> list[SliceResult]:
    """For each pair, `repeats` times: each client count, Weft and the peer in alternating order."""
    results = []
    names = list(servers)
    for pair in pairs:
        for rep in range(repeats):
            for clients in clients_list:
                order = names if rep % 2 == 0 else names[::-1]
                for name in order:
                    if name == "peer" and pair.peer is None:
                        continue
                    if generator == "autocannon":
                        done, errors, elapsed, samples = run_slice_autocannon(
                            servers[name].url, pair, name == "peer", clients, slice_seconds
                        )
                    else:
                        done, errors, elapsed, samples = run_slice(
                            servers[name].url, pair, name == "peer", clients, slice_seconds, max_requests
                        )
                    load1 = load_average()[0]
                    results.append(SliceResult(pair.name, name, clients, elapsed, done, errors, samples, load1))
                    print(
                        f"  pair {pair.name} {name:4} {clients:2} clients: {done / elapsed:7.1f} req/s, "
                        f"{errors} errors, load {fmt_load(load_average())}",
                        flush=True,
                    )
    return results


def throughput_rows(results: list[SliceResult], peak_rss: dict[str, float]) -> list[dict[str, Any]]:
    rows: dict[tuple[str, str, int], dict[str, Any]] = {}
    for r in results:
        row = rows.setdefault(
            (r.pair, r.server, r.clients),
            {
                "pair": r.pair,
                "server": r.server,
                "clients": r.clients,
                "seconds": 0.0,
                "requests": 0,
                "errors": 0,
                "error_samples": [],
                "load1": [],
            },
        )
        row["seconds"] += r.seconds
        row["requests"] += r.requests
        row["errors"] += r.errors
        row["error_samples"] += r.error_samples[: 5 - len(row["error_samples"])]
        row["load1"].append(r.load1)
    out = list(rows.values())
    for row in out:
        row["rps"] = row["requests"] / row["seconds"]
        row["peak_rss_mb"] = peak_rss.get(row["server"])
    return out


def throughput_table(rows: list[dict[str, Any]]) -> list[str]:
    by = {(r["pair"], r["server"], r["clients"]): r for r in rows}
    pairs = list(dict.fromkeys(r["pair"] for r in rows))
    clients = sorted({r["clients"] for r in rows})
    lo, hi = clients[0], clients[-1]
    lines = [
        f"| pair | Weft req/s @{lo} | Weft req/s @{hi} | peer req/s @{lo} | peer req/s @{hi} | Weft/peer @{hi} | "
        f"Weft @{hi}/@{lo} | peer @{hi}/@{lo} | errors (Weft, peer) | load (1 min) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]

    def rps(pair: str, server: str, c: int) -> float | None:
        row = by.get((pair, server, c))
        return row["rps"] if row else None

    def num(x: float | None, bold: bool = False) -> str:
        if x is None:
            return "–"
        return f"**{x:.2f}x**" if bold else f"{x:.1f}"

    for pair in pairs:
        w1, w16, p1, p16 = rps(pair, "weft", lo), rps(pair, "weft", hi), rps(pair, "peer", lo), rps(pair, "peer", hi)
        errors = [sum(r["errors"] for r in rows if r["pair"] == pair and r["server"] == s) for s in ("weft", "peer")]
        loads = [x for r in rows if r["pair"] == pair for x in r["load1"]]
        lines.append(
            f"| {pair} | {num(w1)} | {num(w16)} | {num(p1)} | {num(p16)} | "
            f"{num(w16 / p16 if w16 and p16 else None, True)} | {num(w16 / w1 if w16 and w1 else None, True)} | "
            f"{num(p16 / p1 if p16 and p1 else None, True)} | {errors[0]}, {errors[1]} | "
            f"{min(loads):.1f}–{max(loads):.1f} |"
        )
    return lines


# ---------------------------------------------------------------------------------------------------
# network on the 20k graph


def run_network20k(
    contenders: Contenders, shared_weft: Http, ids: Ids, rounds: int, most_cited_rounds: int, budget_s: float
) -> dict[str, Any]:
    """Depth-2 networks (limit 200) of the best-connected researchers: a first request per id (which
    fills Weft's cache when it succeeds), then `rounds` rounds of miss, raw and hit, interleaved; then
    mostCited on this graph vs the shared data, interleaved request by request."""
    net = ids.networks
    miss = contenders.weft_call(gq.NETWORK, net, contenders.miss_spelling)
    hit = contenders.weft_call(gq.NETWORK, net)
    raw = contenders.raw_call("network", net, {"limit": 200, **rc.NETWORK_PARAMS})
    first = Timing()
    sizes = []
    for k, rid in enumerate(net):
        timed_call(first, "network first request (20k)", hit, k)
        began = time.perf_counter()
        data = raw.call(k)[1]["researcherNetwork"]
        first.add("network first request (20k)", "raw", time.perf_counter() - began)
        sizes.append(
            {"id": rid, "nodes": len(data["nodes"]), "total": data["totalNodeCount"], "edges": len(data["edges"])}
        )
        print(f"  first request {k + 1}/{len(net)}, load {fmt_load(load_average())}", flush=True)
    first.loads["network first request (20k)"] = [load_average()[0]]
    # A hit is the second of two requests for the same id on the same connection (so the same worker): the
    # misses' new spellings fill the cache too and push earlier entries out, so only the second is timed.
    again = Contender("hit", lambda k: (hit.call(k), hit.call(k))[1])
    shapes = [Shape("network miss (20k)", net, [miss, raw, again])]
    timing = run_latency(shapes, rounds, warmup=0, budget_s=budget_s)
    # One shape with three contenders keeps them interleaved; the hits are reported as their own row.
    hits = Timing(
        times={("network hit (20k)", "weft"): timing.times.pop(("network miss (20k)", "hit"), [])},
        errors={("network hit (20k)", "weft"): timing.errors.pop(("network miss (20k)", "hit"), [])},
        loads={"network hit (20k)": timing.loads.get("network miss (20k)", [])},
    )
    rows = latency_rows([Shape("network first request (20k)", net, [hit, raw], "fills the cache")], first)
    rows += latency_rows(
        [Shape("network miss (20k)", net, [miss, raw], "a new spelling of the id per request")], timing
    )
    rows += latency_rows([Shape("network hit (20k)", net, [hit], "the same id again, right after it")], hits)
    local = contenders.weft_call(gq.MOST_CITED, [])
    shared = Contender("weft", lambda k: shared_weft.data(gq.MOST_CITED, {}))
    raw_cited = contenders.raw_call("mostCited", [])
    cited_times: dict[str, list[float]] = {"Weft, 20k graph": [], "Weft, shared data": [], "raw Cypher, 20k graph": []}
    loads = []
    for k in range(most_cited_rounds + 2):
        calls = [("Weft, 20k graph", local), ("Weft, shared data", shared), ("raw Cypher, 20k graph", raw_cited)]
        for name, contender in calls[k % 3 :] + calls[: k % 3]:
            seconds, _ = contender.call(k)
            if k >= 2:
                cited_times[name].append(seconds * 1000)
        loads.append(load_average()[0])
    cited = {
        name: {"p50": statistics.median(v), "p95": percentile(v, 0.95), "n": len(v)} for name, v in cited_times.items()
    }
    return {"networks": sizes, "rows": rows, "mostCited": cited, "mostCited load1": loads}


def network20k_lines(result: dict[str, Any]) -> list[str]:
    lines = latency_table(result["rows"])
    cited = result["mostCited"]
    loads = result["mostCited load1"]
    lines += [
        "",
        "| mostCited(first: 20) | p50 ms | p95 ms | n |",
        "|---|---:|---:|---:|",
        *[f"| {name} | {v['p50']:.1f} | {v['p95']:.1f} | {v['n']} |" for name, v in cited.items()],
        "",
        "mostCited p50, 20k graph / shared data: "
        f"**{cited['Weft, 20k graph']['p50'] / cited['Weft, shared data']['p50']:.2f}x** "
        f"(interleaved request by request, load {min(loads):.1f}–{max(loads):.1f}).",
        "",
        "Networks (nodes returned / in the depth-2 network / edges): "
        + ", ".join(f"{s['nodes']}/{s['total']}/{s['edges']}" for s in result["networks"]),
    ]
    return lines


# ---------------------------------------------------------------------------------------------------
# main


def code_version(code: Path | None = None) -> str:
    """The commit the servers run, and whether the serving code has uncommitted changes."""
    if code is not None:
        return f"snapshot {code} (`git archive` of {code.name})"
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "graph", "schema", "server", "queries"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout
    except OSError:
        return "unknown"
    return head.strip() + (" (serving code modified)" if dirty.strip() else "")


def chosen_pairs(names: str, ids: Ids) -> list[gq.Pair]:
    """The throughput pairs named (A, C, D from queries.json; P and N added here with ids from the graph)."""
    all_pairs = gq.shared_pairs()
    all_pairs["P"] = gq.Pair("P", gq.PAPER_PAIR_WEFT, gq.PAPER_PAIR_PEER, tuple(ids.papers))
    all_pairs["N"] = gq.Pair("N", gq.NETWORK_PAIR_WEFT, gq.NETWORK_PAIR_PEER, tuple(ids.peer_networks))
    return [all_pairs[p] for p in names.split(",")]


def cpu_mode(
    args: argparse.Namespace,
    pairs: list[gq.Pair],
    weft: Server,
    peer: Server | None,
    payload: dict[str, Any],
    stack: ExitStack,
) -> list[str]:
    """`cpu`: CPU per 1,000 requests of Weft's and the peer's processes (and Neo4j's for each), its table; with
    `--before-code DIR`, a second Weft serving that snapshot ("before") is measured in the same rotation."""
    servers = {"weft": weft, **({"peer": peer} if peer else {})}
    if args.before_code is not None:
        before = weft_server(
            args.uri,
            args.weft_port + 1,
            None,
            OUT / "logs" / "weft-before.log",
            args.before_code,
            args.weft_bin,
            {"WEFT_RESPONSE_CACHE_MB": "0"},
        )
        servers = {"before": stack.enter_context(before), **servers}
    pids = {name: (s.url, s.pid) for name, s in servers.items() if s.pid is not None}
    if len(pids) < len(servers):
        raise SystemExit("cpu mode measures the servers it starts: no --weft-url or --peer-url")
    results = serve_cpu.run_cpu(
        pids,
        pairs,
        max(int(c) for c in args.clients.split(",")),
        args.slice_seconds,
        args.repeats,
        serve_cpu.listening_pid(urlparse(args.uri).port or 7687),
    )
    payload["cpu"] = [r.__dict__ for r in results]
    return serve_cpu.cpu_table(results)


def write_out(mode: str, label: str, lines: list[str], payload: dict[str, Any]) -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = OUT / f"serve-{mode}-{label}-{stamp}"
    base.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    base.with_suffix(".json").write_text(json.dumps(payload, indent=1, default=str) + "\n", encoding="utf-8")
    return base


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("check", "latency", "p2", "throughput", "cpu", "network20k"))
    parser.add_argument("--uri", default="bolt://127.0.0.1:7791", help="Neo4j the servers and raw Cypher read")
    parser.add_argument("--label", default=None, help="name in the output files (default: the Bolt port)")
    parser.add_argument("--weft-port", type=int, default=8791)
    parser.add_argument("--weft-url", default=None, help="a running Weft /graphql instead of starting one")
    parser.add_argument(
        "--code",
        type=Path,
        default=None,
        help="serve the weft package in CODE/weft (a git archive of a commit) instead of the working tree",
    )
    parser.add_argument(
        "--before-code",
        type=Path,
        default=None,
        help="cpu: also serve CODE/weft (a git archive) as `before`, measured in the same rotation",
    )
    parser.add_argument(
        "--weft-bin",
        type=Path,
        default=WEFT_BIN,
        help="the `weft` to serve with, e.g. a virtualenv's made by `pip install .` (no test tools imported)",
    )
    parser.add_argument("--peer-port", type=int, default=4791)
    parser.add_argument("--peer-url", default=None, help="a running peer /graphql instead of starting one")
    parser.add_argument("--peer-dir", type=Path, default=Path("/tmp/peer"), help="the peer with node_modules")
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--rounds", type=int, default=20, help="latency / network20k rounds")
    parser.add_argument("--budget-seconds", type=float, default=3600, help="no new round starts after this")
    parser.add_argument("--networks", type=int, default=4, help="best-connected researchers added to the network ids")
    parser.add_argument(
        "--modest-networks",
        action="store_true",
        help="on a graph without the README ids: networks of researchers with 3-6 co-authors, not the busiest",
    )
    parser.add_argument("--pairs", default="A,C,D,P", help="throughput pairs (A, C, D from queries.json; P, N added)")
    parser.add_argument("--clients", default="1,16")
    parser.add_argument("--slice-seconds", type=float, default=5.0)
    parser.add_argument("--repeats", type=int, default=3, help="slices per (pair, server, clients)")
    parser.add_argument("--max-requests", type=int, default=50_000, help="cap per slice (python generator)")
    parser.add_argument(
        "--generator",
        choices=("autocannon", "python"),
        default="autocannon",
        help="throughput's load: autocannon (`make bench-tools`), or the Python clients (for correctness only)",
    )
    parser.add_argument("--shared-uri", default="bolt://127.0.0.1:7791", help="network20k: the shared-data Neo4j")
    parser.add_argument("--shared-weft-port", type=int, default=8792)
    parser.add_argument("--top", type=int, default=20, help="network20k: the best-connected researchers")
    parser.add_argument("--most-cited-rounds", type=int, default=40)
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # unwind: the servers started here are stopped
    label = args.label or urlparse(args.uri).port
    command = "python -m bench.serve " + " ".join(argv if argv is not None else sys.argv[1:])
    load_before = load_average()
    print(f"{command}\nload average before: {fmt_load(load_before)}", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    logs = OUT / "logs"
    logs.mkdir(exist_ok=True)
    payload: dict[str, Any] = {
        "command": command,
        "uri": args.uri,
        "load_before": load_before,
        "code": code_version(args.code),
    }
    if args.mode in ("throughput", "cpu") and args.generator == "autocannon" and not AUTOCANNON.exists():
        raise SystemExit(f"no autocannon in {AUTOCANNON.parent}: run `make bench-tools` (npm ci --prefix bench)")
    # P2 and the CPU comparison (P3's stand-in) are measured with the response cache off.
    extra_env = {"WEFT_RESPONSE_CACHE_MB": "0"} if args.mode in ("p2", "cpu") else None
    with ExitStack() as stack:
        driver = stack.enter_context(open_driver(args.uri))
        weft_srv = stack.enter_context(
            weft_server(
                args.uri, args.weft_port, args.weft_url, logs / f"weft-{label}.log", args.code, args.weft_bin, extra_env
            )
        )
        peer_srv = None
        if not args.no_peer and args.mode in ("latency", "throughput", "check", "cpu"):
            peer_srv = stack.enter_context(
                peer_server(args.uri, args.peer_port, args.peer_url, args.peer_dir, logs / f"peer-{label}.log")
            )
        weft = Http(weft_srv.url)
        peer = Http(peer_srv.url) if peer_srv else None
        ids = Ids.pick(driver, args.top if args.mode == "network20k" else args.networks, args.modest_networks)
        payload["ids"] = ids.__dict__
        contenders = Contenders(weft, driver, peer)
        lines = [f"Command: `{command}` at commit {payload['code']}", ""]
        if args.mode == "check":
            rows = run_check(contenders, ids)
            payload["check"] = rows
            lines += [
                "| shape | ids | values compared | null answers | Weft's Cypher queries (per id) | raw = Weft |",
                "|---|---:|---:|---:|---|---|",
            ]
            for r in rows:
                verdict = "yes" if not r["problems"] else "NO: " + "; ".join(r["problems"])
                counts = f"{r['values']} | {r['null answers']} | {r['cypher queries']}"
                lines.append(f"| {r['shape']} | {r['ids']} | {counts} | {verdict} |")
        elif args.mode == "latency":
            shapes = contenders.shapes(ids)
            timing = run_latency(shapes, args.rounds, budget_s=args.budget_seconds)
            rows = latency_rows(shapes, timing)
            payload["latency"] = rows
            lines += latency_table(rows)
        elif args.mode == "p2":
            shapes = [s for s in contenders.shapes(ids, with_pairs=False) if not s.name.endswith("hit")]
            timing = run_latency(shapes, args.rounds, budget_s=args.budget_seconds)
            rows = latency_rows(shapes, timing)
            payload["p2"] = rows
            lines += p2_table(rows)
            lines += ["", "Every request:", "", *latency_table(rows)]
        elif args.mode == "cpu":
            lines += cpu_mode(args, chosen_pairs(args.pairs, ids), weft_srv, peer_srv, payload, stack)
        elif args.mode == "throughput":
            pairs = chosen_pairs(args.pairs, ids)
            servers = {"weft": weft_srv, **({"peer": peer_srv} if peer_srv else {})}
            with RssSampler({name: s.pid for name, s in servers.items()}) as sampler:
                results = run_throughput(
                    servers,
                    pairs,
                    [int(c) for c in args.clients.split(",")],
                    args.slice_seconds,
                    args.repeats,
                    args.max_requests,
                    args.generator,
                )
            rows = throughput_rows(results, sampler.peak)
            payload["throughput"] = rows
            payload["peak_rss_mb"] = sampler.peak
            payload["peak_rss_one_process_mb"] = sampler.peak_one
            lines += throughput_table(rows)
            lines += [
                "",
                "Peak RSS while serving (process and children; the largest single process): "
                + ", ".join(f"{k} {v:.0f} MB ({sampler.peak_one[k]:.0f} MB)" for k, v in sampler.peak.items()),
            ]
        else:
            shared = stack.enter_context(
                weft_server(
                    args.shared_uri,
                    args.shared_weft_port,
                    None,
                    logs / "weft-shared-for-20k.log",
                    args.code,
                    args.weft_bin,
                )
            )
            result = run_network20k(
                contenders, Http(shared.url), ids, args.rounds, args.most_cited_rounds, args.budget_seconds
            )
            payload["network20k"] = result
            lines += network20k_lines(result)
            if weft_srv.pid:
                each = rss_each_mb(weft_srv.pid)
                payload["weft_rss_mb"] = sum(each)
                payload["weft_rss_each_mb"] = each
                lines += [
                    "",
                    f"Weft server RSS after the run: {sum(each):.0f} MB (each process: "
                    + ", ".join(f"{v:.0f}" for v in each)
                    + ")",
                ]
    load_after = load_average()
    payload["load_after"] = load_after
    lines += ["", f"Load average (1/5/15 min) before: {fmt_load(load_before)}; after: {fmt_load(load_after)}."]
    base = write_out(args.mode, str(label), lines, payload)
    print("\n".join(lines))
    print(f"written to {base}.md and .json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
