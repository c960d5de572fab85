"""Reading Semantic Scholar's datasets diffs: one folder per dataset and step, `<dataset>/<from>_to_<to>/`.

Each step folder holds `update_files/` (JSON Lines, optionally gzip: records inserted or replaced by their
primary key, `corpusid` for papers and abstracts, `authorid` for authors, the citing and cited corpus ids for
citations) and `delete_files/` (records carrying the ids to delete). The datasets' steps with the same
releases are one unit; units chain by release (`from` of one is `to` of the one before). Reading only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import orjson

from weft.graph.errors import InvalidInput
from weft.loaders.storage import DataPath, location, storage_error

# The datasets Weft follows, in the order a step's updates are written (papers before what attaches to them).
SYNCED_DATASETS = ("papers", "authors", "abstracts", "citations")
_STEP = re.compile(r"^(?P<from>[^_/]+)_to_(?P<to>[^_/]+)$")


@dataclass
class StepFiles:
    """One dataset's files of one step (sorted)."""

    updates: list[DataPath] = field(default_factory=list[DataPath])
    deletes: list[DataPath] = field(default_factory=list[DataPath])


@dataclass
class Step:
    """One diff step across datasets: the releases it goes from and to, its files per dataset."""

    from_release: str
    to_release: str
    datasets: dict[str, StepFiles] = field(default_factory=dict[str, StepFiles])

    @property
    def name(self) -> str:
        return f"{self.from_release}_to_{self.to_release}"


def diffs_root(raw: str | DataPath) -> DataPath:
    """The folder holding the dataset folders (InvalidInput when it holds none Weft follows)."""
    root = location(raw, "location")
    try:
        if not root.is_dir() or not any((root / d).is_dir() for d in SYNCED_DATASETS):
            raise InvalidInput(
                f"{raw}: no Semantic Scholar diffs here (expected {', '.join(SYNCED_DATASETS)} folders holding "
                "<from_release>_to_<to_release>/update_files and delete_files)",
                "location",
            )
    except OSError as exc:
        raise storage_error(raw, exc) from exc
    return root


def _files(folder: DataPath) -> list[DataPath]:
    if not folder.is_dir():
        return []
    return sorted((f for f in folder.iterdir() if f.is_file() and not f.name.startswith(".")), key=lambda f: f.name)


def read_steps(root: DataPath) -> tuple[list[Step], list[str]]:
    """Every step found, ordered by release, and the dataset folders skipped (not followed by Weft)."""
    steps: dict[tuple[str, str], Step] = {}
    skipped: list[str] = []
    try:
        for folder in sorted(root.iterdir(), key=lambda f: f.name):
            if not folder.is_dir() or folder.name.startswith("."):
                continue
            if folder.name not in SYNCED_DATASETS:
                skipped.append(folder.name)
                continue
            for step_dir in sorted(folder.iterdir(), key=lambda f: f.name):
                match = _STEP.match(step_dir.name)
                if not step_dir.is_dir() or match is None:
                    continue
                key = (match["from"], match["to"])
                if key[1] <= key[0]:
                    raise InvalidInput(f"{folder.name}/{step_dir.name}: the step goes back in time", "location")
                step = steps.setdefault(key, Step(*key))
                step.datasets[folder.name] = StepFiles(
                    _files(step_dir / "update_files"), _files(step_dir / "delete_files")
                )
    except OSError as exc:
        raise storage_error(root, exc) from exc
    return [steps[k] for k in sorted(steps)], skipped


def listing(root: DataPath) -> bytes:
    """Every file of every step (dataset, step, kind, name, size), to compare a listing read before and
    after: a bucket being filled while the sync reads shows as a difference."""
    rows: list[tuple[str, str, str, str, int]] = []
    steps, _ = read_steps(root)
    try:
        for step in steps:
            for dataset, files in sorted(step.datasets.items()):
                for kind, paths in (("update", files.updates), ("delete", files.deletes)):
                    rows += [(dataset, step.name, kind, p.name, p.stat().st_size) for p in paths]
    except OSError as exc:
        raise storage_error(root, exc) from exc
    return orjson.dumps(rows)


def chain(steps: list[Step], mark: str | None) -> list[Step]:
    """The steps to apply from the release `mark` (None: from the oldest step's `from`), in order; InvalidInput
    for a gap (no step starts at the release reached while a later one exists) or two steps from one release."""
    if not steps:
        return []
    current = mark if mark is not None else steps[0].from_release
    out: list[Step] = []
    while True:
        following = [s for s in steps if s.from_release == current]
        if len(following) > 1:
            raise InvalidInput(
                f"two diff steps start at release {current} ({', '.join(s.name for s in following)}); "
                "keep one chain of releases in the folder",
                "location",
            )
        if not following:
            later = [s for s in steps if s.from_release > current]
            if later:
                raise InvalidInput(
                    f"a gap in the Semantic Scholar diffs: the graph is at release {current}, and the next step "
                    f"starts at {later[0].from_release} ({later[0].name}); nothing was written: fetch the "
                    f"missing diffs, or rebuild from a full release",
                    "location",
                )
            return out
        out.append(following[0])
        current = following[0].to_release
