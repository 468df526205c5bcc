"""Addresses read upwards from their postcode-and-town part
(miner/redaction/lexicon/postcode_blocks.py): sure when a part above holds
a number or a street's type, only shaped like one otherwise, and nothing
where the words beside a number name no town or nothing above is a street."""

from __future__ import annotations

import pytest

from miner.redaction.lexicon.postcode_blocks import blocks_above_postcodes


def blocks(text: str) -> list[tuple[str, bool]]:
    return [(text[start:end], sure) for start, end, sure in blocks_above_postcodes(text)]


@pytest.mark.parametrize(
    "text, block",
    [
        # A house number on its own line above the street line, and a town
        # joined to its postcode by a hyphen, parts after commas.
        ("Regards,\nMira Kale\n17\nLotus Garden Road\nPunewadi 411038\n+91 98200 11111",
         "17\nLotus Garden Road\nPunewadi 411038"),
        ("Regards,\nMira Kale\n88, Kher Wadi, Alibag-402201\n", "88, Kher Wadi, Alibag-402201"),
        ("Drop it at 12/4, Tilak Path, Nandurbar-425412 please",
         "12/4, Tilak Path, Nandurbar-425412"),
        # The number's mark, and units under the street line.
        ("Thx\nAnil Rao\nH.No. 42\nGanga Vihar\nKotdwar-246149",
         "H.No. 42\nGanga Vihar\nKotdwar-246149"),
        ("Str. Morii 8 Bl. 3 Sc. 2 Ap. 14\nCampina, 105600",
         "Str. Morii 8 Bl. 3 Sc. 2 Ap. 14\nCampina, 105600"),
        # A lower-case word of a street line's name or type ("put", "utca").
        ("Please send it to Zelena put 12b\n21000 Split today", "Zelena put 12b\n21000 Split"),
        ("so: Petőfi sándor utca 9.\nH-7400 Kaposvár", "Petőfi sándor utca 9.\nH-7400 Kaposvár"),
    ],
)  # fmt: skip
def test_a_street_above_a_postcode_and_town_is_a_sure_address(text, block):
    assert blocks(text) == [(block, True)]


@pytest.mark.parametrize(
    "text, block",
    [
        # A street type no list of ours holds, no number: shaped like an address.
        ("Kind regards\nIoana Rusu\nSplaiul Unirii\nMedias, 551002",
         "Splaiul Unirii\nMedias, 551002"),
        ("Please forward it to Calea Grivitei\nBaia lui Stan, 405300 soon",
         "Calea Grivitei\nBaia lui Stan, 405300"),
    ],
)  # fmt: skip
def test_a_street_with_no_number_nor_known_type_above_a_postcode_is_only_shaped(text, block):
    assert blocks(text) == [(block, False)]


@pytest.mark.parametrize(
    "text",
    [
        "Hello,\nBooking 45821 is confirmed",  # an English word beside the number
        "Kind Regards\nParis, 2019",  # a year
        "Ring us\nFlight 123",  # three digits
        "Kind regards\nBerlin 10115",  # no street above
        "Acme Holdings GmbH\n10115 Berlin",  # a firm above its town
        "Meet at Orbis Inc. 12 Kline Road\n10115 Berlin",  # a firm's abbreviated form
        "Kind regards\n12 Kline Road\nVista Fund 4410",  # a firm beside the number
        "Best Regards\nBerlin 10115",  # English words above
    ],
)
def test_no_block_where_no_town_or_no_street_stands(text):
    assert blocks(text) == []


@pytest.mark.parametrize(
    "line, shaped",
    [
        ("Cl. 14 # 5-22 Oeste", True),
        ("Local 3", True),
        ("H.No. 17", True),
        ("Quinta Vilela", True),  # a word English's lexicon has no form of
        ("Senior Account Manager", False),  # a job: English words only
        ("Sent from my phone", False),  # a sentence
        ("Pasto", False),  # one word: a town as often as a name
    ],
)
def test_a_line_is_shaped_like_an_address_s_by_its_numbers_and_words(line, shaped):
    from miner.redaction.lexicon.postcode_blocks import an_address_line

    assert an_address_line(line) is shaped


@pytest.mark.parametrize(
    "text, block",
    [
        ("Regards,\n<PERSON_1>\nKossuth\n4027 Fonyód", "Kossuth\n4027 Fonyód"),
        ("<PERSON_1>\\nSundkrogen\\n3999 Lundby", "Sundkrogen\\n3999 Lundby"),
    ],
)
def test_one_word_between_a_name_replaced_and_the_postcode_s_line_is_shaped(text, block):
    import re

    replaced = re.compile(r"<PERSON_\d+>")
    found = [(text[s:e], sure) for s, e, sure in blocks_above_postcodes(text, replaced)]
    assert found == [(block, False)]


@pytest.mark.parametrize(
    "text",
    [
        # An English word, or no name replaced above it.
        "Regards,\n<PERSON_1>\nMarketing\n4027 Fonyód",
        "Regards,\nthe team\nKossuth\n4027 Fonyód",
    ],
)
def test_one_word_above_a_postcode_s_line_alone_is_no_street(text):
    import re

    assert list(blocks_above_postcodes(text, re.compile(r"<PERSON_\d+>"))) == []
