"""`make bench-scale` goes on past a draft that fails and reports it with
its exit code, miner's one-line error and the peak it reached: a failure in
one shape of the matrix must be a line of figures, not a lost hour."""

from __future__ import annotations

from tools import bench_scale


def test_a_failed_draft_is_reported_with_its_error_and_peak(tmp_path):
    not_an_export = tmp_path / "empty"
    not_an_export.mkdir()
    try:
        bench_scale.draft(not_an_export, tmp_path / "out")
    except bench_scale.DraftFailed as failed:
        assert failed.code == 3
        assert failed.error == f"Error: {not_an_export}: no Parquet files found"
        assert failed.run.peak > 0 and failed.run.cpu > 0
    else:
        raise AssertionError("a draft of an empty folder succeeded")
    assert not (tmp_path / "out").exists()


def test_the_table_shows_a_failure_beside_the_figures():
    run, small, plain = (
        bench_scale.Run(20.0, 10.0, 420),
        bench_scale.Run(10.0, 5.0, 400),
        bench_scale.Run(2.0, 1.0, 0),
    )
    lines = [
        bench_scale.Line("python", "real", 1_000_000, run, small, plain, 3.0),
        bench_scale.Line("go", "one-file", 5_000_000, bench_scale.Run(16.0, 9.0, 650), small,
                         plain, 7.0, "5,000,000 rows, exit 2: Error: [scan] memory_limit"),
    ]  # fmt: skip
    rows = bench_scale.table(lines).splitlines()
    assert len(rows) == 4 and rows[1].startswith("| --- |")
    assert rows[2] == (
        "| real | python | 1,000,000 | 420 | 20.0 s (10.0 s CPU) | x2.00 (x2.00 CPU) "
        "| x5.00 (x5.00 CPU) | 3.0 |"
    )
    assert rows[3].startswith("| one-file | go | 5,000,000 | 650 | FAILED after 16 s (9.0 s CPU): ")
    assert "exit 2: Error: [scan] memory_limit" in rows[3]
