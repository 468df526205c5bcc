"""The triage page each draft run writes, opened in a real headless Chromium."""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

from miner.report import triage_html
from miner.summary import RunSummary, SignatureGroup
from tests.conftest import PIPELINE, WINDOW, miner

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class _Rows(HTMLParser):
    """Table rows by class, and the text of each, from the DOM Chromium built."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, list[str]] = {}
        self._current: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "tr" and dict(attrs).get("class"):
            self._current, self._text = dict(attrs)["class"], []

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr" and self._current:
            self.rows.setdefault(self._current, []).append(" ".join(self._text))
            self._current = None

    def handle_data(self, data: str) -> None:
        if self._current and data.strip():
            self._text.append(data.strip())


def _rendered(page: Path, tmp_path: Path) -> str:
    # Installed by `make test` (the browser target); a missing browser is a
    # failure here, never a skip.
    assert CHROMIUM, "chromium is not installed: `make test` installs it (make browser)"
    done = subprocess.run(
        [
            CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            f"--user-data-dir={tmp_path / 'chromium'}", "--dump-dom", page.as_uri(),
        ],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-1000:]
    return done.stdout


def test_each_run_writes_a_triage_page_that_renders_its_groups(drafted, tmp_path):
    out, _ = drafted
    [summary_file] = (out / "runs").glob("*.json")
    [page] = (out / "runs").glob("2*.html")  # beside runs/index.html
    assert page.stem == summary_file.stem
    summary = json.loads(summary_file.read_text())
    dom = _rendered(page, tmp_path)
    rows = _Rows()
    rows.feed(dom)
    signatures = rows.rows["signature"]
    assert len(signatures) == len(summary["signatures"]) >= 5
    for group, row in zip(summary["signatures"], signatures, strict=True):
        assert row.startswith(group["signature"])
        counts = row[len(group["signature"]) :].split()[:2]
        assert counts == [str(group["sessions"]), str(group["drafted"])]
    assert [r.split()[0] for r in rows.rows["signal"]] == list(summary["flagged"])
    assert len(rows.rows["case"]) == summary["sampled"]


def test_the_page_escapes_what_it_shows(tmp_path):
    summary = RunSummary(
        flagged={"error": 1},
        signatures=(SignatureGroup("<script>alert(1)</script>", "0" * 16, 1, 0),),
    )
    page = tmp_path / "page.html"
    page.write_text(triage_html(summary))
    dom = _rendered(page, tmp_path)
    assert "<script>alert(1)</script>" not in dom
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom


def test_a_warning_is_shown(tmp_path):
    warning = "no sessions start in the window"
    page = tmp_path / "page.html"
    page.write_text(triage_html(RunSummary(warning=warning)))
    assert warning in _rendered(page, tmp_path)


class _Links(HTMLParser):
    """Every link's href."""

    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "a" and dict(attrs).get("href"):
            self.hrefs.append(dict(attrs)["href"])


def test_the_page_links_each_drafted_case_to_its_files_and_says_why(drafted, tmp_path):
    out, _ = drafted
    [page] = (out / "runs").glob("2*.html")
    summary = json.loads(page.with_suffix(".json").read_text())
    dom = _rendered(page, tmp_path)
    links = _Links()
    links.feed(dom)
    targets = {(page.parent / h).resolve() for h in links.hrefs if not h.startswith("#")}
    for name in summary["cases"]:
        for suffix in (".evalset.json", ".spec.json", ".tools.json"):
            assert (out / name / f"{name}{suffix}").resolve() in targets
    rows = _Rows()
    rows.feed(dom)
    assert len(rows.rows["case"]) == len(summary["cases"])
    for name, row in zip(sorted(summary["cases"]), rows.rows["case"], strict=True):
        spec = json.loads((out / name / f"{name}.spec.json").read_text())
        evalset = json.loads((out / name / f"{name}.evalset.json").read_text())
        first = evalset["eval_cases"][0]["conversation"][0]["user_content"]["parts"][0]["text"]
        assert row.startswith(name)
        assert ", ".join(spec["provenance"]["signals"]) in row
        for reason in spec["provenance"]["signalReasons"]:
            assert f"{reason['signal']}: {reason['rule']}" in row
        assert " ".join(first.split())[:60] in row
        signature = summary["case_signatures"][name]
        [group] = [g for g in summary["signatures"] if g["hash"] == signature]
        assert group["signature"] in row
    # From a signature to its cases: each signature row links to its drafted cases.
    drafted_links = {h for h in links.hrefs if h.startswith("#draft_")}
    assert drafted_links == {f"#{name}" for name in summary["cases"]}


def test_runs_index_lists_every_run_newest_first(drafted, tmp_path):
    out, _ = drafted
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    again = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", copy)
    assert again.exit_code == 0, again.output  # drafts nothing: all drafted before
    index = copy / "runs" / "index.html"
    dom = _rendered(index, tmp_path)
    rows = _Rows()
    rows.feed(dom)
    names = sorted((p.stem for p in (copy / "runs").glob("*.json")), reverse=True)
    assert len(names) == 2
    assert [r.split()[0] for r in rows.rows["run"]] == names
    newest, first = rows.rows["run"]
    first_summary = json.loads((copy / "runs" / f"{names[1]}.json").read_text())
    assert f" {len(first_summary['cases'])} " in f" {first} "
    assert all(case in first for case in first_summary["cases"])
    links = _Links()
    links.feed(dom)
    for name in names:
        assert f"{name}.html" in links.hrefs and (copy / "runs" / f"{name}.html").exists()


def test_a_first_user_message_with_markup_renders_as_text(tmp_path):
    hostile = '<img src=x onerror="document.title=1"><script>document.title=2</script>'
    name = "draft_0123456789abcdef"
    cases = {
        name: {
            f"{name}.evalset.json": {
                "eval_cases": [{"conversation": [{"user_content": {"parts": [{"text": hostile}]}}]}]
            },
            f"{name}.spec.json": {
                "provenance": {
                    "signals": ["<b>complaint</b>"],
                    "signalReasons": [{"signal": "complaint", "rule": "<i>rule</i>"}],
                }
            },
        }
    }
    page = tmp_path / "page.html"
    page.write_text(triage_html(RunSummary(cases=(name,)), cases))
    dom = _rendered(page, tmp_path)
    assert "<img" not in dom and "<script>document" not in dom and "<b>complaint" not in dom
    assert "&lt;img src=x onerror=" in dom and "&lt;i&gt;rule&lt;/i&gt;" in dom
