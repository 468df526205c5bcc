"""The trace export and the feedback export, read. Every failure becomes an
InputError naming the file and the column; none quotes file contents.

The export (one file, a folder, or a hive ``dt=YYYY-MM-DD/`` tree, on disk
or behind ``s3://`` / ``gs://``) is opened as a pyarrow dataset and every
file's footer is checked. The engines (``miner.engine``) read it for the
selection and the picked sessions; the readers here (``scan_events``, the
score's runs) scan the pyarrow dataset batch by batch.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from miner.config_paths import is_remote
from miner.errors import InputError
from miner.traces import ANALYTICS_COLUMNS, REQUIRED_COLUMNS, utc_frame
from miner.window import Window

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow.dataset as ds

#: pyarrow's words for a file that is not Parquet, and ours (whole sentences).
_NOT_PARQUET = (
    (
        "magic bytes not found",
        "not a Parquet file: it does not end in a Parquet footer (a file of another "
        "kind saved as .parquet, or one cut short)",
    ),
    ("file size is 0 bytes", "not a Parquet file: it is empty (0 bytes)"),
    (
        "smaller than the size reported by footer",
        "not a Parquet file: its footer claims more bytes than the file has (a file "
        "cut short, or another kind of file)",
    ),
)
#: The longest part of a pyarrow message miner repeats.
_REASON_CHARS = 200


def read_reason(exc: BaseException) -> str:
    """What a pyarrow error says, as a whole sentence: ours for a file that
    is not Parquet, else pyarrow's innermost clause (it names the problem,
    never cell values), cut at a word, never inside one."""
    message = str(exc).strip()
    if not message:
        return type(exc).__name__
    for needle, sentence in _NOT_PARQUET:
        if needle in message.lower():
            return sentence
    # "Error creating dataset. Could not read schema from 'x'...: <the reason>"
    inner = message.splitlines()[0].rsplit("': ", 1)[-1].strip()
    if len(inner) <= _REASON_CHARS:
        return inner
    return inner[:_REASON_CHARS].rsplit(" ", 1)[0].rstrip(",;:") + " ..."


def unreadable_file(path: Path | str, exc: BaseException) -> str:
    """``<file>: <reason>`` for a file pyarrow cannot read as Parquet."""
    reason = read_reason(exc)
    if reason.startswith("not a Parquet file"):
        return f"{path}: {reason}"
    return f"{path}: not a readable Parquet file ({reason})"


def _missing_columns(file: str, names: Sequence[str]) -> str | None:
    """Why a file is not an ADK analytics export, naming every missing column
    at once (one run, not one per column); None when it has the required ones."""
    if all(c in names for c in REQUIRED_COLUMNS):
        return None
    missing = [c for c in REQUIRED_COLUMNS if c not in names]
    missing += [c for c in ANALYTICS_COLUMNS if c not in names and c not in missing]
    shown = ", ".join(missing[:_SHOWN_COLUMNS]) + (", ..." if len(missing) > _SHOWN_COLUMNS else "")
    required = ", ".join(REQUIRED_COLUMNS)
    return (
        f"{file}: not an ADK analytics export: missing {shown} ({len(missing)} of "
        f"{len(ANALYTICS_COLUMNS)} columns; {required} are required)"
    )


#: Missing columns named in that message before "...".
_SHOWN_COLUMNS = 6


@dataclass(frozen=True)
class Export:
    """An opened, checked trace export."""

    path: Path | str
    """As shown to the user: a local path, or a URI without its query."""
    location: Path | str
    """What pyarrow reads: a local path, or the path on ``filesystem``."""
    filesystem: pafs.FileSystem | None
    """The remote export's filesystem; None for a local one."""
    schema: pa.Schema
    """Every file's columns, united."""
    layouts: tuple[tuple[str, ...], ...]
    """The dataset's files grouped by their columns (each footer's names and
    types, in any order), groups in the order of their first file: DuckDB
    reads the files of one layout without ``union_by_name``, which kept each
    file's reader (``miner.engine.parquet.duckdb_table``)."""
    files_bound: bool = False
    """The files' lists are variables of one DuckDB connection
    (``miner.engine.parquet.bind_files``), not written in each query."""

    @functools.cached_property
    def dataset(self) -> ds.Dataset:
        """The export as a pyarrow dataset of ``schema``, made on first use
        from the files ``open_export`` listed and checked (``layouts``: a
        file written into the folder since is not read; no footer read
        again) and kept by this object.

        Not made by ``open_export``: the job opens the export, then runs the
        selection in a forked child (``miner.engine.apart``), which counts
        every page the job holds in its own RSS too. A dataset of 10,009
        small files holds 16 MiB of fragments; made in the child, which
        reads the files, it is counted once, and goes with the child."""
        import pyarrow.dataset as ds  # imports pandas: not where none is read (open_export)

        return ds.dataset(
            list(self.files),
            schema=self.schema,
            filesystem=self.filesystem,
            format="parquet",
            partitioning="hive",
            partition_base_dir=str(self.location),
        )

    @functools.cached_property
    def files(self) -> tuple[str, ...]:
        """Every file ``open_export`` listed and checked, in path order: what
        reads the export by file reads these, with no dataset made for it."""
        return tuple(sorted(file for layout in self.layouts for file in layout))

    @property
    def columns(self) -> set[str]:
        return set(self.schema.names)

    def present(self, columns: Iterable[str]) -> list[str]:
        """``columns`` the export has, once each, in order (optional ones may
        be absent)."""
        return [c for c in dict.fromkeys(columns) if c in self.columns]

    @property
    def local(self) -> bool:
        """On this machine's disks (not s3:// or gs://)."""
        return self.filesystem is None or isinstance(self.filesystem, pafs.LocalFileSystem)


def open_export(path: Path | str) -> Export:
    """Open a trace export and check every file's footer and required columns.

    ``path`` is a local file or folder, or an ``s3://`` / ``gs://`` URI read
    through pyarrow's filesystems: credentials come from the environment (the
    AWS chain, Google's application default credentials), never from miner;
    ``?endpoint_override=host:port&scheme=http`` points S3 at another server."""
    filesystem = None
    location: str | Path = path
    if is_remote(path):
        try:
            filesystem, location = pafs.FileSystem.from_uri(str(path))
        except (pa.ArrowInvalid, OSError, ValueError) as exc:
            raise InputError(f"{_shown(path)}: cannot open ({read_reason(exc)})") from None
    elif not Path(path).exists():
        raise InputError(f"{path}: no such file or folder")
    try:
        files = _listed_files(filesystem or pafs.LocalFileSystem(), str(location))
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"{_shown(path)}: cannot list files ({read_reason(exc)})") from None
    if not files:
        raise InputError(f"{path}: no Parquet files found")
    footers = []
    layouts: dict[tuple[tuple[str, str], ...], list[str]] = {}
    for file in files:
        try:
            # The footer's schema only: a fragment's physical_schema keeps the
            # whole parsed footer alive (20 MiB for a file of 764 row groups).
            schema = pq.read_schema(file, filesystem=filesystem)
        except (pa.ArrowInvalid, OSError) as exc:
            shown = _shown(path) if file == str(location) else file
            raise InputError(unreadable_file(shown, exc)) from None
        missing = _missing_columns(file, schema.names)
        if missing:
            raise InputError(missing)
        if not pa.types.is_timestamp(schema.field("timestamp").type):
            raise InputError(
                f"{file}: column 'timestamp' is {schema.field('timestamp').type}, "
                "expected a timestamp"
            )
        for column in _TEXT_COLUMNS:
            if column in schema.names and not _is_text(schema.field(column).type):
                raise InputError(
                    f"{file}: column '{column}' is {schema.field(column).type}, expected a string"
                )
        footers.append(schema)
        layout = tuple(sorted((field.name, str(field.type)) for field in schema))
        layouts.setdefault(layout, []).append(file)
    # The columns as pyarrow's dataset of the export had them: the first
    # file's, then the hive partitions' (``dt``), then any other file's.
    schemas = [footers[0], _hive_partitions(files, str(location)), *footers]
    try:
        unified = pa.unify_schemas(schemas, promote_options="permissive")
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
        raise InputError(f"{path}: files disagree on column types ({read_reason(exc)})") from None
    return Export(
        path=_shown(path),
        location=location,
        filesystem=filesystem,
        schema=unified,
        layouts=tuple(tuple(f) for f in layouts.values()),
    )


def _listed_files(filesystem: pafs.FileSystem, location: str) -> list[str]:
    """The Parquet files of an export, as ``pyarrow.dataset.dataset`` lists
    them: the file itself, or every file under the folder, in path order,
    but those with a part of their path under it starting with ``.`` or
    ``_`` (``_SUCCESS``, ``.crc``). Listed here, not by a dataset: importing
    ``pyarrow.dataset`` imports pandas (33 MiB), which the first stage's
    child, which opens the export, never needs (``miner.first_stage``)."""
    if filesystem.get_file_info(location).type != pafs.FileType.Directory:
        return [location]
    base = location.rstrip("/")
    files = []
    for info in filesystem.get_file_info(pafs.FileSelector(base, recursive=True)):
        parts = info.path[len(base) + 1 :].split("/")
        if info.type == pafs.FileType.File and not any(p.startswith((".", "_")) for p in parts):
            files.append(info.path)
    return sorted(files)


#: The folder name pyarrow's hive partitioning reads as a null value.
_HIVE_NULL = "__HIVE_DEFAULT_PARTITION__"
_INT32 = re.compile(r"-?[0-9]+")


def _hive_partitions(files: Sequence[str], location: str) -> pa.Schema:
    """The ``key=value`` folders' columns under ``location``, typed as
    pyarrow's hive partitioning infers them: int32 when every value is
    one, else a string (in the order the keys first appear)."""
    base = location.rstrip("/")
    values: dict[str, list[str]] = {}
    for file in files:
        folders = file[len(base) + 1 :].split("/")[:-1] if file != location else []
        for folder in folders:
            key, equals, value = folder.partition("=")
            if equals and key:
                value = unquote(value)
                values.setdefault(key, [])
                if value != _HIVE_NULL:
                    values[key].append(value)
    return pa.schema([pa.field(key, _partition_type(seen)) for key, seen in values.items()])


def _partition_type(values: Sequence[str]) -> pa.DataType:
    if not values:
        return pa.null()
    if all(_INT32.fullmatch(v) and -(2**31) <= int(v) < 2**31 for v in values):
        return pa.int32()
    return pa.string()


def _shown(path: Path | str) -> Path | str:
    """A source as errors and summaries show it: a URI without its query."""
    return path.split("?", 1)[0] if isinstance(path, str) else path


#: Columns every plugin writes as strings; anything else is not an ADK export.
_TEXT_COLUMNS = (
    "event_type", "session_id", "invocation_id", "event_id", "agent", "status", "span_id",
    "user_id", "error_message",
)  # fmt: skip


def _is_text(kind: pa.DataType) -> bool:
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    return bool(
        pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_null(kind)
    )


def scan_events(
    export: Export,
    columns: Iterable[str],
    start: datetime,
    end: datetime,
    event_types: Iterable[str] | None = None,
    session_ids: Iterable[str] | None = None,
    batch_rows: int = 16_384,
) -> Iterator[pd.DataFrame]:
    """Rows with ``start <= timestamp < end`` as DataFrames of at most ``batch_rows``.

    Only ``columns`` that the export has are read (optional ones may be
    absent), plus ``source_file``. With ``event_types``, rows of those types and
    rows with status ERROR; with ``session_ids``, only those sessions.
    """
    for batch in scan_batches(export, columns, start, end, event_types, session_ids, batch_rows):
        yield utc_frame(batch)


def scan_batches(
    export: Export,
    columns: Iterable[str],
    start: datetime,
    end: datetime,
    event_types: Iterable[str] | None = None,
    session_ids: Iterable[str] | None = None,
    batch_rows: int = 16_384,
) -> Iterator[pa.RecordBatch]:
    """``scan_events`` as Arrow record batches (``source_file`` included), for
    stages that decide on whole columns before touching a row."""
    import pyarrow.dataset as ds

    present = export.present(columns)
    window = Window(start, end).arrow(export.dataset.schema)
    try:
        orphans = export.dataset.to_table(
            columns=["__filename"], filter=window & ds.field("session_id").is_null()
        )
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"{export.path}: cannot read rows ({read_reason(exc)})") from None
    counts = Counter(orphans.column("__filename").to_pylist())
    refuse_rows_without_session(export.path, sorted(counts.items()))
    expr = window & ds.field("session_id").is_valid()
    if event_types is not None:
        wanted = ds.field("event_type").isin(list(event_types))
        if "status" in export.columns:
            wanted |= ds.field("status") == "ERROR"
        expr &= wanted
    if session_ids is not None:
        expr &= ds.field("session_id").isin(list(session_ids))
    try:
        for batch in export.dataset.to_batches(
            columns=[*present, "__filename"],
            filter=expr,
            batch_size=batch_rows,
            # Arrow's defaults read 16 batches and 4 files ahead: hundreds of MiB
            # of JSON payloads on a large export, for no gain on two cores.
            batch_readahead=2,
            fragment_readahead=1,
        ):
            names = ["source_file" if n == "__filename" else n for n in batch.schema.names]
            yield batch.rename_columns(names)
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"{export.path}: cannot read rows ({read_reason(exc)})") from None


def refuse_rows_without_session(export: Path | str, orphans: Sequence[tuple[str, int]]) -> None:
    """InputError naming the file and the count when rows in the window have
    a null ``session_id``: such a row belongs to no case, and dropping it in
    silence loses data nobody is told about (exit 3, nothing written)."""
    if not orphans:
        return
    file, count = orphans[0]
    total = sum(n for _f, n in orphans)
    others = f" ({total:,} in {len(orphans)} files)" if len(orphans) > 1 else ""
    where = "" if str(export) == file else f" in {export}"  # a one-file export is the file
    raise InputError(
        f"{file}: {count:,} row{'s' if count != 1 else ''} with a null session_id{others}"
        f"{where}; every row must belong to a session"
    )


def event_types(export: Export, start: datetime, end: datetime) -> set[str]:
    """The distinct event types of the rows in ``[start, end)`` (one column read)."""
    try:
        table = export.dataset.to_table(
            columns=["event_type"], filter=Window(start, end).arrow(export.dataset.schema)
        )
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"{export.path}: cannot read rows ({read_reason(exc)})") from None
    return {str(v) for v in pc.unique(table.column("event_type")).to_pylist() if v is not None}


def latest_timestamp(export: Export) -> datetime | None:
    """The newest event time in the export (one column is read), in UTC to
    the microsecond. File by file, not through ``export.dataset``, and as
    integers, never a value handed to Python: ``--until latest`` runs this
    in the first stage's child on a large export, and pyarrow imports pandas
    (33 MiB) on its first Python value, as importing its dataset does
    (``miner.first_stage``)."""
    # Microseconds since the epoch, whatever each file's unit and zone
    # (nanoseconds cut, as pandas' Timestamp cut them to a datetime before).
    in_micros = pa.timestamp("us", "UTC")
    newest: int | None = None
    try:
        for file in export.files:
            for batch in pq.ParquetFile(file, filesystem=export.filesystem).iter_batches(
                columns=["timestamp"]
            ):
                highest = pc.max(batch.column(0).cast(in_micros, safe=False))
                if highest.is_valid and (newest is None or highest.value > newest):
                    newest = highest.value
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"{export.path}: cannot read rows ({read_reason(exc)})") from None
    if newest is None:
        return None
    return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=newest)


def read_feedback(
    path: Path, columns: list[str], required: list[str], one_of: list[str] | None = None
) -> pa.Table:
    """The feedback export (a file, or a folder of files); ``required``
    columns must all be there, and at least one of ``one_of`` (a rating
    names its session or its invocation). Read file by file, not as a
    pyarrow dataset: importing one imports pandas, which the first stage's
    child, which reads the ratings, never needs (``miner.first_stage``)."""
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    try:
        files = _listed_files(pafs.LocalFileSystem(), str(path))
        first = pq.read_schema(files[0]) if files else pa.schema([])
        names = first.names
        missing = [c for c in required if c not in names]
        if missing:
            named = ", ".join(f"'{c}'" for c in missing)
            plural = "s" if len(missing) > 1 else ""
            raise InputError(f"{path}: missing required feedback column{plural} {named}")
        if one_of and not any(c in names for c in one_of):
            wanted = "' or '".join(one_of)
            raise InputError(
                f"{path}: no feedback column '{wanted}' to say which session was rated "
                "([feedback] session_column / invocation_column in the config)"
            )
        present = [c for c in columns if c in names]
        # Every file read as the first file's columns, as a dataset of the
        # folder read them: a score written as text in one file and as a
        # number in the next is text in both (merged, they would refuse).
        wanted = pa.schema([first.field(c) for c in present])
        tables = []
        for file in files:
            ratings = pq.ParquetFile(file)
            here = [c for c in present if c in ratings.schema_arrow.names]
            table = ratings.read(columns=here)
            # A file without a column the first has: nulls, as a dataset reads it.
            for column in present:
                if column not in here:
                    table = table.append_column(column, pa.nulls(table.num_rows))
            tables.append(table.select(present).cast(wanted))
        return pa.concat_tables(tables)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, OSError) as exc:
        raise InputError(unreadable_file(path, exc)) from None


def run_exports(paths: Iterable[Path]) -> list[tuple[str, Path]]:
    """(label, export) for each run. A folder whose sub-folders are not
    ``key=value`` partitions but hold Parquet files is a folder of runs, one
    per sub-folder; anything else is one run."""
    runs: list[tuple[str, Path]] = []
    for path in paths:
        if not path.exists():
            raise InputError(f"{path}: no such file or folder")
        subdirs = sorted(p for p in path.iterdir() if p.is_dir()) if path.is_dir() else []
        if (
            subdirs
            and not any("=" in p.name for p in subdirs)
            and all(any(p.rglob("*.parquet")) for p in subdirs)
        ):
            runs.extend((f"{path.name}/{p.name}", p) for p in subdirs)
        else:
            runs.append((path.name, path))
    return runs


def read_all_events(export: Export, columns: Iterable[str]) -> pd.DataFrame:
    """Every row of an export (a run of the suite is small), the given columns."""
    start = datetime(1970, 1, 1, tzinfo=UTC)
    end = datetime(9999, 1, 1, tzinfo=UTC)
    import pandas as pd

    frames = list(scan_events(export, columns, start, end))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
