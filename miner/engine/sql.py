"""Small helpers for writing SQL text in DuckDB's dialect (what every signal's
rule and the events view are written in; ``miner.engine.query`` transpiles)."""

from __future__ import annotations

import re
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


_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def key_path(key: str) -> str:
    """The JSON path of a JSON object's ``key`` (an SQL string literal),
    read as the one key it is, a dot in it no step down: ``$.key``, or
    quoted, ``$."key.with dots"``, which ``miner.engine.query.render`` writes
    ``$['key.with dots']`` for Spark and BigQuery. For a key every engine
    reads alike: ``unreadable_key`` says which it cannot."""
    return text(f"$.{key}" if _PLAIN_KEY.fullmatch(key) else f'$."{key}"')


def unreadable_key(key: str) -> str | None:
    """Why ``key_path`` cannot give ``key`` to every engine as a key (None
    when it can): DuckDB's paths cannot quote a ``"``; Spark's cannot
    quote a ``'`` or a ``\\``, read ``*`` as any key, no empty key, and
    drop the spaces a key starts with (``" code"`` would read ``code``).
    Found against a real Spark (``tests/test_spark_engine.py``)."""
    if not key or key == "*" or key[0].isspace():
        return "an empty key, *, or one starting with a space"
    if any(mark in key for mark in "'\"\\"):
        return "a key holding ', \" or \\"
    return None
