"""Small helpers for writing SQL text in DuckDB's dialect (what every signal's
rule and the events view are written in; ``miner.engine.query`` transpiles)."""

from __future__ import annotations

from collections.abc import Iterable


def text(value: str) -> str:
    """A string literal."""
    return "'" + value.replace("'", "''") + "'"


def listed(values: Iterable[str]) -> str:
    """String literals for an ``IN (...)`` list."""
    return ", ".join(text(str(v)) for v in values)


def one_of(column: str, values: Iterable[str]) -> str:
    """``column IN (...)``; false for no values (``IN ()`` is not SQL)."""
    written = listed(values)
    return f"{column} IN ({written})" if written else "false"


def matches(column: str, pattern: str, ignore_case: bool = True) -> str:
    """An RE2 search (Java's regex on Spark: patterns keep to what both read)."""
    flags = "(?i)" if ignore_case else ""
    return f"regexp_matches({column}, {text(flags + pattern)})"


def name(column: str) -> str:
    """A quoted identifier."""
    return '"' + column.replace('"', '""') + '"'
