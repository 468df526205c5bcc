"""Does `miner check` accept what `miner draft` wrote? Measured on the
third-party corpus (tools/third_party_corpus.py), not on the project's own.

Per split: the corpus's plugin rows become a Parquet export with a
thumbs-down for every session, so every session is drafted; each draft gets
the review a reviewer makes at least (tests/conftest.py's `scripted_review`:
the `REVIEW: ` prefix taken off every reference answer, the case named, the
spec decided), so the check reads the answers as new text; then one
`miner check` over all of them. A "possible personal data" finding is the
check refusing text the draft let through: either a value the draft missed
or a word the check reads differently. Counts only: the test split's
findings are not printed, so they cannot be tuned on.

    python -m tools.check_agreement [dev|test] [-v]   (-v prints dev findings)
"""

from __future__ import annotations

import collections
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

from tests.conftest import PIPELINE, scripted_review
from tools.third_party_corpus import build_third_party_corpus

_FINDING = re.compile(r"possible personal data \(([^),]*)")


def agreement(split: str, work: Path, verbose: bool = False) -> str:
    """One line of figures for ``split``, drafted and checked under ``work``."""
    corpus = build_third_party_corpus(split)
    rows = pd.DataFrame(corpus.rows)
    (work / "traces").mkdir(parents=True)
    rows.to_parquet(work / "traces" / "part.parquet", index=False)
    feedback = rows[["session_id"]].drop_duplicates().assign(invocation_id=None, score=-1)
    feedback.to_parquet(work / "feedback.parquet", index=False)
    times = pd.to_datetime(rows["timestamp"])
    window = [
        "--since", (times.min() - pd.Timedelta("1h")).isoformat(),
        "--until", (times.max() + pd.Timedelta("1h")).isoformat(),
    ]  # fmt: skip
    miner = [sys.executable, "-m", "miner"]
    drafts = work / "drafts"
    subprocess.run(
        [*miner, "draft", "--pipeline", str(PIPELINE), "--traces", str(work / "traces"),
         "--feedback", str(work / "feedback.parquet"), *window, "--out", str(drafts),
         "--max-cases", "100000", "--per-signal", "100000"],
        check=True, capture_output=True,
    )  # fmt: skip
    folders = sorted(drafts.glob("draft_*"))
    for n, folder in enumerate(folders):
        scripted_review(folder, f"reviewed_case_{n}", ["p1"])
    checked = subprocess.run(
        [*miner, "check", "--pipeline", str(PIPELINE), *map(str, folders)],
        capture_output=True, text=True,
    )  # fmt: skip
    findings = [line for line in checked.stdout.splitlines() if _FINDING.search(line)]
    if verbose and split != "test":
        print("\n".join(findings))
    kinds = collections.Counter(_FINDING.search(line)[1] for line in findings)  # type: ignore[index]
    refused = {Path(line.split(":", 1)[0]).parent.name for line in findings}
    by_kind = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "none"
    return (
        f"{split}: {rows['session_id'].nunique()} sessions, {len(folders)} drafted and reviewed; "
        f"personal-data findings {len(findings)} ({by_kind}) in {len(refused)} cases"
    )


def main() -> None:
    splits = [a for a in sys.argv[1:] if not a.startswith("-")] or ["dev", "test"]
    for split in splits:
        with tempfile.TemporaryDirectory() as work:
            print(agreement(split, Path(work), "-v" in sys.argv))


if __name__ == "__main__":
    main()
