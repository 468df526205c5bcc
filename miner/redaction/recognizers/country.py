"""Presidio's own recognizers of a region's ids, passports and licences."""

from __future__ import annotations

from typing import Any

from presidio_analyzer import Pattern, predefined_recognizers

from miner.redaction.lexicon.formats import COUNTRY_CONTEXT, COUNTRY_RECOGNIZERS


def country_recognizers(language: str, regions: tuple[str, ...]) -> list[Any]:
    """Presidio's recognizers of ``regions``' ids, passports and licences
    (``COUNTRY_RECOGNIZERS``), each reporting miner's entity type."""
    recognizers = []
    for region in dict.fromkeys(regions):
        for name, typed in COUNTRY_RECOGNIZERS.get(region, ()):
            entity, _, needs_context = typed.partition("+")
            recognizer = getattr(predefined_recognizers, name)(
                supported_language=language,
                supported_entity=entity,
                name=name,
                context=COUNTRY_CONTEXT.get(name),
            )
            if needs_context:
                recognizer.patterns = [
                    Pattern(p.name, p.regex, min(p.score, 0.3)) for p in recognizer.patterns
                ]
            recognizers.append(recognizer)
    return recognizers
