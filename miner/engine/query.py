"""The selection as SQL, in DuckDB's dialect; ``render`` transpiles it
(sqlglot) for Spark SQL and BigQuery. Two queries over the ``events`` view:

- ``selection_sql``, the flags relation: one row per flagged session that
  starts in the window (``FLAG_COLUMNS``): its start, the signals that fired
  (sorted, joined by ``+``), its hits (a list of ``signal, rule,
  invocation_id``), its tool path (the distinct tools of its 50 earliest
  calls, in the order of their first calls, joined by ``>``), its
  earliest error message and the tool whose call raised the earliest tool
  error (failure causes, ``miner.sample.signature_of``). This
  is the query ``miner sql`` prints for the warehouse.
- ``counts_sql``, what the run reports and checks (``COUNT_PARTS``): rows
  read by dialect and event type as written; sessions read, and those that
  start in the window; rows without a session id, by file (the run stops on
  them); the first row whose payload is not JSON (the run stops).

Rows are read from ``scan_since`` to ``scan_until`` (the window and the
sessions' grace either side), and a session is in the window when its first
row is; both are ``miner.window.Window`` rendered as SQL.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from miner.dialects import raw_event_types
from miner.engine.events import EVENTS_CTES, ROW_COLUMNS, FieldType, events_ctes
from miner.engine.sql import key_path, listed, name, text
from miner.signals import Signal
from miner.window import Window

#: The flags relation's columns, in order.
FLAG_COLUMNS = ("session_id", "start", "signals", "hits", "path", "error", "error_tool")
COUNT_PARTS = ("rows", "sessions", "in_window", "orphans", "bad")
#: ``counts_sql``'s columns, in order.
COUNT_COLUMNS = ("part", "dialect", "session_id", "invocation_id", "name", "ts", "n", "source_file")
#: What a bytes payload that is not UTF-8 reads as (then refused, by name).
NOT_UTF8 = "miner: not valid UTF-8"
#: Calls a signature's tool path is made of (the earliest ones).
SIGNATURE_CALLS = 50


def scan_types(signals: Iterable[type[Signal] | Signal]) -> list[str]:
    """Every plugin's name for the event types the signals read."""
    return raw_event_types(kind for signal in signals for kind in signal.kinds)


def rows_sql(
    source: str,
    present: Iterable[str],
    scan_since: datetime,
    scan_until: datetime,
    kinds: Sequence[str] | None,
    day_partitions: bool = False,
    source_file: str | None = None,
    json_columns: Iterable[str] = (),
    binary_columns: Iterable[str] = (),
) -> str:
    """The rows the selection reads from ``source``: ``ROW_COLUMNS`` (those
    not ``present`` as NULL), rows in the scan's window of ``kinds`` (event
    types as written), with status ERROR, or without a session id; with
    ``kinds`` None, every row in the window. With
    ``day_partitions``, the hive ``dt`` partitions are pruned by day first.
    ``source_file``: the column naming each row's file. ``json_columns``
    are of a JSON type (BigQuery's plugin table) and read as their text;
    ``binary_columns`` hold bytes, read as UTF-8 text (``NOT_UTF8`` where
    they are not)."""
    have, json, binary = set(present), set(json_columns), set(binary_columns)
    columns = []
    for column in ROW_COLUMNS:
        if column == "source_file" and source_file is not None:
            columns.append(f"{name(source_file)} AS source_file")
        elif column in have and column in binary:
            quoted = name(column)
            columns.append(
                f"CASE WHEN {quoted} IS NOT NULL AND try(decode({quoted})) IS NULL "
                f"THEN {text(NOT_UTF8)} ELSE try(decode({quoted})) END AS {quoted}"
            )
        elif column in have and column in json:
            columns.append(f"to_json_text({name(column)}) AS {name(column)}")
        elif column in have:
            columns.append(name(column))
        else:
            columns.append(f"CAST(NULL AS VARCHAR) AS {name(column)}")
    where = [Window(scan_since, scan_until).sql('"timestamp"', days=day_partitions)]
    if kinds is not None:
        # Rows without a session are read whatever their type: the selection
        # counts them (``orphans``) and the run stops on them.
        wanted = f"session_id IS NULL OR event_type IN ({listed(kinds)})"
        where.append(f"({wanted} OR status = 'ERROR')" if "status" in have else f"({wanted})")
    return f"SELECT {', '.join(columns)} FROM {source} WHERE {' AND '.join(where)}"


def events_sql(rows: str, go_rows: bool = True) -> str:
    """The ``events`` view over ``rows`` (``rows_sql``), as one query (for an
    engine that keeps it, as Spark caches it); ``go_rows`` False where no row
    is the Go plugin's (``events_ctes``)."""
    ctes = ",\n".join(
        f"{cte} AS (\n{body}\n)" for cte, body in [("miner_rows", rows), *events_ctes(go_rows)]
    )
    return f"WITH {ctes}\nSELECT * FROM events"


def _starts() -> tuple[str, str]:
    return (
        "miner_starts",
        "SELECT session_id, min(ts) AS start FROM events WHERE session_id IS NOT NULL "
        "GROUP BY session_id",
    )


class Stepped(str):
    """A ``WITH`` query (its text, as any engine runs it) that also keeps its
    parts: the named steps in order and the final query over them. The
    embedded engine runs each step into a table of its own
    (``miner.engine.duck``): DuckDB holds a CTE read twice, a window or an
    ordered aggregate over it, in buffers it cannot spill."""

    steps: tuple[tuple[str, str], ...]
    final: str

    def __new__(cls, steps: Sequence[tuple[str, str]], final: str) -> Stepped:
        with_ = ",\n".join(f"{cte} AS (\n{body}\n)" for cte, body in steps)
        made = super().__new__(cls, f"WITH {with_}\n{final}")
        made.steps, made.final = tuple(steps), final
        return made


def _with(ctes: Sequence[tuple[str, str]], query: str) -> Stepped:
    return Stepped(ctes, query)


def selection_sql(
    rows: str | None, signals: Sequence[Signal], since: datetime, until: datetime
) -> Stepped:
    """The flags relation (``FLAG_COLUMNS``) over ``rows`` (``rows_sql``);
    with ``rows`` None, over a relation named ``events`` the engine holds
    (``events_sql``): ``flags_sql`` over ``hits_sql``, in one query."""
    hits = hits_sql(rows, signals, since, until)
    flags = flags_sql(HITS, signals)
    return _with([*hits.steps, (HITS, hits.final), *flags.steps], flags.final)


#: The hits relation's columns (``hits_sql``), in order.
HIT_COLUMNS = ("signal", "session_id", "invocation_id", "rule", "start")
#: The hits relation's name where the flags are computed over it.
HITS = "miner_hits"


def hits_sql(
    rows: str | None,
    signals: Sequence[Signal],
    since: datetime,
    until: datetime,
    sliced: bool = False,
) -> Stepped:
    """Every hit of the sessions starting in the window (``HIT_COLUMNS``, a
    row each, ``start`` the session's) over ``rows`` (``rows_sql``), or with
    ``rows`` None over the ``events`` the engine holds. ``sliced``: each hit
    also carries the time of its session's last row (``LAST_COLUMN``), which
    bounds the rows a slice of the flags reads (``FlagSlice``)."""
    ctes = [] if rows is None else [("miner_rows", rows), *EVENTS_CTES]
    ctes.append(("turns", turns_sql(signals, last=sliced)))
    for signal in signals:
        for step, body in signal.steps():
            if not step.startswith(f"{signal.name}_"):
                raise ValueError(f"signal {signal.name}: step {step!r} clashes")
            ctes.append((step, body))
    # Each signal's hits are a step: in one query, DuckDB runs every
    # signal's aggregates and joins at once, and their buffers together
    # outgrew 160 MiB at 20M rows where each alone spills.
    ctes += [(_hits_step(s), s.sql()) for s in signals]
    hits = " UNION ALL ".join(
        f"SELECT {text(s.name)} AS signal, session_id, invocation_id, rule "
        f"FROM {name(_hits_step(s))}"
        for s in signals
    ) or (
        "SELECT CAST(NULL AS VARCHAR) AS signal, CAST(NULL AS VARCHAR) AS session_id, "
        "CAST(NULL AS VARCHAR) AS invocation_id, CAST(NULL AS VARCHAR) AS rule FROM events "
        "WHERE false"
    )
    last = f", max({LAST_COLUMN}) AS {LAST_COLUMN}" if sliced else ""
    ctes.append(
        (
            "miner_starts",
            f"SELECT session_id, min(start) AS start{last} FROM turns "
            "WHERE session_id IS NOT NULL GROUP BY session_id",
        )
    )
    # Each signal gives each hit once (``Signal.sql``): no DISTINCT over
    # every hit (a hash table of five columns, 0.1 s of CPU per 100,000
    # hits).
    return _with(
        ctes,
        "SELECT h.signal, h.session_id, h.invocation_id, h.rule, s.start"
        f"{f', s.{LAST_COLUMN}' if sliced else ''} "
        f"FROM ({hits}) h JOIN miner_starts s ON s.session_id = h.session_id "
        f"WHERE {Window(since, until).sql('s.start')}",
    )


def hit_lists_sql(hits: str) -> str:
    """Each session's hits in ``hits`` (``hits_sql``) as one list of structs
    (``signal``, ``rule``, ``invocation_id``). DuckDB's ``list`` aggregate
    holds its lists in memory it does not spill (52,000 sessions' lists
    asked for more than 40 MiB): the embedded pick lists the picked
    sessions' hits alone (``miner.sample``)."""
    return (
        "SELECT session_id, list(struct_pack(signal := signal, rule := rule, "
        f"invocation_id := invocation_id)) AS hits FROM {name(hits)} GROUP BY session_id"
    )


def flags_sql(
    hits: str,
    signals: Sequence[Signal],
    hit_lists: bool = True,
    sessions: str = "true",
    rows: str = "true",
) -> Stepped:
    """The flags relation (``FLAG_COLUMNS``; without ``hits`` unless
    ``hit_lists``) over the hits relation named ``hits`` (``hits_sql``) and
    the ``events`` the engine holds: a row per flagged session, of the
    sessions the condition ``sessions`` holds for, whose rows of ``events``
    the condition ``rows`` holds for (``FlagSlice``)."""
    ctes = [
        (
            "miner_flagged",
            f"SELECT session_id, min(start) AS start, {_signals_fired(signals)} AS signals "
            f"FROM {name(hits)} WHERE {sessions} GROUP BY session_id",
        ),
        (
            # A flagged session's calls by tool: the first one's time.
            "miner_calls",
            "SELECT session_id, tool, min(ts) AS first, count(*) AS calls FROM events "
            f"WHERE kind = 'TOOL_STARTING' AND tool <> '' AND {rows} "
            "AND session_id IN (SELECT session_id FROM miner_flagged) GROUP BY session_id, tool",
        ),
        (
            # The same over the first ``SIGNATURE_CALLS`` calls alone, for the
            # sessions of more calls: a window, which DuckDB holds in memory
            # it does not spill (20,000 sessions' calls asked for more than
            # 28 MiB), over these few sessions only.
            "miner_long_calls",
            "SELECT session_id, tool, min(ts) AS first FROM (SELECT session_id, tool, ts, "
            "row_number() OVER (PARTITION BY session_id ORDER BY ts, tool) AS n FROM events "
            f"WHERE kind = 'TOOL_STARTING' AND tool <> '' AND {rows} AND session_id IN "
            "(SELECT session_id FROM miner_calls GROUP BY session_id "
            f"HAVING sum(calls) > {SIGNATURE_CALLS})) c "
            f"WHERE n <= {SIGNATURE_CALLS} GROUP BY session_id, tool",
        ),
        (
            "miner_paths",
            # The tools in the order of their first calls (as the calls are
            # ordered: by time, then tool; neither is ever null): a list of
            # (first, tool) sorted, not an ordered ``string_agg``, which
            # DuckDB runs by sorting each session's rows apart (0.10 s of
            # CPU and 113 MB allocated for 1M rows' 51,724 sessions, against
            # 0.04 s and 25 MB). BigQuery, which has no list lambdas, gets
            # the ordered aggregate back (``_portable``).
            f"SELECT session_id, {_ordered_join('tool', 'first', '>')} AS path "
            "FROM (SELECT session_id, tool, first FROM miner_calls "
            "WHERE session_id NOT IN (SELECT session_id FROM miner_long_calls) UNION ALL "
            "SELECT session_id, tool, first FROM miner_long_calls) t GROUP BY session_id",
        ),
        (
            # The earliest error message, and the tool whose call raised the
            # earliest tool error (a cause's failing tool), in one scan of
            # the error rows (``arg_min`` skips the rows its order is null on).
            "miner_errors",
            "SELECT session_id, arg_min(error_message, ts) AS error, "
            "arg_min(CASE WHEN tool <> '' THEN tool END, CASE WHEN tool <> '' THEN ts END) "
            f"AS error_tool FROM events WHERE error_message <> '' AND {rows} "
            "AND session_id IN (SELECT session_id FROM miner_flagged) GROUP BY session_id",
        ),
    ]
    # One join a step: in one query, DuckDB holds both joins' tables at
    # once, which outgrew 160 MiB at 20M rows where each alone spills.
    ctes.append(
        (
            "miner_pathed",
            "SELECT f.session_id, f.start, f.signals, p.path FROM miner_flagged f "
            "LEFT JOIN miner_paths p ON p.session_id = f.session_id",
        )
    )
    lists, joined = "", ""
    if hit_lists:
        ctes.append(("miner_hit_lists", hit_lists_sql(hits)))
        lists = "l.hits, "
        joined = " JOIN miner_hit_lists l ON l.session_id = f.session_id"
    return _with(
        ctes,
        f"SELECT f.session_id, f.start, f.signals, {lists}f.path, e.error, e.error_tool "
        f"FROM miner_pathed f{joined} "
        "LEFT JOIN miner_errors e ON e.session_id = f.session_id",
    )


def _ordered_join(value: str, key: str, separator: str) -> str:
    """SQL aggregate: the group's ``value`` texts joined by ``separator`` in
    the order of ``key``, then of ``value`` (as ``string_agg(value,
    separator ORDER BY key, value)``), through a sorted list of the pairs.
    Neither may be null (a null sorts last here, first in BigQuery's
    rendering)."""
    pairs = f"list(struct_pack({_ORDER} := {key}, {_ITEM} := {value}))"
    return (
        f"array_to_string(list_transform(list_sort({pairs}), lambda x: x.{_ITEM}), "
        f"{text(separator)})"
    )


#: The fields of ``_ordered_join``'s pairs.
_ORDER, _ITEM = "miner_order", "miner_item"


#: The hits' column (``hits_sql``, sliced) holding the time of their
#: session's last row.
LAST_COLUMN = "last_ts"


@dataclass(frozen=True)
class FlagSlice:
    """A slice of the flags (``flags_sql``): the sessions that start in
    ``[since, until)``, whose rows all lie in ``[since, last]``. A slice's
    steps scan ``events`` for its sessions' calls and errors; bounded by
    time, DuckDB skips the row groups of other times by their statistics (the
    table is written as the export is read, a day's files together), where a
    slice by a hash of the session id read every row (8 slices at 20M rows)."""

    since: datetime
    until: datetime
    last: datetime | None
    """The time of its sessions' last row; None: it has no session."""

    def sessions(self) -> str:
        """SQL condition on a hit of ``hits_sql`` (sliced): its session is in the slice."""
        return Window(self.since, self.until).sql("start")

    def rows(self) -> str:
        """SQL condition on a row of ``events``: it may be a row of the
        slice's sessions (a row's time is at least its session's start)."""
        if self.last is None:
            return "false"
        return Window(self.since, self.last + timedelta(microseconds=1)).sql("ts")


@dataclass(frozen=True)
class HashSlice:
    """The ``part``-th of ``parts`` slices of the flags (a power of two up to
    16) by the first hex digit of a hash of the session id: where the
    sessions cannot be cut by their start (``FlagSlice``: too many start in
    one minute). Each slice's steps read every row of ``events``."""

    part: int
    parts: int

    def sessions(self) -> str:
        digits = [f"{d:x}" for d in range(16) if d % self.parts == self.part]
        return f"left(sha256('miner-slice:' || session_id), 1) IN ({listed(digits)})"

    def rows(self) -> str:
        return "true"


def _hits_step(signal: Signal) -> str:
    """The step holding ``signal``'s hits (``Signal.sql``)."""
    return f"miner_hits_{signal.name}"


def turns_sql(signals: Sequence[Signal], last: bool = False) -> str:
    """``turns``: one row per session and invocation of ``events``, with its
    first row's time (``start``), with ``last`` its last row's
    (``LAST_COLUMN``), and every signal's ``turn_columns``, all aggregated
    in one pass (a scan of ``events`` per signal costs more than every
    aggregate together), over the signals' ``row_columns``."""
    columns = {"start": "min(ts)", **({LAST_COLUMN: "max(ts)"} if last else {})}
    values: dict[str, str] = {}
    for signal in signals:
        for kind, named, written in (
            ("turn", columns, signal.turn_columns()),
            ("row", values, signal.row_columns()),
        ):
            for column, sql in written.items():
                if (
                    column in columns
                    or column in values
                    or not column.startswith(f"{signal.name}_")
                ):
                    raise ValueError(f"signal {signal.name}: {kind} column {column!r} clashes")
                named[column] = sql
    aggregates = ", ".join(f"{sql} AS {name(column)}" for column, sql in columns.items())
    rows = "events"
    if values:
        # Computed in a select of their own, once a row: the aggregates
        # reading a value in their CASEs would compute it once each.
        each = ", ".join(f"{sql} AS {name(column)}" for column, sql in values.items())
        rows = f"(SELECT *, {each} FROM events) AS miner_row_values"
    return (
        f"SELECT session_id, invocation_id, {aggregates} FROM {rows} "
        "GROUP BY session_id, invocation_id"
    )


def _signals_fired(signals: Sequence[Signal]) -> str:
    """SQL aggregate: the names of the signals among a session's hits, sorted
    and joined by ``+``. One ``bool_or`` per signal, not an ordered
    ``string_agg(DISTINCT ...)``: beside the hits' ``list``, DuckDB runs a
    DISTINCT, ordered aggregate by sorting every group (2 s of CPU on 196,784
    flagged sessions against 0.04 s)."""
    fired = [
        f"CASE WHEN bool_or(signal = {text(n)}) THEN {text(n)} END"
        for n in sorted({s.name for s in signals})
    ]
    return f"concat_ws('+', {', '.join(fired)})" if fired else "CAST(NULL AS VARCHAR)"


def counts_sql(since: datetime, until: datetime) -> Stepped:
    """What the run reports and checks (``COUNT_COLUMNS``, a row per
    ``COUNT_PARTS`` item), over the ``events`` the engine holds."""
    null_text, null_time, null_n = (
        "CAST(NULL AS VARCHAR)",
        "CAST(NULL AS TIMESTAMPTZ)",
        "CAST(NULL AS BIGINT)",
    )
    parts = [
        f"SELECT 'rows' AS part, dialect, {null_text} AS session_id, {null_text} AS "
        f"invocation_id, raw_type AS name, {null_time} AS ts, count(*) AS n, {null_text} AS "
        "source_file FROM events GROUP BY dialect, raw_type",
        f"SELECT 'sessions', {null_text}, {null_text}, {null_text}, {null_text}, {null_time}, "
        f"count(*), {null_text} FROM miner_starts",
        f"SELECT 'in_window', {null_text}, {null_text}, {null_text}, {null_text}, {null_time}, "
        f"count(*), {null_text} FROM miner_starts WHERE {Window(since, until).sql('start')}",
        f"SELECT 'orphans', {null_text}, {null_text}, {null_text}, source_file, {null_time}, "
        f"count(*), {null_text} FROM events WHERE session_id IS NULL GROUP BY source_file",
        # The payload itself, to say what is wrong with it (never shown).
        "SELECT * FROM (SELECT 'bad', raw_type, session_id, invocation_id, "
        f"bad_text, ts, {null_n}, source_file FROM events WHERE bad_payload LIMIT 1) bad",
    ]
    return _with([_starts()], "\nUNION ALL ".join(parts))


DIALECTS = ("duckdb", "spark", "bigquery")


def _extracted_fields(transform: Any, dialect: str) -> Any:
    """DuckDB's ``try(json_transform(value, schema))`` (``parsed_fields``:
    one parse, a struct) where there is no such function: a struct of one
    extraction per key (``_extracted``), NULL where ``value`` is not JSON."""
    import sqlglot
    from sqlglot import exp

    value, schema = transform.expressions
    fields = [
        exp.PropertyEQ(
            this=exp.to_identifier(key), expression=_extracted(value, key, kind, dialect)
        )
        for key, kind in json.loads(schema.name).items()
    ]
    valid = sqlglot.parse_one(f"json_valid({value.sql('duckdb')})", read="duckdb")
    return exp.Case().when(valid.transform(_portable(dialect)), exp.Struct(expressions=fields))


def _extracted_list(extraction: Any, dialect: str) -> Any:
    """DuckDB's ``json_extract(value, [path, ...])`` (a JSON text parsed
    once, a list of each path's value as JSON text) where no function takes
    a list of paths: a list of one extraction a path (Spark's and BigQuery's
    JSON paths, ``$['error.code']``, from DuckDB's ``$."error.code"``).
    Each value JSON text in every dialect, a string quoted: Spark's
    ``GET_JSON_OBJECT`` gives a string bare, so the string "0" read as the
    number 0 (``miner.signals.error``: a failure on DuckDB, none on Spark);
    there the value goes through a VARIANT, whose ``to_json`` quotes it."""
    import sqlglot
    from sqlglot import exp

    value = extraction.this.sql("duckdb")
    items = []
    for path in extraction.expression.expressions:
        item = sqlglot.parse_one(f"json_extract({value}, {path.sql('duckdb')})", read="duckdb")
        if dialect == "spark":
            read, spark_path = item.this.sql("spark"), item.expression.sql("spark")
            item = sqlglot.parse_one(
                f"TO_JSON(TRY_VARIANT_GET(TRY_PARSE_JSON({read}), {spark_path}, 'variant'))",
                read="spark",
            )
        items.append(item)
    return exp.Array(expressions=items)


def _extracted(value: Any, key: str, kind: FieldType, dialect: str) -> Any:
    """The JSON text ``value``'s ``key`` as ``json_transform`` reads a field
    of ``kind`` (``FieldType``), in ``dialect`` (Spark's or BigQuery's). A
    list of structs is the key's items as JSON texts, in order (Spark's
    ``from_json`` as ``array<string>``, BigQuery's ``JSON_QUERY_ARRAY``),
    each item's keys extracted as strings are: an item that is not an object
    has them NULL, and a key that is not a list has no items, as in DuckDB.
    (Spark's ``array<struct<...>>`` schema reads neither alike: it wraps an
    object in a list, and drops a list holding an item that is not one.)"""
    import sqlglot
    from sqlglot import exp

    path = key_path(key)
    if kind == "VARCHAR":
        written = f"json_extract_string({value.sql('duckdb')}, {path})"
    elif kind == "JSON":
        written = f"CAST(json_extract({value.sql('duckdb')}, {path}) AS VARCHAR)"
    elif isinstance(kind, list) and len(kind) == 1 and set(kind[0].values()) == {"VARCHAR"}:
        item, read = "miner_item", value.sql(dialect)
        keys = {
            k: _extracted(exp.column(item), k, "VARCHAR", dialect).sql(dialect) for k in kind[0]
        }
        if dialect == "spark":
            struct = ", ".join(f"{text(k)}, {v}" for k, v in keys.items())
            written = (
                f"TRANSFORM(FROM_JSON(GET_JSON_OBJECT({read}, {path}), 'array<string>'), "
                f"{item} -> NAMED_STRUCT({struct}))"
            )
        else:
            struct = ", ".join(f"{v} AS `{k}`" for k, v in keys.items())
            written = (
                f"ARRAY(SELECT AS STRUCT {struct} FROM UNNEST(JSON_QUERY_ARRAY({read}, {path})) "
                f"AS {item} WITH OFFSET AS miner_at ORDER BY miner_at)"
            )
        return sqlglot.parse_one(written, read=dialect)
    else:
        raise ValueError(f"json_transform type {kind!r} has no {dialect} rendering")
    return sqlglot.parse_one(written, read="duckdb").transform(_portable(dialect))


def render(sql: str, dialect: str, pretty: bool = False) -> str:
    """``sql`` (DuckDB's dialect) in ``dialect`` (one of ``DIALECTS``)."""
    import sqlglot

    if dialect == "duckdb" and not pretty and "to_json_text(" not in sql:
        return sql
    tree = sqlglot.parse_one(sql, read="duckdb").transform(_portable(dialect))
    return tree.sql(dialect=dialect, pretty=pretty)


def _string_agg(node: Any) -> Any:
    """``_ordered_join``'s sorted list of pairs as BigQuery's ordered
    ``STRING_AGG`` (BigQuery has no lambdas); None for any other node."""
    import sqlglot
    from sqlglot import exp

    if not (
        isinstance(node, exp.ArrayToString)
        and isinstance(node.this, exp.Transform)
        and isinstance(node.this.this, exp.ArraySort)
        and isinstance(node.this.this.this, exp.ArrayAgg)
        and isinstance(node.this.this.this.this, exp.Struct)
    ):
        return None
    fields = {f.this.name: f.expression for f in node.this.this.this.this.expressions}
    if set(fields) != {_ORDER, _ITEM}:
        return None
    item, order = fields[_ITEM].sql("bigquery"), fields[_ORDER].sql("bigquery")
    separator = node.expression.sql("bigquery")
    return sqlglot.parse_one(
        f"STRING_AGG({item}, {separator} ORDER BY {order}, {item})", read="bigquery"
    )


def _portable(dialect: str) -> Any:
    """What sqlglot does not map by itself: JSON validity and JSON columns'
    text; in BigQuery, a time difference and a join of parts."""
    from sqlglot import exp

    def rewrite(node: exp.Expression) -> exp.Expression:
        if isinstance(node, exp.Anonymous) and node.name.lower() == "to_json_text":
            [value] = node.expressions
            return (
                exp.Anonymous(this="TO_JSON_STRING", expressions=[value])
                if dialect == "bigquery"
                else value
            )
        if (
            dialect != "duckdb"
            and isinstance(node, exp.Cast)
            and isinstance(node.this, exp.Try)
            and isinstance(node.this.this, exp.Anonymous)
            and node.this.this.name.lower() == "json_transform"
        ):
            # ``parsed_fields``, cast to the struct DuckDB's function gives.
            return _extracted_fields(node.this.this, dialect)
        if (
            dialect != "duckdb"
            and isinstance(node, exp.JSONExtract)
            and isinstance(node.expression, exp.Array)
        ):
            # DuckDB's extraction of a list of paths, one parse for them
            # all (``Error.row_columns``): a list of one extraction a path.
            return _extracted_list(node, dialect)
        if dialect != "duckdb" and isinstance(node, exp.Bracket) and not node.args.get("safe"):
            # DuckDB reads an index past a list's end as NULL (a Go message
            # of fewer parts than the view reads); Spark's ANSI mode and
            # BigQuery's OFFSET raise. Indexes are kept from 0 here.
            node = node.copy()
            node.set("safe", True)
            node.set("offset", 0)
            return node
        if isinstance(node, exp.Anonymous) and node.name.lower() == "json_valid":
            if dialect == "duckdb":
                return node
            [value] = node.expressions
            parse = "try_parse_json" if dialect == "spark" else "SAFE.PARSE_JSON"
            return exp.Not(this=exp.Is(this=exp.func(parse, value), expression=exp.Null()))
        if isinstance(node, exp.Anonymous) and node.name.lower() == "epoch_us":
            # A time's microseconds since 1970 (``miner.sample``'s slices).
            if dialect == "duckdb":
                return node
            return exp.Anonymous(this="UNIX_MICROS", expressions=node.expressions)
        if dialect != "duckdb" and isinstance(node, exp.RegexpReplace):
            modifiers = node.args.get("modifiers")
            if modifiers is not None:
                # DuckDB replaces every match only with 'g'; BigQuery and Spark
                # always do, and take no flags.
                if modifiers.name != "g":
                    raise ValueError(f"regexp_replace flags {modifiers.name!r} have no {dialect}")
                node = node.copy()
                node.set("modifiers", None)
            return node
        if dialect == "bigquery" and isinstance(node, exp.DateDiff):
            unit = node.args.get("unit")
            return exp.Anonymous(
                this="TIMESTAMP_DIFF",
                expressions=[node.this, node.expression, exp.var(unit.name if unit else "DAY")],
            )
        if dialect == "bigquery" and (joined := _string_agg(node)) is not None:
            return joined
        if dialect == "bigquery" and isinstance(node, exp.ConcatWs):
            # A node replaced is not walked into: its parts are rewritten here.
            separator, *parts = (part.transform(rewrite) for part in node.expressions)
            return exp.Anonymous(
                this="ARRAY_TO_STRING", expressions=[exp.Array(expressions=parts), separator]
            )
        return node

    return rewrite
