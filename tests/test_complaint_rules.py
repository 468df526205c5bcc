"""The complaint detector as data: every pattern reads alike in RE2 (Arrow,
DuckDB) and Java (Spark), and docs/signals.md shows the rules the code runs."""

from __future__ import annotations

import os
import re

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from miner.signals import complaint
from miner.signals.complaint import (
    ASK,
    ID,
    QUOTED,
    RULES,
    THRESHOLD,
    ComplaintConfig,
    Scorer,
    is_portable,
    rules_markdown,
)
from tools.signals_report import ROOT, project_turns, third_party_turns

PATTERNS = {
    **{rule.name: rule.pattern for rule in RULES},
    "QUOTED": QUOTED,
    "APOLOGY": complaint.APOLOGY,
    "ASK": ASK,
    "ID": ID,
}


def _texts() -> list[str]:
    """The project's turns and a slice of the third-party ones, with the
    shapes a rule treats apart (quotes, capitals, marks alone, accents)."""
    extra = ["??", "!!!", "WHERE IS MY PARCEL", 'the "Terrible Twos" book', "ÉTAT GÉNÉRAL NUL"]
    sample = [t.text for t in third_party_turns("test")[::5]]
    return [t.text for t in project_turns()] + sample + extra


def _arrow_hits(texts: list[str]) -> np.ndarray:
    column = pc.replace_substring_regex(pa.array(texts, pa.string()), QUOTED, " ")
    return np.column_stack(
        [pc.match_substring_regex(column, rule.pattern).to_numpy(False) for rule in RULES]
    )


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_every_pattern_keeps_to_the_portable_subset(name):
    pattern = PATTERNS[name]
    assert is_portable(pattern), f"{name}: outside the RE2/Java subset"
    re.compile(pattern)  # and Python reads it (the session cues run there)


@pytest.mark.parametrize(
    "pattern",
    [r"(?<!\w)x", r"x(?=y)", r"(?P<n>x)", r"(x)\1", r"x*+", r"[[:alpha:]]", r"a(?i)b", r"\p{L}"],
)
def test_the_subset_refuses_what_one_engine_reads_otherwise(pattern):
    assert not is_portable(pattern)


def test_the_rules_match_alike_in_duckdb_and_arrow():
    texts = _texts()
    con = duckdb.connect()
    con.execute("CREATE TABLE turns AS SELECT * FROM (SELECT unnest($t) AS text)", {"t": texts})
    unquote = "CREATE TABLE plain AS SELECT regexp_replace(text, $q, ' ', 'g') AS text FROM turns"
    con.execute(unquote, {"q": QUOTED})
    columns = [
        con.execute("SELECT regexp_matches(text, $p) FROM plain", {"p": rule.pattern}).fetchall()
        for rule in RULES
    ]
    duck = np.array([[row[0] for row in column] for column in columns]).T
    assert (duck == _arrow_hits(texts)).all()
    # And the score an engine sums is the scorer's, verdict for verdict.
    weights = np.array([rule.weight for rule in RULES])
    verdicts = np.round(duck @ weights, 6) >= THRESHOLD
    scorer = Scorer(ComplaintConfig())
    assert verdicts.tolist() == [s >= THRESHOLD for s, _ in scorer.score_many(texts)]


def test_the_signals_scores_in_groups_are_the_scorers():
    # The signal's SQL runs a rule only where its group's alternation
    # matched (``complaint.RULES_PER_GROUP``): every message still scores as
    # the scorer scores it, rule for rule, and the rules that ignore case are
    # gated by groups (more of them than a group holds).
    texts = _texts()
    signal = complaint.Complaint(ComplaintConfig(), None)
    [(_step, scored)] = [s for s in signal.steps() if s[0] == "complaint_scored"]
    assert "any_ci_0" in scored and "any_cs_0" not in scored
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE events AS SELECT 's' AS session_id, CAST(i AS VARCHAR) AS invocation_id, "
        "TIMESTAMP '2026-01-01' + to_seconds(i) AS ts, 'USER_MESSAGE_RECEIVED' AS kind, text "
        "FROM (SELECT unnest(range(len($t))) AS i, unnest($t) AS text)",
        {"t": texts},
    )
    rows = con.execute(f"SELECT invocation_id, score, rules FROM ({scored}) s").fetchall()
    by_message = {int(i): (float(score), rules) for i, score, rules in rows}
    expected = Scorer(ComplaintConfig()).score_many(texts)
    said = [i for i, text in enumerate(texts) if text]
    assert sorted(by_message) == said
    for i in said:
        score, rules = expected[i]
        assert by_message[i] == (pytest.approx(score), ", ".join(rules)), texts[i]


@pytest.fixture(scope="module")
def spark():
    os.environ["MINER_SPARK_MASTER"] = "local[1]"
    from miner.engine.spark import session

    active = session()
    yield active
    active.stop()
    os.environ.pop("MINER_SPARK_MASTER", None)


def test_the_rules_match_alike_in_spark_and_arrow(spark):
    # Spark's rlike and regexp_replace are java.util.regex: each pattern
    # compiles there and finds what RE2 finds, row for row.
    from pyspark.sql import functions as F

    texts = _texts()
    frame = spark.createDataFrame([(i, t) for i, t in enumerate(texts)], "i int, text string")
    plain = frame.select("i", F.regexp_replace("text", QUOTED, " ").alias("text"))
    rows = plain.select(
        "i", *(F.col("text").rlike(rule.pattern).alias(f"r{n}") for n, rule in enumerate(RULES))
    ).collect()
    java = np.array([[row[f"r{n}"] for n in range(len(RULES))] for row in sorted(rows)])
    assert (java == _arrow_hits(texts)).all()


@pytest.mark.parametrize("rule", RULES, ids=[rule.name for rule in RULES])
def test_each_rule_fires_on_its_documented_example(rule):
    _score, fired = Scorer(ComplaintConfig()).score(rule.example)
    assert rule.name in fired, fired


def test_the_docs_show_the_rules_the_code_runs():
    doc = (ROOT / "docs" / "signals.md").read_text(encoding="utf-8")
    begin, end = "<!-- complaint rules: begin -->\n", "<!-- complaint rules: end -->"
    shown = doc[doc.index(begin) + len(begin) : doc.index(end)]
    assert shown == rules_markdown(), (
        "docs/signals.md differs from the code: .venv/bin/python -m tools.signals_report --docs"
    )


@pytest.mark.parametrize("phrase", ["a+b", "why?", "50% (off)", "c:\\path", "[x]", "{1}", "a|b"])
def test_a_configured_phrase_is_a_portable_literal(phrase):
    pattern = complaint.phrase_pattern([phrase])
    assert is_portable(pattern)
    texts = [f"well, {phrase.upper()}!", f"well {phrase}x", "nothing"]
    found = pc.match_substring_regex(pa.array(texts), pattern).to_pylist()
    assert found == [True, False, False]


#: Texts near each gated pattern: a quote of each kind, the marks alone, in
#: capitals, apologies spelt otherwise (the Kelvin sign is a ``K`` to RE2's
#: ``(?i)``, long s is not an ``s``).
_NEAR = [
    '"x"', "“x”", "it's 'x' ok", "'x'", "''", "??", "!!", "?!", "x!!y", "!!!", ". ? !",
    "WHERE IS MY PARCEL", "ÉTAT GÉNÉRAL NUL", "ABCDEFGH", "ABCDEFGh", "SORRY", "Apologise",
    "APOLOGIES", "ſorry", "I apologize", "so sorry!", "\u212aEEP SORRY",
]  # fmt: skip


@pytest.mark.parametrize("pattern", sorted(complaint.HELD_BY_EVERY_MATCH))
def test_what_every_match_holds_holds_wherever_the_pattern_matches(pattern):
    # A pattern runs only where its cheap condition holds
    # (``HELD_BY_EVERY_MATCH``): the condition holds on every text the
    # pattern matches, and a text it rules out is left as the pattern would
    # leave it.
    texts = [*_texts(), *_NEAR]
    held = complaint.held_by_matches([pattern], "text")
    assert held is not None
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT unnest($t) AS text", {"t": texts})
    rows = con.execute(
        f"SELECT text, regexp_matches(text, $p), {held} FROM t", {"p": pattern}
    ).fetchall()
    assert [text for text, found, holds in rows if found and not holds] == []
    # The condition rules some texts out, or it would cost without saving.
    assert any(not holds for _text, _found, holds in rows)


def test_a_gated_search_runs_only_where_its_condition_holds():
    # Where a pattern has no condition the search runs as it is; one without
    # for any of its patterns is not gated.
    run = "regexp_matches(text, 'x')"
    gated = complaint._gated([QUOTED], "text", run, "false")
    assert gated.startswith("CASE WHEN ((strpos(text, '\"') > 0") and gated.endswith(
        "ELSE false END"
    )
    assert complaint._gated([QUOTED, RULES[0].pattern], "text", run, "false") == run
    signal = complaint.Complaint(ComplaintConfig(), None)
    steps = dict(signal.steps())
    assert "CASE WHEN ((strpos(text, '\"') > 0" in steps["complaint_scored"]
    assert "strpos(lower(text), 'sorry') > 0" in steps["complaint_apologies"]
