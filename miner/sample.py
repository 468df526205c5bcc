"""Stage 1, sample: flag the sessions that went wrong and pick which to draft.

Signals (a session may carry several):

- ``complaint``: a user message contains a configured complaint phrase
  (case-insensitive, on word boundaries);
- ``escalation``: a call to a configured escalation tool, or a transfer to a
  configured human-handoff agent (an AGENT_TRANSFER row in Python exports; a
  ``transfer_to_agent`` call in every dialect);
- ``thumbs_down``: a negative feedback row for the session or one of its invocations;
- ``error``: a row with status ERROR or an ``*_ERROR`` event type, or a
  TOOL_COMPLETED whose result reports a failure (``{"status": "error"}`` or a
  non-empty ``error`` key; configurable), because the plugin logs a tool that
  *returned* an error as a success.

The window: a session is in ``[since, until)`` when its first event is. Its
events are read up to ``session_grace`` either side, so a session that
starts just before ``until`` is read whole (and one that started before
``since`` is recognised as such). Sessions longer than the grace may be cut.

The pick is reproducible: each session gets a rank from a hash of the seed and
its id, so the same export and seed give the same sessions whatever the order
of files or rows. Quotas are filled signal by signal (error, thumbs_down,
escalation, complaint), each taking its lowest-ranked sessions not yet picked,
up to ``per_signal`` each and ``max_cases`` in all. A session is picked once and
keeps all its signals; it counts against the quota of the signal that picked it.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pandas as pd

from miner.config import FeedbackConfig, SignalsConfig
from miner.dialects import ERROR_EVENT_TYPES, raw_event_types, read_event
from miner.model import SIGNALS, SessionFlags

#: Event types the signal scan reads (besides any row with status ERROR), in
#: every plugin's names (the Go plugin's TOOL_START, EVENT...).
SCAN_EVENT_TYPES: tuple[str, ...] = tuple(
    raw_event_types(
        (
            "USER_MESSAGE_RECEIVED",
            "INVOCATION_STARTING",
            "TOOL_STARTING",
            "TOOL_COMPLETED",
            "AGENT_TRANSFER",
            *ERROR_EVENT_TYPES,
        )
    )
)
SCAN_COLUMNS: tuple[str, ...] = (
    "timestamp",
    "event_id",
    "event_type",
    "session_id",
    "invocation_id",
    "content",
    "status",
)


def session_hash(session_id: str) -> str:
    """The id miner stores and prints for a session: never the raw id."""
    return hashlib.sha256(f"miner-session:{session_id}".encode()).hexdigest()[:16]


def complaint_matcher(phrases: Iterable[str]) -> re.Pattern[str]:
    alternatives = sorted({re.escape(p.lower()) for p in phrases if p.strip()}, key=len)
    if not alternatives:
        return re.compile(r"(?!x)x")  # matches nothing
    return re.compile(r"(?<!\w)(?:" + "|".join(reversed(alternatives)) + r")(?!\w)", re.I)


def result_failed(result: Any, rules: SignalsConfig) -> bool:
    """A TOOL_COMPLETED result that reports a failure under the configured rule."""
    if not isinstance(result, dict):
        return False
    for key in rules.error_result_keys:
        if result.get(key) not in (None, "", False, [], {}):
            return True
    status = result.get(rules.error_status_key)
    return isinstance(status, str) and status.lower() in {
        s.lower() for s in rules.error_status_values
    }


@dataclass(frozen=True)
class NegativeFeedback:
    sessions: frozenset[str]
    invocations: frozenset[str]


def negative_feedback(feedback: pd.DataFrame | None, rules: FeedbackConfig) -> NegativeFeedback:
    """Session and invocation ids with a negative rating."""
    if feedback is None or feedback.empty:
        return NegativeFeedback(frozenset(), frozenset())
    scores = feedback[rules.score_column]
    negative = pd.Series(False, index=feedback.index)
    numeric = pd.to_numeric(scores, errors="coerce")
    if rules.negative_max_score is not None:
        negative |= numeric.notna() & (numeric <= rules.negative_max_score)
    if rules.negative_values:
        wanted = {v.lower() for v in rules.negative_values}
        negative |= scores.astype("string").str.lower().isin(wanted).fillna(False)
    rows = feedback[negative]

    def ids(column: str) -> frozenset[str]:
        if column not in rows.columns:
            return frozenset()
        return frozenset(str(v) for v in rows[column].dropna() if str(v))

    return NegativeFeedback(ids(rules.session_column), ids(rules.invocation_column))


def flag_sessions(
    batches: Iterable[pd.DataFrame],
    feedback: NegativeFeedback,
    rules: SignalsConfig,
    rows_read: Counter[tuple[str, str]] | None = None,
) -> dict[str, SessionFlags]:
    """Fold event batches (SCAN_COLUMNS, any order) into per-session flags.

    Only the flags are kept between batches, so memory grows with the number
    of sessions, not of events. ``rows_read``, when given, counts the rows by
    (dialect, event type as written).
    """
    rows_read = rows_read if rows_read is not None else Counter()
    complaint = complaint_matcher(rules.complaint_phrases)
    escalation_tools = set(rules.escalation_tools)
    handoff_agents = set(rules.handoff_agents)
    starts: dict[str, datetime] = {}
    signals: dict[str, set[str]] = {}

    for batch in batches:
        if batch.empty:
            continue
        first = batch.groupby("session_id", sort=False)["timestamp"].min()
        for sid, start in first.items():
            stamp = pd.Timestamp(start).to_pydatetime()
            key = str(sid)
            if key not in starts or stamp < starts[key]:
                starts[key] = stamp
            signals.setdefault(key, set())
            if key in feedback.sessions:
                signals[key].add("thumbs_down")
        for row in batch.itertuples(index=False):
            found = _row_signals(
                row, rules, complaint, escalation_tools, handoff_agents, feedback, rows_read
            )
            if found:
                signals[str(row.session_id)].update(found)

    return {
        sid: SessionFlags(session_id=sid, start=starts[sid], signals=frozenset(signals[sid]))
        for sid in starts
    }


def _row_signals(
    row: Any,
    rules: SignalsConfig,
    complaint: re.Pattern[str],
    escalation_tools: set[str],
    handoff_agents: set[str],
    feedback: NegativeFeedback,
    rows_read: Counter[tuple[str, str]],
) -> set[str]:
    event = read_event(row)
    rows_read[(event.dialect, str(row.event_type))] += 1
    kind = event.kind
    found: set[str] = set()
    if kind in ERROR_EVENT_TYPES or getattr(row, "status", None) == "ERROR":
        found.add("error")
    invocation = getattr(row, "invocation_id", None)
    if isinstance(invocation, str) and invocation in feedback.invocations:
        found.add("thumbs_down")
    if kind == "USER_MESSAGE_RECEIVED":
        if event.text and complaint.search(event.text):
            found.add("complaint")
    elif kind == "TOOL_STARTING" and event.tool in escalation_tools:
        found.add("escalation")
    elif kind == "TOOL_COMPLETED" and result_failed(event.result, rules):
        found.add("error")
    elif kind == "MODEL_CALLS" and any(name in escalation_tools for name, _ in event.calls):
        found.add("escalation")  # Go: the model's call, in an EVENT row
    if event.transfer_to in handoff_agents or any(
        name == "transfer_to_agent" and args.get("agent_name") in handoff_agents
        for name, args in event.calls
    ):
        found.add("escalation")
    return found


@dataclass(frozen=True)
class Selection:
    picked: tuple[SessionFlags, ...]
    """Sessions to draft, in pick order."""
    in_window: int
    flagged: dict[str, int]
    """Sessions in the window carrying each signal (a session counts once per signal)."""
    already_drafted: int
    """Flagged sessions skipped because an earlier run drafted them."""


def _rank(seed: int, session_id: str) -> str:
    return hashlib.sha256(f"{seed}:{session_id}".encode()).hexdigest()


def pick_sessions(
    flags: dict[str, SessionFlags],
    since: datetime,
    until: datetime,
    drafted: frozenset[str],
    per_signal: int,
    max_cases: int,
    seed: int,
) -> Selection:
    """Choose the sessions to draft; ``drafted`` holds session hashes of earlier runs."""
    in_window = [f for f in flags.values() if since <= f.start < until]
    flagged = {s: sum(1 for f in in_window if s in f.signals) for s in SIGNALS}
    bad = [f for f in in_window if f.signals]
    fresh = [f for f in bad if session_hash(f.session_id) not in drafted]
    ranked = sorted(fresh, key=lambda f: _rank(seed, f.session_id))
    picked: list[SessionFlags] = []
    taken: set[str] = set()
    for signal in SIGNALS:
        quota = per_signal
        for f in ranked:
            if len(picked) >= max_cases or quota == 0:
                break
            if signal in f.signals and f.session_id not in taken:
                picked.append(f)
                taken.add(f.session_id)
                quota -= 1
    return Selection(
        picked=tuple(picked),
        in_window=len(in_window),
        flagged=flagged,
        already_drafted=len(bad) - len(fresh),
    )
