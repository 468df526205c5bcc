"""What a 20-case draft holds resident, stage by stage: `miner draft
--max-cases 20` in this process, each stage's peak RSS and the RSS at its end
(docs/performance.md, "What bounds memory").

Each stage's peak is the kernel's ``VmHWM``, reset when the stage starts
(``/proc/self/clear_refs``), so a figure is exact, not sampled. A stage the
embedded engine runs in a child process (``miner.engine.apart``: the
selection, the picked rows' read) has a line of its own, ``... in its child``,
with the child's peak (``RUSAGE_CHILDREN``; it counts the pages the child
shares with this process, as ``/usr/bin/time`` does). The stages:
the interpreter and the libraries the job imports, the selection (the
engine), the pick, the picked sessions' rows, the detector (spaCy's model,
Presidio, the recognizers), the first redaction pass, the second model
(loaded, then deciding), its sweep of what the policy finished with
(``miner.redaction.sweep``: every text read by the model once more),
google-adk's ``EvalSet`` (the first drafted case
imports it), and the rest (drafting, writing). ``release`` lines are
``miner.loading.release_freed_memory``.

Usage: ``python -m tools.rss_stages [--export DIR]`` (default: a 7,041-row
real-shaped export from ``tools.scale_export``, built in a scratch folder).
Linux only.
"""

from __future__ import annotations

import argparse
import functools
import resource
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tools import scale_export

ROOT = Path(__file__).resolve().parent.parent
PIPELINE = ROOT / "pipelines" / "support_agent.toml"
FEEDBACK = ROOT / "tests" / "golden" / "feedback.parquet"

#: (stage, peak MiB, MiB at its end; None for a child, gone at its end).
STAGES: list[tuple[str, int, int | None]] = []
#: The largest peak of a child process so far, MiB.
_children_peak = [0]


def mark(stage: str) -> None:
    """Close ``stage``: its peak and its end RSS, and its child's peak if a
    child that ran in it peaked higher than any before; the next stage's
    peak starts here."""
    status = {}
    with open("/proc/self/status", encoding="ascii") as lines:
        for line in lines:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                status[key] = int(value.split()[0]) // 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    if children > _children_peak[0] and not stage.startswith("(before"):
        _children_peak[0] = children
        STAGES.append((f"{stage} in its child", children, None))
    STAGES.append((stage, status["VmHWM"], status["VmRSS"]))
    with open("/proc/self/clear_refs", "w", encoding="ascii") as clear:
        clear.write("5")  # reset VmHWM to the current RSS


def staged(owner: Any, name: str, stage: str, first_only: bool = False) -> None:
    """Mark ``stage`` around each call of ``owner.name`` (the first only, with ``first_only``)."""
    function: Callable[..., Any] = getattr(owner, name)
    seen: list[bool] = []

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if first_only and seen:
            return function(*args, **kwargs)
        seen.append(True)
        mark(f"(before {stage})")
        try:
            return function(*args, **kwargs)
        finally:
            mark(stage)

    setattr(owner, name, wrapper)


def run(export: Path, out: Path) -> None:
    # This tool's own imports (tools.scale_export) bring pandas and pyarrow.
    mark("interpreter, pandas, pyarrow")
    import duckdb  # noqa: F401

    mark("import duckdb")
    import miner.cli
    import miner.job
    import miner.loading

    mark("import miner's job")
    # ctypes' find_library runs a child (ldconfig) the first time the heap is
    # handed back: its peak is not a stage's.
    miner.loading._libc()
    _children_peak[0] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    import miner.engine.embedded
    import miner.redaction.detector
    import miner.redaction.policy
    import miner.redaction.second
    import miner.redaction.sweep

    # The job asks the engine for its picks (Engine.pick): the selection and
    # the pick over the flags the engine holds are one call.
    staged(miner.engine.embedded.EmbeddedEngine, "pick", "selection and pick")
    staged(miner.job, "release_freed_memory", "release")
    staged(miner.engine.embedded, "read_sessions", "picked sessions' rows")
    staged(miner.redaction.detector, "_detector", "detector", first_only=True)
    staged(miner.redaction.policy, "redact_sessions", "first pass")
    staged(miner.redaction.second, "load_model", "second model loaded", first_only=True)
    staged(miner.redaction.second.SecondOpinion, "decide", "second model decided")
    staged(miner.redaction.sweep.Sweep, "surfaced", "sweep")
    staged(miner.loading, "adk_eval_set", "google-adk's EvalSet", first_only=True)
    since, until = scale_export.window()
    sys.argv = [
        "miner", "draft", "--pipeline", str(PIPELINE), "--traces", str(export), "--feedback",
        str(FEEDBACK), "--since", since.isoformat(), "--until", until.isoformat(),
        "--max-cases", "20", "--per-signal", "20", "--out", str(out),
    ]  # fmt: skip
    try:
        miner.cli.main()
    except SystemExit as done:
        if done.code:
            raise
    mark("rest (drafting, writing)")
    peak = max(p for _s, p, _e in STAGES)
    print(f"{'stage':36s} {'peak':>5s} {'end':>5s} MiB")
    for stage, stage_peak, end in STAGES:
        if not stage.startswith("(before") or end is None or stage_peak - end > 2:
            flag = "  <- peak" if stage_peak == peak else ""
            shown = "-" if end is None else str(end)
            print(f"{stage:36s} {stage_peak:5d} {shown:>5s}{flag}")
    print(f"peak RSS {peak} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--export", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        export = args.export
        if export is None:
            export = Path(folder) / "export"
            scale_export.write(export, 7_041)
        run(export, Path(folder) / "out")


if __name__ == "__main__":
    main()
