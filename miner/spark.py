"""The Spark engine: ``miner draft --engine spark``, for exports one machine
cannot scan.

The same stage functions run next to the data: the signal scan is
``flag_sessions`` over each partition of the export repartitioned by session
id (so a session's rows meet in one partition), and the picked sessions are
drafted by ``draft_sessions`` on the executors - Presidio is built once per
executor process (``detector_for`` caches it). The driver collects the flags
and the drafted cases and writes drafts, ledger and summary exactly as the
embedded engine does. Results travel from executors as pickled bytes of
miner's own records.

The session: an active ``SparkSession`` if there is one (``spark-submit``,
Dataproc, a notebook), else a local one (``local[*]``, or ``MINER_SPARK_MASTER``).
Needs the ``spark`` extra (``pip install 'miner[spark]'``) and Java 17.
"""

from __future__ import annotations

import os
import pickle
import sys
from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pyarrow as pa

from miner.errors import UsageError
from miner.model import SessionFlags
from miner.sample import SCAN_COLUMNS, SCAN_EVENT_TYPES, NegativeFeedback, flag_sessions
from miner.traces import DRAFT_COLUMNS, utc_frame


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
    return builder.master(master).config("spark.ui.enabled", "false").getOrCreate()


def _rows(
    spark: Any, source: Path | str, columns: tuple[str, ...], start: datetime, end: datetime
) -> Any:
    """The export's rows in the window, these columns, a session id, and the file."""
    from pyspark.sql import functions as F

    root = str(source)
    frame = spark.read.option("basePath", root).parquet(root)
    present = [c for c in columns if c in frame.columns]
    frame = frame.where(
        (F.col("timestamp") >= F.lit(start))
        & (F.col("timestamp") < F.lit(end))
        & F.col("session_id").isNotNull()
    )
    return frame.select(*present, F.input_file_name().alias("source_file"))


def _refuse_orphans(spark: Any, source: Path | str, start: datetime, end: datetime) -> None:
    """Rows of the window with a null session_id stop the run, as in the
    local engines (``files.refuse_rows_without_session`` says why)."""
    from pyspark.sql import functions as F

    from miner.files import refuse_rows_without_session

    root = str(source)
    frame = spark.read.option("basePath", root).parquet(root)
    orphans = (
        frame.where(
            (F.col("timestamp") >= F.lit(start))
            & (F.col("timestamp") < F.lit(end))
            & F.col("session_id").isNull()
        )
        .groupBy(F.input_file_name().alias("file"))
        .count()
        .orderBy("file")
        .collect()
    )
    found = [(_local_name(row["file"]), int(row["count"])) for row in orphans]
    if found:
        refuse_rows_without_session(source, found)


def _local_name(path: str) -> str:
    return path.removeprefix("file://")


def spark_flags(
    source: Path | str,
    start: datetime,
    end: datetime,
    negative: NegativeFeedback,
    config: Any,
    rows_read: Counter[tuple[str, str]],
) -> dict[str, SessionFlags]:
    """``flag_sessions`` as a Spark job over the export."""
    from pyspark.sql import functions as F

    spark = session()
    _refuse_orphans(spark, source, start, end)
    frame = _rows(spark, source, SCAN_COLUMNS, start, end)
    wanted = F.col("event_type").isin(list(SCAN_EVENT_TYPES))
    if "status" in frame.columns:
        wanted = wanted | (F.col("status") == "ERROR")
    frame = frame.where(wanted)
    signals = config.signals

    def flag(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        counts: Counter[tuple[str, str]] = Counter()
        flags = flag_sessions(batches, negative, signals, counts)
        yield pa.RecordBatch.from_pydict({"payload": [pickle.dumps((flags, counts))]})

    parts = frame.repartition("session_id").mapInArrow(flag, "payload binary").collect()
    flags: dict[str, SessionFlags] = {}
    for part in parts:
        found, counts = pickle.loads(part.payload)
        flags.update(found)
        rows_read.update(counts)
    return flags


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

    spark = session()
    frame = _rows(spark, source, DRAFT_COLUMNS, start, end).where(F.col("session_id").isin(picked))

    def draft(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        tables = [pa.Table.from_batches([b]) for b in batches if b.num_rows]
        if tables:
            rows = utc_frame(pa.concat_tables(tables))
            rows["source_file"] = rows["source_file"].map(_local_name)
            done = draft_sessions(rows, context)
        else:
            done = Drafted()
        yield pa.RecordBatch.from_pydict({"payload": [pickle.dumps(done)]})

    parts = frame.repartition("session_id").mapInArrow(draft, "payload binary").collect()
    merged = Drafted()
    for part in parts:
        merged.merge(pickle.loads(part.payload))
    return merged
