"""/static under long-lived URLs: pages name each file by `static_url(path)`, which appends `?v=<hash of
its content>`; a request carrying the file's current hash is answered with `Cache-Control: public,
max-age=31536000, immutable` (a changed file gets a new URL), any other with `no-cache` (revalidate by
ETag). Text files are gzipped once per process and kept in memory for clients that accept gzip
(cytoscape.min.js: 436 kB, 140 kB gzipped)."""

from __future__ import annotations

import functools
import gzip
import hashlib
import mimetypes
import os
from email.utils import formatdate
from pathlib import Path
from urllib.parse import parse_qs

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope

STATIC = Path(__file__).resolve().parent / "static"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
COMPRESSIBLE = frozenset({".js", ".css", ".svg", ".json", ".map", ".txt", ".html"})
MIN_GZIP_BYTES = 512


@functools.cache
def _digest(path: str, mtime_ns: int, size: int) -> str:
    """The first 12 hex digits of the file's BLAKE2b (once per file version and process)."""
    return hashlib.blake2b(Path(path).read_bytes(), digest_size=6).hexdigest()


@functools.cache
def _gzipped(path: str, mtime_ns: int, size: int) -> bytes:
    """The file gzipped (once per file version and process; mtime 0, so every worker sends the same bytes)."""
    return gzip.compress(Path(path).read_bytes(), compresslevel=9, mtime=0)


def content_hash(full_path: str | os.PathLike[str], stat: os.stat_result | None = None) -> str:
    """The content hash of a file under /static (what `?v=` must say for the long cache)."""
    stat = stat or os.stat(full_path)
    return _digest(str(full_path), stat.st_mtime_ns, stat.st_size)


def static_url(relative: str) -> str:
    """`/static/<relative>?v=<content hash>`: the URL a page names a static file by (without `?v=` when the
    file is missing, e.g. npm's files in a build made without `npm ci`: the request then gets its 404)."""
    try:
        return f"/static/{relative}?v={content_hash(STATIC / relative)}"
    except FileNotFoundError:
        return f"/static/{relative}"


class CachedStaticFiles(StaticFiles):
    """Starlette's StaticFiles with the long cache for hashed URLs and gzipped text files."""

    def file_response(
        self, full_path: str | os.PathLike[str], stat_result: os.stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        current = content_hash(full_path, stat_result)
        asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("v", [""])[0]
        cache = IMMUTABLE if asked == current else REVALIDATE
        request_headers = Headers(scope=scope)
        if (
            Path(full_path).suffix in COMPRESSIBLE
            and stat_result.st_size >= MIN_GZIP_BYTES
            and "gzip" in request_headers.get("accept-encoding", "")
        ):
            headers = {
                "etag": f'W/"{current}"',
                "last-modified": formatdate(stat_result.st_mtime, usegmt=True),
                "cache-control": cache,
                "vary": "Accept-Encoding",
                "content-encoding": "gzip",
            }
            media_type = mimetypes.guess_type(str(full_path))[0] or "application/octet-stream"
            response = Response(
                _gzipped(str(full_path), stat_result.st_mtime_ns, stat_result.st_size),
                status_code=status_code,
                media_type=media_type,
                headers=headers,
            )
            if self.is_not_modified(Headers({**headers, "etag": f'"{current}"'}), request_headers):
                return NotModifiedResponse(response.headers)
            return response
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["cache-control"] = cache
        response.headers["vary"] = "Accept-Encoding"
        return response
