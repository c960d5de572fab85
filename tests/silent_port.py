"""A loopback port that accepts TCP connections and never says a word: a hung database or object store."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def silent_listener() -> Iterator[tuple[int, list[socket.socket]]]:
    """The port, and the connections it took so far (held open, unanswered, until the block ends)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1], held
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()
