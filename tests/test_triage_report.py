"""The triage page each draft run writes, opened in a real headless Chromium."""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

from miner.report import triage_html

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
    [page] = (out / "runs").glob("*.html")
    assert page.stem == summary_file.stem
    summary = json.loads(summary_file.read_text())
    dom = _rendered(page, tmp_path)
    rows = _Rows()
    rows.feed(dom)
    signatures = rows.rows["signature"]
    assert len(signatures) == len(summary["signatures"]) >= 5
    for group, row in zip(summary["signatures"], signatures, strict=True):
        assert row.startswith(group["signature"])
        assert row.endswith(f"{group['sessions']} {group['drafted']}")
    assert [r.split()[0] for r in rows.rows["signal"]] == list(summary["flagged"])
    assert len(rows.rows["case"]) == summary["sampled"]


def test_the_page_escapes_what_it_shows(tmp_path):
    summary = {
        "window": {"since": "a", "until": "b"},
        "flagged": {"error": 1},
        "signatures": [{"signature": "<script>alert(1)</script>", "sessions": 1, "drafted": 0}],
        "cases": [],
    }
    page = tmp_path / "page.html"
    page.write_text(triage_html(summary))
    dom = _rendered(page, tmp_path)
    assert "<script>alert(1)</script>" not in dom
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom


def test_a_warning_is_shown(tmp_path):
    warning = "no sessions start in the window"
    page = tmp_path / "page.html"
    page.write_text(triage_html({"warning": warning}))
    assert warning in _rendered(page, tmp_path)
