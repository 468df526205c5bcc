"""``complaint``: the user is frustrated - a frustration detector, not a phrase list.

The detector is data, so that every engine runs the same one:

- ``RULES``: a table of (name, pattern, weight). A user message scores the sum
  of the weights of the rules whose pattern it matches, and is a complaint at
  ``THRESHOLD``. In SQL that is ``sum(CASE WHEN regexp_matches(text, pattern)
  THEN weight ELSE 0 END) >= THRESHOLD`` over the rules, after ``QUOTED`` is
  replaced by a space (a product called "Terrible Twos" is not a complaint).
- ``SESSION_CUES``: what no single message shows, each adding ``CUE_WEIGHT``
  to the session's strongest message: the agent apologising twice (``APOLOGY``
  in two answers), the agent asking twice for the same thing (``ASK``'s first
  group, twice), the user restating an id (``ID``) in another turn. All three
  are aggregates over a session's rows.

Every pattern is written in the subset of regex syntax that RE2 (DuckDB,
BigQuery, Arrow) and Java's ``java.util.regex`` (Spark) read alike:
``is_portable`` says which constructs are allowed; a test holds every
pattern to it and matches each in Arrow, DuckDB and Spark alike.
Case-insensitive rules start with ``(?i)``; a rule without it (a message in
capitals) is case-sensitive. ``\\w`` is ASCII in all three.

The table, its weights and an example of each rule are in ``docs/signals.md``,
written by ``rules_markdown()``; a test fails when the two differ. Sentiment
(VADER) is not a rule: measured on the third-party corpora it did not pay
(``make signals-report`` prints both), see docs/signals.md.

The rules are English. For another language set ``phrases`` to its own list and
``rules = false``: then only the phrase rule counts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pydantic import Field

from miner.engine.sql import text as literal
from miner.signals import Signal, SignalConfig, Strings


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    """What fired, in words: the reason a draft's provenance carries."""
    pattern: str
    """RE2 and Java regex alike (``PORTABLE``), matched anywhere in the message."""
    weight: float
    example: str
    """A message the rule fires on (the docs show it; a test checks it fires)."""


#: Phrases that make a user message a complaint, matched case-insensitively
#: on word boundaries. A config may replace the list with its own.
DEFAULT_PHRASES: tuple[str, ...] = (
    "this is useless", "useless", "hopeless", "not helpful", "no help", "waste of time",
    "you're not listening", "you are not listening", "not listening", "are you even listening",
    "i want to complain", "complain", "complaint", "complaints", "claim against",
    "consumer claim", "customer claim", "make a claim", "file a claim", "lodge a claim",
    "submit a claim", "reclamation", "discontent", "dissatisfied", "not satisfied", "not happy",
    "unhappy", "don't like the service", "dont like the service", "do not like the service",
    "terrible", "awful", "horrible", "ridiculous", "unacceptable", "not acceptable",
    "disgraceful", "disgusted", "outrageous", "pathetic", "shocking", "shambles", "a joke",
    "beyond a joke", "rubbish", "frustrated", "frustrating", "annoyed", "annoying",
    "disappointed", "fed up", "sick of", "had enough", "i give up", "i'm done", "worst", "scam",
    "nightmare", "what a mess", "a disaster", "thanks for nothing",
    "thanks for absolutely nothing", "theft", "took my money", "stole my money",
    "you've wasted", "you wasted", "tired of", "my patience", "social media",
    "never shop here again", "never ordering again", "cancel everything", "escalate",
    "still broken", "still waiting", "still hasn't", "didn't help", "did not help",
    "makes no sense", "make no sense", "exhausting", "driving me crazy", "can't believe",
    "incredible how bad", "embarrassing", "compensation", "report you", "trading standards",
    "stop wasting", "wasted my", "forget it", "upsetting", "angry", "lied", "liar", "nonsense",
    "not an answer", "no one is doing", "nobody cares", "gave me the wrong", "same problem",
    "same answer", "round in circles", "waste of",
)  # fmt: skip

#: Someone the user can be put through to.
_PERSON = (
    r"(?:a |an |the |your |some |one of your )?(?:real |live |actual |human |competent )?"
    r"(?:(?:humans?|persons?|people|managers?|supervisors?|agents?|representatives?|reps?"
    r"|operators?|human beings?)\b"
    # "someone" only where the sentence ends: "speak to someone about an order" is a question.
    r"|(?:somebody|someone|anybody|anyone)(?: (?:real|else|competent|senior))?(?: please| now)?"
    r"(?:\W*$|[.,;!?]))"
)
_ASKS_FOR_A_PERSON = (
    r"(?i)\b(?:speak|speaking|talk|talking|chat|chatting|contact|contacting|reach|get|put"
    r"|transfer|connect|give|let|want|need)\b(?: (?:me|you))?(?: (?:to|with|through to))?"
    r" (?:[a-z']+ ){0,2}?" + _PERSON + r"(?: (?:please|now))?"
    r"|^\W*(?:human|agent|representative|operator|a person|a human|person)(?:\W+please)?\W*$"
    r"|\b(?:human|person|agent) please\b|\bsomeone (?:real|senior|competent)\b"
    r"|\banyone competent\b|\b(?:someone|somebody) who (?:can|knows)\b|\bnot a bot\b"
    r"|\ba real (?:one|human|person)\b"
    r"|\b(?:someone|somebody|anyone|anybody|human|person|agent|representative|operator) available\b"
    r"|\bto a robot\b|\binstead of this bot\b|\bsupervisor\b"
)
_REPEATED = (
    r"(?i)\balready (?:told|gave|given|said|sent|provided|explained|asked|tried|did|went)\b"
    r"|\b(?:told|asked|said|explained|given|gave) (?:you )?(?:this |that |it )?"
    r"(?:[a-z']+ ){0,3}(?:already|twice|before|three times|\d+ times)\b"
    r"|\b(?:for|this is|that'?s|it'?s) the (?:second|third|fourth|fifth|tenth|\d+(?:st|nd|rd|th))"
    r" (?:time|different)\b|\b(?:third|fourth|fifth|tenth|\d+(?:rd|th)) (?:time|different)\b"
    r"|\bstop (?:asking|changing|telling|saying)\b"
    r"|\bhow many times\b|\bkeep (?:asking|saying|sending|telling|getting)\b"
    r"|\bfor the last time\b|\bi (?:just |literally just )?(?:said|told you)\b"
    r"|\bread (?:my (?:messages?|question|reply|answer)|what i)\b"
    r"|\bin my (?:first|previous|last) message\b"
    r"|\bmy previous messages?\b|\bdid you (?:even )?read\b|\bcan you not read\b"
    r"|\bagain (?:with|and again)\b|\bwrong again\b|\bsame (?:question|error)\b"
    r"|\bwhy do you keep\b|\bwe already\b|\bkeep explaining\b"
    r"|\bhave to (?:keep )?(?:repeat|explain)\b|\bcorrected it\b|\bchase you\b"
    r"|\byou (?:already )?asked me that\b"
)
_CONTRADICTS = (
    r"(?i)\bthat'?s (?:wrong|not right|incorrect|a lie|not my|not what)\b"
    r"|\bnot what i (?:asked|said|meant)\b"
    r"|\bno,? that is not\b|\byou'?re (?:wrong|contradicting)\b|\bthat is not what\b"
    r"|\bis not what i said\b|\bwrong (?:order|answer|tracking|card|address)\b"
    r"|\bnever ordered\b|\bdo you (?:even )?understand\b"
    r"|\bwithout asking me\b|\bwithout fixing\b|\bi specifically said\b"
    r"|\byou'?re not (?:understanding|listening|reading|getting it)\b|\bi was (?:told|promised)\b"
    r"|\byou (?:told|said|promised) (?:me )?(?:yesterday|it would|you would)\b|\bpromised\b"
)
#: The user tells the agent it is not helping or cannot be understood.
_NOT_HELPING = (
    r"(?i)\b(?:you'?re|you are|u are|you aren'?t|you arent|your|u r|ur) (?:not|no) help"
    r"|\b(?:you|u) (?:aren'?t|arent|are not|r not) help"
    r"|\bi (?:can'?t|cannot|can not|don'?t|do not|dont|cant) understand (?:you|u)\b"
    r"|\b(?:you|u) (?:don'?t|do not|dont) understand\b|\bnothing you\b"
)
_STILL_FAILING = (
    r"(?i)\bstill (?:not|hasn'?t|haven'?t|waiting|broken|no|nothing)\b"
    r"|\bdidn'?t (?:help|work)\b|\bdoesn'?t (?:help|work)\b"
    r"|\bnobody (?:[a-z]+ )?(?:has|answers?|cares|helps?|replie[sd]|called)\b"
    r"|\bno one (?:has|is)\b|\bnever came\b|\bstill (?:[a-z]+ )?(?:delayed|late|missing)\b"
    r"|\banother delay\b|\bweek late\b|\bbeen (?:waiting|trying|going)\b|\bon hold\b"
    r"|\bfor (?:[a-z]+ )?(?:hours|weeks|months)\b"
    r"|\bit'?s been (?:over |more than |almost )?(?:a|an|\d+|two|three|four|five|several) "
    r"(?:hours?|days?|weeks?|months?)\b"
)
_EXASPERATED = (
    r"(?i)\bhello\?{2,}|\banyone(?: there)?\?{2,}|\breally\?|\bwhat\?{2,}"
    r"|\b(?:seriously|unbelievable|ugh|sigh|come on|are you kidding|kidding me"
    r"|you have got to be|enough|are you serious"
    r"|just stop|stop it|stop\.|i'?m begging|what do you mean|how hard can it be"
    r"|how is this still|why is it so hard|why would you|why does nobody"
    r"|shouldn'?t have to|don'?t tell me|don'?t want to hear|sorry doesn'?t|enough with"
    r"|nope|oh great|great, another|i demand|don'?t trust)\b"
)
#: Swearing: Bitext's "offensive language", misspelt as it is typed.
_SWEARS = (
    r"(?i)\b(?:u?f[ui]?(?:ck|kc|c)k?[ie]?n+[gm]?\w*|fuck\w*|fck\w*|wtf|shit\w*|bullshit|crap|crappy"
    r"|damn\w*|goddamn\w*|bloody|piss(?:ed|ing)?|screw (?:you|this))\b"
)
_GRIEVANCE = (
    r"(?i)\b(?:ruined|smashed|overcharged|because of (?:this|you)|never (?:arrived|came|got))\b"
)
_COUNT = r"(?i)\b(?:twice|three times|\d+ times)\b"
_ONLY_MARKS = r"^[\s?!.]*[?!][\s?!.]*[?!][\s?!.]*$"
#: A message in capitals: no lower-case letter and at least eight capitals.
_IN_CAPITALS = r"^[^a-z]*(?:[A-Z][^a-z]*){8,}$"
_BURST = r"\?\?|\?!|!\?|!!!"
#: Two marks, not three (``_BURST`` has those): the two never add up.
_DOUBLE_BANG = r"(?:^|[^!])!!(?:[^!]|$)"
_AGAIN = r"(?i)\b(?:again|already)\b"
#: Quoted text, replaced by a space before the rules run. RE2 has no
#: lookbehind: a quote opening after a non-word character (or at the start)
#: stands for Python's ``(?<!\w)'``.
QUOTED = r"\"[^\"]{1,80}\"|“[^”]{1,80}”|(?:^|\W)'[^']{1,80}'(?:\W|$)"

#: The tokens a pattern may be made of, and so the ones RE2 and Java read
#: alike: literals, ``. [...] [^...]``, the escapes ``\\b \\w \\W \\d \\s \\S`` and
#: escaped punctuation, ``^ $``, ``* + ? {m,n}`` (and lazy ``?``), groups
#: ``(...)`` and ``(?:...)``. A leading ``(?i)`` is the only flag.
_PORTABLE_TOKEN = r"\\[bBwWdDsS.?*+()\[\]{}|^$\\/\"'\-!#@&:,]|\(\?:|\((?!\?)|[^\\(]"
_PORTABLE = re.compile(f"(?:{_PORTABLE_TOKEN})*")
#: Read otherwise by one of the two: possessive quantifiers, POSIX classes,
#: class intersection (Java), back-references.
_NOT_PORTABLE = re.compile(r"[*+?}]\+|\[\[:|&&")


def is_portable(pattern: str) -> bool:
    """``pattern`` keeps to the syntax RE2 (DuckDB, BigQuery, Arrow) and
    ``java.util.regex`` (Spark) read alike: no lookaround, back-references,
    named groups (spelt differently), possessive quantifiers, ``\\A \\z \\Q
    \\p{..}`` or inline flags past a leading ``(?i)``."""
    body = pattern.removeprefix("(?i)")
    return bool(_PORTABLE.fullmatch(body)) and not _NOT_PORTABLE.search(body)


#: A session cue adds this to the session's strongest message.
CUE_WEIGHT = 0.5
#: An answer that apologises (the agent apologising twice is a cue).
APOLOGY = r"(?i)\b(?:sorry|apologi[sz]e|apologies)\b"
#: An answer asking for something; group 1 is what (asked twice is a cue).
ASK = (
    r"(?i)\b(?:could|can|may|would) (?:you|i)\b[^.?!]{0,40}?\b"
    r"(order (?:number|id)|e-?mail|address|postcode|zip|name|phone|tracking number)\b"
)
#: An id or an e-mail in a user message (the same one in two turns is a cue).
ID = r"\b[A-Za-z]{0,5}-?\d{4,}\b|[\w.+-]+@[\w-]+\.[\w.-]+"
#: The session cues: (name, what it counts), for the docs and the rule names.
SESSION_CUES: tuple[tuple[str, str], ...] = (
    ("restates an id from another turn", "the same `ID` (any case) in two user turns"),
    ("the agent apologised twice", "two answers matching `APOLOGY`"),
    ("the agent asked twice for the same thing", "`ASK`'s group 1 equal in two matches"),
)


class ComplaintConfig(SignalConfig):
    locale: Literal["en"] = "en"
    """The language of the built-in rules. For another, set ``phrases`` to its
    own list and ``rules`` to false: then only the phrases count."""
    phrases: Strings = DEFAULT_PHRASES
    """Phrases that make a message a complaint (case-insensitive, whole words)."""
    rules: bool = True
    """Use the built-in English rules and session cues besides the phrases."""
    threshold: Annotated[float, Field(gt=0)] = 0.8
    """A message (or a session, with its cues) scoring this much is a complaint."""


def phrase_pattern(phrases: Iterable[str]) -> str:
    """The phrases as one portable pattern matching any of them as whole words,
    case-insensitively."""
    alternatives = sorted({_escape(p.lower()) for p in phrases if p.strip()}, key=len)
    if not alternatives:
        return r"[^\s\S]"  # matches nothing
    # No lookbehind in RE2: a non-word character (or an end) is matched
    # instead, which finds a phrase exactly where the lookarounds would.
    return r"(?i)(?:^|\W)(?:" + "|".join(reversed(alternatives)) + r")(?:\W|$)"


def _escape(text: str) -> str:
    """``text`` as a literal in RE2 and Java alike (``re.escape`` also escapes
    characters, such as a space, that Java reads as another escape)."""
    return re.sub(r"([\\.^$|?*+()\[\]{}])", r"\\\1", text)


def rule_table(config: ComplaintConfig) -> tuple[Rule, ...]:
    """The rules ``config`` runs, in the order they are named."""
    phrases = Rule("complaint phrase", phrase_pattern(config.phrases), 1.0, "This is useless.")
    if not config.rules:
        return (phrases,)
    return (
        phrases,
        Rule("asks for a person", _ASKS_FOR_A_PERSON, 1.0, "Get me a manager. Now."),
        Rule("says it repeated itself", _REPEATED, 1.0, "I already told you that"),
        Rule("contradicts the agent", _CONTRADICTS, 1.0, "that's wrong. I never ordered that"),
        Rule("says the agent is not helping", _NOT_HELPING, 1.0, "you're not helping"),
        Rule("swears", _SWEARS, 1.0, "where is my damn parcel"),
        Rule("a message in capitals", _IN_CAPITALS, 1.0, "WHY IS MY REFUND NOT HERE YET"),
        Rule("only ?! marks", _ONLY_MARKS, 1.0, "??"),
        Rule("something still failing", _STILL_FAILING, 0.8, "It still hasn't arrived"),
        Rule("exasperation", _EXASPERATED, 0.8, "seriously?"),
        Rule("counts repeats", _COUNT, 0.4, "I have asked three times"),
        Rule("a grievance", _GRIEVANCE, 0.5, "the box was smashed"),
        Rule("?? or !!!", _BURST, 0.5, "where is it??"),
        Rule("!!", _DOUBLE_BANG, 0.3, "thanks!!"),
        Rule("again / already", _AGAIN, 0.3, "ORD-55120, again"),
    )


#: The built-in rules, as the default config runs them.
RULES: tuple[Rule, ...] = rule_table(ComplaintConfig())
#: A message (or a session, with its cues) scoring this much is a complaint.
THRESHOLD: float = ComplaintConfig().threshold


def rules_markdown(rules: Sequence[Rule] = RULES, threshold: float = THRESHOLD) -> str:
    """The rule table as docs/signals.md shows it (patterns aside: they are
    in the code, a name away)."""
    lines = [
        f"A message is a complaint when the weights of the rules it matches add up to {threshold}.",
        "",
        "| rule | weight | fires on, for example |",
        "|---|---|---|",
        *(f"| {r.name} | {r.weight} | {r.example} |" for r in rules),
        "",
        f"Session cues, each adding {CUE_WEIGHT} to the session's strongest message:",
        "",
        "| cue | what it counts |",
        "|---|---|",
        *(f"| {name} | {what} |" for name, what in SESSION_CUES),
    ]
    return "\n".join(lines) + "\n"


class Scorer:
    """The message-level detector over many messages at once: each rule is
    run by Arrow's RE2 over the whole column, as an engine runs it."""

    def __init__(self, config: ComplaintConfig) -> None:
        self.config = config
        self.rules = rule_table(config)
        self._weights = np.array([rule.weight for rule in self.rules])

    def score(self, text: str) -> tuple[float, tuple[str, ...]]:
        """The message's score and the rules that fired."""
        return self.score_many([text])[0]

    def score_many(self, texts: Sequence[str]) -> list[tuple[float, tuple[str, ...]]]:
        """Each message's score and the rules that fired, in order."""
        if not texts:
            return []
        column = pc.replace_substring_regex(pa.array(texts, pa.string()), QUOTED, " ")
        hits = np.column_stack(
            [
                pc.match_substring_regex(column, rule.pattern).to_numpy(zero_copy_only=False)
                for rule in self.rules
            ]
        )
        # Rounded, so that no order of addition (an engine's sum has none)
        # tips a message over the threshold.
        scores = np.round(hits.astype(np.float64) @ self._weights, 6)
        keys = (hits @ (1 << np.arange(len(self.rules)))).tolist()
        names = {key: self._named(key) for key in set(keys)}
        return [(s, names[k]) for s, k in zip(scores.tolist(), keys, strict=True)]

    def _named(self, key: int) -> tuple[str, ...]:
        return tuple(rule.name for bit, rule in enumerate(self.rules) if key >> bit & 1)


#: The rules of a case (ignoring it or not) are tried in groups of this
#: many, each group only on the messages its own alternation matches (where
#: the case's alternation of all of them did): at 5M real-shaped rows, over
#: 388,000 user messages, 0.53-0.54 s of CPU against 0.68-0.74 with the
#: case's alternation alone (the 11 rules that ignore case in groups of 6:
#: 0.57-0.60; of 3: 0.56-0.59). A case of no more rules has no groups.
RULES_PER_GROUP = 4
#: Each case's alternation of its rules (``_any_of``), by column.
_CASES = ((True, "any_ci"), (False, "any_cs"))


#: What every match of a pattern holds, as an SQL condition on the text in
#: ``{c}``, cheap beside the pattern (a literal found, not a regex run): the
#: pattern runs only on the texts it holds for, the same matches for a
#: fraction of the work (RE2 reads a message byte by byte, about 0.1 s of
#: CPU per pattern over 5M real-shaped rows' 388,000 user messages; a
#: ``strpos`` a tenth of it). A pattern that ignores case is looked for in
#: the lower-cased text (``lower`` maps every letter RE2's ``(?i)`` folds
#: to an ASCII one, the Kelvin sign to ``k``, to that letter; Java's
#: ``(?i)`` folds ASCII alone). ``tests/test_complaint_rules.py`` holds
#: each to it.
_MARKS = "(strpos({c}, '?') > 0 OR strpos({c}, '!') > 0)"
HELD_BY_EVERY_MATCH: dict[str, str] = {
    # A quote opens with one of these three.
    QUOTED: "(strpos({c}, '\"') > 0 OR strpos({c}, '“') > 0 OR strpos({c}, '''') > 0)",
    _ONLY_MARKS: _MARKS,
    _BURST: _MARKS,
    _DOUBLE_BANG: _MARKS,
    # No lower-case ASCII letter: RE2 stops at the first one it finds.
    _IN_CAPITALS: "NOT regexp_matches({c}, '[a-z]')",
    APOLOGY: "(strpos(lower({c}), 'sorry') > 0 OR strpos(lower({c}), 'apolog') > 0)",
}


def held_by_matches(patterns: Sequence[str], column: str) -> str | None:
    """SQL: a condition on ``column`` that holds wherever one of
    ``patterns`` matches (``HELD_BY_EVERY_MATCH``); None where one of them
    has none."""
    held = [HELD_BY_EVERY_MATCH.get(pattern) for pattern in patterns]
    if not held or any(h is None for h in held):
        return None
    return "(" + " OR ".join(dict.fromkeys(str(h).format(c=column) for h in held)) + ")"


def _gated(patterns: Sequence[str], column: str, run: str, otherwise: str) -> str:
    """SQL: ``run`` (a search of ``patterns`` in ``column``) only where
    their ``held_by_matches`` condition holds, else ``otherwise``."""
    held = held_by_matches(patterns, column)
    return run if held is None else f"CASE WHEN {held} THEN {run} ELSE {otherwise} END"


def _ignores_case(rule: Rule) -> bool:
    return rule.pattern.startswith("(?i)")


def _any_of(rules: Sequence[Rule], ignore_case: bool) -> str:
    """SQL: ``unquoted`` matches one of the rules that (do not) ignore case."""
    whole = [r.pattern for r in rules if _ignores_case(r) == ignore_case]
    if not whole:
        return "false"
    patterns = [p.removeprefix("(?i)") for p in whole]
    either = ("(?i)" if ignore_case else "") + "|".join(f"(?:{p})" for p in patterns)
    run = f"regexp_matches(unquoted, {literal(either)})"
    return _gated(whole, "unquoted", run, "false")


class Complaint(Signal):
    """The detector, once, in SQL (``sql``); ``Scorer`` runs the same rule
    table over many messages in Arrow, for the reports and the tests."""

    name = "complaint"
    order = 3
    kinds = ("USER_MESSAGE_RECEIVED", "AGENT_RESPONSE")
    Config = ComplaintConfig

    def __init__(self, config: ComplaintConfig, context: Any) -> None:
        super().__init__(config, context)
        self.scorer = Scorer(config)

    def steps(self) -> list[tuple[str, str]]:
        """``complaint_scored``: every user message scored by the rule table
        (its rules named, with the ids it states), read by each part of ``sql``. With the rules, the
        parts of the session cues too, each a step (``_cue_steps``): inlined
        in the hits, DuckDB held a window and an ``unnest`` beside the other
        signals' hits, and ran out of 160 MiB at 20M rows."""
        scored = [("complaint_scored", self._scored())]
        return scored + self._cue_steps() if self.config.rules else scored

    def _cue_steps(self) -> list[tuple[str, str]]:
        """A session's strongest message below the threshold
        (``complaint_best``) and the sessions each cue holds for
        (``complaint_ids``, ``complaint_apologies``, ``complaint_asks``)."""
        threshold = self.config.threshold
        answers = "FROM events WHERE kind = 'AGENT_RESPONSE' AND text <> ''"
        ids = (
            "SELECT DISTINCT session_id FROM (SELECT DISTINCT session_id, lower(said) AS said, "
            "coalesce(invocation_id, '') AS turn FROM (SELECT session_id, invocation_id, "
            "unnest(stated) AS said FROM complaint_scored) i) t "
            # Two turns at least: the (id, turn) pairs are distinct.
            "GROUP BY session_id, said HAVING count(*) >= 2"
        )
        apologies = (
            f"SELECT session_id {answers} AND {held_by_matches([APOLOGY], 'text')} "
            f"AND regexp_matches(text, {literal(APOLOGY)}) "
            "GROUP BY session_id HAVING count(*) >= 2"
        )
        asks = (
            "SELECT DISTINCT session_id FROM (SELECT session_id, "
            f"unnest(regexp_extract_all(text, {literal(ASK)}, 1)) AS thing {answers}) a "
            "GROUP BY session_id, lower(thing) HAVING count(*) >= 2"
        )
        best = (
            "SELECT session_id, invocation_id, score, rules FROM (SELECT *, row_number() OVER "
            "(PARTITION BY session_id ORDER BY score DESC, ts, invocation_id) AS place "
            f"FROM complaint_scored WHERE score > 0 AND score < {threshold}) b WHERE place = 1"
        )
        return [
            ("complaint_best", best),
            ("complaint_ids", ids),
            ("complaint_apologies", apologies),
            ("complaint_asks", asks),
        ]

    def _scored(self) -> str:
        # A rule runs only on the messages that its case's alternation of
        # every rule matches (RE2 reads it in one pass; most messages match
        # no rule at all), and of those, only on the messages that the
        # alternation of its group matches (``RULES_PER_GROUP``): the same
        # hits, a fraction of the regex work.
        rules = self.scorer.rules
        prefilters = ", ".join(
            f"{_any_of(rules, ignore_case)} AS {column}" for ignore_case, column in _CASES
        )
        gate: dict[int, str] = {}
        groups: list[str] = []
        for ignore_case, column in _CASES:
            of_case = [i for i, rule in enumerate(rules) if _ignores_case(rule) == ignore_case]
            if len(of_case) <= RULES_PER_GROUP:
                gate.update(dict.fromkeys(of_case, column))
                continue
            for start in range(0, len(of_case), RULES_PER_GROUP):
                group, name = of_case[start : start + RULES_PER_GROUP], f"{column}_{start}"
                either = _any_of([rules[i] for i in group], ignore_case)
                groups.append(f"CASE WHEN {column} THEN {either} ELSE false END AS {name}")
                gate.update(dict.fromkeys(group, name))
        fired = ", ".join(
            f"CASE WHEN {gate[i]} "
            f"THEN regexp_matches(unquoted, {literal(rule.pattern)}) ELSE false END AS r{i}"
            for i, rule in enumerate(rules)
        )
        grouped = f"(SELECT *, {', '.join(groups)} FROM " if groups else "("
        score = " + ".join(
            f"CASE WHEN r{i} THEN {rule.weight} ELSE 0 END"
            for i, rule in enumerate(self.scorer.rules)
        )
        named = ", ".join(
            f"CASE WHEN r{i} THEN {literal(rule.name)} END"
            for i, rule in enumerate(self.scorer.rules)
        )
        unquote = f"regexp_replace(text, {literal(QUOTED)}, ' ', 'g')"
        messages = (
            "SELECT session_id, invocation_id, ts, text, "
            f"{_gated([QUOTED], 'text', unquote, 'text')} AS unquoted "
            "FROM events WHERE kind = 'USER_MESSAGE_RECEIVED' AND text <> ''"
        )
        # The ids a message states (``ID``, the restated-id cue's), not its
        # text: the step holds a few bytes a message where the text was
        # hundreds (at 5M rows, 150 MB spilled under ``memory_limit`` and
        # read back for this one extraction).
        stated = f", regexp_extract_all(text, {literal(ID)}) AS stated" if self.config.rules else ""
        return (
            f"SELECT session_id, invocation_id, ts, {score} AS score, "
            f"concat_ws(', ', {named}) AS rules{stated} FROM (SELECT *, {fired} FROM "
            f"{grouped}(SELECT *, {prefilters} FROM ({messages}) m) p) g) f"
        )

    def sql(self) -> str:
        """Over ``complaint_scored`` (``steps``): the messages at the threshold
        are hits, each naming its rules; below it, the session's strongest
        message (the earliest of equals, ``complaint_best``) plus
        ``CUE_WEIGHT`` per session cue (the other ``_cue_steps``) may reach
        it, and is one more hit naming its rules and the cues."""
        threshold = self.config.threshold
        # Two messages of a turn that fire the same rules are one hit.
        hits = (
            "SELECT DISTINCT session_id, invocation_id, rules AS rule FROM complaint_scored "
            f"WHERE score >= {threshold}"
        )
        if not self.config.rules:
            return hits
        (restated, _), (apologised, _), (asked, _) = SESSION_CUES
        cues = (
            "CASE WHEN i.session_id IS NULL THEN 0 ELSE 1 END"
            " + CASE WHEN p.session_id IS NULL THEN 0 ELSE 1 END"
            " + CASE WHEN k.session_id IS NULL THEN 0 ELSE 1 END"
        )
        rule = (
            "concat_ws(', ', nullif(b.rules, ''), "
            f"CASE WHEN i.session_id IS NOT NULL THEN {literal(restated)} END, "
            f"CASE WHEN p.session_id IS NOT NULL THEN {literal(apologised)} END, "
            f"CASE WHEN k.session_id IS NOT NULL THEN {literal(asked)} END)"
        )
        return (
            f"{hits} UNION ALL "
            f"SELECT s.session_id, b.invocation_id, {rule} AS rule "
            "FROM (SELECT DISTINCT session_id FROM complaint_scored) s "
            "LEFT JOIN complaint_best b ON b.session_id = s.session_id "
            "LEFT JOIN complaint_ids i ON i.session_id = s.session_id "
            "LEFT JOIN complaint_apologies p ON p.session_id = s.session_id "
            "LEFT JOIN complaint_asks k ON k.session_id = s.session_id "
            f"WHERE ({cues}) > 0 AND coalesce(b.score, 0) + {CUE_WEIGHT} * ({cues}) >= {threshold}"
        )
