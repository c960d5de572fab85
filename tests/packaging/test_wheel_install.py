"""The wheel as the Docker image builds it, installed into a clean virtualenv (no editable install).

The Dockerfile's final stage is replayed into a temporary folder (tests/packaging/docker_build.py),
a wheel is built from it as `pip install .` builds one, and installed with its dependencies into a
new virtualenv. That venv's `weft` then loads real OpenAlex records into the session's Neo4j and
serves them: GraphQL, the network page and its vendor script all come from the installed wheel.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from neo4j import Driver

from tests.conftest import free_port, shared_path
from tests.packaging.docker_build import replay_final_stage
from weft.graph.settings import PROJECT_ROOT, Settings

ROOTS = ("weft", "graph", "schema", "loaders", "server", "queries")  # weft/: its __main__.py alone
VENDOR_JS = PROJECT_ROOT / "server" / "static" / "vendor" / "cytoscape.min.js"
AUTHOR_ID = "A5017572309"
AUTHOR_FILE = ("openalex", "authors", f"{AUTHOR_ID}.json")
WORKS_FILE = ("openalex", "works", "author_works", f"academic_explorer_author_{AUTHOR_ID}_works.json")


def _run(args: list[str | Path], timeout: float, **kwargs: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=timeout, **kwargs)  # noqa: S603
    assert done.returncode == 0, f"{args} exited {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


def expected_wheel_files(app: Path) -> set[str]:
    """Every module of the five folders in `app`, the page's static files and templates, and MODEL.md."""
    files = {
        f"weft/{path.relative_to(app).as_posix()}"
        for root in ROOTS
        for path in (app / root).rglob("*.py")
        if "__pycache__" not in path.parts
    }
    for folder in ("server/static", "server/templates"):
        for path in (app / folder).rglob("*"):
            if path.is_file() and not path.name.startswith("."):
                files.add(f"weft/{path.relative_to(app).as_posix()}")
    files.add("weft/graph/MODEL.md")
    return files


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What the Dockerfile COPYs into /app before `RUN pip install .`."""
    if not VENDOR_JS.is_file():
        pytest.fail(f"{VENDOR_JS} is missing: run `make web` (the Docker web stage's npm ci) first")
    app = tmp_path_factory.mktemp("docker-app")
    steps = replay_final_stage(app)
    assert ("RUN", "pip install .") in steps, "the Dockerfile no longer installs with `pip install .`"
    assert (app / "server" / "static" / "vendor" / VENDOR_JS.name).is_file(), "the web stage's output is not copied"
    return app


@pytest.fixture(scope="module")
def wheel(app: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel `RUN pip install .` builds in /app, built without warnings."""
    dist = tmp_path_factory.mktemp("dist")
    # as in the python image, which does not set PYTHONDONTWRITEBYTECODE (setuptools warns about it)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    build = _run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", dist, app], timeout=300, env=env)
    warnings = [line for line in (build.stdout + build.stderr).splitlines() if re.search(r"(?i)warn|deprecat", line)]
    assert warnings == [], "the build printed warnings (setuptools configuration?)"
    (built,) = dist.glob("weft-*.whl")
    return built


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory, settings: Settings) -> dict[str, str]:
    """The environment of the installed `weft`: the session's Neo4j, nothing of the checkout."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env |= {
        "NEO4J_URI": settings.neo4j_uri,
        "NEO4J_USER": settings.neo4j_user,
        "NEO4J_PASSWORD": settings.neo4j_password,
        "NEO4J_DATABASE": settings.neo4j_database,
        "HOME": str(tmp_path_factory.mktemp("home")),
    }
    return env


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtualenv holding the wheel and its dependencies (from the index); its bin folder."""
    root = tmp_path_factory.mktemp("venv")
    venv.create(root, with_pip=False)
    python = root / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", python]
    _run([*pip, "install", "-q", "--no-compile", wheel], timeout=600)
    _run([*pip, "check"], timeout=120)
    return root / "bin"


def test_wheel_holds_the_weft_packages_and_their_files(app: Path, wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    dist_info = {n for n in names if n.startswith("weft-0.1.0.dist-info/")}
    assert {n.split("/")[0] for n in names - dist_info} == {"weft"}, "only weft/… may be installed"
    assert names - dist_info == expected_wheel_files(app)
    assert {"weft/server/static/vendor/cytoscape.min.js", "weft/server/templates/network.html"} <= names
    entry_points = zipfile.ZipFile(wheel).read("weft-0.1.0.dist-info/entry_points.txt").decode()
    assert "weft = weft.server.cli:app" in entry_points


def test_installed_weft_imports_from_its_venv_and_answers_help(
    installed: Path, env: dict[str, str], tmp_path: Path
) -> None:
    code = "import weft.graph.reads, weft.graph.analytics, weft.server.cli as c; print(c.__file__)"
    where = _run([installed / "python", "-c", code], timeout=60, env=env, cwd=tmp_path).stdout.strip()
    assert Path(where).is_relative_to(installed.parent / "lib"), where
    help_text = _run([installed / "weft", "--help"], timeout=60, env=env, cwd=tmp_path).stdout
    for command in ("serve", "load", "migrate", "neo4j", "build", "import"):
        assert f" {command} " in help_text


@pytest.fixture
def served(installed: Path, env: dict[str, str], driver: Driver, tmp_path: Path) -> Iterator[str]:
    """The installed `weft` loads one researcher and their works, then `weft serve` runs; its base URL."""
    load = [installed / "weft", "load", "openalex", "-q", shared_path(*AUTHOR_FILE), shared_path(*WORKS_FILE)]
    _run(load, timeout=180, env=env, cwd=tmp_path)
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen(  # noqa: S603
        [installed / "weft", "serve", "--port", str(port), "--log-level", "warning"],
        env=env,
        cwd=tmp_path,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                pytest.fail(f"weft serve exited {server.returncode}:\n{(tmp_path / 'serve.log').read_text()}")
            assert time.monotonic() < deadline, "weft serve did not answer /health within 60 s"
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=15)
        log.close()


def test_installed_weft_serves_graphql_the_page_and_its_vendor_script(served: str) -> None:
    author = json.loads(shared_path(*AUTHOR_FILE).read_text())
    works = json.loads(shared_path(*WORKS_FILE).read_text())
    authored = {w["title"] for w in works if any(a["author"]["id"].endswith(AUTHOR_ID) for a in w["authorships"])}
    assert authored, "the shared works file no longer holds this researcher's works"

    query = """query($id: String!) { researcher(id: $id) {
        name paperCount papers(first: 50) { totalCount edges { node { title } } } } }"""
    response = httpx.post(f"{served}/graphql", json={"query": query, "variables": {"id": AUTHOR_ID}}, timeout=30)
    assert response.status_code == 200, response.text
    body = response.json()
    assert "errors" not in body, body
    researcher = body["data"]["researcher"]
    assert researcher["name"] == author["display_name"]
    assert researcher["paperCount"] == researcher["papers"]["totalCount"] == len(authored)
    assert {e["node"]["title"] for e in researcher["papers"]["edges"]} == authored

    page = httpx.get(f"{served}/researchers/{AUTHOR_ID}/network", timeout=30)
    assert page.status_code == 200
    assert f'data-researcher-id="{AUTHOR_ID}"' in page.text
    scripts = ["/static/vendor/cytoscape.min.js", "/static/network.js"]
    for src in scripts:
        assert f'src="{src}"' in page.text
    vendor = httpx.get(f"{served}{scripts[0]}", timeout=30)
    assert vendor.status_code == 200
    assert vendor.content == VENDOR_JS.read_bytes()
    own = httpx.get(f"{served}{scripts[1]}", timeout=30)
    assert own.status_code == 200
    assert own.content == (PROJECT_ROOT / "server" / "static" / "network.js").read_bytes()
