"""pytest fixtures for the benchmarks run through pytest (bench/chaos_restart.py): the tests' own."""

from tests.conftest import settings

__all__ = ["settings"]
