"""miner's recognizers, as the detector adds them to Presidio's registry."""

from __future__ import annotations

import re
from typing import Any

from presidio_analyzer import Pattern, PatternRecognizer

from miner.redaction.lexicon.addresses import UK_POSTCODE_REGEX
from miner.redaction.lexicon.dates import dob_cue_regexes
from miner.redaction.lexicon.formats import (
    CARD_REGEX,
    NATIONAL_ID_CONTEXT,
    PASSPORT_CUE_REGEX,
    SSN_CUE_REGEX,
)
from miner.redaction.lexicon.names import NAME_CUE_REGEX, NOT_NAMES
from miner.redaction.recognizers.address import AddressRecognizer
from miner.redaction.recognizers.addressed import AddressedNameRecognizer
from miner.redaction.recognizers.card import CardRecognizer
from miner.redaction.recognizers.country import country_recognizers
from miner.redaction.recognizers.cue_pattern import CuePatternRecognizer
from miner.redaction.recognizers.first_name import FirstNameRecognizer
from miner.redaction.recognizers.iban import CheckDigitIbanRecognizer
from miner.redaction.recognizers.national_id import NationalIdRecognizer
from miner.redaction.recognizers.phone import ValidatedPhoneRecognizer
from miner.redaction.recognizers.spacy_ner import PlaceAwareSpacyRecognizer
from miner.redaction.recognizers.spelt_out_email import SpeltOutEmailRecognizer
from miner.redaction.recognizers.travel_record import TravelRecordRecognizer

_CASED = re.DOTALL | re.MULTILINE


def build_recognizers(
    language: str, phone_regions: tuple[str, ...], nlp_engine: Any = None
) -> list[Any]:
    """miner's recognizers, to add to a registry (after removing Presidio's
    ``SpacyRecognizer``, ``PhoneRecognizer``, ``CreditCardRecognizer``,
    ``IbanRecognizer`` and ``EmailRecognizer``)."""
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
        SpeltOutEmailRecognizer(
            supported_entities=["EMAIL_ADDRESS"],
            supported_language=language,
            name="SpeltOutEmailRecognizer",
        ),
        TravelRecordRecognizer(
            supported_entities=["PASSPORT", "DATE_OF_BIRTH", "PERSON"],
            supported_language=language,
            name="TravelRecordRecognizer",
        ),
        CheckDigitIbanRecognizer(
            supported_entities=["IBAN_CODE"],
            supported_language=language,
            name="CheckDigitIbanRecognizer",
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
            context=NATIONAL_ID_CONTEXT,
            name="NationalIdRecognizer",
            regions=phone_regions,
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
        AddressedNameRecognizer(
            supported_entities=["PERSON"],
            supported_language=language,
            name="AddressedNameRecognizer",
        ),
        *country_recognizers(language, phone_regions),
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
