"""The embedded engine: DuckDB reads the export in passes by session hash.

Every test reads real Parquet (the shipped sample, and the golden exports of
the Python, Java and Go plugins) and checks the DuckDB scan against pyarrow's
dataset scan, which reads the same files another way."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from miner import files
from miner.config import ScanConfig
from miner.sample import (
    IN_WINDOW,
    SCAN_COLUMNS,
    SCAN_EVENT_TYPES,
    flag_passes,
    flag_sessions,
    negative_feedback,
    turn_conditions,
)
from tests.conftest import FEEDBACK, PIPELINE, TRACES, WINDOW, miner

GOLDEN = Path(__file__).resolve().parent / "golden"
EXPORTS = [TRACES, GOLDEN / "python", GOLDEN / "java", GOLDEN / "go"]
START, END = datetime(2026, 11, 1, tzinfo=UTC), datetime(2026, 12, 1, tzinfo=UTC)


def _rows(batches) -> Counter:
    """Rows as comparable tuples (timestamps in UTC microseconds)."""
    out: Counter = Counter()
    for batch in batches:
        stamps = batch.column("timestamp")
        if stamps.type.tz is None:
            stamps = stamps.cast(pa.timestamp(stamps.type.unit, tz="UTC"))
        micros = pc.cast(stamps.cast(pa.timestamp("us", tz="UTC")), pa.int64()).to_pylist()
        keys = zip(
            batch.column("session_id").to_pylist(),
            batch.column("event_type").to_pylist(),
            micros,
            batch.column("content").to_pylist(),
            [Path(f).name for f in batch.column("source_file").to_pylist()],
            strict=True,
        )
        out.update(keys)
    return out


@pytest.mark.parametrize("export_path", EXPORTS, ids=lambda p: p.name)
def test_passes_hold_every_row_once_and_each_session_whole(export_path):
    export = files.open_export(export_path)
    expected = _rows(files.scan_batches(export, SCAN_COLUMNS, START, END, SCAN_EVENT_TYPES))
    sessions = {key[0] for key in expected}
    passes = [
        list(batches)
        for batches in files.scan_passes(
            export, SCAN_COLUMNS, START, END, SCAN_EVENT_TYPES, ScanConfig(sessions_per_pass=3)
        )
    ]
    assert len(passes) == -(-len(sessions) // 3) > 1
    seen: list[set[str]] = [{key[0] for key in _rows(p)} for p in passes]
    assert sum(len(s) for s in seen) == len(sessions) == len(set().union(*seen))
    assert sum((_rows(p) for p in passes), Counter()) == expected


@pytest.mark.parametrize("export_path", EXPORTS, ids=lambda p: p.name)
def test_flags_are_the_same_in_one_pass_or_many(export_path):
    config = files.load_config(PIPELINE)
    rules = config.feedback
    feedback = negative_feedback(
        files.read_feedback(
            FEEDBACK,
            columns=[rules.session_column, rules.invocation_column, rules.score_column],
            required=[rules.score_column],
            one_of=[rules.session_column, rules.invocation_column],
        ),
        rules,
    )
    export = files.open_export(export_path)
    counted_once: Counter = Counter()
    once = flag_sessions(
        files.scan_batches(export, SCAN_COLUMNS, START, END, SCAN_EVENT_TYPES),
        feedback,
        config.signals,
        counted_once,
    )
    counted_many: Counter = Counter()
    many = flag_passes(
        files.scan_passes(
            export, SCAN_COLUMNS, START, END, SCAN_EVENT_TYPES, ScanConfig(sessions_per_pass=2)
        ),
        feedback,
        config.signals,
        counted_many,
    )
    assert any(f.signals for f in once.values())
    assert many == once
    assert counted_many == counted_once


def test_the_picked_sessions_are_read_whole_and_only_them():
    export = files.open_export(TRACES)
    columns = ["timestamp", "event_type", "session_id", "content"]
    every = _rows(files.scan_batches(export, columns, START, END))
    picked = sorted({key[0] for key in every})[:3]
    frame = files.read_sessions(export, columns, START, END, picked, ScanConfig())
    got = _rows(pa.Table.from_pandas(frame, preserve_index=False).to_batches())
    assert got == Counter({k: n for k, n in every.items() if k[0] in picked})
    assert str(frame["timestamp"].dt.tz) == "UTC"


def test_naive_timestamps_are_read_as_utc(tmp_path):
    table = ds.dataset(TRACES, partitioning="hive").to_table().drop_columns(["dt"])
    naive = table.set_column(
        table.schema.get_field_index("timestamp"),
        "timestamp",
        table.column("timestamp").cast(pa.timestamp("us")),
    )
    ds.write_dataset(naive, tmp_path / "naive", format="parquet")
    _reads_as_the_sample(tmp_path / "naive")


def _reads_as_the_sample(copy: Path) -> None:
    """A rewritten copy of the sample gives, through the engine, the rows the
    pyarrow scan gives of the sample itself (by session, type, time, content)."""
    since, until = datetime(2026, 11, 21, 12, tzinfo=UTC), datetime(2026, 11, 24, tzinfo=UTC)
    columns = ["timestamp", "event_type", "session_id", "content"]
    expected = _rows(files.scan_batches(files.open_export(TRACES), columns, since, until))
    [one_pass] = files.scan_passes(
        files.open_export(copy), columns, since, until, SCAN_EVENT_TYPES, ScanConfig()
    )
    read = _rows(one_pass)
    assert read and {k[:4] for k in read} == {k[:4] for k in expected if k[1] in SCAN_EVENT_TYPES}


def test_the_memory_limit_and_threads_come_from_the_config():
    with files._duckdb(ScanConfig(memory_limit="96MiB", threads=1)) as duck:
        limit, threads = duck.sql(
            "SELECT current_setting('memory_limit'), current_setting('threads')"
        ).fetchall()[0]
        autoload = duck.sql("SELECT current_setting('autoload_known_extensions')").fetchall()
    assert limit.replace(" ", "") == "96.0MiB" and threads == 1
    assert autoload == [(False,)]


def test_a_memory_limit_too_small_for_the_export_is_a_config_error(scratch_config, tmp_path):
    config = scratch_config('\n[scan]\nmemory_limit = "1KB"\n')
    result = miner("draft", "--pipeline", config, *WINDOW, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    [line] = result.output.strip().splitlines()
    assert "[scan] memory_limit = '1KB' is too small to scan" in line
    assert not list((tmp_path / "out").glob("draft_*"))


def test_a_malformed_memory_limit_names_the_key(scratch_config, tmp_path):
    config = scratch_config('\n[scan]\nmemory_limit = "lots"\n')
    result = miner("draft", "--pipeline", config, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert "scan.memory_limit" in result.output
    assert not (tmp_path / "out").exists()


def _one_file_export(tmp_path: Path, rows: list[dict]) -> files.Export:
    """``rows`` as an export of one Parquet file."""
    table = pa.Table.from_pandas(pd.DataFrame(rows), preserve_index=False)
    (tmp_path / "export").mkdir()
    pq.write_table(table, tmp_path / "export" / "part.parquet")
    return files.open_export(tmp_path / "export")


@pytest.mark.parametrize("per_pass", [10_000, 1])
def test_turn_conditions_are_decided_inside_the_engine(tmp_path, per_pass):
    # Decided once for the window, joined onto every pass (one, or one per session).
    from tests.test_signals import _tool, _user

    rows = [
        *[_tool("loop", "c1", "1", n) for n in range(3)],
        _tool("two", "d1", "1"), _tool("two", "d1", "2"), _tool("two", "d1", "1"),
        _tool("pair", "p1", "1"), _tool("pair", "p1", "1"), _user("pair", "hi", "p1"),
        _tool("pair", "p2", "1"),
    ]  # fmt: skip
    export = _one_file_export(tmp_path, rows)
    config = files.load_config(PIPELINE)
    nobody = negative_feedback(None, config.feedback)
    turns = turn_conditions(nobody, config.signals)
    assert set(turns) == {"turn:loop", "turn:no_answer"}
    scan = ScanConfig(sessions_per_pass=per_pass)
    with files.open_scan(
        export, SCAN_COLUMNS, START, END, SCAN_EVENT_TYPES, scan, turns=turns
    ) as opened:
        assert opened.passes == (1 if per_pass > 3 else 3)
        batches = [b for one_pass in opened.read(range(opened.passes)) for b in one_pass]
    read = pa.Table.from_batches(batches).to_pylist()
    by_turn = {(r["session_id"], r["invocation_id"]): r["turn:loop"] for r in read}
    assert by_turn == {
        ("loop", "c1"): True, ("two", "d1"): True, ("pair", "p1"): False, ("pair", "p2"): False,
    }  # fmt: skip
    asked = {(r["session_id"], r["invocation_id"]): r["turn:no_answer"] for r in read}
    assert {turn for turn, unanswered in asked.items() if unanswered} == {("pair", "p1")}
    flags = flag_passes([batches], nobody, config.signals)
    assert {sid for sid, f in flags.items() if "loop" in f.signals} == {"loop"}
    assert {sid for sid, f in flags.items() if "no_answer" in f.signals} == {"pair"}


@pytest.mark.parametrize("style", ["%Y%m%d", "%Y-%m-%d"])
def test_partitions_prune_only_by_iso_dates(tmp_path, style):
    table = ds.dataset(TRACES, partitioning="hive").to_table()
    days = pc.strftime(table.column("timestamp"), format=style)
    table = table.set_column(table.schema.get_field_index("dt"), "dt", days)
    ds.write_dataset(
        table, tmp_path / "export", format="parquet", partitioning=["dt"],
        partitioning_flavor="hive",
    )  # fmt: skip
    _reads_as_the_sample(tmp_path / "export")


def test_an_export_without_invocation_ids_is_scanned_without_turn_conditions(tmp_path):
    table = ds.dataset(TRACES, partitioning="hive").to_table().drop_columns(["invocation_id"])
    ds.write_dataset(table, tmp_path / "export", format="parquet")
    export = files.open_export(tmp_path / "export")
    turns = {"turn:loop": "count(*) >= 3"}
    with files.open_scan(
        export, SCAN_COLUMNS, START, END, SCAN_EVENT_TYPES, ScanConfig(), turns=turns
    ) as opened:
        [one_pass] = opened.read(range(opened.passes))
        batches = list(one_pass)
    assert sum(b.num_rows for b in batches) > 0
    assert all("turn:loop" not in b.schema.names for b in batches)


def test_an_export_with_its_own_filename_column_keeps_it_apart(tmp_path):
    table = ds.dataset(TRACES, partitioning="hive").to_table().drop_columns(["dt"])
    table = table.append_column("filename", pa.array(["theirs"] * table.num_rows))
    (tmp_path / "export").mkdir()
    pq.write_table(table, tmp_path / "export" / "part.parquet")
    [one_pass] = files.scan_passes(
        files.open_export(tmp_path / "export"), [*SCAN_COLUMNS, "filename"], START, END,
        SCAN_EVENT_TYPES, ScanConfig(),
    )  # fmt: skip
    rows = pa.Table.from_batches(list(one_pass))
    assert set(rows.column("filename").to_pylist()) == {"theirs"}
    assert {Path(f).name for f in rows.column("source_file").to_pylist()} == {"part.parquet"}


def test_the_engine_marks_the_sessions_that_may_start_in_the_window(tmp_path):
    # A session that starts outside the window is read for its start and its
    # row counts only; its complaint is never scored. The engine's test keeps
    # a second's margin, never fewer: a session starting on either bound is kept.
    from tests.test_signals import _user

    since, until = datetime(2026, 11, 10, tzinfo=UTC), datetime(2026, 11, 17, tzinfo=UTC)

    def at(sid: str, moment: datetime) -> dict:
        row = _user(sid, "this is useless", f"{sid}-1")
        return row | {"timestamp": pd.Timestamp(moment)}

    hour, tick = timedelta(hours=1), timedelta(microseconds=1)
    rows = [
        at("before", since - 2 * tick - timedelta(seconds=1)), at("before", since + hour),
        at("on_since", since), at("inside", since + hour),
        at("last", until - tick), at("after", until + 2 * tick + timedelta(seconds=1)),
        at("after", until + hour),
    ]  # fmt: skip
    export = _one_file_export(tmp_path, rows)
    config = files.load_config(PIPELINE)
    nobody = negative_feedback(None, config.feedback)
    start, end = since - timedelta(days=1), until + timedelta(days=1)
    with files.open_scan(
        export, SCAN_COLUMNS, start, end, SCAN_EVENT_TYPES, ScanConfig(),
        window=(IN_WINDOW, since, until),
    ) as opened:  # fmt: skip
        batches = [b for one_pass in opened.read(range(opened.passes)) for b in one_pass]
    read = pa.Table.from_batches(batches).to_pylist()
    may_start = {r["session_id"]: r[IN_WINDOW] for r in read}
    assert may_start == {
        "before": False, "on_since": True, "inside": True, "last": True, "after": False,
    }  # fmt: skip
    counted: Counter = Counter()
    flags = flag_passes([batches], nobody, config.signals, counted)
    assert set(flags) == set(may_start)  # every session scanned has its start
    assert {sid for sid, f in flags.items() if f.signals} == {"on_since", "inside", "last"}
    assert sum(counted.values()) == len(rows)  # every row counted
