"""``slow``: an invocation took longer than a threshold.

How long an invocation took is decided in one place, ``invocation_ms``: the
``latency_ms.total_ms`` its end row carries (INVOCATION_COMPLETED or
INVOCATION_ERROR: the Python and Java plugins write it), and where the plugin
wrote none, the time from its INVOCATION_STARTING row to that end row. The Go
plugin never writes ``latency_ms`` (no callback of
bigquery_agent_analytics_plugin.go passes one, L221-L287, so the column stays
NULL), but its INVOCATION_START and INVOCATION_END rows are stamped with
``time.Now()`` (L133).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Annotated, Any

from pydantic import Field

from miner.dialects import Event, parse_payload
from miner.signals import Reason, Signal, SignalConfig

#: The row that opens an invocation, and the rows that close it (miner's names).
STARTED = "INVOCATION_STARTING"
ENDED = ("INVOCATION_COMPLETED", "INVOCATION_ERROR")


def invocation_ms(total_ms: Any, started: datetime | None, ended: datetime | None) -> float | None:
    """How long an invocation took, in milliseconds: ``total_ms`` (what its
    end row's ``latency_ms`` holds) where the plugin wrote it, otherwise the
    end row's timestamp minus the start row's; None when neither is known."""
    if isinstance(total_ms, int | float) and not isinstance(total_ms, bool):
        return float(total_ms)
    if started is None or ended is None:
        return None
    return (ended - started).total_seconds() * 1000


class SlowConfig(SignalConfig):
    threshold_ms: Annotated[int, Field(ge=1)] = 30_000
    """An invocation that took longer than this many milliseconds is slow."""


class Slow(Signal):
    name = "slow"
    order = 4
    kinds = (STARTED, *ENDED)
    columns = ("latency_ms",)
    Config = SlowConfig

    def prefilter(self, batch: Any) -> Any:
        """Rows with no latency (start rows; Go's end rows), and end rows whose
        latency is over the threshold."""
        import pyarrow as pa
        import pyarrow.compute as pc

        if "latency_ms" not in batch.schema.names:
            return None
        values = batch.column("latency_ms")
        if not pa.types.is_string(values.type):
            return None
        found = pc.extract_regex(values, r'"total_ms"\s*:\s*(?P<ms>[0-9]+(?:\.[0-9]*)?)')
        total = pc.cast(pc.struct_field(found, [0]), pa.float64())
        over = pc.fill_null(pc.greater(total, self.config.threshold_ms), False)
        return pc.or_(over, pc.is_null(total))

    def row(self, event: Event, row: Any, scratch: dict[Any, Any]) -> Iterable[Reason]:
        invocation = getattr(row, "invocation_id", None)
        stamp = getattr(row, "timestamp", None)
        stamp = stamp if isinstance(stamp, datetime) else None
        if event.kind == STARTED:
            if stamp is not None:
                starts = scratch.setdefault("started", {})
                starts[invocation] = min(stamp, starts.get(invocation, stamp))
            return ()
        latency = parse_payload(getattr(row, "latency_ms", None), row, "latency_ms")
        total = latency.get("total_ms") if isinstance(latency, dict) else None
        if invocation_ms(total, None, None) is None:
            # No latency written: decided on the timestamps once the session is read.
            if stamp is not None:
                ends = scratch.setdefault("ended", {})
                ends[invocation] = max(stamp, ends.get(invocation, stamp))
            return ()
        return self._judged(invocation_ms(total, None, None), invocation)

    def finish(self, session_id: str, scratch: dict[Any, Any]) -> Iterable[Reason]:
        starts = scratch.get("started", {})
        found: list[Reason] = []
        for invocation, ended in scratch.get("ended", {}).items():
            took = invocation_ms(None, starts.get(invocation), ended)
            found.extend(self._judged(took, invocation))
        return found

    def _judged(self, took: float | None, invocation: Any) -> list[Reason]:
        if took is not None and took > self.config.threshold_ms:
            rule = f"an invocation over {self.config.threshold_ms} ms"
            return [self.turn_reason(rule, invocation)]
        return []
