"""Values the redaction policy surfaced for the reviewer, from the consumer's
side: the draft records them, `miner review` (and `--json`) lists every
occurrence, `miner check` refuses the case until each is decided, by hand or
by `miner.redaction.surfaced.decide`, and a suite never holds them.

The sample's drafts surface nothing until the policy does, so the drafts
here come from a real `miner draft` of the sample whose redaction step is
wrapped to surface three words that occur in it, as the policy would return
them (``Redacted.surfaced``; the ``surfaced_drafts`` fixture in conftest);
everything after redaction is miner's own code.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from miner.case import CASE_SUFFIXES
from miner.jsontext import parse
from miner.redaction import surfaced as surfacing
from miner.sample import session_hash
from tests.conftest import PIPELINE, SURFACE, load_json, miner, scripted_review

REFUND = f"draft_{session_hash('s02-refund-returned-error')}"


@pytest.fixture
def drafts(surfaced_drafts: Path, tmp_path: Path) -> Path:
    """A fresh copy, for a test to edit."""
    return Path(shutil.copytree(surfaced_drafts, tmp_path / "drafts"))


def _files(folder: Path) -> tuple[Path, Path, Path]:
    """A draft's eval set, sidecar and tool fixtures."""
    evalset, spec, tools = (next(folder.glob(f"*{suffix}")) for suffix in CASE_SUFFIXES)
    return evalset, spec, tools


def _strings_outside_provenance(value: Any, top: bool = True) -> Iterator[str]:
    """Every string value of a file but a sidecar's provenance, walked here
    independently of miner's own walker."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, child in value.items():
            if not (top and key == "provenance"):
                yield from _strings_outside_provenance(child, top=False)
    elif isinstance(value, list):
        for child in value:
            yield from _strings_outside_provenance(child, top=False)


def _expected_spans(drafts: Path) -> dict[str, int]:
    """Occurrences of each surfaced word per file, counted independently."""
    counts: dict[str, int] = {}
    for path in sorted(drafts.glob("draft_*/*.json")):
        spec = load_json(next(path.parent.glob("*.spec.json")))
        listed = {s["value"] for s in spec["provenance"]["redaction"]["surfaced"]}
        for word in listed:
            n = sum(
                len(re.findall(rf"\b{word}\b", s))
                for s in _strings_outside_provenance(load_json(path))
            )
            if n:
                counts[f"{path}|{word}"] = n
    return counts


def _review_lines(*paths: Path) -> list[dict[str, Any]]:
    result = miner("review", "--json", *paths)
    assert result.exit_code == 1 and result.stderr == "", result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def _at(record: dict[str, Any]) -> str:
    """The characters a finding points at, read from the file on disk."""
    line = Path(record["file"]).read_text(encoding="utf-8").split("\n")[record["line"] - 1]
    return line[record["col"] - 1 : record["col"] - 1 + record["length"]]


def _check_json(*paths: Path) -> dict[str, Any]:
    return json.loads(miner("check", *paths, "--pipeline", PIPELINE, "--json").stdout)


def test_the_draft_records_what_redaction_surfaced_beside_an_empty_kept(surfaced_drafts):
    spec = load_json(_files(surfaced_drafts / REFUND)[1])
    redaction = spec["provenance"]["redaction"]
    assert redaction["surfaced"] == [{"entity": "PERSON", "value": "desk"}]
    assert redaction["kept"] == [] and redaction["vetted"]
    # Left as written: the draft's strings still hold it, in the user's turn.
    case = load_json(_files(surfaced_drafts / REFUND)[0])["eval_cases"][0]
    assert "the desk arrived broken" in case["conversation"][0]["user_content"]["parts"][0]["text"]


def test_check_on_a_fresh_draft_finds_exactly_the_spans_the_draft_surfaced(surfaced_drafts):
    report = _check_json(surfaced_drafts)
    found = [f for f in report["findings"] if f["kind"] == "personal-data"]
    # Nothing else is read as personal data: every string is the vetted one.
    assert not [f for f in report["findings"] if f["kind"] not in ("personal-data", "review")]
    counted: dict[str, int] = {}
    for finding in found:
        at = _at(finding)
        assert at in SURFACE and SURFACE[at] == finding["entity"], finding
        assert at not in finding["message"]  # the entity, never the text
        key = f"{finding['file']}|{at}"
        counted[key] = counted.get(key, 0) + 1
    expected = _expected_spans(surfaced_drafts)
    assert counted == expected
    assert sum(expected.values()) >= 3 and {k.split("|")[1] for k in expected} == set(SURFACE)


def test_review_lists_markers_and_surfaced_spans_with_a_count_and_no_error(surfaced_drafts):
    result = miner("review", surfaced_drafts / REFUND)
    assert result.exit_code == 1
    assert result.stderr == ""  # unfinished drafts are not an error
    spans = [line for line in result.output.splitlines() if line.endswith(", surfaced")]
    assert spans and all("possible PERSON, 4 characters" in line for line in spans)
    assert "desk" not in result.output
    listed = [line for line in result.output.splitlines() if line.startswith("  ")]
    markers = len(listed) - len(spans)
    assert markers == sum(p.read_text().count("REVIEW") for p in _files(surfaced_drafts / REFUND))
    assert f"{markers} REVIEW markers and {len(spans)} surfaced spans left in 1 cases" in (
        result.output
    )


def test_review_json_lines_point_at_each_value_on_disk(surfaced_drafts):
    lines = _review_lines(surfaced_drafts)
    assert {r["kind"] for r in lines} == {"review-marker", "personal-data"}
    for record in lines:
        base = {"file", "line", "col", "length", "kind", "case"}
        if record["kind"] == "personal-data":
            assert set(record) == base | {"entity"}
            assert _at(record) in SURFACE and record["entity"] == SURFACE[_at(record)]
        else:
            assert set(record) == base and _at(record) == "REVIEW"
        assert record["line"] >= 1 and record["col"] >= 1
    spans = [r for r in lines if r["kind"] == "personal-data"]
    assert len(spans) == sum(_expected_spans(surfaced_drafts).values())


def test_col_and_length_count_characters_after_non_ascii_text_and_escapes(drafts):
    folder = drafts / REFUND
    evalset_path, spec_path, tools_path = _files(folder)
    evalset = load_json(evalset_path)
    turn = evalset["eval_cases"][0]["conversation"][0]
    # Characters of two and three bytes, and one outside the BMP, before the
    # value on its line; and the same value after an escaped line break.
    turn["user_content"]["parts"][0]["text"] = "Grüße, Zoë — 🪑 the desk\nthen the desk again"
    evalset_path.write_text(json.dumps(evalset, indent=2, ensure_ascii=False) + "\n")
    tools = load_json(tools_path)
    tools["turnErrors"] = [{"invocationId": "t1", "messages": ["déjà vu: a desk"]}]
    tools_path.write_text(json.dumps(tools, indent=2, ensure_ascii=True) + "\n")  # é as \u00e9
    spans = [r for r in _review_lines(folder) if r["kind"] == "personal-data"]
    in_evalset = [r for r in spans if r["file"] == str(evalset_path)]
    assert len(in_evalset) == 2 and len({r["line"] for r in in_evalset}) == 1
    in_tools = [r for r in spans if r["file"] == str(tools_path) and r["line"] > 20]
    assert len(in_tools) == 1
    for record in spans:
        assert _at(record) == "desk" and record["length"] == 4
    line = evalset_path.read_text().split("\n")[in_evalset[0]["line"] - 1]
    assert line.index("desk") + 1 == in_evalset[0]["col"] and "Zoë" in line


def _replace_by_hand(folder: Path, value: str, placeholder: str) -> None:
    """What a reviewer does in an editor: the placeholder in place of every
    occurrence, outside the provenance (which they need not touch)."""
    for path in _files(folder):
        data = load_json(path)
        keep = data.pop("provenance", None) if isinstance(data, dict) else None
        text = re.sub(rf"\b{value}\b", placeholder, json.dumps(data, indent=2))
        data = json.loads(text)
        if keep is not None:
            data["provenance"] = keep
        path.write_text(json.dumps(data, indent=2) + "\n")


def _non_marker_findings(folder: Path) -> list[dict[str, Any]]:
    return [f for f in _check_json(folder)["findings"] if f["kind"] != "review"]


def test_a_value_replaced_by_hand_with_any_placeholder_is_decided_and_not_read_again(drafts):
    folder = drafts / REFUND
    assert [f["kind"] for f in _non_marker_findings(folder)] == ["personal-data"] * 2
    _replace_by_hand(folder, "desk", "<PERSON_7>")
    assert _non_marker_findings(folder) == []  # not asked twice, no NER guess on the edit
    assert all(r["kind"] == "review-marker" for r in _review_lines(folder))


def test_a_value_kept_by_hand_is_decided_and_a_pasted_value_is_still_caught(drafts):
    folder = drafts / REFUND
    spec_path = _files(folder)[1]
    spec = load_json(spec_path)
    spec["provenance"]["redaction"]["kept"].append("desk")
    spec_path.write_text(json.dumps(spec, indent=2) + "\n")
    assert _non_marker_findings(folder) == []
    # A value pasted later is read by the check, as any edit is.
    evalset_path = _files(folder)[0]
    evalset = load_json(evalset_path)
    part = evalset["eval_cases"][0]["conversation"][0]["user_content"]["parts"][0]
    part["text"] += " Please call my husband Robert Whitfield on 020 7946 0958."
    evalset_path.write_text(json.dumps(evalset, indent=2) + "\n")
    pasted = _non_marker_findings(folder)
    assert pasted and {f["kind"] for f in pasted} == {"pii"}


def test_decide_replaces_every_occurrence_with_the_next_free_placeholder(drafts):
    folder = drafts / REFUND
    values = tuple(load_json(p) for p in _files(folder))
    before = json.dumps(values)
    assert "<PERSON_1>" in before and "<PERSON_2>" not in before
    after = surfacing.decide(values, "desk", "replace")
    assert json.dumps(values) == before  # data in, data out
    text = json.dumps(after)
    assert not re.search(r"\bdesk\b", json.dumps([after[0], after[2]]))
    observed = json.dumps(after[1]["provenance"]["observed"])
    assert "<PERSON_2>" in text and "<PERSON_2>" in observed and "desk" not in observed
    assert after[1]["provenance"]["redaction"]["surfaced"] == []
    assert after[1]["provenance"]["redaction"]["kept"] == []
    assert surfacing.case_undecided(after) == ()
    kept = surfacing.decide(values, "desk", "keep")
    assert kept[1]["provenance"]["redaction"]["kept"] == ["desk"]
    assert kept[1]["provenance"]["redaction"]["surfaced"] == []
    assert kept[0] == values[0] and kept[2] == values[2]
    with pytest.raises(ValueError):
        surfacing.decide(values, "chair", "keep")


def test_vetted_digests_ignore_which_placeholder_took_the_value():
    values = ("desk",)
    drafted = surfacing.vetted_digest("the desk, <PERSON_1>", values)
    assert surfacing.vetted_digest("the <PERSON_9>, <PERSON_1>", values) == drafted
    assert surfacing.vetted_digest("the <LOCATION_2>, <PERSON_3>", values) == drafted
    assert surfacing.vetted_digest("the desks, <PERSON_1>", values) != drafted
    assert surfacing.vetted_digest("the Anna, <PERSON_1>", values) != drafted
    assert surfacing.occurrences("desk desks deskdesk a-desk", "desk") == [(0, 4), (22, 26)]


def test_occurrences_are_the_spans_of_the_word_boundary_pattern():
    # occurrences searches for the value's text and checks the character
    # before it by hand (fast on a long text); the spans are the pattern's,
    # overlapping candidates and all.
    import random

    rng = random.Random(36)
    for _ in range(5000):
        text = "".join(rng.choice("ab _-.é1") for _ in range(rng.randint(0, 30)))
        value = "".join(rng.choice("ab _-.é1") for _ in range(rng.randint(1, 4)))
        pattern = re.compile(rf"(?<!\w){re.escape(value)}(?!\w)")
        assert surfacing.occurrences(text, value) == [m.span() for m in pattern.finditer(text)]
    assert surfacing.occurrences("xa a a", "a a") == [(3, 6)]


def test_raw_span_counts_through_escapes():
    text = '{"a": "x\\n\\u00e9\\ud83e\\ude91 desk"}'
    doc = parse(text)
    [s] = [s for s in doc.strings if not s.is_key]
    start = s.value.index("desk")
    at, end = doc.raw_span(s, start, start + 4)
    assert text[at:end] == "desk"


def test_promote_refuses_an_undecided_case_and_the_suite_never_holds_the_value(drafts, tmp_path):
    folder = drafts / REFUND
    scripted_review(folder, "refund_failure_not_reported_as_success", ["tool_failure", "p0"])
    suite = tmp_path / "suite"
    refused = miner("promote", folder, "--suite", suite, "--pipeline", PIPELINE)
    assert refused.exit_code == 1
    assert "2 surfaced spans of possible personal data to decide" in refused.output
    assert not suite.exists() or not list(suite.glob("*.json"))
    _replace_by_hand(folder, "desk", "<PERSON_4>")
    assert miner("check", folder, "--pipeline", PIPELINE).exit_code == 0
    promoted = miner("promote", folder, "--suite", suite, "--pipeline", PIPELINE)
    assert promoted.exit_code == 0, promoted.output
    written = "".join(p.read_text() for p in suite.glob("*.json"))
    assert not re.search(r"\bdesk\b", written)  # the observed session's copy too
    [spec] = load_json(suite / "suite.spec.json")
    assert "surfaced" not in spec["provenance"]["redaction"]
    assert spec["provenance"]["redaction"]["kept"] == []
    assert miner("check", suite, "--pipeline", PIPELINE).exit_code == 0


def test_a_kept_value_stays_kept_in_the_suite(drafts, tmp_path):
    folder = drafts / REFUND
    scripted_review(folder, "refund_failure_not_reported_as_success", ["tool_failure", "p0"])
    spec_path = _files(folder)[1]
    spec = load_json(spec_path)
    spec["provenance"]["redaction"]["kept"] = ["desk"]
    spec_path.write_text(json.dumps(spec, indent=2) + "\n")
    suite = tmp_path / "suite"
    assert miner("promote", folder, "--suite", suite, "--pipeline", PIPELINE).exit_code == 0
    [spec] = load_json(suite / "suite.spec.json")
    assert spec["provenance"]["redaction"]["kept"] == ["desk"]
    assert "surfaced" not in spec["provenance"]["redaction"]


# The workbench (over HTTP here; tests/test_review_browser.py drives Chromium) ---

COMPLAINT = f"draft_{session_hash('s04-complaint')}"
TOKEN = "surfaced-token-0123456789"


@pytest.fixture
def bench(drafts: Path) -> Any:
    from starlette.testclient import TestClient

    from miner.config import load_config
    from miner.redaction.policy import policy_for
    from miner.webapp import Workbench, create_app
    from miner.workbench import Checker

    config = load_config(PIPELINE)
    policy = policy_for(config)
    work = Workbench(drafts, config, Checker(config, policy), drafts.parent / "suite", policy)
    app = create_app(work, TOKEN, ["127.0.0.1"])
    return TestClient(app, base_url="http://127.0.0.1")


def _digests(html: str) -> dict[str, str]:
    return dict(re.findall(r'name="(digest-\d)" value="([0-9a-f]+)"', html)[:3])


def test_the_case_page_marks_each_surfaced_value_and_offers_both_decisions(drafts, bench):
    page = bench.get(f"/{TOKEN}/case/{COMPLAINT}").text
    panel = page.split('<section id="surfaced">', 1)[1].split("</section>", 1)[0]
    offered = re.findall(
        r'<li class="to-decide" data-entity="(\w+)"><mark class="surfaced">(\w+)', panel
    )
    assert sorted(offered) == [("DATE_OF_BIRTH", "Monday"), ("PERSON", "carrier")]
    assert "replace with &lt;DATE_OF_BIRTH_1&gt;" in panel and panel.count("keep as written") == 2
    chat = page.split('<section id="chat">', 1)[1].split("</section>", 1)[0]
    assert 'title="surfaced: possible DATE_OF_BIRTH">Monday</mark>' in chat
    # A finding per occurrence, as `miner check` gives it.
    findings = page.split('id="findings"', 1)[1].split("</ul>", 1)[0]
    assert findings.count('data-kind="personal-data"') == sum(
        n for key, n in _expected_spans(drafts).items() if COMPLAINT in key
    )


def test_deciding_on_the_page_writes_the_files_check_reads(drafts, bench):
    url = f"/{TOKEN}/case/{COMPLAINT}"
    fields = {**_digests(bench.get(url).text), "value": "Monday", "verdict": "replace"}
    done = bench.post(f"{url}/surfaced", data=fields, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"].endswith(COMPLAINT)
    fields = {**_digests(bench.get(url).text), "value": "carrier", "verdict": "keep"}
    assert bench.post(f"{url}/surfaced", data=fields, follow_redirects=False).status_code == 303
    folder = drafts / COMPLAINT
    assert _non_marker_findings(folder) == []
    evalset, spec = (load_json(p) for p in _files(folder)[:2])
    assert "<DATE_OF_BIRTH_1>" in json.dumps(evalset) and "Monday" not in json.dumps(evalset)
    assert spec["provenance"]["redaction"]["kept"] == ["carrier"]
    assert spec["provenance"]["redaction"]["surfaced"] == []
    assert '<section id="surfaced">' not in bench.get(url).text


def test_a_decision_from_a_stale_page_writes_nothing(drafts, bench):
    url = f"/{TOKEN}/case/{COMPLAINT}"
    stale = _digests(bench.get(url).text)
    folder = drafts / COMPLAINT
    spec_path = _files(folder)[1]
    spec_path.write_text(spec_path.read_text() + "\n")  # a hand edit meanwhile
    before = {p: p.read_bytes() for p in _files(folder)}
    refused = bench.post(f"{url}/surfaced", data={**stale, "value": "Monday", "verdict": "keep"})
    assert refused.status_code == 409
    bogus = bench.post(
        f"{url}/surfaced", data={**_digests(bench.get(url).text), "value": "ORD", "verdict": "keep"}
    )
    assert bogus.status_code == 400
    assert {p: p.read_bytes() for p in _files(folder)} == before


def test_review_json_names_a_file_it_cannot_read_as_unreadable(drafts):
    folder = drafts / REFUND
    tools_path = _files(folder)[2]
    tools_path.write_text(tools_path.read_text()[:-10])  # a broken edit
    result = miner("review", "--json", folder)
    assert result.exit_code == 1 and result.stderr.startswith("Error: ")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    [broken] = [r for r in lines if r["kind"] == "unreadable" and r["problem"] == "json"]
    assert broken["file"] == str(tools_path) and broken["case"] == "-"
    assert broken["message"].startswith("invalid JSON") and broken["length"] == 0
    assert {r["kind"] for r in lines} <= {"review-marker", "personal-data", "unreadable"}


def _one_case(surfaced: list[str]) -> surfacing.CaseValues:
    """A minimal case whose sidecar lists ``surfaced`` as names."""
    evalset = {"text": "Ring Okonkwo, OKONKWO or okonkwo at Vale"}
    spec = {
        "name": "OKONKWO",
        "provenance": {
            "redaction": {
                "surfaced": [{"entity": "PERSON", "value": v} for v in surfaced],
                "kept": [],
            }
        },
    }
    return evalset, spec, {"result": "Okonkwo"}


def test_one_decision_covers_a_surfaced_value_and_its_other_casings():
    case = _one_case(["Okonkwo", "OKONKWO", "Vale"])
    replaced = surfacing.decide(case, "OKONKWO", "replace")
    # Both casings take one placeholder; a casing nobody surfaced stays as it is.
    assert replaced[0]["text"] == "Ring <PERSON_1>, <PERSON_1> or okonkwo at Vale"
    assert replaced[1]["name"] == "<PERSON_1>" and replaced[2] == {"result": "<PERSON_1>"}
    assert replaced[1]["provenance"]["redaction"]["surfaced"] == [
        {"entity": "PERSON", "value": "Vale"}
    ]
    kept = surfacing.decide(case, "Okonkwo", "keep")
    assert kept[1]["provenance"]["redaction"]["kept"] == ["Okonkwo", "OKONKWO"]
    assert [s.value for s in surfacing.case_undecided(kept)] == ["Vale"]
    # A value alone is decided alone.
    only = surfacing.decide(_one_case(["Okonkwo", "Vale"]), "Vale", "keep")
    assert [s.value for s in surfacing.case_undecided(only)] == ["Okonkwo"]
    found = [surfacing.Surfaced("PERSON", v) for v in ("BAKHSHI", "Bakhshi", "Bakhshis")]
    decision = surfacing.decisions(found)
    assert decision["BAKHSHI"] == decision["Bakhshi"] != decision["Bakhshis"]


def test_one_decision_covers_a_surfaced_value_and_its_parts_surfaced_alone():
    evalset = {"text": "Karin Beike wrote; Beike again, not Beikes"}
    spec = {
        "provenance": {
            "redaction": {
                "surfaced": [
                    {"entity": "PERSON", "value": "Karin Beike"},
                    {"entity": "PERSON", "value": "Beike", "partOf": "Karin Beike"},
                    {"entity": "PERSON", "value": "Beikes", "partOf": "Beike Holm"},
                ],
                "kept": [],
            }
        }
    }
    case = (evalset, spec, {})
    # A part of a value the case does not list is a decision of its own.
    assert len(set(surfacing.decisions(surfacing.surfaced_in(spec)).values())) == 2
    replaced = surfacing.decide(case, "Beike", "replace")
    assert replaced[0]["text"] == "<PERSON_1> wrote; <PERSON_1> again, not Beikes"
    kept = surfacing.decide(case, "Karin Beike", "keep")
    assert kept[1]["provenance"]["redaction"]["kept"] == ["Karin Beike", "Beike"]
    assert [s.value for s in surfacing.case_undecided(kept)] == ["Beikes"]
    # The sidecar writes the link only where there is one.
    assert surfacing.Surfaced("PERSON", "Beike", part_of="Karin Beike").as_json() == {
        "entity": "PERSON",
        "value": "Beike",
        "partOf": "Karin Beike",
    }
    assert surfacing.Surfaced("PERSON", "Beike").as_json() == {"entity": "PERSON", "value": "Beike"}


def test_the_sidecar_links_a_part_only_to_a_whole_it_lists_never_writing_a_replaced_one():
    # "Etg Q", a line of a block the case replaced, is surfaced where it is
    # written alone (``session._replaced_blocks_parts``): the block's text
    # is in the case as <STREET_ADDRESS_1>, and must not be in its sidecar.
    from miner.draft import record_redaction
    from miner.redaction.surfaced import Surfaced, decisions, surfaced_in

    block = "4312 Quorravej\\n??? Etg Q\\n??? Vestrup\\n??? 8190"
    surfaced = (
        Surfaced("STREET_ADDRESS", "Etg Q", "an address block's part alone", block),
        Surfaced("PERSON", "Karin Beike"),
        Surfaced("PERSON", "Beike", "a surfaced name's part alone", "Karin Beike"),
    )
    files: dict[str, Any] = {
        "c.evalset.json": {"text": "<STREET_ADDRESS_1>; Etg Q; Karin Beike; Beike"},
        "c.spec.json": {"provenance": {}},
    }
    record_redaction(files, (), surfaced)
    written = files["c.spec.json"]
    assert block not in json.dumps(written)
    assert written["provenance"]["redaction"]["surfaced"] == [
        {"entity": "STREET_ADDRESS", "value": "Etg Q"},
        {"entity": "PERSON", "value": "Karin Beike"},
        {"entity": "PERSON", "value": "Beike", "partOf": "Karin Beike"},
    ]
    # The reviewer's decisions are those the link to the replaced block made.
    assert decisions(surfaced_in(written)) == decisions(surfaced)


def test_a_surfaced_value_s_words_surfaced_alone_are_decided_with_it():
    # Two rules surfaced the same words, alone and with a neighbour (the
    # sweep's span ran over "songwriter"; an address block holds its town):
    # one decision, whose verdict covers the words written alone.
    from miner.redaction.surfaced import Surfaced, decisions

    found = decisions(
        [
            Surfaced("PERSON", "Zwack songwriter"),
            Surfaced("PERSON", "ZWACK"),
            Surfaced("STREET_ADDRESS", "806 Toom-Kuninga\\n Korter 62\\n Elva"),
            Surfaced("PERSON", "Elva"),
            Surfaced("PERSON", "Korter"),
            Surfaced("PHONE_NUMBER", "62"),
            Surfaced("PERSON", "Zwackson"),
        ]
    )
    assert found["ZWACK"] == found["Zwack songwriter"]
    assert found["Elva"] == found["Korter"] == found["806 Toom-Kuninga\\n Korter 62\\n Elva"]
    # Not a number alone, nor a word inside another word.
    assert len({found["62"], found["Zwackson"], found["Elva"], found["ZWACK"]}) == 4
    # Nor words two decisions hold: replacing them with one would cut the other.
    names = decisions([Surfaced("PERSON", v) for v in ("Anna", "Anna Keller", "Anna Smith")])
    assert len(set(names.values())) == 3
    # A value's two casings are one decision holding it.
    casings = decisions([Surfaced("PERSON", v) for v in ("Lopez", "Lopez's", "lopez's")])
    assert len(set(casings.values())) == 1
    evalset = {"text": "Zwack songwriter; ZWACK again; Zwackson"}
    spec = {
        "provenance": {
            "redaction": {
                "surfaced": [
                    {"entity": "PERSON", "value": "Zwack songwriter"},
                    {"entity": "PERSON", "value": "ZWACK"},
                ],
                "kept": [],
            }
        }
    }
    replaced = surfacing.decide((evalset, spec, {}), "Zwack songwriter", "replace")
    assert replaced[0]["text"] == "<PERSON_1>; <PERSON_1> again; Zwackson"
    assert surfacing.case_undecided(replaced) == ()


def test_a_value_s_casings_the_matchers_fold_together_are_one_decision():
    from miner.redaction.surfaced import Surfaced, decisions

    # "BIÇAKÇI".casefold() is "biçakçi", not "bıçakçı": one word all the same.
    found = decisions([Surfaced("PERSON", "bıçakçı"), Surfaced("PERSON", "BIÇAKÇI")])
    assert found["bıçakçı"] == found["BIÇAKÇI"]


def test_occurrences_are_the_word_boundary_pattern_s_matches():
    # occurrences finds each place by str.find and tests its edges; the
    # spans are those of _matcher's finditer, on values that start or end
    # with punctuation, overlap themselves, stand inside words, after an
    # escaped break or at either end of the text.
    import random

    from miner.redaction.surfaced import _matcher, occurrences

    rng = random.Random(7)
    alphabet = ["a", "b", "A", " ", "-", "+", "\\", "n", "é", "1", "_", ".", "\n"]
    values = ["a", "aa", "aba", "+1", "a-", "-a", "n", "\\n", "é", "a a", " ", "a.", "1"]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        for value in values:
            expected = [m.span() for m in _matcher(value).finditer(text)]
            assert occurrences(text, value) == expected, (text, value)
    assert occurrences("anything", "") == []
