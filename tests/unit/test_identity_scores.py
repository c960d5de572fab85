"""B³ and pairwise scores on tiny hand-made clusterings whose values are worked out by hand."""

from __future__ import annotations

import pytest

from weft.graph.identity.scores import f1, score

# gold: person P has a, b, c; person Q has d, e
GOLD = {"a": "P", "b": "P", "c": "P", "d": "Q", "e": "Q"}


def test_the_gold_clustering_scores_one_everywhere() -> None:
    s = score(GOLD, {"a": 1, "b": 1, "c": 1, "d": 2, "e": 2})
    assert (s.b3_precision, s.b3_recall, s.pair_precision, s.pair_recall) == (1.0, 1.0, 1.0, 1.0)
    assert (s.split_people, s.false_merges, s.items, s.people) == (0, 0, 5, 2)


def test_singletons_are_precise_and_recall_one_over_the_cluster_size() -> None:
    s = score(GOLD, {i: i for i in GOLD})
    # B³ recall: a, b, c each 1/3; d, e each 1/2 -> (3 * 1/3 + 2 * 1/2) / 5 = 2/5
    assert s.b3_precision == 1.0
    assert s.b3_recall == pytest.approx(2 / 5)
    assert s.pair_precision == 1.0  # nothing claimed
    assert s.pair_recall == 0.0
    assert (s.split_people, s.extra_pieces, s.false_merges) == (2, 3, 0)


def test_one_cluster_for_everyone() -> None:
    s = score(GOLD, dict.fromkeys(GOLD, "all"))
    # B³ precision: a, b, c each 3/5; d, e each 2/5 -> (9/5 + 4/5) / 5 = 13/25
    assert s.b3_precision == pytest.approx(13 / 25)
    assert s.b3_recall == 1.0
    # pairs: 10 predicted, 3 + 1 gold, all 4 found
    assert s.pair_precision == pytest.approx(4 / 10)
    assert s.pair_recall == 1.0
    assert (s.false_merges, s.wrongly_joined, s.split_people) == (1, 2, 0)
    assert s.b3_f1 == pytest.approx(f1(13 / 25, 1.0))


def test_a_split_and_a_merge_at_once() -> None:
    # {a, b} {c, d} {e}
    s = score(GOLD, {"a": 1, "b": 1, "c": 2, "d": 2, "e": 3})
    # B³ precision: a, b 1; c, d 1/2; e 1 -> 4/5.  recall: a, b 2/3; c 1/3; d, e 1/2 -> (4/3 + 1/3 + 1) / 5 = 8/15
    assert s.b3_precision == pytest.approx(4 / 5)
    assert s.b3_recall == pytest.approx(8 / 15)
    # pairs: predicted (a,b), (c,d): one right; gold pairs 4
    assert (s.pair_precision, s.pair_recall) == (pytest.approx(1 / 2), pytest.approx(1 / 4))
    assert (s.split_people, s.extra_pieces, s.false_merges, s.wrongly_joined) == (2, 2, 1, 2)


def test_only_items_both_sides_name_are_scored() -> None:
    s = score(GOLD, {"a": 1, "b": 1, "zz": 1})
    assert (s.items, s.people, s.b3_precision, s.b3_recall) == (2, 1, 1.0, 1.0)


def test_f1_of_nothing_is_zero() -> None:
    assert f1(0.0, 0.0) == 0.0
