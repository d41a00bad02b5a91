"""A value's shape, as a page writes it: a list and its items ("a; b; c", "a, b and c", "a · b · c"), or
a number."""

from __future__ import annotations

import re

from pyramid.reading.english import NAMED_PLACE_JOINERS

MAX_ITEM_WORDS = 8        # a list item longer than this is a sentence: the value is not a list
LONG_LIST = 4             # a list of this many items or more …
LONG_LIST_ITEM_WORDS = MAX_ITEM_WORDS // 2  # … whose typical item is this short is a list, one item long or not
NUMBER = re.compile(r"^[+-]?\d+(?:[.,]\d+)?$")
YEAR = re.compile(r"^(1[5-9]|20)\d\d$")  # a number that reads as a year
_DOT_LIST = re.compile(r"\s+[·•]\s+")  # items between spaced dots or bullets: "a · b · c"


def is_list(value: str) -> bool:
    """Several values: items mostly short (a sentence with commas is one value), or split on ";"."""
    items = list_items(value)
    if len(items) < 2:
        return False
    lengths = sorted(len(x.split()) for x in items)
    short = len(items) >= LONG_LIST and lengths[len(lengths) // 2] <= LONG_LIST_ITEM_WORDS  # a long list, one item long
    return ";" in value or bool(_DOT_LIST.search(value)) or lengths[-1] <= MAX_ITEM_WORDS or short


def short_items(value: str) -> bool:
    """A list whose typical (median) item is a few words: values, however long the line."""
    lengths = sorted(len(x.split()) for x in list_items(value))
    return len(lengths) >= 2 and lengths[len(lengths) // 2] <= MAX_ITEM_WORDS


def list_items(value: str) -> list[str]:
    """A list's items: split on ";" when there is one (items may hold commas and "and"), or on a spaced
    middle dot or bullet ("a · b · c", a common inline list), else on "," and "/", the last two of a
    comma list joined by "and" being two items."""
    value = value.strip(" .")
    if ";" in value:
        parts = value.split(";")
    elif _DOT_LIST.search(value):
        parts = _DOT_LIST.split(value)
    else:
        parts = re.split(r"\s*,\s*(?:and\s+)?|\s+/\s+", value)
        if len(parts) > 1 and " and " in parts[-1]:  # "a, b and c": the list's own "and" is its last
            parts = parts[:-1] + parts[-1].rsplit(" and ", 1)
    return [x.strip(" .") for x in parts if x.strip(" .")]


MAX_TAIL_WORDS = 2        # "the People First group", "the HF7 postcode area": a name, then a noun or two


def name_before_noun(value: str) -> tuple[str, list[str]] | None:
    """A name and the common nouns after it that say what it is ("People First group" → "People First",
    ["group"]; "HF7 postcode area" → "HF7", ["postcode", "area"]); None where the value does not end in
    lower-case words after a capitalised name or a code."""
    words = value.split()
    while words and (words[0].lower() == "the" or words[0].endswith(("'s", "’s"))):
        words = words[1:]  # "the council's Parks team": an article, a possessive, before the name
    tail: list[str] = []
    while words and words[-1].isalpha() and words[-1].islower() and len(tail) < MAX_TAIL_WORDS:
        tail.insert(0, words.pop())
    if not tail or not words or words[-1].lower() in NAMED_PLACE_JOINERS or words[-1].endswith("'s"):
        return None
    named = all(w[:1].isupper() or any(ch.isdigit() for ch in w) or w in NAMED_PLACE_JOINERS for w in words)
    return (" ".join(words), tail) if named and not words[0].islower() else None
