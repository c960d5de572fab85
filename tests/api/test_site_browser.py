"""Every page type of the site in a real headless Chromium (Debian's package, driven by npm
playwright-core, as tests/api/test_page_network.py does): it loads without console errors or failed
requests, asks nothing of the internet, shows the numbers the GraphQL API answers for the same
entity, the search box completes from the API's autocomplete, and axe-core (npm, injected from
web/node_modules) reports no serious or critical accessibility violation on the site's own pages.
GraphiQL at /graphql loads from the vendored files alone. Full-page screenshots go to
test-artifacts/site-<page>.png."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from neo4j import Driver

from tests.api.conftest import LiveServer
from tests.conftest import shared_path
from weft.graph.settings import PROJECT_ROOT, Settings
from weft.loaders.run import load_paths

pytestmark = pytest.mark.browser

BUTCHER = "A5032473237"
BANGOR = "I161548249"
PAPER = "W3188841554"  # arXiv 2108.04680, by Butcher and Ritsos
WEB = PROJECT_ROOT / "web"
SCRIPT = WEB / "check-site-pages.mjs"
ARTIFACTS = PROJECT_ROOT / "test-artifacts"
BLOCKING = {"serious", "critical"}
NUMBERS = """query($r: String!, $p: String!, $i: String!) {
  researcher(id: $r) { canonicalUrl name paperCount hIndex citationCount i10Index
    authorPositions { first middle last matchedPapers } papers { totalCount } }
  paper(id: $p) { title citedByCount authors { position } citedBy { totalCount } references { totalCount } }
  institution(id: $i) { canonicalUrl name roster { totalCount } } }"""


@pytest.fixture(scope="module")
def site(driver: Driver, settings: Settings) -> Iterator[LiveServer]:
    """uvicorn on a free port over the four visualisation authors' works, the single works and the institutions."""
    load_paths(
        driver,
        [
            shared_path("openalex", "works", "author_works"),
            shared_path("openalex", "works", "single"),
            shared_path("openalex", "institutions"),
        ],
        source="openalex",
        database=settings.neo4j_database,
    )
    with LiveServer(settings) as server:
        yield server


def run_pages(base: str, pages: dict[str, str]) -> dict[str, Any]:
    for needed in (shutil.which("node"), "/usr/bin/chromium", WEB / "node_modules" / "playwright-core"):
        if not needed or not Path(needed).exists():
            pytest.fail(f"missing {needed}: run `npm ci --prefix web` and install Debian's chromium")
    if not (WEB / "node_modules" / "axe-core" / "axe.min.js").exists():
        pytest.fail("missing axe-core: run `npm ci --prefix web`")
    ARTIFACTS.mkdir(exist_ok=True)
    for name in pages:
        (ARTIFACTS / f"site-{name}.png").unlink(missing_ok=True)
    done = subprocess.run(
        ["node", str(SCRIPT), base, str(ARTIFACTS), *(f"site-{k}={v}" for k, v in pages.items())],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=WEB,
        env={**os.environ, "AUTOCOMPLETE": "Butch"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    reports = json.loads(done.stdout.strip().splitlines()[-1])
    return {k.removeprefix("site-"): v for k, v in reports.items()}


def api(base: str) -> dict[str, Any]:
    variables = {"r": BUTCHER, "p": PAPER, "i": BANGOR}
    response = httpx.post(f"{base}/graphql", json={"query": NUMBERS, "variables": variables}, timeout=60)
    body = response.json()
    assert "errors" not in body, body
    return body["data"]


def test_every_page_type_in_chromium(site: LiveServer) -> None:
    base = f"http://127.0.0.1:{site.port}"
    data = api(base)
    pages = {
        "home": "/",
        "researcher": f"/researchers/{BUTCHER}",
        "paper": f"/papers/{PAPER}",
        "institution": f"/institutions/{BANGOR}",
        "search": "/search?q=visualisation",
        "developers": "/developers",
        "not-found": "/papers/no-such-paper",
        "network": f"/researchers/{BUTCHER}/network",
        "papers-index": "/papers",
        "graphiql": "/graphql",
    }
    reports = run_pages(base, pages)

    for name, report in reports.items():
        own_status = [e for e in report["consoleErrors"] if e.endswith(f"({base}{pages[name]})")]
        assert report["consoleErrors"] == (own_status if name == "not-found" else []), (name, report["consoleErrors"])
        assert report["failedRequests"] == [] or name == "not-found", (name, report["failedRequests"])
        assert all(u.startswith(base) or u.startswith("data:") for u in report["requests"]), name
        blocking = [v for v in report["violations"] if v["impact"] in BLOCKING]
        assert blocking == [] or name == "graphiql", (name, blocking)  # GraphiQL's own widgets: see below
        assert (ARTIFACTS / f"site-{name}.png").stat().st_size > 5_000, name
    # GraphiQL draws from the vendored files alone (no CDN); axe's findings there are in GraphiQL's own
    # CodeMirror editors (unlabelled textareas, contrast), third-party code this project does not change.
    assert reports["graphiql"]["status"] == 200 and any("graphiql.min.js" in u for u in reports["graphiql"]["requests"])
    assert reports["not-found"]["status"] == 404
    assert reports["not-found"]["failedRequests"] == [f"404 {base}/papers/no-such-paper"]  # only itself
    assert len(reports["not-found"]["consoleErrors"]) == 1  # Chromium logs the page's own 404 status

    researcher, expected = reports["researcher"], data["researcher"]
    assert researcher["status"] == 200 and researcher["path"] == expected["canonicalUrl"]
    assert researcher["h1"] == expected["name"]
    metrics = {k: int(v) for k, v in researcher["metrics"].items()}
    assert {k: metrics[k] for k in ("paperCount", "hIndex", "citationCount", "i10Index")} == {
        k: expected[k] for k in ("paperCount", "hIndex", "citationCount", "i10Index")
    }
    assert {k: metrics[k] for k in expected["authorPositions"]} == expected["authorPositions"]
    assert metrics["papersTotal"] == expected["papers"]["totalCount"]
    # The embedded network fits its frame (nothing cut off at the bottom) and leaves the drawing room
    (frame,) = researcher["frames"]
    assert frame["path"].endswith("/network") and frame["scrollHeight"] <= frame["innerHeight"], frame
    assert frame["cyHeight"] >= 300, frame

    paper, expected = reports["paper"], data["paper"]
    assert paper["h1"] == expected["title"] and paper["path"].startswith("/papers/2108.04680-")
    assert {k: int(v) for k, v in paper["metrics"].items()} == {
        "citedByCount": expected["citedByCount"],
        "citedByTotal": expected["citedBy"]["totalCount"],
        "referencesTotal": expected["references"]["totalCount"],
        "authorCount": len(expected["authors"]),
    }

    institution, expected = reports["institution"], data["institution"]
    assert institution["path"] == expected["canonicalUrl"] and institution["h1"] == expected["name"]
    assert int(institution["metrics"]["rosterTotal"]) == expected["roster"]["totalCount"]
    assert int(reports["search"]["metrics"]["hitsTotal"]) > 0
    completions = httpx.post(f"{base}/graphql", json={"query": '{ autocomplete(prefix: "Butch", first: 8) { label } }'})
    assert reports["search"]["suggestions"] == [s["label"] for s in completions.json()["data"]["autocomplete"]]
    assert "Peter Butcher" in reports["search"]["suggestions"]
