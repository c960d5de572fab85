"""The bulk transform on Apache Spark: loaders/bulk/sql.py transpiled by SQLGlot from DuckDB's dialect.

Every `CREATE OR REPLACE TABLE name AS SELECT …` becomes a Spark SQL query computed once and
registered as the temporary view `name` (checkpointed on a local master, written as Parquet under the
work directory on a cluster), so each step reads finished tables, as it does in DuckDB. `master` is
any Spark master (`local[2]`, `spark://…`, `yarn`); on a cluster the input, work and output
directories must be on storage every executor reaches.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import duckdb
import sqlglot
from sqlglot import exp

from weft.loaders.bulk.engine import R, T, sql_names_compatible

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

# DuckDB's JSON structure strings (from_json's second argument) -> Spark's DDL types.
_JSON_TYPES = {'["VARCHAR"]': "array<string>", '["BIGINT"]': "array<bigint>", '["DOUBLE"]': "array<double>"}


def json_structure_ddl(structure: str) -> str:
    """A DuckDB from_json structure string as Spark's DDL type: a list type, or a struct's fields
    (`{"year": "BIGINT", "names": ["VARCHAR"]}`) as a schema string (pure).

    >>> json_structure_ddl('{"year": "BIGINT", "names": ["VARCHAR"]}')
    '`year` BIGINT, `names` ARRAY<STRING>'
    """
    if structure in _JSON_TYPES:
        return _JSON_TYPES[structure]
    fields: object = json.loads(structure) if structure.startswith("{") else None
    if not isinstance(fields, dict):
        raise ValueError(f"no Spark type for from_json structure {structure}")
    columns: dict[str, str] = {}
    for name, kind in cast("dict[str, object]", fields).items():
        if isinstance(kind, str):
            columns[name] = kind
        elif isinstance(kind, list) and len(kind) == 1 and isinstance(kind[0], str):  # pyright: ignore[reportUnknownArgumentType]
            columns[name] = f"{kind[0]}[]"
        else:
            raise ValueError(f"no Spark type for from_json structure {structure}")
    return spark_ddl(columns)


def _spark_types(node: exp.Expr) -> exp.Expr:
    if isinstance(node, exp.FromJson) and isinstance(node.expression, exp.Literal):
        spark_type = json_structure_ddl(node.expression.this)
        return exp.FromJson(this=node.this, expression=exp.Literal.string(spark_type))
    return node


def to_spark(statement: exp.Expr) -> str:
    """One parsed DuckDB statement as Spark SQL (pure).

    >>> to_spark(sqlglot.parse_one("SELECT len(x), array_length(k), k[1] FROM t", read="duckdb"))
    'SELECT LENGTH(x), SIZE(k), k[0] FROM t'
    """
    return statement.transform(_spark_types).sql(dialect="spark")


def statements(text: str) -> list[exp.Expr]:
    """The statements of a `;`-separated DuckDB text (pure)."""
    return [s for s in sqlglot.parse(text, read="duckdb") if s is not None]


def _table_name(create: exp.Create) -> str:
    target = create.this
    table = target.this if isinstance(target, exp.Schema) else target
    if not isinstance(table, exp.Table):
        raise ValueError(f"cannot tell the table created by {create.sql('duckdb')[:80]}")
    return table.name


def jvm_memory(size: str) -> str:
    """A DuckDB-style size (`2GB`, `512MiB`) as a JVM one (`2g`, `512m`) (pure).

    >>> jvm_memory("2GB"), jvm_memory("512 MiB"), jvm_memory("3g")
    ('2g', '512m', '3g')
    """
    match = re.fullmatch(r"\s*(\d+)\s*([kmgt])i?b?\s*", size.lower())
    if match is None:
        raise ValueError(f"not a memory size: {size!r}")
    return f"{match.group(1)}{match.group(2)}"


def spark_type(kind: str) -> str:
    """A DuckDB type as Spark's (pure).

    >>> spark_type("VARCHAR[]")
    'ARRAY<STRING>'
    """
    return exp.DataType.build(kind, dialect="duckdb").sql(dialect="spark")


def spark_ddl(columns: dict[str, str]) -> str:
    """`{column: DuckDB type}` as a Spark DDL schema string (pure).

    >>> spark_ddl({"id": "VARCHAR", "n": "BIGINT", "names": "VARCHAR[]"})
    '`id` STRING, `n` BIGINT, `names` ARRAY<STRING>'
    """
    return ", ".join(f"`{column}` {spark_type(kind)}" for column, kind in columns.items())


def _has_integer_lists(frame: DataFrame) -> bool:
    from pyspark.sql.types import ArrayType, IntegralType

    return any(
        isinstance(f.dataType, ArrayType) and isinstance(f.dataType.elementType, IntegralType)
        for f in frame.schema.fields
    )


def _annotate_integers(files: list[Path]) -> None:
    """Rewrite Spark's part files through DuckDB, which marks 64-bit integers as such (INT_64).

    Spark writes a bigint as a bare INT64; neo4j-admin's Parquet reader takes that as a scalar but
    turns a list of them into a Java list and refuses it as a property value ("[[2010, 2011]:
    java.util.ArrayList] is not a supported property value"). Found importing a Spark build.
    """
    con = duckdb.connect()
    for file in files:
        annotated = file.with_name(f".{file.name}")
        con.read_parquet(str(file)).write_parquet(str(annotated), compression="zstd")
        annotated.replace(file)
    con.close()


class SparkEngine:
    """A Spark session (local or a cluster's) whose tables are Parquet folders under `work_dir`."""

    name = "spark"

    def __init__(self, work_dir: Path, master: str, memory: str, partitions: int) -> None:
        from pyspark.sql import SparkSession
        from pyspark.sql.types import BooleanType

        # Python workers (staging, the names_compatible UDF) run this interpreter unless told otherwise.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        self.work = work_dir / "spark"
        shutil.rmtree(self.work, ignore_errors=True)
        self.work.mkdir(parents=True)
        builder: Any = SparkSession.builder  # pyright: ignore[reportUnknownMemberType]
        with warnings.catch_warnings():  # a FutureWarning about pandas 3: the transform uses no pandas
            warnings.simplefilter("ignore", FutureWarning)
            self.spark: SparkSession = self._session(builder, master, memory, partitions)
        self.spark.sparkContext.setLogLevel("ERROR")
        self.spark.udf.register("names_compatible", sql_names_compatible, BooleanType())
        self._versions: dict[str, int] = {}
        self._held: dict[str, DataFrame] = {}
        self.local = master.startswith("local")

    def _session(self, builder: Any, master: str, memory: str, partitions: int) -> SparkSession:
        return (
            builder.master(master)
            .appName("weft-build")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.driver.memory", jvm_memory(memory))
            .config("spark.local.dir", str(self.work / "local"))
            .config("spark.sql.warehouse.dir", str(self.work / "warehouse"))
            .config("spark.sql.shuffle.partitions", str(partitions))
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
            .config("spark.sql.parquet.compression.codec", "zstd")
            .config("spark.sql.sources.partitionOverwriteMode", "static")
            .config("spark.log.level", "ERROR")
            .getOrCreate()
        )

    def _folder(self, name: str) -> Path:
        return self.work / "tables" / f"{name.lower()}.{self._versions.get(name.lower(), 0)}"

    def _materialise(self, name: str, frame: DataFrame) -> None:
        """Compute a result once as table `name`: checkpointed in the block manager (memory, spilling to
        disk) on a local master, written as the next Parquet version of the table on a cluster (where
        an executor lost must not lose a table)."""
        if self.local:
            held = frame.localCheckpoint(eager=True)
            previous = self._held.pop(name.lower(), None)
            held.createOrReplaceTempView(name)
            self._held[name.lower()] = held
            if previous is not None:
                previous.unpersist()
            return
        old = self._folder(name) if name.lower() in self._versions else None
        self._versions[name.lower()] = self._versions.get(name.lower(), 0) + 1
        folder = self._folder(name)
        frame.write.mode("overwrite").parquet(str(folder))
        self.spark.read.parquet(str(folder)).createOrReplaceTempView(name)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)

    def _sql(self, statement: exp.Expr, params: dict[str, Any]) -> DataFrame:
        return self.spark.sql(to_spark(statement), args=params or None)

    def run(self, statement: str, **params: Any) -> None:
        for parsed in statements(statement):
            if isinstance(parsed, exp.Create) and parsed.kind == "TABLE":
                name = _table_name(parsed)
                query = parsed.expression
                if query is None:
                    columns = {c.name: c.args["kind"].sql("duckdb") for c in parsed.this.expressions}
                    self.create_table(name, columns, [])
                else:
                    self._materialise(name, self._sql(query, params))
            elif isinstance(parsed, exp.Query):
                self._sql(parsed, params).collect()
            else:
                text = parsed.sql("duckdb")[:80]
                raise ValueError(f"the Spark engine runs CREATE TABLE … AS and queries only: {text}")

    def scalar(self, statement: str) -> Any:
        (parsed,) = statements(statement)
        row = self._sql(parsed, {}).first()
        return None if row is None else row[0]

    def stream(self, statement: str) -> Iterator[dict[str, Any]]:
        (parsed,) = statements(statement)
        for row in self._sql(parsed, {}).toLocalIterator():
            yield row.asDict()

    def create_table(self, name: str, columns: dict[str, str], rows: Sequence[Sequence[Any]]) -> None:
        frame = self.spark.createDataFrame([tuple(r) for r in rows], schema=spark_ddl(columns))  # pyright: ignore[reportUnknownMemberType] (pandas overloads)
        self._materialise(name, frame)

    def load_parquet(self, name: str, files: Sequence[str], columns: dict[str, str], row_id: str | None = None) -> None:
        from pyspark.sql import functions

        if not files:
            self.create_table(name, {row_id: "BIGINT", **columns} if row_id else columns, [])
            return
        frame = self.spark.read.parquet(*files)
        if row_id:
            frame = frame.select(functions.monotonically_increasing_id().alias(row_id), "*")
        self._materialise(name, frame)

    def attach_parquet(self, name: str, files: Sequence[str], columns: dict[str, str]) -> None:
        """Loaded as any staged Parquet: Spark's tables are the files' cached frames."""
        self.load_parquet(name, files, columns)

    def load_csv(self, name: str, files: Sequence[str], columns: dict[str, str]) -> None:
        if not files:
            self.create_table(name, columns, [])
            return
        frame = self.spark.read.option("header", "true").csv(list(files))
        self._materialise(name, frame.select(*[f"`{c}`" for c in columns]))

    def columns(self, table: str) -> list[str]:
        return list(self.spark.table(table).columns)

    def add_columns(self, table: str, columns: dict[str, str]) -> None:
        from pyspark.sql import functions

        frame = self.spark.table(table)
        have = {c.lower() for c in frame.columns}
        missing = {c: t for c, t in columns.items() if c.lower() not in have}
        if missing:
            for column, kind in missing.items():
                frame = frame.withColumn(column, functions.lit(None).cast(spark_type(kind)))
            self._materialise(table, frame)

    def rename(self, table: str, to: str) -> None:
        self._materialise(to, self.spark.table(table))
        self.spark.catalog.dropTempView(table)

    def write_parquet(self, query: str, out: Path, stem: str) -> tuple[list[str], int]:
        folder = out / stem
        shutil.rmtree(folder, ignore_errors=True)
        (parsed,) = statements(query)
        frame = self._sql(parsed, {})
        frame.write.parquet(str(folder))
        for extra in [*folder.glob(".*.crc"), folder / "_SUCCESS"]:
            extra.unlink(missing_ok=True)
        if _has_integer_lists(frame):
            _annotate_integers(sorted(folder.glob("*.parquet")))
        files = sorted(f"{stem}/{p.name}" for p in folder.glob("*.parquet"))
        rows = self.spark.read.parquet(str(folder)).count()
        return files, rows

    def map_tasks(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterable[R]:
        """`fn` over `items` as Spark tasks (one each), results in order as they arrive."""
        if not items:
            return []
        rdd: Any = self.spark.sparkContext.parallelize(list(items), len(items))
        return rdd.map(fn).toLocalIterator()

    def close(self) -> None:
        self.spark.stop()
