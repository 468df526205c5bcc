"""Stage 1, sample: flag the sessions that went wrong and pick which to draft.

The signals are the modules of ``miner.signals`` (error, thumbs_down,
escalation, complaint, slow, loop, no_answer, in quota order), each a rule
in SQL; ``select`` runs them as one query in an engine (``miner.engine``)
and gets back the flags relation. A draft runs ``select_and_pick``: the
engine keeps the flags relation, and Python gets each flagged session's
codes (failure cause, session hash, seeded rank), picks over them, and reads
back the picked sessions' flags alone.

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

import contextlib
import functools
import hashlib
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from miner.config import FeedbackConfig
from miner.dialects import parse_payload, row_place
from miner.engine.query import (
    FLAG_COLUMNS,
    LAST_COLUMN,
    NOT_UTF8,
    FlagSlice,
    HashSlice,
    counts_sql,
    flags_sql,
    hits_sql,
    scan_types,
    selection_sql,
)
from miner.engine.sql import listed, one_of, text
from miner.errors import PayloadError
from miner.model import SIGNALS, SessionFlags
from miner.signals import REGISTRY, Context, Reason, Signal
from miner.source import read_feedback, refuse_rows_without_session
from miner.summary import NOT_DRAFTED_REASONS
from miner.window import clamped

if TYPE_CHECKING:
    import pandas as pd

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


def negative_feedback(feedback: pa.Table | None, rules: FeedbackConfig) -> NegativeFeedback:
    """Session and invocation ids with a negative rating: a score that reads
    as a number at most ``negative_max_score``, or one of ``negative_values``
    (any case). In Python over the ratings' values, not pandas: the first
    stage's child, which reads them, imports no pandas (``miner.first_stage``)."""
    if feedback is None or feedback.num_rows == 0:
        return NegativeFeedback(frozenset(), frozenset())
    wanted = {v.lower() for v in rules.negative_values}
    highest = rules.negative_max_score

    def negative(score: Any) -> bool:
        # A null or a NaN is no rating (pandas read a NaN as missing, so a
        # ``negative_values`` of "nan" never matched it).
        if score is None or score != score:
            return False
        if isinstance(score, bytes):
            # A binary column: its text, as pandas' ``astype("string")`` read it.
            score = score.decode("utf-8", errors="replace")
        number = _number(score)
        if highest is not None and number is not None and number <= highest:
            return True
        return str(score).lower() in wanted

    rows = [
        n
        for n, score in enumerate(feedback.column(rules.score_column).to_pylist())
        if negative(score)
    ]

    def ids(column: str) -> frozenset[str]:
        if column not in feedback.column_names:
            return frozenset()
        values = feedback.column(column).to_pylist()
        # Not a null, a NaN or an empty id.
        return frozenset(
            str(values[n])
            for n in rows
            if values[n] is not None and values[n] == values[n] and str(values[n])
        )

    return NegativeFeedback(ids(rules.session_column), ids(rules.invocation_column))


def _number(score: Any) -> float | None:
    """A score as a number, or None: a number as it is, a string that reads
    as one (``"-1"``, ``" 2.5"``), nothing else (as pandas' ``to_numeric``
    with ``errors="coerce"``)."""
    if isinstance(score, int | float | Decimal):
        return float(score)
    if isinstance(score, str) and "_" not in score:
        with contextlib.suppress(ValueError):
            return float(score)
    return None


def read_negative_feedback(path: Path | None, rules: FeedbackConfig) -> NegativeFeedback:
    """The negative ratings of the feedback export at ``path`` (none without
    one), read with the ``[feedback]`` columns and rule."""
    if path is None:
        return negative_feedback(None, rules)
    table = read_feedback(
        path,
        columns=[rules.session_column, rules.invocation_column, rules.score_column],
        required=[rules.score_column],
        one_of=[rules.session_column, rules.invocation_column],
    )
    return negative_feedback(table, rules)


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
        causes = _Causes()
        key = causes.code(self.table)
        codes = causes.resolved()
        #: Each row's signals, as a code into ``signal_sets`` (a few dozen).
        self.signal_codes = codes.signal_codes[key]
        self.signal_sets = codes.signal_sets
        #: Each row's failure signature, as a code into ``signatures``.
        self.signature_codes = codes.signature_codes[key]
        self.signatures = codes.signatures
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


@dataclass(frozen=True)
class _Codes:
    """What the pick reads of flagged sessions, by row: each row's signals
    and failure signature, as codes into the few distinct ones."""

    signal_codes: np.ndarray
    signal_sets: list[frozenset[str]]
    signature_codes: np.ndarray
    signatures: list[str]

    def flagged(self, rows: np.ndarray) -> np.ndarray:
        """Those of ``rows`` some signal fired on."""
        some = np.array([bool(sets) for sets in self.signal_sets] or [False])
        return rows[some[self.signal_codes[rows]]]


#: The columns of the flags relation a session's failure cause is read from.
CAUSE_COLUMNS = ("signals", "path", "error", "error_tool")


class _Causes:
    """The distinct (signals, path, error, error_tool) of flags rows, coded
    as they come, a batch at a time; then each one's signals and failure
    signature (``signature_of``), each distinct error, tool and path read
    once."""

    def __init__(self) -> None:
        self.keys: dict[str, int] = {}

    def code(self, rows: pa.Table | pa.RecordBatch) -> np.ndarray:
        """Each row's key, as a code into ``keys``."""
        if not rows.num_rows:
            return np.zeros(0, np.int32)
        parts = [_chunk(rows.column(c)).cast(pa.string()) for c in CAUSE_COLUMNS]
        keys = pc.dictionary_encode(
            pc.binary_join_element_wise(*(pc.fill_null(p, "") for p in parts), "\x1f")
        )
        known = self.keys
        local = [known.setdefault(k, len(known)) for k in keys.dictionary.to_pylist()]
        return np.array(local, np.int32)[_codes(keys)]

    def resolved(self) -> _Codes:
        """Per key: its signals and its signature, as codes (``_Codes``
        indexed by key)."""
        sets: dict[frozenset[str], int] = {}
        causes: dict[str, int] = {}
        set_of, cause_of = [], []
        for key in self.keys:
            signals, path, error, tool = key.split("\x1f")
            fired = _shared(signals)
            cause = sys.intern(signature_of(fired, path or None, error or None, tool or None))
            set_of.append(sets.setdefault(fired, len(sets)))
            cause_of.append(causes.setdefault(cause, len(causes)))
        return _Codes(
            np.array(set_of, np.int64), list(sets), np.array(cause_of, np.int64), list(causes)
        )


def _chunk(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    return column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column


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


class Queries(Protocol):
    """What the pick asks of an engine besides ``Run``: a query's rows a
    batch at a time, a query's result kept in the engine under a name that
    later queries read (a table DuckDB spills, a view Spark caches), a
    query's rows added to a kept relation, and a kept relation let go once
    nothing reads it again."""

    def table(self, sql: str) -> pa.Table: ...

    def batches(self, sql: str) -> Iterable[pa.RecordBatch]: ...

    def hold(self, name: str, sql: str) -> None: ...

    def add(self, name: str, sql: str) -> None: ...

    def let_go(self, table: str) -> None: ...


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
    sessions, in_window, counts = _counted(run, since, until, where)
    table = run(selection_sql(None, _signals(feedback, signals_config), since, until))
    return Flagged(table.select(list(FLAG_COLUMNS)), sessions, in_window, counts)


def _counted(
    run: Run, since: datetime, until: datetime, where: str
) -> tuple[int, int, Counter[tuple[str, str]]]:
    """Sessions read, those starting in the window, and rows read by
    (dialect, event type) (``counts_sql``); stops on rows without a session
    and on a payload that is not JSON."""
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
    return totals["sessions"], totals["in_window"], counts


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
    # A pandas Timestamp (pandas is not imported for this: the pick has none).
    as_datetime = getattr(moment, "to_pydatetime", None)
    if as_datetime is not None:
        moment = as_datetime()
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
) -> FlagTable:
    """The flagged sessions among rows held in memory (Arrow batches or
    DataFrames, any order; any time): the selection run by DuckDB over them."""
    import pandas as pd

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


def _rank_sql(seed: int) -> str:
    """SQL: ``_rank``'s digest of each ``session_id``, as 32 bytes (which
    sort as its hex does)."""
    return f"unhex(sha256({text(f'{seed}:')} || session_id))"


#: SQL: ``session_hash`` of each ``session_id``.
SESSION_HASH_SQL = "left(sha256('miner-session:' || session_id), 16)"


def per_signature(max_cases: int) -> int:
    """The most sessions one failure signature may take of a run's ``max_cases``."""
    return max(1, -(-max_cases // 5))


@dataclass(frozen=True)
class PickPlan:
    """What the pick takes besides the flags: the ledger's session and
    signature hashes (earlier runs' drafts), the quotas and the seed."""

    drafted: frozenset[str]
    drafted_signatures: frozenset[str]
    per_signal: int
    max_cases: int
    seed: int


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
    sessions become objects only once picked. (``select_and_pick`` picks
    the same over the flags an engine holds.)"""
    rows = _Rows.of(flags)
    in_window = rows.starting_in(since, until)
    bad = rows.flagged(in_window)
    # (A first run has no ledger: no session to hash against it.)
    ids = rows.ids
    hashes = np.array([session_hash(ids[i]) for i in bad.tolist()], "S16") if drafted else None
    fresh = bad if hashes is None else bad[~_among(hashes, drafted)]
    sha256 = hashlib.sha256
    ranks = np.array([sha256(f"{seed}:{ids[i]}".encode()).digest() for i in fresh.tolist()], "S32")
    plan = PickPlan(drafted, drafted_signatures, per_signal, max_cases, seed)
    choice = _choose(rows, bad, fresh, ranks, plan)
    return Selection(
        picked=tuple(rows.session(i) for i in choice.picked),
        in_window=len(in_window) if sessions_in_window is None else sessions_in_window,
        flagged=choice.flagged,
        already_drafted=len(bad) - len(fresh),
        signatures=choice.signatures,
    )


def _among(hashes: np.ndarray, drafted: frozenset[str]) -> np.ndarray:
    """Which of ``hashes`` (16 ASCII bytes each) are in ``drafted``."""
    return np.isin(hashes, np.array(sorted(drafted), "S16"))


@dataclass(frozen=True)
class _Choice:
    picked: list[int]
    """Rows to draft, in pick order."""
    flagged: dict[str, int]
    signatures: dict[str, int]


def _choose(
    rows: _Codes, bad: np.ndarray, fresh: np.ndarray, ranks: np.ndarray, plan: PickPlan
) -> _Choice:
    """The pick over the flagged rows ``bad`` of the window: ``fresh``, those
    not drafted before, each with its seeded rank (``ranks``, 32 bytes)."""
    # Each signal: which rows carry it.
    carries = {
        signal: np.isin(
            rows.signal_codes, [c for c, sets in enumerate(rows.signal_sets) if signal in sets]
        )
        for signal in SIGNALS
    }
    flagged = {s: int(carries[s][bad].sum()) for s in SIGNALS}
    # Rank order: the seeded hash of each session id (bytes sort as the hex does).
    ranked = fresh[np.argsort(ranks, kind="stable")]
    picked: list[int] = []
    taken = np.zeros(len(rows.signal_codes), bool)
    # One kind of failure fills at most a fifth of the run, whatever signals
    # it carries (an outage copied 400 times is one finding, not twenty).
    cap = per_signature(plan.max_cases)
    kinds: Counter[int] = Counter()
    for signal in SIGNALS:
        # The signal's sessions not yet picked, in rank order, and their kinds.
        candidates = ranked[carries[signal][ranked] & ~taken[ranked]]
        kind_of = rows.signature_codes[candidates]
        sizes = np.bincount(kind_of, minlength=len(rows.signatures))
        order = sorted(
            np.flatnonzero(sizes).tolist(),
            key=lambda g: (
                signature_hash(rows.signatures[g]) in plan.drafted_signatures,
                -sizes[g],
                _rank(plan.seed, rows.signatures[g]),
            ),
        )
        members: dict[int, np.ndarray] = {}
        quota = min(plan.per_signal, plan.max_cases - len(picked))
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
    return _Choice(picked, flagged, signatures)


#: A reason ``left`` gives, as its place in ``NOT_DRAFTED_REASONS``.
_ALREADY_DRAFTED, _DUPLICATE, _OVER_QUOTA = (
    NOT_DRAFTED_REASONS.index(r) for r in ("already_drafted", "duplicate", "over_quota")
)


def _left(
    rows: _Codes, flagged: np.ndarray, picked: Sequence[int], drafted: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """The rows of ``flagged`` the pick left out, and each one's reason (a
    place in ``NOT_DRAFTED_REASONS``): ``already_drafted`` (``drafted``, by
    row of ``flagged``: its hash is in the ledger), ``duplicate`` (a session
    of its failure signature was picked), else ``over_quota`` (the quotas ran
    out before its turn). In ``flagged``'s order."""
    is_picked = np.zeros(len(rows.signal_codes), bool)
    is_picked[list(picked)] = True
    picked_kinds = np.zeros(len(rows.signatures), bool)
    picked_kinds[rows.signature_codes[list(picked)]] = True
    out = ~is_picked[flagged]
    left = flagged[out]
    reasons = np.where(picked_kinds[rows.signature_codes[left]], _DUPLICATE, _OVER_QUOTA)
    if drafted is not None:
        reasons = np.where(drafted[out], _ALREADY_DRAFTED, reasons)
    return left, reasons.astype(np.uint8)


def rules_fired(
    flags: Mapping[str, SessionFlags], since: datetime, until: datetime
) -> dict[str, dict[str, int]]:
    """{signal: {rule: sessions}} over the sessions that start in the window."""
    rows = _Rows.of(flags)
    return _by_signal(rows.rules_fired(rows.starting_in(since, until)))


def _by_signal(found: Mapping[tuple[str, str], int]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for (signal, rule), n in sorted(found.items()):
        out.setdefault(signal, {})[rule] = n
    return out


@dataclass(frozen=True)
class _Rows(_Codes):
    """The flagged sessions of a ``FlagTable`` or any mapping, by row: the
    codes, their ids, and where each row's ``SessionFlags`` comes from."""

    ids: list[str]
    source: Any

    @classmethod
    def of(cls, flags: Mapping[str, SessionFlags]) -> _Rows:
        if isinstance(flags, FlagTable):
            return cls(
                flags.signal_codes,
                flags.signal_sets,
                flags.signature_codes,
                flags.signatures,
                flags.ids,
                flags,
            )
        values = list(flags.values())
        sets: dict[frozenset[str], int] = {}
        kinds: dict[str, int] = {}
        return cls(
            np.array([sets.setdefault(f.signals, len(sets)) for f in values], np.int64),
            list(sets),
            np.array([kinds.setdefault(f.signature, len(kinds)) for f in values], np.int64),
            list(kinds),
            [f.session_id for f in values],
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


def left_out(
    flags: Mapping[str, SessionFlags],
    since: datetime,
    until: datetime,
    drafted: frozenset[str],
    picked: Iterable[str],
) -> Iterator[tuple[str, str]]:
    """Each flagged session of the window the pick left out, as its session
    id and why (``miner.summary.NOT_DRAFTED_REASONS``, as ``_left`` decides
    it). In the flags' order."""
    rows = _Rows.of(flags)
    flagged = rows.flagged(rows.starting_in(since, until))
    chosen = set(picked)
    ids = rows.ids
    drafted_rows = (
        _among(np.array([session_hash(ids[i]) for i in flagged.tolist()], "S16"), drafted)
        if drafted
        else None
    )
    left, reasons = _left(
        rows, flagged, [i for i in flagged.tolist() if ids[i] in chosen], drafted_rows
    )
    for i, reason in zip(left.tolist(), reasons.tolist(), strict=True):
        yield ids[i], NOT_DRAFTED_REASONS[reason]


@dataclass(frozen=True)
class NotDrafted:
    """Flagged sessions not drafted, as session hashes and reasons, held
    compact: a big week leaves hundreds of thousands out, and they are kept
    while the model is loaded."""

    hashes: np.ndarray
    """Each session's hash, as 16 ASCII bytes."""
    codes: np.ndarray
    """Each one's reason, as its place in ``NOT_DRAFTED_REASONS``."""

    @classmethod
    def of(cls, sessions: Iterable[tuple[str, str]]) -> NotDrafted:
        """From (session id, reason) pairs."""
        code = {reason: n for n, reason in enumerate(NOT_DRAFTED_REASONS)}
        hashes, codes = bytearray(), bytearray()
        for session_id, reason in sessions:
            hashes += session_hash(session_id).encode("ascii")
            codes.append(code[reason])
        return cls(np.frombuffer(bytes(hashes), "S16"), np.frombuffer(bytes(codes), np.uint8))

    def ordered(self) -> NotDrafted:
        """The same, by reason and then hash (the same on every engine)."""
        order = np.lexsort((self.hashes, self.codes))
        return NotDrafted(self.hashes[order], self.codes[order])

    def plus(self, other: NotDrafted) -> NotDrafted:
        """Both, by reason and then hash; ``self`` already so (``ordered``),
        ``other`` a few sessions merged in. Sorting both anew held three
        copies of a big week's hashes at the run's end, under the models
        (45 MiB at 20M rows' 1M sessions left out)."""
        other = other.ordered()
        at = np.empty(len(other.codes), np.int64)
        for n, (found, code) in enumerate(zip(other.hashes, other.codes, strict=True)):
            low, high = (
                np.searchsorted(self.codes, code, "left"),
                np.searchsorted(self.codes, code, "right"),
            )
            at[n] = low + np.searchsorted(self.hashes[low:high], found)
        return NotDrafted(
            np.insert(self.hashes, at, other.hashes), np.insert(self.codes, at, other.codes)
        )

    def counts(self) -> dict[str, int]:
        found = np.bincount(self.codes, minlength=len(NOT_DRAFTED_REASONS))
        return {r: int(n) for r, n in zip(NOT_DRAFTED_REASONS, found.tolist(), strict=True)}

    def lines(self) -> Iterator[tuple[str, str]]:
        for n in range(len(self.codes)):
            yield self.hashes[n].decode("ascii"), NOT_DRAFTED_REASONS[self.codes[n]]


@dataclass(frozen=True)
class Picked:
    """The selection and the pick, as an engine ran them over the flags it
    held (``select_and_pick``): only the picked sessions' flags, the counts,
    and the hashes of the flagged sessions left out."""

    selection: Selection
    by_rule: dict[str, dict[str, int]]
    """{signal: {rule: sessions}} of the window's flagged sessions."""
    left: NotDrafted
    """The window's flagged sessions the pick left out, and why (``ordered``)."""
    sessions: int
    """Sessions read (any start)."""
    rows_read: Counter[tuple[str, str]]
    """Rows read by (dialect, event type as written)."""


#: The names the engine holds the flags relation (without the hits' lists)
#: and the hits relation under while the pick reads them.
FLAGS, FLAG_HITS = "miner_flags", "miner_flag_hits"
#: The flags relation's ``hits``: a session's hits, as the engines list them.
HITS_TYPE = pa.list_(
    pa.struct([("signal", pa.string()), ("rule", pa.string()), ("invocation_id", pa.string())])
)


def select_and_pick(
    engine: Queries,
    feedback: NegativeFeedback,
    signals_config: Any,
    since: datetime,
    until: datetime,
    plan: PickPlan,
    where: str = "<rows>",
) -> Picked:
    """The selection and the pick, as ``select`` then ``pick_sessions``,
    ``rules_fired`` and ``left_out`` would give them, without the flags of
    every flagged session in this process (a million in a big week, 1.1 GiB
    as a ``FlagTable``): the engine holds the flags relation; what comes back
    is each flagged session's failure-cause key, seeded rank and session
    hash (52 bytes a session, streamed in batches), the rules' counts, and
    the picked sessions' flags. The engine holds the hits a row each and
    the flags without their lists of hits (``flags_sql``): the picked
    sessions' lists are made here."""
    sessions, in_window, counts = _counted(engine.table, since, until, where)
    signals = _signals(feedback, signals_config)
    slices = _flag_slices(in_window)
    engine.hold(FLAG_HITS, hits_sql(None, signals, since, until, sliced=slices > 1))
    # Counted before anything is let go: its DISTINCT over every hit spilled
    # under the lowered limit (0.24-0.34 s of CPU at 5M rows, 0.03 at 1M).
    by_rule = engine.table(
        "SELECT signal, rule, count(*) AS n FROM (SELECT DISTINCT session_id, signal, rule "
        f"FROM {FLAG_HITS}) r GROUP BY signal, rule"
    ).to_pylist()
    if slices == 1:
        engine.hold(FLAGS, flags_sql(FLAG_HITS, signals, hit_lists=False))
    else:
        # Each slice's flags added to the first's where they are made, not
        # held apart and copied into one table after: at 20M rows the copy
        # of 8 slices' flags took 0.99 s of CPU (0.07 at 5M's two: it
        # spilled). (Read as one union of the slices' tables instead, 16
        # small slices' scans pinned more than the limit the pick runs under.)
        for i, part in enumerate(_time_slices(engine, slices, since, until)):
            flags = flags_sql(FLAG_HITS, signals, False, part.sessions(), part.rows())
            (engine.add if i else engine.hold)(FLAGS, flags)
    # Only the flags are read from here on: the engine's memory goes to the
    # pick's arrays, which grow with the flagged sessions.
    engine.let_go("events")
    rows, hashes, ranks = _held_rows(engine, plan.seed)
    flagged = rows.flagged(np.arange(len(hashes)))
    drafted = _among(hashes[flagged], plan.drafted) if plan.drafted else None
    fresh = flagged if drafted is None else flagged[~drafted]
    # (Every row fresh, as on a first run: the ranks as they are, not a copy.)
    choice = _choose(
        rows, flagged, fresh, ranks if len(fresh) == len(ranks) else ranks[fresh], plan
    )
    del ranks
    left, reasons = _left(rows, flagged, choice.picked, drafted)
    selection = Selection(
        picked=_held_sessions(engine, hashes[choice.picked]),
        in_window=in_window,
        flagged=choice.flagged,
        already_drafted=len(flagged) - len(fresh),
        signatures=choice.signatures,
    )
    return Picked(
        selection,
        _by_signal({(r["signal"], r["rule"]): int(r["n"]) for r in by_rule}),
        NotDrafted(hashes[left], reasons).ordered(),
        sessions,
        counts,
    )


#: Sessions the flags are built for in one slice at most: the engine's
#: aggregates of a session's calls and errors, and the joins, hold memory
#: that grows with the sessions (at 160 MiB, 1,034,483 sessions' stopped
#: out of memory, now one step, now another).
FLAG_SLICE_SESSIONS = 250_000


def _flag_slices(sessions: int) -> int:
    """How many slices (``_time_slices``) the flags of ``sessions`` are built in."""
    slices = 1
    while slices < 16 and sessions > slices * FLAG_SLICE_SESSIONS:
        slices *= 2
    return slices


#: A slice may hold this many times its share of the hits (a minute in which
#: more sessions start than that cannot be cut): past it, the flags are
#: sliced by a hash of the session id instead (``HashSlice``).
SLICE_SHARE_MOST = 1.5
_MINUTE_US, _EPOCH = 60_000_000, datetime(1970, 1, 1, tzinfo=UTC)


def _time_slices(
    engine: Queries, slices: int, since: datetime, until: datetime
) -> Sequence[FlagSlice | HashSlice]:
    """``slices`` slices of the held hits' sessions (``FLAG_HITS``, sliced)
    by their start, each about as many hits, cut at whole minutes from
    ``since`` (the hits counted and their sessions' last row's time, a
    minute: a few thousand rows, integers: a truncation of time zone aware
    times cost 0.1 s of CPU at 5M rows' 517,000 hits, these 0.02): each
    slice's scans of ``events`` then read its own times' row groups. Where
    one minute holds more than a slice may (``SLICE_SHARE_MOST``), by a hash
    of the session id."""
    base = clamped(since)
    base_us = (base - _EPOCH) // timedelta(microseconds=1)
    minutes = engine.table(
        f"SELECT (epoch_us(start) - {base_us}) // {_MINUTE_US} AS minute, count(*) AS hits, "
        f"max(epoch_us({LAST_COLUMN})) AS last_us FROM {FLAG_HITS} GROUP BY minute "
        "ORDER BY minute"
    )
    minute, hits, last_us = (
        _chunk(minutes.column(c)).to_numpy(zero_copy_only=False).astype(np.int64)
        for c in ("minute", "hits", "last_us")
    )
    total = int(hits.sum())
    # Each minute's slice, by the hits before it (in order: each slice's
    # minutes are a run).
    part = np.minimum(slices - 1, (np.cumsum(hits) - hits) * slices // max(total, 1))
    if np.bincount(part, hits, slices).max(initial=0) > SLICE_SHARE_MOST * total / slices:
        return [HashSlice(i, slices) for i in range(slices)]
    first = np.searchsorted(part, np.arange(slices))
    has = np.bincount(part, minlength=slices) > 0
    # A slice's bounds: its first minute (``since`` for the first) to the
    # next slice's (``until`` for the last); an empty slice ends where it starts.
    bounds = [until]
    for i in reversed(range(1, slices)):
        bounds.append(base + timedelta(minutes=int(minute[first[i]])) if has[i] else bounds[-1])
    bounds = [since, *reversed(bounds)]
    lasts = np.full(slices, np.iinfo(np.int64).min)
    np.maximum.at(lasts, part, last_us)
    return [
        FlagSlice(
            bounds[i],
            bounds[i + 1],
            _EPOCH + timedelta(microseconds=int(lasts[i])) if has[i] else None,
        )
        for i in range(slices)
    ]


def _held_rows(engine: Queries, seed: int) -> tuple[_Codes, np.ndarray, np.ndarray]:
    """The flags the engine holds, by row: their codes (``_Codes``), session
    hashes (16 ASCII bytes) and seeded ranks (32 bytes), read a batch at a
    time into arrays sized first (not batches joined at the end: twice the
    memory)."""
    total = int(engine.table(f"SELECT count(*) AS n FROM {FLAGS}").column("n")[0].as_py())
    key = np.zeros(total, np.int32)
    hashes, ranks = np.zeros(total, "S16"), np.zeros(total, "S32")
    causes = _Causes()
    at = 0
    for batch in engine.batches(
        f"SELECT {', '.join(CAUSE_COLUMNS)}, {SESSION_HASH_SQL} AS hash, "
        f"{_rank_sql(seed)} AS rank FROM {FLAGS}"
    ):
        end = at + batch.num_rows
        key[at:end] = causes.code(batch)
        hashes[at:end] = _fixed(batch.column("hash"), 16)
        ranks[at:end] = _fixed(batch.column("rank"), 32)
        at = end
    if at != total:
        raise RuntimeError(f"{FLAGS}: {total} rows counted, {at} read")
    codes = causes.resolved()
    rows = _Codes(
        codes.signal_codes[key], codes.signal_sets, codes.signature_codes[key], codes.signatures
    )
    return rows, hashes, ranks


def _fixed(column: pa.Array | pa.ChunkedArray, width: int) -> np.ndarray:
    """A column of strings or bytes of ``width`` bytes each, as numpy ``S{width}``."""
    values = _chunk(column).cast(pa.binary()).cast(pa.binary(width))
    data = values.buffers()[1]
    if data is None:
        return np.zeros(0, f"S{width}")
    return np.frombuffer(data, f"S{width}", len(values), values.offset * width)


def _held_sessions(engine: Queries, hashes: np.ndarray) -> tuple[SessionFlags, ...]:
    """The flags of the sessions of ``hashes``, in that order, read from the
    flags the engine holds."""
    if not len(hashes):
        return ()
    wanted = [h.decode("ascii") for h in hashes.tolist()]
    flags = engine.table(
        f"SELECT {', '.join(c for c in FLAG_COLUMNS if c != 'hits')} FROM {FLAGS} "
        f"WHERE {SESSION_HASH_SQL} IN ({listed(wanted)})"
    )
    ids = flags.column("session_id").to_pylist()
    # Their hits a row each, listed here: DuckDB's ``list`` aggregate asked
    # for more than 10 MiB even over these few sessions (200,000 rows). Found
    # by their ids, now known, not by hashing every hit's id again (0.03 s of
    # CPU for 1M rows' 103,448 hits).
    lists: dict[str, list[dict[str, Any]]] = {session_id: [] for session_id in ids}
    for hit in engine.table(
        f"SELECT session_id, signal, rule, invocation_id FROM {FLAG_HITS} "
        f"WHERE {one_of('session_id', ids)}"
    ).to_pylist():
        lists[hit.pop("session_id")].append(hit)
    hits = pa.array([lists[session_id] for session_id in ids], HITS_TYPE)
    found = FlagTable(flags.add_column(FLAG_COLUMNS.index("hits"), "hits", hits))
    row = {session_hash(session_id): i for i, session_id in enumerate(found.ids)}
    return tuple(found.session(row[h]) for h in wanted)
