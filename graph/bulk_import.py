"""`neo4j-admin database import full` into the local server: stop, import, start, migrate.

The folder comes from `weft build` (loaders/bulk) and holds `manifest.json` naming the Parquet
files per label and relationship type (`input_type: parquet`; a CSV manifest naming header and
data files is read too). The import replaces the whole database, so it only runs against the
project's own local server (the one `weft neo4j start` runs), never a remote one or a server weft
did not start. It takes the running database's writer lock before it stops the server (a load or sync in
flight is not cut off: the import is refused or waits, graph/writer_lock.py), and the new database's for
the migration.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NotRequired, TypedDict

from weft.graph import local_server
from weft.graph.driver import check_connectivity, open_driver
from weft.graph.errors import InvalidInput, Unavailable
from weft.graph.identity.links import all_researcher_ids, relink
from weft.graph.migrate import backfill_sort_keys, counts, migrate
from weft.graph.settings import Settings
from weft.graph.writer_lock import WriterLock, acquire, writer_lock

MANIFEST = "manifest.json"
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


class NodeFiles(TypedDict):
    """One node group of the manifest: its labels (`A;B`) and header + data file names."""

    labels: str
    files: list[str]


class RelationshipFiles(TypedDict):
    """One relationship group of the manifest: its type and header + data file names."""

    type: str
    files: list[str]


class ImportManifest(TypedDict):
    """What the import reads of `manifest.json` (loaders/bulk/output.py writes it, with counts too)."""

    input_type: NotRequired[str]
    nodes: list[NodeFiles]
    relationships: list[RelationshipFiles]
    multiline_files: NotRequired[list[str]]
    array_delimiter: NotRequired[str]


@dataclass(frozen=True)
class ImportSummary:
    """What one import did: counts in the database afterwards and where the time went."""

    counts: dict[str, int]
    admin_seconds: float
    total_seconds: float
    admin_output: str = field(repr=False, default="")

    @property
    def nodes(self) -> int:
        return sum(n for name, n in self.counts.items() if name[:1].isupper() and not name.isupper())

    @property
    def relationships(self) -> int:
        return sum(n for name, n in self.counts.items() if name.isupper())


def read_manifest(csv_dir: Path) -> ImportManifest:
    """The export's manifest, with every file it names checked to exist."""
    path = csv_dir / MANIFEST
    if not path.is_file():
        raise InvalidInput(f"{csv_dir} has no {MANIFEST}; write the folder with `weft build`")
    try:
        manifest: ImportManifest = json.loads(path.read_text(encoding="utf-8"))
        groups = [*manifest["nodes"], *manifest["relationships"]]
        files = [csv_dir / name for group in groups for name in group["files"]]
    except (ValueError, KeyError, TypeError) as exc:
        raise InvalidInput(f"{path} is not a weft export manifest ({exc})") from exc
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise InvalidInput(f"{csv_dir}: files named in {MANIFEST} are missing: {', '.join(missing)}")
    return manifest


# Share of the memory available before an import that neo4j-admin may use beside its heap.
OFF_HEAP_SHARE = 0.8
_OFF_HEAP_SETTING = re.compile(r"\d+[kmgt]?|(100|[1-9]\d?)%", re.IGNORECASE)


def off_heap_budget(meminfo: str) -> str | None:
    """neo4j-admin import's off-heap memory from the text of /proc/meminfo (pure): OFF_HEAP_SHARE of
    MemAvailable less the tool's heap, in MiB (at least 512); None without MemAvailable (not Linux).

    Left to itself neo4j-admin takes 90% of *free* memory less its heap, and after `weft build` (or any
    reading of files) most memory is file cache, available but not free: on this 23.5 GiB machine it saw
    5.1 GiB free of 15 available and took 2.9 GiB. Short of memory it links relationships in a pass per
    type instead of one in all: a minute more at a million works (bench/RESULTS.md)."""
    found = re.search(r"^MemAvailable:\s+(\d+) kB$", meminfo, re.MULTILINE)
    if found is None:
        return None
    budget = int(int(found.group(1)) * 1024 * OFF_HEAP_SHARE) - local_server.ADMIN_HEAP_GIB * 2**30
    return f"{max(budget // 2**20, 512)}m"


def configured_off_heap(settings: Settings) -> str | None:
    """WEFT_IMPORT_OFF_HEAP as neo4j-admin takes it, checked before anything is stopped; None when unset."""
    value = settings.import_off_heap.strip()
    if value and not _OFF_HEAP_SETTING.fullmatch(value):
        raise InvalidInput(
            f"WEFT_IMPORT_OFF_HEAP={settings.import_off_heap!r}: give a size (4g, 4096m) or a share of free "
            "memory (60%)"
        )
    return value or None


def available_off_heap() -> str | None:
    """off_heap_budget of this machine now (once the server is stopped); None where /proc/meminfo is not."""
    meminfo = Path("/proc/meminfo")
    return off_heap_budget(meminfo.read_text()) if meminfo.is_file() else None


def admin_import_args(
    csv_dir: Path, manifest: ImportManifest, database: str, report_file: Path, off_heap: str | None = None
) -> list[str]:
    """The `neo4j-admin` argv for a full import of the built folder (pure)."""
    # The database name goes first: --nodes/--relationships take every following word as a file.
    args = [
        "database",
        "import",
        "full",
        database,
        "--verbose",  # without it a failure says only "Error importing csv file"
        "--overwrite-destination=true",
        "--id-type=string",
        "--bad-tolerance=0",
        "--skip-bad-relationships=false",
        "--skip-duplicate-nodes=false",
        f"--report-file={report_file}",
    ]
    if off_heap:
        args.append(f"--max-off-heap-memory={off_heap}")
    if manifest.get("input_type") == "parquet":
        args.append("--input-type=parquet")
    else:
        args += ["--delimiter=,", f"--array-delimiter={manifest.get('array_delimiter', ';')}", '--quote="']
    if manifest.get("multiline_files"):
        # v1 (every file may hold line breaks in quoted fields): the v2 per-file list fails with
        # "found CR outside a text cell" where a quoted CR falls on a read-buffer boundary.
        args.append("--multiline-fields=true")
    for group in manifest["nodes"]:
        files = ",".join(str(csv_dir / name) for name in group["files"])
        args.append(f"--nodes={group['labels']}={files}")
    for group in manifest["relationships"]:
        files = ",".join(str(csv_dir / name) for name in group["files"])
        args.append(f"--relationships={group['type']}={files}")
    return args


def _tail(text: str, lines: int = 25) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


# neo4j-admin import's output: each phase starts with `<phase>, started <date> <time>` and ends with
# `Done in <duration>`; the whole with `IMPORT DONE in <duration>.` (progress bars in between).
_PHASE_STARTED = re.compile(r"^(?P<phase>\S.*), started \d{4}-\d{2}-\d{2} ")


def admin_progress(echo: Callable[[str], object]) -> Callable[[str], None]:
    """A listener for neo4j-admin import's output lines that says each phase as it starts and ends, and
    the end of the import: a few lines a phase, where the import runs for minutes at a million works."""
    phase = ""

    def hear(line: str) -> None:
        nonlocal phase
        text = line.strip()
        if started := _PHASE_STARTED.match(text):
            phase = started["phase"]
            echo(f"  {phase} …")
        elif text.startswith("Done in ") and phase:
            echo(f"  {phase}: done in {text.removeprefix('Done in ')}")
            phase = ""
        elif text.startswith("IMPORT DONE"):
            echo(f"  {text.rstrip('. ')}")

    return hear


def failure_summary(output: str) -> str:
    """The lines of neo4j-admin output that say why an import failed (causes, not stack frames)."""
    keep = [
        line.strip()
        for line in output.splitlines()
        if line.strip() and not line.lstrip().startswith("at ") and not line.lstrip().startswith("...")
    ]
    causes = [line for line in keep if line.startswith("Caused by") or "Exception" in line]
    return "\n".join(dict.fromkeys(causes + keep[-12:]))


def discard_store(instance: local_server.Instance, database: str) -> None:
    """Remove a database's store and transaction logs (the server must be stopped)."""
    data = instance.home / "data"
    for path in (data / "databases" / database, data / "transactions" / database):
        shutil.rmtree(path, ignore_errors=True)


def check_local(settings: Settings) -> local_server.Instance:
    """The local instance for NEO4J_URI; refuses remote servers and servers weft did not start."""
    if settings.bolt_host not in LOCAL_HOSTS:
        raise InvalidInput(
            f"weft import replaces the store files of the local server; {settings.neo4j_uri} is not local"
        )
    instance = local_server.Instance(settings)
    if local_server.read_pid(instance) is None and local_server.bolt_answers(settings):
        raise InvalidInput(
            f"a Neo4j answers at {settings.neo4j_uri} but weft did not start it (no pid in "
            f"{instance.pid_file}); weft import only replaces the database of `weft neo4j start`'s server"
        )
    return instance


def _lock_before_stop(settings: Settings, wait: float | None, echo: Callable[[str], object]) -> WriterLock | None:
    """The running database's writer lock, held while its server stops (None when no server answers): no
    writer is cut off mid-write, and none starts before the stop. WriterBusy names one that is writing."""
    if not local_server.bolt_answers(settings):
        return None
    with open_driver(settings) as driver:
        check_connectivity(driver, "connecting before the import")
        lock = acquire(driver, settings.neo4j_database, "import", wait=wait, lease_s=settings.writer_lease_s, echo=echo)
        lock.abandon()  # no heartbeat: its database is stopped and replaced (the lock goes with it)
        return lock


def import_built(
    settings: Settings, csv_dir: Path, echo: Callable[[str], object] = print, wait: float | None = None
) -> ImportSummary:
    """Replace the local server's database with the folder `weft build` wrote, then migrate.

    Takes the writer lock (waiting up to `wait` seconds for a writer in flight; None: not at all), stops
    the server, runs the import with --overwrite-destination, starts the server again (also after a failed
    import, so it is never left down) and creates constraints and indexes under the new database's lock.
    """
    began = time.monotonic()
    csv_dir = csv_dir.resolve()
    manifest = read_manifest(csv_dir)
    instance = check_local(settings)
    configured = configured_off_heap(settings)
    local_server.fetch_jars(instance)
    if not (instance.conf_dir / "neo4j.conf").exists():
        local_server.write_config(instance)
    _lock_before_stop(settings, wait, echo)
    echo(local_server.stop(settings))
    report_file = instance.home / "logs" / "import.report"
    report_file.parent.mkdir(parents=True, exist_ok=True)
    off_heap = configured or available_off_heap()
    args = admin_import_args(csv_dir, manifest, settings.neo4j_database, report_file, off_heap)
    memory = f" ({off_heap} off-heap)" if off_heap else ""
    echo(f"neo4j-admin database import full into {settings.neo4j_database} from {csv_dir}{memory}")
    admin_began = time.monotonic()
    result = local_server.run_admin(instance, args, on_line=admin_progress(echo))
    admin_seconds = time.monotonic() - admin_began
    output = result.stdout + result.stderr
    if result.returncode != 0:
        report = report_file.read_text(errors="replace") if report_file.exists() else ""
        discard_store(instance, settings.neo4j_database)
        try:
            echo(local_server.start(settings, echo=echo))
        except Unavailable as exc:
            echo(f"the server did not come back after the failed import: {exc}")
        raise InvalidInput(
            f"neo4j-admin import failed (exit {result.returncode}); the half-written database "
            f"{settings.neo4j_database} was removed and the server restarted with it empty.\n"
            f"{failure_summary(output)}"
            + (f"\nimport report ({report_file}):\n{_tail(report)}" if report.strip() else "")
        )
    echo(local_server.start(settings, echo=echo))
    with open_driver(settings) as driver:
        check_connectivity(driver, "connecting after the import")
        # The build wrote what the backfills write (its Meta node says so), but one value: neo4j-admin stores
        # no empty text, so papers with no date lack the sort key '' until it is set here.
        with writer_lock(
            driver, settings.neo4j_database, "import", wait=wait, lease_s=settings.writer_lease_s, echo=echo
        ):
            migrate(driver, settings.neo4j_database, echo=echo, recheck=False, top_ties=settings.network_top_ties)
            step = time.monotonic()
            written = backfill_sort_keys(driver, settings.neo4j_database)
            echo(
                f"papers' sort keys: {written:,} set (neo4j-admin stores no empty text) "
                f"({time.monotonic() - step:.1f}s)"
            )
            # the identity links an online load makes last (loaders/derived.recompute), for every researcher
            step = time.monotonic()
            linked = relink(
                driver,
                settings.neo4j_database,
                all_researcher_ids(driver, settings.neo4j_database),
                max_authors=settings.pair_edge_max_authors,
                same_name_bucket=settings.same_name_max_bucket,
            )
            echo(f"identity links: {linked:,} ({time.monotonic() - step:.1f}s)")
        found = counts(driver, settings.neo4j_database)
    return ImportSummary(
        counts=found,
        admin_seconds=admin_seconds,
        total_seconds=time.monotonic() - began,
        admin_output=output,
    )
