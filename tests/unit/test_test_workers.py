"""Each pytest-xdist worker of `make test` has its own session Neo4j port (tests/conftest.py)."""

from __future__ import annotations

from tests.conftest import worker_bolt_port


def test_gw0_keeps_the_port_and_each_other_worker_is_ten_above() -> None:
    ports = [worker_bolt_port(7687, f"gw{n}") for n in range(3)]
    assert ports == [7687, 7697, 7707]


def test_listed_ports_come_first_then_ten_above_the_base() -> None:
    assert worker_bolt_port(7821, "gw0", "7821,7891") == 7821
    assert worker_bolt_port(7821, "gw1", "7821,7891") == 7891
    assert worker_bolt_port(7821, "gw2", "7821, 7891") == 7841
