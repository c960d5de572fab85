"""The real dump layouts (tests/fixtures/layouts, built from the shared data): what loaders.detect.layout
finds in them, and what `weft build` makes of them (read back from its Parquet files).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from tests.fixtures.layouts import build_layouts as fx
from weft.loaders.bulk.build import BuildOptions, build_paths
from weft.loaders.detect import layout, plan

LAYOUTS = Path(fx.__file__).parent
OPENALEX = LAYOUTS / "openalex"
ARXIV = LAYOUTS / "arxiv"


@pytest.fixture(scope="module")
def s2_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("s2") / "s2"
    fx.write_s2_datasets(root)
    return root


@pytest.fixture(scope="module")
def built(s2_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("layouts") / "built"
    summary = build_paths([OPENALEX, ARXIV, s2_root], out, options=BuildOptions(workers=1), echo=lambda m: None)
    assert summary.rejected == 0
    return out


def _rows(out: Path, query: str) -> list[dict[str, Any]]:
    cursor = duckdb.connect().execute(query.replace("$out", str(out)))
    names = [d[0] for d in cursor.description or ()]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _oa_works() -> Iterator[dict[str, Any]]:
    for part in sorted((OPENALEX / "data" / "works").rglob("part_*.gz")):
        with gzip.open(part, "rt", encoding="utf-8") as fh:
            yield from (json.loads(line) for line in fh if line.strip())


def test_layout_sorts_snapshot_files_by_role(s2_root: Path) -> None:
    found = layout([OPENALEX, ARXIV, s2_root])
    data = {"/".join(path.parts[-4:]): (fmt.source, fmt.kind, seq) for path, fmt, seq in found.data}
    assert ("arxiv", "snapshot", 0) in data.values()
    assert data["2023-01-01_2023-01-08/papers/updates/part-0.jsonl.gz"] == ("s2", "dataset:papers", 1)
    assert [(d.dataset, d.seq) for d in found.deletes] == [("papers", 1)]
    assert [(p.name, label) for p, label in found.merged] == [("2024-03-01.csv.gz", "Paper")]
    assert not [p for p, _, _ in found.data if p.name == "manifest.json" or "topics" in p.parts]
    assert found.notes == ["1 files of OpenAlex entities Weft does not load skipped"]
    # `weft load` plans the same data files (the snapshot is no longer refused for its manifests)
    assert [p for p, _ in plan([OPENALEX])] == [p for p, _, _ in layout([OPENALEX]).data]


def test_merged_work_is_gone_and_newest_partition_wins(built: Path) -> None:
    works: dict[str, dict[str, Any]] = {}
    for work in _oa_works():
        wid = work["id"].rsplit("/", 1)[-1]
        if wid not in works or work["updated_date"] > works[wid]["updated_date"]:
            works[wid] = work
    papers = {r["openalex_id"]: r for r in _rows(built, "SELECT * FROM '$out/nodes_Paper.parquet'") if r["openalex_id"]}
    assert set(papers) == set(works) - {fx.MERGED_WORK}
    assert fx.MERGED_INTO in papers
    newest = works["W2741809807"]
    assert papers["W2741809807"]["updated_date"] == newest["updated_date"]
    assert papers["W2741809807"]["cited_by_count"] == newest["cited_by_count"]


def test_s2_diff_updates_and_deletes_papers(built: Path) -> None:
    sample = fx.s2_papers()
    by_corpus = {
        r["corpus_id"]: r for r in _rows(built, "SELECT * FROM '$out/nodes_Paper.parquet' WHERE corpus_id IS NOT NULL")
    }
    deleted = str(sample[fx.DELETED_CORPUS_ID_INDEX]["corpusid"])
    updated = sample[fx.UPDATED_CORPUS_ID_INDEX]
    assert deleted not in by_corpus
    assert by_corpus[str(updated["corpusid"])]["cited_by_count_s2"] == updated["citationcount"] + 1
    assert len(by_corpus) == len(sample) - 1


def test_arxiv_snapshot_papers_all_built(built: Path) -> None:
    lines = (ARXIV / "arxiv-metadata-oai-snapshot.json").read_text().splitlines()
    ids = {json.loads(line)["id"] for line in lines}
    found = {r["arxiv_id"] for r in _rows(built, "SELECT arxiv_id FROM '$out/nodes_Paper.parquet'")}
    assert ids <= found


def test_works_alone_build_with_affiliations_derived_from_authorships(tmp_path: Path) -> None:
    """No author entities means no listed affiliations (and no `years` column): the derived step still runs."""
    works = list(_oa_works())
    source = tmp_path / "works.jsonl"
    source.write_text("".join(json.dumps(w) + "\n" for w in works), encoding="utf-8")
    out = tmp_path / "built"
    summary = build_paths([source], out, options=BuildOptions(workers=1), echo=lambda m: None)
    assert summary.rejected == 0
    stated = {
        (a["author"]["id"].rsplit("/", 1)[-1], i["id"].rsplit("/", 1)[-1])
        for w in works
        for a in w.get("authorships") or []
        if (a.get("author") or {}).get("id")
        for i in a.get("institutions") or []
        if i.get("id")
    }
    rows = _rows(out, "SELECT count(*) AS n FROM '$out/rels_AFFILIATED_WITH*.parquet'")
    assert rows == [{"n": len(stated)}]
