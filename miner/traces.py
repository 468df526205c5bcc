"""Event rows of an ADK BigQuery Agent Analytics export -> sessions.

Rows of every plugin (Python, Java, Go) are read through ``miner.dialects``,
which maps each onto one event model; this module only assembles them:

- a turn per invocation: the user's text, the agent's last answer, the tool
  calls (a call and its outcome share ``span_id``; without a match, an outcome
  goes to the oldest open call of the same tool, and Go's TOOL_END after a
  TOOL_ERROR to the errored call), error messages of ``*_ERROR`` rows and rows
  with status ERROR;
- ``attributes.session_metadata`` = ``{session_id, app_name, user_id, state}``:
  the earliest row carries the starting state (the Go plugin writes none).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from miner.dialects import (
    ERROR_EVENT_TYPES,
    GO,
    TRUNCATION_MARKERS,
    parse_payload,
    read_event,
)
from miner.errors import InputError
from miner.model import Session, ToolCall, Turn

if TYPE_CHECKING:
    import pandas as pd


def utc_frame(rows: Any) -> pd.DataFrame:
    """Arrow rows as a DataFrame whose ``timestamp`` is UTC (a naive export
    column is taken to be UTC, as everywhere in miner)."""
    frame = rows.to_pandas()
    if frame["timestamp"].dt.tz is None:
        frame["timestamp"] = frame["timestamp"].dt.tz_localize("UTC")
    return frame


#: Columns the draft needs from the export, besides the three required ones.
DRAFT_COLUMNS: tuple[str, ...] = (
    "timestamp",
    "event_id",
    "event_type",
    "agent",
    "session_id",
    "invocation_id",
    "user_id",
    "span_id",
    "content",
    "attributes",
    "status",
    "error_message",
    "is_truncated",
)

REQUIRED_COLUMNS: tuple[str, ...] = ("timestamp", "event_type", "session_id")

#: Every column of the plugin's analytics table, in its order (google-adk's
#: ``bigquery_agent_analytics_plugin._get_events_schema``); only the required
#: ones must be in an export.
ANALYTICS_COLUMNS: tuple[str, ...] = (
    "timestamp", "event_id", "event_type", "agent", "session_id", "invocation_id", "user_id",
    "trace_id", "span_id", "parent_span_id", "content", "content_parts", "attributes",
    "latency_ms", "status", "error_message", "is_truncated",
)  # fmt: skip


#: The event types a drafted case is made of.
_CASE_KINDS = frozenset(
    ("USER_MESSAGE_RECEIVED", "AGENT_RESPONSE", "TOOL_STARTING", "TOOL_COMPLETED", "TOOL_ERROR")
)


#: What pairing keeps on a call besides the ToolCall's fields.
_CALL_STATE = frozenset(("done", "end_due"))


@dataclass
class ReadStats:
    """What reading the picked sessions' rows found, for the run summary and
    for refusing an export whose rows hold nothing miner can read."""

    rows: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(dialect, event type as written) -> rows read."""
    missing_text: Counter[str] = field(default_factory=Counter)
    """USER_MESSAGE_RECEIVED / AGENT_RESPONSE rows without the key their text lives under."""
    with_text: Counter[str] = field(default_factory=Counter)
    turns: int = 0
    turns_without_reply: int = 0
    sessions_without_state: int = 0
    """Sessions whose rows carry no session_metadata (the Go plugin writes none)."""
    markers: Counter[str] = field(default_factory=Counter)

    def merge(self, other: ReadStats) -> None:
        self.rows.update(other.rows)
        self.missing_text.update(other.missing_text)
        self.with_text.update(other.with_text)
        self.markers.update(other.markers)
        self.turns += other.turns
        self.turns_without_reply += other.turns_without_reply
        self.sessions_without_state += other.sessions_without_state


def _dedupe_and_order(events: pd.DataFrame) -> pd.DataFrame:
    """Drop retried writes and sort by time within a session.

    A retried write repeats the row: the same ``event_id`` (Python), or, where
    the plugin writes no event id (Java, Go), the same session, invocation,
    type, time, span and payload."""
    if "event_id" in events.columns:
        has_id = events["event_id"].notna()
        with_id, without = events[has_id].drop_duplicates(subset="event_id"), events[~has_id]
    else:
        with_id, without = events.iloc[0:0], events
    same_row = [
        c
        for c in ("session_id", "invocation_id", "event_type", "timestamp", "span_id", "content")
        if c in without.columns
    ]
    # Payloads read as native structs are not hashable: then keep them all.
    with contextlib.suppress(TypeError):
        without = without.drop_duplicates(subset=same_row)
    import pandas as pd

    events = pd.concat([with_id, without])
    # A stable sort keeps the export's order for equal timestamps.
    return events.sort_values(["session_id", "timestamp"], kind="mergesort")


def _turns(
    rows: list[Any], stats: ReadStats
) -> tuple[tuple[Turn, ...], dict[str, Any] | None, str | None]:
    """The turns of one session from its ordered rows, the earliest
    ``session_metadata`` (whose ``state`` is the starting state) and the
    ``user_id`` column's value."""
    order: list[str] = []
    users: dict[str, str] = {}
    replies: dict[str, str] = {}
    errors: dict[str, list[str]] = {}
    truncated: dict[str, bool] = {}
    user_cut: dict[str, str] = {}
    markers: dict[str, list[str]] = {}
    calls: dict[str, list[dict[str, Any]]] = {}
    by_span: dict[str, dict[str, Any]] = {}
    metadata: dict[str, Any] | None = None
    user_id: str | None = None

    for row in rows:
        invocation = getattr(row, "invocation_id", None)
        invocation = invocation if isinstance(invocation, str) else ""
        if invocation not in errors:
            order.append(invocation)
            errors[invocation] = []
            calls[invocation] = []
            markers[invocation] = []
        if metadata is None and getattr(row, "attributes", None) is not None:
            attributes = parse_payload(row.attributes, row, "attributes")
            if isinstance(attributes, dict) and isinstance(
                attributes.get("session_metadata"), dict
            ):
                metadata = attributes["session_metadata"]
        if user_id is None and isinstance(getattr(row, "user_id", None), str) and row.user_id:
            user_id = row.user_id
        event = read_event(row)
        stats.rows[(event.dialect, str(row.event_type))] += 1
        kind = event.kind
        message = getattr(row, "error_message", None)
        if (
            isinstance(message, str)
            and message
            and (kind in ERROR_EVENT_TYPES or getattr(row, "status", None) == "ERROR")
        ):
            errors[invocation].append(message)
        if kind in _CASE_KINDS and getattr(row, "is_truncated", False) is True:
            # Only rows a case is made of: a cut LLM_REQUEST (the whole history
            # and the system prompt) changes nothing in the draft.
            truncated[invocation] = True
        if event.markers:
            markers[invocation].extend(event.markers)
            stats.markers.update(event.markers)
        if kind == "USER_MESSAGE_RECEIVED" and event.markers:
            user_cut[invocation] = "content_offloaded"
        if kind in ("USER_MESSAGE_RECEIVED", "AGENT_RESPONSE"):
            if event.text is None:
                stats.missing_text[kind] += 1
                continue
            stats.with_text[kind] += 1
            if event.text.endswith(TRUNCATION_MARKERS):
                truncated[invocation] = True
                if kind == "USER_MESSAGE_RECEIVED":
                    user_cut[invocation] = "truncated"
            if kind == "USER_MESSAGE_RECEIVED":
                users[invocation] = event.text
            else:
                replies[invocation] = event.text
            continue
        if kind not in ("TOOL_STARTING", "TOOL_COMPLETED", "TOOL_ERROR"):
            continue  # other event types carry nothing a case needs
        span = row.span_id if isinstance(getattr(row, "span_id", None), str) else None
        call = by_span.get(span) if span else None
        tool = event.tool or ""
        if call is None and kind == "TOOL_COMPLETED":
            # The Go runtime calls the after-tool callbacks after a raised
            # error too (base_flow.go L1276-L1300): its TOOL_ERROR is followed
            # by a TOOL_END for the same call. That row closes the errored
            # call, the latest of the tool still waiting for it.
            call = next(
                (c for c in reversed(calls[invocation]) if c["name"] == tool and c["end_due"]),
                None,
            )
        if call is None and kind != "TOOL_STARTING":
            # No span to pair on (or a plugin that gives the outcome its own):
            # the oldest call of the same tool that has no outcome yet.
            call = next((c for c in calls[invocation] if c["name"] == tool and not c["done"]), None)
        if call is None:
            call = {
                "name": tool,
                "args": {},
                "agent": row.agent if isinstance(getattr(row, "agent", None), str) else None,
                "result": None,
                "error": None,
                "done": False,
                "end_due": False,
            }
            calls[invocation].append(call)
            if span:
                by_span[span] = call
        if kind in ("TOOL_STARTING", "TOOL_ERROR") and event.args is not None:
            call["args"] = event.args
        if kind == "TOOL_COMPLETED" and call["end_due"]:
            # Go's TOOL_END after an error holds the (nil, so ``{}``) response
            # the callbacks were given: the call stays one call, with its error.
            call["end_due"] = False
            if event.result:
                call["result"] = event.result
        elif kind == "TOOL_COMPLETED":
            call["result"] = event.result
            call["done"] = True
        if kind == "TOOL_ERROR":
            call["error"] = message if isinstance(message, str) else "tool raised an error"
            call["done"] = True
            call["end_due"] = event.dialect == GO

    turns = tuple(
        Turn(
            invocation_id=inv,
            user_text=users.get(inv, ""),
            reply_text=replies.get(inv, ""),
            tool_calls=tuple(
                ToolCall(**{k: v for k, v in c.items() if k not in _CALL_STATE}) for c in calls[inv]
            ),
            # The same failure is logged on TOOL_ERROR, AGENT_ERROR, NODE_ERROR and
            # INVOCATION_ERROR rows: keep each message once.
            errors=tuple(dict.fromkeys(errors[inv])),
            truncated=truncated.get(inv, False),
            markers=tuple(dict.fromkeys(markers[inv])),
            user_cut=user_cut.get(inv, ""),
        )
        for inv in order
        # Rows without an invocation that carry nothing (session-level rows) are not turns.
        if inv or users.get(inv) or calls[inv]
    )
    stats.turns += len(turns)
    stats.turns_without_reply += sum(1 for t in turns if not t.reply_text)
    return turns, metadata, user_id


def incomplete_input(session: Session) -> str | None:
    """Why a user message of the session is not in the export as sent (the
    first turn's ``Turn.user_cut`` that says), or None. Such a session makes
    no case: a case replays what the user sent, and the agent would be
    answering something else."""
    return next((turn.user_cut for turn in session.turns if turn.user_cut), None)


def build_sessions(
    events: pd.DataFrame, default_app: str, stats: ReadStats | None = None
) -> list[Session]:
    """Rows of the selected sessions (any order, duplicates allowed) -> sessions.

    Sessions come back ordered by session id, turns in the order their
    invocations began. ``stats``, when given, counts what was read.
    """
    stats = stats if stats is not None else ReadStats()
    if events.empty:
        return []
    events = _dedupe_and_order(events)
    sessions = []
    for session_id, group in events.groupby("session_id", sort=True):
        rows = list(group.itertuples(index=False))
        turns, metadata, column_user = _turns(rows, stats)
        if metadata is None:
            stats.sessions_without_state += 1
        metadata = metadata or {}
        state = metadata.get("state")
        stamps = group["timestamp"]
        sessions.append(
            Session(
                session_id=str(session_id),
                app_name=str(metadata.get("app_name") or default_app),
                user_id=str(metadata.get("user_id") or column_user or ""),
                start=_as_datetime(stamps.iloc[0]),
                end=_as_datetime(stamps.iloc[-1]),
                initial_state=state if isinstance(state, dict) else {},
                turns=turns,
                source_files=tuple(sorted(_files(group))),
            )
        )
    return sessions


#: Where each plugin keeps the text of the rows whose text miner needs.
_TEXT_KEYS = {
    "USER_MESSAGE_RECEIVED": "content.text_summary (Python, Java) or content.parts[].text (Go)",
    "AGENT_RESPONSE": "content.response (Python), content.text_summary (Java) "
    "or the model's text parts of an EVENT row (Go)",
}


def readability(stats: ReadStats, where: str) -> list[str]:
    """Warnings about what the rows did not hold; an InputError when a kind of
    row that must hold text held none at all (an export in an unknown shape)."""
    warnings = []
    for kind, expected in _TEXT_KEYS.items():
        missing, read = stats.missing_text[kind], stats.with_text[kind]
        if missing and not read:
            raise InputError(
                f"{where}: {missing} {kind} rows and none holds its text: expected {expected}"
            )
        if missing:
            warnings.append(
                f"{missing} of {missing + read} {kind} rows hold no text (expected {expected})"
            )
    if stats.sessions_without_state:
        warnings.append(
            f"{stats.sessions_without_state} sessions carry no attributes.session_metadata "
            "(the Go plugin writes none): their cases start from an empty state"
        )
    if stats.turns and stats.turns_without_reply * 2 > stats.turns:
        warnings.append(
            f"{stats.turns_without_reply} of {stats.turns} turns end without an agent "
            "response: check that the export holds AGENT_RESPONSE rows (Go: EVENT rows)"
        )
    return warnings


def _files(group: pd.DataFrame) -> Iterable[str]:
    if "source_file" not in group.columns:
        return ()
    return {str(f) for f in group["source_file"].dropna().unique()}


def _as_datetime(value: Any) -> datetime:
    import pandas as pd

    return pd.Timestamp(value).to_pydatetime()
