"""The typed records the stages hand to each other. All are immutable:
a stage returns new records and never mutates what it was given."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from miner.signals import NAMES, Reason

#: The signals a session can carry, in the order quotas are filled.
SIGNALS: tuple[str, ...] = NAMES


@dataclass(frozen=True)
class ToolCall:
    """One tool call: TOOL_STARTING joined with its TOOL_COMPLETED or TOOL_ERROR."""

    name: str
    args: dict[str, Any]
    agent: str | None = None
    result: Any = None
    error: str | None = None


@dataclass(frozen=True)
class Turn:
    """One invocation: what the user said, what the agent did and said."""

    invocation_id: str
    user_text: str
    reply_text: str
    tool_calls: tuple[ToolCall, ...] = ()
    errors: tuple[str, ...] = ()
    """error_message of every *_ERROR row in the turn, tool errors included."""
    truncated: bool = False
    """The plugin truncated a payload of this turn (is_truncated, or a text
    ending ...[TRUNCATED] / ...[truncated])."""
    markers: tuple[str, ...] = ()
    """Stand-ins the plugin wrote for parts it did not inline ([BINARY DATA],
    [MEDIA OFFLOADED], [OFFLOADED]), dropped from the texts."""
    user_cut: str = ""
    """Why the user's message is not in the export as sent: ``truncated``
    (the plugin cut it) or ``content_offloaded`` (a part of it offloaded or
    not inlined); empty when it is whole."""


@dataclass(frozen=True)
class Session:
    session_id: str
    app_name: str
    user_id: str
    start: datetime
    end: datetime
    initial_state: dict[str, Any]
    turns: tuple[Turn, ...]
    source_files: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SessionFlags:
    """What the sample stage knows about a session after the signal scan
    (slotted: one is kept for every session of the window)."""

    session_id: str
    start: datetime
    signals: frozenset[str] = field(default_factory=frozenset)
    reasons: tuple[Reason, ...] = ()
    """Why each signal fired: the rule and the invocation."""
    signature: str = ""
    """The failure kind: signals, tool trajectory shape, masked error text."""
