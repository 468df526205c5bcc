"""`make bench-scale`: miner on a large export, against baselines measured in the same run.

Builds its own export by replicating the shipped sample traces with fresh
session and event ids over 28 daily partitions (``build_export``), then prints:

1. the selection stage's rows per second (``flag_passes`` over the engine's
   passes, as ``miner draft`` runs it) divided by a plain streaming pyarrow
   scan of the same columns and filter that does nothing with the rows; and
   the engine's read alone (DuckDB, the same passes, no signals) likewise;
   then where the selection's time goes: with no signal enabled, and on top
   of that the complaint detector and the other signals;
2. the peak RSS of ``miner draft --max-cases 20`` at 1M and at 4M rows, each in
   a fresh process (the highest of three runs);
3. the time of drafting 20 cases from the large export divided by the time of
   drafting them from a ~300-session export (the median of three runs each,
   the exports taken in turn).

Usage: ``python -m tests.bench_scale [ROWS]`` (default 4,000,000).
"""

from __future__ import annotations

import multiprocessing
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds

from tests.bench import vary_strings

ROOT = Path(__file__).resolve().parent.parent
PIPELINE = ROOT / "pipelines" / "support_agent.toml"
FIRST_DAY = datetime(2026, 10, 26, tzinfo=UTC)
DAYS = 28


def build_export(target: Path, rows: int) -> int:
    """The sample, copied until ``rows`` rows, each copy starting on one of
    DAYS days; rows are partitioned by the day of their own timestamp
    (``dt=``), as BigQuery exports them, so the window prunes partitions
    correctly."""
    sample = ds.dataset(ROOT / "sample_traces" / "traces", partitioning="hive").to_table()
    sample = sample.drop_columns(["dt"])
    sample_start = pc.min(sample.column("timestamp")).as_py()
    copies = max(1, rows // sample.num_rows)
    per_day = -(-copies // DAYS)
    written = 0
    for day in range(DAYS):
        parts = []
        for k in range(per_day):
            i = day * per_day + k
            if i >= copies:
                break
            copy = sample
            for column in ("session_id", "event_id"):
                varied = pc.binary_join_element_wise(copy.column(column), f"-{i}", "")
                copy = copy.set_column(copy.schema.get_field_index(column), column, varied)
            for column in ("content", "attributes"):
                varied = vary_strings(copy.column(column), i)
                copy = copy.set_column(copy.schema.get_field_index(column), column, varied)
            shift = FIRST_DAY + timedelta(days=day, minutes=k % 600) - sample_start
            stamps = pc.add(copy.column("timestamp"), pa.scalar(shift, pa.duration("us")))
            copy = copy.set_column(copy.schema.get_field_index("timestamp"), "timestamp", stamps)
            parts.append(copy)
        if not parts:
            break
        table = pa.concat_tables(parts).combine_chunks()
        days = pc.strftime(table.column("timestamp"), format="%Y-%m-%d")
        table = table.append_column("dt", days)
        ds.write_dataset(
            table,
            target,
            format="parquet",
            partitioning=["dt"],
            partitioning_flavor="hive",
            basename_template=f"part-{day}-{{i}}.parquet",
            existing_data_behavior="overwrite_or_ignore",
            min_rows_per_group=50_000,
            max_rows_per_group=100_000,
        )
        written += table.num_rows
    return written


def _window() -> list[str]:
    end = FIRST_DAY + timedelta(days=DAYS)
    return ["--since", (end - timedelta(days=7)).isoformat(), "--until", end.isoformat()]


def _scan_rates(export: Path) -> tuple[float, float, float, int]:
    """Rows per second of: a plain pyarrow scan of the scan's columns and
    filter; the engine's read of the same rows alone (DuckDB, in passes); the
    selection stage as `miner draft` runs it (the read and the signals)."""
    from miner import files
    from miner.config import ScanConfig, SignalsConfig
    from miner.job import _flag_embedded, no_progress
    from miner.sample import SCAN_COLUMNS, SCAN_EVENT_TYPES, SCAN_ONLY_ON, NegativeFeedback

    opened = files.open_export(export)
    start, end = FIRST_DAY - timedelta(days=1), FIRST_DAY + timedelta(days=DAYS + 1)
    # The plain scan leaves out the columns miner reads on a few rows only
    # (SCAN_ONLY_ON): it cannot read a column on some rows, and reading one
    # whole would slow the baseline, not miner.
    plain_columns = [c for c in SCAN_COLUMNS if c not in SCAN_ONLY_ON]
    begin = time.perf_counter()
    rows = sum(
        b.num_rows
        for b in files.scan_batches(opened, plain_columns, start, end, event_types=SCAN_EVENT_TYPES)
    )
    plain = time.perf_counter() - begin
    begin = time.perf_counter()
    passes = files.scan_passes(
        opened, SCAN_COLUMNS, start, end, SCAN_EVENT_TYPES, ScanConfig(), only_on=SCAN_ONLY_ON
    )
    read = sum(b.num_rows for batches in passes for b in batches)
    engine = time.perf_counter() - begin
    assert read == rows, (read, rows)
    config = files.load_config(PIPELINE)
    config = config.model_copy(update={"scan": ScanConfig(), "signals": SignalsConfig()})
    begin = time.perf_counter()
    _flag_embedded(
        opened,
        config,
        start,
        end,
        (start, end),
        NegativeFeedback(frozenset(), frozenset()),
        Counter(),
        no_progress,
    )
    miner = time.perf_counter() - begin
    return rows / plain, rows / engine, rows / miner, rows


def _signal_costs(export: Path) -> tuple[float, dict[str, float]]:
    """Where the selection stage's time goes, over the whole export: seconds
    with no signal enabled (the engine's passes and the fold's own work),
    then on top of that the complaint detector alone and the six other
    signals together. The no-signal run is the best of two (the first warms the cache)."""
    from miner import files
    from miner.config import ScanConfig, SignalsConfig
    from miner.sample import (
        IN_WINDOW,
        SCAN_COLUMNS,
        SCAN_EVENT_TYPES,
        SCAN_ONLY_ON,
        NegativeFeedback,
        flag_passes,
        turn_conditions,
    )
    from miner.signals import NAMES

    opened = files.open_export(export)
    start, end = FIRST_DAY - timedelta(days=1), FIRST_DAY + timedelta(days=DAYS + 1)
    nobody = NegativeFeedback(frozenset(), frozenset())
    every = SignalsConfig()

    def only(names: set[str]) -> float:
        config = every.model_copy(
            update={
                name: getattr(every, name).model_copy(update={"enabled": name in names})
                for name in NAMES
            }
        )
        turns = turn_conditions(nobody, config)
        begin = time.perf_counter()
        with files.open_scan(
            opened,
            SCAN_COLUMNS,
            start,
            end,
            SCAN_EVENT_TYPES,
            ScanConfig(),
            turns=turns,
            window=(IN_WINDOW, start, end),
            only_on=SCAN_ONLY_ON,
        ) as scan:
            flag_passes(scan.read(range(scan.passes)), nobody, config)
        return time.perf_counter() - begin

    none = min(only(set()), only(set()))
    complaint = only({"complaint"}) - none
    others = only(set(NAMES) - {"complaint"}) - none
    costs = {"complaint": complaint, "the six other signals": others}
    return none, costs


def _draft_child(args: list[str], queue) -> None:  # type: ignore[no-untyped-def]
    begin = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True)
    seconds = time.perf_counter() - begin
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux
    queue.put((done.returncode, seconds, peak, done.stderr[-300:]))


def _draft(export: Path, out: Path) -> tuple[float, int]:
    """Seconds and peak RSS (MiB) of one `miner draft` in a fresh process."""
    command = [
        sys.executable, "-m", "miner", "draft", "--pipeline", str(PIPELINE), "--traces",
        str(export), *_window(), "--max-cases", "20", "--per-signal", "20", "--out", str(out),
    ]  # fmt: skip
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    child = context.Process(target=_draft_child, args=(command, queue))
    child.start()
    code, seconds, peak, stderr = queue.get()
    child.join()
    if code != 0:
        raise SystemExit(f"miner draft failed ({code}): {stderr}")
    return seconds, peak // 1024


def main() -> None:
    from miner.job import use_system_allocator

    use_system_allocator()  # the in-process figures run the scan as `miner draft` does
    rows_wanted = int(sys.argv[1]) if len(sys.argv) > 1 else 4_000_000
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        small = build_export(base / "small", 300 * 17)  # ~300 sessions
        million = build_export(base / "1m", 1_000_000)
        large = build_export(base / "large", rows_wanted)
        plain, engine, selection, scanned = _scan_rates(base / "large")
        print(
            f"selection stage: {selection:,.0f} rows/s; plain pyarrow scan of the same columns "
            f"and filter: {plain:,.0f} rows/s ({scanned:,} rows); ratio {selection / plain:.2f} "
            f"(target >= 1.0); the engine's read alone: {engine:,.0f} rows/s, "
            f"ratio {engine / plain:.2f}"
        )
        none, costs = _signal_costs(base / "large")
        print(
            f"selection stage, same rows, by part: {none:.1f} s with no signal (the engine's "
            "passes and the fold); on top of that: "
            + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in costs.items())
        )
        # Three runs of each, taken in turn, each into a fresh folder: one run
        # on a shared two-core machine varies by a tenth. The median time and
        # the highest peak are printed.
        runs: dict[str, list[tuple[float, int]]] = {"small": [], "1m": [], "large": []}
        for attempt in range(3):
            for name, done in runs.items():
                done.append(_draft(base / name, base / f"out-{name}-{attempt}"))
        t_small = statistics.median(seconds for seconds, _ in runs["small"])
        t_large = statistics.median(seconds for seconds, _ in runs["large"])
        rss_million = max(peak for _, peak in runs["1m"])
        rss_large = max(peak for _, peak in runs["large"])
        print(
            f"peak RSS of miner draft --max-cases 20 (highest of 3 runs): {rss_million} MiB at "
            f"{million:,} rows, {rss_large} MiB at {large:,} rows (target < 512 MiB at both)"
        )
        print(
            f"20 cases (median of 3 runs) from {large:,} rows: {t_large:.1f} s; from {small:,} "
            f"rows: {t_small:.1f} s; ratio {t_large / t_small:.2f} (target <= 2)"
        )


if __name__ == "__main__":
    main()
