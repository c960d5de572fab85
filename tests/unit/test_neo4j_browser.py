"""graph/neo4j_browser.py: the local Browser jar loses its remote fonts and Sentry address, once, nothing else."""

from __future__ import annotations

import zipfile
from pathlib import Path

from weft.graph.neo4j_browser import keep_browser_offline

FONTS = b"@import url(https://fonts.googleapis.com/css2?family=Fira+Code:wght@500&display=swap);"


def _jar(path: Path, entries: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as jar:
        for name, data in entries.items():
            jar.writestr(name, data)
    return path


def test_the_font_import_is_removed_once_and_everything_else_kept(tmp_path: Path) -> None:
    bundle = b'push([e.i,"' + FONTS + b'",""]);var keep=1;'
    other = {"browser/index.html": b"<html></html>", "META-INF/MANIFEST.MF": b"Manifest-Version: 1.0\n"}
    jar = _jar(tmp_path / "neo4j-browser-5.24.0.jar", {"browser/ui-libs.bundle.js": bundle, **other})
    unrelated = _jar(tmp_path / "neo4j-5.26.30.jar", {"a.js": FONTS})

    assert keep_browser_offline(tmp_path) == ["browser/ui-libs.bundle.js"]
    with zipfile.ZipFile(jar) as rewritten:
        assert rewritten.read("browser/ui-libs.bundle.js") == b'push([e.i,"",""]);var keep=1;'
        assert {name: rewritten.read(name) for name in other} == other
    with zipfile.ZipFile(unrelated) as untouched:
        assert untouched.read("a.js") == FONTS  # only Browser's jar is Browser's

    stamp = jar.stat().st_mtime_ns
    assert keep_browser_offline(tmp_path) == []  # the marker says it is done
    assert jar.stat().st_mtime_ns == stamp
    assert not list(tmp_path.glob("*.partial"))


def test_a_fresh_copy_of_the_jar_is_rewritten_again(tmp_path: Path) -> None:
    jar = tmp_path / "neo4j-browser-5.24.0.jar"
    _jar(jar, {"x.css": FONTS + b"body{}"})
    keep_browser_offline(tmp_path)
    _jar(jar, {"x.css": FONTS + b"body{color:red}"})  # Maven copied the original back
    assert keep_browser_offline(tmp_path) == ["x.css"]
    with zipfile.ZipFile(jar) as rewritten:
        assert rewritten.read("x.css") == b"body{color:red}"


def test_a_lib_without_browser_is_left_alone(tmp_path: Path) -> None:
    assert keep_browser_offline(tmp_path) == []
    assert list(tmp_path.iterdir()) == []


def test_sentry_loses_its_address(tmp_path: Path) -> None:
    """Browser's Sentry client reports console errors to sentry.io: with an empty DSN it sends nothing."""
    app = b'c.init({dsn:"https://1ea9f7ebd51441cc95906afb2d31d841@o110884.ingest.sentry.io/1232865",release:r})'
    jar = _jar(tmp_path / "neo4j-browser-5.24.0.jar", {"browser/app.js": app})
    assert keep_browser_offline(tmp_path) == ["browser/app.js"]
    with zipfile.ZipFile(jar) as rewritten:
        assert rewritten.read("browser/app.js") == b'c.init({dsn:"",release:r})'
