"""The embedded engine (``--engine embedded``, the default): DuckDB
(``miner.engine.duck``) runs the selection over the export and reads the
picked sessions' rows, under the ``[scan]`` settings, each in a forked child
process whose memory goes back to the system when it ends
(``miner.engine.apart``); the work on those rows runs in this process."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, TypeVar

import pyarrow as pa

from miner.config import PipelineConfig, ScanConfig
from miner.engine import duck
from miner.engine.apart import run_apart
from miner.engine.base import Progress, SessionWork, no_progress
from miner.engine.parquet import (
    DAY_PARTITION,
    bind_files,
    copy_remote,
    duckdb_table,
    iso_day_partitions,
)
from miner.engine.sql import listed, text
from miner.loading import release_freed_memory
from miner.sample import (
    SCAN_EVENT_TYPES,
    Flagged,
    NegativeFeedback,
    Picked,
    PickPlan,
    select,
    select_and_pick,
)
from miner.source import Export
from miner.traces import utc_frame
from miner.window import Window

if TYPE_CHECKING:
    import pandas as pd

T = TypeVar("T")


class EmbeddedEngine:
    """DuckDB in this process (``--engine spark`` is the way to more cores
    or machines)."""

    def flag(
        self,
        export: Export,
        config: PipelineConfig,
        scan: Window,
        window: Window,
        negative: NegativeFeedback,
    ) -> Flagged:
        with _held_events(export, config, scan) as con:
            return select(
                con.table, negative, config.signals, window.since, window.until, str(export.path)
            )

    def pick(
        self,
        export: Export,
        config: PipelineConfig,
        scan: Window,
        window: Window,
        negative: NegativeFeedback,
        plan: PickPlan,
    ) -> Picked:
        def selection_and_pick() -> Picked:
            with _held_events(export, config, scan) as con:
                return select_and_pick(
                    con,
                    negative,
                    config.signals,
                    window.since,
                    window.until,
                    plan,
                    str(export.path),
                )

        # What the scan leaves resident (DuckDB's code pages, heap: 65 MiB at
        # 20M rows) goes with the child, not under the model.
        return run_apart(selection_and_pick, f"{export.path}: the selection")

    def map_sessions(
        self,
        export: Export,
        config: PipelineConfig,
        scan: Window,
        session_ids: Sequence[str],
        columns: Sequence[str],
        work: SessionWork[T],
        progress: Progress = no_progress,
    ) -> list[T]:
        if not session_ids:
            return []
        rows = read_sessions(export, columns, scan.since, scan.until, session_ids, config.scan)
        return [work(rows, progress)]


@contextlib.contextmanager
def _held_events(export: Export, config: PipelineConfig, scan: Window) -> Iterator[duck.Duck]:
    """A DuckDB connection under ``[scan]`` holding the export's rows of the
    signals' event types in ``scan``, for the selection (as Spark's
    ``_held_events``)."""
    with duck.connect(config.scan, str(export.path)) as con:
        if not export.local:
            duck.export_rows(con, export, scan.since, scan.until, SCAN_EVENT_TYPES)
            yield con
            return
        files = sum(len(layout) for layout in export.layouts)
        limit = config.scan.memory_limit_bytes
        con.execute(f"SET memory_limit = '{pool_beside_files(limit, files)}B'")
        # Through the connection's errors: a refused allocation names ``memory_limit``.
        bound = con._run(lambda: bind_files(con.con, export))
        duck.export_rows(con, bound, scan.since, scan.until, SCAN_EVENT_TYPES)
        # The files read, their readers' heap goes back before the steps
        # that read the held events under the whole limit.
        con.execute(f"SET memory_limit = '{limit}B'")
        release_freed_memory()
        yield con


#: What DuckDB holds outside its buffer pool (``memory_limit``) for each
#: file of the export while it reads them: each file's reader state and
#: metadata. The check for Go rows over 10,009 small files left the
#: selection's child 84 MiB larger, all of it outside the pool (which held
#: 4 MiB), against 7 MiB for 22 files: 8 KiB a file.
HELD_PER_FILE = 8 * 2**10
#: The least of ``memory_limit`` ``pool_beside_files`` leaves DuckDB.
POOL_FLOOR = 64 * 2**20


def pool_beside_files(limit: int, files: int) -> int:
    """DuckDB's ``memory_limit``, bytes, while it reads ``files`` local
    files into the held events: ``limit`` (``[scan] memory_limit``) less
    ``HELD_PER_FILE`` a file, so that what DuckDB holds for the files and
    its pool together stay about where the config puts the pool alone (at
    least ``POOL_FLOOR``, or ``limit`` if lower). The steps after read the
    held events, not the files, under the whole limit: held there too, the
    pool stopped a step of 20M rows' selection (10,009 files) out of
    memory at 82 and at 101 MiB.

    On 20M rows in 10,009 small files (a pool of 82 MiB while they are
    read) the events' hold peaked at 317 MiB, not 409, for about 2 s more
    CPU; the steps after it, at 380, then decide the child's peak (the
    process tree's summed RSS: 555-564 MiB, still over issue 38's 488). A
    real-shaped export's 88 files cost the read 0.7 MiB of pool."""
    return max(limit - files * HELD_PER_FILE, min(limit, POOL_FLOOR))


def read_sessions(
    export: Export,
    columns: Iterable[str],
    start: datetime,
    end: datetime,
    session_ids: Iterable[str],
    scan: ScanConfig,
) -> pd.DataFrame:
    """Every row in the window of the given sessions (``columns`` the export
    has, plus ``source_file``), read by the embedded engine under ``[scan]``:
    a local export by DuckDB's own Parquet reader, a remote one fetched once
    (``copy_remote``)."""
    present = export.present(columns)
    ids = sorted(set(session_ids))
    window = Window(start, end)

    def picked_rows() -> pa.Table:
        with duck.connect(scan, str(export.path)) as con:
            if export.local:
                bound = con._run(lambda: bind_files(con.con, export))
                return _local_session_rows(con, bound, present, window, ids)
            rows = copy_remote(con, export, present, window, session_ids=ids)
            wanted = f"session_id IN ({listed(ids)})" if ids else "false"
            return con.table(f"SELECT * FROM {rows} WHERE {wanted}")

    # In a child as the selection: its scan of every row's id would leave
    # its heap under the model too.
    return utc_frame(run_apart(picked_rows, f"{export.path}: the picked sessions' rows"))


def _local_session_rows(
    con: duck.Duck, export: Export, present: list[str], window: Window, ids: list[str]
) -> pa.Table:
    """The rows in ``window`` of the sessions ``ids`` of a local export:
    ``present`` and ``source_file``, in the export's file and row order.
    Two reads by DuckDB: the ids' column, in the window's days, finds
    each of the sessions' rows' file and row number, then each file that
    holds such a row is read for those row numbers, the window's times
    applied there (``_file_rows``). The payload columns are decoded from
    each file's first picked row to its last, never for the whole window.

    The ids' scan reads ``session_id`` and nothing else of a row: not its
    ``timestamp`` where ``dt=`` days hold the window (the times are applied
    to the picked rows alone; 5M rows: 0.15 s of CPU against 0.11), nor
    the rows without a session (the selection's counts stop the run on
    those first, in the same window: ``sample._counted``; 0.20 s against
    0.15). It cannot go: the selection
    reads only the rows of the event types the signals read, and a
    session's other rows (a model's request and answer, an agent's start
    and end: 42-50% of the golden rows) may sit in a file, or at a file's
    edge, where none of its read rows is (docs/performance.md, "Where the
    rows' cost goes")."""
    chunks = duck.read_footers(export).largest_chunks
    days = iso_day_partitions(export)
    duck.fit_prefetching(con, chunks, ["session_id"] if days else ["session_id", "timestamp"])
    table = duckdb_table(export, row_numbers=True)
    # Without ``dt=`` days to prune files by, the times stay in the scan:
    # the row groups' statistics then skip what lies outside the window.
    in_window = window.days_sql() if days else window.sql()
    wanted = f"session_id IN ({listed(ids)})" if ids else "false"
    found: dict[str, list[int]] = {}
    for row in con.table(
        f"SELECT miner_source_file AS file, file_row_number AS n "
        f"FROM {table} WHERE {in_window} AND {wanted}"
    ).to_pylist():
        found.setdefault(row["file"], []).append(int(row["n"]))
    schema = pa.schema([export.schema.field(c) for c in present])
    duck.fit_prefetching(con, chunks, [*present, "timestamp"])
    parts = [
        _file_rows(con, file, sorted(found[file]), schema, window)
        for file in export.files
        if file in found
    ]
    if not parts:
        parts = [schema.empty_table().append_column("source_file", pa.array([], pa.string()))]
    return pa.concat_tables(parts)


def _file_rows(
    con: duck.Duck, file: str, numbers: list[int], schema: pa.Schema, window: Window
) -> pa.Table:
    """Rows ``numbers`` (sorted, in the file's row order) of one file that
    are in ``window``, the columns of ``schema`` (those the file lacks as
    nulls, the hive ``dt`` from the path), plus ``source_file``.

    Read by DuckDB, filtered on each row's number in the file: the range
    from the first to the last is pushed into the scan, which skips what
    lies outside it, and the numbers themselves are a table joined to it
    (as a list in the query, two files of 11,000 rows all picked cost
    0.23-0.32 s of CPU against 0.07). pyarrow, which has no row selection,
    decoded each row group from its first row to its last picked one
    (116,580 rows for 1M rows' 388 picked: 0.30 s of CPU against 0.07)."""
    # The file's own columns among those asked (a file of another layout
    # may lack some); session_id, which every file has, so that the list is
    # never empty. Not hive's dt: it is taken from the path below.
    asked = listed(sorted({*schema.names, "session_id"}))
    con.con.register("miner_picked_rows", pa.table({"n": pa.array(numbers, pa.int64())}))
    try:
        rows = con.table(
            f"SELECT COLUMNS(lambda c: c IN ({asked})) FROM read_parquet([{text(file)}], "
            "file_row_number = true, hive_partitioning = false) "
            f"WHERE file_row_number BETWEEN {numbers[0]} AND {numbers[-1]} "
            "AND file_row_number IN (SELECT n FROM miner_picked_rows) "
            f"AND {window.sql()} ORDER BY file_row_number"
        )
    finally:
        con.con.unregister("miner_picked_rows")
    day = DAY_PARTITION.search(file)
    columns = {}
    for field in schema:
        if field.name in rows.column_names:
            columns[field.name] = rows.column(field.name).cast(field.type)
        elif field.name == "dt" and day is not None:
            columns[field.name] = pa.array([day.group(1)] * rows.num_rows, pa.string()).cast(
                field.type
            )
        else:
            columns[field.name] = pa.nulls(rows.num_rows, field.type)
    columns["source_file"] = pa.array([file] * rows.num_rows, pa.string())
    return pa.table(columns)
