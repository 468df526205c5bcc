"""``loop``: the agent called the same tool with the same arguments several
times in one invocation (a retry storm, or an agent stuck)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Annotated, Any

import orjson
from pydantic import Field

from miner.dialects import Event
from miner.signals import Reason, Signal, SignalConfig


class LoopConfig(SignalConfig):
    repeats: Annotated[int, Field(ge=2)] = 3
    """This many identical calls (tool and arguments) in one invocation make a loop."""


class Loop(Signal):
    name = "loop"
    order = 5
    kinds = ("TOOL_STARTING",)
    Config = LoopConfig

    def turn_condition(self) -> str:
        # A turn can hold a loop only if it holds that many tool calls at all.
        return f"count(*) FILTER (WHERE {self.typed(self.kinds)}) >= {self.config.repeats}"

    def row(self, event: Event, row: Any, scratch: dict[Any, Any]) -> Iterable[Reason]:
        # The arguments as a 16-byte digest: orjson's bytes keep a 4 KiB
        # buffer each, and one key lives per call until the pass ends.
        arguments = orjson.dumps(event.args or {}, option=orjson.OPT_SORT_KEYS)
        key = (
            getattr(row, "invocation_id", None),
            event.tool,
            hashlib.blake2b(arguments, digest_size=16).digest(),
        )
        scratch[key] = scratch.get(key, 0) + 1
        if scratch[key] == self.config.repeats:
            return [self.reason(f"the same call {self.config.repeats} times in a turn", row)]
        return ()
