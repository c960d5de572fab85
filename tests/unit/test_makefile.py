"""The Makefile's two front doors: `make demo` installs the runtime only, `make test` adds the extras to the
same venv (issue 48 item 14: the demo had pulled 1.5 GB of test, lint, Spark and storage packages)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from weft.graph.settings import PROJECT_ROOT


def planned(target: str) -> list[str]:
    """The commands `make TARGET` would run from scratch (`make -n -B`: printed, none run)."""
    if shutil.which("make") is None:
        pytest.fail("GNU make is needed (the README's two commands are make targets)")
    done = subprocess.run(
        ["make", "-n", "-B", "-C", str(PROJECT_ROOT), "--no-print-directory", target],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout.splitlines()


def pip_installs(commands: list[str]) -> list[str]:
    """What each `pip install -e` installs: `.` or `.[extras]`."""
    return [m.group(1).strip("'") for c in commands if (m := re.search(r"pip install -q -e (\S+)", c))]


def test_demo_installs_the_runtime_only() -> None:
    commands = planned("demo")
    assert pip_installs(commands) == ["."]
    assert not any("[test" in c or "pyspark" in c for c in commands)
    assert any(c.endswith("weft load openalex demo/data/openalex --embed") for c in commands)


def test_test_upgrades_the_same_venv_with_every_extra() -> None:
    installs = pip_installs(planned("test"))
    assert "." in installs and ".[test,lint,spark,storage]" in installs
    assert installs.index(".") < installs.index(".[test,lint,spark,storage]")
    assert len({c for c in planned("test") if c.endswith("-m venv .venv")}) == 1, "one venv, made once"
