"""``slow``: an invocation took longer than a threshold.

How long an invocation took: the ``latency_ms.total_ms`` its end row carries
(INVOCATION_COMPLETED or INVOCATION_ERROR: the Python and Java plugins write
it), and where the plugin wrote none, the time from its INVOCATION_STARTING
row to that end row. The Go plugin never writes ``latency_ms`` (no callback
of bigquery_agent_analytics_plugin.go passes one, L221-L287, so the column
stays NULL), but its INVOCATION_START and INVOCATION_END rows are stamped
with ``time.Now()`` (L133).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from miner.engine.sql import listed, text
from miner.signals import Signal, SignalConfig

#: The row that opens an invocation, and the rows that close it (miner's names).
STARTED = "INVOCATION_STARTING"
ENDED = ("INVOCATION_COMPLETED", "INVOCATION_ERROR")


class SlowConfig(SignalConfig):
    threshold_ms: Annotated[int, Field(ge=1)] = 30_000
    """An invocation that took longer than this many milliseconds is slow."""


class Slow(Signal):
    name = "slow"
    order = 4
    kinds = (STARTED, *ENDED)
    Config = SlowConfig

    def turn_columns(self) -> dict[str, str]:
        ended = f"kind IN ({listed(ENDED)})"
        return {
            "slow_total_ms": f"max(CASE WHEN {ended} THEN total_ms END)",
            "slow_started": f"min(CASE WHEN kind = '{STARTED}' THEN ts END)",
            # Where the end row carries no latency, the time is measured.
            "slow_ended": f"max(CASE WHEN {ended} AND total_ms IS NULL THEN ts END)",
        }

    def sql(self) -> str:
        limit = self.config.threshold_ms
        rule = text(f"an invocation over {limit} ms")
        # Microseconds, so that 30,000.5 ms is over 30,000 as it is.
        return (
            f"SELECT session_id, invocation_id, {rule} AS rule FROM turns "
            f"WHERE slow_total_ms > {limit} "
            f"OR date_diff('microsecond', slow_started, slow_ended) > {limit * 1000}"
        )
