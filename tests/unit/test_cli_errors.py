"""The `weft` command line's expected failures are one clear line, never a traceback (issue 48), run as
`python -m weft` (the package's __main__) from a folder outside the checkout, as an installed weft runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import free_port


def weft(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m weft …` with `env` over this process's environment; nothing listens at its Neo4j port."""
    environment = {**os.environ, "NEO4J_URI": f"bolt://127.0.0.1:{free_port()}", **env}
    return subprocess.run(
        [sys.executable, "-m", "weft", *args], cwd=cwd, env=environment, capture_output=True, text=True, timeout=120
    )


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_python_dash_m_weft_runs_the_command_line(tmp_path: Path) -> None:
    done = weft(tmp_path, "--help")
    assert done.returncode == 0, done.stderr
    assert "Usage: weft" in done.stdout and "neo4j" in done.stdout and "serve" in done.stdout


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("WEFT_QUERY_TIMEOUT", "15s"),
        ("WEFT_REQUEST_DEADLINE", "nan"),
        ("WEFT_CONNECT_TIMEOUT", "fast"),
        ("WEFT_WRITE_RETRY", "-1"),
        ("NEO4J_URI", "localhost:7687"),
        ("NEO4J_URI", "http://127.0.0.1:7474"),
        ("NEO4J_URI", "bolt://127.0.0.1:port"),
        ("NEO4J_URI", "bolt://"),
    ],
)
def test_a_bad_setting_is_one_line_naming_the_variable(tmp_path: Path, variable: str, value: str) -> None:
    line = one_line_error(weft(tmp_path, "neo4j", "status", **{variable: value}))
    assert line.startswith(f"{variable}={value!r} "), line


def test_good_settings_of_every_kind_pass(tmp_path: Path) -> None:
    env = {"WEFT_QUERY_TIMEOUT": "2.5", "WEFT_CONNECT_TIMEOUT": "1", "NEO4J_URI": f"neo4j+s://127.0.0.1:{free_port()}"}
    done = weft(tmp_path, "neo4j", "status", **env)
    assert "Traceback" not in done.stderr and "NEO4J_URI" not in done.stderr, done.stderr


def test_a_message_with_brackets_is_printed_as_written(tmp_path: Path) -> None:
    """rich markup: `[/such]` was a closing tag (MarkupError traceback), `[storage]` a style (dropped)."""
    missing = tmp_path / "no[/such]" / "works[1].json"
    line = one_line_error(weft(tmp_path, "load", "openalex", str(missing)))
    assert line == f"error (BAD_USER_INPUT): no such file or folder: {missing}"
    hint = one_line_error(weft(tmp_path, "load", "openalex", "gs://weft-no-such-bucket/works"))
    assert "pip install 'weft[storage]'" in hint, hint
