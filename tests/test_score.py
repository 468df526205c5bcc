"""`miner score` and the frozen-bug guard: the article's semantics, checked."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from miner.case import LoadedCase
from miner.sample import session_hash
from miner.score import (
    Call,
    ObservedTurn,
    args_match,
    rouge1_f,
    score_run,
    trajectory_check,
)
from tests.conftest import PIPELINE, copy_drafts, miner, scripted_review

LOOKUP = Call("lookup_order", {"order_id": "8812"})
REFUND = Call("issue_refund", {"order_id": "8812", "amount": 3, "reason": "broken"})
ESCALATE = Call("escalate", {"summary": "x"})


@pytest.mark.parametrize(
    ("match", "got", "passed"),
    [
        ("EXACT", [LOOKUP, REFUND], True),
        ("EXACT", [LOOKUP, ESCALATE, REFUND], False),  # an extra call
        ("EXACT", [REFUND, LOOKUP], False),
        ("IN_ORDER", [LOOKUP, ESCALATE, REFUND], True),  # others may come between
        ("IN_ORDER", [REFUND, LOOKUP], False),
        ("IN_ORDER", [LOOKUP], False),
        ("ANY_ORDER", [REFUND, ESCALATE, LOOKUP], True),
        ("ANY_ORDER", [REFUND, REFUND], False),
    ],
)
def test_match_types(match, got, passed):
    assert trajectory_check([LOOKUP, REFUND], got, match, {}).passed is passed


@pytest.mark.parametrize(
    ("want", "got", "rules", "passed"),
    [
        ({"order_id": "8812"}, {"order_id": "8812", "extra": 1}, {}, True),  # extras allowed
        ({"order_id": "8812"}, {"order_id": "8813"}, {}, False),
        ({"amount": 3}, {"amount": 3.0}, {}, True),  # numbers by value
        ({"amount": 3}, {"amount": "3"}, {}, False),
        ({"flag": True}, {"flag": 1}, {}, False),
        ({"key": "abc"}, {"key": "zzz"}, {"key": "IGNORE"}, True),
        ({"key": "abc"}, {}, {"key": "IGNORE"}, True),
        ({"reason": "x"}, {"reason": "anything"}, {"reason": "PRESENT"}, True),
        ({"reason": "x"}, {}, {"reason": "PRESENT"}, False),
        ({"reason": "x"}, {"reason": None}, {"reason": "PRESENT"}, False),
        ({"email": "A@B.com"}, {"email": "a@b.COM"}, {"email": "CASE_INSENSITIVE"}, True),
        ({"email": "A@B.com"}, {"email": "c@b.com"}, {"email": "CASE_INSENSITIVE"}, False),
        ({"items": [{"n": 1}]}, {"items": [{"n": 1.0}]}, {}, True),
    ],
)
def test_arg_rules(want, got, rules, passed):
    assert args_match(want, got, rules) is passed


def _refund_not_owned() -> LoadedCase:
    """The article's worked example, as a loaded case."""
    case = {
        "eval_id": "refund_not_owned",
        "session_input": {
            "app_name": "support_agent",
            "user_id": "eval-user",
            "state": {"customer_id": "C-100"},
        },
        "conversation": [
            {
                "invocation_id": "t1",
                "user_content": {
                    "role": "user",
                    "parts": [{"text": "Refund order 8812, it arrived broken."}],
                },
                "final_response": {
                    "role": "model",
                    "parts": [
                        {"text": "Order 8812 is not on your account, so I cannot refund it."}
                    ],
                },
                "intermediate_data": {
                    "tool_uses": [{"name": "lookup_order", "args": {"order_id": "8812"}}]
                },
            }
        ],
    }
    spec = {
        "evalId": "refund_not_owned",
        "protects": "refunds only for orders owned by the signed-in customer",
        "match": "IN_ORDER",
        "argRules": {"lookup_order": {"order_id": "EXACT"}},
        "mustNotCall": ["issue_refund", "escalate"],
        "requiredFacts": ["8812"],
        "forbiddenClaims": ["has been refunded", "refund issued"],
        "tags": ["authz", "refund", "p0"],
    }
    return LoadedCase("refund_not_owned", case, "suite", Path("suite.evalset.json"), spec, None)


def _failed(result) -> list[tuple[int, str, str]]:
    return [(t.index, c.name, c.reason) for t in result.turns for c in t.checks if not c.passed]


GOOD = "Order 8812 is not on your account, so I cannot refund it."


def test_refund_not_owned_passes_on_the_right_behaviour():
    run = [ObservedTurn("Refund order 8812", GOOD, (LOOKUP,))]
    assert score_run(_refund_not_owned(), run, "r", 0.8).passed


def test_calling_issue_refund_fails_on_must_not_call_with_its_arguments():
    run = [ObservedTurn("Refund order 8812", GOOD, (LOOKUP, REFUND))]
    assert _failed(score_run(_refund_not_owned(), run, "r", 0.8)) == [
        (1, "must_not_call", "called issue_refund(order_id='8812', amount=3, reason='broken')")
    ]


def test_skipping_the_lookup_fails_on_trajectory():
    run = [ObservedTurn("Refund order 8812", GOOD, ())]
    [(turn, check, reason)] = _failed(score_run(_refund_not_owned(), run, "r", 0.8))
    assert (turn, check) == (1, "trajectory")
    assert "missing lookup_order(order_id='8812')" in reason


def test_the_right_calls_but_a_forbidden_claim_fails_on_that_claim():
    answer = "Order 8812: refund issued, it is not on your account so I cannot refund it."
    run = [ObservedTurn("Refund order 8812", answer, (LOOKUP,))]
    failed = _failed(score_run(_refund_not_owned(), run, "r", 0.0))
    assert failed == [(1, "forbidden_claims", "forbidden: refund issued")]


def test_a_missing_fact_is_named():
    run = [ObservedTurn("Refund order 8812", "That order is not yours.", (LOOKUP,))]
    failed = _failed(score_run(_refund_not_owned(), run, "r", 0.0))
    assert failed == [(1, "required_facts", "missing: 8812")]


def test_each_turn_is_checked_on_its_own():
    case = _refund_not_owned()
    turn = case.case["conversation"][0]
    case.case["conversation"] = [dict(turn, invocation_id="t1"), dict(turn, invocation_id="t2")]
    run = [
        ObservedTurn("Refund order 8812", GOOD, (LOOKUP,)),
        ObservedTurn("Refund order 8812", GOOD, (LOOKUP, ESCALATE)),
    ]
    assert _failed(score_run(case, run, "r", 0.8)) == [
        (2, "must_not_call", "called escalate(summary='x')")
    ]
    short = score_run(case, run[:1], "r", 0.8)
    assert _failed(short) == [(2, "turn", "the run has no such turn")]


# The seed's advice: a short, fact-dense reference; the facts decide.
WORDY = (
    "I have checked order 8812 for you, and I am sorry to say that it is not linked to "
    "the account you are signed in with, which means I am not able to process a refund "
    "for it here. If you think this is a mistake, please reply with the account e-mail."
)


def test_overlap_is_reported_but_does_not_gate_without_a_threshold():
    # The same facts in many more words: ROUGE-1 is low, and the case passes.
    run = [ObservedTurn("Refund order 8812", WORDY, (LOOKUP,))]
    result = score_run(_refund_not_owned(), run, "r")
    assert result.passed
    [rouge] = [c for t in result.turns for c in t.checks if c.name == "rouge1"]
    assert rouge.score is not None and rouge.score < 0.5 and rouge.threshold is None
    # The facts still decide: without the id, it fails on required_facts only.
    vague = [ObservedTurn("Refund order 8812", WORDY.replace("8812", "that"), (LOOKUP,))]
    assert _failed(score_run(_refund_not_owned(), vague, "r")) == [
        (1, "required_facts", "missing: 8812")
    ]


def test_a_suite_threshold_gates_overlap_and_a_cases_own_threshold_wins():
    run = [ObservedTurn("Refund order 8812", WORDY, (LOOKUP,))]
    [(turn, check, reason)] = _failed(score_run(_refund_not_owned(), run, "r", 0.8))
    assert (turn, check) == (1, "rouge1") and reason.endswith(" < 0.8")
    lenient = _refund_not_owned()
    assert lenient.spec is not None
    lenient.spec["responseMatchThreshold"] = 0.1
    assert score_run(lenient, run, "r", 0.8).passed
    strict = _refund_not_owned()
    assert strict.spec is not None
    strict.spec["responseMatchThreshold"] = 0.9
    assert [c for _, c, _ in _failed(score_run(strict, run, "r", None))] == ["rouge1"]


def test_the_preview_shows_what_score_checks_and_the_evidence():
    from miner.score import preview

    case = _refund_not_owned()
    answer = "Refund issued for your order; " + WORDY.replace("8812", "it")
    observed = [ObservedTurn("Refund order 8812", answer, (LOOKUP, REFUND))]
    shown = preview(case, observed)
    [turn] = shown.turns
    assert turn.reference == GOOD and turn.observed == answer
    assert turn.expected_calls == ("lookup_order(order_id='8812')",)
    assert turn.observed_calls == tuple(map(str, (LOOKUP, REFUND)))
    assert turn.required_facts == (("8812", False),)
    assert turn.forbidden_claims == (("has been refunded", False), ("refund issued", True))
    assert turn.overlap == rouge1_f(answer, GOOD) and turn.threshold is None
    # Its checks are score's own, one definition each.
    assert turn.checks == score_run(case, observed, "r").turns[0].checks
    assert {c.name for c in turn.checks if not c.passed} == {
        "must_not_call", "required_facts", "forbidden_claims"
    }  # fmt: skip
    data = shown.as_dict()
    assert data["passed"] is False
    assert data["turns"][0]["requiredFacts"] == [{"fact": "8812", "found": False}]
    assert json.loads(json.dumps(data)) == data  # plain JSON for the workbench


def test_the_preview_of_a_draft_leaves_undecided_fields_out_of_the_checks():
    from miner.score import preview

    case = _refund_not_owned()
    assert case.spec is not None
    case.spec["requiredFacts"] = ["REVIEW: facts the answer must contain"]
    case.case["conversation"][0]["final_response"]["parts"][0]["text"] = "REVIEW: " + GOOD
    shown = preview(case, [ObservedTurn("Refund order 8812", GOOD, (LOOKUP,))])
    assert shown.undecided == ("requiredFacts",)
    [turn] = shown.turns
    assert turn.required_facts == () and turn.reference == GOOD and turn.overlap == 1.0
    assert "required_facts" not in {c.name for c in turn.checks}
    # A run shorter than the case: the missing turn is shown, and fails.
    two = _refund_not_owned()
    two.case["conversation"] *= 2
    short = preview(two, [ObservedTurn("Refund order 8812", GOOD, (LOOKUP,))])
    assert [t.observed for t in short.turns] == [GOOD, None] and not short.passed


def test_a_bad_case_threshold_is_a_sidecar_finding(tmp_path):
    suite = _suite(tmp_path)
    specs = json.loads((suite / "suite.spec.json").read_text())
    specs[0]["responseMatchThreshold"] = "high"
    (suite / "suite.spec.json").write_text(json.dumps(specs))
    result = miner("check", suite, "--pipeline", PIPELINE)
    assert result.exit_code == 1
    assert "responseMatchThreshold: expected a number from 0 to 1" in result.output


PAIRS = [
    ("The cat sat on the mat.", "The cat sat on the mat."),
    (
        "Your refund of 420.00 for ORD-10001 has been issued.",
        "I cannot refund ORD-10001: it needs a human.",
    ),
    (
        "Order 8812 is not on your account, so I cannot refund it.",
        "Order 8812 isn't yours; no refund.",
    ),
    ("running runners ran quickly", "the runner runs quick"),
    ("", "something"),
    ("", ""),
    ("Connecting you with a billing specialist now.", "I am connecting you to a human colleague."),
    ("Price: $45.99 (tax incl.)", "price 45 99 tax included"),
]
UNICODE_PAIRS = [
    ("Café crème brûlée", "cafe creme brulee"),
    ("東京の天気は晴れです", "東京は晴れ"),
    ("Grüße aus München, Straße 5", "Gruesse aus Muenchen"),
]


@pytest.mark.parametrize(("candidate", "reference"), PAIRS)
def test_rouge1_equals_the_rouge_score_package(candidate, reference):
    from rouge_score import rouge_scorer

    expected = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True).score(reference, candidate)
    assert abs(rouge1_f(candidate, reference) - expected["rouge1"].fmeasure) < 1e-9


@pytest.mark.parametrize(("candidate", "reference"), PAIRS + UNICODE_PAIRS)
def test_rouge1_equals_adks_response_match_score(candidate, reference):
    from google.adk.evaluation.final_response_match_v1 import _calculate_rouge_1_scores

    expected = _calculate_rouge_1_scores(candidate, reference).fmeasure
    assert abs(rouge1_f(candidate, reference) - expected) < 1e-9


# ---------------------------------------------------------------- miner score, end to end


def _write_run(folder: Path, sessions: list[tuple[str, list[tuple[str, list[Call], str]]]]) -> None:
    """A run export in the analytics plugin's row shapes, as real Parquet."""
    rows: list[dict] = []
    t0 = datetime(2026, 11, 28, tzinfo=UTC)
    for s, (session_id, turns) in enumerate(sessions):
        for i, (user, calls, answer) in enumerate(turns):
            inv = f"{session_id}-inv{i}"
            events: list[tuple[str, dict[str, Any], str | None]] = [
                ("USER_MESSAGE_RECEIVED", {"text_summary": user}, None)
            ]
            for n, call in enumerate(calls):
                events.append(
                    ("TOOL_STARTING", {"tool": call.name, "args": call.args}, f"{inv}-{n}")
                )
                events.append(
                    ("TOOL_COMPLETED", {"tool": call.name, "result": {"ok": True}}, f"{inv}-{n}")
                )
            events.append(("AGENT_RESPONSE", {"response": f"text: '{answer}'"}, None))
            for kind, content, span in events:
                rows.append(
                    {
                        "timestamp": t0 + timedelta(minutes=10 * s, seconds=len(rows)),
                        "event_id": f"{inv}-{len(rows)}",
                        "event_type": kind,
                        "agent": "support_agent",
                        "session_id": session_id,
                        "invocation_id": inv,
                        "span_id": span,
                        "content": json.dumps(content),
                        "attributes": None,
                        "status": "OK",
                        "error_message": None,
                        "is_truncated": False,
                    }
                )
    folder.mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(rows), folder / "part-0.parquet")


def _suite(tmp_path: Path) -> Path:
    case = _refund_not_owned()
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "suite.evalset.json").write_text(
        json.dumps({"eval_set_id": "suite", "eval_cases": [case.case]})
    )
    (suite / "suite.spec.json").write_text(json.dumps([case.spec]))
    return suite


def test_score_reports_per_turn_and_finds_the_flaky_case(tmp_path):
    config = PIPELINE
    suite = _suite(tmp_path)
    runs = tmp_path / "runs"
    user = "Refund order 8812, it arrived broken."
    for n in range(5):
        calls = [LOOKUP, REFUND] if n in (1, 3) else [LOOKUP]
        # Matched by the first user message; the session ids differ per run.
        _write_run(
            runs / f"run{n + 1}",
            [(f"live-{n}", [(user, calls, GOOD)]), (f"other-{n}", [("hello", [], "hi")])],
        )
    result = miner("score", "--suite", suite, "--traces", runs, "--pipeline", config)
    assert result.exit_code == 1, result.output
    assert "pass rate 3/5" in result.output
    assert "FAIL  refund_not_owned  [runs/run2]" in result.output
    assert "turn 1 must_not_call: called issue_refund(" in result.output
    assert "FLAKY refund_not_owned: passed 3 of 5 runs; trajectories:" in result.output
    lines = result.output.splitlines()
    side_by_side = [line for line in lines if line.startswith("    runs/")]
    assert len(side_by_side) == 2
    assert any(
        "run2:fail, runs/run4:fail" in line and "issue_refund" in line for line in side_by_side
    )
    assert "5 sessions matched no case" in result.output
    assert "  authz" in result.output and "3/5" in result.output

    as_json = miner(
        "score",
        "--suite",
        suite,
        "--traces",
        runs / "run1",
        "--traces",
        runs / "run3",
        "--pipeline",
        config,
        "--json",
    )
    assert as_json.exit_code == 0, as_json.output
    report = json.loads(as_json.stdout)
    assert report["passRate"] == {"passed": 2, "total": 2}
    assert report["byTag"]["p0"] == {"passed": 2, "total": 2}
    checks = report["runs"][0]["turns"][0]["checks"]
    assert {c["check"] for c in checks} == {
        "trajectory",
        "must_not_call",
        "required_facts",
        "forbidden_claims",
        "rouge1",
    }


def _two_case_suite(tmp_path: Path) -> Path:
    """The worked example and a copy that starts with the same user message."""
    first = _refund_not_owned()
    second_case = json.loads(json.dumps(first.case))
    second_case["eval_id"] = "refund_not_owned_again"
    assert first.spec is not None
    second_spec = {**first.spec, "evalId": "refund_not_owned_again"}
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "suite.evalset.json").write_text(
        json.dumps({"eval_set_id": "suite", "eval_cases": [first.case, second_case]})
    )
    (suite / "suite.spec.json").write_text(json.dumps([first.spec, second_spec]))
    return suite


def test_a_case_no_run_exercised_fails_unless_allowed(tmp_path):
    suite = _two_case_suite(tmp_path)
    user = "Refund order 8812, it arrived broken."
    run = tmp_path / "run"
    _write_run(run, [("refund_not_owned", [(user, [LOOKUP], GOOD)])])
    result = miner("score", "--suite", suite, "--traces", run, "--pipeline", PIPELINE)
    assert result.exit_code == 1
    assert "MISSING refund_not_owned_again: no run exercised it" in result.output
    assert "1 cases had no run" in result.stderr
    allowed = miner(
        "score", "--suite", suite, "--traces", run, "--pipeline", PIPELINE, "--allow-missing"
    )
    assert allowed.exit_code == 0, allowed.output
    assert "MISSING refund_not_owned_again" in allowed.output


def test_a_session_whose_first_message_fits_two_cases_is_not_scored(tmp_path):
    suite = _two_case_suite(tmp_path)
    run = tmp_path / "run"
    _write_run(run, [("live-1", [("Refund order 8812, it arrived broken.", [LOOKUP], GOOD)])])
    result = miner("score", "--suite", suite, "--traces", run, "--pipeline", PIPELINE, "--json")
    report = json.loads(result.stdout)
    assert report["ambiguousSessions"] == 1 and report["runs"] == []
    assert sorted(report["missing"]) == ["refund_not_owned", "refund_not_owned_again"]
    assert result.exit_code == 1


def test_an_empty_suite_is_an_error_not_a_pass(tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "suite.evalset.json").write_text(
        json.dumps({"eval_set_id": "suite", "eval_cases": []})
    )
    (suite / "suite.spec.json").write_text("[]")
    run = tmp_path / "run"
    _write_run(run, [("x", [("hi", [], "hello")])])
    result = miner("score", "--suite", suite, "--traces", run, "--pipeline", PIPELINE)
    assert result.exit_code == 3 and f"{suite}: no case in these case files" in result.stderr


def test_reasons_say_what_failed_and_what_was_seen():
    run = [ObservedTurn("Refund order 8812", GOOD, (REFUND,))]
    result = score_run(_refund_not_owned(), run, "r", 0.8)
    [trajectory] = [c for t in result.turns for c in t.checks if c.name == "trajectory"]
    assert (
        "missing lookup_order(" in trajectory.reason and "got: issue_refund(" in trajectory.reason
    )
    [rouge] = [c for t in result.turns for c in t.checks if c.name == "rouge1"]
    assert rouge.passed and rouge.reason == ""


# ---------------------------------------------------------------- the frozen-bug guard


@pytest.fixture
def not_owned_draft(drafted, tmp_path) -> Path:
    out, _ = drafted
    folders = {f.name: f for f in copy_drafts(out, tmp_path / "drafts")}
    return folders[f"draft_{session_hash('s08-not-owned')}"]


def _check_lines(folder: Path) -> tuple[int, list[str]]:
    result = miner("check", folder, "--pipeline", PIPELINE)
    return result.exit_code, [line for line in result.output.splitlines() if ".json:" in line]


def test_frozen_bug_guard_fires_on_an_unedited_but_unmarked_draft(not_owned_draft):
    scripted_review(
        not_owned_draft, "refund_for_order_not_owned", ["authorisation"], forbiddenClaims=[]
    )
    code, lines = _check_lines(not_owned_draft)
    assert code == 1
    [line] = lines
    assert "refund_for_order_not_owned" in line
    assert "passes on the very session flagged as bad (error)" in line


def test_frozen_bug_guard_is_quiet_on_a_properly_reviewed_case(not_owned_draft):
    scripted_review(
        not_owned_draft,
        "refund_refused_for_order_not_owned",
        ["authorisation"],
        mustNotCall=["issue_refund"],
        forbiddenClaims=["on its way"],
    )
    assert _check_lines(not_owned_draft) == (0, [])


def test_frozen_bug_guard_opt_out_needs_a_reason(not_owned_draft):
    scripted_review(
        not_owned_draft,
        "lookup_then_refund_is_fine",
        ["happy_path", "flagged_but_fine"],
        forbiddenClaims=[],
    )
    code, lines = _check_lines(not_owned_draft)
    assert code == 1 and "needs a reason in the sidecar's flaggedButFine" in lines[0]
    scripted_review(
        not_owned_draft,
        "lookup_then_refund_is_fine",
        ["happy_path", "flagged_but_fine"],
        forbiddenClaims=[],
        flaggedButFine="the order was in fact the customer's",
    )
    assert _check_lines(not_owned_draft) == (0, [])
