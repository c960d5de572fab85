"""The wheel as the Docker image builds it, installed into a clean virtualenv (no editable install).

The Dockerfile's final stage is replayed into a temporary folder (tests/packaging/docker_build.py),
a wheel is built from it as `pip install .` builds one, and installed with its dependencies into a
new virtualenv. That venv's `weft` then runs the README's first run as a new user would: `weft neo4j start`
(Neo4j fetched into the user's data folder, on free Bolt and HTTP ports), `weft migrate`, `weft load` of real
OpenAlex records, `weft serve` (GraphQL, the network page and its vendor script, all from the installed
wheel), and `weft neo4j stop`. The jars resolve from the machine's Maven repository (~/.m2, filled by the
session server's first fetch), so the fetch copies files and downloads nothing.
A wheel built without `make web` is refused by the build backend (build_backend/weft_build.py).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import httpx
import pytest

from tests.conftest import free_port, free_ports, shared_path
from tests.packaging.docker_build import replay_final_stage
from weft.graph import local_server
from weft.graph.settings import PROJECT_ROOT

ROOTS = ("weft", "graph", "schema", "loaders", "server", "queries")  # weft/: its __main__.py alone
VENDOR_JS = PROJECT_ROOT / "server" / "static" / "vendor" / "cytoscape.min.js"
AUTHOR_ID = "A5017572309"
AUTHOR_FILE = ("openalex", "authors", f"{AUTHOR_ID}.json")
WORKS_FILE = ("openalex", "works", "author_works", f"academic_explorer_author_{AUTHOR_ID}_works.json")


def _run(
    args: list[str | Path], timeout: float, check: bool = True, **kwargs: object
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=timeout, **kwargs)  # noqa: S603
    if check:
        assert done.returncode == 0, f"{args} exited {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


def expected_wheel_files(app: Path) -> set[str]:
    """Every module of the five folders in `app`, the page's static files and templates, and MODEL.md."""
    files = {
        f"weft/{path.relative_to(app / 'weft' if root == 'weft' else app).as_posix()}"  # weft/ is the package root
        for root in ROOTS
        for path in (app / root).rglob("*.py")
        if "__pycache__" not in path.parts
    }
    for folder in ("server/static", "server/templates"):
        for path in (app / folder).rglob("*"):
            if path.is_file() and not path.name.startswith("."):
                files.add(f"weft/{path.relative_to(app).as_posix()}")
    files |= {"weft/graph/MODEL.md", "weft/graph/neo4j-server/pom.xml"}
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
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a new user of the installed `weft`: an empty HOME, nothing of the checkout or of the
    session's server (no NEO4J_*, no WEFT_*, no XDG_DATA_HOME), free Bolt and HTTP ports for its own Neo4j.
    Maven reads the machine's repository (MAVEN_OPTS), which the session's first fetch filled."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "VIRTUAL_ENV", "XDG_DATA_HOME") and not k.startswith(("NEO4J_", "WEFT_"))
    }
    bolt, http = free_ports(2)
    env |= {
        "HOME": str(tmp_path_factory.mktemp("home")),
        "NEO4J_URI": f"bolt://127.0.0.1:{bolt}",
        "WEFT_NEO4J_HTTP_PORT": str(http),
        "WEFT_NEO4J_HEAP": "512m",
        "WEFT_NEO4J_PAGECACHE": "64m",
        "MAVEN_OPTS": f"{os.environ.get('MAVEN_OPTS', '')} -Dmaven.repo.local={Path.home() / '.m2' / 'repository'}",
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


def _backend() -> ModuleType:
    """build_backend/weft_build.py, loaded from its file (it is no package of the wheel)."""
    spec = importlib.util.spec_from_file_location("weft_build", PROJECT_ROOT / "build_backend" / "weft_build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_backend_checks_every_vendor_file_a_page_loads(tmp_path: Path) -> None:
    backend = _backend()
    assert backend.vendor_files_referenced() == {
        "cytoscape.min.js",
        "graphiql.min.js",
        "graphiql.min.css",
        "react.production.min.js",
        "react-dom.production.min.js",
    }
    assert backend.missing_vendor_files() == [], "make web has not run"
    assert backend.missing_vendor_files(vendor=tmp_path) == sorted(backend.vendor_files_referenced())


def test_a_wheel_built_without_make_web_is_refused(app: Path, tmp_path: Path) -> None:
    """Issue 48 item 13: without server/static/vendor the build stops and says why, instead of shipping pages
    whose scripts never load."""
    bare = tmp_path / "app"
    shutil.copytree(app, bare)
    shutil.rmtree(bare / "server" / "static" / "vendor")
    build = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", tmp_path / "dist", bare], 300, check=False)
    assert build.returncode != 0
    assert "server/static/vendor lacks cytoscape.min.js" in build.stdout + build.stderr
    assert "run `make web`" in build.stdout + build.stderr
    assert not list((tmp_path / "dist").glob("*.whl"))


def _site_packages(installed: Path) -> Path:
    (site,) = (installed.parent / "lib").glob("python3.*/site-packages")
    return site


def test_installed_weft_keeps_its_neo4j_in_the_user_data_folder_or_weft_neo4j_home(
    installed: Path, env: dict[str, str], tmp_path: Path
) -> None:
    code = "from weft.graph.settings import load_settings; print(load_settings().neo4j_home)"
    default = _run([installed / "python", "-c", code], timeout=60, env=env, cwd=tmp_path).stdout.strip()
    assert Path(default) == Path(env["HOME"]) / ".local" / "share" / "weft" / "neo4j"
    chosen = tmp_path / "chosen"
    named = _run([installed / "python", "-c", code], 60, env={**env, "WEFT_NEO4J_HOME": str(chosen)}, cwd=tmp_path)
    assert Path(named.stdout.strip()) == chosen


@pytest.fixture(scope="module")
def neo4j(installed: Path, env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`weft neo4j start` of the installed weft (what it printed); stopped, and its data folder removed, after."""
    cwd = tmp_path_factory.mktemp("cwd")
    try:
        yield _run([installed / "weft", "neo4j", "start"], timeout=900, env=env, cwd=cwd).stdout
    finally:
        _run([installed / "weft", "neo4j", "stop"], timeout=120, env=env, cwd=cwd, check=False)
        shutil.rmtree(Path(env["HOME"]) / ".local" / "share" / "weft", ignore_errors=True)


def test_installed_weft_starts_neo4j_from_its_packaged_pom_in_the_user_data_folder(
    neo4j: str, installed: Path, env: dict[str, str]
) -> None:
    """Issue 48 item 12: the pom ships in the wheel, the jars and the instance go to the user's data folder,
    and nothing is written into site-packages."""
    assert f"Neo4j started at {env['NEO4J_URI']}" in neo4j, neo4j
    assert f"Neo4j Browser at http://127.0.0.1:{env['WEFT_NEO4J_HTTP_PORT']}/browser/" in neo4j
    site = _site_packages(installed)
    pom = site / "weft" / "graph" / "neo4j-server" / "pom.xml"
    assert pom.read_bytes() == local_server.POM.read_bytes()
    home = Path(env["HOME"]) / ".local" / "share" / "weft" / "neo4j"
    marker = (home / "lib" / ".complete").read_text().strip()
    assert marker == hashlib.sha256(pom.read_bytes()).hexdigest()[:16]
    port = env["NEO4J_URI"].rsplit(":", 1)[1]
    assert (home / "instances" / port / "run" / "weft-neo4j.pid").is_file()
    assert [p for p in site.rglob(".neo4j")] == []


@pytest.fixture
def served(neo4j: str, installed: Path, env: dict[str, str], tmp_path: Path) -> Iterator[str]:
    """The installed `weft` migrates its own Neo4j, loads one researcher and their works, then `weft serve`
    runs; its base URL."""
    _run([installed / "weft", "migrate"], timeout=300, env=env, cwd=tmp_path)
    load = [installed / "weft", "load", "openalex", "-q", shared_path(*AUTHOR_FILE), shared_path(*WORKS_FILE)]
    _run(load, timeout=300, env=env, cwd=tmp_path)
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen(  # noqa: S603
        # one worker: the packaging is under test here, not uvicorn's supervision of several (test_serve_workers)
        [installed / "weft", "serve", "--port", str(port), "--workers", "1", "--log-level", "warning"],
        env=env,
        cwd=tmp_path,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300  # bounds a hang only: two workers start slowly on a busy machine
        while True:
            if server.poll() is not None:
                pytest.fail(f"weft serve exited {server.returncode}:\n{(tmp_path / 'serve.log').read_text()}")
            if time.monotonic() > deadline:
                pytest.fail(f"weft serve did not answer /health within 300 s:\n{(tmp_path / 'serve.log').read_text()}")
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
        assert re.search(rf'src="{re.escape(src)}\?v=[0-9a-f]{{12}}"', page.text), src  # server/static_files.py
    vendor = httpx.get(f"{served}{scripts[0]}", timeout=30)
    assert vendor.status_code == 200
    assert vendor.content == VENDOR_JS.read_bytes()
    own = httpx.get(f"{served}{scripts[1]}", timeout=30)
    assert own.status_code == 200
    assert own.content == (PROJECT_ROOT / "server" / "static" / "network.js").read_bytes()


def test_installed_weft_stops_its_neo4j_and_says_nothing_runs(neo4j: str, installed: Path, env: dict[str, str]) -> None:
    stopped = _run([installed / "weft", "neo4j", "stop"], timeout=120, env=env).stdout
    port = env["NEO4J_URI"].rsplit(":", 1)[1]
    assert f"Neo4j on port {port} stopped" in stopped
    status = _run([installed / "weft", "neo4j", "status"], timeout=60, env=env).stdout
    assert f"{env['NEO4J_URI']}: does not answer (not running)" in status, status
