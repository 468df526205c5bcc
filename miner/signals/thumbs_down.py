"""``thumbs_down``: a negative rating for the session or one of its
invocations, from the app's own feedback export (``[feedback]`` says which
columns and which ratings are negative). A rated session fires whatever rows
it has."""

from __future__ import annotations

from miner.engine.sql import one_of
from miner.signals import Signal


class ThumbsDown(Signal):
    name = "thumbs_down"
    order = 1
    kinds = ("USER_MESSAGE_RECEIVED", "INVOCATION_STARTING")

    def turn_columns(self) -> dict[str, str]:
        return {
            "thumbs_down_rated": "bool_or(kind IN ('USER_MESSAGE_RECEIVED', 'INVOCATION_STARTING'))"
        }

    def sql(self) -> str:
        sessions = one_of("session_id", sorted(self.context.negative_sessions))
        turns = one_of("invocation_id", sorted(self.context.negative_invocations))
        return (
            "SELECT DISTINCT session_id, CAST(NULL AS VARCHAR) AS invocation_id, "
            f"'a negative rating of the session' AS rule FROM turns WHERE {sessions} "
            "UNION ALL SELECT session_id, invocation_id, 'a negative rating of the turn' AS rule "
            f"FROM turns WHERE thumbs_down_rated AND {turns}"
        )
