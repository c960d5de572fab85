"""Network exports: GraphML, GEXF and Cytoscape.js JSON, all written by networkx's own writers."""

from __future__ import annotations

import io
from typing import Any

import networkx as nx

from weft.graph.network import Network
from weft.graph.nx_bridge import without_nulls

FORMATS = {
    "graphml": "application/graphml+xml",
    "gexf": "application/gexf+xml",
    "json": "application/json",
}


def export_graph(network: Network) -> nx.Graph[str]:
    """The network as a plain graph for writers: node `label`, `name`, `paper_count`, `distance`,
    `community`, `centrality`; edge `weight`, `first_year`, `last_year` (absent values left out)."""
    graph: nx.Graph[str] = nx.Graph(centre=network.centre, kind=network.kind, truncated=network.truncated)
    for node, attrs in network.graph.nodes(data=True):
        graph.add_node(
            node,
            **without_nulls(
                {
                    "label": attrs.get("name") or node,
                    "name": attrs.get("name"),
                    "paper_count": attrs.get("paper_count"),
                    "distance": attrs.get("distance"),
                    "community": network.communities[node],
                    "centrality": network.pagerank[node],
                }
            ),
        )
    for a, b, attrs in network.graph.edges(data=True):
        graph.add_edge(a, b, **without_nulls(attrs))
    return graph


def graphml_bytes(graph: nx.Graph[str]) -> bytes:
    """GraphML (UTF-8) from networkx's writer."""
    buffer = io.BytesIO()
    nx.write_graphml(graph, buffer, encoding="utf-8")  # pyright: ignore[reportUnknownMemberType] - its stub's overload
    return buffer.getvalue()


def gexf_bytes(graph: nx.Graph[str]) -> bytes:
    """GEXF 1.2 (UTF-8), the format Gephi opens, from networkx's writer."""
    buffer = io.BytesIO()
    nx.write_gexf(graph, buffer, encoding="utf-8", version="1.2draft")
    return buffer.getvalue()


def cytoscape_elements(graph: nx.Graph[str]) -> dict[str, Any]:
    """Cytoscape.js JSON (`{data, elements: {nodes, edges}}`) from networkx's cytoscape_data."""
    return nx.cytoscape_data(graph, name="name", ident="id")


def render(network: Network, fmt: str) -> bytes | dict[str, Any]:
    """The network in `fmt` (one of FORMATS): bytes for XML formats, a dict for json."""
    graph = export_graph(network)
    if fmt == "graphml":
        return graphml_bytes(graph)
    if fmt == "gexf":
        return gexf_bytes(graph)
    return cytoscape_elements(graph)
