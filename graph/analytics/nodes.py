"""The node type variable the analytics functions are generic in."""

from collections.abc import Hashable
from typing import TypeVar

N = TypeVar("N", bound=Hashable)
"""A graph's node type (researcher or institution ids are `str`)."""
