"""The loader, `miner check` and `miner review`, on real drafts and real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from miner.config import load_config
from miner.load import load_cases
from miner.output import read_case_files
from miner.redaction.surfaced import known_values, vetted_digest
from miner.sample import session_hash
from tests.conftest import PIPELINE, copy_drafts, load_json, miner, scripted_review


def _folder(drafted, tmp_path: Path, session: str) -> Path:
    out, _ = drafted
    [folder] = [
        f
        for f in copy_drafts(out, tmp_path / "drafts")
        if f.name == f"draft_{session_hash(session)}"
    ]
    return folder


@pytest.fixture
def draft(drafted, tmp_path) -> Path:
    """A fresh copy of the draft of the session whose refund tool returned an error."""
    return _folder(drafted, tmp_path, "s02-refund-returned-error")


@pytest.fixture
def reviewed(draft) -> Path:
    scripted_review(draft, "refund_failure_not_reported_as_success", ["tool_failure", "p0"])
    return draft


def _check(*paths: Path, config: Path = PIPELINE):
    return miner("check", *paths, "--pipeline", config)


def test_a_fresh_draft_gets_one_finding_per_marker_at_its_line_and_column(draft):
    result = miner("review", draft)
    assert result.exit_code == 1
    listed = [line.strip() for line in result.output.splitlines() if line.startswith("  ")]
    # Every marker of the three files, the tool fixtures' evalId included.
    expected = sum(p.read_text().count("REVIEW") for p in draft.glob("*.json"))
    assert len(listed) == expected >= 6
    for entry in listed:
        place, json_path = entry.rsplit(": ", 1)
        file, line, col = place.rsplit(":", 2)
        text = Path(file).read_text().splitlines()[int(line) - 1]
        assert text[int(col) - 1 :].startswith("REVIEW"), entry
        assert json_path.startswith("$")
    assert f"{expected} REVIEW markers and 0 surfaced spans left in 1 cases" in result.output
    assert result.stderr == ""  # an unfinished draft is not an error: exit 1, no "Error:"


def test_check_refuses_a_fresh_draft_only_for_its_markers(draft):
    result = _check(draft)
    assert result.exit_code == 1
    findings = [line for line in result.output.splitlines() if ".json:" in line]
    assert findings and all(line.endswith("still marked REVIEW") for line in findings)
    assert "0 of 1 cases would load" in result.output


def test_the_same_case_after_review_passes(reviewed):
    result = _check(reviewed)
    assert result.exit_code == 0, result.output
    assert "0 findings; 1 of 1 cases would load" in result.output
    assert miner("review", reviewed).exit_code == 0


def test_check_json_output_for_machines(draft):
    result = miner("check", draft, "--pipeline", PIPELINE, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["cases"] == 1 and report["passing"] == []
    assert {f["kind"] for f in report["findings"]} == {"review"}
    assert all(
        f["line"] > 0 and f["col"] > 0 and f["file"].endswith(".json") for f in report["findings"]
    )


def _edit(path: Path, change) -> None:
    data = load_json(path)
    change(data)
    path.write_text(json.dumps(data, indent=2) + "\n")


def _kinds(result) -> list[str]:
    return [line for line in result.output.splitlines() if ".json:" in line]


def test_invalid_json_is_reported_with_line_and_column(reviewed):
    spec = next(reviewed.glob("*.spec.json"))
    lines = spec.read_text().splitlines()
    lines[2] = lines[2].rstrip(",")  # a reviewer's broken edit: a missing comma
    spec.write_text("\n".join(lines) + "\n")
    result = _check(reviewed)
    assert result.exit_code == 1
    [line] = [f for f in _kinds(result) if "invalid JSON" in f]
    assert line.startswith(f"{spec}:4:")
    assert any("case has no sidecar spec" in f for f in _kinds(result))


def test_a_field_outside_the_eval_set_format_is_a_schema_finding(reviewed):
    # EvalCase itself accepts extra keys; the eval-set format does not, so neither does miner.
    evalset = next(reviewed.glob("*.evalset.json"))
    _edit(evalset, lambda d: d["eval_cases"][0].update(expected_outcome="refused"))
    result = _check(reviewed)
    assert result.exit_code == 1
    [line] = _kinds(result)
    assert "$.eval_cases[0].expected_outcome: ADK EvalSet: Extra inputs are not permitted" in line
    number = int(line.split(":")[1])
    assert "expected_outcome" in evalset.read_text().splitlines()[number - 1]


def test_a_field_adk_forbids_inside_a_turn_is_a_schema_finding(reviewed):
    evalset = next(reviewed.glob("*.evalset.json"))
    _edit(evalset, lambda d: d["eval_cases"][0]["conversation"][0].update(expected="x"))
    [line] = _kinds(_check(reviewed))
    assert "$.eval_cases[0].conversation[0].expected: ADK EvalSet: Extra inputs" in line


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.update(match="SOMETIMES"), "$.match: unknown match type"),
        (lambda s: s.update(argRules={"issue_refund": {"amount": "ROUGHLY"}}), "unknown arg rule"),
        (lambda s: s.update(mustNotCall="issue_refund"), "mustNotCall: expected a list of strings"),
    ],
)
def test_bad_sidecars_are_refused(reviewed, change, message):
    _edit(next(reviewed.glob("*.spec.json")), change)
    result = _check(reviewed)
    assert result.exit_code == 1
    assert any(message in line for line in _kinds(result)), result.output


def test_case_without_sidecar_and_sidecar_without_case(reviewed, tmp_path):
    spec = next(reviewed.glob("*.spec.json"))
    moved = tmp_path / "elsewhere" / spec.name
    moved.parent.mkdir()
    spec.rename(moved)
    assert any("case has no sidecar spec" in f for f in _kinds(_check(reviewed)))
    result = _check(moved)
    assert any("sidecar has no eval case" in f for f in _kinds(result))


def test_duplicate_eval_ids_across_files(reviewed, tmp_path):
    import shutil

    twin = Path(shutil.copytree(reviewed, tmp_path / "twin"))
    result = _check(reviewed, twin)
    assert result.exit_code == 1
    assert any("eval id loaded more than once" in f for f in _kinds(result))


@pytest.mark.parametrize("bad_id", ["test_17", "case_3", "RefundCase", "refund-case"])
def test_eval_ids_must_be_descriptive_names(drafted, tmp_path, bad_id):
    folder = _folder(drafted, tmp_path, "s02-refund-returned-error")
    scripted_review(folder, bad_id, ["tool_failure"])
    result = _check(folder)
    assert result.exit_code == 1
    assert any("not a descriptive name" in f for f in _kinds(result))


def test_a_case_that_calls_a_removed_tool_fails(reviewed, scratch_config):
    config = scratch_config(replace=('tools = ["lookup_order", ', "tools = ["))
    result = _check(reviewed, config=config)
    assert result.exit_code == 1
    rot = [f for f in _kinds(result) if "lookup_order" in f]
    assert rot and all("not one of the agent's tools" in f for f in rot)


def test_a_must_not_call_for_an_unknown_tool_is_suite_rot(drafted, tmp_path):
    folder = _folder(drafted, tmp_path, "s02-refund-returned-error")
    scripted_review(folder, "refund_failure_reported", ["tool_failure"], mustNotCall=["refund_v1"])
    assert any("'refund_v1'" in f for f in _kinds(_check(folder)))


def test_a_real_email_pasted_into_a_reviewed_case_is_refused(reviewed):
    evalset = next(reviewed.glob("*.evalset.json"))

    def paste(data):
        part = data["eval_cases"][0]["conversation"][0]["final_response"]["parts"][0]
        part["text"] += " We have e-mailed the receipt to rahul.mehta@outlook.com."

    _edit(evalset, paste)
    result = _check(reviewed)
    assert result.exit_code == 1
    [line] = _kinds(result)
    assert "possible personal data (EMAIL_ADDRESS) that is not a fixture value" in line
    assert "rahul" not in result.output
    number, col = (int(x) for x in line.split(":")[1:3])
    text = evalset.read_text().splitlines()[number - 1]
    assert text[col - 1 :].startswith("rahul.mehta@outlook.com")


def test_the_leak_guard_checks_reviewed_cases_too(reviewed, scratch_config):
    # With card detection switched off, the guard's own IIN + Luhn check
    # still refuses a card number pasted by a reviewer.
    config = scratch_config(
        replace=(
            "score_threshold = 0.5",
            "score_threshold = 0.5\n"
            'entities = ["PERSON", "EMAIL_ADDRESS", "PHONE_NUMBER"]\n'
            'undetected_ok = ["CREDIT_CARD"]',
        )
    )
    tools = next(reviewed.glob("*.tools.json"))
    _edit(tools, lambda d: d["calls"][0].update(args={"card": "2221 0000 0000 0009"}))
    result = _check(reviewed, config=config)
    assert result.exit_code == 1
    [line] = _kinds(result)
    assert "possible personal data (CREDIT_CARD, leak guard)" in line
    assert "2221" not in result.output


def test_fixture_values_are_not_personal_data(reviewed):
    evalset = next(reviewed.glob("*.evalset.json"))

    def mention(data):
        part = data["eval_cases"][0]["conversation"][0]["final_response"]["parts"][0]
        part["text"] += " Receipt sent to customer.one@example.com for CUST-00100."

    _edit(evalset, mention)
    assert _check(reviewed).exit_code == 0


def test_numbers_are_normalised_on_load(reviewed):
    def floaty(data):
        data["eval_cases"][0]["conversation"][0]["intermediate_data"]["tool_uses"][1]["args"][
            "amount"
        ] = 420.0

    _edit(next(reviewed.glob("*.evalset.json")), floaty)
    [case] = load_cases(read_case_files([reviewed]), load_config(PIPELINE)).cases
    args = case.case["conversation"][0]["intermediate_data"]["tool_uses"][1]["args"]
    assert args["amount"] == 420 and isinstance(args["amount"], int)


def test_missing_path_is_an_input_error(tmp_path):
    result = miner("check", tmp_path / "nope", "--pipeline", PIPELINE)
    assert result.exit_code == 3
    assert "nope: no such file or folder" in result.stderr


def test_review_refuses_a_draft_it_cannot_parse(draft):
    evalset = next(draft.glob("*.evalset.json"))
    evalset.write_text(evalset.read_text().replace("REVIEW: ", "", 1)[:-20])  # a broken edit
    result = miner("review", draft)
    assert result.exit_code == 1
    assert f"{evalset}:" in result.output and "invalid JSON" in result.output
    assert "cannot be read" in result.stderr


def test_a_tool_name_typo_is_found_at_its_field_with_the_nearest_tool(reviewed):
    evalset = next(reviewed.glob("*.evalset.json"))
    spec = next(reviewed.glob("*.spec.json"))

    def typo(data):
        uses = data["eval_cases"][0]["conversation"][0]["intermediate_data"]["tool_uses"]
        uses[-1]["name"] = "lookup_ordr"

    _edit(evalset, typo)
    _edit(spec, lambda data: data.update(mustNotCall=["isue_refund", "weather"]))
    result = _check(reviewed)
    assert result.exit_code == 1
    rot = [line for line in _kinds(result) if "agent" in line]
    uses = load_json(evalset)["eval_cases"][0]["conversation"][0]["intermediate_data"]
    last = len(uses["tool_uses"]) - 1
    assert [line.split(": ", 1)[1] for line in rot] == [
        "refund_failure_not_reported_as_success $.eval_cases[0].conversation[0]"
        f".intermediate_data.tool_uses[{last}].name: tool 'lookup_ordr' is not one of the "
        "agent's tools; did you mean 'lookup_order'?",
        "refund_failure_not_reported_as_success $.mustNotCall[0]: sidecar names tool "
        "'isue_refund', which the agent does not have; did you mean 'issue_refund'?",
        "refund_failure_not_reported_as_success $.mustNotCall[1]: sidecar names tool "
        "'weather', which the agent does not have",
    ]
    # file:line:col is where the name is written.
    file, line, col = rot[0].split(": ", 1)[0].rsplit(":", 2)
    assert (
        evalset.read_text().splitlines()[int(line) - 1][int(col) - 1 :].startswith('"lookup_ordr"')
    )


def _shop_export(folder: Path) -> Path:
    """One escalated session whose order holds products a NER model takes
    for people and places, named again in the agent's reply."""
    from datetime import UTC, datetime, timedelta

    import pandas as pd

    from tools.pii_corpus import plugin_row

    items = [
        {"name": "Merino base layer top", "sku": "MB-104", "price": 64.0},
        {"name": "Ridgeline 38L backpack", "sku": "RL-38", "price": 129.0},
    ]
    reply = (
        "text: 'Your Merino base layer top and the Ridgeline 38L backpack shipped on "
        "Nov 10 with Evri, tracking EN856410142GB. Sorry Priya, I have passed this on.'"
    )
    events = [
        ("USER_MESSAGE_RECEIVED", {"text_summary": "I'm Priya Raman. Where is order ORD-48213?"}),
        ("TOOL_STARTING", {"tool": "lookup_order", "args": {"order_id": "ORD-48213"}}),
        ("TOOL_COMPLETED", {"tool": "lookup_order", "result": {"items": items, "carrier": "Evri",
                                                               "tracking": "EN856410142GB"}}),
        ("TOOL_STARTING", {"tool": "escalate", "args": {"reason": "late delivery"}}),
        ("TOOL_COMPLETED", {"tool": "escalate", "result": {"ticket": "T-1"}}),
        ("AGENT_RESPONSE", {"response": reply}),
    ]  # fmt: skip
    start = datetime(2026, 11, 24, 10, tzinfo=UTC)
    rows = [
        plugin_row("shop-1", n, start + timedelta(seconds=n), kind, "shop-1-t0", content,
                   {"channel": "web"}, span_id=f"s{(n + 1) // 3}" if "TOOL" in kind else None)
        for n, (kind, content) in enumerate(events)
    ]  # fmt: skip
    folder.mkdir()
    pd.DataFrame(rows).to_parquet(folder / "part.parquet", index=False)
    return folder


def test_check_agrees_with_the_draft_and_still_catches_a_pasted_name(tmp_path):
    export = _shop_export(tmp_path / "export")
    out = tmp_path / "drafts"
    window = ("--since", "2026-11-24T00:00:00+00:00", "--until", "2026-11-25T00:00:00+00:00")
    result = miner("draft", "--pipeline", PIPELINE, *window, "--traces", export, "--out", out)
    assert result.exit_code == 0, result.output
    [folder] = out.glob("draft_*")
    spec = load_json(next(folder.glob("*.spec.json")))
    decided = spec["provenance"]["redaction"]
    assert "merino base layer top" in decided["notPersonal"] and decided["vetted"]
    assert "Priya" not in next(folder.glob("*.evalset.json")).read_text()
    # An answer the reviewer only takes the marker off is the text the draft
    # vetted: listed, so the check does not guess again on it.
    evalset = next(folder.glob("*.evalset.json"))
    answer = load_json(evalset)["eval_cases"][0]["conversation"][0]["final_response"]
    body = answer["parts"][0]["text"].removeprefix("REVIEW: ")
    vetted = vetted_digest(body, known_values(spec))  # surfaced values blanked, as drafted
    assert body != answer["parts"][0]["text"] and vetted in decided["vetted"]
    # The reviewer rewrites every answer (so the check reads them afresh):
    # the products stay products, the draft's decision, not a new guess.
    scripted_review(
        folder, "late_order_escalated_with_its_products", ["policy", "p1"],
        forbiddenClaims=["shipped"],
    )  # fmt: skip

    # What the draft surfaced (a product's word the model reads as a name)
    # the reviewer keeps, by hand, in the sidecar.
    def keep(data):
        made = data["provenance"]["redaction"]
        made["kept"] += [s["value"] for s in made["surfaced"]]

    _edit(next(folder.glob("*.spec.json")), keep)

    def rewrite(data):
        part = data["eval_cases"][0]["conversation"][0]["final_response"]["parts"][0]
        part["text"] += " Thank you for waiting."

    _edit(evalset, rewrite)
    checked = _check(folder)
    assert checked.exit_code == 0, checked.output

    def paste(data):
        part = data["eval_cases"][0]["conversation"][0]["final_response"]["parts"][0]
        part["text"] += " I have asked Margaret Thornbury to call you back."

    _edit(evalset, paste)
    pasted = _check(folder)
    assert pasted.exit_code == 1
    assert "possible personal data (PERSON) that is not a fixture value" in pasted.output
    assert "Thornbury" not in pasted.output


def test_check_finds_no_personal_data_in_any_fresh_draft_of_the_sample(drafted, tmp_path):
    out, _ = drafted
    folders = copy_drafts(out, tmp_path / "drafts")
    result = _check(*folders)
    assert len(folders) >= 9
    assert "possible personal data" not in result.output, result.output


def _empty_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "cases"
    folder.mkdir()
    return folder


def _no_case_files(tmp_path: Path) -> Path:
    folder = tmp_path / "cases"
    (folder / "runs").mkdir(parents=True)
    (folder / "notes.json").write_text("{}")
    (folder / "runs" / "index.html").write_text("<p>runs</p>")
    return folder


def _empty_eval_set(tmp_path: Path) -> Path:
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "suite.evalset.json").write_text('{"eval_set_id": "suite", "eval_cases": []}')
    (folder / "suite.spec.json").write_text("[]")
    return folder


def _not_a_case_file(tmp_path: Path) -> Path:
    path = tmp_path / "coverage.csv"
    path.write_text("tool,happy_path\n")
    return path


GATES = {
    "check": lambda path, tmp: ["check", path],
    "review": lambda path, tmp: ["review", path],
    "promote": lambda path, tmp: ["promote", path, "--suite", tmp / "suite"],
    "coverage": lambda path, tmp: ["coverage", path, "--out", tmp / "matrix"],
    "score": lambda path, tmp: ["score", "--suite", path, "--traces", tmp / "runs"],
}


@pytest.mark.parametrize("command", sorted(GATES))
@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (_empty_folder, "no case file in this folder"),
        (_no_case_files, "no case file in this folder"),
        (_empty_eval_set, "no case in these case files"),
        (_not_a_case_file, "not a case file"),
    ],
)
def test_every_gate_refuses_a_path_that_holds_no_case(command, make, problem, tmp_path):
    # A mistyped or emptied folder must never pass a CI gate as "0 of 0".
    path = make(tmp_path)
    (tmp_path / "runs").mkdir()
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    result = miner(*GATES[command](path, tmp_path), "--pipeline", PIPELINE)
    assert result.exit_code == 3, result.output
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith(f"Error: {path}: {problem}"), line
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_a_second_path_that_holds_no_case_is_refused_too(reviewed, tmp_path):
    empty = _empty_folder(tmp_path)
    result = miner("check", reviewed, empty, "--pipeline", PIPELINE)
    assert result.exit_code == 3
    assert result.stderr.startswith(f"Error: {empty}: no case file in this folder")
