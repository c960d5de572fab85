"""A seeded synthetic OpenAlex works dump (JSON Lines) shaped like the real works in shared/data.

Skew is what makes loading realistic: authors per paper are lognormal (median about 4, a few
papers with up to 100 authors), papers per author follow a Zipf law (a few prolific authors,
a long tail of one-paper authors), co-authors are often drawn again from earlier
collaborators (so co-authorship weights above 1 exist), and citations prefer already-cited
earlier works (preferential attachment) plus some references outside the generated set.

    python -m bench.synth --works 1000 --out /tmp/works.jsonl
"""

from __future__ import annotations

import argparse
import bisect
import gzip
import itertools
import json
import math
import random
import string
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

OA = "https://openalex.org/"
WORK_BASE = 4_300_000_000
AUTHOR_BASE = 5_300_000_000
INSTITUTION_BASE = 4_390_000_000
TOPIC_BASE = 19_000
WORDS = (
    "graph learning neural network citation analysis visual analytics immersive heritage model "
    "forest governance community ecology vector biodiversity protein structure prediction cancer "
    "statistics survey compression text classifier ensemble change detection open access data "
    "bayesian inference deep transformer language retrieval optimisation climate policy health"
).split()
GIVEN = (
    "Wei Anna Peter Ludmila William Joseph Maria Jonathan Ahmed Rebecca Yuki Carlos Priya Olga Tom "
    "Li Jun Sara David Elena Mohammed Fatima Kenji Ines Lars Chiara Diego Hana Ivan Noor"
).split()
# Family names: a few very common ones (same-name candidates) and many syllable-built ones.
COMMON_FAMILY = "Zhang Wang Li Smith Kim Garcia Patel Nguyen".split()
SYLLABLES = "ka ro mi ten bu cher lo va sie gel ja mal kun che teah an rob erts mear man iv no".split()
COUNTRIES = ("US", "GB", "CN", "DE", "FR", "JP", "IN", "BR", "CA", "AU")
INSTITUTION_TYPES = ("education", "education", "education", "facility", "company", "healthcare", "government")


@dataclass(frozen=True)
class Author:
    """One synthetic author: OpenAlex id, name, maybe an ORCID, a home institution."""

    openalex: str
    name: str
    orcid: str | None
    home: int


@dataclass(frozen=True)
class Institution:
    """One synthetic institution with a well-formed ROR id."""

    openalex: str
    name: str
    ror: str
    country: str
    type: str


def _ror(rng: random.Random) -> str:
    body = "".join(rng.choice(string.ascii_lowercase + string.digits) for _ in range(6))
    return f"0{body}{rng.randint(10, 99)}"


def _person_name(rng: random.Random) -> str:
    if rng.random() < 0.15:
        family = rng.choice(COMMON_FAMILY)
    else:
        family = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()
    given = rng.choice(GIVEN)
    if rng.random() < 0.3:
        return f"{given} {rng.choice(string.ascii_uppercase)}. {family}"
    if rng.random() < 0.1:
        return f"{given[0]}. {family}"
    return f"{given} {family}"


def _orcid(rng: random.Random) -> str:
    digits = [rng.randint(0, 9) for _ in range(15)]
    total = 0
    for d in digits:
        total = (total + d) * 2
    check = (12 - total % 11) % 11
    tail = "X" if check == 10 else str(check)
    s = "".join(map(str, digits)) + tail
    return f"{s[0:4]}-{s[4:8]}-{s[8:12]}-{s[12:16]}"


class Generator:
    """Draws works one by one; every random choice comes from one seeded Random."""

    def __init__(self, works: int, seed: int = 7) -> None:
        self.rng = random.Random(seed)
        self.works = works
        n_authors = max(10, int(works * 1.6))
        n_institutions = max(5, works // 25)
        rng = self.rng
        self.institutions = [
            Institution(
                openalex=f"I{INSTITUTION_BASE + i}",
                name=f"University of {rng.choice(WORDS).title()} {rng.choice(WORDS).title()} {i}",
                ror=_ror(rng),
                country=rng.choice(COUNTRIES),
                type=rng.choice(INSTITUTION_TYPES),
            )
            for i in range(n_institutions)
        ]
        inst_weights = list(itertools.accumulate(1.0 / (k + 1) ** 0.8 for k in range(n_institutions)))
        self.authors = [
            Author(
                openalex=f"A{AUTHOR_BASE + i}",
                name=_person_name(rng),
                orcid=_orcid(rng) if rng.random() < 0.4 else None,
                home=bisect.bisect_left(inst_weights, rng.random() * inst_weights[-1]),
            )
            for i in range(n_authors)
        ]
        # Zipf-Mandelbrot over authors (s=1.15, q=60): rank 0 writes the most papers, a long tail one.
        self.author_cum = list(itertools.accumulate(1.0 / (k + 60) ** 1.15 for k in range(n_authors)))
        self.collaborators: dict[int, list[int]] = {}
        self.topics = self._topics()
        self.cited_weight: list[float] = []  # preferential attachment: 1 + times cited
        self.cited_cum: list[float] = []

    def _topics(self) -> list[dict]:
        rng = self.rng
        topics = []
        for t in range(120):
            domain = t % 4 + 1
            field = 10 + t % 16
            subfield = field * 100 + t % 7
            topics.append(
                {
                    "id": f"{OA}T{TOPIC_BASE + t}",
                    "display_name": f"{rng.choice(WORDS)} {rng.choice(WORDS)} research",
                    "subfield": {"id": f"{OA}subfields/{subfield}", "display_name": f"Subfield {subfield}"},
                    "field": {"id": f"{OA}fields/{field}", "display_name": f"Field {field}"},
                    "domain": {"id": f"{OA}domains/{domain}", "display_name": f"Domain {domain}"},
                }
            )
        return topics

    def _pick_author(self) -> int:
        return bisect.bisect_left(self.author_cum, self.rng.random() * self.author_cum[-1])

    def _team(self) -> list[int]:
        rng = self.rng
        size = min(100, max(1, round(math.exp(rng.gauss(1.35, 0.75)))))
        if rng.random() < 0.003:
            size = rng.randint(100, 140)  # consortium papers: the API truncates at 100
        lead = self._pick_author()
        team = [lead]
        seen = {lead}
        past = self.collaborators.get(lead, [])
        while len(team) < size:
            if past and rng.random() < 0.5:
                who = rng.choice(past)
            else:
                who = self._pick_author()
            if who not in seen:
                seen.add(who)
                team.append(who)
            elif len(seen) >= len(self.authors):
                break
        if len(team) <= 30:
            for a in team:
                known = self.collaborators.setdefault(a, [])
                if len(known) < 50:
                    known.extend(b for b in team if b != a)
        return team

    def _authorship(self, who: int, rank: int, n: int) -> dict:
        rng = self.rng
        author = self.authors[who]
        inst_ids = [author.home]
        if rng.random() < 0.15:
            inst_ids.append(rng.randrange(len(self.institutions)))
        institutions = [self.institutions[i] for i in dict.fromkeys(inst_ids)]
        if rng.random() < 0.05:
            institutions = []
        position = "first" if rank == 0 else "last" if rank == n - 1 else "middle"
        return {
            "author_position": position,
            "author": {
                "id": OA + author.openalex,
                "display_name": author.name,
                "orcid": f"https://orcid.org/{author.orcid}" if author.orcid else None,
            },
            "institutions": [
                {
                    "id": OA + inst.openalex,
                    "display_name": inst.name,
                    "ror": f"https://ror.org/{inst.ror}",
                    "country_code": inst.country,
                    "type": inst.type,
                    "lineage": [OA + inst.openalex],
                }
                for inst in institutions
            ],
            "countries": sorted({inst.country for inst in institutions}),
            "is_corresponding": rank == 0 and rng.random() < 0.6,
            "raw_author_name": author.name,
            "raw_affiliation_strings": [inst.name for inst in institutions],
            "affiliations": [
                {"raw_affiliation_string": inst.name, "institution_ids": [OA + inst.openalex]} for inst in institutions
            ],
        }

    def _references(self, index: int) -> list[str]:
        rng = self.rng
        n = min(200, int(math.exp(rng.gauss(2.6, 0.9))))
        refs: set[str] = set()
        for _ in range(n):
            if index > 0 and rng.random() < 0.8:
                j = bisect.bisect_left(self.cited_cum, rng.random() * self.cited_cum[-1])
                j = min(j, index - 1)
                refs.add(f"{OA}W{WORK_BASE + j}")
                self.cited_weight[j] += 1.0
            else:
                refs.add(f"{OA}W{3_000_000_000 + rng.randrange(5_000_000)}")  # outside the set
        return sorted(refs)

    def work(self, index: int) -> dict:
        """The index-th work; call in order 0, 1, 2, … (citations point backwards)."""
        rng = self.rng
        wid = f"W{WORK_BASE + index}"
        year = 1990 + min(35, int(35 * rng.betavariate(4, 1.3)))
        date = f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        team = self._team()
        truncated = len(team) > 100
        team = team[:100]
        title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 12))).capitalize()
        doi = f"10.5555/synth.{index}" if rng.random() < 0.85 else None
        chosen = rng.sample(self.topics, k=rng.randint(1, 3))
        topics = [dict(t, score=round(rng.uniform(0.5, 1.0), 4)) for t in chosen]
        topics.sort(key=lambda t: -t["score"])
        refs = self._references(index)
        self.cited_weight.append(1.0)
        self.cited_cum = (
            list(itertools.accumulate(self.cited_weight))
            if index % 200 == 0
            else ([*self.cited_cum, (self.cited_cum[-1] if self.cited_cum else 0.0) + 1.0])
        )
        source_id = rng.randint(1, 400)
        return {
            "id": OA + wid,
            "doi": f"https://doi.org/{doi}" if doi else None,
            "title": title,
            "display_name": title,
            "publication_year": year,
            "publication_date": date,
            "ids": {"openalex": OA + wid, **({"doi": f"https://doi.org/{doi}"} if doi else {})},
            "language": "en",
            "type": rng.choice(("article", "article", "article", "preprint", "book-chapter", "review")),
            "primary_location": {
                "is_oa": rng.random() < 0.4,
                "source": {
                    "id": f"{OA}S{source_id}",
                    "display_name": f"Journal of {WORDS[source_id % len(WORDS)].title()}",
                    "type": "journal",
                },
            },
            "authorships": [self._authorship(a, r, len(team)) for r, a in enumerate(team)],
            "is_authors_truncated": truncated,
            "cited_by_count": int(math.exp(rng.gauss(2.0, 1.5))),
            "topics": topics,
            "primary_topic": topics[0],
            "concepts": [
                {
                    "id": f"{OA}C{41000000 + rng.randint(0, 300)}",
                    "display_name": rng.choice(WORDS),
                    "level": rng.randint(0, 3),
                    "score": round(rng.random(), 4),
                }
                for _ in range(rng.randint(0, 4))
            ],
            "referenced_works": refs,
            "referenced_works_count": len(refs),
            "abstract_inverted_index": None,
            "updated_date": f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T08:00:00.000000",
            "created_date": f"{max(year, 2016)}-01-01",
        }

    def __iter__(self) -> Iterator[dict]:
        return (self.work(i) for i in range(self.works))


def write_works(path: Path, works: int, seed: int = 7) -> Path:
    """Write `works` synthetic works as JSON Lines (gzipped when the name ends in .gz)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "wt", encoding="utf-8") as out:
        for work in Generator(works, seed):
            out.write(json.dumps(work, separators=(",", ":")) + "\n")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--works", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    write_works(args.out, args.works, args.seed)
    print(f"wrote {args.works} works to {args.out}")


if __name__ == "__main__":
    main()
