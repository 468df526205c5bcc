"""``open_export`` lists an export's files and reads their footers without a
pyarrow dataset (importing one imports pandas, which the first stage's child
must not): the files, their order and the columns a dataset of the export
would have."""

from __future__ import annotations

from pathlib import Path

import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from miner.source import open_export

ROOT = Path(__file__).resolve().parent.parent


def _layout(root: Path) -> Path:
    """A hive tree with what pyarrow's discovery skips and infers."""
    rows = pq.read_table(ROOT / "tests" / "golden" / "python" / "export.parquet")
    for folder in (
        "year=2026/month=11", "year=2026/month=12", "year=__HIVE_DEFAULT_PARTITION__/month=1",
        "_staging", ".hidden", "year=2025/month=2/sub",
    ):  # fmt: skip
        (root / folder).mkdir(parents=True)
        pq.write_table(rows, root / folder / "part-0.parquet")
    pq.write_table(rows, root / "year=2026/month=11" / "_partial.parquet")
    (root / "_SUCCESS").write_text("")
    return root


@pytest.mark.parametrize(
    "export",
    ["sample_traces/traces", "tests/golden/go/export.parquet", "layout", "layout/"],
)
def test_an_export_opens_with_a_datasets_files_and_columns(export, tmp_path):
    if export.startswith("layout"):
        path = str(_layout(tmp_path / "layout")) + export.removeprefix("layout")
    else:
        path = str(ROOT / export)
    dataset = ds.dataset(path, format="parquet", partitioning="hive")
    opened = open_export(path)
    assert list(opened.files) == list(dataset.files)
    assert opened.schema.equals(dataset.schema)
