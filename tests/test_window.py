"""The window, one definition rendered for pyarrow and for SQL: both pick the
same rows of a real hive export, at the edges, with naive and zoned
timestamps, and for a window wider than Arrow can hold; and its bounds as
typed (``--since 7d``)."""

from datetime import UTC, datetime, timedelta

import duckdb
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from miner.errors import UsageError
from miner.window import EARLIEST, LATEST, Window, parse_time

START = datetime(2026, 11, 1, tzinfo=UTC)
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def _export(tmp_path, tz):
    """Rows every 6 hours over 10 days, one dt=YYYY-MM-DD folder per day."""
    stamps = [START + timedelta(hours=6 * i) for i in range(40)]
    for day in sorted({s.date() for s in stamps}):
        rows = [s for s in stamps if s.date() == day]
        values = [s if tz else s.replace(tzinfo=None) for s in rows]
        folder = tmp_path / f"dt={day.isoformat()}"
        folder.mkdir()
        table = pa.table({"timestamp": pa.array(values, pa.timestamp("us", tz=tz))})
        pq.write_table(table, folder / "part-0.parquet")
    return tmp_path


def _by_arrow(root, window):
    dataset = ds.dataset(root, format="parquet", partitioning="hive")
    table = dataset.to_table(columns=["timestamp"], filter=window.arrow(dataset.schema))
    return sorted(_utc(v) for v in table.column("timestamp").to_pylist())


def _by_sql(root, window):
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    source = (
        f"read_parquet('{root}/*/*.parquet', hive_partitioning = true, hive_types_autocast = false)"
    )
    rows = con.sql(f"SELECT timestamp FROM {source} WHERE {window.sql(days=True)}").fetchall()
    return sorted(_utc(v) for (v,) in rows)


def _utc(moment):
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


@pytest.mark.parametrize("tz", [None, "UTC"])
@pytest.mark.parametrize(
    "since, until",
    [
        (START + timedelta(days=2), START + timedelta(days=5)),  # on row times: [since, until)
        (START + timedelta(days=2, hours=1), START + timedelta(days=2, hours=7)),  # one row
        (START - timedelta(days=30), START),  # before every row
        (datetime(1, 1, 1, tzinfo=UTC), datetime(9999, 1, 1, tzinfo=UTC)),  # clamped
    ],
)
def test_arrow_and_sql_renderings_pick_the_same_rows(tmp_path, tz, since, until):
    root = _export(tmp_path, tz)
    window = Window(since, until)
    expected = sorted(
        START + timedelta(hours=6 * i)
        for i in range(40)
        if since <= START + timedelta(hours=6 * i) < until
    )
    assert _by_arrow(root, window) == expected
    assert _by_sql(root, window) == expected


def test_days_prune_by_the_clamped_bounds():
    window = Window(datetime(1, 1, 1, tzinfo=UTC), datetime(9999, 1, 1, tzinfo=UTC))
    assert window.terms(days=True) == [
        ("timestamp", ">=", EARLIEST),
        ("timestamp", "<", LATEST),
        ("dt", ">=", EARLIEST.date()),
        ("dt", "<=", LATEST.date()),
    ]
    assert "dt" not in window.sql()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7d", datetime(2026, 11, 22, 12, 0, tzinfo=UTC)),
        ("36h", datetime(2026, 11, 28, 0, 0, tzinfo=UTC)),
        ("90m", datetime(2026, 11, 29, 10, 30, tzinfo=UTC)),
        ("2026-11-20", datetime(2026, 11, 20, tzinfo=UTC)),
        ("2026-11-20T08:30:00", datetime(2026, 11, 20, 8, 30, tzinfo=UTC)),
        ("now", NOW),
    ],
)
def test_time_options(text, expected):
    assert parse_time(text, NOW, "--since") == expected


def test_time_option_error_names_the_option():
    with pytest.raises(UsageError, match=r"--until 'soon'"):
        parse_time("soon", NOW, "--until")


@pytest.mark.parametrize(
    ("typed", "hours"), [("7d", 168), ("36h", 36), ("90m", 1.5), (" 2 d ", 48)]
)
def test_a_duration_reads_alike_in_the_config_and_on_the_command_line(typed, hours):
    # One reading of 7d/36h/90m (``window.duration``): the config's
    # session_grace and --since's relative times, spaces allowed in both.
    from miner.config import parse_duration

    assert parse_duration(typed) == timedelta(hours=hours)
    assert NOW - parse_time(typed, NOW, "--since") == timedelta(hours=hours)


def test_a_duration_in_minutes_is_read_in_minutes_alone():
    # 10**9 minutes is 694,444 days, which a timedelta holds, though 10**9
    # days would overflow one (each unit was computed for any unit typed):
    # the config refuses it as out of the field's range, not as overflowing.
    from pydantic import ValidationError

    from miner.config import SamplingConfig
    from miner.window import duration

    assert duration(f"{10**9}m") == timedelta(minutes=10**9)
    with pytest.raises(ValidationError) as refused:
        SamplingConfig.model_validate({"session_grace": f"{10**9}m"})
    assert refused.value.errors()[0]["type"] == "less_than_equal"
