"""`miner coverage` on a small suite whose matrix is known."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from tests.conftest import PIPELINE, miner


def _case(eval_id: str, tools: list[str]) -> dict:
    return {
        "eval_id": eval_id,
        "conversation": [
            {
                "invocation_id": "t1",
                "user_content": {"role": "user", "parts": [{"text": "hi"}]},
                "final_response": {"role": "model", "parts": [{"text": "hello"}]},
                "intermediate_data": {"tool_uses": [{"name": t, "args": {}} for t in tools]},
            }
        ],
    }


def _spec(eval_id: str, tags: list[str], must_not_call: tuple[str, ...] = ()) -> dict:
    return {
        "evalId": eval_id,
        "protects": "x",
        "match": "IN_ORDER",
        "mustNotCall": list(must_not_call),
        "tags": tags,
    }


def _one_case_suite(tmp_path) -> Path:
    """A suite of one reviewed case, tagged happy_path, that calls no tool."""
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "suite.evalset.json").write_text(
        json.dumps({"eval_set_id": "suite", "eval_cases": [_case("order_status_happy", [])]})
    )
    (suite / "suite.spec.json").write_text(
        json.dumps([_spec("order_status_happy", ["happy_path"])])
    )
    return suite


def test_coverage_of_a_known_suite(tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    cases = [
        (
            _case("order_status_happy", ["lookup_order"]),
            _spec("order_status_happy", ["happy_path", "p1"]),
        ),
        (
            _case("refund_not_owned", ["lookup_order"]),
            _spec("refund_not_owned", ["authz", "p0"], ["issue_refund", "escalate"]),
        ),
        (
            _case("refund_gateway_down", ["lookup_order", "issue_refund"]),
            _spec("refund_gateway_down", ["tool_failure"]),
        ),
        (_case("weather_question", []), _spec("weather_question", ["out_of_scope"])),
        (_case("untagged_case", ["lookup_order"]), _spec("untagged_case", ["p2"])),
    ]
    (suite / "suite.evalset.json").write_text(
        json.dumps({"eval_set_id": "suite", "eval_cases": [c for c, _ in cases]})
    )
    (suite / "suite.spec.json").write_text(json.dumps([s for _, s in cases]))

    reports = tmp_path / "reports"
    result = miner("coverage", suite, "--pipeline", PIPELINE, "--out", reports)
    assert result.exit_code == 0, result.output
    with (reports / "coverage.csv").open() as handle:
        rows = {r["tool"]: r for r in csv.DictReader(handle)}
    assert rows["lookup_order"]["happy_path"] == "1"
    assert rows["lookup_order"]["authorisation"] == "1"
    assert rows["lookup_order"]["tool_failure"] == "1"
    assert rows["issue_refund"]["authorisation"] == "1"  # via mustNotCall
    assert rows["issue_refund"]["tool_failure"] == "1"
    assert rows["escalate"]["authorisation"] == "1"
    assert rows["escalate"]["tool_failure"] == "0"
    assert rows["(no tool)"]["out_of_scope"] == "1"
    assert sum(int(v) for r in rows.values() for k, v in r.items() if k != "tool") == 7
    # Empty cells are listed first, as the next cases to write.
    lines = result.output.splitlines()
    assert lines[0].startswith("Next cases to write (")
    assert "  escalate x tool_failure" in lines
    assert "  lookup_order x happy_path" not in lines
    assert "1 cases have no class tag: untagged_case" in result.output
    page = (reports / "coverage.html").read_text()
    assert "<table>" in page and "escalate &times; tool_failure" in page
    # The suite it read is left as it was.
    assert sorted(p.name for p in suite.iterdir()) == ["suite.evalset.json", "suite.spec.json"]


def test_coverage_prints_the_matrix_and_writes_nothing_without_out(tmp_path):
    suite = _one_case_suite(tmp_path)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    result = miner("coverage", suite, "--pipeline", PIPELINE)
    assert result.exit_code == 0, result.output
    assert "Next cases to write (" in result.stdout and "wrote" not in result.stdout
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_coverage_refuses_to_write_into_the_suite_it_reads(tmp_path):
    suite = _one_case_suite(tmp_path)
    for out in (suite, suite / "reports"):
        result = miner("coverage", suite, "--pipeline", PIPELINE, "--out", out)
        assert result.exit_code == 2, result.output
        [line] = result.stderr.splitlines()
        assert line.startswith(f"Error: --out {out}: inside the suite folder"), line
    assert sorted(p.name for p in suite.iterdir()) == ["suite.evalset.json", "suite.spec.json"]


def test_coverage_adds_pass_rates_by_tag_from_a_score_report(tmp_path):
    suite = _one_case_suite(tmp_path)
    report = tmp_path / "score.json"
    report.write_text(json.dumps({"byTag": {"happy_path": {"passed": 4, "total": 5}}}))
    reports = tmp_path / "reports"
    result = miner("coverage", suite, "--pipeline", PIPELINE, "--results", report, "--out", reports)
    assert result.exit_code == 0, result.output
    assert "  happy_path               4/5" in result.output
    assert "<td>4/5</td>" in (reports / "coverage.html").read_text()
    report.write_text("{}")
    bad = miner("coverage", suite, "--pipeline", PIPELINE, "--results", report)
    assert bad.exit_code == 3 and "not a `miner score --json` report" in bad.stderr


def test_coverage_and_score_refuse_unreviewed_drafts_one_line_per_case(drafted, tmp_path):
    from tests.conftest import TRACES, copy_drafts

    out, _ = drafted
    folders = copy_drafts(out, tmp_path / "drafts", 3)
    for command in (
        ["coverage", tmp_path / "drafts", "--out", tmp_path / "matrix"],
        ["score", "--suite", tmp_path / "drafts", "--traces", TRACES],
    ):
        result = miner(*command, "--pipeline", PIPELINE)
        assert result.exit_code == 1, result.output
        refused = [line for line in result.stdout.splitlines() if line.startswith("refused")]
        assert len(refused) == len(folders) == 3
        for line in refused:  # a draft's eval id is itself still to be named
            pattern = r"refused   REVIEW_name_this_case_\w+: \d+ REVIEW markers left(; .*)?"
            assert re.fullmatch(pattern, line), line
        assert "REVIEW: " not in result.output  # no matrix row named after a marker
        assert result.stderr.strip() == (
            f"Error: 3 cases refused: {command[0]} reads reviewed cases only "
            f"(`miner check {tmp_path / 'drafts'}` lists every reason)"
        )
    assert not (tmp_path / "matrix").exists()
