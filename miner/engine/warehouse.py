"""The selection for the warehouse: ``miner sql`` prints the selection query
for the plugin's own table (BigQuery: ``content``, ``attributes`` and
``latency_ms`` are JSON columns), so a team can run it where the data lives
and export only the flagged sessions' rows (``docs/engines.md``)."""

from __future__ import annotations

from datetime import datetime

from miner.engine.events import ROW_COLUMNS
from miner.engine.query import render, rows_sql, scan_types, selection_sql
from miner.sample import NegativeFeedback, _signals

#: The plugin table's JSON columns (BigQuery agent analytics schema).
JSON_COLUMNS = ("content", "attributes", "latency_ms")
#: Columns each plugin's table has, of those the selection reads (the Java
#: and Go tables have no event_id and no latency_ms, the Go one no status;
#: as tests/golden/ holds them, built from the plugins' own source).
PLUGIN_COLUMNS = {
    "python": tuple(c for c in ROW_COLUMNS if c != "source_file"),
    "java": tuple(c for c in ROW_COLUMNS if c not in ("source_file", "event_id", "latency_ms")),
    "go": tuple(
        c for c in ROW_COLUMNS if c not in ("source_file", "event_id", "status", "latency_ms")
    ),
}


def table_name(table: str) -> str:
    """``project.dataset.table`` as a (DuckDB-dialect) qualified name."""
    return ".".join('"' + part.replace('"', '""') + '"' for part in table.split("."))


def selection_for_table(
    table: str,
    dialect: str,
    plugin: str,
    signals_config: object,
    feedback: NegativeFeedback,
    scan: tuple[datetime, datetime],
    window: tuple[datetime, datetime],
) -> str:
    """The selection query over ``table`` in ``dialect``, pretty-printed."""
    from miner.signals import REGISTRY

    signals = _signals(feedback, signals_config)
    rows = rows_sql(
        table_name(table),
        PLUGIN_COLUMNS[plugin],
        *scan,
        scan_types(REGISTRY),
        json_columns=JSON_COLUMNS if dialect == "bigquery" else (),
    )
    return render(selection_sql(rows, signals, *window), dialect, pretty=True)
