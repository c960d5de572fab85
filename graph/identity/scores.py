"""How well one clustering of author records matches a labelled one: B³ and pairwise precision, recall and F1,
split people and false merges (pure; the identity benchmark's scores, as S2AND reports them).

Both clusterings are maps from an item (an authorship, a record) to a cluster name; only the items present in
both are scored, so a prediction is judged on the labelled items alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class ClusterScores:
    """B³ and pairwise precision/recall/F1 over `items` labelled items; `people` gold clusters, of which
    `split_people` are spread over two or more predicted clusters (`extra_pieces` pieces beyond one each);
    `false_merges` predicted clusters holding two or more gold people (`wrongly_joined` people in them)."""

    items: int
    people: int
    b3_precision: float
    b3_recall: float
    b3_f1: float
    pair_precision: float
    pair_recall: float
    pair_f1: float
    split_people: int
    extra_pieces: int
    false_merges: int
    wrongly_joined: int


def f1(precision: float, recall: float) -> float:
    """The harmonic mean of precision and recall; 0 when both are 0.

    >>> f1(1.0, 0.5)
    0.6666666666666666
    """
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)


def _pairs(n: int) -> int:
    return n * (n - 1) // 2


def score(gold: Mapping[Hashable, Hashable], predicted: Mapping[Hashable, Hashable]) -> ClusterScores:
    """Scores of `predicted` against `gold` over the items both name.

    B³ precision is the mean over items of |pred(i) ∩ gold(i)| / |pred(i)|, recall the same over |gold(i)|
    (Bagga and Baldwin 1998). Pairwise precision is the share of predicted same-cluster pairs that are gold
    pairs; with no predicted pair at all it is 1 (nothing claimed, nothing wrong), and recall with no gold pair
    is 1 likewise.

    >>> s = score({"a": 1, "b": 1, "c": 2}, {"a": "x", "b": "y", "c": "y"})
    >>> (s.split_people, s.false_merges, s.pair_precision, s.pair_recall)
    (1, 1, 0.0, 0.0)
    """
    items = [i for i in gold if i in predicted]
    cells = Counter((predicted[i], gold[i]) for i in items)
    pred_sizes = Counter(predicted[i] for i in items)
    gold_sizes = Counter(gold[i] for i in items)
    n = len(items)
    b3_p = sum(count * count / pred_sizes[p] for (p, _), count in cells.items()) / n if n else 1.0
    b3_r = sum(count * count / gold_sizes[g] for (_, g), count in cells.items()) / n if n else 1.0
    together = sum(_pairs(c) for c in cells.values())
    pred_pairs = sum(_pairs(c) for c in pred_sizes.values())
    gold_pairs = sum(_pairs(c) for c in gold_sizes.values())
    pair_p = together / pred_pairs if pred_pairs else 1.0
    pair_r = together / gold_pairs if gold_pairs else 1.0
    pieces = Counter(g for (_, g) in cells)
    members = Counter(p for (p, _) in cells)
    merged = [p for p, people in members.items() if people > 1]
    return ClusterScores(
        items=n,
        people=len(gold_sizes),
        b3_precision=b3_p,
        b3_recall=b3_r,
        b3_f1=f1(b3_p, b3_r),
        pair_precision=pair_p,
        pair_recall=pair_r,
        pair_f1=f1(pair_p, pair_r),
        split_people=sum(1 for k in pieces.values() if k > 1),
        extra_pieces=sum(k - 1 for k in pieces.values()),
        false_merges=len(merged),
        wrongly_joined=sum(members[p] for p in merged),
    )
