"""Recovery after kill -9 of Neo4j (issue 48, item 5): from "Bolt answers again" to the first GraphQL success.

A throwaway Neo4j on free ports holds the demo's OpenAlex sample; `weft serve --workers 1` (real uvicorn, a
subprocess) serves it. Each round kills Neo4j with SIGKILL, starts it again as a process manager would
(`weft.graph.local_server.start`: no warm-up, unlike `weft neo4j start`), and meanwhile

- a prober opens a fresh driver every 0.1 s and records when Bolt first answers `RETURN 1` again;
- CLIENTS threads post the API's page shapes (server/warm_up.py, with real ids) every 0.1 s, each with its
  own connection, and record every answer.

Reported per round: Bolt back -> first correct GraphQL answer, Bolt back -> every shape answered, the
slowest request begun after Bolt answered, and how long refused requests took while Neo4j was down.

    .venv/bin/python -m bench.recovery --rounds 5
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from math import inf
from pathlib import Path
from typing import Any

import httpx
from neo4j import GraphDatabase

from bench.machine import describe, load_average
from weft.graph import local_server
from weft.graph.driver import open_driver
from weft.graph.migrate import migrate
from weft.graph.settings import PROJECT_ROOT, Settings, load_settings
from weft.loaders.run import load_paths
from weft.server.warm_up import WARM_QUERIES

WEFT = str(Path(sys.executable).with_name("weft"))
DATA = PROJECT_ROOT / "demo" / "data" / "openalex"
CLIENTS = 6
PAUSE_S = 0.1
IDS_QUERY = "{ mostCited(first: 1) { edges { node { id authors { researcher { id } affiliations { id } } } } } }"


@dataclasses.dataclass(frozen=True)
class Answer:
    shape: int
    began: float
    took: float
    ok: bool
    status: int


def bolt_answers(settings: Settings) -> bool:
    """True when a fresh driver runs `RETURN 1` (what "the database answers" means here)."""
    try:
        with (
            GraphDatabase.driver(settings.neo4j_uri, auth=settings.auth, connection_timeout=1.0) as driver,
            driver.session(database=settings.neo4j_database) as session,
        ):
            session.run("RETURN 1").consume()  # one auto-commit query: no retries
        return True
    except Exception:  # noqa: BLE001 - any failure means not yet
        return False


def bolt_back(settings: Settings, within_s: float) -> float:
    """When Bolt first answered: a fresh attempt every PAUSE_S, each in its own thread (a starting Neo4j
    accepts connections it answers only later, so one attempt may wait long while a newer one succeeds)."""
    answered: list[float] = []

    def attempt() -> None:
        if bolt_answers(settings):
            answered.append(time.monotonic())

    deadline = time.monotonic() + within_s
    while not answered and time.monotonic() < deadline:
        threading.Thread(target=attempt, daemon=True).start()
        time.sleep(PAUSE_S)
    if not answered:
        raise TimeoutError(f"Bolt did not answer within {within_s:g} s")
    return min(answered)


def ask(url: str, shape: int, document: str, variables: dict[str, Any] | None, answers: list[Answer]) -> None:
    began = time.monotonic()
    try:
        with httpx.Client(timeout=120) as http:
            response = http.post(url, json={"query": document, "variables": variables or {}})
        body = response.json()
        ok = response.status_code == 200 and "errors" not in body and body.get("data") is not None
        status = response.status_code
    except (httpx.HTTPError, ValueError):
        ok, status = False, 0
    answers.append(Answer(shape, began, time.monotonic() - began, ok, status))


def client(
    url: str, shapes: list[tuple[str, dict[str, Any] | None]], offset: int, stop: threading.Event, answers: list[Answer]
) -> None:
    turn = offset
    while not stop.is_set():
        shape = turn % len(shapes)
        ask(url, shape, *shapes[shape], answers)
        turn += 1
        time.sleep(PAUSE_S)


def real_shapes(url: str) -> list[tuple[str, dict[str, Any] | None]]:
    """WARM_QUERIES with the ids of the most cited paper, its first author and an institution."""
    body = httpx.post(url, json={"query": IDS_QUERY}, timeout=60).json()
    paper = body["data"]["mostCited"]["edges"][0]["node"]
    researcher = paper["authors"][0]["researcher"]["id"]
    institution = next(a["id"] for author in paper["authors"] for a in author["affiliations"])
    ids = [researcher, paper["id"], institution, researcher, institution]
    shapes: list[tuple[str, dict[str, Any] | None]] = []
    for i, document in enumerate(WARM_QUERIES):
        shapes.append((document, {"id": ids[i]} if "$id" in document else None))
    return shapes


def wait_for(predicate: Any, within_s: float, what: str = "the condition") -> float:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if predicate():
            return time.monotonic()
        time.sleep(PAUSE_S)
    raise TimeoutError(f"{what} did not happen within {within_s:g} s")


def one_round(settings: Settings, url: str, shapes: list[tuple[str, dict[str, Any] | None]]) -> dict[str, float]:
    answers: list[Answer] = []
    stop = threading.Event()
    threads = [threading.Thread(target=client, args=(url, shapes, i, stop, answers)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    try:
        time.sleep(2)
        pid = local_server.read_pid(local_server.Instance(settings))
        assert pid is not None, "no Neo4j to kill"
        os.kill(pid, signal.SIGKILL)
        killed = time.monotonic()
        while local_server.read_pid(local_server.Instance(settings)) is not None:
            time.sleep(0.05)
        time.sleep(3)  # down for a while, as after a crash
        starter = threading.Thread(target=local_server.start, args=(settings,), kwargs={"echo": lambda _m: None})
        starter.start()
        back = bolt_back(settings, 300)
        for shapes_seen in (1, len(shapes)):  # a first success, then every shape's (bounded: a hang is a result)
            with contextlib.suppress(TimeoutError):
                wait_for(lambda n=shapes_seen: len({a.shape for a in answers if a.ok and a.began >= back}) >= n, 120)
        starter.join()
        time.sleep(2)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    after = [a for a in answers if a.began >= back]
    if os.environ.get("RECOVERY_TRACE"):
        for a in sorted(answers, key=lambda a: a.began):
            print(f"  shape {a.shape} began {a.began - back:+7.2f} took {a.took:6.2f} status {a.status} ok {a.ok}")
    done = [min((a.began + a.took for a in after if a.ok and a.shape == s), default=inf) for s in range(len(shapes))]
    first, every = min(done) - back, max(done) - back
    down = [a for a in answers if killed + 0.5 <= a.began and a.began + a.took <= back - 0.5]
    return {
        "first": first,
        "every": every,
        "slowest_after": max(a.took for a in after),
        "down_requests": len(down),
        "down_slowest": max((a.took for a in down), default=0.0),
        "down_not_503": sum(a.status != 503 for a in down),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    base = load_settings()
    settings = local_server.scratch_settings(base)
    local_server.start(settings, echo=lambda _m: None)
    serve: subprocess.Popen[bytes] | None = None
    log = Path(tempfile.mkstemp(prefix="weft-recovery-", suffix=".log")[1])
    try:
        with open_driver(settings) as driver:
            migrate(driver, settings.neo4j_database)
            load_paths(driver, [DATA], source="openalex", database=settings.neo4j_database)
        port = local_server.free_port()
        env = dict(os.environ, NEO4J_URI=settings.neo4j_uri)
        with log.open("wb") as out:
            serve = subprocess.Popen(
                [WEFT, "serve", "--workers", "1", "--port", str(port)], env=env, stdout=out, stderr=subprocess.STDOUT
            )
        base_url = f"http://127.0.0.1:{port}"
        wait_for(lambda: _status(f"{base_url}/ready") == 200, 120, "the app being ready")
        url = f"{base_url}/graphql"
        shapes = real_shapes(url)
        print(f"load average before: {load_average()}")
        rows = []
        for n in range(args.rounds):
            row = one_round(settings, url, shapes)
            rows.append(row)
            print(f"round {n + 1}: " + ", ".join(f"{k} {v:.2f}" for k, v in row.items()), flush=True)
        print(f"load average after: {load_average()}")
        firsts = [r["first"] for r in rows]
        print(f"Bolt back -> first GraphQL success: median {statistics.median(firsts):.2f} s, max {max(firsts):.2f} s")
        print("\n".join(describe(settings).lines()))
    finally:
        if serve is not None:
            serve.send_signal(signal.SIGTERM)
            serve.wait(timeout=60)
        local_server.stop(settings)
        print(f"serve log: {log}")


def _status(url: str) -> int:
    try:
        return httpx.get(url, timeout=10).status_code
    except httpx.HTTPError:
        return 0


if __name__ == "__main__":
    main()
