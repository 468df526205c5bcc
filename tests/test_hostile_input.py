"""Hostile input: every bad file, cell and option gets a one-line error naming
the place, a usage or input exit code, no partial output and no quoted value;
never an internal error. A fuzz test (hypothesis, fixed seed, bounded) over
trace rows, payload JSON and case files holds miner to that."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import PIPELINE, TRACES, WINDOW, miner

FUZZ = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,  # the same examples on every run: CI is repeatable
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _sample() -> pa.Table:
    return ds.dataset(TRACES, partitioning="hive").to_table().drop_columns(["dt"])


def _write(table: pa.Table, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, folder / "part.parquet")
    return folder


def _row_index(table: pa.Table, kind: str, session: str = "s03-tool-raised") -> int:
    kinds = table.column("event_type").to_pylist()
    sessions = table.column("session_id").to_pylist()
    pairs = enumerate(zip(kinds, sessions, strict=True))
    return next(i for i, (k, s) in pairs if k == kind and s == session)


def _refused(result, code: int, *needles: str, out: Path | None = None) -> str:
    assert result.exit_code == code, result.output
    line = result.stderr.strip()
    assert line.startswith("Error: ") and "\n" not in line, line
    assert "internal error" not in line and "Traceback" not in result.output
    for needle in needles:
        assert needle in line, line
    if out is not None:
        assert not out.exists() or not any(out.iterdir()), "output was written"
    return line


@pytest.mark.parametrize(("column", "values"), [("event_type", 7), ("status", 1)])
def test_a_column_of_the_wrong_type_is_named(tmp_path, column, values):
    table = _sample()
    table = table.set_column(
        table.schema.get_field_index(column), column, pa.array([values] * table.num_rows)
    )
    export, out = _write(table, tmp_path / "export"), tmp_path / "out"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--traces", export, "--out", out)
    _refused(result, 3, "part.parquet", f"column '{column}' is int64, expected a string", out=out)


def test_a_row_without_a_session_id_is_refused_not_skipped(tmp_path):
    table = _sample()
    index = _row_index(table, "USER_MESSAGE_RECEIVED")
    sessions = table.column("session_id").to_pylist()
    sessions[index] = None
    table = table.set_column(
        table.schema.get_field_index("session_id"), "session_id", pa.array(sessions)
    )
    export, out = _write(table, tmp_path / "export"), tmp_path / "out"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--traces", export, "--out", out)
    # Dropping it would lose a turn of a case in silence (issue 20).
    _refused(result, 3, "part.parquet", "1 row with a null session_id", out=out)


@pytest.mark.parametrize(
    ("payload", "problem"),
    [
        ("[" * 5000 + "]" * 5000, "depth limit exceeded"),
        ('{"text_summary": "hi \\ud800 there"}', "surrogate"),
        (b'{"text_summary": "caf\xe9"}', "not valid UTF-8"),
    ],
)
def test_unreadable_payloads_name_the_row(tmp_path, payload, problem):
    table = _sample()
    index = _row_index(table, "USER_MESSAGE_RECEIVED")
    content = [c.encode() if c is not None else None for c in table.column("content").to_pylist()]
    content[index] = payload if isinstance(payload, bytes) else payload.encode()
    table = table.set_column(
        table.schema.get_field_index("content"), "content", pa.array(content, pa.binary())
    )
    export, out = _write(table, tmp_path / "export"), tmp_path / "out"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--traces", export, "--out", out)
    line = _refused(result, 3, f"row {index} (USER_MESSAGE_RECEIVED): column content", out=out)
    assert problem in line


def test_a_user_message_over_a_megabyte_is_redacted_whole(tmp_path):
    # spaCy refuses texts over a million characters: miner reads them in pieces.
    table = _sample()
    index = _row_index(table, "USER_MESSAGE_RECEIVED")
    # Long tokens keep spaCy's share of the time small; the length is what counts.
    filler = "waitingwaitingwaitingwaitingwaitingwaiting " * 25_000
    text = f"This is useless. {filler} Call me, Maria Garcia, on +1 212 555 0187."
    content = table.column("content").to_pylist()
    content[index] = json.dumps({"text_summary": text})
    table = table.set_column(table.schema.get_field_index("content"), "content", pa.array(content))
    export, out = _write(table, tmp_path / "export"), tmp_path / "out"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--traces", export, "--out", out)
    assert result.exit_code == 0, result.output
    written = "".join(p.read_text() for p in out.glob("draft_*/*.json"))
    assert len(written) > 1_000_000
    assert "Maria Garcia" not in written and "555 0187" not in written


@pytest.mark.parametrize(
    ("option", "value"),
    [("--since", "99999999999d"), ("--until", "9999-12-31T23:59:59"), ("--since", "0001-01-01")],
)
def test_times_out_of_range_are_usage_errors(tmp_path, option, value):
    out = tmp_path / "out"
    args = {"--since": "7d", "--until": "latest", option: value}
    result = miner(
        "draft", "--pipeline", PIPELINE, "--since", args["--since"], "--until", args["--until"],
        "--out", out,
    )  # fmt: skip
    _refused(result, 2, option, "outside the years 1900-9000", out=out)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[]", "not an eval set"),
        ("[" * 5000 + "]" * 5000, "nested too deeply"),
        ('{"eval_set_id": "x\\ud800", "eval_cases": []}', "lone surrogate"),
        (
            '{"eval_set_id": "x", "eval_cases": [{"eval_id": "a_b", "conversation": [], '
            '"session_input": {"app_name": "a", "user_id": "u", "state": {"s": "'
            + "y" * 300_000
            + '"}}}]}',
            "a string of 300,000 characters",
        ),
    ],
)
def test_broken_case_files_are_findings_for_check_and_review(tmp_path, text, needle):
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "x.evalset.json").write_text(text)
    checked = miner("check", folder, "--pipeline", PIPELINE)
    assert checked.exit_code == 1, checked.output
    assert needle in checked.output and "internal error" not in checked.output
    if needle != "a string of 300,000 characters":  # size is the check's own limit
        reviewed = miner("review", folder)
        assert reviewed.exit_code == 1 and needle in reviewed.output


# ---------------------------------------------------------------- fuzz

_TEXT = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), min_size=0, max_size=40)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TEXT,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["tool", "args", "result", "text_summary", "response", "x"]),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)
_PAYLOAD = st.one_of(
    _JSON.map(json.dumps),
    _TEXT,  # not JSON at all, mostly
    st.none(),
)
_KIND = st.sampled_from(
    ["USER_MESSAGE_RECEIVED", "AGENT_RESPONSE", "TOOL_STARTING", "TOOL_COMPLETED", "TOOL_ERROR",
     "EVENT", "TOOL_START", "USER_MESSAGE", "AGENT_TRANSFER", "LLM_RESPONSE", "whatever"]
)  # fmt: skip
_ROW = st.fixed_dictionaries(
    {
        "event_type": _KIND,
        "session_id": st.sampled_from(["a", "b"]),
        "invocation_id": st.sampled_from(["i1", "i2", None]),
        "span_id": st.sampled_from(["s1", "s2", None]),
        "content": _PAYLOAD,
        "attributes": _PAYLOAD,
        "status": st.sampled_from(["OK", "ERROR", None]),
        "error_message": st.one_of(st.none(), _TEXT),
        "is_truncated": st.sampled_from([True, False, None]),
    }
)


def _no_value_quoted(output: str, rows: list[dict]) -> None:
    for row in rows:
        for key in ("content", "attributes", "error_message"):
            value = row.get(key)
            if isinstance(value, str) and len(value) >= 12 and value.strip():
                assert value not in output, "a value from the input was quoted"


@FUZZ
@given(rows=st.lists(_ROW, min_size=1, max_size=8))
def test_fuzzed_trace_rows_never_crash_miner(tmp_path_factory, rows):
    folder = tmp_path_factory.mktemp("fuzz")
    start = datetime(2026, 11, 22, tzinfo=UTC)
    for n, row in enumerate(rows):
        row["timestamp"] = start + timedelta(seconds=n)
    schema = pa.schema(
        [("timestamp", pa.timestamp("us", tz="UTC"))]
        + [(k, pa.bool_() if k == "is_truncated" else pa.string()) for k in _ROW_KEYS]
    )
    export = folder / "export"
    export.mkdir()
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), export / "part.parquet")
    out = folder / "out"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--traces", export, "--out", out)
    assert result.exit_code in (0, 3), result.output
    assert "internal error" not in result.output and "Traceback" not in result.output
    if result.exit_code:
        assert not out.exists() or not any(out.iterdir()), "partial output"
        assert result.stderr.count("\n") == 1
    _no_value_quoted(result.output, rows)


_ROW_KEYS = [
    "event_type", "session_id", "invocation_id", "span_id", "content", "attributes", "status",
    "error_message", "is_truncated",
]  # fmt: skip


@FUZZ
@given(
    evalset=st.one_of(_JSON.map(json.dumps), _TEXT),
    spec=st.one_of(_JSON.map(json.dumps), _TEXT),
    tools=st.one_of(_JSON.map(json.dumps), _TEXT),
)
def test_fuzzed_case_files_never_crash_check_review_or_promote(
    tmp_path_factory, evalset, spec, tools
):
    folder = tmp_path_factory.mktemp("cases")
    (folder / "c.evalset.json").write_text(evalset)
    (folder / "c.spec.json").write_text(spec)
    (folder / "c.tools.json").write_text(tools)
    for args in (
        ("check", folder, "--pipeline", PIPELINE),
        ("review", folder),
        (
            "promote",
            folder,
            "--suite",
            folder.parent / f"{folder.name}-suite",
            "--pipeline",
            PIPELINE,
        ),
    ):
        result = miner(*args)
        assert result.exit_code in (0, 1, 3), (args[0], result.output)
        assert "internal error" not in result.output and "Traceback" not in result.output
