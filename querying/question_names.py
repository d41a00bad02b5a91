"""The names a question writes: runs of words with a capital, a digit or a non-Latin script ("Department
of Computing", "Amina Pennock's"), which say what the question is about. The KG layer links entities by
them (querying.kg_qa) and the text layer answers a fact question only from a passage that names one of
them (querying.k2rag)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pyramid.kg.model import normalise_name
from pyramid.reading.english import NAME_FILLERS, QUESTION_OPENERS

_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class QuestionNames:
    words: frozenset[str]                  # normalised words of the names in the question
    spans: tuple[tuple[str, ...], ...] = ()  # each name as written (a run of capitalised words)
    joined: frozenset[tuple[str, ...]] = frozenset()  # the spans whose words were joined by "of", "and", …


def question_names(question: str) -> QuestionNames:
    """The names in a question: words written with a capital, a digit or a non-Latin script, less
    a leading question word; runs of them (joined by fillers: "Department of Computing") are the
    spans. Measured on `bench kg-sufficiency`: matching every question word linked common-noun
    entities ("research", "students") for 7 of 10 questions about people absent from the KG. A
    question written all in lower case falls back to all words (and no spans)."""
    words = question.split()
    if words and words[0].lower().strip("?,.") in QUESTION_OPENERS:
        words = words[1:]
    if not any(_name_like(w) for w in words):  # the capital of a leading question word names nothing
        return QuestionNames(frozenset(norm_words(" ".join(words))))
    spans, run, joined = [], [], set()
    for i, w in enumerate(words + [""]):
        if _name_like(w):
            run.append(w)
        elif run and w.lower() in NAME_FILLERS and i + 1 < len(words) and _name_like(words[i + 1]):
            run.append(w)   # "of" inside "Department of Computing"
        elif run:
            words_of = norm_words(" ".join(run))
            spans.append(tuple(x for x in words_of if x not in NAME_FILLERS))
            if len(spans[-1]) < len(words_of):
                joined.add(spans[-1])
            run = []
    spans = [sp for sp in spans if sp]
    return QuestionNames(frozenset(w for sp in spans for w in sp), tuple(spans), frozenset(joined))


def _name_like(w: str) -> bool:
    return bool(w) and (w[0].isupper() or w[0].isdigit() or ord(w[0]) >= 0x2E80)


def norm_words(text: str) -> list[str]:
    return _WORD.findall(normalise_name(text))


def starts_of(words: Sequence[str], name: Sequence[str]) -> list[int]:
    """Where `name` (a name's normalised words) occurs whole in `words`, as start positions."""
    n = len(name)
    return [i for i in range(len(words) - n + 1) if n and tuple(words[i:i + n]) == tuple(name)]
