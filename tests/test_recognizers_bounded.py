"""The recognizers' bounded searches find what the unbounded ones they
replaced found (the old searches are kept here as oracles): the bounds are
for long texts' sake and must change no result."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from miner.recognizers import _LIST_BEFORE, _list_member_before

#: Pieces a list of names is made of, and what breaks one.
_PIECES = st.sampled_from(
    ["Ann", "Lee", "O'Neil", "Barth-Rosenow", "Šebková", "ARAUJO", "and", "&", ",", " ", " ",
     "  ", "\n", "Dr", ".", "x", "Inc", "'s", "’"]
)  # fmt: skip


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(_PIECES, max_size=40))
def test_list_member_before_is_the_unbounded_search(pieces: list[str]) -> None:
    text = "".join(pieces)
    for position in range(len(text) + 1):
        old = _LIST_BEFORE.search(text[:position])
        new = _list_member_before(text, position)
        assert (old and (old.span(), old.span(1))) == (new and (new.span(), new.span(1)))


def test_list_member_before_on_a_list_of_three() -> None:
    text = "call Ann Lee, Bo Stone and Cy Brown"
    member = _list_member_before(text, text.index("Cy"))
    assert member is not None and member.group(1) == "Bo Stone"
    member = _list_member_before(text, text.index("Bo"))
    assert member is not None and member.group(1) == "Ann Lee"
    assert _list_member_before(text, text.index("Ann")) is None
