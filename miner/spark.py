"""The Spark engine: ``miner draft --engine spark``, for exports one machine
cannot scan.

The selection is the same SQL the embedded engine runs, transpiled to Spark
SQL by sqlglot (``miner.engine.query.render``) and run by Spark over the
export; the picked sessions are drafted by ``draft_sessions`` on the
executors - Presidio is built once per executor process (``detector_for``
caches it). The driver collects the flags and the drafted cases and writes
drafts, ledger and summary exactly as the embedded engine does. Drafted
cases travel from executors as pickled bytes of
miner's own records.

The session: an active ``SparkSession`` if there is one (``spark-submit``,
Dataproc, a notebook), else a local one (``local[*]``, or ``MINER_SPARK_MASTER``).
Needs the ``spark`` extra (``pip install 'miner[spark]'``) and Java 17.
"""

from __future__ import annotations

import os
import pickle
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pyarrow as pa

from miner.engine.events import ROW_COLUMNS
from miner.engine.query import events_sql, render, rows_sql
from miner.errors import UsageError
from miner.sample import SCAN_EVENT_TYPES, Flagged, NegativeFeedback, select
from miner.traces import DRAFT_COLUMNS, utc_frame
from miner.window import Window


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
    return (
        builder.master(master)
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
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


def spark_flags(
    source: Path | str,
    scan: tuple[datetime, datetime],
    window: tuple[datetime, datetime],
    negative: NegativeFeedback,
    config: Any,
) -> Flagged:
    """The selection as Spark SQL: the same query the embedded engine runs,
    transpiled from DuckDB's dialect by sqlglot, over the export as a
    temporary view. Only the flags relation comes back to the driver."""
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

    # The events view, computed once and kept: the selection reads it in
    # several parts, which Spark would otherwise compute again for each.
    events = spark.sql(render(events_sql(rows), "spark")).cache()
    events.createOrReplaceTempView("events")

    def run(sql: str) -> pa.Table:
        return spark.sql(render(sql, "spark")).toArrow()

    try:
        return select(run, negative, config.signals, *window, str(source))
    finally:
        events.unpersist()


def spark_draft(
    source: Path | str,
    start: datetime,
    end: datetime,
    picked: list[str],
    context: Any,
) -> Any:
    """``draft_sessions`` for the picked sessions, on the executors."""
    from pyspark.sql import functions as F

    from miner.job import Drafted, draft_sessions
    from miner.redaction.policy import policy_for

    spark = session()
    frame = _rows(spark, source, DRAFT_COLUMNS, start, end).where(F.col("session_id").isin(picked))

    def draft(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        tables = [pa.Table.from_batches([b]) for b in batches if b.num_rows]
        if tables:
            rows = utc_frame(pa.concat_tables(tables))
            rows["source_file"] = rows["source_file"].map(_local_name)
            done = draft_sessions(rows, context, policy_for(context.config))
        else:
            done = Drafted()
        yield pa.RecordBatch.from_pydict({"payload": [pickle.dumps(done)]})

    parts = frame.repartition("session_id").mapInArrow(draft, "payload binary").collect()
    merged = Drafted()
    for part in parts:
        merged.merge(pickle.loads(part.payload))
    return merged
