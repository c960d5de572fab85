"""Async resolvers that answer at once when nothing has to wait: a DataLoader the root field primed.

Issue 9: after a root field folds its selection into one Cypher query, every nested resolver finds its
value already in a DataLoader. Declared `async`, each still cost graphql-core a coroutine to await, a
wrapper coroutine and a task in the `gather` of its siblings (~40 µs a field, a tenth of a profile's
Python time), only to read a finished future. `eager` runs such a resolver's first step on the spot,
as Python 3.12's eager tasks do: if it finishes there, graphql-core gets a plain value; if it has to
wait (a DataLoader that still has to query), the rest is handed over as an awaitable and runs as before.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine, Generator
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class _Rest:
    """The remainder of a coroutine whose first step already ran and yielded `pending` (a future)."""

    __slots__ = ("_coro", "_pending")

    def __init__(self, coro: Coroutine[Any, Any, Any], pending: Any) -> None:
        self._coro, self._pending = coro, pending

    def __await__(self) -> Generator[Any, Any, Any]:
        coro, pending = self._coro, self._pending
        if hasattr(pending, "_asyncio_future_blocking"):
            pending._asyncio_future_blocking = True  # as the first step left it: the task waits on it
        while True:
            try:
                sent = yield pending  # to the task driving us, exactly as the coroutine yielded it
            except BaseException as exc:  # noqa: BLE001 - thrown in by the task (cancellation): pass it on
                try:
                    pending = coro.throw(exc)
                except StopIteration as done:
                    return done.value
            else:
                try:
                    pending = coro.send(sent)
                except StopIteration as done:
                    return done.value


def eager(resolver: Callable[P, Coroutine[Any, Any, T]]) -> Callable[P, T]:
    """`resolver` (an `async def`) as a plain function returning its value when it completes without
    waiting, else an awaitable of it. Exceptions of the first step are raised as a sync resolver's."""

    @functools.wraps(resolver)
    def run(*args: P.args, **kwargs: P.kwargs) -> Any:
        coro = resolver(*args, **kwargs)
        try:
            pending = coro.send(None)
        except StopIteration as done:
            return done.value
        if hasattr(pending, "_asyncio_future_blocking"):
            # No task has taken the future yet: until one does, other resolvers may await it too (a
            # DataLoader hands every caller of a key the same future), which asyncio refuses while set.
            pending._asyncio_future_blocking = False
        return _Rest(coro, pending)

    return run  # type: ignore[return-value]
