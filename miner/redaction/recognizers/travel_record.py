"""An airline's record of a passenger's travel document, as a GDS writes it
(SSR DOCS)."""

from __future__ import annotations

from typing import Any

from miner.redaction.lexicon.formats import travel_record_values
from miner.redaction.recognizers.result import LoadsNothing, result


class TravelRecordRecognizer(LoadsNothing):
    """The document's number, the birth date and the names of a travel
    document's record (``travel_record_values``): the record's layout says
    what each field is, so they are as sure as a cue's value and replaced.
    The NER model reads such a record as one run of capitals and labels a
    part of it."""

    def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
        return [
            result(self, entity, start, end, 0.85)
            for start, end, entity in travel_record_values(text)
            if entity in entities
        ]
