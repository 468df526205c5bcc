"""``escalation``: the agent called a configured escalation tool, or handed
the session to a configured human-handoff agent (an AGENT_TRANSFER row in
Python exports; a ``transfer_to_agent`` call in every dialect). A call to an
escalation tool is the stronger rule: a row that is both fires it alone."""

from __future__ import annotations

from miner.engine.sql import one_of
from miner.signals import Signal, SignalConfig, Strings


class EscalationConfig(SignalConfig):
    tools: Strings = ()
    """Tools whose call means the session was escalated."""
    handoff_agents: Strings = ()
    """Agents a transfer to which means a human handoff."""


class Escalation(Signal):
    name = "escalation"
    order = 2
    kinds = ("TOOL_STARTING", "AGENT_TRANSFER")
    Config = EscalationConfig

    def turn_columns(self) -> dict[str, str]:
        called = f"kind = 'TOOL_STARTING' AND {one_of('tool', self.config.tools)}"
        handed = (
            f"kind IN ('TOOL_STARTING', 'AGENT_TRANSFER') AND "
            f"{one_of('transfer_to', self.config.handoff_agents)}"
        )
        # A row that is both a call and a handoff fires the call's rule alone.
        return {
            "escalation_called": f"bool_or(coalesce({called}, false))",
            "escalation_handed": (
                f"bool_or(NOT coalesce({called}, false) AND coalesce({handed}, false))"
            ),
        }

    def sql(self) -> str:
        return (
            "SELECT session_id, invocation_id, 'a call to an escalation tool' AS rule "
            "FROM turns WHERE escalation_called UNION ALL "
            "SELECT session_id, invocation_id, 'a transfer to a handoff agent' AS rule "
            "FROM turns WHERE escalation_handed"
        )
