"""`make demo PORT=…` prints the links of the port it serves on (issue 48: the examples said :8000 whatever
the port), and the README says how to pick it."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from weft.graph.settings import PROJECT_ROOT


def test_make_demo_prints_links_of_its_own_port() -> None:
    make = shutil.which("make")
    if make is None:
        pytest.fail("make is not installed")
    dry = subprocess.run(
        [make, "-n", "--no-print-directory", "demo", "PORT=8123", "HOST=127.0.0.1"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    printing = [line for line in dry.splitlines() if "EXAMPLES.md" in line or line.startswith("echo")]
    assert printing and "weft serve --host 127.0.0.1 --port 8123" in dry, dry
    shown = "".join(
        subprocess.run(line, shell=True, cwd=PROJECT_ROOT, capture_output=True, text=True, check=True).stdout
        for line in printing
    )
    assert "http://127.0.0.1:8123/graphql" in shown and ":8000" not in shown, shown


def test_the_readme_says_how_to_serve_on_another_port() -> None:
    assert "make demo PORT=" in (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
