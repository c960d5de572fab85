"""Evidence that two same-name researcher records are one person, and the calibrated score that weighs it (pure).

A candidate pair is a SAME_NAME_AS link (same name key, compatible names: never all pairs). Each record's
profile (papers, years, co-authors' name keys, institutions, categories, cited papers) is read once; the
evidence of a pair is what the two profiles share. The score is a logistic model over that evidence
(graph/identity/link_model.py holds the fitted weights and the threshold, fitted by bench/identity.py).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from weft.graph.identity.names import clean_whitespace, fold, names_compatible, split_name

FEATURES = (
    "shared_coauthors",
    "shared_institutions",
    "shared_categories",
    "self_citations",
    "same_full_name",
    "given_name_conflict",
    "year_gap",
    "papers_together",
)


@dataclass(frozen=True)
class Profile:
    """What one researcher record brings to a comparison (lists read by queries/identity_links.PROFILES)."""

    id: str
    name: str
    papers: frozenset[str]
    years: tuple[int, int] | None
    coauthors: frozenset[str]
    institutions: frozenset[str]
    categories: frozenset[str]
    cited: frozenset[str]

    @staticmethod
    def of(row: Mapping[str, Any]) -> Profile:
        """A profile from a PROFILES row; the record's own name key is no co-author evidence."""
        years = [y for y in _items(row, "years") if isinstance(y, int)]
        own = row.get("name_key")
        return Profile(
            id=str(row["id"]),
            name=str(row.get("name") or ""),
            papers=frozenset(_items(row, "papers")),
            years=(min(years), max(years)) if years else None,
            coauthors=frozenset(k for k in _items(row, "coauthors") if k != own),
            institutions=frozenset(_items(row, "institutions")),
            categories=frozenset(_items(row, "categories")),
            cited=frozenset(_items(row, "cited")),
        )


def _items(row: Mapping[str, Any], key: str) -> list[Any]:
    """A list column of a PROFILES row, as strings and ints ([] when absent)."""
    value: object = row.get(key)
    if not isinstance(value, list):
        return []
    items = cast("list[object]", value)
    return [v for v in items if isinstance(v, str | int)]


def _given(name: str) -> list[str]:
    given, _ = split_name(fold(clean_whitespace(name)))
    return [g.strip(".") for g in given if g.strip(".")]


def given_names_conflict(a: str, b: str) -> bool:
    """Whether both names spell out a first given name (two letters or more) and they differ: "Wei" vs "Wen".

    >>> given_names_conflict("Wei Zhang", "Wen Zhang"), given_names_conflict("W. Zhang", "Wen Zhang")
    (True, False)
    """
    ga, gb = _given(a), _given(b)
    if not ga or not gb or len(ga[0]) < 2 or len(gb[0]) < 2:
        return False
    return ga[0] != gb[0]


def year_gap(a: tuple[int, int] | None, b: tuple[int, int] | None) -> int:
    """Years between two activity spans (0 when they overlap or one is unknown)."""
    if a is None or b is None:
        return 0
    return max(0, max(a[0], b[0]) - min(a[1], b[1]))


def evidence(a: Profile, b: Profile) -> dict[str, int]:
    """The evidence counts of one candidate pair, by FEATURES name."""
    return {
        "shared_coauthors": len(a.coauthors & b.coauthors),
        "shared_institutions": len(a.institutions & b.institutions),
        "shared_categories": len(a.categories & b.categories),
        "self_citations": len(a.cited & b.papers) + len(b.cited & a.papers),
        "same_full_name": int(fold(clean_whitespace(a.name)) == fold(clean_whitespace(b.name))),
        "given_name_conflict": int(given_names_conflict(a.name, b.name)),
        "year_gap": year_gap(a.years, b.years),
        "papers_together": len(a.papers & b.papers),
    }


def describe(found: Mapping[str, int]) -> list[str]:
    """The evidence as the API shows it: one phrase per non-zero count, in FEATURES order."""
    words = {
        "shared_coauthors": "co-author names in common: {}",
        "shared_institutions": "institutions in common: {}",
        "shared_categories": "topics and categories in common: {}",
        "self_citations": "citations between their papers: {}",
        "same_full_name": "same full name",
        "given_name_conflict": "different given names",
        "year_gap": "years apart: {}",
        "papers_together": "listed together on {} paper(s)",
    }
    return [words[f].format(found[f]) for f in FEATURES if found.get(f)]


def vector(found: Mapping[str, int]) -> list[float]:
    """The model's inputs: log(1 + count) of each feature (counts saturate: the 20th shared topic says little)."""
    return [math.log1p(found.get(f, 0)) for f in FEATURES]


@dataclass(frozen=True)
class LinkModel:
    """A logistic model: P(same person) = sigmoid(bias + weights · vector(evidence)); pairs at or above
    `threshold` are linked, the others stay candidates."""

    weights: tuple[float, ...]
    bias: float
    threshold: float

    def score(self, found: Mapping[str, int]) -> float:
        """The calibrated probability that the pair is one person."""
        z = self.bias + sum(w * x for w, x in zip(self.weights, vector(found), strict=True))
        return 1.0 / (1.0 + math.exp(-z))


def fit_logistic(
    x: Sequence[Sequence[float]], y: Sequence[int], l2: float = 1.0, steps: int = 50
) -> tuple[list[float], float]:
    """Weights and bias of an L2-regularised logistic regression by Newton's method (IRLS); the bias is not
    penalised. Small and exact enough for a few thousand labelled pairs, with numpy alone."""
    width = 1 + (len(x[0]) if len(x) else 0)
    xs: NDArray[np.float64] = np.ones((len(x), width), dtype=np.float64)
    if width > 1:
        xs[:, 1:] = np.asarray(x, dtype=np.float64)
    ys: NDArray[np.float64] = np.asarray(y, dtype=np.float64)
    beta: NDArray[np.float64] = np.zeros(width, dtype=np.float64)
    penalty: NDArray[np.float64] = np.eye(width, dtype=np.float64) * l2
    penalty[0, 0] = 0.0
    for _ in range(steps):
        p: NDArray[np.float64] = 1.0 / (1.0 + np.exp(-(xs @ beta)))
        gradient: NDArray[np.float64] = xs.T @ (p - ys) + penalty @ beta
        hessian: NDArray[np.float64] = (xs.T * (p * (1 - p))) @ xs + penalty + np.eye(width) * 1e-9
        step: NDArray[np.float64] = np.asarray(np.linalg.solve(hessian, gradient), dtype=np.float64)
        beta = beta - step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    values: list[float] = beta.tolist()
    return values[1:], values[0]


class _Clusters:
    """Union-find over records, each holding a count of gold labels, keeping the pairwise counts of the closure."""

    def __init__(self, labels: Mapping[str, Mapping[str, int]]) -> None:
        self.parent = {r: r for r in labels}
        self.counts = {r: dict(c) for r, c in labels.items()}
        self.pairs = sum(_pairs(sum(c.values())) for c in labels.values())
        self.true = sum(_pairs(n) for c in labels.values() for n in c.values())

    def find(self, r: str) -> str:
        while self.parent[r] != r:
            self.parent[r] = self.parent[self.parent[r]]
            r = self.parent[r]
        return r

    def join(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return
        ca, cb = self.counts[ra], self.counts[rb]
        self.pairs += sum(ca.values()) * sum(cb.values())
        self.true += sum(n * cb.get(label, 0) for label, n in ca.items())
        for label, n in cb.items():
            ca[label] = ca.get(label, 0) + n
        self.parent[rb] = ra
        del self.counts[rb]


def _pairs(n: int) -> int:
    return n * (n - 1) // 2


def choose_threshold(
    scored: Sequence[tuple[str, str, float]],
    labels: Mapping[str, Mapping[str, int]],
    target: float = 0.995,
    records: Mapping[str, Mapping[str, Any]] | None = None,
) -> float:
    """The lowest score at which linking every pair scoring at least that much (and joining what the links
    connect) keeps pairwise precision over the labelled items at or above `target`; 1.0 links nothing useful.

    `scored` holds (record, record, score) for labelled records; `labels[record]` counts its items per gold
    person. Precision is taken after the transitive closure, as the graph reads links, not pair by pair; with
    `records` ({name, papers} per record), pairs that cannot join (cannot_join) are skipped as accepted_links does.

    >>> choose_threshold([("a", "b", 0.9), ("b", "c", 0.4)], {"a": {"P": 1}, "b": {"P": 1}, "c": {"Q": 1}})
    0.9
    """
    clusters = _Clusters(labels)
    members: dict[str, list[Mapping[str, Any]]] = {r: [rec] for r, rec in (records or {}).items()}
    best = 1.0
    ordered = sorted((s for s in scored if s[0] in labels and s[1] in labels), key=lambda s: (-s[2], s[0], s[1]))
    for i, (a, b, value) in enumerate(ordered):
        ra, rb = clusters.find(a), clusters.find(b)
        if records is not None and ra != rb:
            if cannot_join(members.get(ra, []), members.get(rb, [])):
                continue
            members[clusters.find(a)] = members.pop(ra, []) + members.pop(rb, [])
        clusters.join(a, b)
        if i + 1 < len(ordered) and ordered[i + 1][2] == value:
            continue  # a threshold links every pair of its score
        precision = clusters.true / clusters.pairs if clusters.pairs else 1.0
        if precision >= target:
            best = value
    return best


# The sign each weight must have: shared evidence for, conflicts and distance against (0: either way).
SIGNS = {
    "shared_coauthors": 1,
    "shared_institutions": 1,
    "shared_categories": 1,
    "self_citations": 1,
    "same_full_name": 1,
    "given_name_conflict": -1,
    "year_gap": -1,
    "papers_together": -1,
}


def fit_signed(x: Sequence[Sequence[float]], y: Sequence[int], l2: float = 1.0) -> tuple[list[float], float]:
    """fit_logistic, then again without each feature whose weight came out with the wrong sign (SIGNS), until
    none does: with few negatives a free fit learns noise ("years apart means the same person"); dropped
    features get weight 0."""
    kept = list(range(len(FEATURES)))
    while True:
        weights, bias = fit_logistic([[row[i] for i in kept] for row in x], y, l2)
        wrong = [i for i, w in zip(kept, weights, strict=True) if w * SIGNS[FEATURES[i]] < 0]
        if not wrong:
            full = [0.0] * len(FEATURES)
            for i, w in zip(kept, weights, strict=True):
                full[i] = w
            return full, bias
        kept = [i for i in kept if i not in wrong]


def cannot_join(a: Sequence[Mapping[str, Any]], b: Sequence[Mapping[str, Any]]) -> bool:
    """Whether two groups of records (each {name, papers}) cannot be one person: two names that are not
    compatible or spell out different given names, or two records on one paper (an author list names a person
    once). Checked before a link joins two groups, so links never chain "J. Wang" to both Jing and Jianwei."""
    for one in a:
        for other in b:
            if given_names_conflict(one["name"], other["name"]) or not names_compatible(one["name"], other["name"]):
                return True
            if one["papers"] & other["papers"]:
                return True
    return False


def accepted_links(
    scored: Sequence[tuple[str, str, float]], records: Mapping[str, Mapping[str, Any]], threshold: float
) -> set[tuple[str, str]]:
    """The pairs at or above `threshold` kept as links, best score first, each only when the groups it would join
    can be one person (cannot_join): what the links' closure joins stays consistent.

    >>> recs = {"a": {"name": "J. Wang", "papers": set()}, "b": {"name": "Jing Wang", "papers": set()},
    ...         "c": {"name": "Jianwei Wang", "papers": set()}}
    >>> sorted(accepted_links([("a", "b", 0.99), ("a", "c", 0.98)], recs, 0.9))
    [('a', 'b')]
    """
    parent = {r: r for r in records}
    members: dict[str, list[Mapping[str, Any]]] = {r: [rec] for r, rec in records.items()}

    def find(r: str) -> str:
        while parent[r] != r:
            parent[r] = parent[parent[r]]
            r = parent[r]
        return r

    kept: set[tuple[str, str]] = set()
    for a, b, value in sorted(scored, key=lambda s: (-s[2], s[0], s[1])):
        if value < threshold or a not in records or b not in records:
            continue
        ra, rb = find(a), find(b)
        if ra != rb and cannot_join(members[ra], members[rb]):
            continue
        kept.add((a, b))
        if ra != rb:
            parent[rb] = ra
            members[ra] += members.pop(rb)
    return kept
