"""What `weft import` says while neo4j-admin imports: each phase as it starts and ends."""

from __future__ import annotations

from weft.graph.bulk_import import admin_progress

# neo4j-admin 5.26's output for a small import (progress bars shortened), as `weft import` reads it.
OUTPUT = """Available resources:
  Total machine memory: 23.54GiB
  Max worker threads: 2

Nodes, started 2026-12-04 04:52:59.302+0000

[*Nodes:0B/s 517.6MiB-------------------------------------------]    0 ∆    0
Done in 1s 152ms
Relationships, started 2026-12-04 04:53:00.605+0000

[*Relationships:?? 517.7MiB-------------------------------------]10.0K ∆10.0K
Done in 373ms
Relationship --> Relationship 1-10/10, started 2026-12-04 04:53:01.073+0000

[>-----------|*LINK---------------------------------|v:??-----] 120K ∆ 120K
Done in 62ms

IMPORT DONE in 2s 605ms.
Imported:
  6230 nodes
"""


def test_each_phase_is_said_when_it_starts_and_ends() -> None:
    said: list[str] = []
    hear = admin_progress(said.append)
    for line in OUTPUT.splitlines():
        hear(line)
    assert said == [
        "  Nodes …",
        "  Nodes: done in 1s 152ms",
        "  Relationships …",
        "  Relationships: done in 373ms",
        "  Relationship --> Relationship 1-10/10 …",
        "  Relationship --> Relationship 1-10/10: done in 62ms",
        "  IMPORT DONE in 2s 605ms",
    ]


def test_a_done_line_outside_a_phase_is_not_said() -> None:
    said: list[str] = []
    hear = admin_progress(said.append)
    for line in ("Done in 5ms", "Estimated number of nodes: 1.00 M", ""):
        hear(line)
    assert said == []
