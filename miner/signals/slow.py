"""``slow``: an invocation took longer than a threshold, by the
``latency_ms.total_ms`` the plugin writes on INVOCATION_COMPLETED (and
INVOCATION_ERROR) rows."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any

from pydantic import Field

from miner.dialects import Event, parse_payload
from miner.signals import Reason, Signal, SignalConfig


class SlowConfig(SignalConfig):
    threshold_ms: Annotated[int, Field(ge=1)] = 30_000
    """An invocation whose total latency is above this many milliseconds is slow."""


class Slow(Signal):
    name = "slow"
    order = 4
    kinds = ("INVOCATION_COMPLETED", "INVOCATION_ERROR")
    columns = ("latency_ms",)
    Config = SlowConfig

    def prefilter(self, batch: Any) -> Any:
        import pyarrow as pa
        import pyarrow.compute as pc

        if "latency_ms" not in batch.schema.names:
            return pa.array([False] * batch.num_rows, pa.bool_())
        values = batch.column("latency_ms")
        if not pa.types.is_string(values.type):
            return None
        found = pc.extract_regex(values, r'"total_ms"\s*:\s*(?P<ms>[0-9]+(?:\.[0-9]*)?)')
        total = pc.cast(pc.struct_field(found, [0]), pa.float64())
        return pc.fill_null(pc.greater(total, self.config.threshold_ms), False)

    def row(self, event: Event, row: Any, scratch: dict[Any, Any]) -> Iterable[Reason]:
        latency = parse_payload(getattr(row, "latency_ms", None), row, "latency_ms")
        total = latency.get("total_ms") if isinstance(latency, dict) else None
        if isinstance(total, int | float) and total > self.config.threshold_ms:
            return [self.reason(f"an invocation over {self.config.threshold_ms} ms", row)]
        return ()
