"""Pure-Python oracle of the rules core (docs/semantics.md §2–§8), for differential tests."""

from .context import OracleContext, as_counts

__all__ = ["OracleContext", "as_counts"]
