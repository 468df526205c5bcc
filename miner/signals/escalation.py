"""``escalation``: the agent called a configured escalation tool, or handed
the session to a configured human-handoff agent (an AGENT_TRANSFER row in
Python exports; a ``transfer_to_agent`` call in every dialect)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from miner.dialects import (
    Event,
    arrow_rows,
    plain_call_tools,
    plain_transfer_targets,
    read_event,
)
from miner.signals import Reason, Signal, SignalConfig, Strings, tested_on


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

    def take(self, batch: Any, scratch_of: Any) -> bool:
        # A call in the plain shape is decided by its tool's name, and a
        # transfer in a plain shape by its target, both taken from the
        # columns, by the rules of ``row``: an escalation tool fires first,
        # then a transfer to a handoff agent. Other shapes are read by
        # ``row``, as before, where the prefilter keeps them.
        import numpy as np
        import pyarrow as pa
        import pyarrow.compute as pc

        tools, targets = plain_call_tools(batch), plain_transfer_targets(batch)
        escalating = pc.fill_null(
            pc.is_in(tools, value_set=pa.array(self.config.tools, pa.string())), False
        )
        handing = pc.fill_null(
            pc.is_in(targets, value_set=pa.array(self.config.handoff_agents, pa.string())),
            False,
        )
        handing = pc.and_(handing, pc.invert(escalating))
        plain_call = pc.and_(pc.is_valid(tools), pc.not_equal(tools, "transfer_to_agent"))
        decided = pc.or_(pc.fill_null(plain_call, False), pc.is_valid(targets))
        read = tested_on(pc.invert(decided), lambda rows: self.prefilter(batch.filter(rows)))
        sids, invocations = (batch.column(c) for c in ("session_id", "invocation_id"))
        for rule, fired in (
            ("a call to an escalation tool", escalating),
            ("a transfer to a handoff agent", handing),
        ):
            for sid, invocation in zip(
                sids.filter(fired).to_pylist(), invocations.filter(fired).to_pylist(), strict=True
            ):
                self._hit(scratch_of(str(sid)), self.turn_reason(rule, invocation))
        rows = np.flatnonzero(read.to_numpy(zero_copy_only=False))
        for row in arrow_rows(batch, rows):
            for found in self.row(read_event(row), row, {}):
                self._hit(scratch_of(str(row.session_id)), found)
        return True

    @staticmethod
    def _hit(scratch: dict[Any, Any], reason: Reason) -> None:
        scratch.setdefault("hits", []).append(reason)

    def finish(self, session_id: str, scratch: dict[Any, Any]) -> Iterable[Reason]:
        return scratch.get("hits", ())

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
