"""`weft import`'s memory for neo4j-admin: sized from available memory (file cache included), or set."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from weft.graph.bulk_import import admin_import_args, configured_off_heap, off_heap_budget
from weft.graph.errors import InvalidInput
from weft.graph.settings import Settings

# /proc/meminfo of this 23.5 GiB machine after a build: 5.1 GiB free, 15 GiB available (file cache)
MEMINFO = "MemTotal:       24683836 kB\nMemFree:         5396912 kB\nMemAvailable:   15728640 kB\nBuffers: 0 kB\n"


def test_the_budget_counts_file_cache_as_available() -> None:
    # 80% of 15 GiB = 12 GiB, less neo4j-admin's own 2 GiB heap
    assert off_heap_budget(MEMINFO) == "10240m"


def test_a_small_machine_still_gets_a_floor_and_no_meminfo_leaves_the_default() -> None:
    assert off_heap_budget("MemTotal: 4000000 kB\nMemAvailable:    1048576 kB\n") == "512m"
    assert off_heap_budget("MemTotal: 4000000 kB\n") is None


@pytest.mark.parametrize("value", ["4g", "4096m", " 12G ", "60%", "100%"])
def test_a_set_size_or_share_is_passed_on(value: str) -> None:
    assert configured_off_heap(dataclasses.replace(Settings(), import_off_heap=value)) == value.strip()


@pytest.mark.parametrize("value", ["lots", "4 g", "0%", "150%", "-1g"])
def test_a_bad_setting_is_refused_with_what_to_give(value: str) -> None:
    with pytest.raises(InvalidInput, match="WEFT_IMPORT_OFF_HEAP=.*give a size"):
        configured_off_heap(dataclasses.replace(Settings(), import_off_heap=value))


def test_unset_means_sized_at_import_time() -> None:
    assert configured_off_heap(Settings()) is None


def test_the_budget_reaches_neo4j_admin() -> None:
    manifest = {"input_type": "parquet", "nodes": [{"labels": "Paper", "files": ["p.parquet"]}], "relationships": []}
    args = admin_import_args(Path("/b"), manifest, "neo4j", Path("/r"), "10240m")  # type: ignore[arg-type]
    assert "--max-off-heap-memory=10240m" in args
    assert args.index("--max-off-heap-memory=10240m") < args.index("--nodes=Paper=/b/p.parquet")
    assert not [a for a in admin_import_args(Path("/b"), manifest, "neo4j", Path("/r")) if "off-heap" in a]  # type: ignore[arg-type]
