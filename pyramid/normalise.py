"""Text normalisation shared by every layer: one fold, one code rule, and names keyed without their
titles (the word lists it uses are pyramid.reading.english's).

    fold("Prof. José NÚÑEZ's")        → "prof jose nunez"
    fold("陳大文 Chan Tai Man")         → "陳大文 chan tai man"
    name_key("Dr Ben Okafor")          → "ben okafor"  (= name_key("Ben Okafor") = name_key("Prof. Ben Okafor"))
    codes_in("acct 2050 / ELC1012")    → ["ACCT2050", "ELC1012"]

Accents and other alphabets are transliterated by `anyascii` ("Münster" → "munster", "Иван" →
"ivan"), but Chinese, Japanese and Korean characters are kept as written: their transliteration is a
Mandarin reading that matches neither the Cantonese romanisation printed beside a name (陳大文 is
"Chan Tai Man", anyascii says "ChenDaWen") nor another character with the same reading (陳, 晨, 辰 are
all "chen"), so it would join different people and part equal ones. `without_cjk_rendering` drops a
CJK rendering where a layer must match the romanised name alone ("WONG Wai On 黃偉安" = "Wong Wai On").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from anyascii import anyascii

# The honorifics, ranks and articles names are keyed without are English word lists: they live in
# pyramid.reading.english with the rest.
from pyramid.reading.english import ARTICLES, POSITIONS, POST_NOMINALS, STOPWORDS, TITLES
from pyramid.reading.english import TITLE_ROLE_CONNECTORS as _CONNECTORS

# Subject codes. In free text: letters, an optional space, a digit-led part ("APSS 5051", "AAE6203");
# as one token of a sentence: upper-case letters and 3-5 digits, so "MP3" or "H2O" is no code.
CODE = re.compile(r"\b([A-Za-z]{2,6})\s?(\d[0-9A-Za-z]{1,6})\b")
BRACKETED_CODE = r"\([A-Za-z]{2,6}\s?\d[0-9A-Za-z]{1,6}\)"   # … written after a name: "Genetics (BIOL 432)"
CODE_TOKEN = re.compile(r"^[A-Z]{2,6}\d{3,5}[A-Z]?$")

# Han (with extensions and compatibility forms), kana and Hangul: kept as written (module docstring).
_CJK_RANGES = ((0x2E80, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0x20000, 0x3134F))
_POSSESSIVE = re.compile(r"['’ʼ][sS](?!\w)")
_NOT_WORD = re.compile(r"[\W_]+")
_BRACKETED = re.compile(r"[(\[]([^()\[\]]*)[)\]]")
_CACHED_LENGTH = 200  # names and labels are cached; whole chunks are folded once and not kept


_CJK_CHAR = re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _CJK_RANGES) + "]")


def is_cjk(ch: str) -> bool:
    """A Chinese, Japanese or Korean letter (not CJK punctuation such as '。')."""
    return bool(_CJK_CHAR.match(ch)) and ch.isalnum()


def fold(text: str) -> str:
    """The matching key of a text: case-folded, accents transliterated (letters of every script kept),
    a possessive 's dropped, punctuation turned to spaces, whitespace collapsed."""
    if len(text) <= _CACHED_LENGTH:
        return _fold_cached(text)
    return _fold(text)


@lru_cache(maxsize=65536)
def _fold_cached(text: str) -> str:
    return _fold(text)


def _fold(text: str) -> str:
    if not text.isascii():
        # symbols are no letters: anyascii would spell them out and glue them on ("°C" → "degC")
        text = "".join(" " if unicodedata.category(ch)[0] == "S" else ch for ch in unicodedata.normalize("NFKC", text))
    text = _POSSESSIVE.sub("", text)
    if not text.isascii():
        # CJK runs become words of their own; everything else goes through anyascii
        out, run, cjk = [], [], False
        for ch in text:
            c = is_cjk(ch)
            if c != cjk and run:
                out.append(f" {''.join(run)} " if cjk else anyascii("".join(run)))
                run = []
            run.append(ch)
            cjk = c
        if run:
            out.append(f" {''.join(run)} " if cjk else anyascii("".join(run)))
        text = _POSSESSIVE.sub("", "".join(out))  # anyascii turns ’ into '
    return " ".join(_NOT_WORD.sub(" ", text.casefold()).split())


def ascii_fold(text: str) -> str:
    """Like `fold` but ASCII only, CJK included (one transliterated word per character): for
    identifiers such as new ontology term names, not for matching."""
    spaced = "".join(f" {ch} " if is_cjk(ch) else " " if unicodedata.category(ch)[0] == "S" else ch
                     for ch in unicodedata.normalize("NFKC", text))
    return fold(anyascii(spaced))


def _name_tokens(tokens: Sequence[str], opens: Sequence[bool], articles: bool) -> list[int]:
    """Which of the folded `tokens` make the name. A run of titles (with the ranks in it: "Associate
    Professor", "Professor Emeritus") goes when a name follows it; before "of"/"in", a bracket or the
    end it names a role and stays ("Professor of Computing", "Assistant Professor (Physiotherapy)",
    "Yunshan Chair Professor"), except a title closing a name of two words or more ("PAN Kai Dr",
    "CHU Hung-lam Professor") when no rank stands before it. Articles go (if
    `articles`), and post-nominals after a name of two words or more. All of them when nothing is
    left. `opens[i]`: token i opens a bracket."""
    n, drop, i = len(tokens), set(), 0
    while i < n:
        if tokens[i] not in TITLES and tokens[i] not in POSITIONS:
            i += 1
            continue
        j = i + 1
        while j < n and (tokens[j] in TITLES or tokens[j] in POSITIONS) and not opens[j]:
            j += 1
        k = j
        while k < n and tokens[k] in ARTICLES and not opens[k]:
            k += 1
        # (a token of punctuation only, such as "&", joins roles: "Dean & Professor & Head")
        if any(tokens[x] in TITLES for x in range(i, j)) and k < n and not opens[k] and tokens[k] and \
                tokens[k] not in _CONNECTORS:
            drop.update(range(i, j))
        i = j
    if articles:
        drop.update(x for x in range(n) if tokens[x] in ARTICLES)
    rest = [x for x in range(n) if x not in drop]
    # "Ben Okafor PhD", "PAN Kai Dr"; not "10 PhD", "a PhD", "Computing PhD"
    while len(rest) > 2 and (tokens[rest[-1]] in POST_NOMINALS or tokens[rest[-1]] in TITLES) and \
            _wordlike(tokens[rest[-2]]) and tokens[rest[-2]] not in STOPWORDS and tokens[rest[-2]] not in POSITIONS:
        drop.add(rest.pop())
    return [x for x in range(n) if x not in drop] or list(range(n))


def _wordlike(token: str) -> bool:
    """A folded token of letters ('wing tak' from 'Wing-tak' counts; '10' does not)."""
    return token.replace(" ", "").isalpha()


def _tokens(text: str) -> tuple[list[str], list[str], list[bool]]:
    """Whitespace tokens of `text` without titles in brackets ("SUN Yuxiang (Dr)"), their folds, and
    whether each opens a bracket."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    text = _BRACKETED.sub(lambda m: " " if set(fold(m.group(1)).split() or ["-"]) <= TITLES else m.group(), text)
    raw = text.split()
    return raw, [fold(t) for t in raw], [t.startswith(("(", "[")) for t in raw]


def strip_title_words(words: Sequence[str]) -> list[str]:
    """`name_words` for words already folded (the words of a question span)."""
    flat = " ".join(words).split()
    return [flat[i] for i in _name_tokens(flat, [False] * len(flat), articles=True)]


def strip_titles(text: str) -> str:
    """`text` without its titles, words (and articles) kept as written: 'Prof. Ben Okafor' → 'Ben Okafor'."""
    raw, folded, opens = _tokens(text)
    return " ".join(raw[i] for i in _name_tokens(folded, opens, articles=False)).strip(",;: ") or text.strip()


def name_words(text: str) -> list[str]:
    """The folded words of a name without its titles and articles: 'Ir Prof. Keith K.C. Chan' → keith k c chan."""
    _, folded, opens = _tokens(text)
    words = " ".join(folded[i] for i in _name_tokens(folded, opens, articles=True)).split()
    return words or fold(text).split()


def name_key(text: str) -> str:
    """One key for every way of writing a name: 'Dr Ben Okafor', 'Prof. Ben Okafor', 'BEN OKAFOR'."""
    return " ".join(name_words(text))


def _has_cjk(word: str) -> bool:
    # a regular expression finds the few candidates: a loop over every character took seconds for
    # the label index of PolyU's 7,600 labels
    return not word.isascii() and any(ch.isalnum() for ch in _CJK_CHAR.findall(word))


def without_cjk_rendering(words: Sequence[str]) -> list[str]:
    """`words` without the CJK rendering of a name that is also romanised ('wong wai on 黃偉安' →
    'wong wai on'); a name written only in CJK keeps it."""
    latin = [w for w in words if not _has_cjk(w)]
    return latin or list(words)


def cjk_words(words: Sequence[str]) -> frozenset[str]:
    """The CJK words among folded `words` (what `without_cjk_rendering` drops)."""
    return frozenset(w for w in words if _has_cjk(w))


def codes_in(text: str) -> list[str]:
    """Subject codes in `text`, canonical (upper case, no space): 'ELC1012/elc 1013' → ['ELC1012', 'ELC1013']."""
    return [(a + b).upper() for a, b in CODE.findall(text)]
