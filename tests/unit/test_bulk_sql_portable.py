"""loaders/bulk/sql.py keeps to SQL that DuckDB and Spark (through SQLGlot) mean the same way."""

from __future__ import annotations

import doctest
import re
from datetime import UTC, datetime
from types import ModuleType

import pytest
import sqlglot
from sqlglot import exp

from weft.loaders.bulk import spark, sql, transform
from weft.loaders.bulk.spark import jvm_memory, spark_ddl, to_spark
from weft.loaders.bulk.transform import edge_sql, node_props_sql, sources_sql

# Property kinds as staging reports them, for the generated parts of the templates (transform.py).
KINDS = {
    "Paper.title": {"str"},
    "Paper.year": {"int"},
    "Paper.versions": {"str[]", "[]"},
    "Paper/source.cited_by_count_openalex": {"int"},
    "AUTHORED.rank": {"int"},
}


def _statements() -> dict[str, str]:
    found = {name: value for name, value in vars(sql).items() if name.isupper() and isinstance(value, str)}
    props = node_props_sql("Paper", KINDS, datetime(2026, 12, 3, tzinfo=UTC))
    found["NODE_PROPS"] = sql.NODE_PROPS.format(
        label="Paper",
        parsed=props.parsed,
        extracts=props.extracts,
        aggregates=props.aggregates,
        keys=props.keys,
        columns=props.columns,
    )
    parsed, extracts, aggregates = edge_sql("AUTHORED", KINDS)
    found["EDGES"] = sql.EDGES.format(
        type="AUTHORED", parsed=parsed, extracts=extracts, aggregates=aggregates, sources=sources_sql()
    )
    found["CLAIM_EDGES"] = sql.CLAIM_EDGES.format(columns='"rank"', qualified='a."rank"')
    return found


STATEMENTS = _statements()


def _parsed(name: str) -> list[exp.Expr]:
    return [s for s in sqlglot.parse(STATEMENTS[name], read="duckdb") if s is not None]


def test_every_statement_is_read() -> None:
    assert {"NODE_PROPS", "EDGES", "CLAIM_EDGES", "KEY_EDGES", "SAME_NAME"} <= set(STATEMENTS)


@pytest.mark.parametrize("name", sorted(STATEMENTS))
def test_statement_is_a_table_or_a_query(name: str) -> None:
    """No UPDATE, DELETE, ALTER or DROP: Spark's file tables have none of them."""
    for statement in _parsed(name):
        assert isinstance(statement, exp.Create | exp.Query), statement.sql("duckdb")[:80]
        if isinstance(statement, exp.Create):
            assert statement.kind == "TABLE" and isinstance(statement.expression, exp.Query)


@pytest.mark.parametrize("name", sorted(STATEMENTS))
def test_lists_are_indexed_by_literals_and_measured_by_array_length(name: str) -> None:
    """SQLGlot shifts `x[1]` to Spark's `x[0]` but not `x[i]`; `len()` becomes Spark's LENGTH, of strings only."""
    for statement in _parsed(name):
        for bracket in statement.find_all(exp.Bracket):
            assert all(isinstance(i, exp.Literal) for i in bracket.expressions), bracket.sql("duckdb")
        assert not re.search(r"\blen\(", STATEMENTS[name], re.IGNORECASE), "use array_length for lists"
        for select in statement.find_all(exp.Select):
            explodes = [e for e in select.expressions if e.find(exp.Explode, exp.Unnest)]
            assert len(explodes) <= 1, "one unnest per SELECT"
        assert "EXCLUDE" not in statement.sql("duckdb").upper()
        to_spark(statement)  # and it transpiles


def test_the_first_key_is_index_zero_on_spark() -> None:
    (statement,) = _parsed("KEY_EDGES")
    assert "keys[0].prop" in to_spark(statement)


def test_duckdb_json_list_types_become_spark_ddl() -> None:
    statement = sqlglot.parse_one("""SELECT from_json(json_extract(p, '$."v"'), '["VARCHAR"]') AS v""", read="duckdb")
    assert to_spark(statement) == """SELECT FROM_JSON(GET_JSON_OBJECT(p, '$.v'), 'array<string>') AS v"""
    unknown = sqlglot.parse_one("""SELECT from_json(p, '["BLOB"]') AS v""", read="duckdb")
    with pytest.raises(ValueError, match="no Spark type"):
        to_spark(unknown)


def test_sizes_and_schemas() -> None:
    assert jvm_memory("4GB") == "4g"
    with pytest.raises(ValueError, match="not a memory size"):
        jvm_memory("lots")
    assert (
        spark_ddl({"keys": "STRUCT(prop VARCHAR, krank INTEGER)[]"}) == "`keys` ARRAY<STRUCT<prop: STRING, krank: INT>>"
    )


@pytest.mark.parametrize("module", [spark, transform], ids=["spark", "transform"])
def test_docstring_examples(module: ModuleType) -> None:
    failed, attempted = doctest.testmod(module)
    assert (failed, attempted > 0) == (0, True)
