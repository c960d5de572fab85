"""queries/analysis.ipynb runs top to bottom (nbclient, the venv's ipykernel) against real OpenAlex data
(the four visualisation authors' works files): no cell fails, both plots are drawn, and the numbers it
ends with match the raw JSON. The committed notebook carries no outputs."""

from __future__ import annotations

import json
from itertools import combinations

import nbformat
import networkx as nx
import pytest
from nbclient import NotebookClient
from neo4j import Driver

from tests.conftest import shared_path
from weft.graph.settings import PROJECT_ROOT, Settings
from weft.loaders.run import load_paths

NOTEBOOK = PROJECT_ROOT / "queries" / "analysis.ipynb"
ARTIFACTS = PROJECT_ROOT / "test-artifacts"
BUTCHER, BANGOR = "A5032473237", "I161548249"


def raw_works() -> list[dict]:
    works: dict[str, dict] = {}
    for path in sorted(shared_path("openalex", "works", "author_works").glob("*.json")):
        for work in json.loads(path.read_text(encoding="utf-8")):
            works[work["id"]] = work
    return list(works.values())


def author_ids(work: dict) -> list[str]:
    return sorted({a["author"]["id"].rsplit("/", 1)[-1] for a in work["authorships"] if a["author"].get("id")})


def test_the_committed_notebook_has_no_outputs() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code
    assert all(cell.outputs == [] and cell.execution_count is None for cell in code)


@pytest.fixture(scope="module")
def executed(driver: Driver, settings: Settings) -> nbformat.NotebookNode:
    load_paths(
        driver, [shared_path("openalex", "works", "author_works")], source="openalex", database=settings.neo4j_database
    )
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    # the kernel inherits this process's environment, so NEO4J_URI names the test server
    NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(PROJECT_ROOT)}}
    ).execute()
    ARTIFACTS.mkdir(exist_ok=True)
    nbformat.write(notebook, ARTIFACTS / "analysis.ipynb")
    return notebook


def test_notebook_runs_and_draws_both_plots(executed: nbformat.NotebookNode) -> None:
    outputs = [output for cell in executed.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if o.output_type == "display_data" and "image/png" in o.data]
    assert len(images) == 2


def test_notebook_numbers_match_the_raw_json(executed: nbformat.NotebookNode, driver: Driver) -> None:
    last = executed.cells[-1].outputs
    summary = json.loads("".join(o.text for o in last if o.output_type == "stream").strip().splitlines()[-1])

    works = raw_works()
    raw = nx.Graph()
    for work in works:
        raw.add_nodes_from(author_ids(work))
        raw.add_edges_from(combinations(author_ids(work), 2))
    ego = raw.subgraph([BUTCHER, *raw[BUTCHER]])
    assert summary["coauthors"] == raw.degree(BUTCHER)
    assert summary["network_ties"] == ego.number_of_edges()

    bangor = [
        w
        for w in works
        if w.get("publication_year")
        and any(i["id"].endswith("/" + BANGOR) for a in w["authorships"] for i in a.get("institutions", []))
    ]
    assert summary["institution_papers"] == len(bangor) > 0
    assert summary["institution_citations"] == sum(w.get("cited_by_count") or 0 for w in bangor)

    assert summary["ranked_researchers"] == raw.number_of_nodes()
    assert summary["communities"] >= nx.number_connected_components(raw)
    projections, _, _ = driver.execute_query("CALL gds.graph.list() YIELD graphName RETURN collect(graphName) AS names")
    assert "notebook-coauthors" not in projections[0]["names"]
