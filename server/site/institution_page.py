"""GET /institutions/{key}: an institution's page, read by `institution_details` as `institution(id:)` reads it."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from weft.graph.identity.lookup import parse_institution_id
from weft.graph.reads.facets import counts_by_year
from weft.graph.reads.institutions import InstitutionParts, RosterPart, institution_details
from weft.server.site import jsonld, urls
from weft.server.site.charts import trend_context
from weft.server.site.gone import missing
from weft.server.site.identities import identities
from weft.server.site.render import count, int_param, moved, not_found, page, pages_of, reader_of

ROSTER = 25
MOST_CITED = 10
COLLABORATORS = 10


async def institution_page(request: Request) -> Response:
    """The institution for any id form or exact name; other spellings 301 to the canonical one."""
    page_no = int_param(request, "page")
    parts = InstitutionParts(
        parents=True,
        children=True,
        roster=RosterPart(None, None, (page_no - 1) * ROSTER, ROSTER),
        most_cited=MOST_CITED,
        collaborators=(0, COLLABORATORS, True),
    )
    details = None
    for key in urls.spellings(request.path_params["key"]):
        if (details := await institution_details(reader_of(request), key, parts)) is not None:
            break
    if details is None:
        return await missing(request, "institution", request.path_params["key"], parse_institution_id)
    node = details.node
    if redirect := moved(request, urls.institution_path(node)):
        return redirect
    if page_no > pages_of(details.roster.total, ROSTER):
        return not_found(request, "page")
    trend = trend_context(await counts_by_year(reader_of(request), "institution", [node["id"]]))
    return page(
        request,
        "institution.html",
        {
            **trend,
            "title": node.get("name") or node["id"],
            "canonical": urls.institution_path(node),
            "description": (
                f"{node.get('name') or node['id']}{' (' + node['country'] + ')' if node.get('country') else ''}:"
                f" {count(details.roster.total, 'researcher')} in Weft's graph, their most cited works and"
                " collaborating institutions."
            ),
            "feed": f"/feeds/institutions/{node['id']}.xml",
            "node": node,
            "details": details,
            "identities": identities("Institution", node),
            "page_no": page_no,
            "pages": pages_of(details.roster.total, ROSTER),
            "jsonld": jsonld.organization(node, details.parents),
        },
    )
