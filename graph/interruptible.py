"""Running CPU-bound Python (networkx analytics, exports) off the event loop, stopped when its awaiter is.

`asyncio.to_thread` cannot stop its thread: when a request's deadline cancels the await, the thread
keeps computing (a sampled betweenness of 1,000 researchers takes seconds), holding the GIL the other
requests need. `run_interruptible` gives the work a thread of its own and, when the awaiting task is
cancelled, raises `Interrupted` inside that thread (CPython's `PyThreadState_SetAsyncExc`), which
stops pure-Python code at its next bytecode. Work that is in C at that moment stops when it returns
to Python. `Interrupted` is a BaseException, so the `except Exception` of library code lets it through.

Only self-contained work belongs here: it may be stopped anywhere, so it must not leave shared state
half-written (`functools.cached_property` values are set only once computed, which is safe).
"""

from __future__ import annotations

import asyncio
import ctypes
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

THREAD_NAME = "weft-interruptible"


class Interrupted(BaseException):  # noqa: N818 - not an error of the work: the caller stopped waiting
    """Raised inside an interruptible thread when the task awaiting it was cancelled."""


async def run_interruptible(function: Callable[..., T], /, *args: Any) -> T:
    """`function(*args)` in a new thread; its result or exception. If the awaiting task is cancelled
    (a deadline), the thread is interrupted and the cancellation goes on as usual."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()
    lock = threading.Lock()
    finished = False

    def settle(result: Any, error: BaseException | None) -> None:
        if future.done():
            return
        if error is None:
            future.set_result(result)
        else:
            future.set_exception(error)

    def work() -> None:
        nonlocal finished
        result: Any = None
        error: BaseException | None = None
        try:
            try:
                result = function(*args)
            except Exception as exc:  # noqa: BLE001 - handed to the awaiting task
                error = exc
            with lock:
                finished = True
        except Interrupted:
            return  # the awaiting task is gone: nothing to report
        try:
            loop.call_soon_threadsafe(settle, result, error)
        except RuntimeError:  # the loop closed meanwhile
            pass

    thread = threading.Thread(target=work, name=THREAD_NAME, daemon=True)
    thread.start()
    try:
        return await future
    except asyncio.CancelledError:
        with lock:
            if not finished and thread.ident is not None:
                _raise_in(thread.ident, Interrupted)
        raise


def _raise_in(thread_id: int, exception: type[BaseException]) -> None:
    """Raise `exception` in the thread `thread_id` at its next Python bytecode."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), ctypes.py_object(exception))
