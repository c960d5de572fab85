"""The search page's facet filters (year, field, institution, country, work type): what a search URL asks for,
its canonical spelling, the facets of the hits it narrows to, and their CSV and JSON exports."""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from weft.graph.reads.facets import Facet, Facets, facets
from weft.graph.reads.papers import PaperFilter, paper_page
from weft.graph.reads.reader import GraphReader
from weft.server.site.charts import Chart, chart_of

FILTERS = ("year", "field", "institution", "country", "work_type")
"""The facet filters a search URL may carry, in the order its canonical spelling lists them."""
SHOWN = {"year": "year", "field": "field", "institution": "institution", "country": "country", "work_type": "type"}
"""Each filter's facet dimension (graph/reads/facets.py)."""
TITLES = {"year": "Year", "field": "Field", "institution": "Institution", "country": "Country", "work_type": "Type"}
GROUPS = 10
"""Groups shown per facet (the year histogram shows every year)."""
MOST_YEARS = 200
_YEARS = re.compile(r"^(\d{4})(?:-(\d{4}))?$")
FORMATS = {"csv": "text/csv; charset=utf-8", "json": "application/json"}


@dataclass(frozen=True)
class Narrowing:
    """The facet filters of one search URL (each None when not set)."""

    year: str | None = None
    field: str | None = None
    institution: str | None = None
    country: str | None = None
    work_type: str | None = None

    @classmethod
    def of(cls, request: Request) -> Narrowing:
        """The filters of the request's query string; a malformed year is ignored, a country upper-cased."""
        raw = {name: (request.query_params.get(name) or "").strip() or None for name in FILTERS}
        if raw["year"] and not _YEARS.match(raw["year"]):
            raw["year"] = None
        if raw["country"]:
            raw["country"] = raw["country"].upper()
        return cls(**raw)

    @property
    def active(self) -> bool:
        return any(getattr(self, name) is not None for name in FILTERS)

    def paper_filter(self, ids: list[str]) -> PaperFilter:
        """The graph's filter: the search hits `ids` narrowed by these filters."""
        year_from = year_to = None
        if self.year and (m := _YEARS.match(self.year)):
            year_from, year_to = int(m.group(1)), int(m.group(2) or m.group(1))
        return PaperFilter(
            ids=ids,
            year_from=year_from,
            year_to=year_to,
            categories=[self.field] if self.field else None,
            institutions=[self.institution] if self.institution else None,
            country=self.country,
            type=self.work_type,
        )

    def params(self) -> dict[str, str]:
        return {name: value for name in FILTERS if (value := getattr(self, name)) is not None}


def search_url(q: str, kind: str, mode: str, narrowing: Narrowing, page_no: int = 1, **change: str | None) -> str:
    """The canonical URL of a search: its parameters in one order, defaults left out, `type=papers` with any
    facet filter; `change` sets (or, with None, drops) facet filters."""
    filters = {**narrowing.params(), **change}
    if any(filters.values()):
        kind = "papers"  # the facet filters narrow papers only
    params: list[tuple[str, str]] = [("q", q)]
    if kind:
        params.append(("type", kind))
    if mode != "both":
        params.append(("mode", mode))
    params += [(name, value) for name in FILTERS if (value := filters.get(name))]
    if page_no > 1:
        params.append(("page", str(page_no)))
    return "/search?" + urlencode(params)


async def narrowed_hits(reader: GraphReader, hits: list[dict[str, Any]], narrowing: Narrowing) -> list[dict[str, Any]]:
    """The hits (papers, best first) that every facet filter keeps."""
    ids = [h["node"]["id"] for h in hits]
    if not narrowing.active or not ids:
        return hits
    kept = await paper_page(reader, narrowing.paper_filter(ids), "NEWEST", None, len(ids), ("id",))
    allowed = {row["id"] for row in kept.rows}
    return [h for h in hits if h["node"]["id"] in allowed]


async def hit_facets(reader: GraphReader, hits: list[dict[str, Any]], narrowing: Narrowing) -> Facets:
    """The facets of the paper hits under the filters: every year, the first GROUPS of the others."""
    where = narrowing.paper_filter([h["node"]["id"] for h in hits])
    found = await facets(reader, where, list(SHOWN.values()), "COUNT", MOST_YEARS)
    cut = [f if f.dimension == "year" else replace(f, groups=f.groups[:GROUPS]) for f in found.facets]
    return Facets(found.total, cut)


def year_histogram(found: Facets | None) -> Chart | None:
    """The bars of the year facet (every year between the first and the last), or None."""
    year = next((f for f in found.facets if f.dimension == "year"), None) if found else None
    if year is None:
        return None
    return chart_of({int(g.key): g.count for g in year.groups if g.key is not None}, "Papers found")


def facet_rows(found: Facets) -> list[dict[str, Any]]:
    """Every group of every facet, the unknown buckets too: dimension, key, name, count, citation_sum."""
    rows: list[dict[str, Any]] = []
    for f in found.facets:
        for g in [*f.groups, f.unknown]:
            rows.append(
                {"dimension": f.dimension, "key": g.key, "name": g.name, "count": g.count, "citation_sum": g.citations}
            )
    return rows


def export(found: Facets, fmt: str, query: dict[str, str]) -> Response:
    """The facets as CSV (one row per group) or JSON (the query, the total, the groups per dimension)."""
    rows = facet_rows(found)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, ["dimension", "key", "name", "count", "citation_sum"], lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        body = out.getvalue()
    else:
        body = json.dumps(
            {
                "query": query,
                "totalCount": found.total,
                "facets": [_json_facet(f) for f in found.facets],
            },
            ensure_ascii=False,
        )
    headers = {"Content-Disposition": f'inline; filename="facets.{fmt}"', "Cache-Control": "public, max-age=60"}
    return Response(body, media_type=FORMATS[fmt], headers=headers)


def _json_facet(f: Facet) -> dict[str, Any]:
    def group(g: Any) -> dict[str, Any]:
        return {"key": g.key, "name": g.name, "count": g.count, "citationSum": g.citations}

    return {
        "dimension": f.dimension,
        "groupCount": f.distinct,
        "groups": [group(g) for g in f.groups],
        "unknown": group(f.unknown),
    }
