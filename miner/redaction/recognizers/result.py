"""A recognizer's hit as Presidio's analyzer wants it, and the base of the
recognizers whose rules are miner's own functions."""

from __future__ import annotations

from typing import Any

from presidio_analyzer import AnalysisExplanation, LocalRecognizer, RecognizerResult


def result(recognizer: Any, entity: str, start: int, end: int, score: float) -> Any:
    """A hit of ``recognizer``, with the explanation Presidio's context
    enhancer writes its reason into."""
    return RecognizerResult(
        entity,
        start,
        end,
        score,
        analysis_explanation=AnalysisExplanation(recognizer=recognizer.name, original_score=score),
        recognition_metadata={
            RecognizerResult.RECOGNIZER_NAME_KEY: recognizer.name,
            RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: recognizer.id,
        },
    )


class LoadsNothing(LocalRecognizer):  # type: ignore[misc]
    """A recognizer whose rules are miner's functions, called in its
    ``analyze``: nothing to load (Presidio's ``load`` is abstract)."""

    def load(self) -> None:
        pass
