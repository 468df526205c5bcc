"""What the policy is sure of and replaces instead of surfacing: e-mail
addresses whose @ is spelt out, IBANs of any country by their check digits,
a person's id of any country after its own name, phones written with their
country code in groups. Through the real policy (Presidio, the pinned spaCy
model, miner's recognizers); each shape beside its near miss, which stays."""

from __future__ import annotations

import pytest
from stdnum.iso7064 import mod_97_10


@pytest.fixture(scope="module")
def policy():
    from miner.config import load_config
    from miner.redaction.policy import policy_for
    from tests.conftest import PIPELINE

    return policy_for(load_config(PIPELINE))


def found(policy, text: str) -> dict[str, str]:
    [hits] = policy.detect([text])
    return {value: entity for entity, value in hits}


@pytest.mark.parametrize(
    "text, email",
    [
        ("SSR CTCE KL HK1 MARIEMARTIN//ORANGE.FR", "MARIEMARTIN//ORANGE.FR"),
        ("please write to jo.smith (at) example.org instead", "jo.smith (at) example.org"),
        ("contact: P.KOWALSKI//WP.PL/PL", "P.KOWALSKI//WP.PL"),
        # CTCE's hyphen and underscore: smith-jones@, anna_lena.koch@.
        ("SSR CTCE SMITH./JONES//YAHOO.CO.UK", "SMITH./JONES//YAHOO.CO.UK"),
        ("SSR CTCE ANNA..LENA.KOCH//WEB.DE", "ANNA..LENA.KOCH//WEB.DE"),
    ],
)
def test_an_e_mail_with_its_at_spelt_out_is_replaced(policy, text, email):
    assert found(policy, text).get(email) == "EMAIL_ADDRESS"


@pytest.mark.parametrize(
    "text",
    [
        "see https://WWW.EXAMPLE.COM/HELP for help",
        "the file is in docs//readme.md",
        "SSR CTCE KL HK1 MARIEMARTIN//ORANGE.NOTADOMAIN",
    ],
)
def test_a_url_a_path_or_an_unknown_domain_is_no_e_mail(policy, text):
    assert "EMAIL_ADDRESS" not in found(policy, text).values()


def _iban(country: str, account: str) -> str:
    return f"{country}{mod_97_10.calc_check_digits(account + country)}{account}"


def test_an_iban_of_a_country_outside_the_swift_registry_is_replaced_by_its_check_digits(policy):
    # Australia has no IBAN in the registry; its banks' numbers in IBAN form do.
    iban = _iban("AU", "0820001234567")
    assert found(policy, f"please refund to {iban} today").get(iban) == "IBAN_CODE"
    wrong = iban[:-1] + str((int(iban[-1]) + 1) % 10)
    assert "IBAN_CODE" not in found(policy, f"please refund to {wrong} today").values()
    # Two letters that are no country are no IBAN.
    fake = _iban("QQ", "0820001234567")
    assert "IBAN_CODE" not in found(policy, f"please refund to {fake} today").values()


@pytest.mark.parametrize(
    "text, value",
    [
        ("for the form: my rodné číslo is 710319/2745", "710319/2745"),
        ("PESEL: 44051401458, thanks", "44051401458"),
        ("the NIE on my card is X-1234567-L", "X-1234567-L"),
        ("My Number 1234 5678 9018, for the bank", "1234 5678 9018"),
        ("her fødselsnummer 15108695088 was wrong", "15108695088"),
        ("His social security number is 710319/2745", "710319/2745"),
        ("my number for the account: 123456789018 (My Number card)", "123456789018"),
        ("the id is 44051401458 (PESEL), thanks", "44051401458"),
    ],
)
def test_a_person_s_id_after_its_own_name_is_replaced(policy, text, value):
    assert found(policy, text).get(value) == "NATIONAL_ID"


@pytest.mark.parametrize(
    "text",
    [
        "PESEL: 44051401459, thanks",  # the check digit is wrong
        "my rodné číslo is 710319/2746",
        "the order id is 12345678 from March",
        "the order 123456789019 (My Number) was shipped",  # the check digit is wrong
    ],
)
def test_a_number_after_an_id_s_name_that_fails_its_check_is_not_an_id(policy, text):
    assert "NATIONAL_ID" not in found(policy, text).values()


@pytest.mark.parametrize(
    "text, value",
    [
        ("pasaporte PAB123456", "PAB123456"),
        ("numero di passaporto YA1234567", "YA1234567"),
        ("paspoort nr. NW3K21L98, geldig tot 2031", "NW3K21L98"),
    ],
)
def test_a_passport_number_after_its_name_in_another_language_is_replaced(policy, text, value):
    assert found(policy, text).get(value) == "PASSPORT"


def test_a_passport_s_name_before_a_number_without_a_digit_or_too_long_is_no_passport(policy):
    assert "PASSPORT" not in found(policy, "the pasaporte office, ticket 1234567890").values()


@pytest.mark.parametrize(
    "text, phone",
    [
        ("Kind regards\nJo\n+61-2-5800-1909", "+61-2-5800-1909"),
        ("Kind regards\nJo\n+61.3.7255.8281", "+61.3.7255.8281"),
        ("have the manager call me at 1 (813) 493-8386 please", "1 (813) 493-8386"),
    ],
)
def test_a_phone_in_groups_that_look_like_a_date_is_replaced_whole(policy, text, phone):
    assert found(policy, text).get(phone) == "PHONE_NUMBER"


def test_a_date_is_still_no_phone(policy):
    assert "PHONE_NUMBER" not in found(policy, "I ordered it on 12-03-2024, call me").values()


def test_a_title_for_either_sex_is_replaced_with_the_name(policy):
    text = "Maybe the booking is under Sr(a). Valentina Quiroga, can you check?"
    values = found(policy, text)
    assert values.get("Sr(a). Valentina Quiroga") == "PERSON", values


@pytest.mark.parametrize(
    "written",
    [
        "{}",  # as the bank writes it
        "{} today.",  # a short word after it runs into its shape in any case
        "{} please",
    ],
)
@pytest.mark.parametrize("casing", [str.upper, str.lower])
@pytest.mark.parametrize("spaced", [False, True])
def test_an_iban_in_any_casing_spaced_or_not_is_replaced_whole(policy, written, casing, spaced):
    iban = _iban("ES", "29141777766317066907")  # 24 characters: groups of four end even
    if spaced:
        iban = " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))
    iban = casing(iban)
    text = "Please wire it to " + written.format(iban)
    assert found(policy, text).get(iban) == "IBAN_CODE"


def test_an_iban_s_name_before_it_is_no_person(policy):
    iban = _iban("GB", "ESZY14177763170669")
    for text in (f"IBAN:{iban.lower()}", f"my iban is {iban}, thanks", f"(IBAN {iban})"):
        values = found(policy, text)
        assert values.get(iban.lower() if ":" in text else iban) == "IBAN_CODE", values
        assert "PERSON" not in values.values(), values


def test_the_guard_finds_an_iban_before_a_word():
    from miner.redaction.guard import LeakGuard

    iban = _iban("ES", "29141777766317066907")
    assert LeakGuard(("ES",), ()).scan([f"WIRE IT TO {iban} TODAY"]) == {"IBAN_CODE": 1}


def test_a_travel_document_s_record_is_replaced_field_by_field_but_its_expiry(policy):
    text = "SSR DOCS YY HK1/P/GBR/S12345678/GBR/12JUL64/M/23OCT29/SMITH/JOHN/RICHARD/H"
    hits = found(policy, text)
    assert {value: hits.get(value) for value in ("S12345678", "12JUL64", "SMITH", "JOHN")} == {
        "S12345678": "PASSPORT",
        "12JUL64": "DATE_OF_BIRTH",
        "SMITH": "PERSON",
        "JOHN": "PERSON",
    }
    assert "RICHARD" in hits and not any("23OCT29" in value for value in hits), hits


@pytest.mark.parametrize(
    "text",
    [
        "the TCP/IP stack and the AC/DC adapter",
        "RATE EUR/USD MR ANALYST",  # a passenger's "DUBOIS/MARIE MRS" is written so too
        "path a////////XYZ/ABC",  # a record's slashes, neither a number nor a birth date
        "P/FR/21AB12345/FR/12MAR85/F/14SEP29/SMITH/JOHNathan",  # runs on in lower case
    ],
)
def test_slashes_between_capitals_are_no_travel_record(text):
    from miner.redaction.lexicon.formats import travel_record_values

    assert list(travel_record_values(text)) == []
