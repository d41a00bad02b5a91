"""Turning IRIs into words and words into names, and the name key used to link KG subjects."""

from __future__ import annotations

import re
import unicodedata

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_WORDS = re.compile(r"[^0-9a-z]+")
_PAREN = re.compile(r"\([^)]*\)")
# Honorifics and post-nominals seen before staff names in the PolyU pages; they are not part of a name.
TITLES = frozenset(["dr", "prof", "professor", "ir", "mr", "ms", "mrs", "miss", "sr", "ar", "sir", "doctor", "hon", "chair", "emeritus", "assoc", "associate", "assistant", "the", "ts", "cpa", "jp", "bbs", "mh", "sbs", "gbs", "obe", "phd"])


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
    ascii_text = unicodedata.normalize("NFKD", words).encode("ascii", "ignore").decode().lower()
    tokens = [t for t in _WORDS.split(ascii_text) if t][:max_words]
    return "_".join(tokens) or "new_term"


def class_name(words: str, *, max_words: int = 4) -> str:
    """A class-style name from words: 'research centre' → 'ResearchCentre'."""
    ascii_text = unicodedata.normalize("NFKD", words).encode("ascii", "ignore").decode().lower()
    tokens = [t for t in _WORDS.split(ascii_text) if t and t not in TITLES][:max_words]
    return "".join(t.capitalize() for t in tokens) or "NewClass"


def _is_cjk(ch: str) -> bool:
    return "\u2e80" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" or "\uf900" <= ch <= "\ufaff"


def name_key(name: str) -> frozenset[str]:
    """An order-free key for a person or organisation name.

    'Ir Prof. Keith K.C. Chan 陳鏡昌', 'CHAN Keith K C' and 'Keith K.C. Chan' share one key: titles,
    CJK characters, parentheses, punctuation and case are dropped and the word order is ignored
    (Chinese names are written family-name-first on some pages and last on others).
    """
    text = _PAREN.sub(" ", unicodedata.normalize("NFKC", name))
    text = "".join(" " if _is_cjk(ch) else ch for ch in text).lower()
    return frozenset(t for t in _WORDS.split(text) if t and t not in TITLES)
