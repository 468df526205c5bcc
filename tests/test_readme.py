"""The README a newcomer follows: short, its links resolve, and the test
command it gives is the one CI runs."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from miner.init import drafts_folder
from miner.sample import session_hash
from tests.conftest import FEEDBACK, PIPELINE, ROOT, TRACES, miner, scripted_review

README = (ROOT / "README.md").read_text()


def test_the_readme_is_at_most_250_lines():
    assert len(README.splitlines()) <= 250


def test_the_performance_reference_is_at_most_250_lines():
    # Issue 38: a reference, not a diary of rounds (history lives in git).
    performance = (ROOT / "docs" / "performance.md").read_text()
    assert "## Current figures" in performance
    assert len(performance.splitlines()) <= 250


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub writes it."""
    return re.sub(r"[^a-z0-9 -]", "", heading.lower()).replace(" ", "-")


def test_the_redaction_reference_is_at_most_300_lines_in_its_four_parts():
    # Issue 36: how the policy decides, what a reviewer sees, how to tune it,
    # one table of figures; the rounds' history lives in git.
    redaction = (ROOT / "docs" / "redaction.md").read_text()
    assert len(redaction.splitlines()) <= 300
    parts = re.findall(r"^## (.+)$", redaction, re.M)
    assert parts == [
        "How the policy decides",
        "What a reviewer sees",
        "How to tune it for your agent",
        "Measured",
    ]
    assert len(re.findall(r"^\|---", redaction, re.M)) == 1, "one table of figures"


def test_every_link_into_the_redaction_reference_and_out_of_it_resolves():
    docs = ROOT / "docs"
    headings = {
        path.name: {_slug(h) for h in re.findall(r"^#+ (.+)$", path.read_text(), re.M)}
        for path in docs.glob("*.md")
    }
    links = [
        (target, anchor)
        for path in [ROOT / "README.md", *docs.glob("*.md")]
        for target, anchor in re.findall(
            r"\]\((?:docs/)?(redaction\.md)#([^)]+)\)", path.read_text()
        )
    ]
    own = (docs / "redaction.md").read_text()
    links += re.findall(r"\]\(([a-z-]+\.md)#([^)]+)\)", own)
    links += [("redaction.md", a) for a in re.findall(r"\]\(#([^)]+)\)", own)]
    assert len(links) >= 3
    assert [link for link in links if link[1] not in headings[link[0]]] == []


def test_every_link_into_the_repo_resolves():
    links = re.findall(r"\]\((?!https?://|#)([^)#]+)", README)
    assert len(links) >= 10
    assert [link for link in links if not (ROOT / link).exists()] == []
    anchors = re.findall(r"\]\(#([^)]+)\)", README)
    headings = {_slug(h) for h in re.findall(r"^#+ (.+)$", README, re.M)}
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


def _commands(section: str) -> list[list[str]]:
    """The `miner` commands of a README section's sh blocks, as written."""
    text = README.split(f"## {section}", 1)[1].split("\n## ", 1)[0]
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words[:1] == ["miner"]:
                commands.append(words[1:])
    return commands


def test_the_loops_commands_name_the_config_and_the_drafts_folder_init_gives():
    loop = _commands("The weekly loop")
    assert [c[0] for c in loop] == ["draft", "check", "promote", "coverage", "replay", "score"]
    drafts = f"{drafts_folder(Path('pipelines/my_agent.toml'))}/"
    for command in loop:
        assert command[command.index("--pipeline") + 1] == "pipelines/my_agent.toml", command
        if command[0] in ("draft", "check", "promote"):
            assert drafts in command, command


def test_after_init_the_readmes_commands_run_as_written(tmp_path, monkeypatch):
    # A clone that ran `make demo` holds the sample's config; init adds the
    # user's. The README's init, the `next` it prints, and the loop's commands
    # then run as written: none stops at "2 pipeline configs here".
    (tmp_path / "pipelines").mkdir()
    (tmp_path / "pipelines" / "support_agent.toml").write_text(PIPELINE.read_text())
    (tmp_path / "sample_traces").symlink_to(ROOT / "sample_traces")
    (tmp_path / "exports").mkdir()
    (tmp_path / "exports" / "agent_events").symlink_to(TRACES)
    (tmp_path / "exports" / "feedback.parquet").symlink_to(FEEDBACK)
    monkeypatch.chdir(tmp_path)
    [init] = _commands("Your own agent")[:1]
    assert init[0] == "init"
    done = miner(*init)
    assert done.exit_code == 0, done.output
    [next_line] = [line for line in done.stdout.splitlines() if line.startswith("next")]
    printed = shlex.split(next_line)[1:]
    assert printed[0] == "miner"
    done = miner(*printed[1:])
    assert done.exit_code == 0, done.output
    assert re.search(r"files written     [1-9]\d* case files under drafts/my_agent\n", done.stdout)
    assert not Path("drafts/support_agent").exists()  # not into the demo's folder

    steps = {c[0]: c for c in _commands("The weekly loop")}
    assert miner(*steps["draft"]).exit_code == 0  # the next week: nothing drafted twice
    check = miner(*steps["check"])
    assert check.exit_code == 1 and "REVIEW" in check.stdout  # what is left to review
    [reviewed] = [
        f for f in Path("drafts/my_agent").iterdir()
        if f.name == f"draft_{session_hash('s02-refund-returned-error')}"
    ]  # fmt: skip
    scripted_review(reviewed, "refund_failure_not_reported_as_success", ["tool_failure"])
    promote = miner(*steps["promote"])
    assert "promoted  refund_failure_not_reported_as_success" in promote.stdout, promote.output
    coverage = miner(*steps["coverage"])
    assert coverage.exit_code == 0, coverage.output
    assert "Next cases to write" in coverage.stdout
    assert "pipeline configs here" not in check.output + promote.output + coverage.output
