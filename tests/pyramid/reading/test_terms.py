"""A value's shape, whatever its words: a quantity as pages write one is its number (its scale applied,
unless the schema counts in that scale), and a name that starts with a digit is no quantity."""

from __future__ import annotations

import pytest

from pyramid.reading.terms import quantity_number


@pytest.mark.parametrize("value,number", [
    ("$35.5 million", "35500000"), ("114 min", "114"), ("about 3 beds", "3"), ("1,200 seats", "1200"),
    ("2bn", "2000000000"), ("5G networks", None), ("3D printing", None), ("01632 960968", None),
    ("1964-08-12", None), ("12 May 2003", None), ("26 April", None), ("Ward 3", None), ("COMP1011", None),
])
def test_a_quantity_is_its_number(value, number):
    assert quantity_number(value) == number


def test_a_scale_the_schema_counts_in_is_kept():
    """"cost, in millions of US dollars": "$35.5 million" and "$35.5m" are 35.5 of them."""
    assert quantity_number("$35.5 million", {"million"}) == "35.5"
    assert quantity_number("$35.5m", {"million"}) == "35.5"
    assert quantity_number("about 17.3 million US dollars", {"thousand"}) == "17300000"
