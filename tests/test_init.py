"""`miner init`: a config learned from an export, that drafts it as written.

Run on the three golden exports (the Python, Java and Go plugins' shapes),
the shipped sample, and an export of another agent made from the golden one
(other app, tools, keys and id shapes), which no config in the repo knows.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from miner.config import load_config
from miner.init import CONTACT_FIXTURES
from tests.conftest import FEEDBACK, ROOT, TRACES, case_files, miner

GOLDEN = ROOT / "tests" / "golden"
GOLDEN_FEEDBACK = GOLDEN / "feedback.parquet"
SHIPPED = ROOT / "pipelines" / "support_agent.toml"
#: Tools every golden export calls (the sample agent's, as each plugin logs them).
CALLED = {"escalate", "issue_refund", "lookup_order", "transfer_to_agent"}

#: Another agent: every name and id shape of the golden sessions changed.
_OTHER_AGENT = [
    ("support_agent", "travel_desk"),
    ("lookup_order", "find_booking"),
    ("issue_refund", "refund_booking"),
    ("order_id", "booking_ref"),
    ("customer_id", "member_no"),
    ("ORD-", "BK/"),
    ("CUST-", "MEM"),
]


def _init(export: Path, out: Path, *extra: str | Path):
    return miner("init", "--traces", export, "--out", out, *extra)


def _draft(config: Path, out: Path):
    return miner("draft", "--pipeline", config, "--since", "2026-11-01", "--until", "latest",
                 "--out", out)  # fmt: skip


@pytest.mark.parametrize("dialect", ["python", "java", "go"])
def test_init_on_each_plugins_export_writes_a_config_that_drafts_it(dialect, tmp_path):
    config = tmp_path / "pipelines" / "agent.toml"
    result = _init(GOLDEN / dialect / "export.parquet", config, "--feedback", GOLDEN_FEEDBACK)
    assert result.exit_code == 0, result.output
    data = tomllib.loads(config.read_text())
    assert f"Plugin dialect: {dialect}" in config.read_text()
    assert data["agent"]["app_name"] == "support_agent"
    tools = data["agent"]["tools"]
    assert tools == sorted(tools) and set(tools) >= CALLED
    assert set(tools) <= set(load_config(SHIPPED).agent.tools)
    escalation = {"tools": ["escalate"], "handoff_agents": ["human_handoff"]}
    assert data["signals"]["escalation"] == escalation
    order = next(i for i in data["identifiers"] if i["entity"] == "ORDER_ID")
    assert order["pattern"] == r"\bORD-\d{5}\b" and order["keys"] == ["order_id"]
    assert data["feedback"]["score_column"] == "score"
    if dialect == "go":  # the Go plugin logs no session state
        assert "signed_in_key" not in data["fixtures"]
    else:
        assert data["fixtures"]["signed_in_key"] == "customer_id"
    drafted = _draft(config, tmp_path / "drafts")
    assert drafted.exit_code == 0, drafted.output
    sessions = pq.read_table(GOLDEN / dialect / "export.parquet", columns=["session_id"])
    drafted_cases = len(case_files(tmp_path / "drafts", ".evalset.json"))
    assert 5 <= drafted_cases <= len(set(sessions.column(0).to_pylist()))
    [run] = (tmp_path / "drafts" / "runs").glob("*.json")
    summary = json.loads(run.read_text())
    assert summary["flagged"]["thumbs_down"] == 1  # the feedback columns were read
    assert summary["entities_replaced"]["ORDER_ID"] > 0


def test_init_on_the_sample_matches_the_hand_written_config(tmp_path):
    config = tmp_path / "sample.toml"
    assert _init(TRACES, config, "--feedback", FEEDBACK).exit_code == 0
    written = load_config(config)
    shipped = load_config(SHIPPED)
    assert set(written.agent.tools) <= set(shipped.agent.tools)
    assert {(i.entity, i.pattern, i.keys) for i in written.identifiers} == {
        (i.entity, i.pattern, i.keys) for i in shipped.identifiers
    }
    assert written.fixtures.signed_in_key == shipped.fixtures.signed_in_key
    assert written.sources.traces == TRACES and written.sources.feedback == FEEDBACK
    assert written.signals.escalation == shipped.signals.escalation  # type: ignore[attr-defined]


def test_init_writes_a_commented_score_table_that_leaves_overlap_a_report(tmp_path):
    config = tmp_path / "sample.toml"
    assert _init(TRACES, config, "--feedback", FEEDBACK).exit_code == 0
    text = config.read_text()
    table = text.split("\n[score]\n", 1)[1]
    assert (
        table.splitlines()[0]
        == "# response_match_threshold = 0.8   # ADK's default; unset: overlap is a report"
    )
    assert load_config(config).score.response_match_threshold is None
    # Uncommented, it is a key the config knows.
    enabled = tmp_path / "strict.toml"
    enabled.write_text(
        text.replace("# response_match_threshold = 0.8", "response_match_threshold = 0.8")
    )
    assert load_config(enabled).score.response_match_threshold == 0.8


def test_the_signed_in_customers_email_and_phone_become_fixtures_not_stand_ins(tmp_path):
    # The sample's starting state holds customer_email and phone: a replayed
    # agent needs values there, not <EMAIL_ADDRESS_1> / <PHONE_NUMBER_1>.
    config = tmp_path / "pipelines" / "mine.toml"
    assert _init(TRACES, config, "--feedback", FEEDBACK).exit_code == 0
    text = config.read_text()
    assert "# The session state holds e-mail addresses under customer_email." in text
    assert "# The session state holds phone numbers under phone." in text
    values = load_config(config).fixtures.values
    assert values["EMAIL_ADDRESS"] == CONTACT_FIXTURES["EMAIL_ADDRESS"]
    assert values["PHONE_NUMBER"] == CONTACT_FIXTURES["PHONE_NUMBER"]
    assert _draft(config, tmp_path / "drafts").exit_code == 0
    states = [
        json.loads(p.read_text())["eval_cases"][0]["session_input"]["state"]
        for p in case_files(tmp_path / "drafts", ".evalset.json")
    ]
    assert len(states) >= 9
    for state in states:
        assert state["customer_email"] == "customer.one@example.com", state
        assert state["phone"] == "+1 555 0100 001", state
        assert state["customer_id"] == load_config(config).fixtures.eval_customer


@pytest.fixture
def other_agent(tmp_path) -> Path:
    """The golden Python export as another team's agent would write it."""
    table = pq.read_table(GOLDEN / "python" / "export.parquet")
    columns = {}
    for name in table.column_names:
        values = table.column(name).to_pylist()
        if pa.types.is_string(table.schema.field(name).type):
            for old, new in _OTHER_AGENT:
                values = [v.replace(old, new) if isinstance(v, str) else v for v in values]
        columns[name] = pa.array(values, type=table.schema.field(name).type)
    path = tmp_path / "travel" / "export.parquet"
    path.parent.mkdir()
    pq.write_table(pa.table(columns), path)
    return path


def test_init_on_an_export_no_config_knows_learns_its_names_and_id_shapes(other_agent, tmp_path):
    config = tmp_path / "pipelines" / "travel.toml"
    result = _init(other_agent, config)
    assert result.exit_code == 0, result.output
    data = tomllib.loads(config.read_text())
    assert data["agent"]["app_name"] == "travel_desk"
    assert {"find_booking", "refund_booking"} <= set(data["agent"]["tools"])
    shapes = {i["entity"]: (i["pattern"], i["keys"]) for i in data["identifiers"]}
    assert shapes["BOOKING_REF"] == (r"\bBK/\d{5}\b", ["booking_ref"])
    assert shapes["MEMBER_NO"] == (r"\bMEM\d{5}\b", ["member_no"])
    assert data["fixtures"]["signed_in_key"] == "member_no"
    assert data["fixtures"]["eval_customer"].startswith("MEM")
    assert "feedback =" not in config.read_text().replace("# feedback =", "")

    drafted = _draft(config, tmp_path / "drafts")
    assert drafted.exit_code == 0, drafted.output
    evalsets = case_files(tmp_path / "drafts", ".evalset.json")
    assert len(evalsets) >= 4
    text = "".join(p.read_text() for p in (tmp_path / "drafts").glob("draft_*/*.json"))
    original = pq.read_table(other_agent, columns=["content"]).to_pandas()["content"].str.cat()
    for made_up in ("BK/88121", "MEM77031"):
        assert made_up in original and made_up not in text  # real ids are replaced
    state = json.loads(evalsets[0].read_text())["eval_cases"][0]["session_input"]["state"]
    assert state["member_no"] == data["fixtures"]["eval_customer"]


def test_init_writes_pipelines_app_toml_by_default_and_never_overwrites(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first = miner("init", "--traces", GOLDEN / "java" / "export.parquet")
    assert first.exit_code == 0, first.output
    config = tmp_path / "pipelines" / "support_agent.toml"
    before = config.read_text()
    assert f"next              miner draft --pipeline {Path('pipelines/support_agent.toml')}" in (
        first.output
    )
    # Into a folder of its own, named after the config, never a shared drafts/.
    assert first.output.rstrip().endswith("--until latest --out drafts/support_agent")
    again = miner("init", "--traces", GOLDEN / "python" / "export.parquet")
    assert again.exit_code == 5
    assert again.output.strip().splitlines() == [
        "Error: pipelines/support_agent.toml: already exists; refusing to overwrite it "
        "(pass another --out)"
    ]
    assert config.read_text() == before
    assert sorted(p.name for p in (tmp_path / "pipelines").iterdir()) == ["support_agent.toml"]


def test_init_errors_are_one_line_and_write_nothing(tmp_path):
    out = tmp_path / "x.toml"
    missing = miner("init", "--traces", tmp_path / "nope", "--out", out)
    assert missing.exit_code == 3
    assert missing.output.strip() == f"Error: {tmp_path / 'nope'}: no such file or folder"
    (tmp_path / "bad.parquet").write_bytes(b"not parquet")
    corrupt = miner("init", "--traces", tmp_path / "bad.parquet", "--out", out)
    assert corrupt.exit_code == 3 and len(corrupt.output.strip().splitlines()) == 1
    no_feedback = _init(GOLDEN / "go" / "export.parquet", out, "--feedback", tmp_path / "f.parquet")
    assert no_feedback.exit_code == 3
    assert no_feedback.output.strip() == f"Error: {tmp_path / 'f.parquet'}: no such file or folder"
    assert not out.exists() and not list(tmp_path.glob(".miner-init-*"))


def test_init_writes_no_value_from_the_trace(tmp_path):
    config = tmp_path / "c.toml"
    assert _init(TRACES, config, "--feedback", FEEDBACK).exit_code == 0
    text = config.read_text()
    planted = json.loads((ROOT / "sample_traces" / "planted.json").read_text())
    assert not [value for value in planted if value in text]
    assert "ORD-88121" not in text and "CUST-77031" not in text


def test_a_feedback_export_without_a_rating_column_is_left_out_and_said_so(tmp_path):
    odd = tmp_path / "odd_feedback.parquet"
    pq.write_table(pa.table({"conversation": ["x"], "stars_given": ["many"]}), odd)
    config = tmp_path / "c.toml"
    assert _init(GOLDEN / "python" / "export.parquet", config, "--feedback", odd).exit_code == 0
    data = tomllib.loads(config.read_text())
    assert "feedback" not in data["sources"] and "feedback" not in data
    assert "# feedback = " in config.read_text()
    assert _draft(config, tmp_path / "drafts").exit_code == 0


def test_the_configs_header_and_the_cli_name_the_same_draft_command(tmp_path):
    config = tmp_path / "c.toml"
    result = _init(GOLDEN / "go" / "export.parquet", config)
    assert result.exit_code == 0, result.output
    [printed] = [line.split(None, 1)[1] for line in result.output.splitlines()
                 if line.startswith("next")]  # fmt: skip
    assert printed.startswith("miner draft --pipeline") and "--since 2026-11-" in printed
    assert f"#   {printed}\n" in config.read_text()


def test_an_export_without_tool_calls_is_said_to_need_its_tools_by_hand(tmp_path):
    rows = pq.read_table(GOLDEN / "python" / "export.parquet")
    kinds = rows.column("event_type").to_pylist()
    no_tools = rows.filter(pa.array([not k.startswith("TOOL_") for k in kinds]))
    pq.write_table(no_tools, tmp_path / "notools.parquet")
    config = tmp_path / "c.toml"
    result = _init(tmp_path / "notools.parquet", config)
    assert result.exit_code == 0, result.output
    assert "warning: no tool call in the export" in result.output
    assert tomllib.loads(config.read_text())["agent"]["tools"] == []
    assert "# no tool call in the export: list the agent's tools" in config.read_text()
