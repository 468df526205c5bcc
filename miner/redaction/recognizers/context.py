"""Presidio's lemma context enhancer, its lookups indexed.

Presidio finds the token a hit starts in by walking the piece's spaCy
tokens from the first, and tests each lemma around it against a list of the
piece's keywords: per hit, work in the piece's length, so a 4,000-character
piece with its hundreds of tokens and tens of hits paid for both. Here the
token is found by bisection over the tokens' ends, and the keywords are a
set, built once per piece. The surrounding words, and so every score, are
Presidio's.
"""

from __future__ import annotations

import bisect
import copy
from typing import Any

from presidio_analyzer.context_aware_enhancers import LemmaContextAwareEnhancer


class IndexedContextEnhancer(LemmaContextAwareEnhancer):  # type: ignore[misc]
    def enhance_using_context(
        self,
        text: str,
        raw_results: list[Any],
        nlp_artifacts: Any,
        recognizers: list[Any],
        context: list[str] | None = None,
    ) -> list[Any]:
        # Presidio deep-copies the hits before it raises their scores; a
        # deep copy walks each hit's explanation and metadata (40 calls a
        # hit: a tenth of a long message's recognizer time). It changes only
        # a hit's score and its explanation's two fields, so copying those
        # objects one level deep leaves the hits it was given as they were.
        return super().enhance_using_context(  # type: ignore[no-any-return]
            text, _CopiedOneLevelDeep(raw_results), nlp_artifacts, recognizers, context
        )

    def _extract_surrounding_words(self, nlp_artifacts: Any, word: str, start: int) -> list[str]:
        if not nlp_artifacts.tokens:
            return [""]
        ends, keywords = _index(nlp_artifacts)
        # Presidio takes the first token that starts at ``start`` or ends
        # after it; tokens are never empty, so that is the first to end after.
        token_index = bisect.bisect_right(ends, start)
        if token_index == len(ends):
            # Presidio's error, without the hit's text (trace data).
            raise ValueError("a hit starts after the last token of its text")
        # Presidio types the keywords a list; it only tests membership in them.
        before = self._add_n_words_backward(
            token_index,
            self.context_prefix_count,
            nlp_artifacts.lemmas,
            keywords,  # type: ignore[arg-type]
        )
        after = self._add_n_words_forward(
            token_index,
            self.context_suffix_count,
            nlp_artifacts.lemmas,
            keywords,  # type: ignore[arg-type]
        )
        return list({*before, *after})


def _index(nlp_artifacts: Any) -> tuple[list[int], frozenset[str]]:
    """The end of each token, and the keywords as a set, kept on the artifacts."""
    index = getattr(nlp_artifacts, "_miner_index", None)
    if index is None:
        ends = [token.idx + len(token) for token in nlp_artifacts.tokens]
        index = (ends, frozenset(nlp_artifacts.keywords))
        nlp_artifacts._miner_index = index
    return index  # type: ignore[no-any-return]


class _CopiedOneLevelDeep(list):  # type: ignore[type-arg]
    """Hits whose deep copy is a copy of each hit, its explanation and its
    metadata (their fields are numbers and strings)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        copies = []
        for hit in self:
            copied = copy.copy(hit)
            if hit.analysis_explanation is not None:
                copied.analysis_explanation = copy.copy(hit.analysis_explanation)
            if hit.recognition_metadata is not None:
                copied.recognition_metadata = dict(hit.recognition_metadata)
            copies.append(copied)
        return copies
