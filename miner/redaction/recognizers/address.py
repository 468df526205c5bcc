"""Street addresses with the lines that follow them."""

from __future__ import annotations

from typing import Any

from presidio_analyzer import LocalRecognizer

from miner.redaction.lexicon.addresses import find_addresses
from miner.redaction.recognizers.result import result


class AddressRecognizer(LocalRecognizer):  # type: ignore[misc]
    """Street addresses with the lines that follow them (``find_addresses``)."""

    def load(self) -> None:
        pass

    def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
        return [result(self, "STREET_ADDRESS", *span, 0.9) for span in find_addresses(text)]
