"""What `docker build .` puts into the image's /app before `RUN pip install .`, without Docker.

The final stage's COPY lines are read from the Dockerfile and replayed into a folder: sources from
the build context are filtered by `.dockerignore` as Docker filters them; `COPY --from=<stage>`
sources are taken from the checkout as `make web` leaves it (the web stage runs the same `npm ci`).
"""

from __future__ import annotations

import re
import shlex
import shutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from weft.graph.settings import PROJECT_ROOT

WORKDIR = "/app"


@dataclass(frozen=True)
class Copy:
    sources: tuple[str, ...]
    dest: str
    stage: str | None  # --from=<stage>, or None for the build context


def instructions(dockerfile: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    kept = "\n".join(line for line in dockerfile.splitlines() if not line.lstrip().startswith("#"))
    joined = re.sub(r"\\\n", " ", kept)
    found = []
    for line in joined.splitlines():
        if line.strip():
            keyword, _, rest = line.strip().partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def final_stage(dockerfile: str) -> list[tuple[str, str]]:
    """The instructions after the last FROM."""
    steps = instructions(dockerfile)
    last_from = max(i for i, (keyword, _) in enumerate(steps) if keyword == "FROM")
    return steps[last_from + 1 :]


def copies(steps: list[tuple[str, str]]) -> list[Copy]:
    result = []
    for keyword, args in steps:
        if keyword != "COPY":
            continue
        words = shlex.split(args)
        flags = {w.partition("=")[0]: w.partition("=")[2] for w in words if w.startswith("--")}
        paths = [w for w in words if not w.startswith("--")]
        result.append(Copy(tuple(paths[:-1]), paths[-1], flags.get("--from")))
    return result


@cache
def ignore_patterns(root: Path = PROJECT_ROOT) -> tuple[tuple[bool, re.Pattern[str]], ...]:
    """(is_exception, regex) per `.dockerignore` line, in order (Docker's syntax: `*`, `?`, `**`, `!`)."""
    patterns = []
    for raw in (root / ".dockerignore").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        body = line.removeprefix("!").strip().strip("/")
        regex = ""
        for part in re.split(r"(\*\*/|\*\*|\*|\?)", body):
            regex += {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}.get(part, re.escape(part))
        patterns.append((negated, re.compile(regex)))
    return tuple(patterns)


def ignored(relative: str, root: Path = PROJECT_ROOT) -> bool:
    """Whether Docker leaves `relative` (a path in the build context) out of the context."""
    parts = relative.strip("/").split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    result = False
    for negated, pattern in ignore_patterns(root):
        if any(pattern.fullmatch(prefix) for prefix in prefixes):
            result = not negated
    return result


def _copy_path(source: Path, target: Path, relative_to: Path | None) -> None:
    """Copy a file or a folder's contents; paths under `relative_to` are filtered by .dockerignore."""
    files = [source] if source.is_file() else sorted(p for p in source.rglob("*") if p.is_file())
    for path in files:
        if relative_to is not None and ignored(path.relative_to(relative_to).as_posix(), relative_to):
            continue
        out = target if source.is_file() else target / path.relative_to(source)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, out)


def replay_final_stage(dest: Path, root: Path = PROJECT_ROOT) -> list[tuple[str, str]]:
    """Replay the final stage's COPY lines into `dest` (standing for WORKDIR); return the stage's steps."""
    steps = final_stage((root / "Dockerfile").read_text())
    workdirs = [args for keyword, args in steps if keyword == "WORKDIR"]
    assert workdirs == [WORKDIR], f"the replay assumes one WORKDIR {WORKDIR}, the Dockerfile has {workdirs}"
    for copy in copies(steps):
        for source in copy.sources:
            if copy.stage is None:
                from_path, filter_root = root / source, root
            else:  # another stage's WORKDIR is /app too; its files are the checkout's after `make web`
                from_path, filter_root = root / source.removeprefix(WORKDIR + "/"), None
            assert from_path.exists(), f"COPY source {source} ({from_path}) is missing"
            into_dir = copy.dest.endswith("/") or copy.dest == "." or len(copy.sources) > 1
            target = dest / copy.dest
            if from_path.is_file() and into_dir:
                target = target / from_path.name
            _copy_path(from_path, target, filter_root)
    return steps
