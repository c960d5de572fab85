"""Every recipe in queries/cookbook.md runs read-only on the shared OpenAlex data and answers.

Recipes are parsed from the Markdown (each ```cypher block, with its `// params:` line), run
through the same read path as `weft cypher`, and a few answers are checked against the raw JSON.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import networkx as nx
import pytest
from neo4j import Driver
from typer.testing import CliRunner

from tests.conftest import ANALYTICS_SCORES_REMOVED, restoring, shared_path
from weft.graph.network_scores import compute_and_store
from weft.graph.settings import PROJECT_ROOT, Settings
from weft.queries import read_researchers
from weft.server.cli import app as cli_app
from weft.server.cli.analysis import ReadResult, run_read

COOKBOOK = PROJECT_ROOT / "queries" / "cookbook.md"
BUTCHER, RITSOS = "A5032473237", "A5065371627"
LOOKUP = "MATCH (r:Researcher {openalex_id: $openalex_id}) RETURN r.id AS id"
_SECTION = re.compile(r"^## (\d+)\. (.+?)\n(.*?)(?=^## |\Z)", re.MULTILINE | re.DOTALL)
_BLOCK = re.compile(r"```cypher\n(.*?)```", re.DOTALL)


def recipes() -> list[tuple[str, str, dict]]:
    """(number and title, Cypher, example params) for every recipe in the cookbook."""
    found = []
    for number, title, body in _SECTION.findall(COOKBOOK.read_text(encoding="utf-8")):
        blocks = _BLOCK.findall(body)
        assert len(blocks) == 1, f"recipe {number} must have exactly one cypher block"
        first, _, _ = blocks[0].partition("\n")
        assert first.startswith("// params: "), f"recipe {number} must start with its // params: line"
        found.append((f"{number}. {title}", blocks[0], json.loads(first.removeprefix("// params: "))))
    return found


RECIPES = recipes()


def raw_works() -> dict[str, dict]:
    works: dict[str, dict] = {}
    for path in sorted(Path(shared_path("openalex", "works")).rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        items = data["results"] if isinstance(data, dict) and "results" in data else data
        for work in items if isinstance(items, list) else [items]:
            if work["id"] not in works or work.get("updated_date", "") > works[work["id"]].get("updated_date", ""):
                works[work["id"]] = work
    return works


def authors(work: dict) -> list[str]:
    return sorted({a["author"]["id"].rsplit("/", 1)[-1] for a in work["authorships"] if a["author"].get("id")})


@pytest.fixture(scope="module")
def graph(openalex_graph: Driver, settings: Settings) -> Iterator[Driver]:
    """The shared OpenAlex data with `weft analytics` scores stored (recipes 14 and 15 read them), removed
    at the end of the module (the next module takes the shared load as it was)."""
    with restoring(openalex_graph, settings, "openalex_graph", ANALYTICS_SCORES_REMOVED):
        compute_and_store(openalex_graph, settings.neo4j_database)
        yield openalex_graph


def run(graph: Driver, settings: Settings, cypher: str, params: dict) -> ReadResult:
    return run_read(graph, cypher, params, settings.neo4j_database, timeout_s=60, max_rows=1000)


def test_the_cookbook_has_ten_or_more_recipes() -> None:
    assert len(RECIPES) >= 10
    assert len({title for title, _, _ in RECIPES}) == len(RECIPES)


@pytest.mark.parametrize(("title", "cypher", "params"), RECIPES, ids=[t for t, _, _ in RECIPES])
def test_recipe_runs_read_only_and_answers(
    graph: Driver, settings: Settings, title: str, cypher: str, params: dict
) -> None:
    result = run(graph, settings, cypher, params)
    assert result.rows, f"{title} returned no rows"
    assert not result.truncated
    if "limit" in params:
        assert len(result.rows) <= params["limit"]
    assert all(any(value not in (None, [], "") for value in row) for row in result.rows)


def test_recipe_answers_match_the_raw_json(graph: Driver, settings: Settings) -> None:
    works = raw_works()
    pairs: Counter[tuple[str, str]] = Counter()
    g = nx.Graph()
    for work in works.values():
        for pair in combinations(authors(work), 2):
            pairs[pair] += 1
            g.add_edge(*pair)
    by_title = {title.split(". ", 1)[1]: (cypher, params) for title, cypher, params in RECIPES}

    cypher, params = by_title["Top collaborators of a researcher"]
    result = run(graph, settings, cypher, params)
    top = dict(zip(result.columns, result.rows[0], strict=True))
    assert (
        (top["openalex_id"], top["shared_papers"]) == (RITSOS, pairs[tuple(sorted((BUTCHER, RITSOS)))]) == (RITSOS, 15)
    )

    cypher, params = by_title["Strongest collaborations in the graph"]
    result = run(graph, settings, cypher, params)
    assert result.rows[0][result.columns.index("shared_papers")] == max(pairs.values())

    cypher, params = by_title["Shortest co-authorship chain between two researchers"]
    result = run(graph, settings, cypher, params)
    assert result.rows[0][result.columns.index("hops")] == nx.shortest_path_length(g, params["from"], params["to"])

    cypher, params = by_title["A researcher's collaboration timeline"]
    result = run(graph, settings, cypher, params)
    mine = [w for w in works.values() if BUTCHER in authors(w)]
    assert sum(row[result.columns.index("papers")] for row in result.rows) == len(mine)
    assert {row[0] for row in result.rows} == {w["publication_year"] for w in mine}


def test_weft_cypher_runs_a_recipe_as_json(graph: Driver) -> None:
    _, cypher, _ = RECIPES[0]
    result = CliRunner().invoke(
        cli_app, ["cypher", cypher, "--param", f"researcher={BUTCHER}", "--param", "limit=3", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert len(rows) == 3 and rows[0]["openalex_id"] == RITSOS and rows[0]["shared_papers"] == 15


def test_the_same_name_recipe_counts_what_the_api_says(graph: Driver, settings: Settings) -> None:
    """Recipe 16's numbers are the API's evidence lines (read_researchers.SAME_NAME_EVIDENCE), link by link."""
    by_title = {title.split(". ", 1)[1]: (cypher, params) for title, cypher, params in RECIPES}
    cypher, params = by_title["The evidence behind a researcher's same-name links"]
    result = run(graph, settings, cypher, params)
    found = [dict(zip(result.columns, row, strict=True)) for row in result.rows]
    [rid] = [r["id"] for r in graph.execute_query(LOOKUP, openalex_id=params["openalex_id"], routing_="r").records]
    api = {r["researcher"]["id"]: r for r in graph.execute_query(read_researchers.RESEARCHER_SAME_NAME, ids=[rid])[0]}
    assert found and {row["namesake"] for row in found} == set(api)
    for row in found:
        lines = [f"shared co-authors: {row['shared_coauthors']}", f"shared institutions: {row['shared_institutions']}"]
        lines += [f"overlapping years: {row['overlapping_years']}"]
        lines += [f"listed together on {row['papers_together']} paper(s)"]
        evidence = api[row["namesake"]]["evidence"]
        assert evidence[1:] == [line for line in lines if not line.endswith((": 0", " 0 paper(s)"))]
