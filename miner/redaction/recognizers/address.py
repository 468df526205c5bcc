"""Street addresses with the lines that follow them, and those read upwards
from their postcode-and-town part."""

from __future__ import annotations

from typing import Any

from miner.redaction.lexicon.addresses import find_addresses
from miner.redaction.lexicon.postcode_blocks import blocks_above_postcodes
from miner.redaction.recognizers.result import LoadsNothing, result


class AddressRecognizer(LoadsNothing):
    """Street addresses with the lines that follow them (``find_addresses``),
    and the sure ones read upwards from their postcode (``blocks_above_postcodes``:
    those only shaped like one are the unsure rules')."""

    def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
        spans = [*find_addresses(text)]
        spans += [(start, end) for start, end, sure in blocks_above_postcodes(text) if sure]
        return [result(self, "STREET_ADDRESS", *span, 0.9) for span in spans]
