"""National ids validated by their checksum, alone or after their own name."""

from __future__ import annotations

from typing import Any

from miner.redaction.lexicon.formats import find_named_ids, find_national_ids
from miner.redaction.recognizers.result import LoadsNothing, result


class NationalIdRecognizer(LoadsNothing):
    """National ids validated by their checksum: of the configured regions
    anywhere (``find_national_ids``; an all-digit one needs a context word),
    and of any country after the id's own name (``find_named_ids``: "my
    rodné číslo is 186214/9641"), which is sure."""

    def __init__(self, *args: Any, regions: tuple[str, ...] = (), **kwargs: Any) -> None:
        self._regions = regions
        super().__init__(*args, **kwargs)

    def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
        return [
            *(
                result(self, "NATIONAL_ID", start, end, 0.6 if lettered else 0.3)
                for start, end, lettered in find_national_ids(text, self._regions)
            ),
            *(result(self, "NATIONAL_ID", start, end, 0.85) for start, end in find_named_ids(text)),
        ]
