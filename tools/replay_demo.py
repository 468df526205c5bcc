"""`make replay-demo`: the regression loop on the sample, step by step.

1. draft the sample's flagged sessions;
2. review one (s02: a refund over the limit the agent said it had issued)
   as the seed article advises: a short reference in the agent's voice, its
   order id and limit as required facts, the claim it must not make;
3. promote it into a suite;
4. replay the suite against the agent as it was (sample_traces/agent.py's
   buggy_agent, scripted to repeat the bug): it fails on its facts and claim;
5. replay it against the fixed agent, which gives the same facts in more
   words: it passes (word overlap is reported, not gated).
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

from miner.sample import session_hash
from tests.conftest import PIPELINE, WINDOW, load_json, miner, scripted_review
from tests.test_replay import SEED_FACTS, SEED_REFERENCE


def step(title: str, *args: str | Path) -> str:
    result = miner(*args)
    print(f"\n$ miner {' '.join(str(a) for a in args)}\n{result.output.rstrip()}")
    print(f"-> exit {result.exit_code}: {title}")
    return result.output


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="miner-replay-demo-"))
    drafts, suite = work / "drafts", work / "evals" / "support"
    step("drafted", "draft", "--pipeline", PIPELINE, *WINDOW, "--out", drafts)
    case = drafts / f"draft_{session_hash('s02-refund-returned-error')}"
    review = work / "review" / case.name
    shutil.copytree(case, review)
    scripted_review(
        review, "refund_over_limit_is_not_reported_as_issued", ["tool_failure", "p0"],
        requiredFacts=SEED_FACTS, forbiddenClaims=["has been issued"],
    )  # fmt: skip
    evalset = next(review.glob("*.evalset.json"))
    data = load_json(evalset)
    data["eval_cases"][0]["conversation"][0]["final_response"]["parts"][0]["text"] = SEED_REFERENCE
    evalset.write_text(json.dumps(data, indent=2))
    print(
        f"\nreviewed {review.name} as the seed advises: reference {SEED_REFERENCE!r}, "
        f"required facts {SEED_FACTS}, must not claim 'has been issued'"
    )
    step("promoted", "promote", review.parent, "--suite", suite, "--pipeline", PIPELINE)
    for agent, expect in (("buggy_agent", "fails"), ("fixed_agent", "passes")):
        runs = work / "runs" / agent
        step("replayed", "replay", "--agent", f"sample_traces.agent:{agent}", "--suite", suite,
             "--out", runs, "--pipeline", PIPELINE)  # fmt: skip
        step(f"the {agent} {expect}", "score", "--suite", suite, "--traces", runs,
             "--pipeline", PIPELINE)  # fmt: skip
    print(f"\neverything is under {work}")
    sys.exit(0)


if __name__ == "__main__":
    main()
