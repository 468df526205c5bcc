"""tools.rss_stages wraps functions of the job by name; a renamed one must
fail here, not in the next person's memory budget (the job's pick moved
into ``Engine.pick`` and the tool stopped at ``miner.job.pick_sessions``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_memory_budget_tool_marks_every_stage_of_a_real_draft():
    done = subprocess.run(
        [sys.executable, "-m", "tools.rss_stages"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    # A stage's line is "name  peak  end", "  <- peak" after it on the peak's
    # stage: whichever stage peaks (the sweep does on some runs) is read whole.
    table = done.stdout.splitlines()[1:-1]
    stages = [line.removesuffix("  <- peak").rsplit(maxsplit=2)[0] for line in table]
    for stage in ("selection and pick", "picked sessions' rows", "detector", "first pass", "sweep"):
        assert stage in stages, stages
    assert stages.index("selection and pick") < stages.index("detector")
    # The sweep reads every text with the second model: a stage of its own.
    assert stages.index("second model decided") < stages.index("sweep")
    assert done.stdout.splitlines()[-1].startswith("peak RSS ")
