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

    def sql(self) -> str:
        called = f"kind = 'TOOL_STARTING' AND {one_of('tool', self.config.tools)}"
        handed = one_of("transfer_to", self.config.handoff_agents)
        return (
            "SELECT session_id, invocation_id, "
            f"CASE WHEN {called} THEN 'a call to an escalation tool' "
            "ELSE 'a transfer to a handoff agent' END AS rule FROM events "
            f"WHERE ({called}) OR (kind IN ('TOOL_STARTING', 'AGENT_TRANSFER') AND {handed})"
        )
