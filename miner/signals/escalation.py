"""``escalation``: the agent called a configured escalation tool, or handed
the session to a configured human-handoff agent (an AGENT_TRANSFER row in
Python exports; a ``transfer_to_agent`` call in every dialect)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from miner.dialects import Event
from miner.signals import Reason, Signal, SignalConfig, Strings


class EscalationConfig(SignalConfig):
    tools: Strings = ()
    """Tools whose call means the session was escalated."""
    handoff_agents: Strings = ()
    """Agents a transfer to which means a human handoff."""


class Escalation(Signal):
    name = "escalation"
    order = 2
    kinds = ("TOOL_STARTING", "AGENT_TRANSFER", "MODEL_CALLS")
    Config = EscalationConfig

    def prefilter(self, batch: Any) -> Any:
        names = [*self.config.tools, *self.config.handoff_agents]
        return self.contains_any(batch, "content", [f'"{n}"' for n in names])

    def row(self, event: Event, row: Any, scratch: dict[Any, Any]) -> Iterable[Reason]:
        tools, agents = self.config.tools, self.config.handoff_agents
        calls = [event.tool] if event.kind == "TOOL_STARTING" else []
        calls += [name for name, _args in event.calls]
        if any(name in tools for name in calls):
            return [self.reason("a call to an escalation tool", row)]
        transfers = [event.transfer_to] + [
            args.get("agent_name") for name, args in event.calls if name == "transfer_to_agent"
        ]
        if any(target in agents for target in transfers if target):
            return [self.reason("a transfer to a handoff agent", row)]
        return ()
