"""`weft embed` and the vector reads against the real Neo4j, on a small real slice of the shared OpenAlex data.

The slice: William J. Faithfull's and Ludmila I. Kuncheva's author pages (they share 4 works; one Kuncheva
work, W2115629999, has neither title nor abstract) and the single-work files: about 40 papers, so the
model runs for seconds. Expectations come from the raw files and from brute-force numpy cosines.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import numpy as np
import pytest
from neo4j import AsyncDriver, Driver
from typer.testing import CliRunner

from tests.conftest import shared_path
from weft.graph.driver import open_async_driver
from weft.graph.embed_papers import embed_counts, embed_papers
from weft.graph.embeddings import embedder, model_id, paper_text
from weft.graph.reads import semantic
from weft.graph.reads.reader import GraphReader
from weft.graph.settings import Settings
from weft.queries import semantic as q
from weft.server.cli import app

FAITHFULL, KUNCHEVA = "A5017572309", "A5039168231"
NO_TEXT = "W2115629999"


def slice_files() -> list[Path]:
    works = shared_path("openalex", "works")
    authors = [works / "author_works" / f"academic_explorer_author_{a}_works.json" for a in (FAITHFULL, KUNCHEVA)]
    return authors + sorted((works / "single").glob("*.json"))


def raw_works() -> dict[str, dict]:
    """OpenAlex works of the slice by short id (W…)."""
    found = {}
    for path in slice_files():
        data = json.loads(path.read_text())
        rows = data["results"] if isinstance(data, dict) and "results" in data else data
        for work in rows if isinstance(rows, list) else [rows]:
            found[work["id"].rsplit("/", 1)[-1]] = work
    return found


@pytest.fixture(scope="module")
def graph(driver: Driver, settings: Settings) -> Driver:
    from weft.loaders.run import load_paths

    load_paths(driver, slice_files(), source="openalex", database=settings.neo4j_database)
    return driver


@pytest.fixture(scope="module")
def first_run(graph: Driver, settings: Settings):
    return embed_papers(graph, settings.neo4j_database, batch_size=16)


@pytest.fixture
async def reader(settings: Settings) -> AsyncIterator[GraphReader]:
    driver: AsyncDriver = open_async_driver(settings)
    yield GraphReader(driver, settings.neo4j_database, settings.query_timeout_s)
    await driver.close()


def ids_by_openalex(driver: Driver, database: str) -> dict[str, str]:
    records, _, _ = driver.execute_query(
        "MATCH (p:Paper) RETURN p.openalex_id AS w, p.id AS id", database_=database, routing_="r"
    )
    return {r["w"]: r["id"] for r in records}


def test_vector_index_is_created_by_migrate(graph: Driver, settings: Settings) -> None:
    records, _, _ = graph.execute_query(
        "SHOW VECTOR INDEXES YIELD name, labelsOrTypes, properties, options WHERE name = $name",
        name=q.VECTOR_INDEX,
        database_=settings.neo4j_database,
    )
    (index,) = records
    config = index["options"]["indexConfig"]
    assert index["labelsOrTypes"] == ["PaperVector"] and index["properties"] == ["vector"]
    assert config["vector.dimensions"] == 384 and config["vector.similarity_function"].lower() == "cosine"


def test_every_paper_with_text_gets_one_vector_and_the_one_without_says_so(
    graph: Driver, settings: Settings, first_run
) -> None:
    works = raw_works()
    with_text = {w for w, work in works.items() if work.get("title") or work.get("abstract_inverted_index")}
    assert NO_TEXT in works and NO_TEXT not in with_text
    ids = ids_by_openalex(graph, settings.neo4j_database)
    assert first_run.embedded == len(with_text) and first_run.no_text == [ids[NO_TEXT]]
    assert embed_counts(graph, settings.neo4j_database) == (len(works), len(with_text))
    records, _, _ = graph.execute_query(
        "MATCH (p:Paper)-[:EMBEDDED_AS]->(v:PaperVector) RETURN p.openalex_id AS w, v.model AS model, "
        "size(v.vector) AS dims",
        database_=settings.neo4j_database,
    )
    assert {r["w"] for r in records} == with_text
    assert {(r["model"], r["dims"]) for r in records} == {(model_id(), 384)}


def test_a_second_run_embeds_only_what_changed(graph: Driver, settings: Settings, first_run) -> None:
    db = settings.neo4j_database
    again = embed_papers(graph, db)
    assert (again.embedded, again.unchanged) == (0, first_run.embedded)
    ids = ids_by_openalex(graph, db)
    changed, emptied = ids["W2741809807"], ids["W3187234764"]
    graph.execute_query("MATCH (p:Paper {id: $id}) SET p.title = p.title + ' (revised)'", id=changed, database_=db)
    graph.execute_query("MATCH (p:Paper {id: $id}) REMOVE p.title, p.abstract", id=emptied, database_=db)
    after = embed_papers(graph, db)
    assert after.embedded == 1 and sorted(after.no_text) == sorted([ids[NO_TEXT], emptied])
    assert embed_counts(graph, db)[1] == first_run.embedded - 1
    # an interrupted run keeps its batches; the next goes on from there
    graph.execute_query("MATCH (v:PaperVector) WITH v LIMIT 5 DETACH DELETE v", database_=db)

    def interrupt(scanned: int, total: int, embedded: int) -> None:
        if embedded >= 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        embed_papers(graph, db, batch_size=2, progress=interrupt)
    assert embed_papers(graph, db).embedded == 3
    # a paper deleted (or merged away) leaves no vector behind
    graph.execute_query("MATCH (p:Paper {id: $id}) DETACH DELETE p", id=changed, database_=db)
    assert embed_papers(graph, db).dropped == 1
    assert embed_counts(graph, db)[1] == first_run.embedded - 2


def brute_force(graph: Driver, db: str) -> tuple[list[str], np.ndarray]:
    """Every embedded paper's id and its vector recomputed from its text, outside Neo4j."""
    records, _, _ = graph.execute_query(
        "MATCH (p:Paper)-[:EMBEDDED_AS]->() RETURN p.id AS id, p.title AS title, p.abstract AS abstract ORDER BY id",
        database_=db,
    )
    texts = [paper_text(r["title"], r["abstract"]) or "" for r in records]
    return [r["id"] for r in records], embedder().embed(texts)


async def test_similar_papers_are_the_nearest_by_cosine(graph: Driver, settings: Settings, reader, first_run) -> None:
    ids, vectors = brute_force(graph, settings.neo4j_database)
    for k in (0, 7):
        found = await semantic.similar_papers(reader, ids[k], 5)
        cosines = vectors @ vectors[k]
        order = [i for i in np.argsort(-cosines) if i != k][:5]
        assert found.has_vector and [r["paper"]["id"] for r in found.rows] == [ids[i] for i in order]
        assert np.allclose([r["score"] for r in found.rows], cosines[order], atol=0.01)
    no_text = ids_by_openalex(graph, settings.neo4j_database)[NO_TEXT]
    assert await semantic.similar_papers(reader, no_text, 5) == semantic.Similar(False, [])
    assert await semantic.vector_model(reader, no_text) is None
    assert await semantic.vector_model(reader, ids[0]) == model_id()


async def test_similar_researchers_by_centroid_with_and_without_coauthors(
    graph: Driver, settings: Settings, reader, first_run
) -> None:
    db = settings.neo4j_database
    ids, vectors = brute_force(graph, db)
    records, _, _ = graph.execute_query(
        "MATCH (r:Researcher)-[:AUTHORED]->(p:Paper)-[:EMBEDDED_AS]->() WHERE coalesce(r.is_person, true) "
        "RETURN r.id AS r, r.openalex_id AS oa, collect(p.id) AS papers",
        database_=db,
    )
    papers = {r["r"]: r["papers"] for r in records}
    me = next(r["r"] for r in records if r["oa"] == KUNCHEVA)
    row = {pid: i for i, pid in enumerate(ids)}

    def centroid(rid: str) -> np.ndarray:
        c = vectors[[row[p] for p in papers[rid]]].sum(axis=0)
        return c / np.linalg.norm(c)

    coauthors = {o for o, ps in papers.items() if o != me and set(ps) & set(papers[me])}
    # researchers with the same papers tie exactly: ties are broken by id, as the query does
    want = sorted((o for o in papers if o != me), key=lambda o: (-round(float(centroid(o) @ centroid(me)), 4), o))
    everyone = await semantic.similar_researchers(reader, me, 8, exclude_coauthors=False)
    assert everyone.has_vector and [r["researcher"]["id"] for r in everyone.rows] == want[:8]
    assert np.allclose([r["score"] for r in everyone.rows], [centroid(o) @ centroid(me) for o in want[:8]], atol=0.01)
    assert coauthors & {r["researcher"]["id"] for r in everyone.rows}, "the nearest include co-authors"
    strangers = await semantic.similar_researchers(reader, me, 8, exclude_coauthors=True)
    assert [r["researcher"]["id"] for r in strangers.rows] == [o for o in want if o not in coauthors][:8]


def test_the_commands_embed_and_report(graph: Driver, settings: Settings, first_run) -> None:
    """`weft embed` reports papers/s and the papers without text; `weft load … --embed` embeds what it loaded."""
    db = settings.neo4j_database
    runner = CliRunner()
    env = {"NEO4J_URI": settings.neo4j_uri, "COLUMNS": "200"}
    result = runner.invoke(app, ["embed", "--quiet"], env=env)  # 2 without text: NO_TEXT and the one emptied above
    assert result.exit_code == 0, result.output
    assert re.search(
        r"\b0 papers embedded \([\d.,]+ papers/s\), \d+ unchanged, 2 without title or abstract", result.output
    )
    butcher = shared_path("openalex", "works", "author_works", "academic_explorer_author_A5032473237_works.json")
    papers_before, vectors_before = embed_counts(graph, db)
    result = runner.invoke(app, ["load", "openalex", "--quiet", "--embed", str(butcher)], env=env)
    assert result.exit_code == 0, result.output
    papers, vectors = embed_counts(graph, db)
    added = papers - papers_before
    assert added > 0 and vectors - vectors_before == added, "every new paper of the file has text and a vector"
    assert re.search(rf"\b{added} papers embedded \([\d.,]+ papers/s\)", result.output)
