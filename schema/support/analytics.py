"""Which network analytics a query's selection asks for, so a resolver computes them once, off the event loop."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Final

from strawberry.types.nodes import FragmentSpread, InlineFragment, Selection

from weft.graph.network import Analytics

NETWORK_ANALYTICS: Final[Mapping[str, Analytics]] = MappingProxyType(
    {"stats": Analytics.SUMMARY, "networkStats": Analytics.SUMMARY}
)
"""Fields of a network (`CollaborationNetwork`) and the analytics each needs."""

NODE_ANALYTICS: Final[Mapping[str, Analytics]] = MappingProxyType(
    {
        "community": Analytics.COMMUNITIES,
        "centrality": Analytics.PAGERANK,
        "degreeCentrality": Analytics.DEGREE,
        "betweenness": Analytics.BETWEENNESS,
    }
)
"""Fields of a network's nodes (`NetworkMember`, `NetworkNode`) and the analytics each needs."""


def analytics_wanted(selections: Iterable[Selection], in_nodes: bool = False) -> set[Analytics]:
    """The Network analytics a query's selection asks for (fields of `nodes`, `stats`), through fragments."""
    fields = NODE_ANALYTICS if in_nodes else NETWORK_ANALYTICS
    wanted: set[Analytics] = set()
    for selection in selections:
        if isinstance(selection, (FragmentSpread, InlineFragment)):
            wanted |= analytics_wanted(selection.selections, in_nodes)
        else:
            if selection.name in fields:
                wanted.add(fields[selection.name])
            if selection.name == "nodes" and not in_nodes:
                wanted |= analytics_wanted(selection.selections, True)
    return wanted
