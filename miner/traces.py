"""Event rows of an ADK BigQuery Agent Analytics export -> sessions.

What the plugin writes (google-adk 2.13, read from
``google/adk/plugins/bigquery_agent_analytics_plugin.py``):

- USER_MESSAGE_RECEIVED: ``content = {"text_summary": "<text parts joined by ' | '>"}``
- TOOL_STARTING: ``{"tool", "args", "tool_origin"}``; TOOL_COMPLETED:
  ``{"tool", "result", "tool_origin"}``; TOOL_ERROR: ``{"tool", "args", ...}`` with
  ``error_message``. A call and its outcome share ``span_id``.
- AGENT_RESPONSE: ``{"response": "text: '...' | call: name"}`` (the summary
  ``_format_content`` builds; inner quotes are not escaped).
- ``attributes.session_metadata`` = ``{session_id, app_name, user_id, state}``
  on every row; the earliest row carries the starting state.

Payload columns are JSON strings (``json.dumps`` or BigQuery's normalised
JSON): always parsed, never string-matched.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from typing import Any

import orjson
import pandas as pd

from miner.errors import PayloadError
from miner.model import Session, ToolCall, Turn

#: Columns the draft needs from the export, besides the three required ones.
DRAFT_COLUMNS: tuple[str, ...] = (
    "timestamp",
    "event_id",
    "event_type",
    "agent",
    "session_id",
    "invocation_id",
    "span_id",
    "content",
    "attributes",
    "status",
    "error_message",
    "is_truncated",
)

REQUIRED_COLUMNS: tuple[str, ...] = ("timestamp", "event_type", "session_id")

ERROR_EVENT_TYPES: tuple[str, ...] = (
    "TOOL_ERROR",
    "LLM_ERROR",
    "AGENT_ERROR",
    "INVOCATION_ERROR",
    "NODE_ERROR",
)

_SUMMARY_PART = re.compile(
    r" \| (?=text: '|call: |resp: |Executable code \(|Code execution result \(|other(?: \||$))"
)


def row_place(row: Any) -> str:
    """Where a row is, for an error message: file and event id (never content)."""
    source = getattr(row, "source_file", None) or "<export>"
    event_id = getattr(row, "event_id", None)
    label = f"event_id={event_id}" if isinstance(event_id, str) and event_id else "row"
    return f"{source}: {label} ({getattr(row, 'event_type', '?')})"


def parse_payload(text: Any, place: str, column: str) -> Any:
    """Parse one JSON payload cell; None and empty stay None."""
    if text is None or (isinstance(text, float) and pd.isna(text)) or text == "":
        return None
    if not isinstance(text, str | bytes):
        return text  # already structured (a JSON-typed column read natively)
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        # orjson's message gives the position; it does not quote the input.
        raise PayloadError(f"{place}: column {column}: malformed JSON ({exc.args[0]})") from None


def summary_text(summary: Any) -> str:
    """The user-visible text of a ``_format_content`` summary.

    ``"text: 'Sure.' | call: lookup_order"`` -> ``"Sure."``. Non-text parts
    (calls, code) are dropped; several text parts are joined by a space.
    """
    if not isinstance(summary, str) or summary == "None":
        return ""
    texts = []
    for part in _SUMMARY_PART.split(summary):
        if part.startswith("text: '") and part.endswith("'") and len(part) >= 8:
            texts.append(part[len("text: '") : -1])
        elif part.startswith("text: '"):
            texts.append(part[len("text: '") :])
    return " ".join(texts)


def user_text(content: Any) -> str:
    """USER_MESSAGE_RECEIVED's text (``text_summary``, parts joined by ' | ')."""
    if isinstance(content, dict):
        value = content.get("text_summary")
        return value if isinstance(value, str) else ""
    return content if isinstance(content, str) else ""


def _dedupe_and_order(events: pd.DataFrame) -> pd.DataFrame:
    """Drop retried writes (repeated event_id) and sort by time within a session."""
    if "event_id" in events.columns:
        has_id = events["event_id"].notna()
        events = pd.concat([events[has_id].drop_duplicates(subset="event_id"), events[~has_id]])
    # A stable sort keeps the export's order for equal timestamps.
    return events.sort_values(["session_id", "timestamp"], kind="mergesort")


def _turns(rows: list[Any]) -> tuple[tuple[Turn, ...], dict[str, Any] | None]:
    """The turns of one session from its ordered rows, and the earliest
    ``session_metadata`` (whose ``state`` is the starting state)."""
    order: list[str] = []
    users: dict[str, str] = {}
    replies: dict[str, str] = {}
    errors: dict[str, list[str]] = {}
    truncated: dict[str, bool] = {}
    calls: dict[str, list[dict[str, Any]]] = {}
    by_span: dict[str, dict[str, Any]] = {}
    metadata: dict[str, Any] | None = None

    for row in rows:
        place = row_place(row)
        invocation = getattr(row, "invocation_id", None)
        invocation = invocation if isinstance(invocation, str) else ""
        if invocation not in errors:
            order.append(invocation)
            errors[invocation] = []
            calls[invocation] = []
        if metadata is None and getattr(row, "attributes", None) is not None:
            attributes = parse_payload(row.attributes, place, "attributes")
            if isinstance(attributes, dict) and isinstance(
                attributes.get("session_metadata"), dict
            ):
                metadata = attributes["session_metadata"]
        if getattr(row, "is_truncated", False) is True:
            truncated[invocation] = True
        kind = row.event_type
        message = getattr(row, "error_message", None)
        if (
            isinstance(message, str)
            and message
            and (kind in ERROR_EVENT_TYPES or getattr(row, "status", None) == "ERROR")
        ):
            errors[invocation].append(message)
        if kind not in (
            "USER_MESSAGE_RECEIVED",
            "AGENT_RESPONSE",
            "TOOL_STARTING",
            "TOOL_COMPLETED",
            "TOOL_ERROR",
        ):
            continue  # other event types carry nothing a case needs
        content = parse_payload(getattr(row, "content", None), place, "content")
        if kind == "USER_MESSAGE_RECEIVED":
            users[invocation] = user_text(content)
        elif kind == "AGENT_RESPONSE":
            response = content.get("response") if isinstance(content, dict) else content
            replies[invocation] = summary_text(response)
        else:
            payload = content if isinstance(content, dict) else {}
            span = row.span_id if isinstance(getattr(row, "span_id", None), str) else None
            call = by_span.get(span) if span else None
            if call is None:
                call = {
                    "name": str(payload.get("tool", "")),
                    "args": {},
                    "agent": row.agent if isinstance(getattr(row, "agent", None), str) else None,
                    "result": None,
                    "error": None,
                }
                calls[invocation].append(call)
                if span:
                    by_span[span] = call
            if kind in ("TOOL_STARTING", "TOOL_ERROR") and isinstance(payload.get("args"), dict):
                call["args"] = payload["args"]
            if kind == "TOOL_COMPLETED":
                call["result"] = payload.get("result")
            if kind == "TOOL_ERROR":
                call["error"] = message if isinstance(message, str) else "tool raised an error"

    turns = tuple(
        Turn(
            invocation_id=inv,
            user_text=users.get(inv, ""),
            reply_text=replies.get(inv, ""),
            tool_calls=tuple(ToolCall(**c) for c in calls[inv]),
            # The same failure is logged on TOOL_ERROR, AGENT_ERROR, NODE_ERROR and
            # INVOCATION_ERROR rows: keep each message once.
            errors=tuple(dict.fromkeys(errors[inv])),
            truncated=truncated.get(inv, False),
        )
        for inv in order
        # Rows without an invocation that carry nothing (session-level rows) are not turns.
        if inv or users.get(inv) or calls[inv]
    )
    return turns, metadata


def build_sessions(events: pd.DataFrame, default_app: str) -> list[Session]:
    """Rows of the selected sessions (any order, duplicates allowed) -> sessions.

    Sessions come back ordered by session id, turns in the order their
    invocations began.
    """
    if events.empty:
        return []
    events = _dedupe_and_order(events)
    sessions = []
    for session_id, group in events.groupby("session_id", sort=True):
        rows = list(group.itertuples(index=False))
        turns, metadata = _turns(rows)
        metadata = metadata or {}
        state = metadata.get("state")
        stamps = group["timestamp"]
        sessions.append(
            Session(
                session_id=str(session_id),
                app_name=str(metadata.get("app_name") or default_app),
                user_id=str(metadata.get("user_id") or ""),
                start=_as_datetime(stamps.iloc[0]),
                end=_as_datetime(stamps.iloc[-1]),
                initial_state=state if isinstance(state, dict) else {},
                turns=turns,
                source_files=tuple(sorted(_files(group))),
            )
        )
    return sessions


def _files(group: pd.DataFrame) -> Iterable[str]:
    if "source_file" not in group.columns:
        return ()
    return {str(f) for f in group["source_file"].dropna().unique()}


def _as_datetime(value: Any) -> datetime:
    return pd.Timestamp(value).to_pydatetime()
