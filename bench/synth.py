"""A seeded synthetic OpenAlex dump shaped like the real works in shared/data, written as JSON Lines
or directly in the OpenAlex snapshot layout, streaming (memory set by the author and work counts in
compact arrays, never by what was written).

Skew is what makes loading realistic: authors per paper are lognormal (median about 4; 0.3% consortium
papers of 100-300 authors and 0.01% of 1,000-3,000, full lists as in the snapshot), papers per author
follow a Zipf law (a few prolific authors, a long tail of one-paper authors), co-authors are often
drawn again from recent collaborators (so co-authorship weights above 1 exist), and citations prefer
already-cited earlier works (preferential attachment) plus some references outside the generated set.

    python -m bench.synth --works 1000 --out /tmp/works.jsonl
    python -m bench.synth --works 1000000 --snapshot /tmp/openalex-snapshot

The snapshot layout is OpenAlex's: `data/<entity>/updated_date=YYYY-MM-DD/part_NNN.gz` for works,
authors (those who wrote a work, with their affiliations and counts) and institutions, each entity's
`data/<entity>/manifest` (Redshift manifest: every file's url, content_length and record_count; what
`weft sync openalex` checks) and `data/manifest.json` (all entities' files in one).

An update on top of a snapshot (what `weft sync openalex` applies; bench/sync_rate.py times it):

    python -m bench.synth --works 1000000 --snapshot DIR/before --update DIR/after \
        --changed 10000 --merges 1000 --deletes 500

writes DIR/after as the same snapshot one day later: every partition of DIR/before (symlinked, not
copied), a newer `updated_date=` works partition of `--changed` changed works (a quarter lose an
author, a quarter gain one, a quarter change their references, a quarter their title; all carry the
new date), `data/merged_ids/{works,authors}/<date>.csv.gz` (`merge_date,id,merge_into_id`: `--merges`
retired ids, half works and half authors, each merged into a surviving one; `--deletes` works with
an empty `merge_into_id`, withdrawn) and manifests listing it all.
"""

from __future__ import annotations

import argparse
import bisect
import datetime
import gzip
import itertools
import json
import math
import os
import random
import string
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

OA = "https://openalex.org/"
WORK_BASE = 4_300_000_000
AUTHOR_BASE = 5_300_000_000
INSTITUTION_BASE = 4_390_000_000
TOPIC_BASE = 19_000
COLLABORATORS = 8  # recent collaborators remembered per author (a ring)
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
    parent: int | None = None


def _ror(rng: random.Random) -> str:
    body = "".join(rng.choice(string.ascii_lowercase + string.digits) for _ in range(6))
    return f"0{body}{rng.randint(10, 99)}"


class AuthorTable:
    """Every synthetic author in compact arrays (about 12 bytes each); an Author is built on demand.

    A name is a given name, a family (one of COMMON_FAMILY, or 2-3 SYLLABLES packed 5 bits each) and a
    style (full, with a middle initial, or initial only); 40% of authors have an ORCID, derived from
    their index."""

    def __init__(self, rng: random.Random, n: int, home_of: Any) -> None:
        self.given = array("B")
        self.family = array("I")  # COMMON_FAMILY index + 1, or packed syllables << 8
        self.style = array("B")  # bits 0-1 style, bit 2 ORCID, bits 3-7 middle initial
        self.home = array("I")
        for _ in range(n):
            if rng.random() < 0.15:
                family = rng.randrange(len(COMMON_FAMILY)) + 1
            else:
                code = 0
                for _ in range(rng.randint(2, 3)):
                    code = (code << 5) | (rng.randrange(len(SYLLABLES)) + 1)
                family = code << 8
            self.family.append(family)
            self.given.append(rng.randrange(len(GIVEN)))
            style = 1 if rng.random() < 0.3 else 2 if rng.random() < 0.1 else 0
            middle = rng.randrange(26)
            orcid = rng.random() < 0.4
            self.style.append(style | (4 if orcid else 0) | (middle << 3))
            self.home.append(home_of())

    def __len__(self) -> int:
        return len(self.given)

    def name(self, i: int) -> str:
        code = self.family[i]
        if code < 256:
            family = COMMON_FAMILY[code - 1]
        else:
            code >>= 8
            parts: list[str] = []
            while code:
                parts.append(SYLLABLES[(code & 31) - 1])
                code >>= 5
            family = "".join(reversed(parts)).capitalize()
        given = GIVEN[self.given[i]]
        style = self.style[i] & 3
        if style == 1:
            return f"{given} {string.ascii_uppercase[self.style[i] >> 3]}. {family}"
        if style == 2:
            return f"{given[0]}. {family}"
        return f"{given} {family}"

    def __getitem__(self, i: int) -> Author:
        orcid = _orcid(i) if self.style[i] & 4 else None
        return Author(f"A{AUTHOR_BASE + i}", self.name(i), orcid, self.home[i])


def _orcid(i: int) -> str:
    """A well-formed ORCID (ISO 7064 check digit) derived from an author index."""
    digits = [int(d) for d in f"{(i * 2_654_435_761 + 12_345) % 10**15:015d}"]
    total = 0
    for d in digits:
        total = (total + d) * 2
    check = (12 - total % 11) % 11
    tail = "X" if check == 10 else str(check)
    s = "".join(map(str, digits)) + tail
    return f"{s[0:4]}-{s[4:8]}-{s[8:12]}-{s[12:16]}"


def _team_size(rng: random.Random) -> int:
    """Authors on one paper: lognormal (median about 4), 0.3% consortium papers of 100-300 and 0.01%
    big-collaboration papers of 1,000-3,000 (physics, genomics)."""
    roll = rng.random()
    if roll < 0.0001:
        return rng.randint(1000, 3000)
    if roll < 0.003:
        return rng.randint(100, 300)
    return min(100, max(1, round(math.exp(rng.gauss(1.35, 0.75)))))


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
                parent=rng.randrange(i) if i > 10 and rng.random() < 0.1 else None,
            )
            for i in range(n_institutions)
        ]
        inst_weights = list(itertools.accumulate(1.0 / (k + 1) ** 0.8 for k in range(n_institutions)))
        self.authors = AuthorTable(
            rng, n_authors, lambda: bisect.bisect_left(inst_weights, rng.random() * inst_weights[-1])
        )
        # Zipf-Mandelbrot over authors (s=1.15, q=60): rank 0 writes the most papers, a long tail one.
        self.author_cum = array("d", itertools.accumulate(1.0 / (k + 60) ** 1.15 for k in range(n_authors)))
        self.collaborators = array("I", bytes(4 * COLLABORATORS * n_authors))  # ring of recent co-authors + 1
        self.collab_next = bytearray(n_authors)
        self.topics = self._topics()
        # Preferential attachment: every work enters the urn once, and again each time it is cited, so
        # a uniform draw picks an earlier work with probability proportional to 1 + times cited.
        self.urn = array("I")
        # What the authors and institutions entities report, counted as works are drawn.
        self.works_count = array("I", bytes(4 * n_authors))
        self.cited_count = array("I", bytes(4 * n_authors))
        self.first_year = array("H", bytes(2 * n_authors))
        self.last_year = array("H", bytes(2 * n_authors))
        self.inst_works = array("I", bytes(4 * n_institutions))

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

    def _past(self, who: int) -> list[int]:
        base = who * COLLABORATORS
        return [c - 1 for c in self.collaborators[base : base + COLLABORATORS] if c]

    def _remember(self, team: list[int]) -> None:
        for a in team:
            for b in team:
                if b != a:
                    slot = self.collab_next[a]
                    self.collaborators[a * COLLABORATORS + slot] = b + 1
                    self.collab_next[a] = (slot + 1) % COLLABORATORS

    def _team(self) -> list[int]:
        rng = self.rng
        size = _team_size(rng)
        lead = self._pick_author()
        team = [lead]
        seen = {lead}
        past = self._past(lead)
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
            self._remember(team)
        return team

    def _authorship(self, who: int, rank: int, n: int) -> dict:
        rng = self.rng
        author = self.authors[who]
        inst_ids = [author.home]
        if rng.random() < 0.15:
            inst_ids.append(int(rng.random() * len(self.institutions)))
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
            "institutions": [_institution_ref(inst) for inst in institutions],
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
                j = self.urn[int(rng.random() * len(self.urn))]
                refs.add(f"{OA}W{WORK_BASE + j}")
                self.urn.append(j)
            else:
                refs.add(f"{OA}W{3_000_000_000 + int(rng.random() * 5_000_000)}")  # outside the set
        return sorted(refs)

    def work(self, index: int, updated: str | None = None) -> dict:
        """The index-th work; call in order 0, 1, 2, … (citations point backwards). `updated` is its
        updated_date (the snapshot partition's), else one drawn in 2025."""
        rng = self.rng
        wid = f"W{WORK_BASE + index}"
        year = 1990 + min(35, int(35 * rng.betavariate(4, 1.3)))
        date = f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        team = self._team()
        title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 12))).capitalize()
        doi = f"10.5555/synth.{index}" if rng.random() < 0.85 else None
        chosen = rng.sample(self.topics, k=rng.randint(1, 3))
        topics = [dict(t, score=round(rng.uniform(0.5, 1.0), 4)) for t in chosen]
        topics.sort(key=lambda t: -t["score"])
        refs = self._references(index)
        self.urn.append(index)
        source_id = rng.randint(1, 400)
        cited = int(math.exp(rng.gauss(2.0, 1.5)))
        drawn_update = f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T08:00:00.000000"
        authorships = [self._authorship(a, r, len(team)) for r, a in enumerate(team)]
        self._count(team, authorships, year, cited)
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
            "authorships": authorships,
            "is_authors_truncated": False,
            "cited_by_count": cited,
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
            "updated_date": updated or drawn_update,
            "created_date": f"{max(year, 2016)}-01-01",
        }

    def _count(self, team: list[int], authorships: list[dict], year: int, cited: int) -> None:
        for who in team:
            self.works_count[who] += 1
            self.cited_count[who] = min(self.cited_count[who] + cited, 2**32 - 1)
            if not self.first_year[who] or year < self.first_year[who]:
                self.first_year[who] = year
            self.last_year[who] = max(self.last_year[who], year)
        for inst in {i["id"] for a in authorships for i in a["institutions"]}:
            self.inst_works[int(inst.rsplit("I", 1)[1]) - INSTITUTION_BASE] += 1

    def __iter__(self) -> Iterator[dict]:
        return (self.work(i) for i in range(self.works))

    def author_entity(self, who: int, updated: str) -> dict:
        """The OpenAlex author entity of author `who`, from what the works drawn so far said."""
        author = self.authors[who]
        home = self.institutions[author.home]
        works, cited = self.works_count[who], self.cited_count[who]
        return {
            "id": OA + author.openalex,
            "orcid": f"https://orcid.org/{author.orcid}" if author.orcid else None,
            "display_name": author.name,
            "display_name_alternatives": [author.name],
            "works_count": works,
            "cited_by_count": cited,
            "summary_stats": {"h_index": min(works, int(math.sqrt(cited))), "i10_index": min(works, cited // 10)},
            "ids": {"openalex": OA + author.openalex},
            "affiliations": [
                {
                    "institution": _institution_ref(home),
                    "years": list(range(self.last_year[who], self.first_year[who] - 1, -1))[:10],
                }
            ],
            "last_known_institutions": [_institution_ref(home)],
            "updated_date": updated,
            "created_date": "2023-07-21",
        }

    def institution_entity(self, i: int, updated: str) -> dict:
        """The OpenAlex institution entity of institution `i` (with its parent, when it has one)."""
        inst = self.institutions[i]
        parent = self.institutions[inst.parent] if inst.parent is not None else None
        return {
            "id": OA + inst.openalex,
            "ror": f"https://ror.org/{inst.ror}",
            "display_name": inst.name,
            "display_name_alternatives": [],
            "display_name_acronyms": [],
            "country_code": inst.country,
            "type": inst.type,
            "geo": {"city": f"City {i % 997}", "country_code": inst.country},
            "lineage": [OA + inst.openalex] + ([OA + parent.openalex] if parent else []),
            "associated_institutions": (
                [{**_institution_ref(parent), "relationship": "parent"}] if parent is not None else []
            ),
            "works_count": self.inst_works[i],
            "cited_by_count": 0,
            "ids": {"openalex": OA + inst.openalex, "ror": f"https://ror.org/{inst.ror}"},
            "updated_date": updated,
            "created_date": "2016-06-24",
        }


def _institution_ref(inst: Institution) -> dict:
    return {
        "id": OA + inst.openalex,
        "display_name": inst.name,
        "ror": f"https://ror.org/{inst.ror}",
        "country_code": inst.country,
        "type": inst.type,
        "lineage": [OA + inst.openalex],
    }


def _line(record: dict) -> str:
    return json.dumps(record, separators=(",", ":")) + "\n"


def write_works(path: Path, works: int, seed: int = 7) -> Path:
    """Write `works` synthetic works as JSON Lines (gzipped when the name ends in .gz)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "wt", encoding="utf-8") as out:
        for work in Generator(works, seed):
            out.write(_line(work))
    return path


class _Partitions:
    """Writes one entity's records into `data/<entity>/updated_date=<date>/part_NNN.gz`, `per_part`
    records a file, one file open at a time, and lists each file for the manifest."""

    def __init__(self, root: Path, entity: str, per_part: int, entries: list[dict]) -> None:
        self.root, self.entity, self.per_part, self.entries = root, entity, per_part, entries
        self.out: Any = None
        self.path: Path | None = None
        self.date = ""
        self.count = 0
        self.part = 0

    def write(self, date: str, record: dict) -> None:
        if date != self.date or self.count >= self.per_part:
            self.close()
            self.part = self.part + 1 if date == self.date else 0
            self.date = date
            self.path = self.root / "data" / self.entity / f"updated_date={date}" / f"part_{self.part:03d}.gz"
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.out = gzip.open(self.path, "wt", encoding="utf-8", compresslevel=3)
        self.out.write(_line(record))
        self.count += 1

    def close(self) -> None:
        if self.out is None or self.path is None:
            return
        self.out.close()
        url = f"s3://openalex/{self.path.relative_to(self.root).as_posix()}"
        self.entries.append(
            {"url": url, "meta": {"content_length": self.path.stat().st_size, "record_count": self.count}}
        )
        self.out, self.count = None, 0


def partition_date(index: int, per_date: int) -> str:
    """The updated_date partition of the index-th record: consecutive blocks of `per_date` records share
    a date, one day apart from 2025-01-01 (so a later block is a later update)."""
    return (datetime.date(2025, 1, 1) + datetime.timedelta(days=index // per_date)).isoformat()


@dataclass(frozen=True)
class Update:
    """An update to write beside a snapshot: where, and how many changed works, merges and deletes."""

    root: Path
    changed: int = 10_000
    merges: int = 1_000  # half works, half authors
    deletes: int = 500  # works withdrawn (merged into nothing)


@dataclass
class _UpdatePlan:
    """The works an update touches, drawn before the snapshot is written (disjoint sets of indices)."""

    changed: set[int]
    merged: list[int]
    survivors: list[int]
    deleted: list[int]
    kept: dict[int, dict] = field(default_factory=dict[int, dict])  # changed work index -> its record

    @classmethod
    def draw(cls, works: int, update: Update, seed: int) -> _UpdatePlan:
        rng = random.Random(seed + 1)
        n_merged = update.merges - update.merges // 2
        need = update.changed + n_merged * 2 + update.deletes
        if need > works:
            raise ValueError(f"an update of {need} distinct works needs more than {works} works")
        picked = rng.sample(range(works), need)
        changed = set(picked[: update.changed])
        rest = picked[update.changed :]
        merged, survivors = rest[:n_merged], rest[n_merged : 2 * n_merged]
        return cls(changed, merged, survivors, rest[2 * n_merged :])


def _manifest(entries: list[dict]) -> dict:
    return {
        "entries": entries,
        "meta": {
            "content_length": sum(e["meta"]["content_length"] for e in entries),
            "record_count": sum(e["meta"]["record_count"] for e in entries),
        },
    }


def _write_manifests(root: Path, entries: list[dict]) -> dict:
    """Each entity's `data/<entity>/manifest` and the all-entity `data/manifest.json`; returns the latter."""
    for entity in ("works", "authors", "institutions"):
        mine = [e for e in entries if f"/data/{entity}/" in e["url"]]
        (root / "data" / entity / "manifest").write_text(json.dumps(_manifest(mine), indent=2) + "\n", "utf-8")
    manifest = _manifest(entries)
    (root / "data" / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def write_snapshot(
    root: Path,
    works: int,
    seed: int = 7,
    per_date: int = 50_000,
    per_part: int = 25_000,
    update: Update | None = None,
) -> dict:
    """Write `works` synthetic works, then their authors and every institution, in the OpenAlex
    snapshot layout under `root`, and the `update` on top of it when given (module docstring); returns
    the manifest of `root` (also written as `data/manifest.json`)."""
    gen = Generator(works, seed)
    plan = _UpdatePlan.draw(works, update, seed) if update else None
    entries: list[dict] = []
    out = _Partitions(root, "works", per_part, entries)
    for i in range(works):
        date = partition_date(i, per_date)
        work = gen.work(i, f"{date}T08:00:00.000000")
        if plan and i in plan.changed:
            plan.kept[i] = work
        out.write(date, work)
    out.close()
    last = partition_date(max(works - 1, 0), per_date)
    authors = _Partitions(root, "authors", per_part * 4, entries)
    for who in range(len(gen.authors)):
        if gen.works_count[who]:
            authors.write(last, gen.author_entity(who, f"{last}T08:00:00.000000"))
    authors.close()
    institutions = _Partitions(root, "institutions", per_part * 4, entries)
    for i in range(len(gen.institutions)):
        institutions.write(last, gen.institution_entity(i, f"{last}T08:00:00.000000"))
    institutions.close()
    manifest = _write_manifests(root, entries)
    if update and plan:
        _write_update(root, update, plan, gen, entries, last, per_part, seed)
    return manifest


def _write_update(
    before: Path,
    update: Update,
    plan: _UpdatePlan,
    gen: Generator,
    entries: list[dict],
    last: str,
    per_part: int,
    seed: int,
) -> None:
    """The snapshot one day after `last`: `before`'s partitions linked, the changed works, merged_ids, manifests."""
    root = update.root
    day = (datetime.date.fromisoformat(last) + datetime.timedelta(days=1)).isoformat()
    for entity in ("works", "authors", "institutions"):
        (root / "data" / entity).mkdir(parents=True, exist_ok=True)
        for folder in sorted((before / "data" / entity).iterdir()):
            link = root / "data" / entity / folder.name
            if folder.is_dir() and not link.exists():
                os.symlink(folder.resolve(), link)
    rng = random.Random(seed + 2)
    mine = list(entries)
    out = _Partitions(root, "works", per_part, mine)
    for k, i in enumerate(sorted(plan.changed)):
        out.write(day, _changed(gen, rng, plan.kept[i], k % 4, day))
    out.close()
    _write_manifests(root, mine)
    authors = [a for a in range(len(gen.authors)) if gen.works_count[a]]
    picked = rng.sample(authors, 2 * (update.merges // 2))
    half = len(picked) // 2
    merged_ids = root / "data" / "merged_ids"
    for entity, rows in (
        (
            "works",
            [(f"W{WORK_BASE + a}", f"W{WORK_BASE + b}") for a, b in zip(plan.merged, plan.survivors, strict=True)]
            + [(f"W{WORK_BASE + d}", "") for d in plan.deleted],
        ),
        (
            "authors",
            [(f"A{AUTHOR_BASE + a}", f"A{AUTHOR_BASE + b}") for a, b in zip(picked[:half], picked[half:], strict=True)],
        ),
    ):
        (merged_ids / entity).mkdir(parents=True, exist_ok=True)
        text = "merge_date,id,merge_into_id\n" + "".join(f"{day},{old},{into}\n" for old, into in rows)
        (merged_ids / entity / f"{day}.csv.gz").write_bytes(gzip.compress(text.encode()))


def _changed(gen: Generator, rng: random.Random, work: dict, kind: int, day: str) -> dict:
    """A changed copy of `work`: kind 0 loses an author, 1 gains one, 2 changes references, 3 the title."""
    work = dict(work, updated_date=f"{day}T08:00:00.000000")
    authorships = list(work["authorships"])
    if kind == 0 and len(authorships) > 1:
        authorships.pop(rng.randrange(1, len(authorships)))
    elif kind == 1:
        present = {a["author"]["id"] for a in authorships}
        who = gen._pick_author()
        while OA + gen.authors[who].openalex in present:
            who = gen._pick_author()
        authorships.append(gen._authorship(who, len(authorships), len(authorships) + 1))
    elif kind == 2:
        refs = [r for r in work["referenced_works"] if rng.random() < 0.7]
        own = int(work["id"].rsplit("W", 1)[1]) - WORK_BASE
        refs += [f"{OA}W{WORK_BASE + rng.randrange(max(own, 1))}" for _ in range(3)]
        refs.append(f"{OA}W{3_000_000_000 + rng.randrange(5_000_000)}")
        work["referenced_works"] = sorted(set(refs))
        work["referenced_works_count"] = len(work["referenced_works"])
    else:
        title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 12))).capitalize() + " (revised)"
        work["title"] = work["display_name"] = title
    for rank, a in enumerate(authorships):
        position = "first" if rank == 0 else "last" if rank == len(authorships) - 1 else "middle"
        authorships[rank] = dict(a, author_position=position)
    work["authorships"] = authorships
    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--works", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--out", type=Path, help="one JSON Lines file of works (.gz to compress)")
    where.add_argument("--snapshot", type=Path, help="a folder to write the OpenAlex snapshot layout into")
    parser.add_argument("--per-date", type=int, default=50_000, help="works per updated_date partition")
    parser.add_argument("--per-part", type=int, default=25_000, help="works per part_NNN.gz file")
    parser.add_argument("--update", type=Path, help="with --snapshot: also write a 1-day-later snapshot here")
    parser.add_argument("--changed", type=int, default=10_000, help="--update: changed works")
    parser.add_argument("--merges", type=int, default=1_000, help="--update: merged ids (half works, half authors)")
    parser.add_argument("--deletes", type=int, default=500, help="--update: withdrawn works")
    args = parser.parse_args()
    if args.update and not args.snapshot:
        parser.error("--update needs --snapshot")
    if args.snapshot:
        update = Update(args.update, args.changed, args.merges, args.deletes) if args.update else None
        manifest = write_snapshot(args.snapshot, args.works, args.seed, args.per_date, args.per_part, update)
        size = manifest["meta"]["content_length"] / 1e6
        print(f"wrote {len(manifest['entries'])} files, {manifest['meta']['record_count']:,} records, {size:,.0f} MB")
    else:
        write_works(args.out, args.works, args.seed)
        print(f"wrote {args.works} works to {args.out}")


if __name__ == "__main__":
    main()
