"""`weft serve --workers 2` as a real process tree: both workers answer, and stopping it leaves no process."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import free_port, free_ports
from weft.graph.settings import Settings

WEFT = Path(sys.executable).with_name("weft")


def get(port: int, path: str, body: dict | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request on a fresh connection (so the kernel may hand it to either worker)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        if body is None:
            conn.request("GET", path)
        else:
            conn.request("POST", path, json.dumps(body), {"content-type": "application/json"})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def descendants(pid: int) -> set[int]:
    """Every living process below `pid` (from /proc's children lists)."""
    found: set[int] = set()
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                children = Path(f"/proc/{current}/task/{task}/children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    pending.append(child)
    return found


def running(pid: int) -> bool:
    """True while `pid` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_healthy(proc: subprocess.Popen[bytes], port: int, log: Path, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"weft serve exited with {proc.returncode}: {log.read_text()}"
        try:
            if get(port, "/health")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.5)
    pytest.fail(f"weft serve --workers 2 did not answer /health within {timeout_s:.0f}s")


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the process tree from Linux's /proc")
def test_two_workers_answer_and_stop_without_leftovers(settings: Settings, tmp_path: Path) -> None:
    port = free_port()
    env = dict(os.environ, NEO4J_URI=settings.neo4j_uri)
    command = [str(WEFT), "serve", "--workers", "2", "--host", "127.0.0.1", "--port", str(port)]
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    tree: set[int] = set()
    try:
        wait_healthy(proc, port, log)
        workers: set[int] = set()
        deadline = time.monotonic() + 60
        with ThreadPoolExecutor(8) as pool:
            while len(workers) < 2 and time.monotonic() < deadline:
                for status, headers, _ in pool.map(lambda _: get(port, "/health"), range(16)):
                    assert status == 200
                    workers.add(int(headers["x-weft-worker"]))
        assert len(workers) == 2, f"only worker {workers} answered /health"
        tree = descendants(proc.pid)
        assert workers <= tree and proc.pid not in workers, "the workers are the supervisor's children"

        status, headers, body = get(port, "/graphql", {"query": "{ version }"})
        assert status == 200 and json.loads(body) == {"data": {"version": "weft 0.1.0"}}
        assert int(headers["x-weft-cypher-queries"]) == 0
        assert "server" not in headers and "date" in headers  # no server software named; the Date HTTP asks for

        proc.send_signal(signal.SIGTERM)  # the supervisor alone: it must stop its workers itself
        proc.wait(timeout=60)
        deadline = time.monotonic() + 10
        while any(running(pid) for pid in tree) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [pid for pid in tree if running(pid)] == [], "processes left behind after weft serve stopped"
        assert proc.returncode == 0, log.read_text()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        for pid in tree:
            if running(pid):
                os.kill(pid, signal.SIGKILL)


BUSY_S = 600  # a bound on the CPU load's life, should the test die before it stops it


def busy_cores(n: int) -> list[subprocess.Popen[bytes]]:
    """`n` processes spinning on a CPU each (bounded in time), as a loaded machine's other work."""
    spin = f"import time\nend = time.monotonic() + {BUSY_S}\nwhile time.monotonic() < end:\n    pass\n"
    return [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(n)]


def both_workers_answer(port: int, within_s: float = 120) -> set[int]:
    """The pids of the workers that answered /health on fresh connections (until two did, bounded)."""
    workers: set[int] = set()
    deadline = time.monotonic() + within_s
    with ThreadPoolExecutor(8) as pool:
        while len(workers) < 2 and time.monotonic() < deadline:
            for status, headers, _ in pool.map(lambda _: get(port, "/health"), range(16)):
                if status == 200:
                    workers.add(int(headers["x-weft-worker"]))
    return workers


def test_two_workers_start_under_cpu_load_without_being_killed(settings: Settings, tmp_path: Path) -> None:
    """Issue 48, item 11: uvicorn's supervisor killed workers still starting on a busy machine ("Child process
    died"). Three starts of `weft serve --workers 2` at once with both cores busy (each start slows the
    others): both workers of each answer, none is killed."""
    env = dict(os.environ, NEO4J_URI=settings.neo4j_uri)
    load = busy_cores(os.cpu_count() or 2)
    starts: list[tuple[subprocess.Popen[bytes], int, Path]] = []
    try:
        for start, port in enumerate(free_ports(3)):
            command = [str(WEFT), "serve", "--workers", "2", "--host", "127.0.0.1", "--port", str(port)]
            log = tmp_path / f"serve-{start}.log"
            with log.open("wb") as out:
                proc = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
            starts.append((proc, port, log))
        for start, (proc, port, log) in enumerate(starts):
            wait_healthy(proc, port, log, timeout_s=300)
            workers = both_workers_answer(port)
            assert len(workers) == 2, f"start {start}: only {workers} answered\n{log.read_text()}"
    finally:
        for proc, _, _ in starts:
            proc.send_signal(signal.SIGTERM)
        for proc, _, _ in starts:
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=30)
        for spinner in load:
            spinner.kill()
            spinner.wait()
    for start, (_, _, log) in enumerate(starts):
        text = log.read_text()
        assert "died" not in text and "failed to start" not in text, f"start {start}:\n{text}"
