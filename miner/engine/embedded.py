"""The embedded engine (``--engine embedded``, the default): DuckDB in this
process (``miner.engine.duck``) runs the selection over the export and reads
the picked sessions' rows, under the ``[scan]`` settings; the work on those
rows runs here too."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import ClassVar, TypeVar

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from miner.config import PipelineConfig, ScanConfig
from miner.engine import duck
from miner.engine.base import Progress, SessionWork, no_progress
from miner.engine.parquet import DAY_PARTITION, copy_remote, duckdb_table, iso_day_partitions
from miner.engine.sql import listed
from miner.errors import InputError
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
from miner.source import Export, read_reason, refuse_rows_without_session
from miner.traces import utc_frame
from miner.window import Window

T = TypeVar("T")


class EmbeddedEngine:
    """DuckDB in this process (``--engine spark`` is the way to more cores
    or machines)."""

    name: ClassVar[str] = "embedded"

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
        with _held_events(export, config, scan) as con:
            return select_and_pick(
                con, negative, config.signals, window.since, window.until, plan, str(export.path)
            )

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
        duck.export_rows(con, export, scan.since, scan.until, SCAN_EVENT_TYPES)
        yield con


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
    with duck.connect(scan, str(export.path)) as con:
        if export.local:
            table = _local_session_rows(con, export, present, window, ids)
        else:
            rows = copy_remote(con, export, present, window, session_ids=ids)
            wanted = f"session_id IN ({listed(ids)})" if ids else "false"
            table = con.table(f"SELECT * FROM {rows} WHERE {wanted}")
    return utc_frame(table)


def _local_session_rows(
    con: duck.Duck, export: Export, present: list[str], window: Window, ids: list[str]
) -> pa.Table:
    """The rows in ``window`` of the sessions ``ids`` of a local export:
    ``present`` and ``source_file``, in the export's file and row order.
    Two reads: the ids' column alone finds each row's file and row number
    (DuckDB), then each file streams only its row groups that hold such a
    row, ``SESSION_BATCH_ROWS`` at a time, keeping those rows (pyarrow). The
    payload columns are decoded for the sessions' own row groups, never for
    the whole window, and never a whole row group at once: a row group of
    20M rows of 10 KB each is read in batches of a few MiB."""
    duck.fit_prefetching(con, duck.largest_chunks(export), ["session_id", "timestamp"])
    table = duckdb_table(export, row_numbers=True)
    in_window = window.sql(days=iso_day_partitions(export))
    wanted = f"session_id IN ({listed(ids)})" if ids else "false"
    # The rows without a session come from the same scan of the ids' column
    # (the run stops on them): one read of it, not two.
    found: dict[str, list[int]] = {}
    orphans: dict[str, int] = {}
    for row in con.table(
        f"SELECT miner_source_file AS file, file_row_number AS n, session_id IS NULL AS orphan "
        f"FROM {table} WHERE {in_window} AND ({wanted} OR session_id IS NULL)"
    ).to_pylist():
        if row["orphan"]:
            orphans[row["file"]] = orphans.get(row["file"], 0) + 1
        else:
            found.setdefault(row["file"], []).append(int(row["n"]))
    refuse_rows_without_session(export.path, sorted(orphans.items()))
    schema = pa.schema([export.dataset.schema.field(c) for c in present])
    with _system_allocator():
        parts = [
            _file_rows(export, file, np.array(sorted(found[file]), np.int64), schema)
            for file in export.dataset.files
            if file in found
        ]
    if not parts:
        parts = [schema.empty_table().append_column("source_file", pa.array([], pa.string()))]
    return pa.concat_tables(parts)


@contextlib.contextmanager
def _system_allocator() -> Iterator[None]:
    """Arrow's buffers from the C library's ``malloc`` meanwhile, not from
    pyarrow's default mimalloc, which keeps the pages of the decoded row
    groups after they are freed (at 1M rows, 60 MiB under the model that
    loads next) where ``malloc_trim`` hands them back
    (``miner.loading.release_freed_memory``). Only meanwhile: the redaction's
    Arrow work, on malloc, held 100 MiB more."""
    before = pa.default_memory_pool()
    pa.set_memory_pool(pa.system_memory_pool())
    try:
        yield
    finally:
        pa.set_memory_pool(before)


#: Rows decoded at a time when reading the picked sessions' row groups, at
#: most: fewer where the rows are wide (``SESSION_BATCH_BYTES``).
SESSION_BATCH_ROWS = 2_048
#: About the bytes a batch of the picked sessions' columns decodes to. By
#: rows alone, 2,048 rows with ``attributes`` of 10 KB were a batch of 25
#: MiB, and glibc's heap kept the freed batches: reading the 20 picked
#: sessions of 5M such rows peaked at 544 MiB, the run's peak; 4 MiB
#: batches peak at 335 (``tools.rss_stages``).
SESSION_BATCH_BYTES = 4 * 2**20


def _batch_rows(group: pq.RowGroupMetaData, columns: list[str]) -> int:
    """Rows of ``group`` decoded at a time: ``SESSION_BATCH_BYTES`` over a
    row's width in ``columns`` (their bytes in the row group, uncompressed,
    as the footer says), at most ``SESSION_BATCH_ROWS``."""
    wanted = set(columns)
    width = sum(
        group.column(c).total_uncompressed_size
        for c in range(group.num_columns)
        if group.column(c).path_in_schema.split(".", 1)[0] in wanted
    ) / max(1, group.num_rows)
    return max(1, min(SESSION_BATCH_ROWS, int(SESSION_BATCH_BYTES / max(1.0, width))))


def _file_rows(export: Export, file: str, numbers: np.ndarray, schema: pa.Schema) -> pa.Table:
    """Rows ``numbers`` (sorted, in the file's row order) of one file, the
    columns of ``schema`` (those the file lacks as nulls, the hive ``dt``
    from the path), plus ``source_file``."""
    try:
        parquet = pq.ParquetFile(
            file, filesystem=export.dataset.filesystem, pre_buffer=False, buffer_size=1 << 20
        )
        names = set(parquet.schema_arrow.names)
        read = [c for c in schema.names if c in names]
        starts = np.cumsum(
            [0] + [parquet.metadata.row_group(g).num_rows for g in range(parquet.num_row_groups)]
        )
        groups = sorted(set(np.searchsorted(starts, numbers, side="right").tolist()))
        pieces = []
        for group in groups:
            at = int(starts[group - 1])
            last = int(numbers[numbers < starts[group]].max())
            rows_at_once = _batch_rows(parquet.metadata.row_group(group - 1), read)
            # Decoded in this thread: pyarrow's pool threads kept about 20 MiB
            # of the decoded pages in their own heaps after they were freed,
            # out of ``malloc_trim``'s reach, under the model that loads next.
            for batch in parquet.iter_batches(
                batch_size=rows_at_once,
                row_groups=[group - 1],
                columns=read,
                use_threads=False,
            ):
                inside = numbers[(numbers >= at) & (numbers < at + batch.num_rows)] - at
                if len(inside):
                    pieces.append(batch.take(pa.array(inside)))
                at += batch.num_rows
                # Nothing wanted past the group's last wanted row: the rest of
                # the group (half of it, on average) is not decoded.
                if at > last:
                    break
            # What the heap kept of one row group's batches grew file by
            # file (302 to 350 MiB over 19 files of 5M wide rows): handed
            # back before the next.
            release_freed_memory()
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"{file}: cannot read rows ({read_reason(exc)})") from None
    rows = sum(p.num_rows for p in pieces)
    day = DAY_PARTITION.search(file)
    columns = {}
    for field in schema:
        if field.name in read:
            chunks = [p.column(field.name).cast(field.type) for p in pieces]
            columns[field.name] = pa.chunked_array(chunks, field.type)
        elif field.name == "dt" and day is not None:
            columns[field.name] = pa.array([day.group(1)] * rows, pa.string()).cast(field.type)
        else:
            columns[field.name] = pa.nulls(rows, field.type)
    columns["source_file"] = pa.array([file] * rows, pa.string())
    return pa.table(columns)
