"""run_interruptible: results and errors come back; a cancelled await stops the thread's Python work."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from weft.graph.interruptible import THREAD_NAME, run_interruptible

# Bounds for a test that fails: the busy work gives up on its own after this long.
BUSY_LIMIT_S = 60.0


def _threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == THREAD_NAME]


def _busy(progress: list[int]) -> int:
    """Pure-Python work that runs until interrupted (or BUSY_LIMIT_S), counting its rounds."""
    began = time.monotonic()
    while time.monotonic() - began < BUSY_LIMIT_S:
        progress[0] += 1
        sum(i * i for i in range(1000))
    return progress[0]


def _settle(threads: list[threading.Thread], timeout_s: float = 10.0) -> None:
    for thread in threads:
        thread.join(timeout_s)


def test_the_result_and_the_exception_come_back() -> None:
    async def run() -> tuple[int, str]:
        value = await run_interruptible(sum, [1, 2, 3])
        try:
            await run_interruptible(int, "x")
        except ValueError as exc:
            return value, str(exc)
        return value, ""

    assert asyncio.run(run()) == (6, "invalid literal for int() with base 10: 'x'")


def test_a_deadline_stops_the_work_in_its_thread() -> None:
    progress = [0]

    async def run() -> None:
        async with asyncio.timeout(0.3):
            await run_interruptible(_busy, progress)

    with pytest.raises(TimeoutError):
        asyncio.run(run())
    _settle(_threads())
    assert not _threads()  # the thread ended well before the work's own 60 s
    stopped_at = progress[0]
    time.sleep(0.2)
    assert progress[0] == stopped_at > 0  # it had started, and it does no more


def test_an_unstopped_thread_is_what_to_thread_would_leave() -> None:
    """The contrast that makes the test above meaningful: asyncio.to_thread keeps computing."""
    progress = [0]
    stop = threading.Event()

    def busy_until_stopped() -> None:
        while not stop.is_set():
            progress[0] += 1
            sum(i * i for i in range(1000))

    async def run() -> None:
        async with asyncio.timeout(0.3):
            await asyncio.to_thread(busy_until_stopped)

    loop = asyncio.new_event_loop()
    try:
        with pytest.raises(TimeoutError):
            loop.run_until_complete(run())
        before = progress[0]
        time.sleep(0.2)
        assert progress[0] > before  # still computing after the deadline
    finally:
        stop.set()
        loop.run_until_complete(loop.shutdown_default_executor())
        loop.close()
