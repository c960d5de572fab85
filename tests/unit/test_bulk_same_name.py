"""The bulk path's same-name step (loaders/bulk/transform.py `same_name`) on a hand-made graph: the
evidence counts papers above the pair-edge limit, which COAUTHORED_WITH leaves out (pure: DuckDB only)."""

from __future__ import annotations

from pathlib import Path

from weft.loaders.bulk import sql
from weft.loaders.bulk.engine import DuckDBEngine
from weft.loaders.bulk.transform import Transform, same_name

MAX_AUTHORS = 2  # p1's three authors make no pairs; p2 and p3 do


def test_same_name_evidence_counts_papers_above_the_pair_limit(tmp_path: Path) -> None:
    engine = DuckDBEngine(tmp_path, "512MB", 1)
    try:
        engine.create_table(
            "props_Researcher",
            {"id": "VARCHAR", "name": "VARCHAR", "name_key": "VARCHAR", "is_person": "BOOLEAN"},
            [
                ["r1", "Ada Lovelace", "lovelace a", True],
                ["r2", "A. Lovelace", "lovelace a", True],
                ["r3", "Anne Lovelace-Smith", "lovelace-smith a", True],
                ["x", "Charles Babbage", "babbage c", True],
            ],
        )
        engine.create_table(
            "props_Paper", {"id": "VARCHAR", "year": "BIGINT"}, [["p1", 2001], ["p2", 2005], ["p3", 2010]]
        )
        authored = [["r1", "p1"], ["r2", "p1"], ["x", "p1"], ["r1", "p2"], ["r2", "p2"], ["r2", "p3"], ["x", "p3"]]
        engine.create_table(
            "edge_AUTHORED",
            {"sid": "VARCHAR", "eid": "VARCHAR", "institution_ids": "VARCHAR[]"},
            [[r, p, ["i1"] if r != "x" else None] for r, p in authored],
        )
        engine.create_table("props_Institution", {"id": "VARCHAR"}, [["i1"]])
        engine.create_table("edge_LISTED_AFFILIATION", {"sid": "VARCHAR", "eid": "VARCHAR", "years": "BIGINT[]"}, [])
        t = Transform(engine, {}, lambda _: None, [])
        t.run(sql.AUTHORSHIPS)
        t.run(sql.COAUTHORED, max_authors=MAX_AUTHORS)
        t.run(sql.AFFILIATED)

        same_name(t, MAX_AUTHORS, 200)

        rows = engine.con.execute(
            "SELECT sid, eid, shared_coauthors, shared_institutions, overlapping_years, evidence "
            "FROM edge_SAME_NAME_AS ORDER BY sid, eid"
        ).fetchall()
    finally:
        engine.close()
    # r1's only co-author (p2) is r2, and x is r2's (p3): none shared. Listed together on p1 (three
    # authors: no pair edge) and p2; both state i1; 2001-2005 within 2001-2010.
    assert rows == [
        (
            "r1",
            "r2",
            0,
            1,
            5,
            [
                "same name key: lovelace a",
                "shared institutions: 1",
                "overlapping years: 5",
                "listed together on 2 paper(s)",
            ],
        )
    ]
