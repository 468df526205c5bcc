"""The time window, defined once: a row is in it when ``since <= timestamp <
until``; on an export in hive ``dt=`` partitions, the days outside it are
pruned too, so whole folders are skipped before a file is opened.

``Window.terms`` is the one definition; every reader renders it: ``sql`` for
the engines (DuckDB's dialect, which ``miner.engine.query.render`` transpiles
for Spark SQL and BigQuery) and ``arrow`` for pyarrow's dataset scans.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

from miner.engine.sql import text

if TYPE_CHECKING:
    import pyarrow as pa
    import pyarrow.dataset as ds

#: The instants Arrow can hold at nanoseconds; a wider window is clamped to them.
EARLIEST = datetime(1678, 1, 1, tzinfo=UTC)
LATEST = datetime(2262, 1, 1, tzinfo=UTC)


def clamped(moment: datetime) -> datetime:
    """``moment`` in UTC, within what Arrow can hold."""
    return min(max(moment.astimezone(UTC), EARLIEST), LATEST)


def instant(moment: datetime) -> str:
    """A timestamp literal (UTC), in DuckDB's dialect."""
    return f"CAST({text(clamped(moment).isoformat())} AS TIMESTAMPTZ)"


@dataclass(frozen=True)
class Window:
    """``[since, until)``, in UTC (clamped to what Arrow can hold)."""

    since: datetime
    until: datetime

    def terms(self, days: bool = False) -> list[tuple[str, str, datetime | date]]:
        """The comparisons the window is, all of which hold for a row in it:
        (column, operator, value). With ``days``, the ``dt`` partitions'
        days too (inclusive: a day that holds part of the window is read)."""
        lo, hi = clamped(self.since), clamped(self.until)
        terms: list[tuple[str, str, datetime | date]] = [
            ("timestamp", ">=", lo),
            ("timestamp", "<", hi),
        ]
        if days:
            terms += [("dt", ">=", lo.date()), ("dt", "<=", hi.date())]
        return terms

    def sql(self, column: str = '"timestamp"', days: bool = False) -> str:
        """The window as an SQL condition on ``column`` (SQL text), in DuckDB's
        dialect. ``days``: ``dt`` holds ``YYYY-MM-DD`` text, compared as such."""
        return " AND ".join(_condition(column, term) for term in self.terms(days))

    def days_sql(self) -> str:
        """The window's ``dt`` partition days alone as an SQL condition
        (``sql``'s day terms): true of every row of a day that holds part of
        the window, whatever its timestamp; DuckDB prunes the other days'
        files by their paths, without reading a row."""
        days = [term for term in self.terms(days=True) if term[0] == "dt"]
        return " AND ".join(_condition('"timestamp"', term) for term in days)

    def arrow(self, schema: pa.Schema) -> ds.Expression:
        """The window as a pyarrow dataset filter on an export of ``schema``:
        a naive ``timestamp`` column is taken to be UTC; a ``dt`` partition
        column of text or dates prunes days (any other type is left alone)."""
        import pyarrow as pa
        import pyarrow.dataset as ds

        ts_type = schema.field("timestamp").type
        dt_type = schema.field("dt").type if "dt" in schema.names else None
        days = dt_type is not None and (
            pa.types.is_string(dt_type)
            or pa.types.is_large_string(dt_type)
            or pa.types.is_date(dt_type)
        )
        expr: ds.Expression | None = None
        for field, op, value in self.terms(days):
            if isinstance(value, datetime):
                naive = ts_type.tz is None
                bound = pa.scalar(value.replace(tzinfo=None) if naive else value, type=ts_type)
            elif pa.types.is_date(dt_type):
                bound = pa.scalar(value, type=dt_type)
            else:
                bound = pa.scalar(value.isoformat())
            term = _COMPARE[op](ds.field(field), bound)
            expr = term if expr is None else expr & term
        assert expr is not None  # the timestamp's two terms are always there
        return expr


_COMPARE = {
    ">=": lambda column, bound: column >= bound,
    "<": lambda column, bound: column < bound,
    "<=": lambda column, bound: column <= bound,
}


def _condition(column: str, term: tuple[str, str, datetime | date]) -> str:
    """One of ``Window.terms`` as SQL: a time compared on ``column``, a
    ``dt`` day compared as ``YYYY-MM-DD`` text."""
    field, op, value = term
    if isinstance(value, datetime):
        return f"{column} {op} {instant(value)}"
    return f"{field} {op} {text(value.isoformat())}"
