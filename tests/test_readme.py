"""The README a newcomer follows: short, its links resolve, and the test
command it gives is the one CI runs."""

from __future__ import annotations

import re

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text()


def test_the_readme_is_at_most_250_lines():
    assert len(README.splitlines()) <= 250


def test_every_link_into_the_repo_resolves():
    links = re.findall(r"\]\((?!https?://|#)([^)#]+)", README)
    assert len(links) >= 10
    assert [link for link in links if not (ROOT / link).exists()] == []
    anchors = re.findall(r"\]\(#([^)]+)\)", README)
    headings = {
        re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-")
        for h in re.findall(r"^#+ (.+)$", README, re.M)
    }
    assert anchors and set(anchors) <= headings


def test_the_quick_start_is_two_make_commands_and_says_how_to_run_miner():
    start = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    [block] = re.findall(r"```sh\n(.*?)```", start, re.S)[:1]
    assert [line.split()[:2] for line in block.strip().splitlines()] == [
        ["make", "demo"],
        ["make", "test"],
    ]
    assert ".venv/bin/miner" in start and "source .venv/bin/activate" in start


def test_ci_runs_the_readmes_test_command():
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    commands = [line for line in lines if line and not line.startswith(("#", "set ", "cd "))]
    assert commands == ["make test"]


def test_every_docs_file_is_linked_from_the_readme():
    docs = sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    unlinked = [name for name in docs if f"docs/{name}" not in README]
    assert unlinked == [], "add a line for it to the README's Documentation table"
