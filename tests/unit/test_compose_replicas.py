"""docker-compose.yml's `replicas` profile (README, "Read replicas") holds together without Docker: two
read-only replicas loaded from one dump, an API container on each, HAProxy in front with deploy/haproxy.cfg.

Docker is not available where the tests run, so this checks what can be checked: the YAML, that every
file and folder it mounts exists, that the services it names reach each other (HAProxy's servers, the
APIs' NEO4J_URI, the dependencies), that the replicas' Neo4j settings are the ones `weft replicas start`
writes, and that HAProxy's health check asks an endpoint the app's health module serves.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.unit.test_compose import _setting_name
from weft.graph.local_server import Instance, write_config
from weft.graph.settings import PROJECT_ROOT, load_settings
from weft.server import health

COMPOSE = PROJECT_ROOT / "docker-compose.yml"
HAPROXY = PROJECT_ROOT / "deploy" / "haproxy.cfg"
PROFILE = {"replica-1-load", "replica-2-load", "replica-1", "replica-2", "api-1", "api-2", "haproxy"}


@pytest.fixture(scope="module")
def services() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())["services"]


def _bind_source(volume: str) -> Path | None:
    """The host path of a bind mount (`./x:/y`, `${VAR:-./x}:/y`), None for a named volume."""
    source = volume.split(":/", 1)[0]
    default = re.fullmatch(r"\$\{\w+:-(.+)\}", source)
    source = default.group(1) if default else source
    return PROJECT_ROOT / source if source.startswith(("./", "/")) else None


def test_the_profile_adds_its_services_and_leaves_the_default_ones_alone(services: dict[str, Any]) -> None:
    in_profile = {name for name, s in services.items() if "replicas" in s.get("profiles", [])}
    assert in_profile == PROFILE
    for name in ("neo4j", "loader", "api"):
        assert "profiles" not in services[name]


def test_every_mounted_file_and_volume_exists(services: dict[str, Any]) -> None:
    named = set(yaml.safe_load(COMPOSE.read_text())["volumes"])
    for name in PROFILE:
        for volume in services[name].get("volumes", []):
            source = _bind_source(volume)
            if source is None:
                assert volume.split(":", 1)[0] in named, f"{name}: volume {volume} is not declared"
            else:
                assert source.exists(), f"{name} mounts {source}, which does not exist"
    assert (PROJECT_ROOT / "deploy" / "dumps" / ".gitignore").is_file()  # the folder is there, dumps are not committed


def test_each_replica_is_loaded_from_the_one_dump_before_it_starts_read_only(services: dict[str, Any]) -> None:
    dumps = {
        v for n in ("replica-1-load", "replica-2-load") for v in services[n]["volumes"] if v.endswith(":/dumps:ro")
    }
    assert len(dumps) == 1  # one dump for both
    for n in (1, 2):
        load, replica = services[f"replica-{n}-load"], services[f"replica-{n}"]
        assert load["image"] == replica["image"] == services["neo4j"]["image"]
        assert load["command"][:4] == ["neo4j-admin", "database", "load", "neo4j"]
        assert "--overwrite-destination=true" in load["command"] and "--from-path=/dumps" in load["command"]
        data = f"replica_{n}_data:/data"
        assert data in load["volumes"] and replica["volumes"] == [data]  # the replica starts on what was loaded
        assert replica["depends_on"] == {f"replica-{n}-load": {"condition": "service_completed_successfully"}}
        assert "healthcheck" in replica
        env = replica["environment"]
        assert env["NEO4J_server_databases_default__to__read__only"] == "true"
        assert "neo4j/${NEO4J_PASSWORD" in env["NEO4J_AUTH"]


def test_the_replicas_settings_are_the_ones_weft_replicas_start_writes(
    services: dict[str, Any], tmp_path: Path
) -> None:
    instance = Instance(replace(load_settings(), neo4j_home=tmp_path))
    instance.home.mkdir(parents=True)
    instance.replica_marker.write_text("{}\n")
    write_config(instance)
    conf = (instance.conf_dir / "neo4j.conf").read_text()
    accepted = {line.split("=", 1)[0] for line in conf.splitlines() if "=" in line and not line.startswith("#")}
    assert "server.databases.default_to_read_only=true" in conf.splitlines()
    for n in (1, 2):
        for name in services[f"replica-{n}"]["environment"]:
            if name != "NEO4J_AUTH":
                assert _setting_name(name) in accepted, f"{name} -> {_setting_name(name)} is not a setting we run with"


def test_each_api_reads_its_own_replica(services: dict[str, Any]) -> None:
    uris = set()
    for n in (1, 2):
        api = services[f"api-{n}"]
        assert api["build"] == "."
        assert api["environment"]["NEO4J_URI"] == f"bolt://replica-{n}:7687"
        assert set(api["environment"]) == {"NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD", "NEO4J_DATABASE"}
        assert api["depends_on"] == {f"replica-{n}": {"condition": "service_healthy"}}
        assert api["command"][:2] == ["weft", "serve"] and "0.0.0.0" in api["command"]
        uris.add(api["environment"]["NEO4J_URI"])
    assert len(uris) == 2


def _haproxy_sections() -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current = ""
    for raw in HAPROXY.read_text().splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line:
            continue
        if not line[0].isspace():
            current = line.strip()
            sections[current] = []
        else:
            sections[current].append(line.strip())
    return sections


def test_haproxy_balances_the_api_on_ready_and_bolt_over_the_replicas(services: dict[str, Any]) -> None:
    proxy = services["haproxy"]
    assert re.fullmatch(r"haproxy:\d+\.\d+", proxy["image"])  # the official image
    assert proxy["volumes"] == ["./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro"]
    sections = _haproxy_sections()
    published = {int(p.split(":")[1].strip('"')) for p in proxy["ports"]}
    binds = {int(line.split(":")[-1]) for lines in sections.values() for line in lines if line.startswith("bind ")}
    assert binds == published
    api = sections["backend api"]
    assert "option httpchk GET /ready" in api and "http-check expect status 200" in api
    assert {route.path for route in health.routes} >= {"/ready", "/health"}
    servers = {
        section: {line.split()[1]: line.split()[2] for line in lines if line.startswith("server ")}
        for section, lines in sections.items()
    }
    assert servers["backend api"] == {"api-1": "api-1:8000", "api-2": "api-2:8000"}
    assert servers["backend replicas"] == {"replica-1": "replica-1:7687", "replica-2": "replica-2:7687"}
    for name in (*servers["backend api"], *servers["backend replicas"]):
        assert name in services and name in proxy["depends_on"]
    for n in (1, 2):  # the API containers listen where HAProxy looks for them
        assert services[f"api-{n}"]["command"][services[f"api-{n}"]["command"].index("--port") + 1] == "8000"
