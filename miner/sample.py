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
cause (its signature): for a session with an error, the trajectory that led
to it (the distinct tools in call order, up to the failing tool), the
failing tool and its first error message with numbers, ids, e-mails, quoted
text and capitalised words masked ("lookup_order>issue_refund | issue_refund
raised: gateway declined refund to card <N> for <W>"), whatever signals it
carries; for any other session, its signals and its tool trajectory. Quotas
are filled signal by signal in the registry's order, ``per_signal`` each and
``max_cases`` in all, and within a signal round-robin across its signatures:
signatures not drafted in an earlier run first, then the biggest groups,
then by hash; inside a group the sessions go by a rank hashed from the seed
and the session id, so the same export and seed give the same sessions
whatever the order of files or rows. One outage with a thousand identical
sessions takes one slot per round, not all of them, and at most a fifth of
``max_cases`` in all (``per_signature``: 4 of 20), whichever signals' quotas
it could fill. A session is picked once, keeps all its signals, and counts
against the quota of the signal that picked it. The ledger remembers the
hashes of the signatures drafted, so next week prefers kinds not seen yet.
"""

from __future__ import annotations

import functools
import hashlib
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

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


def signature_of(
    signals: frozenset[str], path: str | None, error: str | None, error_tool: str | None = None
) -> str:
    """A session's failure cause. A session with an error is grouped by the
    error: the trajectory that led to it (the distinct tools of its earliest
    calls in call order, joined by ``>``, up to the failing tool), the
    failing tool and the error message masked, whatever signals it carries
    (an outage's sessions that also complained or escalated are one cause).
    Any other session is grouped by its signals and its tool path.
    (``FlagTable`` writes the same for a whole flags table at once; a test
    holds the two equal.)"""
    if error:
        return _error_cause(path, error_tool, mask(error))
    return " | ".join(["+".join(sorted(signals)), path or "no tools"])


def _error_cause(path: str | None, tool: str | None, masked: str) -> str:
    """An error's cause: the trajectory up to the failing tool, the tool, the
    masked message (what the calls after the failure did is its effect)."""
    tools = path.split(">") if path else []
    if tool and tool in tools:
        tools = tools[: tools.index(tool) + 1]
    return " | ".join([">".join(tools) or "no tools", f"{tool or 'error'} raised: {masked}"])


def _signals(feedback: NegativeFeedback, signals_config: Any) -> list[Signal]:
    context = Context(feedback.sessions, feedback.invocations)
    return [
        cls(getattr(signals_config, cls.name), context)
        for cls in REGISTRY
        if getattr(signals_config, cls.name).enabled
    ]


class FlagTable(Mapping[str, SessionFlags]):
    """The flags relation as the engine returned it (Arrow, ``FLAG_COLUMNS``),
    read as a mapping of session id to ``SessionFlags``. There may be
    hundreds of thousands of flagged sessions: a session becomes a Python
    object only when it is looked up (the picked ones, and tests); the pick
    and the run's counts read the columns."""

    def __init__(self, table: pa.Table) -> None:
        self.table = table.combine_chunks()
        self.ids: list[str] = self.table.column("session_id").to_pylist()
        listed = pc.dictionary_encode(self.table.column("signals").combine_chunks())
        #: Each row's signals, as a code into ``signal_sets`` (a few dozen).
        self.signal_codes = _codes(listed)
        self.signal_sets = [_shared(s) for s in listed.dictionary.to_pylist()]
        #: Each row's failure signature, as a code into ``signatures``.
        self.signature_codes, self.signatures = _signatures(self.table, listed)
        self._index: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self.ids)

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids)

    def __getitem__(self, session_id: str) -> SessionFlags:
        if self._index is None:
            self._index = {sid: i for i, sid in enumerate(self.ids)}
        return self.session(self._index[session_id])

    def session(self, i: int) -> SessionFlags:
        """The ``i``-th session's flags, as a Python object."""
        return SessionFlags(
            session_id=self.ids[i],
            start=_utc(self.table.column("start")[i].as_py()),
            signals=self.signal_sets[self.signal_codes[i]],
            signature=self.signatures[self.signature_codes[i]],
            reasons=_reasons(self.table.column("hits")[i].as_py()),
        )

    def starting_in(self, since: datetime, until: datetime) -> np.ndarray:
        """The rows whose session starts in ``[since, until)``."""
        starts = self.table.column("start")
        if starts.type.tz is None:  # naive starts are UTC, as everywhere in miner
            since, until = (t.astimezone(UTC).replace(tzinfo=None) for t in (since, until))
        inside = pc.and_(
            pc.greater_equal(starts, pa.scalar(since, starts.type)),
            pc.less(starts, pa.scalar(until, starts.type)),
        )
        return np.flatnonzero(inside.to_numpy(zero_copy_only=False))

    def rules_fired(self, rows: np.ndarray) -> Counter[tuple[str, str]]:
        """Sessions among ``rows`` per (signal, rule) that fired on them."""
        hits = self.table.column("hits").take(pa.array(rows, pa.int64())).combine_chunks()
        flat = pc.list_flatten(hits)
        signal = pc.dictionary_encode(pc.struct_field(flat, "signal"))
        rule = pc.dictionary_encode(pc.struct_field(flat, "rule"))
        signals, rules = len(signal.dictionary), len(rule.dictionary)
        pair = _codes(signal) * rules + _codes(rule)
        row = pc.list_parent_indices(hits).to_numpy().astype(np.int64)
        # A session counts once per (signal, rule), whatever its turns.
        once = _distinct(row * (signals * rules) + pair) % (signals * rules)
        counted = np.bincount(once, minlength=signals * rules)
        names, named = signal.dictionary.to_pylist(), rule.dictionary.to_pylist()
        return Counter(
            {
                (names[k // rules], named[k % rules]): int(n)
                for k, n in enumerate(counted.tolist())
                if n
            }
        )


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted (``np.unique`` is many times slower on
    integers in numpy 2.4)."""
    ordered = np.sort(values)
    return (
        ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))] if len(ordered) else ordered
    )


def _codes(encoded: pa.DictionaryArray) -> np.ndarray:
    return encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)


def _signatures(table: pa.Table, listed: pa.DictionaryArray) -> tuple[np.ndarray, list[str]]:
    """``signature_of`` for every row of a flags table, as codes into the
    distinct causes: each distinct error, tool and path is read once."""
    # The signals sorted as ``signature_of`` sorts them, whatever the engine's order.
    ordered = [_joined(s) for s in listed.dictionary.to_pylist()]
    signals = pc.take(pa.array(ordered, pa.string()), listed.indices)
    parts = [signals, *(table.column(c).combine_chunks() for c in ("path", "error", "error_tool"))]
    keys = pc.dictionary_encode(
        pc.binary_join_element_wise(*(pc.fill_null(p.cast(pa.string()), "") for p in parts), "\x1f")
    )
    causes: dict[str, int] = {}
    codes = [
        causes.setdefault(
            sys.intern(signature_of(_shared(joined), path or None, error or None, tool or None)),
            len(causes),
        )
        for joined, path, error, tool in (k.split("\x1f") for k in keys.dictionary.to_pylist())
    ]
    return np.array(codes, np.int64)[_codes(keys)], list(causes)


@dataclass(frozen=True)
class Flagged:
    """What the selection query found: the flagged sessions, and counts."""

    table: pa.Table
    """The flags relation as the engine returned it (``FLAG_COLUMNS``)."""
    sessions: int
    """Sessions read (any start)."""
    in_window: int
    """Sessions that start in the window."""
    rows_read: Counter[tuple[str, str]]
    """Rows read by (dialect, event type as written)."""

    @functools.cached_property
    def flags(self) -> FlagTable:
        """Only the sessions some signal fired on, that start in the window.
        Built on first read, not by ``select``: the embedded engine reads it
        once its connection is closed, so the engine's buffers (the events
        it held, 256 MiB at 4.6M rows) and this build do not add up."""
        return FlagTable(self.table)


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
    (``miner.engine.query.events_sql``) returns the flags relation, kept as
    Arrow (``FlagTable``). ``where`` names the export in errors."""
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
    return Flagged(
        table.select(list(FLAG_COLUMNS)), totals["sessions"], totals["in_window"], counts
    )


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


def _joined(signals: str) -> str:
    """A ``+``-joined list of signals, sorted."""
    return "+".join(sorted(_shared(signals)))


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
) -> FlagTable:
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
    flags: Mapping[str, SessionFlags],
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
    ``flags`` holds only the flagged ones (as the selection gives them).
    The pick reads ids, signals and signatures only: a ``FlagTable``'s
    sessions become objects only once picked."""
    rows = _Rows.of(flags)
    in_window = rows.starting_in(since, until)
    some = np.array([bool(sets) for sets in rows.signal_sets] or [False])
    bad = in_window[some[rows.signal_codes[in_window]]]
    # Each signal: which rows carry it.
    carries = {
        signal: np.isin(
            rows.signal_codes, [c for c, sets in enumerate(rows.signal_sets) if signal in sets]
        )
        for signal in SIGNALS
    }
    flagged = {s: int(carries[s][bad].sum()) for s in SIGNALS}
    # (A first run has no ledger: no session to hash against it.)
    ids = rows.ids
    new = [session_hash(ids[i]) not in drafted for i in bad.tolist()] if drafted else None
    fresh = bad if new is None else bad[np.array(new, bool)]
    # Rank order: the seeded hash of each session id (bytes sort as the hex does).
    sha256 = hashlib.sha256
    ranks = np.array([sha256(f"{seed}:{ids[i]}".encode()).digest() for i in fresh.tolist()], "S32")
    ranked = fresh[np.argsort(ranks, kind="stable")]
    picked: list[int] = []
    taken = np.zeros(len(rows.ids), bool)
    # One kind of failure fills at most a fifth of the run, whatever signals
    # it carries (an outage copied 400 times is one finding, not twenty).
    cap = per_signature(max_cases)
    kinds: Counter[int] = Counter()
    for signal in SIGNALS:
        # The signal's sessions not yet picked, in rank order, and their kinds.
        candidates = ranked[carries[signal][ranked] & ~taken[ranked]]
        kind_of = rows.signature_codes[candidates]
        sizes = np.bincount(kind_of, minlength=len(rows.signatures))
        order = sorted(
            np.flatnonzero(sizes).tolist(),
            key=lambda g: (
                signature_hash(rows.signatures[g]) in drafted_signatures,
                -sizes[g],
                _rank(seed, rows.signatures[g]),
            ),
        )
        members: dict[int, np.ndarray] = {}
        quota = min(per_signal, max_cases - len(picked))
        round_ = 0
        while quota > 0 and any(round_ < sizes[g] and kinds[g] < cap for g in order):
            for g in order:
                if quota > 0 and round_ < sizes[g] and kinds[g] < cap:
                    if g not in members:
                        members[g] = candidates[kind_of == g]
                    i = int(members[g][round_])
                    picked.append(i)
                    taken[i] = True
                    kinds[g] += 1
                    quota -= 1
            round_ += 1
    # Sessions per signature, in the order the signatures first come.
    kind_of_bad = rows.signature_codes[bad]
    counts = np.bincount(kind_of_bad, minlength=len(rows.signatures))
    first = np.full(len(rows.signatures), len(bad))
    np.minimum.at(first, kind_of_bad, np.arange(len(bad)))
    signatures = {
        rows.signatures[g]: int(counts[g])
        for g in np.argsort(first, kind="stable").tolist()
        if counts[g]
    }
    return Selection(
        picked=tuple(rows.session(i) for i in picked),
        in_window=len(in_window) if sessions_in_window is None else sessions_in_window,
        flagged=flagged,
        already_drafted=len(bad) - len(fresh),
        signatures=signatures,
    )


def rules_fired(
    flags: Mapping[str, SessionFlags], since: datetime, until: datetime
) -> dict[str, dict[str, int]]:
    """{signal: {rule: sessions}} over the sessions that start in the window."""
    rows = _Rows.of(flags)
    found = rows.rules_fired(rows.starting_in(since, until))
    out: dict[str, dict[str, int]] = {}
    for (signal, rule), n in sorted(found.items()):
        out.setdefault(signal, {})[rule] = n
    return out


@dataclass(frozen=True)
class _Rows:
    """What the pick reads of flagged sessions, by row: a ``FlagTable``'s
    columns, or any mapping's values coded the same way."""

    ids: list[str]
    signal_codes: np.ndarray
    signal_sets: list[frozenset[str]]
    signature_codes: np.ndarray
    signatures: list[str]
    source: Any

    @classmethod
    def of(cls, flags: Mapping[str, SessionFlags]) -> _Rows:
        if isinstance(flags, FlagTable):
            return cls(
                flags.ids,
                flags.signal_codes,
                flags.signal_sets,
                flags.signature_codes,
                flags.signatures,
                flags,
            )
        values = list(flags.values())
        sets: dict[frozenset[str], int] = {}
        kinds: dict[str, int] = {}
        return cls(
            [f.session_id for f in values],
            np.array([sets.setdefault(f.signals, len(sets)) for f in values], np.int64),
            list(sets),
            np.array([kinds.setdefault(f.signature, len(kinds)) for f in values], np.int64),
            list(kinds),
            values,
        )

    def session(self, i: int) -> SessionFlags:
        if isinstance(self.source, FlagTable):
            return self.source.session(i)
        return self.source[i]  # type: ignore[no-any-return]

    def starting_in(self, since: datetime, until: datetime) -> np.ndarray:
        if isinstance(self.source, FlagTable):
            return self.source.starting_in(since, until)
        inside = [i for i, f in enumerate(self.source) if since <= f.start < until]
        return np.array(inside, np.int64)

    def rules_fired(self, rows: np.ndarray) -> Counter[tuple[str, str]]:
        if isinstance(self.source, FlagTable):
            return self.source.rules_fired(rows)
        found: Counter[tuple[str, str]] = Counter()
        for i in rows:
            found.update({(r.signal, r.rule) for r in self.source[i].reasons})
        return found
