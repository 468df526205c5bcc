"""The policy's surface verdict (miner/redaction/unsure/) on the shapes
issue 36 found leaking silently, and on look-alikes it must leave alone."""

from __future__ import annotations

from collections import Counter

import pytest

from miner.redaction.unsure import BLOCK_PART_ALONE, Unsure


def surfaced(text: str, key: str | None = None) -> dict[str, str]:
    return {text[s:e]: entity for s, e, entity in Unsure().spans(text, key)}


@pytest.mark.parametrize(
    "text, value",
    [
        ("hi, it's teófila again. the webcam arrived broken", "teófila"),
        ("no signal since monday, it's arthur from the VIP plan", "arthur"),
        ("Please ring FARMER on the intercom", "FARMER"),
        ("Deutsche Post says the recipient SAUER is not known", "SAUER"),
        ("Customer Máxima Quiroga (C-25003) escalated", "Máxima Quiroga"),
    ],
)
def test_a_name_in_lower_case_or_capitals_is_surfaced(text, value):
    assert surfaced(text).get(value) == "PERSON"


@pytest.mark.parametrize(
    "text, value",
    [
        ("please follow up with jannick ravnsbæk next week", "jannick ravnsbæk"),
        ("the assistant to maëlys quéré, and the rest", "maëlys quéré"),
        ("songwriter mrs keira whitcombe employs lingo", "mrs keira whitcombe"),
        ("the parcel for jean-baptiste never came", "jean-baptiste"),
    ],
)
def test_a_name_in_lower_case_is_surfaced_whole_with_its_title(text, value):
    assert surfaced(text).get(value) == "PERSON"


def test_a_bare_phone_in_an_escalation_summary_is_surfaced():
    text = "Customer <PERSON_1> (C-1042, <EMAIL_ADDRESS_1>, 00573001234567)"
    assert surfaced(text) == {"00573001234567": "PHONE_NUMBER"}


def test_an_airline_s_gds_e_mail_is_surfaced():
    assert surfaced("SSR CTCE ADRIENDENIS//FREE.FR")["ADRIENDENIS//FREE.FR"] == "EMAIL_ADDRESS"
    # With its hyphen spelt "./", the whole address, not its tail.
    assert surfaced("CTCE SMITH./JONES//NOTLISTED.CO")["SMITH./JONES//NOTLISTED.CO"] == (
        "EMAIL_ADDRESS"
    )


def test_a_listed_first_name_after_an_article_is_a_noun():
    # "mall" is a listed first name English writes under Zipf 4.5.
    assert surfaced("we met at the mall yesterday") == {}
    assert surfaced("we met mall yesterday, she said hi").get("mall") == "PERSON"


def test_a_phone_after_a_gds_record_s_status_is_surfaced():
    # "HK1/" is the segment's status and count: the slash before the digits
    # is no path's, and the passenger's phone was left silent.
    assert surfaced("SSR CTCM AF HK1/33612345678") == {"33612345678": "PHONE_NUMBER"}
    assert surfaced("see docs/12345678 for the spec") == {}


@pytest.mark.parametrize(
    "text",
    [
        "Case CS1/445566778 was closed yesterday.",
        "Part number XR2/40017788 is out of stock.",
        "Order PO1/9876543210 shipped.",
    ],
)
def test_a_code_s_number_after_a_slash_is_no_gds_phone(text):
    # Two capitals, a digit and a slash: a reference's, not a GDS status.
    assert surfaced(text) == {}


def test_a_gds_e_mail_after_its_record_s_status_is_replaced(policy):
    result = redacted(policy, "SSR CTCE AF HK1/ADRIEN.DENIS//FREE.FR")
    assert result.session.turns[0].user_text == "SSR CTCE AF HK1/<EMAIL_ADDRESS_1>"
    assert not result.surfaced


def test_a_street_in_lower_case_is_surfaced():
    assert surfaced("the bill goes to 44 norris light").get("44 norris light") == ("STREET_ADDRESS")


@pytest.mark.parametrize(
    "text, value",
    [
        ("We meet at Acme Ltd, 146 Dobrovského, Strmilov", "146 Dobrovského"),
        ("Olga Nováková\nKlášterecká 128\n418 04 Úpice", "Klášterecká 128"),
        ("WE MEET AT ACME, 8 HAUGLANDBAKKEN, TROMSØ", "8 HAUGLANDBAKKEN"),
        ("the parcel is for Largo de Esteves 12, Oliveira", "Largo de Esteves 12"),
    ],
)
def test_a_house_number_beside_a_word_english_does_not_write_is_surfaced(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


@pytest.mark.parametrize(
    "text, value",
    [
        ("Willemine, can I please speak to your boss?", "Willemine"),
        ("Zikmund is a very sympathetic person.", "Zikmund"),
        ("Is there a better example than early Blomqvist?", "Blomqvist"),
        # A surname on its own line under a first name: no job's line.
        ("Kind regards\nIngrid\nVelkorsi\nHalvorsen Bygg\n18 Birch Lane", "Velkorsi"),
        # Under a one-word line, or a sentence's, it is no firm's line.
        ("Kind regards\nIngrid\nVelkorsi\n18 Birch Lane", "Velkorsi"),
        ("Please update my address\nIngrid Velkorsi\n18 Birch Lane", "Ingrid Velkorsi"),
        # With a first name: a second person's line, no firm's.
        ("Ingrid Solberg\nHalvor Velkorsi\n18 Birch Lane", "Halvor Velkorsi"),
        # Between "my" and no number, or "the" and no state's noun.
        ("I asked my Velkorsi about it", "Velkorsi"),
        ("the Velkorsi family is away", "Velkorsi"),
    ],
)
def test_a_capitalised_word_no_list_knows_is_surfaced(text, value):
    assert surfaced(text).get(value) == "PERSON"


@pytest.mark.parametrize(
    "text",
    [
        "I live in Ebikon now",  # a place by the word before it
        "Altstätten is lovely in May",  # a GeoNames town of 5,000 people
        "He moved to Anthonychester last year",  # a town's ending
        "We stayed at Lake Patriciaside",
        "the hotel in Paschoud-près-Boichat",
        "Iteris Inc said so",  # an organisation word after it
        "Baytex Energy shares rose",  # a capitalised noun after it
        "Traceback (most recent call last)",  # two English words run together
        "PaymentGatewayError: declined",  # a capital inside: code, not a name
        "the Qzarian government resigned",  # a state's noun after it
        "my Sotsiaalkindlustusnumber is 12345678",  # a number's name after "my"
    ],
)
def test_a_capitalised_word_its_shape_or_neighbours_make_a_place_or_thing_is_not(text):
    assert "PERSON" not in surfaced(text).values()


@pytest.mark.parametrize(
    "text",
    [
        "Ingrid Solberg, the Sykepleier, said so",  # an apposition's job
        "Ingrid Solberg\nSykepleier\nHalvorsen Bygg\n18 Birch Lane",  # a job's line
        "Ingrid Solberg\n\nSykepleier\n\nContact:\nPhone: 555 0100",
        "I have checked this for you: <PERSON_1>\\n\\nSykepleier\\n\\nPersonal Info:\\n"
        "Phone:\\n<PHONE_NUMBER_1>",
    ],
)
def test_a_capitalised_word_where_a_job_stands_is_not_surfaced(text):
    assert "Sykepleier" not in surfaced(text)


@pytest.mark.parametrize(
    "text",
    [
        # A firm's line under a full name's, a placeholder's, or a job's.
        "Ingrid Solberg\nVelkorsi\n18 Birch Lane",
        "<PERSON_1>\\nVelkorsi\\n<STREET_ADDRESS_1>\\nMobile: <PHONE_NUMBER_1>",
        "Ingrid Solberg\nSykepleier\nVelkorsi Bygg\n18 Birch Lane",
        "??? Ingrid de Solberg\n??? Velkorsi\n??? 18 Birch Lane",
        # A reply quoting the block after a colon.
        "I have checked this for you: <PERSON_1>\\nVelkorsi\\n<STREET_ADDRESS_1>",
        # The firm's second word no list knows, after its first.
        "Ingrid Solberg\nQarnholt Velkorsi\n18 Birch Lane",
    ],
)
def test_a_word_no_list_knows_on_a_firm_s_line_under_a_name_is_not_surfaced(text):
    assert "Velkorsi" not in " ".join(surfaced(text))


def test_customer_cue_surfaces_a_surname_english_writes_with_the_first_name():
    text = "Customer Caroline Daniel (C-92761, 0255183330) escalated: Gold plan billing."
    assert surfaced(text).get("Caroline Daniel") == "PERSON"


@pytest.mark.parametrize(
    "text, value",
    [
        ("send it to Travessa Costa, 12\nLisboa", "Travessa Costa, 12"),
        ("ul. Kwiatowa 12/4, Kraków", "ul. Kwiatowa 12/4"),
    ],
)
def test_a_house_number_after_capitalised_words_one_foreign_is_surfaced(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


@pytest.mark.parametrize(
    "text, value",
    [
        ("<STREET_ADDRESS_1> 6a\n5800 Žiri", "6a"),
        ("Ady <PERSON_1> utca 230.\nH-2368 Tamásifalva", "utca 230."),
        ("Strada <PERSON_1> Nr. 934", "Nr. 934"),
        # After a name and a comma, a name replaced is a street's as often.
        ("Deliver to <PERSON_1>, <PERSON_2> 78 please", "78"),
        # An abbreviation read as a name up to its full stop: its number.
        ("Ship to Apt. 7, <PERSON_1>. 72\nTallinn", "72"),
        ("Deliver to <PERSON_1>. 12B, Viljandi", "12B"),
        ("Deliver to <PERSON_1>, <PERSON_2>. 99 please", "99"),
    ],
)
def test_the_rest_of_a_street_line_after_a_replaced_name_is_surfaced(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


@pytest.mark.parametrize(
    "text, value",
    [
        # A street's type after a street named after a person, any language's.
        ("Ship it to Ady Endre út please", "út"),
        ("I have noted Ady Endre út on your file.", "út"),
    ],
)
def test_a_lower_case_word_english_does_not_write_after_a_person_is_surfaced(policy, text, value):
    result = redacted(policy, text)
    assert value in result.session.turns[0].user_text
    assert ("STREET_ADDRESS", value) in {(s.entity, s.value) for s in result.surfaced}


@pytest.mark.parametrize(
    "text, found",
    [
        ("Ship it to <PERSON_1> út please", ["út"]),
        ("Address: <PERSON_1> maantee\nTallinn", ["maantee"]),
        ("I have noted <PERSON_2> stadelmann on your file.", ["stadelmann"]),
        ("I told <PERSON_1> yesterday, thanks", []),  # English writes it
        ("Send it to <PERSON_1> de la casa", []),  # a particle, and no clause's end
        ("Ask <PERSON_1> maria, please", []),  # a first name
        # A text in one case: a word in lower case tells nothing there.
        ("ship to <PERSON_1> maantee, tallinn", []),
        ("Send it to <PERSON_1> Út, Budapest", []),  # a capital outside A-Z
    ],
)
def test_a_word_after_a_person_is_read_only_in_a_text_of_both_cases(text, found):
    from miner.redaction.unsure.streets import words_after_persons

    assert [text[s:e] for s, e, _ in words_after_persons(text)] == found


@pytest.mark.parametrize(
    "text", ["<PERSON_1> was 25 then", "<PERSON_1> 25", "sung by <PERSON_1> in 2004"]
)
def test_an_age_a_count_or_a_year_after_a_name_is_no_house_number(text):
    assert "STREET_ADDRESS" not in surfaced(text).values()


def test_a_street_in_capitals_is_surfaced_from_its_first_word():
    # Not from the "O" of "TO": a value no word boundary starts is covered nowhere.
    assert surfaced("SHIP TO PETROVA 3B").get("PETROVA 3B") == "STREET_ADDRESS"
    assert "O PETROVA 3B" not in surfaced("SHIP TO PETROVA 3B")


def test_a_street_whose_name_was_replaced_surfaces_its_other_words():
    text = "and the bill goes to 90, boulevard de de <PERSON_1>"
    assert surfaced(text) == {"90, boulevard de de": "STREET_ADDRESS"}


@pytest.mark.parametrize(
    "text",
    [
        "I ordered 3 blue mugs in March 2024",
        "Windows 11 keeps crashing since version 24",
        "Flight 2034 to Rome is late, gate 12",
        "we were 5 in Berlin 2 weeks ago",
        # A price, and a plan or a product named by a type English writes.
        "it was 45 Euro in the shop",
        "I upgraded to Plaza 21 yesterday",
        "Our Avenue 54 lamp ships in 3 days",
    ],
)
def test_a_number_beside_english_words_months_or_towns_is_no_street(text):
    assert "STREET_ADDRESS" not in surfaced(text).values()


@pytest.mark.parametrize(
    "text",
    [
        "I bought the headphones at Best Buy last week",
        "Order ORD-20514 was paid with Klarna, shipped via Evri",  # the allow list's
        "Tracking 1234567890123 has not moved",
        "order number 2026110512 was delivered",
        "I ordered it on 2026-11-13 and it expires 2031-05-02",
        "Flight MAN-BEG tomorrow, stuck at Shannon Airport",
        "will you mark it as a gift?",
        "Your <PERSON_1> ticket",
    ],
)
def test_look_alikes_and_explained_numbers_are_not_surfaced(text):
    assert surfaced(text) == {}


def test_a_number_under_a_key_that_names_a_thing_is_not_surfaced():
    assert surfaced("1Z9999990123456784", key="tracking_number") == {}
    assert surfaced("0612345678", key="note") == {"0612345678": "PHONE_NUMBER"}


def test_placeholders_are_never_part_of_a_surfaced_value():
    text = "<PERSON_1> <PERSON_2> called 00447700900123 for <PERSON_1>"
    for value in surfaced(text):
        assert "<" not in value and ">" not in value


# Through the real policy (Presidio, the pinned spaCy model, the session pass):
# each value gets exactly one verdict, and a surfaced one stays as written.


@pytest.fixture(scope="module")
def policy():
    from miner.config import load_config
    from miner.redaction.policy import policy_for
    from tests.conftest import PIPELINE

    return policy_for(load_config(PIPELINE))


def redacted(policy, user: str, summary: str = "", reply: str = "ok"):
    from datetime import UTC, datetime

    from miner.model import Session, ToolCall, Turn

    calls = (ToolCall(name="escalate", agent="a", args={"summary": summary}, result={}),)
    turn = Turn(
        invocation_id="i", user_text=user, reply_text=reply, tool_calls=calls if summary else ()
    )
    now = datetime(2026, 11, 22, tzinfo=UTC)
    session = Session("s", "support_agent", "u-1", now, now, {}, (turn,))
    [result] = policy.redact([session])
    return result


@pytest.mark.parametrize(
    "text, value",
    [
        ("hi, it's teófila again. the Maite webcam arrived broken", "teófila"),
        ("no signal in Almería since the 2026-11-09, it's máxima from the VIP plan", "máxima"),
        ("Deutsche Post says the recipient SAUER is not known", "SAUER"),
        # A firm's word in lower case after a name is the sentence's, not a firm's.
        ("Ramona Okafor bank transfer failed again", "Ramona Okafor"),
        ("please ask Ramona Okafor group leader", "Ramona Okafor"),
    ],
)
def test_a_name_in_lower_case_or_capitals_is_never_left_silently(policy, text, value):
    result = redacted(policy, text)
    written = result.session.turns[0].user_text
    surfaced = {(s.entity, s.value) for s in result.surfaced}
    assert value not in written or ("PERSON", value) in surfaced


def test_a_firm_named_for_a_person_is_kept_when_its_word_is_capitalised(policy):
    text = "Okafor Bank rejected the transfer"
    assert redacted(policy, text).session.turns[0].user_text == text


def test_a_shop_s_name_is_neither_replaced_nor_surfaced(policy):
    text = "I bought the headphones at Best Buy last week"
    result = redacted(policy, text)
    assert result.session.turns[0].user_text == text
    assert result.surfaced == ()


def test_a_bare_phone_in_an_escalation_summary_is_replaced_or_surfaced(policy):
    summary = "Customer Ramona Okafor (C-1042, customer.one@example.com, 0057300123456)"
    result = redacted(policy, "please escalate", summary=summary)
    written = result.session.turns[0].tool_calls[0].args["summary"]
    surfaced = {s.value for s in result.surfaced}
    assert "0057300123456" not in written or "0057300123456" in surfaced


@pytest.mark.parametrize(
    "text, values",
    [
        ("Regards,\nMira Kale\n17\nLotus Garden Road\nPunewadi 411038", ("17", "Lotus", "411038")),
        ("Regards,\nMira Kale\n88, Kher Wadi, Alibag-402201", ("88", "Kher", "Wadi", "402201")),
        ("Drop it at 12/4, Tilak Path, Nandurbar-425412 please", ("12/4", "Tilak", "425412")),
        ("please send it to Zelena put 12b\n21000 Split today", ("Zelena", "12b", "21000")),
        ("Ring me on 06-53/812 4471 today", ("812", "4471")),
        ("Ring me on +(372) 51234567 today", ("372", "51234567")),
    ],
)  # fmt: skip
def test_a_street_above_a_postcode_line_and_a_slashed_phone_are_replaced(policy, text, values):
    written = redacted(policy, text).session.turns[0].user_text
    assert not [v for v in values if v in written], written


def test_a_replaced_address_s_house_number_is_replaced_where_a_field_holds_it_alone(policy):
    from datetime import UTC, datetime

    from miner.model import Session, ToolCall, Turn

    calls = tuple(
        ToolCall(name="verify", agent="a", args={"q": value}, result={})
        for value in ("Nr. 31", "I have noted 7b on your file.")
    )
    turn = Turn(
        invocation_id="i",
        user_text=(
            "Ship it to Strada Morii Nr. 31\nCampina, 105600 and Kolarova ulica 7b\n21000 Split"
        ),
        reply_text="ok",
        tool_calls=calls,
    )
    now = datetime(2026, 11, 22, tzinfo=UTC)
    [result] = policy.redact([Session("s", "support_agent", "u-1", now, now, {}, (turn,))])
    written = [c.args["q"] for c in result.session.turns[0].tool_calls]
    assert not [w for w in written if "31" in w or "7b" in w], written


def test_a_surfaced_value_is_one_decision_however_often_it_occurs(policy):
    result = redacted(
        policy, "ring FARMER on the intercom", reply="I will ask the courier to ring FARMER"
    )
    assert [s.value for s in result.surfaced].count("FARMER") == 1


# The thresholds are the pipeline config's [redaction.unsure] table.


def test_the_config_s_unsure_table_sets_what_the_policy_surfaces(scratch_config):
    from miner.config import load_config
    from miner.redaction.policy import policy_for

    config = load_config(scratch_config(extra="\n[redaction.unsure]\nnames = false\n"))
    policy = policy_for(config)
    assert policy.unsure.config.names is False
    result = redacted(policy, "Please ring FARMER on the intercom")
    assert result.surfaced == ()
    assert result.session.turns[0].user_text == "Please ring FARMER on the intercom"


def test_a_lower_zipf_threshold_surfaces_fewer_lower_case_names():
    from miner.config import UnsureConfig

    text = "thanks, derek will pick it up"
    assert "derek" in surfaced(text)
    eager = Unsure(UnsureConfig(lower_case_zipf=3.0))
    assert not any(text[s:e] == "derek" for s, e, _ in eager.spans(text))


@pytest.mark.parametrize(
    "table, needle",
    [
        ("lower_case_zipf = 9", "redaction.unsure.lower_case_zipf: "),
        ("digits_min = 0", "redaction.unsure.digits_min: "),
        ("names = 1", "redaction.unsure.names: expected true or false"),
        ("zipf = 3", "redaction.unsure.zipf: unknown key (known: capitalised_zipf"),
    ],
)
def test_a_bad_unsure_key_is_refused_in_one_line_naming_file_and_key(scratch_config, table, needle):
    from miner.config import load_config
    from miner.errors import ConfigError

    path = scratch_config(extra=f"\n[redaction.unsure]\n{table}\n")
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: {needle}") and "\n" not in message


def test_a_surfaced_street_s_name_written_alone_elsewhere_is_surfaced_too(policy):
    result = redacted(
        policy,
        "Please deliver to 8 Brattkvisla, the door code is 1234",
        summary="could not verify Brattkvisla",
    )
    surfaced = {(s.entity, s.value) for s in result.surfaced}
    assert ("STREET_ADDRESS", "8 Brattkvisla") in surfaced
    assert ("STREET_ADDRESS", "Brattkvisla") in surfaced


@pytest.mark.parametrize(
    "text, value",
    [
        # Street words of no list miner has, in Faker's per-locale formats.
        ("The parcel went to Diagonal Paraná N° 5872 yesterday.", "Diagonal Paraná N° 5872"),
        ("i live at 625 christina trace now", "625 christina trace"),
        (
            "send it to Cerrada Valverde 912 Interior 275, San Zeferino los altos, BCS 04220-4844"
            " thanks",
            "Cerrada Valverde 912 Interior 275, San Zeferino los altos, BCS 04220-4844",
        ),
        # Lines written as the two characters \n, and in capitals as \N.
        (
            "SHIP TO 24 BOULEVARD COSANDEY\\N SUITE 613\\N CARRAUD-LA-VILLE\\N\\N CROATIA 4774",
            "24 BOULEVARD COSANDEY\\N SUITE 613\\N CARRAUD-LA-VILLE\\N\\N CROATIA 4774",
        ),
    ],
)
def test_a_street_line_of_any_language_is_surfaced_with_the_parts_after_it(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


@pytest.mark.parametrize(
    "text, value",
    [
        ("The parcel went to 8 <PERSON_1> yesterday.", "8"),
        ("send it to Diagonal Córdoba N° <STREET_ADDRESS_1>, Jujuy thanks", "Jujuy"),
    ],
)
def test_the_parts_of_an_address_around_replaced_ones_are_surfaced(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


@pytest.mark.parametrize("text", ["Alex Morgan 25 says hi", "Maria Lopez, 34, called"])
def test_a_person_s_age_is_no_street_line(text):
    assert "STREET_ADDRESS" not in surfaced(text).values()


@pytest.mark.parametrize(
    "text, value",
    [
        ("Julia: What a wife.\\nRhavi: Remember me, Catarina?", "Rhavi"),
        ("Thiago: What a wife.\\nLautaro: You saved my life!", "Lautaro"),  # a town's name too
        ("veronica: what a wife.\\nsylvia: you saved my life! how", "sylvia"),
        ("PAWEŁ: WHAT A WIFE.\\NMAKS: YOU SAVED MY LIFE!", "MAKS"),
    ],
)
def test_a_speaker_s_name_after_a_written_line_break_is_surfaced(text, value):
    assert surfaced(text).get(value) == "PERSON"


@pytest.mark.parametrize(
    "text", ["Note: the order shipped.\nError: timeout\nSummary: customer asked", "API: HTTPS JSON"]
)
def test_a_label_or_an_acronym_is_no_speaker_nor_a_name(text):
    assert "PERSON" not in surfaced(text).values()


@pytest.mark.parametrize(
    "text, value",
    [
        ("I have noted HARDENBERGGADE on your file.", "HARDENBERGGADE"),
        ("Please forward it to HELLANDGROPA today", "HELLANDGROPA"),
    ],
)
def test_a_word_in_capitals_no_list_knows_is_surfaced(text, value):
    assert surfaced(text).get(value) == "PERSON"


def test_route_codes_in_capitals_are_no_unknown_word():
    assert not surfaced("Your flight ZSP-TKW leaves at 9")


@pytest.mark.parametrize(
    "text, value",
    [
        # A firm's name, a comma, its address: the street line starts after the comma.
        (
            "We'll meet jeudi at MAJESTY GOLF Co.Ltd., 3298 rang Frédéric, Timothée Est",
            "3298 rang Frédéric, Timothée Est",
        ),
        ("the recipient MARTINEAU is not known at 88639 route massé", "88639 route massé"),
        ("the recipient GAMBLE is not known at 60 anthony ring", "60 anthony ring"),
        ("the recipient PINHO is not known at r. vieira, 22", "r. vieira, 22"),
        # A postcode replaced as a phone heads the town's part.
        (
            "Passarela de Barros, 475\nVila Independencia 1ª Seção\n"
            "<PHONE_NUMBER_1> Casa Grande / BA",
            "Casa Grande / BA",
        ),
        (
            "Meet me at 7090 montée <PERSON_1>\n<PERSON_2>- Frédéric, SK N8J2X7",
            "Frédéric, SK N8J2X7",
        ),
    ],
)
def test_more_street_lines_and_their_parts_are_surfaced(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


@pytest.mark.parametrize(
    "text, value",
    [
        # A street type no list of ours holds above a postcode and town.
        ("Kind regards\n<PERSON_1>\nSplaiul Unirii\nMedias, 551002",
         "Splaiul Unirii\nMedias, 551002"),
        # The street's name replaced as a person's: the town and postcode under it.
        ("Please forward it to <PERSON_1>\nBaia lui Stan, 405300 soon", "Baia lui Stan, 405300"),
    ],
)  # fmt: skip
def test_an_address_read_upwards_from_its_postcode_is_surfaced(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


def test_a_signature_s_lines_shaped_like_an_address_s_are_surfaced():
    text = "Kind regards,\n<PERSON_1>\nCl. 14 # 5-22 Oeste\nLocal 3\n<PHONE_NUMBER_1>\n\nPS: ok"
    found = surfaced(text)
    assert found.get("Cl. 14 # 5-22 Oeste") == "STREET_ADDRESS"
    assert found.get("Local 3") == "STREET_ADDRESS"
    assert "PS" not in " ".join(found)


def test_a_signature_s_job_title_and_sentences_are_not_surfaced():
    text = "Thanks,\n<PERSON_1>\nSenior Account Manager\nSent from my phone"
    assert surfaced(text) == {}


def test_a_phone_with_its_country_code_in_brackets_is_surfaced_whole():
    text = "I would like to stop receiving messages to (+358) 845173291\n"
    assert surfaced(text).get("(+358) 845173291") == "PHONE_NUMBER"


def test_a_date_near_a_birth_cue_is_surfaced_unless_a_birth_date_was_replaced():
    text = "I was born in a small town. Anyway, my papers say 12/05/1990."
    assert surfaced(text).get("12/05/1990") == "DATE_OF_BIRTH"
    assert "DATE_OF_BIRTH" not in surfaced("ordered on 2025-01-04, DOB <DATE_OF_BIRTH_1>").values()


@pytest.mark.parametrize(
    "text, value",
    [
        ("I have noted angela baker md on your file.", "angela baker md"),
        ("ValidationError: could not verify brian price", "brian price"),
        ("it may be too that neves was influenced by an earlier song", "neves"),
        ("zoolander is a film directed by leonhard wimmer and starring baldauf", "baldauf"),
        ("It may be too that da Rosa was influenced", "da Rosa"),
        ("(though Hernandez's song was actually about a boat!)", "Hernandez"),
    ],
)
def test_more_names_are_surfaced(text, value):
    assert surfaced(text).get(value) == "PERSON"


@pytest.mark.parametrize(
    "text", ["i will mark the price and frank said grant access", "I ordered 3 blue mugs in May"]
)
def test_english_words_in_lower_case_are_no_name_nor_street(text):
    assert not surfaced(text)


def test_a_value_after_a_written_line_break_is_found_where_it_occurs():
    """``miner review`` and ``check`` find a surfaced value after a ``\\n``
    a JSON or log escape left, or the reviewer would never be shown it."""
    from miner.redaction.surfaced import normalised, occurrences

    text = "Julia: What a wife.\\nRhavi: Remember me? xRhavi"
    assert occurrences(text, "Rhavi") == [(21, 26)]
    assert "Rhavi" not in normalised(text, ["Rhavi"]).replace("xRhavi", "")


def test_a_surname_in_capitals_with_its_o_apostrophe_is_surfaced_whole():
    text = "Please ring O'HEA on the intercom, or call <PHONE_NUMBER_1>."
    assert surfaced(text).get("O'HEA") == "PERSON"


# Issue 36's last silent shapes: streets after an address cue, names in a
# person's slot, and a value's other writings elsewhere in the session.


@pytest.mark.parametrize(
    "text, value",
    [
        ("the parcel goes to flat 12 4 harriet close", "flat 12 4 harriet close"),
        ("the courier says she is not known at r. de almeida, 17", "r. de almeida, 17"),
        ("please return it to Wenke and Sørlia 44 in case of trouble", "Wenke and Sørlia 44"),
        ("the bill goes to level 3 71 copper heights", "level 3 71 copper heights"),
        ("the invoice goes to av. 12 n° 388", "av. 12 n° 388"),
        ("the card goes to náměstí j. k. tyla 93", "náměstí j. k. tyla 93"),
        ("My aunt lives on the east side of Gwendoline Meadow.", "Gwendoline Meadow"),
        ("she lives on the west side of kroužkova.", "kroužkova"),
        ("Please send it to Harriet Junction tomorrow", "Harriet Junction"),
        ("WE SHIP TO RUA DOS ALFENEIROS EVERY WEEK", "RUA DOS ALFENEIROS"),
        ("she gave Via Marcantonio as her address", "Via Marcantonio"),
        ("the box is on åkersvingen.", "åkersvingen"),
        ("I live at Av. 9, Rawson", "Av. 9, Rawson"),
        # The thing sent before "to"; in lower case, up to the street's type.
        ("pls send the parcel to 1148 jennings walk thanks", "1148 jennings walk"),
        # A word English writes between the name and its type.
        ("Please ship it to 583 Hõbekuuse tee tänav by Friday.", "583 Hõbekuuse tee tänav"),
    ],
)
def test_a_street_after_an_address_cue_is_surfaced(text, value):
    # A street named after a person may be surfaced as either: one decision.
    assert surfaced(text).get(value) in ("STREET_ADDRESS", "PERSON")


@pytest.mark.parametrize(
    "text",
    [
        "the refund goes to 3 accounts",
        "send the invoice to 12 people in the team thanks",
        "let us meet you at 10 am tomorrow",
        "I want to move to the Family plan.",
        "My aunt lives on the east side of Chicago.",
        "he walked down the street",
        "we returned to Carlberg by train",
        "she gave it a try",
        "it is on the way",
        "I ordered it at <STREET_ADDRESS_1> ordered it on Monday",
    ],
)
def test_a_count_a_time_a_plan_or_a_town_after_an_address_cue_is_no_street(text):
    assert "STREET_ADDRESS" not in surfaced(text).values()


@pytest.mark.parametrize("text", ["CALLE 12", "r. das flores", "Incrocio Gianfranco"])
def test_a_string_that_is_a_street_s_type_and_its_name_is_surfaced(text):
    assert surfaced(text).get(text) in ("STREET_ADDRESS", "PERSON")  # one decision either way


@pytest.mark.parametrize("text", ["Plaza Hotel", "street food", "Avenue Q"])
def test_a_string_of_a_street_s_type_and_no_name_is_no_street(text):
    assert "STREET_ADDRESS" not in surfaced(text).values()


def test_a_street_named_by_its_written_type_is_surfaced():
    text = "the song is about ferreira gap street in the old town"
    assert surfaced(text).get("ferreira gap street") == "STREET_ADDRESS"


def test_a_unit_s_word_before_a_replaced_street_is_surfaced():
    assert surfaced("I have noted apt. <STREET_ADDRESS_2> on your file") == {
        "apt.": "STREET_ADDRESS"
    }


@pytest.mark.parametrize(
    "text, value",
    [
        ("Thank you April, the branch will call you.", "April"),
        ("A 1998 comedy directed by Bruno Hall and starring Hill", "Hill"),
        ("'Not again!' said Tomas to Joaquin", "Joaquin"),
        ("maybe it's under gloria mendes", "gloria mendes"),
        ("May is a very kind person.", "May"),
        ("Jordan had given Ada the keys", "Jordan"),
        ("Kind regards\nJune Whitlock\n12 Elm Row", "June Whitlock"),
        ("I have noted MUDr. Radek Vlček on your file.", "MUDr. Radek Vlček"),
        ("It is for Sr(a). Paula Quiroga", "Sr(a). Paula Quiroga"),
        ("what is your name? tomas ferreira", "tomas ferreira"),
    ],
)
def test_a_name_list_s_word_in_a_person_s_slot_is_surfaced_however_common(text, value):
    assert surfaced(text).get(value) == "PERSON"


@pytest.mark.parametrize(
    "text",
    [
        "Thanks guys, that worked",
        "Dear all, the shop is closed",
        "May I help you?",
        "we flew to Chad",
        "the courier says the parcel is lost",
    ],
)
def test_a_common_word_a_stop_word_or_a_place_in_no_person_s_slot_is_not_surfaced(text):
    assert "PERSON" not in surfaced(text).values()


def test_a_surname_after_a_replaced_first_name_is_surfaced_but_not_a_cue_before_one():
    assert surfaced("it's <PERSON_1> lopez again").get("lopez") == "PERSON"
    assert surfaced("please ring <PERSON_1> on the intercom") == {}


@pytest.mark.parametrize(
    "street, names",
    [
        ("Diagonal Pellegrini 1234, Jujuy", ["Diagonal Pellegrini"]),
        ("95 rue Héloïse Marchand", ["rue Héloïse Marchand"]),
        ("Av. Belgrano N° 21 Dto. 5", ["Av. Belgrano"]),
        ("Bulevar Ocampo St.", ["Bulevar Ocampo"]),
        ("12 Main Street", []),
    ],
)
def test_a_street_s_name_is_its_line_without_its_numbers(street, names):
    from miner.redaction.unsure.streets import street_names

    assert street_names(street) == names


@pytest.mark.parametrize(
    "text, alone",
    [
        # A line with no number (a floor) of a block replaced, and a
        # postcode in no country's real shape of a block surfaced.
        ("??? Vivek Rao\\n??? 4312 Quorravej\\n??? Etg Q\\n??? Vestrup\\n??? 8190", "Etg Q"),
        ("send it to 12 Orchard Lane, Kemble K7Z 9U4 please", "K7Z 9U4"),
    ],
)
def test_a_surfaced_block_s_line_or_postcode_written_alone_elsewhere_is_surfaced_too(
    policy, text, alone
):
    result = redacted(policy, text, summary=f"could not verify {alone}")
    written = result.session.turns[0].tool_calls[0].args["summary"]
    surfaced = {s.value: s for s in result.surfaced}
    assert alone in written, written  # left as written...
    assert surfaced[alone].part_of in text, surfaced  # ...and surfaced as its address's part


def test_a_block_surfaced_and_its_postcode_alone_are_one_decision(policy):
    from miner.redaction.surfaced import decisions

    result = redacted(policy, "send it to 12 Orchard Lane, Kemble K7Z 9U4", reply="noted K7Z 9U4")
    assert len(set(decisions(result.surfaced).values())) == 1, result.surfaced


@pytest.mark.parametrize(
    "summary",
    [
        "could not verify:\\nK7Z 9U4",  # after an escaped line break
        "",  # in the street's own string, after it
    ],
)
def test_a_surfaced_block_s_postcode_after_an_escaped_break_or_beside_it_is_surfaced(
    policy, summary
):
    text = "send it to 12 Orchard Lane, Kemble K7Z 9U4 please"
    if not summary:
        text += ", and again: K7Z 9U4"
    result = redacted(policy, text, summary=summary or "noted")
    surfaced = {s.value: s for s in result.surfaced}
    assert "K7Z 9U4" in surfaced, surfaced
    # As the surfaced block's part ("" is in any text: a postcode surfaced
    # by a rule of its own would have passed for it).
    part = surfaced["K7Z 9U4"]
    assert part.reason == BLOCK_PART_ALONE and part.part_of in surfaced, part
    assert "K7Z 9U4" in part.part_of, part


def test_a_town_s_line_of_a_block_is_no_part_written_alone():
    from miner.redaction.unsure.streets import block_parts

    assert block_parts("??? Etg Q\\n??? Odense\\n??? Denmark") == ["Etg Q"]


def test_a_surfaced_street_s_house_number_alone_elsewhere_is_surfaced_too(policy):
    result = redacted(
        policy,
        "Please deliver to 8 Brattkvisla, the door code is 1234",
        reply="I have noted 8 on your file.",
    )
    surfaced = {(s.entity, s.value) for s in result.surfaced}
    assert {("STREET_ADDRESS", "8 Brattkvisla"), ("STREET_ADDRESS", "8")} <= surfaced


def test_each_surfaced_street_s_house_number_alone_is_its_own(policy):
    # Every street's numbers are found in one scan of each string: each
    # number alone is still surfaced as a part of its own street.
    result = redacted(
        policy,
        "Please deliver to 8 Brattkvisla, the door code is 1234",
        summary="the spare key is at 27 Kvernhusvika",
        reply="I have noted 8 and 27 on your file.",
    )
    alone = {(s.value, s.part_of) for s in result.surfaced if s.reason == "a house number alone"}
    assert alone == {("8", "8 Brattkvisla"), ("27", "27 Kvernhusvika")}


@pytest.mark.parametrize("after", ["", " I have noted 8 on your file."])
def test_a_surfaced_street_s_house_number_alone_in_its_own_string_is_surfaced(policy, after):
    # Outside the street's own text, as its name and its block's parts are
    # (``unsure._inside``): not only in a string that does not hold it.
    result = redacted(policy, "Please deliver to 8 Brattkvisla, the door code is 1234." + after)
    surfaced = {(s.entity, s.value) for s in result.surfaced}
    assert ("STREET_ADDRESS", "8 Brattkvisla") in surfaced
    assert (("STREET_ADDRESS", "8") in surfaced) == bool(after), surfaced


def test_a_replaced_street_s_word_in_another_casing_is_surfaced(policy):
    result = redacted(
        policy,
        "please send it to 14 Hauglandsvingen, Tromsø",
        summary="could not verify hauglandsvingen",
    )
    assert "Hauglandsvingen" not in result.session.turns[0].user_text
    assert ("STREET_ADDRESS", "hauglandsvingen") in {(s.entity, s.value) for s in result.surfaced}


@pytest.mark.parametrize(
    "text, value",
    [
        ("hi, it is ışıl bıçakçı again", "ışıl bıçakçı"),
        ("please call Zoë Brontë at 12 Rue de l'Église", None),
    ],
)
def test_a_text_written_decomposed_is_read_as_written_composed(policy, text, value):
    import unicodedata

    # "c" and a combining cedilla for "ç": the words split at each mark.
    decomposed = redacted(policy, unicodedata.normalize("NFD", text))
    assert (
        decomposed.session.turns[0].user_text == redacted(policy, text).session.turns[0].user_text
    )
    surfaced = {s.value for s in decomposed.surfaced}
    assert surfaced == ({value} if value else set())


@pytest.mark.parametrize(
    "written, plain",
    [
        ("call me on +44\u00a07700\u00a0900123", "call me on +44 7700 900123"),  # no-break
        ("this is Priya Ra\u00adman from Leeds", "this is Priya Raman from Leeds"),  # soft hyphen
        ("my email is priya.raman\u200b@example.com", "my email is priya.raman@example.com"),
    ],
)
def test_a_space_that_does_not_break_or_a_mark_that_shows_nothing_hides_no_value(
    policy, written, plain
):
    drafted = redacted(policy, written).session.turns[0].user_text
    assert drafted == redacted(policy, plain).session.turns[0].user_text
    assert "900123" not in drafted and "man" not in drafted and "example" not in drafted


def test_emoji_joined_by_zero_width_joiners_stay_joined(policy):
    family = "our family \U0001f468\u200d\U0001f469\u200d\U0001f467 says thanks"
    assert redacted(policy, family).session.turns[0].user_text == family


@pytest.mark.parametrize(
    "user, summary, other",
    [
        ("hi, it is ışıl bıçakçı again", "IŞIL BIÇAKÇI called twice", "IŞIL BIÇAKÇI"),
        ("the recipient BIÇAKÇI is not known", "ask bıçakçı", "bıçakçı"),
    ],
)
def test_a_name_in_another_casing_the_matcher_folds_its_own_way_is_surfaced(
    policy, user, summary, other
):
    # The re module matches the dotless "ı" with "I" ignoring case, but
    # "BIÇAKÇI".casefold() is not "bıçakçı": the lookup folds as it matches
    # (a KeyError stopped the draft).
    result = redacted(policy, user, summary=summary)
    [call] = result.session.turns[0].tool_calls
    surfaced = {(s.entity, s.value) for s in result.surfaced}
    # Replaced with the name (a person's word surfaced beside it is), or surfaced.
    assert other not in call.args["summary"] or ("PERSON", other) in surfaced
    assert "PERSON" in call.args["summary"] or ("PERSON", other) in surfaced


@pytest.mark.parametrize(
    "text",
    [
        "Thank you <PERSON_1>, your branch in Krásná Lípa will call you.",
        "no signal in Trhové Sviny since the 2026-10-22, it's <PERSON_1> from the VIP plan",
    ],
)
def test_a_town_s_second_word_grown_over_a_word_after_in_is_not_surfaced(text):
    # The second word is judged alone and grown leftwards over the first,
    # which stands after "in": the whole is a town's name.
    assert surfaced(text) == {}


def test_a_name_grown_over_a_first_name_after_in_is_still_surfaced():
    # A first name starts a person's full name as often as a town's.
    text = "please put it in Otakar Lípa for review"
    assert surfaced(text).get("Otakar Lípa") == "PERSON"


@pytest.mark.parametrize(
    "text, value",
    [
        ("Don't go to town, Georgia!", "Georgia"),  # a place's name, and a person's
        ("THE RECIPIENT DOMINYKA KALVELIS IS NOT KNOWN AT THIS ADDRESS.", "DOMINYKA KALVELIS"),
        ("THIS IS <PERSON_1> DELHAYE FROM ACCOUNTING.", "DELHAYE"),
        ("THE RECIPIENT <PERSON_1> MARTIN IS NOT KNOWN", "MARTIN"),
        ("RECIPIENT: <PERSON_1> DE BONDT", "DE BONDT"),
        ("THIS IS ALICE DELHAYE FROM ACCOUNTING.", "ALICE DELHAYE"),
    ],
)
def test_a_name_addressed_or_in_a_text_in_capitals_is_surfaced_whole(text, value):
    assert surfaced(text).get(value) == "PERSON"


def test_two_words_no_list_knows_in_a_lower_case_text_are_not_left_as_written(policy):
    # No unsure rule of their own any more (issue 36, item 5): the
    # detector's guess and the second model take the name whole.
    text = "the box for ardit xhaferi is ready"
    left = redacted(policy, text).session.turns[0].user_text
    assert left == "the box for <PERSON_2> <PERSON_1> is ready"


def test_an_english_word_after_a_name_in_capitals_is_not_surfaced_with_it():
    assert "FROM" not in " ".join(surfaced("THIS IS <PERSON_1> FROM ACCOUNTING."))


@pytest.mark.parametrize(
    "text", ["IBAN: <IBAN_CODE_1>", "my iban is <IBAN_CODE_1>", "(IBAN <IBAN_CODE_1>)"]
)
def test_an_id_s_name_before_its_value_is_not_surfaced(text):
    assert surfaced(text) == {}


def test_a_first_name_that_names_an_id_is_still_surfaced_elsewhere():
    assert surfaced("Thank you Iban, see you soon").get("Iban") == "PERSON"


@pytest.mark.parametrize(
    "text, value",
    [
        ("is this owuor's account or her husband's?", "owuor"),
        ("as per maslova's note the refund is approved", "maslova"),
        ("is this faraja waweru's account?", "faraja waweru"),  # the person whole
    ],
)
def test_a_lower_case_word_english_does_not_write_with_s_is_surfaced(text, value):
    # No list knows these: a word English does not write, with 's before a
    # word, is someone's (list-free; ``LOWER_CASE_UNKNOWN_POSSESSIVE``).
    from miner.redaction.unsure.names import LOWER_CASE_UNKNOWN_POSSESSIVE

    found = Unsure().reasoned_spans(text)
    assert (value, "PERSON", LOWER_CASE_UNKNOWN_POSSESSIVE) in [
        (text[s:e], entity, reason) for s, e, entity, reason in found
    ]


@pytest.mark.parametrize(
    "text",
    [
        "the world's best price, my mom's car",
        "the kubectl's output is empty",  # after an article: a thing's
        "my husband's phone, the parcel's label is torn",
        "it's fine, what's the status? let's go",
        "the app crashed yesterday's evening",
    ],
)
def test_an_english_word_s_possessive_in_lower_case_is_not_surfaced(text):
    from miner.redaction.unsure.names import LOWER_CASE_UNKNOWN_POSSESSIVE

    assert LOWER_CASE_UNKNOWN_POSSESSIVE not in [r for *_s, r in Unsure().reasoned_spans(text)]


def test_a_listed_name_s_possessive_in_lower_case_is_surfaced_and_an_english_word_s_is_not():
    found = surfaced("(though torres's song was about a boat)")
    assert [entity for value, entity in found.items() if value.startswith("torres")] == ["PERSON"]
    assert surfaced("the world's best price, my mom's car") == {}


@pytest.mark.parametrize(
    "text, value",
    [
        ("Please ring DOS SANTOS on the intercom, or call me.", "DOS SANTOS"),
        ("UPS says the recipient VAN DER BERG is not known", "VAN DER BERG"),
    ],
)
def test_a_surname_in_capitals_after_its_particle_and_a_cue_is_surfaced_whole(text, value):
    assert surfaced(text).get(value) == "PERSON"


# What is left of an address beside a street found or replaced (issue 36,
# fail closed: lexicon/address_rest.py).


@pytest.mark.parametrize(
    "text, value",
    [
        # A unit's abbreviation, or a house number glued by a hyphen.
        ("Blok. <STREET_ADDRESS_1>\\n Ostrava", "Blok."),
        ("The shop is at 4K-<STREET_ADDRESS_1> now", "4K"),
        # The parts under it: a town and a country with its postcode, up to
        # the sentence after them, across a blank line and a bracket.
        (
            "<STREET_ADDRESS_1>\\n Qorvatown\\n\\n Utopia (Or Elsewhere) 40417. Anything else?",
            "Qorvatown\\n\\n Utopia (Or Elsewhere) 40417",
        ),
        # A town under a numbered part, after a value replaced.
        ("<STREET_ADDRESS_1>\nbloco 9 sala 31\n<PHONE_NUMBER_1>\nvila zorbá", "vila zorbá"),
    ],
)
def test_what_is_left_of_an_address_beside_a_replaced_street_is_surfaced(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


def test_the_rest_of_a_surfaced_street_s_line_is_surfaced_with_the_parts_under_it():
    found = surfaced("send it to 58 kvorno lakes\\n apt. 12\\n northham\\n\\n elbonia 77120. Ok?")
    assert "lakes" in " ".join(found)
    assert any(v.endswith("elbonia 77120") for v in found)


@pytest.mark.parametrize(
    "text",
    [
        # A town after a street, no number under it: no one's.
        "I live at <STREET_ADDRESS_1>, London. Thanks",
        # A sign-off and a sentence after the address end it.
        "<STREET_ADDRESS_1>\n\nKind regards\nyour shop",
        "<STREET_ADDRESS_1>, see you at 10:30 on 12/05/2026",
    ],
)
def test_a_town_a_sign_off_a_time_or_a_date_after_a_street_is_not_its_rest(text):
    from miner.redaction.lexicon.address_rest import rest_of_addresses

    assert list(rest_of_addresses(text, [])) == []


def test_english_words_after_a_replaced_street_are_not_its_line_s_rest():
    assert surfaced("<STREET_ADDRESS_1> passport number <PASSPORT_1>") == {}


@pytest.mark.parametrize(
    "text, value",
    [
        ("please stop texting 47 21 90, thanks", "47 21 90"),
        ("my mobile: 61-30-88-14", "61-30-88-14"),
    ],
)
def test_digits_grouped_as_a_phone_s_are_surfaced(text, value):
    assert surfaced(text).get(value) == "PHONE_NUMBER"


@pytest.mark.parametrize(
    "text", ["on 12.06.2026", "costs $ 25 500 00", "at 10:30 12 34 56", "order no 12 34 56"]
)
def test_a_date_an_amount_a_time_or_a_numbered_thing_is_no_grouped_phone(text):
    assert [v for v, e in surfaced(text).items() if e == "PHONE_NUMBER"] == []


@pytest.mark.parametrize(
    "text, value",
    [
        ("I have noted S/N on your file.", "S/N"),
        ("Nr. 318", "Nr. 318"),
    ],
)
def test_a_house_with_no_number_or_a_marked_number_alone_is_surfaced(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


def test_a_serial_number_s_s_n_is_no_house():
    assert surfaced("S/N: 4411") == {}


@pytest.mark.parametrize(
    "text, value",
    [
        ("Signed, <PERSON_1> dr.sc.\\n", "dr.sc."),
        ("Ask Mgr. <PERSON_1> about it", "Mgr."),
        ("Jorunn-<PERSON_1> called", "Jorunn"),
        ("<PERSON_1>ová called", "ová"),
        ("I spoke with <PERSON_1> Okonkwo today", "Okonkwo"),
    ],
)
def test_a_name_s_part_beside_a_replaced_person_is_surfaced(text, value):
    assert surfaced(text).get(value) == "PERSON"


@pytest.mark.parametrize(
    "text",
    [
        "Ms. <PERSON_1> called",
        "<PERSON_1>'s order",
        "pax <PERSON_1> boarded",
        "Dear <PERSON_1>, thanks",
        "line one\\n<PERSON_1> wrote",
    ],
)
def test_an_honorific_a_clitic_a_cue_or_a_line_break_beside_a_person_is_not_surfaced(text):
    assert surfaced(text) == {}


@pytest.mark.parametrize(
    "text, value",
    [
        # A name's last syllable that English writes in lower case, NER's leftover.
        ("Maybe it's under <PERSON_1> An", "An"),
        ("Thanks,\n<PERSON_1> An\nSent from my iPhone", "An"),
        ("cheers\n-- <PERSON_1> AN", "AN"),
        ("<PERSON_1> He, can I please speak to your boss?", "He"),
        ("Follow up with <PERSON_1> He in a couple of months.", "He"),
        ("<PERSON_1> An is from Acme", "An"),
        ("I spoke to <PERSON_1> Ma, she said yes", "Ma"),
        ("the parcel for <PERSON_1> Mo was returned", "Mo"),
    ],
)
def test_a_short_word_english_writes_in_lower_case_after_a_person_is_surfaced(text, value):
    assert surfaced(text).get(value) == "PERSON"


@pytest.mark.parametrize(
    "text",
    [
        # A sentence opened after a name with no stop between.
        "ask <PERSON_1> He said no",
        "I spoke to <PERSON_1> In the meantime we wait",
        "I met <PERSON_1> An amazing person",
        # What ends a clause after a name: adverbs, interjections, acronyms.
        "call <PERSON_1> Now",
        "thanks <PERSON_1> So, any news?",
        "is that <PERSON_1> OK?",
        "the shop of <PERSON_1> AG is closed",
        # Title case and capitals.
        "HELLO <PERSON_1> HE SAID NO",
        # Not beside a person.
        "He said the Li-ion battery is fine, open Mo-Fr, Su 10-14",
    ],
)
def test_english_s_short_words_after_a_person_are_not_surfaced(text):
    assert surfaced(text) == {}


def test_a_name_s_rest_beside_a_value_a_sure_rule_replaced_is_surfaced(policy):
    # The slot's rule takes "Nguyễn Văn" (sure: replaced before the model
    # reads), the word after it is read once it is a placeholder.
    result = redacted(policy, "Maybe it's under Nguyễn Văn An")
    assert result.session.turns[0].user_text == "Maybe it's under <PERSON_1> An"
    assert ("PERSON", "An") in {(s.entity, s.value) for s in result.surfaced}


@pytest.mark.parametrize(
    "text, value",
    [
        ("name: obama\nemail: <EMAIL_ADDRESS_1>\nphone: n/a", "obama"),
        ("name: ma\nemail: <EMAIL_ADDRESS_1>", "ma"),
        ("Full name: na xu\\nphone: <PHONE_NUMBER_1>", "na xu"),
        ("order 4411\nCustomer name: XIUYING HE", "XIUYING HE"),
    ],
)
def test_a_form_s_name_field_is_surfaced_in_any_casing(text, value):
    assert surfaced(text).get(value) == "PERSON"


@pytest.mark.parametrize(
    "text",
    [
        "name: unknown\nemail: <EMAIL_ADDRESS_1>",
        "name: n/a",
        "the file name: report.pdf",
        "Username: jdoe2",
        "Product name: Desk lamp",
        "rename: done",
        "name: the one on the bill, see above",
    ],
)
def test_no_one_s_name_field_and_other_keys_are_not_surfaced(text):
    assert surfaced(text) == {}


@pytest.mark.parametrize(
    "text, value",
    [
        ("per iturra the refund is approved", "iturra"),
        ("as per kopylov the refund is approved", "kopylov"),
        ("please send it c/o oikonomou, 2nd floor", "oikonomou"),
    ],
)
def test_a_lower_case_word_english_does_not_write_after_per_is_surfaced(text, value):
    from miner.redaction.unsure.names import LOWER_CASE_WORD_IN_A_PERSON_SLOT

    assert reasons(text).get(value) == LOWER_CASE_WORD_IN_A_PERSON_SLOT


@pytest.mark.parametrize(
    "text", ["3% per annum", "0.32 EUR per kwh", "as per se", "two per person", "9 EUR per pax"]
)
def test_english_s_words_after_per_are_not_surfaced(text):
    assert reasons(text) == {}


def test_a_street_typed_in_lower_case_is_replaced_not_surfaced(policy):
    # The rule surfaced it; the tune splits found such streets always
    # planted (unsure.REPLACED_REASONS), so the policy replaces it.
    result = redacted(policy, "hi, the bill goes to 44 norris light")
    assert result.session.turns[0].user_text == "hi, the bill goes to <STREET_ADDRESS_1>"
    assert "44 norris light" not in [s.value for s in result.surfaced]
    assert result.originals.get("44 norris light") == "STREET_ADDRESS"


def test_the_reasons_and_parts_of_surfaced_values():
    from datetime import UTC, datetime

    from miner.model import Session, Turn
    from miner.redaction.unsure import unsure_values

    now = datetime(2026, 11, 22, tzinfo=UTC)
    turns = (
        Turn("i", "the bill goes to 44 norris light", "noted: norris light"),
        Turn("j", "ring FARMER please", "ok"),
    )
    found = {
        s.value: (s.reason, s.part_of)
        for s in unsure_values(Session("s", "a", "u", now, now, {}, turns), Unsure())
    }
    assert found["44 norris light"] == ("a lower-case street", "")
    assert found["norris light"] == ("a street's name alone", "44 norris light")
    assert found["FARMER"] == ("a word in capitals", "")


# Generic fail-closed shapes (branch silent9): each written for a shape that
# leaked silently on Faker locales in no project set, never a corpus value.


@pytest.mark.parametrize(
    "text, value",
    [
        # A surname with its elided particle, whatever list writes it.
        ("I spoke to O'Brannagh about the refund", "O'Brannagh"),
        ("the letter was signed by D’Avenzo", "D’Avenzo"),
        # A naming cue other than "my name is", and a title written out.
        ("my name is on file but everyone calls me Treasure", "Treasure"),
        ("I met the Reverend Okonjo Ibe yesterday", "Reverend Okonjo Ibe"),
        # Addressed first, in lower case: a word English does not write.
        ("tandiwe, can you check my order?", "tandiwe"),
        # Addressed at a clause's end in a text all in capitals.
        ("THE PARCEL IS LATE AGAIN. DON'T WAIT UP, MBALENHLE!", "MBALENHLE"),
        # A word English does not write before what a person does, in lower case.
        ("it seems that kwabenaa was influenced by that song", "kwabenaa"),
        # ... or after a greeting or an apology, in lower case.
        ("sorry adwoaa, my mistake", "adwoaa"),
        # A name's short words beside the one the rules read.
        ("is it true that Lê Đức Thắng was influenced by it", "Lê Đức Thắng"),
        # A line of lower-case words no English writes: a name on its own line.
        ("hi\nchidinma obiora-eze\nthanks", "chidinma obiora-eze"),
        # Two words no list knows side by side in a text with no capital.
        ("please change it to ardita xhafoli", "ardita xhafoli"),
        # A word no list knows in a text all in capitals, with the next one.
        ("THE FILE OF AYNURA MƏMMƏDLI IS LOST", "AYNURA MƏMMƏDLI"),
    ],
)
def test_a_name_in_a_person_s_slot_of_any_shape_is_surfaced(text, value):
    assert surfaced(text).get(value) == "PERSON"


@pytest.mark.parametrize(
    "text",
    [
        "Yes, can you check it?",
        "Hello, I need help with my order",
        "the courier says it is late",
        "O'Hare Airport was closed",
        "Thanks,\nThe Support Team",
        "thanks guys, all good",
        "ok thanks\nsee you",
        "MY ORDER ABCD IS LATE",
        "pls recieve teh parcel",
    ],
)
def test_an_english_word_first_a_courier_an_airport_or_a_team_is_not_surfaced(text):
    assert [v for v, e in surfaced(text).items() if e == "PERSON"] == []


@pytest.mark.parametrize(
    "text, value",
    [
        # A signature's name line: what the name rules left of it.
        ("Kind regards\nZ'thando <PERSON_1>\n<PHONE_NUMBER_1>", "Z'thando"),
        # A name's part glued by another apostrophe.
        ("Thx\n<PERSON_1>‘tarov\n<STREET_ADDRESS_1>", "tarov"),
        # A capitalised word English does not write after a person replaced.
        ("I asked <PERSON_1> Thắng twice", "Thắng"),
    ],
)
def test_what_the_name_rules_left_of_a_signature_s_name_is_surfaced(text, value):
    assert surfaced(text).get(value) == "PERSON"


@pytest.mark.parametrize(
    "text, value",
    [
        # A block's letters, or a number joined by hyphens, before the street.
        ("Rina Tanaka\\n\\nQ-<STREET_ADDRESS_1>", "Q"),
        ("send it to k-12-40 <STREET_ADDRESS_1> please", "k-12-40"),
        # A house number, marked or not, and a comma before the street's part.
        ("my flat: 311, <STREET_ADDRESS_1>", "311"),
        ("Plot No. 46, <STREET_ADDRESS_1>", "Plot No. 46"),
        ("Plot No. <STREET_ADDRESS_1>", "Plot No."),
        ("we live at No. <STREET_ADDRESS_1>", "No."),
        ("send it to plot no. <STREET_ADDRESS_1>", "plot no."),
        # A number's mark before the number or the unit's letters it marks.
        ("Order 4471 (ship to: No. 84, <STREET_ADDRESS_1>) has not arrived", "No. 84"),
        ("Address: No. u-<STREET_ADDRESS_1>", "No. u"),
        # A signature's line of parts apart by commas, one with a number.
        (
            "Best regards\n<PERSON_1>\nPlot No. 46, Zorvalane, Kimbatown, 7731\n<PHONE_NUMBER_1>",
            "Plot No. 46, Zorvalane, Kimbatown, 7731",
        ),
    ],
)
def test_a_house_number_or_a_block_left_before_a_street_is_surfaced(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


def test_a_number_before_a_street_with_its_own_number_is_not_its_house_number():
    assert "20" not in surfaced("I paid 20, 221B Baker Street London")


def test_a_signature_s_line_with_a_sentence_s_word_is_no_address():
    assert surfaced("Thx\n<PERSON_1>\nSenior Manager, Acme, since 2019") == {}


@pytest.mark.parametrize(
    "text, value",
    [
        # A word of any length or shape after a greeting, up to the clause's end.
        ("Sorry Xá, the parcel is late.", "Xá"),
        ("Thanks K.TR. Anything else?", "K.TR"),
        # A listed name no English lexicon holds, in lower case, before a deed.
        ("it may be that patel was influenced by the band", "patel"),
        # A town's name before what only a person does: a surname too.
        ("Ivrea was born in 1990 and sang in a choir", "Ivrea"),
        # A rare word of three letters with a possessive.
        ("I loved Ebi's song on the radio", "Ebi"),
        # A first name that is also a country's, addressed first.
        ("georgia, can you check my order?", "georgia"),
    ],
)
def test_a_name_by_its_slot_or_shape_is_surfaced(text, value):
    assert surfaced(text).get(value) == "PERSON"


@pytest.mark.parametrize("text", ["Thanks again, see you.", "Hi team! Sorry all.", "Hello there."])
def test_an_english_word_after_a_greeting_is_not_surfaced(text):
    assert surfaced(text) == {}


@pytest.mark.parametrize("text, value", [("pereira", "pereira"), ("sokolska", "sokolska")])
def test_a_lower_case_name_or_street_alone_in_a_string_is_surfaced(text, value):
    assert surfaced(text, key="surname") == {value: "PERSON"}


@pytest.mark.parametrize("text", ["express", "pending", "standard"])
def test_an_english_word_alone_in_a_string_is_not_surfaced(text):
    assert surfaced(text) == {}


def test_a_code_after_a_person_s_id_name_is_surfaced():
    assert surfaced("my national id number is 7k44pq9")["7k44pq9"] == "NATIONAL_ID"
    assert surfaced("her order number is AB12345") == {}


@pytest.mark.parametrize(
    "text, value",
    [
        ("NIE Y4829173K on the booking", "Y4829173K"),  # the check letter is S
        ("DNI: 48291735W for the invoice", "48291735W"),  # the check letter is S
        ("my PESEL is 44051401459", "44051401459"),  # its check digit is 8
    ],
)
def test_a_value_after_its_id_s_own_name_that_fails_its_check_is_surfaced(text, value):
    # Mistyped, or of a shape stdnum does not know: the name announces it.
    assert surfaced(text)[value] == "NATIONAL_ID"


@pytest.mark.parametrize(
    "text, value",
    [
        ("my NIE is Z 1234567 R, thanks", "Z 1234567 R"),  # as Spain writes it by hand
        ("DNI 12345678 Z please", "12345678 Z"),
    ],
)
def test_an_id_with_its_check_letter_after_a_blank_is_replaced_whole(policy, text, value):
    result = redacted(policy, text)
    assert value not in result.session.turns[0].user_text
    assert "<NATIONAL_ID_1>" in result.session.turns[0].user_text
    assert not result.surfaced


def test_an_id_s_name_in_a_text_in_capitals_is_no_name():
    # "NIE" is a listed name; before its value it names the id, not a person.
    assert surfaced("NIE X 7654321 F") == {"X 7654321 F": "NATIONAL_ID"}


@pytest.mark.parametrize(
    "text, value",
    [
        ("Anna NIE X7654321F", "X7654321F"),  # the model's person ran on over "NIE"
        ("Customer Anna Berg NIE X7654321F called", "X7654321F"),
    ],
)
def test_an_id_after_a_name_that_ran_on_over_its_id_s_name_is_surfaced(policy, text, value):
    # The mistyped NIE (its check letter wrong) stood silent: the person's
    # placeholder took "ANNA NIE", and no rule saw a value after its name.
    result = redacted(policy, text)
    written = result.session.turns[0].user_text
    assert "Anna" not in written and "NIE " + value in written
    assert [(s.entity, s.value) for s in result.surfaced] == [("NATIONAL_ID", value)]


@pytest.mark.parametrize("text", ["ANNA NIE X 7654321 F", "ANNA NIE X7654321F"])
def test_an_id_s_name_a_name_found_elsewhere_grew_over_in_capitals_is_cut_off(policy, text):
    # In capitals "NIE" (a listed name) grew onto Anna's hit (``grown_name``):
    # "<PERSON_1> X 7654321 F", the mistyped NIE silent.
    result = redacted(policy, text)
    value = text.split("NIE ")[1]
    assert result.session.turns[0].user_text == "<PERSON_1> NIE " + value
    assert [(s.entity, s.value) for s in result.surfaced] == [("NATIONAL_ID", value)]


def test_a_valid_id_after_a_name_keeps_its_id_s_name_and_surfaces_nothing(policy):
    result = redacted(policy, "Anna NIE X7654321J")  # a valid NIE
    assert result.session.turns[0].user_text == "<PERSON_1> NIE <NATIONAL_ID_1>"
    assert not result.surfaced


def test_a_short_id_s_name_that_is_a_name_before_digits_stays_the_person_s(policy):
    # NIK is an id's name and a first name: before a phone's digits, Anna Nik's.
    result = redacted(policy, "ANNA NIK 07700 900123")
    assert "NIK" not in result.session.turns[0].user_text


@pytest.mark.parametrize(
    "text, person, surname",
    [
        ("PASSENGER: LI NIE E12345678", "LI NIE", "NIE"),  # Li Nie's passport
        ("GUEST JIN NI AB1234567", "JIN NI", "NI"),
        ("CHEN NIE XK1234567 ROOM 12", "CHEN NIE", "NIE"),
    ],
)
def test_a_surname_that_is_an_id_s_name_before_a_value_with_no_check_letter_stays_the_person_s(
    policy, text, person, surname
):
    # Nie, Ni, Cui, Sin are surnames as well as ids' names: the cut left the
    # surname written and unsurfaced beside the person's placeholder (on main
    # the person's hit took it). Only a check letter at the value's end (a
    # NIE's, a NIF's) makes the id's name the id's.
    from miner.redaction.lexicon.formats import before_an_id_s_name
    from miner.redaction.lexicon.names import known_name

    start = text.index(person)
    end = start + len(person)
    assert before_an_id_s_name(text, start, end, known_name) == end
    result = redacted(policy, text)
    written = result.session.turns[0].user_text
    surfaced = {word for s in result.surfaced for word in s.value.split()}
    assert surname not in written.split() or surname in surfaced


def test_an_id_s_name_on_a_line_beside_placeholders_is_no_name_line():
    # "rodné číslo" between two placeholders read as a lower-case name line.
    assert surfaced("<PERSON_1> rodné číslo <NATIONAL_ID_1>") == {}


def test_an_id_s_name_with_no_digit_after_it_surfaces_nothing():
    assert surfaced("the NIE form is attached, PESEL holders welcome") == {}


def test_digits_grouped_by_a_slash_are_surfaced():
    assert surfaced("call back on 731104/8812 please")["731104/8812"] == "PHONE_NUMBER"


@pytest.mark.parametrize(
    "text, value",
    [
        # A house number after its mark, beside a placeholder.
        ("calle 9 <PERSON_1> # 12-7 <PERSON_1>", "12-7"),
        # A house number and the street's first words before it.
        ("Hello\n42 Queen <STREET_ADDRESS_1>", "42 Queen"),
        # A postcode with its country's letters, under the street.
        ("<STREET_ADDRESS_1>\nFloor B\nHolte\nDK-2840", "Floor B\nHolte\nDK-2840"),
        # A postcode a sentence runs on from.
        ("<STREET_ADDRESS_1>\nVarde\nNorway 6800 my birthday is soon", "Varde\nNorway 6800"),
    ],
)
def test_what_is_left_of_an_address_beside_a_placeholder_is_surfaced(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


def test_what_stands_beside_a_value_replaced_after_the_unsure_rules_is_surfaced(policy):
    from dataclasses import replace

    from miner.redaction.session import with_rest_surfaced

    before = redacted(policy, "Hello\n42 Queen Zorvalane Road")
    text = "Hello\n42 Queen <STREET_ADDRESS_1>"
    turn = replace(before.session.turns[0], user_text=text)
    after = replace(before, session=replace(before.session, turns=(turn,)))
    assert ("STREET_ADDRESS", "42 Queen") in {
        (s.entity, s.value) for s in with_rest_surfaced(before, after, policy).surfaced
    }
    assert with_rest_surfaced(before, before, policy) is before


@pytest.mark.parametrize("text", ["C'mon, sing it with me now", "y'all come back soon"])
def test_a_contraction_s_rest_is_no_lower_case_first_name(text):
    assert surfaced(text) == {}


def test_a_surname_after_an_elided_particle_is_still_read():
    assert "connor" in next(iter(surfaced("ask o'connor about it")), "")


def all_reasons(text: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for s, e, _entity, reason in Unsure().reasoned_spans(text):
        found.setdefault(text[s:e], set()).add(reason)
    return found


def reasons(text: str) -> dict[str, str]:
    return {text[s:e]: reason for s, e, _entity, reason in Unsure().reasoned_spans(text, None)}


@pytest.mark.parametrize(
    "text",
    [
        # A first name that English writes only as a verb's form, before "by".
        "the anthem was sung by the choir",
        # A role made of an English verb and "-er" before a person.
        "ask our regular commenter <PERSON_1> about it",
        # A word English's lexicon files after a person, ending the sentence.
        "she was a big <PERSON_1> fan. Then she left",
        # A person's id's name in its language, before its value.
        "my rodné číslo is <NATIONAL_ID_1>",
        # A website's host.
        "details at https://natasha.example/ today",
    ],
)
def test_words_of_the_sentence_beside_a_name_are_no_decision(text):
    assert reasons(text) == {}


@pytest.mark.parametrize(
    "text, value",
    [
        # A street's type of Faker's lists, last or first, beside a name and a number.
        ("Best wishes\n52 Tovuz Nərgiz Küçəsi\nthanks", "52 Tovuz Nərgiz Küçəsi"),
        ("Regards,\nMókus bálint köz 41\nthanks", "Mókus bálint köz 41"),
        ("it is at 73 Hvidkløvervej today", "73 Hvidkløvervej"),
        ("Regards,\n9 Nurmeki põik tänav\nthanks", "9 Nurmeki põik tänav"),
    ],
)
def test_a_street_line_that_names_its_type_is_sure(text, value):
    from miner.redaction.unsure import REPLACED_REASONS, TYPED_STREET_LINE

    assert TYPED_STREET_LINE in all_reasons(text).get(value, set())
    assert TYPED_STREET_LINE in REPLACED_REASONS


@pytest.mark.parametrize(
    "text, value",
    [
        ("we asked if sung could come too", "sung"),
        ("ask our regular kowalczyk <PERSON_1> about it", "kowalczyk"),
        ("please call <PERSON_1> lopez today", "lopez"),
        ("file of <PERSON_1> th.d. attached", "th.d."),
        ("the file of <PERSON_1> Jr. attached", "Jr."),
        ("i will call natasha tomorrow", "natasha"),
    ],
)
def test_a_name_beside_those_words_is_still_surfaced(text, value):
    assert value in reasons(text)


def test_a_name_cue_reads_the_word_on_its_own_line_only():
    assert reasons("My name is <PERSON_1>\nThx\n<PERSON_2>") == {}
    assert "kowalski" in reasons("please ring kowalski on the intercom")


@pytest.mark.parametrize(
    "text, value",
    [
        # No type: a person's name and a number as often, the reviewer's.
        ("The bakery is at 1180 Odile Varnier", "1180 Odile Varnier"),
        ("Regards,\nBerg Kvarn 12\nthanks", "Berg Kvarn 12"),
        # A town with a type's ending glued ("-burg") and its postcode: no street.
        ("Regards,\nAnna Weber, Regensburg 93047\nthanks", "Regensburg 93047"),
    ],
)
def test_a_street_line_with_no_type_stays_surfaced(text, value):
    from miner.redaction.unsure import TYPED_STREET_LINE

    found = all_reasons(text)
    assert value in found and TYPED_STREET_LINE not in found[value], found


def test_a_typed_street_line_with_a_town_under_it_stays_one_unsure_block():
    # Apart, the town alone would be read by the second model as a name.
    text = "Trevo Cavalcanti, 33\nVila Santa Rosa\n46881973 Silveira Verde / DF\n\nThanks"
    found = all_reasons(text)
    from miner.redaction.unsure import TYPED_STREET_LINE

    block = "Trevo Cavalcanti, 33\nVila Santa Rosa\n46881973 Silveira Verde / DF"
    assert "an address block" in found[block]
    assert not any(TYPED_STREET_LINE in why for why in found.values())


def test_a_typed_street_line_after_a_firm_and_a_comma_is_sure_from_its_number():
    from miner.redaction.unsure import TYPED_STREET_LINE

    found = all_reasons("We'll meet Tuesday at Korvex, 12 Tovuz Nərgiz Küçəsi")
    assert TYPED_STREET_LINE in found["12 Tovuz Nərgiz Küçəsi"]
    assert not any(TYPED_STREET_LINE in why for value, why in found.items() if "Korvex" in value)


def test_a_typed_street_line_is_replaced_and_the_firm_above_it_kept(policy):
    text = "Kind regards,\nHalvor Brekke\nNordvik Maskin AS\n61 Tovuz Nərgiz Küçəsi\nthanks"
    written = redacted(policy, text).session.turns[0].user_text
    assert "Nərgiz" not in written and "61" not in written and "Küçəsi" not in written
    assert "Nordvik Maskin AS" in written


@pytest.mark.parametrize(
    "text, street",
    [
        # The number first and a type of a language not English last: sure
        # before the model reads the words before the type as a person's.
        ("Meet me at 1402 Orxan Vəliyev Küçəsi", "1402 Orxan Vəliyev Küçəsi"),
        ("Please send it to 88 Talvike põik? I am away", "88 Talvike põik"),
        ("Deliver to 317 Rauf Qasimov prospekti, thanks", "317 Rauf Qasimov prospekti"),
    ],
)
def test_a_number_then_a_name_then_its_type_is_a_sure_street_line(text, street):
    from miner.redaction.lexicon.addresses import find_addresses

    assert [text[s:e] for s, e in find_addresses(text)] == [street]


@pytest.mark.parametrize(
    "text",
    [
        "Terminal 2 Norte, gate 14",  # no name between the number and the word
        "I booked 2 rooms for Tuesday",  # no type
        "12 Tovuz Nərgiz Küçəsi Bistro",  # a capitalised word after it: a firm's
    ],
)
def test_a_number_and_a_type_with_no_name_between_is_no_sure_street_line(text):
    from miner.redaction.lexicon.addresses import find_addresses

    assert [text[s:e] for s, e in find_addresses(text) if "Küçəsi" in text[s:e]] == []
    assert "Norte" not in "".join(text[s:e] for s, e in find_addresses(text))


def test_a_street_the_model_would_read_as_a_person_is_replaced_whole(policy):
    result = redacted(policy, "Meet me at 1402 Orxan Vəliyev Küçəsi")
    assert result.session.turns[0].user_text == "Meet me at <STREET_ADDRESS_1>"
    assert result.surfaced == ()


@pytest.mark.parametrize(
    "text, value",
    [
        # The type's full stop is the sentence's.
        ("Please send a taxi to 88 Talvike tänav.", "88 Talvike tänav."),
        # Hungarian's "road of", Estonian's side street, Swedish's type apart.
        ("Regards,\nRózsa útja 12\nthanks", "Rózsa útja 12"),
        ("Regards,\n14 Kaera põik\nthanks", "14 Kaera põik"),
        ("Regards,\nLinnea Holms väg 31\nthanks", "Holms väg 31"),
    ],
)
def test_more_street_types_name_a_typed_line(text, value):
    from miner.redaction.unsure import TYPED_STREET_LINE

    assert TYPED_STREET_LINE in all_reasons(text).get(value, set()), all_reasons(text)


def test_a_sign_off_ends_an_address_s_parts():
    # Not "Thx" surfaced as a part of the address above it.
    text = "<STREET_ADDRESS_1>\nThx\n<PERSON_1>\n<STREET_ADDRESS_2>"
    assert all_reasons(text) == {}
    found = all_reasons("Meet at 5490 ervinova 1334\nThx\nMarta Kolar\n18 Birch Lane")
    assert "Thx" not in "".join(found)


def test_a_sentence_s_full_stop_ends_an_address_s_parts():
    text = "We'll meet Monday at Varnex, 12 Kalinowa, Bredzin. Passport no. <PASSPORT_1>"
    found = all_reasons(text)
    assert "Varnex, 12 Kalinowa, Bredzin" in found
    assert not any("Passport" in value or value.endswith(".") for value in found)


def test_a_block_line_s_bullet_does_not_end_an_address_s_parts():
    # The street named after a town holds its block only with the postcode under it.
    text = "• Anna Berg\n• 231 Lisboa\n• Flat 53\n• Oeiras\n• Portugal 2780-123"
    assert "231 Lisboa\n• Flat 53\n• Oeiras\n• Portugal 2780-123" in all_reasons(text)


def test_a_label_before_another_value_is_no_rest_of_a_street_s_line():
    assert all_reasons("The bus drops you off at <STREET_ADDRESS_1> DOB <DATE_OF_BIRTH_1>") == {}
    assert "kvorno" in all_reasons("ship to <STREET_ADDRESS_1> kvorno")


def test_a_name_surfaced_inside_a_sure_street_is_no_decision_once_it_is_replaced():
    from datetime import UTC, datetime

    from miner.model import Session, Turn
    from miner.redaction.redacted import Redacted
    from miner.redaction.session import with_sure_rules_decided
    from miner.redaction.surfaced import Surfaced
    from miner.redaction.unsure import TYPED_STREET_LINE

    now = datetime(2026, 11, 22, tzinfo=UTC)
    turn = Turn(invocation_id="i", user_text="Regards\n41 Nora bəy Küçəsi", reply_text="Nora?")
    session = Session("s", "support_agent", "u-1", now, now, {}, (turn,))
    street = Surfaced("STREET_ADDRESS", "41 Nora bəy Küçəsi", TYPED_STREET_LINE)
    name = Surfaced("PERSON", "bəy", "a guessed name (verdict)")
    kept = Surfaced("PERSON", "Nora", "a guessed name (verdict)")  # written elsewhere too
    before = Redacted(session, Counter(), {}, surfaced=(street, name, kept))
    after = with_sure_rules_decided(before)
    assert after.session.turns[0].user_text == "Regards\n<STREET_ADDRESS_1>"
    assert after.surfaced == (kept,)


@pytest.mark.parametrize(
    "text, value",
    [
        # A street named by its ordinal, its type left out, with its unit and postcode.
        (
            "Hi,\n72 2nd\\n Apt. B\\n Elmford\\n Canada K1M 2C5",
            "72 2nd\\n Apt. B\\n Elmford\\n Canada K1M 2C5",
        ),
    ],
)
def test_a_street_named_by_its_ordinal_is_a_street_line(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


def test_a_verb_before_a_numbered_article_is_no_street():
    text = "the council began by invoking Article 12 of the charter"
    assert "STREET_ADDRESS" not in surfaced(text).values()


@pytest.mark.parametrize(
    "text, value",
    [
        # Addressed first after a colon, where a quoted clause starts.
        ("Noted, and passed on: Georgia, can you call us back?", "Georgia"),
        # Spoken to, in lower case, a word English does not write.
        ("you came back! said tamsin to oluwadamilare", "oluwadamilare"),
    ],
)
def test_a_name_addressed_or_spoken_to_is_surfaced(text, value):
    assert value in reasons(text)


def test_an_english_word_s_rarer_plural_is_no_unknown_name():
    assert "Cyborgs" not in reasons("the film was about Cyborgs and more")
    assert "Kalnins" in reasons("the file of Kalnins was sent")
    # A listed name's genitive or patronymic is no English plural.
    assert "Stefans" in reasons("follow up with Stefans next week")


def test_a_rare_name_in_a_person_s_slot_is_replaced_a_common_word_surfaced():
    # The tune splits found the rule's values English writes less than
    # often always planted (34 of 34: unsure.REPLACED_REASONS), so the
    # first pass replaces them; a word English writes often stays the
    # reviewer's ("Boss").
    from miner.config import load_config
    from miner.redaction.detector import detector_for
    from miner.redaction.policy import RedactionPolicy
    from tests.conftest import PIPELINE

    config = load_config(PIPELINE)
    off = config.redaction.model_copy(update={"second_model": False})
    without = config.model_copy(update={"redaction": off})
    first_pass_only = RedactionPolicy(without, detector_for(without))
    result = redacted(first_pass_only, "Don't go to town, Qorvath!")
    assert result.session.turns[0].user_text == "Don't go to town, <PERSON_1>!"
    assert result.originals.get("Qorvath") == "PERSON"
    common = redacted(first_pass_only, "Thanks for nothing, Boss!")
    assert common.session.turns[0].user_text == "Thanks for nothing, Boss!"
    assert ("PERSON", "Boss") in {(s.entity, s.value) for s in common.surfaced}


@pytest.mark.parametrize(
    "text",
    [
        # An acronym where a person stands, and a word of people of a kind.
        "starring <PERSON_1> DOB 21 July",
        "IT WAS SUNG BY TRAINMEN. THEN",
    ],
)
def test_an_acronym_or_english_people_in_a_person_s_slot_is_no_name_there(text):
    assert not {"a name in a person's slot", "a rare name in a person's slot"} & set(
        reasons(text).values()
    )


def test_a_surname_named_for_a_trade_after_a_replaced_first_name_is_not_left_silently(policy):
    # English's lexicon files "thatcher" as a noun, but writes it rarely:
    # typed in lower case after a first name, it is the surname.
    redaction = redacted(policy, "Hello, I am Katarzyna thatcher")
    text = redaction.session.turns[0].user_text
    surfaced = {s.value.casefold() for s in redaction.surfaced}
    assert "thatcher" not in text or "thatcher" in surfaced, text


def test_a_sentence_s_words_before_a_street_type_are_no_street(policy):
    redaction = redacted(policy, "La oficina está en Distrito 5, muy cerca")
    text = redaction.session.turns[0].user_text
    assert "La oficina está en" in text, text


@pytest.mark.parametrize(
    "text, word",
    [
        ("PLEASE CANCEL MY SUBSCRIPTION TODAY", "CANCEL"),  # lemminflect's verb
        ("MY HUSBAND IS THAI", "THAI"),  # a nationality said
        ("THE OLD MILL BRIDGE IS CLOSED", "MILL BRIDGE"),  # a place by its word
    ],
)
def test_a_listed_word_in_a_text_in_capitals_that_is_english_or_a_place_is_no_name(text, word):
    assert word not in surfaced(text)


@pytest.mark.parametrize(
    "text, name",
    [("WHY IS TEODORO SO LATE?", "TEODORO"), ("PLEASE CALL BACK LUDMILA", "LUDMILA")],
)
def test_a_listed_name_in_a_text_in_capitals_is_still_surfaced(text, name):
    assert surfaced(text).get(name) == "PERSON"


def test_a_word_whose_address_it_is_is_a_person_s_though_a_town_s_name():
    # "Kisumu" is a town's name, which the name rules leave alone elsewhere.
    text = "As agreed, here is Kisumu's address: 14 Oginga Road"
    assert surfaced(text).get("Kisumu") == "PERSON"
    assert "Kisumu" not in surfaced("We drove from Kisumu to the coast")


@pytest.mark.parametrize(
    "text, word",
    [
        ("The ETFS HEDG/ETFS DAILY HEDGED QWOPTICA office is at 9 Elm Road", "QWOPTICA"),
        ("The KRAVECORP DS 1 40TH SE Orchestra was founded in 1988", "KRAVECORP"),
    ],
)
def test_a_word_in_capitals_in_a_code_s_run_is_no_name(text, word):
    # A fund's or a ticker's name: three words in capitals or more, one
    # shaped like a code's part ("HEDG/ETFS", "40TH").
    assert word not in surfaced(text)


@pytest.mark.parametrize(
    "text, name",
    [
        ("Please ring KOBELTSKI on the intercom", "KOBELTSKI"),
        ("NAME 1 WOJTASZEKA/ANNA MRS", "WOJTASZEKA"),  # an airline's name, first name after
        ("I ORDERED 2 CHAIRS FOR KOWALCZYKOWA and a table", "KOWALCZYKOWA"),
        # A passenger's surname beside a booking's codes (a seat, a flight's
        # number, a route, a PNR) is no fund's name.
        ("Please rebook KRZYSZTOFIAK PNR X7Y9Q2 today", "KRZYSZTOFIAK"),
        ("Boarding pass: KRZYSZTOFIAK LO281 12A", "KRZYSZTOFIAK"),
        ("Ticket holder BRZOZOWSKA KTW-LTN W6 1234 was denied", "BRZOZOWSKA"),
    ],
)
def test_a_word_in_capitals_outside_a_code_s_run_is_still_surfaced(text, name):
    assert surfaced(text).get(name) == "PERSON"


@pytest.mark.parametrize(
    "text, word",
    [
        ("she moved here from georgia", "georgia"),  # a place after "from"
        ("the sunni Border Force stopped him", "sunni"),  # a thing's word after it
        ("in argentina they sing", "argentina"),
        ("we sang carry me back to tristán da cunha", "tristán"),  # a place's particle
    ],
)
def test_a_lower_case_first_name_its_neighbours_make_a_place_or_a_thing_is_no_name(text, word):
    assert word not in surfaced(text)


def test_a_lower_case_first_name_after_from_is_still_surfaced():
    assert surfaced("i got a call from petra yesterday").get("petra") == "PERSON"


def test_a_short_capitalised_word_no_english_alone_in_a_string_is_surfaced():
    # A field's value of three letters: the capitalised rules need four
    # letters of a word alone.
    assert surfaced("Uzo") == {"Uzo": "PERSON"}
    assert surfaced("Yes") == {} and surfaced("Ltd") == {}
    assert "Uzo" not in surfaced("Uzo", key="sku")  # a thing's key


@pytest.mark.parametrize(
    "text, value",
    [
        # A house number marked by a word at its line's start: with its mark
        # (after a line break written "\n", not "nNr.": a street's word).
        (r"Ines Kohl\nNr. 38\nthanks", "Nr. 38"),
        ("Ines Kohl\nNr. 38\nthanks", "Nr. 38"),
        ("Ines Kohl\nNr. 38, Lindau\nthanks", "Nr. 38, Lindau"),
    ],
)
def test_a_marked_house_number_at_its_line_s_start_is_surfaced(text, value):
    assert value in all_reasons(text)


@pytest.mark.parametrize("text", ["see ticket\n#38\nthanks", "my order No. 38 is late"])
def test_a_number_marked_by_a_hash_or_in_a_sentence_is_no_house_number(text):
    assert all_reasons(text) == {}


@pytest.mark.parametrize(
    "text, value",
    [
        # The number, then a type written before the name, the line whole.
        ("Regards,\nIrma Wolf\n17 rue des Tanneurs\n<PHONE_NUMBER_1>", "17 rue des Tanneurs"),
        (r"Regards,\nIrma Wolf\n940 Avenida Ruiz Tavares", "940 Avenida Ruiz Tavares"),
        # A word English writes too (a square) and a particle, then the name.
        ("Regards,\nIrma Wolf\n38 Place du Marché\n<PHONE_NUMBER_1>", "38 Place du Marché"),
        # A Danish type Faker lacks, glued: an alley.
        ("Regards,\nIrma Wolf\n54 Smedegyden\n<PHONE_NUMBER_1>", "54 Smedegyden"),
    ],
)
def test_a_line_of_a_number_and_a_type_before_the_name_is_sure(text, value):
    from miner.redaction.unsure import TYPED_STREET_LINE

    assert TYPED_STREET_LINE in all_reasons(text).get(value, set()), all_reasons(text)


@pytest.mark.parametrize(
    "text, value",
    [
        # Words after the street on its line, or a sentence's: the reviewer's.
        ("we met at 17 rue des Tanneurs yesterday", "17 rue des Tanneurs"),
        ("Regards,\n17 rue des Tanneurs, Lyon\nthanks", "17 rue des Tanneurs, Lyon"),
        # A town ending in "-haven" is no Danish garden.
        ("Regards,\n54 Newhaven\nthanks", "54 Newhaven"),
    ],
)
def test_a_number_and_a_type_before_the_name_inside_a_line_stays_surfaced(text, value):
    from miner.redaction.unsure import TYPED_STREET_LINE

    found = all_reasons(text)
    assert TYPED_STREET_LINE not in found.get(value, {TYPED_STREET_LINE}), found


# A street in any sentence (branch streets12): rules about the value (its
# number's shape, its line), whatever sentence carries it.


@pytest.mark.parametrize(
    "text, value",
    [
        # A number no age is written as, after a street named after a person.
        ("the van stopped at <PERSON_1> 14c this morning", "14c"),
        ("<PERSON_1> 2217 is where I live now.", "2217"),
        ("send it to <PERSON_1> 8/3 please", "8/3"),
        # A house number with a second number and a comma before one.
        ("Please deliver to 41/907, <PERSON_1> by Monday.", "41/907"),
    ],
)
def test_a_house_number_no_age_is_written_as_beside_a_person_is_surfaced(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


@pytest.mark.parametrize(
    "text",
    [
        "<PERSON_1> 31 called again",
        "<PERSON_1> 5G is down",
        "open 24/7, <PERSON_1> said",
        "on 11/04, <PERSON_1> phoned",
    ],
)
def test_an_age_a_code_or_a_date_beside_a_person_is_no_house_number(text):
    assert "STREET_ADDRESS" not in surfaced(text).values()


@pytest.mark.parametrize(
    "text, value",
    [
        ("Please ship to 17\n<STREET_ADDRESS_1> by Friday.", "17"),
        ("ship to 92b\\n<STREET_ADDRESS_1>", "92b"),
    ],
)
def test_a_house_number_ending_the_line_above_a_street_is_surfaced(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


@pytest.mark.parametrize(
    "text", ["see point 1.\n<STREET_ADDRESS_1>", "we open at 10:30\n<STREET_ADDRESS_1>"]
)
def test_a_list_s_number_or_a_time_above_a_street_is_no_house_number(text):
    assert "STREET_ADDRESS" not in surfaced(text).values()


@pytest.mark.parametrize(
    "text, value",
    [
        ("The parcel went to 482 Marigold instead", "482 Marigold"),
        ("708 Lighthouse is where I live now.", "708 Lighthouse"),
        ("address=31 Oakmere; status=pending", "31 Oakmere"),
    ],
)
def test_a_house_number_and_one_capitalised_word_are_surfaced(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


@pytest.mark.parametrize(
    "text",
    [
        "I bought the Pixel 18 Ultra last week",
        "we need 24 Tickets for the show",
        "I have 3 Nokia phones",
        "my ticket for Flight 6021 Standard was refunded",
        "the Canon 90 Mini arrived broken",
    ],
)
def test_a_count_a_model_or_a_flight_before_a_word_is_no_street(text):
    assert "STREET_ADDRESS" not in surfaced(text).values()


def test_a_street_running_on_past_a_name_surfaces_its_rest():
    from datetime import UTC, datetime

    from miner.model import Session, Turn
    from miner.redaction.unsure import unsure_values

    now = datetime(2026, 11, 22, tzinfo=UTC)
    # The name rules read "Zəfər Nəbiyeva Küçəsi" as one name; the street's
    # line runs on to its number, which is surfaced, not left silent.
    turns = (Turn("i", "Zəfər Nəbiyeva Küçəsi 4471 is my new address.", "ok"),)
    values = [s.value for s in unsure_values(Session("s", "a", "u", now, now, {}, turns), Unsure())]
    assert "4471" in values


@pytest.mark.parametrize(
    "text, value",
    [
        ("It was sent from Rua 58 last week.", "Rua 58"),
        ("address=Calle 71; status=pending", "Calle 71"),
    ],
)
def test_a_street_s_type_and_its_number_are_surfaced_in_any_sentence(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


@pytest.mark.parametrize("text", ["we watched it at the Plaza 2 cinema", "Boarding at Gate 12 now"])
def test_a_screen_or_a_gate_and_its_number_are_no_street(text):
    assert "STREET_ADDRESS" not in surfaced(text).values()


def test_a_street_s_type_is_asked_only_of_a_word_before_a_number(monkeypatch):
    # Its lists were read for every capitalised word of a text: 0.3 s of
    # CPU more at 1 MiB of capitalised words, for no number after any.
    from miner.redaction.unsure import streets

    asked: list[str] = []
    real = streets._a_street_type
    monkeypatch.setattr(streets, "_a_street_type", lambda word: asked.append(word) or real(word))
    found = list(streets.numbered_words("Via Roma and Rua Augusta, then Rua 58 at last."))
    assert asked == ["Rua"]
    assert any(start == len("Via Roma and Rua Augusta, then ") for start, _e, _k in found)


@pytest.mark.parametrize(
    "text, name",
    [
        ("Ask Gutierrez about the invoice", "Gutierrez"),
        ("It came. Call Hernandez back", "Hernandez"),
    ],
)
def test_a_census_surname_after_a_sentence_s_english_first_word_is_surfaced_alone(text, name):
    # "Ask" is capitalised only as the sentence's first word: no run of a
    # town's words, and no part of the name.
    assert surfaced(text) == {name: "PERSON"}


@pytest.mark.parametrize(
    "text, word",
    [
        ("a to wszystko, dziękuję", "wszystko"),
        ("no i to działa", "działa"),
        ("Czekaj, to działa!", "działa"),
    ],
)
def test_the_slavic_to_is_no_english_cue_before_a_person(text, word):
    assert word not in surfaced(text)


def test_english_to_before_a_name_no_list_knows_is_still_a_person_s_slot():
    assert surfaced("i sent the parcel to natashia")["natashia"] == "PERSON"


@pytest.mark.parametrize(
    "text",
    [
        "to natashia: your parcel has shipped",
        "i gave it back, to natashia",
        "thanks, to natashia too",
    ],
)
def test_to_first_in_an_english_line_or_clause_is_english_s_before_a_person(text):
    # First on its line or after a comma, as the Slavic "to" stands; the
    # line's other English words make it the preposition.
    assert surfaced(text).get("natashia") == "PERSON"


@pytest.mark.parametrize(
    "text",
    ["I moved from münchen last year", "flights to göteborg and from warszawa"],
)
def test_a_town_in_its_own_language_typed_in_lower_case_is_no_person(text):
    assert surfaced(text) == {}


@pytest.mark.parametrize(
    "text, value",
    [
        ("Escalation summary: dierckx reported a double charge", "dierckx"),
        ("martinez called about the missing parcel", "martinez"),
        ("hi, it's alvarez again, the webcam arrived broken", "alvarez"),
        ("BUDAI called about the missing parcel", "BUDAI"),
        ("can you tell ALCIE ALBERTI that the order shipped", "ALCIE ALBERTI"),
    ],
)
def test_a_listed_surname_or_a_name_in_capitals_where_a_caller_stands_is_surfaced(text, value):
    assert surfaced(text).get(value) == "PERSON"


@pytest.mark.parametrize(
    "text",
    ["the courier called twice", "our support said so", "Please RING the bell"],
)
def test_a_team_or_a_thing_before_a_caller_s_deed_is_no_name(text):
    assert surfaced(text) == {}


def test_a_cue_in_capitals_is_not_grown_into_the_name_after_it():
    assert surfaced("Please RING FARMER on the intercom") == {"FARMER": "PERSON"}


@pytest.mark.parametrize(
    "text, value",
    [("Miller/Customer Success", "Miller"), ("Regards, Miller/Support", "Miller")],
)
def test_a_listed_surname_first_on_its_line_before_its_team_is_surfaced(text, value):
    assert surfaced(text).get(value) == "PERSON"


def test_a_team_s_word_before_a_slash_is_no_name():
    assert surfaced("Sales/Support") == {}
    assert surfaced("Billing/Customer Care") == {}


def test_a_town_s_other_name_is_a_person_s_word_outside_a_trip_s_slot():
    assert surfaced("leave the parcel with adelajda next door")["adelajda"] == "PERSON"


@pytest.mark.parametrize(
    "text",
    ["got a message from adelajda about the parcel", "pls send the parcel to adelajda"],
)
def test_a_town_s_other_name_after_from_or_to_with_no_trip_is_a_person_s_word(text):
    assert surfaced(text).get("adelajda") == "PERSON"


def test_a_town_s_other_name_is_read_only_after_a_trip_s_from_or_to(monkeypatch):
    # 63,000 names: loaded by a run that meets a lower-case word on a trip.
    from miner.redaction.lexicon import names

    asked: list[str] = []
    real = names.towns_other_names
    monkeypatch.setattr(names, "towns_other_names", lambda: asked.append("read") or real())
    surfaced("leave the parcel with adelajda next door")
    assert asked == []
    assert surfaced("flights from münchen on friday") == {}
    assert asked


@pytest.mark.parametrize(
    "text",
    ["ana maria lopez md", "tell adaeze  now", " x", "ends with a space ", "a\tb c", ""],
)
def test_a_name_run_s_one_blank_is_read_as_the_stretch_between_was(text):
    # The name rules ask whether one space stands between a name run's end
    # (-1 before any) and a word: read in place, not copied (a copy of the
    # stretch after an early name made a long text's pass quadratic).
    from miner.redaction.unsure.names import _one_blank_between

    for end in range(-1, len(text) + 1):
        for start in range(len(text) + 1):
            assert _one_blank_between(text, end, start) == (text[end:start] == " ")


def test_a_surfaced_value_a_placeholder_cut_into_is_surfaced_as_its_rest(policy):
    from dataclasses import replace

    from miner.redaction.session import with_cut_values_resurfaced
    from miner.redaction.surfaced import Surfaced

    before = redacted(policy, "ok")
    text = (
        "passenger <PERSON_1>/MARIE MRS and Anna <PERSON_2> Lopez, Karin <PERSON_3>,"
        " this is prof <PERSON_4>, J. <PERSON_5>, Ewa Nowak <PERSON_6>"
    )
    turn = replace(before.session.turns[0], user_text=text)
    cut = (
        Surfaced("PERSON", "DUBOIS/MARIE MRS"),  # the draft holds "MARIE MRS" as written
        Surfaced("PERSON", "Lopez", part_of="Anna Maria Lopez"),  # linked to no other rest
        Surfaced("PERSON", "Anna Maria Lopez"),  # its two words apart
        Surfaced("PERSON", "Karin Beike"),  # nothing of it but a part linked to it
        Surfaced("PERSON", "Karin", part_of="Karin Beike"),
        Surfaced("PERSON", "prof mihhail filatov"),  # a title alone is left: no one's
        Surfaced("PERSON", "J. Smith"),  # an initial alone is no one's
        Surfaced("PERSON", "Nowak", part_of="Ewa Nowak Kowalska"),  # linked to the rest holding it
        Surfaced("PERSON", "Ewa Nowak Kowalska"),
    )
    after = with_cut_values_resurfaced(
        replace(before, session=replace(before.session, turns=(turn,)), surfaced=cut)
    )
    assert [(s.value, s.part_of) for s in after.surfaced] == [
        ("MARIE MRS", ""),
        ("Lopez", ""),
        ("Anna", ""),
        ("Karin", ""),
        ("Nowak", "Ewa Nowak"),
        ("Ewa Nowak", ""),
    ]


def test_a_passenger_s_name_cut_by_a_placeholder_stands_surfaced_as_its_rest(policy):
    # spaCy replaces "DUBOIS"; the unsure rules surfaced "DUBOIS/MARIE MRS",
    # which the draft no longer holds: the reviewer's tools find a value by
    # its exact text, so "MARIE" stood silent until its rest was surfaced.
    from miner.redaction.surfaced import occurrences

    result = redacted(policy, "passenger DUBOIS/MARIE MRS booked on AF1234")
    out = result.session.turns[0].user_text
    assert "DUBOIS" not in out
    assert all(occurrences(out, s.value) for s in result.surfaced), (out, result.surfaced)
    assert any("MARIE" in s.value for s in result.surfaced), (out, result.surfaced)


@pytest.mark.parametrize(
    "text, glued",
    [
        ("PNR list: 1KOWALSKI/ANNA MS 2NOWAK/JAN MR", "1KOWALSKI/ANNA MS"),
        ("pax 1.1WOJTASZEK/ANNA MRS seat 12A", "1WOJTASZEK/ANNA MRS"),
        # Its given name sure elsewhere: replaced in it, and the rest surfaced.
        ("Anna called. pax 1.1KOWALSKI/ANNA MS", "1KOWALSKI"),
        # Whole once and glued once in one string: both surfaced.
        ("pax KOWALSKI/ANNA MS and again 1.1KOWALSKI/ANNA MS", "1KOWALSKI/ANNA MS"),
        # After an escaped break in a quoted document: no "n" taken with it.
        ("pax list:\\n1KOWALSKI/ANNA MS", "1KOWALSKI/ANNA MS"),
    ],
)
def test_a_name_glued_to_a_list_number_is_surfaced_as_the_word_it_is_glued_into(
    policy, text, glued
):
    # A GDS glues a passenger's list number to the surname: no whole-word
    # replacing or search finds "KOWALSKI/ANNA MS" there, and "KOWALSKI"
    # stood silent beside a surfaced "ANNA MS".
    from miner.redaction.surfaced import occurrences

    result = redacted(policy, text)
    out = result.session.turns[0].user_text
    assert glued in {s.value for s in result.surfaced}, (out, result.surfaced)
    assert occurrences(out, glued)


def test_a_hit_glued_into_a_word_runs_on_to_the_word_s_edges():
    from miner.redaction.detector import _whole_words

    def whole(text: str, hit: str) -> str:
        start = text.index(hit)
        return text[slice(*_whole_words(text, start, start + len(hit)))]

    assert whole("ids ZX07700900123, ok", "07700900123") == "ZX07700900123"
    assert whole("ring ab+447700900123cd", "+447700900123") == "ab+447700900123cd"
    assert whole("mail ann@x.io now", "ann@x.io") == "ann@x.io"  # whole already
    # Not over an escaped break (read as a break: " \n"), nor into a token of
    # more than 64 word characters (a hash, a blob).
    assert whole("list: \n1KOWALSKI/ANNA", "KOWALSKI/ANNA") == "1KOWALSKI/ANNA"
    blob = "f" * 80 + "07700900123"
    assert whole(f"sha {blob} end", "07700900123") == "07700900123"
    # The bound itself: 64 glued characters on a side are taken, 65 are not.
    assert whole("x " + "g" * 64 + "Ann y", "Ann") == "g" * 64 + "Ann"
    assert whole("x Ann" + "g" * 64 + " y", "Ann") == "Ann" + "g" * 64
    assert whole("x " + "g" * 65 + "Ann y", "Ann") == "Ann"
    assert whole("x Ann" + "g" * 65 + " y", "Ann") == "Ann"


@pytest.mark.parametrize(
    "text, value",
    [
        ("parcel for DE LA CRUZ, flat 3", "DE LA CRUZ"),  # English writes "cruz"
        ("leave it with DA SILVA please", "DA SILVA"),
    ],
)
def test_a_surname_after_its_particles_in_capitals_is_surfaced_with_no_cue(text, value):
    assert surfaced(text).get(value) == "PERSON"


def test_a_short_particle_before_a_word_no_list_knows_is_no_surname():
    assert surfaced("shipping to DE VAT included") == {}


def test_a_building_s_letter_does_not_end_an_address_block():
    # "Maja A" (Estonian's building A): the block runs on to its postcode.
    text = "708 Kirde\\n Maja A\\n Viljandi\\n Mikroneesia 18713"
    assert surfaced(text).get(text) == "STREET_ADDRESS"


@pytest.mark.parametrize(
    "text",
    [
        "Hi, this is <PERSON_1>. 2 of my parcels are missing",
        "I talked to <PERSON_1>. 10 items were damaged.",
        "Thanks <PERSON_1>. 100% happy now.",
        "Ship to <STREET_ADDRESS_1>. 3 boxes please.",
    ],
)
def test_a_count_after_a_name_s_full_stop_is_no_house_number(text):
    # A sentence's count after a name or a street and its full stop: no
    # house's number (review22: each was surfaced).
    assert surfaced(text) == {}


@pytest.mark.parametrize("town", ["Viljandi", "Ängelholm", "Øvre Årdal"])
def test_a_number_after_a_name_s_full_stop_before_a_capitalised_town_is_a_house_s(town):
    from miner.redaction.unsure.streets import house_numbers_after_placeholders

    # A capital in any script starts a town, not a sentence's next word.
    text = f"Deliver to <PERSON_1>. 12 {town}"
    assert [text[s:e] for s, e, _ in house_numbers_after_placeholders(text)] == ["12"]


@pytest.mark.parametrize(
    "text",
    [
        "Deliver to 12 Main Street, Springfield I think, or maybe Boston",
        "Deliver to 12 Main Street, Springfield A courier left a note.",
    ],
)
def test_a_sentence_s_capital_going_on_after_a_town_is_no_building_s_letter(text):
    # "I" and "A" go on into a sentence: the address's rest stops at the town
    # (review22: "Springfield I" and "think" were surfaced).
    assert surfaced(text) == {"12 Main Street, Springfield": "STREET_ADDRESS"}


def test_a_sentence_s_a_after_a_street_is_not_its_building_s_letter():
    from miner.redaction.unsure.streets import address_blocks

    # "A" heads its part: a sentence's, which ends the address.
    text = "708 Kirde\\n A friend lives there"
    assert [text[s:e] for s, e, _entity, _sure in address_blocks(text)] == ["708 Kirde"]


@pytest.mark.parametrize(
    "text, value",
    [
        ("The title refers to Du <STREET_ADDRESS_1> in Guyancourt.", "Du"),
        ("Deliver to <PERSON_1>, Qəsəbə <STREET_ADDRESS_1> please", "Qəsəbə"),
    ],
)
def test_a_particle_or_a_foreign_word_right_before_a_street_replaced_is_surfaced(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


@pytest.mark.parametrize(
    "text, value",
    [
        ("The bus drops you off at 93 A 93rd <STREET_ADDRESS_1>", "93rd"),
        ("Kristina Hoffman\n1955 26th <STREET_ADDRESS_1>\n<PHONE_NUMBER_1>", "1955 26th"),
        ("HERE THEY ARE: 44TH <STREET_ADDRESS_1>, AND", "44TH"),
        ("User: B25 L61 <STREET_ADDRESS_1>", "B25 L61"),
        ("<PERSON_1>\nSt.-<STREET_ADDRESS_1>\n<PHONE_NUMBER_1>", "St."),
    ],
)
def test_numbers_codes_and_a_hyphened_abbreviation_before_a_street_replaced_are_surfaced(
    text, value
):
    # What the street's rule left before it: a run of house, block or lot
    # numbers, an ordinal among them, or "St.-" of "St.-Michael-Gasse 988".
    assert surfaced(text).get(value) == "STREET_ADDRESS"


@pytest.mark.parametrize(
    "text",
    [
        "Meet at 5pm <STREET_ADDRESS_1>",
        "call me on 2 May at <STREET_ADDRESS_1>",
    ],
)
def test_a_time_or_a_date_before_a_street_replaced_is_not_surfaced(text):
    assert surfaced(text) == {}


@pytest.mark.parametrize(
    "text",
    [
        "Thx\nUlla Green\n<STREET_ADDRESS_1> park\n<PHONE_NUMBER_2>",
        "<PERSON_3>\\nFelix\\n<STREET_ADDRESS_1> park\\nMobile: <PHONE_NUMBER_3>",
    ],
)
def test_a_lower_case_word_ending_a_street_replaced_s_line_is_surfaced(text):
    # "1297 Parda park": Estonian's type, a word English writes too.
    assert surfaced(text).get("park") == "STREET_ADDRESS"


@pytest.mark.parametrize(
    "text",
    [
        "Thanks\n<STREET_ADDRESS_1> please\nbye",
        "It is near <STREET_ADDRESS_1> today\nbye",  # the line holds more than the street
        "<STREET_ADDRESS_1> today",  # no line under it
    ],
)
def test_a_word_after_a_street_replaced_not_ending_its_line_alone_is_not_surfaced(text):
    # A street's type is, wherever it stands ("<STREET_ADDRESS_1> park for
    # this card": test_a_street_s_type_a_unit_or_a_number_right_after_...).
    assert "today" not in surfaced(text) and "please" not in surfaced(text)


@pytest.mark.parametrize(
    "text",
    [
        "Please deliver at <STREET_ADDRESS_1> today",
        "The Hotel <STREET_ADDRESS_1> is closed",
        "Address <STREET_ADDRESS_1>",
    ],
)
def test_an_english_word_right_before_a_street_replaced_is_not_surfaced(text):
    assert surfaced(text) == {}


def test_a_word_before_a_person_before_a_street_is_not_read_across_the_name():
    # "Ciao" is no word of the street: a name replaced stands between them.
    text = "Ciao <PERSON_1> <STREET_ADDRESS_1>"
    found = {(text[s:e], why) for s, e, _x, why in Unsure().reasoned_spans(text)}
    assert ("Ciao", "rest of an address") not in found


def test_a_short_id_s_name_before_a_phone_is_a_name(policy):
    # "NIK" names an id before its value, and a person before a phone.
    text = redacted(policy, "PLEASE CALL NIK 07700 900123 ASAP").session.turns[0].user_text
    assert "NIK" not in text
    result = redacted(policy, "Please call NIK 07700 900123 asap, he is our driver.")
    assert "NIK" not in result.session.turns[0].user_text or ("PERSON", "NIK") in {
        (s.entity, s.value) for s in result.surfaced
    }


def test_a_lower_case_surname_after_a_person_is_the_person_s_replaced(policy):
    # Surfaced as a street's by the street rule, it was left for the reviewer.
    result = redacted(policy, "Hi, this is Dmitri Sokolov. Can you also add Olga sokolov.")
    assert "sokolov" not in result.session.turns[0].user_text.casefold()
    assert not result.surfaced


def test_a_firm_s_word_after_a_person_is_not_replaced(policy):
    # Read as a street's, the model was asked about it (never about a
    # person's word that is a firm's) and replaced it.
    result = redacted(policy, "Hello, I am Paul Walker sarl, and I need help with my booking.")
    assert "<PERSON_1> sarl," in result.session.turns[0].user_text


def test_a_lower_case_english_word_no_list_knows_is_not_read_around(monkeypatch):
    # Each word of a 1 MiB message was read around (a cue's, a title's, a
    # told person's search, the words beside it) and looked up as a place's
    # name, though no rule can take a word the name lists do not know and
    # English writes: 0.4 s of CPU at 1 MiB. A listed name is still read so.
    from miner.redaction.unsure import names

    searched: list[str] = []

    class Recorded:
        def __init__(self, pattern):  # type: ignore[no-untyped-def]
            self.pattern = pattern

        def search(self, text, *bounds):  # type: ignore[no-untyped-def]
            searched.append(text[bounds[1] : bounds[1] + 12] if bounds else text)
            return self.pattern.search(text, *bounds)

    for name in ("_NAME_CUE", "_TITLE_OR_RELATIVE_BEFORE", "_A_VERB_TO_A_PERSON_BEFORE"):
        monkeypatch.setattr(names, name, Recorded(getattr(names, name)))
    real_beside, real_place = names._beside_a_name, names.a_place_name
    monkeypatch.setattr(
        names, "_beside_a_name", lambda *a: searched.append(a[-1]) or real_beside(*a)
    )
    monkeypatch.setattr(names, "a_place_name", lambda w: searched.append(w) or real_place(w))
    from miner.config import UnsureConfig

    words = names.NameWords(UnsureConfig())
    text = "please send your order status today because shipping"
    assert list(words.spans(text, text)) == []
    assert searched == []
    text = "my wife said ask kowalczyk about it"
    assert [text[s:e] for s, e, _entity, _why in words.spans(text, text)] == ["kowalczyk"]
    assert searched


@pytest.mark.parametrize(
    "text, value",
    [
        # en_PH's block, lot and floor before the street its rule replaced.
        ("I have noted Block <STREET_ADDRESS_1> Phase <STREET_ADDRESS_2> on your file.", "Block"),
        ("I have noted Block <STREET_ADDRESS_1> Phase <STREET_ADDRESS_2> on your file.", "Phase"),
        ("<PERSON_1>\nB22 L78 Johnson Homes <STREET_ADDRESS_1>\n", "B22 L78 Johnson Homes"),
        (
            "Address:\\nB23 L96 Dunn Subdivision Phase <STREET_ADDRESS_1>",
            "B23 L96 Dunn Subdivision Phase",
        ),
        ("It's in 6th <STREET_ADDRESS_1>", "6th"),
        ("with b07 l32 <STREET_ADDRESS_1> for this card", "b07 l32"),
        # A part of its own before the street's, a comma between.
        (
            "Return to 33rd Floor Neptune Apartments, <STREET_ADDRESS_1>",
            "33rd Floor Neptune Apartments",
        ),
        ("here's <PERSON_1>'s address:\\n\\n2nd <PERSON_2>, <STREET_ADDRESS_1>", "2nd"),
    ],
)
def test_an_address_s_line_before_a_street_replaced_is_surfaced(text, value):
    # The words the street's rule left of its line, a code or a unit's word
    # among them: silent before (issue 36), whatever their country's shape.
    assert surfaced(text).get(value) == "STREET_ADDRESS"


@pytest.mark.parametrize(
    "text, value",
    [
        ("Please update the billing address with <STREET_ADDRESS_1> park for this card", "park"),
        ("I have noted <STREET_ADDRESS_1> UNIT F on your file.", "UNIT"),
        ("??? Satcom1\\n??? <STREET_ADDRESS_1>-3159", "3159"),
    ],
)
def test_a_street_s_type_a_unit_or_a_number_right_after_a_street_replaced_is_surfaced(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


@pytest.mark.parametrize(
    "text, value",
    [
        ("@owuor can you check this ticket?", "owuor"),
        ("@ORLOV can you check this ticket?", "ORLOV"),
        ("@agap smirnova can you check this ticket?", "agap smirnova"),
    ],
)
def test_a_name_mentioned_with_an_at_sign_is_surfaced(text, value):
    from miner.redaction.unsure.names import MENTIONED

    found = Unsure().reasoned_spans(text)
    assert (value, "PERSON", MENTIONED) in [(text[s:e], ent, r) for s, e, ent, r in found]


@pytest.mark.parametrize(
    "text",
    [
        "The Hotel <STREET_ADDRESS_1> is closed",
        "<STREET_ADDRESS_1> is closed and then",
        "Go to Main menu, <STREET_ADDRESS_1>",
        "Park the car at <STREET_ADDRESS_1>",
        "Visit us, <STREET_ADDRESS_1>",
        "Opening hours: <STREET_ADDRESS_1>",
        "Meet at 5pm <STREET_ADDRESS_1>",
        "Hi Anna Smith, <STREET_ADDRESS_1>",
    ],
)
def test_ordinary_words_beside_a_street_replaced_are_not_surfaced(text):
    assert not [v for v, entity in surfaced(text).items() if entity == "STREET_ADDRESS"]


def test_a_sentence_s_word_does_not_start_an_address_s_line():
    # "Open" and "Mon" are a sentence's: the number alone is the address's.
    assert surfaced("Open Mon 9 <STREET_ADDRESS_1>") == {"9": "STREET_ADDRESS"}
    assert surfaced("A box of 3 X 4 feet") == {}


@pytest.mark.parametrize(
    "text",
    ["@here please look", "@everyone the meeting moved", "@support can you help", "meet @ 5pm",
     "2 mugs @ 3.99 each", "write to me@owuor.com"],
)  # fmt: skip
def test_an_english_word_or_an_address_after_an_at_sign_is_no_mention(text):
    from miner.redaction.unsure.names import MENTIONED

    assert MENTIONED not in [r for *_s, r in Unsure().reasoned_spans(text)]


@pytest.mark.parametrize(
    "text, value",
    [
        # A street's words after "address is" end before the sentence's "and".
        ("my address is Gyamfi Island and my phone is 555", "Gyamfi Island"),
        # "address to" is an address cue.
        ("can you change the delivery address to Gyamfi Island? thanks", "Gyamfi Island"),
        # A person's address after their name and a comma.
        ("Deliver to <PERSON_1>, Mustapha Island please", "Mustapha Island"),
        # A number its mark names a house's, and the parts after it.
        (
            "I live at Holding No. 898, North SonaGan, ManoharChar, Sherpur, 3476 since March.",
            "Holding No. 898, North SonaGan, ManoharChar, Sherpur, 3476",
        ),
    ],
)
def test_a_street_named_without_its_number_after_an_address_cue_is_surfaced(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


@pytest.mark.parametrize(
    "text",
    [
        "Please change the address to the new one",
        "The address to use is on the form",
        "my address is the same and my phone too",
        "my order No. 38 is late",
        "forward it to <PERSON_1>, Sales Center please",
        "send it to <PERSON_1>, thanks",
        "it goes to no 3 people",
        "Park the car",
        "Main menu",
        "3 X 4 feet",
    ],
)
def test_an_address_cue_or_a_number_s_mark_alone_surfaces_nothing(text):
    assert surfaced(text) == {}


def test_the_parts_after_a_street_a_person_s_rule_took_after_its_number_are_surfaced():
    # "Jln Pasar" replaced as a person: its house number and the parts under it.
    found = surfaced("Address: 7, <PERSON_1>, PJU74d, 62421 <PERSON_2>, Putrajaya")
    assert found.get("7") == "STREET_ADDRESS"
    assert found.get("PJU74d, 62421") == "STREET_ADDRESS"


def test_a_person_after_a_number_in_a_sentence_is_no_street():
    assert "PJU74d" not in " ".join(surfaced("I owe 7 <PERSON_1> and PJU74d is my code"))


@pytest.mark.parametrize(
    "text, value",
    [
        # A capitalised street's type after a name's words, no cue before.
        ("The package is stuck at Gyamfi Crossing.", "Gyamfi Crossing"),
        ("Ihejirika Squares", "Ihejirika Squares"),
        ("Is Gyamfi Forge near the station?", "Gyamfi Forge"),
    ],
)
def test_a_street_named_by_a_name_and_a_capitalised_type_is_surfaced(text, value):
    assert surfaced(text).get(value) == "STREET_ADDRESS"


@pytest.mark.parametrize(
    "text",
    [
        "Check Silicon Valley jobs",
        "Visit Central Park",
        "The Golden Gate Bridge",
        "Main Street",
        # A first name before a type a name list knows: a person's.
        "Ask Sophie Park about it",
        "Camille Mills will call back",
        # An airfield's name.
        "You are rebooked to Rollang Field.",
        # An island's, a country's, a town's: a type that ends a place's name.
        "I am stuck at Gebe Island, please rebook me.",
        "We moved here from Cape Verde Islands",
        "the following year at FortisBC in Deerfield Beach",
        "please rebook me to Wichita Falls.",
        # A landmark or a suburb: a town's name, or its first word one (review27).
        "we met at Trafalgar Square yesterday",
        "the Bondi Junction store",
    ],
)
def test_a_type_after_words_english_writes_is_no_named_street(text):
    assert "STREET_ADDRESS" not in surfaced(text).values()


# A surname English writes as a word, in capitals where a person stands
# (issue 36, caps27): main kept it as an English word of a text in capitals.


@pytest.mark.parametrize(
    "text, value",
    [
        ("RECEIVED BY BUTLER", "BUTLER"),
        ("GIVE IT TO BAKER IN APARTMENT 4", "BAKER"),
        ("TELL MILLER THE BOX WAS DAMAGED", "MILLER"),
        ("DELIVER TO JORDAN AT THE BACK DOOR", "JORDAN"),
        ("SHEPHERD'S VAN IS OUTSIDE", "SHEPHERD"),
        ("ADDRESSEE HILL MOVED AWAY", "HILL"),
        ("AN AGENT CALLED HOPE PROMISED A REFUND", "HOPE"),
        ("MY SON HUNTER WILL COLLECT IT", "HUNTER"),
        ("hi, the courier wrote on the slip:\nLEFT WITH WOOD NEXT DOOR\nis that normal?", "WOOD"),
        ("Delivery note for order 4471: PARCEL FOR COOK, FLAT 2.", "COOK"),
        ("Escalation summary\nDepot note: FARMER SIGNED FOR IT\nNext step: refund", "FARMER"),
        ('{"remark": "STATUS UPDATE\\nON BEHALF OF FISHER\\nEND"}', "FISHER"),
        ("PARCEL DROPPED OFF BY BUTLER", "BUTLER"),
        ("I HAD A CHAT WITH BAKER YESTERDAY", "BAKER"),
        ("FROM BUTLER: PLEASE CALL", "BUTLER"),
        ("ESCALATED BY HILL", "HILL"),
    ],
)
def test_a_surname_english_writes_where_a_person_stands_in_capitals_is_surfaced(text, value):
    assert surfaced(text).get(value) == "PERSON"


@pytest.mark.parametrize(
    "text, value",
    [
        ("SHIP TO FRANCE", "FRANCE"),
        ("GIVE IT TO THE DRIVER", "DRIVER"),
        ("PLEASE CALL BACK", "BACK"),
        ("SENT WITH DHL", "DHL"),
        ("THE AGENT CALLED ME", "ME"),
        ("RECEIVED BY POST", "POST"),
        ("PAID BY CARD", "CARD"),
        ("GOING TO JORDAN NEXT WEEK", "JORDAN"),
        ("VISA FOR JORDAN", "JORDAN"),
        ("MADE OF WOOD", "WOOD"),
        ("MADE FROM STONE", "STONE"),
        ("WITH WOOD FLOORING", "WOOD"),
        ("THE KING SIZE BED", "KING"),
        ("WOOD WAS ROTTEN", "WOOD"),
        ("PRICE WILL GO UP", "PRICE"),
        ("PRICE CHANGED AGAIN", "PRICE"),
        ("I WENT TO MCDONALD'S YESTERDAY", "MCDONALD"),
        ("LEFT WITH COURIER AT 5", "COURIER"),
        ("hi, the slip says:\nFOR YOUNG CHILDREN ONLY\nok", "YOUNG"),
        # A bare BY, WITH, FROM: a thing's as often (review27).
        ("CURRY SERVED WITH RICE, NO ONIONS", "RICE"),
        ("BURGER WITH BACON, EXTRA CHEESE", "BACON"),
        ("SORT BY PRICE NOT WORKING", "PRICE"),
        ("TRANSFER FROM CHASE FAILED", "CHASE"),
    ],
)
def test_an_english_word_in_capitals_where_a_person_might_stand_is_kept(text, value):
    assert value not in surfaced(text)


def test_a_surname_more_than_a_word():
    from miner.redaction.lexicon.names import a_surname_more_than_a_word

    assert all(map(a_surname_more_than_a_word, ("BUTLER", "Miller", "hill", "SAUER", "JORDAN")))
    assert not any(map(a_surname_more_than_a_word, ("DRIVER", "POST", "CARD", "SENDER", "CALL")))


def test_within_one_is_a_bisection():
    import time

    from miner.redaction.unsure import _within_one

    spans = [(10 * i, 10 * i + 5) for i in range(20_000)]
    asks = [(0, 5), (1, 3), (4, 6), (5, 6), (10, 15), (199_990, 199_995), (199_991, 199_996)]
    assert [_within_one(spans, s, e) for s, e in asks] == [
        True, True, False, False, True, True, False,
    ]  # fmt: skip
    assert not _within_one([], 0, 1)
    # 20,000 spans found against 20,000 allowed: read pair by pair, 400
    # million; by bisection well under a second.
    began = time.process_time()
    for at in range(0, 200_000, 10):
        _within_one(spans, at, at + 5)
    assert time.process_time() - began < 2.0


@pytest.mark.parametrize(
    "text, value",
    [
        # Taiwan's and Hong Kong's given names, alone or with the surname after.
        ("is this Chin-Fa's account or her husband's?", "Chin-Fa"),
        ("the courier left it with I-Chen downstairs", "I-Chen"),
        ("RECIPIENT Chih-Yuan NOT KNOWN AT THIS ADDRESS", "Chih-Yuan"),
        ("tell i-chen the parcel is at the depot", "i-chen"),
        ("De-Hua called about the refund", "De-Hua"),
        ("ok so SU-CHIN said the parcel never came", "SU-CHIN"),
        ("@CHIN-FA WEN can you check this ticket?", "CHIN-FA WEN"),
        ("ok so chin-fa wen said the parcel never came", "chin-fa wen"),
    ],
)
def test_a_given_name_of_two_mandarin_syllables_is_surfaced(text, value):
    from miner.redaction.unsure.names import A_HYPHENATED_GIVEN_NAME

    assert reasons(text).get(value) == A_HYPHENATED_GIVEN_NAME


@pytest.mark.parametrize(
    "text",
    [
        "the Li-ion battery is fine, the Wi-Fi is down",
        "open Mo-Fr 9-17, Mo-Sa in December",
        "LI-ION CELLS, HI-FI, LO-FI",
        "a so-so tin-can sun-tan",
        "tai-chi and kung-fu classes, a ping-pong table, feng-shui",
        "Chin up, He said, Na+ ions",
        "e-mail me the t-shirt x-ray after check-in",
        "the zh-tw and en-us and de-ch builds",
        "Flight MAN-SHA tomorrow, PEK-SHA on Friday",
        "Yu-En",  # four letters: a weekday range's length ("Mi-Do")
        "tell Chin-Fa to call",  # "to" is English's
        "please re-run the payment, it Re-ran twice",  # English's prefixes
        "the co-pay and the de-icing",
        "The tie-in offer ended",
        "I had a lie-in, then a run-in with the driver",
        "for a hen-do",
    ],
)
def test_english_s_hyphenated_words_are_not_read_as_mandarin_given_names(text):
    from miner.redaction.unsure.names import A_HYPHENATED_GIVEN_NAME

    found = {v: r for v, r in reasons(text).items() if r == A_HYPHENATED_GIVEN_NAME}
    assert found == ({"Chin-Fa": A_HYPHENATED_GIVEN_NAME} if "Chin-Fa" in text else {})


@pytest.mark.parametrize(
    "text, value",
    [
        ("What's your name? FLG OFF Patcharaporn Polauaypon", "FLG OFF Patcharaporn Polauaypon"),
        (
            "POL CAPT Kunaporn Norramon, the Science writer, said: hi",
            "POL CAPT Kunaporn Norramon",
        ),
        ("please call SQN LDR Somchai Sriwong tomorrow", "SQN LDR Somchai Sriwong"),
    ],
)
def test_a_rank_in_capitals_before_a_name_is_surfaced_with_it(text, value):
    from miner.redaction.unsure.names import A_RANK_BEFORE_A_NAME

    assert reasons(text).get(value) == A_RANK_BEFORE_A_NAME


@pytest.mark.parametrize(
    "text",
    [
        "OK Thanks John",
        "RE: Order Status Update",
        "the HDMI Port Broken, USB Cable Replacement",
        "ASAP Delivery Please",
        "NY Times Square",
        "FLG OFF <PERSON_1>",
        "the shares of CA Immobilien Anlagen rose",
        "which later became CA Immobilien Anlagen in 2018.",
    ],
)
def test_capitals_before_english_words_are_no_rank_before_a_name(text):
    from miner.redaction.unsure.names import A_RANK_BEFORE_A_NAME

    assert A_RANK_BEFORE_A_NAME not in reasons(text).values()


@pytest.mark.parametrize(
    "text, value",
    [
        # A surname in capitals no list knows, as a clerk writes one.
        ("is this KOLEV's account or her husband's?", "KOLEV"),
        # A census surname no lexicon files, though English writes "wu".
        ("is this WU's account or her husband's?", "WU"),
        # With the name's other words in capitals before it.
        ("is this KLIMENT BABIY's account or her husband's?", "KLIMENT BABIY"),
    ],
)
def test_a_name_in_capitals_with_s_is_surfaced(text, value):
    from miner.redaction.unsure.names import A_POSSESSIVE_IN_CAPITALS

    assert reasons(text).get(value) == A_POSSESSIVE_IN_CAPITALS


@pytest.mark.parametrize(
    "text",
    [
        "check DHL's tracking page and IBM's and the NHS's",  # acronyms no list knows
        "NASA's site, IKEA's return policy, the UK's rules",  # English writes them
        "the CEO's office and the HOTEL's desk",  # English's nouns
        "Germany's and SPAIN's rules",  # a country
        "IS THIS KOLEV'S ACCOUNT",  # a text in capitals: its own rules
    ],
)
def test_acronyms_and_words_in_capitals_with_s_are_no_names(text):
    from miner.redaction.unsure.names import A_POSSESSIVE_IN_CAPITALS

    assert A_POSSESSIVE_IN_CAPITALS not in reasons(text).values()


@pytest.mark.parametrize(
    "text, value",
    [
        ("cheers\n-- kolev", "kolev"),  # no list knows it, English does not write it
        ("cheers\\n-- petromil kokoshkova", "petromil kokoshkova"),  # a JSON-escaped break
        ("Best,\n— Ana Ruiz", "Ana Ruiz"),  # listed names
        ("-- alvarez", "alvarez"),
    ],
)
def test_a_name_after_a_signature_s_dash_is_surfaced(text, value):
    from miner.redaction.unsure.names import A_NAME_AFTER_A_SIGNATURE_DASH

    assert reasons(text).get(value) == A_NAME_AFTER_A_SIGNATURE_DASH


@pytest.mark.parametrize(
    "text",
    [
        "-- end of message",
        "-- the support team",
        "-- sent from my phone",
        "items:\n-- check the cable\n-- restart",
        "-- Original Message --",
        "price 10 -- 20 EUR",
        "cheers\n-- thanks",
    ],
)
def test_english_after_a_dash_is_no_signature_s_name(text):
    from miner.redaction.unsure.names import A_NAME_AFTER_A_SIGNATURE_DASH

    assert A_NAME_AFTER_A_SIGNATURE_DASH not in reasons(text).values()


@pytest.mark.parametrize(
    "text, number",
    [
        ("Please ship it to <PERSON_1>, 13 by Friday.", "13"),
        ("I live at <PERSON_1> 36 since March.", "36"),
        ("Address: <PERSON_1>, 5", "5"),
    ],
)
def test_a_number_after_a_name_replaced_right_after_an_address_cue_is_a_house_s(text, number):
    from miner.redaction.unsure.streets import house_numbers_after_placeholders

    # A street named after a person ("Kucheh Browning, 13", replaced as a
    # person's) where a thing is sent or someone lives: its number was left
    # silent, read as an age.
    found = [text[s:e] for s, e, _ in house_numbers_after_placeholders(text)]
    assert found == [number]


def test_a_house_number_after_a_name_replaced_where_a_courier_left_a_parcel():
    from miner.redaction.unsure.streets import house_numbers_after_placeholders

    # "The courier left it at Kucheh Browning, 13": the street named after a
    # person replaced as a person's, its number left silent (20 of 270 on
    # the private source's courier carrier).
    for text in (
        "The courier left it at <PERSON_1>, 13 instead of my door",
        "The driver dropped it off at <PERSON_1>, 13 yesterday but nobody was home",
    ):
        assert [text[s:e] for s, e, _ in house_numbers_after_placeholders(text)] == ["13"]


def test_a_block_s_three_numbers_after_a_street_replaced_are_its_house_s():
    from miner.redaction.unsure.streets import house_numbers_after_placeholders

    # mimesis's Japanese shape, "Conley Drive 39-19-39": the numbers were
    # left silent after the street replaced; a date is none.
    text = "I live at <STREET_ADDRESS_1> 39-19-39 since March."
    assert [text[s:e] for s, e, _ in house_numbers_after_placeholders(text)] == ["39-19-39"]
    assert list(house_numbers_after_placeholders("<STREET_ADDRESS_1> 2024-05-01")) == []


@pytest.mark.parametrize(
    "text", ["ship it to <PERSON_1>, 2 please", "ship it to <PERSON_1>, 2 of them"]
)
def test_a_count_after_a_name_after_an_address_cue_is_no_house_number(text):
    from miner.redaction.unsure.streets import house_numbers_after_placeholders

    # Two of a thing asked for, not a house's number (surfaced on main).
    assert list(house_numbers_after_placeholders(text)) == []


@pytest.mark.parametrize(
    "text, ordinal",
    [
        ("Order 4471 (ship to: 45th <PERSON_1>) has not arrived", "45th"),
        ("pls send the parcel to 48th <PERSON_1> street thanks", "48th"),
    ],
)
def test_an_ordinal_before_a_name_replaced_is_a_numbered_street_s(text, ordinal):
    from miner.redaction.unsure.streets import house_numbers_after_placeholders

    # "45th Johnson Road" read as a person's name: "45th" was left silent.
    assert [text[s:e] for s, e, _ in house_numbers_after_placeholders(text)] == [ordinal]


@pytest.mark.parametrize(
    "text", ["the 2nd <PERSON_1> was here", "On March 3rd <PERSON_1> called", "on 3rd <PERSON_1>"]
)
def test_an_ordinal_after_a_word_before_a_name_is_a_rank_or_a_date(text):
    from miner.redaction.unsure.streets import house_numbers_after_placeholders

    assert list(house_numbers_after_placeholders(text)) == []


@pytest.mark.parametrize(
    "text",
    [
        "The courier left it at the door",
        "left it at reception",
        "I left it at 5 pm",
        "I left it at that",
        "please ship it to my neighbour's",
        "She left it at my mum's",
        "Order 4471 (ship to: home) has not arrived",
    ],
)
def test_where_a_parcel_was_left_in_english_words_is_no_street(text):
    from miner.redaction.unsure.streets import streets_after_address_cues

    assert list(streets_after_address_cues(text)) == []


def test_a_street_where_a_courier_left_a_parcel_is_read_after_its_cue():
    from miner.redaction.unsure.streets import streets_after_address_cues

    for text in (
        "The courier left it at 1911 Sahat Lynn Duarte instead of my door",
        "The driver dropped it off at 1911 Sahat Lynn Duarte yesterday",
    ):
        assert [text[s:e] for s, e, _ in streets_after_address_cues(text)] == [
            "1911 Sahat Lynn Duarte"
        ]


@pytest.mark.parametrize(
    "text",
    [
        "I sent it to <PERSON_1> 2 days ago",
        "I gave <PERSON_1> 25 dollars",
        "I gave <PERSON_1> 25.",
        "I asked <PERSON_1> 3 times",
        "<PERSON_1> 25 called again",
    ],
)
def test_a_count_or_an_age_after_a_name_is_no_house_number_after_a_cue(text):
    from miner.redaction.unsure.streets import house_numbers_after_placeholders

    assert list(house_numbers_after_placeholders(text)) == []


def test_an_address_s_pieces_placeholders_cut_apart_are_one_decision(policy):
    # "Heh, 1298 <PERSON_1>, Cedynia": the address rules read one address, a
    # name rule replaced its street's name, and its pieces around the
    # placeholder were two decisions of the same address. A street standing
    # apart ("Rua B 2, Lisboa": no placeholder between) is not linked, nor is
    # a piece already linked, nor two pieces with a word between.
    from dataclasses import replace

    from miner.redaction.session import with_address_pieces_linked
    from miner.redaction.surfaced import Surfaced, decisions

    before = redacted(policy, "ok")
    text = (
        "meet at Heh, 1298 <PERSON_1>, Cedynia\\n<PERSON_2>\\nKorter 3. Then Rua B 2, Lisboa,"
        " 12 Via C <PERSON_3> and Pisa, Etg Q <STREET_ADDRESS_1> Sal T"
    )
    turn = replace(before.session.turns[0], user_text=text)
    found = tuple(
        Surfaced("STREET_ADDRESS", v)
        for v in ("Heh, 1298", "Cedynia", "Korter 3", "Rua B 2", "Lisboa", "12 Via C", "Pisa")
    ) + (
        Surfaced("STREET_ADDRESS", "Etg Q"),
        Surfaced("STREET_ADDRESS", "Sal T", part_of="4 Vej\\nSal T"),
    )
    after = with_address_pieces_linked(
        replace(before, session=replace(before.session, turns=(turn,)), surfaced=found)
    )
    decision = decisions(after.surfaced)
    assert decision["Heh, 1298"] == decision["Cedynia"] == decision["Korter 3"]
    assert len({decision[v] for v in ("Heh, 1298", "Rua B 2", "Lisboa", "12 Via C", "Pisa")}) == 5
    assert [s.part_of for s in after.surfaced if s.value == "Sal T"] == ["4 Vej\\nSal T"]


def test_no_span_without_a_letter_or_a_digit_is_surfaced():
    # "lisa." (a title's rule) ran one stop past "lisa" (a rare name in a
    # person's slot, replaced): its rest "." was a decision on nothing.
    from datetime import UTC, datetime

    from miner.model import Session, Turn
    from miner.redaction.unsure import unsure_values

    now = datetime(2026, 11, 22, tzinfo=UTC)
    turns = (Turn("i", "Dear lisa. <PERSON_4> else?", "ok"),)
    values = [s.value for s in unsure_values(Session("s", "a", "u", now, now, {}, turns), Unsure())]
    assert "lisa" in values and all(any(c.isalnum() for c in v) for v in values), values


@pytest.mark.parametrize(
    "text, street",
    [
        ("They left it at Maple 12 please check", "Maple 12"),
        ("Ship it to Baker 4 please", "Baker 4"),
        ("The parcel goes to Maple 12, thanks", "Maple 12"),
    ],
)
def test_one_word_and_its_house_number_after_a_cue_of_sending_are_a_street(text, street):
    from miner.redaction.unsure.streets import streets_after_address_cues

    # A street named without its type, an English word or a surname: left
    # silent (or its number) where a parcel was sent or left.
    assert [text[s:e] for s, e, _ in streets_after_address_cues(text)] == [street]


@pytest.mark.parametrize(
    "text",
    [
        "meet you at Maple 12 please",
        "They left it at Locker 12 please",
        "ship it to Baker 2 days ago",
    ],
)
def test_a_numbered_thing_a_meeting_s_place_or_a_count_after_a_cue_is_no_street(text):
    from miner.redaction.unsure.streets import streets_after_address_cues

    assert list(streets_after_address_cues(text)) == []
