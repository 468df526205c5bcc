"""`make bench-scale`: `miner draft` on large exports, against baselines measured in the same run.

The exports are built by ``tools.scale_export`` from ``tests/golden`` (rows
the ADK plugins' own source wrote), widened to a real agent's shape, in
every dialect and layout asked for; each is built, measured and removed in
turn (``--data`` names the folder: the 20M-row one takes 6 GiB). For each:

- rows, files, row groups and the widths of ``content`` / ``attributes``;
- ``miner draft --max-cases 20`` with the default ``[scan]`` config, in a
  fresh process: seconds, wall and CPU, and peak RSS (target < 512 MiB),
  after one untimed draft (the first after miner's source changed fills
  the redaction word lists' cache, ``miner.derived``). The peak is given
  three ways: the largest one process reached (``ru_maxrss``, what ``time
  -v`` reports), and the process tree's (the draft and the children its
  engine runs steps in, ``miner.engine.apart``) summed RSS and summed PSS,
  sampled from ``/proc`` every 20 ms (``TreeSampler``): a harness that sums
  its children's RSS counts the pages a forked child shares with the job
  twice, PSS splits them;
- the same 20 cases from a 7,041-row export of the same shape, run just
  before: the ratio (target <= 2);
- a plain streaming pyarrow scan of the columns and rows the selection reads,
  doing nothing with them: what the rows add to the draft (big minus small)
  over that scan (target <= 2), in wall and in CPU seconds, with the load
  average (the machine may be shared).

A draft that fails is reported with its exit code, the last line of its
error and its peak RSS, and the bench goes on; an export the disk has no
room for (``disk_needed``) is not built, and its line says what it needs.
Then, end to end on a 7,041-row real-shaped export of each dialect asked
for: every flagged session drafted by ``tools/baseline_draft.py`` and by
``miner draft`` (target >= 5). Last, every line again as one table, and
how many drafts peaked under issue 38's bound (``verdict``).

Usage: ``python -m tools.bench_scale [--rows 1000000] [--shapes
real,wide,small-files,one-file] [--dialects python,java,go] [--data DIR]
[--compression snappy|zstd|gzip]``:
every combination of the three lists (by default every shape and dialect
at 1M rows). ``--full`` is issue 38's whole matrix: every shape and
dialect at 1M, 5M and 20M rows.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from miner.errors import MinerError
from tools import scale_export

ROOT = Path(__file__).resolve().parent.parent
PIPELINE = ROOT / "pipelines" / "support_agent.toml"
FEEDBACK = ROOT / "tests" / "golden" / "feedback.parquet"
#: The real agent's export the issue measured had this many rows.
SMALL_ROWS = 7_041
#: Issue 38's bound on a draft's peak RSS, "512 MB" read as 10^6 bytes.
PEAK_BOUND_MIB = 488
#: Disk left free beside an export being built and drafted: the draft's
#: DuckDB spill under TMPDIR (4 GB at 20M rows) and the disk's other users.
SPARE_DISK = 5 * 2**30


def _window() -> list[str]:
    since, until = scale_export.window()
    return ["--since", since.isoformat(), "--until", until.isoformat()]


#: How often ``TreeSampler`` reads the tree's memory, seconds.
SAMPLE_EVERY = 0.02


def tree_pids(root: int) -> list[int]:
    """``root`` and every process descending from it, from each thread's
    ``/proc/PID/task/TID/children`` (a child is listed under the thread
    that forked it); those that ended meanwhile are skipped."""
    found, waiting = [], [root]
    while waiting:
        pid = waiting.pop()
        found.append(pid)
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{pid}/task"):
                children = f"/proc/{pid}/task/{task}/children"
                with contextlib.suppress(OSError), open(children, encoding="ascii") as kids:
                    waiting.extend(int(kid) for kid in kids.read().split())
    return found


def process_memory(pid: int) -> tuple[int, int]:
    """One process's (RSS, PSS) in KiB from ``/proc/PID/smaps_rollup``; (0,
    0) once it has ended. PSS charges each page shared by n processes 1/n
    to each, so summed over a tree it counts every page once."""
    rss = pss = 0
    rollup_path = f"/proc/{pid}/smaps_rollup"
    with contextlib.suppress(OSError), open(rollup_path, encoding="ascii") as rollup:
        for line in rollup:
            key, _, value = line.partition(":")
            if key == "Rss":
                rss = int(value.split()[0])
            elif key == "Pss":
                pss = int(value.split()[0])
                break  # Pss follows Rss: the rest is not read
    return rss, pss


class TreeSampler:
    """The peak, over a run, of the summed RSS and of the summed PSS of a
    process and its descendants, read from ``/proc`` every ``SAMPLE_EVERY``
    seconds in a thread of this process (KiB). Sampled, so a peak shorter
    than a sample's gap may be missed; ``ru_maxrss`` is exact but for one
    process."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.rss = self.pss = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> TreeSampler:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        while True:
            rss = pss = 0
            for pid in tree_pids(self.root):
                one_rss, one_pss = process_memory(pid)
                rss, pss = rss + one_rss, pss + one_pss
            self.rss, self.pss = max(self.rss, rss), max(self.pss, pss)
            if self._stop.wait(SAMPLE_EVERY):
                return


def _draft_child(args: list[str], queue) -> None:  # type: ignore[no-untyped-def]
    begin = time.perf_counter()
    with (
        subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as child,
        TreeSampler(child.pid) as tree,
    ):
        _out, stderr = child.communicate()
    seconds = time.perf_counter() - begin
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = used.ru_utime + used.ru_stime
    peak = used.ru_maxrss  # KiB on Linux
    queue.put((child.returncode, seconds, cpu, peak, tree.rss, tree.pss, stderr))


@dataclass(frozen=True)
class Run:
    """One `miner draft`: seconds (wall and CPU) and peak RSS (MiB): the
    largest one process reached, and the process tree's summed RSS and
    summed PSS (sampled; 0 where not measured)."""

    wall: float
    cpu: float
    peak: int
    tree_rss: int = 0
    tree_pss: int = 0

    @property
    def bounded(self) -> int:
        """The peak issue 38's bound is checked against: the tree's summed
        RSS where measured (the strictest way a harness sums it), else the
        one process's."""
        return max(self.peak, self.tree_rss)

    def peak_cell(self) -> str:
        """The peaks in a table's cell: ``426 / 480 / 392``."""
        if not self.tree_rss:
            return f"{self.peak}"
        return f"{self.peak} / {self.tree_rss} / {self.tree_pss}"

    def peaks(self) -> str:
        """The peaks in words, e.g. ``426 MiB (tree: RSS 480, PSS 392)``."""
        if not self.tree_rss:
            return f"{self.peak} MiB"
        return f"{self.peak} MiB (tree: RSS {self.tree_rss}, PSS {self.tree_pss})"


class DraftFailed(Exception):
    """`miner draft` exited non-zero: its exit code, the last line it wrote
    on stderr (miner's one-line error, or a traceback's last line) and the
    run's seconds and peak up to then."""

    def __init__(self, code: int, error: str, run: Run) -> None:
        super().__init__(f"exit {code}: {error}")
        self.code, self.error, self.run = code, error, run


def _last_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    return lines[-1][:400] if lines else "(nothing on stderr)"


def draft(export: Path, out: Path, cases: int = 20) -> Run:
    """One `miner draft` of ``cases`` cases with the default ``[scan]``
    config, in a fresh process (its own peak, its own CPU seconds); raises
    ``DraftFailed`` when it exits non-zero."""
    command = [
        sys.executable, "-m", "miner", "draft", "--pipeline", str(PIPELINE), "--traces",
        str(export), "--feedback", str(FEEDBACK), *_window(), "--max-cases", str(cases),
        "--per-signal", str(cases), "--out", str(out),
    ]  # fmt: skip
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    child = context.Process(target=_draft_child, args=(command, queue))
    child.start()
    code, seconds, cpu, peak, tree_rss, tree_pss, stderr = queue.get()
    child.join()
    shutil.rmtree(out, ignore_errors=True)
    run = Run(seconds, cpu, peak // 1024, tree_rss // 1024, tree_pss // 1024)
    if code != 0:
        raise DraftFailed(code, _last_line(stderr), run)
    return run


def plain_scan(export: Path) -> tuple[Run, int]:
    """A plain streaming pyarrow scan of the columns and rows the selection
    reads (its columns, each row's file among them; its event types, rows
    with status ERROR or without a session, in the window and a day of
    grace either side), in one pass, doing nothing with them: its seconds
    (wall and CPU); and the rows it read.

    Read by pyarrow's dataset scanner, as a user would (``_dataset_scan``);
    but where miner's own reads go a page at a time (a column chunk over an
    eighth of the default ``memory_limit``: ``duck.fit_prefetching``), so
    does this scan (``_paged_scan``): the scanner decodes a row group's
    columns whole, and the one-file shape's single 20M-row group took 22 GB
    (the kernel killed the bench)."""
    dataset, columns, where, paged = _selection_read(export)
    begin, cpu = time.perf_counter(), time.process_time()
    rows = (_paged_scan if paged else _dataset_scan)(dataset, columns, where)
    return Run(time.perf_counter() - begin, time.process_time() - cpu, 0), rows


def _selection_read(export: Path) -> tuple[Any, list[str], Any, bool]:
    """What the selection reads of ``export``: its dataset, the columns
    (``attributes`` only when the window holds a Go row), the rows as a
    filter, and whether miner reads those columns a page at a time."""
    import pyarrow.dataset as ds

    from miner import source
    from miner.config import ScanConfig
    from miner.engine import duck
    from miner.sample import SCAN_EVENT_TYPES
    from miner.window import Window

    opened = source.open_export(export)
    since, until = scale_export.window()
    scan = (since - timedelta(days=1), until + timedelta(days=1))
    with duck.connect(ScanConfig()) as con:
        _rows, columns, _go_rows = duck.selection_rows(con, opened, *scan, SCAN_EVENT_TYPES)
        duck.fit_prefetching(con, duck.read_footers(opened).largest_chunks, columns)
        [paged] = con.table(
            "SELECT current_setting('disable_parquet_prefetching') AS paged"
        ).column("paged")
    wanted = ds.field("session_id").is_null() | ds.field("event_type").isin(SCAN_EVENT_TYPES)
    if "status" in opened.columns:
        wanted |= ds.field("status") == "ERROR"
    where = Window(*scan).arrow(opened.dataset.schema) & wanted
    return opened.dataset, columns, where, bool(paged.as_py())


def _dataset_scan(dataset: Any, columns: list[str], where: Any) -> int:
    """``plain_scan``'s read by pyarrow's dataset scanner; the rows it keeps.
    As ``source.scan_batches`` reads (its read-ahead), without its separate
    pass for rows without a session: the selection counts those in its one."""
    rows = 0
    for batch in dataset.to_batches(
        columns=[*columns, "__filename"],
        filter=where,
        batch_size=16_384,
        batch_readahead=2,
        fragment_readahead=1,
    ):
        rows += batch.num_rows
    return rows


def _paged_scan(dataset: Any, columns: list[str], where: Any) -> int:
    """``plain_scan``'s read a page at a time: each file's ``columns`` (and
    what ``where`` reads) in batches of 16,384 rows, no pre-buffering,
    ``where`` applied to each batch; the rows it keeps."""
    import pyarrow as pa
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    rows = 0
    for fragment in dataset.get_fragments():
        # The hive ``dt`` and the file name are the fragment's, not the file's.
        keys = ds.get_partition_keys(fragment.partition_expression)
        fixed = {"__filename": fragment.path, **keys}
        in_file = set(pq.read_schema(fragment.path).names)
        read = sorted({*columns, "event_type", "status", "session_id", "timestamp"} & in_file)
        for batch in pq.ParquetFile(
            fragment.path, pre_buffer=False, buffer_size=1 << 20
        ).iter_batches(batch_size=16_384, columns=read):
            table = pa.Table.from_batches([batch])
            for name, value in fixed.items():
                if name not in table.column_names:
                    kind = dataset.schema.field(name).type if name != "__filename" else pa.string()
                    table = table.append_column(name, pa.array([value] * table.num_rows, kind))
            rows += table.filter(where).num_rows
    return rows


def disk_needed(small: Path, rows: int, shape: str) -> int:
    """Bytes of disk an export of ``rows`` rows of ``shape`` takes to build,
    from ``small``, the 7,041-row one of the same shape and dialect: its
    files' bytes per row (an upper bound: its files are small, so their
    fixed cost is a larger share of them: 557 MiB per million real Python
    rows against 310 built), plus, for ``one-file``, the Arrow file the
    export is staged through (the rows uncompressed: 30 GiB beside 5 GiB of
    Parquet for 20M Go rows), and a tenth more."""
    import pyarrow.parquet as pq

    written = uncompressed = 0
    for file in small.rglob("*.parquet"):
        written += file.stat().st_size
        if scale_export.SHAPES[shape].one_file:
            meta = pq.ParquetFile(file).metadata
            uncompressed += sum(
                meta.row_group(i).total_byte_size for i in range(meta.num_row_groups)
            )
    return int((written + uncompressed) * rows / SMALL_ROWS * 1.1)


def _load() -> str:
    return "load average {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


#: Holds True once a draft ran in this bench: the first one after miner's
#: source changed derives the redaction rules' word lists into the cache
#: (``miner.derived``, a minute), which no later run pays; it is not timed.
_WARMED: list[bool] = []


@dataclass(frozen=True)
class Line:
    """One export's figures, for the table at the end."""

    dialect: str
    shape: str
    rows: int
    big: Run | None
    """None when the export was not built (no room on the disk)."""
    small: Run | None
    plain: Run | None
    load: float
    error: str = ""

    def cells(self) -> list[str]:
        b, m, p = self.big, self.small, self.plain
        head = [self.shape, self.dialect, f"{self.rows:,}", "-" if b is None else b.peak_cell()]
        if b is None:
            return [*head, f"NOT RUN: {self.error}", "", "", f"{self.load:.1f}"]
        if self.error or m is None or p is None:
            return [*head, f"FAILED after {b.wall:.0f} s ({b.cpu:.1f} s CPU): {self.error}",
                    "", "", f"{self.load:.1f}"]  # fmt: skip
        return [
            *head,
            f"{b.wall:.1f} s ({b.cpu:.1f} s CPU)",
            f"x{b.wall / m.wall:.2f} (x{b.cpu / m.cpu:.2f} CPU)",
            f"x{(b.wall - m.wall) / p.wall:.2f} (x{(b.cpu - m.cpu) / p.cpu:.2f} CPU)",
            f"{self.load:.1f}",
        ]


def measure(
    data: Path,
    dialect: str,
    shape: str,
    rows: int,
    keep: bool = False,
    compression: str = "snappy",
) -> Line:
    """One line of figures for an export of ``rows`` rows, its files
    compressed with ``compression``; with ``keep``, the exports already in
    ``data`` are measured as they are, and kept."""
    small, big = data / f"{dialect}-{shape}-small", data / f"{dialect}-{shape}-{rows}"
    built = 0.0
    for folder, size in ((small, SMALL_ROWS), (big, rows)):
        if keep and folder.exists():
            continue
        shutil.rmtree(folder, ignore_errors=True)
        if folder == big:
            need, free = disk_needed(small, rows, shape), shutil.disk_usage(data).free
            if need + SPARE_DISK > free:
                # A full disk mid-build would stop the bench, and whoever
                # else writes there: said, not tried.
                if not keep:
                    shutil.rmtree(small, ignore_errors=True)
                why = (
                    f"not built: needs {need / 2**30:.1f} GiB of disk and "
                    f"{SPARE_DISK / 2**30:.0f} spare, {free / 2**30:.1f} free under {data}"
                )
                print(f"{dialect} {shape} {rows:,} rows: {why}", flush=True)
                return Line(dialect, shape, rows, None, None, None, os.getloadavg()[0], why)
        begin = time.perf_counter()
        scale_export.write(folder, size, dialect, shape, compression=compression)
        built = time.perf_counter() - begin
    print(
        f"{dialect} {shape}: {scale_export.describe(big)}, {compression} (built in {built:.0f} s)",
        flush=True,
    )
    small_run: Run | None = None
    try:
        if not _WARMED:
            draft(small, data / "out-warm")
            _WARMED.append(True)
        small_run = draft(small, data / "out-small")
        big_run = draft(big, data / "out-big")
        # After the drafts: the scan asks miner's engine which columns the
        # selection reads, and fails (with the draft's own error) where it does.
        plain, scanned = plain_scan(big)
    except DraftFailed as failed:
        which = f"{rows:,} rows" if small_run else f"{SMALL_ROWS:,} rows"
        print(
            f"  FAILED ({which}): {failed} after {failed.run.wall:.1f} s "
            f"({failed.run.cpu:.1f} s CPU), peak RSS {failed.run.peaks()} ({_load()})",
            flush=True,
        )
        return Line(dialect, shape, rows, failed.run, small_run, None, os.getloadavg()[0],
                    f"{which}, exit {failed.code}: {failed.error}")  # fmt: skip
    except MinerError as failed:
        print(f"  the plain scan FAILED: {failed} ({_load()})", flush=True)
        return Line(dialect, shape, rows, big_run, small_run, None, os.getloadavg()[0],
                    f"the plain scan: {failed}")  # fmt: skip
    finally:
        if not keep:
            shutil.rmtree(big, ignore_errors=True)
            shutil.rmtree(small, ignore_errors=True)
    b, m = big_run, small_run
    print(
        f"  draft 20 cases: {b.wall:.1f} s ({b.cpu:.1f} s CPU), peak RSS {b.peaks()} "
        f"(target < 488); from {SMALL_ROWS:,} rows {m.wall:.1f} s ({m.cpu:.1f} s CPU): "
        f"ratio {b.wall / m.wall:.2f} wall, {b.cpu / m.cpu:.2f} CPU (target <= 2); "
        f"plain pyarrow scan of the selection's {scanned:,} rows {plain.wall:.1f} s "
        f"({plain.cpu:.1f} s CPU): rows' cost ({b.wall:.1f} - {m.wall:.1f}) / {plain.wall:.1f} "
        f"= {(b.wall - m.wall) / plain.wall:.2f} wall, "
        f"{(b.cpu - m.cpu) / plain.cpu:.2f} CPU (target <= 2); {_load()}",
        flush=True,
    )
    return Line(dialect, shape, rows, b, m, plain, os.getloadavg()[0])


def end_to_end(data: Path, dialect: str) -> None:
    """Every flagged session of a 7,041-row real-shaped export of ``dialect``:
    tools/baseline_draft.py against miner draft, each in a fresh process."""
    from tools.bench import _timed

    export = data / f"end-to-end-{dialect}"
    shutil.rmtree(export, ignore_errors=True)
    scale_export.write(export, SMALL_ROWS, dialect)
    try:
        base = _timed(
            [sys.executable, "-m", "tools.baseline_draft", str(export), str(FEEDBACK),
             str(data / "b")]
        )  # fmt: skip
        mine = _timed(
            [
                sys.executable, "-m", "miner", "draft", "--pipeline", str(PIPELINE),
                "--traces", str(export), "--feedback", str(FEEDBACK), *_window(),
                "--max-cases", "100000", "--per-signal", "100000", "--out", str(data / "m"),
            ]
        )  # fmt: skip
        baseline_cases = len(list((data / "b").glob("*.json")))
        drafted = len(list((data / "m").glob("draft_*")))
    except SystemExit as failed:
        print(f"end to end, {dialect} rows: FAILED: {failed} ({_load()})", flush=True)
        return
    finally:
        for folder in (export, data / "b", data / "m"):
            shutil.rmtree(folder, ignore_errors=True)
    print(
        f"end to end, every flagged session of {SMALL_ROWS:,} real-shaped {dialect} rows "
        f"({baseline_cases} by the baseline's rules, {drafted} drafted by miner): baseline "
        f"{base[0]:.1f} s ({base[1]:.1f} s CPU), miner {mine[0]:.1f} s ({mine[1]:.1f} s CPU); "
        f"speed-up x{base[0] / mine[0]:.1f} wall, x{base[1] / mine[1]:.1f} CPU (target >= 5); "
        f"{_load()}",
        flush=True,
    )


def table(lines: list[Line]) -> str:
    """The lines as one Markdown table."""
    head = ["shape", "dialect", "rows", "peak RSS (MiB, < 488): one process / tree RSS / PSS",
            "20 cases", "vs 7,041 rows (<= x2)", "rows' cost vs plain scan (<= x2)",
            "load"]  # fmt: skip
    rows = [head, ["---"] * len(head), *(line.cells() for line in lines)]
    return "\n".join("| " + " | ".join(cells) + " |" for cells in rows)


def verdict(lines: list[Line]) -> str:
    """Issue 38's memory bound over the lines: in how many drafts the peak
    RSS (the tree's summed, where measured: ``Run.bounded``) stayed under
    it, and each draft that did not, failed or did not run."""
    held, others = 0, []
    for line in lines:
        name = f"{line.shape} {line.dialect} {line.rows:,}"
        if line.big is None:
            others.append(f"{name} not run")
        elif line.error:
            others.append(f"{name} failed ({line.big.peaks()})")
        elif line.big.bounded >= PEAK_BOUND_MIB:
            others.append(f"{name} {line.big.peaks()}")
        else:
            held += 1
    return f"peak RSS under {PEAK_BOUND_MIB} MiB (512 MB): {held} of {len(lines)} drafts" + (
        f"; not: {', '.join(others)}" if others else ""
    )


#: Issue 38's whole matrix (``--full``): (dialects, shapes, rows) products.
FULL = (("python,java,go", "real,wide,small-files,one-file", "1000000,5000000,20000000"),)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default="1000000")
    parser.add_argument("--shapes", default=",".join(scale_export.SHAPES))
    parser.add_argument("--dialects", default=",".join(scale_export.DIALECTS))
    parser.add_argument(
        "--full",
        action="store_true",
        help="every shape and dialect at 1M, 5M and 20M rows (a day; 20M wide rows need 70 GB)",
    )
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument(
        "--compression",
        choices=scale_export.COMPRESSIONS,
        default="snappy",
        help="the exports' Parquet compression (zstd: the 20M wide rows in 17 GiB, not 67)",
    )
    parser.add_argument("--no-end-to-end", action="store_true")
    parser.add_argument(
        "--keep", action="store_true", help="reuse the exports in --data and keep them"
    )
    args = parser.parse_args()
    matrix = FULL if args.full else ((args.dialects, args.shapes, args.rows),)
    lines: list[Line] = []
    with contextlib.ExitStack() as stack:
        data = (
            args.data
            if args.keep and args.data
            else Path(stack.enter_context(tempfile.TemporaryDirectory(dir=args.data)))
        )
        for dialects, shapes, counts in matrix:
            for dialect in dialects.split(","):
                for shape in shapes.split(","):
                    for rows in (int(r) for r in counts.split(",")):
                        lines.append(
                            measure(data, dialect, shape, rows, args.keep, args.compression)
                        )
        if not args.no_end_to_end:
            for dialect in (args.dialects if not args.full else FULL[0][0]).split(","):
                end_to_end(data, dialect)
    print(table(lines))
    print(verdict(lines))


if __name__ == "__main__":
    main()
