"""`make redaction-report`: recall and precision of redaction on the labelled corpus.

The corpus (tests/pii_corpus.py) is run through the same code as `miner draft`:
plugin rows -> ``build_sessions`` -> ``redact_sessions`` with the shipped
pipeline config. Each output text is aligned with its input (placeholders
stand for the spans they replaced), and then:

- a planted value is **caught** when none of its letters or digits survive;
  recall = caught / planted, per planted type and overall;
- a replaced span is a **true positive** when it overlaps a planted value;
  precision = true positives / replaced spans, per detected entity type
  (the type in the placeholder) and overall;
- a hard negative is **destroyed** when any character of it was replaced.

To measure your own data, label it the same way (text -> [(start, end,
type)]) and call ``measure``.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
PIPELINE = ROOT / "pipelines" / "support_agent.toml"
_PLACEHOLDER = re.compile(r"<([A-Z][A-Z0-9_]*?)(?:_\d+)?>")


@dataclass
class Report:
    planted: Counter[str] = field(default_factory=Counter)
    caught: Counter[str] = field(default_factory=Counter)
    replaced: Counter[str] = field(default_factory=Counter)
    true_positive: Counter[str] = field(default_factory=Counter)
    negatives: int = 0
    destroyed: int = 0
    destroyed_examples: list[str] = field(default_factory=list)
    missed_examples: list[tuple[str, str]] = field(default_factory=list)

    def recall(self, kind: str | None = None) -> float:
        planted = self.planted[kind] if kind else sum(self.planted.values())
        caught = self.caught[kind] if kind else sum(self.caught.values())
        return caught / planted if planted else 1.0

    def precision(self, entity: str | None = None) -> float:
        replaced = self.replaced[entity] if entity else sum(self.replaced.values())
        right = self.true_positive[entity] if entity else sum(self.true_positive.values())
        return right / replaced if replaced else 1.0

    def destroyed_share(self) -> float:
        return self.destroyed / self.negatives if self.negatives else 0.0

    def table(self) -> str:
        lines = ["| planted type | planted | recall |", "|---|---:|---:|"]
        for kind in sorted(self.planted):
            lines.append(f"| {kind} | {self.planted[kind]} | {self.recall(kind):.2%} |")
        lines.append(f"| **all** | {sum(self.planted.values())} | {self.recall():.2%} |")
        lines += ["", "| detected as | replaced spans | precision |", "|---|---:|---:|"]
        for entity in sorted(self.replaced):
            lines.append(f"| {entity} | {self.replaced[entity]} | {self.precision(entity):.2%} |")
        lines.append(f"| **all** | {sum(self.replaced.values())} | {self.precision():.2%} |")
        lines += [
            "",
            f"Hard negatives destroyed: {self.destroyed} of {self.negatives} "
            f"({self.destroyed_share():.2%}).",
        ]
        return "\n".join(lines)


def replaced_spans(original: str, redacted: str) -> list[tuple[int, int, str]] | None:
    """(start, end, entity) of ``original`` that placeholders in ``redacted`` stand for."""
    pieces = _PLACEHOLDER.split(redacted)
    # split() with one group gives: literal, entity, literal, entity, ..., literal
    literals, entities = pieces[0::2], pieces[1::2]
    if not entities:
        return [] if original == redacted else None
    pattern = re.escape(literals[0])
    for literal in literals[1:]:
        pattern += "(.+?)" + re.escape(literal)
    match = re.fullmatch(pattern, original, re.DOTALL)
    if match is None:
        return None
    return [(match.start(i + 1), match.end(i + 1), e) for i, e in enumerate(entities)]


def measure(
    rows: list[dict], labels: dict[str, list[tuple[int, int, str]]], pipeline: Path = PIPELINE
) -> Report:
    from miner.files import load_config
    from miner.redact import detector_for, redact_sessions, session_texts
    from miner.traces import build_sessions

    config = load_config(pipeline)
    sessions = build_sessions(pd.DataFrame(rows), config.agent.app_name)
    redacted = redact_sessions(sessions, detector_for(config), config)
    report = Report()
    for before, after in zip(sessions, redacted, strict=True):
        pairs = zip(session_texts(before), session_texts(after.session), strict=True)
        for (_k, original), (_k2, output) in pairs:
            if not isinstance(original, str) or original not in labels:
                continue
            spans = replaced_spans(original, str(output))
            if spans is None:  # cannot align: count everything as leaked
                spans = []
            _score(report, original, labels[original], spans)
    return report


def _score(
    report: Report,
    text: str,
    labels: list[tuple[int, int, str]],
    spans: list[tuple[int, int, str]],
) -> None:
    covered = [False] * len(text)
    for start, end, _entity in spans:
        for i in range(start, end):
            covered[i] = True
    planted = [(s, e, k) for s, e, k in labels if k != "NEGATIVE"]
    for start, end, kind in labels:
        if kind == "NEGATIVE":
            report.negatives += 1
            if any(covered[start:end]):
                report.destroyed += 1
                report.destroyed_examples.append(f"{text[start:end]!r} in {text!r} {spans}")
            continue
        report.planted[kind] += 1
        if all(covered[i] for i in range(start, end) if text[i].isalnum()):
            report.caught[kind] += 1
        else:
            report.missed_examples.append((kind, f"{text[start:end]!r} in {text!r}"))
    for start, end, entity in spans:
        report.replaced[entity] += 1
        if any(start < e and s < end for s, e, _k in planted):
            report.true_positive[entity] += 1


def corpus_report(seed: int = 7) -> Report:
    from tests.pii_corpus import build_corpus

    corpus = build_corpus(seed)
    return measure(corpus.rows, corpus.labels)


def main() -> None:
    report = corpus_report(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
    print(report.table())
    if "-v" in sys.argv:
        for kind, value in report.missed_examples:
            print("missed", kind, repr(value))
        for value in report.destroyed_examples:
            print("destroyed", repr(value))


if __name__ == "__main__":
    main()
