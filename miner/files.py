"""All of miner's file I/O but the config: the trace export, the feedback
export, the output folder. Every failure becomes a MinerError naming the file and the
column or key; none quotes file contents.

Reading: the export (one file, a folder, or a hive ``dt=YYYY-MM-DD/`` tree,
on disk or behind ``s3://`` / ``gs://``) is opened as a pyarrow dataset and
every file's footer is checked. The picked sessions are read by DuckDB
(``read_sessions``): only the columns asked for, the window pushed down to
the ``dt`` partitions and to row-group statistics; the selection runs in
``miner.engine``. Other readers (``scan_events``, the score's runs) scan
the pyarrow dataset batch by batch.

Writing: a run stages every file under ``<out>/.miner-staging-*`` and then
renames each case folder into place, so a crash leaves either a whole case
folder or none; the ledger and the run summary are replaced atomically.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import itertools
import os
import re
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from miner.case import CASE_SUFFIXES, case_file_names
from miner.config import ScanConfig, is_remote
from miner.errors import (
    BusyError,
    ConfigError,
    ConflictError,
    InputError,
    MinerError,
    OutputError,
)
from miner.traces import REQUIRED_COLUMNS, utc_frame

LEDGER_NAME = "miner-ledger.json"
RUNS_DIR = "runs"
#: The page listing every run, beside their summaries.
RUNS_INDEX = "index.html"


def _reason(exc: BaseException) -> str:
    """First line of a pyarrow error: it names the problem, never cell values."""
    return str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__


@dataclass(frozen=True)
class Export:
    """An opened, checked trace export."""

    path: Path | str
    """As shown to the user: a local path, or a URI without its query."""
    dataset: ds.Dataset

    @property
    def columns(self) -> set[str]:
        return set(self.dataset.schema.names)

    def present(self, columns: Iterable[str]) -> list[str]:
        """``columns`` the export has, once each, in order (optional ones may
        be absent)."""
        return [c for c in dict.fromkeys(columns) if c in self.columns]

    @property
    def local(self) -> bool:
        """On this machine's disks (not s3:// or gs://)."""
        return isinstance(self.dataset.filesystem, pafs.LocalFileSystem)


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
            raise InputError(f"{_shown(path)}: cannot open ({_reason(exc)})") from None
    elif not Path(path).exists():
        raise InputError(f"{path}: no such file or folder")
    try:
        dataset = ds.dataset(location, filesystem=filesystem, format="parquet", partitioning="hive")
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(
            f"{_shown(path)}: not a readable Parquet export ({_reason(exc)})"
        ) from None
    if not dataset.files:
        raise InputError(f"{path}: no Parquet files found")
    schemas = [dataset.schema]
    for fragment in dataset.get_fragments():
        try:
            # The footer's schema only: a fragment's physical_schema keeps the
            # whole parsed footer alive (20 MiB for a file of 764 row groups).
            schema = pq.read_schema(fragment.path, filesystem=dataset.filesystem)
        except (pa.ArrowInvalid, OSError) as exc:
            raise InputError(
                f"{fragment.path}: not a readable Parquet file ({_reason(exc)})"
            ) from None
        for column in REQUIRED_COLUMNS:
            if column not in schema.names:
                raise InputError(f"{fragment.path}: missing required column '{column}'")
        if not pa.types.is_timestamp(schema.field("timestamp").type):
            raise InputError(
                f"{fragment.path}: column 'timestamp' is {schema.field('timestamp').type}, "
                "expected a timestamp"
            )
        for column in _TEXT_COLUMNS:
            if column in schema.names and not _is_text(schema.field(column).type):
                raise InputError(
                    f"{fragment.path}: column '{column}' is {schema.field(column).type}, "
                    "expected a string"
                )
        schemas.append(schema)
    try:
        unified = pa.unify_schemas(schemas, promote_options="permissive")
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
        raise InputError(f"{path}: files disagree on column types ({_reason(exc)})") from None
    dataset = ds.dataset(
        location, schema=unified, filesystem=filesystem, format="parquet", partitioning="hive"
    )
    return Export(path=_shown(path), dataset=dataset)


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


#: Timestamps Arrow can hold at nanoseconds; a wider window is clamped to them.
_ARROW_EARLIEST = datetime(1678, 1, 1, tzinfo=UTC)
_ARROW_LATEST = datetime(2262, 1, 1, tzinfo=UTC)


def _clamped(moment: datetime) -> datetime:
    return min(max(moment.astimezone(UTC), _ARROW_EARLIEST), _ARROW_LATEST)


def _window_filter(export: Export, start: datetime, end: datetime) -> ds.Expression:
    schema = export.dataset.schema
    ts_type = schema.field("timestamp").type
    lo, hi = _clamped(start), _clamped(end)
    if ts_type.tz is None:  # a naive export column is taken to be UTC
        lo, hi = lo.replace(tzinfo=None), hi.replace(tzinfo=None)
    expr = (ds.field("timestamp") >= pa.scalar(lo, type=ts_type)) & (
        ds.field("timestamp") < pa.scalar(hi, type=ts_type)
    )
    if "dt" in schema.names:  # hive partitions: prune whole days before opening files
        dt_type = schema.field("dt").type
        if pa.types.is_string(dt_type) or pa.types.is_large_string(dt_type):
            expr &= (ds.field("dt") >= lo.date().isoformat()) & (
                ds.field("dt") <= hi.date().isoformat()
            )
        elif pa.types.is_date(dt_type):
            expr &= (ds.field("dt") >= pa.scalar(lo.date(), type=dt_type)) & (
                ds.field("dt") <= pa.scalar(hi.date(), type=dt_type)
            )
    return expr


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
    present = export.present(columns)
    window = _window_filter(export, start, end)
    try:
        orphans = export.dataset.to_table(
            columns=["__filename"], filter=window & ds.field("session_id").is_null()
        )
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"{export.path}: cannot read rows ({_reason(exc)})") from None
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
        raise InputError(f"{export.path}: cannot read rows ({_reason(exc)})") from None


def read_sessions(
    export: Export,
    columns: Iterable[str],
    start: datetime,
    end: datetime,
    session_ids: Iterable[str],
    scan: ScanConfig,
) -> pd.DataFrame:
    """Every row in the window of the given sessions (``columns`` the export
    has, plus ``source_file``), read by DuckDB as ``scan_passes`` reads."""
    present = export.present(columns)
    ids = sorted(set(session_ids))
    with _duckdb(scan) as duck:
        duck.con.register("wanted_sessions", pa.table({"session_id": pa.array(ids, pa.string())}))
        source, params = _duck_rows(duck, export, present, start, end, None, ids, 16_384)
        query = (
            f"SELECT * FROM {source} WHERE session_id IN (SELECT session_id FROM wanted_sessions)"
        )
        table = _duck(export, scan, lambda: duck.sql(query, params).to_arrow_table())
    return utc_frame(table)


@contextlib.contextmanager
def _duckdb(scan: ScanConfig) -> Iterator[Any]:
    """An in-memory DuckDB under the ``[scan]`` settings, spilling to a
    private temporary folder removed afterwards (``con.spill``)."""
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
        except duckdb.Error as exc:
            raise ConfigError(f"[scan]: DuckDB refused the settings ({_reason(exc)})") from None
        try:
            yield _Duck(con, scan, spill)
        finally:
            con.close()


@dataclass(frozen=True)
class _Duck:
    con: Any
    scan: ScanConfig
    spill: str

    def sql(self, query: str, params: Any = None) -> Any:
        return self.con.sql(query, params=params)


def _duck_rows(
    duck: _Duck,
    export: Export,
    present: list[str],
    start: datetime,
    end: datetime,
    kinds: list[str] | None,
    session_ids: list[str] | None,
    batch_rows: int,
    only_on: Mapping[str, Sequence[str]] | None = None,
) -> tuple[str, list[Any]]:
    """A FROM item of the rows in the window (of ``kinds`` or with status
    ERROR, when given): exactly the ``present`` columns and ``source_file``;
    and the query parameters. A column named in ``only_on`` holds its value
    on rows of those event types alone, null elsewhere (fewer bytes to hand
    on; a remote export's copy keeps it whole)."""
    if not export.local:
        # A remote export is read once, by pyarrow (its filesystems hold the
        # credentials chain and push the window down), into a Parquet file in
        # the private spill folder; the passes then read that file.
        batches = scan_batches(export, present, start, end, kinds, session_ids, batch_rows)
        first = next(batches, None)
        if first is None:
            schema = export.dataset.schema
            empty = pa.table(
                {c: pa.array([], schema.field(c).type) for c in present}
                | {"source_file": pa.array([], pa.string())}
            )
            duck.con.register("remote_rows", empty)
        else:
            stream = pa.RecordBatchReader.from_batches(
                first.schema, itertools.chain([first], batches)
            )
            duck.con.register("remote_rows", stream)
        local = os.path.join(duck.spill, "remote-rows.parquet")
        _duck(
            export,
            duck.scan,
            lambda: duck.con.execute(f"COPY remote_rows TO {_sql_text(local)} (FORMAT parquet)"),
        )
        duck.con.unregister("remote_rows")
        return f"read_parquet({_sql_text(local)})", []
    lo, hi = _clamped(start), _clamped(end)
    where = "timestamp >= ?::TIMESTAMPTZ AND timestamp < ?::TIMESTAMPTZ AND session_id IS NOT NULL"
    params: list[Any] = [lo, hi]
    if _iso_day_partitions(export):  # whole days pruned before files open
        where += " AND dt >= ? AND dt <= ?"
        params += [lo.date().isoformat(), hi.date().isoformat()]
    if kinds is not None:
        wanted = ", ".join(_sql_text(k) for k in kinds)
        if "status" in export.columns:
            where += f" AND (event_type IN ({wanted}) OR status = 'ERROR')"
        else:
            where += f" AND event_type IN ({wanted})"
    files = ", ".join(_sql_text(f) for f in export.dataset.files)
    table = (
        f"read_parquet([{files}], hive_partitioning = true, union_by_name = true, "
        "hive_types_autocast = false, filename = 'miner_source_file')"
    )

    # Only the columns asked for, and the file under a name of our own (an
    # export may have a column called filename).
    def selected(column: str) -> str:
        if only_on and column in only_on:
            on = ", ".join(_sql_text(kind) for kind in only_on[column])
            name = _sql_name(column)
            held = f"event_type IN ({on})" if on else "false"  # false: never read
            return f"CASE WHEN {held} THEN {name} END AS {name}"
        return _sql_name(column)

    window = where.replace(" AND session_id IS NOT NULL", "")
    orphans = _duck(
        export,
        duck.scan,
        lambda: duck.con.execute(
            f"SELECT miner_source_file, count(*) FROM {table} "
            f"WHERE {window} AND session_id IS NULL GROUP BY 1 ORDER BY 1",
            params,
        ).fetchall(),
    )
    refuse_rows_without_session(export.path, [(str(f), int(n)) for f, n in orphans])
    names = ", ".join(selected(c) for c in present)
    rows = f"SELECT {names}, miner_source_file AS source_file FROM {table} WHERE {where}"
    return f"({rows})", params


def refuse_rows_without_session(export: Path | str, orphans: Sequence[tuple[str, int]]) -> None:
    """InputError naming the file and the count when rows in the window have
    a null ``session_id``: such a row belongs to no case, and dropping it in
    silence loses data nobody is told about (exit 3, nothing written)."""
    if not orphans:
        return
    file, count = orphans[0]
    total = sum(n for _f, n in orphans)
    others = f" ({total:,} in {len(orphans)} files)" if len(orphans) > 1 else ""
    raise InputError(
        f"{file}: {count:,} row{'s' if count != 1 else ''} with a null session_id{others} "
        f"in {export}; every row must belong to a session"
    )


_DT = re.compile(r"(?:^|/)dt=([^/]*)/")
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _iso_day_partitions(export: Export) -> bool:
    """Every file sits under a ``dt=YYYY-MM-DD/`` folder: only then may the
    window prune partitions by comparing dt as text (``dt=20261120`` would
    compare wrongly; such exports are filtered by timestamp alone)."""
    if "dt" not in export.columns:
        return False
    days = [_DT.search(path) for path in export.dataset.files]
    return all(day is not None and _ISO_DAY.fullmatch(day.group(1)) for day in days)


def _duck(export: Export, scan: ScanConfig, run: Any) -> Any:
    import duckdb

    try:
        return run()
    except duckdb.Error as exc:
        raise _duck_error(export, scan, exc) from None


def _duck_batches(export: Export, scan: ScanConfig, reader: Any) -> Iterator[pa.RecordBatch]:
    import duckdb

    try:
        yield from reader
    except (duckdb.Error, pa.ArrowException) as exc:
        raise _duck_error(export, scan, exc) from None


def _duck_error(export: Export, scan: ScanConfig, exc: BaseException) -> MinerError:
    import duckdb

    if isinstance(exc, duckdb.OutOfMemoryException):
        return ConfigError(
            f"[scan] memory_limit = {scan.memory_limit!r} is too small to scan {export.path} "
            f"({_reason(exc)}); raise it"
        )
    return InputError(f"{export.path}: cannot read rows ({_reason(exc)})")


def _sql_text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _sql_name(column: str) -> str:
    return '"' + column.replace('"', '""') + '"'


def event_types(export: Export, start: datetime, end: datetime) -> set[str]:
    """The distinct event types of the rows in ``[start, end)`` (one column read)."""
    try:
        table = export.dataset.to_table(
            columns=["event_type"], filter=_window_filter(export, start, end)
        )
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"{export.path}: cannot read rows ({_reason(exc)})") from None
    return {str(v) for v in pc.unique(table.column("event_type")).to_pylist() if v is not None}


def latest_timestamp(export: Export) -> datetime | None:
    """The newest event time in the export (one column is read)."""
    newest: pd.Timestamp | None = None
    try:
        for batch in export.dataset.to_batches(columns=["timestamp"]):
            if batch.num_rows:
                value = pd.Timestamp(pc.max(batch.column(0)).as_py())
                newest = value if newest is None or value > newest else newest
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"{export.path}: cannot read rows ({_reason(exc)})") from None
    if newest is None:
        return None
    return (newest.tz_localize("UTC") if newest.tzinfo is None else newest).to_pydatetime()


def read_feedback(
    path: Path, columns: list[str], required: list[str], one_of: list[str] | None = None
) -> pd.DataFrame:
    """The feedback export; ``required`` columns must all be there, and at
    least one of ``one_of`` (a rating names its session or its invocation)."""
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    try:
        dataset = ds.dataset(path, format="parquet")
        missing = [c for c in required if c not in dataset.schema.names]
        if missing:
            raise InputError(f"{path}: missing required feedback column '{missing[0]}'")
        if one_of and not any(c in dataset.schema.names for c in one_of):
            wanted = "' or '".join(one_of)
            raise InputError(
                f"{path}: no feedback column '{wanted}' to say which session was rated "
                "([feedback] session_column / invocation_column in the config)"
            )
        present = [c for c in columns if c in dataset.schema.names]
        return dataset.to_table(columns=present).to_pandas()
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"{path}: not a readable Parquet file ({_reason(exc)})") from None


def _dumps(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_INDENT_2) + b"\n"


def _new_file_mode() -> int:
    """What ``open()`` would give a new file: 0666 less the umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _write_atomic(path: Path, data: bytes) -> None:
    """Write beside ``path``, then rename over it: a reader sees the old file or
    the new one, never half of either. A replaced file keeps its mode; a new
    one gets the umask's (mkstemp would make it 0600)."""
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = _new_file_mode()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


LOCK_NAME = ".miner.lock"


@contextlib.contextmanager
def locked(folder: Path, timeout: float, purpose: str) -> Iterator[None]:
    """Hold ``folder``'s lock (``.miner.lock``, an flock) while the block runs.

    Another miner process holding it makes this wait up to ``timeout``
    seconds, then raise BusyError naming the holder (pid, what, since when).
    The lock goes with the process, so a killed run never leaves it held. A
    folder this call created is removed again if the block left nothing but
    the lock in it (a run refused for bad input leaves no output)."""
    created = not folder.exists()
    path = folder / LOCK_NAME
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{folder}: cannot create folder ({exc.strerror})") from None
    handle = _acquire(path, timeout)
    try:
        handle.seek(0)
        handle.truncate()
        started = datetime.now(UTC).isoformat(timespec="seconds")
        handle.write(f"pid {os.getpid()} ({purpose}, since {started})\n")
        handle.flush()
        yield
    finally:
        if created and [p.name for p in folder.iterdir()] == [LOCK_NAME]:
            # Unlinked while held: a waiter then finds its file is not the one
            # at the path any more and starts over (see _acquire).
            path.unlink(missing_ok=True)
            with contextlib.suppress(OSError):
                folder.rmdir()
        handle.close()  # releases the flock


def _acquire(path: Path, timeout: float) -> Any:
    deadline = time.monotonic() + max(timeout, 0)
    while True:
        try:
            handle = open(path, "a+")  # noqa: SIM115 - held until the caller closes it
        except OSError as exc:
            raise OutputError(f"{path}: cannot open the lock file ({exc.strerror})") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            lines = handle.read().strip().splitlines()
            holder = lines[-1] if lines else "another miner process"
            handle.close()
            if time.monotonic() >= deadline:
                raise BusyError(
                    f"{path}: held by {holder}; wait for it to finish, or pass "
                    "--lock-timeout SECONDS to wait"
                ) from None
            time.sleep(0.2)
            continue
        try:
            same = os.fstat(handle.fileno()).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return handle
        handle.close()  # the holder removed that file before we got it: again


def remove_stale_staging(out: Path) -> int:
    """Staging folders a killed run left in ``out`` (call with the lock held:
    then no live run owns one). Returns how many were removed."""
    stale = [p for p in out.glob(".miner-staging-*") if p.is_dir()] if out.is_dir() else []
    for folder in stale:
        shutil.rmtree(folder, ignore_errors=True)
    return len(stale)


_SESSION_HASH = re.compile(r"[0-9a-f]{16}")


def read_ledger(out: Path) -> frozenset[str]:
    """Session hashes drafted into ``out`` before: the ledger plus the case folders there."""
    hashes = set(_ledger_hashes(out / LEDGER_NAME))
    if out.is_dir():
        hashes.update(p.name.removeprefix("draft_") for p in out.glob("draft_*") if p.is_dir())
    return frozenset(hashes)


def read_ledger_signatures(out: Path) -> frozenset[str]:
    """Hashes of the failure signatures drafted into ``out`` before."""
    return _ledger_hashes(out / LEDGER_NAME, "signatures")


def _ledger_hashes(ledger: Path, key: str = "sessions") -> frozenset[str]:
    """The hashes under ``key`` in a ledger file (none when there is no file yet)."""
    if not ledger.exists():
        return frozenset()
    try:
        data = orjson.loads(ledger.read_bytes())
    except orjson.JSONDecodeError as exc:
        raise InputError(f"{ledger}: invalid JSON ({exc.args[0]})") from None
    except OSError as exc:
        raise InputError(f"{ledger}: cannot read ({exc.strerror})") from None
    values = data.get(key, [] if key != "sessions" else None) if isinstance(data, dict) else None
    if not isinstance(values, list) or not all(
        isinstance(h, str) and _SESSION_HASH.fullmatch(h) for h in values
    ):
        raise InputError(
            f'{ledger}: not a miner ledger (expected {{"sessions": [<16 hex digits>, ...], '
            f'"signatures": [...]}}; {key} is not)'
        )
    return frozenset(values)


def run_stem(run_name: str) -> str:
    """A run's summary and triage page name, without suffix (under ``runs/``).
    The pid too: two runs in the same second must not overwrite each other."""
    return f"{run_name}-{os.getpid()}"


def write_run(
    out: Path,
    cases: dict[str, dict[str, Any]],
    ledger: frozenset[str],
    summary: dict[str, Any],
    run_name: str,
    signatures: frozenset[str] = frozenset(),
    triage_html: str | None = None,
    runs_index: Callable[[list[tuple[str, dict[str, Any] | None]]], str] | None = None,
) -> str | None:
    """Write the case folders (name -> {file name: JSON value}), ledger and summary.

    Call with ``out``'s lock held. Nothing is left half-written: files are
    staged and each case folder is renamed into place whole; the ledger is
    merged with the one on disk and replaced atomically. The run summary comes
    last: if only it cannot be written, the run did its work, so the problem
    is returned as a warning rather than raised.
    """
    try:
        out.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".miner-staging-", dir=out))
    except OSError as exc:
        raise OutputError(f"{out}: cannot create output folder ({exc.strerror})") from None
    try:
        for name, files in cases.items():
            folder = staging / name
            folder.mkdir()
            for file_name, value in files.items():
                (folder / file_name).write_bytes(_dumps(value))
        for name in cases:
            target = out / name
            if target.exists():
                raise OutputError(f"{target}: already exists; refusing to overwrite a drafted case")
            os.rename(staging / name, target)
        merged = ledger | _ledger_hashes(out / LEDGER_NAME)
        kinds = signatures | _ledger_hashes(out / LEDGER_NAME, "signatures")
        _write_atomic(
            out / LEDGER_NAME, _dumps({"sessions": sorted(merged), "signatures": sorted(kinds)})
        )
    except OSError as exc:
        written = sum(1 for name in cases if (out / name).is_dir())
        raise OutputError(
            f"{out}: cannot write drafts ({exc.strerror}); {written} of {len(cases)} case "
            "folders are in place, each whole; the ledger was not updated"
        ) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    try:
        (out / RUNS_DIR).mkdir(exist_ok=True)
        name = run_stem(run_name)
        _write_atomic(out / RUNS_DIR / f"{name}.json", _dumps(summary))
        if triage_html is not None:
            _write_atomic(out / RUNS_DIR / f"{name}.html", triage_html.encode("utf-8"))
        if runs_index is not None:
            index = runs_index(read_run_summaries(out))
            _write_atomic(out / RUNS_DIR / RUNS_INDEX, index.encode("utf-8"))
    except OSError as exc:
        runs = out / RUNS_DIR
        return f"cases and ledger written, but not the run summary under {runs} ({exc.strerror})"
    return None


def digest(data: bytes) -> str:
    """What an edit remembers of a file it read, to notice a change before writing."""
    return hashlib.sha256(data).hexdigest()


def replace_json_files(values: Mapping[Path, Any], expected: Mapping[Path, str]) -> None:
    """Replace files with JSON ``values``, written exactly as a draft writes them,
    unless one changed since it was read (``expected``: path -> ``digest``):
    then raise ConflictError naming it, and write nothing. All new files are
    staged beside their targets first, then renamed over them one after the
    other, so each file is whole at every moment."""
    for path, wanted in expected.items():
        try:
            now = digest(path.read_bytes())
        except OSError:
            now = "missing"
        if now != wanted:
            raise ConflictError(
                f"{path}: changed on disk since the page was loaded; nothing was saved "
                "(reload to see the change)"
            )
    staged: list[tuple[str, Path]] = []
    try:
        for path, value in values.items():
            mode = path.stat().st_mode & 0o7777 if path.exists() else _new_file_mode()
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
            staged.append((tmp, path))
            with os.fdopen(fd, "wb") as handle:
                handle.write(_dumps(value))
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, mode)
        for tmp, path in staged:
            os.replace(tmp, path)
    except OSError as exc:
        raise OutputError(f"cannot save the case files ({exc.strerror})") from None
    finally:
        for tmp, _path in staged:
            Path(tmp).unlink(missing_ok=True)


def read_run_summaries(out: Path) -> list[tuple[str, dict[str, Any] | None]]:
    """Every run summary under ``out/runs``, newest first, by name; one that
    cannot be read (edited by hand, cut short) is listed as None, not skipped."""
    runs: list[tuple[str, dict[str, Any] | None]] = []
    for path in sorted((out / RUNS_DIR).glob("*.json"), reverse=True):
        try:
            summary = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            summary = None
        runs.append((path.stem, summary if isinstance(summary, dict) else None))
    return runs


def read_case_files(paths: Iterable[Path]) -> list[tuple[Path, str]]:
    """Eval sets, sidecars and tool fixtures under ``paths`` (files or folders)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(
                p
                for p in sorted(path.rglob("*.json"))
                if p.name.endswith(CASE_SUFFIXES)
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            )
        elif path.is_file():
            found.append(path)
        else:
            raise InputError(f"{path}: no such file or folder")
    files = []
    for path in dict.fromkeys(found):
        try:
            files.append((path, path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"{path}: cannot read ({type(exc).__name__})") from None
    return files


@dataclass(frozen=True)
class Suite:
    """The three files of a suite folder, as JSON values."""

    name: str
    eval_set: dict[str, Any]
    specs: list[Any]
    tools: list[Any]


def suite_paths(folder: Path, name: str) -> tuple[Path, Path, Path]:
    evalset, spec, tools = case_file_names(name)
    return folder / evalset, folder / spec, folder / tools


def existing(paths: Iterable[Path]) -> list[Path]:
    """Those of ``paths`` that exist."""
    return [p for p in paths if p.exists()]


def read_suite(folder: Path, name: str) -> Suite | None:
    """The suite's current files (a missing one reads as empty), or None for a new suite."""
    evalset_path, spec_path, tools_path = suite_paths(folder, name)
    if not existing((evalset_path, spec_path, tools_path)):
        return None

    def read(path: Path, default: Any) -> Any:
        if not path.exists():
            return default
        try:
            return orjson.loads(path.read_bytes())
        except orjson.JSONDecodeError as exc:
            raise InputError(f"{path}: invalid JSON ({exc.args[0]})") from None

    return Suite(name, read(evalset_path, {}), read(spec_path, []), read(tools_path, []))


def write_suite(folder: Path, suite: Suite) -> None:
    """Replace the suite's files; each is replaced atomically."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for path, value in zip(suite_paths(folder, suite.name), _suite_values(suite), strict=True):
            _write_atomic(path, _dumps(value))
    except OSError as exc:
        raise OutputError(f"{folder}: cannot write the suite ({exc.strerror})") from None


def _suite_values(suite: Suite) -> tuple[Any, Any, Any]:
    return suite.eval_set, suite.specs, suite.tools


JOURNAL_NAME = ".miner-promote.json"


def commit_promotion(folder: Path, suite: Suite, remove: list[tuple[Path, str]]) -> None:
    """Write the journal, then the suite files, then remove the promoted drafts
    whose content is still the promoted one (sha256), then the journal."""
    journal = {
        "suite": suite.name,
        "files": {
            path.name: _dumps(value).decode("utf-8")
            for path, value in zip(
                suite_paths(folder, suite.name), _suite_values(suite), strict=True
            )
        },
        "remove": [{"path": str(path.resolve()), "sha256": digest} for path, digest in remove],
    }
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _write_atomic(folder / JOURNAL_NAME, _dumps(journal))
    except OSError as exc:
        raise OutputError(f"{folder / JOURNAL_NAME}: cannot write ({exc.strerror})") from None
    _apply_journal(folder, journal)


def finish_promote_journal(folder: Path) -> int:
    """Finish what an interrupted promote journalled; returns the files written or removed."""
    path = folder / JOURNAL_NAME
    if not path.exists():
        return 0
    try:
        journal = orjson.loads(path.read_bytes())
        files = journal["files"]
        remove = journal["remove"]
        if not isinstance(files, dict) or not isinstance(remove, list):
            raise TypeError
    except (orjson.JSONDecodeError, KeyError, TypeError):
        raise InputError(
            f"{path}: an unreadable promote journal; the suite files were not touched since "
            "it was written, so move it away and promote again"
        ) from None
    return _apply_journal(folder, journal)


def _apply_journal(folder: Path, journal: dict[str, Any]) -> int:
    done = 0
    try:
        # The eval set last: until it is written, the old suite is whole.
        names = sorted(journal["files"], key=lambda n: n.endswith(".evalset.json"))
        for name in names:
            _write_atomic(folder / name, journal["files"][name].encode("utf-8"))
            done += 1
        for entry in journal["remove"]:
            draft = Path(entry["path"])
            if draft.is_file() and _sha256(draft) == entry["sha256"]:
                draft.unlink()
                done += 1
                with contextlib.suppress(OSError):
                    draft.parent.rmdir()  # only if empty
        (folder / JOURNAL_NAME).unlink()
    except OSError as exc:
        raise OutputError(
            f"{folder}: promote interrupted ({exc.strerror}); the next promote finishes it"
        ) from None
    return done


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_rows(path: Path, rows: list[dict[str, Any]]) -> None:
    """Rows as one Parquet file, written beside and renamed into place."""
    import pyarrow.parquet as pq

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        columns = list(dict.fromkeys(k for row in rows for k in row))
        table = pa.Table.from_pylist([{c: row.get(c) for c in columns} for row in rows])
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        os.close(fd)
        try:
            pq.write_table(table, tmp)
            os.chmod(tmp, _new_file_mode())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise OutputError(f"{path}: cannot write ({exc.strerror})") from None


def write_text_atomic(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_atomic(path, text.encode("utf-8"))
    except OSError as exc:
        raise OutputError(f"{path}: cannot write ({exc.strerror})") from None


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
    frames = list(scan_events(export, columns, start, end))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def read_score_rates(path: Path) -> dict[str, tuple[int, int]]:
    """Pass rates by tag from a ``miner score --json`` report."""
    try:
        data = orjson.loads(path.read_bytes())
        return {str(tag): (int(v["passed"]), int(v["total"])) for tag, v in data["byTag"].items()}
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError):
        raise InputError(f"{path}: not a `miner score --json` report (byTag)") from None
