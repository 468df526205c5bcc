"""The time window, defined once: a row is in it when ``since <= timestamp <
until``; on an export in hive ``dt=`` partitions, the days outside it are
pruned too, so whole folders are skipped before a file is opened. Its
bounds as a person types them (``--since 7d``) are read by ``parse_time``,
relative to ``now``.

``Window.terms`` is the one definition; every reader renders it: ``sql`` for
the engines (DuckDB's dialect, which ``miner.engine.query.render`` transpiles
for Spark SQL and BigQuery) and ``arrow`` for pyarrow's dataset scans.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING

from miner.engine.sql import text
from miner.errors import UsageError

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


_DURATION = re.compile(r"^\s*(\d+)\s*([dhm])\s*$")

#: Times a person may type for a window's bounds (``--since``, ``--until``):
#: wide enough for any export, narrow enough that the window's grace on
#: either side cannot overflow a datetime (``EARLIEST``/``LATEST`` clamp
#: further, to what Arrow can hold).
TYPED_EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
TYPED_LATEST = datetime(9000, 1, 1, tzinfo=UTC)


def run_clock() -> datetime:
    """The time a run stamps on its drafts (``draftedAt``) and its summary:
    now, or ``SOURCE_DATE_EPOCH`` (seconds since 1970, the reproducible-builds
    convention) when it is set, so two runs over the same export - on two
    engines, on two machines - write byte-identical drafts."""
    fixed = os.environ.get("SOURCE_DATE_EPOCH")
    if fixed is None:
        return datetime.now(UTC)
    try:
        return datetime.fromtimestamp(int(fixed), UTC)
    except (ValueError, OverflowError, OSError):
        raise UsageError(
            f"SOURCE_DATE_EPOCH={fixed!r}: expected whole seconds since 1970-01-01"
        ) from None


def now(clock: datetime | None = None) -> datetime:
    """The run's clock (``clock``, when the run read it already) in whole
    seconds: what ``now`` (and a relative time before it) means in a window
    a person typed, which then reads and prints as the times typed (``miner
    draft``'s, ``miner sql``'s); under ``SOURCE_DATE_EPOCH`` that time, as
    ``draftedAt`` is, so a window's provenance is reproducible too."""
    return (clock or run_clock()).replace(microsecond=0)


def parse_time(typed: str, now: datetime, option: str) -> datetime:
    """``7d``/``36h``/``90m`` before ``now``, ``now``, or an ISO date or
    date-time (UTC), as typed for ``option``; UsageError naming it otherwise."""
    value = typed.strip()
    try:
        moment = _parse_time(value, now, option)
    except OverflowError:
        moment = None
    if moment is None or not TYPED_EARLIEST <= moment <= TYPED_LATEST:
        raise UsageError(f"{option} {value!r}: outside the years 1900-9000")
    return moment


def duration(typed: str) -> timedelta | None:
    """A duration as it is typed, ``7d``, ``36h`` or ``90m`` (spaces around
    its parts allowed), on the command line (``parse_time``) and in the config
    (``miner.config.parse_duration``); None for text of another shape.
    OverflowError past what a timedelta holds."""
    match = _DURATION.match(typed)
    if not match:
        return None
    # Only the unit typed is computed: 1000000000m is 694,444 days, which a
    # timedelta holds, though as many days would overflow it.
    return timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})


_UNITS = {"d": "days", "h": "hours", "m": "minutes"}


def _parse_time(value: str, now: datetime, option: str) -> datetime:
    if value == "now":
        return now
    back = duration(value)
    if back is not None:
        return now - back
    try:
        if len(value) == 10:
            day = date.fromisoformat(value)
            return datetime(day.year, day.month, day.day, tzinfo=UTC)
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise UsageError(
            f"{option} {value!r}: expected 7d, 36h, 90m, a date (2026-11-22) or an ISO date-time"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


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
