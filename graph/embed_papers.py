"""`weft embed`: give every paper with a title or abstract a sentence vector, incrementally.

Papers are scanned in pages by id; a paper is (re)embedded when it has no vector, when its text changed
since (the stored `text_hash` differs) or when another model made its vector. Each batch is written in its
own transaction (which moves the data version: semantic answers change as it commits), so an interrupted
run keeps what it wrote and the next run goes on from there. A paper with neither title nor abstract
gets no vector (and loses a stale one). Memory stays flat: one page of texts and one batch of vectors at
a time.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from neo4j import Driver

from weft.graph.driver import translated_errors
from weft.graph.embeddings import Embedder, embedder, paper_text, text_hash
from weft.graph.versions import bump_data_version, run_marked
from weft.queries import semantic as q

SCAN_PAGE = 2000
Progress = Callable[[int, int, int], None]
"""Called after each batch with (papers scanned, papers in the graph, papers embedded) so far."""


@dataclass
class EmbedSummary:
    """What one run did."""

    scanned: int = 0
    embedded: int = 0
    unchanged: int = 0
    no_text: list[str] = field(default_factory=list[str])
    dropped: int = 0
    seconds: float = 0.0
    embed_seconds: float = 0.0

    @property
    def rate(self) -> float:
        """Papers embedded per second of model time."""
        return self.embedded / self.embed_seconds if self.embed_seconds else 0.0


@dataclass
class _Todo:
    rows: list[dict[str, str]] = field(default_factory=list[dict[str, str]])
    no_text: list[str] = field(default_factory=list[str])
    unchanged: int = 0


def _triage(page: list[dict[str, Any]], model: str, force: bool) -> _Todo:
    """Which papers of a scanned page need a vector, which have no text, which are up to date."""
    todo = _Todo()
    for row in page:
        text = paper_text(row["title"], row["abstract"])
        if text is None:
            todo.no_text.append(row["id"])
            continue
        digest = text_hash(text)
        if not force and row["text_hash"] == digest and row["model"] == model:
            todo.unchanged += 1
        else:
            todo.rows.append({"id": row["id"], "text": text, "text_hash": digest})
    return todo


def _pages(driver: Driver, database: str) -> Iterator[list[dict[str, Any]]]:
    after = ""
    while True:
        with translated_errors("reading papers to embed"):
            records, _, _ = driver.execute_query(
                q.EMBED_SCAN, after=after, limit=SCAN_PAGE, database_=database, routing_="r"
            )
        if not records:
            return
        yield [r.data() for r in records]
        after = records[-1]["id"]


def embed_papers(
    driver: Driver,
    database: str,
    batch_size: int = 64,
    force: bool = False,
    progress: Progress | None = None,
    model: Embedder | None = None,
) -> EmbedSummary:
    """Embed the papers that need it (all of them with `force`); returns what was done."""
    started = time.perf_counter()
    model = model or embedder()
    summary = EmbedSummary()
    total, _ = embed_counts(driver, database)
    with translated_errors("dropping orphan vectors"):
        records, _, _ = driver.execute_query(q.DROP_ORPHAN_VECTORS, database_=database)
    summary.dropped = records[0]["removed"] if records else 0
    if summary.dropped:  # `similar` and semantic answers changed
        bump_data_version(driver, database)
    for page in _pages(driver, database):
        todo = _triage(page, model.model, force)
        summary.scanned += len(page)
        summary.unchanged += todo.unchanged
        summary.no_text += todo.no_text
        if todo.no_text:
            with translated_errors("dropping vectors of papers without text"):
                run_marked(driver, database, q.DROP_VECTORS, ids=todo.no_text)
        for start in range(0, len(todo.rows), batch_size):
            batch = todo.rows[start : start + batch_size]
            tick = time.perf_counter()
            vectors = model.embed([r["text"] for r in batch])
            summary.embed_seconds += time.perf_counter() - tick
            rows = [
                {"id": r["id"], "text_hash": r["text_hash"], "vector": [float(x) for x in v]}
                for r, v in zip(batch, vectors, strict=True)
            ]
            with translated_errors("writing paper vectors"):
                run_marked(driver, database, q.WRITE_VECTORS, rows=rows, model=model.model)
            summary.embedded += len(batch)
            if progress is not None:
                progress(summary.scanned - len(page), total, summary.embedded)
        if progress is not None:
            progress(summary.scanned, total, summary.embedded)
    summary.seconds = time.perf_counter() - started
    return summary


def embed_counts(driver: Driver, database: str) -> tuple[int, int]:
    """(papers, papers with a vector)."""
    with translated_errors("counting vectors"):
        records, _, _ = driver.execute_query(q.EMBED_COUNTS, database_=database, routing_="r")
    return records[0]["papers"], records[0]["embedded"]
