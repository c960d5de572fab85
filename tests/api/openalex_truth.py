"""Expected answers computed straight from the raw OpenAlex JSON in ../shared/data/openalex.

Independent of the loader: reads every file shape (list page, single entity, bare array), keeps the
newest `updated_date` of each work, and derives counts the API must reproduce.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any


def short(openalex_url: str | None) -> str | None:
    """`W123` from `https://openalex.org/W123` (or the short form itself)."""
    return openalex_url.rsplit("/", 1)[-1] if openalex_url else None


def entities(path: Path) -> list[dict[str, Any]]:
    """The entities of one file, whatever its shape."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        return [e for e in data["results"] if isinstance(e, dict)]
    if isinstance(data, list):
        return [e for e in data if isinstance(e, dict)]
    return [data] if isinstance(data, dict) else []


def h_index(counts: list[int]) -> int:
    ranked = sorted(counts, reverse=True)
    return sum(1 for k, c in enumerate(ranked) if c >= k + 1)


def abstract_of(inverted: dict | None) -> str | None:
    if not inverted:
        return None
    slots = {pos: word for word, positions in inverted.items() for pos in positions}
    return " ".join(slots[k] for k in sorted(slots))


@dataclass
class OpenAlexTruth:
    """The shared OpenAlex data, deduplicated, with helpers for expected values."""

    root: Path
    works: dict[str, dict] = field(default_factory=dict)
    authors: dict[str, dict] = field(default_factory=dict)
    institutions: dict[str, dict] = field(default_factory=dict)

    @classmethod
    def load(cls, root: Path) -> OpenAlexTruth:
        truth = cls(root)
        for path in sorted(root.rglob("*.json")):
            for entity in entities(path):
                ident = short(entity.get("id")) or ""
                table = {"W": truth.works, "A": truth.authors, "I": truth.institutions}.get(ident[:1])
                if table is None:
                    continue
                old = table.get(ident)
                if old is None or str(entity.get("updated_date") or "") > str(old.get("updated_date") or ""):
                    table[ident] = entity
        return truth

    # --- researchers -----------------------------------------------------------------------

    def works_of(self, author: str) -> list[dict]:
        return [w for w in self.works.values() if author in self.author_ids(w)]

    @staticmethod
    def author_ids(work: dict) -> list[str]:
        out: list[str] = []
        for a in work.get("authorships") or []:
            ident = short((a.get("author") or {}).get("id"))
            if ident and ident not in out:
                out.append(ident)
        return out

    def profile(self, author: str) -> dict[str, Any]:
        works = self.works_of(author)
        counts = [w.get("cited_by_count") or 0 for w in works]
        positions: Counter[str] = Counter()
        matched = 0
        for w in works:
            if w.get("is_authors_truncated"):
                continue
            matched += 1
            slot = next(a for a in w["authorships"] if short((a.get("author") or {}).get("id")) == author)
            positions[slot["author_position"]] += 1
        return {
            "paperCount": len(works),
            "citationCount": sum(counts),
            "hIndex": h_index(counts),
            "i10Index": sum(1 for c in counts if c >= 10),
            "authorPositions": {
                "first": positions["first"],
                "middle": positions["middle"],
                "last": positions["last"],
                "matchedPapers": matched,
            },
        }

    def coauthor_weights(self, author: str) -> dict[str, int]:
        weights: Counter[str] = Counter()
        for w in self.works_of(author):
            for other in self.author_ids(w):
                if other != author:
                    weights[other] += 1
        return dict(weights)

    # --- institutions ----------------------------------------------------------------------

    def roster(self, institution: str) -> dict[str, int]:
        """`{author id: works stating the institution}` plus listed-affiliation authors with 0."""
        counts: Counter[str] = Counter()
        for w in self.works.values():
            seen: set[str] = set()
            for a in w.get("authorships") or []:
                author = short((a.get("author") or {}).get("id"))
                if not author or author in seen:
                    continue
                seen.add(author)
                if any(short(i.get("id")) == institution for i in a.get("institutions") or []):
                    counts[author] += 1
        roster = dict(counts)
        for author, entity in self.authors.items():
            for aff in entity.get("affiliations") or []:
                if short((aff.get("institution") or {}).get("id")) == institution:
                    roster.setdefault(author, 0)
        return roster

    def children(self, institution: str) -> set[str]:
        return {
            ident
            for ident, entity in self.institutions.items()
            for assoc in entity.get("associated_institutions") or []
            if assoc.get("relationship") == "parent" and short(assoc.get("id")) == institution
        }

    def descendants(self, institution: str) -> set[str]:
        found: set[str] = set()
        todo = [institution]
        while todo:
            for child in self.children(todo.pop()):
                if child not in found:
                    found.add(child)
                    todo.append(child)
        return found

    def works_at(self, institution: str) -> list[dict]:
        return [
            w
            for w in self.works.values()
            if any(
                short(i.get("id")) == institution
                for a in w.get("authorships") or []
                for i in a.get("institutions") or []
            )
        ]

    # --- papers ----------------------------------------------------------------------------

    def cited_by(self, work: str) -> set[str]:
        url = f"https://openalex.org/{work}"
        return {k for k, w in self.works.items() if url in (w.get("referenced_works") or [])}

    def references(self, work: str) -> set[str]:
        return {short(r) for r in self.works[work].get("referenced_works") or [] if short(r) in self.works}

    def most_cited(self, works: list[dict] | None = None) -> list[tuple[str, int]]:
        chosen = self.works.values() if works is None else works
        return sorted(((short(w["id"]), w.get("cited_by_count") or 0) for w in chosen), key=lambda x: -x[1])

    @cached_property
    def field_of_work(self) -> dict[str, set[str]]:
        """`{work: {field names of its topics}}`."""
        return {
            k: {(t.get("field") or {}).get("display_name") for t in w.get("topics") or []}
            for k, w in self.works.items()
        }

    def text_matches(self, word: str) -> set[str]:
        """Works whose title or abstract has `word` as a token (what the standard analyzer indexes)."""
        pattern = re.compile(rf"(?<![0-9a-z]){re.escape(word.lower())}(?![0-9a-z])")
        return {
            k
            for k, w in self.works.items()
            if pattern.search(
                (
                    (w.get("title") or w.get("display_name") or "")
                    + " "
                    + (abstract_of(w.get("abstract_inverted_index")) or "")
                ).lower()
            )
        }

    def name_owners(self) -> dict[str, set[str]]:
        """`{folded name: institution ids}` over names, alternatives and acronyms of institution entities."""
        from weft.graph.identity.lookup import fold_name

        owners: defaultdict[str, set[str]] = defaultdict(set)
        for ident, e in self.institutions.items():
            for name in [
                e.get("display_name"),
                *(e.get("display_name_alternatives") or []),
                *(e.get("display_name_acronyms") or []),
            ]:
                if name:
                    owners[fold_name(name)].add(ident)
        return owners
