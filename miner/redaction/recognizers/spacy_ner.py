"""Presidio's NER recognizer, its hits cut at a line break, less the places,
and its people completed from the text around them.
"""

from __future__ import annotations

import re
from typing import Any

from presidio_analyzer.predefined_recognizers import SpacyRecognizer

from miner.redaction.lexicon.names import a_town, complete_name, list_members, names_no_person
from miner.redaction.recognizers.result import result


class PlaceAwareSpacyRecognizer(SpacyRecognizer):  # type: ignore[misc]
    """Presidio's NER recognizer, its hits cut at a line break (the small
    model runs a name into the next line of a signature: "Marion Brown
    \\nAeronautical engineer"); less the "people" that are places by the
    words around them (``names_no_person``: "Lomm bridge is falling down");
    and its people completed from the text around them. The model often
    tags half a name ("Marchetti" of "Emeka Marchetti", "Stone" of "Dr
    Adrian Stone") or one name of a list ("A B, C D and E F"): the rest
    joins it (``complete_name``), and the other members of a list a name
    is in are names too."""

    def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
        results = []
        for hit in super().analyze(text, entities, nlp_artifacts):
            line = text[hit.start : hit.end].strip().split("\n")[0].rstrip()
            hit.start = text.index(line, hit.start)
            hit.end = hit.start + len(line)
            if hit.entity_type != "PERSON":
                results.append(hit)
                continue
            # The model runs a name over a slash into the next value ("Greta
            # Lindqvist/Okabe Kft.", "Anna Lee/Marta Kos"); no one's name is
            # written with one, so each side is read as a hit of its own:
            # the firm's words beyond it no longer drop the person.
            sides = [m.span() for m in _SLASH_SIDE.finditer(text, hit.start, hit.end)]
            for start, end in sides:
                person = hit if len(sides) == 1 else result(self, "PERSON", start, end, hit.score)
                if names_no_person(text, person.start, person.end):
                    continue
                person.start, person.end = complete_name(text, person.start, person.end)
                if a_town(text, person.start, person.end):
                    continue  # the model's "person" is a town's whole name
                for other in list_members(text, person.start, person.end):
                    results.append(result(self, "PERSON", *other, 0.6))
                results.append(person)
        return results


#: A side of a slash in a hit: its words, without the blanks around them.
_SLASH_SIDE = re.compile(r"[^/\s](?:[^/]*[^/\s])?")
