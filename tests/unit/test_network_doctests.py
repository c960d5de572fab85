"""The runnable examples in the network and analytics docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

from server.pages import network_page_html

MODULES = [
    "graph.analytics.communities",
    "graph.analytics.centrality",
    "graph.analytics.components",
    "graph.analytics.structure",
    "graph.nx_bridge",
    "graph.network",
    "graph.network_cache",
    "graph.network_paths",
    "graph.network_institutions",
    "graph.network_scores",
    "server.cli_analysis",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0
    assert attempted > 0, f"{name} has no runnable example"


def test_page_escapes_the_id_it_embeds() -> None:
    html = network_page_html('"><script>alert(1)</script>')
    assert "<script>alert(1)" not in html
    assert 'data-researcher-id="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"' in html
