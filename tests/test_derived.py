"""The derived word lists kept on disk: the same value as computed, and
computed afresh when miner's source or a data package changes."""

from __future__ import annotations

import json

from miner import derived


def test_a_kept_list_is_read_back_equal_and_computed_once(tmp_path, monkeypatch):
    monkeypatch.setenv("MINER_CACHE_DIR", str(tmp_path))
    calls = []

    def words() -> tuple[frozenset[str], str]:
        calls.append(1)
        return frozenset({"Köln", "metz"}), "a|b"

    first = derived.kept(words)()
    # A new process: a fresh wrapper over the same function reads the file.
    second = derived.kept(words)()
    assert first == second == (frozenset({"Köln", "metz"}), "a|b")
    assert len(calls) == 1
    [kept] = tmp_path.glob("*.json")
    assert derived.cache_key() in kept.name
    assert json.loads(kept.read_text(encoding="utf-8")) == {
        "tuple": [{"set": ["Köln", "metz"]}, "a|b"]
    }


def test_another_key_computes_afresh(tmp_path, monkeypatch):
    monkeypatch.setenv("MINER_CACHE_DIR", str(tmp_path))
    derived.kept(lambda: frozenset({"old"}))()
    # As when miner's source or a data package's version changes.
    monkeypatch.setattr(derived, "cache_key", lambda: "another")
    assert derived.kept(lambda: frozenset({"new"}))() == frozenset({"new"})


def test_an_unreadable_cache_is_computed(tmp_path, monkeypatch):
    monkeypatch.setenv("MINER_CACHE_DIR", str(tmp_path))

    def value() -> str:
        return "computed"

    derived.kept(value)()
    for kept in tmp_path.glob("*.json"):
        kept.write_text("{not json", encoding="utf-8")
    assert derived.kept(value)() == "computed"
    monkeypatch.setenv("MINER_CACHE_DIR", "")
    assert derived.kept(value)() == "computed"


def test_the_redaction_lists_are_kept_as_computed(tmp_path, monkeypatch):
    from miner.redaction.lexicon import names

    monkeypatch.setenv("MINER_CACHE_DIR", str(tmp_path))
    computed = names.region_names.__wrapped__()  # type: ignore[attr-defined]
    assert names.region_names() == computed
    assert derived.kept(names.region_names.__wrapped__)() == computed  # type: ignore[attr-defined]
