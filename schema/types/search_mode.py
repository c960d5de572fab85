"""The SearchMode enum: how `search` ranks (words, meaning, or both fused)."""

from __future__ import annotations

from enum import Enum

import strawberry


@strawberry.enum(description="How `search` finds and ranks hits.")
class SearchMode(Enum):
    KEYWORD = strawberry.enum_value(
        "KEYWORD",
        description="Full-text: any word of the query matches (a stop word such as `the` alone does not); hits with "
        "every word first, then by Lucene relevance.",
    )
    SEMANTIC = strawberry.enum_value(
        "SEMANTIC",
        description="By meaning: the papers whose title+abstract vectors are nearest the query's (papers only).",
    )
    HYBRID = strawberry.enum_value(
        "HYBRID",
        description="Words and meaning fused by reciprocal rank fusion: a hit scores the sum of 1/(60 + rank) over "
        "the rankings it appears in (KEYWORD's, its hits with every word, and SEMANTIC's), so what both find "
        "rises to the top. Papers whose title is the query (ignoring case, punctuation and spacing) come first "
        "(`titleMatch`): a pasted title finds its paper.",
    )
