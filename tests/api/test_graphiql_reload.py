"""GraphiQL keeps its query in the URL (`/graphql?query=…`); reloading that URL in a real browser (headless
Chromium, its own Accept header) shows GraphiQL with the query again, not the raw JSON answer (issue 48)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from urllib.parse import quote

import pytest

from tests.api.conftest import LiveServer

pytestmark = pytest.mark.browser

QUERY = "{ mostCited(first: 1) { totalCount } }"


def test_a_reloaded_graphiql_link_opens_graphiql_with_its_query(live_server: LiveServer) -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.fail("install Debian's chromium (make chromium)")
    with tempfile.TemporaryDirectory() as profile:
        dom = subprocess.run(
            [
                chromium,
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                f"--user-data-dir={profile}",
                "--virtual-time-budget=10000",  # scripts run until the page is idle (virtual time: no waiting)
                "--dump-dom",
                f"{live_server.url}?query={quote(QUERY)}",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
    assert "graphiql-container" in dom, dom[:2000]  # GraphiQL drew itself
    assert "totalCount" in dom and '"data"' not in dom  # the query in its editor, not the answer as JSON
