"""MCQ/MAQ: which of the given options does the evidence support? Shared by every layer.

    select_options(options, evidence) -> [indices]

`evidence` is what a layer found: strings (SPARQL row values, triple texts, chunk texts, an answer)
or `Value`s that also carry the id of the thing they name (an IRI). An option is supported by an
evidence item when, from the most to the least exact:

  * ids       — the option was linked to an id the evidence carries (`option_ids`);
  * same name — the folded forms are equal, or the same words in another order
                ("Chen Alice" / "Alice Chen"; accents, case, titles and CJK characters ignored);
  * code      — they share a code ("BRE345 Measurement, …" and "BRE345");
  * phrase    — the option's folded words occur as one run inside an evidence text at least twice
                as long (a passage, not a longer name);
  * typo      — a short evidence value within a small edit distance (rapidfuzz ratio ≥ 92).

Several options may be supported (MAQ). `allow_none` selects a "None of the above" option when the
evidence supports no other option (the ontology layer sets it: its rows are the complete answer).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from pyramid.ontology.labels import bag_key, codes_in, fold_words
from pyramid.reading.english import CARDINALS
from pyramid.reading.values import NUMBER
from pyramid.vocab import word_forms, words_of
from querying.planning.cues import COUNTING, counted_noun
from querying.question_names import norm_words, starts_of

TYPO_CUTOFF = 92.0
_NONE = re.compile(r"^\s*(none of (the )?(above|these|them)|no(ne)? correct answer|none)\s*\.?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Value:
    """One piece of evidence: its text and, when known, the id (IRI) of the thing it names."""

    text: str
    id: str | None = None


@dataclass(frozen=True)
class _Form:
    folded: str
    bag: str
    codes: frozenset[str]


def _form(text: str) -> _Form:
    words = fold_words(text)
    return _Form(" ".join(words), bag_key(text), frozenset(codes_in(text)))


def supports(option: str, evidence: str) -> bool:
    """Does one evidence text support one option (see the module docstring's tiers)?"""
    return _supports(_form(option), _form(evidence))


def _supports(o: _Form, e: _Form) -> bool:
    if not o.folded or not e.folded:
        return False
    if o.folded == e.folded or o.bag == e.bag:
        return True
    if o.codes and o.codes & e.codes:
        return True
    # A run inside a text, not inside a longer name: "Department of Computing" must not be found in
    # the value "Department of Computing and Mathematics".
    if len(e.folded) >= 2 * len(o.folded) and f" {o.folded} " in f" {e.folded} ":
        return True
    short = len(e.bag) <= 2 * len(o.bag)
    return short and len(o.bag) >= 5 and fuzz.ratio(o.bag, e.bag) >= TYPO_CUTOFF


def is_none_option(option: str) -> bool:
    return bool(_NONE.match(option))


def select_options(options: Sequence[str], evidence: Sequence[str | Value], *,
                   option_ids: Sequence[Collection[str]] | None = None, allow_none: bool = False) -> list[int]:
    """Indices of the options the evidence supports, in option order."""
    values = [e if isinstance(e, Value) else Value(str(e)) for e in evidence]
    ids = {v.id for v in values if v.id}
    forms = [_form(v.text) for v in values if v.text]
    chosen: list[int] = []
    for i, option in enumerate(options):
        if is_none_option(option):
            continue
        linked = set(option_ids[i]) if option_ids is not None and i < len(option_ids) else set()
        if linked & ids:
            chosen.append(i)
            continue
        o = _form(option)
        if any(_supports(o, e) for e in forms):
            chosen.append(i)
    if not chosen and allow_none and values:
        chosen = [i for i, option in enumerate(options) if is_none_option(option)][:1]
    return chosen


def nearest_said(options: Sequence[str], chosen: list[int], text: str, names: Sequence[tuple[str, ...]]) -> list[int]:
    """Of the `chosen` options, those `text` says nearest a name the question asks about (`names`, each
    a name's normalised words): one time is asked of one thing ("When is the X?"), and an answer that also
    says the next event's date says it beside that event, not beside X. All of `chosen` where the text
    says no name, or no option."""
    words = norm_words(text)  # as the question's names are spelled (querying.question_names)
    spans = [(i, i + len(n)) for n in names for i in starts_of(words, n)]
    if len(chosen) < 2 or not spans:
        return chosen
    gaps: dict[int, int] = {}
    for k in chosen:
        o = norm_words(options[k])
        if at := starts_of(words, o):
            gaps[k] = min(max(a - e, s - (a + len(o)), 0) for a in at for s, e in spans)
    if not gaps:
        return chosen
    best = min(gaps.values())
    return [k for k in chosen if gaps.get(k) == best]


def counted_noun_of_options(question: str, options: Sequence[str]) -> list[str] | None:
    """The words of the noun a question counts when its options are numbers ("how many performers …":
    ['performers']); None when it counts nothing or an option is no number."""
    numbers = [o for o in options if not _NONE.match(o)]
    if not numbers or not all(NUMBER.match(o.strip()) for o in numbers) or COUNTING.search(question) is None:
        return None
    return counted_noun(question, COUNTING).split()


def says_noun(noun: Sequence[str], text: str) -> bool:
    """Does `text` (a relation's name too: "bedCount") say the first word of `noun`, in any of its forms?"""
    return bool(noun) and any(word_forms(w) & word_forms(noun[0]) for w in re.findall(r"[a-z]+", words_of("", text)))


def counted_options(question: str, options: Sequence[str], texts: Sequence[str]) -> list[int] | None:
    """A question that counts things ("how many performers …") with numbers for options: the options
    whose number the texts say beside the counted noun ("three performers", "runs 9 minutes" for "how
    many minutes") — a number said of something else (a year, a running time) is no count of them.
    None when the question counts nothing or an option is no number (the usual matching applies)."""
    noun = counted_noun_of_options(question, options)
    if noun is None:
        return None
    if not noun:
        return []
    said = {n for text in texts for n in counts_said(noun, text)}
    return [i for i, o in enumerate(options) if not _NONE.match(o) and o.strip() in said]


def counts_said(noun: Sequence[str], text: str) -> set[str]:
    """The numbers `text` says beside the counted noun (its words `noun`): the number, then the noun, one
    word may come between ("three credited performers"); a number word as its digits."""
    if not noun:
        return set()
    said: set[str] = set()
    words = re.findall(r"\d+(?:\.\d+)?|\w+", text.lower())
    for i, w in enumerate(words[:-1]):
        value = CARDINALS.get(w, w)
        if NUMBER.match(value) and says_noun(noun, " ".join(words[i + 1:i + 3])):
            said.add(value)
    return said
