"""docker-compose.yml stays true to the settings the local server runs with."""

from __future__ import annotations

import re
from dataclasses import replace

import yaml

from weft.graph.local_server import Instance, write_config
from weft.graph.settings import PROJECT_ROOT, load_settings


def _setting_name(env_name: str) -> str:
    """The official image's rule: NEO4J_ prefix dropped, `__` -> `_`, `_` -> `.`."""
    body = env_name.removeprefix("NEO4J_")
    return ".".join(part.replace("\0", "_") for part in body.replace("__", "\0").split("_"))


def test_compose_neo4j_settings_are_ones_the_local_server_accepts(tmp_path) -> None:
    compose = yaml.safe_load((PROJECT_ROOT / "docker-compose.yml").read_text())
    neo4j = compose["services"]["neo4j"]
    assert re.fullmatch(r"neo4j:5\.26(\.\d+)?(-community)?", neo4j["image"])

    instance = Instance(replace(load_settings(), neo4j_home=tmp_path))
    write_config(instance)
    conf = (instance.conf_dir / "neo4j.conf").read_text()
    accepted = {line.split("=", 1)[0] for line in conf.splitlines() if "=" in line and not line.startswith("#")}

    env_settings = [k for k in neo4j["environment"] if k.startswith("NEO4J_") and k != "NEO4J_AUTH"]
    assert env_settings, "compose sets no Neo4j settings"
    for name in env_settings:
        assert _setting_name(name) in accepted, f"{name} -> {_setting_name(name)} is not a setting we run with"
    assert "neo4j/${NEO4J_PASSWORD" in neo4j["environment"]["NEO4J_AUTH"], "compose must not disable auth"


def test_compose_api_waits_for_a_healthy_database_and_the_loader() -> None:
    services = yaml.safe_load((PROJECT_ROOT / "docker-compose.yml").read_text())["services"]
    assert "healthcheck" in services["neo4j"]
    assert services["api"]["depends_on"]["neo4j"]["condition"] == "service_healthy"
    assert services["api"]["depends_on"]["loader"]["condition"] == "service_completed_successfully"
    for service in ("api", "loader"):
        env = services[service]["environment"]
        assert env["NEO4J_URI"] == "bolt://neo4j:7687"
        assert set(env) >= {"NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD", "NEO4J_DATABASE"}


def test_compose_loader_embeds_once_and_never_restarts() -> None:
    """Issue 48 item 16: the sample is loaded with its sentence vectors (semantic search works in compose too),
    by a one-shot service whose command skips the load when the graph already holds papers
    (tests/integration/test_compose_loader.py runs that command)."""
    loader = yaml.safe_load((PROJECT_ROOT / "docker-compose.yml").read_text())["services"]["loader"]
    shell, flag, script = loader["command"]
    assert (shell, flag) == ("sh", "-c")
    assert "weft load openalex demo/data/openalex --embed" in script
    assert 'if python -c "$$LOADED"; then' in script  # compose turns $$ into the shell's $
    assert "from weft.graph.migrate import counts" in loader["environment"]["LOADED"]
    assert loader["restart"] == "no"
