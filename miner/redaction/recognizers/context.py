"""Presidio's context step, its lookups indexed.

Presidio finds the token a hit starts in by walking the piece's spaCy
tokens from the first, and tests each lemma around it against a list of the
piece's keywords: per hit, work in the piece's length, so a 4,000-character
piece with its hundreds of tokens and tens of hits paid for both. Here the
token is found by bisection over the tokens' ends, and the keywords are a
set, built once per piece. The surrounding words, and so every score, are
Presidio's. Before that step the analyzer hands each recognizer its own
hits and everyone else's (``ContextIndexedAnalyzerEngine``).
"""

from __future__ import annotations

import bisect
from typing import Any

from presidio_analyzer import AnalyzerEngine, EntityRecognizer, RecognizerResult
from presidio_analyzer.context_aware_enhancers import LemmaContextAwareEnhancer


class ContextIndexedAnalyzerEngine(AnalyzerEngine):  # type: ignore[misc]
    """Presidio's analyzer, its hits handed to their recognizers by one
    grouping instead of two scans of every hit per recognizer.

    Presidio's ``_enhance_using_context`` gives each recognizer of the
    request (28 here) its own hits and the others', each list made by a
    scan of all the piece's hits, then appends what the recognizer returns:
    over a 1 MiB message, 16,000 scans of tens of hits each. No recognizer
    here overrides ``EntityRecognizer.enhance_using_context``, which returns
    its own hits as given, so its hits are appended, in the order
    Presidio's scans kept; one that overrides it is called as Presidio
    calls it. Then the engine's context enhancer, as in Presidio."""

    def _enhance_using_context(
        self,
        text: str,
        raw_results: list[Any],
        nlp_artifacts: Any,
        recognizers: list[Any],
        context: list[str] | None = None,
    ) -> list[Any]:
        key = RecognizerResult.RECOGNIZER_IDENTIFIER_KEY
        by_recognizer: dict[str, list[Any]] = {}
        for hit in raw_results:
            by_recognizer.setdefault(hit.recognition_metadata[key], []).append(hit)
        results: list[Any] = []
        for recognizer in recognizers:
            own = by_recognizer.get(recognizer.id, [])
            if type(recognizer).enhance_using_context is EntityRecognizer.enhance_using_context:
                results.extend(own)
                continue
            others = [r for r in raw_results if r.recognition_metadata[key] != recognizer.id]
            results.extend(
                recognizer.enhance_using_context(
                    text=text,
                    raw_recognizer_results=own,
                    other_raw_recognizer_results=others,
                    nlp_artifacts=nlp_artifacts,
                    context=context,
                )
            )
        return self.context_aware_enhancer.enhance_using_context(  # type: ignore[no-any-return]
            text=text,
            raw_results=results,
            nlp_artifacts=nlp_artifacts,
            recognizers=recognizers,
            context=context,
        )


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
            copied = _copied(hit)
            if hit.analysis_explanation is not None:
                copied.analysis_explanation = _copied(hit.analysis_explanation)
            if hit.recognition_metadata is not None:
                copied.recognition_metadata = dict(hit.recognition_metadata)
            copies.append(copied)
        return copies


def _copied(thing: Any) -> Any:
    """What ``copy.copy`` gives for an object whose class defines no copy or
    pickle hooks (a hit, its explanation): a new instance with the same
    attributes, without the generic protocol's ``__reduce_ex__`` round trip
    (a third of the context step's time on a long message)."""
    copied = object.__new__(type(thing))
    copied.__dict__.update(thing.__dict__)
    return copied
