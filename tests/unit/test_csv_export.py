"""The bulk path's pure parts: CSV typing and quoting, the manifest, the neo4j-admin arguments."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from itertools import combinations
from pathlib import Path

import pytest

from tests.conftest import shared_path
from weft.graph.bulk_import import admin_import_args, failure_summary, read_manifest
from weft.graph.errors import InvalidInput
from weft.loaders.csv_derived import coauthor_pairs, overlap_years
from weft.loaders.csv_export import MemoryGraph
from weft.loaders.csv_files import (
    ARRAY_DELIMITER,
    GraphBuffer,
    column_type,
    format_field,
    write_import_csv,
)


def test_column_types_follow_the_values() -> None:
    assert column_type("Paper", "year", [2001, None, 2020]) == "long"
    assert column_type("Paper", "score", [1, 0.5]) == "double"
    assert column_type("Paper", "flag", [True, False]) == "boolean"
    assert column_type("Paper", "title", ["a", None]) == "string"
    assert column_type("Paper", "versions", [["v1@2007-04-02"], []]) == "string[]"
    assert column_type("Researcher", "years", [[2001, 2002], None]) == "long[]"
    assert column_type("Paper", "nothing", [None, None]) == "string"


def test_mixed_column_types_are_refused() -> None:
    with pytest.raises(ValueError, match="Paper.odd"):
        column_type("Paper", "odd", ["a", 1])
    with pytest.raises(ValueError, match="lists and single values"):
        column_type("Paper", "odd", ["a", ["b"]])


def test_fields_quote_strings_and_leave_nulls_empty() -> None:
    assert format_field(None) == ""
    assert format_field("") == '""'
    assert format_field('say "hi", then\nleave') == '"say ""hi"", then\nleave"'
    assert format_field(True) == "true"
    assert format_field(7) == "7"
    assert format_field(0.25) == "0.25"
    assert format_field(["a;b", "c"]) == f'"a;b{ARRAY_DELIMITER}c"'
    assert format_field([2001, 2002]) == f'"2001{ARRAY_DELIMITER}2002"'
    with pytest.raises(ValueError, match="delimiter"):
        format_field([f"x{ARRAY_DELIMITER}y"])


def test_export_folder_has_typed_headers_and_a_manifest(tmp_path: Path) -> None:
    buffer = GraphBuffer()
    buffer.put_node("Paper", {"id": "p1", "title": "Two\nlines", "year": 2001})
    buffer.put_node("Paper", {"id": "p2", "title": "One", "versions": ["v1@2007-04-02"]})
    buffer.put_node("Ref", {"key": "openalex:W9"})
    buffer.put_node("Researcher", {"id": "r1", "name": "A"})
    buffer.put_relationship("AUTHORED", ("Researcher", "r1"), ("Paper", "p1"), {"rank": 0})
    buffer.put_relationship("REFERENCES", ("Paper", "p1"), ("Ref", "openalex:W9"), {})
    manifest = write_import_csv(buffer, tmp_path)

    assert (tmp_path / "nodes_Paper.header.csv").read_text() == (
        "id:ID(Paper),title:string,versions:string[],year:long\n"
    )
    assert (tmp_path / "nodes_Ref.header.csv").read_text() == "key:ID(Ref)\n"
    assert (tmp_path / "rels_AUTHORED_Researcher_Paper.header.csv").read_text() == (
        ":START_ID(Researcher),:END_ID(Paper),rank:long\n"
    )
    assert (tmp_path / "nodes_Paper.csv").read_text() == ('"p1","Two\nlines",,2001\n"p2","One","v1@2007-04-02",\n')
    assert manifest["multiline_files"] == ["nodes_Paper.csv"]
    assert manifest["counts"] == {"AUTHORED": 1, "Paper": 2, "REFERENCES": 1, "Ref": 1, "Researcher": 1}
    assert read_manifest(tmp_path) == json.loads((tmp_path / "manifest.json").read_text())


def test_admin_arguments_put_the_database_first(tmp_path: Path) -> None:
    manifest = {
        "nodes": [{"labels": "Paper", "files": ["nodes_Paper.header.csv", "nodes_Paper.csv"]}],
        "relationships": [{"type": "CITES", "files": ["r.header.csv", "r.csv"]}],
        "multiline_files": ["nodes_Paper.csv"],
        "array_delimiter": "U+001F",
    }
    args = admin_import_args(tmp_path, manifest, "neo4j", tmp_path / "report")
    assert args[:4] == ["database", "import", "full", "neo4j"]
    assert "--overwrite-destination=true" in args
    assert "--array-delimiter=U+001F" in args
    assert "--multiline-fields=true" in args
    assert f"--nodes=Paper={tmp_path / 'nodes_Paper.header.csv'},{tmp_path / 'nodes_Paper.csv'}" in args
    assert args[-1] == f"--relationships=CITES={tmp_path / 'r.header.csv'},{tmp_path / 'r.csv'}"


def test_manifest_problems_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="no manifest.json"):
        read_manifest(tmp_path)
    (tmp_path / "manifest.json").write_text(
        '{"nodes": [{"labels": "Paper", "files": ["gone.csv"]}], "relationships": []}'
    )
    with pytest.raises(InvalidInput, match="gone.csv"):
        read_manifest(tmp_path)
    (tmp_path / "manifest.json").write_text("[1, 2]")
    with pytest.raises(InvalidInput, match="not a weft export manifest"):
        read_manifest(tmp_path)


def test_failure_summary_keeps_causes_and_drops_stack_frames() -> None:
    output = (
        "IMPORT FAILED in 80ms.\n"
        "org.neo4j.cli.CommandFailedException: Error importing csv file.\n"
        "\tat org.neo4j.importer.ImportCommand.doExecute(ImportCommand.java:560)\n"
        "Caused by: java.io.IOException: Is a directory\n"
        "\t... 13 more\n"
    )
    summary = failure_summary(output)
    assert "Caused by: java.io.IOException: Is a directory" in summary
    assert "IMPORT FAILED in 80ms." in summary
    assert "ImportCommand.java" not in summary


def test_coauthor_pairs_count_shared_papers_and_span_years() -> None:
    pairs = coauthor_pairs(
        {"p1": ["r2", "r1", "r3"], "p2": ["r1", "r2"], "p3": ["r2", "r1"]}, {"p1": 2001, "p2": None, "p3": 2010}
    )
    assert pairs == {("r1", "r2"): (3, 2001, 2010), ("r1", "r3"): (1, 2001, 2001), ("r2", "r3"): (1, 2001, 2001)}


def test_overlapping_years_follow_the_cypher_null_rules() -> None:
    assert overlap_years((2000, 2010), (2005, 2020)) == 6
    assert overlap_years((2000, 2003), (2005, 2020)) == 0
    assert overlap_years((None, None), (2005, 2020)) == 0  # no years known: no evidence of overlap
    assert overlap_years((None, None), (None, None)) == 0
    assert overlap_years((2005, 2005), (2005, 2005)) == 1


def _works_file() -> Path:
    return shared_path("openalex", "works", "author_works", "academic_explorer_author_A5017572309_works.json")


def _graph(records: list[dict]) -> GraphBuffer:
    from weft.loaders.openalex import build_rows

    graph = MemoryGraph()
    for record in records:
        graph.apply_record(build_rows(record))
    return graph.to_buffer(datetime(2026, 1, 1, tzinfo=UTC))


def test_memory_graph_counts_match_the_raw_works() -> None:
    works = json.loads(_works_file().read_text())
    buffer = _graph(works)
    counts = buffer.counts()
    authors = {a["author"]["id"] for w in works for a in w["authorships"]}
    pairs = {p for w in works for p in combinations(sorted({a["author"]["id"] for a in w["authorships"]}), 2)}
    refs = {r for w in works for r in w["referenced_works"]}
    assert counts["Paper"] == len({w["id"] for w in works})
    assert counts["Researcher"] == len(authors)
    assert counts["AUTHORED"] == sum(len({a["author"]["id"] for a in w["authorships"]}) for w in works)
    assert counts["COAUTHORED_WITH"] == len(pairs)
    assert counts["Ref"] == len(refs)
    assert counts["REFERENCES"] == sum(len(set(w["referenced_works"])) for w in works)


def test_memory_graph_is_idempotent_and_order_independent() -> None:
    works = json.loads(_works_file().read_text())

    def snapshot(buffer: GraphBuffer) -> tuple:
        nodes = {label: sorted(str(sorted(n.items())) for n in ns.values()) for label, ns in buffer.nodes.items()}
        rels = {
            k: sorted((a, b, str(sorted(p.items()))) for (a, b), p in v.items())
            for k, v in buffer.relationships.items()
        }
        return nodes, rels

    once = snapshot(_graph(works))
    assert snapshot(_graph(works + works)) == once
    assert snapshot(_graph(list(reversed(works)))) == once
