"""The graphql-http package's server audit (npm, v1.23.1) against a live server: every MUST and SHOULD passes."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

AUDIT_DIR = Path(__file__).parent / "audit"


def ensure_node_modules() -> None:
    """`npm ci` from the committed lock file when node_modules is missing."""
    if (AUDIT_DIR / "node_modules" / "graphql-http").exists():
        return
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail("npm is not installed; the graphql-http audit needs node 18+ and npm")
    subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=AUDIT_DIR, check=True, timeout=300)


def test_every_must_and_should_passes(driver, live_server) -> None:
    ensure_node_modules()
    done = subprocess.run(
        ["node", "audit.mjs", live_server.url], cwd=AUDIT_DIR, capture_output=True, text=True, timeout=120, check=True
    )
    results = json.loads(done.stdout)
    required = [r for r in results if r["name"].startswith(("MUST", "SHOULD"))]
    assert len(required) >= 30, f"the audit ran too few checks: {len(required)}"
    failed = [r for r in required if r["status"] != "ok"]
    assert failed == [], json.dumps(failed, indent=1)
