"""The suite's ADK test_config.json: ADK's own model reads it, and ADK's own
evaluators, given it, agree with `miner score` on the checks it maps."""

from __future__ import annotations

import json
import shutil

import pytest

from miner.case import Call, ObservedTurn
from miner.sample import session_hash
from miner.score import adk_test_config, score_run
from tests.conftest import PIPELINE, load_json, miner, scripted_review
from tests.test_score import GOOD, LOOKUP, REFUND, WORDY, _refund_not_owned


def _metrics(config: dict) -> dict:
    from google.adk.evaluation.eval_config import EvalConfig, get_eval_metrics_from_config

    parsed = EvalConfig.model_validate_json(json.dumps(config))
    return {m.metric_name: m for m in get_eval_metrics_from_config(parsed) if m.threshold}


def test_the_config_follows_the_suite_and_adk_reads_it():
    from google.adk.evaluation.eval_metrics import ToolTrajectoryCriterion as Criterion

    exact = {"evalId": "a", "match": "EXACT"}
    in_order = {"evalId": "b", "argRules": {"issue_refund": {"idempotency_key": "IGNORE"}}}
    config = adk_test_config([exact, in_order], None)
    assert set(_metrics(config)) == {"tool_trajectory_avg_score"}  # overlap: not gated
    trajectory = _metrics(config)["tool_trajectory_avg_score"]
    criterion = Criterion.model_validate(trajectory.criterion.model_dump())
    # One match type per suite in ADK: the loosest of the cases' (IN_ORDER,
    # the sidecar's default); an IGNORE rule: ADK compares names only.
    assert criterion.match_type == Criterion.MatchType.IN_ORDER and criterion.ignore_args
    assert criterion.threshold == 1.0
    strict = adk_test_config([exact], 0.6)
    assert _metrics(strict)["response_match_score"].threshold == 0.6
    criterion = Criterion.model_validate(
        _metrics(strict)["tool_trajectory_avg_score"].criterion.model_dump()
    )
    assert criterion.match_type == Criterion.MatchType.EXACT and not criterion.ignore_args


def _invocation(turn: ObservedTurn):
    from google.adk.evaluation.eval_case import IntermediateData, Invocation
    from google.genai import types

    return Invocation(
        user_content=types.Content(role="user", parts=[types.Part(text=turn.user)]),
        final_response=types.Content(role="model", parts=[types.Part(text=turn.answer)]),
        intermediate_data=IntermediateData(
            tool_uses=[types.FunctionCall(name=c.name, args=c.args) for c in turn.calls]
        ),
    )


def _adk_verdicts(config: dict, run: list[ObservedTurn], expected: list[ObservedTurn]) -> dict:
    # The evaluators ADK's registry names for these metrics (the registry
    # itself imports the Vertex AI extra).
    from google.adk.evaluation.eval_metrics import EvalStatus
    from google.adk.evaluation.final_response_match_v1 import RougeEvaluator
    from google.adk.evaluation.trajectory_evaluator import TrajectoryEvaluator

    evaluators = {
        "tool_trajectory_avg_score": TrajectoryEvaluator,
        "response_match_score": RougeEvaluator,
    }
    verdicts = {}
    for name, metric in _metrics(config).items():
        evaluator = evaluators[name](eval_metric=metric)
        result = evaluator.evaluate_invocations(
            [_invocation(t) for t in run], [_invocation(t) for t in expected]
        )
        verdicts[name] = result.overall_eval_status == EvalStatus.PASSED
    return verdicts


RUNS = {
    "right": [ObservedTurn("Refund order 8812", GOOD, (LOOKUP,))],
    "same facts, more words": [ObservedTurn("Refund order 8812", WORDY, (LOOKUP,))],
    "extra call in between": [ObservedTurn("Refund order 8812", GOOD, (REFUND, LOOKUP))],
    "no lookup": [ObservedTurn("Refund order 8812", GOOD, ())],
    "another order": [
        ObservedTurn("Refund order 8812", GOOD, (Call("lookup_order", {"order_id": "8813"}),))
    ],
}


@pytest.mark.parametrize("threshold", [None, 0.8])
@pytest.mark.parametrize("run", RUNS, ids=list(RUNS))
def test_adks_evaluators_agree_with_miner_on_the_mapped_checks(run, threshold):
    # The article's worked example (IN_ORDER, order_id EXACT), scored by miner
    # and by ADK's own evaluators under the config miner writes for it.
    case = _refund_not_owned()
    assert case.spec is not None
    config = adk_test_config([case.spec], threshold)
    ours = {
        check.name: check.passed
        for turn in score_run(case, RUNS[run], "r", threshold).turns
        for check in turn.checks
    }
    theirs = _adk_verdicts(config, RUNS[run], case.turns)
    assert theirs["tool_trajectory_avg_score"] == ours["trajectory"]
    assert theirs.get("response_match_score", True) == ours["rouge1"]
    assert ("response_match_score" in theirs) == (threshold is not None)


def test_promote_writes_the_config_adk_eval_finds_beside_the_eval_set(drafted, tmp_path):
    from google.adk.evaluation.agent_evaluator import AgentEvaluator

    out, _ = drafted
    draft = tmp_path / "review" / f"draft_{session_hash('s02-refund-returned-error')}"
    shutil.copytree(out / draft.name, draft)
    scripted_review(draft, "refund_failure_is_reported", ["tool_failure"])
    suite = tmp_path / "suite"
    assert miner("promote", draft.parent, "--suite", suite, "--pipeline", PIPELINE).exit_code == 0
    written = load_json(suite / "test_config.json")
    specs = load_json(suite / "suite.spec.json")
    assert written == adk_test_config(specs, None)
    found = AgentEvaluator.find_config_for_test_file(str(suite / "suite.evalset.json"))
    assert set(found.criteria) == {"tool_trajectory_avg_score"}

    # A threshold set later reaches the file at the next promote, even one
    # that promotes nothing (here: an unreviewed draft, refused).
    config = tmp_path / "pipeline.toml"
    config.write_text(PIPELINE.read_text() + "\n[score]\nresponse_match_threshold = 0.5\n")
    unreviewed = tmp_path / "unreviewed" / f"draft_{session_hash('s08-not-owned')}"
    shutil.copytree(out / unreviewed.name, unreviewed)
    refused = miner("promote", unreviewed.parent, "--suite", suite, "--pipeline", config)
    assert refused.exit_code == 1 and "0 promoted" in refused.output
    found = AgentEvaluator.find_config_for_test_file(str(suite / "suite.evalset.json"))
    assert found.criteria["response_match_score"] == 0.5
