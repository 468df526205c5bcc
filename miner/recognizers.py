"""miner's own Presidio recognizers, and the shape checks the leak guard shares.

Presidio's stock recognizers miss shapes that agent traces are full of (see
docs/redaction.md): a phone number without a context word
scores 0.4, under any useful threshold; the card regex has no Mastercard
2-series; an unformatted SSN scores 0.05 even after "ssn"; there is no street
address recognizer. Each class here fixes one of those with Presidio's own
mechanisms (recognizers, context words, validation), so the analyzer's
threshold, allow list and context enhancer still apply.

Presidio is imported lazily by ``build_recognizers``: the shape checks at the
bottom are plain Python and are what ``miner check`` and the leak guard use.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

#: Regions whose national formats (no leading +) phone detection understands.
#: Numbers written with +country code are found whatever the list.
DEFAULT_PHONE_REGIONS: tuple[str, ...] = (
    "US", "GB", "IE", "FR", "DE", "ES", "IT", "NL", "IN", "AU", "BR", "MX", "JP", "SG", "ZA",
)  # fmt: skip


def _street_suffixes() -> tuple[str, ...]:
    """USPS Publication 28's street suffixes and their variants, as pyap (an
    address parser) lists them, plus the UK street words that list lacks."""
    from pyap.source_US.data import street_type_list

    uk = ("Close", "Rise", "Parade", "Wharf", "Yard", "Gate", "Embankment", "Drove", "Chase",
          "Approach", "Quay", "Wynd", "Croft")  # fmt: skip
    return tuple(sorted({w.title() for w in (*street_type_list, *uk)}, key=len, reverse=True))


STREET_SUFFIXES = _street_suffixes()
#: The suffixes as written, and in capitals ("1075 BARLOW STREET").
_SUFFIXES = "|".join((*STREET_SUFFIXES, *(s.upper() for s in STREET_SUFFIXES)))

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"

#: Capital letters of the scripts addresses are written in here: Latin,
#: Greek and Cyrillic ("Života", "Μεγάλη Άμμος", "ΛΕΜΕΣΟΣ").
_UPPER = "A-Z" + "".join(c for c in map(chr, range(0xC0, 0x530)) if c.isupper())
#: Words of an address line.
_CAP = rf"(?:[dlDL]['’]|['’]?[sS]-)?[{_UPPER}][^\W\d_]*(?:['’.][^\W\d_]*)*(?:-[^\W\d_]+)*"
_PARTICLE = (
    r"(?:de|del|della|delle|dei|di|da|do|dos|das|des|du|la|le|les|el|los|las|van|von|der|den"
    r"|het|ter|y|e|d'|l')"
)
_NUMBER = r"\d{1,5}[A-Za-z]?(?:\s?[-/]\s?\d{1,4}[A-Za-z]?)?(?:\s?(?:bis|ter))?"
_UNIT = (
    r"(?:Apt|Apartment|Flat|Studio|Suite|Ste|Unit|Floor|Fl|Room|Rm|Bldg|Building|Piso|Piano"
    r"|Appartamento|Interno|Scala|Puerta|Escalera|Étage|Etage|Bâtiment|Wohnung|Whg|Bus)"
)
UK_POSTCODE_REGEX = r"\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b"
_POSTCODE = (
    rf"(?:{UK_POSTCODE_REGEX[2:-2]}|\d{{4}}\s?[A-Z]{{2}}|(?:[A-Z]{{1,2}}-)?\d{{4,5}}(?:-\d{{4}})?"
    r"|\d{2}-\d{3}|\d{3}-\d{4}|\d{5}-\d{3})"
)
#: Street types written before the name ("Via Roma", "rue de la Paix", "Calle
#: Mayor", "Λεωφόρος Αλκυονίδων", "ул. Ленина"): Italian, Spanish, Catalan,
#: Portuguese, French, Polish, Greek and Russian.
_STREET_TYPES_BEFORE = (
    r"(?:Via|Viale|Piazza|Piazzale|Strada|Contrada|Stretto|Rotonda|Canale|Borgo|Corso|Largo"
    r"|Vicolo|Vico|Calle|C/|Avenida|Avinguda|Av\.|Alameda|Cañada|Glorieta|Paseo|Passeig|Plaza"
    r"|Plaça|Camino|Carrer|Carretera|Ronda|Rambla|Travesía|Travessera|Callejón|Pasaje|Acceso"
    r"|Cuesta|Vial|Pasadizo|Bajada|Bulevar|Senda|Rúa|Barranco"
    r"|Urbanización|Vía|Rua|Travessa|Praça|Estrada|[Uu]l\.|Οδός|Οδ\.|Λεωφόρος|Λεωφ\.|Λ\.|Πλατεία"
    r"|ул\.|улица|пр\.|проспект|пер\.|переулок|(?i:rue|avenue|boulevard|chemin|allée"
    r"|impasse|quai)|(?:[Pp]lace|[Cc]ours|[Rr]oute|[Pp]assage|[Ss]quare)(?=\s+(?:de|du|des|d')))"
)
#: Street words glued to the name ("Schulstraße", "Noahlaan", "Storgatan",
#: "Kaupangsstræti") or written after it ("Síp utca"): German, Dutch, Nordic,
#: Icelandic, Hungarian and the Slavic and Baltic languages.
_STREET_ENDINGS = (
    r"(?:stra(?:ß|ss)e|str\.|allee|weg|gasse|platz|ring|damm|ufer|steig|pfad|chaussee"
    r"|laan|straat|steeg|plein|gracht|kade|singel|hof|dreef|pad|baan|dijk|markt|wal|boulevard"
    r"|gade|vej|gatan|vägen|gata|väg|veien|gate|katu|tie|stræti|vegur|braut)"
)
_STREET_AFTER = r"(?:utca|út|tér|körút|krt\.|fasor|u\.|ulica|ulice|cesta|iela|gatvė|tänav|maantee)"
#: The endings that name a street without a number after them ("Börnerallee"),
#: or written apart before its number ("Landsberger Allee 2", "Grote Baan 477");
#: a short glued one needs its number either side, or a hyphen before it
#: ("Gerhild-Zimmer-Ring", "82 Maaikering"): "Spring", "Manufacturing" and
#: "Seagate" are no streets, and "Gate 12" is at an airport.
_STREET_ENDINGS_ALONE = (
    r"(?:stra(?:ß|ss)e|str\.|allee|gasse|platz|chaussee|weg|laan|straat|steeg|gracht|singel"
    r"|dreef|boulevard|gatan|vägen|veien|baan|stræti|vegur)"
)
#: A word that starts no street name: "The Ring 3", "The Northgate", and in a
#: text typed in lower case "3 tickets for the park".
_NOT_A_DETERMINER = r"(?!(?i:the|a|an|this|that|our|your|my|for|to|in|on|at|of|and|or|with)\b)"
#: A capitalised word after a street line that makes it something else.
_NO_NAME_AFTER = rf"(?![ \t]+(?!{_UNIT}\b)(?-i:[A-Z][a-z]))"


def _street_lines(lower: bool) -> list[str]:
    """The first line of an address, in the formats of the default regions.
    For a text typed in lower case only the lines a street word and a number
    anchor, with the street words that are no common English word ("2 points",
    "5 minutes way", "send via email", "thank u. 12" are no addresses)."""
    name = rf"(?:{_NOT_A_DETERMINER}{_CAP}[ \t]+)"
    suffix = _LOWER_CASE_SUFFIXES if lower else _SUFFIXES
    types_before = _LOWER_CASE_TYPES_BEFORE if lower else _STREET_TYPES_BEFORE
    # A number after the name: needed in lower case unless one came before.
    number = rf"(?:,?[ \t]+(?:n\.?[ \t]?|nº[ \t]?|no\.?[ \t]?)?{_NUMBER}\b\.?)"
    number_after = rf"(?(number_before)|{number})" if lower else rf"{number}?"
    after = _LOWER_CASE_STREET_AFTER if lower else _STREET_AFTER
    lines = [
        # US and UK: "12 Baker Street", "225 E. John Carpenter Freeway".
        rf"\b{_NUMBER},?[ \t]+(?:(?:[NSEW]\.?|North|South|East|West)[ \t]+)?{name}{{0,3}}"
        rf"(?:{suffix})(?:\b|(?<=\.))\.?{_NO_NAME_AFTER}",
        # Type before the name, maybe a number either side: "Via Roma, 3", "18, rue de Pineau".
        # In lower case, a number either side ("44 rue victor hugo").
        rf"(?P<number_before>\b{_NUMBER},?[ \t]+)?(?<!\w){types_before}[ \t]+"
        rf"(?:(?:{_PARTICLE}|{_CAP})[ \t]+){{0,4}}(?:{_CAP}){number_after}",
        # The street word glued or after: "Schulstraße 59", "Síp utca 17.".
        rf"(?:\b{_NOT_A_DETERMINER}{_CAP}[ \t])?\b(?:[sS]-)?{_NOT_A_DETERMINER}"
        rf"[{_UPPER}][\w'’-]{{2,}}?"
        rf"(?:(?i:{_STREET_ENDINGS})[ \t]{_NUMBER}\b\.?|(?<=-)(?i:{_STREET_ENDINGS})\b"
        rf"|(?i:{_STREET_ENDINGS_ALONE})(?:(?<=\.)|\b))",
        # The street word written apart, then its number: "Landsberger Allee 2".
        rf"\b{name}{{1,2}}(?i:{_STREET_ENDINGS_ALONE})[ \t]{_NUMBER}\b\.?",
        rf"\b{name}{{1,2}}{after}[ \t]{_NUMBER}\b\.?",
        # Military: "PSC 1234, Box 5678", "USNS Melikov", then "APO AE 09876"; "P.O. Box 211".
        r"\b(?:(?:PSC|Unit|CMR)\s\d{3,5},?\s+Box\s\d{3,5}|(?:USNS|USNV|USS|USCGC)\s[A-Z]\w+)"
        r"|(?i:\bp\.?[ ]?o\.?[ ]?box[ \t]\d{1,6}\b)"
        r"|\b(?:APO|FPO|DPO)[ \t](?:AA|AE|AP)[ \t]\d{5}\b",
        # "the corner of X and Y".
        rf"(?i:\b(?:the[ \t]+)?corner[ \t]+of)[ \t]+(?:{_NUMBER}[ \t]+)?"
        rf"(?:(?:{_CAP}|{_PARTICLE})[ \t]+){{0,3}}"
        rf"{_CAP}(?:[ \t]+{_NUMBER})?(?:[ \t]+St\.)?[ \t]+(?i:and|&)[ \t]+(?:{_NUMBER}[ \t]+)?"
        rf"(?:(?:{_CAP}|{_PARTICLE})[ \t]+){{0,3}}{_CAP}(?:[ \t]+{_NUMBER})?(?:[ \t]+St\.)?",
    ]
    if lower:
        return lines
    return [
        *lines,
        # Japan: a block number before or after its district ("1-2-3 Shibuya",
        # "Roppongi 6-10-1"), or written in kanji ("東京都渋谷区渋谷1-2-3").
        rf"\b\d{{1,4}}-\d{{1,4}}(?:-\d{{1,4}})?,?[ \t]+{_CAP}",
        rf"{_CAP}[ \t]+\d{{1,3}}-\d{{1,3}}-\d{{1,3}}\b",
        r"(?:〒\s?\d{3}-\d{4}\s*)?[一-龯ぁ-んァ-ン]{1,12}[市区町村郡][一-龯ぁ-んァ-ン]*"
        r"[0-9０-９]{1,4}(?:(?:[-－−の]|丁目|番地?|号)[0-9０-９]{0,4}){1,4}",
        # A unit, then maybe a number: "Flat 6", "Apt. 066 12 Main Street".
        rf"\b{_UNIT}\.?[ \t]\d+[A-Za-z]?\b",
        # "Baker Street" with no number, or the number before the street word
        # ("Ööbiku 86 street"): only the commonest street words.
        rf"\b{name}{{1,3}}(?:{_NUMBER}[ \t]+)?(?:Street|street|St\.|Road|Avenue|Lane|Drive"
        rf"|Boulevard|Close|Crescent|STREET|ROAD|AVENUE|LANE|DRIVE)(?=[\s,.;:?!]|$){_NO_NAME_AFTER}",
        # A number before a glued street word: "82 Maaikering", "637 Catharinaring".
        rf"\b{_NUMBER},?[ \t]+{_NOT_A_DETERMINER}[{_UPPER}][\w'’-]{{2,}}?(?i:{_STREET_ENDINGS})\b"
        rf"{_NO_NAME_AFTER}",
        # A number, a name, a number: "893 Allika 46", "903 Λ. Αλκυονίδων 241"
        # (in lower case, any "2 more in 3").
        rf"\b\d{{1,5}}[ \t]+(?!(?i:{_MONTH}|{_WEEKDAY})\b){name}{{1,3}}\d{{1,5}}[A-Za-z]?\b",
    ]


#: "u." typed in lower case only before a Hungarian house number ("u. 93."), not "thank u. 12".
_LOWER_CASE_STREET_AFTER = (
    r"(?:utca|út|tér|körút|u\.(?=[ \t]\d+\.)|ulica|ulice|cesta|iela|gatvė|tänav)"
)
#: Street types typed in lower case that are no common English word ("via", "plaza").
_LOWER_CASE_TYPES_BEFORE = (
    r"(?:calle|carrer|avenida|avinguda|viale|piazza|piazzale|strada|vicolo|rue|rua|praça"
    r"|travessa|paseo|passeig|plaça|carretera|rambla|glorieta|callejón|pasaje|travesía|ul\."
    r"|chemin|allée|impasse|quai)"
)
#: Street words typed in lower case that are no common English word.
_LOWER_CASE_SUFFIXES = (
    r"street|st\.|road|rd\.|avenue|ave\.?|lane|ln\.|drive|dr\.|boulevard|blvd\.?|highway"
    r"|hwy\.?|parkway|pkwy\.?|terrace|crescent|freeway|expressway|turnpike"
)


_BREAK = r"[ \t]*\n[\s>?,]*"
_TOWN = (
    rf"{_CAP}(?:[\s-](?:{_CAP}|{_PARTICLE}|nad|am|an|im|sur|sous|en|aan|op|bei|upon|on)){{0,4}}"
    r"(?:\s\([^\W\d_]+\))?"
)
_PART_END = r"(?=[ \t]*(?:\n|$|,))"


@dataclass(frozen=True)
class _AddressPatterns:
    """The address regexes, compiled for text as written or typed in lower case."""

    street_line: re.Pattern[str]
    name_and_number: re.Pattern[str] | None
    next_part: re.Pattern[str]
    town_line: re.Pattern[str]
    postcode_ahead: re.Pattern[str]

    @classmethod
    def compile(cls, lower: bool) -> _AddressPatterns:
        flags = re.IGNORECASE if lower else 0
        suffixes = "|".join(STREET_SUFFIXES)
        street_line = (
            # A house number before the street line, or a second one ("893 Allika 46").
            rf"(?:\b{_NUMBER},?[ \t]+){{0,2}}"
            rf"(?:{'|'.join(f'(?:{line})' for line in _street_lines(lower))})"
        )
        #: A name and a number: an address only when a postcode, town or unit
        #: follows ("Kadaka 10\n10615 Tallinn", "C. de Calisto Roman 76\nSanta Cruz, 49219").
        name_and_number = (
            rf"(?:\b\d{{1,5}}[ \t]+)?\b(?!(?i:{_MONTH}|{_WEEKDAY})\b)"
            rf"(?:{_CAP}[ \t](?:(?:{_CAP}|{_PARTICLE})[ \t]){{0,3}})?{_CAP},?[ \t]{_NUMBER}\b"
        )
        #: What may follow a street line: a unit, a postcode and town, a town and
        #: state and ZIP, a country and postcode, a town alone before a comma or
        #: the line's end (not in lower case, where that is any word).
        town_alone = rf"|,[ \t]*{_TOWN}(?=[ \t]*(?:[\n,.;:!?)]|$))|[ \t]+{_TOWN}(?=[ \t]*(?:\n|$))"
        next_part = (
            rf"(?:,\s*|{_BREAK}|\s)"
            rf"(?:(?i:{_UNIT})\.?\s*\#?\d+[A-Za-z]?\b|\#\d+\b|\d{{1,2}}\s?[º°ª](?:\s?[A-Z]\b)?"
            rf"|(?:{_CAP}[ \t]+){{1,3}}(?:{suffixes})\b\.?"
            rf"|{_POSTCODE}(?:,?\s+{_TOWN})?(?![\w-])"
            rf"|{_TOWN},?\s+(?:[A-Za-z]{{2,3}}\s+\d{{5}}(?:-\d{{4}})?|{_POSTCODE})(?![\w-])"
            rf"|[A-Z]{{2}}\s+\d{{5}}(?:-\d{{4}})?\b)"
            rf"{'' if lower else town_alone}"
        )
        #: A line holding only a town, a state, or a street with no number ("Flat 6\nCheryl Cape").
        town_line = (
            rf"{_BREAK}(?:(?:{_CAP}\s+){{1,3}}(?:{suffixes})\b\.?|{_TOWN}|[A-Z]{{2}}){_PART_END}"
        )
        postcode_ahead = (
            rf"(?:,\s*|{_BREAK})(?:{_TOWN},?\s+{_POSTCODE}|{_POSTCODE},?\s+{_TOWN}|{_UNIT}\.?\s\d)"
            rf"(?![\w-])|[ \t]+{_UNIT}\.?\s\d"
        )
        return cls(
            street_line=re.compile(street_line, flags),
            # In lower case any "page 5, see 2020 edition".
            name_and_number=None if lower else re.compile(name_and_number),
            next_part=re.compile(next_part, flags),
            town_line=re.compile(town_line, flags),
            postcode_ahead=re.compile(postcode_ahead, flags),
        )


_ADDRESSES = {lower: _AddressPatterns.compile(lower) for lower in (False, True)}
#: The first street of two, before the one found: "Života and Kálmán Imre u. 12.".
_FIRST_OF_TWO_STREETS = re.compile(rf"(?<![\w.])(?:{_CAP}[ \t]+){{1,3}}(?i:and|&)[ \t]+$")


#: A line break written as the two characters \\n or \\r: a document quoted
#: inside a JSON string (a tool's result often is one). NER and the
#: recognizers read it as a break, so a name or a street starts its line.
_ESCAPED_BREAK = re.compile(r"(?<!\\)\\[nr]")


def read_escaped_breaks(text: str) -> str:
    """``text`` with each escaped line break read as a real one (" \\n":
    the same length, so spans found in it index ``text``)."""
    return _ESCAPED_BREAK.sub(" \n", text) if "\\" in text else text


def find_addresses(text: str) -> Iterator[tuple[int, int]]:
    """Spans of street addresses: a street line in one of the formats above,
    and the unit, postcode, town and state parts that follow it (on the same
    line after a comma, or on the next lines). A street typed in lower case
    ("293 jennifer greens st.") is read by the lines a street word anchors."""
    found = [(start, end, _ADDRESSES[False]) for start, end in _starts(text, _ADDRESSES[False])]
    found += [
        (start, end, _ADDRESSES[True])
        for start, end in _starts(text, _ADDRESSES[True])
        if not any(c.isupper() for c in text[start:end])
    ]
    for start, end, patterns in sorted(found, key=lambda f: f[:2]):
        if before := _FIRST_OF_TWO_STREETS.search(text, max(0, start - 60), start):
            start = before.start()
        lines = 0
        while lines < 5:
            part = patterns.next_part.match(text, end) or patterns.town_line.match(text, end)
            if not part or part.end() == end:
                break
            end, lines = part.end(), lines + 1
        yield start, end


def _starts(text: str, patterns: _AddressPatterns) -> Iterator[tuple[int, int]]:
    for m in patterns.street_line.finditer(text):
        yield m.span()
    if patterns.name_and_number is not None:
        for m in patterns.name_and_number.finditer(text):
            if patterns.postcode_ahead.match(text, m.end()):
                yield m.span()


_LATIN = [chr(c) for c in range(0xC0, 0x250) if chr(c).isalpha()]
_UP = "A-Z" + "".join(c for c in _LATIN if c.isupper())
_LO = "a-z" + "".join(c for c in _LATIN if c.islower())
#: A word of a name: capitalised ("Šebková", "O'Neil", "Barth-Rosenow") or in
#: capitals ("ARAUJO"), as people write in a form or a shouted message.
_NAME_WORD = (
    rf"(?:[{_UP}][{_LO}]+(?:(?:-|['’](?![sS](?![\w])))[{_UP}]?[{_LO}]+)?"
    rf"|[{_UP}]{{2,}}(?:(?:-|['’](?!S(?![\w])))[{_UP}]{{2,}})?)"
)
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
))  # fmt: skip


def _name_affixes() -> tuple[str, str, str]:
    """Regexes of a title written before a name ("Dr", "Herr", "Mevr.",
    "Dipl.-Ing."), a degree or generation after it ("MBA", "Jr.", "B.Eng.")
    and a particle inside it ("de", "van den", "Le"), from nameparser's
    lists (Latin script; a title no longer than four letters or with a dot,
    as the long ones are jobs: "actor", "banker"), plus any capitalised
    abbreviation with a dot ("Dott.", "Univ.Prof.", "B.Sc.")."""
    from nameparser.config import CONSTANTS

    def latin(words: Any) -> list[str]:
        return sorted((w for w in words if re.fullmatch(r"[a-z.'’-]+", w)), key=len, reverse=True)

    titles = [t for t in latin(CONSTANTS.titles) if ("." in t or len(t) <= 4)
              and t.title() not in NOT_NAMES]  # fmt: skip
    degrees = [d for d in latin([*CONSTANTS.suffix_acronyms, *CONSTANTS.suffix_not_acronyms])
               if len(d) > 1]  # fmt: skip
    listed = rf"(?i:{'|'.join(map(re.escape, titles))})\.?"
    abbreviation = rf"[{_UP}][{_LO}]{{0,4}}\.(?:-?[{_UP}]?[{_LO}]{{1,4}}\.?)?"
    title = rf"(?:{listed}|{abbreviation})"
    listed_degree = rf"(?=[{_UP}])(?i:{'|'.join(map(re.escape, degrees))})\.?"
    degree = rf"(?:{listed_degree}|(?:[{_UP}][{_LO}]{{0,3}}\.){{2,3}})"
    particle = rf"(?:{'|'.join(map(re.escape, latin(CONSTANTS.prefixes)))})"
    return title, degree, particle


_TITLE, _DEGREE, _NAME_PARTICLE = _name_affixes()
_A_TITLE = re.compile(_TITLE)
_A_DEGREE = re.compile(_DEGREE)
# \Z, not $: $ also matches before a line break that ends the text searched,
# and a name never runs over a line break ("CDI Corp.\nRotonda Puglisi").
_TITLE_BEFORE = re.compile(rf"(?<![\w.])(?=[{_UP}]){_TITLE}[ \t]+\Z")
_NAME_BEFORE = re.compile(rf"(?<![\w.])({_NAME_WORD})[ \t]+(?:{_NAME_PARTICLE}[ \t]+)*\Z")
_NAME_AFTER = re.compile(rf"(?:[ \t]+{_NAME_PARTICLE})*[ \t]+({_NAME_WORD})(?!\w)")
#: A degree ends at a blank or a sentence's full stop ("Denis Radisch B.Sc.. Who").
_DEGREE_AFTER = re.compile(rf",?[ \t]+{_DEGREE}(?!\w|\.\w)")

#: A name after the words that introduce one: "my name is", "I'm", a sign-off,
#: a greeting ("Dear", "Sorry"), a relation ("my husband"), a title in the
#: default regions' languages ("Sig.", "Herr", "Mme"). The cue is
#: case-insensitive; the name is one to three capitalised words.
_NAME_CUE = (
    # Sign-offs, with the name on the same line or the next.
    r"(?:(?i:\bregards,?|\bthanks,?|\bthank you,?|\bcheers,?|\bsincerely,?|\bbest,)\s+"
    # Every other cue, with the name on the same line.
    r"|(?i:\bmy name is|\bname's|\bname is|\bname:|\bnamed|\bcall me|\bi am|\bi'm|\bthis is"
    r"|\bit's|\bdear|\bsorry,?|\bhi,?|\bhello,?|\bhey,?|\bunder|\bmy (?:husband|wife|partner|son"
    r"|daughter|mother|father|mom|mum|dad|brother|sister|friend|colleague|boss"
    r"|neighbou?r)(?:'s name)?"
    r"|\b(?:first|last|middle|family|sur|given) ?name(?: is|:)?|\bmr\.?|\bmrs\.?|\bms\.?|\bmiss"
    r"|\bdr\.?|\bprof\.?|\bsig\.(?:ra)?|\bsig\.na|\bdott\.(?:ssa)?|\bing\.|\bherr|\bfrau"
    r"|\bmme\.?|\bmlle\.?|\bm\.|\bsr\.?|\bsra\.?|\bd\.|\bdña\.|\bdhr\.|\bmevr\."
    r"|\bspeak (?:to|with)|\bask for|\bcontact|\bfollow up with)[ \t]+)"
)
#: Cues that say the next words are a name, whatever else they could be.
_NAMING_CUE = re.compile(
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
    r"(?i:\b(?:(?P<greeting>dear|sorry|thank you|thanks|hi|hello|hey)|my name is|name's|name is"
    r"|this is|call me|under|speak (?:to|with)|ask for|follow up with|mr\.?|mrs\.?|ms\.?|miss|dr\."
    r"|my (?:husband|wife|partner|son|daughter|mother|father|mom|mum|dad|brother|sister"
    r"|friend|colleague|boss))(?:'s name(?: is)?)?,?[ \t]+)"
    rf"(?P<value>[{_LO}]{{3,}})(?:[ \t]+(?P<surname>[{_LO}]{{2,}}(?:-[{_LO}]+)?))?(?![\w'’-])"
)
_BOOKING_TITLE = r"(?:MRS|MR|MSTR|MS|MISS|DR)"
_BOOKED_NAME = re.compile(
    rf"(?<![\w/])[{_UP}]{{2,}}(?:[-'’ ][{_UP}]{{2,}})?/"
    rf"(?P<given>[{_UP}]{{2,}}(?: (?!{_BOOKING_TITLE}\b)[{_UP}]{{2,}})?)"
    rf"(?:[ ]+(?P<title>{_BOOKING_TITLE}))?(?![\w/])"
)
_CLAUSE_END = re.compile(r"[ \t]*[.,;!?]")
_NAMES = rf"{_NAME_WORD}(?: {_NAME_WORD}){{0,2}}"
_LIST_AFTER = re.compile(rf"(?:,? and |,? & |, )({_NAMES})(?![\w'])")
_LIST_BEFORE = re.compile(rf"(?<![\w'])({_NAMES})(?:,? and |,? & |, )\Z")


#: Words around a NER "person" that make it a place: "I am in Lomm", "based
#: in Kamen", "returned to Ksar Beni Aissa", "Leek bridge", "Plauen station".
_PLACE_BEFORE = re.compile(
    r"(?i:\b(?:in|near|outside|around|visit(?:ed|ing)?|originally from|(?:flew|fly|moved|returned"
    r"|came|arrived|trip|travel(?:l?ing|l?ed)?)(?: here| back)? (?:to|from|at|in))\s+)$"
)
_PLACE_WORDS = (
    r"(?i:bridge|station|airport|harbou?r|river|valley|county|province|city|town|village"
    r"|district|cathedral|castle|lake|mountains?|beach|university|hospital|stadium|museum"
    r"|islands?|isles?)\b"
)
_PLACE_AFTER = re.compile(rf"\s+{_PLACE_WORDS}")


#: The default regions' languages other than English, by the CLDR locales
#: that name their months (Austria's "Jänner", Peru's "setiembre").
_CALENDAR_LOCALES = ("de", "de_AT", "fr", "es", "es_PE", "it", "nl", "pt")


@functools.cache
def _calendar_words() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
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
            | {_unaccented(w) for w in lower}
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


@functools.cache
def date_words() -> frozenset[str]:
    """Days and months in the default regions' languages other than English
    (which NOT_NAMES holds): "We'll meet Samstag at", "jueves". Less those
    that are first names too ("Julio", "Avril", "Mei"): a word that names a
    month and a person vetoes nothing."""
    months, _, days = _calendar_words()
    names = {_unaccented(name).casefold() for name in first_names()}
    return frozenset(w for w in months | days if _unaccented(w) not in names)


@functools.cache
def country_names() -> frozenset[str]:
    """Country and region names in the default regions' languages: CLDR's
    territories (babel: countries, and the continents and regions "Asia",
    "Latin America", "Europe") and libphonenumber's own region names (a
    value "*xx" points at language xx's name), which spell some countries
    otherwise. Those of another language than English that are first names
    too are left out: in an English sentence "Maurice" is a man more often
    than Mauritius."""
    from babel import Locale
    from phonenumbers.geodata.locale import LOCALE_DATA

    people = {name.casefold() for name in first_names()}
    names = set()
    for language in _REGION_LANGUAGES:
        found = list(Locale(language).territories.values())
        for by_language in LOCALE_DATA.values():
            name = by_language.get(language, "")
            found.append(by_language.get(name[1:], "") if name.startswith("*") else name)
        names |= {
            n.casefold() for n in found if n and (language == "en" or n.casefold() not in people)
        }
    return frozenset(names)


#: The default regions' languages.
_REGION_LANGUAGES = ("en", "de", "fr", "es", "it", "nl", "pt")


def names_no_person(text: str, start: int, end: int) -> bool:
    """A NER "person" at [start, end) that is a country's name, that its
    neighbours show to be a place, or that holds or comes before a place
    word ("Mayen bridge") or an organisation word ("Kimball Electronics
    Inc.", "the KBC Ancora CVA Orchestra")."""
    if (
        text[start:end].casefold() in country_names()
        or text[start:end].casefold() in date_words()
        or _A_THING_WORD.search(text, start, end)
        or any(pattern.match(text, end) for pattern in (_PLACE_AFTER, _ORGANISATION))
    ):
        return True
    return bool(_PLACE_BEFORE.search(text, max(0, start - 30), start)) and not text.startswith(
        ("'s", "’s"), end
    )


@functools.cache
def _stop_words() -> frozenset[str]:
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


@functools.cache
def _name_sets() -> tuple[frozenset[str], frozenset[str]]:
    """The first names, and those common in English. Only the two sets are
    kept: the dictionary they come from (a country-frequency string per name
    and gender) held 50 MiB more for the whole run, which put a 20-case
    draft over its 512 MiB bound."""
    from gender_guesser.detector import Detector
    from spacy.lang.en.stop_words import STOP_WORDS

    dictionary = Detector(case_sensitive=True).names
    names = frozenset(
        name
        for name in dictionary
        if len(name) > 2 and name.isalpha() and name.lower() not in STOP_WORDS
    )
    common = frozenset(
        name
        for name, frequencies in dictionary.items()
        if any(c.strip() and int(c, 16) >= 3 for values in frequencies.values() for c in values[:3])
    )
    return names, common


_CAPITALISED_RUN = re.compile(rf"(?<![\w.])({_NAME_WORD})((?:[ \t]+{_NAME_WORD}){{0,3}})(?![\w])")


#: Words that make a capitalised run an organisation ("Terra Catalyst Fund").
_ORGANISATION_WORDS = (
    r"(?i:inc|ltd|llc|plc|ag|asa|sa|s\.a|nv|bv|gmbh|spa|se|kgaa|oyj|k\.k|srl|sarl|co\.ltd"
    r"|corporation|limited|corp|co|company|companylimited|group|holdings?|fund|trust|bank"
    r"|capital|mines|energy|acquisition|international|partners|systems|technologies|industries"
    r"|etf|shares|orchestra|university|foundation|institute|association|club)\b"
)
_ORGANISATION = re.compile(rf"(?:[ \t]+[A-Z][\w.&/-]*){{0,5}}?[ \t]+{_ORGANISATION_WORDS}")


#: A place or organisation word anywhere in a hit, its first word too ("Note
#: Orchestra", "Inc. Orchestra": the model tags the word and a neighbour).
_A_THING_WORD = re.compile(rf"(?<![\w.])(?:{_PLACE_WORDS}|{_ORGANISATION_WORDS})(?!['’]?\w)")


_MODEL_NUMBER = re.compile(r"[ \t]+[A-Z0-9][\w-]*\d")


_DETERMINERS = frozenset(
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
        if rest and first in _stop_words() and first not in _DETERMINERS:
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
        while rest and (rest[-1].title() in NOT_NAMES or _A_DEGREE.fullmatch(rest[-1])):
            rest.pop()  # "Donata Mende MBA" is a name and a degree, not a product
        # Two given names start a name of any length ("Flora Dorotea Barrera
        # Company"); one given name and two more words is a product ("Aurora
        # Silk Pillowcase").
        double = bool(rest) and _known_first_name(rest[0], names)
        if (
            (len(rest) > 1 and not double)
            or _ORGANISATION.match(text, m.end(1))
            or _MODEL_NUMBER.match(text, m.end())
        ):
            continue
        words = list(re.finditer(r"\S+", m.group(2)))
        yield m.start(1), m.start(2) + words[len(rest) - 1].end() if rest else m.end(1)
    # A booking's SURNAME/GIVEN, maybe with a title ("SMITH/JOHN MR").
    for booked in _BOOKED_NAME.finditer(text):
        if booked.group("title") or _known_first_name(booked.group("given").split()[0], names):
            yield booked.span()
    # A name typed in lower case hides from NER and from the capitalised run.
    for cued in _LOWER_CASE_NAME_AFTER_CUE.finditer(text):
        first, surname = cued.group("value"), cued.group("surname")
        if first.title() in NOT_NAMES or first in _stop_words() or _A_TITLE.fullmatch(first):
            continue
        if surname and (surname in _stop_words() or surname.title() in NOT_NAMES):
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
        elif surname:
            yield cued.start("value"), cued.end("surname")
        else:
            yield cued.span("value")


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
    from wordfreq import zipf_frequency

    # The "small" list holds the words of Zipf 3 or more with the same
    # values as the full one, so every threshold from 3 up decides the same
    # (all 8,416 words of 3.9 or more checked); it costs 4 MiB of memory
    # where the full list costs 37.
    if zipf < 3:
        raise ValueError(f"Zipf threshold {zipf}: the small wordlist decides only 3 or more")
    return zipf_frequency(word, "en", wordlist="small") >= zipf


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
    return name in names or (not name.isascii() and _unaccented(name) in names)


def _unaccented(text: str) -> str:
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _complete_name(text: str, start: int, end: int) -> tuple[int, int]:
    """A name span grown over what belongs to it: a capitalised word glued
    to it each side and the particles between ("Flavio de Mayo", "Mason van
    den Velde"), titles before it ("Dr", "Dipl.-Ing.") and degrees after it
    ("B.Sc.", "MBA"); never over a line break."""
    before = _NAME_BEFORE.search(text, max(0, start - 60), start)
    if (
        before
        and before.group(1).title() not in NOT_NAMES
        and not _A_TITLE.fullmatch(before.group(1))
    ):
        start = before.start(1)
    while title := _TITLE_BEFORE.search(text, max(0, start - 30), start):
        start = title.start()
    after = _NAME_AFTER.match(text, end)
    if after and after.group(1).title() not in NOT_NAMES:
        end = after.end(1)
    while degree := _DEGREE_AFTER.match(text, end):
        end = degree.end()
    return start, end


def _list_members(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Spans of the names listed with the name at [start, end)."""
    position = end
    while (m := _LIST_AFTER.match(text, position)) and not _rejected(text, *m.span(1)):
        yield m.start(1), m.end(1)
        position = m.end(1)
    position = start
    while (m := _list_member_before(text, position)) and not _rejected(text, *m.span(1)):
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
    Magal Security Systems Ltd. and...")."""
    return any(w.title() in NOT_NAMES for w in text[start:end].split()) or names_no_person(
        text, start, end
    )


SSN_CUE_REGEX = (
    r"(?i:\b(?:ssn|social security(?: number| no\.?| #)?|social)\b)[\s:#\-is]{0,8}"
    r"(?P<value>\b\d{3}([- .]?)\d{2}\2\d{4}\b)"
)

#: 13-19 digits in groups of 4 (Visa, Mastercard, Discover, JCB, UnionPay) or
#: 4-6-5 / 4-6-4 (Amex, Diners), one separator style throughout, or none.
CARD_REGEX = (
    r"\b(?:\d{4}([ -]?)\d{4}\1\d{4}(?:\1\d{1,4}(?:\1\d{1,3})?)?"
    r"|\d{4}([ -]?)\d{6}\2\d{4,5})\b"
)

#: Card families by their first digit (ISO/IEC 7812 major industry
#: identifiers 2-6: airlines and travel (Amex, Diners, JCB), banking
#: (Visa, Mastercard, Maestro, Discover, UnionPay)). A number of 13-19
#: digits (12 for Maestro, 5 and 6) starting so (or JCB's 1800), Luhn-valid, is a card: the
#: issue found Maestro, JCB 2131 and 3597 numbers that an IIN table refused.
_CARD_FIRST_DIGITS = frozenset("23456")


@functools.cache
def _date_regex() -> str:
    """A date in the formats people write one: numeric (day, month and year
    in any order and separator), or with the month's name or abbreviation
    in English or a default region's language ("May 3rd, 1970", "3 de mayo
    de 1970", "3. März 1970", "1er mai 1970"), maybe after a weekday."""
    months, abbreviations, days = _calendar_words()
    foreign = "|".join(sorted(map(re.escape, months | abbreviations), key=len, reverse=True))
    weekday = "|".join(sorted(map(re.escape, days), key=len, reverse=True))
    month = rf"(?:{_MONTH}|(?:{foreign})\.?)"
    return (
        rf"(?i:(?:(?:{_WEEKDAY}|{weekday}),?\s+)?(?:\d{{1,4}}[./\-\s]\d{{1,2}}[./\-\s]\d{{2,4}}"
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


@functools.cache
def dob_cue_regexes() -> tuple[str, str]:
    """A date near a birth cue, after it or before it ("born on 3 May 1970",
    "3 May 1970 is my birthday"), or on the line under a form's label ("Date
    of birth:\n03/05/1970"): personal. Other dates are not (an order's date
    is what a case needs)."""
    date = _date_regex()
    return (
        rf"{_BIRTH}(?:[ \t]*:?[ \t]*\n[ \t]*|{_SAME_SENTENCE})(?P<value>{date})",
        rf"(?P<value>{date})(?:[^.!?\n\d]|\.(?!\s)){{0,30}}?{_BIRTH}",
    )


@functools.cache
def _birth_cue_search() -> tuple[re.Pattern[str], re.Pattern[str], int]:
    """Where a birth cue starts, the date-before-cue pattern, and how many
    characters other than blanks a match holds before its cue at most: 30
    between the date and the cue, and the date's own (a weekday, a month and
    about fifteen more: a day, its suffix, "of", "de", a year)."""
    months, abbreviations, days = _calendar_words()
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


#: A passport number after its name: 6-9 capitals and digits, one digit at least.
PASSPORT_CUE_REGEX = (
    r"(?i:\bpassport(?:\s+(?:number|no\.?|#))?(?:\s+is)?)[\s:#]{1,3}"
    r"(?P<value>(?=[A-Z]{0,3}\d)[A-Z0-9]{6,9})\b"
)

#: National ids of the default phone regions that python-stdnum validates,
#: as (module, letters in it): an id with letters (codice fiscale, DNI/NIE,
#: PAN) is unlike other numbers and scores on its own; an all-digit one
#: (NIR, BSN, CPF, Aadhaar, Steuer-ID) needs a context word, as a bare digit
#: run is as often an order or tracking number. The UK NI number has no stdnum
#: module: its shape (two letters, six digits, a letter) is checked here.
_NATIONAL_IDS = (
    "stdnum.it.codicefiscale", "stdnum.es.dni", "stdnum.es.nie", "stdnum.in_.pan",
    "stdnum.fr.nir", "stdnum.nl.bsn", "stdnum.br.cpf", "stdnum.in_.aadhaar", "stdnum.de.idnr",
)  # fmt: skip
#: Case-insensitive: a lower-case message writes "13857685r"; the checksum decides.
_NATIONAL_ID_CANDIDATE = re.compile(
    r"(?i)\b(?:[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]|[XYZ]?\d{7,8}-?[A-Z]|[A-Z]{5}\d{4}[A-Z]"
    r"|\d{3}\.\d{3}\.\d{3}-\d{2}|\d(?:[ ]?\d){8,14})\b"
)
_NI_NUMBER = re.compile(r"\b[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-Z]\b")
_NATIONAL_ID_CONTEXT = [
    "id", "identity", "national", "insurance", "social", "security", "ssn", "nir", "bsn",
    "cpf", "aadhaar", "fiscal", "fiscale", "dni", "nie", "tax", "steuer", "burgerservicenummer",
    "sécurité", "securite", "número", "numero",
]  # fmt: skip


def find_national_ids(text: str) -> Iterator[tuple[int, int, bool]]:
    """(start, end, has letters) of ids that a national-id checksum validates."""
    import importlib

    for m in _NI_NUMBER.finditer(text):
        yield m.start(), m.end(), True
    for m in _NATIONAL_ID_CANDIDATE.finditer(text):
        value = m.group(0)
        for name in _NATIONAL_IDS:
            if importlib.import_module(name).is_valid(value):
                yield m.start(), m.end(), any(c.isalpha() for c in value)
                break


_CASED = re.DOTALL | re.MULTILINE


def luhn_ok(digits: str) -> bool:
    from stdnum import luhn

    return bool(luhn.is_valid(digits))


def is_card_number(text: str) -> bool:
    """Luhn-valid, 13-19 digits (12 for Maestro) of a card family."""
    digits = re.sub(r"[ -]", "", text)
    if not digits.isdigit() or not (
        digits[0] in _CARD_FIRST_DIGITS
        or digits.startswith(("1800", "0604"))  # JCB's 15-digit 1800, Maestro's 0604
    ):
        return False
    if not (13 <= len(digits) <= 19 or (len(digits) == 12 and digits[0] in "056")):
        return False
    return luhn_ok(digits)


IBAN_REGEX = r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b"


def iban_ok(text: str) -> bool:
    """An IBAN by python-stdnum: the mod-97 checksum and the registry's
    structure of the country's account number (spaces allowed)."""
    from stdnum import iban

    return bool(iban.is_valid(text, check_country=False))


_PHONE_SEPARATED = re.compile(r"^\+|[\s().\-/]")


def phone_is_formatted(text: str) -> bool:
    """A number written the way people write phones: a leading + or separators.

    A bare run of 10 digits is as likely a tracking or account number; it
    counts as a phone only with a context word (Presidio's enhancer adds it)."""
    return bool(_PHONE_SEPARATED.search(text.strip()))


#: Dates and times, which libphonenumber reads as numbers ("31.347508+00").
_DATE_TIME = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
    r"|\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[+-]\d{2}:\d{2})?"
    r"|\b\d{1,2}([/.-])\d{1,2}\1\d{4}\b|\b\d{1,2}/\d{1,2}/\d{2}\b"
)


#: A number written as people write phones: a country code, a trunk "(0)",
#: an area code in brackets, groups of digits split by one kind of
#: separator, an extension ("x9773", "ext. 12").
_PHONE_SHAPE = re.compile(
    r"(?<![\w+/.-])(?:\+\d{1,3}[ .-]?)?(?:\(0\)[ ]?)?(?:\(\d{1,5}\)[ .-]?)?\d{1,15}"
    r"(?:[ .-]{1,2}\d{1,8}){0,5}(?P<ext>[ ]?(?:x|ext\.?|extension)[ ]?\d{1,6})?(?![\w+]|[.-]\d)"
)
_CARD_GROUPS = re.compile(r"\d{4}(?:([ -])\d{4}){2,3}")
_IP_GROUPS = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
#: Words before a number that make it something else than a phone.
_NOT_A_PHONE_BEFORE = re.compile(
    r"(?i:tracking|track|parcel|shipment|waybill|consignment|order|invoice|account|acct"
    r"|reference|ref|sku|item|serial|ticket|booking|case|iban|card)\W*(?:number|no\.?|n[º°]|id|#)?"
    r"\W{0,3}$"
)


#: Words that make a bare number a phone, up to three words before it
#: ("call me at 0183157312"). Presidio's own context enhancer gave these
#: numbers nothing in the third-party corpus (it looks only at a few tokens).
_PHONE_CUE_BEFORE = re.compile(
    r"(?i:\b(?:phone|telephone|tel|cell|mobile|call|reach|text|whatsapp|contact|callback|ring"
    r"|sms|messages?|fax|landline|dial|registered|office|desk)\b)\W*(?:\w+\W+){0,3}$"
)


def phone_spans(text: str, regions: tuple[str, ...]) -> Iterator[tuple[int, int, float]]:
    """(start, end, score) of numbers that are phones by their shape and by
    libphonenumber. A formatted number libphonenumber validates in any of
    ``regions`` (or by its +country code) scores 0.75; one it does not know
    but that has a phone's shape (7-15 digits in groups, maybe an extension:
    the generators' numbers use area codes no one was given) 0.6; a bare run
    of digits that validates 0.6 after a cue word ("call me at 0183157312"),
    when it starts a line of a multi-line text (a signature block) or starts
    with the international 00, else 0.4. Dates, times, card-shaped groups and IP addresses are
    not phones, nor a number after "tracking", "order", "account"..."""
    if sum(ch.isdigit() for ch in text) < 6:
        return
    import phonenumbers

    # Blanked, not removed, so spans still index the original text.
    blanked = _DATE_TIME.sub(lambda m: " " * len(m.group(0)), text)
    for m in _PHONE_SHAPE.finditer(blanked):
        start, end = m.span()
        number = m.group(0)
        main = number[: m.start("ext") - start] if m.group("ext") else number
        digits = sum(ch.isdigit() for ch in main)
        if not 6 <= digits <= 15 or _NOT_A_PHONE_BEFORE.search(text, max(0, start - 30), start):
            continue
        if _CARD_GROUPS.fullmatch(main) or _IP_GROUPS.fullmatch(main):
            continue
        formatted = phone_is_formatted(main)
        valid = _validates(phonenumbers, number, regions)
        if formatted and digits >= 7:
            yield start, end, 0.75 if valid else 0.6
        elif valid:  # bare digits, or six in groups ("33 17 13"): with a cue
            cue = _PHONE_CUE_BEFORE.search(text, max(0, start - 40), start)
            alone = "\n" in text and _starts_a_line(text, start)
            yield start, end, 0.6 if cue or alone or number.startswith("00") else 0.4


def _validates(phonenumbers: Any, number: str, regions: tuple[str, ...]) -> bool:
    if number.startswith("00"):  # the international prefix most countries dial
        number = "+" + number[2:]
    for region in (None,) if number.startswith("+") else regions:
        try:
            parsed = phonenumbers.parse(number, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(parsed):
            return True
    return False


def _starts_a_line(text: str, start: int) -> bool:
    return not text[text.rfind("\n", 0, start) + 1 : start].strip()


def find_phones(text: str, regions: tuple[str, ...]) -> Iterator[tuple[int, int]]:
    """Spans of numbers that libphonenumber validates in any of ``regions``
    (what the leak guard looks for; ``phone_spans`` is what redaction finds)."""
    import phonenumbers

    for start, end, _score in phone_spans(text, regions):
        if _validates(phonenumbers, text[start:end], regions):
            yield start, end


def build_recognizers(
    language: str, phone_regions: tuple[str, ...], nlp_engine: Any = None
) -> list[Any]:
    """miner's recognizers, to add to a registry (after removing Presidio's
    ``SpacyRecognizer``, ``PhoneRecognizer``, ``CreditCardRecognizer`` and
    ``EmailRecognizer``)."""
    from presidio_analyzer import (
        AnalysisExplanation,
        EntityRecognizer,
        LocalRecognizer,
        Pattern,
        PatternRecognizer,
        RecognizerResult,
    )

    def result(recognizer: Any, entity: str, start: int, end: int, score: float) -> Any:
        # The context enhancer writes its reason into analysis_explanation.
        return RecognizerResult(
            entity,
            start,
            end,
            score,
            analysis_explanation=AnalysisExplanation(
                recognizer=recognizer.name, original_score=score
            ),
            recognition_metadata={
                RecognizerResult.RECOGNIZER_NAME_KEY: recognizer.name,
                RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: recognizer.id,
            },
        )

    from presidio_analyzer.predefined_recognizers import PhoneRecognizer

    class ValidatedPhoneRecognizer(PhoneRecognizer):  # type: ignore[misc]
        """Phone numbers by shape and libphonenumber (``phone_spans``).

        Presidio scores every match 0.4 and needs a context word to pass a
        0.5 threshold; here a formatted number scores 0.6-0.75 on its own,
        and a bare digit run keeps 0.4 so only context lifts it."""

        def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
            results = []
            for start, end, score in phone_spans(text, tuple(self.supported_regions)):
                results.append(result(self, "PHONE_NUMBER", start, end, score))
            return list(EntityRecognizer.remove_duplicates(results))

    class NationalIdRecognizer(LocalRecognizer):  # type: ignore[misc]
        """National ids validated by their checksum (``find_national_ids``)."""

        def load(self) -> None:
            pass

        def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
            return [
                result(self, "NATIONAL_ID", start, end, 0.6 if lettered else 0.3)
                for start, end, lettered in find_national_ids(text)
            ]

    class AddressRecognizer(LocalRecognizer):  # type: ignore[misc]
        """Street addresses with the lines that follow them (``find_addresses``)."""

        def load(self) -> None:
            pass

        def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
            return [result(self, "STREET_ADDRESS", *span, 0.9) for span in find_addresses(text)]

    class FirstNameRecognizer(LocalRecognizer):  # type: ignore[misc]
        """A known first name, with the capitalised words after it (``find_first_names``)."""

        def load(self) -> None:
            pass

        def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
            results = []
            for start, end in find_first_names(text):
                if not names_no_person(text, start, end):
                    start, end = _complete_name(text, start, end)
                    results.append(result(self, "PERSON", start, end, 0.55))
                    for other in _list_members(text, start, end):
                        results.append(result(self, "PERSON", *other, 0.55))
            return results

    class CardRecognizer(PatternRecognizer):  # type: ignore[misc]
        """Card numbers of every major brand: IIN range plus Luhn."""

        def validate_result(self, pattern_text: str) -> bool:
            return is_card_number(pattern_text)

    class CuePatternRecognizer(PatternRecognizer):  # type: ignore[misc]
        """A pattern whose named group ``value`` is the entity and the rest is
        the cue that makes it one ("ssn 123456789" -> "123456789")."""

        def __init__(self, *args: Any, reject: frozenset[str] = frozenset(), **kwargs: Any):
            self._reject = reject
            super().__init__(*args, **kwargs)

        def analyze(
            self,
            text: str,
            entities: list[str],
            nlp_artifacts: Any = None,
            regex_flags: int | None = None,
        ) -> list[Any]:
            results = []
            patterns: list[Any] = self.patterns  # type: ignore[has-type]
            for pattern in patterns:
                if pattern.regex == dob_cue_regexes()[1]:
                    matches = dates_before_birth_cues(text)
                else:
                    matches = re.finditer(pattern.regex, text)
                for match in matches:
                    words = match.group("value").split()
                    while words and words[-1].title() in self._reject:
                        words.pop()
                    titles = 0
                    while titles < len(words) and _A_TITLE.fullmatch(words[titles]):
                        titles += 1  # "Dear Dr" names no one; "Dear Dr Stone" does
                    if titles == len(words) or words[titles].title() in self._reject:
                        continue
                    start = match.start("value")
                    end = start + len(" ".join(words))
                    if text[start:end] != " ".join(words):
                        end = match.end("value")  # names split by other whitespace: keep all
                    entity = self.supported_entities[0]
                    if entity == "PERSON":
                        cue = text[match.start() : match.start("value")]
                        # "it's Lake Placid", "hi, Florence team": only a cue
                        # that names ("my name is") or a title outvotes the
                        # place and organisation rules.
                        if (
                            titles == 0
                            and not _NAMING_CUE.search(cue)
                            and names_no_person(text, start, end)
                        ):
                            continue
                        start, end = _complete_name(text, start, end)
                        for other in _list_members(text, start, end):
                            results.append(result(self, entity, *other, pattern.score))
                    results.append(result(self, entity, start, end, pattern.score))
            return results

    from presidio_analyzer.predefined_recognizers import SpacyRecognizer

    class PlaceAwareSpacyRecognizer(SpacyRecognizer):  # type: ignore[misc]
        """Presidio's NER recognizer, its hits cut at a line break (the small
        model runs a name into the next line of a signature: "Marion Brown
        \\nAeronautical engineer"); less the "people" that are places by the
        words around them (``names_no_person``: "Lomm bridge is falling down");
        and its people completed from the text around them. The model often
        tags half a name ("Marchetti" of "Emeka Marchetti", "Stone" of "Dr
        Adrian Stone") or one name of a list ("A B, C D and E F"): the rest
        joins it (``_complete_name``), and the other members of a list a name
        is in are names too."""

        def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
            results = []
            for hit in super().analyze(text, entities, nlp_artifacts):
                line = text[hit.start : hit.end].strip().split("\n")[0].rstrip()
                hit.start = text.index(line, hit.start)
                hit.end = hit.start + len(line)
                if hit.entity_type == "PERSON":
                    if names_no_person(text, hit.start, hit.end):
                        continue
                    hit.start, hit.end = _complete_name(text, hit.start, hit.end)
                    for other in _list_members(text, hit.start, hit.end):
                        results.append(result(self, "PERSON", *other, 0.6))
                results.append(hit)
            return results

    ner_entities = nlp_engine.get_supported_entities() if nlp_engine is not None else None
    return [
        PlaceAwareSpacyRecognizer(
            supported_language=language,
            supported_entities=ner_entities,
            name="PlaceAwareSpacyRecognizer",
        ),
        FirstNameRecognizer(
            supported_entities=["PERSON"], supported_language=language, name="FirstNameRecognizer"
        ),
        # Presidio's own phone context words ("phone", "number", "call"...):
        # phone_spans reads its longer cue list itself.
        ValidatedPhoneRecognizer(supported_language=language, supported_regions=phone_regions),
        CardRecognizer(
            supported_entity="CREDIT_CARD",
            patterns=[Pattern("card", CARD_REGEX, 0.3)],
            supported_language=language,
            global_regex_flags=_CASED,
        ),
        CuePatternRecognizer(
            supported_entity="US_SSN",
            patterns=[Pattern("ssn after its name", SSN_CUE_REGEX, 0.85)],
            supported_language=language,
            name="SsnCueRecognizer",
        ),
        NationalIdRecognizer(
            supported_entities=["NATIONAL_ID"],
            supported_language=language,
            context=_NATIONAL_ID_CONTEXT,
            name="NationalIdRecognizer",
        ),
        CuePatternRecognizer(
            supported_entity="DATE_OF_BIRTH",
            patterns=[
                Pattern("date after a birth cue", dob_cue_regexes()[0], 0.85),
                Pattern("date before a birth cue", dob_cue_regexes()[1], 0.85),
            ],
            supported_language=language,
            name="DateOfBirthCueRecognizer",
        ),
        CuePatternRecognizer(
            supported_entity="PASSPORT",
            patterns=[Pattern("passport after its name", PASSPORT_CUE_REGEX, 0.85)],
            supported_language=language,
            name="PassportCueRecognizer",
        ),
        CuePatternRecognizer(
            supported_entity="PERSON",
            patterns=[Pattern("name after a cue", NAME_CUE_REGEX, 0.6)],
            supported_language=language,
            reject=NOT_NAMES,
            name="NameCueRecognizer",
        ),
        AddressRecognizer(
            supported_entities=["STREET_ADDRESS"],
            supported_language=language,
            name="AddressRecognizer",
        ),
        PatternRecognizer(
            supported_entity="STREET_ADDRESS",
            patterns=[Pattern("uk postcode", UK_POSTCODE_REGEX, 0.6)],
            supported_language=language,
            # Presidio matches case-insensitively by default; capitals are
            # what tells a postcode from a word.
            global_regex_flags=_CASED,
        ),
    ]
