"""The review workbench end to end in a real browser: Playwright drives
Debian's Chromium (installed by `make browser`, by its executable path;
nothing is downloaded) against a real `miner review --serve` process. A
drafted sample case goes from drafted to promoted without a JSON file being
opened; the promoted suite then passes `miner check`, replays and scores."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from miner.sample import session_hash
from tests.conftest import (
    PIPELINE,
    ROOT,
    WINDOW,
    copy_drafts,
    load_json,
    miner,
    start_workbench,
)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
FIXED_ANSWER = (
    "I could not issue the refund for ORD-10001: refunds above 200 need a human. "
    "A colleague will contact you."
)
HOSTILE = '<script>document.title="pwned"</script><img src=x onerror="document.title=\'img\'">'


@pytest.fixture
def served(drafted, tmp_path) -> Iterator[tuple[str, Path, Path, subprocess.Popen]]:
    out, _ = drafted
    drafts = tmp_path / "drafts"
    copy_drafts(out, drafts)
    shutil.copytree(out / "runs", drafts / "runs")
    suite = tmp_path / "suite"
    server, url = start_workbench(drafts, "--suite", suite)
    try:
        yield url, drafts, suite, server
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture
def page() -> Iterator[Page]:
    # Installed by `make test` (the browser target); missing, it fails here.
    assert Path(CHROMIUM).exists(), "chromium is not installed: `make browser` installs it"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser.new_page()
        finally:
            browser.close()


def _run(*args: str | Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "miner", *map(str, args), "--pipeline", str(PIPELINE)]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=600)


def _name(session: str) -> str:
    return f"draft_{session_hash(session)}"


def test_a_drafted_case_reviewed_and_promoted_in_the_browser(served, page, tmp_path):
    url, drafts, suite, server = served
    name = _name("s02-refund-returned-error")
    page.goto(url, timeout=120_000)  # the first queue runs the checks of every case
    rows = page.locator("#queue tr.case")
    count = rows.count()
    assert count == len(list(drafts.glob("draft_*"))) >= 8
    expect(page.locator(f'tr[data-name="{name}"] .status')).to_have_text("drafted")

    # The keyboard: j moves down the queue, Enter opens the current case.
    expect(rows.nth(0)).to_have_class("case current")
    page.keyboard.press("j")
    expect(rows.nth(1)).to_have_class("case current")
    second, third = (rows.nth(i).get_attribute("data-name") for i in (1, 2))
    page.keyboard.press("Enter")
    expect(page.locator("h1 .hint")).to_have_text(str(second))
    # On a case page, n and p go to the next and previous case of the queue.
    page.keyboard.press("n")
    expect(page.locator("h1 .hint")).to_have_text(str(third))
    page.keyboard.press("p")
    expect(page.locator("h1 .hint")).to_have_text(str(second))
    page.goto(f"{url}case/{name}")

    # The chat: the user, the tool calls with their results, the agent.
    chat = page.locator("#chat")
    expect(chat.locator(".bubble.user").first).to_contain_text("ORD-10001")
    expect(chat.locator(".call strong").first).to_have_text("lookup_order")
    expect(page.locator(".turn.flagged").first).to_contain_text("flagged: error")
    markers_before = int(page.locator("#finding-count").inner_text())
    assert markers_before >= 8

    page.fill("#eval_id", "refund_over_limit_is_not_reported_as_issued")
    page.fill("#description", "A refund over the limit is not reported as issued.")
    page.fill("#protects", "a refund the agent could not issue is never reported as issued")
    expect(page.locator("label[for=answer-0] .badge")).to_contain_text("prefilled")
    page.fill("#answer-0", FIXED_ANSWER)
    page.check("#reviewed-0")
    # requiredFacts by selecting text in the reference answer.
    start = FIXED_ANSWER.index("200")
    page.locator("#answer-0").evaluate(f"a => a.setSelectionRange({start}, {start + 3})")
    page.click("button.add-fact[data-answer=answer-0]")
    expect(page.locator("#required_facts")).to_have_value("200")
    page.check("#mustnotcall_decided")
    page.fill("#forbidden_claims", "has been issued")
    page.select_option("#failure_class", "tool_failure")
    page.select_option("#priority", "p0")
    page.click("#save")

    expect(page.locator("#notice")).to_have_text("Saved the three files.")
    expect(page.locator("#finding-count")).to_have_text("0")
    expect(page.locator("#findings li.none")).to_be_visible()
    expect(page.locator("#eval_id")).to_have_value("refund_over_limit_is_not_reported_as_issued")
    assert miner("check", drafts / name, "--pipeline", PIPELINE).exit_code == 0

    page.click("#promote")
    expect(page.locator("#outcome li.promoted")).to_have_text(
        "promoted refund_over_limit_is_not_reported_as_issued"
    )
    assert not (drafts / name).exists()
    page.goto(url)
    expect(page.locator(f'tr[data-name="{name}"] .status')).to_have_text("promoted")

    # The files on disk: the suite loads, replays and scores (in processes of
    # their own: Playwright's sync API holds this thread's event loop).
    assert miner("check", suite, "--pipeline", PIPELINE).exit_code == 0
    fixed = _run("replay", "--agent", "tests.replay_agent:fixed_agent", "--suite", suite,
                 "--out", tmp_path / "fixed", "--json")  # fmt: skip
    assert fixed.returncode == 0, fixed.stderr[-2000:]
    assert json.loads(fixed.stdout)["callsWithoutFixture"] == []
    scored = _run("score", "--suite", suite, "--traces", tmp_path / "fixed", "--json")
    assert scored.returncode == 0, scored.stdout[-2000:]
    assert json.loads(scored.stdout)["passRate"] == {"passed": 1, "total": 1}
    buggy = _run("replay", "--agent", "tests.replay_agent:buggy_agent", "--suite", suite,
                 "--out", tmp_path / "buggy")  # fmt: skip
    assert buggy.returncode == 0, buggy.stderr[-2000:]
    failing = _run("score", "--suite", suite, "--traces", tmp_path / "buggy")
    assert failing.returncode == 1 and "forbidden_claims" in failing.stdout

    server.terminate()
    _out, log = server.communicate(timeout=30)
    assert "miner review: save " in log and "miner review: promote: 1 promoted" in log
    assert "ORD-10001" not in log and "refund" not in log.lower() and url not in log


def test_markup_in_trace_text_renders_as_text_in_the_browser(served, page):
    url, drafts, _suite, _server = served
    name = _name("s04-complaint")
    folder = drafts / name
    [evalset_path] = folder.glob("*.evalset.json")
    [spec_path] = folder.glob("*.spec.json")
    evalset, spec = load_json(evalset_path), load_json(spec_path)
    turn = evalset["eval_cases"][0]["conversation"][0]
    turn["user_content"]["parts"][0]["text"] = HOSTILE
    turn["final_response"]["parts"][0]["text"] = f"REVIEW: {HOSTILE}"
    spec["provenance"]["observed"]["turns"][0]["user"] = HOSTILE
    spec["provenance"]["observed"]["turns"][0]["answer"] = HOSTILE
    evalset_path.write_text(json.dumps(evalset))
    spec_path.write_text(json.dumps(spec))
    for target in (url, f"{url}case/{name}"):
        page.goto(target, timeout=120_000)
        assert page.title().startswith("miner review")
        assert page.locator("main img").count() == 0
        assert page.locator("main script").count() == 0
    expect(page.locator("#chat .bubble.user").first).to_contain_text(HOSTILE)
    expect(page.locator("#answer-0")).to_have_value(HOSTILE)


def test_a_reviewer_stays_in_the_workbench_with_the_keyboard(served, page):
    url, drafts, suite, _server = served
    name = _name("s02-refund-returned-error")
    page.goto(url, timeout=120_000)
    # Nothing is ready: promoting is not offered. Tags are tags.
    expect(page.locator("#promote-ready")).to_be_disabled()
    tags = page.locator("select[name=tag] option").all_inner_texts()
    assert "lookup_order" in tags and not [t for t in tags if "REVIEW" in t]

    page.goto(f"{url}case/{name}")
    # issue_refund returned {"status": "error"}: marked failed; lookup_order is not.
    refund = page.locator(".call", has=page.locator("strong", has_text="issue_refund"))
    expect(refund).to_have_class("call failed")
    expect(refund.locator(".failure-mark")).to_have_text("failed: returned an error")
    lookup = page.locator(".call", has=page.locator("strong", has_text="lookup_order")).first
    expect(lookup).to_have_class("call")
    expect(page.locator("#keys")).to_contain_text("Ctrl+S")

    # What the score will check: the reference beside the observed answer.
    observed = page.locator("#chat .bubble.agent").last.inner_text().removeprefix("agent\n")
    expect(page.locator("#check-t1 .observed")).to_have_text(observed)
    page.fill("#eval_id", "refund_over_limit_is_not_reported_as_issued")
    page.fill("#description", "A refund over the limit is not reported as issued.")
    page.fill("#protects", "a refund the agent could not issue is never reported as issued")
    page.fill("#answer-0", FIXED_ANSWER)
    page.check("#reviewed-0")
    page.fill("#required_facts", "ORD-10001\nhuman")
    page.check("#mustnotcall_decided")
    page.select_option("#failure_class", "tool_failure")
    page.select_option("#priority", "p0")
    page.fill("#forbidden_claims", "has been issued")
    # Ctrl+S saves, the cursor still in a field.
    page.keyboard.press("Control+s")
    expect(page.locator("#notice")).to_have_text("Saved the three files.")
    expect(page.locator("#finding-count")).to_have_text("0")
    expect(page.locator("#check-t1 .reference")).to_have_text(FIXED_ANSWER)
    facts = page.locator("#check-t1 table.required tbody tr")
    expect(facts.nth(0)).to_contain_text("ORD-10001")
    expect(facts.nth(1).locator("td").nth(1)).to_have_text("found")
    human_in_observed = "human" in observed.lower()
    expect(facts.nth(1).locator("td").nth(2)).to_have_text(
        "found" if human_in_observed else "missing"
    )
    claim = page.locator("#check-t1 table.forbidden tbody tr").first
    expect(claim.locator("td").nth(1)).to_have_text("absent")
    expect(claim.locator("td").nth(2)).to_have_text("said")  # the bug this case catches
    expect(page.locator("#check-t1 li[data-check=forbidden_claims]")).to_have_class("fail")
    expect(page.locator("#checks-verdict")).to_contain_text("fails this case")
    expect(page.locator("#check-t1 .overlap strong")).not_to_have_text("1.000")

    # After a save, the next case is one key away.
    following = str(page.locator("#next").get_attribute("href")).split("/case/", 1)[1]
    page.keyboard.press("n")
    expect(page.locator("h1 .hint")).to_have_text(following.split("?", 1)[0])
    page.keyboard.press("q")
    expect(page.locator("#promote-ready")).to_be_enabled()

    # After a promote too.
    page.goto(f"{url}case/{name}")
    page.click("#promote")
    expect(page.locator("#outcome li.promoted")).to_have_count(1)
    page.keyboard.press("n")
    expect(page.locator("h1 .hint")).to_have_text(following.split("?", 1)[0])
    assert not (drafts / name).exists() and (suite / "suite.evalset.json").exists()


def test_a_refused_save_keeps_the_typed_form_and_a_discard_holds_next_week(served, page, tmp_path):
    url, drafts, _suite, _server = served
    name = _name("s02-refund-returned-error")
    [spec_path] = (drafts / name).glob("*.spec.json")
    page.goto(f"{url}case/{name}", timeout=120_000)
    page.fill("#eval_id", "typed_in_the_browser")
    page.fill("#answer-0", FIXED_ANSWER)
    # Meanwhile, a hand edit in an editor (text with markup: shown as text).
    hand = load_json(spec_path)
    hand["protects"] = f"edited by hand {HOSTILE}"
    spec_path.write_text(json.dumps(hand, indent=2) + "\n")
    page.keyboard.press("Control+s")
    expect(page.locator("#problem")).to_contain_text("changed on disk since the page was loaded")
    expect(page.locator("#eval_id")).to_have_value("typed_in_the_browser")
    expect(page.locator("#answer-0")).to_have_value(FIXED_ANSWER)
    expect(page.locator("#protects")).to_have_value(f"edited by hand {HOSTILE}")
    change = page.locator("#changes tr[data-decision=protects]")
    expect(change).to_have_attribute("data-kept", "disk")
    expect(change.locator("td").nth(2)).to_have_text(f"edited by hand {HOSTILE}")
    assert page.locator("main img").count() == 0 and page.locator("main script").count() == 0
    assert page.title().startswith("miner review")
    assert load_json(spec_path) == hand  # nothing written
    # Saving again writes the form: the typed values and the hand edit.
    page.keyboard.press("Control+s")
    expect(page.locator("#notice")).to_have_text("Saved the three files.")
    spec = load_json(spec_path)
    assert spec["evalId"] == "typed_in_the_browser"
    assert spec["protects"] == f"edited by hand {HOSTILE}"

    # Discard a draft not worth a case, with a reason.
    doomed = _name("s04-complaint")
    page.goto(f"{url}case/{doomed}")
    page.click("#discard-button")  # no reason: the browser asks for one
    assert (drafts / doomed).is_dir()
    page.fill("#discard-reason", "the customer was joking; nothing to protect")
    page.click("#discard-button")
    expect(page.locator("#notice")).to_contain_text("Discarded the draft")
    assert not (drafts / doomed).exists()
    ledger = load_json(drafts / "miner-ledger.json")
    hashed = session_hash("s04-complaint")
    assert ledger["discarded"][hashed]["reason"] == "the customer was joking; nothing to protect"

    # Next week's run over the same export drafts it again no more.
    runs_before = set((drafts / "runs").glob("*.json"))
    again = _run("draft", *WINDOW, "--out", drafts)
    assert again.returncode == 0, again.stderr[-2000:]
    assert not (drafts / doomed).exists()
    [summary] = set((drafts / "runs").glob("*.json")) - runs_before
    assert load_json(summary)["cases"] == []
    assert load_json(summary)["skipped_already_drafted"] >= 1
    assert load_json(drafts / "miner-ledger.json")["discarded"][hashed]["reason"].startswith(
        "the customer was joking"
    )


def test_surfaced_values_decided_each_way_in_the_browser_then_promoted(
    surfaced_drafts, page, tmp_path
):
    # A draft whose redaction surfaced "Monday" and "carrier" in this session
    # (tests/conftest.py: surfaced_drafts), reviewed with no JSON file opened.
    drafts = tmp_path / "drafts"
    copy_drafts(surfaced_drafts, drafts)
    suite = tmp_path / "suite"
    name = _name("s04-complaint")
    server, url = start_workbench(drafts, "--suite", suite)
    try:
        page.goto(f"{url}case/{name}", timeout=120_000)
        expect(page.locator("#surfaced-count")).to_have_text("2")
        # Highlighted in the chat and, through the field that holds it, in the form.
        expect(page.locator("#chat mark.surfaced", has_text="Monday")).to_have_count(1)
        expect(page.locator("#chat mark.surfaced", has_text="carrier")).to_have_count(1)
        expect(page.locator("#answer-0")).to_have_class(re.compile(r"\bholds-surfaced\b"))
        expect(page.locator("#answer-1")).to_have_class(re.compile(r"\bholds-surfaced\b"))
        expect(page.locator("#eval_id")).not_to_have_class(re.compile("holds-surfaced"))

        page.locator("li.to-decide[data-entity=DATE_OF_BIRTH] button.replace").click()
        expect(page.locator("#surfaced-count")).to_have_text("1")
        expect(page.locator("#answer-0")).to_have_value(re.compile(r"on <DATE_OF_BIRTH_1>\.$"))
        expect(page.locator("#chat mark.surfaced", has_text="Monday")).to_have_count(0)
        # Deciding reloads the page: not while the form holds unsaved edits.
        page.fill("#protects", "typed, not saved")
        expect(page.locator("li.to-decide[data-entity=PERSON] button.keep")).to_be_disabled()
        page.reload()
        page.locator("li.to-decide[data-entity=PERSON] button.keep").click()
        expect(page.locator("#surfaced")).to_have_count(0)
        expect(page.locator('#findings li[data-kind="personal-data"]')).to_have_count(0)
        expect(page.locator("#answer-1")).to_have_value(re.compile(r"\bcarrier\b"))

        page.fill("#eval_id", "missing_delivery_is_traced_not_denied")
        page.fill("#description", "A delivery the customer never got is traced, not denied.")
        page.fill("#protects", "a customer who got nothing is not told the order arrived")
        page.fill("#answer-0", "I am sorry it has not reached you: I am opening a trace.")
        page.check("#reviewed-0")
        page.fill("#answer-1", "The carrier will report on the trace within two days.")
        page.check("#reviewed-1")
        page.check("#mustnotcall_decided")
        page.fill("#required_facts", "trace")
        page.fill("#forbidden_claims", "was delivered on")
        page.select_option("#failure_class", "policy")
        page.select_option("#priority", "p1")
        page.click("#save")
        expect(page.locator("#notice")).to_have_text("Saved the three files.")
        expect(page.locator("#finding-count")).to_have_text("0")
        page.click("#promote")
        expect(page.locator("#outcome li.promoted")).to_have_text(
            "promoted missing_delivery_is_traced_not_denied"
        )
    finally:
        server.terminate()
        server.wait(timeout=30)

    assert miner("check", suite, "--pipeline", PIPELINE).exit_code == 0
    written = "".join(p.read_text() for p in suite.glob("*.json"))
    assert not re.search(r"\bMonday\b", written)  # replaced, the observed session too
    [spec] = load_json(suite / "suite.spec.json")
    assert spec["provenance"]["redaction"]["kept"] == ["carrier"]
    assert "surfaced" not in spec["provenance"]["redaction"]
