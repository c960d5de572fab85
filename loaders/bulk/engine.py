"""Where the bulk transform's SQL runs: the `Engine` protocol and its DuckDB engine (the default).

loaders/bulk/sql.py is written once; an engine runs it and does the few things SQL cannot say the
same way on every engine: loading staged Parquet, making small tables from Python rows, adding
missing columns, renaming a table, streaming a result to Python and writing import files.
loaders/bulk/spark.py is the other engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

import duckdb

from weft.graph.identity.names import names_compatible

T = TypeVar("T")
R = TypeVar("R")
# Rows fetched from the engine per batch when a result streams to Python (claims).
FETCH_ROWS = 10_000


class Engine(Protocol):
    """What loaders/bulk/transform.py and output.py need from an engine."""

    name: str

    def run(self, statement: str, **params: Any) -> None:
        """Run one or more `;`-separated statements of loaders/bulk/sql.py (`$name` parameters)."""
        ...

    def scalar(self, statement: str) -> Any:
        """The first column of the first row of a query (None for no row)."""
        ...

    def stream(self, statement: str) -> Iterator[dict[str, Any]]:
        """A query's rows as dicts, in the query's order, a batch at a time."""
        ...

    def create_table(self, name: str, columns: dict[str, str], rows: Sequence[Sequence[Any]]) -> None:
        """Replace table `name` (`{column: DuckDB type}`) with Python rows (small tables only)."""
        ...

    def load_parquet(self, name: str, files: Sequence[str], columns: dict[str, str], row_id: str | None = None) -> None:
        """Replace table `name` with staged Parquet files (empty, of `columns`, when there are none);
        `row_id` adds a unique BIGINT column of that name."""
        ...

    def attach_parquet(self, name: str, files: Sequence[str], columns: dict[str, str]) -> None:
        """Make `name` read staged Parquet files, where they are if the engine can (for a table read by
        one or two statements, copying it costs more than it saves); `rename` may replace it."""
        ...

    def load_csv(self, name: str, files: Sequence[str], columns: dict[str, str]) -> None:
        """Replace table `name` with the `columns` (all text) of headed CSV files."""
        ...

    def columns(self, table: str) -> list[str]:
        """A table's column names, in order."""
        ...

    def add_columns(self, table: str, columns: dict[str, str]) -> None:
        """Add the `{column: DuckDB type}` a table lacks, as NULLs."""
        ...

    def rename(self, table: str, to: str) -> None:
        """Table `table` becomes `to` (replacing it)."""
        ...

    def write_parquet(self, query: str, out: Path, stem: str) -> tuple[list[str], int]:
        """A query's rows as zstd Parquet under `out` named for `stem`: (file names relative to `out`, rows)."""
        ...

    def map_tasks(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterable[R]:
        """`fn` over `items` in parallel where the engine runs (staging), results in `items` order."""
        ...

    def close(self) -> None: ...


def sql_text(path: str | Path) -> str:
    """A path inside a SQL text literal."""
    return str(path).replace("'", "''")


def sql_names_compatible(a: str | None, b: str | None) -> bool:
    """The SQL function `names_compatible` every engine registers (loaders/bulk/sql.py SAME_NAME_COMPATIBLE): NULLs and
    empty names are never compatible."""
    return bool(a and b and names_compatible(a, b))


class DuckDBEngine:
    """One DuckDB database file in `work_dir`, with a memory limit and a spill directory beside it."""

    name = "duckdb"

    def __init__(self, work_dir: Path, memory_limit: str, threads: int, workers: int = 1) -> None:
        self.workers = workers
        work_dir.mkdir(parents=True, exist_ok=True)
        db = work_dir / "transform.duckdb"
        db.unlink(missing_ok=True)
        config: dict[str, Any] = {
            "memory_limit": memory_limit,
            "temp_directory": str(work_dir / "spill"),
            "preserve_insertion_order": False,
        }
        if threads > 0:
            config["threads"] = threads
        self.con = duckdb.connect(str(db), config=config)
        # duckdb's stubs type create_function's parameter types loosely (DuckDBPyType, partly unknown).
        self.con.create_function(  # pyright: ignore[reportUnknownMemberType]
            "names_compatible",
            sql_names_compatible,
            ["VARCHAR", "VARCHAR"],  # pyright: ignore[reportArgumentType]
            "BOOLEAN",  # pyright: ignore[reportArgumentType]
        )

    def run(self, statement: str, **params: Any) -> None:
        self.con.execute(statement, params or None)

    def scalar(self, statement: str) -> Any:
        row = self.con.execute(statement).fetchone()
        return None if row is None else row[0]

    def stream(self, statement: str) -> Iterator[dict[str, Any]]:
        cursor = self.con.execute(statement)
        names = [d[0] for d in cursor.description or ()]
        while batch := cursor.fetchmany(FETCH_ROWS):
            for row in batch:
                yield dict(zip(names, row, strict=True))

    def create_table(self, name: str, columns: dict[str, str], rows: Sequence[Sequence[Any]]) -> None:
        defs = ", ".join(f'"{c}" {t}' for c, t in columns.items())
        self.con.execute(f"CREATE OR REPLACE TABLE {name} ({defs})")
        if rows:
            marks = ", ".join("?" for _ in columns)
            self.con.executemany(f"INSERT INTO {name} VALUES ({marks})", [list(r) for r in rows])  # noqa: S608

    def load_parquet(self, name: str, files: Sequence[str], columns: dict[str, str], row_id: str | None = None) -> None:
        if not files:
            self.create_table(name, {row_id: "BIGINT", **columns} if row_id else columns, [])
            return
        # A row's file and its place in it: unique, and free where row_number() costs a window over every row.
        rid = f"(file_index << 32) + file_row_number AS {row_id}, " if row_id else ""
        query = f"CREATE OR REPLACE TABLE {name} AS SELECT {rid}* FROM read_parquet($files)"  # noqa: S608
        self.con.execute(query, {"files": list(files)})

    def attach_parquet(self, name: str, files: Sequence[str], columns: dict[str, str]) -> None:
        """A view over the files (a view cannot take parameters: the paths are quoted into it)."""
        self._drop(name)
        if not files:
            self.create_table(name, columns, [])
            return
        paths = ", ".join(f"'{sql_text(f)}'" for f in files)
        self.con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet([{paths}])")  # noqa: S608

    def load_csv(self, name: str, files: Sequence[str], columns: dict[str, str]) -> None:
        if not files:
            self.create_table(name, columns, [])
            return
        picked = ", ".join(f'"{c}"' for c in columns)
        read = "read_csv($files, header = true, all_varchar = true)"
        self.con.execute(f"CREATE OR REPLACE TABLE {name} AS SELECT {picked} FROM {read}", {"files": list(files)})  # noqa: S608

    def columns(self, table: str) -> list[str]:
        return [d[0] for d in self.con.execute(f"SELECT * FROM {table} LIMIT 0").description or ()]  # noqa: S608

    def add_columns(self, table: str, columns: dict[str, str]) -> None:
        for column, kind in columns.items():
            self.con.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind}")

    def rename(self, table: str, to: str) -> None:
        self._drop(to)
        self.con.execute(f"ALTER TABLE {table} RENAME TO {to}")

    def _drop(self, name: str) -> None:
        """Drop table or view `name` if there is one (DuckDB's DROP names the kind it drops)."""
        kind = "SELECT table_type FROM information_schema.tables WHERE table_name = ?"
        row = self.con.execute(kind, [name]).fetchone()
        if row is not None:
            self.con.execute(f"DROP {'VIEW' if row[0] == 'VIEW' else 'TABLE'} {name}")

    def write_parquet(self, query: str, out: Path, stem: str) -> tuple[list[str], int]:
        name = f"{stem}.parquet"
        # zstd's fastest level: ~18% less time than its default, files ~6% larger at 1M (bench/RESULTS.md).
        self.con.execute(f"COPY ({query}) TO '{out / name}' (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 1)")
        rows = self.scalar(f"SELECT count(*) FROM read_parquet('{out / name}')")  # noqa: S608 - our own path
        return [name], int(rows)

    def map_tasks(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterable[R]:
        """In `workers` processes of this machine (in this one for a single worker or item)."""
        if self.workers <= 1 or len(items) <= 1:
            yield from map(fn, items)
            return
        with ProcessPoolExecutor(max_workers=min(self.workers, len(items))) as pool:
            yield from pool.map(fn, items)

    def close(self) -> None:
        self.con.close()
