"""What the benchmark ran on: cores, memory, CPU model, load, Java/Neo4j/driver versions."""

from __future__ import annotations

import os
import platform
import subprocess
from dataclasses import dataclass

import neo4j

from weft.graph.settings import Settings


@dataclass(frozen=True)
class Machine:
    nproc: int
    memory_gib: float
    cpu_model: str
    java: str
    neo4j: str
    driver: str
    python: str
    kernel: str

    def lines(self) -> list[str]:
        return [
            f"- CPU: {self.cpu_model}, {self.nproc} cores available (`nproc`)",
            f"- Memory: {self.memory_gib:.1f} GiB",
            f"- Java: {self.java}",
            f"- Neo4j: {self.neo4j} Community (project jars, graph/neo4j-server/pom.xml)",
            f"- Python driver: neo4j {self.driver}; Python {self.python}",
            f"- Kernel: {self.kernel}",
        ]


def _cpu_model() -> str:
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_gib() -> float:
    try:
        for line in open("/proc/meminfo", encoding="utf-8"):
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) / 1024 / 1024
    except OSError:
        pass
    return 0.0


def _java() -> str:
    try:
        out = subprocess.run(["java", "-version"], capture_output=True, text=True, check=False).stderr
    except OSError:
        return "not found"
    return out.splitlines()[0].strip() if out else "unknown"


def _neo4j_version(settings: Settings) -> str:
    try:
        with neo4j.GraphDatabase.driver(settings.neo4j_uri, auth=settings.auth) as driver:
            records, _, _ = driver.execute_query(
                "CALL dbms.components() YIELD versions RETURN versions[0] AS v", routing_="r"
            )
            return str(records[0]["v"])
    except Exception:  # noqa: BLE001 - a version string is best-effort
        return "unknown"


def load_average() -> str:
    """The 1/5/15-minute load average (how busy the shared machine was)."""
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "unknown"
    return f"{one:.2f} / {five:.2f} / {fifteen:.2f}"


def describe(settings: Settings) -> Machine:
    return Machine(
        nproc=len(os.sched_getaffinity(0)),
        memory_gib=_memory_gib(),
        cpu_model=_cpu_model(),
        java=_java(),
        neo4j=_neo4j_version(settings),
        driver=neo4j.__version__,
        python=platform.python_version(),
        kernel=platform.release(),
    )
