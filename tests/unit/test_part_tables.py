"""Each root's table of parts (schema/support/parts.py) names the blocks of its one Cypher statement and the
fields of the graph's parts that ask for them: every block has its part, every part its block."""

from __future__ import annotations

import dataclasses

import pytest

from weft.graph.reads.institutions import InstitutionParts
from weft.graph.reads.papers import PaperParts
from weft.graph.reads.researchers import ProfileParts
from weft.queries import read_institutions, read_papers, read_researchers
from weft.schema.support.parts import Part
from weft.schema.types.institution import INSTITUTION_PAGE
from weft.schema.types.paper import PAPER_PAGE
from weft.schema.types.researcher import PROFILE


def returned_columns(statement: str) -> set[str]:
    """The columns of a statement's last RETURN after its node (`RETURN n {…} AS node, a, b AS c`)."""
    last = statement.strip().splitlines()[-1]
    assert last.startswith("RETURN ") and " AS node, " in last, last
    return {c.split(" AS ")[-1].strip() for c in last.split(" AS node, ", 1)[1].split(",")}


TABLES = [
    ("profile", PROFILE, read_researchers.PROFILE_PARTS, ProfileParts),
    ("paper", PAPER_PAGE, returned_columns(read_papers.PAPER_DETAILS), PaperParts),
    ("institution", INSTITUTION_PAGE, returned_columns(read_institutions.INSTITUTION_DETAILS), InstitutionParts),
]


@pytest.mark.parametrize(("root", "table", "blocks", "parts"), TABLES, ids=[t[0] for t in TABLES])
def test_every_block_has_one_part_and_every_part_a_block(
    root: str, table: tuple[Part, ...], blocks: set[str], parts: type
) -> None:
    names = [p.name for p in table]
    assert len(names) == len(set(names)), root
    assert set(names) == set(blocks), root
    fields = {f.name for f in dataclasses.fields(parts)}
    assert set(names) <= fields, root
