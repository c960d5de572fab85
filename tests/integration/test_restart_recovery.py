"""kill -9 of Neo4j under a running app (issue 48, item 5): /ready turns 503 and GraphQL requests are refused
at once (503, Retry-After, UNAVAILABLE) while the database is down or still starting, none waits for its
deadline, and GraphQL answers again soon after Neo4j does. (Recovery times: bench/recovery.py.)"""

from __future__ import annotations

import dataclasses
import os
import signal
import threading
import time

import httpx
import pytest

from tests.api.conftest import LiveServer
from weft.graph import local_server
from weft.graph.settings import Settings

QUERY = '{ researcher(id: "A5032473237") { name } }'
ANSWER = {"data": {"researcher": None}}
HANG_S = 60.0  # the app's deadline and the clients' timeout: only a hang reaches it


@pytest.fixture(scope="module")
def scratch(scratch_server: Settings) -> Settings:
    """The session's scratch Neo4j (migrated, empty), which the test kills and restarts."""
    return dataclasses.replace(scratch_server, request_deadline_s=HANG_S)


def ask(http: httpx.Client, url: str) -> httpx.Response:
    return http.post(url, json={"query": QUERY}, headers={"accept": "application/json"})


def refused(response: httpx.Response) -> bool:
    """The drained answer: 503 at once, Retry-After, every error coded UNAVAILABLE."""
    errors = response.json().get("errors", [])
    return (
        response.status_code == 503
        and response.headers.get("retry-after") == "1"
        and bool(errors)
        and all(e["extensions"]["code"] == "UNAVAILABLE" for e in errors)
    )


def until(predicate: object, within_s: float, what: str) -> None:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return
        time.sleep(0.1)
    pytest.fail(f"{what} within {within_s:g} s")


def test_killed_neo4j_is_refused_at_once_and_answers_soon_after_restart(scratch: Settings) -> None:
    with LiveServer(scratch) as server, httpx.Client(timeout=HANG_S) as http:
        base = server.url.removesuffix("/graphql")
        until(lambda: ask(http, server.url).json() == ANSWER, HANG_S, "the app did not answer")
        assert http.get(f"{base}/ready").status_code == 200

        pid = local_server.read_pid(local_server.Instance(scratch))
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        until(lambda: local_server.read_pid(local_server.Instance(scratch)) is None, 30, "Neo4j did not die")

        until(lambda: http.get(f"{base}/ready").status_code == 503, 30, "/ready did not turn 503")
        ready = http.get(f"{base}/ready").json()
        assert ready["status"] == "unavailable" and "Neo4j" in ready["reason"]
        until(lambda: refused(ask(http, server.url)), 30, "GraphQL requests were not refused")
        down = ask(http, server.url)
        assert refused(down) and "data" not in down.json(), down.text

        # Restart; while Neo4j starts (its Bolt port accepts connections before its database answers), every
        # request is answered, refused or correct: none waits for the app's deadline.
        started = threading.Event()
        answers: list[httpx.Response] = []

        def restart() -> None:
            local_server.start(scratch, echo=lambda _m: None)
            started.set()

        starter = threading.Thread(target=restart)
        starter.start()
        try:
            while not started.is_set():
                answers.append(ask(http, server.url))
                time.sleep(0.2)
        finally:
            starter.join()
        assert answers, "no request was made while Neo4j started"
        assert [a.text for a in answers if not (refused(a) or a.json() == ANSWER)] == []

        until(lambda: ask(http, server.url).json() == ANSWER, HANG_S, "GraphQL did not answer after the restart")
        until(lambda: http.get(f"{base}/ready").status_code == 200, HANG_S, "/ready did not turn 200 again")
