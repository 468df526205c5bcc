"""The embedded engine: DuckDB, in the process that connects (the draft job's
forked child, ``miner.engine.apart``), runs the selection query
over the export (or over rows held in memory) under the ``[scan]`` settings
(``threads``, ``memory_limit``), spilling to a private temporary folder when
it must. The engine aggregates: nothing but the flags relation comes back.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from miner import window
from miner.config import ScanConfig
from miner.dialects import GO_ONLY
from miner.engine.events import GO_TOOL_ERROR, ROW_COLUMNS
from miner.engine.parquet import copy_remote, duckdb_table, iso_day_partitions
from miner.engine.query import Stepped, events_sql, rows_sql
from miner.engine.sql import listed, name, text
from miner.errors import ConfigError, InputError, MinerError
from miner.window import Window

if TYPE_CHECKING:
    import pandas as pd

#: A window that holds every row Arrow can time.
EARLIEST, LATEST = window.EARLIEST, window.LATEST


def reason(exc: BaseException) -> str:
    """The first line of an engine's error, without the input it may quote."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return first.split(" Input:", 1)[0][:200]


class Duck:
    """An open DuckDB connection (``connect``)."""

    def __init__(self, con: Any, scan: ScanConfig, spill: str, where: str) -> None:
        self.con, self.scan, self.spill, self.where = con, scan, spill, where
        #: ``memory_limit`` before anything was let go (``let_go``).
        self.full_limit: int | None = None

    def hold_events(self, rows: str, go_rows: bool = True, row_bytes: float | None = None) -> None:
        """Compute the ``events`` view over ``rows`` (``rows_sql``) once, into
        a table the selection's parts then read: inlined, the view would
        parse every payload once per signal (x3 the time on 4.6M rows). The
        table is in a database file in the private spill folder, which
        DuckDB compresses as it writes (9 MB for 1M rows against 146 MB
        spilled by a temporary table, which is not compressed); it is read
        back under ``memory_limit`` like the rest.

        Without DuckDB's rewrite of a long ``IN`` list into a join
        (``in_clause``): above that join, the view's columns were computed
        once per use instead of once per row (every payload parsed 2.3 times,
        counted on 50,000 rows of a real-shaped export).

        The table is ``events`` narrowed (``STORED_EVENTS``), under the view
        ``events`` that gives the selection its columns back: writing the
        table is half the CPU of building it, and goes with its columns.
        ``go_rows`` False says ``rows`` hold no row the Go plugin wrote
        (``selection_rows``): the view is then written without Go's terms
        (``events_ctes``: 0.1-0.4 s less CPU over 5M Python rows), no row's
        type is renamed, and the type as written is not stored
        (``stored_events_sql``).

        The table is written in no order, on every thread, where
        ``unordered_write_fits`` says that the threads' reads fit
        ``memory_limit`` (``row_bytes``: the uncompressed bytes per row of
        the columns read, ``Footers.row_bytes_of``; None, unknown: in order);
        in order, DuckDB writes it on one thread. Nothing after reads the
        table's order (every step groups, joins or sorts). An unordered
        write that DuckDB stops out of memory anyway is rolled back whole and
        written again in order."""

        def write(ordered: bool) -> None:
            self.con.execute(f"SET preserve_insertion_order = {str(ordered).lower()}")
            self.con.execute("SET disabled_optimizers = 'in_clause'")
            try:
                stored = stored_events_sql(events_sql(rows, go_rows), go_rows)
                self.con.execute(f"CREATE OR REPLACE TABLE {STORED_EVENTS} AS {stored}")
            finally:
                self.con.execute("RESET disabled_optimizers")

        def hold() -> None:
            import duckdb

            held = os.path.join(self.spill, "held.duckdb")
            self.con.execute(f"ATTACH IF NOT EXISTS {text(held)} AS miner_held")
            # Unqualified names are looked up among the temporary tables, then here.
            self.con.execute("USE miner_held")
            unordered = row_bytes is not None and unordered_write_fits(
                _setting_bytes(self.con, "memory_limit"), _threads(self.con), row_bytes
            )
            try:
                write(ordered=not unordered)
            except duckdb.OutOfMemoryException:
                if not unordered:
                    raise
                # The failed statement left nothing: DuckDB rolled it back.
                write(ordered=True)
            self.con.execute(f"CREATE OR REPLACE VIEW events AS {events_over_stored(go_rows)}")
            # The selection's tables have no order: kept, DuckDB buffers what
            # each step writes to keep it.
            self.con.execute("SET preserve_insertion_order = false")

        self._run(hold)

    def execute(self, sql: str) -> None:
        """Run a statement that returns no rows (``COPY``)."""
        self._run(lambda: self.con.execute(sql))

    def table(self, sql: str) -> pa.Table:
        """The query's rows, as Arrow. A ``Stepped`` query runs a step at a
        time, each into a temporary table dropped afterwards: a table spills
        under ``memory_limit``, where DuckDB's materialised CTEs and its
        window and ordered aggregates over them do not (the selection stopped
        out of memory at 64 MiB on 1M rows, and ran in steps)."""
        with self._stepped(sql) as final:
            return self._run(lambda: _streamed(self.con, final))

    def batches(self, sql: str) -> Iterator[pa.RecordBatch]:
        """The query's rows, ``RESULT_BATCH_ROWS`` at a time, each let go
        once read (a query over the ``hold`` tables: no steps)."""
        reader = iter(self._run(lambda: self.con.sql(sql).to_arrow_reader(RESULT_BATCH_ROWS)))
        while (batch := self._run(lambda: next(reader, None))) is not None:
            yield batch

    def hold(self, table: str, sql: str) -> None:
        """The query's rows kept as the temporary table ``table``, which
        later queries read (and DuckDB spills under ``memory_limit``)."""
        with self._stepped(sql) as final:
            self.execute(f"CREATE OR REPLACE TEMP TABLE {name(table)} AS {final}")

    def add(self, table: str, sql: str) -> None:
        """The query's rows added to the temporary table ``table`` (``hold``),
        whose columns they have, in order."""
        with self._stepped(sql) as final:
            self.execute(f"INSERT INTO {name(table)} {final}")

    def let_go(self, table: str) -> None:
        """Drop the temporary table ``table`` and run what follows under
        ``LET_GO_SHARE`` of ``memory_limit``, its buffers handed back to the
        system: what is left to read (the flags) is streamed, filtered and
        aggregated, which spills, while this process fills the room with the
        pick's arrays (52 bytes a flagged session). Kept at the full limit,
        DuckDB's buffers and those arrays added up: 20M rows' pick peaked at
        522 MiB, 360 with the buffers let go."""
        from miner.loading import release_freed_memory

        if self.full_limit is None:
            self.full_limit = _setting_bytes(self.con, "memory_limit")
        limit = self.full_limit
        if table == "events":
            self.execute("DROP VIEW IF EXISTS events")
            table = STORED_EVENTS
        self.execute(f"DROP TABLE IF EXISTS {name(table)}")
        if limit:
            kept = max(int(limit * LET_GO_SHARE), min(limit, LET_GO_FLOOR))
            self.execute(f"SET memory_limit = '{kept}B'")
        release_freed_memory()

    @contextlib.contextmanager
    def _stepped(self, sql: str) -> Iterator[str]:
        """The query's final part, its steps (``Stepped``) made meanwhile.
        A step is dropped as soon as the last step that reads it is made
        (``_last_readers``), not when the query ends: the selection's steps
        share ``memory_limit``, and each one kept past its readers is
        spilled and read back by the steps after it (at 5M rows the hits'
        steps spilled 1.2 s of CPU's worth against a limit of 2 GiB)."""
        if not isinstance(sql, Stepped) or not sql.steps:
            yield sql
            return
        made: list[str] = []
        read_last = _last_readers(sql)
        try:
            for at, (step, body) in enumerate(sql.steps):
                self.execute(f"CREATE OR REPLACE TEMP TABLE {name(step)} AS {body}")
                made.append(step)
                for done in [s for s in made if read_last[s] == at]:
                    self.con.execute(f"DROP TABLE IF EXISTS {name(done)}")
                    made.remove(done)
            yield sql.final
        finally:
            for step in reversed(made):
                self.con.execute(f"DROP TABLE IF EXISTS {name(step)}")

    def frame(self, sql: str) -> pd.DataFrame:
        """The query's rows, as a DataFrame with UTC timestamps."""
        from miner.traces import utc_frame

        return utc_frame(self.table(sql))

    def _run(self, run: Any) -> Any:
        import duckdb

        try:
            return run()
        except duckdb.OutOfMemoryException as exc:
            raise ConfigError(self._out_of_memory(exc)) from None
        except duckdb.IOException as exc:
            if _disk_full(exc):
                raise ConfigError(self._out_of_memory(exc)) from None
            raise _input_error(self.where, exc) from None
        except (duckdb.Error, pa.ArrowException) as exc:
            raise _input_error(self.where, exc) from None

    def _out_of_memory(self, exc: BaseException) -> str:
        """What to change when the engine could neither hold nor spill: the
        spill folder's disk was full (the knob is ``TMPDIR``, and the figure
        what was spilled when it filled), or an operator held more than
        ``memory_limit`` without spilling (the knob is ``memory_limit``, the
        figure what it asked for). DuckDB may say "failed to pin block" for
        either: the disk is blamed only when it has no room left
        (``DISK_ROOM``), and what had spilled meanwhile is said either way."""
        spilled = self._spilled()
        if _disk_full(exc) or _room(self.spill) < DISK_ROOM:
            return (
                f"[scan] the scan of {self.where} spilled {_mib(spilled)} to {self.spill} and "
                f"its disk is full ({reason(exc)}); free at least that much there, or set "
                "TMPDIR to a folder on a larger disk"
            )
        needed = _asked(str(exc))
        figure = f" to more than {_mib(needed)}" if needed else ""
        besides = f", having spilled {_mib(spilled)}" if spilled else ""
        return (
            f"[scan] memory_limit = {self.scan.memory_limit!r} is too small to scan "
            f"{self.where} ({reason(exc)}{besides}); raise it{figure}"
        )

    def _spilled(self) -> int:
        """Bytes in the spill folder now."""
        total = 0
        for folder, _dirs, files in os.walk(self.spill):
            for file in files:
                with contextlib.suppress(OSError):
                    total += os.path.getsize(os.path.join(folder, file))
        return total


#: The table ``Duck.hold_events`` writes: ``events`` with the columns only
#: the run's counts read (``miner.engine.query.counts_sql``: the dialect, the
#: event type as written, the file of a row without a session or with a bad
#: payload, that payload) stored narrower, and the texts no row holds two of
#: in one column (``stored_events_sql``).
STORED_EVENTS = "miner_events"

#: The ``events`` columns no row holds two of, each with the kinds of the
#: rows that may hold it (``miner.engine.events``: a message's or answer's
#: text, a call's arguments, a call's result), stored as one column,
#: ``STORED_SAID``: a column stored costs its CPU whether it is null or not.
#: Stored as text, the arguments and result are read back as text, not as
#: DuckDB's ``JSON`` (its ``VARCHAR`` under another name; a cast back would
#: parse each again): every step reads them as text or through
#: ``json_extract``, which takes either.
SAID_BY_KIND: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("text", ("USER_MESSAGE_RECEIVED", "AGENT_RESPONSE")),
    ("args", ("TOOL_STARTING",)),
    ("result", ("TOOL_COMPLETED",)),
)
STORED_SAID = "said"


def stored_events_sql(events: str, go_rows: bool) -> str:
    """``STORED_EVENTS`` over the query ``events`` (``events_sql``). The
    dialect is one byte; the type as written only where it is not ``kind``
    (a Go rename), and not at all without a Go row (``go_rows`` False: no
    type is renamed); the file and the bad payload one struct, null on
    every other row; the text, arguments and result one column
    (``SAID_BY_KIND``: each is null on the rows of other kinds). Five
    columns of every row were a fifth of the write (0.15 s of CPU at 1M
    rows); a column stored, null or not, costs about 0.025 s of CPU per 1M
    rows."""
    written = (
        ", CASE WHEN raw_type IS DISTINCT FROM kind THEN raw_type END AS written_type"
        if go_rows
        else ""
    )
    said = " ".join(
        f"WHEN kind IN ({listed(kinds)}) THEN CAST({column} AS VARCHAR)"
        for column, kinds in SAID_BY_KIND
    )
    merged = ", ".join(column for column, _kinds in SAID_BY_KIND)
    return (
        f"SELECT * EXCLUDE (raw_type, dialect, source_file, bad_payload, bad_text, {merged}), "
        f"CAST(dialect AS ENUM('python', 'java', 'go')) AS dialect{written}, "
        "CASE WHEN bad_payload OR source_file IS NOT NULL "
        "THEN {'file': source_file, 'text': bad_text} END AS problem, "
        f"CASE {said} END AS {STORED_SAID} FROM ({events}) e"
    )


def events_over_stored(go_rows: bool) -> str:
    """``events``, in its own columns and order, over ``STORED_EVENTS`` as
    ``stored_events_sql`` wrote it for ``go_rows``."""
    raw_type = (
        "CASE WHEN written_type IS NULL THEN kind ELSE written_type END" if go_rows else "kind"
    )
    said = {
        column: f"CASE WHEN kind IN ({listed(kinds)}) THEN {STORED_SAID} END AS {column}"
        for column, kinds in SAID_BY_KIND
    }
    return (
        f"SELECT session_id, invocation_id, ts, {raw_type} AS raw_type, kind, "
        "CAST(dialect AS VARCHAR) AS dialect, status, error_message, "
        "problem.file AS source_file, problem.text IS NOT NULL AS bad_payload, "
        f"problem.text AS bad_text, {said['text']}, tool, {said['args']}, {said['result']}, "
        f"transfer_to, total_ms FROM {STORED_EVENTS}"
    )


#: Rows a query's result is handed over at a time (``_streamed``): the
#: pick's batches of flags, 16,384 rows of a few hundred bytes each (65,536
#: added 27 MiB to the pick's peak at 20M rows).
RESULT_BATCH_ROWS = 16_384
#: Rows DuckDB's Parquet reader and the ``events`` view handle at a time
#: per thread (a vector).
VECTOR_ROWS = 2_048
#: What one thread of the ``events`` write holds outside the spillable
#: pool per byte of the vector it reads (``Footers.row_bytes_of`` x
#: ``VECTOR_ROWS``): the decoded strings, the JSON parser's documents and
#: the view's values. Measured with ``duckdb_memory()`` during the write
#: in order (one thread): the allocator's 80.6 MiB for 1M wide Go rows
#: (8 KB a row read), 15.6 for real-shaped Python (540 bytes, most of it
#: fixed).
HELD_PER_READ_BYTE = 5
#: The share of ``memory_limit`` the threads' reads may take for the
#: ``events`` write to be unordered: the rest is the table's row groups
#: being built (one per thread, unordered), which DuckDB may spill.
UNORDERED_READ_SHARE = 0.5
#: A column chunk larger than this share of ``memory_limit`` turns DuckDB's
#: Parquet prefetching off (``fit_prefetching``).
PREFETCH_SHARE = 0.125
#: The share of ``memory_limit`` DuckDB keeps once the events are let go,
#: and the least it keeps (within ``memory_limit``): the scans of the held
#: flags and hits pin blocks a thread, and stopped out of memory under 8 MiB.
LET_GO_SHARE, LET_GO_FLOOR = 0.4, 16 * 2**20


def unordered_write_fits(limit: int, threads: int, row_bytes: float) -> bool:
    """Whether ``Duck.hold_events`` writes the ``events`` table in no order,
    on all ``threads``: each thread then reads a vector of its own
    (``VECTOR_ROWS`` rows of ``row_bytes`` uncompressed bytes of the
    columns read), holding ``HELD_PER_READ_BYTE`` times its bytes outside
    the spillable pool, and together they must stay under
    ``UNORDERED_READ_SHARE`` of ``limit`` (``memory_limit``, bytes).

    In order, DuckDB writes the table on one thread whatever ``threads``
    says (5M real-shaped Python rows: 3.8 s wall idle on one or two, 2.1 s
    unordered on two). Unordered, 1M wide Go rows (8 KB a row read) stopped
    out of memory under the default limit, nothing spilled: in
    ``duckdb_memory()`` the two threads' reads held 140 MiB (the
    allocator's 93, prefetched column chunks 47; one thread's 104), the
    table's row groups 1 MiB. No setting bounds that: buffering one row
    group a thread (``write_buffer_row_group_count``) changed nothing, and
    with prefetching off the reads held 151 MiB. Under the default 160 MiB
    on two threads, rows of up to 4 KB read are written unordered: at 1M
    rows, the real-shaped rows of every dialect (0.5 to 1.5 KB) and the
    wide ones but Go's (1.7 to 1.8 KB)."""
    if threads < 2 or limit <= 0:
        return False
    return threads * VECTOR_ROWS * row_bytes * HELD_PER_READ_BYTE <= limit * UNORDERED_READ_SHARE


def _threads(con: Any) -> int:
    """DuckDB's ``threads`` setting."""
    [(threads,)] = con.execute("SELECT current_setting('threads')").fetchall()
    return int(threads)


def _last_readers(sql: Stepped) -> dict[str, int | None]:
    """Each step of ``sql``: the index of the last step that names it, or
    None when the final query does (or nothing after it does: kept to the
    end). A name is found as a whole word anywhere in a later step's text,
    so a step may be kept longer than needed, never dropped before a
    reader."""
    steps = [step for step, _body in sql.steps]
    last: dict[str, int | None] = {}
    for at, step in enumerate(steps):
        named = re.compile(rf"\b{re.escape(step)}\b")
        if named.search(sql.final):
            last[step] = None
            continue
        readers = [i for i in range(at + 1, len(steps)) if named.search(sql.steps[i][1])]
        last[step] = readers[-1] if readers else None
    return last


def _setting_bytes(con: Any, setting: str) -> int:
    """A size setting of DuckDB's (``'160.0 MiB'``) in bytes; 0 if unreadable."""
    [(shown,)] = con.execute(f"SELECT current_setting({text(setting)})").fetchall()
    found = re.fullmatch(r"(\d+(?:\.\d+)?) ?(bytes?|B|KiB|MiB|GiB|TiB)", str(shown).strip())
    if found is None:
        return 0
    units = _UNITS | {"B": 1, "TiB": 2**40}
    return int(float(found.group(1)) * units[found.group(2)])


def _streamed(con: Any, sql: str) -> pa.Table:
    """The query's rows, handed over a batch at a time: collected whole,
    DuckDB holds the result in buffers it cannot spill (the flags of a
    million sessions are 300 MiB, over ``memory_limit``)."""
    reader = con.sql(sql).to_arrow_reader(RESULT_BATCH_ROWS)
    return pa.Table.from_batches(list(reader), reader.schema)


#: Free bytes under the spill folder below which an allocation that failed
#: is the disk's fault (DuckDB spills in blocks of 256 KiB).
DISK_ROOM = 64 * 2**20


def _room(folder: str) -> int:
    """Free bytes on the disk that holds ``folder``."""
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return 0


def _disk_full(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "no space left" in text or "disk is full" in text or "not enough space" in text


_SIZE = re.compile(r"size (\d+(?:\.\d+)?) (KiB|MiB|GiB|bytes?) \((\d+(?:\.\d+)?) (KiB|MiB|GiB)/")
_UNITS = {"byte": 1, "bytes": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30}


def _asked(message: str) -> int:
    """The memory an out-of-memory error says was in use plus asked for."""
    found = _SIZE.search(message)
    if found is None:
        return 0
    asked, unit, used, used_unit = found.groups()
    return int(float(asked) * _UNITS[unit] + float(used) * _UNITS[used_unit])


def _mib(size: int) -> str:
    return f"{size / 2**20:,.0f} MiB"


def _input_error(where: str, exc: BaseException) -> MinerError:
    return InputError(f"{where}: cannot read rows ({reason(exc)})")


@contextlib.contextmanager
def connect(scan: ScanConfig, where: str = "<rows>") -> Iterator[Duck]:
    """An in-memory DuckDB under the ``[scan]`` settings, spilling to a
    private temporary folder removed afterwards; no extension is ever
    loaded (nothing is fetched). ``where`` names the data in errors."""
    import duckdb

    with tempfile.TemporaryDirectory(prefix="miner-scan-") as spill:
        try:
            con = duckdb.connect(
                config={
                    "memory_limit": scan.memory_limit,
                    "threads": scan.threads or os.cpu_count() or 1,
                    "temp_directory": spill,
                    "autoinstall_known_extensions": False,
                    "autoload_known_extensions": False,
                }
            )
            # Naive export timestamps are UTC, as everywhere in miner.
            con.execute("SET TimeZone = 'UTC'")
            # miner prints its own progress; DuckDB's bar would write to the terminal.
            con.execute("SET enable_progress_bar = false")
        except duckdb.Error as exc:
            raise ConfigError(f"[scan]: DuckDB refused the settings ({reason(exc)})") from None
        try:
            yield Duck(con, scan, spill, where)
        finally:
            con.close()


def frame_rows(duck: Duck, frames: Sequence[pd.DataFrame], kinds: Sequence[str]) -> str:
    """Rows held in memory as the selection's rows (``rows_sql``), any time;
    the engine then holds their ``events`` (``Duck.hold_events``)."""
    import pandas as pd  # where a frame is built: not in the first stage's child

    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    if "timestamp" in frame.columns:
        stamps = pd.to_datetime(frame["timestamp"])
        frame = frame.assign(
            timestamp=stamps.dt.tz_localize("UTC") if stamps.dt.tz is None else stamps
        )
    for column in ROW_COLUMNS:
        if column not in frame.columns and column != "timestamp":
            frame[column] = pd.Series([None] * len(frame), dtype="object")
    table = pa.Table.from_pandas(frame, preserve_index=False)
    duck.con.register("miner_input", table)
    rows = rows_sql("miner_input", table.schema.names, EARLIEST, LATEST, kinds)
    duck.hold_events(rows)
    return rows


def export_rows(
    duck: Duck, export: Any, scan_since: datetime, scan_until: datetime, kinds: Sequence[str]
) -> str:
    """An export's rows as the selection's rows (``rows_sql``, from
    ``selection_rows``); the engine then holds their ``events``
    (``Duck.hold_events``)."""
    footers = read_footers(export)
    rows, read, go_rows = selection_rows(duck, export, scan_since, scan_until, kinds, footers)
    duck.hold_events(rows, go_rows, footers.row_bytes_of(read))
    return rows


def fit_prefetching(duck: Duck, chunks: dict[str, int], columns: Sequence[str]) -> None:
    """DuckDB's Parquet prefetching off for a read of ``columns`` where one
    of their column chunks (``chunks``: each column's largest, from
    ``Footers.largest_chunks``) is over ``PREFETCH_SHARE`` of ``memory_limit``, else
    on.
    Prefetching, DuckDB reads a row group's whole column chunk into one
    block it cannot spill (493 MiB for the ``content`` of a file of one
    5M-row group; for a 1M-row Go file, 188 MiB, and the whole 258 MiB file
    under a larger limit); a page at a time it does not. Only then: on 20M
    rows of 58k-row groups, the selection without prefetching stopped out of
    memory in two runs of three."""
    limit = duck._run(lambda: _setting_bytes(duck.con, "memory_limit"))
    largest = max((chunks.get(c, 0) for c in columns), default=0)
    paged = bool(limit) and largest > limit * PREFETCH_SHARE
    duck.execute(f"SET disable_parquet_prefetching = {str(paged).lower()}")


def selection_rows(
    duck: Duck,
    export: Any,
    scan_since: datetime,
    scan_until: datetime,
    kinds: Sequence[str],
    footers: Footers | None = None,
) -> tuple[str, list[str], bool]:
    """An export's rows as the selection's rows (``rows_sql``), the
    export's columns they read, and whether they may hold a row the Go
    plugin wrote (False only where none is in the window: ``_has_go_row``).
    ``footers``: the export's (``read_footers``), if read already.

    A local export is read by DuckDB's own Parquet reader (hive ``dt=``
    partitions pruned by the window, files of different columns united by
    name, each row's file kept). A remote one is fetched once, through its
    pyarrow filesystem (the credentials chain, the window pushed down), into
    the private spill folder, and read from there. ``attributes`` is most of
    an export's bytes and the view reads it on Go rows only: without one in
    the window, the scan leaves it out."""
    present = export.present(ROW_COLUMNS)
    schema = export.schema
    binary = [
        c
        for c in present
        if pa.types.is_binary(schema.field(c).type)
        or pa.types.is_large_binary(schema.field(c).type)
    ]
    read = present
    if not export.local:
        window = Window(scan_since, scan_until)
        source = copy_remote(duck, export, present, window, kinds)
        present, days, file_column = [*present, "source_file"], False, None
    else:
        source, days, file_column = (
            duckdb_table(export),
            iso_day_partitions(export),
            "miner_source_file",
        )

    def rows_of(columns: list[str], of_kinds: Sequence[str] | None = kinds) -> str:
        return rows_sql(
            source,
            columns,
            scan_since,
            scan_until,
            of_kinds,
            day_partitions=days,
            source_file=file_column,
            binary_columns=binary,
        )

    chunks = (footers or read_footers(export)).largest_chunks
    narrow = [c for c in present if c != "attributes"]
    # Asked only where it saves reading ``attributes``; unasked, a Go row may be there.
    go_rows = True
    if len(narrow) < len(present):
        fit_prefetching(duck, chunks, narrow)
        go_rows = _has_go_row(duck, rows_of(narrow), rows_of(narrow, None))
        if not go_rows:
            present, read = narrow, [c for c in read if c != "attributes"]
    fit_prefetching(duck, chunks, read)
    return rows_of(present), read, go_rows


def _has_go_row(duck: Duck, rows: str, window_rows: str) -> bool:
    """Whether ``rows`` hold a row the Go plugin wrote (``GO_ROW``): first
    by the event type of any row in the window (``window_rows``: the
    ``event_type`` and ``timestamp`` columns read, not the ``session_id``
    and ``status`` that ``rows`` filters on too, which made the check cost
    twice as much), a type only Go writes answering yes (it may be a row
    ``rows`` does not read, which only costs ``attributes`` read in vain);
    and only without one, by the payload-less TOOL_ERROR rows Go writes too
    (``GO_TOOL_ERROR``: the other plugins' exports; a Python export's row
    groups are skipped on ``event_id``'s statistics, where ``content`` was
    read for every TOOL_ERROR row, 0.8 s of CPU at 5M rows, once DuckDB no
    longer knew every file's statistics when the query was bound). Each
    scan stops at the first such row."""
    types = f"event_type IN ({listed(sorted(GO_ONLY))})"
    if duck.table(f"SELECT 1 AS go FROM ({window_rows}) miner_rows WHERE {types} LIMIT 1").num_rows:
        return True
    errors = f"SELECT 1 AS go FROM ({rows}) miner_rows WHERE {GO_TOOL_ERROR}"
    return bool(duck.table(f"{errors} LIMIT 1").num_rows)


@dataclass(frozen=True)
class Footers:
    """What a local export's Parquet footers say of each column, over its
    row groups: the largest compressed column chunk (``fit_prefetching``)
    and the most uncompressed bytes per row (``Duck.hold_events``). Empty
    for a remote export (read from a copy in the spill folder,
    ``copy_remote``)."""

    largest_chunks: dict[str, int]
    widest_rows: dict[str, float]

    def row_bytes_of(self, columns: Sequence[str]) -> float | None:
        """The uncompressed bytes of a row of ``columns``, each column's
        widest row group's (the widest row group of them all is at most
        that); None where the footers say nothing (a remote export)."""
        if not self.widest_rows:
            return None
        return sum(self.widest_rows.get(c, 0.0) for c in columns)


def read_footers(export: Any) -> Footers:
    """A local export's ``Footers``, each file's footer read once, then let
    go."""
    if not export.local:
        return Footers({}, {})
    import pyarrow.parquet as pq

    largest: dict[str, int] = {}
    widest: dict[str, float] = {}
    for file in export.files:
        footer = pq.read_metadata(file)
        for g in range(footer.num_row_groups):
            group = footer.row_group(g)
            # A nested column ("content_parts") is stored as one chunk per
            # leaf: a row of it is all its leaves' bytes, summed.
            group_bytes: dict[str, int] = {}
            for c in range(group.num_columns):
                chunk = group.column(c)
                column = chunk.path_in_schema.split(".", 1)[0]
                largest[column] = max(largest.get(column, 0), chunk.total_compressed_size)
                group_bytes[column] = group_bytes.get(column, 0) + chunk.total_uncompressed_size
            if group.num_rows:
                for column, size in group_bytes.items():
                    widest[column] = max(widest.get(column, 0.0), size / group.num_rows)
    return Footers(largest, widest)
