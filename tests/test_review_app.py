"""`miner review --serve`: the workbench app, driven over HTTP in-process
(Starlette's TestClient), its files checked on disk with the real loader."""

from __future__ import annotations

import html
import json
import logging
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from miner.config import load_config
from miner.errors import OutputError
from miner.redaction.policy import policy_for
from miner.sample import session_hash
from miner.webapp import Workbench, create_app
from miner.workbench import Checker
from tests.conftest import PIPELINE, copy_drafts, load_json, miner, start_workbench

TOKEN = "test-token-0123456789"
HOSTILE = '<script>document.title="pwned"</script><img src=x onerror="document.title=1">'


class Form(HTMLParser):
    """The fields a browser would post from a page's ``#decisions`` form."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.fields: list[tuple[str, str]] = []
        self._within = False
        self._textarea: str | None = None
        self._select: str | None = None
        self._options: list[tuple[str | None, bool]] = []
        self._text: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._within = a.get("id") == "decisions"
        if not self._within:
            return
        if tag == "input" and a.get("name"):
            if a.get("type") != "checkbox" or "checked" in a:
                self.fields.append((a["name"], a.get("value", "on")))
        elif tag == "textarea":
            self._textarea, self._text = a["name"], []
        elif tag == "select":
            self._select, self._options = a["name"], []
        elif tag == "option" and self._select:
            self._options.append((dict(attrs).get("value"), "selected" in a))
            self._text = []

    def handle_data(self, data: str) -> None:
        self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._within = False
        if tag == "textarea" and self._textarea:
            text = "".join(self._text)
            self.fields.append((self._textarea, text[1:] if text.startswith("\n") else text))
            self._textarea = None
        if tag == "option" and self._select and self._options[-1][0] is None:
            self._options[-1] = ("".join(self._text).strip(), self._options[-1][1])
        if tag == "select" and self._select:
            chosen = [v for v, s in self._options if s] or [v for v, _ in self._options[:1]]
            self.fields.append((self._select, (chosen[0] or "") if chosen else ""))
            self._select = None

    def with_values(self, **changes: str | list[str] | None) -> list[tuple[str, str]]:
        """The fields, some replaced (a list: one field per value; None: removed)."""
        out = [(k, v) for k, v in self.fields if k not in changes]
        for key, value in changes.items():
            if isinstance(value, list):
                out.extend((key, v) for v in value)
            elif value is not None:
                out.append((key, value))
        return out


@pytest.fixture
def bench(drafted, tmp_path):
    out, _ = drafted
    drafts = tmp_path / "drafts"
    copy_drafts(out, drafts)
    import shutil

    shutil.copytree(out / "runs", drafts / "runs")
    config = load_config(PIPELINE)
    policy = policy_for(config)
    work = Workbench(drafts, config, Checker(config, policy), tmp_path / "suite", policy)
    client = TestClient(
        create_app(work, TOKEN, ["127.0.0.1", "localhost"]), base_url="http://127.0.0.1"
    )
    return work, client


def _name(session: str) -> str:
    return f"draft_{session_hash(session)}"


def _url(path: str = "") -> str:
    return f"/{TOKEN}/{path}"


def _post(client: TestClient, path: str, fields: list[tuple[str, str]]):
    body = "&".join(f"{urllib.parse.quote_plus(k)}={urllib.parse.quote_plus(v)}" for k, v in fields)
    return client.post(
        _url(path),
        content=body,
        headers={"content-type": "application/x-www-form-urlencoded"},
        follow_redirects=True,
    )


def _case_texts(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.json"))}


def test_the_queue_lists_every_case_with_status_signals_and_markers(bench):
    work, client = bench
    page = client.get(_url())
    assert page.status_code == 200
    review = miner("review", work.drafts)
    for name in sorted(p.name for p in work.drafts.glob("draft_*")):
        assert f'data-name="{name}"' in page.text
        spec = load_json(next((work.drafts / name).glob("*.spec.json")))
        row = page.text.split(f'data-name="{name}"', 1)[1].split("</tr>", 1)[0]
        assert "drafted" in row
        assert ", ".join(spec["provenance"]["signals"]) in row
        eval_id = spec["evalId"]
        markers = int(review.output.split(f"{eval_id} (", 1)[1].split(" ", 1)[0])
        assert f'<td class="markers">{markers}</td>' in row
    # Filtering by signal keeps exactly the cases that signal flagged.
    errors = client.get(_url(), params={"signal": "error"}).text
    for folder in work.drafts.glob("draft_*"):
        spec = load_json(next(folder.glob("*.spec.json")))
        assert (f'data-name="{folder.name}"' in errors) == (
            "error" in spec["provenance"]["signals"]
        )


def test_requests_without_the_token_or_for_another_host_are_refused(bench):
    _work, client = bench
    assert client.get("/").status_code == 404
    assert client.get("/wrong-token/").status_code == 404
    assert client.get(f"/{TOKEN[:-1]}/").status_code == 404
    assert client.post("/promote").status_code == 404
    assert client.get(_url()).status_code == 200
    # DNS rebinding: a page on another name that resolves to 127.0.0.1.
    assert client.get(_url(), headers={"host": "evil.example"}).status_code == 400


def test_it_serves_only_files_inside_the_drafts_folder(bench, tmp_path):
    work, client = bench
    name = _name("s02-refund-returned-error")
    [spec] = (work.drafts / name).glob("*.spec.json")
    served = client.get(_url(f"files/{name}/{spec.name}"))
    assert served.status_code == 200 and served.text == spec.read_text()
    assert served.headers["content-type"].startswith("text/plain")
    secret = tmp_path / "secret.json"
    secret.write_text('{"not": "yours"}')
    (work.drafts / "link.json").symlink_to(secret)
    (work.drafts / "draft_link").symlink_to(tmp_path)
    for path in (
        "files/..%2Fsecret.json",
        "files/%2e%2e/secret.json",
        "files/link.json",
        f"files/{tmp_path}/secret.json",
        "case/%2e%2e",
        "case/draft_link",
        "case/..%2Fdrafts",
        "case/.hidden",
    ):
        response = client.get(_url(path))
        assert response.status_code == 404, path
        assert "not yours" not in response.text
    assert _post(client, "case/..%2Fsuite", []).status_code == 404
    assert not (tmp_path / "suite").exists()


def _hostile_case(work: Workbench) -> str:
    name = _name("s04-complaint")
    folder = work.drafts / name
    [evalset_path] = folder.glob("*.evalset.json")
    [spec_path] = folder.glob("*.spec.json")
    [tools_path] = folder.glob("*.tools.json")
    evalset, spec, tools = load_json(evalset_path), load_json(spec_path), load_json(tools_path)
    evalset["eval_cases"][0]["conversation"][0]["user_content"]["parts"][0]["text"] = HOSTILE
    spec["provenance"]["observed"]["turns"][0]["user"] = HOSTILE
    spec["provenance"]["observed"]["turns"][0]["answer"] = HOSTILE
    spec["provenance"]["signalReasons"][0]["rule"] = HOSTILE
    if tools["calls"]:
        tools["calls"][0]["result"] = {"note": HOSTILE}
    tools["turnErrors"] = [{"invocationId": "t1", "messages": [HOSTILE]}]
    for path, value in ((evalset_path, evalset), (spec_path, spec), (tools_path, tools)):
        path.write_text(json.dumps(value))
    return name


def test_trace_text_with_markup_is_escaped_and_scripts_are_forbidden(bench):
    work, client = bench
    name = _hostile_case(work)
    for page in (client.get(_url()), client.get(_url(f"case/{name}"))):
        assert page.status_code == 200
        assert "<script>document" not in page.text and "<img src=x" not in page.text
        assert "&lt;script&gt;document.title=" in page.text
        policy = page.headers["content-security-policy"]
        assert "default-src 'none'" in policy and "script-src 'nonce-" in policy
        assert "'unsafe-inline'" not in policy
        nonce = policy.split("script-src 'nonce-", 1)[1].split("'", 1)[0]
        # Every script on the page is the page's own.
        assert page.text.count("<script") == page.text.count(f'<script nonce="{nonce}">')


def test_saving_the_form_unchanged_writes_the_files_byte_for_byte(bench):
    work, client = bench
    name = _name("s02-refund-returned-error")
    before = _case_texts(work.drafts / name)
    page = client.get(_url(f"case/{name}"))
    saved = _post(client, f"case/{name}", Form(page.text).fields)
    assert saved.status_code == 200 and "Saved the three files" in saved.text
    assert _case_texts(work.drafts / name) == before


def test_a_malformed_argument_rule_key_is_a_400_and_writes_nothing(bench):
    work, client = bench
    name = _name("s02-refund-returned-error")
    before = _case_texts(work.drafts / name)
    page = client.get(_url(f"case/{name}"))
    fields = [(k, v) for k, v in Form(page.text).fields if not k.startswith("rulekey-")]
    saved = _post(client, f"case/{name}", [*fields, ("rulekey-0", "{not json")])
    assert saved.status_code == 400
    assert "rulekey-0" in saved.text
    assert _case_texts(work.drafts / name) == before


def _reviewed_fields(page: str, eval_id: str) -> list[tuple[str, str]]:
    form = Form(page)
    turns = sum(1 for k, _v in form.fields if k.startswith("answer-"))
    return form.with_values(
        eval_id=eval_id,
        description="The agent reports a failed refund instead of claiming success.",
        protects="a refund the gateway declined is reported as not done",
        **{f"answer-{i}": f"Sorry, the refund for ORD-10001 did not go through ({i})."
           for i in range(turns)},
        **{f"reviewed-{i}": "on" for i in range(turns)},
        mustnotcall=["escalate"],
        required_facts="ORD-10001",
        forbidden_claims="has been refunded\nhas been issued",
        failure_class="tool_failure",
        priority="p0",
    )  # fmt: skip


def test_a_reviewed_form_renames_the_case_in_all_three_files_and_passes_check(bench):
    work, client = bench
    name = _name("s02-refund-returned-error")
    folder = work.drafts / name
    page = client.get(_url(f"case/{name}"))
    assert 'id="finding-count">0<' not in page.text
    saved = _post(client, f"case/{name}", _reviewed_fields(page.text, "refund_declined_reported"))
    assert saved.status_code == 200
    assert 'id="finding-count">0<' in saved.text
    evalset = load_json(next(folder.glob("*.evalset.json")))
    spec = load_json(next(folder.glob("*.spec.json")))
    tools = load_json(next(folder.glob("*.tools.json")))
    assert evalset["eval_cases"][0]["eval_id"] == spec["evalId"] == tools["evalId"]
    assert spec["evalId"] == "refund_declined_reported"
    assert spec["mustNotCall"] == ["escalate"]
    assert spec["requiredFacts"] == ["ORD-10001"]
    assert spec["forbiddenClaims"] == ["has been refunded", "has been issued"]
    assert spec["tags"][-2:] == ["tool_failure", "p0"]
    assert "provenance" in spec  # kept, as drafted
    # Today's formats: what the draft wrote, key order included.
    for path in folder.glob("*.json"):
        text = path.read_text()
        assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"
    assert list(spec) == [
        "evalId", "protects", "match", "argRules", "mustNotCall", "requiredFacts",
        "forbiddenClaims", "tags", "provenance",
    ]  # fmt: skip
    check = miner("check", folder, "--pipeline", PIPELINE)
    assert check.exit_code == 0, check.output


def test_the_page_shows_the_same_findings_as_check_frozen_bug_guard_included(bench):
    work, client = bench
    name = _name("s02-refund-returned-error")
    folder = work.drafts / name
    page = client.get(_url(f"case/{name}"))
    form = Form(page.text)
    # Reviewed, but the reference answers are what the agent said: the bug frozen.
    fields = _reviewed_fields(page.text, "refund_frozen")
    observed = [v for k, v in form.fields if k.startswith("answer-")]
    fields = [
        (k, observed[int(k.split("-")[1])] if k.startswith("answer-") else v) for k, v in fields
    ]
    fields = [(k, "") if k in ("required_facts", "forbidden_claims") else (k, v) for k, v in fields]
    saved = _post(client, f"case/{name}", fields)
    check = json.loads(miner("check", folder, "--pipeline", PIPELINE, "--json").stdout)
    assert [f["kind"] for f in check["findings"]] == ["frozen"]
    shown = saved.text.split('id="findings">', 1)[1].split("</ul>", 1)[0]
    for finding in check["findings"]:
        place = f"{Path(finding['file']).name}:{finding['line']}:{finding['col']}"
        assert place in shown and finding["message"].split(" (", 1)[0] in shown
    assert shown.count('<li data-kind="') == len(check["findings"])
    # Opting out with a reason clears it.
    page = Form(saved.text).with_values(
        flagged_but_fine="on", flagged_but_fine_reason="the agent was right to refuse"
    )
    cleared = _post(client, f"case/{name}", page)
    assert 'id="finding-count">0<' in cleared.text
    assert miner("check", folder, "--pipeline", PIPELINE).exit_code == 0


def test_a_file_changed_on_disk_since_the_page_loaded_is_never_overwritten(bench):
    work, client = bench
    name = _name("s02-refund-returned-error")
    [spec_path] = (work.drafts / name).glob("*.spec.json")
    page = client.get(_url(f"case/{name}"))
    hand = load_json(spec_path)
    hand["protects"] = "edited by hand in an editor"
    spec_path.write_text(json.dumps(hand, indent=2) + "\n")
    hand_text = spec_path.read_bytes()
    others = {p: p.read_bytes() for p in (work.drafts / name).glob("*.json") if p != spec_path}
    refused = _post(client, f"case/{name}", _reviewed_fields(page.text, "from_the_page"))
    assert refused.status_code == 409
    assert f"{spec_path.name}: changed on disk since the page was loaded" in refused.text
    assert spec_path.read_bytes() == hand_text
    assert all(p.read_bytes() == data for p, data in others.items())
    # The form keeps what was typed, and lists the decision the disk changed:
    # both sides changed `protects`, so the typed one stays in the form.
    kept = Form(refused.text).fields
    assert ("eval_id", "from_the_page") in kept
    assert ("protects", "a refund the gateway declined is reported as not done") in kept
    changes = refused.text.split('id="changes"', 1)[1].split("</table>", 1)[0]
    assert changes.count("<tr data-decision=") == 1
    assert 'data-decision="protects" data-kept="yours"' in changes
    assert "edited by hand in an editor" in changes
    # The hand edit shows on reload, and a save from the reloaded page goes through.
    again = client.get(_url(f"case/{name}"))
    assert 'value="edited by hand in an editor"' in again.text
    assert _post(client, f"case/{name}", Form(again.text).fields).status_code == 200


def test_a_case_file_broken_by_hand_is_shown_and_never_written_over(bench):
    work, client = bench
    name = _name("s02-refund-returned-error")
    [evalset_path] = (work.drafts / name).glob("*.evalset.json")
    evalset_path.write_text('{"eval_set_id": "x", ')  # an editor saved half a file
    page = client.get(_url(f"case/{name}"))
    assert page.status_code == 200 and '<li data-kind="json">' in page.text
    before = _case_texts(work.drafts / name)
    refused = _post(client, f"case/{name}", _reviewed_fields(page.text, "from_the_page"))
    assert refused.status_code == 400 and "not a JSON object" in refused.text
    assert _case_texts(work.drafts / name) == before
    row = client.get(_url()).text.split(f'data-name="{name}"', 1)[1].split("</tr>", 1)[0]
    assert "status-refused" in row and "invalid JSON" in row


def test_promote_from_the_page_summarises_refusals_one_line_per_case(bench):
    work, client = bench
    name = _name("s02-refund-returned-error")
    page = client.get(_url(f"case/{name}"))
    _post(client, f"case/{name}", _reviewed_fields(page.text, "refund_declined_reported"))
    queue = client.get(_url()).text
    assert 'status-ready">ready' in queue.split(f'data-name="{name}"', 1)[1].split("</tr>", 1)[0]
    done = _post(client, "promote", [])
    assert done.status_code == 200
    assert done.text.count('<li class="promoted">') == 1
    refused = done.text.count('<li class="refused">')
    assert refused == len(list(work.drafts.glob("draft_*"))) >= 8
    assert "REVIEW markers left" in done.text and ".json:" not in done.text
    assert not (work.drafts / name).exists()
    suite = load_json(work.suite / "suite.evalset.json")  # type: ignore[operator]
    assert [c["eval_id"] for c in suite["eval_cases"]] == ["refund_declined_reported"]
    assert miner("check", work.suite, "--pipeline", PIPELINE).exit_code == 0
    # The queue shows it as promoted.
    row = client.get(_url()).text.split(f'data-name="{name}"', 1)[1].split("</tr>", 1)[0]
    assert 'status-promoted">promoted' in row and "refund_declined_reported" in row


def test_its_logs_hold_no_trace_text_and_no_form_value(bench, caplog):
    work, client = bench
    caplog.set_level(logging.DEBUG)
    name = _hostile_case(work)
    client.get(_url())
    page = client.get(_url(f"case/{name}"))
    secret = "Ada Lovelace at 12 Crescent Road"
    fields = Form(page.text).with_values(protects=secret, eval_id=secret)
    _post(client, f"case/{name}", fields)
    client.get(_url("files/nothing%20here"))
    logged = "\n".join(
        r.getMessage()
        for r in caplog.records
        if r.name.startswith(("miner", "uvicorn", "starlette"))
    )
    assert "save" in logged and "queue" in logged
    for value in (secret, "document.title", "ORD-10001", "nothing here", TOKEN):
        assert value not in logged


def test_serve_binds_loopback_prints_its_url_and_refuses_without_token(drafted, tmp_path):
    out, _ = drafted
    drafts = tmp_path / "drafts"
    copy_drafts(out, drafts, count=2)
    server, url = start_workbench(drafts)
    try:
        host_port = url.split("/")[2]
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url, timeout=30) as response:
                    assert response.status == 200
                    assert "Drafted cases" in response.read().decode()
                break
            except (urllib.error.URLError, ConnectionError):
                assert time.monotonic() < deadline
                time.sleep(0.2)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://{host_port}/", timeout=30)
        assert refused.value.code == 404
        listening = subprocess.run(["ss", "-ltnH"], capture_output=True, text=True).stdout
        port = host_port.rsplit(":", 1)[1]
        assert f"127.0.0.1:{port} " in listening and f"0.0.0.0:{port} " not in listening
    finally:
        server.terminate()
        _out, err = server.communicate(timeout=30)
    assert "Has ORD" not in err and "Refund" not in err


def test_serve_on_a_missing_folder_names_it_before_asking_for_a_config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no miner.toml here: the folder is reported first
    missing = tmp_path / "nope"
    result = miner("review", "--serve", missing)
    assert result.exit_code == 3
    assert result.output.strip() == f"Error: {missing}: no such folder"


def test_a_save_refused_for_a_hand_edit_takes_the_edit_into_what_was_not_typed(bench):
    work, client = bench
    name = _name("s02-refund-returned-error")
    [spec_path] = (work.drafts / name).glob("*.spec.json")
    page = client.get(_url(f"case/{name}"))
    hand = load_json(spec_path)
    hand["protects"] = "edited by hand"
    hand["forbiddenClaims"] = ["refund issued"]
    spec_path.write_text(json.dumps(hand, indent=2) + "\n")
    typed = Form(page.text).with_values(eval_id="typed_on_the_page", failure_class="policy")
    refused = _post(client, f"case/{name}", typed)
    assert refused.status_code == 409
    form = Form(refused.text).fields
    # Typed: kept. Untouched on the page, changed on disk: the disk's, listed.
    assert ("eval_id", "typed_on_the_page") in form and ("failure_class", "policy") in form
    assert ("protects", "edited by hand") in form
    assert ("forbidden_claims", "refund issued") in form
    changes = refused.text.split('id="changes"', 1)[1].split("</table>", 1)[0]
    for decision in ("protects", "forbidden claims"):
        assert f'data-decision="{decision}" data-kept="disk"' in changes
    # Saving the page again writes both: the hand edit is not lost.
    saved = _post(client, f"case/{name}", form)
    assert saved.status_code == 200 and "Saved the three files" in saved.text
    spec = load_json(spec_path)
    assert spec["evalId"] == "typed_on_the_page" and "policy" in spec["tags"]
    assert spec["protects"] == "edited by hand" and spec["forbiddenClaims"] == ["refund issued"]


def test_a_tool_that_returned_a_failure_is_marked_in_the_chat(bench):
    work, client = bench
    name = _name("s02-refund-returned-error")
    page = client.get(_url(f"case/{name}")).text
    chat = page.split('<section id="chat">', 1)[1].split("</section>", 1)[0]
    calls = chat.split('<div class="call')[1:]
    by_tool = {c.split("<strong>", 1)[1].split("</strong>", 1)[0]: c for c in calls}
    # issue_refund returned {"status": "error", ...}: ADK logged it as a success.
    assert by_tool["issue_refund"].startswith(' failed"')
    assert "failed: returned an error" in by_tool["issue_refund"]
    # lookup_order returned {"status": "shipped"}: not a failure.
    assert (
        by_tool["lookup_order"].startswith('">') and "failure-mark" not in by_tool["lookup_order"]
    )
    # A raised error (TOOL_ERROR) and an `error` key are marked too.
    [tools_path] = (work.drafts / name).glob("*.tools.json")
    tools = load_json(tools_path)
    tools["calls"][0]["result"] = {"error": "gateway timeout"}
    tools["calls"][1].pop("result")
    tools["calls"][1]["error"] = "ConnectionError: refused"
    tools_path.write_text(json.dumps(tools, indent=2))
    chat = client.get(_url(f"case/{name}")).text.split('<section id="chat">', 1)[1]
    assert "failed: returned an error" in chat and "failed: raised an error" in chat
    assert chat.count('<div class="call failed">') == 2


def test_the_promote_button_is_disabled_with_nothing_ready(bench):
    work, client = bench
    queue = client.get(_url()).text
    assert '<button type="submit" id="promote-ready" disabled>' in queue
    name = _name("s02-refund-returned-error")
    page = client.get(_url(f"case/{name}"))
    _post(client, f"case/{name}", _reviewed_fields(page.text, "refund_declined_reported"))
    queue = client.get(_url()).text
    assert '<button type="submit" id="promote-ready">' in queue


def test_the_tag_filter_lists_tags_not_the_review_sentence(bench):
    work, client = bench
    queue = client.get(_url()).text
    tags = queue.split('<select name="tag">', 1)[1].split("</select>", 1)[0]
    options = [o.split("</option>", 1)[0] for o in tags.split("<option>")[1:]]
    drafted = {t for f in work.drafts.glob("draft_*/*.spec.json") for t in load_json(f)["tags"]}
    assert any(t.startswith("REVIEW") for t in drafted)  # the drafts do carry it
    assert options == sorted(t for t in drafted if not t.startswith("REVIEW"))
    assert "lookup_order" in options


def test_the_page_shows_what_the_score_will_check_on_the_flagged_session(bench):
    work, client = bench
    name = _name("s02-refund-returned-error")
    page = client.get(_url(f"case/{name}"))
    # As drafted, the reference is what the agent said: the page says so.
    drafted = page.text.split('id="checks-verdict"', 1)[1].split("</p>", 1)[0]
    assert "passes this case: as drafted, the reference is what the agent said" in drafted
    fields = _reviewed_fields(page.text, "refund_declined_reported")
    saved = _post(client, f"case/{name}", fields).text
    checks = saved.split('<section id="checks">', 1)[1].split("</section>", 1)[0]
    spec = load_json(next((work.drafts / name).glob("*.spec.json")))
    observed = spec["provenance"]["observed"]["turns"][-1]["answer"]
    from miner.score import rouge1_f

    reference = "Sorry, the refund for ORD-10001 did not go through (0)."
    assert html.escape(reference, quote=False) in checks
    assert html.escape(observed, quote=False) in checks
    assert f"<strong>{rouge1_f(observed, reference):.3f}</strong>" in checks
    # Each required fact and forbidden claim, found or not, in both answers,
    # as the score's own fact check finds them.
    required = checks.split('class="facts required"', 1)[1].split("</table>", 1)[0]
    assert '<td><code>ORD-10001</code></td>\n<td class="found">found</td>' in required
    forbidden = checks.split('class="facts forbidden"', 1)[1].split("</table>", 1)[0]
    for claim in ("has been refunded", "has been issued"):
        said = claim in observed.lower()
        assert (
            f'<td><code>{claim}</code></td>\n<td class="absent">absent</td>\n'
            f'<td class="{"said" if said else "absent"}">'
        ) in forbidden
    # And the verdict: what the frozen-bug guard decides.
    check = miner("check", work.drafts / name, "--pipeline", PIPELINE)
    verdict = checks.split('id="checks-verdict"', 1)[1].split("</p>", 1)[0]
    assert ("fails this case" in verdict) == (check.exit_code == 0)


def test_discarding_a_draft_needs_a_reason_and_records_it_in_the_ledger(bench):
    work, client = bench
    name = _name("s04-complaint")
    folder = work.drafts / name
    before = _case_texts(folder)
    page = client.get(_url(f"case/{name}")).text
    digests = [(k, v) for k, v in Form(page).fields if k.startswith("digest-")]
    refused = _post(client, f"case/{name}/discard", [*digests, ("reason", "  ")])
    assert refused.status_code == 400 and "say why" in refused.text
    assert _case_texts(folder) == before
    # A file changed since the page loaded: nothing discarded.
    [spec_path] = folder.glob("*.spec.json")
    spec_path.write_text(spec_path.read_text().replace("REVIEW: one", "REVIEW: 1"))
    stale = _post(client, f"case/{name}/discard", [*digests, ("reason", "not a bug")])
    assert stale.status_code == 409 and folder.is_dir()
    page = client.get(_url(f"case/{name}")).text
    digests = [(k, v) for k, v in Form(page).fields if k.startswith("digest-")]
    done = _post(client, f"case/{name}/discard", [*digests, ("reason", HOSTILE)])
    assert done.status_code == 200 and "Discarded the draft" in done.text
    assert not folder.exists()
    assert not [p for p in work.drafts.iterdir() if p.name.startswith(".miner-staging")]
    ledger = load_json(work.drafts / "miner-ledger.json")
    entry = ledger["discarded"][session_hash("s04-complaint")]
    assert entry["reason"] == HOSTILE and entry["at"].endswith("+00:00")
    assert session_hash("s04-complaint") in ledger["sessions"]
    assert f'data-name="{name}"' not in client.get(_url()).text


def test_a_discard_cut_short_leaves_the_case_whole_or_gone(bench, monkeypatch):
    from miner import output

    work, _client = bench
    folder = work.drafts / _name("s04-complaint")
    before = _case_texts(folder)

    def crash(*args):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patched:
        patched.setattr(output.os, "rename", crash)
        with pytest.raises(OutputError):
            output.discard_draft(work.drafts, folder, session_hash("s04-complaint"), "dup")
    assert _case_texts(folder) == before  # recorded, not removed: discarding again finishes
    assert (
        session_hash("s04-complaint") in load_json(work.drafts / "miner-ledger.json")["discarded"]
    )
    # Killed while removing: only a staging folder is left, which no reader
    # takes for a case and the next draft run clears.
    staged = work.drafts / f".miner-staging-discarded-{folder.name}"
    folder.rename(staged)
    assert all(".miner-staging" not in str(p) for p, _t in output.read_case_files([work.drafts]))
    assert output.remove_stale_staging(work.drafts) == 1 and not staged.exists()


def test_a_sidecar_broken_by_hand_still_shows_its_page_and_findings(bench):
    work, client = bench
    name = _name("s02-refund-returned-error")
    [spec_path] = (work.drafts / name).glob("*.spec.json")
    spec = load_json(spec_path)
    spec.update(argRules=["lookup_order"], requiredFacts="ORD-10001", match="SOMETIMES")
    spec["provenance"]["observed"]["turns"][0]["toolUses"] = [{"args": 3}, "lookup_order"]
    spec_path.write_text(json.dumps(spec, indent=2))
    page = client.get(_url(f"case/{name}"))
    assert page.status_code == 200
    assert '<li data-kind="' in page.text and 'id="checks"' in page.text
