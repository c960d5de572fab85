"""The network page: HTML that draws a researcher's network with Cytoscape.js (served locally)."""

from __future__ import annotations

import html
from pathlib import Path
from string import Template

from starlette.requests import Request
from starlette.responses import HTMLResponse

from weft.server.static_files import static_url

TEMPLATES = Path(__file__).resolve().parent / "templates"


def network_page_html(researcher_id: str) -> str:
    """The page for one researcher; the id is HTML-escaped into a data attribute."""
    template = Template((TEMPLATES / "network.html").read_text(encoding="utf-8"))
    return template.substitute(
        researcher_id=html.escape(researcher_id, quote=True),
        network_css=static_url("network.css"),
        cytoscape_js=static_url("vendor/cytoscape.min.js"),
        network_js=static_url("network.js"),
    )


async def network_page(request: Request) -> HTMLResponse:
    """GET /researchers/{id}/network: the page; it fetches the network from /graphql itself."""
    return HTMLResponse(network_page_html(request.path_params["id"]))
