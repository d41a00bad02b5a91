"""A value's shape, whatever its words: a quantity as pages write one is its number (its scale applied,
unless the schema counts in that scale), and a name that starts with a digit is no quantity."""

from __future__ import annotations

import pytest

from pyramid.reading.terms import amount_in, quantity_number, shaped_part, typed_form
from pyramid.vocab import Term


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


@pytest.mark.parametrize("value,amount", [
    ("Pay £4.20 at the gate for an adult day ticket.", "4.20"), ("Boat hire costs $1,250 a week", "1250"),
    ("Berths cost €30 or €45 a night", None), ("The refit cost £3 million", None), ("Open 9.00-17.00", None),
])
def test_the_one_sum_of_money_a_phrase_holds(value, amount):
    assert amount_in(value) == amount


@pytest.mark.parametrize("value,shaped", [
    ("For charters, ring 01632 960 457.", ("phone", "01632 960 457")),
    ("Write to skipper@tug.example", ("email", "skipper@tug.example")),
    ("Open 9.00-17.00 on weekdays", None),           # a time, not a number to ring
    ("Ring 01632 960 457 or 01632 960 458", None),    # two numbers: which one is unsaid
    ("Built in 1898 at the old ropewalk", None),
    ("Harbour master (2008-2014)", None),             # a span of years
    ("Pages 121-134 of the pilot book", None),        # a page range
    ("ISBN 9780128163948", None),                     # a book's number, dialled by no one
    ("doi 10.1080/01434632.2019.1571071", None),      # a part of a DOI
])
def test_an_address_or_a_phone_number_inside_a_short_phrase(value, shaped):
    assert shaped_part(value) == shaped


def _term(range_: str) -> Term:
    return Term("http://t.example/p", "p", "datatype", "p", "", (), (f"http://www.w3.org/2001/XMLSchema#{range_}",))


def test_a_value_as_its_datatype_writes_it():
    """A year range takes the one year a phrase holds (of two, neither); an amount stays as the page wrote
    it ("6.00" is how a price reads)."""
    assert typed_form(_term("gYear"), "In service since 1931") == "1931"
    assert typed_form(_term("gYear"), "Rebuilt 1931, again 1960") == "Rebuilt 1931, again 1960"
    assert typed_form(_term("decimal"), "6.00") == "6.00"
    assert typed_form(_term("integer"), "120") == "120"
    assert typed_form(_term("date"), "4 July 2010") == "2010-07-04"
