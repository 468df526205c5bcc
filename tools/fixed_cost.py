"""Where the fixed cost of a run goes: `miner draft --max-cases 20` on a
7,041-row real-shaped export, each run in a fresh process, its CPU seconds
split by stage (docs/performance.md, "Where the fixed cost of a run goes").

Stages: what runs before ``run_draft_job`` (the interpreter, the CLI and the
modules the job imports), building the detector (importing Presidio and
spaCy, loading the model, the recognizers), the first ``validate_eval_set``
(importing google-adk's eval-set model), redacting the sessions, and the
rest of the run (selection, drafting, writing); garbage collection across
all of them. Runs warm (the word lists in the cache) and cold (an empty
cache folder: a new installation's first run).

Usage: ``python -m tools.fixed_cost [--runs 3] [--export DIR]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tools import scale_export

ROOT = Path(__file__).resolve().parent.parent
PIPELINE = ROOT / "pipelines" / "support_agent.toml"
FEEDBACK = ROOT / "tests" / "golden" / "feedback.parquet"
STAGES = ("before the job", "detector", "ADK import", "redaction", "rest", "GC", "total")


def _child(export: str, out: str) -> None:
    """One draft in this process; prints its stages as JSON."""
    spent: dict[str, float] = {}
    collecting = [0.0, 0.0]

    def collector(phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            collecting[1] = time.process_time()
        else:
            collecting[0] += time.process_time() - collecting[1]

    gc.callbacks.append(collector)

    import miner.draft
    import miner.draft_start
    import miner.job
    import miner.redaction.detector
    import miner.redaction.policy

    def timed(module: Any, name: str, stage: str, first_only: bool = False) -> None:
        function = getattr(module, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            begin = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                if not (first_only and stage in spent):
                    spent[stage] = spent.get(stage, 0.0) + time.process_time() - begin

        setattr(module, name, wrapper)

    timed(miner.redaction.detector, "_detector", "detector")
    timed(miner.redaction.policy, "redact_sessions", "redaction")
    timed(miner.draft, "validate_eval_set", "ADK import", first_only=True)
    timed(miner.draft_start, "run_draft_job", "job")
    since, until = scale_export.window()
    sys.argv = [
        "miner", "draft", "--pipeline", str(PIPELINE), "--traces", export, "--feedback",
        str(FEEDBACK), "--since", since.isoformat(), "--until", until.isoformat(),
        "--max-cases", "20", "--per-signal", "20", "--out", out,
    ]  # fmt: skip
    from miner.cli import main

    try:
        main()
    except SystemExit as done:
        if done.code:
            raise
    total = time.process_time()
    parts = ("detector", "ADK import", "redaction")
    figures = {
        "before the job": total - spent["job"],
        **{p: spent.get(p, 0.0) for p in parts},
        "rest": spent["job"] - sum(spent.get(p, 0.0) for p in parts),
        "GC": collecting[0],
        "total": total,
    }
    print(json.dumps(figures))


def _run(export: Path, cache: Path, scratch: Path) -> dict[str, float]:
    out = scratch / "out"
    done = subprocess.run(
        [sys.executable, "-m", "tools.fixed_cost", "--child", str(export), str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "MINER_CACHE_DIR": str(cache)},
    )
    if done.returncode:
        raise SystemExit(f"miner draft failed: {done.stderr[-400:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--export", type=Path, default=None)
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        export = args.export or scratch / "export"
        if args.export is None:
            scale_export.write(export, 7_041)
        warm_cache = scratch / "warm"
        _run(export, warm_cache, scratch)  # fills the cache
        print("CPU seconds: " + " | ".join(STAGES))
        for _ in range(args.runs):
            cold_cache = scratch / "cold"
            for label, cache in (("warm", warm_cache), ("cold", cold_cache)):
                figures = _run(export, cache, scratch)
                print(f"{label}: " + " | ".join(f"{figures[s]:.2f}" for s in STAGES), flush=True)
            shutil.rmtree(cold_cache, ignore_errors=True)


if __name__ == "__main__":
    main()
