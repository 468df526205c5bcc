"""The Spark engine: ``miner draft --engine spark``, for exports one machine
cannot scan.

The selection is the same SQL the embedded engine runs, transpiled to Spark
SQL by sqlglot (``miner.engine.query.render``) and run by Spark over the
export; the job's work on the picked sessions (drafting them: redaction,
fixtures, the leak guard) runs on the executors - Presidio is built once
per executor process (``detector_for`` caches it). The driver collects the
flags and the work's results (pickled bytes of miner's own records), and
the job writes drafts, ledger and summary exactly as with the embedded
engine.

The session: an active ``SparkSession`` if there is one (``spark-submit``,
Dataproc, a notebook), else a local one (``local[*]``, or ``MINER_SPARK_MASTER``).
Needs the ``spark`` extra (``pip install 'miner[spark]'``) and Java 17.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sys
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import pyarrow as pa

from miner.config import PipelineConfig
from miner.engine.base import Progress, SessionWork, no_progress
from miner.engine.events import ROW_COLUMNS
from miner.engine.query import events_sql, render, rows_sql
from miner.errors import UsageError
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

T = TypeVar("T")


def session() -> Any:
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise UsageError(
            "--engine spark needs pyspark: pip install 'miner[spark]' (and Java 17)"
        ) from None
    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    builder = SparkSession.builder.appName("miner").config("spark.sql.session.timeZone", "UTC")
    if "PYSPARK_GATEWAY_PORT" in os.environ and "MINER_SPARK_MASTER" not in os.environ:
        # Under spark-submit: the master and the executors' Python are the cluster's.
        return builder.getOrCreate()
    # On this machine: executors run this interpreter, where miner is installed.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    master = os.environ.get("MINER_SPARK_MASTER", "local[*]")
    # One machine: a few shuffle partitions, not Spark's 200 (the selection's
    # joins and aggregates would run 200 tasks each over a small export).
    # The local executors live in the driver's JVM: Spark's 1g default heap
    # ran out in a run of many picks in one process (the test suite's sliced
    # pick), so 2g unless MINER_SPARK_DRIVER_MEMORY says otherwise; it takes
    # effect where this process starts the JVM.
    return (
        builder.master(master)
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.memory", os.environ.get("MINER_SPARK_DRIVER_MEMORY", "2g"))
        .getOrCreate()
    )


def _rows(
    spark: Any, source: Path | str, columns: tuple[str, ...], start: datetime, end: datetime
) -> Any:
    """The export's rows in the window, these columns, a session id, and the file."""
    from pyspark.sql import functions as F

    root = str(source)
    frame = spark.read.option("basePath", root).parquet(root)
    present = [c for c in columns if c in frame.columns]
    in_window = F.expr(render(Window(start, end).sql(), "spark"))
    frame = frame.where(in_window & F.col("session_id").isNotNull())
    return frame.select(*present, F.input_file_name().alias("source_file"))


def _local_name(path: str) -> str:
    return path.removeprefix("file://")


class SparkEngine:
    """Spark: an active session, or a local one (``session``)."""

    def flag(
        self,
        export: Export,
        config: PipelineConfig,
        scan: Window,
        window: Window,
        negative: NegativeFeedback,
    ) -> Flagged:
        with _held_events(export.path, (scan.since, scan.until)) as spark:
            return select(
                spark.table, negative, config.signals, window.since, window.until, str(export.path)
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
        with _held_events(export.path, (scan.since, scan.until)) as spark:
            return select_and_pick(
                spark, negative, config.signals, window.since, window.until, plan, str(export.path)
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
        """``work`` on the executors, over the sessions partitioned by id
        (each session's rows in one call); its results come back pickled.
        ``progress`` is not shown: the work runs in other processes."""
        if not session_ids:
            return []
        from pyspark.sql import functions as F

        spark = session()
        frame = _rows(spark, export.path, tuple(columns), scan.since, scan.until)
        frame = frame.where(F.col("session_id").isin(list(session_ids)))

        def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
            tables = [pa.Table.from_batches([b]) for b in batches if b.num_rows]
            if tables:
                rows = utc_frame(pa.concat_tables(tables))
                rows["source_file"] = rows["source_file"].map(_local_name)
                done = work(rows, no_progress)
                yield pa.RecordBatch.from_pydict({"payload": [pickle.dumps(done)]})

        parts = frame.repartition("session_id").mapInArrow(run, "payload binary").collect()
        return [pickle.loads(part.payload) for part in parts]


class _Queries:
    """Spark SQL as the pick asks it (``miner.sample.Queries``): DuckDB's
    text transpiled, results collected to the driver as Arrow, held results
    cached as temporary views."""

    def __init__(self, spark: Any) -> None:
        self.spark = spark
        self.held: list[Any] = []

    def table(self, sql: str) -> pa.Table:
        return self.spark.sql(render(sql, "spark")).toArrow()

    def batches(self, sql: str) -> Iterable[pa.RecordBatch]:
        return self.table(sql).to_batches()

    def hold(self, name: str, sql: str) -> None:
        frame = self.spark.sql(render(sql, "spark")).cache()
        frame.createOrReplaceTempView(name)
        self.held.append(frame)

    def add(self, name: str, sql: str) -> None:
        # The new rows cached alone, the view their union with what it held:
        # a cached union per slice would hold the first slices' rows once
        # for each slice after them (8 slices at 20M rows: 4.5 times the
        # flags), as none is let go before the run ends.
        part = self.spark.sql(render(sql, "spark")).cache()
        self.held.append(part)
        self.spark.table(name).unionAll(part).createOrReplaceTempView(name)

    def let_go(self, table: str) -> None:
        self.spark.catalog.dropTempView(table)


@contextlib.contextmanager
def _held_events(source: Path | str, scan: tuple[datetime, datetime]) -> Iterator[_Queries]:
    """The export's ``events`` in the scan's window as a cached temporary
    view (the selection is the same SQL the embedded engine runs,
    transpiled from DuckDB's dialect by sqlglot), and the queries over it;
    only what they select comes back to the driver."""
    from pyspark.sql import functions as F

    spark = session()
    root = str(source)
    frame = spark.read.option("basePath", root).parquet(root)
    present = [c for c in ROW_COLUMNS if c in frame.columns]
    frame = frame.select(*present, F.input_file_name().alias("miner_source_file"))
    frame.createOrReplaceTempView("miner_export")
    rows = rows_sql(
        "miner_export", present, *scan, SCAN_EVENT_TYPES, source_file="miner_source_file"
    )
    queries = _Queries(spark)
    # The events view, computed once and kept: the selection reads it in
    # several parts, which Spark would otherwise compute again for each.
    queries.hold("events", events_sql(rows))
    try:
        yield queries
    finally:
        for held in reversed(queries.held):
            held.unpersist()
