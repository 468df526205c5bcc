"""docs/config.md is the config's models written out: it cannot drift."""

from __future__ import annotations

from pydantic import BaseModel

from miner.config import IdentifierConfig, PipelineConfig
from miner.configdoc import render
from tests.conftest import PIPELINE, ROOT

DOC = ROOT / "docs" / "config.md"


def test_the_reference_is_what_the_models_say():
    assert DOC.read_text() == render(), "docs/config.md is stale: run `make config-doc`"


def _tables(model: type[BaseModel], name: str = ""):
    for key, info in model.model_fields.items():
        inner = info.annotation
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            yield from _tables(inner, f"{name}.{key}".strip("."))
        elif key not in ("path", "identifiers"):  # identifiers: its own tables
            yield f"{name}.{key}".strip("."), info


def test_every_key_is_documented_with_its_meaning():
    keys = [*_tables(PipelineConfig), *_tables(IdentifierConfig, "identifiers")]
    assert len(keys) > 50
    undocumented = [key for key, info in keys if not (info.description or "").strip()]
    assert undocumented == []
    text = DOC.read_text()
    for key, _info in keys:
        table, _, leaf = key.rpartition(".")
        assert f"`[{table}]`" in text or f"`[[{table}]]`" in text, table
        assert f"| `{leaf}` |" in text, key


def test_a_changed_default_shows_in_the_reference(monkeypatch):
    from miner.config import ScoreConfig

    field = ScoreConfig.model_fields["response_match_threshold"]
    monkeypatch.setattr(field, "default", 0.7)
    row = "| `response_match_threshold` | number, optional (>= 0, <= 1) |"
    assert f"{row} `0.7` |" in render()
    assert f"{row} unset |" in DOC.read_text()


def test_the_sample_config_points_at_the_reference():
    assert "docs/config.md" in PIPELINE.read_text()
