"""`make bench-scale` goes on past a draft that fails and reports it with
its exit code, miner's one-line error and the peak it reached: a failure in
one shape of the matrix must be a line of figures, not a lost hour."""

from __future__ import annotations

import pytest

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


def test_an_export_the_disk_has_no_room_for_is_a_line_not_a_full_disk(tmp_path):
    # 10^12 rows would take petabytes: not built, and its line says why.
    line = bench_scale.measure(tmp_path, "python", "real", 10**12)
    assert line.big is None and line.error.startswith("not built: needs ")
    assert "GiB of disk and 5 spare" in line.error
    assert list(tmp_path.iterdir()) == []  # neither export left behind
    cells = bench_scale.table([line]).splitlines()[2]
    assert cells.startswith("| real | python | 1,000,000,000,000 | - | NOT RUN: not built: ")


def test_one_file_needs_the_disk_of_the_arrow_file_it_is_staged_through(tmp_path):
    from tools import scale_export

    scale_export.write(tmp_path / "one", bench_scale.SMALL_ROWS, "go", "one-file")
    as_written = bench_scale.disk_needed(tmp_path / "one", 20_000_000, "real")
    staged_too = bench_scale.disk_needed(tmp_path / "one", 20_000_000, "one-file")
    # 20M Go rows took 5.4 GB of Parquet, staged through 32.4 GB of Arrow:
    # the estimate must not be under that, nor far over.
    assert 5.4e9 < as_written < 2 * 5.4e9
    assert 5.4e9 + 32.4e9 < staged_too < 2 * (5.4e9 + 32.4e9)


def test_the_verdict_counts_the_drafts_under_issue_38s_bound():
    small, plain = bench_scale.Run(10.0, 5.0, 400), bench_scale.Run(2.0, 1.0, 0)

    def line(shape: str, peak: int, error: str = "") -> bench_scale.Line:
        run = bench_scale.Run(20.0, 10.0, peak)
        return bench_scale.Line("go", shape, 20_000_000, run, small, plain, 3.0, error)

    # Each process under the bound, the tree's summed RSS over it: not held.
    over_summed = bench_scale.Run(20.0, 10.0, 420, 500, 390)
    lines = [
        line("real", 487),
        line("wide", 488),
        line("small-files", 300, "exit 2: Error"),
        bench_scale.Line("java", "wide", 20_000_000, None, None, None, 1.0, "not built"),
        bench_scale.Line("java", "one-file", 20_000_000, over_summed, small, plain, 1.0),
    ]
    assert bench_scale.verdict(lines) == (
        "peak RSS under 488 MiB (512 MB): 1 of 5 drafts; not: wide go 20,000,000 488 MiB, "
        "small-files go 20,000,000 failed (300 MiB), wide java 20,000,000 not run, "
        "one-file java 20,000,000 420 MiB (tree: RSS 500, PSS 390)"
    )
    assert bench_scale.verdict(lines[:1]) == "peak RSS under 488 MiB (512 MB): 1 of 1 drafts"
    cells = bench_scale.table(lines[-1:]).splitlines()[2]
    assert cells.startswith("| one-file | java | 20,000,000 | 420 / 500 / 390 | 20.0 s ")


def test_the_tree_sampler_counts_a_forked_childs_shared_pages_in_rss_once_in_pss():
    # 100 MiB written before the fork: in both processes' RSS (a harness
    # summing the tree's RSS counts it twice), split between them in PSS.
    import subprocess
    import sys

    forks = (
        "import os, sys, time\n"
        "held = bytearray(100 << 20)\n"
        "held[::4096] = b'x' * len(held[::4096])\n"
        "if os.fork() == 0:\n"
        "    time.sleep(1.5)\n"
        "    os._exit(0)\n"
        "os.wait()\n"
    )
    with (
        subprocess.Popen([sys.executable, "-c", forks]) as parent,
        bench_scale.TreeSampler(parent.pid) as tree,
    ):
        parent.wait()
    assert tree.rss > 2 * 100 * 1024  # KiB: the 100 MiB counted in each process
    assert tree.pss < tree.rss - 80 * 1024  # once in the summed PSS


def test_the_plain_scan_a_page_at_a_time_reads_the_rows_the_scanner_does(tmp_path):
    # By pages where miner reads by pages (the one-file shape's single row
    # group, decoded whole by the dataset scanner: 22 GB at 20M rows); the
    # same rows either way, dt= partitions and the window's terms on them too.
    from tools import scale_export

    for dialect, shape in (("python", "real"), ("go", "one-file")):
        export = tmp_path / shape
        scale_export.write(export, 30_000, dialect, shape)
        dataset, columns, where, _paged = bench_scale._selection_read(export)
        by_scanner = bench_scale._dataset_scan(dataset, columns, where)
        assert 10_000 < by_scanner < 30_000  # the filter kept some rows, not all
        assert bench_scale._paged_scan(dataset, columns, where) == by_scanner


def test_an_export_can_be_written_in_zstd_as_bigquery_can(tmp_path):
    # The wide shape's 20M rows take 67 GiB in Snappy: in ZSTD, a quarter of it.
    import pyarrow.parquet as pq

    from tools import scale_export

    for compression in ("snappy", "zstd"):
        scale_export.write(tmp_path / compression, 7_041, "python", "wide", compression=compression)
        files = sorted((tmp_path / compression).rglob("*.parquet"))
        column = pq.ParquetFile(files[0]).metadata.row_group(0).column(0)
        assert column.compression == compression.upper()
    size = {
        c: sum(f.stat().st_size for f in (tmp_path / c).rglob("*.parquet"))
        for c in ("snappy", "zstd")
    }
    assert size["zstd"] < size["snappy"] / 2  # 7,041 rows: x2.7; 50,000: x4


@pytest.mark.parametrize("argv, code", [(["--help"], 0), (["bogus"], 2), (["12", "x"], 2)])
def test_the_redaction_bench_reads_its_arguments_before_it_runs_anything(argv, code, capsys):
    from tools import bench

    with pytest.raises(SystemExit) as stopped:
        bench.main(argv)  # a bench run would take minutes, not exit
    assert stopped.value.code == code
    out, err = capsys.readouterr()
    assert "COPIES|long" in (out if code == 0 else err)
