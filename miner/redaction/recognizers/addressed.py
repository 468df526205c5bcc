"""A name the text addresses someone by at a clause's end: "Don't go to
town, Kani!", "Remember me, Niharika?"."""

from __future__ import annotations

from typing import Any

from miner.redaction.lexicon.names import (
    RARE_WORD_ZIPF,
    a_first_name,
    a_place_name,
    addressed,
    an_english_word,
)
from miner.redaction.recognizers.result import LoadsNothing, result

_PLACE_LABELS = frozenset(("GPE", "LOC", "FAC"))


class AddressedNameRecognizer(LoadsNothing):
    """The word a clause ends by addressing (``addressed``), when it is a
    name for sure: a first name the list knows, capitalised, or a word
    English does not write (Zipf under 3: "Kani", "zikmund"). A place's
    name there, a list's or spaCy's ("Don't go to town, Georgia!"), is a
    person's as often as a town's, and an English word ("Thanks for
    nothing, Boss!") no one's: neither is taken here (``unsure`` surfaces
    the names among them)."""

    def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
        results = []
        # spaCy's places: a town no list names ("Paris" is a first name too).
        places = [
            (e.start_char, e.end_char)
            for e in (nlp_artifacts.tokens.ents if nlp_artifacts is not None else ())
            if e.label_ in _PLACE_LABELS
        ]
        for start, end in addressed(text):
            word = text[start:end]
            if a_place_name(word) or any(s < end and start < e for s, e in places):
                continue
            rare = not an_english_word(word.casefold(), RARE_WORD_ZIPF)
            if rare or (word[0].isupper() and a_first_name(word)):
                results.append(result(self, "PERSON", start, end, 0.6))
        return results
