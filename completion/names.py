"""Turning IRIs into words and words into names, and the name key used to link KG subjects."""

from __future__ import annotations

import re

from pyramid.normalise import ascii_fold, name_words, without_cjk_rendering

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_PAREN = re.compile(r"\([^)]*\)")


def local_name(iri: str) -> str:
    """The part of an IRI after the last '#' or '/' ('http://x.org/has_name' → 'has_name')."""
    return re.split(r"[#/]", iri.rstrip("/#"))[-1] or iri


def humanise(iri_or_name: str, label: str = "") -> str:
    """Words for a term: its label when it has one, else its local name split at _ and camelCase.

    'has_research_interest' → 'has research interest'; 'STAFF' → 'staff'; 'worksFor' → 'works for'.
    """
    text = label.strip() or local_name(iri_or_name)
    text = _CAMEL.sub(" ", text.replace("_", " ").replace("-", " "))
    return " ".join(text.split()).lower()


def snake_name(words: str, *, max_words: int = 6) -> str:
    """A property-style name from words: 'has published research in' → 'has_published_research_in'."""
    return "_".join(ascii_fold(words).split()[:max_words]) or "new_term"


def class_name(words: str, *, max_words: int = 4) -> str:
    """A class-style name from words, titles and articles dropped: 'the research centre' → 'ResearchCentre'."""
    tokens = ascii_fold(" ".join(name_words(words))).split()[:max_words]
    return "".join(t.capitalize() for t in tokens) or "NewClass"


def name_key(name: str) -> frozenset[str]:
    """An order-free key for a person or organisation name.

    'Ir Prof. Keith K.C. Chan 陳鏡昌', 'CHAN Keith K C' and 'Keith K.C. Chan' share one key: the
    words of `pyramid.normalise.name_words` (titles, accents, punctuation and case folded), without
    parentheses or a CJK rendering beside the romanised name, in any order (Chinese names are written
    family-name-first on some pages and last on others).
    """
    return frozenset(without_cjk_rendering(name_words(_PAREN.sub(" ", name))))
