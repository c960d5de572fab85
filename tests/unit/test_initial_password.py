"""The initial password reaches neo4j-admin in an owner-only argument file, never on its command line."""

from __future__ import annotations

import stat
import subprocess
from pathlib import Path

import pytest

from weft.graph import local_server
from weft.graph.local_server import Instance
from weft.graph.settings import Settings

PASSWORD = 'pa ss"wo\\rd-on-no-command-line'


def test_the_password_goes_in_an_owner_only_file_that_is_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, object] = {}

    def run_admin(instance: Instance, args: list[str]) -> subprocess.CompletedProcess[str]:
        (argument_file,) = [a for a in args if a.startswith("@")]
        path = Path(argument_file[1:])
        seen.update(args=args, text=path.read_text(encoding="utf-8"), mode=stat.S_IMODE(path.stat().st_mode))
        return subprocess.CompletedProcess(args, 0, "", "")

    monkeypatch.setattr(local_server, "run_admin", run_admin)
    settings = Settings(neo4j_uri="bolt://127.0.0.1:7999", neo4j_password=PASSWORD, neo4j_home=tmp_path)
    local_server._set_initial_password(Instance(settings))  # noqa: SLF001 - the step under test

    assert seen["args"][:2] == ["dbms", "set-initial-password"]
    assert not any("pa ss" in arg for arg in seen["args"])  # nothing `ps` shows holds the password
    assert seen["text"] == '"pa ss\\"wo\\\\rd-on-no-command-line"\n'  # picocli's quoting
    assert seen["mode"] == 0o600
    assert not list(tmp_path.rglob("initial-password.args"))
