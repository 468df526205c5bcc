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
all of them. A session is picked once, keeps all its signals, and counts
against the quota of the signal that picked it. The ledger remembers the
hashes of the signatures drafted, so next week prefers kinds not seen yet.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from miner.config import FeedbackConfig
from miner.dialects import (
    GO_EVENT_TYPES,
    GO_ONLY,
    arrow_rows,
    plain_call_tools,
    raw_event_types,
    read_event,
    text_column,
)
from miner.model import SIGNALS, SessionFlags
from miner.signals import REGISTRY, Context, Reason, Signal, tested_on

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
            "attributes",
            *(column for signal in REGISTRY for column in signal.columns),
        )
    )
)
#: Columns of SCAN_COLUMNS read on some event types only (null elsewhere):
#: the Go plugin names a tool call in ``attributes``, which the signatures'
#: tool paths need and no other row does.
SCAN_ONLY_ON: dict[str, tuple[str, ...]] = {
    "attributes": tuple(go for go, kind in GO_EVENT_TYPES.items() if kind == "TOOL_STARTING")
}


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


class _Shape:
    """What a session's signature is made of, gathered row by row in any
    order: its 50 earliest tool calls and its earliest error message (kept
    as written, masked only when a signature is made). The calls are two
    parallel lists, stamps and names: a call is added without making a tuple."""

    __slots__ = ("error", "stamps", "tools")

    def __init__(self) -> None:
        self.stamps: list[Any] = []
        self.tools: list[str] = []
        self.error: tuple[Any, str] | None = None

    def add_tool(self, stamp: Any, tool: str) -> None:
        self.add_tools((stamp,), (tool,))

    def add_tools(self, stamps: Sequence[Any], tools: Sequence[str]) -> None:
        """The calls, in order. Past 100 only the 50 earliest are kept (sorting
        is stable, so a trim at any point keeps the same 50)."""
        self.stamps.extend(stamps)
        self.tools.extend(tools)
        if len(self.stamps) > 100:
            earliest = self._earliest()
            self.stamps = [self.stamps[i] for i in earliest]
            self.tools = [self.tools[i] for i in earliest]

    def _earliest(self) -> list[int]:
        """Positions of the 50 earliest calls, earliest first (ties in the
        order they came)."""
        return sorted(range(len(self.stamps)), key=self.stamps.__getitem__)[:50]

    def add_error(self, stamp: Any, message: str) -> None:
        if self.error is None or stamp < self.error[0]:
            self.error = (stamp, message)

    def signature(self, signals: frozenset[str]) -> str:
        order = [self.tools[i] for i in self._earliest()]
        path = ">".join(dict.fromkeys(order)) or "no tools"
        parts = ["+".join(sorted(signals)), path]
        if self.error:
            parts.append(mask(self.error[1]))
        return " | ".join(parts)


class _Shapes(dict[str, _Shape]):
    """Each session's shape, made when first asked for."""

    def __missing__(self, session_id: str) -> _Shape:
        shape = self[session_id] = _Shape()
        return shape


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


def _arrow(batch: Any) -> Iterable[pa.RecordBatch]:
    """Arrow batches with a UTC timestamp (tests and callers may pass pandas)."""
    if isinstance(batch, pd.DataFrame):
        table = pa.Table.from_pandas(batch, preserve_index=False).combine_chunks()
        parts: Iterable[pa.RecordBatch] = table.to_batches()
    else:
        parts = [batch]
    for part in parts:
        stamp = part.schema.field("timestamp").type
        if pa.types.is_timestamp(stamp) and stamp.tz is None:  # a naive export column is UTC
            index = part.schema.get_field_index("timestamp")
            utc = part.column(index).cast(pa.timestamp(stamp.unit, tz="UTC"))
            part = part.set_column(index, "timestamp", utc)
        yield part


def _coalesced(batches: Iterable[pa.RecordBatch], rows: int = 20_000) -> Iterable[pa.RecordBatch]:
    """Small batches (one per row group of a small file) joined up to ``rows``:
    the whole-column work has a cost per batch, the row loop does not care."""
    pending: list[pa.RecordBatch] = []
    size = 0
    for batch in batches:
        if not batch.num_rows:
            continue
        pending.append(batch)
        size += batch.num_rows
        if size >= rows:
            yield _joined(pending)
            pending, size = [], 0
    if pending:
        yield _joined(pending)


def _joined(batches: list[pa.RecordBatch]) -> pa.RecordBatch:
    if len(batches) == 1:
        return batches[0]
    tables = [pa.Table.from_batches([b]) for b in batches]
    table = pa.concat_tables(tables, promote_options="permissive").combine_chunks()
    return table.to_batches(max_chunksize=table.num_rows)[0]


@functools.cache
def _kinds_as_written(kinds: tuple[str, ...]) -> pa.Array:
    """``raw_event_types`` as an Arrow array, built once per signal."""
    return pa.array(raw_event_types(kinds))


#: Tool calls as each plugin writes them (TOOL_STARTING, Go's TOOL_START): a
#: session's signature names its tools whatever signal reads the rows.
_CALLS_AS_WRITTEN = pa.array(raw_event_types(["TOOL_STARTING"], event_rows=False))

#: Kinds whose Go rows are EVENT rows, told apart only by their payload.
_FROM_EVENT_ROWS = frozenset(("AGENT_RESPONSE", "MODEL_CALLS"))


def _column(batch: pa.RecordBatch, name: str) -> pa.Array | None:
    return batch.column(name) if name in batch.schema.names else None


def _fold(
    batch: pa.RecordBatch,
    signals: list[Signal],
    rows_read: Counter[tuple[str, str]],
    starts: list[pa.Table],
    reasons: dict[str, list[Reason]],
    scratch: dict[str, dict[str, dict[str, Any]]],
    shapes: _Shapes,
) -> None:
    """One batch into the signals' state. Whole columns decide which rows each
    signal needs (its kinds, its turn condition, its prefilter, or its own
    whole-column path); only those rows are then read one by one, and a
    row's payload is parsed once for all the signals that want it."""
    _record_starts(batch, starts)
    _count_dialects(batch, rows_read)
    inside = _column(batch, IN_WINDOW)
    if inside is not None:
        # A session that cannot start in the window is read for its start and
        # its row counts only (``miner.files.open_scan``).
        kept = pc.fill_null(inside, True)
        if not pc.all(kept).as_py():
            batch = batch.filter(kept)
            if not batch.num_rows:
                return
    raw = batch.column("event_type")
    none = pa.array([False] * batch.num_rows, pa.bool_())
    is_event = pc.fill_null(pc.equal(raw, "EVENT"), False)
    status = _column(batch, "status")
    errored = pc.fill_null(pc.equal(status, "ERROR"), False) if status is not None else none
    stamps = _ticks(batch.column("timestamp"))
    _note_errors(batch, stamps, shapes)
    masks = [
        (signal, _rows_wanted(batch, signal, is_event, errored, scratch)) for signal in signals
    ]
    named = _name_calls(batch, stamps, shapes)
    is_call = pc.fill_null(pc.is_in(raw, value_set=_CALLS_AS_WRITTEN), False)
    # Rows read for the signature: calls not named on the columns.
    needed = pc.or_(pc.and_(is_call, pc.invert(named)), is_event)
    needed_rows = needed.to_numpy(zero_copy_only=False)
    for _signal, wanted in masks:
        needed_rows = needed_rows | wanted
    named_rows = named.to_numpy(zero_copy_only=False)
    positions = needed_rows.nonzero()[0]
    for position, row in zip(positions, arrow_rows(batch, positions), strict=True):
        event = read_event(row)
        sid = str(row.session_id)
        if event.kind == "TOOL_STARTING" and event.tool and not named_rows[position]:
            shapes[sid].add_tool(stamps[position], event.tool)
        for signal, wanted in masks:
            if not wanted[position] or (
                event.kind not in signal.kinds
                and not (signal.all_rows and getattr(row, "status", None) == "ERROR")
            ):
                continue
            session = scratch.setdefault(sid, {})
            found = signal.row(event, row, session.setdefault(signal.name, {}))
            if found:
                reasons.setdefault(sid, []).extend(found)


def _ticks(stamps: pa.Array) -> Any:
    """The rows' timestamps as the signatures compare them: integer
    nanoseconds in a numpy array (a Python datetime per row costs ten times
    as much to make), or the values themselves when the column is not a
    timestamp. Every scan's window is clamped to what nanoseconds can hold."""
    if not pa.types.is_timestamp(stamps.type):
        return stamps.to_pylist()
    ticks = stamps.cast(pa.timestamp("ns", tz=stamps.type.tz)).cast(pa.int64())
    return ticks.to_numpy(zero_copy_only=False)


def _pick(values: Any, rows: Any) -> list[Any]:
    """``values`` (a list or a numpy array) at positions ``rows``, as a list."""
    if isinstance(values, np.ndarray):
        return list(values[rows].tolist())
    return [values[row] for row in rows]


def _note_errors(batch: pa.RecordBatch, stamps: Any, shapes: _Shapes) -> None:
    """Add the rows' error messages (``error_message``, where it is text and
    not empty) to the signatures, on whole columns, in the batch's order."""
    message = text_column(batch, "error_message")
    if message is None:
        return
    written = pc.fill_null(pc.not_equal(message, ""), False)
    rows = np.flatnonzero(written.to_numpy(zero_copy_only=False))
    if not len(rows):
        return
    at, where = _pick(stamps, rows), pa.array(rows)
    sids = batch.column("session_id").take(where).to_pylist()
    texts = message.take(where).to_pylist()
    for sid, stamp, text in zip(sids, at, texts, strict=True):
        shapes[str(sid)].add_error(stamp, text)


def _record_starts(batch: pa.RecordBatch, starts: list[pa.Table]) -> None:
    """Each session's earliest timestamp in the batch (``_starts`` joins them)."""
    table = pa.Table.from_batches([batch.select(["session_id", "timestamp"])])
    starts.append(table.group_by("session_id").aggregate([("timestamp", "min")]))


def _starts(parts: list[pa.Table]) -> dict[str, datetime]:
    """Each session's earliest timestamp in the pass, in order of appearance."""
    if not parts:
        return {}
    table, earliest = pa.concat_tables(parts, promote_options="permissive"), "timestamp_min"
    if len(parts) > 1:
        table = table.group_by("session_id").aggregate([(earliest, "min")])
        earliest = "timestamp_min_min"
    sids, stamps = table.column("session_id").to_pylist(), _datetimes(table.column(earliest))
    return dict(zip(map(str, sids), stamps, strict=True))


def _datetimes(stamps: pa.ChunkedArray) -> list[Any]:
    """Timestamps as UTC datetimes (None for null), through numpy: Arrow makes
    a zoned datetime a hundred times slower. Nanoseconds are cut to
    microseconds, which decides ``since <= start < until`` alike, since the
    window's bounds are whole microseconds."""
    if not pa.types.is_timestamp(stamps.type):
        return stamps.to_pylist()
    naive = stamps.cast(pa.timestamp("us"), safe=False).to_numpy()
    return [None if d is None else d.replace(tzinfo=UTC) for d in naive.astype(object)]


def _rows_wanted(
    batch: pa.RecordBatch,
    signal: Signal,
    is_event: pa.Array,
    errored: pa.Array,
    scratch: dict[str, dict[str, dict[str, Any]]],
) -> Any:
    """The rows ``signal.row`` must read, as a numpy mask. A signal with a
    whole-column path (``take``) is given its rows here and needs none later
    but Go's EVENT rows among them, told apart only by their payload."""
    wanted = pc.fill_null(
        pc.is_in(batch.column("event_type"), value_set=_kinds_as_written(signal.kinds)), False
    )
    if signal.all_rows:
        wanted = pc.or_(wanted, errored)
    turn = _column(batch, turn_column(signal.name))
    if turn is not None:  # decided by the engine (turn_conditions)
        wanted = pc.and_(wanted, pc.fill_null(turn, True))

    def scratch_of(sid: str) -> dict[Any, Any]:
        return scratch.setdefault(sid, {}).setdefault(signal.name, {})

    plain = pc.and_(wanted, pc.invert(is_event))
    if type(signal).take is not Signal.take and signal.take(batch.filter(plain), scratch_of):
        wanted = pc.and_(wanted, is_event)
    elif type(signal).prefilter is not Signal.prefilter:
        # The prefilter sees the rows it could keep, not the whole batch: its
        # text tests (a regex over every payload) cost by the byte.
        wanted = tested_on(wanted, lambda rows: signal.prefilter(batch.filter(rows)))
    if set(signal.kinds) & _FROM_EVENT_ROWS:
        wanted = pc.or_(wanted, is_event)
    return wanted.to_numpy(zero_copy_only=False)


def _name_calls(batch: pa.RecordBatch, stamps: Any, shapes: _Shapes) -> pa.Array:
    """Add to the signatures the tool calls named on whole columns (where the
    payload is plain); returns which rows those were. The calls go to each
    session's shape a run at a time (a stable sort by session keeps the
    batch's order within each)."""
    tools = plain_call_tools(batch)
    named = pc.is_valid(tools)
    calls = pa.table(
        {"sid": batch.column("session_id"), "row": np.arange(batch.num_rows), "tool": tools}
    ).filter(pc.and_(named, pc.not_equal(tools, "")))
    if calls.num_rows:
        calls = calls.take(pc.sort_indices(calls, [("sid", "ascending")]))
        runs = pc.run_end_encode(calls.column("sid").combine_chunks())
        ends = runs.run_ends.to_pylist()
        at = _pick(stamps, calls.column("row").to_numpy())
        names = [sys.intern(tool) for tool in calls.column("tool").to_pylist()]
        begin = 0
        for sid, end in zip(runs.values.to_pylist(), ends, strict=True):
            shapes[str(sid)].add_tools(at[begin:end], names[begin:end])
            begin = end
    return named


def _count_dialects(batch: pa.RecordBatch, rows_read: Counter[tuple[str, str]]) -> None:
    """Rows by (dialect, event type as written), on whole columns, by the rules
    of ``miner.dialects.dialect_of``."""
    raw = pc.fill_null(batch.column("event_type"), "")
    none = pa.array([False] * batch.num_rows, pa.bool_())
    content = _column(batch, "content")
    event_id = _column(batch, "event_id")
    has_id = pc.is_valid(event_id) if event_id is not None else none
    no_content = pc.is_null(content) if content is not None else pc.invert(none)
    go = pc.or_(
        pc.is_in(raw, value_set=pa.array(sorted(GO_ONLY))),
        pc.and_(pc.and_(pc.equal(raw, "TOOL_ERROR"), no_content), pc.invert(has_id)),
    )
    answer = pc.equal(raw, "AGENT_RESPONSE")
    if content is not None and pa.types.is_string(content.type):
        java_answer = tested_on(
            answer, lambda rows: pc.match_substring(content.filter(rows), '"text_summary"')
        )
    else:
        java_answer = none
    python = pc.or_(
        pc.and_(has_id, pc.invert(java_answer)),
        pc.and_(pc.and_(answer, pc.invert(java_answer)), pc.invert(no_content)),
    )
    dialect = pc.if_else(go, "go", pc.if_else(python, "python", "java"))
    counts = pa.table({"d": dialect, "k": raw}).group_by(["d", "k"]).aggregate([("k", "count")])
    for item in counts.to_pylist():
        rows_read[(str(item["d"]), str(item["k"]))] += int(item["k_count"])


def _signals(feedback: NegativeFeedback, signals_config: Any) -> list[Signal]:
    context = Context(feedback.sessions, feedback.invocations)
    return [
        cls(getattr(signals_config, cls.name), context)
        for cls in REGISTRY
        if getattr(signals_config, cls.name).enabled
    ]


#: The column the engine adds to say a row's session may start in the window
#: (``miner.files.open_scan``'s ``window``); without it every row is read.
IN_WINDOW = "window:may_start"


def turn_column(signal: str) -> str:
    return f"turn:{signal}"


def turn_conditions(feedback: NegativeFeedback, signals_config: Any) -> dict[str, str]:
    """The enabled signals' turn conditions, by the column the engine adds
    for each (``miner.files.open_scan``)."""
    found = {}
    for signal in _signals(feedback, signals_config):
        condition = signal.turn_condition()
        if condition is not None:
            found[turn_column(signal.name)] = condition
    return found


def flag_sessions(
    batches: Iterable[pa.RecordBatch | pd.DataFrame],
    feedback: NegativeFeedback,
    signals_config: Any,
    rows_read: Counter[tuple[str, str]] | None = None,
) -> dict[str, SessionFlags]:
    """Fold event batches (SCAN_COLUMNS, any order; Arrow record batches, or
    DataFrames) into per-session flags: ``flag_passes`` with one pass."""
    return flag_passes([batches], feedback, signals_config, rows_read)


def flag_passes(
    passes: Iterable[Iterable[pa.RecordBatch | pd.DataFrame]],
    feedback: NegativeFeedback,
    signals_config: Any,
    rows_read: Counter[tuple[str, str]] | None = None,
) -> dict[str, SessionFlags]:
    """Per-session flags from passes over the export, each pass holding every
    row of its sessions (``miner.files.scan_passes``).

    The signals' scratch lives for one pass: at its end each session is
    finished into its flags and the scratch is dropped, so memory holds the
    flags of every session but the working state of one pass only.
    ``rows_read``, when given, counts the rows by (dialect, event type as
    written).
    """
    rows_read = rows_read if rows_read is not None else Counter()
    signals = _signals(feedback, signals_config)
    flags: dict[str, SessionFlags] = {}
    with _no_cycle_collection():
        for batches in passes:
            flags.update(_flag_pass(batches, signals, rows_read))
            # The pass's Arrow buffers are free now: hand them back rather
            # than let the allocator keep them for the next pass.
            pa.default_memory_pool().release_unused()
    return flags


@contextlib.contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector off for the scan. The scan makes millions of
    small containers (rows, scratch, flags) and no cycles that matter: the
    collector ran every few thousand allocations and walked every live
    object each time - 13 full collections, 0.9 s of a 5 s scan of the 4M
    bench window. Reference counting still frees everything the scan drops;
    the collector is restored (as it was) when the scan ends or fails."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _flag_pass(
    batches: Iterable[pa.RecordBatch | pd.DataFrame],
    signals: list[Signal],
    rows_read: Counter[tuple[str, str]],
) -> dict[str, SessionFlags]:
    starts: list[pa.Table] = []
    reasons: dict[str, list[Reason]] = {}
    scratch: dict[str, dict[str, dict[str, Any]]] = {}
    shapes = _Shapes()
    for arrow in _coalesced(part for b in batches for part in _arrow(b)):
        _fold(arrow, signals, rows_read, starts, reasons, scratch, shapes)

    flags = {}
    finishing = [s for s in signals if type(s).finish is not Signal.finish]
    for sid, start in _starts(starts).items():
        found = reasons.get(sid, [])
        session = scratch.get(sid, {})
        for signal in finishing:
            kept = session.get(signal.name)
            if kept is not None or signal.every_session:
                found.extend(signal.finish(sid, kept or {}))
        if not found:  # nothing fired: nothing to sort, name or sign
            flags[sid] = SessionFlags(sid, start)
            continue
        fired = _shared(frozenset(r.signal for r in found))
        signature = shapes[sid].signature(fired)
        flags[sid] = SessionFlags(
            session_id=sid,
            start=start,
            signals=fired,
            # Interned, as are the rules: thousands of sessions share each.
            signature=sys.intern(signature),
            # Sorted: rows come in export order, which is no order at all.
            reasons=tuple(
                Reason(r.signal, sys.intern(r.rule), r.invocation)
                for r in sorted(set(found), key=lambda r: (r.signal, str(r.invocation), r.rule))
            ),
        )
    return flags


_SIGNAL_SETS: dict[frozenset[str], frozenset[str]] = {}


def _shared(signals: frozenset[str]) -> frozenset[str]:
    """One object per distinct set of signals (there are a few dozen, and one
    flags record per session of the window)."""
    return _SIGNAL_SETS.setdefault(signals, signals)


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


def pick_sessions(
    flags: dict[str, SessionFlags],
    since: datetime,
    until: datetime,
    drafted: frozenset[str],
    per_signal: int,
    max_cases: int,
    seed: int,
    drafted_signatures: frozenset[str] = frozenset(),
) -> Selection:
    """Choose the sessions to draft; ``drafted`` holds session hashes of
    earlier runs, ``drafted_signatures`` the signature hashes."""
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
        while quota > 0 and any(round_ < len(groups[g]) for g in order):
            for g in order:
                if quota > 0 and round_ < len(groups[g]):
                    picked.append(groups[g][round_])
                    taken.add(groups[g][round_].session_id)
                    quota -= 1
            round_ += 1
    signatures: dict[str, int] = {}
    for f in bad:
        signatures[f.signature] = signatures.get(f.signature, 0) + 1
    return Selection(
        picked=tuple(picked),
        in_window=len(in_window),
        flagged=flagged,
        already_drafted=len(bad) - len(fresh),
        signatures=signatures,
    )
