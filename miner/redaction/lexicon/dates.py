"""Dates as people write them, in English and the default regions' languages
(month and weekday names from CLDR), and the birth cues that make a date
personal ("born on 3 May 1970", "3 May 1970 is my birthday")."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from typing import Literal

from miner.derived import kept

#: An English month name or its abbreviation, as a regex (no flags: wrap it in
#: ``(?i:...)``); dates and street lines ("12 May 2026" is no street) read it.
MONTH_REGEX = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)


#: An English weekday name, as a regex (lower case: wrap it in ``(?i:...)``).
WEEKDAY_REGEX = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"


#: The default regions' languages other than English, by the CLDR locales
#: that name their months (Austria's "Jänner", Peru's "setiembre").
_CALENDAR_LOCALES = ("de", "de_AT", "fr", "es", "es_PE", "it", "nl", "pt")


@kept
def calendar_words() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """Month names, their abbreviations, and weekday names of
    ``_CALENDAR_LOCALES``, in lower case, from CLDR (babel) rather than our
    own lists. Each is also written as people type it without accents
    ("aout", "fevrier", "maerz"), and a weekday of two words by its first
    ("terça" of "terça-feira")."""
    from babel.dates import get_day_names, get_month_names

    def spellings(words: Iterable[str]) -> frozenset[str]:
        lower = {w.lower().rstrip(".") for w in words}
        return frozenset(
            lower
            | {unaccented(w) for w in lower}
            | {w.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue") for w in lower}
        )

    def each(kind: Literal["wide", "abbreviated"]) -> list[str]:
        return [w for loc in _CALENDAR_LOCALES for w in get_month_names(kind, locale=loc).values()]

    days = [w for loc in _CALENDAR_LOCALES for w in get_day_names("wide", locale=loc).values()]
    return (
        spellings(each("wide")),
        spellings(each("abbreviated")),
        spellings([*days, *(d.split("-")[0] for d in days if "-" in d)]),
    )


def unaccented(text: str) -> str:
    """``text`` without its combining accents ("Émile" -> "Emile"), as people type it."""
    if text.isascii():
        return text  # NFKD leaves ASCII as it is, and it holds no accent
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


@functools.cache
def _date_regex() -> str:
    """A date in the formats people write one: numeric (day, month and year
    in any order and separator), or with the month's name or abbreviation
    in English or a default region's language ("May 3rd, 1970", "3 de mayo
    de 1970", "3. März 1970", "1er mai 1970"), maybe after a weekday."""
    months, abbreviations, days = calendar_words()
    foreign = "|".join(sorted(map(re.escape, months | abbreviations), key=len, reverse=True))
    weekday = "|".join(sorted(map(re.escape, days), key=len, reverse=True))
    month = rf"(?:{MONTH_REGEX}|(?:{foreign})\.?)"
    return (
        rf"(?i:(?:(?:{WEEKDAY_REGEX}|{weekday}),?\s+)?(?:\d{{1,4}}[./\-\s]\d{{1,2}}[./\-\s]\d{{2,4}}"
        rf"|\d{{1,2}}(?:st|nd|rd|th|er|º|\.)?\s+(?:of\s+|de\s+)?{month}(?:\s+de)?,?\s+\d{{4}}"
        rf"|{month}\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}))(?!\w)"
    )


#: Words that say a date is a birth date, in English (with its abbreviations)
#: and the default regions' languages, inflected.
_BIRTH = (
    r"(?i:\b(?:born|births?|birth\s*dates?|date\s+of\s+birth|d\.?o\.?b\.?|birthdays?|b-?days?"
    r"|geburtsdatum|geburtstag|geboren|geb\.|née?s?|naissance|anniversaire|nacid[oa]s?"
    r"|nacimiento|cumpleaños|nat[oa]|nascita|compleanno|geboortedatum|verjaardag"
    r"|nascid[oa]s?|nascimento|aniversário)(?!\w))"
)


#: What may stand between a cue and its date: a few words of the same
#: sentence ("born in Lyon on", "date of birth is listed as", "born at 3 am
#: on"); a dot only inside an abbreviation ("D.O.B."), not at a sentence's
#: end; a number of at most three digits, not a year ("born in 1980, I
#: ordered it on ...": the date is the order's).
_SAME_SENTENCE = r"(?:[^.!?\n\d]|\.(?!\s)|(?<!\d)\d{1,3}(?![\d/.-]\d)){0,60}?"


#: What stands between a cue and the date it names right after it ("born
#: 1984-03-12", "birthday is 3 May"): a cue with its own date is not about
#: the date before it ("my card expires 2027-04-30 and I was born
#: 1984-03-12": the expiry date is no birth date).
_CUE_TO_ITS_DATE = r"[ \t]*(?:[:=]|\b(?:is|was|on)\b)?[ \t]*"


@functools.cache
def dob_cue_regexes() -> tuple[str, str]:
    """A date near a birth cue, after it or before it ("born on 3 May 1970",
    "3 May 1970 is my birthday"), or on the line under a form's label ("Date
    of birth:\n03/05/1970"): personal. Other dates are not (an order's date
    is what a case needs)."""
    date = _date_regex()
    return (
        rf"{_BIRTH}(?:[ \t]*:?[ \t]*\n[ \t]*|{_SAME_SENTENCE})(?P<value>{date})",
        rf"(?P<value>{date})(?:[^.!?\n\d]|\.(?!\s)){{0,30}}?{_BIRTH}(?!{_CUE_TO_ITS_DATE}{date})",
    )


@functools.cache
def _birth_cue_search() -> tuple[re.Pattern[str], re.Pattern[str], int]:
    """Where a birth cue starts, the date-before-cue pattern, and how many
    characters other than blanks a match holds before its cue at most: 30
    between the date and the cue, and the date's own (a weekday, a month and
    about fifteen more: a day, its suffix, "of", "de", a year)."""
    months, abbreviations, days = calendar_words()
    longest = max(map(len, (*months, *abbreviations, *days, "wednesday", "september")))
    return re.compile(rf"(?={_BIRTH})"), re.compile(dob_cue_regexes()[1]), 2 * longest + 50


def dates_before_birth_cues(text: str) -> Iterator[re.Match[str]]:
    """``re.finditer(dob_cue_regexes()[1], text)``, tried only where a match
    can start: within reach of a birth cue. Tried at every place of a long
    text, the date pattern cost a second of CPU per 256 KiB; cues are few."""
    cue, pattern, reach = _birth_cue_search()
    windows: list[list[int]] = []
    for found in cue.finditer(text):
        end = start = found.start()
        counted = 0
        while start > 0 and counted < reach:
            start -= 1
            counted += not text[start].isspace()
        if windows and start <= windows[-1][1] + 1:
            windows[-1][1] = end
        else:
            windows.append([start, end])
    position = 0
    for start, end in windows:
        for at in range(max(start, position), end + 1):
            if at >= position and (match := pattern.match(text, at)):
                yield match
                position = match.end()


@functools.cache
def _a_date() -> re.Pattern[str]:
    return re.compile(_date_regex())


def dates_near_birth_cues(text: str, reach: int = 120) -> Iterator[tuple[int, int]]:
    """(start, end) of each date within ``reach`` characters of a birth
    cue, whatever stands between ("DOB on file, see the form: 1984-10-08"):
    a date the cue rules did not take may still be a birth date. Only the
    windows around cues are read (cues are few in a long text)."""
    cue = _birth_cue_search()[0]
    position = 0
    for found in cue.finditer(text):
        start = max(position, found.start() - reach)
        end = min(len(text), found.start() + reach)
        if start >= end:
            continue
        for match in _a_date().finditer(text, start, end):
            yield match.span()
        position = end
