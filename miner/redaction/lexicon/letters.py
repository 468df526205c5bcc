"""Where the rules read a word's letters: one definition of each shape, so
that the rules that split a value or a line into words agree on where a
word starts and ends."""

from __future__ import annotations

import re

#: A run of letters, no digit or underscore: "Jabłoniowa" of "Jabłoniowa 5";
#: "Jean" and "Pierre" of "Jean-Pierre".
LETTERS = re.compile(r"[^\W\d_]+")

#: A word of letters with the apostrophes and hyphens inside it: "O'Connor",
#: "Jean-Pierre", "d’Arc".
LETTER_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
