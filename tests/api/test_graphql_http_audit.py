"""The graphql-http package's server audit (npm, v1.23.1) against a live server: every check passes (the
MUSTs, SHOULDs and MAYs, e.g. 400 for an `extensions` of the wrong type), with the response cache off and on
(a cached, a direct and an ordinary answer must all check the request the same way)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.api.conftest import LiveServer
from weft.graph.settings import Settings

AUDIT_DIR = Path(__file__).parent / "audit"


def ensure_node_modules() -> None:
    """`npm ci` from the committed lock file when node_modules is missing."""
    if (AUDIT_DIR / "node_modules" / "graphql-http").exists():
        return
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail("npm is not installed; the graphql-http audit needs node 18+ and npm")
    subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=AUDIT_DIR, check=True, timeout=300)


def audit(url: str) -> list[dict]:
    ensure_node_modules()
    done = subprocess.run(
        ["node", "audit.mjs", url], cwd=AUDIT_DIR, capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(done.stdout)


@pytest.mark.parametrize("response_cache", [False, True], ids=["cache off", "cache on"])
def test_every_check_passes(driver, settings: Settings, response_cache: bool) -> None:
    with LiveServer(settings, response_cache=response_cache) as server:
        results = audit(server.url)
    required = [r for r in results if r["name"].startswith(("MUST", "SHOULD"))]
    assert len(required) >= 30 and len(results) >= 61, f"the audit ran too few checks: {len(results)}"
    extensions = [r for r in results if "{extensions} parameter" in r["name"]]
    assert len(extensions) >= 4, [r["name"] for r in results]
    failed = [r for r in results if r["status"] != "ok"]
    assert failed == [], json.dumps(failed, indent=1)
