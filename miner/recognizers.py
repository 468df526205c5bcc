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

import re
from collections.abc import Iterator
from typing import Any

#: Regions whose national formats (no leading +) phone detection understands.
#: Numbers written with +country code are found whatever the list.
DEFAULT_PHONE_REGIONS: tuple[str, ...] = (
    "US", "GB", "IE", "FR", "DE", "ES", "IT", "NL", "IN", "AU", "BR", "MX", "JP", "SG", "ZA",
)  # fmt: skip

#: USPS Publication 28, appendix C1: every primary street suffix and its
#: standard abbreviation, plus the UK street words the USPS list lacks.
STREET_SUFFIXES: tuple[str, ...] = (
    "Alley", "Aly", "Anex", "Annex", "Arcade", "Arc", "Avenue", "Ave", "Av", "Bayou", "Byu",
    "Beach", "Bch", "Bend", "Bnd", "Bluff", "Bluffs", "Blf", "Bottom", "Btm", "Boulevard", "Blvd",
    "Branch", "Br", "Bridge", "Brg", "Brook", "Brooks", "Brk", "Burg", "Burgs", "Bypass", "Byp",
    "Camp", "Cp", "Canyon", "Cyn", "Cape", "Cpe", "Causeway", "Cswy", "Center", "Centre",
    "Ctr", "Centers", "Circle", "Cir", "Circles", "Cliff", "Clf", "Cliffs", "Club", "Clb",
    "Common", "Commons", "Corner", "Cor", "Corners", "Course", "Crse", "Court", "Ct", "Courts",
    "Cove", "Cv", "Coves", "Creek", "Crk", "Crescent", "Cres", "Crest", "Crst", "Crossing",
    "Xing", "Crossroad", "Crossroads", "Curve", "Curv", "Dale", "Dl", "Dam", "Dm", "Divide",
    "Dv", "Drive", "Dr", "Drives", "Estate", "Est", "Estates", "Expressway", "Expy",
    "Extension", "Ext", "Extensions", "Fall", "Falls", "Fls", "Ferry", "Fry", "Field", "Fld",
    "Fields", "Flat", "Flt", "Flats", "Ford", "Frd", "Fords", "Forest", "Frst", "Forge", "Frg",
    "Forges", "Fork", "Frk", "Forks", "Fort", "Ft", "Freeway", "Fwy", "Garden", "Gdn",
    "Gardens", "Gdns", "Gateway", "Gtwy", "Glen", "Gln", "Glens", "Green", "Grn", "Greens",
    "Grove", "Grv", "Groves", "Harbor", "Hbr", "Harbors", "Haven", "Hvn", "Heights", "Hts",
    "Highway", "Hwy", "Hill", "Hl", "Hills", "Hls", "Hollow", "Holw", "Inlet", "Inlt",
    "Island", "Is", "Islands", "Iss", "Isle", "Junction", "Jct", "Junctions", "Key", "Ky",
    "Keys", "Knoll", "Knl", "Knolls", "Lake", "Lk", "Lakes", "Lks", "Land", "Landing", "Lndg",
    "Lane", "Ln", "Light", "Lgt", "Lights", "Loaf", "Lf", "Lock", "Lck", "Locks", "Lodge",
    "Ldg", "Loop", "Mall", "Manor", "Mnr", "Manors", "Meadow", "Mdw", "Meadows", "Mdws", "Mews",
    "Mill", "Ml", "Mills", "Mission", "Msn", "Motorway", "Mtwy", "Mount", "Mt", "Mountain",
    "Mtn", "Mountains", "Neck", "Nck", "Orchard", "Orch", "Oval", "Overpass", "Opas", "Park",
    "Parks", "Parkway", "Pkwy", "Parkways", "Pass", "Passage", "Psge", "Path", "Pike", "Pine",
    "Pne", "Pines", "Pnes", "Place", "Pl", "Plain", "Pln", "Plains", "Plns", "Plaza", "Plz",
    "Point", "Pt", "Points", "Pts", "Port", "Prt", "Ports", "Prairie", "Pr", "Radial", "Radl",
    "Ramp", "Ranch", "Rnch", "Rapid", "Rpd", "Rapids", "Rpds", "Rest", "Rst", "Ridge", "Rdg",
    "Ridges", "River", "Riv", "Road", "Rd", "Roads", "Rds", "Route", "Rte", "Row", "Rue",
    "Run", "Shoal", "Shl", "Shoals", "Shore", "Shr", "Shores", "Skyway", "Skwy", "Spring",
    "Spg", "Springs", "Spgs", "Spur", "Spurs", "Square", "Sq", "Squares", "Station", "Sta",
    "Stravenue", "Stra", "Stream", "Strm", "Street", "St", "Streets", "Sts", "Summit", "Smt",
    "Terrace", "Ter", "Throughway", "Trwy", "Trace", "Trce", "Track", "Trak", "Trafficway",
    "Trfy", "Trail", "Trl", "Trailer", "Trlr", "Tunnel", "Tunl", "Turnpike", "Tpke",
    "Underpass", "Upas", "Union", "Un", "Unions", "Valley", "Vly", "Valleys", "Viaduct", "Via",
    "View", "Vw", "Views", "Village", "Vlg", "Villages", "Ville", "Vl", "Vista", "Vis", "Walk",
    "Walks", "Wall", "Way", "Ways", "Well", "Wl", "Wells",
    # UK street words not in the USPS list.
    "Close", "Rise", "Parade", "Wharf", "Yard", "Gate", "Embankment", "Drove", "Chase",
    "Approach", "Quay", "Wynd", "Croft",
)  # fmt: skip

_UNIT = r"(?:Apt|Apartment|Flat|Studio|Suite|Ste|Unit|Floor|Fl|Room|Rm|Bldg|Building)"
_WORD = r"(?:[A-Z][a-z']+|\d+(?:st|nd|rd|th))"
UK_POSTCODE_REGEX = r"\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b"
#: A street address: an optional UK unit prefix ("Flat 6", "Studio 4"), a house
#: number, one to three name words, a street suffix that is not followed by
#: another capitalised word (so "2 Sea View Mugs", a product, is not an
#: address), an optional unit ("Suite 217"), and an optional town with a US
#: state and ZIP or a UK postcode.
STREET_ADDRESS_REGEX = (
    rf"(?:\b{_UNIT}\.?\s+\d+[A-Za-z]?,?\s+(?:\d{{1,5}}[A-Za-z]?\s+)?|\b\d{{1,5}}[A-Za-z]?\s+)"
    rf"(?:(?:[NSEW]\.?|North|South|East|West)\s+)?(?:{_WORD}\s+){{1,3}}"
    rf"(?:{'|'.join(sorted(STREET_SUFFIXES, key=len, reverse=True))})\b\.?"
    rf"(?:,?\s+(?:{_UNIT}\.?|\#)\s*\#?\d+[A-Za-z]?\b)?"
    rf"(?!\s+[A-Z][a-z])"
    rf"(?:,\s+(?:[A-Z][a-z]+\s){{0,2}}[A-Z][a-z]+"
    rf"(?:,?\s+(?:[A-Z]{{2}}\s+\d{{5}}(?:-\d{{4}})?|{UK_POSTCODE_REGEX[2:-2]}))?\b)?"
)

#: A name after the words that introduce one: "my name is", "I'm", a sign-off,
#: a relation ("my husband"), a title. The cue is case-insensitive; the name is
#: one to three capitalised words.
_NAME_WORD = r"[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?"
NAME_CUE_REGEX = (
    r"(?i:\bmy name is|\bname's|\bi am|\bi'm|\bthis is|\bit's|\bregards,?|\bthanks,?"
    r"|\bthank you,?|\bcheers,?|\bsincerely,?|\bbest,|\bmy (?:husband|wife|partner|son"
    r"|daughter|mother|father|mom|mum|dad|brother|sister|friend|colleague|boss|neighbou?r)"
    r"|\bmr\.?|\bmrs\.?|\bms\.?|\bmiss|\bdr\.?|\bspeak (?:to|with)|\bask for|\bcontact)"
    rf"\s+(?P<value>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,2}})(?!\w)"
)
#: Capitalised words a cue is often followed by that are not names.
NOT_NAMES = frozenset(
    [
        "Sorry",
        "Not",
        "Here",
        "Happy",
        "Glad",
        "Looking",
        "Still",
        "Calling",
        "Writing",
        "Back",
        "Done",
        "Very",
        "Just",
        "So",
        "Really",
        "Trying",
        "Going",
        "Getting",
        "Sure",
        "Okay",
        "Ok",
        "Fine",
        "Good",
        "Great",
        "Awesome",
        "Perfect",
        "Thanks",
        "Thank",
        "Hello",
        "Hi",
        "Hey",
        "Your",
        "The",
        "A",
        "An",
        "This",
        "That",
        "It",
        "Urgent",
        "Again",
        "Regarding",
        "About",
        "Following",
        "Ready",
        "Unable",
        "Afraid",
        "Confused",
        "Frustrated",
        "Disappointed",
        "Upset",
        "Annoyed",
        "Interested",
        "Customer",
        "Support",
        "Team",
        "Manager",
        "Agent",
        "Human",
        "Someone",
        "Somebody",
        "Anyone",
        "Everyone",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
        "Today",
        "Tomorrow",
        "Yesterday",
        "Order",
        "Refund",
    ]
)

_NAME_BEFORE = re.compile(rf"({_NAME_WORD}) $")
_NAME_AFTER = re.compile(rf" ({_NAME_WORD})(?!\w)")
_NAMES = rf"{_NAME_WORD}(?: {_NAME_WORD}){{0,2}}"
_LIST_AFTER = re.compile(rf"(?:,? and |,? & |, )({_NAMES})(?![\w'])")
_LIST_BEFORE = re.compile(rf"(?<![\w'])({_NAMES})(?:,? and |,? & |, )$")


def _complete_name(text: str, start: int, end: int) -> tuple[int, int]:
    """A name span grown over capitalised words glued to it (one each side)."""
    before = _NAME_BEFORE.search(text, 0, start)
    if before and before.group(1) not in NOT_NAMES:
        start = before.start(1)
    after = _NAME_AFTER.match(text, end)
    if after and after.group(1) not in NOT_NAMES:
        end = after.end(1)
    return start, end


def _list_members(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Spans of the names listed with the name at [start, end)."""
    position = end
    while (m := _LIST_AFTER.match(text, position)) and not _rejected(m.group(1)):
        yield m.start(1), m.end(1)
        position = m.end(1)
    position = start
    while (m := _LIST_BEFORE.search(text[:position])) and not _rejected(m.group(1)):
        yield m.start(1), m.end(1)
        position = m.start(1)


def _rejected(names: str) -> bool:
    return any(word in NOT_NAMES for word in names.split())


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

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
#: A date after a birth cue ("born on", "date of birth", "DOB"): personal.
#: Other dates are not (an order's date is what a case needs).
DOB_CUE_REGEX = (
    r"(?i:\b(?:born(?:\s+on)?|date\s+of\s+birth|d\.?o\.?b\.?|birth\s*date|birthday)"
    r"(?:\s+(?:is|was))?[\s:,\-]{0,3})"
    r"(?P<value>(?i:\d{1,4}[./\-]\d{1,2}[./\-]\d{1,4}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+\d{{4}}"
    rf"|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}))(?!\w)"
)
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
_NATIONAL_ID_CANDIDATE = re.compile(
    r"\b(?:[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]|[XYZ]?\d{7,8}-?[A-Z]|[A-Z]{5}\d{4}[A-Z]"
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
_PHONE_CONTEXT = [
    "phone", "telephone", "tel", "cell", "mobile", "call", "reach", "text", "whatsapp",
    "contact", "number", "callback", "ring", "sms",
]  # fmt: skip
_ADDRESS_CONTEXT = ["address", "street", "live", "ship", "deliver", "send", "moved", "flat"]


def luhn_ok(digits: str) -> bool:
    from stdnum import luhn

    return bool(luhn.is_valid(digits))


def is_card_number(text: str) -> bool:
    """Luhn-valid, 13-19 digits (12 for Maestro) of a card family."""
    digits = re.sub(r"[ -]", "", text)
    if not digits.isdigit() or not (
        digits[0] in _CARD_FIRST_DIGITS or digits.startswith("1800")  # JCB's 15-digit 1800
    ):
        return False
    if not (13 <= len(digits) <= 19 or (len(digits) == 12 and digits[0] in "56")):
        return False
    return luhn_ok(digits)


IBAN_REGEX = r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b"


def iban_ok(text: str) -> bool:
    """ISO 13616 mod-97 check of an IBAN (spaces allowed)."""
    compact = text.replace(" ", "").upper()
    if not 15 <= len(compact) <= 34 or not compact.isalnum():
        return False
    rearranged = compact[4:] + compact[:4]
    number = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(number) % 97 == 1


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
    r"|\b\d{1,2}/\d{1,2}/\d{2,4}\b"
)


#: Runs that might be a phone number: 7+ digits with the separators people use.
_PHONE_CANDIDATE = re.compile(r"\+?\(?\d(?:[\d\s().\-/]*\d){6,}")


def find_phones(text: str, regions: tuple[str, ...]) -> Iterator[tuple[int, int]]:
    """Spans of numbers that libphonenumber validates in any of ``regions``.

    libphonenumber scans the whole text once per region, which made it most of
    redaction's time; here it reads only the digit runs that could be a number,
    and stops at the first region that validates one."""
    if sum(ch.isdigit() for ch in text) < 7:
        return
    import phonenumbers

    # Blanked, not removed, so spans still index the original text.
    text = _DATE_TIME.sub(lambda m: " " * len(m.group(0)), text)
    for candidate in _PHONE_CANDIDATE.finditer(text):
        # A character of context either side lets the matcher check boundaries.
        lo, hi = max(0, candidate.start() - 1), min(len(text), candidate.end() + 1)
        window = text[lo:hi]
        for region in regions:
            spans = [
                (lo + m.start, lo + m.end)
                for m in phonenumbers.PhoneNumberMatcher(window, region, leniency=1)
            ]
            if spans:
                yield from spans
                break


def build_recognizers(
    language: str, phone_regions: tuple[str, ...], nlp_engine: Any = None
) -> list[Any]:
    """miner's recognizers, to add to a registry (after removing Presidio's
    ``PhoneRecognizer``, ``CreditCardRecognizer`` and ``EmailRecognizer``)."""
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
        """libphonenumber-validated numbers over the configured regions.

        Presidio scores every match 0.4 and needs a context word to pass a
        0.5 threshold; here a formatted number scores 0.75 on its own, and
        a bare digit run keeps 0.4 so only context lifts it."""

        def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
            results = []
            for start, end in find_phones(text, tuple(self.supported_regions)):
                score = 0.75 if phone_is_formatted(text[start:end]) else 0.4
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
                for match in re.finditer(pattern.regex, text):
                    words = match.group("value").split()
                    while words and words[-1] in self._reject:
                        words.pop()
                    if not words or words[0] in self._reject:
                        continue
                    start = match.start("value")
                    end = start + len(" ".join(words))
                    if text[start:end] != " ".join(words):
                        end = match.end("value")  # names split by other whitespace: keep all
                    results.append(
                        result(self, self.supported_entities[0], start, end, pattern.score)
                    )
            return results

    class NameCompletionRecognizer(LocalRecognizer):  # type: ignore[misc]
        """Names the NER model found, completed from the text around them.

        The small model often tags half a name ("Marchetti" of "Emeka
        Marchetti") or one name of a list ("A B, C D and E F"). A capitalised
        word glued to a found name joins it, and the other members of a list a
        found name is in are names too."""

        def load(self) -> None:
            pass

        def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
            if nlp_artifacts is None:
                return []
            found = [
                (e.start_char, e.end_char)
                for e in nlp_artifacts.entities
                if e.label_ in ("PERSON", "PER")
            ]
            results = []
            for start, end in found:
                start, end = _complete_name(text, start, end)
                results.append(result(self, "PERSON", start, end, 0.6))
                for other in _list_members(text, start, end):
                    results.append(result(self, "PERSON", *other, 0.6))
            return results

    return [
        NameCompletionRecognizer(
            supported_entities=["PERSON"],
            supported_language=language,
            name="NameCompletionRecognizer",
        ),
        ValidatedPhoneRecognizer(
            context=_PHONE_CONTEXT, supported_language=language, supported_regions=phone_regions
        ),
        CardRecognizer(
            supported_entity="CREDIT_CARD",
            patterns=[Pattern("card", CARD_REGEX, 0.3)],
            context=["card", "credit", "debit", "visa", "mastercard", "amex"],
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
            patterns=[Pattern("date after a birth cue", DOB_CUE_REGEX, 0.85)],
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
        PatternRecognizer(
            supported_entity="STREET_ADDRESS",
            patterns=[
                Pattern("street address", STREET_ADDRESS_REGEX, 0.7),
                Pattern("uk postcode", UK_POSTCODE_REGEX, 0.6),
            ],
            context=_ADDRESS_CONTEXT,
            supported_language=language,
            # Presidio matches case-insensitively by default; capitals are
            # what tells "12 Baker Street" from "12 more days".
            global_regex_flags=_CASED,
        ),
    ]
