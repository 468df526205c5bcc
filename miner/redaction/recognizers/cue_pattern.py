"""A value after (or before) the cue that makes it personal: an SSN, a
passport, a date of birth, a name.
"""

from __future__ import annotations

import re
from typing import Any

from presidio_analyzer import PatternRecognizer

from miner.redaction.lexicon.dates import dates_before_birth_cues, dob_cue_regexes
from miner.redaction.lexicon.names import (
    A_TITLE,
    NAMING_CUE,
    complete_name,
    list_members,
    names_no_person,
)
from miner.redaction.recognizers.result import result


class CuePatternRecognizer(PatternRecognizer):  # type: ignore[misc]
    """A pattern whose named group ``value`` is the entity and the rest is
    the cue that makes it one ("ssn 123456789" -> "123456789")."""

    def __init__(self, *args: Any, reject: frozenset[str] = frozenset(), **kwargs: Any):
        self._reject = reject
        super().__init__(*args, **kwargs)

    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: Any = None,
        regex_flags: int | None = None,
    ) -> list[Any]:
        results = []
        patterns: list[Any] = self.patterns  # type: ignore[has-type]
        for pattern in patterns:
            if pattern.regex == dob_cue_regexes()[1]:
                matches = dates_before_birth_cues(text)
            else:
                matches = re.finditer(pattern.regex, text)
            for match in matches:
                words = match.group("value").split()
                while words and words[-1].title() in self._reject:
                    words.pop()
                titles = 0
                while titles < len(words) and A_TITLE.fullmatch(words[titles]):
                    titles += 1  # "Dear Dr" names no one; "Dear Dr Stone" does
                if titles == len(words) or words[titles].title() in self._reject:
                    continue
                start = match.start("value")
                end = start + len(" ".join(words))
                if text[start:end] != " ".join(words):
                    end = match.end("value")  # names split by other whitespace: keep all
                entity = self.supported_entities[0]
                if entity == "PERSON":
                    cue = text[match.start() : match.start("value")]
                    # "it's Lake Placid", "hi, Florence team": only a cue
                    # that names ("my name is") or a title outvotes the
                    # place and organisation rules.
                    if (
                        titles == 0
                        and not NAMING_CUE.search(cue)
                        and names_no_person(text, start, end)
                    ):
                        continue
                    start, end = complete_name(text, start, end)
                    for other in list_members(text, start, end):
                        results.append(result(self, entity, *other, pattern.score))
                results.append(result(self, entity, start, end, pattern.score))
        return results
