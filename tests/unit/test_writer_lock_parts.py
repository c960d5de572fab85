"""The pure parts of the writer lock (graph/writer_lock.py): the refusal's one line, `--wait` values, the
lease setting, and a lock that stops renewing counting as lost."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from weft.graph.errors import Unavailable, WeftError, WriterBusy, WriterLockLost
from weft.graph.settings import Settings, load_settings
from weft.graph.writer_lock import Holder, WriterLock, busy_message, wait_seconds

HOLDER = Holder("db-host", 4242, "load openalex", "2026-12-07T13:55:01.123456789Z", "2026-12-07T13:56:01.5Z")


def test_the_refusal_is_one_line_naming_host_pid_command_and_times() -> None:
    line = busy_message(HOLDER)
    assert "\n" not in line
    for part in ("db-host", "4242", "`weft load openalex`", "since 2026-12-07T13:55:01Z", "until 2026-12-07T13:56:01Z"):
        assert part in line
    assert "--wait" in line
    assert "(waited 30s)" in busy_message(HOLDER, 30.2)


def test_a_busy_writer_is_an_availability_error_of_the_one_hierarchy() -> None:
    for error in (WriterBusy, WriterLockLost):
        assert issubclass(error, Unavailable) and issubclass(error, WeftError)


@pytest.mark.parametrize(
    ("given", "seconds"), [(None, None), ("", math.inf), ("forever", math.inf), ("0", 0.0), ("90", 90.0), ("2.5", 2.5)]
)
def test_wait_values(given: str | None, seconds: float | None) -> None:
    assert wait_seconds(given) == seconds


@pytest.mark.parametrize("given", ["soon", "-1", "nan", "data/works"])
def test_wait_refuses_what_is_not_seconds(given: str) -> None:
    with pytest.raises(ValueError, match="."):
        wait_seconds(given)


def test_the_lease_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WEFT_WRITER_LEASE", raising=False)
    assert load_settings().writer_lease_s == Settings.writer_lease_s == 60.0
    monkeypatch.setenv("WEFT_WRITER_LEASE", "5")
    assert load_settings().writer_lease_s == 5.0


@pytest.mark.parametrize("bad", ["0", "soon", "nan", "0.5"])
def test_a_bad_lease_is_one_line_naming_the_variable(bad: str) -> None:
    code = "from weft.graph.settings import load_settings; load_settings()"
    env = {"WEFT_WRITER_LEASE": bad, "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [f"WEFT_WRITER_LEASE={bad!r} is not a number of at least 1 (such as 60)"]


def test_a_lock_not_renewed_within_its_lease_counts_as_lost() -> None:
    """No heartbeat got through (the database away, the process stalled) for a whole lease: another writer
    may have taken it over, so the writer stops before its next commit."""
    lock = WriterLock(driver=None, database="neo4j", token="t", lease_s=1.0, holder=HOLDER)  # type: ignore[arg-type]
    lock.check()  # within the lease: fine
    lock._deadline -= 2  # noqa: SLF001 - as if the last renewal were two seconds older than the lease
    with pytest.raises(WriterLockLost, match="lease ran out"):
        lock.check()
    assert lock.lost


def test_docstring_examples() -> None:
    import doctest

    from weft.graph import writer_lock

    failed, attempted = doctest.testmod(writer_lock)
    assert failed == 0 and attempted >= 4


@pytest.mark.parametrize(
    ("argv", "parsed"),
    [
        (["load", "auto", "data", "--wait"], ["load", "auto", "data", "--wait", "forever"]),
        (["load", "auto", "--wait", "data"], ["load", "auto", "--wait", "forever", "data"]),
        (["load", "auto", "--wait", "--quiet", "d"], ["load", "auto", "--wait", "forever", "--quiet", "d"]),
        (["embed", "--wait", "120"], ["embed", "--wait", "120"]),
        (["embed", "--wait=120"], ["embed", "--wait=120"]),
        (["cypher", "--", "--wait"], ["cypher", "--", "--wait"]),
    ],
)
def test_a_bare_wait_gets_its_value_before_typer_parses(argv: list[str], parsed: list[str]) -> None:
    """`--wait [SECONDS]`: Typer options always take a value, so a bare one is given `forever` first."""
    from weft.server.cli.support import with_wait_values

    assert with_wait_values(argv) == parsed
