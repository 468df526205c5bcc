"""`make seed-review-report`: cases reviewed as the seed article advises, scored
against an agent that gives the same facts in more words, before and after
overlap stopped gating by default.

For each export (the shipped sample, and the golden exports built from each
ADK plugin's own source: tests/golden/{python,java,go}), every flagged session
is drafted (with `miner init`'s config for the golden ones), then reviewed by
a script the way the issue's reviewer did by hand: each turn's reference
becomes the first sentence of what the agent said, and the ids and amounts of
the last answer become required facts. The agent is the flagged session
itself: the same tools and facts, in its own (longer) words. Each case is
scored with ADK's default overlap gate (`response_match_threshold = 0.8`,
what `miner score` did before) and with miner's default now (overlap reported,
not gated). By construction the facts and calls are the session's own, so the
"after" column can only fail on a turn without an answer; the "before" column
is the measurement.

Run: ``python -m tools.seed_review_report`` (needs the dev extra).
"""

from __future__ import annotations

import re
import statistics
import tempfile
from pathlib import Path
from typing import Any

from miner.case import LoadedCase, ObservedTurn
from miner.load import load_cases
from miner.output import read_case_files
from miner.score import rouge1_f, score_run
from tests.conftest import PIPELINE, ROOT, TRACES, WINDOW, miner

#: What a reviewer keeps as a fact: an id with digits (ORD-10001) or an amount.
_FACT = re.compile(r"\b[A-Z][A-Z0-9]*-\d+\b|\b\d+(?:[.,]\d+)?\b")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def first_sentence(text: str) -> str:
    return _SENTENCE.split(text.strip(), maxsplit=1)[0] if text.strip() else ""


def seed_review(case: LoadedCase) -> LoadedCase | None:
    """The case reviewed as the seed advises, from its flagged session; None
    for a case with no recorded session."""
    observed = case.observed
    if observed is None or case.spec is None:
        return None
    reviewed: dict[str, Any] = {**case.case, "conversation": []}
    for turn, seen in zip(case.case.get("conversation") or [], observed, strict=False):
        reference = first_sentence(seen.answer)
        reviewed["conversation"].append(
            {**turn, "final_response": {"role": "model", "parts": [{"text": reference}]}}
        )
    last = observed[-1].answer if observed else ""
    facts = list(dict.fromkeys(_FACT.findall(first_sentence(last))))
    spec = {
        **case.spec,
        "requiredFacts": facts,
        "forbiddenClaims": [],
        "mustNotCall": [],
        "tags": ["seed_reviewed"],
    }
    return LoadedCase(
        case.eval_id, reviewed, case.eval_set_id, case.eval_set_file, spec, case.spec_file
    )


def measure(drafts: Path) -> dict[str, Any]:
    loaded = load_cases(read_case_files([drafts]))
    before = after = total = longer = before_longer = unanswered = 0
    overlaps: list[float] = []
    for case in loaded.cases:
        reviewed = seed_review(case)
        if reviewed is None:
            continue
        observed: list[ObservedTurn] = case.observed or []
        total += 1
        wordier = any(first_sentence(t.answer) != t.answer.strip() for t in observed)
        passed = score_run(reviewed, observed, "observed", 0.8).passed
        longer += wordier
        before += passed
        before_longer += passed and wordier
        unanswered += any(not t.answer.strip() for t in observed)
        after += score_run(reviewed, observed, "observed", None).passed
        overlaps += [
            rouge1_f(t.answer, first_sentence(t.answer)) for t in observed if t.answer.strip()
        ]
    median = statistics.median(overlaps) if overlaps else float("nan")
    return {
        "cases": total,
        "longer": longer,
        "before": before,
        "before_longer": before_longer,
        "unanswered": unanswered,
        "after": after,
        "median": median,
    }


def _draft(traces: Path, work: Path, name: str) -> Path:
    out = work / name / "drafts"
    if traces == TRACES:
        config, window = PIPELINE, WINDOW
    else:
        config = work / name / "pipeline.toml"
        result = miner("init", "--traces", traces, "--out", config)
        assert result.exit_code == 0, result.output
        [command] = [line for line in result.output.splitlines() if line.startswith("next")]
        window = command.split()[command.split().index("--since") :]
    result = miner(
        "draft", "--pipeline", config, *window, "--out", out, "--max-cases", "1000"
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return out


def main() -> None:
    golden = ROOT / "tests" / "golden"
    sources = {
        "sample (python plugin)": TRACES,
        "golden python": golden / "python" / "export.parquet",
        "golden java": golden / "java" / "export.parquet",
        "golden go": golden / "go" / "export.parquet",
    }
    with tempfile.TemporaryDirectory(prefix="miner-seed-review-") as tmp:
        print("| export | cases | pass, overlap gated at 0.8 (before) | of them, answers longer "
              "than the reference | with a turn without an answer | pass, overlap reported (now) "
              "| median ROUGE-1 |")  # fmt: skip
        print("|---|---|---|---|---|---|---|")
        for name, traces in sources.items():
            drafts = _draft(traces, Path(tmp), re.sub(r"\W+", "_", name))
            m = measure(drafts)
            print(
                f"| {name} | {m['cases']} | {m['before']} of {m['cases']} | "
                f"{m['before_longer']} of {m['longer']} | {m['unanswered']} | "
                f"{m['after']} of {m['cases']} | {m['median']:.3f} |"
            )


if __name__ == "__main__":
    main()
