"""`make signals-report`: precision and recall of the complaint detector on the
labelled user turns in tests/data/complaint_turns.tsv (written for miner)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "complaint_turns.tsv"


def labelled_turns(path: Path = DATA) -> list[tuple[bool, str]]:
    turns = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        label, text = line.split("\t", 1)
        turns.append((label == "1", text))
    return turns


@dataclass
class Report:
    true_pos: int = 0
    false_pos: int = 0
    false_neg: int = 0
    true_neg: int = 0
    misses: list[str] = field(default_factory=list)
    false_alarms: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        flagged = self.true_pos + self.false_pos
        return self.true_pos / flagged if flagged else 1.0

    @property
    def recall(self) -> float:
        wanted = self.true_pos + self.false_neg
        return self.true_pos / wanted if wanted else 1.0


def measure(turns: list[tuple[bool, str]] | None = None) -> Report:
    from miner.signals.complaint import ComplaintConfig, Scorer

    scorer = Scorer(ComplaintConfig())
    report = Report()
    labelled = turns or labelled_turns()
    scores = scorer.score_many([text for _label, text in labelled])
    for (is_complaint, text), (score, _rules) in zip(labelled, scores, strict=True):
        flagged = score >= scorer.config.threshold
        if flagged and is_complaint:
            report.true_pos += 1
        elif flagged:
            report.false_pos += 1
            report.false_alarms.append(text)
        elif is_complaint:
            report.false_neg += 1
            report.misses.append(text)
        else:
            report.true_neg += 1
    return report


def main() -> None:
    report = measure()
    total = report.true_pos + report.false_pos + report.false_neg + report.true_neg
    print(f"complaint detector on {total} labelled user turns ({DATA.name}):")
    print(f"  precision {report.precision:.3f}  recall {report.recall:.3f}")
    if "-v" in sys.argv:
        for text in report.misses:
            print("  missed:      ", text)
        for text in report.false_alarms:
            print("  false alarm: ", text)


if __name__ == "__main__":
    main()
