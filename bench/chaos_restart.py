"""Issue 11 chaos test: 16 clients for a bounded time against a live server while its Neo4j is stopped and
started again. No request hangs past the deadline, every failure is UNAVAILABLE (HTTP 503), and once the
restarted database answers the query again (its first correct answer to any client), every request begun
10 s later is answered correctly: no stale pooled connection or cached failure outlives the outage.

The time from `weft neo4j start` returning to that first answer is Neo4j's own cold start (JIT, planning),
reported in /tmp/weft-chaos-report.json with the other numbers, not asserted: on a loaded machine it is
tens of seconds, and the first request to a freshly started server is as slow.

It runs its own throwaway Neo4j (as tests/integration/test_local_server.py does), never the session's.
A benchmark, not part of `make test`: it takes minutes. It passes at load average ~6 on the 2-core
development machine (bench/RESULTS.md); an earlier run at load 17-33 got no correct answer within 300 s of
the restart. Run it
with pytest, which gives it the session's settings through bench/conftest.py:

    .venv/bin/python -m pytest -p no:cacheprovider bench/chaos_restart.py
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tests.api.conftest import LiveServer
from weft.graph import local_server
from weft.graph.driver import open_driver
from weft.graph.migrate import migrate
from weft.graph.settings import Settings
from weft.server.warm_up import warm_up

CLIENTS = 16
QUERY = '{ researcher(id: "A5032473237") { name } }'
RECOVERY_S = 10.0
REPORT = Path("/tmp/weft-chaos-report.json")


@dataclass(frozen=True)
class Outcome:
    began: float
    took: float
    status: int
    body: Any


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _warm(url: str, within_s: float = 300.0) -> None:
    """Wait (bounded) until the server answers the query correctly, so the outage is what is measured."""
    deadline = time.monotonic() + within_s
    with httpx.Client(timeout=120) as http:
        while time.monotonic() < deadline:
            response = http.post(url, json={"query": QUERY})
            if response.status_code == 200 and response.json() == {"data": {"researcher": None}}:
                return
    raise AssertionError(f"the server did not answer within {within_s} s")


def _client(url: str, stop: threading.Event, outcomes: list[Outcome]) -> None:
    headers = {"accept": "application/graphql-response+json"}
    with httpx.Client(timeout=120) as http:
        while not stop.is_set():
            began = time.monotonic()
            try:
                response = http.post(url, json={"query": QUERY}, headers=headers)
                outcome = Outcome(began, time.monotonic() - began, response.status_code, response.json())
            except httpx.HTTPError as exc:
                outcome = Outcome(began, time.monotonic() - began, 0, repr(exc))
            outcomes.append(outcome)
            time.sleep(0.05)


def _correct(outcome: Outcome) -> bool:
    return outcome.status == 200 and outcome.body == {"data": {"researcher": None}}


def _message(outcome: Outcome) -> str:
    errors = outcome.body.get("errors", []) if isinstance(outcome.body, dict) else []
    return "; ".join(str(e.get("message")) for e in errors) or str(outcome.body)[:200]


def _unavailable(outcome: Outcome) -> bool:
    errors = outcome.body.get("errors", []) if isinstance(outcome.body, dict) else []
    return outcome.status == 503 and bool(errors) and all(e["extensions"]["code"] == "UNAVAILABLE" for e in errors)


def test_sixteen_clients_while_neo4j_stops_and_starts(settings: Settings) -> None:
    scratch = dataclasses.replace(
        settings, neo4j_uri=f"bolt://127.0.0.1:{_free_port()}", neo4j_heap="512m", neo4j_pagecache="64m"
    )
    scratch = dataclasses.replace(scratch, neo4j_http_port=0)
    outcomes: list[Outcome] = []
    warmed: tuple[int, float, list[str]] = (0, 0.0, [])
    stop = threading.Event()
    try:
        local_server.start(scratch, echo=lambda _m: None)
        with open_driver(scratch) as driver:
            migrate(driver, scratch.neo4j_database)  # indexes, as every Weft database has them
        with LiveServer(scratch) as server:
            _warm(server.url)
            clients = [threading.Thread(target=_client, args=(server.url, stop, outcomes)) for _ in range(CLIENTS)]
            for thread in clients:
                thread.start()
            time.sleep(3)
            down = time.monotonic()
            local_server.stop(scratch)
            time.sleep(5)
            restart = time.monotonic()
            local_server.start(scratch, echo=lambda _m: None)
            warmed = asyncio.run(warm_up(scratch))  # as `weft neo4j start` does before it returns
            up = time.monotonic()
            _warm(server.url)
            time.sleep(RECOVERY_S + 3)
            stop.set()
            for thread in clients:
                thread.join()
    finally:
        stop.set()
        local_server.stop(scratch)

    failed = [o for o in outcomes if not _correct(o)]
    back = min(o.began + o.took for o in outcomes if o.began >= down and _correct(o))
    late = [o for o in outcomes if o.began >= back + RECOVERY_S]
    REPORT.write_text(
        json.dumps(
            {
                "clients": CLIENTS,
                "requests": len(outcomes),
                "failed": len(failed),
                "failed_before_stop": sum(1 for o in failed if o.began + o.took < down),
                "max_seconds": max(o.took for o in outcomes),
                "max_failed_seconds": max((o.took for o in failed), default=0.0),
                "stopped_to_start_returned_seconds": up - down,
                "start_seconds": up - restart,
                "warmed": {"answered": warmed[0], "seconds": warmed[1], "errors": sorted(set(warmed[2]))},
                "first_correct_after_start_returned_seconds": back - up,
                "last_failure_after_first_correct_seconds": max(
                    (o.began + o.took - back for o in failed if o.began + o.took >= back), default=None
                ),
                "failure_messages": sorted({_message(o) for o in failed}),
                "requests_checked_after_recovery": len(late),
            },
            indent=2,
        )
    )
    assert failed, "the database was down for a while: some requests must have failed"
    assert max(o.took for o in outcomes) < settings.request_deadline_s + 2  # no request hangs past the deadline
    assert all(_unavailable(o) for o in failed), [o for o in failed if not _unavailable(o)][:3]
    assert late and all(_correct(o) for o in late)  # correct again within 10 s of the database being back
