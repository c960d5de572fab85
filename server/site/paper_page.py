"""GET /papers/{rest}: a paper's page, read by `paper_details` as `paper(id:)` reads it."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from weft.graph.identity.lookup import IdKey, parse_paper_id
from weft.graph.reads.papers import CitedByPart, PaperDetails, PaperParts, ReferencesPart, categories_of, paper_details
from weft.server.site import jsonld, urls
from weft.server.site.gone import missing
from weft.server.site.identities import identities
from weft.server.site.render import int_param, moved, not_found, page, pages_of, paper_title, reader_of

PER_PAGE = 20
SHOWN_AUTHORS = 8


def version_info(node: dict[str, Any]) -> dict[str, Any]:
    """The latest version and the first submission date from `versions` (`v1@2007-04-02` strings)."""
    given: list[Any] = node.get("versions") or []
    versions = [str(v).partition("@") for v in given]
    if not versions:
        return {"latest": None, "submitted": None, "count": 0}
    return {"latest": versions[-1][0], "submitted": versions[0][2] or None, "count": len(versions)}


def categories(details: PaperDetails) -> dict[str, list[dict[str, Any]]]:
    """The primary categories and the others (cross-lists), each `{category, primary, score}`."""
    return {
        "primary": [c for c in details.categories if c.get("primary")],
        "other": [c for c in details.categories if not c.get("primary")],
    }


def description(node: dict[str, Any], authorships: list[dict[str, Any]]) -> str:
    """What the paper's meta description says: its abstract, else who wrote it when, and how cited."""
    if node.get("abstract"):
        return str(node["abstract"])
    names = [a["researcher"].get("name") for a in authorships[:3] if a["researcher"].get("name")]
    by = f" by {', '.join(names)}{' et al.' if len(authorships) > 3 else ''}" if names else ""
    year = f" ({node['year']})" if node.get("year") else ""
    return f"{paper_title(node)}{year}{by}; cited by {node.get('cited_by_count') or 0}."


def context(
    details: PaperDetails, citing_categories: dict[str, list[dict[str, Any]]], cited_page: int, refs_page: int
) -> dict[str, Any]:
    node = details.node
    return {
        "title": paper_title(node),
        "canonical": urls.paper_path(node),
        "description": description(node, details.authorships),
        "og_type": "article",
        "node": node,
        "version": version_info(node),
        "categories": categories(details),
        "authors": details.authorships[:SHOWN_AUTHORS],
        "more_authors": details.authorships[SHOWN_AUTHORS:],
        "author_count": len(details.authorships),
        "identities": identities("Paper", node),
        "cited_by": details.cited_by,
        "citing_categories": citing_categories,
        "references": details.references,
        "cited_page": cited_page,
        "cited_pages": pages_of(details.cited_by.total, PER_PAGE),
        "refs_page": refs_page,
        "refs_pages": pages_of(details.references.total, PER_PAGE),
        "jsonld": jsonld.article(node, details.authorships, details.references.rows),
    }


def _paper_keys(raw: str) -> list[IdKey]:
    """The keys a paper page's path names, as the page looks it up."""
    return parse_paper_id(urls.paper_lookup_id(raw))


async def paper_page(request: Request) -> Response:
    """The paper for any id form in the path; other spellings 301 to the canonical one."""
    cited_page, refs_page = int_param(request, "cited"), int_param(request, "refs")
    parts = PaperParts(
        authors=True,
        affiliations=True,
        categories=True,
        cited_by=CitedByPart("MOST_CITED", (cited_page - 1) * PER_PAGE, PER_PAGE),
        references=ReferencesPart((refs_page - 1) * PER_PAGE, PER_PAGE),
    )
    reader, details = reader_of(request), None
    for raw in urls.spellings(request.path_params["rest"]):
        if (details := await paper_details(reader, urls.paper_lookup_id(raw), parts)) is not None:
            break
    if details is None:
        return await missing(request, "paper", request.path_params["rest"], _paper_keys)
    if redirect := moved(request, urls.paper_path(details.node)):
        return redirect
    if cited_page > pages_of(details.cited_by.total, PER_PAGE) or refs_page > pages_of(
        details.references.total, PER_PAGE
    ):
        return not_found(request, "page")
    citing = [p["id"] for p in details.cited_by.rows]
    citing_categories = await categories_of(reader, citing) if citing else {}
    return page(request, "paper.html", context(details, citing_categories, cited_page, refs_page))
