"""Limits on values from outside: sequence numbers as text, and attributes nested too deeply."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from forethought import InvalidInput
from forethought.domain.limits import MAX_SEQUENCE, check_attributes, parse_sequence


@pytest.mark.parametrize("text", ["0", "42", str(MAX_SEQUENCE)])
def test_ascii_digits_up_to_the_largest_sqlite_integer_are_a_sequence_number(text: str) -> None:
    assert parse_sequence(text, field="before") == int(text)


@pytest.mark.parametrize(
    "text", ["", "-1", "+1", " 1", "1e3", "\u0661\u0662\u0663", "\u00b2", "\uff11", str(MAX_SEQUENCE + 1), "9" * 23]
)
def test_anything_else_is_refused_with_the_field_and_the_range(text: str) -> None:
    with pytest.raises(InvalidInput, match=r"^before: must be a whole number from 0 to 9,223,372,036,854,775,807"):
        parse_sequence(text, field="before")


@given(st.text(max_size=40))
def test_any_text_is_a_sequence_number_in_range_or_refused(text: str) -> None:
    try:
        value = parse_sequence(text, field="x")
    except InvalidInput:
        assert not (text.isascii() and text.isdigit() and int(text) <= MAX_SEQUENCE)
    else:
        assert 0 <= value <= MAX_SEQUENCE and text.isascii() and text.isdigit()


@pytest.mark.parametrize("depth", [5_000, 100_000])
def test_attributes_nested_thousands_deep_are_refused_not_a_crash(depth: int) -> None:
    nested: dict[str, object] = {}
    for _ in range(depth):
        nested = {"a": nested}
    with pytest.raises(InvalidInput, match=r"^attributes: nested too deeply$"):
        check_attributes(nested)
