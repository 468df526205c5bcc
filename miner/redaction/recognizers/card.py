"""Card numbers of every major brand: IIN range plus Luhn."""

from __future__ import annotations

from presidio_analyzer import PatternRecognizer

from miner.redaction.lexicon.formats import is_card_number


class CardRecognizer(PatternRecognizer):  # type: ignore[misc]
    """Card numbers of every major brand: IIN range plus Luhn."""

    def validate_result(self, pattern_text: str) -> bool:
        return is_card_number(pattern_text)
