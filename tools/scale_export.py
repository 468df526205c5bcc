"""Large exports for `make bench-scale`, built from ``tests/golden`` (rows the
ADK plugins' own source wrote, in each dialect) and widened to the shape of
a real agent's export.

A real ADK 2.13 agent's export (300 sessions, 7,041 rows, the Python
plugin) has 23 rows per session, ``content`` of 400 characters on average
(p95 1.5k, max 5.9k) and ``attributes`` of 970 (p95 2.5k). The golden
sessions are copied with fresh session and event ids and copy-tagged
strings (``tools.bench.vary_strings``), and each JSON object payload gets
one more key of words (``notes``) whose length is drawn so the columns
reach that shape (``SHAPES``); no rule of miner reads the key. Everything
is streamed, a row group at a time (``write``), so a 20M-row export is
built in a few hundred MiB; ``one-file`` goes through an Arrow file on disk
that the Parquet writer reads memory-mapped, so its single row group is
not held in memory either.

Usage: ``python -m tools.scale_export TARGET ROWS [--dialect D] [--shape S]
[--compression snappy|zstd|gzip]`` prints the built export's shape.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

from tools.bench import vary_strings

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
DIALECTS = ("python", "java", "go")
FIRST_DAY = datetime(2026, 10, 1, tzinfo=UTC)
DAYS = 22
#: Distinct copies of the golden sessions (their strings tagged apart);
#: further copies reuse them with fresh ids and fresh padding.
VARIANTS = 64


@dataclass(frozen=True)
class Shape:
    """The width of the rows and the layout of the files."""

    content_pad: tuple[float, float, int]
    """Padding of a JSON object ``content``: lognormal (median, sigma), cap."""
    attributes_pad: tuple[float, float, int]
    """The same for ``attributes``."""
    huge_content: tuple[float, int] = (0.0, 0)
    """This share of rows gets a ``content`` of this many characters more."""
    files_per_day: int = 4
    rows_per_file: int | None = None
    """Files of at most this many rows instead (each one row group)."""
    row_group: int = 58_000
    one_file: bool = False
    """The whole export as one file of one row group, no ``dt=`` folders."""


#: Widths tuned on the python golden export to the real agent's shape.
REAL = Shape(content_pad=(125.0, 1.3, 5_000), attributes_pad=(180.0, 1.2, 2_400))
SHAPES = {
    "real": REAL,
    # attributes of 10 KB, and one content in a hundred of 50 KB.
    "wide": Shape(
        content_pad=(160.0, 1.3, 5_700),
        attributes_pad=(10_000.0, 0.1, 12_000),
        huge_content=(0.03, 50_000),
    ),
    "small-files": Shape(REAL.content_pad, REAL.attributes_pad, rows_per_file=2_000),
    "one-file": Shape(REAL.content_pad, REAL.attributes_pad, one_file=True),
}


def _golden(dialect: str) -> pa.Table:
    table = ds.dataset(GOLDEN / dialect, format="parquet").to_table()
    if "dt" in table.column_names:
        table = table.drop_columns(["dt"])
    return table


def _variants(dialect: str) -> tuple[pa.Table, np.ndarray]:
    """``VARIANTS`` copies of the golden sessions, strings tagged apart, one
    after the other; and each row's offset from its session's first row."""
    golden = _golden(dialect)
    starts = golden.group_by("session_id").aggregate([("timestamp", "min")]).to_pylist()
    start_of = {s["session_id"]: s["timestamp_min"] for s in starts}
    offsets = np.array(
        [
            (t - start_of[s]).total_seconds() * 1e6
            for t, s in zip(
                golden.column("timestamp").to_pylist(),
                golden.column("session_id").to_pylist(),
                strict=True,
            )
        ],
        np.int64,
    )
    copies = []
    for i in range(VARIANTS):
        copy = golden
        for column in ("content", "attributes", "error_message"):
            if column in copy.column_names:
                varied = vary_strings(copy.column(column), i)
                if column == "error_message":  # plain text: a tag in front
                    varied = pc.binary_join_element_wise(f"zz{i} ", copy.column(column), "")
                copy = copy.set_column(copy.schema.get_field_index(column), column, varied)
        copies.append(copy)
    return pa.concat_tables(copies).combine_chunks(), np.tile(offsets, VARIANTS)


_WORDS = tuple(
    " ".join(
        [
            "the order was placed and the parcel left the depot on schedule with tracking",
            "updates every few hours while the customer waited for delivery to the address",
            "given at checkout and the support agent reviewed the history of the account",
            "including previous requests notes and the reply templates used last quarter",
            "shipping carrier warehouse invoice item quantity subtotal tax discount coupon",
            "return window policy replacement exchange voucher gift wrapping instructions",
        ]
    ).split(" ")
)


def _pool(rng: np.random.Generator, size: int = 200_000) -> str:
    """A long text of plain lower-case words, for the padding."""
    words = np.array(_WORDS)
    text = ""
    while len(text) < size:
        text += " ".join(rng.choice(words, 4_000)) + " "
    return text


def _padding(
    rng: np.random.Generator, pool: str, rows: int, pad: tuple[float, float, int]
) -> pa.Array:
    """``rows`` strings of words, lognormal lengths (``pad``), each cut from
    the pool at a random place (so no two rows are likely the same)."""
    median, sigma, cap = pad
    lengths = np.minimum(rng.lognormal(np.log(median), sigma, rows), cap).astype(np.int64)
    text = pool
    while len(text) < 2 * cap:
        text += " " + text
    starts = rng.integers(0, len(text) - cap, rows)
    return pa.array(
        [text[s : s + n] for s, n in zip(starts.tolist(), lengths.tolist(), strict=True)],
        pa.large_string(),
    )


def _with_notes(column: pa.ChunkedArray | pa.Array, notes: pa.Array) -> pa.Array:
    """JSON objects with a ``notes`` key of ``notes`` appended; other values as they are."""
    values = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    values = values.cast(pa.large_string())
    is_object = pc.fill_null(pc.and_(pc.starts_with(values, "{"), pc.ends_with(values, "}")), False)
    opened = pc.utf8_slice_codeunits(values, 0, -1)
    # An empty object takes the key alone, any other one after its last key.
    comma = pc.if_else(pc.fill_null(pc.equal(values, "{}"), False), '"notes": "', ', "notes": "')
    text = pa.scalar("", pa.large_string())
    longer = pc.binary_join_element_wise(
        opened, comma.cast(pa.large_string()), notes, pa.scalar('"}', pa.large_string()), text
    )
    return pc.if_else(is_object, longer, values).cast(pa.string())


def _blocks(dialect: str, shape: Shape, rows: int, seed: int) -> Iterator[tuple[int, pa.Table]]:
    """(day, rows) blocks of the export, in order, ``shape.row_group`` rows
    at most and one day each."""
    rng = np.random.default_rng(seed)
    pool = _pool(rng)
    variants, offsets = _variants(dialect)
    unit = variants.num_rows // VARIANTS
    copies = -(-rows // unit)
    per_day = -(-copies // DAYS)
    sessions = variants.column("session_id").combine_chunks()
    events = (
        variants.column("event_id").combine_chunks()
        if "event_id" in variants.column_names
        else None
    )
    copy = 0
    written = 0
    for day in range(DAYS):
        day_copies = min(per_day, copies - copy)
        if day_copies <= 0:
            break
        day_rows = min(day_copies * unit, rows - written)
        block = shape.rows_per_file or shape.row_group
        if not shape.one_file:  # at least files_per_day files a day
            block = min(block, -(-day_rows // shape.files_per_day))
        done = 0
        while done < day_rows:
            n = min(block, day_rows - done)
            first = copy + done // unit
            # Row k of the block is row (first*unit + done%unit + k) of the endless copies.
            start = first * unit + done % unit
            index = np.arange(start, start + n)
            number = index // unit  # the copy each row belongs to
            at = index % (unit * VARIANTS)
            table = variants.take(pa.array(at))
            suffix = pc.cast(pa.array(number), pa.string())
            table = table.set_column(
                table.schema.get_field_index("session_id"),
                "session_id",
                pc.binary_join_element_wise(sessions.take(pa.array(at)), suffix, "-c"),
            )
            if events is not None:
                table = table.set_column(
                    table.schema.get_field_index("event_id"),
                    "event_id",
                    pc.binary_join_element_wise(events.take(pa.array(at)), suffix, "-c"),
                )
            # Each copy starts in its day, seconds apart, within 23 hours.
            in_day = (number - copy) % max(1, day_copies)
            begin = (FIRST_DAY + timedelta(days=day)).timestamp() * 1e6
            micros = begin + in_day * (23 * 3600e6 / max(1, day_copies)) + offsets[at]
            kind = table.schema.field("timestamp").type
            table = table.set_column(
                table.schema.get_field_index("timestamp"),
                "timestamp",
                pa.array(micros.astype(np.int64), pa.int64()).cast(kind),
            )
            content = _with_notes(
                table.column("content"), _padding(rng, pool, n, shape.content_pad)
            )
            share, size = shape.huge_content
            if share:
                huge = rng.random(n) < share
                if huge.any():
                    big = _padding(rng, pool, int(huge.sum()), (size, 0.01, size))
                    longer = _with_notes(content.filter(pa.array(huge)), big)
                    merged = content.to_pylist()
                    for k, v in zip(np.flatnonzero(huge).tolist(), longer.to_pylist(), strict=True):
                        merged[k] = v
                    content = pa.array(merged, pa.string())
            table = table.set_column(table.schema.get_field_index("content"), "content", content)
            attributes = _with_notes(
                table.column("attributes"), _padding(rng, pool, n, shape.attributes_pad)
            )
            table = table.set_column(
                table.schema.get_field_index("attributes"), "attributes", attributes
            )
            yield day, table
            done += n
        written += day_rows
        copy += day_copies


#: The Parquet compressions ``write`` offers: BigQuery's ``EXPORT DATA``
#: writes Snappy unless asked for another (GZIP or ZSTD).
COMPRESSIONS = ("snappy", "zstd", "gzip")


def write(
    target: Path,
    rows: int,
    dialect: str = "python",
    shape: str = "real",
    seed: int = 7,
    compression: str = "snappy",
) -> int:
    """Write the export under ``target``, its files compressed with
    ``compression`` (``zstd``: a quarter of Snappy's bytes for the wide
    shape, whose 20M rows take 67 GiB in Snappy); returns its rows."""
    kind = SHAPES[shape]
    target.mkdir(parents=True, exist_ok=True)
    total = 0
    options = {"compression": compression, "use_dictionary": ["event_type", "status", "agent"]}
    if kind.one_file:
        staged = target / "staged.arrow"
        writer = None
        for _day, table in _blocks(dialect, kind, rows, seed):
            if writer is None:
                writer = ipc.new_file(staged, table.schema)
            writer.write_table(table)
            total += table.num_rows
        assert writer is not None
        writer.close()
        with pa.memory_map(str(staged)) as mapped:
            whole = ipc.open_file(mapped).read_all()
            pq.write_table(
                whole, target / "export.parquet", row_group_size=max(1, total), **options
            )
            del whole
        os.remove(staged)
        return total
    current: tuple[int, int] | None = None
    writer = None
    file_rows = 0
    per_file = kind.rows_per_file
    files_per_day = kind.files_per_day
    day_rows: dict[int, int] = {}
    for day, table in _blocks(dialect, kind, rows, seed):
        if per_file is None:
            # Four files a day: a day's rows split evenly (known from the first block).
            if day not in day_rows:
                day_rows[day] = _rows_in_day(dialect, rows, day)
            limit = -(-day_rows[day] // files_per_day)
        else:
            limit = per_file
        index = 0 if current is None or current[0] != day else current[1]
        if writer is not None and (current is None or current[0] != day or file_rows >= limit):
            writer.close()
            writer = None
            index = 0 if current is None or current[0] != day else index + 1
        if writer is None:
            folder = target / f"dt={(FIRST_DAY + timedelta(days=day)):%Y-%m-%d}"
            folder.mkdir(parents=True, exist_ok=True)
            writer = pq.ParquetWriter(folder / f"part-{index:05d}.parquet", table.schema, **options)
            file_rows = 0
            current = (day, index)
        writer.write_table(table, row_group_size=kind.row_group)
        file_rows += table.num_rows
        total += table.num_rows
    if writer is not None:
        writer.close()
    return total


def _rows_in_day(dialect: str, rows: int, day: int) -> int:
    unit = _golden(dialect).num_rows
    copies = -(-rows // unit)
    per_day = -(-copies // DAYS)
    before = min(copies, per_day * day)
    return max(0, min(per_day * unit, rows - before * unit))


def window() -> tuple[datetime, datetime]:
    """The drafting window that holds every row of an export ``write`` builds."""
    return FIRST_DAY, FIRST_DAY + timedelta(days=DAYS)


def describe(target: Path) -> str:
    """The export's rows, files, row groups and column widths, measured."""
    dataset = ds.dataset(target, format="parquet", partitioning="hive")
    groups = sum(pq.ParquetFile(f).num_row_groups for f in dataset.files)
    widths = []
    for column in ("content", "attributes"):
        # A file at a time, a page at a time (no pre-buffering): the dataset
        # scanner decodes a whole row group's column, 22 GB for the one-file
        # shape's single 20M-row group (the kernel killed the bench).
        lengths = np.concatenate(
            [
                pc.fill_null(pc.utf8_length(b.column(0)), 0).to_numpy()
                for f in dataset.files
                for b in pq.ParquetFile(f, pre_buffer=False, buffer_size=1 << 20).iter_batches(
                    batch_size=65_536, columns=[column]
                )
            ]
        )
        widths.append(
            f"{column} {lengths.mean():,.0f} avg, p95 {np.percentile(lengths, 95):,.0f}, "
            f"p99 {np.percentile(lengths, 99):,.0f}, max {lengths.max():,}"
        )
    rows = dataset.count_rows()
    size = sum(os.path.getsize(f) for f in dataset.files)
    return (
        f"{rows:,} rows, {len(dataset.files)} files, {groups} row groups, "
        f"{size / 2**20:,.0f} MiB; " + "; ".join(widths)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("target", type=Path)
    parser.add_argument("rows", type=int)
    parser.add_argument("--dialect", choices=DIALECTS, default="python")
    parser.add_argument("--shape", choices=sorted(SHAPES), default="real")
    parser.add_argument("--compression", choices=COMPRESSIONS, default="snappy")
    args = parser.parse_args()
    write(args.target, args.rows, args.dialect, args.shape, compression=args.compression)
    print(describe(args.target))


if __name__ == "__main__":
    main()
