"""The runnable examples in the network and analytics docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

from weft.server.pages import network_page_html

MODULES = [
    "weft.graph.analytics.communities",
    "weft.graph.analytics.centrality",
    "weft.graph.analytics.components",
    "weft.graph.analytics.structure",
    "weft.graph.nx_bridge",
    "weft.graph.network",
    "weft.graph.network_cache",
    "weft.graph.network_paths",
    "weft.graph.network_institutions",
    "weft.graph.network_scores",
    "weft.server.cli.analysis",
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
