"""A known first name, with the capitalised words after it."""

from __future__ import annotations

from typing import Any

from miner.redaction.lexicon.names import (
    complete_name,
    find_first_names,
    list_members,
    names_no_person,
)
from miner.redaction.recognizers.result import LoadsNothing, result


class FirstNameRecognizer(LoadsNothing):
    """A known first name, with the capitalised words after it (``find_first_names``)."""

    def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
        results = []
        for start, end in find_first_names(text):
            if not names_no_person(text, start, end):
                start, end = complete_name(text, start, end)
                results.append(result(self, "PERSON", start, end, 0.55))
                for other in list_members(text, start, end):
                    results.append(result(self, "PERSON", *other, 0.55))
        return results
