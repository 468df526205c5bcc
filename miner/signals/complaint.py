"""``complaint``: the user is frustrated - a frustration detector, not a phrase list.

Each user message is scored by rules (English; another locale brings its
own ``phrases``), each with a weight, and is a complaint at ``threshold``:

- a configured complaint phrase ("this is useless", "unacceptable"...): 1.0;
- asking for a person ("get me a manager", "transfer me to a human"): 1.0;
- saying it repeated itself ("I already told you", "third time", "how many
  times"): 1.0;
- contradicting the agent ("that's wrong", "not what I asked"): 1.0;
- something still failing ("still not working", "didn't help"): 0.8;
- exasperation ("seriously?", "unbelievable", "ugh", "fed up"): 0.7;
- shouting (two ALL-CAPS words, acronyms aside, or a message in capitals): 0.6;
- "??", "?!" or "!!!": 0.5, "!!": 0.3; "again" or "already" alone: 0.3;
- VADER's compound sentiment: <= -0.6 adds 0.8, <= -0.3 adds 0.5, >= 0.5
  takes 0.6 away ("this is great, thanks!!" is not a complaint).

Quoted text is left out first, so a product called "Terrible Twos" is not a
complaint. The session adds cues no single message shows: the user restating
an id given in another turn, the agent apologising twice, the agent asking
twice for the same thing (order number, e-mail...). A session is a complaint
when one message reaches the threshold, or when its strongest message plus
those cues does (0.5 each).

Why VADER (the ``vaderSentiment`` package): a lexicon and rules tuned for short
informal text, with its lexicon inside the wheel (nothing downloaded, unlike
NLTK's copy), deterministic, and fast enough to run on every user message of
the scan. Model-based sentiment would need weights from a hub this project
cannot reach.

How it runs: every rule is an RE2 pattern that Arrow runs over the whole
column of a batch's user messages at once (about 80x faster than Python's
``re`` one message at a time); words are RE2's ASCII words, except that
capitals and VADER's words are matched on whole Unicode words. VADER runs,
in Python, only on the messages whose verdict it can change.

Measured on ``tests/data/complaint_turns.tsv`` (426 labelled turns) by
``make signals-report``; CI fails below 0.90 precision or recall.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Annotated, Any, Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pydantic import Field

from miner.dialects import Event, arrow_rows, plain_user_texts, read_event, text_column
from miner.signals import Reason, Signal, SignalConfig, Strings, tested_on

#: Phrases that make a user message a complaint, matched case-insensitively
#: on word boundaries. A config may replace the list with its own.
DEFAULT_PHRASES: tuple[str, ...] = (
    "this is useless", "useless", "hopeless", "not helpful", "no help", "waste of time",
    "you're not listening", "you are not listening", "not listening", "are you even listening",
    "i want to complain", "make a complaint", "file a complaint", "formal complaint", "complaint",
    "terrible", "awful", "horrible", "ridiculous", "unacceptable", "not acceptable",
    "disgraceful", "disgusted", "outrageous", "pathetic", "shocking", "shambles", "a joke",
    "beyond a joke", "rubbish", "frustrated", "frustrating", "annoyed", "disappointed",
    "fed up", "sick of", "had enough", "i give up", "i'm done", "worst", "scam", "nightmare",
    "what a mess", "a disaster", "thanks for nothing", "thanks for absolutely nothing",
    "never shop here again", "never ordering again", "cancel everything", "escalate",
    "doesn't work", "does not work", "not working", "still broken", "still waiting",
    "still hasn't", "still not", "didn't help", "did not help", "didn't work", "makes no sense",
    "make no sense", "exhausting", "driving me crazy", "running out", "can't believe",
    "incredible how bad", "embarrassing", "lost my", "compensation", "report you",
    "trading standards", "social media", "overdrawn", "wasted", "stop wasting",
    "forget it", "not happy", "unhappy", "upsetting", "angry", "lie", "nonsense",
    "not an answer", "no one is doing", "nobody cares", "nobody has", "no one has",
    "gave me the wrong", "same problem", "same answer", "round in circles", "waste of",
)  # fmt: skip

_WORDS = r"(?:\w+\W+){0,4}?"
_HUMAN = (
    r"\b(?:speak|talk|chat|get|put|transfer|connect|give|let)\b\W+(?:me\W+)?"
    + _WORDS
    + r"(?:a\s+|an\s+|the\s+|your\s+)?(?:real\s+|live\s+|actual\s+)?"
    r"(?:human|person|manager|supervisor|agent|representative|operator|human being"
    r"|someone in charge)\b"
    r"|^\W*(?:human|agent|representative|operator|a person|a human)(?:\W+please)?\W*$"
    r"|\b(?:human|person|agent) please\b|\bneed a supervisor\b"
    r"|\bsomeone (?:real|senior|competent)\b"
    r"|\banyone competent\b|\bsomeone who (?:can|knows)\b|\bno more links\b|\bnot a bot\b"
    r"|\b(?:a|an) (?:human|person|real person|real one|human being)\W*$"
    r"|\ba real (?:one|human|person)\b"
    r"|\bsupervisor\b"
    r"|\bto a robot\b|\binstead of this bot\b"
)
_REPEATED = (
    r"\balready (?:told|gave|given|said|sent|provided|explained|asked|tried|did|went)\b"
    r"|\b(?:told|asked|said|explained|given|gave) (?:you )?(?:this |that |it )?"
    r"(?:\w+ ){0,3}(?:already|twice|before|three times|\d+ times)\b"
    r"|\b(?:for|this is|that'?s|it'?s) the (?:second|third|fourth|fifth|tenth|\d+(?:st|nd|rd|th))"
    r" (?:time|different)\b|\b(?:third|fourth|fifth|tenth|\d+(?:rd|th)) (?:time|different)\b"
    r"|\bstop (?:asking|changing|telling|saying)\b"
    r"|\bhow many times\b|\bkeep (?:asking|saying|sending|telling|getting)\b"
    r"|\bfor the last time\b|\bi (?:just|literally just) (?:said|told)\b|\bi said\b"
    r"|\bas i said\b|\bread (?:my|what i)\b|\bin my (?:first|previous|last) message\b"
    r"|\bmy previous messages?\b|\bdid you (?:even )?read\b|\bcan you not read\b"
    r"|\bagain (?:with|and again)\b|\bwrong again\b|\bsame (?:question|error)\b"
    r"|\bwhy do you keep\b|\bwe already\b|\bstill waiting\b|\bkeep explaining\b"
    r"|\bhave to (?:keep )?(?:repeat|explain)\b|\bcorrected it\b|\bchase you\b"
    r"|\byou (?:already )?asked me that\b"
)
_CONTRADICT = (
    r"\bthat'?s (?:wrong|not right|incorrect|a lie|not my|not what)\b"
    r"|\bnot what i (?:asked|said|meant)\b"
    r"|\bno,? that is not\b|\byou'?re (?:wrong|contradicting)\b|\bthat is not what\b"
    r"|\bis not what i said\b|\bwrong (?:order|answer|tracking|card|address)\b"
    r"|\bnever (?:ordered|came|arrived|got)\b|\bdo you understand\b|\bnot an answer\b"
    r"|\bmakes? no sense\b|\bwithout asking me\b|\bwithout fixing\b|\bi specifically said\b"
    r"|\byou'?re not (?:understanding|listening|reading|getting it)\b|\bi was (?:told|promised)\b"
    r"|\byou (?:told|said|promised) (?:me )?(?:yesterday|it would|you would)\b|\bpromised\b"
)
_STILL = (
    r"\bstill (?:not|hasn'?t|haven'?t|waiting|broken|no|nothing)\b|\bnot (?:working|helpful)\b"
    r"|\bdidn'?t (?:help|work)\b|\bdoesn'?t (?:help|work)\b|\bnothing you\b"
    r"|\bnobody (?:\w+ )?(?:has|answers?|cares|helps?|replie[sd]|called)\b"
    r"|\bno one (?:has|is)\b|\bnever came\b|\bstill (?:\w+ )?(?:delayed|late|missing)\b"
    r"|\banother delay\b|\bweek late\b|\bbeen (?:waiting|trying|going)\b|\bon hold\b"
    r"|\bfor (?:\w+ )?(?:hours|days|weeks|months)\b"
    r"|\bsince (?:march|last|monday|january|february|april|may|june|july|august|september"
    r"|october|november|december)\b|\bfor (?:an hour|hours|weeks|days)\b|\bit'?s been\b"
)
_EXASPERATED = (
    r"(?:\bhello\?+|\banyone\?+|\breally\?|\bwhat\?{2,})"
    r"|\b(?:seriously|unbelievable|wtf|ugh|sigh|come on|are you kidding|kidding me"
    r"|you have got to be|enough|are you serious"
    r"|just stop|stop it|stop\.|please just|i'?m begging|what do you mean|how hard can it be"
    r"|how is this still|why is it so hard|why would you|why am i|why does nobody|why is my"
    r"|shouldn'?t have to|don'?t tell me|don'?t want to hear|sorry doesn'?t|enough with"
    r"|nope|oh great|great, another|patience|i demand|demand|don'?t trust|joking|joke)\b"
)
_MONEY = (
    r"\b(?:want|give me|where is) my (?:money|refund)\b|\bmoney back\b|\brefund me\b"
    r"|\bbeing charged for\b|\blost money\b|\btook my money\b|\btheft\b|\bcharged twice\b"
)
_GRIEVANCE = (
    r"\b(?:broken|ruined|damaged|smashed|stolen|overcharged|because of (?:this|you)"
    r"|never (?:arrived|came))\b"
)
_COUNT = r"\b(?:twice|three times|\d+ times)\b"
_ONLY_MARKS = r"^[\s?!.]*[?!][\s?!.]*[?!][\s?!.]*$"
_BURST = r"\?\?|\?!|!\?|!!!"
_DOUBLE_BANG = r"!!"
_AGAIN = r"\b(?:again|already)\b"
#: "someone"/"somebody" asks for a person unless one of these words follows
#: (RE2 has no lookahead, so the rule compares two counts instead).
_SOMEONE = r"(?:someone|somebody)\b"
_SOMEONE_ABOUT = r"(?:someone|somebody)\b\s+(?:about|regarding|from|for|at|in)\b"
#: A message holding none of these has nothing quoted (``_QUOTED`` is skipped).
_QUOTES = re.compile("[\"“']")
_QUOTED = re.compile(r"\"[^\"]{1,80}\"|“[^”]{1,80}”|(?<!\w)'[^']{1,80}'(?!\w)")
#: Capitals that are not shouting.
_ACRONYMS = frozenset(
    [
        "OK",
        "USA",
        "UK",
        "EU",
        "US",
        "TV",
        "PDF",
        "SSD",
        "NVME",
        "HDMI",
        "BPA",
        "ASAP",
        "FYI",
        "NB",
        "LOL",
        "OMG",
        "ID",
        "PIN",
        "SMS",
        "UPS",
        "DHL",
        "DPD",
        "USPS",
        "GPS",
        "USB",
        "AM",
        "PM",
        "VAT",
        "IBAN",
        "ORD",
        "CUST",
        "SKU",
        "XL",
        "XXL",
        "XS",
    ]
)

_APOLOGY = re.compile(r"\b(?:sorry|apologi[sz]e|apologies)\b", re.I)
_ASK = re.compile(
    r"\b(?:could|can|may|would) (?:you|i)\b[^.?!]{0,40}?\b"
    r"(?P<thing>order (?:number|id)|e-?mail|address|postcode|zip|name|phone|tracking number)\b",
    re.I,
)
_ID = re.compile(r"\b[A-Za-z]{0,5}-?\d{4,}\b|[\w.+-]+@[\w-]+\.[\w.-]+")
#: ``_ID`` without its e-mail branch, which cannot match without an @ and
#: costs half the time of the search: the same ids for a message without one.
_NUMBERED_ID = re.compile(r"\b[A-Za-z]{0,5}-?\d{4,}\b")


@cache
def _vader() -> Any:
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

    return SentimentIntensityAnalyzer()


@cache
def _polarity() -> tuple[pa.Array, pa.Array, pa.Array]:
    """VADER's negative words, positive words and negations, as Arrow arrays
    (only words a message token - a run of ``[a-z']`` - can equal)."""
    from vaderSentiment.vaderSentiment import NEGATE

    lexicon = _vader().lexicon

    def words(found: Iterable[str]) -> pa.Array:
        return pa.array(sorted(w for w in found if _WORD.fullmatch(w)), pa.string())

    negative = words(w for w, v in lexicon.items() if v < 0)
    positive = words(w for w, v in lexicon.items() if v > 0)
    return negative, positive, words(NEGATE)


_WORD = re.compile(r"[a-z']+")


class ComplaintConfig(SignalConfig):
    locale: Literal["en"] = "en"
    """The language of the built-in rules. For another, set ``phrases`` to its
    own list and ``rules`` to false: then only the phrases count."""
    phrases: Strings = DEFAULT_PHRASES
    """Phrases that make a message a complaint (case-insensitive, whole words)."""
    rules: bool = True
    """Use the built-in English cues and VADER sentiment besides the phrases."""
    threshold: Annotated[float, Field(gt=0)] = 0.8
    """A message (or a session, with its cues) scoring this much is a complaint."""


def phrase_pattern(phrases: Iterable[str]) -> str:
    """The phrases as one RE2 pattern matching any of them as whole words
    (to be matched case-insensitively)."""
    alternatives = sorted({re.escape(p.lower()) for p in phrases if p.strip()}, key=len)
    if not alternatives:
        return r"[^\s\S]"  # matches nothing
    # RE2 has no lookbehind: a non-word character (or an end) is matched
    # instead, which finds a phrase exactly where the lookarounds would.
    return r"(?:^|\W)(?:" + "|".join(reversed(alternatives)) + r")(?:\W|$)"


class Scorer:
    """The message-level detector, on many messages at once: each rule is an
    RE2 pattern run by Arrow over the whole column of messages (the scan
    scores a batch's messages in one go); VADER runs only on the messages
    whose verdict it can change. Word boundaries are RE2's (ASCII) ones."""

    def __init__(self, config: ComplaintConfig) -> None:
        self.config = config
        rules = [
            ("complaint phrase", phrase_pattern(config.phrases), 1.0),
            ("asks for a person", _HUMAN, 1.0),
            ("says it repeated itself", _REPEATED, 1.0),
            ("contradicts the agent", _CONTRADICT, 1.0),
            ("wants the money back", _MONEY, 0.8),
            ("something still failing", _STILL, 0.8),
            ("exasperation", _EXASPERATED, 0.8),
            ("a grievance", _GRIEVANCE, 0.5),
            ("counts repeats", _COUNT, 0.6),
            ("only ?! marks", _ONLY_MARKS, 1.0),
        ]
        #: (rule, RE2 pattern, weight) in the order they are tried.
        self.rules = rules if config.rules else rules[:1]

    def score(self, text: str) -> tuple[float, tuple[str, ...]]:
        """The message's score and the rules that fired."""
        return self.score_many([text])[0]

    def score_many(self, texts: Sequence[str]) -> list[tuple[float, tuple[str, ...]]]:
        """Each message's score and the rules that fired, in order."""
        if not texts:
            return []
        quoted = pc.match_substring_regex(pa.array(texts, pa.string()), _QUOTES.pattern)
        unquoted = list(texts)
        for i in np.flatnonzero(quoted.to_numpy(zero_copy_only=False)).tolist():
            unquoted[i] = _QUOTED.sub(" ", unquoted[i])
        column = pa.array(unquoted, pa.string())
        hits = np.column_stack([_matches(column, pattern) for _r, pattern, _w in self.rules])
        if self.config.rules:
            hits[:, 1] |= _someone(column)
        # The rules are tried in order and a message is decided at the first
        # strong rule (weight >= 0.7) that brings its sum to the threshold:
        # more cues or sentiment could only add to it (the positive damping
        # never applies once a strong cue fired). Sums run left to right, as
        # Python's sum does, so every score is the same float rule by rule.
        weights = np.array([w for _r, _p, w in self.rules])
        sums = np.cumsum(hits * weights, axis=1)
        strong = hits & (weights >= 0.7)
        deciding = strong & (sums >= self.config.threshold)
        decided = deciding.any(axis=1)
        last = np.where(decided, deciding.argmax(axis=1), len(self.rules) - 1)
        scores = sums[np.arange(len(texts)), last]
        named = hits & (np.arange(len(self.rules)) <= last[:, None])
        cues = np.zeros(len(texts), dtype=np.int64)
        undecided = np.flatnonzero(~decided)
        if self.config.rules and len(undecided):
            # Weak cues and sentiment, only for the messages the rules left open.
            scores[undecided], cues[undecided] = self._weak_cues(
                column.take(pa.array(undecided)),
                [unquoted[i] for i in undecided.tolist()],
                scores[undecided],
                np.asarray(strong[undecided].any(axis=1)),
            )
        keys = ((named @ (1 << np.arange(len(self.rules)))) | (cues << len(self.rules))).tolist()
        # Messages that fired the same rules share one (immutable) tuple.
        rules_of = {key: self._rules_named(key) for key in set(keys)}
        return [(score, rules_of[key]) for score, key in zip(scores.tolist(), keys, strict=True)]

    def _weak_cues(
        self, column: pa.Array, texts: list[str], scores: np.ndarray, strong: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """The undecided messages' scores with the weak cues and sentiment
        added, in the order the rules list them, and which cues fired (as
        ``_CUE_WEIGHTS`` codes packed by ``_pack``)."""
        cues = _Cues(column)
        shout = np.where(cues.whole_in_capitals, 2, np.where(cues.caps >= 2, 1, 0))
        burst = np.where(cues.burst, 2, np.where(cues.double_bang, 1, 0))
        again = cues.again.astype(np.int64)
        for kind, code in (("shout", shout), ("burst", burst), ("again", again)):
            scores = scores + np.array(_CUE_WEIGHTS[kind])[code]
        strong = strong | cues.whole_in_capitals
        done = (scores >= self.config.threshold) & strong
        # VADER can only turn a message negative with a negative word or a
        # negated positive one; its positive score matters only when the
        # message already reads as a complaint from weak cues (damping).
        could_damp = scores >= self.config.threshold
        colon = pc.match_substring(column, ":").to_numpy(zero_copy_only=False)
        asked = ~done & (
            cues.negative | (cues.negation & cues.positive) | (could_damp & cues.positive) | colon
        )
        compound = np.zeros(len(texts))
        for i in np.flatnonzero(asked).tolist():
            compound[i] = float(_vader().polarity_scores(texts[i])["compound"])
        # Positive sentiment damps only where no strong cue fired: sarcasm
        # ("oh great, another...") keeps its negative cue.
        sentiment = np.where(
            done,
            0,
            np.where(
                compound <= -0.6,
                1,
                np.where(compound <= -0.3, 2, np.where((compound >= 0.5) & ~strong, 3, 0)),
            ),
        )
        scores = scores + np.array(_CUE_WEIGHTS["sentiment"])[sentiment]
        return scores, _pack(shout, burst, again, sentiment)

    def _rules_named(self, key: int) -> tuple[str, ...]:
        """The rules a ``score_many`` key says fired, in order (those that
        add to the score: a damping is not a reason)."""
        names = [r for bit, (r, _p, _w) in enumerate(self.rules) if key >> bit & 1]
        shout, burst, again, sentiment = _unpack(key >> len(self.rules))
        for kind, code in (
            ("shout", shout),
            ("burst", burst),
            ("again", again),
            ("sentiment", sentiment),
        ):
            if _CUE_WEIGHTS[kind][code] > 0:
                names.append(_CUE_NAMES[kind][code])
        return tuple(names)


#: Weak cues and sentiment by code (0: none), in the order they add up.
_CUE_WEIGHTS: dict[str, tuple[float, ...]] = {
    "shout": (0.0, 0.6, 1.0),
    "burst": (0.0, 0.3, 0.5),
    "again": (0.0, 0.3),
    "sentiment": (0.0, 0.8, 0.5, -0.6),
}
_CUE_NAMES: dict[str, tuple[str, ...]] = {
    "shout": ("", "shouting", "shouting the whole message"),
    "burst": ("", "!!", "?? or !!!"),
    "again": ("", "again / already"),
    "sentiment": ("", "negative sentiment", "negative sentiment", "positive sentiment"),
}


def _pack(shout: Any, burst: Any, again: Any, sentiment: Any) -> Any:
    return shout | burst << 2 | again << 4 | sentiment << 5


def _unpack(code: int) -> tuple[int, int, int, int]:
    return code & 3, code >> 2 & 3, code >> 4 & 1, code >> 5 & 3


def _matches(column: pa.Array, pattern: str, ignore_case: bool = True) -> np.ndarray:
    found = pc.match_substring_regex(column, pattern, ignore_case=ignore_case)
    return found.to_numpy(zero_copy_only=False)


def _count(column: pa.Array, pattern: str, ignore_case: bool = True) -> np.ndarray:
    found = pc.count_substring_regex(column, pattern, ignore_case=ignore_case)
    return found.to_numpy(zero_copy_only=False)


def _someone(column: pa.Array) -> np.ndarray:
    """ "someone"/"somebody" not followed by about, regarding, from..."""
    return _count(column, _SOMEONE) > _count(column, _SOMEONE_ABOUT)


class _Cues:
    """The weak cues and VADER's prerequisites of a column of messages."""

    def __init__(self, column: pa.Array) -> None:
        # Words in capitals, acronyms aside: whole words (Unicode letters,
        # digits and _, as Python's \w) that are two or more of A-Z.
        tokens = pc.split_pattern_regex(column, r"[^\p{L}\p{N}_]+")
        words = pc.list_flatten(tokens)
        owner = pc.list_parent_indices(tokens).to_numpy(zero_copy_only=False)
        shouted = pc.and_(
            pc.match_substring_regex(words, "^[A-Z]{2,}$"),
            pc.invert(pc.is_in(words, value_set=pa.array(sorted(_ACRONYMS)))),
        ).to_numpy(zero_copy_only=False)
        self.caps = np.bincount(owner[shouted], minlength=len(column))
        lower = _matches(column, "[a-z]", False)
        # Letters are counted only where the rest already says "in capitals".
        capitals = np.flatnonzero(~lower & (self.caps >= 3))
        self.whole_in_capitals = np.zeros(len(column), dtype=bool)
        if len(capitals):
            letters = _count(column.take(pa.array(capitals)), "[A-Za-z]", False)
            self.whole_in_capitals[capitals] = letters >= 8
        self.burst = _matches(column, _BURST)
        self.double_bang = _matches(column, _DOUBLE_BANG)
        self.again = _matches(column, _AGAIN)
        # The message's words, as VADER's lexicon spells them.
        tokens = pc.split_pattern_regex(pc.utf8_lower(column), "[^a-z']+")
        words = pc.list_flatten(tokens)
        owner = pc.list_parent_indices(tokens).to_numpy(zero_copy_only=False)
        negative, positive, negations = _polarity()

        def any_of(lexicon: pa.Array) -> np.ndarray:
            found = np.zeros(len(column), dtype=bool)
            hit = pc.is_in(words, value_set=lexicon).to_numpy(zero_copy_only=False)
            found[owner[hit]] = True
            return found

        self.negative = any_of(negative)
        self.positive = any_of(positive)
        self.negation = any_of(negations)


def _restates_an_id(said: list[tuple[str, Any]]) -> bool:
    """An id (any case) the user gave in two turns or more."""
    turns_of: dict[str, set[Any]] = {}
    for text, invocation in said:
        for value in (_ID if "@" in text else _NUMBERED_ID).findall(text):
            turns = turns_of.setdefault(value.lower(), set())
            turns.add(invocation)
            if len(turns) > 1:
                return True
    return False


class Complaint(Signal):
    name = "complaint"
    order = 3
    kinds = ("USER_MESSAGE_RECEIVED", "AGENT_RESPONSE")
    Config = ComplaintConfig

    def __init__(self, config: ComplaintConfig, context: Any) -> None:
        super().__init__(config, context)
        self.scorer = Scorer(config)

    def prefilter(self, batch: Any) -> Any:
        # Every user message is read; an answer only when it could apologise or ask.
        import pyarrow.compute as pc

        if text_column(batch, "content") is None:
            return None
        answers = pc.fill_null(pc.equal(batch.column("event_type"), "AGENT_RESPONSE"), False)
        cues = tested_on(
            answers,
            lambda rows: self.contains_any(
                batch.filter(rows), "content", ["sorry", "apolog", "could", "can ", "may "]
            ),
        )
        return pc.or_(pc.invert(answers), cues)

    def take(self, batch: Any, scratch_of: Any) -> bool:
        # A batch's user messages are scored together (the rules run on the
        # whole column). Messages in the plain shape are taken from the column
        # as dialects.plain_user_texts gives them; the rest, and the answers
        # that could apologise or ask, are read one by one. Go's answers, in
        # EVENT rows, still come through ``row``.
        kept = self.prefilter(batch)
        if kept is not None:
            batch = batch.filter(kept)
        texts = plain_user_texts(batch)
        valid = pc.is_valid(texts)
        plain = valid.to_numpy(zero_copy_only=False)
        columns = [
            np.flatnonzero(plain).tolist(),
            *(batch.column(c).filter(valid).to_pylist() for c in ("session_id", "invocation_id")),
            texts.filter(valid).to_pylist(),
        ]
        messages = [message for message in zip(*columns, strict=True) if message[3]]
        slow = np.flatnonzero(~plain)
        late = False  # user messages read one by one, to be put in the batch's order
        for i, row in zip(slow.tolist(), arrow_rows(batch, slow), strict=True):
            event = read_event(row)
            if not event.text:
                continue
            if event.kind == "AGENT_RESPONSE":
                self._answer(event.text, scratch_of(str(row.session_id)))
            else:
                messages.append((i, row.session_id, row.invocation_id, event.text))
                late = True
        if late:
            messages.sort(key=lambda m: m[0])  # in the batch's order, as ``row`` sees them
        scores = self.scorer.score_many([message[3] for message in messages])
        for (_i, sid, invocation, text), (score, rules) in zip(messages, scores, strict=True):
            scratch = scratch_of(str(sid))
            found = self._message(text, score, rules, invocation, scratch)
            if found:
                scratch.setdefault("hits", []).extend(found)
        return True

    def row(self, event: Event, row: Any, scratch: dict[Any, Any]) -> Iterable[Reason]:
        text = event.text or ""
        if not text:
            return ()
        if event.kind == "AGENT_RESPONSE":
            self._answer(text, scratch)
            return ()
        score, rules = self.scorer.score(text)
        return self._message(text, score, rules, getattr(row, "invocation_id", None), scratch)

    def _answer(self, text: str, scratch: dict[Any, Any]) -> None:
        if _APOLOGY.search(text):
            scratch["apologies"] = scratch.get("apologies", 0) + 1
        for match in _ASK.finditer(text):
            asks = scratch.setdefault("asks", {})
            thing = match.group("thing").lower()
            asks[thing] = asks.get(thing, 0) + 1

    def _message(
        self,
        text: str,
        score: float,
        rules: Sequence[str],
        invocation: Any,
        scratch: dict[Any, Any],
    ) -> list[Reason]:
        # What the user said, by turn: kept for this pass only, in memory,
        # never written or logged; ``finish`` looks for restated ids in it.
        scratch.setdefault("said", []).append((text, invocation))
        if score >= self.config.threshold:
            turn = invocation if isinstance(invocation, str) else None
            return [Reason(self.name, ", ".join(rules), turn)]
        if score > scratch.get("best", (0.0, None, ""))[0]:
            scratch["best"] = (score, invocation, ", ".join(rules))
        return []

    def finish(self, session_id: str, scratch: dict[Any, Any]) -> Iterable[Reason]:
        if not scratch:
            return ()
        hits: list[Reason] = scratch.get("hits", [])
        if not self.config.rules:
            return hits
        cues = []
        if scratch.get("apologies", 0) >= 2:
            cues.append("the agent apologised twice")
        if any(n >= 2 for n in scratch.get("asks", {}).values()):
            cues.append("the agent asked twice for the same thing")
        best, invocation, rules = scratch.get("best", (0.0, None, ""))
        # The ids are looked for only where that cue could tip the session.
        if best + 0.5 * (len(cues) + 1) >= self.config.threshold and _restates_an_id(
            scratch.get("said", [])
        ):
            cues.insert(0, "restates an id from another turn")
        if cues and best + 0.5 * len(cues) >= self.config.threshold:
            return [*hits, Reason(self.name, ", ".join(filter(None, [rules, *cues])), invocation)]
        return hits
