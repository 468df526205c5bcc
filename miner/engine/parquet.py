"""A trace export (``miner.source.Export``) as DuckDB's FROM item: a local
export read by DuckDB's own Parquet reader (hive ``dt=`` partitions, files
of different columns united by name, each row's file kept), a remote one
copied once into the engine's private spill folder."""

from __future__ import annotations

import dataclasses
import itertools
import os
import re
from collections.abc import Sequence
from typing import Any, Protocol

import pyarrow as pa

from miner import source
from miner.engine.sql import text
from miner.source import Export
from miner.window import Window


class SpillingEngine(Protocol):
    """What ``copy_remote`` needs of the engine (``miner.engine.duck.Duck``,
    which imports this module): its connection, its private spill folder,
    and a statement run with its errors named."""

    con: Any
    spill: str

    def execute(self, sql: str) -> None: ...


def duckdb_table(export: Export, row_numbers: bool = False) -> str:
    """A local export as DuckDB's FROM item: hive ``dt=`` partitions, files
    of different columns united by name, each row's file kept as
    ``miner_source_file`` (a name of our own: an export may have a column
    called filename); with ``row_numbers``, each row's place in its file
    (``file_row_number``).

    The files of one layout (``Export.layouts``: the same columns) are one
    ``read_parquet``, layouts are united by name (``UNION ALL BY NAME``; a
    column a layout lacks reads as NULL). Not ``union_by_name``, which opens
    every file when the query is bound and kept each file's reader until it
    ended, memory that grew with the files: on 5M rows in 2,507 files the
    check for Go rows ended 175 MiB higher, and the selection peaked at 505
    MiB against 399. Past ``UNITED_LAYOUTS`` layouts, a pathological export,
    ``union_by_name`` reads them all at once: 300 one-file layouts united by
    name took x5 its CPU."""
    numbered = ", file_row_number = true" if row_numbers else ""
    options = (
        "hive_partitioning = true, hive_types_autocast = false, "
        f"filename = 'miner_source_file'{numbered}"
    )

    def read(at: int, united: str = "") -> str:
        if export.files_bound:
            files = f"getvariable({text(_files_variable(at))})"
        else:
            files = f"[{', '.join(text(f) for f in _file_lists(export)[at])}]"
        return f"read_parquet({files}, {options}{united})"

    if len(export.layouts) > UNITED_LAYOUTS:
        return read(0, ", union_by_name = true")
    if len(export.layouts) == 1:
        return read(0)
    united = " UNION ALL BY NAME ".join(
        f"SELECT * FROM {read(at)}" for at in range(len(export.layouts))
    )
    return f"({united})"


def bind_files(con: Any, export: Export) -> Export:
    """``export`` read by ``duckdb_table`` from file lists held as variables
    of the DuckDB connection ``con`` (``SET VARIABLE``, the list a
    parameter), for queries on ``con`` alone.

    Written into each query, a list of 10,009 files is 1.2 MB of SQL that
    DuckDB parses again for every query that reads the export: a scan of
    the files' ``event_type`` peaked at 165 MiB, and a second one at 193
    (the selection's child reads the export three times), against 140 and
    145 with the list a variable; parsed once as a literal, the variable
    itself took 74 MiB."""
    for at, files in enumerate(_file_lists(export)):
        con.execute(f"SET VARIABLE {_files_variable(at)} = ?", [list(files)])
    return dataclasses.replace(export, files_bound=True)


def _file_lists(export: Export) -> Sequence[Sequence[str]]:
    """The lists of files ``duckdb_table`` reads: one per layout, or every
    file in one list past ``UNITED_LAYOUTS`` layouts."""
    if len(export.layouts) > UNITED_LAYOUTS:
        return [export.files]
    return export.layouts


def _files_variable(at: int) -> str:
    return f"miner_files_{at}"


#: Layouts (``Export.layouts``) read as one ``read_parquet`` each, at most.
UNITED_LAYOUTS = 16


DAY_PARTITION = re.compile(r"(?:^|/)dt=([^/]*)/")
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def iso_day_partitions(export: Export) -> bool:
    """Every file sits under a ``dt=YYYY-MM-DD/`` folder: only then may the
    window prune partitions by comparing dt as text (``dt=20261120`` would
    compare wrongly; such exports are filtered by timestamp alone)."""
    if "dt" not in export.columns:
        return False
    days = [DAY_PARTITION.search(path) for path in export.files]
    return all(day is not None and _ISO_DAY.fullmatch(day.group(1)) for day in days)


def copy_remote(
    duck: SpillingEngine,
    export: Export,
    present: list[str],
    window: Window,
    kinds: Sequence[str] | None = None,
    session_ids: Sequence[str] | None = None,
) -> str:
    """A remote export's rows in ``window`` (``scan_batches``: of ``kinds``
    or with status ERROR, of ``session_ids``, when given) as DuckDB's FROM
    item: read once by pyarrow (its filesystems hold the credentials chain
    and push the window down) into a Parquet file in the engine's private
    spill folder, which the queries then read."""
    batches = source.scan_batches(export, present, window.since, window.until, kinds, session_ids)
    first = next(batches, None)
    if first is None:
        schema = export.dataset.schema
        empty = pa.table(
            {c: pa.array([], schema.field(c).type) for c in present}
            | {"source_file": pa.array([], pa.string())}
        )
        duck.con.register("remote_rows", empty)
    else:
        stream = pa.RecordBatchReader.from_batches(first.schema, itertools.chain([first], batches))
        duck.con.register("remote_rows", stream)
    local = os.path.join(duck.spill, "remote-rows.parquet")
    duck.execute(f"COPY remote_rows TO {text(local)} (FORMAT parquet)")
    duck.con.unregister("remote_rows")
    return f"read_parquet({text(local)})"
