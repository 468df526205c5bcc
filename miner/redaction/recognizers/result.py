"""A recognizer's hit as Presidio's analyzer wants it."""

from __future__ import annotations

from typing import Any

from presidio_analyzer import AnalysisExplanation, RecognizerResult


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
