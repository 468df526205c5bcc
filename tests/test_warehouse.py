"""``miner sql``: the selection query for the plugin's own table."""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime

import duckdb
import pyarrow.dataset as ds
import pytest
import sqlglot

from tests.conftest import miner
from tests.test_scan_engine import GOLDEN, selected

WINDOW = ["--since", "2026-11-01", "--until", "2026-12-01"]


@pytest.mark.parametrize("plugin", ["python", "java", "go"])
def test_the_bigquery_query_parses_and_reads_the_json_columns_as_text(plugin):
    result = miner(
        "sql", "--dialect", "bigquery", "--table", "proj.analytics.agent_events",
        "--plugin", plugin, *WINDOW,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    tree = sqlglot.parse_one(result.stdout, read="bigquery")
    assert "`proj`.`analytics`.`agent_events`" in result.stdout
    assert "TO_JSON_STRING(`content`)" in result.stdout
    assert "REGEXP_CONTAINS" in result.stdout and "JSON_EXTRACT_SCALAR" in result.stdout
    assert tree.find(sqlglot.exp.Union) is not None  # the signals' hits, together
    # A tool path: BigQuery has no list lambdas, so the ordered aggregate.
    assert "STRING_AGG(tool, '>' ORDER BY first, tool)" in " ".join(result.stdout.split())
    assert tree.find(sqlglot.exp.Lambda) is None
    # A Go message's part list, a list in one parse, indexed past its end as
    # NULL (OFFSET raises there): most messages have one part, the view reads four.
    assert "JSON_QUERY_ARRAY(raw_payload, '$.parts')" in result.stdout
    assert "fields.parts[SAFE_OFFSET(3)].text" in result.stdout
    assert "[OFFSET(" not in result.stdout


@pytest.mark.parametrize("plugin", ["python", "java", "go"])
def test_the_printed_duckdb_query_flags_what_the_draft_flags(plugin):
    # The query as printed, run over the plugin's golden export as a table,
    # gives the hits the embedded selection gives.
    result = miner("sql", "--dialect", "duckdb", "--table", "agent_events", "--plugin", plugin,
                   *WINDOW)  # fmt: skip
    assert result.exit_code == 0, result.output
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    table = ds.dataset(GOLDEN / plugin / "export.parquet").to_table()
    con.register("agent_events", table)
    rows = con.sql(result.stdout).fetchall()
    since, until = datetime(2026, 11, 1, tzinfo=UTC), datetime(2026, 12, 1, tzinfo=UTC)
    expected = selected(GOLDEN / plugin, since, until)
    assert {row[0] for row in rows} == set(expected.flags)
    # Every signal's hits, as the draft names them: nothing is left to Python.
    hits = {
        (sid, h["signal"], h["rule"], h["invocation_id"]) for sid, _s, _f, found, *_ in rows
        for h in found
    }  # fmt: skip
    assert hits == {
        (sid, r.signal, r.rule, r.invocation)
        for sid, f in expected.flags.items()
        for r in f.reasons
    }
    assert {row[0]: row[2] for row in rows} == {
        sid: "+".join(sorted(f.signals)) for sid, f in expected.flags.items()
    }


@pytest.mark.parametrize("dialect", ["bigquery", "spark"])
def test_the_query_transpiles_with_nothing_dropped(dialect, caplog):
    # sqlglot logs what it cannot carry over (a regex flag, a null order): a
    # warning would be a query that means something else where it runs.
    with caplog.at_level(logging.WARNING, logger="sqlglot"):
        result = miner("sql", "--dialect", dialect, *WINDOW)
    assert result.exit_code == 0, result.output
    assert [r.getMessage() for r in caplog.records if r.name == "sqlglot"] == []
    assert "REGEXP_REPLACE(" in result.stdout  # the complaint rule's unquoting


def test_an_unknown_dialect_is_a_usage_error():
    result = miner("sql", "--dialect", "oracle")
    assert result.exit_code == 2 and "--dialect 'oracle'" in result.stderr


def test_now_in_the_querys_window_is_whole_seconds_as_in_the_drafts():
    # miner draft reads "now" (and "90m" before it) in whole seconds
    # (miner.window.now); the query printed for the same window must too.
    result = miner("sql", "--dialect", "duckdb", "--since", "90m", "--until", "now")
    assert result.exit_code == 0, result.output
    times = re.findall(r"'(\d{4}-\d\d-\d\dT[\d:.]+)\+00:00'", result.stdout)
    assert times, result.stdout[-2000:]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", moment) for moment in times), times


def test_now_is_source_date_epoch_when_it_is_set_as_draftedAt_is(monkeypatch):
    # A window typed relative to now is part of a run's provenance: under
    # SOURCE_DATE_EPOCH (reproducible runs) it is read from that time.
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764979200")  # 2025-12-06T00:00:00Z
    result = miner("sql", "--dialect", "duckdb", "--since", "36h", "--until", "now")
    assert result.exit_code == 0, result.output
    times = set(re.findall(r"'(\d{4}-\d\d-\d\dT[\d:.]+)\+00:00'", result.stdout))
    # The window's bounds, and the grace around them all from that time too.
    assert {"2025-12-04T12:00:00", "2025-12-06T00:00:00"} <= times, times
    assert all(moment.startswith("2025-12-0") for moment in times), times
