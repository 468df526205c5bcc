"""Every signal's golden cases (``tests/cases/signals/<name>/``) on the
embedded engine; ``tests/test_spark_engine.py`` runs them on Spark."""

from __future__ import annotations

import pytest

from miner import source
from miner.engine import duck
from miner.sample import SCAN_EVENT_TYPES, select
from miner.signals import NAMES as SIGNALS
from tests import signal_cases


def test_every_signal_has_golden_cases():
    assert sorted(SIGNALS) == signal_cases.NAMES


@pytest.mark.parametrize("name", signal_cases.NAMES)
def test_the_embedded_engine_gives_each_signals_expected_hits(name, tmp_path):
    config, negative = signal_cases.setup(name)
    export = source.open_export(signal_cases.export(name, tmp_path / "export"))
    with duck.connect(config.scan) as con:
        duck.export_rows(con, export, *signal_cases.WINDOW, SCAN_EVENT_TYPES)
        found = select(con.table, negative, config.signals, *signal_cases.WINDOW)
    expected = signal_cases.expected(name)
    assert expected  # every case fires somewhere, and not everywhere
    assert signal_cases.hits(name, found.flags) == expected
    assert {sid for sid, _rule, _turn in expected} < {r["session_id"] for r in _rows(name)}


def _rows(name: str) -> list[dict]:
    import json

    return json.loads((signal_cases.CASES / name / "rows.json").read_text())
