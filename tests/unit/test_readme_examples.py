"""The README's example queries are exactly the ones the gql client test runs (demo/EXAMPLES.md)."""

from __future__ import annotations

import re

from weft.graph.settings import PROJECT_ROOT


def _named_blocks(path: str) -> dict[str, str]:
    text = (PROJECT_ROOT / path).read_text(encoding="utf-8")
    blocks = re.findall(r"```graphql\n(.*?)```", text, flags=re.DOTALL)
    return {m.group(1): b for b in blocks if (m := re.search(r"query (\w+)", b))}


def test_readme_shows_one_tested_query_per_area() -> None:
    readme, examples = _named_blocks("README.md"), _named_blocks("demo/EXAMPLES.md")
    assert set(readme) == {"ResearcherProfile", "PaperPage", "InstitutionRoster", "MostCited", "Search"}
    for name, query in readme.items():
        assert query == examples[name], f"README's {name} differs from the tested demo/EXAMPLES.md query"
