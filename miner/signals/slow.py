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

    def row(self, event: Event, row: Any, scratch: dict[Any, Any]) -> Iterable[Reason]:
        latency = parse_payload(getattr(row, "latency_ms", None), row, "latency_ms")
        total = latency.get("total_ms") if isinstance(latency, dict) else None
        if isinstance(total, int | float) and total > self.config.threshold_ms:
            return [self.reason(f"an invocation over {self.config.threshold_ms} ms", row)]
        return ()
