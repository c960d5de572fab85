"""The pages with facet filters and per-year charts in a real headless Chromium (the machinery of
tests/api/test_site_browser.py): they load without console errors, failed requests or Content-Security-Policy
violations, axe-core reports no violation at all on them, and full-page screenshots go to
test-artifacts/site-facets-<page>.png."""

from __future__ import annotations

import pytest

from tests.api.conftest import LiveServer
from tests.api.test_site_browser import ARTIFACTS, BANGOR, BUTCHER, run_pages, site

pytestmark = pytest.mark.browser
__all__ = ["site"]  # the fixture: uvicorn over the visualisation authors' works and the institutions

PAGES = {
    "facets-search": "/search?q=visualisation",
    "facets-narrowed": "/search?q=visualisation&type=papers&country=GB",
    "facets-year": "/search?q=visualisation&type=papers&year=2021",
    "facets-researcher": f"/researchers/{BUTCHER}",
    "facets-institution": f"/institutions/{BANGOR}",
}


def test_facet_and_chart_pages_in_chromium(site: LiveServer) -> None:
    base = f"http://127.0.0.1:{site.port}"
    reports = run_pages(base, PAGES)
    for name, report in reports.items():
        assert report["status"] == 200, name
        assert report["consoleErrors"] == [] and report["failedRequests"] == [], (name, report)
        assert report.get("cspViolations", []) == [], (name, report["cspViolations"])
        assert report["violations"] == [], (name, report["violations"])
        assert (ARTIFACTS / f"site-{name}.png").stat().st_size > 5_000, name
