"""arXiv metadata snapshot (Kaggle `arxiv-metadata-oai-snapshot` JSON Lines) -> Weft rows (pure).

One record gives one Paper (keys `arxiv_id`, canonical and version-less, and `doi` when stated),
its categories as `Category` nodes `arxiv:<code>` named from arXiv's taxonomy (the first category
is `primary`), and its authors. arXiv authors carry no ids, so each becomes a paper-scoped
Researcher `paper:arxiv:<id>#<rank>` (MODEL.md), which a later source claims through the paper's
author list (loaders/claims.py). Names come from `authors_parsed` (TeX-decoded when needed; its
affiliation strings are not kept), falling back to the decoded free-text `authors` list. Dates:
`year`/`publication_date` from v1, `versions` as `v1@2007-04-02`, `updated` the newer of
`update_date` and the last version's date, so a later version wins and an earlier one does not.
"""

from __future__ import annotations

import re
from email.utils import parsedate_to_datetime
from typing import TypeGuard

from weft.graph.identity.ids import category_key, normalize_arxiv, paper_keys, scoped_researcher_key
from weft.graph.identity.names import clean_whitespace, decode_tex, is_person_name, name_key, split_author_list
from weft.loaders.reader import JSON, JSONObject, is_array, is_object
from weft.loaders.rows import MENTION, NodeRow, RecordRows, RejectedRecord, RelRow

SOURCE = "arxiv"
# Top-level fields of a snapshot line; `detect` recognises the format by them.
RECORD_FIELDS = frozenset({"id", "authors", "categories", "versions"})


# arXiv's subject taxonomy (archives, current categories and the legacy archives of old ids): code -> name.
_TAXONOMY = """
astro-ph|Astrophysics
astro-ph.CO|Cosmology and Nongalactic Astrophysics
astro-ph.EP|Earth and Planetary Astrophysics
astro-ph.GA|Astrophysics of Galaxies
astro-ph.HE|High Energy Astrophysical Phenomena
astro-ph.IM|Instrumentation and Methods for Astrophysics
astro-ph.SR|Solar and Stellar Astrophysics
cond-mat|Condensed Matter
cond-mat.dis-nn|Disordered Systems and Neural Networks
cond-mat.mes-hall|Mesoscale and Nanoscale Physics
cond-mat.mtrl-sci|Materials Science
cond-mat.other|Other Condensed Matter
cond-mat.quant-gas|Quantum Gases
cond-mat.soft|Soft Condensed Matter
cond-mat.stat-mech|Statistical Mechanics
cond-mat.str-el|Strongly Correlated Electrons
cond-mat.supr-con|Superconductivity
gr-qc|General Relativity and Quantum Cosmology
hep-ex|High Energy Physics - Experiment
hep-lat|High Energy Physics - Lattice
hep-ph|High Energy Physics - Phenomenology
hep-th|High Energy Physics - Theory
math-ph|Mathematical Physics
nlin|Nonlinear Sciences
nlin.AO|Adaptation and Self-Organizing Systems
nlin.CD|Chaotic Dynamics
nlin.CG|Cellular Automata and Lattice Gases
nlin.PS|Pattern Formation and Solitons
nlin.SI|Exactly Solvable and Integrable Systems
nucl-ex|Nuclear Experiment
nucl-th|Nuclear Theory
physics|Physics
physics.acc-ph|Accelerator Physics
physics.ao-ph|Atmospheric and Oceanic Physics
physics.app-ph|Applied Physics
physics.atm-clus|Atomic and Molecular Clusters
physics.atom-ph|Atomic Physics
physics.bio-ph|Biological Physics
physics.chem-ph|Chemical Physics
physics.class-ph|Classical Physics
physics.comp-ph|Computational Physics
physics.data-an|Data Analysis, Statistics and Probability
physics.ed-ph|Physics Education
physics.flu-dyn|Fluid Dynamics
physics.gen-ph|General Physics
physics.geo-ph|Geophysics
physics.hist-ph|History and Philosophy of Physics
physics.ins-det|Instrumentation and Detectors
physics.med-ph|Medical Physics
physics.optics|Optics
physics.plasm-ph|Plasma Physics
physics.pop-ph|Popular Physics
physics.soc-ph|Physics and Society
physics.space-ph|Space Physics
quant-ph|Quantum Physics
math|Mathematics
math.AC|Commutative Algebra
math.AG|Algebraic Geometry
math.AP|Analysis of PDEs
math.AT|Algebraic Topology
math.CA|Classical Analysis and ODEs
math.CO|Combinatorics
math.CT|Category Theory
math.CV|Complex Variables
math.DG|Differential Geometry
math.DS|Dynamical Systems
math.FA|Functional Analysis
math.GM|General Mathematics
math.GN|General Topology
math.GR|Group Theory
math.GT|Geometric Topology
math.HO|History and Overview
math.IT|Information Theory
math.KT|K-Theory and Homology
math.LO|Logic
math.MG|Metric Geometry
math.MP|Mathematical Physics
math.NA|Numerical Analysis
math.NT|Number Theory
math.OA|Operator Algebras
math.OC|Optimization and Control
math.PR|Probability
math.QA|Quantum Algebra
math.RA|Rings and Algebras
math.RT|Representation Theory
math.SG|Symplectic Geometry
math.SP|Spectral Theory
math.ST|Statistics Theory
cs|Computer Science
cs.AI|Artificial Intelligence
cs.AR|Hardware Architecture
cs.CC|Computational Complexity
cs.CE|Computational Engineering, Finance, and Science
cs.CG|Computational Geometry
cs.CL|Computation and Language
cs.CR|Cryptography and Security
cs.CV|Computer Vision and Pattern Recognition
cs.CY|Computers and Society
cs.DB|Databases
cs.DC|Distributed, Parallel, and Cluster Computing
cs.DL|Digital Libraries
cs.DM|Discrete Mathematics
cs.DS|Data Structures and Algorithms
cs.ET|Emerging Technologies
cs.FL|Formal Languages and Automata Theory
cs.GL|General Literature
cs.GR|Graphics
cs.GT|Computer Science and Game Theory
cs.HC|Human-Computer Interaction
cs.IR|Information Retrieval
cs.IT|Information Theory
cs.LG|Machine Learning
cs.LO|Logic in Computer Science
cs.MA|Multiagent Systems
cs.MM|Multimedia
cs.MS|Mathematical Software
cs.NA|Numerical Analysis
cs.NE|Neural and Evolutionary Computing
cs.NI|Networking and Internet Architecture
cs.OH|Other Computer Science
cs.OS|Operating Systems
cs.PF|Performance
cs.PL|Programming Languages
cs.RO|Robotics
cs.SC|Symbolic Computation
cs.SD|Sound
cs.SE|Software Engineering
cs.SI|Social and Information Networks
cs.SY|Systems and Control
q-bio|Quantitative Biology
q-bio.BM|Biomolecules
q-bio.CB|Cell Behavior
q-bio.GN|Genomics
q-bio.MN|Molecular Networks
q-bio.NC|Neurons and Cognition
q-bio.OT|Other Quantitative Biology
q-bio.PE|Populations and Evolution
q-bio.QM|Quantitative Methods
q-bio.SC|Subcellular Processes
q-bio.TO|Tissues and Organs
q-fin|Quantitative Finance
q-fin.CP|Computational Finance
q-fin.EC|Economics
q-fin.GN|General Finance
q-fin.MF|Mathematical Finance
q-fin.PM|Portfolio Management
q-fin.PR|Pricing of Securities
q-fin.RM|Risk Management
q-fin.ST|Statistical Finance
q-fin.TR|Trading and Market Microstructure
stat|Statistics
stat.AP|Applications
stat.CO|Computation
stat.ME|Methodology
stat.ML|Machine Learning
stat.OT|Other Statistics
stat.TH|Statistics Theory
eess|Electrical Engineering and Systems Science
eess.AS|Audio and Speech Processing
eess.IV|Image and Video Processing
eess.SP|Signal Processing
eess.SY|Systems and Control
econ|Economics
econ.EM|Econometrics
econ.GN|General Economics
econ.TH|Theoretical Economics
acc-phys|Accelerator Physics
adap-org|Adaptation, Noise, and Self-Organizing Systems
alg-geom|Algebraic Geometry
ao-sci|Atmospheric-Oceanic Sciences
atom-ph|Atomic, Molecular and Optical Physics
bayes-an|Bayesian Analysis
chao-dyn|Chaotic Dynamics
chem-ph|Chemical Physics
cmp-lg|Computation and Language
comp-gas|Cellular Automata and Lattice Gases
dg-ga|Differential Geometry
funct-an|Functional Analysis
mtrl-th|Materials Theory
patt-sol|Pattern Formation and Solitons
plasm-ph|Plasma Physics
q-alg|Quantum Algebra and Topology
solv-int|Exactly Solvable and Integrable Systems
supr-con|Superconductivity
"""
CATEGORY_NAMES: dict[str, str] = {
    code: name for code, _, name in (line.partition("|") for line in _TAXONOMY.strip().splitlines())
}


# Old-style ids with a subject class (`math.CO/0601001`): arXiv's id is the archive's (`math/0601001`).
def clean_title(text: str | None) -> str | None:
    """One-line title; TeX accents decoded outside `$…$` math, which is kept as written."""
    if not text:
        return None
    parts = re.split(r"(\$[^$]*\$)", text)
    out = "".join(
        p if p.startswith("$") and p.endswith("$") and len(p) > 1 else _decode_keeping_edges(p) for p in parts
    )
    return clean_whitespace(out) or None


def _decode_keeping_edges(part: str) -> str:
    """decode_tex, keeping the spaces that separate a text part from the math around it."""
    lead = " " if part[:1].isspace() else ""
    trail = " " if part[-1:].isspace() else ""
    return lead + decode_tex(part) + trail


def version_dates(versions: JSON) -> list[tuple[int, str]]:
    """`[(1, '2007-04-02'), (2, '2007-07-24')]` from `versions[{version, created}]`, sorted by number."""
    found: dict[int, str] = {}
    for entry in versions if is_array(versions) else []:
        if not is_object(entry):
            continue
        m = re.fullmatch(r"v(\d+)", str(entry.get("version", "")).strip())
        if not m:
            continue
        try:
            day = parsedate_to_datetime(str(entry.get("created", ""))).date().isoformat()
        except (TypeError, ValueError):
            continue
        found[int(m.group(1))] = day
    return sorted(found.items())


def _is_sequence(value: JSON) -> TypeGuard[list[JSON] | tuple[JSON, ...]]:
    """A JSON array (or a tuple, from a record built in Python)."""
    return isinstance(value, list | tuple)


def author_names(record: JSONObject) -> list[str]:
    """Display names in order: `first last suffix` from `authors_parsed`, else the decoded `authors`."""
    parsed = record.get("authors_parsed")
    names: list[str] = []
    if is_array(parsed) and parsed:
        for entry in parsed:
            if not _is_sequence(entry) or not entry:
                continue
            last, first, suffix = (list(entry) + ["", ""])[:3]
            name = " ".join(
                p
                for p in (decode_tex(str(first or "")), decode_tex(str(last or "")), decode_tex(str(suffix or "")))
                if p
            )
            if name:
                names.append(re.sub(r"\.\s+-", ".-", name))  # "C. -P. Yuan" -> "C.-P. Yuan"
    if not names:
        names = split_author_list(record.get("authors") or "")
    return names


def position(rank: int, count: int) -> str:
    """OpenAlex-style author position: `first`, `middle` or `last` (a single author is `first`)."""
    if rank == 0:
        return "first"
    return "last" if rank == count - 1 else "middle"


def accepts(record: JSON) -> bool:
    """Whether `record` looks like an arXiv snapshot line (used to refuse unknown files up front)."""
    return is_object(record) and RECORD_FIELDS <= record.keys()


def build_rows(record: JSON) -> RecordRows:
    """The rows one snapshot line states (see loaders/rows.py for the contract).

    nodes: the Paper first (keys `arxiv_id`, plus `doi` when stated), then one paper-scoped
    Researcher per author (`scoped_key` `arxiv:<id>#<rank>`: the arXiv id, not the DOI, so a DOI
    added by a later version does not re-key the authors), then the Category rows `arxiv:<code>`.
    rels: AUTHORED {position, rank, raw_name} and IN_CATEGORY {primary (the first category), score
    None}, owned by the paper. `versions`, `arxiv_version` and `journal_ref` are arXiv's own values
    (source_props); `updated` is the newer of `update_date` and the last version's date.
    Raises RejectedRecord when the record is not an object or has no valid arXiv id.
    """
    if not is_object(record):
        raise RejectedRecord(f"expected a JSON object, got {type(record).__name__}")
    raw_id = record.get("id")
    if not isinstance(raw_id, str) or not raw_id.strip():
        raise RejectedRecord("arXiv record without an id")
    keys = paper_keys(arxiv=normalize_arxiv(raw_id), doi=_first_doi(record.get("doi")))
    if "arxiv_id" not in keys:
        raise RejectedRecord(f"not an arXiv id: {raw_id!r}")
    arxiv_id = keys["arxiv_id"]
    dates = version_dates(record.get("versions"))
    update_date = record.get("update_date") if isinstance(record.get("update_date"), str) else None
    updated = max([d for _, d in dates] + ([update_date] if update_date else []), default="")
    first_date = dates[0][1] if dates else None
    paper = NodeRow(
        "Paper",
        keys,
        SOURCE,
        props={
            "title": clean_title(_text(record.get("title"))),
            "abstract": clean_whitespace(_text(record.get("abstract"))) or None,
            "year": int(first_date[:4]) if first_date else None,
            "publication_date": first_date,
            "type": "preprint",
            "license": _text(record.get("license")) or None,
            "pdf_url": f"https://arxiv.org/pdf/{arxiv_id}",
            "updated_date": updated or None,
        },
        source_props={
            "versions": [f"v{n}@{d}" for n, d in dates] or None,
            "arxiv_version": dates[-1][0] if dates else None,
            "journal_ref": clean_whitespace(_text(record.get("journal-ref"))) or None,
        },
        updated=updated,
    )
    rows = RecordRows([paper])
    names = author_names(record)
    for rank, name in enumerate(names):
        researcher = NodeRow(
            "Researcher",
            {"scoped_key": scoped_researcher_key(f"arxiv:{arxiv_id}", rank)},
            SOURCE,
            props={
                "name": name,
                "name_key": name_key(name) or None,
                "is_person": is_person_name(name),
                "paper_scoped": True,
            },
            level=MENTION,
            updated=updated,
        )
        rows.nodes.append(researcher)
        rows.rels.append(
            RelRow(
                "AUTHORED",
                researcher.key,
                paper.key,
                {"position": position(rank, len(names)), "rank": rank, "raw_name": name},
            )
        )
    codes = list(dict.fromkeys(_text(record.get("categories")).split()))
    for at, code in enumerate(codes):
        category = NodeRow(
            "Category",
            {"key": category_key("arxiv", code)},
            SOURCE,
            props={"name": CATEGORY_NAMES.get(code, code), "scheme": "arxiv"},
            level=MENTION,
            updated=updated,
        )
        rows.nodes.append(category)
        rows.rels.append(RelRow("IN_CATEGORY", paper.key, category.key, {"primary": at == 0, "score": None}))
    return rows


def _text(value: JSON) -> str:
    """A string field that may be null or of a wrong type."""
    return value if isinstance(value, str) else ""


def _first_doi(raw: JSON) -> str | None:
    """The first DOI of arXiv's `doi` field (it sometimes lists several, space-separated)."""
    if not isinstance(raw, str):
        return None
    for token in raw.split():
        if token.startswith("10."):
            return token
    return None
