"""loaders.claims.plan_claims: which identified author claims an id-less author slot (pure)."""

from __future__ import annotations

from weft.loaders.claims import plan_claims


def slot(
    researcher: str,
    rank: int,
    name: str,
    key_rank: int,
    sources: list[str],
    *,
    scoped: bool = False,
    claimed: list[str] | None = None,
    paper: str = "p1",
) -> dict:
    return {
        "paper": paper,
        "rank": rank,
        "researcher": researcher,
        "scoped": scoped,
        "name": name,
        "key_rank": key_rank,
        "sources": sources,
        "claimed": claimed or [],
    }


def test_scoped_slot_goes_to_the_best_compatible_claimant_at_the_same_rank() -> None:
    slots = [
        slot("rA", 0, "Hugo Touvron", 3, ["arxiv"], scoped=True),
        slot("rS2", 0, "Hugo Touvron", 2, ["s2"]),
        slot("rOA", 0, "H. Touvron", 1, ["openalex"]),
        slot("rB", 1, "Thibaut Lavril", 3, ["arxiv"], scoped=True),
        slot("rOB", 1, "Thibaut Lavril", 1, ["openalex"]),
    ]
    assert plan_claims(slots) == [
        {"paper": "p1", "from": "rA", "to": "rOA", "sources": ["arxiv"]},
        {"paper": "p1", "from": "rB", "to": "rOB", "sources": ["arxiv"]},
    ]


def test_incompatible_names_or_other_ranks_never_claim() -> None:
    slots = [
        slot("rA", 0, "Gautier Izacard", 3, ["arxiv"], scoped=True),
        slot("rO", 0, "Xavier Martinet", 1, ["openalex"]),
        slot("rO2", 1, "Gautier Izacard", 1, ["openalex"]),
    ]
    assert plan_claims(slots) == []


def test_a_claimant_hands_claimed_sources_to_a_better_one() -> None:
    slots = [
        slot("rS2", 2, "Baptiste Rozière", 2, ["arxiv", "s2"], claimed=["arxiv"]),
        slot("rOA", 2, "Baptiste Roziere", 1, ["openalex"]),
    ]
    assert plan_claims(slots) == [{"paper": "p1", "from": "rS2", "to": "rOA", "sources": ["arxiv"]}]


def test_ties_on_key_rank_go_to_the_smaller_id_whatever_the_input_order() -> None:
    slots = [
        slot("rz", 0, "Naman Goyal", 1, ["openalex"]),
        slot("ra", 0, "Naman Goyal", 1, ["openalex"]),
        slot("rs", 0, "N. Goyal", 3, ["arxiv"], scoped=True),
    ]
    assert (
        plan_claims(slots)
        == plan_claims(list(reversed(slots)))
        == [{"paper": "p1", "from": "rs", "to": "ra", "sources": ["arxiv"]}]
    )
