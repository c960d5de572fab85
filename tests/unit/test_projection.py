"""Read statements leave out exactly the properties only the writers keep (queries/projection.py)."""

from __future__ import annotations

import re

from weft.graph.sources import SOURCES
from weft.queries import read_institutions, read_papers, read_researchers
from weft.queries.projection import UNREAD, lean


def test_unread_names_each_source_load_time_and_the_rank_bookkeeping() -> None:
    names = set(re.findall(r"(\w+): null", UNREAD))
    assert names == {f"{source.key}_loaded_at" for source in SOURCES} | {"prop_ranks", "category_ids"}


def test_lean_nulls_them_in_every_projection() -> None:
    assert lean("RETURN n {.*} AS a, [x IN xs | x {.*}] AS b") == (
        f"RETURN n {{.*, {UNREAD}}} AS a, [x IN xs | x {{.*, {UNREAD}}}] AS b"
    )


def test_no_read_statement_projects_every_property() -> None:
    for module in (read_researchers, read_papers, read_institutions):
        for name, value in vars(module).items():
            if name.isupper() and isinstance(value, str):
                assert "{.*}" not in value and "properties(" not in value, f"{module.__name__}.{name}"
