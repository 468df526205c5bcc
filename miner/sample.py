"""Stage 1, sample: flag the sessions that went wrong and pick which to draft.

The signals are the modules of ``miner.signals`` (error, thumbs_down,
escalation, complaint, slow, loop, no_answer, in quota order); this stage
reads the rows they declare, hands each row to the signals that read its
event type, and keeps per session only its start, its signals with their
reasons, and each signal's small scratch state.

The window: a session is in ``[since, until)`` when its first event is. Its
events are read up to ``session_grace`` either side, so a session that
starts just before ``until`` is read whole (and one that started before
``since`` is recognised as such). Sessions longer than the grace may be cut.

The pick is reproducible: each session gets a rank from a hash of the seed and
its id, so the same export and seed give the same sessions whatever the order
of files or rows. Quotas are filled signal by signal in the registry's order,
each taking its lowest-ranked sessions not yet picked, up to ``per_signal``
each and ``max_cases`` in all. A session is picked once and keeps all its
signals; it counts against the quota of the signal that picked it.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pandas as pd

from miner.config import FeedbackConfig
from miner.dialects import raw_event_types, read_event
from miner.model import SIGNALS, SessionFlags
from miner.signals import REGISTRY, Context, Reason, Signal

#: Event types the signal scan reads (besides any row with status ERROR), in
#: every plugin's names (the Go plugin's TOOL_START, EVENT...).
SCAN_EVENT_TYPES: tuple[str, ...] = tuple(
    raw_event_types(kind for signal in REGISTRY for kind in signal.kinds)
)
SCAN_COLUMNS: tuple[str, ...] = tuple(
    dict.fromkeys(
        (
            "timestamp",
            "event_id",
            "event_type",
            "session_id",
            "invocation_id",
            "content",
            "status",
            *(column for signal in REGISTRY for column in signal.columns),
        )
    )
)


def session_hash(session_id: str) -> str:
    """The id miner stores and prints for a session: never the raw id."""
    return hashlib.sha256(f"miner-session:{session_id}".encode()).hexdigest()[:16]


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
    signals_config: Any,
    rows_read: Counter[tuple[str, str]] | None = None,
) -> dict[str, SessionFlags]:
    """Fold event batches (SCAN_COLUMNS, any order) into per-session flags.

    Only the flags and each signal's scratch are kept between batches, so
    memory grows with the number of sessions, not of events. ``rows_read``,
    when given, counts the rows by (dialect, event type as written).
    """
    rows_read = rows_read if rows_read is not None else Counter()
    context = Context(feedback.sessions, feedback.invocations)
    signals: list[Signal] = [
        cls(getattr(signals_config, cls.name), context)
        for cls in REGISTRY
        if getattr(signals_config, cls.name).enabled
    ]
    by_kind: dict[str, list[Signal]] = {}
    for signal in signals:
        for kind in signal.kinds:
            by_kind.setdefault(kind, []).append(signal)
    on_error = [s for s in signals if s.all_rows]
    starts: dict[str, datetime] = {}
    reasons: dict[str, list[Reason]] = {}
    scratch: dict[str, dict[str, dict[str, Any]]] = {}

    for batch in batches:
        if batch.empty:
            continue
        first = batch.groupby("session_id", sort=False)["timestamp"].min()
        for sid, start in first.items():
            stamp = pd.Timestamp(start).to_pydatetime()
            key = str(sid)
            if key not in starts or stamp < starts[key]:
                starts[key] = stamp
        for row in batch.itertuples(index=False):
            event = read_event(row)
            rows_read[(event.dialect, str(row.event_type))] += 1
            wanted = by_kind.get(event.kind, [])
            if getattr(row, "status", None) == "ERROR":
                wanted = [*wanted, *(s for s in on_error if s not in wanted)]
            if not wanted:
                continue
            session = scratch.setdefault(str(row.session_id), {})
            for signal in wanted:
                found = signal.row(event, row, session.setdefault(signal.name, {}))
                if found:
                    reasons.setdefault(str(row.session_id), []).extend(found)

    flags = {}
    for sid, start in starts.items():
        found = reasons.get(sid, [])
        session = scratch.get(sid, {})
        for signal in signals:
            found.extend(signal.finish(sid, session.get(signal.name, {})))
        flags[sid] = SessionFlags(
            session_id=sid,
            start=start,
            signals=frozenset(r.signal for r in found),
            # Sorted: rows come in export order, which is no order at all.
            reasons=tuple(sorted(set(found), key=lambda r: (r.signal, str(r.invocation), r.rule))),
        )
    return flags


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
