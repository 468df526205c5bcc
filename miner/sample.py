"""Stage 1, sample: flag the sessions that went wrong and pick which to draft.

The signals are the modules of ``miner.signals`` (error, thumbs_down,
escalation, complaint, slow, loop, no_answer, in quota order), each a rule
in SQL; ``select`` runs them as one query in an engine (``miner.engine``)
and gets back the flags relation; Python touches only the flagged sessions.

The window: a session is in ``[since, until)`` when its first event is. Its
events are read up to ``session_grace`` either side, so a session that
starts just before ``until`` is read whole (and one that started before
``since`` is recognised as such). Sessions longer than the grace may be cut.
The window is written once, in ``miner.engine.query``.

The pick is reproducible and diverse. Each flagged session has a failure
signature: its signals, the shape of its tool trajectory (the distinct tools
in call order) and its first error message with numbers, ids, e-mails, quoted
text and capitalised words masked ("issue_refund raised: gateway declined
refund to card <N> for <W>"). Quotas are filled signal by signal in the
registry's order, ``per_signal`` each and ``max_cases`` in all, and within a
signal round-robin across its signatures: signatures not drafted in an
earlier run first, then the biggest groups, then by hash; inside a group the
sessions go by a rank hashed from the seed and the session id, so the same
export and seed give the same sessions whatever the order of files or rows.
One outage with a thousand identical sessions takes one slot per round, not
all of them, and at most a fifth of ``max_cases`` in all (``per_signature``:
4 of 20), whichever signals' quotas it could fill. A session is picked once,
keeps all its signals, and counts against the quota of the signal that
picked it. The ledger remembers the hashes of the signatures drafted, so
next week prefers kinds not seen yet.
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pandas as pd
import pyarrow as pa

from miner.config import FeedbackConfig
from miner.dialects import parse_payload, row_place
from miner.engine.query import FLAG_COLUMNS, NOT_UTF8, counts_sql, scan_types, selection_sql
from miner.errors import PayloadError
from miner.model import SIGNALS, SessionFlags
from miner.signals import REGISTRY, Context, Reason, Signal
from miner.source import refuse_rows_without_session

#: Event types the selection reads (besides any row with status ERROR), in
#: every plugin's names (the Go plugin's TOOL_START, EVENT...).
SCAN_EVENT_TYPES: tuple[str, ...] = tuple(scan_types(REGISTRY))


_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")
_WITH_DIGITS = re.compile(r"\S*\d\S*")
_CAPITALISED = re.compile(r"(?<=\s)[A-Z][\w'-]*")
_REPEATS = re.compile(r"(<[A-Z]+>)(?:[\s,]+\1)+")


def mask(text: str) -> str:
    """An error message with what varies from case to case masked: the same
    failure reads the same whatever the order, amount or customer."""
    text = _EMAIL.sub("<EMAIL>", text)
    text = _QUOTED.sub("<Q>", text)
    text = _WITH_DIGITS.sub("<N>", text)
    text = _CAPITALISED.sub("<W>", text)
    return _REPEATS.sub(r"\1", " ".join(text.split()))[:160]


def signature_hash(signature: str) -> str:
    """What the ledger stores of a signature (masked text may still hold data)."""
    return hashlib.sha256(f"miner-signature:{signature}".encode()).hexdigest()[:16]


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


def signature_of(signals: frozenset[str], path: str | None, error: str | None) -> str:
    """A session's failure signature: its signals, its tool path (the
    distinct tools of its earliest calls in call order, joined by ``>``) and
    its earliest error message, masked."""
    parts = ["+".join(sorted(signals)), path or "no tools"]
    if error:
        parts.append(mask(error))
    return " | ".join(parts)


def _signals(feedback: NegativeFeedback, signals_config: Any) -> list[Signal]:
    context = Context(feedback.sessions, feedback.invocations)
    return [
        cls(getattr(signals_config, cls.name), context)
        for cls in REGISTRY
        if getattr(signals_config, cls.name).enabled
    ]


@dataclass(frozen=True)
class Flagged:
    """What the selection query found: the flagged sessions, and counts."""

    flags: dict[str, SessionFlags]
    """Only the sessions some signal fired on, that start in the window."""
    sessions: int
    """Sessions read (any start)."""
    in_window: int
    """Sessions that start in the window."""
    rows_read: Counter[tuple[str, str]]
    """Rows read by (dialect, event type as written)."""


#: Runs a query in the engine's own dialect (DuckDB's text is transpiled by
#: the engine) and gives its rows as an Arrow table.
Run = Callable[[str], pa.Table]


def select(
    run: Run,
    feedback: NegativeFeedback,
    signals_config: Any,
    since: datetime,
    until: datetime,
    where: str = "<rows>",
) -> Flagged:
    """The selection: one query over the ``events`` the engine holds
    (``miner.engine.query.events_sql``) returns the flags relation; Python
    then touches the flagged sessions only, for their signatures. ``where``
    names the export in errors."""
    counts: Counter[tuple[str, str]] = Counter()
    totals = {"sessions": 0, "in_window": 0}
    orphans: list[tuple[str, int]] = []
    bad: list[dict[str, Any]] = []
    for item in run(counts_sql(since, until)).to_pylist():
        part = item["part"]
        if part == "rows":
            counts[(str(item["dialect"]), str(item["name"]))] += int(item["n"])
        elif part in totals:
            totals[part] = int(item["n"])
        elif part == "orphans":
            orphans.append((_local_file(item["name"]), int(item["n"])))
        elif part == "bad":
            bad.append(item)
    refuse_rows_without_session(where, sorted(orphans))
    for item in bad:
        _refuse_payload(item)
    table = run(selection_sql(None, _signals(feedback, signals_config), since, until))
    flags = {}
    # There may be hundreds of thousands of flagged sessions: their rows
    # become Python objects a slice at a time, column by column.
    for batch in table.to_batches(max_chunksize=_SLICE):
        columns = [batch.column(c).to_pylist() for c in FLAG_COLUMNS]
        for sid, start, signals, hits, path, error in zip(*columns, strict=True):
            fired = _shared(signals)
            flags[sid] = SessionFlags(
                session_id=sid,
                start=_utc(start),
                signals=fired,
                # Interned, as are the rules: thousands of sessions share each.
                signature=sys.intern(signature_of(fired, path, error)),
                reasons=_reasons(hits),
            )
        del columns
    return Flagged(flags, totals["sessions"], totals["in_window"], counts)


#: Flagged sessions made Python objects at a time (``select``).
_SLICE = 8_192


def _reasons(hits: list[dict[str, Any]]) -> tuple[Reason, ...]:
    """A session's hits, once each, in a stable order; the signal names and
    rules interned (a few dozen, shared by every session)."""
    found = {
        Reason(sys.intern(h["signal"]), sys.intern(h["rule"]), h["invocation_id"]) for h in hits
    }
    return tuple(sorted(found, key=lambda r: (r.signal, str(r.invocation), r.rule)))


def _refuse_payload(item: dict[str, Any]) -> None:
    """Stop on the payload the engine could not read as JSON, naming its file,
    row and what is wrong (as ``parse_payload`` says it), never its content."""
    row = _BadRow(
        item["source_file"], item["dialect"], item["ts"], item["session_id"],
        item["invocation_id"],
    )  # fmt: skip
    if item["name"] == NOT_UTF8:
        raise PayloadError(f"{row_place(row)}: column content: not valid UTF-8")
    parse_payload(item["name"], row, "content")  # raises with orjson's reason
    raise PayloadError(f"{row_place(row)}: column content: malformed JSON")


@dataclass(frozen=True)
class _BadRow:
    """Where a bad payload is, as ``row_place`` reads it."""

    source_file: str | None
    event_type: str
    timestamp: Any
    session_id: str
    invocation_id: str | None


def _local_file(path: Any) -> str:
    """A row's file as errors name it (Spark prefixes ``file://``)."""
    return str(path).removeprefix("file://") if path is not None else "<rows>"


def _utc(moment: Any) -> datetime:
    """A start as the pick compares it: a UTC datetime (microseconds)."""
    if isinstance(moment, pd.Timestamp):
        moment = moment.to_pydatetime()
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


_SIGNAL_SETS: dict[str, frozenset[str]] = {}


def _shared(signals: str) -> frozenset[str]:
    """One set per distinct ``+``-joined list of signals (a few dozen, and
    one flags record per flagged session)."""
    found = _SIGNAL_SETS.get(signals)
    if found is None:
        found = _SIGNAL_SETS[signals] = frozenset(signals.split("+"))
    return found


def flag_sessions(
    batches: Iterable[pa.RecordBatch | pd.DataFrame],
    feedback: NegativeFeedback,
    signals_config: Any,
    rows_read: Counter[tuple[str, str]] | None = None,
) -> dict[str, SessionFlags]:
    """The flagged sessions among rows held in memory (Arrow batches or
    DataFrames, any order; any time): the selection run by DuckDB over them."""
    from miner.config import ScanConfig
    from miner.engine import duck

    frames = [b if isinstance(b, pd.DataFrame) else b.to_pandas() for b in batches]
    with duck.connect(ScanConfig()) as con:
        duck.frame_rows(con, frames, SCAN_EVENT_TYPES)
        found = select(con.table, feedback, signals_config, duck.EARLIEST, duck.LATEST)
    if rows_read is not None:
        rows_read.update(found.rows_read)
    return found.flags


@dataclass(frozen=True)
class Selection:
    picked: tuple[SessionFlags, ...]
    """Sessions to draft, in pick order."""
    in_window: int
    flagged: dict[str, int]
    """Sessions in the window carrying each signal (a session counts once per signal)."""
    already_drafted: int
    """Flagged sessions skipped because an earlier run drafted them."""
    signatures: dict[str, int] = field(default_factory=dict)
    """Flagged sessions in the window per failure signature."""


def _rank(seed: int, session_id: str) -> str:
    return hashlib.sha256(f"{seed}:{session_id}".encode()).hexdigest()


def per_signature(max_cases: int) -> int:
    """The most sessions one failure signature may take of a run's ``max_cases``."""
    return max(1, -(-max_cases // 5))


def pick_sessions(
    flags: dict[str, SessionFlags],
    since: datetime,
    until: datetime,
    drafted: frozenset[str],
    per_signal: int,
    max_cases: int,
    seed: int,
    drafted_signatures: frozenset[str] = frozenset(),
    sessions_in_window: int | None = None,
) -> Selection:
    """Choose the sessions to draft; ``drafted`` holds session hashes of
    earlier runs, ``drafted_signatures`` the signature hashes.
    ``sessions_in_window``: how many sessions start in the window, when
    ``flags`` holds only the flagged ones (as the selection gives them)."""
    in_window = [f for f in flags.values() if since <= f.start < until]
    bad = [f for f in in_window if f.signals]
    carrying = Counter(signal for f in bad for signal in f.signals)
    flagged = {s: carrying[s] for s in SIGNALS}
    # (A first run has no ledger: no session to hash against it.)
    fresh = [f for f in bad if session_hash(f.session_id) not in drafted] if drafted else bad
    ranked = sorted(fresh, key=lambda f: _rank(seed, f.session_id))
    # Each signal's sessions, in rank order, gathered in one pass over them.
    ranked_by_signal: dict[str, list[SessionFlags]] = {s: [] for s in SIGNALS}
    for f in ranked:
        for signal in f.signals:
            ranked_by_signal.setdefault(signal, []).append(f)
    picked: list[SessionFlags] = []
    taken: set[str] = set()
    # One kind of failure fills at most a fifth of the run, whatever signals
    # it carries (an outage copied 400 times is one finding, not twenty).
    cap = per_signature(max_cases)
    kinds: Counter[str] = Counter()
    for signal in SIGNALS:
        groups: dict[str, list[SessionFlags]] = {}
        for f in ranked_by_signal[signal]:
            if f.session_id not in taken:
                groups.setdefault(f.signature, []).append(f)
        order = sorted(
            groups,
            key=lambda g: (
                signature_hash(g) in drafted_signatures,
                -len(groups[g]),
                _rank(seed, g),
            ),
        )
        quota = min(per_signal, max_cases - len(picked))
        round_ = 0
        while quota > 0 and any(round_ < len(groups[g]) and kinds[g] < cap for g in order):
            for g in order:
                if quota > 0 and round_ < len(groups[g]) and kinds[g] < cap:
                    picked.append(groups[g][round_])
                    taken.add(groups[g][round_].session_id)
                    kinds[g] += 1
                    quota -= 1
            round_ += 1
    signatures: dict[str, int] = {}
    for f in bad:
        signatures[f.signature] = signatures.get(f.signature, 0) + 1
    return Selection(
        picked=tuple(picked),
        in_window=len(in_window) if sessions_in_window is None else sessions_in_window,
        flagged=flagged,
        already_drafted=len(bad) - len(fresh),
        signatures=signatures,
    )
