"""pyproject.toml declares what the code is: every package, every third-party import, the Docker context.

`pip install .` installs only the packages listed in `[tool.setuptools] packages` and only the declared
dependencies; the editable install used for development hides both kinds of gap, so they are checked
here from the source (tests/packaging/test_wheel_install.py checks a real wheel).
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Callable, Mapping
from functools import cache
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from tests.packaging.docker_build import copies, ignored, instructions
from weft.graph.settings import PROJECT_ROOT

ROOTS = ("graph", "schema", "loaders", "server", "queries")
PYPROJECT = PROJECT_ROOT / "pyproject.toml"


@cache
def pyproject() -> dict:
    return tomllib.loads(PYPROJECT.read_text())


def _norm(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
    assert match, requirement
    return _norm(match.group())


def _declared(requirements: list[str]) -> dict[str, str]:
    """Normalised distribution name -> requirement string."""
    return {_requirement_name(r): r for r in requirements}


def _python_files(*folders: str) -> list[Path]:
    return [
        path
        for folder in folders
        for path in sorted((PROJECT_ROOT / folder).rglob("*.py"))
        if "__pycache__" not in path.parts
    ]


def _package_folders() -> set[str]:
    """weft.<dotted path> of every folder with an __init__.py under the five roots."""
    return {
        "weft." + ".".join(path.parent.relative_to(PROJECT_ROOT).parts)
        for root in ROOTS
        for path in (PROJECT_ROOT / root).rglob("__init__.py")
        if "__pycache__" not in path.parts
    }


def test_every_package_folder_is_listed_and_every_listed_package_exists() -> None:
    listed = pyproject()["tool"]["setuptools"]["packages"]
    assert len(listed) == len(set(listed)), "a package is listed twice"
    found = _package_folders() | {"weft"}  # weft/__main__.py, without __init__.py (a namespace)
    assert sorted(found - set(listed)) == [], "folders with __init__.py that `pip install .` would leave out"
    assert sorted(set(listed) - found) == [], "listed packages with no folder (and __init__.py) behind them"


def test_each_root_maps_to_its_folder_and_every_module_is_in_a_package() -> None:
    package_dir = pyproject()["tool"]["setuptools"]["package-dir"]
    assert package_dir == {"weft": "weft", **{f"weft.{root}": root for root in ROOTS}}
    # `python -m weft`: the namespace's one module; an __init__.py would hide weft.graph and the others
    assert sorted(p.name for p in (PROJECT_ROOT / "weft").iterdir() if p.name != "__pycache__") == ["__main__.py"]
    for path in _python_files(*ROOTS):
        assert (path.parent / "__init__.py").is_file(), f"{path.relative_to(PROJECT_ROOT)} is in no package"


def _imported_top_levels(paths: list[Path]) -> dict[str, set[str]]:
    """Top-level names of absolute imports (anywhere in a module) -> files importing them."""
    found: dict[str, set[str]] = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.partition(".")[0], set()).add(path.relative_to(PROJECT_ROOT).as_posix())
    return found


def _third_party(imports: dict[str, set[str]]) -> dict[str, set[str]]:
    first_party = {"weft", "tests", "bench", "__future__"}  # bench/: the repository's own benchmarks
    return {m: f for m, f in imports.items() if m not in first_party and m not in sys.stdlib_module_names}


@cache
def _installed() -> Mapping[str, list[str]]:
    """Import name -> installed distributions, read once (reading every distribution's files is slow)."""
    return packages_distributions()


def _distributions(module: str) -> set[str]:
    """The installed distributions providing an import name (the test venv holds every extra)."""
    dists = _installed().get(module)
    assert dists, f"no installed distribution provides `import {module}`"
    return {_norm(d) for d in dists}


@cache  # the source does not change during a test run
def _runtime_imports() -> dict[str, set[str]]:
    return _third_party(_imported_top_levels(_python_files(*ROOTS)))


@cache
def _test_imports() -> dict[str, set[str]]:
    return _third_party(_imported_top_levels(_python_files("tests")))


# Modules that may import an optional extra's packages (and only they): the extra is named in the
# error the module raises when they are missing.
OPTIONAL = {"spark": {"loaders/bulk/spark.py"}, "storage": {"loaders/storage.py"}}


def _extra_for(files: set[str]) -> str | None:
    return next((extra for extra, allowed in OPTIONAL.items() if files <= allowed), None)


def test_third_party_imports_of_the_packages_are_runtime_dependencies() -> None:
    project = pyproject()["project"]
    declared = _declared(project["dependencies"])
    imports = _runtime_imports()
    assert {"neo4j", "strawberry", "starlette", "networkx"} <= set(imports), "the import scan found too little"
    missing: dict[str, str] = {}
    for module, files in imports.items():
        extra = _extra_for(files)
        allowed = set(declared) | (set(_declared(project["optional-dependencies"][extra])) if extra else set())
        if not _distributions(module) & allowed:
            missing[module] = sorted(files)[0]
    assert missing == {}, "imported by weft but not in [project] dependencies (module: an importing file)"
    assert {"pyspark", "sqlglot"} <= {m for m, f in imports.items() if _extra_for(f) == "spark"}
    assert {"upath"} <= {m for m, f in imports.items() if _extra_for(f) == "storage"}


def test_test_only_imports_are_in_the_test_extra() -> None:
    runtime = set(_runtime_imports())
    test_extra = _declared(pyproject()["project"]["optional-dependencies"]["test"])
    test_only = {m: files for m, files in _test_imports().items() if m not in runtime}
    assert {"pytest", "yaml"} <= set(test_only), "the import scan found too little"
    missing = {m: sorted(files)[0] for m, files in test_only.items() if not _distributions(m) & set(test_extra)}
    assert missing == {}, "imported only by tests/ but not in the `test` extra (module: an importing file)"


def _commented(requirement: str) -> bool:
    """Whether pyproject.toml says, on its line or the line above, why a requirement is there."""
    lines = PYPROJECT.read_text().splitlines()
    (index,) = [i for i, line in enumerate(lines) if line.strip().startswith(f'"{requirement}"')]
    return "#" in lines[index] or lines[index - 1].strip().startswith("#")


@pytest.mark.parametrize(("group", "imports"), [("dependencies", _runtime_imports), ("test", _test_imports)])
def test_declared_requirements_nothing_imports_say_why(group: str, imports: Callable[[], dict[str, set[str]]]) -> None:
    project = pyproject()["project"]
    requirements = project["dependencies"] if group == "dependencies" else project["optional-dependencies"][group]
    provided = {d for module in imports() for d in _distributions(module)}
    unexplained = [r for name, r in _declared(requirements).items() if name not in provided and not _commented(r)]
    assert unexplained == [], f"{group}: nothing imports these; a comment in pyproject.toml must say why"


# ---- the Docker build context -------------------------------------------------------------------

MUST_BE_IGNORED = [
    ".git/HEAD",
    ".venv/bin/python",
    ".neo4j/lib/neo4j.jar",
    "build/lib/weft/graph/__init__.py",
    "weft.egg-info/PKG-INFO",
    "web/node_modules/cytoscape/package.json",
    "test-artifacts/page.png",
    "bench/out/run.json",
    "server/static/vendor/cytoscape.min.js",
    "graph/__pycache__/settings.cpython-311.pyc",
    "graph/reads/__pycache__/reader.cpython-311.pyc",
    ".pytest_cache/README.md",
    ".ruff_cache/CACHEDIR.TAG",
]


@pytest.mark.parametrize("path", MUST_BE_IGNORED)
def test_dockerignore_leaves_out_local_state(path: str) -> None:
    assert ignored(path), f"{path} would be sent to the Docker build context"


def test_dockerignore_keeps_every_file_the_dockerfile_copies() -> None:
    """Every COPY source from the build context exists; only caches and the web stage's output are ignored."""
    steps = instructions((PROJECT_ROOT / "Dockerfile").read_text())
    context_sources = [s for copy in copies(steps) if copy.stage is None for s in copy.sources]
    assert {"pyproject.toml", "README.md", *ROOTS, "demo", "web/package.json"} <= set(context_sources)
    for source in context_sources:
        path = PROJECT_ROOT / source
        assert path.exists(), f"the Dockerfile copies {source}, which does not exist"
        assert not ignored(source), f"the Dockerfile copies {source}, which .dockerignore leaves out"
        files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
        dropped = [
            rel
            for rel in (p.relative_to(PROJECT_ROOT).as_posix() for p in files)
            if ignored(rel) and "/__pycache__/" not in rel and not rel.startswith("server/static/vendor/")
        ]
        assert dropped == [], f"{source}: .dockerignore leaves out files the image needs"
