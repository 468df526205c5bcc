"""The leak guard's look for the session's own numbers, digit by digit."""

from __future__ import annotations

from miner.redaction.guard import LeakGuard


def test_an_original_number_is_found_whatever_its_separators_and_only_then():
    guard = LeakGuard((), ())
    originals = {"415-555-0199": "PHONE_NUMBER", "4111 1111 1111 1111": "CREDIT_CARD"}
    assert guard.scan(["call (415) 555 0199 today"], originals)["PHONE_NUMBER"] == 1
    # Inside a longer run of digits too: a prefix glued to it hides nothing.
    assert guard.scan(["ref 0014155550199"], originals)["PHONE_NUMBER"] == 1
    assert "PHONE_NUMBER" not in guard.scan(["call 415 555 0198"], originals)
    assert "CREDIT_CARD" not in guard.scan(["order 4111 1111"], originals)


def test_an_original_pasted_back_decomposed_is_found():
    import unicodedata

    guard = LeakGuard((), ())
    originals = {"Bıçakçı": "PERSON"}
    # "c" and a combining cedilla, as some keyboards and PDFs write "ç".
    pasted = unicodedata.normalize("NFD", "please ring Bıçakçı today")
    assert pasted != "please ring Bıçakçı today"
    assert guard.scan([pasted], originals)["PERSON"] == 1


def test_an_original_phone_pasted_back_with_no_break_spaces_is_found():
    guard = LeakGuard((), ())
    originals = {"+44 7700 900123": "PHONE_NUMBER"}
    assert guard.scan(["call +44\u00a07700\u00a0900123"], originals)["PHONE_NUMBER"] == 1
