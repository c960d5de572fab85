"""The read-only MCP server (official `mcp` SDK): Weft's reads as tools for LLM agents and scripts.

Mounted in the app at `/mcp` (streamable HTTP, stateless JSON; its session manager runs in the app's lifespan,
server/app.py) and run over stdio by `weft mcp`. Every tool calls the graph/ read functions the GraphQL
resolvers call (no Cypher of its own), within the request deadline and the query timeout, with bounded
answers whose URLs are absolute from configuration (WEFT_PUBLIC_URL), never from request headers. Errors come
back as tool errors naming their code (BAD_USER_INPUT, NOT_FOUND, UNAVAILABLE). Nothing here writes:
`cypher_read` runs behind `weft cypher`'s read-only guard (graph/read_only_cypher.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncGenerator, Awaitable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import ToolAnnotations
from neo4j import AsyncDriver
from pydantic import Field

from weft.graph.driver import open_async_driver
from weft.graph.errors import WeftError
from weft.graph.identity.lookup import paper_path, with_words
from weft.graph.network import NetworkParams, researcher_network
from weft.graph.network_paths import collaboration_paths
from weft.graph.read_only_cypher import run_read_async
from weft.graph.reads import facets, institutions, papers, references, researchers, resolve, search
from weft.graph.reads.page import Row
from weft.graph.reads.reader import GraphReader
from weft.graph.reads.search import PaperFilters
from weft.graph.reads.site import site_counts
from weft.graph.settings import Settings
from weft.schema.roots.papers import MAX_GROUPS
from weft.server import mcp_facets
from weft.server.mcp_facets import Dimension, FacetFilter
from weft.server.site.urls import institution_path, researcher_path

T = TypeVar("T")

MAX_SEARCH_HITS = 50
MAX_AUTHORS = 50
MAX_ABSTRACT_CHARS = 4000
MAX_NETWORK_NODES = 300
MAX_CYPHER_ROWS = 500
CYPHER_TIMEOUT_S = 10.0
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


@dataclass
class GraphAccess:
    """What the tools read through: the settings and the async driver (the app's, or one `weft mcp` opens)."""

    settings: Settings
    driver: AsyncDriver | None = None
    owned: bool = field(default=False, repr=False)

    def reader(self) -> GraphReader:
        if self.driver is None:
            raise ToolError("UNAVAILABLE: the server has no database connection yet")
        return GraphReader(self.driver, self.settings.neo4j_database, self.settings.query_timeout_s)

    def url(self, path: str) -> str:
        """An absolute URL from the configured base (WEFT_PUBLIC_URL)."""
        return self.settings.base_url.rstrip("/") + path

    async def run(self, work: Awaitable[T]) -> T:
        """`work` within the request deadline, graph/ errors as tool errors that name their code."""
        try:
            async with asyncio.timeout(self.settings.request_deadline_s):
                return await work
        except TimeoutError as exc:
            raise ToolError(
                f"UNAVAILABLE: took longer than the deadline of {self.settings.request_deadline_s:g} s"
            ) from exc
        except WeftError as exc:
            raise ToolError(f"{exc.code}: {exc}") from exc

    # Node summaries: what every answer says of a paper, researcher or institution, with its canonical URL.
    def paper(self, node: Row) -> dict[str, Any]:
        return {
            "id": node["id"],
            "url": self.url(paper_path(node)),
            "title": node.get("title"),
            "year": node.get("year"),
            "doi": node.get("doi"),
            "arxiv_id": node.get("arxiv_id"),
            "openalex_id": node.get("openalex_id"),
            "cited_by_count": node.get("cited_by_count"),
            "venue": node.get("venue"),
        }

    def researcher(self, node: Row) -> dict[str, Any]:
        return {
            "id": node["id"],
            "url": self.url(researcher_path(node)),
            "name": node.get("name"),
            "orcid": node.get("orcid"),
            "openalex_id": node.get("openalex_id"),
            "s2_id": None if node.get("s2_id") is None else str(node.get("s2_id")),
        }

    def institution(self, node: Row) -> dict[str, Any]:
        return {
            "id": node["id"],
            "url": self.url(institution_path(node)),
            "name": node.get("name"),
            "country": node.get("country"),
            "ror": node.get("ror"),
            "openalex_id": node.get("openalex_id"),
        }

    def facet_group(self, dimension: str, group: facets.Group) -> dict[str, Any]:
        section = mcp_facets.SECTION.get(dimension)
        path = f"/{section}/{with_words(group.key, group.name)}" if section and group.key else None
        return {
            "key": group.key,
            "name": group.name,
            "count": group.count,
            "citation_sum": group.citations,
            "url": self.url(path) if path else None,
        }

    def entity(self, label: str, node: Row) -> dict[str, Any]:
        return {"Paper": self.paper, "Researcher": self.researcher, "Institution": self.institution}[label](node)


Id = Annotated[str, Field(description="Any id form Weft knows: internal id or slug, DOI, arXiv, OpenAlex, ORCID, …")]


def http_app(server: MCPServer[Any]) -> StreamableHTTPASGIApp:
    """The ASGI app answering `/mcp` (stateless, JSON responses). The app's trusted-host middleware checks the
    Host header (WEFT_ALLOWED_HOSTS), so the SDK's own localhost-only check is off. Its session manager must
    run (`server.session_manager.run()`) in the app's lifespan."""
    security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    server.streamable_http_app(stateless_http=True, json_response=True, transport_security=security)
    return StreamableHTTPASGIApp(server.session_manager)


def build_mcp(access: GraphAccess) -> MCPServer[Any]:
    """The MCP server with Weft's read-only tools and resources over `access`."""
    server: MCPServer[Any] = MCPServer(
        name="weft",
        instructions="Read-only tools over Weft's scholarly knowledge graph (papers, researchers, institutions). "
        "Every answer is bounded and gives each node's canonical URL. Ids may be in any form Weft knows.",
        lifespan=_driver_lifespan(access),
        log_level="WARNING",
    )
    _add_tools(server, access)
    _add_resources(server, access)
    return server


def _driver_lifespan(access: GraphAccess):  # noqa: ANN202 - the SDK's lifespan factory type
    """Opens a driver for `weft mcp` (stdio); in the app the app's lifespan sets `access.driver` first."""

    @contextlib.asynccontextmanager
    async def lifespan(_: MCPServer[Any]) -> AsyncGenerator[None]:
        if access.driver is not None:
            yield
            return
        access.driver, access.owned = open_async_driver(access.settings), True
        try:
            yield
        finally:
            await access.driver.close()
            access.driver, access.owned = None, False

    return lifespan


def _add_tools(server: MCPServer[Any], g: GraphAccess) -> None:  # noqa: C901 - one closure per tool
    @server.tool(name="search", annotations=READ_ONLY)
    async def search_graph(
        query: Annotated[str, Field(description="Words to look for (at most 32 words, 500 characters).")],
        mode: Annotated[str, Field(description="HYBRID (default), KEYWORD or SEMANTIC, as GraphQL's `search`.")] = (
            "HYBRID"
        ),
        types: Annotated[
            list[str] | None, Field(description="PAPER, RESEARCHER, INSTITUTION; all when omitted.")
        ] = None,
        category: Annotated[str | None, Field(description="Only papers of this category (id, key or name).")] = None,
        year_from: int | None = None,
        year_to: int | None = None,
        first: Annotated[int, Field(ge=1, le=MAX_SEARCH_HITS, description="How many hits, 1..50.")] = 10,
    ) -> dict[str, Any]:
        """Search papers (title, abstract), researchers and institutions (names), best first, as GraphQL's `search`."""
        if mode not in ("HYBRID", "KEYWORD", "SEMANTIC"):
            raise ToolError("BAD_USER_INPUT: mode must be HYBRID, KEYWORD or SEMANTIC")
        kinds = types or ["PAPER", "RESEARCHER", "INSTITUTION"]
        if any(k not in ("PAPER", "RESEARCHER", "INSTITUTION") for k in kinds):
            raise ToolError("BAD_USER_INPUT: types must be PAPER, RESEARCHER or INSTITUTION")
        categories = None
        if category is not None:
            found = await g.run(papers.category_lookups(g.reader(), [category.strip()]))
            categories = sorted(found.get(category.strip()) or [])
            if not categories:
                raise ToolError(f"BAD_USER_INPUT: no category has the id, key or name {category!r}")
        filters = PaperFilters(year_from, year_to, categories)
        page = await g.run(search.search_page(g.reader(), query, kinds, 0, first, mode=mode, filters=filters))
        label = {"PAPER": "Paper", "RESEARCHER": "Researcher", "INSTITUTION": "Institution"}
        hits = [{"kind": h["kind"], "score": h["score"], **g.entity(label[h["kind"]], h["node"])} for h in page.rows]
        return {"total": page.total, "hits": hits}

    @server.tool(annotations=READ_ONLY)
    async def get_paper(id: Id) -> dict[str, Any]:  # noqa: A002 - the tool's argument name
        """A paper by any id form: its ids, title, year, venue, citations, abstract (cut at 4,000 characters) and
        authors (the first 50)."""
        node = await g.run(papers.find_paper(g.reader(), id))
        if node is None:
            raise ToolError(f"NOT_FOUND: no paper answers to {id!r}")
        authorships = (await g.run(papers.authorships_of(g.reader(), [node["id"]])))[node["id"]]
        abstract: str | None = node.get("abstract")
        return {
            **g.paper(node),
            "s2_id": node.get("s2_id"),
            "abstract": abstract[:MAX_ABSTRACT_CHARS] if abstract else None,
            "author_count": len(authorships),
            "authors": [g.researcher(a["researcher"]) for a in authorships[:MAX_AUTHORS]],
        }

    @server.tool(annotations=READ_ONLY)
    async def get_researcher(id: Id) -> dict[str, Any]:  # noqa: A002
        """A researcher by any id form: ids, name and metrics over the papers in the graph."""
        node = await g.run(researchers.find_researcher(g.reader(), id))
        if node is None:
            raise ToolError(f"NOT_FOUND: no researcher answers to {id!r}")
        stats = (await g.run(researchers.researcher_stats(g.reader(), [node["id"]]))).get(node["id"], {})
        metrics = {k: stats.get(k) for k in ("paper_count", "citation_count", "h_index", "i10_index")}
        return {**g.researcher(node), **metrics}

    @server.tool(annotations=READ_ONLY)
    async def get_institution(id: Id) -> dict[str, Any]:  # noqa: A002
        """An institution by internal id, ROR, OpenAlex id or exact name."""
        node = await g.run(institutions.find_institution(g.reader(), id))
        if node is None:
            raise ToolError(f"NOT_FOUND: no institution answers to {id!r}")
        return {**g.institution(node), "type": node.get("type"), "city": node.get("city")}

    @server.tool(annotations=READ_ONLY)
    async def most_cited(
        first: Annotated[int, Field(ge=1, le=100, description="How many papers, 1..100.")] = 10,
        year_from: int | None = None,
        year_to: int | None = None,
    ) -> dict[str, Any]:
        """The most cited papers of the graph (by citedByCount), optionally within years, as GraphQL's `mostCited`."""
        where = papers.PaperFilter(year_from=year_from, year_to=year_to)
        page = await g.run(papers.paper_page(g.reader(), where, "MOST_CITED", None, first))
        return {"total": page.total, "papers": [g.paper(p) for p in page.rows]}

    @server.tool(name="researcher_network", annotations=READ_ONLY)
    async def researcher_network_tool(
        id: Id,  # noqa: A002
        depth: Annotated[int, Field(ge=1, le=2, description="Hops from the centre, 1..2.")] = 1,
        limit: Annotated[int, Field(ge=1, le=MAX_NETWORK_NODES, description="Researchers kept, 1..300.")] = 50,
        min_weight: Annotated[int, Field(ge=1, description="Fewest shared papers for a tie.")] = 1,
    ) -> dict[str, Any]:
        """A researcher's co-authorship network (bounded by `limit`), as GraphQL's `researcherNetwork`."""
        params = NetworkParams(depth=depth, min_weight=min_weight, limit=limit)
        network = await g.run(researcher_network(g.reader(), id, params))
        if network is None:
            raise ToolError(f"NOT_FOUND: no researcher answers to {id!r}")
        nodes = [
            {**g.researcher({"id": nid, **attrs}), "paper_count": attrs.get("paper_count")}
            for nid, attrs in network.nodes
        ]
        edges = [{"a": a, "b": b, "weight": w} for a, b, w, *_ in network.ties]
        return {
            "centre": network.centre,
            "truncated": network.truncated,
            "total_node_count": network.total_node_count,
            "nodes": nodes,
            "edges": edges,
        }

    @server.tool(annotations=READ_ONLY)
    async def collaboration_path(
        source: Annotated[str, Field(description="One researcher (any id form).")],
        target: Annotated[str, Field(description="The other researcher (any id form).")],
        max_length: Annotated[int, Field(ge=1, le=6, description="Most hops, 1..6.")] = 4,
    ) -> dict[str, Any]:
        """The shortest co-authorship paths between two researchers with the papers behind each hop."""
        result = await g.run(collaboration_paths(g.reader(), source, target, max_length=max_length, max_paths=5))
        if result is None:
            raise ToolError("NOT_FOUND: one of the researchers is unknown")
        paths = [
            {
                "researchers": [g.researcher(n) for n in p["nodes"]],
                # the hop's papers as the path's read has them (id, title, year): get_paper gives the rest
                "hops": [{"weight": h.get("weight"), "papers": _papers_of(h)[:5]} for h in p["hops"]],
            }
            for p in result.paths
        ]
        return {
            "source": g.researcher(dict(result.source)),
            "target": g.researcher(dict(result.target)),
            "paths": paths,
            "reason": result.reason,
        }

    @server.tool(annotations=READ_ONLY)
    async def resolve_ids(
        ids: Annotated[list[str], Field(max_length=resolve.MAX_IDS, description="Up to 500 ids of any form.")],
    ) -> dict[str, Any]:
        """Each id, in input order, with the form it was recognised as and the node it names (or why none), as
        GraphQL's `resolve`."""
        found = await g.run(resolve.resolve_ids(g.reader(), ids))
        return {
            "results": [
                {
                    "input": r.input,
                    "kind": r.kind,
                    "type": r.label.upper() if r.label else None,
                    "status": r.status,
                    "entity": g.entity(r.label, r.node) if r.node is not None and r.label else None,
                }
                for r in found
            ]
        }

    @server.tool(annotations=READ_ONLY)
    async def match_references(
        texts: Annotated[
            list[str], Field(max_length=references.MAX_TEXTS, description="Up to 25 references, any citation style.")
        ],
    ) -> dict[str, Any]:
        """Each free-text reference matched to the paper it cites, with a confidence in [0, 1] and the evidence, or
        to none below the threshold (it abstains: a reference to a work not in the graph, or one that does not
        exist), as GraphQL's `matchReferences`."""
        found = await g.run(references.match_references(g.reader(), texts))
        return {
            "results": [
                {
                    "text": m.text,
                    "paper": g.paper(m.paper) if m.paper is not None else None,
                    "confidence": m.confidence,
                    "evidence": dataclasses.asdict(m.evidence) if m.evidence is not None else None,
                }
                for m in found
            ]
        }

    @server.tool(annotations=READ_ONLY)
    async def cypher_read(
        query: Annotated[str, Field(max_length=5000, description="A read-only Cypher query.")],
        params: Annotated[dict[str, Any] | None, Field(description="Query parameters.")] = None,
        max_rows: Annotated[int, Field(ge=1, le=MAX_CYPHER_ROWS, description="Rows returned at most, 1..500.")] = 100,
    ) -> dict[str, Any]:
        """Ad-hoc Cypher, read-only (the guard of `weft cypher`: planned first and refused unless it only reads; no
        LOAD CSV, administration or procedures but db.labels and the like), with a timeout and a row cap."""
        if g.driver is None:
            raise ToolError("UNAVAILABLE: the server has no database connection yet")
        timeout = min(CYPHER_TIMEOUT_S, g.settings.query_timeout_s)
        db = g.settings.neo4j_database
        columns, rows, truncated = await g.run(run_read_async(g.driver, query, params or {}, db, timeout, max_rows))
        return {"columns": columns, "rows": rows, "truncated": truncated}

    @server.tool(name="facets", annotations=READ_ONLY)
    async def facets_tool(
        by: Annotated[
            list[Dimension], Field(min_length=1, max_length=10, description="The dimensions to group by, 1 to 10.")
        ],
        filter: Annotated[  # noqa: A002 - GraphQL's argument name
            FacetFilter | None, Field(description="Which papers (all when omitted), as GraphQL's PaperFilterInput.")
        ] = None,
        order: Annotated[
            Literal["COUNT", "KEY"], Field(description="COUNT: most papers first; KEY: by key ascending.")
        ] = "COUNT",
        first: Annotated[int, Field(ge=1, le=MAX_GROUPS, description="Groups per dimension, 1..1000.")] = 10,
    ) -> dict[str, Any]:
        """Counts of the papers matching a filter grouped by each dimension in `by`, as GraphQL's `facets`: each
        group's key, name, papers and citation sum (with its canonical URL when it is an institution, researcher
        or category), how many groups there are in all, and the papers with no value (`unknown`)."""
        where = await g.run(mcp_facets.paper_filter(g.reader(), filter or FacetFilter()))
        dimensions = [d.lower() for d in by]
        found = await g.run(facets.facets(g.reader(), where, dimensions, order, first))
        return {
            "total": found.total,
            "facets": [
                {
                    "dimension": f.dimension.upper(),
                    "group_count": f.distinct,
                    "groups": [g.facet_group(f.dimension.upper(), group) for group in f.groups],
                    "unknown": {"count": f.unknown.count, "citation_sum": f.unknown.citations},
                }
                for f in found.facets
            ],
        }

    del search_graph, get_paper, get_researcher, get_institution, most_cited, researcher_network_tool
    del collaboration_path, resolve_ids, match_references, cypher_read, facets_tool


def _papers_of(hop: dict[str, Any]) -> list[Row]:
    """The papers behind one hop of a collaboration path."""
    found: list[Row] = hop.get("papers") or []
    return found


def _add_resources(server: MCPServer[Any], g: GraphAccess) -> None:
    @server.resource("weft://llms.txt", name="llms.txt", mime_type="text/plain")
    async def llms_txt() -> str:
        """What the graph holds and how to read it (the site's /llms.txt)."""
        from weft.server.site.render import templates

        counts = await g.run(site_counts(g.reader()))
        return templates.get_template("llms.txt").render({"counts": counts, "base": g.settings.base_url})

    @server.resource("weft://schema.graphql", name="schema.graphql", mime_type="text/plain")
    def schema_graphql() -> str:
        """The GraphQL schema (SDL)."""
        from weft.schema.root import export_sdl

        return export_sdl()

    del llms_txt, schema_graphql
