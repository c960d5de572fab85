"""One writer at a time: a lock held in the database, with a lease and a heartbeat (graph/MODEL.md, "One writer").

Every command that writes (`weft load`, `embed`, `analytics`, `migrate`, `reset`, `import`, `sync`) runs inside
`writer_lock(driver, database, command)`. The lock is a `(:WriterLock {name: 'graph'})` node, not a
transaction's lock, so readers never wait for it: it names its holder (host, pid, command, since when) and
the server time its lease ends. A background thread renews the lease every lease/3 seconds in its own
short transaction; a holder that died stops renewing, and the next writer takes the lock over once the
lease has run out. A second writer is refused at once (`WriterBusy`, naming the holder) or, with `wait`,
polls until the lock is free. Each lock carries a random token: a writer only renews or releases its own,
and each write transaction of the holder checks, before it commits, that the lock is still its own
(`graph/versions.mark_written`): a writer whose lock was taken over stops with `WriterLockLost`.
"""

from __future__ import annotations

import logging
import math
import os
import re
import socket
import threading
import time
import uuid
from collections.abc import Callable, Generator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from neo4j import Driver

from weft.graph.driver import check_connectivity, translated_errors
from weft.graph.errors import WriterBusy, WriterLockLost
from weft.graph.settings import Settings
from weft.queries import writer_lock as q

log = logging.getLogger("weft.writer_lock")

LOCK_NAME = "graph"
"""The one lock of a database (the node's `name`)."""
POLL_S = 2.0
"""How often a waiting writer asks for the lock again."""
SAY_EVERY_S = 30.0
"""How often a waiting writer says again whom it waits for (and at once when the holder changes)."""


def _seconds_only(iso: str | None) -> str:
    """A server time as ISO 8601 to the second: '2026-12-07T13:55:01.123456789Z' -> '2026-12-07T13:55:01Z'.

    >>> _seconds_only("2026-12-07T13:55:01.123456789Z"), _seconds_only(None)
    ('2026-12-07T13:55:01Z', '?')
    """
    return re.sub(r"\.\d+", "", iso) if iso else "?"


@dataclass(frozen=True)
class Holder:
    """Who holds the lock: host, pid, command, since when and until when its lease runs (server times)."""

    host: str
    pid: int
    command: str
    since: str
    expires_at: str

    @classmethod
    def of(cls, row: dict[str, Any]) -> Holder:
        return cls(
            str(row.get("host")), int(row.get("pid") or 0), str(row.get("command")), row["since"], row["expires_at"]
        )

    def describe(self) -> str:
        """One line naming the holder.

        >>> Holder("db1", 42, "load openalex", "2026-12-07T13:55:01.5Z", "2026-12-07T13:56:01.5Z").describe()
        '`weft load openalex` (pid 42 on db1) since 2026-12-07T13:55:01Z, lease until 2026-12-07T13:56:01Z'
        """
        return (
            f"`weft {self.command}` (pid {self.pid} on {self.host}) since {_seconds_only(self.since)}, "
            f"lease until {_seconds_only(self.expires_at)}"
        )


def busy_message(holder: Holder, waited_s: float | None = None) -> str:
    """The one line a refused writer prints.

    >>> busy_message(Holder("db1", 42, "load s2", "2026-12-07T13:55:01Z", "2026-12-07T13:56:01Z"))[:61]
    'another writer holds the graph: `weft load s2` (pid 42 on db1'
    """
    waited = f" (waited {waited_s:.0f}s)" if waited_s is not None else ""
    return (
        f"another writer holds the graph: {holder.describe()}{waited}; run again when it ends, "
        "or add --wait (or --wait SECONDS) to wait for it"
    )


def wait_seconds(text: str | None) -> float | None:
    """A `--wait` value as seconds to wait: None (no --wait: refuse at once), inf (`--wait` alone), or a
    number of seconds; ValueError for anything else.

    >>> wait_seconds(None), wait_seconds(""), wait_seconds("forever"), wait_seconds("90")
    (None, inf, inf, 90.0)
    """
    if text is None:
        return None
    if text.strip().lower() in ("", "forever", "inf"):
        return math.inf
    value = float(text)
    if not value >= 0 or math.isnan(value):
        raise ValueError(f"not a number of seconds: {text!r}")
    return value


_held: WriterLock | None = None
"""The lock this process holds, if any: its write transactions check it (`graph/versions.mark_written`)."""
_held_guard = threading.Lock()


def held() -> WriterLock | None:
    """The writer lock this process holds now (None: none)."""
    return _held


class WriterLock:
    """A lock this process holds: its token, the heartbeat renewing its lease, whether it was lost."""

    def __init__(
        self,
        driver: Driver,
        database: str,
        token: str,
        lease_s: float,
        holder: Holder,
        reopen: Callable[[], Driver] | None = None,
    ) -> None:
        self.driver = driver
        self.reopen = reopen  # a new driver to the same database, for a release the pooled connections fail
        self.database = database
        self.token = token
        self.lease_s = lease_s
        self.holder = holder
        self.lost_reason: str | None = None
        self._deadline = time.monotonic() + lease_s  # past it with no renewal, another writer may take over
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name="weft-writer-lock", daemon=True)

    @property
    def lost(self) -> bool:
        return self.lost_reason is not None

    def check(self) -> None:
        """Raise WriterLockLost once the heartbeat found the lock taken over or could not renew it in time."""
        if self.lost_reason is None and time.monotonic() > self._deadline:
            self.lost_reason = f"its lease ran out at {_seconds_only(self.holder.expires_at)} without a renewal"
        if self.lost_reason is not None:
            raise WriterLockLost(
                f"this writer's lock was lost ({self.lost_reason}); it stopped before writing more: committed "
                "batches stay, and running the same command again converges"
            )

    def mark_lost(self, reason: str) -> None:
        if self.lost_reason is None:
            self.lost_reason = reason

    def renew(self) -> bool:
        """Move the lease on (one short transaction); False when the lock is no longer this writer's."""
        began = time.monotonic()
        with self.driver.session(database=self.database) as session:
            with session.begin_transaction(timeout=max(self.lease_s / 3, 1.0)) as tx:
                row = tx.run(q.RENEW, name=LOCK_NAME, token=self.token, lease_ms=int(self.lease_s * 1000)).single()
                tx.commit()
        if row is None:
            return False
        self._deadline = began + self.lease_s
        self.holder = Holder(self.holder.host, self.holder.pid, self.holder.command, self.holder.since, row[0])
        return True

    def _beat(self) -> None:
        """The heartbeat: renew every lease/3 seconds until stopped or lost."""
        while not self._stop.wait(self.lease_s / 3):
            try:
                if not self.renew():
                    self.mark_lost("another writer took it over")
                    return
            except Exception as exc:  # noqa: BLE001 - the database away for a moment: try again, until the lease ends
                log.debug("writer lock not renewed (%s)", exc)
                if time.monotonic() > self._deadline:
                    self.mark_lost(f"it could not be renewed before its lease ran out ({exc.__class__.__name__})")
                    return

    def start(self) -> None:
        self._thread.start()

    def abandon(self) -> None:
        """Stop the heartbeat without giving the lock back: for a database about to be stopped and replaced
        (`weft import`); elsewhere its lease would end it."""
        self._stop.set()

    def release(self) -> bool:
        """Stop the heartbeat and give the lock back if it is still this writer's; True when it was."""
        self._stop.set()
        if self._thread.is_alive():  # a renewal in flight ends with its token check: never keeps it past this
            self._thread.join(timeout=min(self.lease_s / 3, 5.0))
        try:
            return self._release(self.driver)
        # Anything: after Ctrl-C in the middle of a transaction the driver may hand back a connection left in
        # that transaction, again and again; a driver of its own gets a new one. The lease ends it otherwise.
        except Exception as exc:  # noqa: BLE001
            failure: Exception = exc
        if self.reopen is not None:
            try:
                with self.reopen() as fresh:
                    return self._release(fresh)
            except Exception as exc:  # noqa: BLE001
                failure = exc
        log.warning(
            "the writer lock was not released (%s); it ends with its lease at %s",
            failure,
            _seconds_only(self.holder.expires_at),
        )
        return False

    def _release(self, driver: Driver) -> bool:
        with translated_errors("releasing the writer lock"):
            records, _, _ = driver.execute_query(q.RELEASE, name=LOCK_NAME, token=self.token, database_=self.database)
        return bool(records and records[0]["released"])


def try_acquire(
    driver: Driver, database: str, command: str, token: str, lease_s: float
) -> tuple[bool, Holder, Holder | None]:
    """One attempt (one statement): (acquired, holder now, the expired holder taken over or None)."""
    with translated_errors("taking the writer lock"):
        records, _, _ = driver.execute_query(
            q.ACQUIRE,
            name=LOCK_NAME,
            token=token,
            host=socket.gethostname(),
            pid=os.getpid(),
            command=command,
            lease_ms=int(lease_s * 1000),
            database_=database,
        )
    row = records[0].data()
    stale = Holder.of(row["stale"]) if row.get("stale") else None
    return bool(row["acquired"]), Holder.of(row), stale


def current_holder(driver: Driver, database: str) -> Holder | None:
    """Who holds the lock now, expired or not (None: nobody)."""
    with translated_errors("reading the writer lock"):
        records, _, _ = driver.execute_query(q.HOLDER, name=LOCK_NAME, database_=database, routing_="r")
    return Holder.of(records[0].data()) if records else None


def acquire(
    driver: Driver,
    database: str,
    command: str,
    *,
    wait: float | None = None,
    lease_s: float = Settings.writer_lease_s,
    echo: Callable[[str], object] | None = None,
    reopen: Callable[[], Driver] | None = None,
) -> WriterLock:
    """Take the lock (heartbeat started), waiting up to `wait` seconds (None: not at all) while another
    writer holds it; raises WriterBusy naming the holder when it stays busy. `reopen`, when given, opens a
    new driver to the same database: the release falls back on it."""
    check_connectivity(driver, "taking the writer lock")  # a dead database fails now, not after the retries
    token = uuid.uuid4().hex
    began = time.monotonic()
    said: tuple[Holder | None, float] = (None, 0.0)
    while True:
        acquired, holder, stale = try_acquire(driver, database, command, token, lease_s)
        if acquired:
            if stale is not None and echo is not None:
                echo(f"took over the writer lock of {stale.describe()}: its lease ran out (its holder stopped)")
            lock = WriterLock(driver, database, token, lease_s, holder, reopen)
            lock.start()
            return lock
        waited = time.monotonic() - began
        if wait is None or waited >= wait:
            raise WriterBusy(busy_message(holder, waited if wait else None))
        if echo is not None and (said[0] != holder or time.monotonic() - said[1] >= SAY_EVERY_S):
            until = "" if math.isinf(wait) else f" (for at most {wait - waited:.0f}s more)"
            echo(f"waiting for the writer lock{until}: held by {holder.describe()}")
            said = (holder, time.monotonic())
        time.sleep(min(POLL_S, max(wait - waited, 0.05)))


@contextmanager
def writer_lock(
    driver: Driver,
    database: str,
    command: str,
    *,
    wait: float | None = None,
    lease_s: float = Settings.writer_lease_s,
    echo: Callable[[str], object] | None = None,
    reopen: Callable[[], Driver] | None = None,
) -> Generator[WriterLock, None, None]:
    """Hold the database's writer lock around a command's writes; released on the way out (normal end,
    exception, Ctrl-C), never someone else's. Within a block that holds it already (this process, same
    database), it is the same lock: a command may call another writer's code."""
    global _held
    outer = _held
    if outer is not None and outer.database == database and outer.driver is driver:
        outer.check()
        yield outer
        return
    lock = acquire(driver, database, command, wait=wait, lease_s=lease_s, echo=echo, reopen=reopen)
    with _held_guard:
        _held = lock
    try:
        yield lock
    finally:
        with _held_guard:
            _held = outer
        lock.release()
