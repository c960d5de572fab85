"""RSS 2.0 feeds (feedgen) of the newest papers: overall, per researcher, per institution, per category; and of
the newest changes syncs made (`/feeds/changes.xml`, from the change log).

Each is the first page of the same paper list the API's `papers(sort: NEWEST)` reads. A feed's channel
links to the entity's HTML page (and to itself as atom:link rel=self); its lastBuildDate is its newest
item's date, so the bytes and the ETag change only when the list does and readers get their 304."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from feedgen.feed import FeedGenerator  # pyright: ignore[reportMissingTypeStubs] - feedgen ships no types
from starlette.requests import Request
from starlette.responses import Response

from weft.graph.reads.changes import ENTITY_LABELS, newest_changes
from weft.graph.reads.institutions import find_institution, institutions_by_ids
from weft.graph.reads.papers import PaperFilter, category_lookups, paper_page, papers_by_ids
from weft.graph.reads.reader import GraphReader
from weft.graph.reads.researchers import find_researcher, researchers_by_ids
from weft.graph.reads.site import category_names
from weft.server.site import urls
from weft.server.site.render import finish, not_found, paper_title, reader_of, site_base

ITEMS = 30
RSS = "application/rss+xml; charset=utf-8"
UNDATED = datetime(1970, 1, 1, tzinfo=UTC)
"""The lastBuildDate of a feed none of whose papers has a date: fixed, where feedgen's default is now."""
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _text(value: Any) -> str:
    """Text XML 1.0 can carry (feedgen's lxml refuses control characters)."""
    return _CONTROL.sub("", str(value or ""))


def published(node: dict[str, Any]) -> datetime | None:
    """The publication date (or 1 January of the year) as a UTC datetime."""
    raw = node.get("publication_date") or (f"{node['year']}-01-01" if node.get("year") else None)
    try:
        return datetime.fromisoformat(raw).replace(tzinfo=UTC) if raw else None
    except ValueError:
        return None


def render(request: Request, title: str, page_path: str, feed_path: str, papers: list[dict[str, Any]]) -> Response:
    """The feed of `papers` for the page at `page_path`."""
    base = site_base(request)
    fg: Any = FeedGenerator()
    fg.title(_text(f"{title} — newest papers on Weft"))
    fg.link(href=base + feed_path, rel="self")
    fg.link(href=base + page_path, rel="alternate")  # the last link is the channel's <link>
    fg.description(_text(f"The newest papers of {title} in the Weft graph."))
    fg.language("en")
    fg.lastBuildDate(max((d for n in papers if (d := published(n)) is not None), default=UNDATED))
    for node in reversed(papers):  # feedgen puts each new entry first
        entry: Any = fg.add_entry()
        link = base + urls.paper_path(node)
        entry.title(_text(node.get("title") or node["id"]))
        entry.link(href=link)
        entry.guid(link, permalink=True)
        entry.description(_text(node.get("abstract") or node.get("title") or node["id"])[:2000])
        if (when := published(node)) is not None:
            entry.pubDate(when)
    return finish(request, fg.rss_str(pretty=False), RSS)


async def _newest(reader: GraphReader, where: PaperFilter) -> list[dict[str, Any]]:
    return (await paper_page(reader, where, "NEWEST", None, ITEMS)).rows


async def all_papers_feed(request: Request) -> Response:
    """GET /feeds/papers.xml: the newest papers in the graph."""
    rows = await _newest(reader_of(request), PaperFilter())
    return render(request, "Weft", "/", "/feeds/papers.xml", rows)


async def researcher_feed(request: Request) -> Response:
    """GET /feeds/researchers/{key}.xml: a researcher's newest papers."""
    reader = reader_of(request)
    node = await find_researcher(reader, request.path_params["key"])
    if node is None:
        return not_found(request, "researcher")
    rows = await _newest(reader, PaperFilter(researcher=node["id"]))
    path = urls.researcher_path(node)
    return render(request, node.get("name") or node["id"], path, f"/feeds/researchers/{node['id']}.xml", rows)


async def institution_feed(request: Request) -> Response:
    """GET /feeds/institutions/{key}.xml: the newest papers stating an institution."""
    reader = reader_of(request)
    node = await find_institution(reader, request.path_params["key"])
    if node is None:
        return not_found(request, "institution")
    rows = await _newest(reader, PaperFilter(institutions=[node["id"]]))
    path = urls.institution_path(node)
    return render(request, node.get("name") or node["id"], path, f"/feeds/institutions/{node['id']}.xml", rows)


async def category_feed(request: Request) -> Response:
    """GET /feeds/categories/{key}.xml: the newest papers in a category (key, id or name)."""
    reader = reader_of(request)
    key = request.path_params["key"]
    ids = (await category_lookups(reader, [key])).get(key) or []
    if not ids:
        return not_found(request, "category")
    rows = await _newest(reader, PaperFilter(categories=ids))
    name = " / ".join(await category_names(reader, ids)) or key
    return render(request, name, "/search?q=" + quote(name), urls.category_feed_path(key), rows)


_CHANGE_WORDS = {"new": "New", "updated": "Updated", "merged": "Merged", "deleted": "Deleted"}
_SECTIONS = {"Paper": "papers", "Researcher": "researchers", "Institution": "institutions"}


async def _current_nodes(reader: GraphReader, changes: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The nodes the changes are about as they are now (a merge's survivor), by internal id, read in one query
    per label."""
    wanted: dict[str, list[str]] = {}
    for c in changes:
        target = c.get("into") if c.get("kind") == "merged" else c.get("id")
        if target and (label := ENTITY_LABELS.get(c.get("entity") or "")):
            wanted.setdefault(label, []).append(target)
    found: dict[str, dict[str, Any]] = {}
    for label, ids in wanted.items():
        by_ids = {"Paper": papers_by_ids, "Researcher": researchers_by_ids, "Institution": institutions_by_ids}[label]
        found.update(await by_ids(reader, list(dict.fromkeys(ids))))
    return found


def _change_item(change: dict[str, Any], nodes: dict[str, dict[str, Any]]) -> tuple[str, str]:
    """A change's item title and site path: the node's page as it is now, else the old page (answering 410)."""
    label = ENTITY_LABELS.get(change.get("entity") or "", "")
    noun = label.lower() or str(change.get("entity") or "record")
    kind = str(change.get("kind") or "")
    node = nodes.get(str(change.get("into") if kind == "merged" else change.get("id")))
    if node is None:
        section = _SECTIONS.get(label)
        key = quote(str(change.get("id") or change.get("source_id") or ""), safe="")
        return (
            f"{_CHANGE_WORDS.get(kind, kind)} {noun}: {change.get('source_id')}",
            f"/{section}/{key}" if section else "/",
        )
    path = {"Paper": urls.paper_path, "Researcher": urls.researcher_path}.get(label, urls.institution_path)(node)
    name = (paper_title(node) if label == "Paper" else node.get("name")) or node["id"]
    if kind == "merged":
        return f"Merged {noun}: {change.get('source_id')} into {name}", path
    return f"{_CHANGE_WORDS.get(kind, kind)} {noun}: {name}", path


async def changes_feed(request: Request) -> Response:
    """GET /feeds/changes.xml: the newest changes syncs made to the graph, newest first, each linking its page."""
    reader = reader_of(request)
    changes = await newest_changes(reader, ITEMS)
    nodes = await _current_nodes(reader, changes)
    base = site_base(request)
    fg: Any = FeedGenerator()
    fg.title("Weft — changes to the graph")
    fg.link(href=base + "/feeds/changes.xml", rel="self")
    fg.link(href=base + "/developers", rel="alternate")
    fg.description("What syncs from the sources added, updated, merged and deleted in the Weft graph, newest first.")
    fg.language("en")
    fg.lastBuildDate(max((c["at"] for c in changes if c.get("at")), default=UNDATED))
    for change in reversed(changes):  # feedgen puts each new entry first
        title, path = _change_item(change, nodes)
        entry: Any = fg.add_entry()
        entry.title(_text(title))
        entry.link(href=base + path)
        entry.guid(f"{base}/feeds/changes.xml#change-{change['seq']}", permalink=False)
        entry.description(_text(f"{title} (change {change['seq']}, from {change.get('source')})"))
        if change.get("at"):
            entry.pubDate(change["at"])
    return finish(request, fg.rss_str(pretty=False), RSS)
