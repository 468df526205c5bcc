"""National ids validated by their checksum."""

from __future__ import annotations

from typing import Any

from presidio_analyzer import LocalRecognizer

from miner.redaction.lexicon.formats import find_national_ids
from miner.redaction.recognizers.result import result


class NationalIdRecognizer(LocalRecognizer):  # type: ignore[misc]
    """National ids validated by their checksum (``find_national_ids``)."""

    def __init__(self, *args: Any, regions: tuple[str, ...] = (), **kwargs: Any) -> None:
        self._regions = regions
        super().__init__(*args, **kwargs)

    def load(self) -> None:
        pass

    def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
        return [
            result(self, "NATIONAL_ID", start, end, 0.6 if lettered else 0.3)
            for start, end, lettered in find_national_ids(text, self._regions)
        ]
