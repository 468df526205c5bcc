"""tools.selection_steps wraps the embedded engine's methods by name and
runs the draft's selection as the engine does; a renamed method, or a
selection that moved, must fail here, not in the next round's figures."""

from __future__ import annotations

from miner.engine import duck
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
    # The same choice twice, and the engine left as it was.
    assert len(first.fingerprint) == 64 and first.fingerprint == again.fingerprint
    assert methods == {name: getattr(duck.Duck, name) for name in methods}
