"""Claiming id-less author slots: the rule that joins an arXiv author to an identified researcher.

An author with no id (every arXiv author, a few S2 ones) is written as a paper-scoped Researcher
(`scoped_key` `<paper key>#<rank>`). After a load, for every touched paper and author rank:

1. the *claimants* at that rank are the identified researchers (any hard id) whose AUTHORED edge to the
   paper has the same `rank`, best first: best key ORCID < OpenAlex < S2, then smallest internal id;
2. a paper-scoped researcher at that rank whose name is compatible (`graph.identity.names.names_compatible`)
   with a claimant's is claimed by the first such claimant: the sources of its AUTHORED edge move onto
   the claimant's edge (listed again in `claimed_sources` there) and the scoped node is deleted;
3. a claimant holding `claimed_sources` gives them up to a better compatible claimant at the same rank.

So the arXiv statement "someone named X is author k of P" always ends on the best identified author k
of P, whatever the load order; reloading the arXiv record recreates the scoped node and the rule claims
it again. Pure planning here (`plan_claims`); the Cypher is queries/load_claims.py.
"""

from __future__ import annotations

from typing import Any

from weft.graph.identity.names import names_compatible


def plan_claims(slots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Moves {paper, from, to, sources} for author slots.

    Each slot: {paper, rank, researcher, scoped (bool), name, key_rank (0 ORCID, 1 OpenAlex, 2 S2),
    sources (list), claimed (list of sources claimed onto this edge)}.

    >>> plan_claims([
    ...     {"paper": "p", "rank": 0, "researcher": "rS", "scoped": True, "name": "A. Turing",
    ...      "key_rank": 3, "sources": ["arxiv"], "claimed": []},
    ...     {"paper": "p", "rank": 0, "researcher": "rO", "scoped": False, "name": "Alan Turing",
    ...      "key_rank": 1, "sources": ["openalex"], "claimed": []}])
    [{'paper': 'p', 'from': 'rS', 'to': 'rO', 'sources': ['arxiv']}]
    """
    by_slot: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for slot in slots:
        by_slot.setdefault((slot["paper"], slot["rank"]), []).append(slot)
    moves: list[dict[str, Any]] = []
    for (paper, _), group in sorted(by_slot.items(), key=lambda item: (item[0][0], item[0][1])):
        claimants = sorted((s for s in group if not s["scoped"]), key=lambda s: (s["key_rank"], s["researcher"]))
        if not claimants:
            continue
        for slot in sorted((s for s in group if s["scoped"]), key=lambda s: s["researcher"]):
            target = _first_compatible(claimants, slot["name"])
            if target is not None and slot["sources"]:
                moves.append(
                    {
                        "paper": paper,
                        "from": slot["researcher"],
                        "to": target["researcher"],
                        "sources": sorted(slot["sources"]),
                    }
                )
        for holder in claimants:
            if not holder["claimed"]:
                continue
            target = _first_compatible(claimants, holder["name"])
            if target is not None and target is not holder:
                moves.append(
                    {
                        "paper": paper,
                        "from": holder["researcher"],
                        "to": target["researcher"],
                        "sources": sorted(holder["claimed"]),
                    }
                )
    return moves


def _first_compatible(claimants: list[dict[str, Any]], name: str | None) -> dict[str, Any] | None:
    for claimant in claimants:
        if name and claimant["name"] and names_compatible(name, claimant["name"]):
            return claimant
    return None
