"""`weft neo4j start` warns when the page cache is far below the store (issue 10)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from weft.graph.local_server import page_cache_warning, size_in_bytes
from weft.graph.settings import load_settings


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("512m", 512 * 2**20),
        ("2g", 2 * 2**30),
        ("1024k", 2**20),
        ("800000", 800_000),
        ("1.5G", 3 * 2**29),
        ("4gb", 2**32),
    ],
)
def test_memory_settings_read_as_neo4j_reads_them(text: str, expected: int) -> None:
    assert size_in_bytes(text) == expected


def test_warns_below_half_the_store_and_names_a_size_that_fits() -> None:
    settings = replace(load_settings(), neo4j_pagecache="512m")
    assert page_cache_warning(settings, store=0) is None  # no local store (a remote server, or nothing loaded)
    assert page_cache_warning(settings, store=2**30) is None  # half the store fits: fine
    warning = page_cache_warning(settings, store=3 * 2**30)
    assert warning is not None
    assert "(512m) holds 16% of the store (3.0 GiB)" in warning
    assert "WEFT_NEO4J_PAGECACHE=4g" in warning  # 3 GiB and a quarter more, rounded up
