"""Where the selection's CPU goes: the selection and the pick of a 20-case
draft (what ``miner draft``'s first child runs: the ``events`` held, then
``miner.sample.select_and_pick``), in this process, each DuckDB statement
timed in CPU seconds (every thread's: ``RUSAGE_SELF``) and wall seconds,
with how many threads shared that CPU (``spread``), and a fingerprint of
what they chose (flags, picks, left-out sessions, counts); then the picked
sessions' rows read (``embedded.read_sessions``, here and not in its child:
its CPU and the rows' count and fingerprint), so that two
checkouts run back to back can be compared for time and for sameness
(docs/performance.md, "Where the rows' cost goes").

Usage: ``python -m tools.selection_steps EXPORT [--runs N] [--least SECONDS]``
(the window is ``tools.scale_export``'s, which holds every row of an export
it built; ``--since``/``--until`` for another). With ``--parts``, the
``events`` statement alone, in three (``events_parts``): the Parquet read
of its rows and columns, the view's stored columns computed but not
written, and the write, each timed on one connection set up as the draft's
child sets it up: the floor a selection that reads the rows once, and
holds no table of them, would start from.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import resource
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from tools import scale_export

ROOT = Path(__file__).resolve().parent.parent
PIPELINE = ROOT / "pipelines" / "support_agent.toml"
FEEDBACK = ROOT / "tests" / "golden" / "feedback.parquet"


def thread_cpu() -> dict[int, float]:
    """Each thread of this process: its CPU seconds so far, from
    ``/proc/self/task`` (empty where there is none: not Linux)."""
    ticks = os.sysconf("SC_CLK_TCK")
    seconds: dict[int, float] = {}
    with contextlib.suppress(OSError):
        for task in os.listdir("/proc/self/task"):
            with contextlib.suppress(OSError), open(f"/proc/self/task/{task}/stat") as stat:
                # utime and stime: the 14th and 15th fields, after the name in brackets.
                fields = stat.read().rsplit(")", 1)[1].split()
                seconds[int(task)] = (int(fields[11]) + int(fields[12])) / ticks
    return seconds


def spread(before: dict[int, float], after: dict[int, float]) -> float:
    """How many threads' worth of CPU a statement used, from each thread's
    CPU before and after it: the CPU of them all over the busiest one's (1.0:
    one thread did it all; 2.0: two did half each). Unlike CPU over wall, it
    does not depend on what else the machine runs."""
    used = [after[t] - before.get(t, 0.0) for t in after]
    busiest = max(used, default=0.0)
    return sum(used) / busiest if busiest > 0 else 0.0


def cpu_seconds() -> float:
    """This process's CPU time so far, every thread's (DuckDB's included)."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


@dataclass
class Steps:
    """The statements a selection ran, each with its CPU seconds, in order,
    and beside them their wall seconds (``walls``): CPU over wall is how
    many cores a statement kept busy, on an idle machine; and how many
    threads shared its CPU (``spreads``), on any."""

    timed: list[tuple[str, float]] = field(default_factory=list)
    walls: list[float] = field(default_factory=list)
    spreads: list[float] = field(default_factory=list)
    total: float = 0.0
    wall: float = 0.0
    fingerprint: str = ""
    #: The picked sessions' rows' read: CPU and wall seconds, rows, and a
    #: fingerprint of the rows (every column as read).
    rows_cpu: float = 0.0
    rows_wall: float = 0.0
    rows: int = 0
    rows_fingerprint: str = ""


@contextlib.contextmanager
def _timed_statements(steps: Steps) -> Iterator[None]:
    """Every statement a ``miner.engine.duck.Duck`` runs meanwhile, timed
    into ``steps`` under the first words of its SQL (the ``events`` table's
    build as ``events``)."""
    from miner.engine import duck

    run, named = duck.Duck._run, {"sql": "?"}

    def timed_run(self: Any, work: Callable[[], Any]) -> Any:
        begin, began, threads = cpu_seconds(), time.perf_counter(), thread_cpu()
        try:
            return run(self, work)
        finally:
            steps.timed.append((named["sql"], cpu_seconds() - begin))
            steps.walls.append(time.perf_counter() - began)
            steps.spreads.append(spread(threads, thread_cpu()))

    def naming(method: Callable[..., Any], label: Callable[[Any], str]) -> Callable[..., Any]:
        def named_method(self: Any, *args: Any, **kwargs: Any) -> Any:
            named["sql"] = label(args[0]) if args else method.__name__
            return method(self, *args, **kwargs)

        return named_method

    patched = {
        "_run": timed_run,
        "hold_events": naming(duck.Duck.hold_events, lambda _rows: "events"),
        "execute": naming(duck.Duck.execute, lambda sql: " ".join(str(sql).split())[:90]),
        "table": naming(duck.Duck.table, lambda sql: "read: " + " ".join(str(sql).split())[:84]),
    }
    before = {name: getattr(duck.Duck, name) for name in patched}
    try:
        for name, method in patched.items():
            setattr(duck.Duck, name, method)
        yield
    finally:
        for name, method in before.items():
            setattr(duck.Duck, name, method)


def measure(export: Path, since: datetime, until: datetime) -> Steps:
    """The selection and pick of a 20-case draft of ``export`` in the window,
    as the draft's child runs them, under the default ``[scan]`` config."""
    from miner import source
    from miner.config import load_config
    from miner.engine.embedded import _held_events
    from miner.sample import PickPlan, read_negative_feedback, select_and_pick
    from miner.window import Window

    config = load_config(PIPELINE)
    negative = read_negative_feedback(FEEDBACK, config.feedback)
    grace = config.sampling.session_grace
    plan = PickPlan(frozenset(), frozenset(), per_signal=20, max_cases=20, seed=0)
    opened = source.open_export(export)
    steps = Steps()
    begin, began = cpu_seconds(), time.perf_counter()
    with (
        _timed_statements(steps),
        _held_events(opened, config, Window(since - grace, until + grace)) as con,
    ):
        picked = select_and_pick(con, negative, config.signals, since, until, plan, str(export))
    steps.total, steps.wall = cpu_seconds() - begin, time.perf_counter() - began
    chosen = picked.selection
    what = {
        "picked": [
            [
                s.session_id,
                s.start.isoformat(),
                sorted(s.signals),
                s.signature,
                sorted((r.signal, r.rule, r.invocation or "") for r in s.reasons),
            ]
            for s in chosen.picked
        ],
        "flagged": chosen.flagged,
        "in_window": chosen.in_window,
        "signatures": chosen.signatures,
        "by_rule": picked.by_rule,
        "left": list(picked.left.lines()),
        "sessions": picked.sessions,
        "rows_read": sorted(f"{d} {t} {n}" for (d, t), n in picked.rows_read.items()),
    }
    steps.fingerprint = hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()
    _read_picked_rows(steps, opened, config, Window(since - grace, until + grace), chosen.picked)
    return steps


@dataclass(frozen=True)
class Part:
    """One part of the ``events`` statement (``events_parts``): what it
    did, its CPU and wall seconds, and the rows it gave."""

    what: str
    cpu: float
    wall: float
    rows: int


def events_parts(export: Path, since: datetime, until: datetime) -> list[Part]:
    """The ``events`` statement of a 20-case draft of the local ``export``
    in the window, in three parts run one after the other on one connection
    under the default ``[scan]`` config, the files' pool as the draft's
    child sets it (``embedded._held_events``): the Parquet read of the
    selection's rows (``duck.selection_rows``), each column counted; the
    stored columns (``duck.stored_events_sql``) computed over it, each
    hashed, nothing written; then the write (``Duck.hold_events``). The
    first is what any selection pays; the second what one that computes
    the view once and holds no table of the rows would; the third is the
    table."""
    from miner import source
    from miner.config import load_config
    from miner.engine import duck
    from miner.engine.embedded import pool_beside_files
    from miner.engine.events import ROW_COLUMNS
    from miner.engine.parquet import bind_files
    from miner.engine.query import events_sql
    from miner.engine.sql import name
    from miner.sample import SCAN_EVENT_TYPES

    config = load_config(PIPELINE)
    grace = config.sampling.session_grace
    opened = source.open_export(export)
    if not opened.local:
        raise SystemExit(f"{export}: --parts reads a local export")
    parts: list[Part] = []

    def timed(what: str, run: Callable[[], int]) -> None:
        begin, began = cpu_seconds(), time.perf_counter()
        rows = run()
        parts.append(Part(what, cpu_seconds() - begin, time.perf_counter() - began, rows))

    def rows_of(con: Any, sql: str) -> int:
        """The first value of ``sql``'s one row: the rows it counted."""
        [(rows, *_rest)] = con.execute(sql).fetchall()
        return int(rows)

    with duck.connect(config.scan, str(export)) as con:
        limit = config.scan.memory_limit_bytes
        files = sum(len(layout) for layout in opened.layouts)
        con.execute(f"SET memory_limit = '{pool_beside_files(limit, files)}B'")
        bound = bind_files(con.con, opened)
        footers = duck.read_footers(bound)
        scan = (since - grace, until + grace)
        rows, read, go_rows = duck.selection_rows(con, bound, *scan, SCAN_EVENT_TYPES, footers)
        counted = ", ".join(f"count({name(c)})" for c in ROW_COLUMNS)
        timed(
            "the Parquet read of its rows and columns, each column counted",
            lambda: rows_of(con.con, f"SELECT count(*), {counted} FROM ({rows}) miner_rows"),
        )
        stored = duck.stored_events_sql(events_sql(rows, go_rows), go_rows)
        columns = [c for c, *_ in con.con.execute(f"DESCRIBE {stored}").fetchall()]
        hashed = f"sum(hash({', '.join(name(c) for c in columns)}))"
        # As the write computes it: without DuckDB's rewrite of long IN lists.
        con.con.execute("SET disabled_optimizers = 'in_clause'")
        timed(
            "the view, every stored column computed and hashed, none written",
            lambda: rows_of(con.con, f"SELECT count(*), {hashed} FROM ({stored}) s"),
        )
        con.con.execute("RESET disabled_optimizers")

        def write() -> int:
            con.hold_events(rows, go_rows, footers.row_bytes_of(read))
            return rows_of(con.con, f"SELECT count(*) FROM {duck.STORED_EVENTS}")

        timed("the view written (Duck.hold_events)", write)
    return parts


def _read_picked_rows(steps: Steps, opened: Any, config: Any, scan: Any, picked: Any) -> None:
    """The picked sessions' rows read as ``miner draft`` reads them, in this
    process (``apart.FORK`` off: a child's CPU is not this process's)."""
    from miner.engine import apart, embedded
    from miner.traces import DRAFT_COLUMNS

    ids = [s.session_id for s in picked]
    forked, apart.FORK = apart.FORK, False
    begin, began = cpu_seconds(), time.perf_counter()
    try:
        rows = embedded.read_sessions(
            opened, DRAFT_COLUMNS, scan.since, scan.until, ids, config.scan
        )
    finally:
        apart.FORK = forked
    steps.rows_cpu, steps.rows_wall = cpu_seconds() - begin, time.perf_counter() - began
    steps.rows = len(rows)
    as_read = rows.sort_values(["source_file", "session_id", "timestamp"], kind="stable")
    steps.rows_fingerprint = hashlib.sha256(
        as_read.to_json(orient="records", date_format="iso").encode()
    ).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("export", type=Path)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument(
        "--least", type=float, default=0.03, help="statements under this many seconds are summed"
    )
    since, until = scale_export.window()
    parser.add_argument("--since", type=datetime.fromisoformat, default=since)
    parser.add_argument("--until", type=datetime.fromisoformat, default=until)
    parser.add_argument(
        "--parts",
        action="store_true",
        help="the events statement alone: its Parquet read, its view unwritten, its write",
    )
    args = parser.parse_args()
    for run in range(args.runs):
        if args.parts:
            parts = events_parts(args.export, args.since, args.until)
            print(f"run {run + 1}: the events statement in parts")
            print("     CPU    wall       rows  part")
            for part in parts:
                print(f"  {part.cpu:6.2f}  {part.wall:6.2f}  {part.rows:9,}  {part.what}")
            continue
        steps = measure(args.export, args.since, args.until)
        print(
            f"run {run + 1}: {steps.total:.2f} s of CPU, {steps.wall:.2f} s wall,"
            f" the choice {steps.fingerprint[:16]}"
        )
        print("     CPU    wall  threads  statement")
        small = [0.0, 0.0]
        for (sql, seconds), wall, threads in zip(
            steps.timed, steps.walls, steps.spreads, strict=True
        ):
            if seconds >= args.least:
                print(f"  {seconds:6.2f}  {wall:6.2f}  {threads:7.1f}  {sql}")
            else:
                small = [small[0] + seconds, small[1] + wall]
        print(
            f"  {small[0]:6.2f}  {small[1]:6.2f}           (statements under {args.least} s of CPU)"
        )
        print(
            f"the picked rows' read: {steps.rows_cpu:.2f} s of CPU, {steps.rows_wall:.2f} s wall,"
            f" {steps.rows} rows {steps.rows_fingerprint[:16]}"
        )


if __name__ == "__main__":
    main()
