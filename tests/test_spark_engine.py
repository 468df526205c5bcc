"""The Spark engine (a real Spark, local[2], started by the test) picks the
same sessions and drafts the same cases as the embedded engine."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import PIPELINE, WINDOW, miner


@pytest.fixture(scope="module")
def spark():
    os.environ["MINER_SPARK_MASTER"] = "local[2]"
    from miner.engine.spark import session

    active = session()
    yield active
    active.stop()
    os.environ.pop("MINER_SPARK_MASTER", None)


def _files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.glob("draft_*/*.json"))}


def test_spark_and_embedded_engines_draft_byte_identical_cases(spark, tmp_path, monkeypatch):
    # Both runs stamp the same draftedAt: the reproducible-builds clock.
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1795000000")
    drafted = {}
    for engine in ("embedded", "spark"):
        out = tmp_path / engine
        result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--engine", engine, "--out", out)
        assert result.exit_code == 0, result.output
        drafted[engine] = out
    spark_files, embedded_files = _files(drafted["spark"]), _files(drafted["embedded"])
    assert spark_files == embedded_files
    assert len(spark_files) == 27
    assert all(b'"draftedAt": "2026-11-18T' in v for k, v in spark_files.items() if "spec" in k)
    ledger = json.loads((drafted["spark"] / "miner-ledger.json").read_text())
    assert ledger == json.loads((drafted["embedded"] / "miner-ledger.json").read_text())
    [run] = (drafted["spark"] / "runs").glob("*.json")
    [other] = (drafted["embedded"] / "runs").glob("*.json")
    summary, expected = json.loads(run.read_text()), json.loads(other.read_text())
    for key in ("flagged", "flagged_by_rule", "signatures", "entities_replaced", "rows_read"):
        assert summary[key] == expected[key], key


def test_a_malformed_source_date_epoch_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", tmp_path / "out")
    assert result.exit_code == 2 and "SOURCE_DATE_EPOCH='yesterday'" in result.stderr
    assert not list((tmp_path / "out").glob("draft_*"))


def test_an_unknown_engine_is_a_usage_error(tmp_path):
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--engine", "ray", "--out", tmp_path)
    assert result.exit_code == 2 and "--engine 'ray'" in result.stderr


def test_spark_sql_flags_what_duckdb_flags_on_the_sample_and_every_plugin(spark):
    # The same definitions, transpiled to Spark SQL, give the same flags,
    # counts and signatures on the sample and on the three golden exports,
    # each engine asked through the same interface.
    from datetime import UTC, datetime

    from miner.config import load_config
    from miner.engine.embedded import EmbeddedEngine
    from miner.engine.spark import SparkEngine
    from miner.sample import negative_feedback
    from miner.source import open_export
    from miner.window import Window
    from tests.test_scan_engine import EXPORTS, _as_seen

    config = load_config(PIPELINE)
    nobody = negative_feedback(None, config.feedback)
    window = Window(datetime(2026, 11, 1, tzinfo=UTC), datetime(2026, 12, 1, tzinfo=UTC))
    for path in EXPORTS:
        export = open_export(path)
        embedded = EmbeddedEngine().flag(export, config, window, window, nobody)
        assert embedded.flags, path
        found = SparkEngine().flag(export, config, window, window, nobody)
        assert _as_seen(found) == _as_seen(embedded), path


def test_spark_gives_each_signals_golden_hits(spark, tmp_path):
    from miner.engine.spark import SparkEngine
    from miner.source import open_export
    from miner.window import Window
    from tests import signal_cases

    for name in signal_cases.NAMES:
        config, negative = signal_cases.setup(name)
        export = open_export(signal_cases.export(name, tmp_path / name))
        window = Window(*signal_cases.WINDOW)
        found = SparkEngine().flag(export, config, window, window, negative)
        assert signal_cases.hits(name, found.flags) == signal_cases.expected(name), name


def test_spark_picks_over_the_flags_it_holds_what_the_pick_over_every_flag_picks(spark):
    # The engine-side pick (its queries transpiled to Spark SQL: the session
    # hashes, the seeded ranks, the rules' counts) picks what Python picks
    # over every flag Spark returns, with a ledger and without.
    from miner.engine.spark import SparkEngine
    from tests.test_scan_engine import picks_both_ways

    for held, expected, counts, expected_counts in picks_both_ways(SparkEngine()):
        assert held == expected and counts == expected_counts
        assert held[0].picked


def test_spark_reads_a_go_message_s_parts_as_duckdb_does(spark, tmp_path):
    # The part list, a list of structs in DuckDB's one parse, is rendered for
    # Spark as its items' texts, indexed without Spark's ANSI error past the
    # list's end (most messages have one part, the view reads four).
    from datetime import UTC, datetime

    from miner.engine.spark import _held_events
    from tests.test_scan_engine import GO_MESSAGES, write_go_messages

    write_go_messages(tmp_path / "export")
    scan = (datetime(2026, 11, 1, tzinfo=UTC), datetime(2026, 12, 1, tzinfo=UTC))
    with _held_events(tmp_path / "export", scan) as queries:
        read = queries.table("SELECT session_id, kind, text FROM events").to_pylist()
    kinds = {"USER_MESSAGE": "USER_MESSAGE_RECEIVED", "EVENT": "AGENT_RESPONSE"}
    assert sorted((r["session_id"], r["kind"], r["text"]) for r in read) == sorted(
        (f"go-{i}", kinds[event_type], text) for i, (event_type, _c, text) in enumerate(GO_MESSAGES)
    )


#: Result keys a config may name, each read as the one key it is.
READABLE_KEYS = ("error.code", "a b", "a ", "$x", "[0]", "a]b", "0", "a*", "日本", "-")
#: Keys the config refuses (``miner.engine.sql.unreadable_key``).
UNREADABLE_KEYS = (" code", "*", "it's", "a\\b", 'a"b', "")


def _read_by_key(spark, keys: tuple[str, ...]) -> tuple[list[object], list[object]]:
    """Each key's value in a result holding it ("E1") and "code" ("E2"), as
    DuckDB and as Spark read it through ``key_path``: one row per key."""
    import duckdb

    from miner.engine.query import render
    from miner.engine.sql import key_path

    results = [json.dumps({key: "E1", "code": "E2"}) for key in keys]
    picked = " ".join(
        f"WHEN {i} THEN json_extract_string(result, {key_path(key)})" for i, key in enumerate(keys)
    )
    query = f"SELECT CASE i {picked} END AS v FROM results ORDER BY i"
    on_spark = _on_spark(spark, render(query, "spark"), results)
    try:
        on_duckdb = _on_duckdb(query, results)
    except duckdb.Error:
        on_duckdb = [None] * len(keys)  # a path DuckDB cannot read
    return on_duckdb, on_spark


def _on_spark(spark, query: str, results: list[str]) -> list[object]:
    """``query``'s first column on Spark, over a view ``results`` (i, result)."""
    spark.createDataFrame(list(enumerate(results)), "i int, result string").createOrReplaceTempView(
        "results"
    )
    return [row[0] for row in spark.sql(query).collect()]


def _on_duckdb(query: str, results: list[str]) -> list[object]:
    """``query``'s first column on DuckDB, over a table ``results`` (i, result)."""
    import duckdb

    with duckdb.connect() as con:
        con.execute("CREATE TABLE results (i INT, result VARCHAR)")
        con.executemany("INSERT INTO results VALUES (?, ?)", list(enumerate(results)))
        return [row[0] for row in con.execute(query).fetchall()]


def test_spark_reads_a_result_key_as_duckdb_does_or_the_config_refuses_it(spark):
    # A key with a dot is that key on both engines (rendered $['error.code']
    # for Spark), not "code" under "error"; a key the config refuses is one
    # an engine would misread (Spark reads " code" as "code", "*" as any).
    from miner.engine.sql import unreadable_key

    assert not any(unreadable_key(key) for key in READABLE_KEYS)
    assert _read_by_key(spark, READABLE_KEYS) == (["E1"] * len(READABLE_KEYS),) * 2
    for key in UNREADABLE_KEYS:
        assert unreadable_key(key), key
        assert _read_by_key(spark, (key,)) != (["E1"], ["E1"]), key


#: Values under the error key, and whether each reports a failure: a string
#: does, whatever it spells (Spark read "0", "false", "null" bare, as none).
ERROR_VALUES: tuple[tuple[object, bool], ...] = (
    (None, False), (False, False), (0, False), (0.0, False), (-0.0, False), ("", False),
    ([], False), ({}, False), ("0", True), ("false", True), ("null", True), ("[]", True),
    ("{}", True), ("0.0", True), ('""', True), (True, True), (1, True), ("x", True),
    ({"code": 5}, True), (["E1"], True),
)  # fmt: skip


def test_spark_flags_an_error_value_as_duckdb_and_the_rule_do(spark):
    from miner.engine.query import render
    from miner.signals import Context
    from miner.signals.error import Error, ErrorConfig, result_failed

    rule = Error(ErrorConfig(), Context())
    results = [json.dumps({"error": value}) for value, _failed in ERROR_VALUES]
    results += ['{"status": "Failed"}', '{"status": "ok"}', '{"status": ["error"]}']
    expected = [failed for _value, failed in ERROR_VALUES] + [True, False, False]
    # Zero as a writer other than Python's json spells it: each engine writes
    # a number back its own way (DuckDB "0.0", "-0.0"; Spark's VARIANT "0"),
    # and every spelling must land in the list of values that report none.
    written = {"0.00": False, "-0.000": False, "0e0": False, "0E+2": False, "1e-400": False}
    written |= {"1.0": True, "1E2": True, "0.00000000000000000000001": True}
    results += [f'{{"error": {number}}}' for number in written]
    expected += list(written.values())
    read = rule.row_columns()["error_result"]
    query = (
        f"SELECT coalesce({rule.failed()}, false) FROM (SELECT i, {read} AS error_result "
        "FROM (SELECT i, 'TOOL_COMPLETED' AS kind, result FROM results)) ORDER BY i"
    )
    on_spark = _on_spark(spark, render(query, "spark"), results)
    on_duckdb = _on_duckdb(query, results)
    in_python = [result_failed(json.loads(result), ErrorConfig()) for result in results]
    assert on_spark == on_duckdb == in_python == expected


def test_spark_picks_the_same_over_flags_built_in_slices(spark, monkeypatch):
    # Past FLAG_SLICE_SESSIONS the flags are built a slice at a time, each
    # slice's added to the flags Spark holds (``_Queries.add``): the same pick.
    from miner import sample
    from miner.engine.spark import SparkEngine
    from tests.test_scan_engine import picks_both_ways

    monkeypatch.setattr(sample, "_flag_slices", lambda _sessions: 2)
    for held, expected, counts, expected_counts in picks_both_ways(SparkEngine()):
        assert held == expected and counts == expected_counts
        assert held[0].picked
