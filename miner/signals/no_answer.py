"""``no_answer``: a turn the user started that ended without an agent
response (after a crash, a raised error, a timeout)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from miner.dialects import Event
from miner.signals import Reason, Signal


class NoAnswer(Signal):
    name = "no_answer"
    order = 6
    kinds = ("USER_MESSAGE_RECEIVED", "AGENT_RESPONSE")

    def turn_condition(self) -> str:
        # Only a turn the user started and no AGENT_RESPONSE row answered can
        # fire (Go's answers are EVENT rows: its turns all stay candidates).
        asked = self.typed(["USER_MESSAGE_RECEIVED"])
        return f"bool_or({asked}) AND NOT bool_or(event_type = 'AGENT_RESPONSE')"

    def take(self, batch: Any, scratch_of: Any) -> bool:
        # Only which turns were asked and answered: no payload to read. (The Go
        # plugin's answers are EVENT rows; those still go through ``row``.)
        columns = [
            batch.column(c).to_pylist() for c in ("session_id", "invocation_id", "event_type")
        ]
        for sid, invocation, kind in zip(*columns, strict=True):
            if isinstance(invocation, str):
                side = "asked" if kind in ("USER_MESSAGE_RECEIVED", "USER_MESSAGE") else "answered"
                scratch_of(str(sid)).setdefault(side, set()).add(invocation)
        return True

    def row(self, event: Event, row: Any, scratch: dict[Any, Any]) -> Iterable[Reason]:
        invocation = getattr(row, "invocation_id", None)
        if isinstance(invocation, str):
            asked, answered = (
                scratch.setdefault("asked", set()),
                scratch.setdefault("answered", set()),
            )
            (asked if event.kind == "USER_MESSAGE_RECEIVED" else answered).add(invocation)
        return ()

    def finish(self, session_id: str, scratch: dict[Any, Any]) -> Iterable[Reason]:
        if not scratch:
            return ()
        unanswered = sorted(scratch.get("asked", set()) - scratch.get("answered", set()))
        return [Reason(self.name, "a turn without an agent response", i) for i in unanswered[:1]]
