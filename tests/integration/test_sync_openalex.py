"""`weft sync openalex`: a full load of "before" plus a sync of the updates equals a full load of "after"
(issue 52), a second sync changes nothing, a sync killed mid-way converges when run again, the guards refuse
before writing, and a retired id resolves to its survivor. The snapshots are tests/sync_fixtures.py's, made
from the real shared OpenAlex records.
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from neo4j import Driver
from typer.testing import CliRunner

from tests.conftest import shared_path
from tests.sync_fixtures import CHANGES, NEW_ABSTRACT, NEW_TITLE, UPDATE_1, UPDATE_2, write_snapshots
from weft.graph.errors import InvalidInput
from weft.graph.identity.ids import node_id
from weft.graph.identity.lookup import parse_researcher_id
from weft.graph.migrate import reset
from weft.graph.settings import Settings
from weft.graph.sync_state import changes, sync_state
from weft.loaders import write
from weft.loaders.run import load_paths
from weft.loaders.sync.openalex import sync_openalex
from weft.server.cli.main import app

# The sync's own bookkeeping (watermark, change log) and the write counter are not the graph's data.
BOOKKEEPING = ("SyncState", "Change", "Meta")


def graph_state(driver: Driver, database: str) -> tuple[dict[str, Any], Counter[str]]:
    """Every node (by label and id or key: labels and properties) and every relationship (type, ends,
    properties, counted: a duplicate shows), without load times and without what a merge adds to a survivor
    (`merged_from`, and those ids in `aliases`: a load of "after" never saw the retired records)."""
    nodes, _, _ = driver.execute_query(
        "MATCH (n) WHERE NOT (n:SyncState OR n:Change OR n:Meta) RETURN labels(n) AS labels, properties(n) AS props",
        database_=database,
    )
    rels, _, _ = driver.execute_query(
        "MATCH (a)-[r]->(b) RETURN type(r) AS type, coalesce(a.id, a.key) AS a, coalesce(b.id, b.key) AS b, "
        "properties(r) AS props",
        database_=database,
    )
    found: dict[str, Any] = {}
    for r in nodes:
        props = {k: v for k, v in r["props"].items() if not k.endswith("_loaded_at")}
        merged = set(props.pop("merged_from", []))
        if "aliases" in props:
            props["aliases"] = [a for a in props["aliases"] if a not in merged]
        if "Category" in r["labels"]:
            props = _undated_ranks(props)
        key = f"{sorted(r['labels'])} {props.get('id') or props.get('key')}"
        assert key not in found, f"two nodes {key}"
        found[key] = json.loads(json.dumps(props, sort_keys=True, default=str))
    edges = Counter(json.dumps([r["type"], r["a"], r["b"], r["props"]], sort_keys=True, default=str) for r in rels)
    return found, edges


def _undated_ranks(props: dict[str, Any]) -> dict[str, Any]:
    """A category's ranks without the date: a category is only ever mentioned (in works' topics), each mention
    of it the same (the rank's digest says so), and its rank keeps the date of the newest work that mentioned
    it, which may be a work deleted since (graph/MODEL.md, "Sync"). Level, source and content still compare."""

    def undated(rank: str) -> str:
        parts = rank.split("|")
        return "|".join(parts[:-2] + parts[-1:])

    out = dict(props)
    out["prop_ranks"] = [undated(r) for r in props.get("prop_ranks", [])]
    for k in [k for k in props if k.endswith("_rank")]:
        out[k] = undated(props[k])
    return out


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return write_snapshots(tmp_path_factory.mktemp("openalex-snapshots"))


@pytest.fixture(scope="module")
def expected(driver: Driver, settings: Settings, snapshots: tuple[Path, Path]) -> tuple[dict[str, Any], Counter[str]]:
    """The graph a full `weft load` of the "after" snapshot gives."""
    reset(driver, settings.neo4j_database)
    summary = load_paths(driver, [snapshots[1]], source="openalex", database=settings.neo4j_database)
    assert summary.rejected == 0 and summary.read > 10
    return graph_state(driver, settings.neo4j_database)


def _synced(driver: Driver, settings: Settings, snapshots: tuple[Path, Path]) -> None:
    """An empty graph, the "before" snapshot synced into it (a first sync loads everything), then "after"."""
    reset(driver, settings.neo4j_database)
    first = sync_openalex(driver, snapshots[0], database=settings.neo4j_database)
    assert first.watermark is not None and first.watermark < UPDATE_1
    second = sync_openalex(driver, snapshots[1], database=settings.neo4j_database, batch_size=50)
    assert second.units[:2] == [UPDATE_1, UPDATE_2]  # only the new partitions, oldest first, then the merges
    assert second.watermark == UPDATE_2


def test_a_sync_of_the_updates_equals_a_full_load_of_after(
    driver: Driver, settings: Settings, snapshots: tuple[Path, Path], expected: tuple[dict[str, Any], Counter[str]]
) -> None:
    _synced(driver, settings, snapshots)
    nodes, edges = graph_state(driver, settings.neo4j_database)
    assert sorted(set(nodes) ^ set(expected[0])) == []
    assert [(k, _diff(p, expected[0][k])) for k, p in nodes.items() if p != expected[0][k]] == []
    assert sorted((edges - expected[1]).elements()) == [] and sorted((expected[1] - edges).elements()) == []


def _diff(got: dict[str, Any], want: dict[str, Any]) -> dict[str, Any]:
    return {k: (got.get(k), want.get(k)) for k in got.keys() | want.keys() if got.get(k) != want.get(k)}


def _one(driver: Driver, settings: Settings, query: str, **params: Any) -> list[dict[str, Any]]:
    records, _, _ = driver.execute_query(query, database_=settings.neo4j_database, **params)
    return [r.data() for r in records]


def test_an_update_replaces_what_openalex_said(driver: Driver, settings: Settings) -> None:
    """On the synced graph of the test above: authorships, title and abstract, references and CITES."""
    q = "MATCH (a:Researcher {openalex_id: $a})-[:AUTHORED]->(p:Paper {openalex_id: $w}) RETURN count(*) AS n"
    work, gone = CHANGES["loses_author"]
    assert _one(driver, settings, q, a=gone, w=work) == [{"n": 0}]
    work, joins = CHANGES["gains_author"]
    assert _one(driver, settings, q, a=joins, w=work) == [{"n": 1}]
    paper = _one(
        driver,
        settings,
        "MATCH (p:Paper {openalex_id: $w}) RETURN p.title AS t, p.abstract AS a",
        w=CHANGES["retitled"],
    )
    assert paper == [{"t": NEW_TITLE, "a": NEW_ABSTRACT}]
    work, dropped, cited = CHANGES["references"]
    refs = _one(driver, settings, "MATCH (:Paper {openalex_id: $w})-[:REFERENCES]->(f:Ref) RETURN f.key AS k", w=work)
    keys = {r["k"] for r in refs}
    assert f"openalex:{cited}" in keys and not keys & {f"openalex:{d}" for d in dropped}
    cites = _one(
        driver, settings, "MATCH (:Paper {openalex_id: $w})-[:CITES]->(q:Paper) RETURN q.openalex_id AS q", w=work
    )
    assert cited in {r["q"] for r in cites} and not {r["q"] for r in cites} & set(dropped)
    assert not _one(
        driver, settings, "MATCH (f:Ref {key: $k}) RETURN f.key", k=f"openalex:{dropped[1]}"
    )  # unreferenced now


def test_a_merged_id_resolves_to_its_survivor(driver: Driver, settings: Settings) -> None:
    for (old, into), label in (
        (CHANGES["merged_author"], "Researcher"),
        (CHANGES["merged_institution"], "Institution"),
    ):
        rows = _one(
            driver,
            settings,
            "MATCH (n {openalex_id: $into}) RETURN n.id AS id, n.aliases AS aliases, n.merged_from AS merged, "
            "COUNT { MATCH (m {openalex_id: $old}) } AS old_nodes",
            into=into,
            old=old,
        )
        assert rows[0]["old_nodes"] == 0
        assert node_id(label, {"openalex_id": old}) in rows[0]["merged"]
        assert set(rows[0]["merged"]) <= set(rows[0]["aliases"])
    old, into = CHANGES["merged_author"]
    assert any(
        k.property == "alias" and k.value == node_id("Researcher", {"openalex_id": old})
        for k in parse_researcher_id(old)
    )
    assert not _one(driver, settings, "MATCH (p:Paper {openalex_id: $w}) RETURN p", w=CHANGES["deleted_work"])


def test_old_ids_answer_over_graphql_and_301_on_the_site(driver: Driver, settings: Settings) -> None:
    from tests.api.conftest import api_client

    old, into = CHANGES["merged_author"]
    roberts = _one(driver, settings, "MATCH (n:Researcher {openalex_id: $i}) RETURN n.id AS id", i=into)[0]["id"]
    old_internal = node_id("Researcher", {"openalex_id": old})
    old_inst, into_inst = CHANGES["merged_institution"]
    bangor = _one(driver, settings, "MATCH (n:Institution {openalex_id: $i}) RETURN n.id AS id", i=into_inst)[0]["id"]
    for client in api_client(settings):
        for raw in (old, f"https://openalex.org/{old}", old_internal):
            data = client.data("query($id: String!) { researcher(id: $id) { id } }", {"id": raw})
            assert data["researcher"] == {"id": roberts}, raw
        data = client.data("query($id: String!) { institution(id: $id) { id } }", {"id": old_inst})
        assert data["institution"] == {"id": bangor}
        page = client.http.get(f"/researchers/{old}", follow_redirects=False)
        assert page.status_code == 301 and page.headers["location"].startswith(f"/researchers/{roberts}")
        page = client.http.get(f"/institutions/{old_inst}", follow_redirects=False)
        assert page.status_code == 301 and page.headers["location"].startswith("/institutions/")
        assert client.http.get(page.headers["location"]).status_code == 200


def test_the_change_log_and_status(driver: Driver, settings: Settings) -> None:
    logged = changes(driver, settings.neo4j_database, first=1000)
    assert [c["seq"] for c in logged] == list(range(1, len(logged) + 1))
    kinds = {(c["entity"], c["kind"], c["source_id"]) for c in logged}
    assert ("works", "new", CHANGES["new_work"]) in kinds
    assert ("works", "updated", CHANGES["retitled"]) in kinds
    assert ("authors", "merged", CHANGES["merged_author"][0]) in kinds
    assert ("institutions", "merged", CHANGES["merged_institution"][0]) in kinds
    assert ("works", "deleted", CHANGES["deleted_work"]) in kinds
    only_works = changes(driver, settings.neo4j_database, entity="works", after=logged[0]["seq"], first=3)
    assert len(only_works) == 3 and all(c["entity"] == "works" and c["seq"] > logged[0]["seq"] for c in only_works)
    out = CliRunner().invoke(app, ["status"])
    assert out.exit_code == 0, out.output
    assert f"openalex: watermark {UPDATE_2}" in out.output
    assert re.search(r"authors: 0 new, [1-9]\d* updated, 1 merged, 0 deleted", out.output), out.output
    assert re.search(r"works: 1 new, [1-9]\d* updated, 0 merged, 1 deleted", out.output), out.output


def test_syncing_the_same_update_again_changes_nothing(
    driver: Driver, settings: Settings, snapshots: tuple[Path, Path]
) -> None:
    before = graph_state(driver, settings.neo4j_database)
    logged = len(changes(driver, settings.neo4j_database, first=10_000))
    again = sync_openalex(driver, snapshots[1], database=settings.neo4j_database)
    assert again.units == [] and again.watermark == UPDATE_2
    out = CliRunner().invoke(app, ["sync", "openalex", str(snapshots[1])])
    assert out.exit_code == 0 and f"watermark {UPDATE_2} -> {UPDATE_2} (nothing new)" in out.output, out.output
    assert graph_state(driver, settings.neo4j_database) == before
    assert len(changes(driver, settings.neo4j_database, first=10_000)) == logged


def test_a_later_record_of_the_survivor_keeps_its_merged_ids(
    driver: Driver, settings: Settings, snapshots: tuple[Path, Path], tmp_path: Path
) -> None:
    """A merge's aliases are the sync's, not the record's: the survivor's next record must not drop them."""
    old, into = CHANGES["merged_author"]
    later = _copy(snapshots[1], tmp_path)
    record = json.loads(shared_path("openalex", "authors", f"{into}.json").read_text())
    record["updated_date"] = "2025-12-03T00:00:00"
    body = gzip.compress(json.dumps(record).encode() + b"\n")
    part = later / "data" / "authors" / "updated_date=2025-12-03" / "part_000.gz"
    part.parent.mkdir()
    part.write_bytes(body)
    manifest = later / "data" / "authors" / "manifest"
    doc = json.loads(manifest.read_text())
    doc["entries"].append({"url": "data/authors/updated_date=2025-12-03/part_000.gz", "meta": {"record_count": 1}})
    manifest.write_text(json.dumps(doc))
    report = sync_openalex(driver, later, database=settings.neo4j_database)
    assert report.units == ["2025-12-03"]
    rows = _one(driver, settings, "MATCH (n:Researcher {openalex_id: $i}) RETURN n.aliases AS a", i=into)
    assert node_id("Researcher", {"openalex_id": old}) in rows[0]["a"]


def _fingerprint(driver: Driver, settings: Settings) -> list[dict[str, Any]]:
    return _one(
        driver,
        settings,
        "MATCH (n) WITH count(n) AS nodes, sum(size(keys(n))) AS props "
        "OPTIONAL MATCH ()-[r]->() RETURN nodes, props, count(r) AS rels",
    )


def test_a_dry_run_counts_and_writes_nothing(driver: Driver, settings: Settings, snapshots: tuple[Path, Path]) -> None:
    reset(driver, settings.neo4j_database)
    sync_openalex(driver, snapshots[0], database=settings.neo4j_database)
    state = sync_state(driver, settings.neo4j_database, "openalex")
    before = _fingerprint(driver, settings)
    out = CliRunner().invoke(app, ["sync", "openalex", str(snapshots[1]), "--dry-run"])
    assert out.exit_code == 0, out.output
    assert _fingerprint(driver, settings) == before
    assert sync_state(driver, settings.neo4j_database, "openalex") == state
    report = sync_openalex(driver, snapshots[1], database=settings.neo4j_database, dry_run=True)
    works, authors, insts = report.entities["works"], report.entities["authors"], report.entities["institutions"]
    assert (works.new, works.deleted, authors.merged, insts.merged) == (1, 1, 1, 1)
    assert works.updated >= 5 and authors.updated >= 1
    assert "(dry run: nothing written)" in out.output and "works" in out.output


def _copy(snapshot: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(snapshot, tmp_path / "snapshot"))


@pytest.fixture
def before_synced(driver: Driver, settings: Settings, snapshots: tuple[Path, Path]) -> Driver:
    """The "before" snapshot synced into an empty graph."""
    reset(driver, settings.neo4j_database)
    sync_openalex(driver, snapshots[0], database=settings.neo4j_database)
    return driver


def test_a_count_unlike_the_manifest_refuses_before_writing(
    before_synced: Driver, settings: Settings, snapshots: tuple[Path, Path], tmp_path: Path
) -> None:
    driver = before_synced
    after = _copy(snapshots[1], tmp_path)
    manifest = after / "data" / "works" / "manifest"
    doc = json.loads(manifest.read_text())
    first_update = next(e for e in doc["entries"] if UPDATE_1 in e["url"])
    first_update["meta"]["record_count"] += 1
    manifest.write_text(json.dumps(doc))
    before = _fingerprint(driver, settings)
    with pytest.raises(InvalidInput, match="the manifest says"):
        sync_openalex(driver, after, database=settings.neo4j_database)
    assert _fingerprint(driver, settings) == before


def test_a_manifest_changed_during_the_sync_refuses_before_writing(
    before_synced: Driver,
    settings: Settings,
    snapshots: tuple[Path, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    driver = before_synced
    after = _copy(snapshots[1], tmp_path)
    from weft.loaders.sync import openalex as sync_module

    real = sync_module._check_unit

    def check_then_republish(*args: Any) -> None:  # the snapshot moves on while the sync reads it
        real(*args)
        manifest = after / "data" / "authors" / "manifest"
        manifest.write_text(manifest.read_text() + " ")

    monkeypatch.setattr(sync_module, "_check_unit", check_then_republish)
    before = _fingerprint(driver, settings)
    with pytest.raises(InvalidInput, match="manifest changed"):
        sync_openalex(driver, after, database=settings.neo4j_database)
    assert _fingerprint(driver, settings) == before


def test_more_deletes_than_allowed_are_refused(
    before_synced: Driver, settings: Settings, snapshots: tuple[Path, Path]
) -> None:
    driver = before_synced
    before = _fingerprint(driver, settings)
    with pytest.raises(InvalidInput, match="max-deletes"):
        sync_openalex(driver, snapshots[1], database=settings.neo4j_database, max_deletes=0)
    assert _fingerprint(driver, settings) == before  # refused before the partitions too


def test_every_partition_newer_than_the_watermark_is_a_rebuild(
    before_synced: Driver, settings: Settings, snapshots: tuple[Path, Path], tmp_path: Path
) -> None:
    driver = before_synced
    after = _copy(snapshots[1], tmp_path)
    for old in (after / "data" / "authors").glob("updated_date=*"):
        if old.name < f"updated_date={UPDATE_1}":
            shutil.rmtree(old)
    with pytest.raises(InvalidInput, match="rebuild"):
        sync_openalex(driver, after, database=settings.neo4j_database)


def test_what_another_source_states_stays(driver: Driver, settings: Settings, snapshots: tuple[Path, Path]) -> None:
    """Semantic Scholar's record of the work that loses an author names that author too: after the sync the
    OpenAlex authorship is gone, S2's stays (its own edge from S2's author), and so do S2's properties."""
    reset(driver, settings.neo4j_database)
    work, gone = CHANGES["loses_author"]
    sync_openalex(driver, snapshots[0], database=settings.neo4j_database)
    doi = _one(driver, settings, "MATCH (p:Paper {openalex_id: $w}) RETURN p.doi AS doi", w=work)[0]["doi"]
    s2 = json.loads(shared_path("semanticscholar", "graph_api", "Paper.json").read_text())
    s2 = s2[0] if isinstance(s2, list) else s2
    s2 = {**s2, "paperId": "f" * 40, "corpusId": 99999999, "externalIds": {"DOI": doi, "CorpusId": 99999999}}
    s2["authors"] = [{"authorId": "999999001", "name": "Panagiotis D. Ritsos"}]
    s2_file = snapshots[0].parent / "s2-paper.json"
    s2_file.write_text(json.dumps(s2))
    assert load_paths(driver, [s2_file], source="s2", database=settings.neo4j_database).rejected == 0
    sync_openalex(driver, snapshots[1], database=settings.neo4j_database)
    q = (
        "MATCH (a:Researcher)-[r:AUTHORED]->(p:Paper {openalex_id: $w}) WHERE a.openalex_id = $a OR a.s2_id = $s "
        "RETURN a.openalex_id AS oa, a.s2_id AS s2, r.sources AS sources"
    )
    assert _one(driver, settings, q, w=work, a=gone, s="999999001") == [
        {"oa": None, "s2": "999999001", "sources": ["s2"]}
    ]
    paper = _one(driver, settings, "MATCH (p:Paper {openalex_id: $w}) RETURN p.corpus_id AS c, p.s2_rank AS r", w=work)
    assert paper[0]["c"] == "99999999" and paper[0]["r"]


# A sync in its own process, killed (SIGKILL, as kill -9) at a chosen point of the second update day (the one
# with the lost author, the merged author's and institution's re-issued works, the changed references): `write`
# after its first batch, `derive` once all its records are written and before its derived data; or `merge`
# after the first merge of the first merged_ids file.
KILLED_SYNC = """
import os, signal, sys
from weft.graph.driver import open_driver
from weft.graph.settings import load_settings
from weft.loaders.sync import openalex as s
from weft.loaders.write import GraphWriter

point = sys.argv[2]
units = []
def kill(*_a, **_k):
    os.kill(os.getpid(), signal.SIGKILL)
real_apply_unit = s._apply_unit
def apply_unit(*a, **k):
    units.append(a[3].date)
    return real_apply_unit(*a, **k)
s._apply_unit = apply_unit
if point == "write":
    real_write = GraphWriter.write
    def write(self, batch):
        out = real_write(self, batch)
        if len(units) == 2:
            kill()
        return out
    GraphWriter.write = write
elif point == "derive":
    real_finish = s.finish
    def finish(*a, **k):
        if len(units) == 2:
            kill()
        return real_finish(*a, **k)
    s.finish = finish
elif point == "merge":
    real_apply = s._apply_merges
    def apply(driver, database, entity, unit, merges):
        real_apply(driver, database, entity, unit, merges[:1])
        kill()
    s._apply_merges = apply
settings = load_settings()
with open_driver(settings) as driver:
    s.sync_openalex(driver, sys.argv[1], database=settings.neo4j_database, batch_size=40)
"""


@pytest.mark.parametrize("point", ["write", "derive", "merge"])
def test_a_killed_sync_converges_when_run_again(
    driver: Driver,
    settings: Settings,
    snapshots: tuple[Path, Path],
    expected: tuple[dict[str, Any], Counter[str]],
    point: str,
) -> None:
    reset(driver, settings.neo4j_database)
    sync_openalex(driver, snapshots[0], database=settings.neo4j_database)
    proc = subprocess.run([sys.executable, "-c", KILLED_SYNC, str(snapshots[1]), point], capture_output=True, text=True)
    assert proc.returncode == -9, proc.stderr
    state = sync_state(driver, settings.neo4j_database, "openalex")
    assert state.get("pending_unit"), state  # killed inside a unit: its watermark has not moved
    sync_openalex(driver, snapshots[1], database=settings.neo4j_database)
    assert sync_state(driver, settings.neo4j_database, "openalex").get("pending_unit") is None
    assert graph_state(driver, settings.neo4j_database) == expected


def test_a_retitled_work_leaves_its_authors_pairs_alone(
    driver: Driver,
    settings: Settings,
    snapshots: tuple[Path, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A record whose authorships are the same (a new title) recomputes its paper's own derived data, not its
    authors' (loaders/sync/authorships.py): the recompute is asked to rebuild no researcher whole and to recount
    no paper's pairs, and the pairs stay as they were (same edges, same weights)."""
    asked = recompute_calls(monkeypatch)
    reset(driver, settings.neo4j_database)
    sync_openalex(driver, snapshots[0], database=settings.neo4j_database)
    work = CHANGES["retitled"]
    record = _record_of(snapshots[0], work)
    record["title"] = record["display_name"] = "A title and nothing else changed"
    root = _one_work_update(snapshots[0], tmp_path / "retitled", record)
    pairs = """MATCH (:Paper {openalex_id: $w})<-[:AUTHORED]-(a:Researcher)-[c:COAUTHORED_WITH]-(:Researcher)
               SET c.probe = true RETURN count(DISTINCT c) AS n, sum(c.weight) AS w"""
    before = _one(driver, settings, pairs, w=work)
    assert before[0]["n"] > 0
    asked.clear()
    sync_openalex(driver, root, database=settings.neo4j_database)
    assert [(k["moved"], k["reaffiliated"], k["reauthored"]) for k in asked] == [(set(), set(), set())]
    after = _one(driver, settings, pairs.replace("SET c.probe = true ", ""), w=work)
    assert after == before  # the same pairs and weights
    kept = _one(driver, settings, "MATCH ()-[c:COAUTHORED_WITH {probe: true}]->() RETURN count(c) AS n")
    assert kept == [{"n": before[0]["n"]}]
    assert _one(driver, settings, "MATCH (p:Paper {openalex_id: $w}) RETURN p.title AS t", w=work) == [
        {"t": "A title and nothing else changed"}
    ]


def recompute_calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The keyword arguments of every derived-data recompute the sync asks for from now on (it still runs)."""
    asked: list[dict[str, Any]] = []
    real_recompute = write.recompute

    def recompute(*args: Any, **kwargs: Any) -> int:
        asked.append(kwargs)
        return real_recompute(*args, **kwargs)

    monkeypatch.setattr(write, "recompute", recompute)
    return asked


def _record_of(snapshot: Path, work: str) -> dict[str, Any]:
    """The work's record in a snapshot."""
    return next(
        r
        for part in sorted((snapshot / "data" / "works").glob("updated_date=*/part_*.gz"))
        for r in map(json.loads, gzip.decompress(part.read_bytes()).splitlines())
        if r["id"].endswith(work)
    )


def _one_work_update(snapshot: Path, root: Path, record: dict[str, Any]) -> Path:
    """A copy of the snapshot at `root` with one newer works partition holding `record` (manifest to match)."""
    shutil.copytree(snapshot, root)
    record["updated_date"] = "2026-01-01T00:00:00"
    part = root / "data" / "works" / "updated_date=2026-01-01" / "part_000.gz"
    part.parent.mkdir()
    part.write_bytes(gzip.compress((json.dumps(record) + "\n").encode()))
    manifest = json.loads((root / "data" / "works" / "manifest").read_text())
    url = "s3://openalex/data/works/updated_date=2026-01-01/part_000.gz"
    manifest["entries"].append({"url": url, "meta": {"content_length": part.stat().st_size, "record_count": 1}})
    (root / "data" / "works" / "manifest").write_text(json.dumps(manifest))
    return root


def test_a_lost_author_has_only_its_pairs_on_that_work_recounted(
    driver: Driver,
    settings: Settings,
    snapshots: tuple[Path, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A work that loses an author recounts the pairs that authorship counted in, not the author whole
    (derived.paper_changes): the recompute is asked to rebuild no researcher whole, each pair of the lost author
    with the work's other authors loses one paper (dropped at none), and the author's other pairs stay."""
    asked = recompute_calls(monkeypatch)
    reset(driver, settings.neo4j_database)
    sync_openalex(driver, snapshots[0], database=settings.neo4j_database)
    work, gone = CHANGES["loses_author"]
    record = _record_of(snapshots[0], work)
    record["authorships"] = [a for a in record["authorships"] if not a["author"]["id"].endswith(gone)]
    root = _one_work_update(snapshots[0], tmp_path / "lost", record)
    weights = """MATCH (a:Researcher {openalex_id: $a})-[c:COAUTHORED_WITH]-(b:Researcher)
                 RETURN b.id AS b, c.weight AS weight, EXISTS { (b)-[:AUTHORED]->(:Paper {openalex_id: $w}) } AS on"""
    before = {r["b"]: r for r in _one(driver, settings, weights, a=gone, w=work)}
    assert any(r["on"] for r in before.values()) and any(not r["on"] for r in before.values())
    asked.clear()
    sync_openalex(driver, root, database=settings.neo4j_database)
    assert [(k["moved"], k["reaffiliated"]) for k in asked] == [(set(), set())]
    after = {r["b"]: r["weight"] for r in _one(driver, settings, weights, a=gone, w=work)}
    wanted = {b: r["weight"] - 1 if r["on"] else r["weight"] for b, r in before.items()}
    assert after == {b: w for b, w in wanted.items() if w > 0}
