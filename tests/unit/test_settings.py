"""The settings (graph/settings.py): each variable read in one place, the README's table true to them, and a
bad value one line naming its variable."""

from __future__ import annotations

import dataclasses
import re

import pytest

from weft.graph.settings import PROJECT_ROOT, Settings, environment_variables, load_settings

TESTS_ONLY = {"WEFT_SHARED_DATA"}  # read by tests/conftest.py, not by weft


def readme_table() -> dict[str, str]:
    """The README's configuration table: each variable with the default cell of its row."""
    text = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Configuration", 1)[1]
    rows: dict[str, str] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if not line.startswith("| `") or len(cells) < 3:
            continue
        names, defaults = re.findall(r"`(\w+)`", cells[0]), cells[1].split(" / ")
        for k, name in enumerate(names):
            rows[name] = defaults[k] if len(defaults) == len(names) else cells[1]
    return rows


def test_the_readme_lists_every_setting_and_nothing_else() -> None:
    listed = set(readme_table())
    variables = set(environment_variables().values())
    assert variables - listed == set(), "settings missing from the README's configuration table"
    assert listed - variables - TESTS_ONLY == set(), "README rows that no setting reads"


def test_the_readme_defaults_are_the_settings_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    """A literal default in the table (`15`, `*(empty)*`), given as the variable's value, reads as the default."""
    by_variable = {variable: name for name, variable in environment_variables().items()}
    checked = 0
    for variable, cell in readme_table().items():
        literal = re.fullmatch(r"`([^`]*)`", cell)
        if variable not in by_variable or not (literal or cell == "*(empty)*"):
            continue
        monkeypatch.setenv(variable, literal.group(1) if literal else "")
        name = by_variable[variable]
        assert getattr(load_settings(), name) == getattr(Settings(), name), variable
        monkeypatch.delenv(variable)
        checked += 1
    assert checked >= 20


def test_each_variable_is_read_in_the_settings_module_only() -> None:
    reads = re.compile(
        r"""(?:environ\.get|getenv)\(\s*["']((?:WEFT|NEO4J)_\w+)|environ\[["']((?:WEFT|NEO4J)_\w+)["']\](?!\s*=)"""
    )
    found: list[str] = []
    for folder in ("graph", "schema", "server", "loaders", "queries"):
        for path in (PROJECT_ROOT / folder).rglob("*.py"):
            if path.name != "settings.py":
                found += [f"{path.relative_to(PROJECT_ROOT)}: {m.group(0)}" for m in reads.finditer(path.read_text())]
    assert found == []


def test_every_field_names_its_own_variable() -> None:
    variables = list(environment_variables().values())
    assert len(variables) == len(set(variables)) == len(dataclasses.fields(Settings))


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("WEFT_WORKERS", "two"),
        ("WEFT_BATCH_SIZE", "1e4"),
        ("WEFT_NEO4J_HTTP_PORT", "http"),
        ("WEFT_RESPONSE_CACHE_MB", "48MB"),
        ("WEFT_RESPONSE_CACHE_TTL_MS", "0.5"),
        ("WEFT_QUERY_TIMEOUT", "inf"),
        ("WEFT_WRITER_LEASE", "0.5"),
        ("WEFT_PUBLIC_URL", "weft.example.org"),
        ("WEFT_ALLOWED_HOSTS", "a.org,w*.org"),
        ("NEO4J_URI", "127.0.0.1:7687"),
    ],
)
def test_a_bad_value_is_one_line_naming_its_variable(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(SystemExit) as stopped:
        load_settings()
    message = str(stopped.value)
    assert message.startswith(f"{variable}={value!r} ") and "\n" not in message, message


def test_values_are_read_as_their_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable, value in {
        "WEFT_RESPONSE_CACHE_TTL_MS": "5",
        "WEFT_ALLOWED_HOSTS": " Weft.example.org, ::1 ,*.b.org",
        "WEFT_NEO4J_HTTP_PORT": "0",
        "WEFT_NEO4J_HOME": "/tmp/weft-home",
        "WEFT_PUBLIC_URL": "https://weft.example.org/",
        "WEFT_WORKERS": "",  # empty: the default
    }.items():
        monkeypatch.setenv(variable, value)
    settings = load_settings()
    assert settings.response_cache_ttl_s == 0.01  # at least 10 ms
    assert settings.allowed_hosts == ("weft.example.org", "[::1]", "*.b.org")
    assert (settings.neo4j_http_port, settings.http_port) == (0, 0)
    assert str(settings.neo4j_home) == "/tmp/weft-home"
    assert settings.public_url == "https://weft.example.org"
    assert settings.serve_workers == Settings.serve_workers == 0
