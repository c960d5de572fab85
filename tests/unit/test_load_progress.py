"""`weft load`'s progress display, fed by load_paths' progress callback (no database)."""

from __future__ import annotations

import io

from rich.console import Console

from weft.server.cli.load import LoadProgress


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=120, force_terminal=False), out


def test_files_records_and_derive_steps_are_shown() -> None:
    console, out = _console()
    with LoadProgress(console) as bar:
        bar("files", 0, 2)
        for n in range(1, 121):
            bar("records", n, 0)
        bar("files", 1, 2)
        bar("files", 2, 2)
        bar("citations", 3, 7)
        bar("citations", 7, 7)
        bar("co-authorships", 2, 2)
        files, derived = bar.progress.tasks
        assert (files.completed, files.total, files.fields["records"]) == (2, 2, 120)
        assert (derived.description, derived.completed, derived.total) == ("derived co-authorships", 2, 2)
    assert "120 records" in out.getvalue() and "derived co-authorships" in out.getvalue()


def test_a_load_that_never_starts_shows_nothing() -> None:
    console, out = _console()
    with LoadProgress(console):
        pass
    assert out.getvalue() == ""
