"""docker-compose.yml's loader command, run here as the container runs it (no Docker where the tests run):
on a graph that already holds papers, a second `docker compose up` skips the load."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml
from neo4j import Driver

from weft.graph.migrate import counts
from weft.graph.settings import PROJECT_ROOT, Settings


def loader() -> tuple[str, dict[str, str]]:
    """The loader's shell script (after compose's `$$` -> `$`) and its environment."""
    service = yaml.safe_load((PROJECT_ROOT / "docker-compose.yml").read_text())["services"]["loader"]
    return service["command"][2].replace("$$", "$"), {k: str(v) for k, v in service["environment"].items()}


def test_the_loader_skips_a_graph_that_holds_papers(driver: Driver, settings: Settings, tmp_path: Path) -> None:
    script, env = loader()
    env |= {
        "NEO4J_URI": settings.neo4j_uri,
        "NEO4J_USER": settings.neo4j_user,
        "NEO4J_PASSWORD": settings.neo4j_password,
        "NEO4J_DATABASE": settings.neo4j_database,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",  # this venv's weft and python
        "HOME": str(tmp_path),
    }
    guard = subprocess.run(["python", "-c", env["LOADED"]], env=env, cwd=tmp_path, timeout=120, check=False)  # noqa: S607
    assert guard.returncode == 1, "an empty graph counts as loaded"

    driver.execute_query("CREATE (:Paper {id: 'compose-probe'})", database_=settings.neo4j_database)
    done = subprocess.run(  # noqa: S603
        ["sh", "-c", script], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the graph already holds papers: load skipped" in done.stdout
    assert counts(driver, settings.neo4j_database).get("Paper") == 1  # nothing was loaded
