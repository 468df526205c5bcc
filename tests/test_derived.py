"""The derived word lists kept on disk: the same value as computed, and
computed afresh when the rules' source or a data package changes."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys

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
    assert derived.cache_key(__name__) in kept.name
    assert json.loads(kept.read_text(encoding="utf-8")) == {
        "tuple": [{"set": ["Köln", "metz"]}, "a|b"]
    }


def test_another_key_computes_afresh(tmp_path, monkeypatch):
    monkeypatch.setenv("MINER_CACHE_DIR", str(tmp_path))
    derived.kept(lambda: frozenset({"old"}))()
    # As when miner's source or a data package's version changes.
    monkeypatch.setattr(derived, "cache_key", lambda _module: "another")
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


def test_a_place_s_countries_are_read_from_the_cache(tmp_path, monkeypatch):
    # Deriving them reads CLDR's languages and pycountry (0.2 s of CPU), on a
    # run's first name before a comma: kept, not derived again.
    from miner.redaction.lexicon import names

    monkeypatch.setenv("MINER_CACHE_DIR", str(tmp_path))
    assert names.places_and_their_countries in derived.KEPT
    assert {"france|FR", "montana|US", "georgia|GE", "georgia|US"} <= (
        names.places_and_their_countries()
    )


def test_the_key_is_the_kept_functions_folder_not_the_rest_of_miner(tmp_path, monkeypatch):
    """A change to miner outside the rules' folder keeps the lists; a change
    inside computes them afresh."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "__init__.py").write_text("")
    (rules / "words.py").write_text("WORDS = 1\n")
    (tmp_path / "elsewhere.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("rules.words")
    key = derived.cache_key.__wrapped__  # uncached: each call reads the files again
    before = key("rules.words")
    (tmp_path / "elsewhere.py").write_text("X = 2\n")
    assert key("rules.words") == before
    (rules / "words.py").write_text("WORDS = 2\n")
    assert key("rules.words") != before


def test_setup_computes_every_list_and_a_later_run_reads_them(tmp_path):
    """``python -m miner.redaction.lexicon`` (make setup) writes each kept list; run
    again, it reads them all back and rewrites none."""
    env = {**os.environ, "MINER_CACHE_DIR": str(tmp_path)}

    def setup() -> dict[str, int]:
        done = subprocess.run(
            [sys.executable, "-m", "miner.redaction.lexicon"],
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        kept = {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("*.json")}
        assert len(kept) == int(done.stdout.split()[0]) >= 7
        return kept

    first = setup()
    assert setup() == first


def test_word_classes_are_lemminflects_and_a_warm_run_never_loads_it(tmp_path):
    """The verdict's parts of speech, read from the kept lists, are
    lemminflect's own for every form its lexicon holds (and for words it does
    not know); with the lists kept, the lookup does not import lemminflect
    (113 MiB resident)."""
    env = {**os.environ, "MINER_CACHE_DIR": str(tmp_path)}
    check = (
        "import sys\n"
        "from miner.redaction.lexicon.wordclass import word_classes\n"
        "cold = 'lemminflect' in sys.modules\n"
        "from lemminflect import Lemmatizer, getAllLemmas\n"
        "forms = [*Lemmatizer()._getLemmaDict(), 'Chair', 'webcam', 'Quintus', '']\n"
        "assert len(forms) > 60000\n"
        "wrong = [f for f in forms if word_classes(f) != frozenset(getAllLemmas(f))]\n"
        "assert not wrong, wrong[:5]\n"
        "print(cold)\n"
    )
    warm = (
        "import sys\n"
        "from miner.redaction.lexicon.wordclass import word_classes\n"
        "assert word_classes('chair') == {'NOUN', 'VERB'}\n"
        "assert 'lemminflect' not in sys.modules\n"
    )
    for code in (check, warm):
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def test_another_keys_list_is_removed_once_no_run_has_read_it_for_a_month(tmp_path, monkeypatch):
    monkeypatch.setenv("MINER_CACHE_DIR", str(tmp_path))

    def words() -> frozenset[str]:
        return frozenset({"Köln"})

    monkeypatch.setattr(derived, "cache_key", lambda _module: "old")
    derived.kept(words)()
    [old] = tmp_path.glob("*.json")
    derived.kept(words)()  # read back: its access time is now
    monkeypatch.setattr(derived, "cache_key", lambda _module: "new")
    derived.kept(words)()
    assert old.exists()  # another installation may still read it
    month_ago = old.stat().st_atime - derived.STALE_SECONDS - 60
    os.utime(old, (month_ago, month_ago))
    monkeypatch.setattr(derived, "cache_key", lambda _module: "newer")
    derived.kept(words)()
    assert not old.exists()
    assert sorted(p.name.rsplit("-", 1)[1] for p in tmp_path.glob("*.json")) == [
        "new.json",
        "newer.json",
    ]


def test_a_list_kept_as_hashes_holds_its_words_and_no_other():
    from miner.derived import HashedWords

    words = HashedWords(["rajgród", "krk", "dibujante técnico"])
    assert "krk" in words and "dibujante técnico" in words and "rajgród" in words
    assert "krak" not in words and "" not in words and "Krk" not in words
    assert len(words) == 3


def test_a_list_kept_as_hashes_is_read_back_from_the_cache_as_its_words(tmp_path, monkeypatch):
    from miner import derived

    monkeypatch.setenv("MINER_CACHE_DIR", str(tmp_path))
    computed: list[str] = []

    def villages() -> frozenset[str]:
        computed.append("computed")
        return frozenset({"krk", "rajgród"})

    villages.__module__ = derived.__name__
    first = derived.kept_as_hashes(villages)
    second = derived.kept_as_hashes(villages)
    derived.KEPT.remove(first)
    derived.KEPT.remove(second)
    assert "krk" in first() and "rajgród" in second() and "paris" not in second()
    assert computed == ["computed"]  # the second read the first's file
