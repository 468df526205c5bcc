"""``loop``: the agent called the same tool with the same arguments several
times in one invocation (a retry storm, or an agent stuck). The arguments
are compared as the plugin wrote them (the same call is written alike)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from miner.engine.sql import text
from miner.signals import Signal, SignalConfig


class LoopConfig(SignalConfig):
    repeats: Annotated[int, Field(ge=2)] = 3
    """This many identical calls (tool and arguments) in one invocation make a loop."""


class Loop(Signal):
    name = "loop"
    order = 5
    kinds = ("TOOL_STARTING",)
    Config = LoopConfig

    def sql(self) -> str:
        rule = text(f"the same call {self.config.repeats} times in a turn")
        # A turn with two looping calls is one hit.
        return (
            f"SELECT DISTINCT session_id, invocation_id, {rule} AS rule FROM ("
            "SELECT session_id, invocation_id FROM events WHERE kind = 'TOOL_STARTING' "
            "GROUP BY session_id, invocation_id, tool, coalesce(args, '{}') "
            f"HAVING count(*) >= {self.config.repeats}) l"
        )
