"""The words that join names into one list: "and" in the languages of
miner's name lists, and "&" ("Carter, Mitchell and Ingram", "Saffi,
Semitecolo e Tron", "Nagy és Varga", "Schmitz & Söhne"). One definition
for every rule that reads a list of names: a firm's founders, a family
firm, names joined in one string, more names after a place's name."""

from __future__ import annotations

import re

#: "And" of two letters or more: English, German, French, Dutch, Danish and
#: Norwegian, Swedish, Hungarian, Lithuanian, Latvian, Turkish, Romanian
#: (with its comma and without), Finnish and Estonian.
AND_WORDS = ("and", "und", "et", "en", "og", "och", "és", "ir", "un", "ve", "și", "si", "ja")

#: "And" of one letter: Italian and Portuguese "e", Spanish "y", Polish,
#: Croatian and Catalan "i", Czech and Slovak "a". In capitals they are
#: initials as often ("A", "E", "I", "Y"), so only in lower case.
AND_LETTERS = ("e", "y", "i", "a")

#: Every joiner, as a list writes it between two names.
JOINERS = frozenset((*AND_WORDS, *AND_LETTERS, "&"))

#: A joiner as a regular expression's alternation (longest first), in lower
#: case, as names' lists write it.
AND = "(?:" + "|".join(re.escape(j) for j in sorted(JOINERS, key=lambda j: (-len(j), j))) + ")"
