"""The per-signal golden cases under ``tests/cases/signals/<name>/``: rows in
(``rows.json``, as a plugin writes them), the signal's expected hits out
(``flags.json``: session, rule, turn), and ``case.json`` (what the case is
about, the signal's config, negative feedback). Every engine must give the
same hits: ``tests/test_signal_cases.py`` (DuckDB) and
``tests/test_spark_engine.py`` (Spark) run them."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from pydantic import BaseModel

CASES = Path(__file__).resolve().parent / "cases" / "signals"
NAMES = sorted(p.name for p in CASES.iterdir() if p.is_dir())
WINDOW = (datetime(2026, 11, 1, tzinfo=UTC), datetime(2026, 12, 1, tzinfo=UTC))


def export(name: str, folder: Path) -> Path:
    """The case's rows as a one-file Parquet export in ``folder``."""
    rows = json.loads((CASES / name / "rows.json").read_text())
    frame = pd.DataFrame(rows)
    frame["timestamp"] = pd.to_datetime(frame["timestamp"], utc=True)
    folder.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), folder / "part.parquet")
    return folder


def setup(name: str) -> tuple[Any, Any]:
    """The pipeline config with the case's signal config, and its feedback."""
    from miner.config import SignalsConfig, load_config
    from miner.sample import NegativeFeedback
    from tests.conftest import PIPELINE

    case = json.loads((CASES / name / "case.json").read_text())
    config = load_config(PIPELINE)
    # SignalsConfig is built at import from the signal modules, so mypy sees
    # no type for it; it is a pydantic model like the others.
    configured: BaseModel = config.signals
    signals = SignalsConfig.model_validate(configured.model_dump() | case.get("config", {}))
    feedback = case.get("feedback", {})
    negative = NegativeFeedback(
        frozenset(feedback.get("sessions", [])), frozenset(feedback.get("invocations", []))
    )
    return config.model_copy(update={"signals": signals}), negative


def hits(name: str, flags: dict[str, Any]) -> list[list[Any]]:
    """The case's signal's hits, as ``flags.json`` holds them."""
    return sorted(
        [sid, r.rule, r.invocation]
        for sid, f in flags.items()
        for r in f.reasons
        if r.signal == name
    )


def expected(name: str) -> list[list[Any]]:
    return sorted(json.loads((CASES / name / "flags.json").read_text()))
