"""The unsure policy's name rules (``miner.redaction.unsure``): a word a name
list knows in any casing, a name's part beside a person replaced, a name
in a person's slot; and the words (towns, things) that are not a name."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterator

from miner.config import UnsureConfig
from miner.redaction.lexicon.formats import names_a_number, names_a_person_s_id
from miner.redaction.lexicon.joiners import AND
from miner.redaction.lexicon.letters import LETTERS
from miner.redaction.lexicon.names import (
    A_CALLER_S_DEED,
    DETERMINERS,
    ENGLISH_GREETINGS_REGEX,
    NOT_NAMES,
    OTHER_GREETINGS_REGEX,
    RELATIVES,
    a_first_name,
    a_nationality_said,
    a_particle,
    a_place_name,
    addressed,
    known_name,
    stop_words,
)
from miner.redaction.lexicon.signatures import a_job_or_a_thing_by_position

#: A word; in capitals with an Irish or Italian "O'" or "D'" before it ("O'HEA").
WORD = re.compile(r"(?<![\w<])(?:[A-Z]['’](?=[A-Z]{2}))?[^\W\d_]{2,}(?:['’-][^\W\d_]+)*(?![\w>])")


#: An abbreviation with its full stops, no longer than a title's or a
#: degree's ("th.d.", "Ph.D.", "CSc.", "Ing."), right after or before a
#: person replaced.
TITLE_BESIDE_PERSON = re.compile(
    r"<PERSON_\d+>,?[ \t]+([^\W\d_]{1,4}\.(?:[^\W\d_]{1,4}\.?){0,3})(?![\w.])"
    r"|(?<![\w.])((?:[^\W\d_]{1,4}\.){1,3})[ \t]+(?=<PERSON_\d+>)"
)


def a_sentence_s_last_word(abbreviation: str) -> bool:
    """Whether what ``TITLE_BESIDE_PERSON`` found after a person is one
    word with a full stop that lemminflect files under a part of speech:
    the sentence's end ("a huge <PERSON_1> fan."), no title or degree
    ("Jr.", "th.d.", "Ing.": no English word)."""
    from miner.redaction.lexicon.wordclass import word_classes

    word = abbreviation.removesuffix(".")
    return word.isalpha() and bool(word_classes(word))


#: A word glued to a person replaced, or beside it on its line: "Jean-
#: <PERSON_1>", "<PERSON_1>ová", "<PERSON_1> Taylor".
_WORD_BEFORE_PERSON = re.compile(
    r"(?:(?<=\\[nNtr])|(?<![\w'’‘ʼ\\-]))([^\W\d_]+(?:['’‘ʼ-][^\W\d_]+)*)(['’‘ʼ-]|[ \t])?"
    r"(?=<PERSON_\d+>)"
)


_WORD_AFTER_PERSON = re.compile(
    r"(?<=>)(?<=<PERSON_\d>|PERSON_\d\d>)(['’‘ʼ-]|[ \t])?([^\W\d_]+(?:['’‘ʼ-][^\W\d_]+)*)"
    r"(?![\w'’‘ʼ-])"
)


#: Suffixes of a word after an apostrophe: "<PERSON_1>'s", "<PERSON_1>'ll".
_CLITICS = frozenset(("s", "d", "ll", "re", "ve", "m", "t"))


def names_beside_persons(text: str) -> Iterator[tuple[int, int, str]]:
    """What stands beside a person replaced that may be the rest of the
    name: letters glued to it or joined by a hyphen or an apostrophe (not a
    clitic's: "'s", "'ll"), or, a blank between, a word a name list knows
    (any casing) that English writes less than often (wordfreq Zipf 5
    after it, 4 before it, where a greeting stands: "Dear"): a name's part
    the rules left, the reviewer's to decide."""
    from miner.redaction.lexicon.names import an_english_word

    found = [(m, 1, 2, 4.0) for m in _WORD_BEFORE_PERSON.finditer(text)]
    found += [(m, 2, 1, 5.0) for m in _WORD_AFTER_PERSON.finditer(text)]
    prose = _Prose(text)
    for m, group, joint, zipf in found:
        word, gap = m.group(group), m.group(joint) or ""
        folded = word.casefold()
        if gap in ("'", "’", "ʼ") and group == 2 and folded in _CLITICS:
            continue
        if not (
            gap in ("", "-", "'", "’", "‘", "ʼ")
            or (
                len(word) >= 3
                and folded not in stop_words()
                and known_name(word)
                and not an_english_word(folded, zipf)
                and not (group == 2 and _english_after_a_person(word))
            )
            or _a_short_name_word(word, after=group == 2)
            or (group == 2 and gap == " " and _a_surname_english_writes(text, m, word, prose))
            or (group == 2 and gap == " " and _a_short_word_english_writes(text, m, word, prose))
        ):
            continue
        if group == 1 and _NAME_CUE.search(text, max(0, m.start() - 25), m.end()):
            continue  # a cue before a name: "pax <PERSON_1>", "ring <PERSON_1>"
        if group == 1 and word.title() in NOT_NAMES:
            continue  # a greeting: "Hallo <PERSON_1>", "Bonjour <PERSON_1>"
        if group == 2 and names_a_person_s_id(text, m.start(2), m.end(2), phones=False):
            continue  # "<PERSON_1> NIE X7654321F": the id's name, before its value
        yield m.start(group), m.end(group), "PERSON"


def _a_surname_english_writes(text: str, m: re.Match[str], word: str, prose: _Prose) -> bool:
    """A capitalised word a name list knows right after a person replaced,
    in a text that writes in lower case: a surname that is also an English
    word ("Customer <PERSON_1> May wants a refund", "<PERSON_1> Just"),
    which English writes in lower case there ("Julia may call"). Not after
    a greeting, a thanks or an apology, where a sentence starts next ("thanks
    <PERSON_1> Just checking in"), nor before another capitalised word of the
    same line ("<PERSON_1> Will Call Back"), nor in a text whose words are
    mostly capitalised (a heading, a text in title case or capitals)."""
    if not (len(word) >= 3 and word[0].isupper() and word[1:].islower() and known_name(word)):
        return False
    after = _NEXT_WORD.match(text, m.end(2))
    if after and after.group(1)[0].isupper():
        return False
    person = text.rfind("<", 0, m.start())
    if _GREETING_BEFORE.search(text, max(0, person - 12), person):
        return False
    return prose.in_lower_case(word)


#: The end of a clause after a word: a stop, a comma, a bracket, a line's end
#: (a JSON-escaped one too) or the text's.
_CLAUSE_END_AFTER = re.compile(r"[ \t]*(?:[.,;:!?)\]]|\n|\\n|\Z)")
#: English's adverbs and interjections that end a clause after a name
#: ("call <PERSON_1> Now", "thanks <PERSON_1> So,", "<PERSON_1> OK?").
_CLAUSE_CLOSERS = frozenset(
    ("now", "so", "too", "ok", "okay", "then", "here", "there", "soon", "yet", "also", "pls",
     "asap", "thx", "ty", "yes", "no", "yep", "nope", "again", "back", "away", "out", "up", "off",
     "on", "in", "down", "over", "well", "lol", "btw", "fyi", "tho", "ever", "once", "just", "all",
     "sir", "team", "jr", "sr", "etc")
)  # fmt: skip
#: Subject pronouns (a sentence's opener after a name with no stop between:
#: "ask <PERSON_1> He said") and the words that cannot follow one: a
#: preposition or a determiner ("<PERSON_1> He in a couple of months").
_PRONOUNS = frozenset(("i", "he", "she", "we", "it", "you", "they"))
_NO_PRONOUN_BEFORE = frozenset(
    ("in", "on", "at", "of", "the", "a", "an", "for", "with", "from", "about", "into", "my", "your")
)
#: A finite verb, which no other function word stands right before ("An
#: is", "In was"): after a capitalised one the word is a name's.
_A_FINITE_VERB = frozenset(
    ("is", "was", "has", "had", "will", "would", "can", "could", "said", "says", "lives", "told",
     "asked", "wrote", "called", "spent")
)  # fmt: skip


def _a_short_word_english_writes(text: str, m: re.Match[str], word: str, prose: _Prose) -> bool:
    """A capitalised word of two to four letters right after a person
    replaced that English writes in lower case, a function word or an
    English word ("An", "He", "Ma", "Song"): the name's last syllable in a
    language of short ones, which NER leaves ("Nguyễn Văn An", "Xiuying
    He", "Mei-Feng An"; English writes "an" small there). Before a clause's
    end ("under <PERSON_1> An.", "<PERSON_1> He,"); in a text that writes in
    lower case also before a word it cannot stand before: a pronoun before a
    preposition or a determiner ("<PERSON_1> He in a couple"; "<PERSON_1> He
    said" opens a sentence), another before a finite verb ("<PERSON_1> An is
    from"; "<PERSON_1> In the meantime" opens one). Not after a greeting,
    where a sentence starts ("thanks <PERSON_1> Will\\nRegards"). Surfaced:
    the reviewer's (the rules that take a longer word take a listed one
    only: ``_a_surname_english_writes``)."""
    from miner.redaction.lexicon.names import an_english_word

    if not (2 <= len(word) <= 4 and word.isalpha() and (word.istitle() or word.isupper())):
        return False
    folded = word.casefold()
    if not (folded in stop_words() or an_english_word(folded, 3.0)):
        return False  # the short word rule's (_a_short_name_word)
    if word.isupper() and len(word) <= 3 and not known_name(word):
        return False  # an acronym no list knows ("<PERSON_1> OK", "<PERSON_1> AG")
    person = text.rfind("<", 0, m.start())
    if _GREETING_BEFORE.search(text, max(0, person - 12), person):
        return False
    if _CLAUSE_END_AFTER.match(text, m.end(2)):
        return folded not in _CLAUSE_CLOSERS
    after = _NEXT_WORD_WHOLE.match(text, m.end(2))
    if not (after and word.istitle() and prose.in_lower_case(word)):
        return False
    return after.group(1) in (_NO_PRONOUN_BEFORE if folded in _PRONOUNS else _A_FINITE_VERB)


#: A form's name field: its key at a line's start (after a JSON-escaped
#: break too), the rest of the line one to four words ("name: obama",
#: "Full name: na xu"), nothing after them on the line.
_NAME_FIELD = re.compile(
    r"(?:^|(?<=\\n))[ \t]*(?i:(?:full|first|last|given|family|customer|contact|sur)[ _]?)?"
    r"(?i:name)[ \t]*:[ \t]*"
    r"([^\W\d_]+(?:['’-][^\W\d_]+)*(?:[ \t]+[^\W\d_]+(?:['’-][^\W\d_]+)*){0,3})"
    r"[ \t]*(?=$|\\n|\r)",
    re.MULTILINE,
)
#: What a form writes in a name's field for no one.
_NO_ONE_S_NAME = frozenset(
    ("none", "unknown", "null", "nil", "test", "tbd", "anonymous", "customer", "user", "guest",
     "same", "na", "not given", "not provided", "redacted", "withheld", "empty", "blank", "n",
     "a", "x", "xx", "xxx", "yes", "no", "todo", "see above", "as above", "missing")
)  # fmt: skip
#: The rule of ``name_fields``.
A_NAME_FIELD = "a form's name field"


def name_fields(text: str) -> Iterator[tuple[int, int, str]]:
    """A form's name field's value, any casing (``_NAME_FIELD``): "name:
    obama", "name: ma" (a lower-case word English writes, or one of two
    letters, which the lower-case rules leave). Not a value a form writes
    for no one ("name: unknown", ``_NO_ONE_S_NAME``). Surfaced: the key
    says whose the line is, the value may still be a team's or a tool's."""
    for m in _NAME_FIELD.finditer(text):
        value = m.group(1)
        if value.casefold() in _NO_ONE_S_NAME:
            continue
        yield m.start(1), m.end(1), "PERSON"


#: A syllable of Mandarin as English text writes a name in it: pinyin's or
#: Wade-Giles's initial ("hs", "tz", an aspirate's apostrophe), then a final
#: ("Chin", "Hsiang", "Tzu", "Yueh", "I"). The language's whole inventory is
#: some 400 syllables; this shape admits a few more, never an English
#: word's coda ("ion", "mail", "shirt", "order").
_MANDARIN_SYLLABLE = re.compile(
    r"(?:ch|hs|sh|ts|tz|zh|ss|sz|[bpmfdtnlgkhjqxrzcsyw])?['’]?"
    r"(?:a|ai|an|ang|ao|e|ei|en|eng|eh|er|erh|i|ia|ian|iang|iao|ie|ieh|ien|ih|in|ing|iong|iu"
    r"|iung|o|ong|ou|u|ua|uai|uan|uang|ue|ueh|ui|un|ung|uo|ü|üan|üeh|ün)",
    re.IGNORECASE,
)
#: Two syllables joined by a hyphen, one word: a given name as Taiwan and
#: Hong Kong write theirs in Latin letters ("Chin-Fa", "Mei-Hua", "YU-TING",
#: "i-chen"), each part capitalised, or the whole in capitals or in lower
#: case; then, on the line, a third syllable written as the name is (its
#: surname: "Chin-Fa Wen").
_HYPHENATED_GIVEN_NAME = re.compile(
    r"(?<![\w'’‘ʼ-])([^\W\d_]+)-([^\W\d_]+)(?!\w|-[^\W\d_]|['’‘ʼ](?![sS]\b)\w)"
    r"(?:[ \t]+([^\W\d_]+)(?![\w'’‘ʼ-]))?"
)
#: Words of two Mandarin syllables English writes, hyphenated, of a thing.
_ENGLISH_LOANS = frozenset(
    ("tai-chi", "kung-fu", "ping-pong", "feng-shui", "yin-yang", "ma-jong", "ding-dong",
     "sing-song", "ying-yang", "chi-chi", "ka-ching", "sha-na", "ho-hum", "hong-kong")
)  # fmt: skip
#: English's prefixes a hyphen joins to a word of a Mandarin syllable's
#: shape ("re-run", "Re-ran", "de-icing", "co-pay"): in lower case no given
#: name's first part; "Re" in any casing ("De-Hua" may be a name). Nor, in
#: lower case, a word before a stop word ("tie-in", "run-in", "hen-do").
_ENGLISH_PREFIXES = frozenset(("re", "de", "co"))
#: The rule of ``hyphenated_given_names``.
A_HYPHENATED_GIVEN_NAME = "a given name of two Mandarin syllables"


def hyphenated_given_names(text: str) -> Iterator[tuple[int, int, str]]:
    """A word of two Mandarin syllables joined by a hyphen
    (``_HYPHENATED_GIVEN_NAME``), five letters or more, the two unlike
    ("so-so"), no loan English writes so ("kung-fu", ``_ENGLISH_LOANS``):
    the shape of a given name no name list of ours holds, Taiwan's and Hong
    Kong's ("Chin-Fa", "Tzu-Hsiang", "i-chen"), left silent alone or beside
    a surname the model read nothing of. With the syllable after it on the
    line, written as the name is and no word English writes very often
    (Zipf 5: "to", "he", "in"): its surname ("Chin-Fa Wen"). Not two
    English words, one written often (Zipf 4 and 4.5: "tin-can"; "Chin-
    Lung" stays); not three letters and three in capitals, a route's
    airports ("Flight MAN-SHA"; "MEI-HUA" is lost with them). Surfaced: a
    brand's or a place's word may be so made ("Hsin-Chu")."""
    from miner.redaction.lexicon.names import an_english_word

    for m in _HYPHENATED_GIVEN_NAME.finditer(text):
        first, second, after = m.group(1), m.group(2), m.group(3)
        word = f"{first}-{second}"
        if not _a_name_s_casing(first, second) or not (
            _MANDARIN_SYLLABLE.fullmatch(first) and _MANDARIN_SYLLABLE.fullmatch(second)
        ):
            continue
        folded = word.casefold()
        if (
            len(word) < 6
            or first.casefold() == second.casefold()
            or folded in _ENGLISH_LOANS
            or (
                (first.islower() or first.casefold() == "re")
                and first.casefold() in _ENGLISH_PREFIXES
            )
            or (first.islower() and second in stop_words())
        ):
            continue
        if first.isupper() and len(first) == len(second) == 3:
            continue  # two airports' codes, a route ("MAN-SHA")
        if all(len(p) > 2 and an_english_word(p.casefold(), 4.0) for p in (first, second)) and (
            an_english_word(first.casefold()) or an_english_word(second.casefold())
        ):
            continue  # two English words ("tin-can", "sun-tan")
        end = m.end(2)
        if (
            after
            and _MANDARIN_SYLLABLE.fullmatch(after)
            and _same_casing(first, after)
            and not an_english_word(after.casefold(), 5.0)
        ):
            end = m.end(3)
        yield m.start(1), end, "PERSON"


def _a_name_s_casing(first: str, second: str) -> bool:
    """Both parts capitalised ("Chin-Fa"), the second in lower case ("Chin-
    fa"), or the two in capitals or in lower case alike."""
    if first.isupper() and second.isupper():
        return len(first) > 1 or len(second) > 1
    if first.islower() and second.islower():
        return True
    rest_lower = first[1:] == first[1:].lower() and second[1:] == second[1:].lower()
    return first[:1].isupper() and rest_lower


def _same_casing(name: str, word: str) -> bool:
    """``word`` cased as ``name`` is: both in capitals, both in lower case,
    or both capitalised."""
    if name.isupper() and len(name) > 1:
        return word.isupper()
    if name.islower():
        return word.islower()
    return word[:1].isupper() and word[1:] == word[1:].lower()


#: Words in capitals of two to four letters, a number after one ("FS 3"),
#: four at most ("POL SEN SGT MAJ", the longest Faker's en_TH writes; no
#: longer, so a long text in capitals is read once, not once per word),
#: then two or three capitalised words: a rank or a title abbreviated as
#: a service writes it before a name ("FLG OFF", "POL CAPT", "SQN LDR").
_RANK_BEFORE_A_NAME = re.compile(
    r"(?<![\w'’‘ʼ.-])([A-Z]{2,4}(?:[ \t]+(?:[A-Z]{2,4}|\d)){0,3})"
    r"[ \t]+([A-Z][^\W\d_A-Z]+(?:[ \t]+[A-Z][^\W\d_A-Z]+){1,2})(?![\w'’‘ʼ-])"
)
#: The rule of ``ranks_before_names``.
A_RANK_BEFORE_A_NAME = "a rank in capitals before a name"


def ranks_before_names(text: str) -> Iterator[tuple[int, int, str]]:
    """A rank in capitals before a name of two or three words English does
    not write (each under Zipf 3: "FLG OFF Patcharaporn Polauaypon", "POL
    CAPT Kunaporn Norramon"), the rank and the name as one: the model reads
    the name and leaves the rank's first word ("OFF Patcharaporn Polauaypon"
    surfaced, "FLG" silent). Not where the text is in capitals (the name's
    words are capitalised, the rank's in capitals), nor a firm's words ("CA
    Immobilien Anlagen", ``lexicon.firms.firm_by_its_words``). Surfaced."""
    from miner.redaction.lexicon.firms import firm_by_its_words

    for m in _RANK_BEFORE_A_NAME.finditer(text):
        if all(an_unknown_word(w) for w in m.group(2).split()) and not firm_by_its_words(
            m.group(0)
        ):
            yield m.start(1), m.end(2), "PERSON"


#: A word in capitals with 's before a word ("is this KOLEV's account"),
#: with up to two words in capitals before it ("KLIMENT BABIY's").
_A_NAME_S_POSSESSIVE_IN_CAPITALS = re.compile(
    r"(?<![\w'’-])((?:[A-Z]{2,}[ \t]+){0,2})([A-Z]{2,})['’]s[ \t]+[^\W\d_]"
)
#: A word of three letters or more in lower case: the text is not in capitals.
_A_LOWER_CASE_WORD = re.compile(r"(?<![\w'’-])[^\W\d_A-Z]{3,}")
#: The rule of ``possessives_in_capitals``.
A_POSSESSIVE_IN_CAPITALS = "a name in capitals with 's"


def possessives_in_capitals(text: str) -> Iterator[tuple[int, int, str]]:
    """A word in capitals with 's before what it is said of, in a text not in
    capitals ("is this KOLEV's account", "WU's order"): someone's, a name as
    a clerk writes it, when no lexicon files the word, English does not write
    it (Zipf 3) or the census's people bear it more (``a_surname_no_lexicon_files``:
    "WU", "LI"), and a vowel follows its first letter; not an acronym of three
    letters no list knows ("DHL's", "IBM's", "USPS's": ``_an_acronym``), nor a
    place, a people or a month. With the words in capitals before it that pass
    the same ("KLIMENT BABIY's"). Surfaced."""
    from miner.redaction.lexicon.names import (
        a_surname_no_lexicon_files,
        an_english_word,
        country_names,
        date_words,
        nationality_words,
    )
    from miner.redaction.lexicon.wordclass import word_classes

    def a_name_s(word: str) -> bool:
        folded = word.casefold()
        return (
            bool(_A_VOWEL.search(folded[1:]))
            and not _an_acronym(word)
            and (
                a_surname_no_lexicon_files(word)
                or not (an_english_word(folded, 3.0) or word_classes(folded))
            )
            and not a_place_name(word)
            and folded not in country_names()
            and folded not in nationality_words()
            and folded not in date_words()
        )

    if "'" not in text and "’" not in text:
        return
    for m in _A_NAME_S_POSSESSIVE_IN_CAPITALS.finditer(text):
        if not a_name_s(m.group(2)) or _a_thing_or_place(text, m.start(2), m.end(2)):
            continue
        if not _A_LOWER_CASE_WORD.search(text):
            return  # a text in capitals: its own rules read it
        start = m.start(2)
        for word in reversed(m.group(1).split()):
            if not a_name_s(word):
                break
            start = text.rindex(word, m.start(1), start)
        yield start, m.end(2), "PERSON"


#: A signature's dash at a line's start (after a JSON-escaped break too),
#: then one to three words to the line's end: "cheers\n-- kolev", "-- Ana Ruiz".
_A_NAME_AFTER_A_SIGNATURE_DASH = re.compile(
    r"(?:\A|\n|\\n)[ \t]*(?:--|—|–)[ \t]*"
    r"([^\W\d_]+(?:['’-][^\W\d_]+)*(?:[ \t]+[^\W\d_]+(?:['’-][^\W\d_]+)*){0,2})"
    r"[ \t]*(?=\Z|\n|\\n)"
)
#: The rule of ``names_after_signature_dashes``.
A_NAME_AFTER_A_SIGNATURE_DASH = "a name after a signature's dash"


def names_after_signature_dashes(text: str) -> Iterator[tuple[int, int, str]]:
    """The words after a signature's dash that end its line ("cheers\n--
    kolev", "-- Chun-Ming She"): who signs, in any casing, when each word is
    a name a list knows that English does not write often (Zipf 4.5) or a
    word English does not write at all (Zipf 3, no lexicon's); not a line's
    English ("-- end of message", "-- the team", "-- sent from my phone").
    Surfaced."""
    from miner.redaction.lexicon.names import an_english_word, known_name, stop_words
    from miner.redaction.lexicon.wordclass import word_classes

    def a_name_s(word: str) -> bool:
        folded = word.casefold()
        if folded in stop_words():
            return False
        if known_name(word) and not an_english_word(folded, 4.5):
            return True
        parts = re.split(r"['’-]", folded)
        return not any(an_english_word(p, 3.0) or word_classes(p) for p in parts if p)

    if "-" not in text and "—" not in text and "–" not in text:
        return
    for m in _A_NAME_AFTER_A_SIGNATURE_DASH.finditer(text):
        if all(a_name_s(word) for word in m.group(1).split()):
            yield m.start(1), m.end(1), "PERSON"


class _Prose:
    """How a text writes its words of three letters or more: counted once,
    when first asked (``_a_surname_english_writes``), so a long text with
    many candidates is read once."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._counts: Counter[str] | None = None
        self._lower = 0

    def in_lower_case(self, word: str) -> bool:
        """Whether at least half of the text's other words start in lower case."""
        if self._counts is None:
            self._counts = Counter(_PROSE_WORD.findall(self._text))
            self._lower = sum(n for w, n in self._counts.items() if w[0].islower())
        others = self._counts.total() - self._counts[word]
        return self._lower * 2 >= others


#: The next word on the line, and the words whose first letter tells how a
#: text writes (``_Prose``; after an escaped break too, as ``WORD_START``).
_NEXT_WORD = re.compile(r"[ \t]+([^\W\d_])")
#: The next word on the line, whole.
_NEXT_WORD_WHOLE = re.compile(r"[ \t]+([^\W\d_]+)(?![\w'’-])")
_PROSE_WORD = re.compile(r"(?:(?<=(?<!\\)\\[nNrt])|(?<![\w<\\]))[^\W\d_]{3,}")


def _english_after_a_person(word: str) -> bool:
    """A lower-case word after a person replaced that lemminflect files
    under a part of speech (a noun, a verb) and English writes often (Zipf
    ``ENGLISH_AFTER_A_PERSON_ZIPF``): the sentence going on ("a huge
    <PERSON_1> fan.": "fan" 4.9), not a surname typed in lower case, which
    a name list holds and English's lexicon does not ("<PERSON_1> lopez"),
    nor one named for a trade, which the lexicon holds and English writes
    less often ("Katarzyna thatcher": 3.5; "sawyer", "chandler", "tanner")."""
    from miner.redaction.lexicon.names import an_english_word
    from miner.redaction.lexicon.wordclass import word_classes

    return (
        word.islower()
        and an_english_word(word, ENGLISH_AFTER_A_PERSON_ZIPF)
        and bool(word_classes(word))
    )


#: How often English writes a word after a person for it to be the
#: sentence's, not a surname (``_english_after_a_person``).
ENGLISH_AFTER_A_PERSON_ZIPF = 4.5


def _a_short_name_word(word: str, after: bool) -> bool:
    """A capitalised word (after the person, one in capitals too) beside a
    person replaced that English does not write (Zipf under 3) and no
    place: the name's other word in a language whose names no list holds
    ("<PERSON_1> Thắng", "Vũ <PERSON_1>", "<PERSON_1> MATHULA"); before the
    person only of three letters at most, where a title stands as often
    ("Herr")."""
    from miner.redaction.lexicon.names import an_english_word

    folded = word.casefold()
    return (
        word[:1].isupper()
        # In capitals only after the person: a surname the first name's list
        # did not carry over ("<PERSON_1> MATHULA"); before
        # it, a cue or a title in capitals as often ("RING", "DR").
        and (after or not word.isupper())
        and (after or len(word) <= 3)
        # Not an acronym no list knows ("<PERSON_1> DOB", "<PERSON_1> PNR").
        and not (word.isupper() and len(word) <= 3 and not known_name(word))
        and folded not in stop_words()
        and not an_english_word(folded, 3.0)
        and not a_place_name(word.title() if word.isupper() else word)
    )


#: A capitalised word of at most three letters (of the alphabets with
#: accents: "Vũ", "Đức", "Thị", "Ní") beside a name found, and the blank.
_SHORT_WORD_BEFORE = re.compile(r"(?<![\w'’-])([^\W\d_][^\W\d_A-Z]{0,2})[ \t]+\Z")
_SHORT_WORD_AFTER = re.compile(r"[ \t]+([^\W\d_][^\W\d_A-Z]{0,2})(?![\w'’-])")


def grown_over_short_words(text: str, start: int, end: int) -> tuple[int, int]:
    """A name surfaced at [start, end) grown over the capitalised words of
    at most three letters beside it that English does not write: a name's
    other words in languages with short ones ("Vũ Đức Thắng": the rules
    read "Thắng" alone), two each side at most."""
    for _ in range(2):
        m = _SHORT_WORD_BEFORE.search(text, max(0, start - 8), start)
        if not m or not _a_short_name_word(m.group(1), after=False):
            break
        start = m.start(1)
    for _ in range(2):
        m = _SHORT_WORD_AFTER.match(text, end)
        if not m or not _a_short_name_word(m.group(1), after=False):
            break
        end = m.end(1)
    return start, end


#: English honorifics and words abbreviated before a name that name no one.
HONORIFICS = frozenset(
    ("mr.", "mrs.", "ms.", "mx.", "dr.", "st.", "no.", "nr.", "tel.", "ref.", "vs.", "cc.")
)


#: A cue before a lower-case name: the project's name cues and a few more,
#: on the name's line (``\Z``, not ``$``, which matches before a line break:
#: "My name is <PERSON_1>\nThx" cued "Thx").
_NAME_CUE = re.compile(
    r"(?i:\b(?:it's|it is|i'm|i am|this is|ask for|name is|name of|name's|call me|speak (?:to|with)"
    r"|talk to|ring|recipient|pax|passenger|customer|client|for mr\.?|for mrs\.?|for ms\.?)"
    r":?[ \t]+)\Z"
)


#: A verb whose object is a person, before a word typed in lower case
#: ("tell adaeze", "remind giosetta", "let umudlu know"): a word English does
#: not write there is a name no list may know, in any language.
_A_VERB_TO_A_PERSON_BEFORE = re.compile(
    r"(?i:\b(?:tell|told|remind|reminded|inform|informed|notify|notified|let|cc|thank|thanked"
    r"|ping|pinged|text|texted|phone|phoned|e-?mailed))[ \t]+\Z"
)


#: A title or a relative before a word typed in lower case ("a Mr. kowalski
#: signed", "leave it with neighbour weber"): a surname there hides from NER
#: and from every list of first names.
_TITLE_OR_RELATIVE_BEFORE = re.compile(
    r"(?i:\b(?:mr|mrs|ms|mx|dr|herr|frau|mme|mlle|sr|sra|sig)\.?"
    rf"|\b(?:miss|signora|señora?|neighbou?r|{RELATIVES}|landlord|landlady|flatmate|roommate))"
    r"[ \t]+\Z"
)


#: Where a person stands before a name: a greeting ("Dear", "Thank you,"),
#: a credit ("starring", "directed by") or a relation ("said Ivan to",
#: "assistant to", "maiden name is").
_PERSON_SLOT_BEFORE = re.compile(
    r"(?i:\b(?:thx|thanks|thank you|regards|cheers|sincerely|best)[,!.]?[ \t]*(?:\n|\\n)[ \t]*\Z)"
    rf"|(?i:{OTHER_GREETINGS_REGEX}"
    rf"|\b(?:{ENGLISH_GREETINGS_REGEX}|starring|featuring|and starring"
    r"|(?:directed|written|produced|composed|performed|sung|painted|played|signed|approved"
    r"|founded|created|hosted|raised|adopted) by|(?:said|wrote|spoke|talked|replied|sent it)"
    r"(?:[ \t]+[^\W\d_]+)?[ \t]+to|assistant to|married to|maiden name is|name is"
    r"|son of|daughter of|wife of|husband of"
    r"|(?:it's|it is|booked|listed|reserved|registered) under|your name\??"
    r"|(?:calls?|called|call) (?:me|him|her)|known as|goes by|go by|nicknamed"
    # A title written out: "the Reverend John Smith", "Sister Agnes".
    r"|reverend|rev\.|pastor|father|sister|brother|bishop|rabbi|imam|sheikh|captain|colonel"
    r"|major|sergeant|lieutenant|professor|senator|councillor|judge|madame?|monsieur|herr|frau"
    r"|señora?|signora?)),?[ \t]+\Z"
)


#: How often English may write a capitalised listed name no English lexicon
#: files (no noun, verb, adjective) for it still to be surfaced: the census's
#: surnames of other languages English writes as names only ("Hernandez"
#: 3.5, "Zimmerman" 3.5, "Mcdonald" 3.8; "Jones" 4.7 stays).
LISTED_NAME_WITHOUT_A_WORD_ZIPF = 4.0


#: The rule of a name in a person's slot (``NameWords._in_a_person_slot``),
#: and of one English writes less than often (Zipf ``lower_case_zipf``).
PERSON_SLOT = "a name in a person's slot"
RARE_NAME_IN_SLOT = "a rare name in a person's slot"

#: The rule of a surname's particles in capitals, no cue before them.
PARTICLE_IN_CAPITALS = "a surname's particle in capitals"


#: Rules whose values the second model reads well: on the tune splits
#: every value of theirs it read as personal with a probability of 0.5 or
#: more but under 0.9 was a planted name (``second.REASON_BARS``).
LOWER_CASE_FIRST_NAME = "a lower-case first name"
#: A lower-case word after a verb said to a person that no list knows or
#: that is a census surname no English lexicon files ("tell adaeze",
#: "remind hernandez").
LOWER_CASE_TOLD_NAME = "a lower-case word after a verb said to a person"
LOWER_CASE_WORD_BEFORE_A_DEED = "a lower-case word before a deed"
#: A lower-case listed surname before what a caller does (``A_CALLER_S_DEED``).
LOWER_CASE_NAME_BEFORE_A_CALLER_S_DEED = "a lower-case listed name before a caller's deed"
#: A lower-case word English does not write (``an_unknown_word``, and Zipf
#: under ``LOWER_CASE_SLOT_ZIPF``) where a person stands in a chat of any
#: language (``_LOWER_CASE_PERSON_SLOT_BEFORE``, ``A_CALLER_S_DEED``): "the parcel is
#: for natashia", "i spoke with adaeze", "ödhild is waiting". Surfaced, not
#: replaced: on the word alone such a name is a brand's or a tool's as often
#: ("paid with klarna", "run it with kubectl").
LOWER_CASE_WORD_IN_A_PERSON_SLOT = "a lower-case word no English writes in a person's slot"
#: How often English may write a word for ``LOWER_CASE_WORD_IN_A_PERSON_SLOT``.
LOWER_CASE_SLOT_ZIPF = 3.0
#: A lower-case word English does not write (as ``LOWER_CASE_WORD_IN_A_PERSON_SLOT``
#: reads one), with 's before a word: someone's ("is this owuor's account",
#: "(though maslova's song ..."), no list needed. Surfaced, not replaced:
#: a brand's or a tool's possessive is written so too ("klarna's app").
LOWER_CASE_UNKNOWN_POSSESSIVE = "a lower-case word no English writes with 's"
#: 's and the word it is said of ("'s account"; not "'s." at a clause's end).
_A_POSSESSIVE_BEFORE_A_WORD = re.compile(r"['’]s[ \t]+[^\W\d_]")


#: Before a person, in a chat of any language: a preposition of a person
#: ("for", "with", "to", "from", "by"), a verb of speech or contact ("spoke
#: with", "call", "e-mail"), a naming cue ("this is", "name is"), a
#: greeting ("hi", "hey"), or whose word or care a thing is ("per", "as per",
#: "c/o", "attn:": "per kopylov the refund is approved"; "per annum", "per
#: kwh" are English's words or no name's).
_LOWER_CASE_PERSON_SLOT_BEFORE = re.compile(
    rf"(?i:{OTHER_GREETINGS_REGEX}"
    r"|\b(?:for|with|to|from|by|this is|it's|it is|name is|hi|hello|hey|dear|thanks"
    r"|thank you|call|called|e-?mail|e-?mailed|message|messaged|contact|contacted|ask|asked"
    r"|per|c/o|attn:?))"
    r",?[ \t]+\Z"
)
#: The words of ``_LOWER_CASE_PERSON_SLOT_BEFORE`` that say whose word or
#: care a thing is.
_A_THING_S_OWNER_BEFORE = re.compile(r"(?i:\b(?:per|c/o|attn))")
#: A vowel of the Latin script: a word with none is a unit's or a code's
#: ("mbps", "kbps"), not a name.
_A_VOWEL = re.compile(r"[aeiouyàáâãäåæèéêëìíîïòóôõöøùúûüýÿāăąēĕėęěīĭįıōŏőœūŭůűų]")
#: What English adds to a word to coin another that no lexicon lists yet:
#: "glitchy", "laggy", "wifey", "shopify"; "rebooking".
_COINING_SUFFIXES = ("ing", "ify", "y")
_COINING_PREFIXES = ("re", "un", "pre")


def _a_word_english_does_not_write(word: str) -> bool:
    """Whether a lower-case ``word`` is one English, its lexicon and its
    coinages do not write (``an_unknown_word`` of it capitalised, Zipf under
    ``LOWER_CASE_SLOT_ZIPF``): what the person slot's rule and the
    possessive's (``LOWER_CASE_UNKNOWN_POSSESSIVE``) ask of the word itself."""
    from miner.redaction.lexicon.names import an_english_word

    folded = word.casefold()
    return (
        an_unknown_word(word.title())
        and not an_english_word(folded, LOWER_CASE_SLOT_ZIPF)
        and not _an_english_coinage(folded)
    )


def _an_english_coinage(folded: str) -> bool:
    """A word no lexicon lists that English made of its own words, or no
    word at all: no vowel ("mbps"), two English words run together, the
    second of three letters or more ("backend"; not "devops": "ops" is not
    filed), or an English word (Zipf 3) and a coining suffix ("glitchy",
    "laggy", "wifey", the stem's doubled consonant undone) or an English
    word (Zipf 3.5) after a coining prefix ("rebooking")."""
    from miner.redaction.lexicon.names import an_english_word
    from miner.redaction.lexicon.wordclass import word_classes

    def english(part: str, zipf: float = 3.0) -> bool:
        return bool(word_classes(part)) and an_english_word(part, zipf)

    if not _A_VOWEL.search(folded):
        return True
    if any(english(folded[:cut]) and english(folded[cut:]) for cut in range(3, len(folded) - 2)):
        return True
    for suffix in _COINING_SUFFIXES:
        stem = folded[: -len(suffix)]
        if folded.endswith(suffix) and len(stem) >= 3:
            stems = (stem, stem[:-1]) if stem[-1:] == stem[-2:-1] else (stem,)
            if any(english(s) for s in stems):
                return True
    return any(
        folded.startswith(prefix) and english(folded[len(prefix) :], 3.5)
        for prefix in _COINING_PREFIXES
    )


def _in_a_lower_case_person_slot(text: str, start: int, end: int) -> bool:
    """Whether the word at [start, end) stands where a person does in a
    chat: after ``_LOWER_CASE_PERSON_SLOT_BEFORE`` (not the Slavic "to",
    ``_a_slavic_to_before``) or before a caller's deed (``A_CALLER_S_DEED``).
    A possessive after "per" is the possessive rule's ("as per maslova's
    note": the name, not "maslova's", ``LOWER_CASE_UNKNOWN_POSSESSIVE``)."""
    before = _LOWER_CASE_PERSON_SLOT_BEFORE.search(text, max(0, start - 16), start)
    if (
        before
        and _A_THING_S_OWNER_BEFORE.search(before.group(0))
        and text[start:end].casefold().endswith(("'s", "’s"))
    ):
        return False
    return bool(
        (before and not _a_slavic_to_before(text, start)) or A_CALLER_S_DEED.match(text, end)
    )


#: A trip's preposition before a word: where a town stands.
_A_TRIP_BEFORE = re.compile(r"(?i:\b(?:from|to))[ \t]+\Z")
#: A trip's word earlier in the clause ("flights to", "I moved from"), or
#: the trip's other end ("from münchen to").
_A_TRIP_S_WORD = re.compile(
    r"(?i:\b(?:flights?|flew|fly|flying|trains?|bus|coach|ferry|moved?|moving|relocat\w*"
    r"|travel\w*|trips?|journey|drive|drove|driving|tickets?|route|fares?|go|going|went)\b"
    r"|\bfrom[ \t]+[^\W\d_]+[ \t]+to[ \t]+\Z)"
)


def _on_a_trip(text: str, start: int) -> bool:
    """Whether the word at ``start`` follows a trip's "from" or "to": the
    preposition and a trip's word in its clause ("flights from münchen",
    "from münchen to warszawa"). "A message from", "send it to" are a
    person's as often: a town's other name is a first name no list knows
    there ("from adelajda")."""
    if not _A_TRIP_BEFORE.search(text, max(0, start - 8), start):
        return False
    clause = re.split(r"[.!?;:\n]", text[max(0, start - 60) : start])[-1]
    return bool(_A_TRIP_S_WORD.search(clause))


#: "to" where a Slavic language's pronoun stands, not English's preposition:
#: first in its text, line or clause ("to działa", "czekaj, to działa"), or
#: after a one-letter conjunction no English writes before "to" ("a to
#: wszystko", "i to je"): the word after it is the sentence's, no person's.
_SLAVIC_TO = re.compile(r"(?:^|,[ \t]*|(?<![\w'’])[aiAI][ \t]+)(?i:to)[ \t]+\Z", re.MULTILINE)
#: English's function words Slavic languages write too ("ten", "one").
_SLAVIC_TOO = frozenset(("ten", "one"))


def _a_slavic_to_before(text: str, start: int) -> bool:
    """Whether the "to" before ``start`` is a Slavic pronoun (``_SLAVIC_TO``)
    in a line with no English function word of three letters or more: "to
    natashia: your parcel has shipped", "i gave it back, to natashia" are
    English, the word after "to" a person's."""
    from miner.redaction.lexicon.names import stop_words

    if not _SLAVIC_TO.search(text, max(0, start - 16), start):
        return False
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line = text[line_start : line_end if line_end >= 0 else len(text)].casefold()
    return not any(
        len(word) >= 3 and word in stop_words() and word not in _SLAVIC_TOO
        for word in LETTERS.findall(line)
    )


#: A greeting or an apology: the word after it names the person spoken to.
_GREETING = rf"(?i:\b(?:{ENGLISH_GREETINGS_REGEX})|{OTHER_GREETINGS_REGEX})"
_OTHER_GREETING = re.compile(rf"(?i:{OTHER_GREETINGS_REGEX})")
#: A greeting just before a word.
_GREETING_BEFORE = re.compile(rf"{_GREETING},?[ \t]+\Z")


#: Who is spoken to, after what is said and who said it: "said nessa to".
_SAID_TO_BEFORE = re.compile(
    r"(?i:\b(?:said|wrote|spoke|talked|replied)(?:[ \t]+[^\W\d_]+)?[ \t]+to[ \t]+\Z)"
)


#: What a person does after a name: "Little was influenced", "May is a very
#: sympathetic person", "Sem lives on".
_PERSON_SLOT_AFTER = re.compile(
    r"[ \t]+(?:lives|lived|said|says|told|asked|replied|wrote|sang|smiled|laughed"
    r"|was influenced|was born|is a very|is from|was from|has been|had been|had given|gave"
    r"|married)\b"
)


#: A team's or a job's capitalised words after a slash: "/Customer Success".
_A_TEAM_AFTER_A_SLASH = re.compile(r"[ \t]*/[ \t]*[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)*(?![\w/])")
#: The start of a line (a literal "\n" of a JSON-escaped string too), or
#: after a comma or a colon ("Regards, Miller/Support", "From: Miller/...").
_LINE_START_BEFORE = re.compile(r"(?:^|\\n|[,:][ \t]*)[ \t]*\Z", re.MULTILINE)
#: A determiner (``DETERMINERS``) before a word: a thing's or a team's word
#: ("the Billing called", "our Support said"), not a person's name.
_AN_ARTICLE_BEFORE = re.compile(r"(?i:\b(?:the|an?))[ \t]+\Z")
_A_DETERMINER_BEFORE = re.compile(rf"(?i:\b(?:{'|'.join(sorted(DETERMINERS))}))[ \t]+\Z")


#: What only a person does, of ``_PERSON_SLOT_AFTER``: not "has been", "gave",
#: "is from", which a town does as often ("Toledo has been").
_A_PERSON_S_DEED = re.compile(
    r"[ \t]+(?:lives|lived|said|says|told|asked|replied|wrote|sang|smiled|laughed"
    r"|was influenced|was born|is a very|married)\b"
)


#: A person's title before a name, of the languages Faker writes and
#: nameparser does not list: "PhDr.", "MVDr.", "Mgr.", "Bc.", "Dr(a).".
_TITLE_BEFORE = re.compile(
    r"(?<![\w.])(?:[A-Z][A-Za-z]{0,3}Dr|Mgr|Bc|Ing|Doc|Prof|(?i:dr|sr)\([aA]\))\.[ \t]+\Z"
)


#: Up to three capitalised words, the way a name is written after a cue.
_CAPITALISED_RUN = re.compile(r"[^\W\d_][^\W\d_'’-]*(?:[ \t]+[^\W\d_][^\W\d_'’-]*){0,2}")


#: The capitalised words (and a firm's joiners) right before a name.
_CAPITALISED_BEFORE = re.compile(rf"(?:(?:[A-ZÀ-Þ][\w'’.&-]*|{AND})[ \t,]+){{1,4}}\Z")


def _one_blank_between(text: str, end: int, start: int) -> bool:
    """Whether ``text[end:start]`` is one space (a name run's end, or -1
    before any, and a word's start), read without copying that stretch:
    after a name early in a long text it is most of the text, for every
    word after it (quadratic: the unsure rules took 15.9 s of CPU on a
    1.4 MB text in lower case after a told name, 7.8 s without the copies)."""
    if end < 0:  # counted from the text's end, as the slice reads it: a character at most
        return text[end:start] == " "
    return start - end == 1 and text[end] == " "


def _firm_shaped(text: str, start: int, end: int) -> bool:
    """Whether the name ``text[start:end]``, alone or with the capitalised
    words before it, is a firm's by its own words (``lexicon.firms.
    firm_by_its_words``: "ACCO Brands", "ERGO Kindlustus")."""
    from miner.redaction.lexicon.firms import firm_by_its_words

    before = _CAPITALISED_BEFORE.search(text, max(0, start - 60), start)
    run = text[before.start() if before else start : end].strip(" \t,")
    return bool(firm_by_its_words(run) or firm_by_its_words(text[start:end]))


class NameWords:
    """The name rules of ``Unsure``: words a name list knows in any casing,
    names in a person's slot, capitalised words no list knows."""

    def __init__(self, config: UnsureConfig) -> None:
        self.config = config

    def spans(self, text: str, written: str) -> Iterator[tuple[int, int, str, str]]:
        """(start, end, "PERSON", the rule that found it) of each name word
        of ``text`` (``written``: the string as redaction wrote it)."""
        from miner.redaction.lexicon.names import (
            LOWER_CASE_TITLE_BEFORE,
            an_english_word,
            complete_name,
            smaller_town_names,
            towns_other_names,
        )
        from miner.redaction.lexicon.wordclass import word_classes

        shouted = not any(c.islower() for c in text)
        for m in _SPEAKER.finditer(text):
            # A speaker no word list names, a town's name too ("Lautaro:"),
            # or a first name English writes seldom ("Sylvia:"); not "Note:".
            word = m.group(1)
            folded = word.casefold()
            if not _CAPITALISED_WORD.fullmatch(word.title() if word.isupper() else word):
                continue  # a capital inside: code ("PaymentGatewayError:")
            if (not an_english_word(folded, 3.0) and not _english_compound(folded)) or (
                a_first_name(word) and not an_english_word(folded, self.config.lower_case_zipf)
            ):
                yield m.start(1), m.end(1), "PERSON", "a speaker"
        lower_text = not any(c.isupper() for c in text)
        addressed_at = {start for start, _end in addressed(text)}
        lowered = text.lower()
        if shouted and len(lowered) == len(text):
            # A text all in capitals addresses someone the same way ("DON'T
            # GO TO TOWN, JABULANI!"): read in lower case, where the clause
            # before the comma shows.
            addressed_at |= {start for start, _end in addressed(lowered)}
        yield from _elided_surnames(text)
        yield from _lower_case_name_lines(text, written)
        yield from _addressed_first(text)
        yield from _greeted(text, written)
        if "@" in text:
            yield from _mentioned(text)
        run_end = -1  # a lower-case name runs on over the name words after it
        for m in WORD.finditer(text):
            word = m.group(0)
            # Both patterns need an apostrophe, looked for first: they were
            # tried on each of a 1 MiB message's 100,000 words.
            if not _APOSTROPHE_SET.isdisjoint(word):
                word = _POSSESSIVE.sub("", word)
            folded = word.casefold()
            if names_a_number(written, m.start(), m.end()):
                continue  # "IBAN <IBAN_CODE_1>", "my iban is 0123...": a number's name
            if text[m.start() - 1 : m.start()] in _APOSTROPHES and _CONTRACTED.search(
                text, max(0, m.start() - 3), m.start()
            ):
                continue  # the rest of a contraction: "C'mon", "y'all"
            if (
                word.islower()
                and _one_blank_between(text, run_end, m.start())
                and _a_degree(folded)
            ):
                end = m.start() + len(word)
                yield m.start(), end, "PERSON", "a degree after a name"  # "angela baker md"
                run_end = m.end()
                continue
            if self._in_a_person_slot(text, m.start(), word, m.start() in addressed_at):
                # A word a name list knows where a person stands, however
                # often English writes it ("Thank you April,", "starring Hall"),
                # with the name words after it.
                start, end = m.start(), m.start() + len(word)
                if word[0].isupper():
                    # With its particle ("da Rosa"); in capitals not leftwards,
                    # where the cue stands ("STARRING").
                    grown, end = complete_name(text, start, end)
                    start = start if word.isupper() else grown
                    particle = _PARTICLE_BEFORE.search(text, max(0, start - 6), start)
                    start = particle.start() if particle else start
                title = _TITLE_BEFORE.search(text, max(0, start - 10), start)
                start = title.start() if title else start  # "PhDr. Michal Tichý"
                # Replaced when English writes it less than often (the tune
                # splits' values were all planted); else the reviewer's
                # ("Thanks for nothing, Boss!").
                rare = not an_english_word(folded, self.config.lower_case_zipf)
                if rare and _firm_shaped(text, start, end):
                    # "ACCO Brands said": a firm's words, and a firm says
                    # what a person says; the reviewer's, not replaced.
                    rare = False
                yield start, end, "PERSON", RARE_NAME_IN_SLOT if rare else PERSON_SLOT
                # A name in lower case runs on over the name words after it; a
                # capitalised one only over capitalised ones (``complete_name``):
                # "Sophie said" is a name and a verb.
                run_end = end if word.islower() else -1
                continue
            if (len(word) < 3 or folded in stop_words()) and not (
                word.isupper() and a_particle(word)  # "DE" of "DE LA CRUZ"
            ):
                continue
            if (
                word.islower()
                and (
                    not an_english_word(folded, 3.0)
                    or (
                        known_name(word)
                        and not word_classes(folded)
                        and not an_english_word(folded, self.config.lower_case_zipf)
                    )
                )
                and _PERSON_SLOT_AFTER.match(text, m.start() + len(word))
                and not _a_thing_or_place(text, m.start(), m.start() + len(word))
            ):
                # A word English does not write before what a person does, in
                # lower case too ("abwao was influenced"): no list needed; or
                # a listed name no English lexicon holds, though English
                # writes it ("nguyen was influenced"; not "the courier said").
                yield m.start(), m.start() + len(word), "PERSON", LOWER_CASE_WORD_BEFORE_A_DEED
                run_end = m.start() + len(word)
                continue
            if (
                word.islower()
                and _one_blank_between(text, run_end, m.start())
                and (known_name(word) or not an_english_word(folded, 3.0))
            ):
                yield m.start(), m.end(), "PERSON", "a lower-case name's next word"
                run_end = m.end()
                continue
            # A word in lower case reads its cue only where its rule would use it.
            cued = not word.islower() and (
                _NAME_CUE.search(text, max(0, m.start() - 25), m.start()) is not None
            )
            if word.islower():
                # What each rule asks of the word alone is read before what
                # stands around it (each is a look-up; around it, a regex
                # search per word of a 1 MiB message), and a rule's search
                # only for a word that can pass it: a word the name lists
                # do not know and English writes ("order", "parcel") passes
                # none of these. The same reasons, fewer searches.
                listed = known_name(word)
                unlisted_english = not listed and an_english_word(folded, 3.0)
                # What ``an_unknown_word`` asks first of the word capitalised.
                unknown = not an_english_word(word.title().casefold(), 3.0)
                reason = (
                    "a lower-case word after a cue"
                    if (
                        a_first_name(word)
                        or not an_english_word(folded, 3.0)
                        # A surname there too ("it's alvarez again", "the
                        # recipient kelemen"), as the told rule reads one.
                        or (listed and self._a_name_no_lexicon_files(word))
                    )
                    and _NAME_CUE.search(text, max(0, m.start() - 25), m.start()) is not None
                    else "a lower-case word after a title or a relative"
                    if (listed or not an_english_word(folded, 3.5))
                    and _TITLE_OR_RELATIVE_BEFORE.search(text, max(0, m.start() - 12), m.start())
                    and (
                        not an_english_word(folded, 3.5)
                        # A listed name English writes often ("neighbour
                        # baker", "mr. price"), not a verb's form ("my
                        # sister said", "my wife works there": the deed).
                        or (known_name(word) and not a_verb_s_form(folded))
                    )
                    else LOWER_CASE_FIRST_NAME
                    if a_first_name(word)
                    and not an_english_word(folded, self.config.lower_case_zipf)
                    and not _a_verb_before_by(text, m.end(), folded)
                    # A noun after an article ("at the mall", "a june
                    # delivery"): no one's first name is written so.
                    and not _AN_ARTICLE_BEFORE.search(text, max(0, m.start() - 5), m.start())
                    # Where a person is told or written to ("tell adaeze",
                    # "let umudlu know", "remind hernandez"): a word no list
                    # knows, or a census surname no English lexicon files
                    # (Zipf under ``lower_case_zipf``). Not anywhere: such a
                    # surname is as often an English word lemminflect lacks
                    # ("lingo", "salsa"), and the unknown word an id's or a firm's.
                    else LOWER_CASE_TOLD_NAME
                    if (unknown or listed)
                    and _A_VERB_TO_A_PERSON_BEFORE.search(text, max(0, m.start() - 12), m.start())
                    and (an_unknown_word(word.title()) or self._a_name_no_lexicon_files(word))
                    else LOWER_CASE_NAME_BEFORE_A_CALLER_S_DEED
                    # Before what a caller does ("dierckx reported", "alves
                    # called"): a listed name no English lexicon files, not
                    # a thing's or a team's word after a determiner.
                    if listed
                    and A_CALLER_S_DEED.match(text, m.end())
                    and self._a_name_no_lexicon_files(word)
                    and not _A_DETERMINER_BEFORE.search(text, max(0, m.start() - 8), m.start())
                    else LOWER_CASE_WORD_IN_A_PERSON_SLOT
                    if unknown
                    and _in_a_lower_case_person_slot(text, m.start(), m.end())
                    and _a_word_english_does_not_write(word)
                    # A town in its own language after a trip's "from" or
                    # "to" ("flights from münchen", ``_on_a_trip``). Not in
                    # the other slots, nor after "a message from": a town's
                    # other name is a first name no list knows as often
                    # ("with adelajda", "adalia reported": 3 more silent of
                    # the sweep's 16,740 names there). The trip is read
                    # first: the 63,000 names load only on one.
                    and not (_on_a_trip(text, m.start()) and folded in towns_other_names())
                    else "a lower-case word beside a name"
                    # Each of its readings needs a listed name, a first
                    # name or a word English does not write.
                    if not (unlisted_english and not a_first_name(word))
                    and _beside_a_name(text, written, m.start(), m.end(), word)
                    else "a lower-case first name and surname"
                    if a_first_name(word)
                    and not an_english_word(folded, 5.0)
                    and _surname_after(text, m.end())
                    else "a name in a lower-case text"
                    if lower_text and self._a_name_in_lower_case_text(text, m.start(), word)
                    # A listed name's possessive, as capitalised ("Hernandez's"):
                    # "(though torres's song ...)".
                    else "a lower-case name's possessive"
                    if text.startswith(("'s", "’s"), m.start() + len(word))
                    and known_name(word)
                    and not an_english_word(folded, self.config.lower_case_zipf)
                    else LOWER_CASE_UNKNOWN_POSSESSIVE
                    if unknown
                    and _A_POSSESSIVE_BEFORE_A_WORD.match(text, m.start() + len(word))
                    and not _AN_ARTICLE_BEFORE.search(text, max(0, m.start() - 5), m.start())
                    and _a_word_english_does_not_write(word)
                    else ""
                )
                if (
                    reason
                    and not a_nationality_said(text, m.start(), m.end())
                    and not _a_site_or_an_id_s_name(written, text, m.start(), m.end())
                    and not (
                        reason
                        in (
                            LOWER_CASE_FIRST_NAME,
                            LOWER_CASE_TOLD_NAME,
                            LOWER_CASE_NAME_BEFORE_A_CALLER_S_DEED,
                            LOWER_CASE_WORD_IN_A_PERSON_SLOT,
                        )
                        and _a_thing_or_place(text, m.start(), m.end())
                    )
                ):
                    # With a title before it ("miss shannon andrews"); not a
                    # nationality after "I am" ("i am espanhol"); a first name
                    # alone not where its neighbours make it a place or a
                    # thing, as capitalised ("she moved here from georgia",
                    # "the sunni Border Force", "tristán da cunha": 11 tune
                    # decisions, 1 planted, whose other place was an address's).
                    title = LOWER_CASE_TITLE_BEFORE.search(text, max(0, m.start() - 12), m.start())
                    if reason == LOWER_CASE_UNKNOWN_POSSESSIVE:
                        # Not what it is said of ("'s song"); with a first name
                        # or a word English does not write before it ("is
                        # this faraja waweru's account"): the person whole.
                        start = m.start()
                        before = _WORD_BEFORE.search(text, max(0, start - 30), start)
                        if (
                            before
                            and before.group(1).islower()
                            and (
                                a_first_name(before.group(1))
                                or not an_english_word(before.group(1), 3.0)
                            )
                        ):
                            start = before.start(1)
                        yield start, m.start() + len(word), "PERSON", reason
                        continue
                    yield title.start() if title else m.start(), m.end(), "PERSON", reason
                    run_end = m.end()
            elif word.isupper() and not shouted:
                begins_a_surname = a_particle(word) and (
                    cued or _a_surname_s_particle(text, m.end(), word)
                )
                if len(word) < self.config.capitals_min and not cued and not begins_a_surname:
                    continue
                listed = known_name(word) and not an_english_word(folded, self.config.capitals_zipf)
                if begins_a_surname:
                    # A surname after its particle, all in capitals: "ring DOS
                    # SANTOS", "the recipient VAN DER BERG", "parcel for DE LA
                    # CRUZ" (English writes "cruz": no list rule takes it).
                    end = _name_words_after(text, m.end())
                    if end > m.end():
                        why = "a particle in capitals after a cue" if cued else PARTICLE_IN_CAPITALS
                        yield m.start(), end, "PERSON", why
                elif (
                    listed
                    or (
                        # After a cue or before a caller's deed ("BUDAI called").
                        (cued or A_CALLER_S_DEED.match(text, m.end()))
                        and (known_name(word) or not an_english_word(folded, 3.0))
                    )
                    or (
                        self._unknown_in_capitals(text, m.start(), word, 6)
                        and not _in_a_code_s_run(text, m.start(), m.end())
                    )
                ):
                    # With the name's other words in capitals beside it
                    # ("ALCIE ALBERTI": the first no list knows, too short
                    # to be surfaced alone).
                    start = _name_words_before(text, m.start())
                    end = _name_words_after(text, m.end(), mixed_case=True)
                    yield start, end, "PERSON", "a word in capitals"
                elif name_end := _a_name_in_a_person_s_place_ends(text, written, m, word):
                    # An English word a surname too, where a person stands
                    # ("RECEIVED BY BUTLER"): the reviewer's.
                    yield m.start(), name_end, "PERSON", NAME_IN_A_PERSON_S_PLACE_IN_CAPITALS
            elif word.isupper():  # a text all in capitals: only names English rarely writes
                if (
                    known_name(word)
                    and not an_english_word(folded, self.config.lower_case_zipf)
                    and not _a_word_or_place_in_capitals(text, m.start(), m.end(), word)
                    and not names_a_person_s_id(written, m.start(), m.end(), phones=False)
                ):
                    # With its surname ("ALICE DELHAYE"): the second model
                    # reads the name whole, and replaces it whole.
                    end = _name_words_after(text, m.end())
                    yield m.start(), end, "PERSON", "a name in a text in capitals"
                elif (
                    (cued and not an_english_word(folded, 3.0))
                    or _beside_a_name(text, written, m.start(), m.end(), word)
                ) and not names_a_person_s_id(written, m.start(), m.end(), phones=False):
                    # After a cue, with the words English does not write
                    # after it ("THE RECIPIENT DOMINYKA KALVELIS IS..."), or
                    # beside a name replaced ("<PERSON_1> DELHAYE", "<PERSON_1>
                    # DE BONDT", with its particle).
                    particle = _CAPITALS_PARTICLE_BEFORE.search(
                        text, max(0, m.start() - 6), m.start()
                    )
                    start = particle.start() if particle else m.start()
                    end = _name_words_after(text, m.end())
                    yield start, end, "PERSON", "a cued word in a text in capitals"
                elif self._unknown_in_capitals(text, m.start(), word, 5):
                    # A word no list knows, as ``unknown_capitalised`` surfaces
                    # it written capitalised ("THE FILE OF MƏMMƏDOVA").
                    end = _name_words_after(text, m.end())
                    yield m.start(), end, "PERSON", "a word no list knows in a text in capitals"
                elif name_end := _a_name_in_a_person_s_place_ends(text, written, m, word):
                    yield m.start(), name_end, "PERSON", NAME_IN_A_PERSON_S_PLACE_IN_CAPITALS
            elif cued:  # "Customer Máxima Quiroga (C-…)": capitalised words after a cue
                run = _CAPITALISED_RUN.match(text, m.start())
                words = run.group(0).split() if run else [word]
                # Not the English words after it ("Customer Leon Service"),
                # but a surname English writes ("Customer Caroline Daniel").
                while words and (
                    words[-1].casefold() in stop_words()
                    or (an_english_word(words[-1], 4.5) and not known_name(words[-1]))
                ):
                    words.pop()
                if (
                    words
                    and (
                        not an_english_word(words[0].casefold(), 4.5)
                        or (len(words) > 1 and a_first_name(words[0]))
                    )
                    # Not a nationality after "I am" ("I am Espanhol").
                    and not a_nationality_said(text, m.start(), m.start() + len(" ".join(words)))
                ):
                    end = m.start() + len(" ".join(words))
                    yield m.start(), end, "PERSON", "capitalised words after a cue"
            elif (
                word[:1].isupper()
                and known_name(word)
                and not an_english_word(folded, self.config.lower_case_zipf)
                and (
                    _PARTICLE_BEFORE.search(text, max(0, m.start() - 6), m.start())
                    or text.startswith(("'s", "’s"), m.start() + len(word))
                )
                and not a_place_name(word)
                and not _a_thing_or_place(text, m.start(), m.start() + len(word))
            ):
                # A surname after its particle or with a possessive: "da Rosa",
                # "(though Hernandez's song ...)".
                start, end = complete_name(text, m.start(), m.start() + len(word))
                particle = _PARTICLE_BEFORE.search(text, max(0, start - 6), start)
                start = particle.start() if particle else start
                yield start, end, "PERSON", "a surname after a particle or with 's"
            elif (
                len(word) >= 3
                and word[0].isupper()
                and not word.isupper()
                and _A_PERSON_S_THING_AFTER.match(text, m.start() + len(word))
                and folded not in stop_words()
                and not an_english_word(folded, self.config.lower_case_zipf)
            ):
                # Whose address or phone it is: a person's, whatever else the
                # word names ("here's Koidu's address": a town's name too,
                # left silent on the mimesis tune split).
                yield m.start(), m.start() + len(word), "PERSON", "a name with a person's thing"
            elif (
                len(word) == 3
                and word[0].isupper()
                and not word.isupper()
                and text.startswith(("'s", "’s"), m.start() + len(word))
                and not an_english_word(folded, 3.0)
                and not word_classes(folded)
                and not a_place_name(word)
                and not _a_thing_or_place(text, m.start(), m.start() + len(word))
            ):
                # A word of three letters with a possessive that English does
                # not write ("Iwu's"): a name, under the four letters that
                # ``an_unknown_word`` needs of a word alone.
                yield m.start(), m.start() + 3, "PERSON", "a short word with 's"
            elif (
                _a_capitalised_listed_name(word)
                and _A_TEAM_AFTER_A_SLASH.match(text, m.start() + len(word))
                and _LINE_START_BEFORE.search(text, max(0, m.start() - 40), m.start())
                # Not a team's own word: English writes it very often
                # ("Support", "Legal"), or it is a verb's form or a plural
                # ("Billing/Customer Care", "Sales/Support").
                and not an_english_word(folded, 5.0)
                and not a_verb_s_form(folded)
                and not (folded.endswith("s") and an_english_word(folded[:-1], 3.0))
                and not a_place_name(word)
            ):
                # A name first on its line before its team or job after a
                # slash, the way a sign-off or a handover writes it
                # ("Miller/Customer Success", "Wood/Billing"): a surname
                # English writes as a word too, the reviewer's.
                yield m.start(), m.start() + len(word), "PERSON", "a listed name before its team"
            elif (
                _a_capitalised_listed_name(word)
                and A_CALLER_S_DEED.match(text, m.start() + len(word))
                and not _A_DETERMINER_BEFORE.search(text, max(0, m.start() - 8), m.start())
                and not a_place_name(word)
                and not _a_thing_or_place(text, m.start(), m.start() + len(word))
            ):
                # A surname English writes as a word, where it calls, writes
                # or says ("Wood called about the invoice", "Price emailed
                # twice"): the reviewer's (a team's word there, "Support
                # called", is no listed name).
                yield m.start(), m.start() + len(word), "PERSON", "a listed name that called"
            elif (
                self.config.capitalised_zipf
                and word[:1].isupper()
                and known_name(word)
                and word.title() not in NOT_NAMES  # "Hallo", "Bonjour": a greeting
                and (
                    not an_english_word(folded, max(self.config.capitalised_zipf, 3.0))
                    # A surname no English lexicon files, though English
                    # writes it as a name ("Hernandez" 3.5, "Zimmerman"):
                    # not "Butler", "Birch", which are words too.
                    # Not after a determiner, a firm's or a hotel's ("the
                    # Hilton", "my Dell").
                    or (
                        not word_classes(folded)
                        and not an_english_word(folded, LISTED_NAME_WITHOUT_A_WORD_ZIPF)
                        and not _A_DETERMINER_BEFORE.search(text, max(0, m.start() - 8), m.start())
                        # Nor a town GeoNames knows ("Carleton", "Hampton"),
                        # nor a word of a capitalised run: a town's or a
                        # firm's word in another language as often ("Río
                        # Bueno", "Taman Desa", "Adrian Ville").
                        and folded not in smaller_town_names()
                        and not _in_a_capitalised_run(text, m.start(), m.start() + len(word))
                    )
                )
                and not a_place_name(word)
                and not _a_thing_or_place(text, m.start(), m.start() + len(word))
            ):
                # With the particles and initials around it ("Le Goff"),
                # not the sentence's first word before it ("Ask").
                start, end = complete_name(text, m.start(), m.start() + len(word))
                if start == _an_english_opener_before(text, m.start()):
                    start = m.start()
                if not _a_place_grown_over(text, start, m.start()):
                    yield start, end, "PERSON", "a capitalised listed name"
            elif (
                self.config.unknown_capitalised
                and an_unknown_word(word)
                and not _a_thing_or_place(text, m.start(), m.start() + len(word))
                and not _a_number_s_name(text, m.start(), m.start() + len(word))
                and not a_job_or_a_thing_by_position(written, m.start(), m.start() + len(word))
            ):
                # A name no list knows ("Willemine", "Zikmund") or a street's
                # name written alone ("Andreassenberget", "Drumul Ene").
                start, end = complete_name(text, m.start(), m.start() + len(word))
                if not _a_place_grown_over(text, start, m.start()):
                    end = _words_after_unknown(text, end)
                    yield start, end, "PERSON", "a capitalised word no list knows"

    def _a_name_no_lexicon_files(self, word: str) -> bool:
        """A lower-case word of four letters or more that a name list knows
        and English's lexicon does not file (no part of speech), written less
        than often (Zipf ``lower_case_zipf``), and no place's: a census
        surname typed in lower case ("hernandez", "kelemen"), where a person
        stands. Not anywhere: such a word is as often one lemminflect lacks
        ("lingo", "salsa")."""
        from miner.redaction.lexicon.names import an_english_word
        from miner.redaction.lexicon.wordclass import word_classes

        folded = word.casefold()
        return (
            len(word) >= 4
            and known_name(word)
            and not word_classes(folded)
            and not an_english_word(folded, self.config.lower_case_zipf)
            and not a_place_name(word)
        )

    def _in_a_person_slot(self, text: str, start: int, word: str, addressed: bool) -> bool:
        """A word a name list knows, or capitalised one English does not
        write, where a person stands: after a greeting, a sign-off's line, a
        credit or a relation ("Dear May,", "Thx\\nJune Pearce", "directed by
        Hall", "said Ivan to Joaquin", "it's under brian price"), before
        what a person does ("Little was influenced", "May is a very
        sympathetic person", capitalised), or ``addressed`` at a clause's end
        ("Don't go to town, Georgia!"). In lower case under ``lower_case_zipf``, else
        under Zipf 6 (not "Thanks guys"); no place's name (but one addressed,
        which is a person's as often), and a stop word only capitalised
        before what a person does."""
        from miner.redaction.lexicon.names import an_english_word

        folded = word.casefold()
        if len(word) < 3 or (word[0].islower() and not word.islower()):
            return False
        # Each test here only says no, so the cheapest that says it of most
        # words comes first: a word the lists do not know and English writes
        # needs no place's name looked up (100,000 words of a 1 MiB message).
        if not known_name(word) and an_english_word(folded, 3.0):
            return False  # a word English does not write is a name too
        if (
            a_place_name(word)
            and not a_first_name(word)
            and not addressed
            and not (word[0].isupper() and _A_PERSON_S_DEED.match(text, start + len(word)))
        ):
            # "Chad", "Jordan" are names too; a town before what only a
            # person does is a surname that is also a town's ("Lere is a
            # very sympathetic person").
            return False
        if not known_name(word) and (
            (word.isupper() and len(word) <= 3) or _english_people_compound(folded)
        ):
            # Unlisted: an acronym ("starring <PERSON_1> DOB"), or English's
            # word for people of a kind ("sung by salarymen").
            return False
        if (
            not known_name(word)
            and word.islower()
            and not _GREETING_BEFORE.search(text, max(0, start - 12), start)
            and not _SAID_TO_BEFORE.search(text, max(0, start - 30), start)
        ):
            # In lower case only after a greeting or one spoken to ("sorry
            # akua,", "said nessa to eárine"; not "sung by salarymen").
            return False
        if an_english_word(folded, self.config.lower_case_zipf if word.islower() else 6.0):
            return False
        before = _PERSON_SLOT_BEFORE.search(text, max(0, start - 30), start) or (
            _TITLE_BEFORE.search(text, max(0, start - 10), start)
        )
        # After it only capitalised: "the courier says" is no person's slot.
        after = word[0].isupper() and _PERSON_SLOT_AFTER.match(text, start + len(word))
        # A stop word only capitalised before what a person does ("May is
        # a very sympathetic person"; not "dear all").
        if folded in stop_words() and not (after and word[0].isupper()):
            return False
        return bool(before or after or addressed)

    def _a_name_in_lower_case_text(self, text: str, start: int, word: str) -> bool:
        """In a text with no capital, a word a name list knows that English
        does not write ("neves", "baldauf"): what ``capitalised_zipf``
        surfaces with its capital. (A word no list knows is not: in lower
        case those are as often ids' and firms' names, "personnummer".)"""
        from miner.redaction.lexicon.names import an_english_word

        return (
            known_name(word)
            and not an_english_word(word.casefold(), 3.0)
            and not a_place_name(word)
            and not _a_thing_or_place(text, start, start + len(word))
        )

    def _unknown_in_capitals(self, text: str, start: int, word: str, shortest: int) -> bool:
        """A word in capitals that ``unknown_capitalised`` would surface
        written capitalised ("HELLANDGROPA", "VIADUCTO PADRÓN"): of at least
        ``shortest`` letters (an acronym is shorter), no list's, no place's
        nor thing's by its neighbours."""
        return (
            self.config.unknown_capitalised
            and len(word) >= shortest
            and all(len(part) >= 4 for part in _WORD_JOINS.split(word))  # not "ZSP-TKW"
            and an_unknown_word(word.title())
            and not _a_thing_or_place(text, start, start + len(word))
        )


_POSSESSIVE = re.compile(r"['’]s?$")


_WORD_BEFORE = re.compile(r"(?<![\w'’-])([^\W\d_][\w'’-]*)[ \t]+\Z")
_WORD_AFTER = re.compile(r"[ \t]+([^\W\d_])")


def _a_capitalised_listed_name(word: str) -> bool:
    """Whether ``word`` is capitalised (not all capitals), a name list knows
    it and it is no stop word: what a listed name before its team or before
    a caller's deed must be, before its neighbours are read."""
    return (
        word[:1].isupper()
        and not word.isupper()
        and known_name(word)
        and word.casefold() not in stop_words()
    )


def _in_a_capitalised_run(text: str, start: int, end: int) -> bool:
    """Whether a capitalised word stands right before or after [start, end)
    on its line; before it, not a word English writes often opening the
    sentence, capitalised only for that (``_an_english_opener_before``)."""
    before = _WORD_BEFORE.search(text, max(0, start - 40), start)
    if before and before.group(1)[0].isupper() and _an_english_opener_before(text, start) is None:
        return True
    after = _WORD_AFTER.match(text, end)
    return bool(after and after.group(1)[0].isupper())


def _an_english_opener_before(text: str, start: int) -> int | None:
    """The start of the word right before ``start`` if it opens a sentence
    or a line and English writes it often (Zipf 4.5), capitalised only for
    that ("Ask Gutierrez about it", "Call Hernandez back": a verb or a
    greeting, no town's word); else None."""
    from miner.redaction.lexicon.names import an_english_word

    before = _WORD_BEFORE.search(text, max(0, start - 40), start)
    if (
        before
        and before.group(1)[0].isupper()
        and _SENTENCE_OPENS_BEFORE.search(text, max(0, before.start() - 4), before.start())
        and an_english_word(before.group(1).casefold())
    ):
        return before.start(1)
    return None


#: A sentence's or a line's start right before a word.
_SENTENCE_OPENS_BEFORE = re.compile(r"(?:\A|[.!?\n\r][\s\"'“”‘’)]*)\Z")


#: What only a person has, after a word and its "'s": "Koidu's address".
_A_PERSON_S_THING_AFTER = re.compile(
    r"['’]s[ \t]+(?:(?:home|postal|e-?mail|delivery)[ \t]+)?(?:address|phone|mobile|e-?mail"
    r"|birthday|date of birth|passport|wife|husband|son|daughter|mother|father)\b"
)


#: A letter and an apostrophe glued before a word, not an elided particle's
#: ("O'", "D'", "L'"): the word is a contraction's rest ("C'mon", "y'all").
_CONTRACTED = re.compile(r"(?<![\w'’])[^\W\d_ODLodl]['’]\Z")
#: The apostrophes ``_CONTRACTED`` ends with and ``_POSSESSIVE`` reads (one
#: of them looked for first, before either pattern is tried).
_APOSTROPHES = ("'", "’")
_APOSTROPHE_SET = frozenset(_APOSTROPHES)


#: A surname with its elided particle glued by an apostrophe, capitalised
#: after it ("O'Connor", "D’Onofrio", "O‘Brien"): the shape says a surname,
#: whatever list knows it (the lists write "OConnor", or nothing).
_ELIDED_SURNAME = re.compile(
    r"(?<![\w'’‘ʼ])[A-HJ-Z]['’‘ʼ][A-Z][^\W\d_A-Z]{2,}(?:-[A-Z][^\W\d_A-Z]+)?(?![\w'’‘ʼ-])"
)


#: A line of two to four words in lower case alone (an addressee's or a
#: signature's name typed so: "adaeze okonkwo-ibe\n\n12 ...").
_LOWER_CASE_LINE = re.compile(
    r"(?:\A|(?<=\n))[ \t]*([^\W\d_A-Z]{3,}(?:-[^\W\d_A-Z]+)?"
    r"(?:[ \t]+[^\W\d_A-Z]{3,}(?:-[^\W\d_A-Z]+)?){1,3})[ \t]*(?=\n|\Z)"
)


def _lower_case_name_lines(text: str, written: str) -> Iterator[tuple[int, int, str, str]]:
    """Each ``_LOWER_CASE_LINE`` every word of which English does not write
    (Zipf under 3) or a name list knows and English writes less than often
    (Zipf 4.5), no stop word, no place: a name on a line of its own (or
    beside placeholders, blanked in ``text``). Not an id's name before its
    value in ``written`` ("<PERSON_1> rodné číslo <NATIONAL_ID_1>")."""
    from miner.redaction.lexicon.names import an_english_word

    for m in _LOWER_CASE_LINE.finditer(text):
        words = m.group(1).split()
        if all(
            w not in stop_words()
            and not a_place_name(w)
            and (not an_english_word(w, 3.0) or (known_name(w) and not an_english_word(w, 4.5)))
            for w in words
        ) and not names_a_person_s_id(written, m.start(1), m.end(1), phones=False):
            yield m.start(1), m.end(1), "PERSON", "a lower-case name line"


def _elided_surnames(text: str) -> Iterator[tuple[int, int, str, str]]:
    """Each ``_ELIDED_SURNAME`` in ``text`` that no place or thing word
    around it claims ("spoke to O'Connor"; not "O'Hare Airport")."""
    for m in _ELIDED_SURNAME.finditer(text):
        if a_place_name(m.group(0)) or _a_thing_or_place(text, m.start(), m.end()):
            continue
        yield m.start(), m.end(), "PERSON", "a surname with its elided particle"


#: A word at a text's, line's, sentence's or quote's start (after a colon:
#: "I have checked this for you: jordan, can i..."), then a comma and what is
#: said to someone: "olakunle, can i please speak to your boss?", "JABULANI,
#: PLEASE CALL ME". The person is addressed, whoever the word names.
_ADDRESSED_FIRST = re.compile(
    r"(?:\A|(?<=\n)|(?<=\\n)|(?<=[.!?:][ \t]))[ \t]*([^\W\d_]{3,}(?:['’-][^\W\d_]+)*),[ \t]+"
    r"(?=(?i:can|could|would|will|please|thank|thanks|do|did|are|have|i|you|we|my)\b)"
)


def _addressed_first(text: str) -> Iterator[tuple[int, int, str, str]]:
    """The word ``_ADDRESSED_FIRST`` finds, when English does not write it
    (Zipf under 3) or a name list knows it and English writes it less than
    often (Zipf 4.5; a first name 5, a country's too: "jordan, can i..."):
    "olakunle, can i..."; not "yes, can you", "hello, i"."""
    from miner.redaction.lexicon.names import an_english_word

    for m in _ADDRESSED_FIRST.finditer(text):
        word = m.group(1)
        folded = word.casefold()
        if folded in stop_words() or (a_place_name(word) and not a_first_name(word)):
            continue  # a first name that is a country's too is addressed: "jordan, can i"
        if not an_english_word(folded, 3.0) or (
            known_name(word) and not an_english_word(folded, 4.5 if not a_first_name(word) else 5.0)
        ):
            yield m.start(1), m.end(1), "PERSON", "a word addressed first"


#: The rule of ``_greeted``: its word may be of two letters, under the
#: three a name's span otherwise holds.
GREETED = "a word after a greeting"


#: A greeting or an apology, then one word alone up to the clause's end:
#: the person spoken to, whatever the word's length or shape ("Sorry sá,",
#: "Thanks S.IP.", "hi ngô!"); its letters may be joined by full stops,
#: hyphens or apostrophes.
_GREETED = re.compile(
    rf"{_GREETING}[ \t]*,?[ \t]+"
    r"([^\W\d_](?:[^\W\d_]|[.'’-](?=[^\W\d_]))+)"
    r"(?=[ \t]*(?:[,!?;:]|\.(?:\s|\Z)|\n|\\n|\Z))"
)


def _greeted(text: str, written: str) -> Iterator[tuple[int, int, str, str]]:
    """The word ``_GREETED`` finds when English does not write it (Zipf
    under 3) and it is no place nor stop word: a
    name of two letters or with dots, which the name rules' word of three
    letters or more misses ("Sorry sá, I have..."); not "Thanks again,",
    "Hi team!"."""
    from miner.redaction.lexicon.names import an_english_word

    for m in _GREETED.finditer(text):
        if "<" in written[m.start() : m.start(1)] and _OTHER_GREETING.match(text, m.start()):
            # Another language's greeting, the person greeted replaced: the
            # word after is its thanks ("Ciao <PERSON_1>, grazie").
            continue
        word = m.group(1)
        folded = word.casefold()
        if folded in stop_words() or a_place_name(word) or an_english_word(folded, 3.0):
            continue
        yield m.start(1), m.end(1), "PERSON", GREETED


#: The rule of ``_mentioned``.
MENTIONED = "a name mentioned with @"
#: A chat's mention: "@" where no word or address runs into it, a name's
#: word (its letters, maybe joined by a hyphen or a full stop), and a blank
#: or a clause's end after it (not an e-mail's domain: "me@owuor.com").
_MENTION = re.compile(
    r"(?<![\w.@+-])@([^\W\d_]{2,}(?:[.-][^\W\d_]{2,})?)(?=[ \t]|[,:;!?]|\.(?:\s|\Z)|\n|\Z)"
)


def _mentioned(text: str) -> Iterator[tuple[int, int, str, str]]:
    """A word a chat mentions with "@" ("@owuor can you check this?",
    "@Markov"): someone's handle or name, when a name list knows it or
    English does not write it (not "@here", "@everyone", "@support")."""
    from miner.redaction.lexicon.names import an_english_word

    for m in _MENTION.finditer(text):
        word = m.group(1)
        folded = word.casefold()
        if folded in stop_words() or an_english_word(folded, 4.0):
            continue
        if known_name(word.split(".")[0].split("-")[0]) or not an_english_word(folded, 3.0):
            end = m.end(1)
            after = _WORD_AFTER.match(text, end)
            if after:
                # With a surname no English writes after it ("@agap smirnova").
                surname = LETTERS.match(text, after.start(1))
                if surname and not an_english_word(surname.group(0).casefold(), 3.0):
                    end = surname.end()
            yield m.start(1), end, "PERSON", MENTIONED


#: A string that is one word in lower case or capitalised (a tool's
#: argument, a field): "lopez", "kolejowa".
_ONE_WORD = re.compile(r"[ \t]*([^\W\d_]{3,}(?:['’-][^\W\d_]+)*)[ \t]*")


def a_name_alone(text: str) -> Iterator[tuple[int, int, str]]:
    """A whole string that is one word in lower case a name list knows and
    English writes less than often (Zipf 4.5: "lopez"), or that English and
    its lexicon do not write and that is no place ("kolejowa", a street's
    name): a name or a street's typed into a field alone, with no sentence
    around it for the other rules to read. Capitalised, one of three
    letters English and its lexicon do not write ("Uzo"): the capitalised
    rules read a word of four letters or more alone, not one that short
    (left silent, and where the session wrote it again, on the mimesis tune
    split)."""
    from miner.redaction.lexicon.names import an_english_word
    from miner.redaction.lexicon.wordclass import word_classes

    m = _ONE_WORD.fullmatch(text)
    if m and _CAPITALISED_WORD.fullmatch(m.group(1)) and len(m.group(1)) == 3:
        word = m.group(1)
        folded = word.casefold()
        if not (
            folded in stop_words()
            or an_english_word(folded, 3.0)
            or word_classes(folded)
            or a_place_name(word)
        ):
            yield m.start(1), m.end(1), "PERSON"
        return
    if not m or not m.group(1).islower():
        return
    word = m.group(1)
    if word in stop_words() or a_place_name(word.title()):
        return
    if (known_name(word) and not an_english_word(word, 4.5)) or (
        not an_english_word(word, 3.0) and not word_classes(word)
    ):
        yield m.start(1), m.end(1), "PERSON"


_WORD_JOINS = re.compile(r"['’-]")


#: A surname's particle in lower case before it: "da Rosa", "das Neves".
_PARTICLE_BEFORE = re.compile(
    r"(?<![\w'’-])(?:da|das|do|dos|de|di|del|van|von|der|du|le|la)[ \t]+\Z"
)


_CAPITALS_AFTER = re.compile(r"[ \t]+([^\W\d_a-z]{2,}(?:['’-][^\W\d_a-z]+)*)(?![\w'’-])")


def _a_surname_s_particle(text: str, end: int, particle: str) -> bool:
    """Whether the particle in capitals ending at ``end`` begins a surname in
    a text with lower case in it, with no cue before: another particle after
    it ("DE LA CRUZ", "VAN DER WALL"), or a word no acronym after a particle
    of three letters ("DOS SANTOS", "VAN HEUSEN") or after a shorter one a
    name list knows ("DA SILVA"; not "DE VAT", Germany's)."""
    after = _CAPITALS_AFTER.match(text, end)
    if after is None:
        return False
    word = after.group(1)
    if a_particle(word):
        return True
    return not _an_acronym(word) and (len(particle) >= 3 or known_name(word))


def _name_words_after(text: str, end: int, mixed_case: bool = False) -> int:
    """``end`` moved over the words in capitals after it that are a name's
    other words (at most two, and the particles before them: "KALVELIS",
    "DE BONDT"): a word English does not write (Zipf under 3), or one a
    name list knows that English writes less than very often (Zipf 5:
    "MARTIN", "TAYLOR"; not "FROM", "SEVEN"). In ``mixed_case`` text not
    over an acronym (``_an_acronym``: "KRZYSZTOFIAK PNR")."""
    from miner.redaction.lexicon.names import an_english_word

    position = end
    for _ in range(3):
        after = _CAPITALS_AFTER.match(text, position)
        if not after:
            break
        word = after.group(1)
        folded = word.casefold()
        if a_particle(word) and _CAPITALS_AFTER.match(text, after.end(1)):
            position = after.end(1)  # "DE" of "DE BONDT": a name's only with its word
            continue
        if mixed_case and _an_acronym(word):
            break
        if an_english_word(folded, 3.0) and not (
            known_name(word) and not an_english_word(folded, 5.0)
        ):
            break
        end = position = after.end(1)
    return end


_CAPITALS_BEFORE = re.compile(r"(?<![\w'’-])([^\W\d_a-z]{2,}(?:['’-][^\W\d_a-z]+)*)[ \t]+\Z")


def _name_words_before(text: str, start: int) -> int:
    """``start`` moved back over the words in capitals before it that are a
    name's other words (at most two: "ALCIE" of "ALCIE ALBERTI", "DE" of "DE
    MEYER"): a particle or a word English does not write (Zipf under 3).
    Not a listed name English writes, as after it: before the name stands
    the cue, and a cue's word is a name too ("RING", "CALL")."""
    from miner.redaction.lexicon.names import an_english_word

    position = start
    for _ in range(2):
        before = _CAPITALS_BEFORE.search(text, max(0, position - 40), position)
        if not before:
            break
        word = before.group(1)
        folded = word.casefold()
        if not a_particle(word) and (an_english_word(folded, 3.0) or _an_acronym(word)):
            break
        start = position = before.start(1)
    return start


def _an_acronym(word: str) -> bool:
    """A word in capitals with a part of three letters at most that no name
    list knows ("PNR", "DOB", "KTW-LTN"): a code's, in mixed-case text, not
    a name's."""
    short = any(len(part) <= 3 for part in _WORD_JOINS.split(word))
    return short and not known_name(word) and not a_particle(word)


def _surname_after(text: str, end: int) -> bool:
    """A lower-case word after a first name that a surname list knows and
    English writes less than very often (Zipf 5.5): "brian price"."""
    from miner.redaction.lexicon.names import an_english_word

    after = _LOWER_WORD_AFTER.match(text, end)
    if not after or not after.group(1).islower():
        return False
    other = after.group(1)
    return (
        len(other) >= 3
        and other not in stop_words()
        and known_name(other)
        and not an_english_word(other, 5.5)
    )


@functools.cache
def _degrees() -> frozenset[str]:
    """nameparser's suffixes of a name of at most four letters that English
    writes less than often (Zipf 4.5): "md", "phd", "jr"; not "am", "ace"."""
    from nameparser.config import CONSTANTS

    from miner.redaction.lexicon.names import an_english_word

    suffixes = set(CONSTANTS.suffix_acronyms) | set(CONSTANTS.suffix_not_acronyms)
    return frozenset(
        s for s in suffixes if s.isalpha() and 2 <= len(s) <= 4 and not an_english_word(s, 4.5)
    )


def _a_degree(folded: str) -> bool:
    return folded in _degrees()


#: A speaker's name before a line of a dialogue or a chat log, at a line's
#: start: "Rhavi: Remember me?", "lautaro: you saved my life!".
_SPEAKER = re.compile(r"(?:^|(?<=\n))[ \t]*([^\W\d_]{2,}(?:['’-][^\W\d_]+)*):[ \t]+\S")


#: A capitalised word as a name is written: no capital inside it but after
#: a hyphen or an apostrophe ("Jean-Luc", "O'Neill"; not "PaymentGatewayError").
_CAPITALISED_WORD = re.compile(r"[^\W\d_][^\W\d_A-Z]*(?:['’-][^\W\d_][^\W\d_A-Z]*)*")


def an_unknown_word(word: str) -> bool:
    """A capitalised word of at least four letters that English does not
    write (wordfreq Zipf under 3), that lemminflect's lexicon does not list
    under any part of speech, and that is no town, region, country,
    nationality, month or weekday, nor two English words run together
    ("Traceback"): a name no list knows, or a street's name written alone."""
    from miner.redaction.lexicon.names import (
        an_english_word,
        date_words,
        nationality_words,
        smaller_town_names,
    )
    from miner.redaction.lexicon.wordclass import word_classes

    folded = word.casefold()
    if len(word) < 4 or not word[0].isupper() or not _CAPITALISED_WORD.fullmatch(word):
        return False
    if word.title() in NOT_NAMES:
        return False  # a greeting of another language ("Bonjour à tous")
    if an_english_word(folded, 3.0) or word_classes(folded):
        return False
    if _english_people_compound(folded):
        return False  # "Salarymen"
    if folded.endswith("s") and an_english_word(folded[:-1], 3.0) and not known_name(word[:-1]):
        # An English word's plural, rarer than it ("Hobbits"); not a name's
        # genitive or patronymic ("Johans" of "Johan").
        return False
    if a_place_name(word) or folded in nationality_words() or folded in date_words():
        return False
    if folded in smaller_town_names():
        return False
    return not _english_compound(folded)


#: The endings of English towns' names ("Jacksonville", "Portsmouth",
#: "Lakeside") and the French and German words that join a town's
#: ("Bourg-la-Reine", "Frankfurt-am-Main", "Aix-les-Bains").
TOWN_ENDING = re.compile(
    r"(?i:.{3,}(?:ville|chester|mouth|haven|side|view|town|borough|burgh|bury|shire|port|furt"
    r"|fort|stadt)|.+-(?:près|sur|sous|lès|les|la|le|en|aux|am|an|im|upon|on)-.+)"
)


#: Words a town's name starts with and a person's does not: "Lake
#: Patriciaside", "Port Anton", "North Kimville" (``verdict`` keeps a value
#: starting so; here they mark the word after them as a town's).
TOWN_START_WORDS = r"Lake|Port|North|South|East|West|Mount|Fort|Sankt"


#: Before a town's name: those words, and ones that also start a person's
#: ("New", "San", "Bad"), which only a word after them makes a town's.
_TOWN_WORD_BEFORE = re.compile(rf"(?:\b(?:{TOWN_START_WORDS}|New|Santo|Santa|San|Bad)[ \t]+)$")


#: A capitalised word after a name's: "Takigami Steel", "Muthoot Finance".
_CAPITALISED_AFTER = re.compile(r"[ \t]+([A-Z][a-z]+)\b")

#: The capitalised words that go on a name after a word, up to two ("Sergio
#: Rossi", "Van Den Berg"): where what is said of the name starts.
_A_CAPITALISED_RUN = re.compile(r"(?:[ \t]+[A-ZÀ-Þ][\w'’.-]*){0,2}")


#: What a state has, in lower case after a word: "the Bajau government"
#: names a country's or a people's government, not a person's.
_A_STATE_S_NOUN_AFTER = re.compile(
    r"[ \t]+(?:government|embassy|consulate|parliament|ministry|army|navy|authorities)\b"
)
_THE_BEFORE = re.compile(r"\b[Tt]he[ \t]+$")
#: A word no list knows between "my" and a number is the name of a person's
#: number ("my Sozialversicherungsnummer is 3115050693"), not a person (a
#: listed name is read as one there: "my Anna is 12 today").
_POSSESSIVE_BEFORE = re.compile(r"\b(?i:my|your|his|her|our|their)[ \t]+$")
_A_VALUE_AFTER = re.compile(r"(?:[ \t]+(?:is|was|number|no\.?)|:)+[ \t]*[+#(]?\d")


def _a_number_s_name(text: str, start: int, end: int) -> bool:
    """Whether the word at [start, end) stands between "my" (or "your",
    "her"...) and a number: "my Sozialversicherungsnummer is 3115050693"."""
    return bool(
        _POSSESSIVE_BEFORE.search(text, max(0, start - 7), start)
        and _A_VALUE_AFTER.match(text, end)
    )


def _a_thing_or_place(text: str, start: int, end: int) -> bool:
    """Whether the word at [start, end) names a place or a thing by its
    shape or its neighbours: a town's ending or the word before a town's
    name, a place or organisation word around it (``names_no_person``: "in
    Ebikon", "Iteris Inc"), a state's noun after it and "the" before it
    ("the Bajau government"), or a capitalised English noun after it
    ("Baytex Energy"). (The verdict's
    legal forms are not read here: the verdict reads this module.)"""
    from miner.redaction.lexicon.firm_said import said_to_be_a_firm
    from miner.redaction.lexicon.names import names_no_person
    from miner.redaction.lexicon.wordclass import word_classes

    if TOWN_ENDING.fullmatch(text, start, end) or _TOWN_WORD_BEFORE.search(
        text, max(0, start - 8), start
    ):
        return True
    if names_no_person(text, start, end):
        return True
    run = _A_CAPITALISED_RUN.match(text, end)
    if said_to_be_a_firm(text, run.end() if run else end, start):
        # "Benelli is a 501(c)3 that", "Sergio Rossi is a design agency
        # based in": the sentence says it is a firm (``lexicon.firm_said``),
        # where the verdict keeps it too: not surfaced for that there.
        return True
    if _A_STATE_S_NOUN_AFTER.match(text, end) and _THE_BEFORE.search(
        text, max(0, start - 5), start
    ):
        return True
    after = _CAPITALISED_AFTER.match(text, end)
    return bool(
        after and "NOUN" in word_classes(after.group(1)) and not a_first_name(after.group(1))
    )


#: A part of a run of words in capitals that only a code has: letters and
#: digits glued ("40TH", "X3"), or a slash or a dot between letters
#: ("NXT/SHS", "EUR.M").
_CODE_PART = re.compile(r"[^\W\d_]\d|\d[^\W\d_]|[^\W\d_][/.][^\W\d_]")


#: A word of a travel booking in capitals, whose runs hold a passenger's
#: surname beside codes ("KRZYSZTOFIAK PNR X7Y9Q2", "KRZYSZTOFIAK LO281
#: 12A", "BRZOZOWSKA KTW-LTN W6 1234"): a seat, a flight's number (its
#: airline's two characters, then digits, glued or apart), a route of two
#: airports' codes, or a booking's word. No fund's or ticker's part is so
#: shaped ("HEDG/ETFS", "40TH", "NXT/SHS").
_BOOKING_PART = re.compile(
    r"\d{1,2}[A-K]|[A-Z][A-Z\d]\d{1,4}|(?:[A-Z][A-Z\d]|\d[A-Z])(?= \d{2,4}\b)|[A-Z]{3}-[A-Z]{3}"
    r"|PNR|REF|SEAT|GATE|ROW|FLIGHT|PAX|BOOKING|TICKET"
)


#: Characters read either side of a word for its run of capitals.
_RUN_READ = 200


def _in_a_code_s_run(text: str, start: int, end: int) -> bool:
    """Whether a word in capitals no list knows at [start, end) stands in a
    run of three words or more with no lower-case letter, a blank apart, of
    which one is shaped like a code's part: a fund's or a ticker's name
    ("ETFS HEDG/ETFS DAILY HEDGED PHYSICA", "The KEYCORP DS 1 40TH SE
    Orchestra"; 8 tune decisions, none a planted name); not a name an
    airline writes with its first name after a slash ("WOJTASZEK/ANNA"),
    nor one beside a booking's codes (``_BOOKING_PART``: "KRZYSZTOFIAK
    LO281 12A")."""
    if text.startswith("/", end):
        return False
    # Its line, 200 characters either side at most: a run of codes is short,
    # and a 1 MiB message may be one line.
    line_start = max(text.rfind("\n", max(0, start - _RUN_READ), start) + 1, start - _RUN_READ, 0)
    line_end = text.find("\n", end, end + _RUN_READ)
    line = text[line_start : min(len(text), end + _RUN_READ) if line_end < 0 else line_end]
    words = line.split(" ")
    at, index = line_start, 0
    while index < len(words) - 1 and at + len(words[index]) < end:  # to the word's own
        at += len(words[index]) + 1
        index += 1

    def capitals(w: str) -> bool:
        return bool(w) and not any(c.islower() for c in w)

    first = index
    while first > 0 and capitals(words[first - 1]):
        first -= 1
    last = index
    while last + 1 < len(words) and capitals(words[last + 1]):
        last += 1
    run = words[first : last + 1]
    if len(run) < 3 or not any(_CODE_PART.search(w) for w in run):
        return False
    # Each word with the next, for a flight's number written apart ("W6 1234").
    return not any(_a_booking_part(w, after) for w, after in zip(run, [*run[1:], ""], strict=True))


def _a_booking_part(word: str, after: str) -> bool:
    """Whether ``word`` of a run in capitals, ``after`` the next, is a
    booking's (``_BOOKING_PART``), whole."""
    word = word.strip(",.:;()")
    booking = _BOOKING_PART.match(f"{word} {after}")
    return booking is not None and booking.end() == len(word)


def _a_word_or_place_in_capitals(text: str, start: int, end: int, word: str) -> bool:
    """Whether a listed name at [start, end) of a text all in capitals is
    an English word of lemminflect's lexicon ("NEED TO CHANGE BILLING
    DATE", "CANCEL"), a place's name ("SENEGAL", "PALAU"), a place or a thing
    by its neighbours ("MOVED HERE FROM KENYA", "TADAS BRIDGE") or a
    nationality said ("I AM THAI"): the capitalised rules' checks, which
    the rule of a name in a text in capitals skipped (20 decisions on the
    tune splits, none a planted name)."""
    from miner.redaction.lexicon.wordclass import word_classes

    return (
        bool(word_classes(word.casefold()))
        or a_place_name(word.title())
        or a_nationality_said(text, start, end)
        or _a_thing_or_place(text, start, end)
    )


def _a_place_grown_over(text: str, start: int, word_start: int) -> bool:
    """Whether a name grown leftwards from the word at ``word_start`` to
    ``start`` (``complete_name``) starts with a word that stands where a
    place does ("your branch in Krásná Lípa", "no signal in Trhové Sviny"):
    the town's second word was judged alone, where "in" does not stand
    before it, so ``_a_thing_or_place`` is asked again of the first word;
    not of a first name, which starts a person's full name as often ("in
    Maria Ortiz's file")."""
    if start >= word_start:
        return False
    first = LETTERS.match(text[start:word_start])
    return (
        first is not None
        and not a_first_name(first.group(0))
        and _a_thing_or_place(text, start, start + first.end())
    )


_NEXT_WORD = re.compile(r"[ \t]+([^\W\d_]+(?:['’-][^\W\d_]+)*)(?![\w'’-])")


def _words_after_unknown(text: str, end: int) -> int:
    """The end of the words that go on a name or a street's name no list
    knows, on its line: up to two words English does not write, or names a
    list knows ("Drumul Robertina Tudor", "Kraljeva ulica", "Szabadság
    utca")."""
    from miner.redaction.lexicon.names import an_english_word

    for _ in range(2):
        m = _NEXT_WORD.match(text, end)
        if not m:
            break
        word = m.group(1)
        folded = word.casefold()
        if len(word) < 2 or folded in stop_words():
            break
        if an_english_word(folded, 3.0) and not (word[0].isupper() and known_name(word)):
            break
        end = m.end()
    return end


def _english_people_compound(folded: str) -> bool:
    """An English word of four letters or more, then "man" or "men":
    people of a kind ("salarymen", "linemen"), too rare for the lexicon."""
    from miner.redaction.lexicon.names import an_english_word
    from miner.redaction.lexicon.wordclass import word_classes

    head = folded[:-3]
    return (
        folded.endswith(("man", "men"))
        and len(head) >= 4
        and bool(word_classes(head))
        and an_english_word(head, 3.0)
    )


def _english_compound(folded: str) -> bool:
    """Two words of English run together, the second of four letters or
    more ("traceback", "zoolander"): a word too new for the lexicon."""
    from miner.redaction.lexicon.names import an_english_word
    from miner.redaction.lexicon.wordclass import word_classes

    def english(part: str) -> bool:
        return bool(word_classes(part)) and an_english_word(part, 3.0)

    return any(english(folded[:cut]) and english(folded[cut:]) for cut in range(3, len(folded) - 3))


_LOWER_WORD_BEFORE = re.compile(r"(?<![\w'’-])([^\W\d_]+(?:-[^\W\d_]+)*)[ ]\Z")


_LOWER_WORD_AFTER = re.compile(r"[ ]([^\W\d_]+(?:-[^\W\d_]+)*)(?:['’]s?)?(?![\w'’-])")


_PERSON_BEFORE = re.compile(r"<PERSON_\d+>[ ](?:(?i:da|das|do|dos|de|di|del|van|von|der|du)[ ])?\Z")


_CAPITALS_PARTICLE_BEFORE = re.compile(
    r"(?<![\w'’-])(?:DA|DAS|DO|DOS|DE|DI|DEL|VAN|VON|DER|DU)[ \t]+\Z"
)


_PERSON_AFTER = re.compile(r"[ ]<PERSON_\d+>")


#: A verb's passive or phrasal "by" after a word: "sung by", "stopped by".
_BY_AFTER = re.compile(r"[ \t]+by\b")


def a_verb_s_form(folded: str) -> bool:
    """A word lemminflect files as a verb, only so or with an inflection's
    ending ("said", "works", "called", "living"; not "mark", "price")."""
    from miner.redaction.lexicon.wordclass import word_classes

    classes = word_classes(folded)
    return "VERB" in classes and (classes == {"VERB"} or folded.endswith(("s", "ed", "ing")))


def _a_verb_before_by(text: str, end: int, folded: str) -> bool:
    """A word lemminflect files only as a verb's form, "by" after it: the
    passive ("sung by salarymen"), not a first name ("Sung"). Only before
    "by": a verb's form alone is a first name as often ("drew", "wade")."""
    from miner.redaction.lexicon.wordclass import word_classes

    return bool(_BY_AFTER.match(text, end)) and word_classes(folded) == {"VERB"}


#: The endings of an English noun of who does something: "commenter",
#: "narrator".
_AGENT_ENDINGS = ("er", "or")


def _an_agent_noun(word: str) -> bool:
    """A word no name list holds made of an English verb (Zipf 3 or more)
    and "-er" or "-or" ("commenter", "blogger", "narrator"): who someone is
    ("RR commenter <PERSON_1>"), not a word of a name, however rarely
    English writes it."""
    from miner.redaction.lexicon.names import an_english_word
    from miner.redaction.lexicon.wordclass import word_classes

    folded = word.casefold()
    if not folded.endswith(_AGENT_ENDINGS) or known_name(word):
        return False
    stem = folded[:-2]
    # "commenter" of "comment", "writer" of "write", "blogger" of "blog".
    stems = (stem, folded[:-1], stem + "e", stem[:-1] if stem[-1:] == stem[-2:-1] else stem)
    return any("VERB" in word_classes(s) and an_english_word(s, 3.0) for s in stems if s)


#: A website's host: a word after "://" or "www." with a dot after it.
_HOST_BEFORE = re.compile(r"(?://|\bwww\.)\Z")


def _a_site_or_an_id_s_name(written: str, text: str, start: int, end: int) -> bool:
    """Whether the word at [start, end) is a website's host name
    ("https://mariah.tc/": a site's, however a first name it is) or a
    word of a person's id's name before its value ("my rodné číslo is"):
    no one's name either way."""
    if text.startswith(".", end) and _HOST_BEFORE.search(text, max(0, start - 4), start):
        return True
    return names_a_person_s_id(written, start, end)


def _beside_a_name(text: str, written: str, start: int, end: int, word: str) -> bool:
    """A lower-case word next to another that makes the two a name ("ailén
    cortés", "august bärer"): one of them a name a list knows that English
    does not write (wordfreq Zipf under 3), the other such a name too, a
    word English does not write, or a first name; or a word English does
    not write beside a name replaced already, or after one a surname English
    writes less than very often ("<PERSON_1> lopez"). ``text`` is
    ``written`` with its placeholders blanked."""
    from miner.redaction.lexicon.names import an_english_word

    def rare_name(w: str) -> bool:
        return known_name(w) and not an_english_word(w.casefold(), 3.0)

    def partner(w: str) -> bool:
        return (
            len(w) >= 3
            and w.casefold() not in stop_words()
            and (a_first_name(w) or not an_english_word(w.casefold(), 3.0))
        )

    if _PERSON_BEFORE.search(written, max(0, start - 20), start) or _PERSON_AFTER.match(
        written, end
    ):
        # Beside a name replaced already ("ailén <PERSON_1>"): its other
        # word; after one, a surname English writes less than very often
        # (Zipf 5) too ("<PERSON_1> lopez"; before one it is as often a cue,
        # "ring <PERSON_1>").
        return (not an_english_word(word.casefold(), 3.0) and not _an_agent_noun(word)) or (
            _PERSON_BEFORE.search(written, max(0, start - 20), start) is not None
            and known_name(word)
            and not an_english_word(word.casefold(), 5.0)
            and not _english_after_a_person(word)
        )
    before = _LOWER_WORD_BEFORE.search(text, max(0, start - 40), start)
    after = _LOWER_WORD_AFTER.match(text, end)
    for other in (m.group(1) for m in (before, after) if m):
        if not other.islower():
            continue
        if (rare_name(word) and partner(other)) or (partner(word) and rare_name(other)):
            return True
    return False


#: The rule of a surname (or a first name) in a person's place in capitals:
#: surfaced, not replaced ("RECEIVED BY BUTLER", "AN AGENT CALLED HOPE").
NAME_IN_A_PERSON_S_PLACE_IN_CAPITALS = "a name in a person's place in capitals"

#: Where a person stands after a word in capitals, a place's name as
#: seldom: a preposition a person follows ("RECEIVED BY", "LEFT WITH", "ON
#: BEHALF OF"), a verb said to one ("TELL", "ASK", "THANK"), a cue of a
#: delivery ("ADDRESSEE", "RECIPIENT", "CONSIGNEE", "ATTN", "CC", "C/O").
_A_PERSON_S_NOT_A_PLACE_S_SLOT = (
    r"BY|WITH|(?:BEHALF|CARE)[ \t]+OF|CC|ATTN|C/O|TELL|TOLD|ASK|ASKED|THANK|INFORM|INFORMED"
    r"|RING|PHONE|CONTACT|ADDRESSEE|RECIPIENT|CONSIGNEE|RECEIVER|SIGNATORY"
)
#: Those, and the words before a place's name as often ("GIVE IT TO",
#: "PARCEL FOR", "CALL", "FROM": not after "MADE", "BUILT", "CARVED").
_A_PERSON_S_PLACE_IN_CAPITALS_BEFORE = re.compile(
    rf"(?<![\w'’-])(?:{_A_PERSON_S_NOT_A_PLACE_S_SLOT}|TO|FOR|ATTENTION[ \t]+OF|CALL"
    r"|(?<!MADE[ \t])(?<!BUILT[ \t])(?<!CARVED[ \t])FROM)[.:,]?[ \t]+\Z"
)
#: Of those, the prepositions: a noun after the word there makes it the
#: noun's ("FOR YOUNG CHILDREN", "DELIVER TO HILL ROAD").
_A_PREPOSITION_IN_CAPITALS_BEFORE = re.compile(r"(?<![\w'’-])(?:BY|WITH|TO|FOR|OF|FROM)[ \t]+\Z")
_A_PLACE_S_PREPOSITION_BEFORE = re.compile(
    r"(?<![\w'’-])(?:BY|WITH|TO|FOR|OF|FROM|AT|IN|ON|INTO|NEAR|OUTSIDE|INSIDE)[ \t]+\Z"
)
#: Before a place's name, where a person stands as often (not "TO", "FROM",
#: "OF", "FOR": "SHIP TO JORDAN", "VISA FOR JORDAN").
_A_PERSON_S_NOT_A_PLACE_S_BEFORE = re.compile(
    rf"(?<![\w'’-])(?:{_A_PERSON_S_NOT_A_PLACE_S_SLOT})[.:,]?[ \t]+\Z"
)
#: A person called by name: "AN AGENT CALLED", "A MAN NAMED", "SOMEONE CALLED".
_CALLED_IN_CAPITALS_BEFORE = re.compile(
    r"(?<![\w'’-])(?:(?:AN?|ONE)[ \t]+[A-Z]+|SOMEONE|SOMEBODY)[ \t]+(?:CALLED|NAMED)[ \t]+\Z"
    r"|(?<![\w'’-])NAMED[ \t]+\Z"
)
#: Before a word: a hand-over to a person, which a place's name after "TO"
#: is not ("GIVE IT TO JORDAN", not "SHIP TO JORDAN").
_HANDED_TO_IN_CAPITALS_BEFORE = re.compile(
    r"(?<![\w'’-])(?:GIVE|GAVE|GIVEN|HAND|HANDED|PASS|PASSED|SPOKE|SPEAK|TALKED|TALK)"
    r"(?:[ \t]+(?:IT|THEM|THE[ \t]+[A-Z]+))?[ \t]+TO[ \t]+\Z"
    r"|(?<![\w'’-])(?:DELIVER|DELIVERED)[ \t]+(?:IT[ \t]+)?TO[ \t]+\Z"
)
_A_DETERMINER_IN_CAPITALS_BEFORE = re.compile(
    rf"(?<![\w'’-])(?:{'|'.join(sorted(d.upper() for d in DETERMINERS))})[ \t]+\Z"
)
#: A possessive's ending in capitals, which ``_POSSESSIVE`` leaves on.
_CAPITALS_POSSESSIVE = re.compile(r"(?<=[A-Z])['’]S$")
_A_POSSESSIVE_IN_CAPITALS = re.compile(r"['’]S[ \t]+[A-Z]")


def _a_name_in_a_person_s_place_ends(text: str, written: str, m: re.Match[str], word: str) -> int:
    """Where ``word``, the word in capitals ``m`` matched, ends without its
    possessive's "'S" when it is a name where a person stands
    (``a_name_in_a_person_s_place_in_capitals``) and names no person's id;
    else 0."""
    start = m.start()
    bare = _CAPITALS_POSSESSIVE.sub("", word)
    if a_name_in_a_person_s_place_in_capitals(
        text, start, start + len(bare), bare
    ) and not names_a_person_s_id(written, start, m.end(), phones=False):
        return start + len(bare)
    return 0


def a_name_in_a_person_s_place_in_capitals(text: str, start: int, end: int, word: str) -> bool:
    """Whether ``word``, in capitals at [start, end) (its possessive's "'S"
    after it), is a name where a person stands: a surname the US census's
    people bear more often than English writes it (``a_surname_more_than_
    a_word``: "BUTLER", "MILLER", "HILL", "SAUER"; not "DRIVER", "POST",
    "SENDER") after a preposition or a verb a person follows ("RECEIVED BY
    BUTLER", "TELL MILLER THE BOX WAS DAMAGED", "ADDRESSEE HILL MOVED AWAY"),
    after a title or a relative, before a verb English writes only as a verb
    ("FARMER SIGNED FOR IT") or as an owner ("SHEPHERD'S VAN"); or a first
    name after a relative or "CALLED" ("MY SON HUNTER", "AN AGENT CALLED
    HOPE"). A place's name only after a hand-over ("DELIVER TO JORDAN",
    not "GOING TO JORDAN"); never a word a determiner goes before ("THE
    KING SAID"), nor an adverb or an auxiliary ("MY SON IS ILL")."""
    from miner.redaction.lexicon.names import a_surname_more_than_a_word
    from miner.redaction.lexicon.wordclass import word_classes

    folded = word.casefold()
    if len(word) < 3 or folded in stop_words() or not known_name(word):
        return False
    classes = word_classes(folded)
    if classes & {"ADV", "AUX", "PRON", "DET", "ADP"}:
        return False
    if _A_DETERMINER_IN_CAPITALS_BEFORE.search(text, max(0, start - 8), start):
        return False
    before = _A_COMMA_AT_THE_END.sub(" ", text[max(0, start - 40) : start])
    surname = a_surname_more_than_a_word(word)
    if (surname or a_first_name(word)) and (
        _TITLE_OR_RELATIVE_BEFORE.search(before) or _CALLED_IN_CAPITALS_BEFORE.search(before)
    ):
        return True  # "MY SON HUNTER", "MY NEIGHBOUR, BUTLER,", "AN AGENT CALLED HOPE"
    if not surname:
        return False
    place = a_place_name(word)  # a town's, a region's, a country's ("JORDAN")
    if text.startswith(("'S", "’S"), end):
        # An owner, not after a preposition ("SHEPHERD'S VAN IS OUTSIDE";
        # not "I WENT TO MCDONALD'S"), nor a place ("JORDAN'S CAPITAL").
        return bool(
            _A_POSSESSIVE_IN_CAPITALS.match(text, end)
            and not _A_PLACE_S_PREPOSITION_BEFORE.search(before)
            and not place
        )
    after = _NEXT_WORD_IN_CAPITALS.match(text, end)
    following = after.group(1).casefold() if after else ""
    if (
        following
        and _A_PREPOSITION_IN_CAPITALS_BEFORE.search(before)
        and _a_noun_not_a_name(following)
    ):
        return False  # "FOR YOUNG CHILDREN", "DELIVER TO HILL ROAD", "WITH WOOD FLOORING"
    if place:
        # "DELIVER TO JORDAN", "RECEIVED BY JORDAN"; not "SHIP TO JORDAN"
        if _HANDED_TO_IN_CAPITALS_BEFORE.search(before) or _A_PERSON_S_NOT_A_PLACE_S_BEFORE.search(
            before
        ):
            return True
    elif _A_PERSON_S_PLACE_IN_CAPITALS_BEFORE.search(before) and not (
        _A_BARE_BY_WITH_FROM.search(before) and not _A_PERSON_S_BY_WITH_FROM.search(before)
    ):
        return True
    # Before what a person does ("FARMER SIGNED FOR IT"; not "PRICE WENT UP").
    return following in _A_PERSON_S_DEED_IN_CAPITALS


def _a_noun_not_a_name(folded: str) -> bool:
    """Whether ``folded``, the word after a name in capitals, is a noun or
    an adjective it could qualify ("CHILDREN", "ROAD", "CARD", "FLOORING"),
    not a time ("TOMORROW", "DOWNSTAIRS": adverbs too), a verb after a
    subject, nor a name ("BAKER SMITH")."""
    from miner.redaction.lexicon.names import a_surname_more_than_a_word
    from miner.redaction.lexicon.wordclass import word_classes

    classes = word_classes(folded)
    return (
        bool(classes & {"NOUN", "ADJ"} or (classes == {"VERB"} and folded.endswith("ing")))
        and "ADV" not in classes
        and folded not in stop_words()
        and folded not in _A_PERSON_S_DEED_IN_CAPITALS
        and not a_first_name(folded)
        and not a_surname_more_than_a_word(folded)
    )


_NEXT_WORD_IN_CAPITALS = re.compile(r"[ \t]+([A-Z]+)\b")
#: "BY", "WITH", "FROM" alone say a thing's as often ("SERVED WITH RICE",
#: "SORT BY PRICE", "TRANSFER FROM CHASE"): a person's place only after a
#: deed's participle or a phrasal verb ("RECEIVED BY", "DROPPED OFF BY"), a
#: verb of leaving or talking ("LEFT WITH", "SPOKE WITH"), or a message's
#: word or a line's start ("LETTER FROM", "FROM BUTLER:"; review27's probes:
#: 7 of 13 wrong decisions gone, none of 30 persons lost).
_A_BARE_BY_WITH_FROM = re.compile(r"(?<![\w'’-])(?:BY|WITH|FROM)[.:,]?[ \t]+\Z")
_A_PERSON_S_BY_WITH_FROM = re.compile(
    r"(?:(?<![\w'’-])[A-Z]+(?:ED|EN)|[A-Z]+[ \t]+(?:OFF|UP|IN|OUT)"
    r"|(?<![\w'’-])(?:SENT|HELD|LEFT|TOOK|PAID|SIGNED|MADE))[ \t]+BY[ \t]+\Z"
    r"|(?<![\w'’-])(?:LEFT|LEAVE|SPOKE|SPEAK|SPOKEN|TALKED|TALK|CHAT|CHATTED|MET|MEET|MEETING"
    r"|CHECK|CHECKED|CONFIRM|CONFIRMED|STAYING|STAYED)[ \t]+WITH[ \t]+\Z"
    r"|(?:\A|[\n:;.]|(?<![\w'’-])(?:RECEIVED|HEARD|MESSAGE|CALL|EMAIL|E-MAIL|LETTER|NOTE|REPLY"
    r"|PARCEL|PACKAGE|QUOTE|INVOICE|CARD|GIFT|RETURN))[ \t]*FROM[.:,]?[ \t]+\Z"
)
_A_COMMA_AT_THE_END = re.compile(r"[ \t]*,[ \t]*\Z")
#: What a person does after their name: "FARMER SIGNED FOR IT", "HILL
#: MOVED AWAY" (not a modal: "PRICE WILL GO UP"; nor a verb a thing does
#: as often: "PRICE CHANGED").
_A_PERSON_S_DEED_IN_CAPITALS = frozenset(
    (
        "said",
        "says",
        "signed",
        "signs",
        "called",
        "phoned",
        "rang",
        "emailed",
        "took",
        "collected",
        "received",
        "refused",
        "moved",
        "asked",
        "told",
        "wrote",
        "replied",
        "promised",
        "confirmed",
        "agreed",
        "accepted",
        "answered",
        "lives",
        "lived",
        "wants",
        "wanted",
        "needs",
        "picked",
    )
)
