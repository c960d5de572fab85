"""Neo4j Browser as the local server serves it: asking nothing of any host but this machine.

Neo4j Browser 5.24 (graph/neo4j-server/pom.xml) loads third-party scripts and styles that no server setting
turns off on Community: its stylesheet imports web fonts from Google's font servers; once connected it loads
Segment's analytics and Canny's widget, because on Community it always allows outgoing connections
(`client.allow_telemetry=false` only stops what they send); and Sentry reports its console errors. The local
server's copy of the Browser jar is rewritten once without the font import and Sentry's addresses and with
outgoing connections refused, so the page loads only from the loopback address (system fonts; no remote
guides). tests/api/test_browser.py lists its requests.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import zipfile
from pathlib import Path

BROWSER_JARS = "neo4j-browser-*.jar"
# (what, replacement) in the bundle's text files
REWRITES: tuple[tuple[re.Pattern[bytes], bytes], ...] = (
    (re.compile(rb"@import url\(https://fonts\.googleapis\.com/[^)]*\);?"), b""),
    (
        re.compile(
            rb"shouldAllowOutgoingConnections=(\w+)=>\w+\.hasEdition\(\1\)&&!\w+\.isEnterprise\(\1\)"
            rb"\|\|\w+\.getAllowOutgoingConnections\(\1\)"
        ),
        rb"shouldAllowOutgoingConnections=\1=>!1",
    ),
    # Sentry's error reports (console errors included): with no DSN the client sends nothing
    (re.compile(rb'"https://[0-9a-f]+@o[0-9]+\.ingest\.sentry\.io/[0-9]+"'), b'""'),
)
RULES = hashlib.sha256(repr(REWRITES).encode()).hexdigest()[:12]  # a marker from other rules is stale
MARKER = ".browser-offline"  # in lib/: the rules, and each rewritten jar's name, size and mtime


def _stamp(jar: Path) -> str:
    stat = jar.stat()
    return f"{jar.name} {stat.st_size} {stat.st_mtime_ns}"


def keep_browser_offline(lib: Path) -> list[str]:
    """Rewrite each Browser jar in `lib` by REWRITES, unless its marker says it already is
    (a fresh Maven copy changes the stamp and is rewritten again); returns the entries changed. The new jar
    replaces the old by rename, so a server running on the old file keeps reading it."""
    jars = sorted(lib.glob(BROWSER_JARS))
    marker = lib / MARKER
    if not jars or (marker.exists() and marker.read_text().splitlines() == [RULES, *map(_stamp, jars)]):
        return []
    changed: list[str] = []
    with (lib / ".fetching").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the jar fetch's lock: one writer of lib/ at a time
        for jar in jars:
            changed += _rewrite(jar)
        marker.write_text("".join(line + "\n" for line in (RULES, *map(_stamp, jars))))
    return changed


def _rewrite(jar: Path) -> list[str]:
    """Copy `jar` with REWRITES applied to its text entries; replace it only when one changed."""
    changed: list[str] = []
    partial = jar.with_name(jar.name + ".partial")
    with zipfile.ZipFile(jar) as source, zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as target:
        for entry in source.infolist():
            data = source.read(entry)
            if entry.filename.endswith((".js", ".css", ".html")):
                before = data
                for pattern, replacement in REWRITES:
                    data = pattern.sub(replacement, data)
                if data != before:
                    changed.append(entry.filename)
            target.writestr(entry, data)
    if changed:
        os.replace(partial, jar)
    else:
        partial.unlink()
    return changed
