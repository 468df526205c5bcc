"""``thumbs_down``: a negative rating for the session or one of its
invocations, from the app's own feedback export (``[feedback]`` says which
columns and which ratings are negative)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from miner.dialects import Event
from miner.signals import Reason, Signal


class ThumbsDown(Signal):
    name = "thumbs_down"
    order = 1
    kinds = ("USER_MESSAGE_RECEIVED", "INVOCATION_STARTING")
    every_session = True  # a rated session fires whatever rows it has

    def prefilter(self, batch: Any) -> Any:
        import pyarrow as pa
        import pyarrow.compute as pc

        rated = pa.array(sorted(self.context.negative_invocations), pa.string())
        found = pc.is_in(batch.column("invocation_id"), value_set=rated)
        return pc.fill_null(found, False)

    def row(self, event: Event, row: Any, scratch: dict[Any, Any]) -> Iterable[Reason]:
        invocation = getattr(row, "invocation_id", None)
        if isinstance(invocation, str) and invocation in self.context.negative_invocations:
            return [self.reason("a negative rating of the turn", row)]
        return ()

    def finish(self, session_id: str, scratch: dict[Any, Any]) -> Iterable[Reason]:
        if session_id in self.context.negative_sessions:
            return [self.reason("a negative rating of the session")]
        return ()
