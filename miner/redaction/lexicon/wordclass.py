"""The parts of speech English gives a word form: lemminflect's lexicon
(about 70,000 forms), kept as one word list per part of speech
(``miner.derived``), so a run reads five sets and never loads lemminflect,
whose lookup tables hold 113 MiB resident once read (the 20-case draft's
peak went over its 512 MiB bound with them)."""

from __future__ import annotations

import functools

from miner.derived import kept

#: Every part of speech lemminflect's lexicon files a form under.
TAGS = ("ADJ", "ADV", "AUX", "NOUN", "VERB")


@kept
def _forms_by_tag() -> tuple[frozenset[str], ...]:
    from lemminflect import Lemmatizer

    lemmatizer = Lemmatizer()
    # The tables getAllLemmas reads (form -> {tag: lemmas}) and its overrides:
    # lemminflect has no public call that lists them.
    tables = (lemmatizer._getLemmaDict(), lemmatizer._getOverridesDict())
    return tuple(
        frozenset(form for table in tables for form, by_tag in table.items() if tag in by_tag)
        for tag in TAGS
    )


@functools.lru_cache(maxsize=4096)
def word_classes(word: str) -> frozenset[str]:
    """The tags of ``TAGS`` lemminflect knows ``word`` under (any casing), as
    ``frozenset(getAllLemmas(word))``; empty for a word it does not know."""
    folded = word.lower()
    return frozenset(
        tag for tag, forms in zip(TAGS, _forms_by_tag(), strict=True) if folded in forms
    )
