"""tools.selection_steps wraps the embedded engine's methods by name and
runs the draft's selection as the engine does; a renamed method, or a
selection that moved, must fail here, not in the next round's figures."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds

from miner.engine import duck
from miner.sample import SCAN_EVENT_TYPES
from tools import scale_export, selection_steps


def test_each_statement_of_the_selection_is_timed_and_the_choice_fingerprinted(tmp_path):
    scale_export.write(tmp_path / "export", 3_000)
    methods = {name: getattr(duck.Duck, name) for name in ("_run", "execute", "table")}
    first = selection_steps.measure(tmp_path / "export", *scale_export.window())
    again = selection_steps.measure(tmp_path / "export", *scale_export.window())
    statements = [sql for sql, _seconds in first.timed]
    # The events' build, each step of the hits and of the flags, the reads.
    assert statements.count("events") == 1
    for step in ('"turns"', '"complaint_scored"', '"miner_flag_hits"', '"miner_flags"'):
        assert any(step in sql for sql in statements), (step, statements)
    assert any(sql.startswith("read: ") for sql in statements)
    assert 0 < sum(seconds for _sql, seconds in first.timed) <= first.total
    assert len(first.walls) == len(first.timed) and 0 < sum(first.walls) <= first.wall
    # The same choice twice, and the engine left as it was.
    assert len(first.fingerprint) == 64 and first.fingerprint == again.fingerprint
    assert methods == {name: getattr(duck.Duck, name) for name in methods}


def test_the_events_statement_in_parts_reads_computes_and_writes_the_selections_rows(tmp_path):
    scale_export.write(tmp_path / "export", 3_000)
    parts = selection_steps.events_parts(tmp_path / "export", *scale_export.window())
    rows = ds.dataset(tmp_path / "export", partitioning="hive").to_table(
        columns=["session_id", "event_type", "status"]
    )
    # The rows the selection reads (``rows_sql``; every row is in the
    # window), a null compared read as SQL's WHERE reads it: not kept.
    in_types = pc.is_in(rows["event_type"], pa.array(SCAN_EVENT_TYPES))
    wanted = pc.or_kleene(
        pc.or_kleene(pc.is_null(rows["session_id"]), in_types),
        pc.equal(rows["status"], "ERROR"),
    )
    read = pc.sum(pc.cast(pc.fill_null(wanted, False), "int64")).as_py()
    assert 0 < read < rows.num_rows
    # The read, the view computed, the table written: three parts, each of those rows.
    assert len({part.what for part in parts}) == 3
    assert [part.rows for part in parts] == [read, read, read]
    assert all(part.cpu >= 0 and part.wall > 0 for part in parts)
