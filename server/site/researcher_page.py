"""GET /researchers/{key}: a researcher's page, read by `researcher_profile` as `researcher(id:)` reads it."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from weft.graph.identity.lookup import parse_researcher_id
from weft.graph.reads.facets import counts_by_year
from weft.graph.reads.identity_links import identity_links
from weft.graph.reads.page import Page
from weft.graph.reads.papers import category_lookups, researcher_paper_pages
from weft.graph.reads.reader import GraphReader
from weft.graph.reads.researchers import CoauthorsPart, PapersPart, Profile, ProfileParts, researcher_profile
from weft.graph.sources import SOURCE_KEYS
from weft.server.site import jsonld, urls
from weft.server.site.charts import trend_context
from weft.server.site.gone import missing
from weft.server.site.identities import SOURCE_NAMES, identities
from weft.server.site.render import count, int_param, moved, not_found, page, pages_of, reader_of

PER_PAGE = 24
FIELDS = ("field", 12)
COAUTHORS = 12
SORTS = {"newest": "NEWEST", "citations": "MOST_CITED"}


def profile_parts(sort: str, page_no: int, category: str | None) -> ProfileParts:
    """Everything the page shows; the paper page is read with it unless a category filters it."""
    papers = None if category else PapersPart(sort, (page_no - 1) * PER_PAGE, PER_PAGE)
    return ProfileParts(
        stats=True,
        positions=True,
        most_cited=True,
        institutions=True,
        same_name=True,
        fields=FIELDS,
        papers=papers,
        coauthors=CoauthorsPart(1, "WEIGHT", 0, COAUTHORS),
    )


async def filtered_papers(reader: GraphReader, rid: str, category: str, sort: str, page_no: int) -> Page:
    """The page of papers in one category, as `papers(category:)` reads it."""
    ids = (await category_lookups(reader, [category])).get(category) or []
    key = (rid, tuple(ids), None, None, sort, (page_no - 1) * PER_PAGE, PER_PAGE)
    return (await researcher_paper_pages(reader, [key])).get(key, Page([], 0))


def works_counts(node: dict[str, Any]) -> list[dict[str, Any]]:
    """Works totals as each source reports them."""
    return [
        {"source": SOURCE_NAMES.get(s, s), "value": int(node[f"works_count_{s}"])}
        for s in SOURCE_KEYS
        if node.get(f"works_count_{s}") is not None
    ]


def description(node: dict[str, Any], stats: dict[str, Any]) -> str:
    """What the researcher's meta description says: who, how many papers and citations, the h-index."""
    papers, cites = count(stats.get("paper_count") or 0, "paper"), count(stats.get("citation_count") or 0, "citation")
    return (
        f"{node.get('name') or node['id']}: {papers}, {cites}, h-index {stats.get('h_index') or 0}; co-authors,"
        " institutions and fields in Weft's graph of OpenAlex, Semantic Scholar and arXiv records."
    )


def context(profile: Profile, papers: Page, sort: str, page_no: int, category: str | None) -> dict[str, Any]:
    node = profile.node
    path = urls.researcher_path(node)
    return {
        "title": node.get("name") or node["id"],
        "canonical": path,
        "description": description(node, profile.stats),
        "og_type": "profile",
        "feed": f"/feeds/researchers/{node['id']}.xml",
        "node": node,
        "stats": profile.stats,
        "positions": profile.positions,
        "fields": profile.fields,
        "most_cited": profile.most_cited,
        "institutions": profile.institutions,
        "same_name": profile.same_name,
        "coauthors": profile.coauthors,
        "papers": papers,
        "works_counts": works_counts(node),
        "identities": identities("Researcher", node),
        "sort": next(k for k, v in SORTS.items() if v == sort),
        "page_no": page_no,
        "pages": pages_of(papers.total, PER_PAGE),
        "category": category,
        "jsonld": jsonld.person(node, profile.institutions),
    }


async def researcher_page(request: Request) -> Response:
    """The researcher for any id form in the path; other spellings 301 to the canonical one."""
    reader = reader_of(request)
    sort = SORTS.get(request.query_params.get("sort", "newest"), "NEWEST")
    page_no = int_param(request, "page")
    category = request.query_params.get("category") or None
    profile = None
    for key in urls.spellings(request.path_params["key"]):
        if (profile := await researcher_profile(reader, key, profile_parts(sort, page_no, category))) is not None:
            break
    if profile is None:
        return await missing(request, "researcher", request.path_params["key"], parse_researcher_id)
    if redirect := moved(request, urls.researcher_path(profile.node)):
        return redirect
    papers = profile.papers
    if category:
        papers = await filtered_papers(reader, profile.node["id"], category, sort, page_no)
    if page_no > pages_of(papers.total, PER_PAGE):
        return not_found(request, "page")
    shown = context(profile, papers, sort, page_no, category)
    shown |= linked_context((await identity_links(reader, [profile.node["id"]]))[profile.node["id"]])
    shown |= trend_context(await counts_by_year(reader, "researcher", [profile.node["id"]]))
    return page(request, "researcher.html", shown)


def linked_context(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The page's "same person" links and "possibly the same person" candidates, each with score and evidence."""
    return {"linked": [r for r in rows if r["linked"]], "maybe": [r for r in rows if not r["linked"]]}
