"""The local Neo4j Community server: fetch it from Maven Central, configure, start, wait, stop.

Everything lives under WEFT_NEO4J_HOME (default: `.neo4j` in a source checkout, the user's data folder once
installed from a wheel; graph/settings.py). Each Bolt port gets its own instance folder (`instances/<port>`),
so several test sessions can run side by side. The jars come from `pom.xml` beside this module (package data,
so it ships in the wheel) via Maven, once, into `lib/`; servers starting at once (parallel test workers) take
turns fetching them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, ServiceUnavailable

from weft.graph.errors import Unavailable
from weft.graph.neo4j_browser import keep_browser_offline
from weft.graph.settings import Settings

# package data of weft.graph (pyproject.toml): read from the installed package, never from a checkout
POM = Path(__file__).resolve().parent / "neo4j-server" / "pom.xml"
ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"
ADMIN_TOOL = "org.neo4j.cli.AdminTool"
ADMIN_HEAP_GIB = 2  # neo4j-admin's own heap (-Xmx)
# Graph Data Science's procedure jars: Neo4j finds procedures only in plugins/, while GDS's extension
# must load from the classpath, so these are on both (plugins/ holds links into lib/)
GDS_PROCEDURE_JARS = ("proc-*.jar", "alpha-proc-*.jar")


@dataclass(frozen=True)
class Instance:
    """Paths of one local server instance."""

    settings: Settings

    @property
    def lib(self) -> Path:
        return self.settings.neo4j_home / "lib"

    @property
    def home(self) -> Path:
        return self.settings.neo4j_home / "instances" / str(self.settings.bolt_port)

    @property
    def conf_dir(self) -> Path:
        return self.home / "conf"

    @property
    def pid_file(self) -> Path:
        return self.home / "run" / "weft-neo4j.pid"

    @property
    def log_file(self) -> Path:
        return self.home / "logs" / "console.log"

    @property
    def replica_marker(self) -> Path:
        """Present in a read-only replica's folder (`weft replicas start`): what it was loaded from."""
        return self.home / "replica.json"


class CredentialsRefused(Unavailable):
    """A Bolt server answers at NEO4J_URI but refuses NEO4J_USER/NEO4J_PASSWORD (it is left running)."""

    code = "UNAUTHENTICATED"


def probe(settings: Settings, timeout_s: float = 2.0) -> str:
    """`up` when Bolt answers with the configured credentials, `refused` when it answers but refuses
    them, `down` when nothing usable answers."""
    try:
        with GraphDatabase.driver(settings.neo4j_uri, auth=settings.auth, connection_timeout=timeout_s) as driver:
            driver.verify_connectivity()
        return "up"
    except AuthError:
        return "refused"
    except (ServiceUnavailable, OSError, ValueError):
        return "down"
    except Exception:  # noqa: BLE001 - any other handshake failure means "not usable"
        return "down"


def bolt_answers(settings: Settings, timeout_s: float = 2.0) -> bool:
    """True when a Bolt server answers at NEO4J_URI with the configured credentials."""
    return probe(settings, timeout_s) == "up"


def _refused(settings: Settings) -> CredentialsRefused:
    return CredentialsRefused(
        f"Neo4j answers at {settings.neo4j_uri} but refuses the credentials of NEO4J_USER/NEO4J_PASSWORD "
        f"({settings.neo4j_user!r}); it was left running"
    )


def fetch_jars(instance: Instance, quiet: bool = True, announce: Callable[[str], object] | None = None) -> None:
    """Copy the server jars from Maven Central into <WEFT_NEO4J_HOME>/lib (skipped when this pom's jars are there).

    The marker holds the pom's hash, so a jar added to the pom is fetched on the next start.
    Concurrent callers (other processes) wait on a lock file and find the jars fetched.
    """
    if jars_fetched(instance):
        return
    if announce is not None:
        announce("fetching Neo4j Community jars from Maven Central (first run only)…")
    instance.lib.mkdir(parents=True, exist_ok=True)
    with (instance.lib / ".fetching").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if jars_fetched(instance):
            return  # another process fetched them meanwhile
        _fetch_with_maven(instance, pom_digest(), quiet)


def jars_fetched(instance: Instance) -> bool:
    """Whether <WEFT_NEO4J_HOME>/lib holds the jars of this pom (its marker names the pom's hash)."""
    marker = instance.lib / ".complete"
    return marker.exists() and marker.read_text().strip() == pom_digest()


def _fetch_with_maven(instance: Instance, wanted: str, quiet: bool) -> None:
    if shutil.which("mvn") is None:
        raise Unavailable("Maven (mvn) is needed to fetch the Neo4j server; install it or set NEO4J_URI")
    if shutil.which("java") is None:
        raise Unavailable("Java 17+ is needed to run the Neo4j server; install it or set NEO4J_URI")
    cmd = [
        "mvn",
        "-B",
        "-f",
        str(POM),
        "dependency:copy-dependencies",
        f"-DoutputDirectory={instance.lib}",
        "-DincludeScope=runtime",
    ]
    if quiet:
        cmd.insert(2, "-q")
    result = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).splitlines()[-20:])
        raise Unavailable(f"fetching Neo4j with Maven failed:\n{tail}")
    (instance.lib / ".complete").write_text(f"{wanted}\n")


def pom_digest() -> str:
    """A hash of the pom: which set of jars lib/ holds."""
    return hashlib.sha256(POM.read_bytes()).hexdigest()[:16]


def browser_url(settings: Settings) -> str | None:
    """Where Neo4j Browser answers for the local server, its connect form filled in: this server's Bolt URL and,
    with auth off, no authentication, so Browser connects at once (with NEO4J_PASSWORD set, the user logs in;
    a password never goes in a URL). None when the HTTP connector is off."""
    if not settings.http_port:
        return None
    method = "NATIVE" if settings.neo4j_password else "NO_AUTH"
    query = urlencode({"dbms": f"bolt://{settings.bolt_host}:{settings.bolt_port}", "preselectAuthMethod": method})
    return f"http://{settings.bolt_host}:{settings.http_port}/browser/?{query}"


def _http_lines(settings: Settings) -> list[str]:
    """The HTTP connector (Neo4j Browser) on the loopback address, when a port is set."""
    if not settings.http_port:
        return ["server.http.enabled=false"]
    return [
        "server.http.enabled=true",
        f"server.http.listen_address={settings.bolt_host}:{settings.http_port}",
        f"server.http.advertised_address={settings.bolt_host}:{settings.http_port}",
    ]


def write_config(instance: Instance) -> None:
    """Write neo4j.conf for a small machine: loopback only (Bolt, and HTTP for Neo4j Browser), no usage
    reporting, Graph Data Science procedures allowed."""
    s = instance.settings
    for sub in ("conf", "data", "logs", "run", "plugins", "import"):
        (instance.home / sub).mkdir(parents=True, exist_ok=True)
    lines = [
        "# generated by `weft neo4j start`; edit graph/local_server.py instead",
        f"server.default_listen_address={s.bolt_host}",
        f"server.bolt.listen_address={s.bolt_host}:{s.bolt_port}",
        f"server.bolt.advertised_address={s.bolt_host}:{s.bolt_port}",
        *_http_lines(s),
        "server.https.enabled=false",
        # GDS reads and writes the store directly, which Neo4j allows only to unrestricted procedures
        "dbms.security.procedures.unrestricted=gds.*",
        f"server.memory.heap.initial_size={s.neo4j_heap}",
        f"server.memory.heap.max_size={s.neo4j_heap}",
        f"server.memory.pagecache.size={s.neo4j_pagecache}",
        "dbms.memory.transaction.total.max=1g",
        "dbms.usage_report.enabled=false",
        # Neo4j Browser: product-usage telemetry off (and with it the consent banner); graph/neo4j_browser.py
        # removes its remote font import (Community declares no browser.allow_outgoing_connections)
        "client.allow_telemetry=false",
        "dbms.transaction.timeout=0s",
        "server.jvm.additional=-XX:+UseG1GC",
        f"server.directories.data={instance.home / 'data'}",
        f"server.directories.logs={instance.home / 'logs'}",
        f"server.directories.run={instance.home / 'run'}",
        f"server.directories.plugins={instance.home / 'plugins'}",
        f"server.directories.import={instance.home / 'import'}",
        "db.tx_log.rotation.retention_policy=1 files",
        "server.threads.worker_count=8",
        # Bolt's network threads otherwise idle 5 s per connector at shutdown (10 s of every stop), after
        # the databases have already stopped and checkpointed
        "internal.dbms.bolt.netty_server_shutdown_quiet_period=0",
        # No keep-alive NOOPs during requests, and so no `connection.recv_timeout_seconds` hint (120 s): with
        # that hint the async Python driver reads every Bolt message through `wait_for` with a timeout, a
        # task and a timer each (105 tasks for a 50-row read, 1 without), a third of a small read's CPU
        # (bench/RESULTS.md, issue 53). Reads are bounded by their transaction timeout and the request
        # deadline instead; the server and Weft share a host, with no idle-killing proxy between them.
        "server.bolt.connection_keep_alive_for_requests=OFF",
    ]
    if instance.replica_marker.exists():
        # a read replica (`weft replicas start`): every database refuses writes (5.x name of the 4.x
        # dbms.databases.default_to_read_only)
        lines.append("server.databases.default_to_read_only=true")
    if s.neo4j_password:
        lines.append("dbms.security.auth_enabled=true")
    else:
        lines.append("dbms.security.auth_enabled=false")
    (instance.conf_dir / "neo4j.conf").write_text("\n".join(lines) + "\n")


def link_plugins(instance: Instance) -> None:
    """Link GDS's procedure jars from lib/ into the instance's plugins/ (stale links replaced)."""
    plugins = instance.home / "plugins"
    plugins.mkdir(parents=True, exist_ok=True)
    for old in plugins.glob("*.jar"):
        if old.is_symlink():
            old.unlink()
    for pattern in GDS_PROCEDURE_JARS:
        for jar in instance.lib.glob(pattern):
            (plugins / jar.name).symlink_to(jar)


def _set_initial_password(instance: Instance) -> None:
    """Set the neo4j user's password before first start (neo4j-admin dbms set-initial-password).

    The password goes in an argument file (`@file`, read by neo4j-admin's picocli; owner-only, removed
    after), never on a command line that `ps` shows.
    """
    password = instance.settings.neo4j_password
    if not password or (instance.home / "data" / "dbms").exists():
        return
    args = instance.home / "run" / "initial-password.args"
    args.parent.mkdir(parents=True, exist_ok=True)
    quoted = '"' + password.replace("\\", "\\\\").replace('"', '\\"') + '"'
    fd = os.open(args, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(quoted + "\n")
        result = run_admin(instance, ["dbms", "set-initial-password", f"@{args}"])
    finally:
        args.unlink(missing_ok=True)
    if result.returncode != 0:
        raise Unavailable(f"setting the initial password failed:\n{result.stdout}{result.stderr}")


def run_admin(
    instance: Instance, args: list[str], on_line: Callable[[str], object] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `neo4j-admin ARGS` from the same jars against this instance. With `on_line`, its standard output
    is also handed over line by line as it comes (an import runs for minutes); its standard error (the JVM's
    warnings) is kept apart, since a warning written without a line break would swallow the next line."""
    env = dict(os.environ, NEO4J_HOME=str(instance.home), NEO4J_CONF=str(instance.conf_dir))
    cmd = [
        "java",
        f"-Xmx{ADMIN_HEAP_GIB}g",
        "-cp",
        f"{instance.lib}/*",
        ADMIN_TOOL,
        *args,
    ]
    if on_line is None:
        return subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    lines: list[str] = []
    with tempfile.TemporaryFile("w+", errors="replace") as errors:
        with subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=errors, text=True, env=env, errors="replace"
        ) as process:
            assert process.stdout is not None
            for line in process.stdout:
                lines.append(line)
                on_line(line.rstrip("\n"))
        errors.seek(0)
        return subprocess.CompletedProcess(cmd, process.returncode, "".join(lines), errors.read())


def _admin_failure(what: str, result: subprocess.CompletedProcess[str]) -> Unavailable:
    output = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    return Unavailable(f"{what} failed (neo4j-admin exit {result.returncode}):\n" + "\n".join(output[-15:]))


def dump_database(instance: Instance, to_dir: Path) -> Path:
    """`neo4j-admin database dump` of the instance's database into to_dir/<database>.dump (replaced if
    there); the server must be stopped (Community cannot take a database offline while it runs)."""
    database = instance.settings.neo4j_database
    to_dir.mkdir(parents=True, exist_ok=True)
    args = ["database", "dump", database, f"--to-path={to_dir}", "--overwrite-destination=true"]
    result = run_admin(instance, args)
    if result.returncode != 0:
        raise _admin_failure(f"dumping {database} to {to_dir}", result)
    return to_dir / f"{database}.dump"


def load_database(instance: Instance, dump_file: Path) -> None:
    """`neo4j-admin database load` of a dump file into the instance's database, replacing its store;
    the server must be stopped. neo4j-admin reads `<database>.dump` from a folder, so a file named
    otherwise is linked under that name in a scratch folder first."""
    database = instance.settings.neo4j_database
    dump_file = dump_file.resolve()
    scratch = instance.home / "run" / "load-from"
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    try:
        (scratch / f"{database}.dump").symlink_to(dump_file)
        args = ["database", "load", database, f"--from-path={scratch}", "--overwrite-destination=true"]
        result = run_admin(instance, args)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if result.returncode != 0:
        raise _admin_failure(f"loading {dump_file} into {database}", result)


def free_ports(count: int) -> list[int]:
    """`count` distinct loopback TCP ports nothing listens on (all bound at once, then released)."""
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(socket.socket()) for _ in range(count)]
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [int(s.getsockname()[1]) for s in sockets]


def free_port() -> int:
    """A loopback TCP port nothing listens on (bound once and released)."""
    return free_ports(1)[0]


def scratch_settings(settings: Settings) -> Settings:
    """`settings` for a throwaway local server that a test or benchmark kills and restarts: its own free Bolt
    port, no HTTP port, a small heap and page cache."""
    return dataclasses.replace(
        settings,
        neo4j_uri=f"bolt://127.0.0.1:{free_port()}",
        neo4j_heap="768m",
        neo4j_pagecache="128m",
        neo4j_http_port=0,
    )


def port_in_use(host: str, port: int) -> bool:
    """True when something listens on host:port (a bind test, as a server would make)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return True
    return False


def is_local(settings: Settings) -> bool:
    """True when NEO4J_URI names this machine, the only place weft starts a server."""
    return settings.bolt_host in ("127.0.0.1", "localhost", "::1")


def _alive(pid: int) -> bool:
    """True while the process runs; reaps it first when it is our own exited child."""
    try:
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        if reaped == pid:
            return False
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def read_pid(instance: Instance) -> int | None:
    """The pid of a running instance, or None (a stale pid file is removed)."""
    try:
        pid = int(instance.pid_file.read_text().strip())
    except (FileNotFoundError, ValueError):
        return None
    if not _alive(pid):
        instance.pid_file.unlink(missing_ok=True)
        return None
    return pid


def log_tail(instance: Instance, lines: int = 30) -> str:
    """The last lines of the server's console and neo4j.log, for error messages."""
    out: list[str] = []
    for path in (instance.log_file, instance.home / "logs" / "neo4j.log"):
        if path.exists():
            out.append(f"--- {path}")
            out.extend(path.read_text(errors="replace").splitlines()[-lines:])
    return "\n".join(out)


def start(settings: Settings, echo: Callable[[str], object] = print) -> str:
    """Start the local server unless Bolt already answers; returns a one-line status."""
    instance = Instance(settings)
    state = probe(settings)
    if state == "up":
        return f"Neo4j already answers at {settings.neo4j_uri}"
    if state == "refused":
        raise _refused(settings)
    if not is_local(settings):
        raise Unavailable(f"nothing answers at {settings.neo4j_uri}, and it is not a local address to start on")
    began = time.monotonic()
    started_here = read_pid(instance) is None
    if started_here:
        fetch_jars(instance, announce=echo)
        write_config(instance)
        link_plugins(instance)
        keep_browser_offline(instance.lib)
        _set_initial_password(instance)
        instance.log_file.parent.mkdir(parents=True, exist_ok=True)
        java = os.environ.get("JAVA_HOME")
        java_bin = str(Path(java) / "bin" / "java") if java else "java"
        cmd = [
            java_bin,
            f"-Xms{settings.neo4j_heap}",
            f"-Xmx{settings.neo4j_heap}",
            "-XX:+UseG1GC",
            "-cp",
            f"{instance.lib}/*",
            ENTRY_POINT,
            f"--home-dir={instance.home}",
            f"--config-dir={instance.conf_dir}",
        ]
        with instance.log_file.open("ab") as log:
            proc = subprocess.Popen(  # noqa: S603 - fixed argv
                cmd,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        instance.pid_file.write_text(f"{proc.pid}\n")
    # The timeout counts from the launch: fetching the jars (first run, or several fetches at once) is not start-up.
    deadline = time.monotonic() + settings.neo4j_start_timeout_s
    while time.monotonic() < deadline:
        state = probe(settings, timeout_s=1.0)
        if state == "up":
            return f"Neo4j started at {settings.neo4j_uri} in {time.monotonic() - began:.1f}s{_browser_note(settings)}"
        if state == "refused":
            raise _refused(settings)
        if read_pid(instance) is None:
            raise Unavailable(f"Neo4j exited during start-up\n{log_tail(instance)}")
        time.sleep(0.5)
    if started_here:  # a process this call did not start is never stopped
        stop(settings)
    raise Unavailable(
        f"Neo4j did not answer at {settings.neo4j_uri} within {settings.neo4j_start_timeout_s}s\n{log_tail(instance)}"
    )


_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def size_in_bytes(text: str) -> int:
    """A Neo4j memory setting ("512m", "2g", "1024k", "800000") in bytes.

    >>> size_in_bytes("512m")
    536870912
    """
    value = text.strip().lower().removesuffix("b")
    unit = value[-1:] if value[-1:] in _UNITS else ""
    return int(float(value.removesuffix(unit)) * _UNITS[unit])


def store_bytes(settings: Settings) -> int:
    """Bytes of the local instance's database store (its files under data/databases/<database>)."""
    store = Instance(settings).home / "data" / "databases" / settings.neo4j_database
    return sum(f.stat().st_size for f in store.rglob("*") if f.is_file()) if store.is_dir() else 0


def page_cache_warning(settings: Settings, store: int | None = None) -> str | None:
    """A warning when the page cache holds less than half the store: reads then go to the disk."""
    store = store_bytes(settings) if store is None else store
    cache = size_in_bytes(settings.neo4j_pagecache)
    if store == 0 or cache * 2 >= store:
        return None
    wanted = -(-store * 5 // 4 // 2**30)  # the store and a quarter more, in whole GiB
    return (
        f"warning: the page cache ({settings.neo4j_pagecache}) holds {100 * cache // store}% of the store "
        f"({store / 2**30:.1f} GiB): most reads will go to the disk; set WEFT_NEO4J_PAGECACHE={wanted}g and "
        "restart (weft neo4j stop, weft neo4j start)"
    )


def _browser_note(settings: Settings) -> str:
    """'; Neo4j Browser at URL' for the status line, or nothing when HTTP is off."""
    url = browser_url(settings)
    return f"; Neo4j Browser at {url}" if url else ""


def stop(settings: Settings, timeout_s: float = 60.0) -> str:
    """Stop the local instance on this port (TERM, then KILL); leaves no process behind."""
    instance = Instance(settings)
    pid = read_pid(instance)
    if pid is None:
        return f"no local Neo4j running for port {settings.bolt_port}"
    os.killpg(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not _alive(pid):
            break
        time.sleep(0.3)
    else:
        os.killpg(pid, signal.SIGKILL)
    instance.pid_file.unlink(missing_ok=True)
    return f"Neo4j on port {settings.bolt_port} stopped"


def status(settings: Settings) -> str:
    """One line: whether Bolt answers, and whether this project started the process (a server that answers
    without a pid of ours was started by someone else; nothing answering and no pid means nothing runs)."""
    instance = Instance(settings)
    pid = read_pid(instance)
    answers = bolt_answers(settings)
    if pid:
        owner = f"local instance pid {pid}"
    else:
        owner = "not started by weft" if answers else "not running"
    return f"{settings.neo4j_uri}: {'answers' if answers else 'does not answer'} ({owner})"
