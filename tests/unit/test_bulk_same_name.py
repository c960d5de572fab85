"""The bulk path's same-name step (loaders/bulk/transform.py `same_name`) on a hand-made graph: compatible
people of one name key are linked, from the smaller id, and the link holds nothing more (pure: DuckDB only)."""

from __future__ import annotations

from pathlib import Path

from weft.loaders.bulk.engine import DuckDBEngine
from weft.loaders.bulk.transform import Transform, same_name


def test_compatible_people_of_one_name_key_are_linked_and_nothing_more(tmp_path: Path) -> None:
    engine = DuckDBEngine(tmp_path, "512MB", 1)
    try:
        engine.create_table(
            "props_Researcher",
            {"id": "VARCHAR", "name": "VARCHAR", "name_key": "VARCHAR", "is_person": "BOOLEAN"},
            [
                ["r1", "Ada Lovelace", "lovelace a", True],
                ["r2", "A. Lovelace", "lovelace a", True],
                ["r0", "Anna Lovelace", "lovelace a", True],  # not Ada: incompatible with r1
                ["r4", "Lovelace Society", "lovelace a", False],  # not a person
                ["r3", "Anne Lovelace-Smith", "lovelace-smith a", True],
            ],
        )
        same_name(Transform(engine, {}, lambda _: None, []), 200)
        rows = engine.con.execute("SELECT * FROM edge_SAME_NAME_AS ORDER BY sid, eid").fetchall()
        columns = engine.columns("edge_SAME_NAME_AS")
        crowded = Transform(engine, {}, lambda _: None, [])
        same_name(crowded, 2)  # three people in "lovelace a": too many to link
        crowded_rows = engine.con.execute("SELECT * FROM edge_SAME_NAME_AS").fetchall()
    finally:
        engine.close()
    assert rows == [("r0", "r2"), ("r1", "r2")]
    assert list(columns) == ["sid", "eid"]
    assert crowded_rows == []
