"""The linking evidence, model and threshold on tiny hand-made records."""

from __future__ import annotations

from weft.graph.identity.linking import (
    FEATURES,
    LinkModel,
    Profile,
    accepted_links,
    choose_threshold,
    evidence,
    fit_logistic,
    fit_signed,
    vector,
)


def _profile(rid: str, name: str, **lists: object) -> Profile:
    return Profile.of({"id": rid, "name": name, "name_key": "zhang w", **lists})


def test_evidence_counts_what_two_profiles_share() -> None:
    a = _profile(
        "a",
        "Wei Zhang",
        papers=["p1", "p2"],
        years=[2001, 2004],
        coauthors=["li x", "zhang w", "wu y"],
        institutions=["i1"],
        categories=["c1", "c2"],
        cited=["p9"],
    )
    b = _profile(
        "b",
        "W. Zhang",
        papers=["p9", "p2"],
        years=[2010],
        coauthors=["li x", "zhang w"],
        institutions=["i1", "i2"],
        categories=["c2"],
        cited=["p1"],
    )
    found = evidence(a, b)
    assert found == {
        "shared_coauthors": 1,  # li x; the pair's own name key is no co-author
        "shared_institutions": 1,
        "shared_categories": 1,
        "self_citations": 2,  # a cites p9 (b's), b cites p1 (a's)
        "same_full_name": 0,
        "given_name_conflict": 0,
        "year_gap": 6,
        "papers_together": 1,
    }


def test_spelled_out_given_names_that_differ_conflict() -> None:
    found = evidence(_profile("a", "Wei Zhang"), _profile("b", "Wen Zhang"))
    assert found["given_name_conflict"] == 1 and found["same_full_name"] == 0


def test_the_fitted_model_ranks_shared_evidence_above_none() -> None:
    shared = {"shared_coauthors": 3, "shared_institutions": 1, "same_full_name": 1}
    nothing = {"given_name_conflict": 1}
    x = [vector(shared)] * 20 + [vector(nothing)] * 20 + [vector({})] * 10 + [vector({"same_full_name": 1})] * 10
    y = [1] * 20 + [0] * 20 + [0] * 5 + [1] * 5 + [1] * 4 + [0] * 6
    weights, bias = fit_logistic(x, y)
    model = LinkModel(tuple(weights), bias, threshold=0.5)
    assert model.score(shared) > 0.9 and model.score(nothing) < 0.2
    assert 0.3 < model.score({}) < 0.7  # half of the empty pairs were one person


def test_the_threshold_counts_pairs_the_closure_makes() -> None:
    # a-b right (0.9); b-c wrong (0.8) joins c to {a, b}: 1 right pair of 3; c-d right (0.7) after it
    labels = {"a": {"P": 1}, "b": {"P": 1}, "c": {"Q": 1}, "d": {"Q": 1}}
    scored = [("a", "b", 0.9), ("b", "c", 0.8), ("c", "d", 0.7)]
    assert choose_threshold(scored, labels, target=0.99) == 0.9
    # at 0.5 precision the closure of all three (2 right pairs of 6) is still too low; 0.9 stays
    assert choose_threshold(scored, labels, target=0.5) == 0.9
    assert choose_threshold(scored, labels, target=0.3) == 0.7


def test_no_safe_threshold_links_nothing() -> None:
    assert choose_threshold([("a", "b", 0.9)], {"a": {"P": 1}, "b": {"Q": 1}}) == 1.0


def test_links_never_chain_two_given_names_through_initials() -> None:
    records = {
        "j": {"name": "J. Wang", "papers": frozenset()},
        "jing": {"name": "Jing Wang", "papers": frozenset()},
        "jianwei": {"name": "Jianwei Wang", "papers": frozenset()},
        "jing2": {"name": "Jing Wang", "papers": frozenset({"p1"})},
        "jing3": {"name": "Jing Wang", "papers": frozenset({"p1"})},
    }
    scored = [("j", "jing", 0.99), ("j", "jianwei", 0.98), ("jing", "jing2", 0.97), ("jing2", "jing3", 0.96)]
    # j-jianwei would put Jing and Jianwei in one person; jing3 shares a paper with jing2, already in the group
    assert accepted_links(scored, records, 0.9) == {("j", "jing"), ("jing", "jing2")}
    labels = {"j": {"P": 1}, "jing": {}, "jianwei": {"Q": 1}, "jing2": {}, "jing3": {}}
    # the threshold sees the same skips: without them j-jianwei would join P and Q and stop it at 0.99
    assert choose_threshold(scored, labels, 0.995, records) == 0.97
    assert choose_threshold(scored, labels, 0.995) == 0.99


def test_a_weight_of_the_wrong_sign_is_dropped_and_the_rest_refitted() -> None:
    # years apart (year_gap) only ever seen with the same person: a free fit would reward distance
    x = [vector({"year_gap": 20, "shared_institutions": 1})] * 10 + [vector({})] * 10
    y = [1] * 10 + [0] * 10
    weights, _ = fit_signed(x, y)
    named = dict(zip(FEATURES, weights, strict=True))
    assert named["year_gap"] == 0.0
    assert named["shared_institutions"] > 0
