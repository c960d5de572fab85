"""The fitted identity-link model: weights over graph/identity/linking.FEATURES and the link threshold.

Fitted by `python -m bench.identity --fit` on one half of the ORCID-labelled people of the shared data
(records with every author id hidden, so only evidence can join them); the threshold is the lowest score whose
links keep pairwise precision >= 0.995 on that half after the transitive closure; bench/RESULTS.md reports the
other half. Refit and bump VERSION when the features change: each link stores the VERSION that scored it.
"""

from __future__ import annotations

from weft.graph.identity.linking import LinkModel

VERSION = "2026-12-07"
# Fitted 2026-12-07 (bench/RESULTS.md, "Identity"): 713 labelled pairs of half A, 9 of them different people;
# the sign-constrained fit (linking.fit_signed) kept institutions in common and the same full name.
MODEL = LinkModel(weights=(0.0, 0.4952, 0.0, 0.0, 1.336, 0.0, 0.0, 0.0), bias=3.2804, threshold=0.9895)
# Candidates scoring below this are not stored at all: they stay plain same-name candidates.
MAYBE_FLOOR = 0.05
