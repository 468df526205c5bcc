"""The embedded engine: DuckDB runs the selection query over the export.

Every test reads real Parquet (the shipped sample, and the golden exports of
the Python, Java and Go plugins)."""

from __future__ import annotations

import contextlib
import itertools
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from miner import source
from miner.config import ScanConfig, load_config
from miner.engine import duck, parquet
from miner.engine.embedded import (
    HELD_PER_FILE,
    POOL_FLOOR,
    EmbeddedEngine,
    _held_events,
    pool_beside_files,
    read_sessions,
)
from miner.errors import InputError
from miner.sample import (
    SCAN_EVENT_TYPES,
    Flagged,
    NotDrafted,
    PickPlan,
    left_out,
    negative_feedback,
    pick_sessions,
    rules_fired,
    select,
    session_hash,
    signature_hash,
)
from miner.window import Window
from tests.conftest import PIPELINE, TRACES, WINDOW, miner

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


def selected(
    export_path: Path, since: datetime = START, until: datetime = END, grace=timedelta(0)
) -> Flagged:
    """The selection over an export, as ``miner draft`` runs it embedded."""
    config = load_config(PIPELINE)
    nobody = negative_feedback(None, config.feedback)
    export = source.open_export(export_path)
    with duck.connect(config.scan, str(export.path)) as con:
        duck.export_rows(con, export, since - grace, until + grace, SCAN_EVENT_TYPES)
        return select(con.table, nobody, config.signals, since, until)


def _as_seen(found: Flagged) -> tuple:
    return (
        {sid: (f.start, f.reasons, f.signature) for sid, f in found.flags.items()},
        found.sessions,
        found.in_window,
        found.rows_read,
    )


def test_naive_timestamps_are_read_as_utc(tmp_path):
    table = ds.dataset(TRACES, partitioning="hive").to_table().drop_columns(["dt"])
    naive = table.set_column(
        table.schema.get_field_index("timestamp"),
        "timestamp",
        table.column("timestamp").cast(pa.timestamp("us")),
    )
    ds.write_dataset(naive, tmp_path / "naive", format="parquet")
    _selects_as_the_sample(tmp_path / "naive")


def _selects_as_the_sample(copy: Path) -> None:
    """A rewritten copy of the sample gives the sample's flags and counts."""
    since, until = datetime(2026, 11, 21, 12, tzinfo=UTC), datetime(2026, 11, 24, tzinfo=UTC)
    expected = selected(TRACES, since, until, timedelta(days=1))
    assert expected.flags
    assert _as_seen(selected(copy, since, until, timedelta(days=1))) == _as_seen(expected)


def test_the_memory_limit_and_threads_come_from_the_config():
    with duck.connect(ScanConfig(memory_limit="96MiB", threads=1)) as con:
        limit, threads = con.con.sql(
            "SELECT current_setting('memory_limit'), current_setting('threads')"
        ).fetchall()[0]
        autoload = con.con.sql("SELECT current_setting('autoload_known_extensions')").fetchall()
    assert limit.replace(" ", "") == "96.0MiB" and threads == 1
    assert autoload == [(False,)]


def test_a_step_is_dropped_once_its_last_reader_is_made():
    from miner.engine.query import Stepped

    # miner_a is read by miner_b alone, miner_b by miner_c alone; the final
    # query reads miner_c and counts which of the three still exist.
    sql = Stepped(
        [
            ("miner_a", "SELECT 1 AS x"),
            ("miner_b", "SELECT x + 1 AS x FROM miner_a"),
            ("miner_c", "SELECT x + 1 AS x FROM miner_b"),
        ],
        "SELECT x, (SELECT list(table_name ORDER BY table_name) FROM duckdb_tables() "
        "WHERE table_name LIKE 'miner_%') AS kept FROM miner_c",
    )
    with duck.connect(ScanConfig()) as con:
        [row] = con.table(sql).to_pylist()
        after = con.con.sql("SELECT count(*) FROM duckdb_tables()").fetchall()
    assert row == {"x": 3, "kept": ["miner_c"]}
    assert after == [(0,)]


def test_the_flags_are_built_after_the_engine_lets_its_memory_go(monkeypatch):
    """The draft's peak: the engine's buffers (the events it holds) and the
    flags' build must not be alive at once, so the flags table is built from
    the engine's rows only once the connection is closed."""
    from miner import sample

    open_connections = []
    connect = duck.connect

    @contextlib.contextmanager
    def tracked(*args, **kwargs):
        with connect(*args, **kwargs) as con:
            open_connections.append(con)
            try:
                yield con
            finally:
                open_connections.remove(con)

    built_while_open = []
    build = sample.FlagTable.__init__

    def noted(self, table):
        built_while_open.append(len(open_connections))
        build(self, table)

    monkeypatch.setattr(duck, "connect", tracked)
    monkeypatch.setattr(sample.FlagTable, "__init__", noted)
    config = load_config(PIPELINE)
    nobody = negative_feedback(None, config.feedback)
    found = EmbeddedEngine().flag(
        source.open_export(TRACES), config, Window(START, END), Window(START, END), nobody
    )
    assert built_while_open == []
    assert len(found.flags) == found.table.num_rows > 0
    assert built_while_open == [0]


def picks_both_ways(engine, export_path: Path = TRACES) -> list:
    """``engine``'s pick over the flags it holds (``Engine.pick``), and the
    pick over every flag in Python (``pick_sessions``, ``rules_fired``,
    ``left_out`` over ``Engine.flag``), each as (selection, rules' counts,
    left-out lines, sessions, rows read): first run, and again with a ledger
    of a third of the flagged sessions and of one signature, and tight quotas."""
    config = load_config(PIPELINE)
    nobody = negative_feedback(None, config.feedback)
    export = source.open_export(export_path)
    window = Window(START, END)
    found = engine.flag(export, config, window, window, nobody)
    ids = sorted(found.flags)
    ledger = frozenset(session_hash(s) for s in ids[::3])
    kind = frozenset({signature_hash(found.flags[ids[1]].signature)})
    seen = []
    for drafted, kinds, per_signal, cases in [
        (frozenset(), frozenset(), 3, 20),
        (ledger, kind, 1, 2),
    ]:
        plan = PickPlan(drafted, kinds, per_signal, cases, seed=11)
        held = engine.pick(export, config, window, window, nobody, plan)
        expected = pick_sessions(
            found.flags, START, END, drafted, per_signal, cases, 11, kinds, found.in_window
        )
        picked = [f.session_id for f in expected.picked]
        left = NotDrafted.of(left_out(found.flags, START, END, drafted, picked))
        seen.append(
            (
                (held.selection, held.by_rule, list(held.left.lines())),
                (expected, rules_fired(found.flags, START, END), list(left.ordered().lines())),
                (held.sessions, held.rows_read),
                (found.sessions, found.rows_read),
            )
        )
    return seen


def test_the_engine_picks_over_the_flags_it_holds_what_the_pick_over_every_flag_picks():
    # Only the picked sessions' flags come back from the engine; the pick,
    # the rules' counts and the reasons of those left out are the same.
    first, again = picks_both_ways(EmbeddedEngine())
    for held, expected, counts, expected_counts in (first, again):
        assert held == expected and counts == expected_counts
    (selection, _rules, left), _, _, _ = again
    assert len(selection.picked) == 2 and selection.already_drafted > 0
    reasons = {reason for _hash, reason in first[0][2] + left}
    assert reasons == {"already_drafted", "duplicate", "over_quota"}


def test_a_memory_limit_too_small_for_the_export_is_a_config_error(scratch_config, tmp_path):
    config = scratch_config('\n[scan]\nmemory_limit = "1KB"\n')
    result = miner("draft", "--pipeline", config, *WINDOW, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    [line] = result.output.strip().splitlines()
    assert "[scan] memory_limit = '1KB' is too small to scan" in line
    assert not list((tmp_path / "out").glob("draft_*"))


def test_an_operator_out_of_memory_after_spilling_names_memory_limit_not_the_disk():
    # DuckDB says "failed to pin block" when an operator it cannot spill
    # outgrows memory_limit after others spilled (the 20M-row selection did):
    # with room on the disk, the knob is memory_limit, with the figure asked.
    import duckdb

    failed = duckdb.OutOfMemoryException(
        "Out of Memory Error: failed to pin block of size 256.0 KiB (159.7 MiB/160.0 MiB used)"
    )
    with duck.connect(ScanConfig(memory_limit="160MiB"), "big-export") as con:
        Path(con.spill, "spilled.block").write_bytes(b"x" * 2**21)
        message = con._out_of_memory(failed)
    assert message.startswith("[scan] memory_limit = '160MiB' is too small to scan big-export")
    assert "having spilled 2 MiB" in message
    assert message.endswith("raise it to more than 160 MiB")
    assert "disk is full" not in message


@pytest.mark.parametrize(
    ("export_path", "request_type"), [(TRACES, "LLM_REQUEST"), (GOLDEN / "go", "MODEL_REQUEST")]
)
def test_a_column_chunk_larger_than_the_memory_limit_is_read_a_page_at_a_time(
    tmp_path, export_path, request_type
):
    # One file of one row group whose `content` chunk (40 MiB of payloads
    # that do not compress, on rows of a type the selection does not read)
    # is larger than memory_limit: DuckDB reads it a page at a time. With
    # its prefetching on, it asked for the whole chunk in one block and
    # stopped (493 MiB on a file of one 5M-row group); on Go rows, already
    # in the check for a Go row that decides whether `attributes` is read.
    import os

    table = ds.dataset(export_path, partitioning="hive").to_table()
    request = table.filter(pc.equal(table.column("event_type"), request_type)).slice(0, 1)
    padding = pa.concat_tables([request] * 40_000)
    payloads = [f'{{"notes": "{os.urandom(512).hex()}"}}' for _ in range(padding.num_rows)]
    at = padding.schema.get_field_index("content")
    padding = padding.set_column(at, "content", pa.array(payloads, pa.string()))
    (tmp_path / "export").mkdir()
    both = pa.concat_tables([table, padding])
    pq.write_table(
        both.drop_columns(["dt"]) if "dt" in both.column_names else both,
        tmp_path / "export" / "one.parquet",
        row_group_size=1 << 30,
    )
    group = pq.ParquetFile(tmp_path / "export" / "one.parquet").metadata.row_group(0)
    chunks = [group.column(n) for n in range(group.num_columns)]
    [content] = [c for c in chunks if c.path_in_schema == "content"]
    assert content.total_compressed_size > 39 * 2**20
    config = load_config(PIPELINE)
    nobody = negative_feedback(None, config.feedback)
    export = source.open_export(tmp_path / "export")
    with duck.connect(ScanConfig(memory_limit="32MiB", threads=2), "one-file") as con:
        duck.export_rows(con, export, START, END, SCAN_EVENT_TYPES)
        found = select(con.table, nobody, config.signals, START, END)
    assert _as_seen(found) == _as_seen(selected(export_path))


def test_go_messages_of_kilobytes_are_read_under_the_default_memory_limit(tmp_path):
    # 8,192 Go EVENT rows (the model's messages) of 2.4 KB each, in a
    # session of their own, beside the golden Go export. The view read each
    # message's role and texts with one JSON call per key, each holding its
    # own buffers of a batch's parsed payloads: it stopped out of memory
    # under the default 160 MiB (as the 1M-row wide Go export did); parsed
    # once, the same flags come out for the golden sessions.
    import json
    import os

    table = pq.read_table(GOLDEN / "go" / "export.parquet")
    messages = table.filter(pc.equal(table.column("event_type"), "EVENT"))
    rows = 8_192
    padding = pa.concat_tables([messages] * -(-rows // messages.num_rows)).slice(0, rows)
    payloads = [
        json.dumps(json.loads(content) | {"notes": os.urandom(1_200).hex()})
        for content in padding.column("content").to_pylist()
    ]
    padding = padding.set_column(
        padding.schema.get_field_index("content"), "content", pa.array(payloads, pa.string())
    ).set_column(
        padding.schema.get_field_index("session_id"), "session_id", pa.array(["padding"] * rows)
    )
    (tmp_path / "export").mkdir()
    pq.write_table(
        pa.concat_tables([table, padding]),
        tmp_path / "export" / "go.parquet",
        row_group_size=4_096,
    )
    config = load_config(PIPELINE)
    assert config.scan.memory_limit == ScanConfig().memory_limit == "160MiB"
    nobody = negative_feedback(None, config.feedback)
    export = source.open_export(tmp_path / "export")
    with duck.connect(ScanConfig(threads=2), "go-messages") as con:
        duck.export_rows(con, export, START, END, SCAN_EVENT_TYPES)
        found = select(con.table, nobody, config.signals, START, END)
    golden = selected(GOLDEN / "go")
    flags = {sid: (f.start, f.reasons, f.signature) for sid, f in found.flags.items()}
    flags.pop("padding", None)
    assert flags == _as_seen(golden)[0]
    assert sum(found.rows_read.values()) == sum(golden.rows_read.values()) + rows


def test_a_malformed_memory_limit_names_the_key(scratch_config, tmp_path):
    config = scratch_config('\n[scan]\nmemory_limit = "lots"\n')
    result = miner("draft", "--pipeline", config, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert "scan.memory_limit" in result.output
    assert not (tmp_path / "out").exists()


def _one_file_export(tmp_path: Path, rows: list[dict]) -> Path:
    """``rows`` as an export of one Parquet file."""
    table = pa.Table.from_pandas(pd.DataFrame(rows), preserve_index=False)
    (tmp_path / "export").mkdir()
    pq.write_table(table, tmp_path / "export" / "part.parquet")
    return tmp_path / "export"


@pytest.mark.parametrize("style", ["%Y%m%d", "%Y-%m-%d"])
def test_partitions_prune_only_by_iso_dates(tmp_path, style):
    table = ds.dataset(TRACES, partitioning="hive").to_table()
    days = pc.strftime(table.column("timestamp"), format=style)
    table = table.set_column(table.schema.get_field_index("dt"), "dt", days)
    ds.write_dataset(
        table, tmp_path / "export", format="parquet", partitioning=["dt"],
        partitioning_flavor="hive",
    )  # fmt: skip
    _selects_as_the_sample(tmp_path / "export")


def test_an_export_without_invocation_ids_is_selected_by_session(tmp_path):
    table = ds.dataset(TRACES, partitioning="hive").to_table().drop_columns(["invocation_id"])
    ds.write_dataset(table, tmp_path / "export", format="parquet")
    found = selected(tmp_path / "export")
    assert found.flags
    assert all(r.invocation is None for f in found.flags.values() for r in f.reasons)
    assert sum(found.rows_read.values()) == sum(selected(TRACES).rows_read.values())


def test_an_export_with_its_own_filename_column_keeps_it_apart(tmp_path):
    table = ds.dataset(TRACES, partitioning="hive").to_table().drop_columns(["dt"])
    table = table.append_column("filename", pa.array(["theirs"] * table.num_rows))
    (tmp_path / "export").mkdir()
    pq.write_table(table, tmp_path / "export" / "part.parquet")
    assert _as_seen(selected(tmp_path / "export")) == _as_seen(selected(TRACES))


def test_a_session_is_in_the_window_by_its_first_row(tmp_path):
    # Read a day either side, a session is flagged only when its first row
    # falls in [since, until); every row read is counted.
    from tests.test_signals import _user

    since, until = datetime(2026, 11, 10, tzinfo=UTC), datetime(2026, 11, 17, tzinfo=UTC)

    def at(sid: str, moment: datetime) -> dict:
        row = _user(sid, "this is useless", f"{sid}-1")
        return row | {"timestamp": pd.Timestamp(moment)}

    hour, tick = timedelta(hours=1), timedelta(microseconds=1)
    rows = [
        at("before", since - tick), at("before", since + hour),
        at("on_since", since), at("inside", since + hour),
        at("last", until - tick), at("after", until), at("after", until + hour),
    ]  # fmt: skip
    found = selected(_one_file_export(tmp_path, rows), since, until, timedelta(days=1))
    assert set(found.flags) == {"on_since", "inside", "last"}
    assert (found.sessions, found.in_window) == (5, 3)
    assert sum(found.rows_read.values()) == len(rows)


def test_the_picked_sessions_are_read_whole_and_only_them():
    export = source.open_export(TRACES)
    columns = ["timestamp", "event_type", "session_id", "content"]
    every = _rows(source.scan_batches(export, columns, START, END))
    picked = sorted({key[0] for key in every})[:3]
    frame = read_sessions(export, columns, START, END, picked, ScanConfig())
    got = _rows(pa.Table.from_pandas(frame, preserve_index=False).to_batches())
    assert got == Counter({k: n for k, n in every.items() if k[0] in picked})
    assert str(frame["timestamp"].dt.tz) == "UTC"


def test_the_picked_sessions_are_read_whole_from_files_of_many_row_groups(tmp_path):
    # Each file is read for its picked rows' numbers: in groups of 20 rows,
    # sessions cross groups, and every picked row still comes back.
    table = source.open_export(TRACES).dataset.to_table()
    (tmp_path / "export").mkdir()
    pq.write_table(table, tmp_path / "export" / "part.parquet", row_group_size=20)
    export = source.open_export(tmp_path / "export")
    columns = ["timestamp", "event_type", "session_id", "content"]
    every = _rows(source.scan_batches(export, columns, START, END))
    ids = sorted({key[0] for key in every})
    picked = [ids[0], ids[len(ids) // 2], ids[-1]]
    frame = read_sessions(export, columns, START, END, picked, ScanConfig())
    got = _rows(pa.Table.from_pandas(frame, preserve_index=False).to_batches())
    assert got == Counter({k: n for k, n in every.items() if k[0] in picked})


def test_rows_without_a_session_stop_the_selection_before_any_row_is_read(tmp_path):
    # The picked rows' read no longer looks for them (its scan reads the
    # ids alone): the selection, over the same window, stops the run first.
    table = source.open_export(TRACES).dataset.to_table()
    sessions = table.column("session_id").to_pylist()
    sessions[3], sessions[5] = None, None
    table = table.set_column(
        table.schema.get_field_index("session_id"), "session_id", pa.array(sessions)
    )
    (tmp_path / "export").mkdir()
    pq.write_table(table, tmp_path / "export" / "part.parquet")
    with pytest.raises(InputError, match=r"part\.parquet: 2 rows with a null session_id"):
        selected(tmp_path / "export")


def test_a_picked_sessions_rows_are_read_wherever_they_lie(tmp_path):
    # The rows the selection does not read (a model's request and answer,
    # an agent's start and end) come back too: in a file that holds none
    # of the session's rows the selection reads, before its first such row
    # and after its last in a file, and between other sessions' rows. Rows
    # of the session outside the window stay out.
    table = ds.dataset(TRACES, partitioning="hive").to_table().drop_columns(["dt"])
    ids = table.column("session_id").to_pylist()
    kinds = table.column("event_type").to_pylist()
    picked = next(
        s for s in sorted(set(ids))
        if sum(1 for i, k in zip(ids, kinds, strict=True) if i == s and k not in SCAN_EVENT_TYPES)
        >= 3
    )  # fmt: skip
    mine = table.filter(pc.equal(table.column("session_id"), picked))
    others = table.filter(pc.not_equal(table.column("session_id"), picked))
    unread = pc.invert(pc.is_in(mine.column("event_type"), pa.array(SCAN_EVENT_TYPES)))
    alone, read = mine.filter(unread), mine.filter(pc.invert(unread))
    # One file holds only rows the selection does not read; the other, its
    # read rows between an unread row before them and the others' rows.
    outside = alone.slice(0, 1).set_column(
        alone.schema.get_field_index("timestamp"),
        "timestamp",
        pa.array([END + timedelta(days=3)], alone.schema.field("timestamp").type),
    )
    (tmp_path / "export").mkdir()
    pq.write_table(
        pa.concat_tables([alone.slice(1, 1), others.slice(0, 7), outside]),
        tmp_path / "export" / "a.parquet",
    )
    pq.write_table(
        pa.concat_tables([alone.slice(2, 1), others.slice(7, 5), read, others.slice(12),
                          alone.slice(3)]),
        tmp_path / "export" / "b.parquet",
        row_group_size=16,
    )  # fmt: skip
    export = source.open_export(tmp_path / "export")
    columns = ["timestamp", "event_type", "session_id", "content"]
    frame = read_sessions(export, columns, START, END, [picked], ScanConfig())
    got = _rows(pa.Table.from_pandas(frame, preserve_index=False).to_batches())
    expected = pa.concat_tables(
        [
            alone.slice(1, 1).append_column("source_file", pa.array(["a.parquet"])),
            pa.concat_tables([alone.slice(2, 1), read, alone.slice(3)]).append_column(
                "source_file", pa.array(["b.parquet"] * (mine.num_rows - 2))
            ),
        ]
    )
    assert got == _rows(expected.to_batches()) and len(frame) == mine.num_rows - 1


def test_wide_picked_rows_are_handed_over_alone_and_whole(tmp_path, monkeypatch):
    # Rows with 20 KB of attributes: each file's read hands back its picked
    # rows alone (filtered on their row numbers inside DuckDB, not decoded
    # to the last picked row and filtered here), and those whole. The read
    # runs here, not in its child process, for the spy to see it.
    import miner.engine.apart as apart
    import miner.engine.embedded as embedded

    monkeypatch.setattr(apart, "FORK", False)

    table = ds.dataset(TRACES, partitioning="hive").to_table().drop_columns(["dt"])
    wide = pa.array([f'{{"notes": "{"x" * 20_000}{i}"}}' for i in range(table.num_rows)])
    table = table.set_column(table.schema.get_field_index("attributes"), "attributes", wide)
    (tmp_path / "export").mkdir()
    pq.write_table(table, tmp_path / "export" / "part.parquet", row_group_size=100)
    export = source.open_export(tmp_path / "export")
    # The last row's session among them: the file is read to its end.
    sessions = table.column("session_id").to_pylist()
    picked = sorted(set(sessions))[:2] + [sessions[-1]]
    handed: list[int] = []
    read = embedded._file_rows

    def recorded(*args):
        rows = read(*args)
        handed.append(rows.num_rows)
        return rows

    monkeypatch.setattr(embedded, "_file_rows", recorded)
    columns = ["timestamp", "event_type", "session_id", "content", "attributes"]
    frame = read_sessions(export, columns, START, END, picked, ScanConfig())

    expected = table.filter(pc.is_in(table.column("session_id"), pa.array(picked)))
    assert handed == [expected.num_rows] and expected.num_rows < table.num_rows // 4
    assert sorted(frame["attributes"]) == sorted(expected.column("attributes").to_pylist())
    assert list(frame["session_id"]) == expected.column("session_id").to_pylist()


@pytest.mark.parametrize("export_path", EXPORTS[1:], ids=lambda p: p.name)
def test_the_events_view_reads_what_read_event_reads(export_path):
    # The view is read_event's twin in SQL: on every plugin's golden export,
    # the same kind, tool, transfer target and user text for every row where
    # read_event gives one (a Python answer's text is its whole summary in
    # the view: a superset, so answers are compared by type alone).
    from miner.dialects import read_event
    from miner.engine.events import EVENTS_CTES
    from miner.engine.query import rows_sql

    export = source.open_export(export_path)
    table = export.dataset.to_table()
    frame = table.to_pandas()
    with duck.connect(ScanConfig()) as con:
        con.con.register("golden", table)
        rows = rows_sql("golden", table.schema.names, duck.EARLIEST, duck.LATEST, SCAN_EVENT_TYPES)
        ctes = ",\n".join(f"{n} AS ({body})" for n, body in [("miner_rows", rows), *EVENTS_CTES])
        view = (
            con.con.sql(
                f"WITH {ctes} SELECT session_id, ts, raw_type, kind, tool, transfer_to, text "
                "FROM events"
            )
            .to_arrow_table()
            .to_pandas()
            .astype(object)
        )
    view = view.where(view.notna(), None)
    assert len(view) > 40
    expected = {}
    for row in frame.itertuples(index=False):
        if row.event_type not in SCAN_EVENT_TYPES and getattr(row, "status", None) != "ERROR":
            continue
        event = read_event(row)
        key = (row.session_id, pd.Timestamp(row.timestamp).value, row.event_type)
        text = event.text if event.kind == "USER_MESSAGE_RECEIVED" else None
        expected.setdefault(key, []).append((event.kind, event.tool, event.transfer_to, text))
    seen = {}
    for row in view.itertuples(index=False):
        key = (row.session_id, pd.Timestamp(row.ts).value, row.raw_type)
        text = row.text if row.kind == "USER_MESSAGE_RECEIVED" else None
        tool = row.tool if row.kind in ("TOOL_STARTING", "TOOL_COMPLETED", "TOOL_ERROR") else None
        seen.setdefault(key, []).append(
            (row.kind, tool if isinstance(tool, str) else None, row.transfer_to or None, text)
        )
    assert set(seen) == set(expected)
    for key, wanted in expected.items():
        assert len(seen[key]) == len(wanted) == 1, key  # one row per time and type here
        (kind, tool, transfer, text), (kind_, tool_, transfer_, text_) = wanted[0], seen[key][0]
        assert (kind_, transfer_, text_) == (kind, transfer, text), key
        assert tool is None or tool_ == tool, key


@pytest.mark.parametrize("export_path", EXPORTS[:3], ids=lambda p: p.name)
def test_the_events_view_without_go_terms_gives_the_same_rows(export_path):
    # Where the window holds no Go row, the view is written without Go's
    # terms (each came out false on every row, computed all the same): on
    # the sample and the golden Python and Java exports, every column of
    # every row is as the view of every plugin gives it, and none of Go's
    # terms is in its SQL.
    from miner.engine.query import events_sql, rows_sql

    table = source.open_export(export_path).dataset.to_table()
    rows = rows_sql("golden", table.schema.names, duck.EARLIEST, duck.LATEST, SCAN_EVENT_TYPES)
    without_go = events_sql(rows, go_rows=False)
    for go_term in (
        "model_calls",
        "model_text",
        "fields.parts",
        "fields.role",
        "'go'",
        "'MODEL_CALLS'",
    ):
        assert go_term in events_sql(rows) and go_term not in without_go, go_term
    with duck.connect(ScanConfig()) as con:
        con.con.register("golden", table)
        order = "ORDER BY ALL"
        every = con.con.sql(f"SELECT * FROM ({events_sql(rows)}) {order}").fetchall()
        python_java = con.con.sql(f"SELECT * FROM ({without_go}) {order}").fetchall()
    assert len(every) > 40 and python_java == every
    assert {row[5] for row in every} <= {"python", "java"}


#: Go messages (``genai.Content``: a user's, then the model's answers), each
#: in a session of its own, and the text the events view reads from each:
#: its first four parts' texts, empty ones and parts without one left out, a
#: text that is not a string as its JSON text; none from a part list that is
#: empty, missing or not a list.
GO_MESSAGES: tuple[tuple[str, str, str | None], ...] = (
    ("USER_MESSAGE", '{"role":"user","parts":[{"text":"where is ORD-1"}]}', "where is ORD-1"),
    (
        "USER_MESSAGE",
        '{"role":"user","parts":[{"text":"a"},{"text":""},{"function_call":{"name":"f"}},'
        '{"text":"b"},{"text":"a fifth part, not read"}]}',
        "a | b",
    ),
    ("USER_MESSAGE", '{"role":"user","parts":[{"text":"a"},{"text":7}]}', "a | 7"),
    ("USER_MESSAGE", '{"role":"user","parts":["not a part",{"text":"b"}]}', "b"),
    ("USER_MESSAGE", '{"role":"user","parts":[]}', None),
    ("USER_MESSAGE", '{"role":"user"}', None),
    ("USER_MESSAGE", '{"role":"user","parts":{"text":"an object, not a list"}}', None),
    ("EVENT", '{"role":"model","parts":[{"text":"Sure."},{"text":"Done."}]}', "Sure. Done."),
    (
        "EVENT",
        '{"role":"model","parts":[{"text":"x\\u00e9 \\ud83d\\ude00"}]}',
        "x\u00e9 \U0001f600",
    ),
)


def write_go_messages(folder: Path) -> None:
    """``GO_MESSAGES`` as a Go export's rows, session ``go-<i>`` each, in ``folder``."""
    count = len(GO_MESSAGES)
    folder.mkdir(parents=True)
    table = pa.table(
        {
            "timestamp": pa.array(
                [START + timedelta(hours=1, seconds=i) for i in range(count)],
                pa.timestamp("us", "UTC"),
            ),
            "event_type": [event_type for event_type, _content, _text in GO_MESSAGES],
            "session_id": [f"go-{i}" for i in range(count)],
            "invocation_id": [f"inv-{i}" for i in range(count)],
            "content": [content for _event_type, content, _text in GO_MESSAGES],
        }
    )
    pq.write_table(table, folder / "part.parquet")


def test_a_go_message_is_read_from_its_first_four_parts(tmp_path):
    # The part list is read as a list of texts in the payload's one parse,
    # and indexed: a message of fewer parts reads NULL past its end. No JSON
    # function parses the part list again (once per part read, it cost 1.2 s
    # of CPU on 1M Go rows).
    import re

    from miner.engine.query import events_sql, rows_sql

    assert re.search(r"json_\w+\(\s*fields\.parts", events_sql("SELECT 1")) is None
    assert "fields.parts[4].text" in events_sql("SELECT 1")

    write_go_messages(tmp_path / "export")
    table = ds.dataset(tmp_path / "export").to_table()
    with duck.connect(ScanConfig()) as con:
        con.con.register("go_rows", table)
        rows = rows_sql("go_rows", table.schema.names, START, END, SCAN_EVENT_TYPES)
        read = con.con.sql(f"SELECT session_id, kind, text FROM ({events_sql(rows)})").fetchall()
    kinds = {"USER_MESSAGE": "USER_MESSAGE_RECEIVED", "EVENT": "AGENT_RESPONSE"}
    assert sorted(read) == sorted(
        (f"go-{i}", kinds[event_type], text) for i, (event_type, _c, text) in enumerate(GO_MESSAGES)
    )


@pytest.mark.parametrize(
    ("export_path", "go_rows"),
    [(GOLDEN / "python", True), (GOLDEN / "python", False), (GOLDEN / "java", True),
     (GOLDEN / "java", False), (GOLDEN / "go", True)],
    ids=lambda p: p.name if isinstance(p, Path) else f"go_rows={p}",
)  # fmt: skip
def test_the_held_events_give_back_every_column_of_the_view(export_path, go_rows):
    # The engine stores the events narrower (``duck.STORED_EVENTS``) under a
    # view: its rows are the events view's, column for column, a row without
    # a session and a payload that is not JSON (their file kept) included;
    # without a Go row (``go_rows`` False), without the type as written.
    from miner.engine.events import PAYLOAD_TYPES
    from miner.engine.query import events_sql, rows_sql

    table = source.open_export(export_path).dataset.to_table()
    types = table.column("event_type").to_pylist()
    sessions, content = table.column("session_id").to_pylist(), table.column("content").to_pylist()
    bad = next(i for i, c in enumerate(content) if c and types[i] in PAYLOAD_TYPES)
    content[bad], sessions[0 if bad else 1] = '{"text_summary": "cut', None
    table = table.set_column(
        table.schema.get_field_index("session_id"), "session_id", pa.array(sessions, pa.string())
    )
    table = table.set_column(
        table.schema.get_field_index("content"), "content", pa.array(content, pa.string())
    )
    table = table.append_column("file", pa.array(["part.parquet"] * table.num_rows))
    names = [*table.schema.names, "source_file"]
    with duck.connect(ScanConfig()) as con:
        con.con.register("golden", table)
        rows = rows_sql(
            "golden", names, duck.EARLIEST, duck.LATEST, SCAN_EVENT_TYPES, source_file="file"
        )
        direct = con.con.sql(events_sql(rows)).to_arrow_table()
        con.hold_events(rows, go_rows)
        held = con.con.sql("SELECT * FROM events").to_arrow_table()
        stored = con.con.sql(f"SELECT * FROM {duck.STORED_EVENTS} LIMIT 0").columns
    assert held.schema == direct.schema
    assert Counter(map(str, held.to_pylist())) == Counter(map(str, direct.to_pylist()))
    assert pc.sum(held.column("bad_payload")).as_py() == 1
    assert held.column("source_file").drop_null().to_pylist() == ["part.parquet"] * 2
    assert ("written_type" in stored) == go_rows


def test_the_pick_spills_what_outgrows_a_tight_memory_limit(tmp_path, monkeypatch):
    # 100,000 rows shaped like a real agent's (``tools.scale_export``, built
    # from the golden sessions the plugins wrote): 5,000 sessions, most flagged.
    # Under 20 MiB the flags held with each session's list of hits (DuckDB's
    # list aggregate) stopped out of memory, as the 20M-row draft did under
    # 160 MiB: memory DuckDB does not spill. The pick under it is the pick
    # under the default limit, and so is the pick of flags built in slices.
    from miner import sample
    from tools import scale_export

    scale_export.write(tmp_path / "export", 100_000)
    since, until = scale_export.window()
    window = Window(since, until)
    config = load_config(PIPELINE)
    nobody = negative_feedback(None, config.feedback)
    export = source.open_export(tmp_path / "export")
    plan = PickPlan(frozenset(), frozenset(), 20, 20, seed=3)
    picks = []
    for limit, slice_sessions in (("20MiB", 250_000), ("160MiB", 250_000), ("20MiB", 1_000)):
        monkeypatch.setattr(sample, "FLAG_SLICE_SESSIONS", slice_sessions)
        tight = config.model_copy(
            update={"scan": config.scan.model_copy(update={"memory_limit": limit, "threads": 2})}
        )
        picks.append(EmbeddedEngine().pick(export, tight, window, window, nobody, plan))
    assert picks[0].selection.in_window > 4_000 and len(picks[0].selection.picked) == 20
    assert sample._flag_slices(picks[0].selection.in_window) == 8  # (the last pick's)
    for other in picks[1:]:
        assert picks[0].selection == other.selection and picks[0].by_rule == other.by_rule
        assert list(picks[0].left.lines()) == list(other.left.lines())


def test_flags_built_in_slices_are_added_to_one_table_not_copied_into_it(tmp_path, monkeypatch):
    # Past FLAG_SLICE_SESSIONS the flags are built a slice at a time, each
    # slice's added to the flags table where it is made: holding each apart
    # and copying them into one table took 0.99 s of CPU at 20M rows' 8
    # slices. The pick is the pick of the flags built in one piece.
    from miner import sample
    from miner.engine import apart
    from tools import scale_export

    scale_export.write(tmp_path / "export", 3_000)
    since, until = scale_export.window()
    window = Window(since, until)
    config = load_config(PIPELINE)
    nobody = negative_feedback(None, config.feedback)
    export = source.open_export(tmp_path / "export")
    plan = PickPlan(frozenset(), frozenset(), 20, 20, seed=5)
    held: list[str] = []
    hold, add = duck.Duck.hold, duck.Duck.add

    def holding(self, table, sql):
        held.append(table)
        return hold(self, table, sql)

    def adding(self, table, sql):
        held.append(f"+{table}")
        return add(self, table, sql)

    monkeypatch.setattr(duck.Duck, "hold", holding)
    monkeypatch.setattr(duck.Duck, "add", adding)
    monkeypatch.setattr(apart, "FORK", False)
    picks = []
    for slice_sessions in (250_000, 10):
        monkeypatch.setattr(sample, "FLAG_SLICE_SESSIONS", slice_sessions)
        held.clear()
        picks.append(EmbeddedEngine().pick(export, config, window, window, nobody, plan))
    slices = sample._flag_slices(picks[0].selection.in_window)
    assert slices > 1
    assert held.count(sample.FLAGS) == 1 and held.count(f"+{sample.FLAGS}") == slices - 1, held
    assert not any(table.startswith(f"{sample.FLAGS}_") for table in held), held
    assert picks[0].selection == picks[1].selection and picks[0].by_rule == picks[1].by_rule
    assert list(picks[0].left.lines()) == list(picks[1].left.lines())


def test_flags_sliced_by_start_are_the_flags_built_whole(tmp_path):
    # Past FLAG_SLICE_SESSIONS the flags are built a slice of sessions at a
    # time, cut by their start (``_time_slices``): each slice's steps read
    # the rows of ``events`` from its first start to its sessions' last row,
    # DuckDB skipping the row groups of other times (by a hash of the session
    # id, each of 20M rows' 8 slices read every row). Every session's flags
    # (its path, error, failing tool) are those built whole; so are they by
    # hash (``HashSlice``, where too many sessions start in one minute).
    from miner import sample
    from miner.engine.query import FlagSlice, HashSlice, flags_sql, hits_sql
    from tools import scale_export

    scale_export.write(tmp_path / "export", 20_000)
    since, until = scale_export.window()
    config = load_config(PIPELINE)
    signals = sample._signals(negative_feedback(None, config.feedback), config.signals)
    grace = config.sampling.session_grace
    export = source.open_export(tmp_path / "export")
    with _held_events(export, config, Window(since - grace, until + grace)) as con:
        con.hold(sample.FLAG_HITS, hits_sql(None, signals, since, until, sliced=True))
        whole = con.table(flags_sql(sample.FLAG_HITS, signals, hit_lists=False))
        parts = sample._time_slices(con, 8, since, until)
        by_hash = [HashSlice(i, 8) for i in range(8)]
        built = [
            [
                con.table(flags_sql(sample.FLAG_HITS, signals, False, p.sessions(), p.rows()))
                for p in ps
            ]
            for ps in (parts, by_hash)
        ]
        rows = con.table("SELECT count(*) AS n FROM events").column("n")[0].as_py()
        read = [
            con.table(f"SELECT count(*) AS n FROM events WHERE {p.rows()}").column("n")[0].as_py()
            for p in parts
        ]

    def flags(tables: list[pa.Table]) -> list[dict]:
        return sorted(pa.concat_tables(tables).to_pylist(), key=lambda f: f["session_id"])

    assert whole.num_rows > 500 and all(isinstance(p, FlagSlice) for p in parts)
    assert flags(built[0]) == flags(built[1]) == flags([whole])
    assert all(table.num_rows < whole.num_rows / 4 for table in built[0])
    assert max(read) < rows / 4, (read, rows)


class _Minutes:
    """An engine whose every table is ``rows``: the minutes ``_time_slices`` asks for."""

    def __init__(self, rows: list[dict]) -> None:
        self.rows = rows

    def table(self, sql: str) -> pa.Table:
        return pa.Table.from_pylist(self.rows)


def test_a_minute_in_which_too_many_sessions_start_is_sliced_by_hash():
    # The slices are cut at minutes, about as many hits each; one minute that
    # holds more than a slice may is not cut, and the sessions are sliced by
    # a hash of their id instead.
    from miner import sample
    from miner.engine.query import FlagSlice, HashSlice

    since, until = datetime(2026, 10, 1, 0, 0, 30, tzinfo=UTC), datetime(2026, 10, 2, tzinfo=UTC)
    at = (since - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1)
    minute = 60_000_000
    even = [{"minute": m, "hits": 10, "last_us": at + m * minute + 5} for m in range(8)]
    parts = sample._time_slices(_Minutes(even), 4, since, until)
    assert all(isinstance(p, FlagSlice) for p in parts)
    assert [(p.since, p.until) for p in parts] == [
        (since if m == 0 else since + timedelta(minutes=m), since + timedelta(minutes=m + 2))
        for m in (0, 2, 4, 6)
    ][:3] + [(since + timedelta(minutes=6), until)]
    assert [p.last for p in parts] == [
        since + timedelta(minutes=m + 1, microseconds=5) for m in (0, 2, 4, 6)
    ]
    burst = [{"minute": 0, "hits": 70, "last_us": at + 5}, *even[1:4]]
    assert all(
        isinstance(p, HashSlice) for p in sample._time_slices(_Minutes(burst), 4, since, until)
    )


def test_a_slice_no_session_starts_in_is_empty_and_reads_no_rows():
    # A minute of one and a half slices' hits can leave the next slice no
    # minute of its own (hits 8, 7, 15, then 10 a minute, in 10 slices): that
    # slice holds no session, reads no row of ``events``, and the slices
    # still cover the window end to end, each minute in one of them.
    from miner import sample
    from miner.engine.query import FlagSlice

    since, until = datetime(2026, 10, 1, tzinfo=UTC), datetime(2026, 10, 2, tzinfo=UTC)
    at = (since - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1)
    hits = [8, 7, 15, *[10] * 7]
    rows = [
        {"minute": m, "hits": n, "last_us": at + m * 60_000_000 + 5} for m, n in enumerate(hits)
    ]
    parts = sample._time_slices(_Minutes(rows), 10, since, until)
    assert all(isinstance(p, FlagSlice) for p in parts)
    empty = [p for p in parts if p.last is None]
    assert len(empty) == 1 and empty[0].since == empty[0].until and empty[0].rows() == "false"
    assert parts[0].since == since and parts[-1].until == until
    assert all(a.until == b.since for a, b in itertools.pairwise(parts))
    for m in range(len(hits)):
        start = since + timedelta(minutes=m)
        assert sum(p.since <= start < p.until for p in parts) == 1


@pytest.mark.parametrize("united_layouts", [parquet.UNITED_LAYOUTS, 1])
def test_files_of_different_columns_are_read_united_by_name(tmp_path, monkeypatch, united_layouts):
    # Half the sessions in a file of another layout (no latency_ms, a column
    # of its own, the columns in reverse order): read as one layout per
    # read_parquet united by name (or, past UNITED_LAYOUTS, union_by_name),
    # the selection is that of one file where those rows have no latency_ms.
    monkeypatch.setattr(parquet, "UNITED_LAYOUTS", united_layouts)
    table = ds.dataset(TRACES, partitioning="hive").to_table().drop_columns(["dt"])
    sessions = sorted(set(table.column("session_id").to_pylist()))
    other = pc.is_in(table.column("session_id"), pa.array(sessions[::2]))
    first, second = table.filter(pc.invert(other)), table.filter(other)
    second = second.drop_columns(["latency_ms"]).append_column(
        "their_column", pa.array(["theirs"] * second.num_rows)
    )
    second = second.select(list(reversed(second.column_names)))
    (tmp_path / "export").mkdir()
    pq.write_table(first, tmp_path / "export" / "a.parquet")
    pq.write_table(second, tmp_path / "export" / "b.parquet")
    nulled = pc.if_else(other, pa.nulls(table.num_rows, pa.string()), table.column("latency_ms"))
    (tmp_path / "one").mkdir()
    pq.write_table(
        table.set_column(table.schema.get_field_index("latency_ms"), "latency_ms", nulled),
        tmp_path / "one" / "all.parquet",
    )

    export = source.open_export(tmp_path / "export")
    assert [len(files) for files in export.layouts] == [1, 1]
    read = parquet.duckdb_table(export)
    assert ("union_by_name" in read) == (united_layouts == 1), read
    assert _as_seen(selected(tmp_path / "export")) == _as_seen(selected(tmp_path / "one"))
    columns = ["timestamp", "event_type", "session_id", "content"]
    frame = read_sessions(export, columns, START, END, sessions, ScanConfig())
    assert len(frame) == table.num_rows
    assert set(frame["source_file"].map(lambda f: Path(f).name)) == {"a.parquet", "b.parquet"}


def _in_small_files(folder: Path) -> source.Export:
    """The sample's rows written as files of ten rows each, opened."""
    ds.write_dataset(
        ds.dataset(TRACES, partitioning="hive").to_table(), folder, format="parquet",
        partitioning=["dt"], partitioning_flavor="hive", max_rows_per_file=10,
        max_rows_per_group=10,
    )  # fmt: skip
    return source.open_export(folder)


def test_files_of_one_layout_are_read_without_union_by_name(tmp_path):
    # union_by_name kept every file's reader: 5M rows in 2,507 files peaked
    # 150 MiB higher (docs/performance.md).
    export = _in_small_files(tmp_path / "export")
    assert len(export.layouts) == 1 and len(export.layouts[0]) > 10
    assert "union_by_name" not in parquet.duckdb_table(export)
    assert _as_seen(selected(tmp_path / "export")) == _as_seen(selected(TRACES))


@pytest.mark.parametrize("dialect", ["python", "java", "go"])
def test_a_payload_less_tool_error_alone_is_a_go_row(tmp_path, dialect):
    # Go's TOOL_ERROR rows are its only rows of a type the other plugins
    # write too: with no other Go row in the window, they alone decide that
    # attributes (where Go names the tool) is read.
    table = pq.read_table(GOLDEN / dialect / "export.parquet")
    errors = table.filter(pc.equal(table.column("event_type"), "TOOL_ERROR"))
    assert errors.num_rows
    (tmp_path / "export").mkdir()
    pq.write_table(errors, tmp_path / "export" / "part.parquet")
    export = source.open_export(tmp_path / "export")
    with duck.connect(ScanConfig(), str(export.path)) as con:
        _rows_sql, read, go_rows = duck.selection_rows(con, export, START, END, SCAN_EVENT_TYPES)
    assert ("attributes" in read) == (dialect == "go")
    assert go_rows == (dialect == "go")


def test_an_opened_export_holds_no_dataset_until_one_is_read(tmp_path):
    # The job opens the export, then forks the selection's child, which
    # counts every page the job holds in its RSS too (docs/performance.md).
    export = _in_small_files(tmp_path / "export")
    assert export.columns >= {"session_id", "dt"} and export.local
    assert "dataset" not in vars(export)
    files = sorted(f for layout in export.layouts for f in layout)
    assert sorted(export.dataset.files) == files and "dataset" in vars(export)
    assert export.dataset.schema == export.schema


def test_a_file_written_after_the_export_was_opened_is_not_read(tmp_path):
    # Its footer was never checked: half-written, it would stop the run
    # with an error naming no file.
    export = _in_small_files(tmp_path / "export")
    day = next(p for p in (tmp_path / "export").iterdir() if p.name.startswith("dt="))
    (day / "part-late.parquet").write_bytes(b"PAR1 not yet complete")
    files = sorted(f for layout in export.layouts for f in layout)
    assert sorted(export.dataset.files) == files
    sample = ds.dataset(TRACES, partitioning="hive")
    assert export.dataset.to_table().num_rows == sample.count_rows()
    assert export.dataset.to_table().column("dt").unique().to_pylist()


def test_a_bound_export_reads_the_same_rows_with_no_file_written_in_its_sql(tmp_path):
    # 10,009 files written into each query are 1.2 MB of SQL parsed again
    # each time (``parquet.bind_files``).
    export = _in_small_files(tmp_path / "export")
    count = "SELECT count(*) AS n, count(DISTINCT miner_source_file) AS files FROM {}"
    with duck.connect(ScanConfig()) as con:
        written = con.table(count.format(parquet.duckdb_table(export))).to_pylist()
        bound = parquet.bind_files(con.con, export)
        read = parquet.duckdb_table(bound, row_numbers=True)
        assert not any(f in read for layout in export.layouts for f in layout)
        assert con.table(count.format(read)).to_pylist() == written
    rows = ds.dataset(TRACES, partitioning="hive").count_rows()
    assert written == [{"n": rows, "files": len(export.layouts[0])}]


def test_the_pool_gives_way_to_each_file_read_down_to_a_floor():
    limit = ScanConfig().memory_limit_bytes
    assert limit == 160 * 2**20 and ScanConfig(memory_limit="2GB").memory_limit_bytes == 2 * 10**9
    assert pool_beside_files(limit, 88) == limit - 88 * HELD_PER_FILE
    assert pool_beside_files(limit, 10_009) == max(limit - 10_009 * HELD_PER_FILE, POOL_FLOOR)
    assert pool_beside_files(limit, 10**6) == POOL_FLOOR
    assert pool_beside_files(2**20, 10**6) == 2**20  # never above the config's own limit


def test_the_steps_after_the_files_are_read_have_the_whole_pool_again(tmp_path):
    config = load_config(PIPELINE)
    export = _in_small_files(tmp_path / "export")
    # Lowered while the files are read (``pool_beside_files``), then not.
    with _held_events(export, config, Window(START, END)) as con:
        held = con.con.sql("SELECT current_setting('memory_limit')").fetchall()
    with duck.connect(config.scan) as fresh:
        whole = fresh.con.sql("SELECT current_setting('memory_limit')").fetchall()
    assert held == whole, (held, whole)


@pytest.mark.parametrize(
    ("dialect", "shape", "unordered"),
    [
        ("python", "real", True),
        ("java", "real", True),
        ("go", "real", True),
        ("python", "wide", True),
        ("java", "wide", True),
        # 1M of these stopped out of memory written unordered on two threads.
        ("go", "wide", False),
    ],
)
def test_the_events_are_written_unordered_only_where_the_threads_reads_fit(
    tmp_path, dialect, shape, unordered
):
    # Exports built from the golden sessions the plugins wrote, in the bench's
    # shapes: the footers of the columns read decide, under the default
    # memory_limit on two threads; on one thread, or with the footers silent
    # (a remote export), the events are written in order.
    from tools import scale_export

    scale_export.write(tmp_path / "export", 7_041, dialect, shape)
    export = source.open_export(tmp_path / "export")
    footers = duck.read_footers(export)
    limit = ScanConfig().memory_limit_bytes
    with duck.connect(ScanConfig(threads=2), str(export.path)) as con:
        _rows, read, _go_rows = duck.selection_rows(
            con, export, *scale_export.window(), SCAN_EVENT_TYPES, footers
        )
    row_bytes = footers.row_bytes_of(read)
    assert row_bytes is not None and row_bytes > 0
    assert duck.unordered_write_fits(limit, 2, row_bytes) == unordered
    assert not duck.unordered_write_fits(limit, 1, row_bytes)
    assert duck.Footers({}, {}).row_bytes_of(read) is None


class _FailsTheFirstUnorderedWrite:
    """A DuckDB connection whose first unordered write of the held events
    stops out of memory (with ``fail``), as 1M wide Go rows' did; each
    write's ``preserve_insertion_order`` is kept in ``orders``."""

    def __init__(self, con, fail):
        self._con, self.fail, self.orders = con, fail, []

    def execute(self, sql, *args):
        import duckdb

        if sql.startswith(f"CREATE OR REPLACE TABLE {duck.STORED_EVENTS} "):
            [(ordered,)] = self._con.execute(
                "SELECT current_setting('preserve_insertion_order')"
            ).fetchall()
            self.orders.append(ordered)
            if self.fail and not ordered and self.orders.count(False) == 1:
                raise duckdb.OutOfMemoryException(
                    "Out of Memory Error: failed to allocate data of size 2.0 MiB "
                    "(159.0 MiB/159.3 MiB used)"
                )
        return self._con.execute(sql, *args)

    def __getattr__(self, attribute):
        return getattr(self._con, attribute)


def test_an_unordered_write_stopped_out_of_memory_is_written_again_in_order(monkeypatch):
    monkeypatch.setattr(duck, "unordered_write_fits", lambda *_: True)
    export = source.open_export(GOLDEN / "go")
    held = []
    for fails in (False, True):
        with duck.connect(ScanConfig(threads=2), str(export.path)) as con:
            failing = con.con = _FailsTheFirstUnorderedWrite(con.con, fails)
            duck.export_rows(con, export, START, END, SCAN_EVENT_TYPES)
            held.append(con.con.sql("SELECT * FROM events").to_arrow_table())
            [(ordered,)] = con.con.execute(
                "SELECT current_setting('preserve_insertion_order')"
            ).fetchall()
        assert failing.orders == ([False, True] if fails else [False])
        assert not ordered  # the steps after, as ever
    assert held[0].num_rows > 0
    assert Counter(map(str, held[0].to_pylist())) == Counter(map(str, held[1].to_pylist()))


@pytest.mark.parametrize("dialect", ["python", "java", "go"])
def test_the_selection_is_the_same_whether_the_events_are_written_in_order_or_not(
    tmp_path, monkeypatch, dialect
):
    # Nothing after the events reads their order: 50,000 rows over 88 files,
    # read on two threads, give the same flags, counts and rows read.
    from tools import scale_export

    scale_export.write(tmp_path / "export", 50_000, dialect)
    since, until = scale_export.window()
    config = load_config(PIPELINE)
    nobody = negative_feedback(None, config.feedback)
    export = source.open_export(tmp_path / "export")
    seen = []
    for unordered in (False, True):
        monkeypatch.setattr(duck, "unordered_write_fits", lambda *_, u=unordered: u)
        with duck.connect(ScanConfig(threads=2), str(export.path)) as con:
            duck.export_rows(con, export, since, until, SCAN_EVENT_TYPES)
            seen.append(_as_seen(select(con.table, nobody, config.signals, since, until)))
    assert seen[0][0] and seen[0] == seen[1]


def test_a_nested_column_s_row_is_all_its_leaves_bytes(tmp_path):
    # "content_parts" is stored as a chunk per leaf (text, mime_type...): a
    # row read is their sum, not the widest leaf, or the events write is
    # judged to fit where it does not.
    from types import SimpleNamespace

    parts = [[{"text": f"{n:0400}", "details": f"{n:0400}"}] for n in range(1_000)]
    file = tmp_path / "nested.parquet"
    table = pa.table({"content_parts": parts})
    pq.write_table(table, file, compression="none", use_dictionary=False)
    footers = duck.read_footers(SimpleNamespace(local=True, files=[file]))
    assert footers.widest_rows["content_parts"] >= 800, footers.widest_rows
    assert footers.row_bytes_of(["content_parts"]) == footers.widest_rows["content_parts"]
