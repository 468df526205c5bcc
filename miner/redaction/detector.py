"""The detector: Presidio's analyzer and anonymizer built from the redaction
config, and ``Detector.detect``, the (entity, value) hits of each text.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Iterator
from typing import Any

from miner.config import DEFAULT_ALLOW, IdentifierConfig, PipelineConfig, RedactionConfig
from miner.loading import for_the_whole_run, release_freed_memory
from miner.redaction.lexicon.formats import before_an_id_s_name, read_escaped_breaks
from miner.redaction.lexicon.names import (
    NAME_CUE_REGEX,
    OTHER_GREETINGS_REGEX,
    cased_for_ner,
    known_name,
    lower_case_names_after_cues,
    names_no_person,
    without_english_words,
)
from miner.redaction.placeholders import PLACEHOLDER
from miner.redaction.runtime import (
    load_what_is_read,
    ner_holding_the_gil,
    numpy_matrix_products,
    only_what_is_read,
    presidio_patterns_unchecked,
    read_ahead,
    require_model,
    without_transformers,
)
from miner.redaction.verdict import Detection, after_determiner, guessed, verdict_of


def detector_for(config: PipelineConfig) -> Detector:
    """The Detector for ``config``'s redaction setup, built once per process.

    Building one loads spaCy and Presidio's registry (seconds); commands and
    tests that run in one process share it. Presidio's engines hold no state
    between calls, so sharing changes no result."""
    require_model(config)
    return _detector(config.redaction, config.identifiers)


@functools.lru_cache(maxsize=4)
def _detector(redaction: RedactionConfig, identifiers: tuple[IdentifierConfig, ...]) -> Detector:
    with for_the_whole_run():
        return Detector(redaction, identifiers)


class Detector:
    """Presidio's analyzer and anonymizer, built from the redaction config
    (use ``detector_for``, which checks the model is installed and shares it)."""

    def __init__(self, rc: RedactionConfig, identifiers: tuple[IdentifierConfig, ...] = ()) -> None:
        # Imported here: Presidio and spaCy take seconds to import, and
        # `miner --help` should not pay for them.
        with without_transformers(), presidio_patterns_unchecked():
            from presidio_analyzer import (
                Pattern,
                PatternRecognizer,
                RecognizerRegistry,
            )
            from presidio_analyzer.nlp_engine import SpacyNlpEngine
            from presidio_anonymizer import AnonymizerEngine

            from miner.redaction.recognizers.context import (
                ContextIndexedAnalyzerEngine,
                IndexedContextEnhancer,
            )
            from miner.redaction.recognizers.email import OfflineEmailRecognizer
            from miner.redaction.recognizers.registry import build_recognizers

        nlp_engine = SpacyNlpEngine(models=[{"lang_code": rc.language, "model_name": rc.nlp_model}])
        nlp = load_what_is_read(rc.nlp_model)
        nlp_engine.nlp = {rc.language: nlp}  # type: ignore[assignment]  # what load() sets
        only_what_is_read(nlp)
        ner_holding_the_gil(nlp)
        numpy_matrix_products(nlp)
        registry = RecognizerRegistry(supported_languages=[rc.language])
        with presidio_patterns_unchecked():
            registry.load_predefined_recognizers(nlp_engine=nlp_engine, languages=[rc.language])
            # Replaced by miner's own (miner/redaction/recognizers/ says why each one).
            for name in (
                "SpacyRecognizer",
                "EmailRecognizer",
                "PhoneRecognizer",
                "CreditCardRecognizer",
                "IbanRecognizer",
            ):
                registry.remove_recognizer(name)
            registry.add_recognizer(OfflineEmailRecognizer(supported_language=rc.language))
            for recognizer in build_recognizers(rc.language, rc.phone_regions, nlp_engine):
                registry.add_recognizer(recognizer)
        # The config's identifiers are checked as Presidio checks a pattern.
        for ident in identifiers:
            registry.add_recognizer(
                PatternRecognizer(
                    supported_entity=ident.entity,
                    patterns=[Pattern(ident.entity.lower(), ident.pattern, ident.score)],
                    context=list(ident.context),
                    supported_language=rc.language,
                )
            )
        analyzer = ContextIndexedAnalyzerEngine(
            nlp_engine=nlp_engine,
            registry=registry,
            supported_languages=[rc.language],
            context_aware_enhancer=IndexedContextEnhancer(),
        )
        meta = nlp.meta
        #: What NER runs on, for the run summary: "<package> <version>".
        self.model = f"{rc.nlp_model} {meta.get('version', '?')}"
        self._analyzer = analyzer
        self._anonymizer = AnonymizerEngine()
        self._language = rc.language
        self._entities = list(dict.fromkeys([*rc.entities, *(i.entity for i in identifiers)]))
        self._threshold = rc.score_threshold
        self._batch_size = rc.batch_size
        # Presidio's allow list, as one anchored case-insensitive pattern,
        # compiled as its analyzer compiles an allow list of regexes (the
        # regex package, the analyzer's default flags) and applied here to
        # the hits it returns, as it applies one last: it searched with a
        # timeout per hit, and the regex package's timeout costs 10 us a call
        # to arm (one that never fires on an alternation of literals).
        allowed = sorted({a for a in (*DEFAULT_ALLOW, *rc.allow) if a.strip()})
        self._allow_list = [rf"^(?:{'|'.join(re.escape(a) for a in allowed)})$"]
        import regex

        self._allowed_hit = regex.compile(
            "|".join(self._allow_list),
            flags=regex.DOTALL | regex.MULTILINE | regex.IGNORECASE,
        ).search
        # A NER hit inside an allowed phrase ("Aurora" of "Aurora Silk
        # Pillowcase") is part of that thing, whatever span NER drew.
        self._things = (
            re.compile(rf"(?<!\w)(?:{'|'.join(re.escape(a) for a in allowed)})(?!\w)", re.I)
            if allowed
            else None
        )

    def detect(self, texts: list[str]) -> Iterator[list[tuple[str, str]]]:
        """(entity, value) found in each text, in order: what ``detections``
        replaces or surfaces (a kept thing is not personal)."""
        for found in self.detections(texts):
            yield [(d.entity, d.value) for d in found if d.verdict != "keep"]

    def detections(self, texts: list[str]) -> Iterator[list[Detection]]:
        """The detections of each text, in order, each with its verdict
        (``miner/redaction/verdict.py``); NLP work batched.

        Overlapping hits become one value spanning them all, typed by the
        strongest: every character any recognizer flagged is replaced. A text
        longer than ``CHUNK`` (spaCy refuses texts over a million characters)
        is read in overlapping pieces, never skipped."""
        pieces = [
            (i, offset, chunk)
            for i, text in enumerate(texts)
            for offset, chunk in _chunks(read_escaped_breaks(text))
        ]
        from presidio_analyzer import RecognizerResult

        analyzer = self._analyzer
        nlp_engine = analyzer.nlp_engine

        def nlp(batch: list[str]) -> list[tuple[str, Any]]:
            # NER reads each piece cased for it (a line in lower case or in
            # capitals cased as names are written); the recognizers read the
            # piece as written, at the same offsets.
            cased = [cased_for_ner(piece) for piece in batch]
            done = nlp_engine.process_batch(cased, self._language, batch_size=len(batch))
            return [
                (piece, artifacts) for piece, (_cased, artifacts) in zip(batch, done, strict=True)
            ]

        results = (
            (
                [
                    hit
                    for hit in analyzer.analyze(
                        text=piece,
                        language=self._language,
                        nlp_artifacts=artifacts,
                        entities=self._entities,
                        score_threshold=self._threshold,
                    )
                    if not self._allowed_hit(piece[hit.start : hit.end])
                ],
                # spaCy's own labels (ORG, PRODUCT, FAC...), which Presidio
                # maps or drops on its copies of the entities.
                [(e.start_char, e.end_char, e.label_) for e in artifacts.tokens.ents],
            )
            for batch in read_ahead(
                nlp,
                _batches(
                    [chunk for _i, _offset, chunk in pieces],
                    self._batch_size,
                    [i for i, _offset, _chunk in pieces],
                ),
            )
            for piece, artifacts in batch
        )
        found: list[tuple[int, int, float, str, str]] = []
        labels: list[tuple[int, int, str]] = []
        current = 0
        for (index, offset, _chunk), (hits, ents) in zip(pieces, results, strict=True):
            if index != current:
                yield self._values(texts[current], found, labels)
                found, labels, current = [], [], index
            found.extend(
                (
                    offset + r.start,
                    offset + r.end,
                    r.score,
                    r.entity_type,
                    r.recognition_metadata.get(RecognizerResult.RECOGNIZER_NAME_KEY, ""),
                )
                for r in hits
            )
            labels.extend((offset + s, offset + e, label) for s, e, label in ents)
        if any(len(text) > BATCH_CHARS for text in texts):
            # The larger batches' heap, freed by spaCy's thread into that
            # thread's own arena, handed back (LONG_TEXT_BATCH_CHARS).
            release_freed_memory()
        if texts:
            yield self._values(texts[current], found, labels)

    def _values(
        self,
        original: str,
        found: list[tuple[int, int, float, str, str]],
        labels: list[tuple[int, int, str]],
    ) -> list[Detection]:
        # Spans were found in the text as read (escaped breaks as breaks, same
        # length); the values are the original's characters.
        text = read_escaped_breaks(original)
        spans: list[list[Any]] = []  # [start, end, score, entity, {recognizer}]
        # Allowed phrases in the text, in order and disjoint (finditer's), so
        # the one a hit could sit inside is the last to start at or before it.
        things = [m.span() for m in self._things.finditer(text)] if self._things else []
        thing_starts = [s for s, _e in things]

        def inside_a_thing(start: int, end: int) -> bool:
            at = bisect.bisect_right(thing_starts, start) - 1
            return at >= 0 and end <= things[at][1]

        capitals: bool | None = None  # whether the text has no lower case, read once
        for r_start, r_end, score, entity, recognizer in sorted(found):
            start, end = _trim(text, r_start, r_end, entity)
            if entity == "PERSON":
                end = max(start, before_an_id_s_name(text, start, end, known_name))
                if capitals is None:
                    capitals = text == text.upper()
                if capitals:
                    # "I AM TRAVELLING TO ALGERIA": the cue's or the model's
                    # person run over English's words, cut to the words
                    # between; a place or a country left is no one's.
                    cut = without_english_words(text, start, end)
                    if cut != (start, end) and (cut[0] == cut[1] or names_no_person(text, *cut)):
                        continue
                    start, end = cut
            if not _plausible(entity, text[start:end]):
                continue
            if entity in NER_TYPES and (
                inside_a_thing(start, end) or after_determiner(text, start)
            ):
                # "the Juno Mini Speaker", or inside an allowed phrase: a thing.
                continue
            if spans and start < spans[-1][1]:
                last = spans[-1]
                last[1] = max(last[1], end)
                if score > last[2]:
                    last[2], last[3] = score, entity
                last[4].add(recognizer)
            else:
                spans.append([start, end, score, entity, {recognizer}])
        # Presidio keeps one of two hits on the same characters, the higher
        # score: a cue's name that spaCy found too comes back as spaCy's. The
        # cue is evidence all the same.
        cued = {m.start("value") for m in _NAME_CUE.finditer(text)} if spans else set()
        if spans:
            cued.update(lower_case_names_after_cues(text))
        labels_on = _LabelsOn(labels)
        detections = []
        for start, end, _score, entity, recognizers in spans:
            if start in cued:
                recognizers.add("NameCueRecognizer")
            on_it = labels_on(start, end)
            verdict, thing = verdict_of(text, start, end, entity, frozenset(recognizers), on_it)
            if verdict != "keep":
                whole = _whole_words(text, start, end)
                if whole != (start, end):
                    # Glued into a word: that word is what a reviewer can
                    # find, and more than the hit was sure of.
                    (start, end), verdict = whole, "surface"
            detections.append(
                Detection(
                    entity,
                    original[start:end],
                    verdict,
                    original[start : start + len(thing)],
                    guessed(entity, frozenset(recognizers)),
                )
            )
        return detections

    def replace(
        self, text: str, spans: list[tuple[int, int, str]], lookup: Callable[[str], str]
    ) -> str:
        """Replace ``spans`` (start, end, entity; in order, disjoint) of ``text``
        through presidio-anonymizer, a group of at most ``REPLACE_GROUP`` spans
        at a time. The anonymizer rebuilds its text once per span and merges
        neighbours by removing from a list, so one call over a long text's
        thousands of spans was quadratic. A group ends only where the
        anonymizer would not merge two neighbours (``_merges``), so the
        groups' output is what one call gave."""
        from presidio_anonymizer.entities import OperatorConfig, RecognizerResult

        operators = {"DEFAULT": OperatorConfig("custom", {"lambda": lookup})}

        def replaced(start: int, end: int, group: list[tuple[int, int, str]]) -> str:
            results = [RecognizerResult(e, s - start, t - start, 1.0) for s, t, e in group]
            piece = text[start:end]
            return str(
                self._anonymizer.anonymize(
                    text=piece, analyzer_results=results, operators=operators
                ).text
            )

        pieces: list[str] = []
        start = 0
        group: list[tuple[int, int, str]] = []
        for span in spans:
            if len(group) >= REPLACE_GROUP and not _merges(text, group[-1], span):
                pieces.append(replaced(start, group[-1][1], group))
                start, group = group[-1][1], []
            group.append(span)
        pieces.append(replaced(start, len(text), group))
        return "".join(pieces)


class _LabelsOn:
    """spaCy's labels on the characters of a span, found by bisection over
    the labels' starts: a long text's thousands of hits each scanned all of
    its thousands of labels (a third of a 256 KiB message's CPU)."""

    def __init__(self, labels: list[tuple[int, int, str]]) -> None:
        self._labels = sorted(labels)
        self._starts = [s for s, _e, _label in self._labels]
        #: No label starts further than this before a span it overlaps.
        self._longest = max((e - s for s, e, _label in labels), default=0)

    def __call__(self, start: int, end: int) -> frozenset[str]:
        """The labels of every label overlapping ``[start, end)``."""
        first = bisect.bisect_left(self._starts, start - self._longest)
        last = bisect.bisect_left(self._starts, end)
        return frozenset(label for _s, e, label in self._labels[first:last] if start < e)


#: Spans replaced per call of presidio-anonymizer (see ``Detector.replace``).
REPLACE_GROUP = 64


def _merges(text: str, before: tuple[int, int, str], after: tuple[int, int, str]) -> bool:
    """Whether presidio-anonymizer merges two neighbouring spans into one:
    the same entity with only spaces between (its own test, copied)."""
    return before[2] == after[2] and re.search(r"^( )+$", text[before[1] : after[0]]) is not None


#: Longest piece of text analysed at once, and how much neighbouring pieces
#: share. spaCy's memory and Presidio's regexes grow with a text's length, so
#: a long message is read as pieces of at most CHUNK characters: cost grows
#: linearly and memory stays that of one batch of pieces. Pieces overlap by
#: OVERLAP characters, more than any value is long (an address block is a few
#: hundred), so every value lies whole inside at least one piece; the hits
#: of all pieces are then merged as overlapping spans, so a value a piece
#: boundary cuts is replaced whole.
CHUNK = 4_000
OVERLAP = 400


#: Most characters handed to spaCy in one batch. Its memory grows with the
#: total length of a batch: ``batch_size`` short texts are a few KB, but as
#: many 4,000-character pieces of a long message took 700 MB above the loaded
#: model. The NER computes its token vectors, the most of that memory, for
#: at most ``runtime.TOKEN_VECTORS_CHARS`` (16,000) at a time; its parse steps
#: the whole batch at once, and costs per step: over the bench's 1 MiB
#: message's pieces the NER took 8.4 s of CPU at 32,000 characters against
#: 9.5 s at 16,000, the message's peak within a few MiB.
BATCH_CHARS = 32_000

#: Most characters of one batch when all its pieces are one long text's:
#: half the parse steps of ``BATCH_CHARS`` batches. On the bench's 1 MiB
#: message the NER took 7.7 s of CPU against 8.8 (median of three runs
#: each, alternating; the same entities), the message's peak 459-479 MiB
#: over ten runs against 457-464 over eight (likely the batches in flight,
#: twice the size); the heap its batches freed is handed back before the
#: session pass stacks on it (``Detector.detections``; without that, one
#: run of 64,000 for every batch peaked at 515). Texts of a few pieces
#: (Go's longest content in real traces is 6.5k characters) batch as
#: before, so a large draft's peak is unchanged.
LONG_TEXT_BATCH_CHARS = 64_000


def _batches(texts: list[str], most: int, owners: list[int] | None = None) -> Iterator[list[str]]:
    """``texts`` in order, in batches of at most ``most`` texts and at most
    ``BATCH_CHARS`` characters (a longer text goes alone); or at most
    ``LONG_TEXT_BATCH_CHARS`` when ``owners`` (the index of the text each
    is a piece of) says every text of the batch is a piece of the same one."""
    batch: list[str] = []
    chars = 0
    first_owner = -1
    for at, text in enumerate(texts):
        owner = owners[at] if owners is not None else -1
        one_text = owner >= 0 and owner == first_owner
        bound = LONG_TEXT_BATCH_CHARS if one_text else BATCH_CHARS
        if batch and (len(batch) == most or chars + len(text) > bound):
            yield batch
            batch, chars = [], 0
        if not batch:
            first_owner = owner
        batch.append(text)
        chars += len(text)
    if batch:
        yield batch


def _chunks(text: str) -> list[tuple[int, str]]:
    """(offset, piece) of ``text``; one piece when it is short. A piece ends
    at a line break, else a sentence end, else a space, in its last quarter."""
    if len(text) <= CHUNK:
        return [(0, text)]
    pieces, start = [], 0
    while start < len(text):
        end = min(start + CHUNK, len(text))
        if end < len(text):
            floor = start + CHUNK * 3 // 4
            for boundary in ("\n", ". ", " "):
                cut = text.rfind(boundary, floor, end)
                if cut > 0:
                    end = cut + len(boundary)
                    break
        pieces.append((start, text[start:end]))
        if end >= len(text):
            break
        start = max(end - OVERLAP, start + 1)
        # Start the next piece at a word boundary inside the overlap.
        space = text.find(" ", start, end)
        if space >= 0:
            start = space + 1
    return pieces


_POSSESSIVE = re.compile(r"(?:'s|’s|'|’)$")
#: Another language's greeting at a person hit's start, a word after it:
#: the model's "Hallo Anna" is Anna greeted.
_GREETING_AT_START = re.compile(rf"(?i:{OTHER_GREETINGS_REGEX})[ \t]+(?=\S)")


def _trim(text: str, start: int, end: int, entity: str) -> tuple[int, int]:
    """A hit without surrounding blanks, and a name without its possessive
    ("Alex Morgan's" -> "Alex Morgan", which is what other texts say)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if entity == "PERSON":
        m = _POSSESSIVE.search(text, start, end)
        if m and m.start() > start:
            end = m.start()
        greeting = _GREETING_AT_START.match(text, start, end)
        if greeting:
            start = greeting.end()
    return start, end


def _whole_words(text: str, start: int, end: int) -> tuple[int, int]:
    """A hit glued into a word run on to that word's edges ("KOWALSKI/ANNA
    MS" in a GDS's "1.1KOWALSKI/ANNA MS" is "1KOWALSKI/ANNA MS"): values are
    replaced and found as whole words, so one standing inside a word would
    stand silent; the word is surfaced. ``text`` reads escaped breaks as
    breaks, so a run stops at one, as ``wordmatch.WORD_START`` does. Not
    past ``_GLUED_MOST`` word characters on a side: a hit inside a longer
    run is inside a token (a hash, a blob in base64), left as found."""
    # Each side's run read one character past the bound, to tell a run of
    # the bound's length from a longer one.
    before = _WORD_RUN_BEFORE.search(text, max(0, start - _GLUED_MOST - 1), start)
    after = _WORD_RUN_AFTER.match(text, end)
    new_start = before.start() if before else start
    new_end = after.end() if after else end
    if max(start - new_start, new_end - end) > _GLUED_MOST:
        return start, end
    return new_start, new_end


_GLUED_MOST = 64
_WORD_RUN_BEFORE = re.compile(rf"\w{{1,{_GLUED_MOST + 1}}}\Z")
_WORD_RUN_AFTER = re.compile(rf"\w{{1,{_GLUED_MOST + 1}}}")


def _plausible(entity: str, value: str) -> bool:
    if len(value) < 2 or PLACEHOLDER.fullmatch(value):
        return False
    # The NER model tags numbers, SKUs and ids ("SKU-1", "X5") as people and
    # places now and then; names of people and places hold no digits.
    # Nor is a language tag ("en-GB" in a session's locale) a place.
    return not (
        entity in NER_TYPES
        and (
            re.search(r"\d", value)
            or not re.search(r"[A-Za-z]", value)
            or _LANGUAGE_TAG.fullmatch(value)
        )
    )


_LANGUAGE_TAG = re.compile(r"[a-z]{2,3}[-_][A-Za-z]{2}")


_NAME_CUE = re.compile(NAME_CUE_REGEX)

#: NER types a product or agent name is mistaken for.
NER_TYPES = frozenset(("PERSON", "LOCATION", "NRP"))
