"""The data sources Weft loads, and the registries whose ids it keeps: one table every layer reads.

Adding a source means a row here, one parser module in `loaders/` and its tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final


@dataclass(frozen=True)
class Source:
    """A source of records: its key (as stored in `<prop>_<key>` properties and `sources` lists), the
    name people know it by, its priority for shared properties (higher wins at an equal level), and
    the URL template of a node's page there per label."""

    key: str
    display_name: str
    priority: int
    urls: MappingProxyType[str, str] = field(default_factory=lambda: MappingProxyType({}))


def _urls(**by_label: str) -> MappingProxyType[str, str]:
    return MappingProxyType(by_label)


SOURCES: Final[tuple[Source, ...]] = (
    Source(
        "openalex",
        "OpenAlex",
        3,
        _urls(
            Paper="https://openalex.org/{}",
            Researcher="https://openalex.org/{}",
            Institution="https://openalex.org/{}",
        ),
    ),
    Source(
        "s2",
        "Semantic Scholar",
        2,
        _urls(Paper="https://www.semanticscholar.org/paper/{}", Researcher="https://www.semanticscholar.org/author/{}"),
    ),
    Source("arxiv", "arXiv", 1, _urls(Paper="https://arxiv.org/abs/{}")),
)

SOURCE_KEYS: Final[tuple[str, ...]] = tuple(s.key for s in SOURCES)
SOURCE_PRIORITY: Final[MappingProxyType[str, int]] = MappingProxyType({s.key: s.priority for s in SOURCES})
SOURCE_NAMES: Final[MappingProxyType[str, str]] = MappingProxyType({s.key: s.display_name for s in SOURCES})

# Registries of identifiers that are not sources of records: URL template per (label, registry).
REGISTRY_URLS: Final[MappingProxyType[tuple[str, str], str]] = MappingProxyType(
    {
        ("Paper", "doi"): "https://doi.org/{}",
        ("Researcher", "orcid"): "https://orcid.org/{}",
        ("Institution", "ror"): "https://ror.org/{}",
    }
)


def record_url(label: str, scheme: str, value: str) -> str | None:
    """The page of a `label` node with id `value` at a source or registry, None where there is none.

    >>> record_url("Paper", "arxiv", "2110.15032")
    'https://arxiv.org/abs/2110.15032'
    >>> record_url("Researcher", "orcid", "0000-0002-1825-0097")
    'https://orcid.org/0000-0002-1825-0097'
    >>> record_url("Institution", "arxiv", "x") is None
    True
    """
    for source in SOURCES:
        if source.key == scheme:
            template = source.urls.get(label)
            return template.format(value) if template else None
    template = REGISTRY_URLS.get((label, scheme))
    return template.format(value) if template else None
