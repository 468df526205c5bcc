"""Known formats: phones, cards, IBANs, SSNs, passports and national ids, their
regexes, the checks that validate them (Luhn, mod-97, libphonenumber, the
national checksums) and the tables of which Presidio country recognizers run
for which region. Plain Python: the recognizers (``miner.redaction.recognizers``)
and the leak guard both read these.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable, Iterator
from typing import Any

from miner.redaction.lexicon.wordmatch import fold, grouped_alternation

#: Regions whose national formats (no leading +) phone detection understands.
#: Numbers written with +country code are found whatever the list.
DEFAULT_PHONE_REGIONS: tuple[str, ...] = (
    "US", "GB", "IE", "FR", "DE", "ES", "IT", "NL", "IN", "AU", "BR", "MX", "JP", "SG", "ZA",
)  # fmt: skip


#: A line break written as the two characters \\n or \\r: a document quoted
#: inside a JSON string (a tool's result often is one). NER and the
#: recognizers read it as a break, so a name or a street starts its line.
_ESCAPED_BREAK = re.compile(r"(?<!\\)\\[nr]")
#: The same in a text put all in capitals after it was escaped ("SMITH\\N24 RUE...").
_ESCAPED_BREAK_SHOUTED = re.compile(r"(?<!\\)\\[nrNR]")


def read_escaped_breaks(text: str) -> str:
    """``text`` with each escaped line break read as a real one (" \\n":
    the same length, so spans found in it index ``text``)."""
    if "\\" not in text:
        return text
    shouted = not any(c.islower() for c in text)
    return (_ESCAPED_BREAK_SHOUTED if shouted else _ESCAPED_BREAK).sub(" \n", text)


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


#: A passport number after its name, in English or the word of a language
#: of Europe a customer writes it in (no library lists it; "Pass", German's
#: and Sweden's, is English's too): 6-9 capitals and digits, one digit at least.
PASSPORT_CUE_REGEX = (
    r"(?i:\b(?:passport|pasaporte|passeport|passaporto|passaporte|paspoort|reisepass|paszport"
    r"|pasaport|útlevél)(?:\s+(?:number|no\.?|nr\.?|n[º°]|#))?(?:\s+is)?)[\s:#]{1,3}"
    r"(?P<value>(?=[A-Z]{0,3}\d)[A-Z0-9]{6,9})\b"
)


#: National ids that python-stdnum validates, by region, as module names.
#: An id with letters (codice fiscale, DNI/NIE, PAN, CURP, RFC, PPS) is unlike
#: other numbers and scores on its own; an all-digit one (NIR, BSN, CPF,
#: Aadhaar, Steuer-ID, TFN, My Number) needs a context word, as a bare digit
#: run is as often an order or tracking number. The UK NI number has no stdnum
#: module: its shape (two letters, six digits, a letter) is checked here,
#: wider than Presidio's, which refuses the ZZ prefix forms and examples use.
#: Other ids are Presidio's own (``COUNTRY_RECOGNIZERS``).
NATIONAL_ID_CHECKSUMS: dict[str, tuple[str, ...]] = {
    "IT": ("stdnum.it.codicefiscale",),
    "ES": ("stdnum.es.dni", "stdnum.es.nie"),
    "IN": ("stdnum.in_.pan", "stdnum.in_.aadhaar"),
    "FR": ("stdnum.fr.nir",),
    "NL": ("stdnum.nl.bsn",),
    "BR": ("stdnum.br.cpf",),
    "DE": ("stdnum.de.idnr",),
    "AU": ("stdnum.au.tfn",),
    "JP": ("stdnum.jp.in_",),
    "MX": ("stdnum.mx.curp", "stdnum.mx.rfc"),
    "IE": ("stdnum.ie.pps",),
}

#: Presidio's own recognizers of a region's national ids, passports and
#: driving licences that stdnum does not check (off in Presidio's default
#: registry), each with the entity type miner reports it as. ``+context``:
#: scored 0.3 here, so that only a context word ("nric", "fin") lifts it over
#: the threshold, because it has no checksum and Presidio scores its shape 0.5
#: alone: one ticket or booking reference of that shape (S1234567A) would go.
#: Left out, measured on tracking, ticket and booking numbers: the NHS number,
#: the Steuer-ID, the German ID card and passport and the South African
#: passport and driving licence, which Presidio scores 1.0 once its check
#: passes (a check digit, or a letter), so one reference number in ten or
#: eleven of their shape, or every T12345678 and 12345678AB, would go
#: (stdnum and a context word find the Steuer-ID, the passport cue finds
#: passports); and those whose base score cannot pass the
#: threshold even after a context word (Presidio adds 0.35 to at most 0.1):
#: the AU TFN and Medicare number, Aadhaar and the UK, IN, ES, IT and US
#: passports.
COUNTRY_RECOGNIZERS: dict[str, tuple[tuple[str, str], ...]] = {
    "US": (("UsLicenseRecognizer", "DRIVER_LICENSE"), ("UsItinRecognizer", "NATIONAL_ID")),
    "GB": (("UkDrivingLicenceRecognizer", "DRIVER_LICENSE"),),
    "IN": (("InVoterRecognizer", "NATIONAL_ID"),),
    "IT": (("ItDriverLicenseRecognizer", "DRIVER_LICENSE"),),
    "DE": (
        ("DeSocialSecurityRecognizer", "NATIONAL_ID"),
        ("DeFuehrerscheinRecognizer", "DRIVER_LICENSE"),
    ),
    "SG": (("SgFinRecognizer", "NATIONAL_ID+context"),),
    "ZA": (("ZaIdNumberRecognizer", "NATIONAL_ID"),),
}  # fmt: skip

#: Context words that replace a country recognizer's own: Presidio's US
#: licence words include "license" and "permit", and a software agent's
#: "license key X1234567" is not a driving licence.
COUNTRY_CONTEXT = {"UsLicenseRecognizer": ["driver", "driving", "cdl"]}


#: Case-insensitive: a lower-case message writes "13857685r"; the checksum decides.
_NATIONAL_ID_CANDIDATE = re.compile(
    r"(?i)\b(?:[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]|(?:[XYZ]-?)?\d{7,8}-?[A-Z]|[A-Z]{5}\d{4}[A-Z]"
    r"|[A-Z]{4}\d{6}[HM][A-Z]{5}[A-Z0-9]\d|[A-Z&]{3,4}\d{6}[A-Z0-9]{3}|\d{7}[A-W][A-IW]?"
    r"|\d{3}\.\d{3}\.\d{3}-\d{2}|\d(?:[ ]?\d){7,14})\b"
)


_NI_NUMBER = re.compile(r"\b[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-Z]\b")


NATIONAL_ID_CONTEXT = [
    "id", "identity", "national", "insurance", "social", "security", "ssn", "nir", "bsn",
    "cpf", "aadhaar", "fiscal", "fiscale", "dni", "nie", "tax", "steuer", "burgerservicenummer",
    "sécurité", "securite", "número", "numero", "tfn", "pps", "curp", "rfc",
]  # fmt: skip


def find_national_ids(
    text: str, regions: tuple[str, ...] | None = None
) -> Iterator[tuple[int, int, bool]]:
    """(start, end, has letters) of ids that a national-id checksum of one of
    ``regions`` (all of ``NATIONAL_ID_CHECKSUMS`` when None) validates."""
    for m in _NI_NUMBER.finditer(text):
        yield m.start(), m.end(), True
    modules = _checksums(regions)
    for m in _NATIONAL_ID_CANDIDATE.finditer(text):
        value = m.group(0)
        if any(module.is_valid(value) for module in modules):
            yield m.start(), m.end(), any(c.isalpha() for c in value)


@functools.cache
def _checksums(regions: tuple[str, ...] | None) -> tuple[Any, ...]:
    return tuple(
        importlib.import_module(name)
        for region, names in NATIONAL_ID_CHECKSUMS.items()
        if regions is None or region in regions
        for name in names
    )


#: A stdnum module whose one-line description says it numbers a person
#: ("personal", "identity", "citizen", "birth", "social security", "tax code
#: for individuals"), and not also a business, an account or a thing.
_A_PERSON_S_ID = re.compile(
    r"(?i)\b(?:personal|person|persoas|identity|identidad|identification|citizen|birth"
    r"|social (?:security|insurance)|individuals?|national (?:identi|number)|resident"
    r"|population|foreigner|patient|insurance number)"
)
_NOT_A_PERSON_S_ID = re.compile(
    r"(?i)\bVAT\b|compan|business|organi[sz]ation|enterprise|\bentit(?:y|ies)\b|bank"
    r"|account|securities|drugs|energy|school|student|pupil|trade|employer|preparer|adoption"
    r"|jurídica|virtual"
)

#: What people call an id that its stdnum description does not name: Japan's
#: Individual Number is "My Number" (マイナンバー) in every English text.
_ID_ALIASES = {"stdnum.jp.in_": ("My Number", "マイナンバー")}

#: What a person's id is called in English whatever its country: any
#: person's id stdnum knows may follow.
_ANY_PERSON_S_ID = (
    "social security number", "social insurance number", "national identity number",
    "national identification number", "national id number", "personal identity number",
    "personal identification number", "personal number", "citizen number", "birth number",
)  # fmt: skip


@functools.cache
def personal_id_names() -> dict[str, tuple[Any, ...]]:
    """The name of each person's id python-stdnum knows, folded, and the
    modules that validate an id of that name: every country module whose
    description (its docstring's first line: "RČ (Rodné číslo, the Czech
    birth number).", "PESEL (Polish national identification number).") is
    not a business's, an account's or a thing's number, named by its
    abbreviations and its name in its language. An abbreviation of two or
    three letters is kept as written (capitals: "DNI", not the word "in")."""
    names: dict[str, list[Any]] = {}
    for name in _stdnum_country_modules():
        module = importlib.import_module(name)
        about = (module.__doc__ or "").strip().split("\n")[0]
        if not _A_PERSON_S_ID.search(about) or _NOT_A_PERSON_S_ID.search(about):
            continue
        for called in (*_names_in(about), *_ID_ALIASES.get(name, ())):
            names.setdefault(called, []).append(module)
    every = tuple(dict.fromkeys(m for modules in names.values() for m in modules))
    for called in _ANY_PERSON_S_ID:
        names[called] = list(every)
    return {name: tuple(modules) for name, modules in names.items()}


@functools.cache
def identifier_words() -> frozenset[str]:
    """The names python-stdnum gives the numbers it validates, folded: its
    modules' names ("iban", "bic", "isin", "pesel", "cpf", "nif"...), three
    letters or more. Several are names too ("Iban", "Iva", "Nik"): one
    names a number only right before it (``unsure``)."""
    import pkgutil

    import stdnum

    found = {name.rpartition(".")[2] for name in _stdnum_country_modules()}
    found |= {info.name for info in pkgutil.iter_modules(stdnum.__path__) if not info.ispkg}
    return frozenset(n for n in found if n.isalpha() and len(n) >= 3)


def _stdnum_country_modules() -> Iterator[str]:
    """The names of python-stdnum's countries' modules ("stdnum.cz.rc"): the
    modules of its packages named by two letters ("cz", "in_")."""
    import pkgutil

    import stdnum

    for country in pkgutil.iter_modules(stdnum.__path__):
        if country.ispkg and len(country.name.rstrip("_")) == 2:
            package = importlib.import_module(f"stdnum.{country.name}")
            for info in pkgutil.iter_modules(package.__path__):
                yield f"stdnum.{country.name}.{info.name}"


#: An id's value after its name: a placeholder of an id's type or a word
#: with a digit, maybe after "is", "no." or a colon ("IBAN: <IBAN_CODE_1>",
#: "iban GB52ORYO...").
_AN_ID_AFTER = re.compile(
    r"(?i:[ \t]*(?:[:#=]|is|no\.?|nr\.?|number|code)?[ \t:]*)"
    r"(?:<(?:IBAN_CODE|NATIONAL_ID|US_SSN|CREDIT_CARD|PASSPORT|DRIVER_LICENSE)_\d+>"
    r"|[A-Za-z]{0,6}\d)"
)


def names_a_number(text: str, start: int, end: int) -> bool:
    """Whether the word at [start, end) is the name of the number after it
    (``identifier_words``): "IBAN: GB52...", "my iban is <IBAN_CODE_1>";
    no one's name there ("Iban" is a first name too)."""
    return text[start:end].casefold() in identifier_words() and bool(_AN_ID_AFTER.match(text, end))


def _names_in(about: str) -> list[str]:
    """The names an id's description gives it: the abbreviations before the
    bracket ("VNR, SVNR, VSNR") and the first name inside it when it is in
    the id's own language or a capitalised name ("Rodné číslo",
    "Sozialversicherungsnummer"), not an English description."""
    head, _, inside = about.rstrip(".").partition(" (")
    found = [n.strip() for n in re.split(r",| or ", head) if n.strip()]
    first = inside.split(",")[0].strip(' "()')
    if first and not re.search(r"(?i)\b(?:number|identifier|code|id|the)\b", first):
        found.append(first)
    return [n for n in found if len(n) >= 2 and not re.search(r"(?i)^(?:id|no)$", n)]


#: An id's value: letters and digits, dots, slashes, hyphens, spaced digits,
#: and a check letter in capitals standing alone after a blank, as Spain
#: writes a DNI or NIE by hand ("Z 1234567 R", "12345678 Z"): without it the
#: value stopped before the letter, checked as a shorter id and failed, and
#: was only surfaced.
_ID_VALUE = r"(?P<value>(?i:[A-Z0-9](?:[A-Z0-9./-]|[ ](?=\d|(?-i:[A-Z])(?![\w-]))){4,24}[A-Z0-9]))"


#: What stands between an id's name and its value: "number", "no.", "is",
#: a colon ("NIE number: X1234567L", "my PESEL is ...").
_BETWEEN_AN_ID_S_NAME_AND_VALUE = (
    r"(?i:[ \t]*(?:number|no\.?|nr\.?|n[º°]|\#|code|id))?"
    r"(?i:[ \t]+(?:is|was|reads)|[ \t]*[:=])?[ \t]*"
)
#: What follows an id's name, up to its value's end (``_named_id_regex``
#: after the name; ``before_an_id_s_name``).
_ID_VALUE_AFTER_ITS_NAME = re.compile(rf"{_BETWEEN_AN_ID_S_NAME_AND_VALUE}{_ID_VALUE}(?![\w-])")


def _id_names_alternation() -> str:
    """The ids' names as one alternation (``name``): the short ones ("NIE",
    "BSN") as written, the long ones in any case, longest first. Grouped by
    first letter: flat, the named ids' pattern took 0.21 s of CPU per 1 MiB,
    read four times over the bench's 1 MiB message."""
    names = sorted(personal_id_names(), key=len, reverse=True)
    short = grouped_alternation(re.escape(n) for n in names if len(n) <= 3)
    long = grouped_alternation((re.escape(n) for n in names if len(n) > 3), fold_case=True)
    return rf"(?P<name>(?-i:{short})|(?i:{long}))"


@functools.cache
def _named_id_regex() -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){_id_names_alternation()}{_ID_VALUE_AFTER_ITS_NAME.pattern}")


@functools.cache
def _id_before_its_name_regex() -> re.Pattern[str]:
    """A value with its id's name after it in brackets, maybe with a word
    after the name: "659068800600 (My Number card)", "02070803628 (PESEL)"."""
    return re.compile(
        rf"(?<![\w./-]){_ID_VALUE}"
        rf"[ \t]*\([ \t]*{_id_names_alternation()}"
        r"(?:[ \t]+[^\W\d_]+)?[ \t]*\)"
    )


@functools.cache
def _id_name_before_value_regex(phones: bool = True) -> re.Pattern[str]:
    """A person's id's name before its value, the value a placeholder (not
    a phone's, unless ``phones``) or a word with a digit, or a check letter
    and a blank before its digits ("NIE X 7654321 F"): "my rodné číslo is
    <NATIONAL_ID_1>"."""
    placeholder = r"<[A-Z_]+_\d+>" if phones else r"<(?!PHONE_NUMBER_)[A-Z_]+_\d+>"
    return re.compile(
        rf"(?<![\w-]){_id_names_alternation()}"
        rf"(?={_BETWEEN_AN_ID_S_NAME_AND_VALUE}(?:{placeholder}|[A-Za-z/.-]{{0,6}}\d|[A-Z][ ]\d))"
    )


def names_a_person_s_id(text: str, start: int, end: int, phones: bool = True) -> bool:
    """Whether the word at [start, end) is a word of a person's id's name
    (``personal_id_names``) written before its value: "rodné", "číslo" of
    "my rodné číslo is 186216/9639", the id's name in its language, no
    one's (a name list holds "číslo"). Not before a phone replaced unless
    ``phones``: a short id's name is a name in capitals too ("CALL NIK
    <PHONE_NUMBER_1>": Nik's phone)."""
    window = max(0, start - 60)
    return any(
        m.start() <= start and end <= m.end()
        for m in _id_name_before_value_regex(phones).finditer(text, window, end + 60)
    )


def before_an_id_s_name(text: str, start: int, end: int, a_name: Callable[[str], bool]) -> int:
    """Where a person's hit [start, end) ends once an id's name it ran on
    over is cut off: "ANNA NIE" of "Anna NIE X7654321F" is Anna, and NIE
    announces its value. Left whole, the id's name went into the person's
    placeholder and the rules that read the redacted text no longer saw a
    value after its name: a mistyped NIE stood silent. Where the id's name
    is a name too ("NIK", "NIE", "SIN" are listed first names), only before
    a value ending in a check letter (a NIE's, a NIF's, a UK NI number's):
    "ANNA NIK 07700 900123" may be Anna Nik's phone, "LI NIE E12345678" Li
    Nie's passport (Nie, Ni, Cui, Sin are surnames too), and replacing the
    hit whole is the safe side. ``a_name``: whether a name list knows a
    word (``names.known_name``, passed in: ``names`` imports this module)."""
    if " " not in text[start:end]:
        return end
    m = _id_name_before_value_regex(phones=False).search(text, start + 1, end + 60)
    if not m or m.start() >= end or text[m.start() - 1] != " ":
        return end
    value = _ID_VALUE_AFTER_ITS_NAME.match(text, m.end())
    if a_name(m.group("name")) and not (value and _A_LETTER.match(value.group("value")[-1])):
        return end
    return len(text[: m.start()].rstrip())


_A_LETTER = re.compile(r"[^\W\d_]")


def find_named_ids(text: str) -> Iterator[tuple[int, int]]:
    """Spans of a person's id written after its own name ("my rodné číslo is
    186214/9641", "PESEL: 02070803628") or before it in brackets
    ("659068800600 (My Number)") that the named id's stdnum check
    validates: the name and the check together are sure. A value that runs
    on ("123 456 789 2024") is tried shorter, a group at a time (after its
    name; before it, from its start)."""
    names = personal_id_names()
    for m in _named_id_regex().finditer(text):
        modules = names.get(m.group("name")) or _folded_names()[fold(m.group("name"))]
        value = m.group("value")
        while value:
            if any(_valid(module, value) for module in modules):
                yield m.start("value"), m.start("value") + len(value)
                break
            value = value.rpartition(" ")[0]
    if "(" not in text:
        return
    for m in _id_before_its_name_regex().finditer(text):
        modules = names.get(m.group("name")) or _folded_names()[fold(m.group("name"))]
        value = m.group("value")
        while value:
            if any(_valid(module, value) for module in modules):
                yield m.end("value") - len(value), m.end("value")
                break
            value = value.partition(" ")[2]


def unchecked_named_ids(text: str) -> Iterator[tuple[int, int]]:
    """Spans of a value with a digit written after a person's id's own name
    ("NIE Y4829173K", "DNI: 4829173-5") that the id's check does not take:
    a value mistyped, or of a shape stdnum does not know, is the value the
    name announces all the same (``unsure`` puts it before the reviewer)."""
    for m in _named_id_regex().finditer(text):
        if any(c.isdigit() for c in m.group("value")):
            yield m.span("value")


@functools.cache
def _folded_names() -> dict[str, tuple[Any, ...]]:
    # By the matcher's own case relation: "Isıkukood" matches "Isikukood"
    # ignoring case, but casefolds to another key.
    return {fold(name): modules for name, modules in personal_id_names().items()}


def _valid(module: Any, value: str) -> bool:
    try:
        return bool(module.is_valid(value))
    except Exception:  # a stdnum check that chokes on a shape it did not expect
        return False


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
_IBAN_ANY_CASE = re.compile(IBAN_REGEX, re.IGNORECASE)
_IBAN_CAPITALS = re.compile(IBAN_REGEX)
#: What an IBAN's shape holds after its last blank: a group and the part
#: of one after it, or a word that followed the IBAN ("today", "please").
_LAST_GROUP = re.compile(r"[ ][A-Za-z0-9]{1,8}\Z")


def iban_spans(text: str, any_case: bool = True) -> Iterator[tuple[int, int]]:
    """(start, end) of each IBAN in ``text`` (``iban_ok``), in capitals or,
    with ``any_case``, in any casing ("es77 3982 ..."). The shape runs on
    over a short word after an IBAN whose groups end even ("ES77 ... 3378
    today", "... 3378 is wrong": in any casing "today" is a group), so
    the last groups after a blank are dropped, one at a time, until the
    check digits hold."""
    for m in (_IBAN_ANY_CASE if any_case else _IBAN_CAPITALS).finditer(text):
        value = m.group(0)
        for _ in range(3):
            if iban_ok(value):
                yield m.start(), m.start() + len(value)
                break
            last = _LAST_GROUP.search(value)
            if not last:
                break
            value = value[: last.start()]


def iban_ok(text: str) -> bool:
    """An IBAN: its ISO 7064 mod-97-10 check digits hold (python-stdnum) and
    its first two letters are an ISO 3166 country (pycountry). The SWIFT
    registry's structure of the account number is not asked for: a bank of
    a country outside the registry (Australia, Canada, Mexico...) writes
    account numbers in IBAN form too, and one wrong character in 97 passes
    the check digits."""
    from stdnum import iban
    from stdnum.iso7064 import mod_97_10

    compact = iban.compact(text)
    if not (compact[:2].isalpha() and compact[2:4].isdigit() and compact.isalnum()):
        return False
    if compact[:2] not in _countries():
        return False
    return bool(mod_97_10.is_valid(compact[4:] + compact[:4]))


@functools.cache
def _countries() -> frozenset[str]:
    """ISO 3166 alpha-2 country codes (pycountry)."""
    import pycountry

    return frozenset(country.alpha_2 for country in pycountry.countries)


@functools.cache
def _offline_tld() -> Any:
    import tldextract

    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


def a_real_domain(domain: str) -> bool:
    """Whether ``domain`` ends in a public suffix (tldextract's bundled list)."""
    parts = _offline_tld()(domain)
    return bool(parts.suffix and parts.domain)


#: Where a GDS record's free text starts: after its segment status and count
#: ("SSR CTCM AF HK1/33612345678", "SSR CTCE AF HK1/A.DENIS//FREE.FR"), a
#: slash the rules of numbers and e-mails otherwise take for a path's or a
#: code's, and left the value silent. Only a status IATA's SSR writes
#: (``GDS_STATUSES``): any two capitals, a digit and a slash surfaced the
#: digits of a case's, a policy's or a part's reference as a phone
#: ("CS1/445566778", "PL1/556677889", "XR2/40017788").
GDS_STATUSES = "DK|GK|HK|HL|HN|HX|KK|KL|NN|NO|PN|RR|SS|TK|TL|UC|UN|US|UU"
AFTER_A_GDS_STATUS = rf"|(?<=\b(?:{GDS_STATUSES})\d/)"


#: The ``@`` spelt out: "//" in a GDS record (IATA's SSR CTCE, written in
#: capitals: "ADRIENDENIS//FREE.FR"; a lower-case "a//b.md" is as often a
#: path), "(at)" or "[at]" in any case ("jo.smith (at) example.org"). CTCE
#: spells a hyphen "./" and an underscore "..": "SMITH./JONES//YAHOO.CO.UK".
_SPELT_OUT = re.compile(
    rf"(?:(?<![\w.%+/:-]){AFTER_A_GDS_STATUS})(?:"
    r"(?P<gds>[A-Z0-9](?:[A-Z0-9._%+-]|\./)*//(?P<gds_domain>[A-Z0-9-]+(?:\.[A-Z0-9-]+)*\.[A-Z]{2,}))"
    r"|(?P<at>[A-Za-z0-9][A-Za-z0-9._%+-]*[ \t]?(?:\(at\)|\[at\])[ \t]?"
    r"(?P<at_domain>[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}))"
    r")(?![\w.-]*\w)"
)


def spelt_out_emails(text: str) -> list[tuple[int, int]]:
    """Spans of e-mail addresses whose ``@`` is spelt out (``_SPELT_OUT``)
    and whose domain ends in a real public suffix."""
    found = []
    for m in _SPELT_OUT.finditer(text):
        kind = "gds" if m.group("gds") else "at"
        if a_real_domain(m.group(f"{kind}_domain")):
            found.append(m.span())
    return found


#: A GDS passenger's travel document (IATA's SSR DOCS, in capitals): type,
#: issuer, number, nationality, birth date, gender, expiry, surname, given
#: names; a field may be empty ("P/FR/21AB12345/FR/12MAR85/F/14SEP29/DUBOIS/
#: MARIE", "HK1/////12MAR85/F//DUBOIS/MARIE"). The expiry is no one's.
_GDS_DATE = r"\d{2}[A-Z]{3}\d{2}(?:\d{2})?"  # "12MAR85", "12MAR1985"
_TRAVEL_DOCUMENT = re.compile(
    r"(?<![A-Z0-9])[A-Z]{0,2}/[A-Z]{0,3}/(?P<number>[A-Z0-9]{5,15})?/[A-Z]{0,3}/"
    rf"(?P<birth>{_GDS_DATE})?/(?:MI|FI|[MFUX])?/(?:{_GDS_DATE})?"
    r"/(?P<surname>[A-Z][A-Z'-]+(?:[ ][A-Z][A-Z'-]+)*)"
    # A given name may be an initial; the primary holder's "/H" is no middle name.
    r"/(?P<given>[A-Z][A-Z'-]*(?:[ ][A-Z][A-Z'-]+)*)(?:/(?P<middle>[A-Z][A-Z'-]+))?"
    r"(?![A-Za-z'-])"
)


def travel_record_values(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, entity) of the personal values of a travel document's
    record in ``text`` (``_TRAVEL_DOCUMENT``): its number (PASSPORT), birth
    date and names. A record holds a number or a birth date: eight slashes
    before two words in capitals alone are no record. (A passenger's
    "DUBOIS/MARIE MRS" is the unsure rules': "EUR/USD MR" is written so too.)"""
    for m in _TRAVEL_DOCUMENT.finditer(text):
        if not (m.group("number") or m.group("birth")):
            continue
        for group, entity in _TRAVEL_DOCUMENT_FIELDS:
            if m.group(group):
                yield m.start(group), m.end(group), entity


_TRAVEL_DOCUMENT_FIELDS = (
    ("number", "PASSPORT"),
    ("birth", "DATE_OF_BIRTH"),
    ("surname", "PERSON"),
    ("given", "PERSON"),
    ("middle", "PERSON"),
)


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
    # Not the groups of a phone: "+61-2-5800-1909", "+61.3.7255.8281".
    r"|(?<![+\d][.-])(?<!\+)\b\d{1,2}([/.-])\d{1,2}\1\d{4}\b(?![.-]\d)|\b\d{1,2}/\d{1,2}/\d{2}\b"
    # Year first with slashes ("2026/03/14"): a phone's area code and slash read it too.
    r"|\b\d{4}/\d{1,2}/\d{1,2}\b"
)


#: A number written as people write phones: a country code (with its "+",
#: in brackets after it, "+(370) 22240912", or before an area code in
#: brackets: "1 (813) 493-8386"), a trunk "(0)", an area code in brackets,
#: groups of digits split by one kind of separator, or a slash after an
#: area code of at most eight digits as Central Europe writes it
#: ("089/1234567", "06-1/424 5134", "(06)29/726-8501"; two phones split by a
#: slash stay two), an extension ("x9773", "ext. 12").
_PHONE_SHAPE = re.compile(
    r"(?<![\w+/.-])(?:\+(?:\d{1,3}|\(\d{1,3}\))[ .-]?|\d{1,3}[ .-]?(?=\(\d))?(?:\(0\)[ ]?)?"
    r"(?:\(\d{1,5}\)[ .-]?)?(?:\d{1,4}(?:[ .-]\d{1,4})?/[ ]?\d{1,8}(?:[ .-]{1,2}\d{1,8}){0,4}"
    r"|\d{1,15}(?:[ .-]{1,2}\d{1,8}){0,5})"
    r"(?P<ext>[ ]?(?i:x|ext\.?|extension)[ ]?\d{1,6})?(?![\w+]|[.-]\d)"
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
    with the international 00 or a trunk 0 (nine digits or more), else 0.4.
    Dates, times, card-shaped groups and IP addresses are not phones, nor a
    number after "tracking", "order", "account"..."""
    if _fewer_digits(text, 6):
        return

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
        valid = _validates(number, regions)
        if formatted and digits >= 7:
            yield start, end, 0.75 if valid else 0.6
        elif valid:  # bare digits, or six in groups ("33 17 13"): with a cue
            cue = _PHONE_CUE_BEFORE.search(text, max(0, start - 40), start)
            alone = "\n" in text and _starts_a_line(text, start)
            # With the international 00, or a national number with its trunk
            # 0 ("0255183330"): that is how phones are written, not order or
            # tracking numbers (a number after those words is none).
            dialled = number.startswith("0") and digits >= 9
            yield start, end, 0.6 if cue or alone or dialled else 0.4


def _fewer_digits(text: str, least: int) -> bool:
    """Whether ``text`` holds fewer than ``least`` digits (``str.isdigit``).
    The ASCII ones are counted first, in C: a long text's pieces hold
    enough of them, and are not read character by character in Python."""
    if sum(text.count(d) for d in "0123456789") >= least:
        return False
    return sum(ch.isdigit() for ch in text) < least


@functools.lru_cache(maxsize=8192)
def _validates(number: str, regions: tuple[str, ...]) -> bool:
    """Whether libphonenumber validates ``number`` in one of ``regions`` (or
    by its country code). Kept per number: a long text's overlapping pieces
    read some numbers twice, and the leak guard validates again each number
    ``phone_spans`` found (2,627 asked, 1,971 distinct, on the bench's 1 MiB
    message; then the guard's)."""
    import phonenumbers

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

    for start, end, _score in phone_spans(text, regions):
        if _validates(text[start:end], regions):
            yield start, end


@functools.cache
def currency_words() -> frozenset[str]:
    """The last words of the currencies' names in English, case-folded
    (CLDR's, through babel: "euro", "krone", "zloty", "peso"): a number
    before one is a price ("45 Euro"), not a house number."""
    from babel import Locale

    names = Locale("en").currencies.values()
    return frozenset(w for n in names if (w := n.split()[-1].casefold()).isalpha())
