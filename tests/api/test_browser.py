"""Neo4j Browser on the local server, in a real headless Chromium (Debian's package, driven by npm
playwright-core): the page loads from the server's HTTP port, connects to its Bolt port (logging in when
NEO4J_PASSWORD is set), runs `MATCH (r:Researcher) RETURN count(r)` and shows the number `weft counts`
prints. The screenshot goes to test-artifacts/neo4j-browser.png."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
from neo4j import Driver
from typer.testing import CliRunner

from tests.conftest import shared_path
from weft.graph import local_server
from weft.graph.local_server import browser_url
from weft.graph.settings import PROJECT_ROOT, Settings
from weft.loaders.run import load_paths
from weft.server.cli import app as cli_app

pytestmark = pytest.mark.browser

WEB = PROJECT_ROOT / "web"
SCRIPT = WEB / "check-neo4j-browser.mjs"
ARTIFACTS = PROJECT_ROOT / "test-artifacts"
QUERY = "MATCH (r:Researcher) RETURN count(r)"


@pytest.fixture(scope="module")
def graph(driver: Driver, settings: Settings) -> Driver:
    """The four visualisation authors' works files (real OpenAlex data; a few seconds to load)."""
    load_paths(
        driver, [shared_path("openalex", "works", "author_works")], source="openalex", database=settings.neo4j_database
    )
    return driver


def counted_researchers() -> int:
    """The Researcher row of `weft counts`."""
    result = CliRunner().invoke(cli_app, ["counts"])
    assert result.exit_code == 0, result.output
    found = re.search(r"│ Researcher\s+│ (\d+)\s+│", result.output)
    assert found, result.output
    return int(found.group(1))


def run_browser(settings: Settings, screenshot: Path) -> dict:
    for needed in (shutil.which("node"), "/usr/bin/chromium", WEB / "node_modules" / "playwright-core"):
        if not needed or not Path(needed).exists():
            pytest.fail(f"missing {needed}: run `npm ci --prefix web` and install Debian's chromium")
    url = browser_url(settings)
    assert url, "the local server's HTTP connector is off (WEFT_NEO4J_HTTP_PORT=0)"
    env = dict(os.environ, NEO4J_USER=settings.neo4j_user, NEO4J_PASSWORD=settings.neo4j_password)
    done = subprocess.run(
        ["node", str(SCRIPT), url, settings.neo4j_uri, QUERY, str(screenshot)],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
        cwd=WEB,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_neo4j_browser_connects_and_counts_what_weft_counts(graph: Driver, settings: Settings) -> None:
    url = browser_url(settings)
    assert url and url.startswith(f"http://{settings.bolt_host}:{settings.http_port}/browser/?")
    page = httpx.get(url, timeout=30)
    assert page.status_code == 200 and "<title>Neo4j Browser</title>" in page.text
    discovery = httpx.get(f"http://{settings.bolt_host}:{settings.http_port}/", timeout=30).json()
    assert discovery["bolt_direct"] == f"bolt://{settings.bolt_host}:{settings.bolt_port}"
    assert discovery["neo4j_version"].startswith("5.26.")

    expected = counted_researchers()
    assert expected > 0
    ARTIFACTS.mkdir(exist_ok=True)
    screenshot = ARTIFACTS / "neo4j-browser.png"
    screenshot.unlink(missing_ok=True)
    report = run_browser(settings, screenshot)

    assert report["pageErrors"] == []
    # issue 48 item 16: the printed URL connects without a form to fill (auth off), and the page asks nothing
    # of any host but this machine (no telemetry, no remote fonts or feeds)
    assert report["connected"] is True
    assert report["external"] == []
    assert any(u.startswith(f"http://{settings.bolt_host}:{settings.http_port}/browser/") for u in report["requests"])
    assert report["title"].endswith("Neo4j Browser")
    frame = report["frame"]
    assert frame["command"] == QUERY
    assert frame["columns"] == ["count(r)"]
    assert frame["rows"] == [[str(expected)]]
    assert screenshot.stat().st_size > 10_000


def test_the_local_config_serves_the_browser_on_loopback_only(tmp_path: Path) -> None:
    settings = Settings(neo4j_uri="bolt://127.0.0.1:7700", neo4j_home=tmp_path)
    instance = local_server.Instance(settings)
    local_server.write_config(instance)
    conf = (instance.conf_dir / "neo4j.conf").read_text().splitlines()
    assert "server.http.listen_address=127.0.0.1:7704" in conf
    assert "server.https.enabled=false" in conf
    assert "client.allow_telemetry=false" in conf
    assert "dbms.security.procedures.unrestricted=gds.*" in conf
    # the connect form comes filled in: this Bolt URL, and no authentication while auth is off
    url = "http://127.0.0.1:7704/browser/?dbms=bolt%3A%2F%2F127.0.0.1%3A7700&preselectAuthMethod=NO_AUTH"
    assert local_server.browser_url(settings) == url
    secured = Settings(neo4j_uri="bolt://127.0.0.1:7700", neo4j_home=tmp_path, neo4j_password="a-long-one")
    assert local_server.browser_url(secured) == url.replace("NO_AUTH", "NATIVE")
    assert "a-long-one" not in (local_server.browser_url(secured) or "")
    # `weft neo4j start` ends its status line with the URL
    assert local_server._browser_note(settings) == f"; Neo4j Browser at {url}"
    off = Settings(neo4j_uri="bolt://127.0.0.1:7700", neo4j_home=tmp_path, neo4j_http_port=0)
    local_server.write_config(local_server.Instance(off))
    assert "server.http.enabled=false" in (instance.conf_dir / "neo4j.conf").read_text().splitlines()
    assert local_server.browser_url(off) is None and local_server._browser_note(off) == ""
