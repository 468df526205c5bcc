"""``no_answer``: a turn the user started that ended without an agent
response (after a crash, a raised error, a timeout). The first such turn
(by id) is the reason."""

from __future__ import annotations

from miner.signals import Signal


class NoAnswer(Signal):
    name = "no_answer"
    order = 6
    kinds = ("USER_MESSAGE_RECEIVED", "AGENT_RESPONSE")

    def turn_columns(self) -> dict[str, str]:
        return {
            "no_answer_asked": "bool_or(kind = 'USER_MESSAGE_RECEIVED')",
            "no_answer_answered": "bool_or(kind = 'AGENT_RESPONSE')",
        }

    def sql(self) -> str:
        return (
            "SELECT session_id, min(invocation_id) AS invocation_id, "
            "'a turn without an agent response' AS rule FROM turns "
            "WHERE invocation_id IS NOT NULL AND no_answer_asked AND NOT no_answer_answered "
            "GROUP BY session_id"
        )
