"""The network page in a real headless Chromium (Debian's package, driven by npm playwright-core):
it loads without console errors, draws as many researchers as the API returns, the minimum-weight
control redraws the filtered network, and a click on a researcher re-centres the drawing on them.
The screenshot goes to test-artifacts/network.png."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from neo4j import Driver

from tests.api.conftest import LiveServer
from tests.conftest import shared_path
from weft.graph.settings import PROJECT_ROOT, Settings
from weft.loaders.run import load_paths

pytestmark = pytest.mark.browser

BUTCHER = "A5032473237"
WEB = PROJECT_ROOT / "web"
SCRIPT = WEB / "check-network-page.mjs"
ARTIFACTS = PROJECT_ROOT / "test-artifacts"
COUNT = """query($id: String!, $minWeight: Int!) {
  researcherNetwork(id: $id, depth: 2, minWeight: $minWeight) { centre nodes { id } edges { source } } }"""


@pytest.fixture(scope="module")
def page_server(driver: Driver, settings: Settings) -> Iterator[LiveServer]:
    """uvicorn on a free port over the four visualisation authors' works files (real OpenAlex data)."""
    from weft.graph.network_cache import NETWORK_CACHE

    load_paths(
        driver, [shared_path("openalex", "works", "author_works")], source="openalex", database=settings.neo4j_database
    )
    NETWORK_CACHE.clear()
    with LiveServer(settings) as server:
        yield server


def run_page(base: str, path: str, screenshot: Path) -> dict:
    for needed in (shutil.which("node"), "/usr/bin/chromium", WEB / "node_modules" / "playwright-core"):
        if not needed or not Path(needed).exists():
            pytest.fail(f"missing {needed}: run `npm ci --prefix web` and install Debian's chromium")
    done = subprocess.run(
        ["node", str(SCRIPT), base + path, str(screenshot)],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
        cwd=WEB,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def api_network(base: str, researcher: str, min_weight: int = 1) -> dict:
    variables = {"id": researcher, "minWeight": min_weight}
    response = httpx.post(f"{base}/graphql", json={"query": COUNT, "variables": variables}, timeout=60)
    return response.json()["data"]["researcherNetwork"]


def test_page_draws_the_api_network_and_click_recentres(page_server: LiveServer) -> None:
    base = f"http://127.0.0.1:{page_server.port}"
    page = httpx.get(f"{base}/researchers/{BUTCHER}/network", timeout=30)
    assert page.status_code == 200 and "/static/vendor/cytoscape.min.js" in page.text
    assert httpx.get(f"{base}/static/vendor/cytoscape.min.js", timeout=30).status_code == 200

    ARTIFACTS.mkdir(exist_ok=True)
    screenshot = ARTIFACTS / "network.png"
    screenshot.unlink(missing_ok=True)
    (ARTIFACTS / "network-recentred.png").unlink(missing_ok=True)
    report = run_page(base, f"/researchers/{BUTCHER}/network?depth=2", screenshot)

    assert report["consoleErrors"] == []
    assert all(url.startswith(base) or url.startswith("data:") for url in report["requests"])
    expected = api_network(base, BUTCHER)
    first = report["first"]
    assert first["centre"] == expected["centre"]
    assert first["drawnNodes"] == first["apiNodeCount"] == len(expected["nodes"]) > 1
    assert first["drawnEdges"] == len(expected["edges"])
    # A dense network: the labels a reader sees overlap nowhere; the centre's is one; the minor ones wait for hover
    labels = first["labels"]
    assert labels["overlaps"] == 0 == labels["covered"] and first["centre"] in labels["shown"]
    assert 1 < len(labels["shown"]) < first["drawnNodes"]

    filtered, heavy = report["filtered"], api_network(base, BUTCHER, min_weight=2)
    assert filtered["drawnNodes"] == filtered["apiNodeCount"] == len(heavy["nodes"]) < len(expected["nodes"])
    assert filtered["drawnEdges"] == len(heavy["edges"])
    assert "minWeight=2" in filtered["path"] and "depth=2" in filtered["path"]

    clicked = report["clicked"]
    assert clicked in {n["id"] for n in heavy["nodes"]} and clicked != heavy["centre"]
    assert "papers" in report["tooltip"]
    second = report["second"]
    recentred = api_network(base, clicked, min_weight=2)
    assert second["centre"] == clicked == recentred["centre"]
    assert second["drawnNodes"] == len(recentred["nodes"])
    assert second["path"].startswith(f"/researchers/{clicked}/network")
    assert screenshot.stat().st_size > 10_000
    assert (ARTIFACTS / "network-recentred.png").stat().st_size > 10_000
