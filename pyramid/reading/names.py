"""Names in a sentence and the entity a document is about, by English's surface (no tagger).

    tokens → name spans (capitalised runs, codes, numbers with their noun) → the document's main
    entity (its title, else its first sentence's subject) → pronouns and "the <head>" resolved to it
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pyramid.normalise import CODE_TOKEN as CODE
from pyramid.normalise import fold
from pyramid.reading.english import (
    ABBREVIATIONS,
    AUXILIARIES,
    CONJUNCTIONS,
    DETERMINERS,
    MONTHS,
    NAME_JOINERS,
    PERSON_CUES,
    POSSESSIVES_PERSON,
    POSSESSIVES_THING,
    PREPOSITIONS,
    RELATIVES,
    SKIP_INITIAL,
    TITLES,
    VERBS,
)
from pyramid.reading.sentences import Token, split_sentences, tokenize
from pyramid.reading.values import YEAR as _YEAR


# ------------------------------------------------------------------ spans
@dataclass(frozen=True)
class Span:
    text: str
    start: int          # token indices [start, end)
    end: int
    kind: str           # "name" | "code" | "number" | "phrase"


def _is_verb(tokens: list[Token], i: int) -> bool:
    low = tokens[i].low
    return low in AUXILIARIES or low in VERBS


def name_spans(tokens: list[Token]) -> list[Span]:
    """Runs of capitalised words (course codes, titles with their dots, 'of'/'and'/'de' inside names,
    numbers inside names such as 'Luna 2'); numbers with the noun they count ('8 goals', '3-credit')."""
    spans: list[Span] = []
    n, i = len(tokens), 0
    while i < n:
        t = tokens[i]
        first = i == 0 or (i > 0 and tokens[i - 1].text in "\"“(")
        if t.cap and t.word and not (first and t.low in SKIP_INITIAL) and t.low not in AUXILIARIES:
            j = i + 1
            has_of = False
            while j < n:
                u = tokens[j]
                if u.text == "." and tokens[j - 1].low in ABBREVIATIONS and j + 1 < n and tokens[j + 1].cap:
                    j += 1
                    continue
                # numbers inside names: 'Luna 2', 'Winter 2002 Olympics', 'September 2021' (not '... in 2019')
                if (u.cap and u.word) or (u.text[:1].isdigit() and tokens[j - 1].cap and tokens[j - 1].word and (
                        not _YEAR.match(u.text) or tokens[j - 1].low in MONTHS or
                        (j + 1 < n and tokens[j + 1].cap and tokens[j + 1].word))):
                    j += 1
                    continue
                # connectors inside names: 'Department of Computing', 'Hôtel de Ville', 'Rights of Man and of the Citizen'
                k = j
                while k < n and k - j < 3 and tokens[k].low in NAME_JOINERS:
                    k += 1
                if k > j and k < n and tokens[k].cap and tokens[k].word and not tokens[k].number:
                    conn = {x.low for x in tokens[j:k]}
                    if "and" in conn and not has_of and not (k + 1 < n and tokens[k + 1].cap and tokens[k + 1].word):
                        break  # 'Jupiter and Saturn' are two names; 'Accounting and Finance' after 'of' is one
                    if conn & {"for", "on"} and not has_of:
                        break
                    has_of = has_of or "of" in conn or "de" in conn
                    j = k
                    continue
                break
            # a title alone ('Professor') or a run ending on a connector is no name
            words = [x.low for x in tokens[i:j] if x.word]
            if words and not all(w in TITLES for w in words):
                kind = "code" if CODE.match(t.text) else "name"
                spans.append(Span(_join(tokens[i:j]), i, j, kind))
            i = j
            continue
        if t.number and t.word:
            j = i + 1
            if not _YEAR.match(t.text):
                while j < n and j - i <= 3 and tokens[j].word and tokens[j].low not in PREPOSITIONS | CONJUNCTIONS \
                        | DETERMINERS | RELATIVES and not _is_verb(tokens, j):
                    j += 1
            spans.append(Span(_join(tokens[i:j]), i, j, "number"))
            i = j
            continue
        i += 1
    return spans


def _join(tokens: list[Token]) -> str:
    out = ""
    for k, t in enumerate(tokens):
        glue = k > 0 and (t.text in ".,'’" or t.text.startswith(("'", "’")) or tokens[k - 1].text in "(“\"")
        out += ("" if glue or not out else " ") + t.text
    return out.replace(" .", ".")


# ------------------------------------------------------------------ the main entity and f_par
# the words a document about a code-named thing calls it by ("the subject is taught by")
CODE_WORDS = ("subject", "course", "module")


@dataclass
class MainEntity:
    name: str
    person: bool
    heads: set[str] = field(default_factory=set)   # words of "the <head>" that refer to it

    @property
    def words(self) -> set[str]:
        return fold_words_set(self.name) - TITLES - DETERMINERS - PREPOSITIONS


def _heads(name: str) -> set[str]:
    words = re.findall(r"[\w-]+", name)
    if not words:
        return set()
    if CODE.match(words[0]):
        return set(CODE_WORDS)
    low = [w.lower() for w in words]
    head = low[low.index("of") - 1] if "of" in low and low.index("of") > 0 else low[-1]
    return {head} if head.isalpha() and len(head) > 2 else set()


def main_entity(text: str, title: str = "") -> MainEntity | None:
    """The entity a document is about: its title when the text writes it, else the subject of its
    first sentence. A title or first-sentence subject with Dr/Prof/Mr/Ms is a person."""
    name = ""
    if title and fold_words_set(title) <= fold_words_set(text):
        name = title.strip()
    else:
        for s in split_sentences(text)[:2]:
            subj = subject_span(tokenize(s.text))
            if subj is not None and subj.kind in ("name", "code"):
                name = subj.text
                break
    if not name:
        return None
    first = name.split()[0].rstrip(".").lower()
    person = first in PERSON_CUES
    return MainEntity(name, person, set() if person else _heads(name))


def fold_words_set(text: str) -> set[str]:
    return set(fold(text).split())


def subject_span(tokens: list[Token]) -> Span | None:
    spans = [s for s in name_spans(tokens) if s.kind != "number"]
    if not spans:
        return None
    verb = next((i for i in range(len(tokens)) if _is_verb(tokens, i) and i > 0), len(tokens))
    before = [s for s in spans if s.start < verb]
    return before[-1] if before else None


def resolve(sentence: str, main: MainEntity | None) -> str:
    """Deterministic f_par: pronouns and 'the <head word>' become the main entity ('She received her
    PhD' → 'Prof. Alice Chen received her PhD'; 'Its head is' → "Department of Computing's head is";
    'the subject is taught by' → 'COMP3010 Information Retrieval is taught by'). Subject pronouns are
    replaced anywhere, possessives only where a clause opens ('received her PhD from' keeps 'her':
    it is part of the relation). A main entity of unknown kind (no title, no head word) takes both
    he/she and it; 'the department of X' is another department and stays."""
    if main is None:
        return sentence
    person_ok = main.person or not main.heads
    thing_ok = not main.person
    toks = tokenize(sentence)
    out, last, i = [], 0, 0
    while i < len(toks):
        t = toks[i]
        opens = i == 0 or toks[i - 1].text in {",", ";", ":", "("} or toks[i - 1].low in CONJUNCTIONS | RELATIVES
        low = t.low
        repl, width = None, 1
        if (person_ok and low in {"he", "she"}) or (thing_ok and low == "it" and (opens or i + 1 < len(toks) and
                                                                                  toks[i + 1].low in VERBS | AUXILIARIES)):
            repl = main.name
        elif opens and ((person_ok and low in POSSESSIVES_PERSON) or (thing_ok and low in POSSESSIVES_THING)):
            repl = main.name + "'s"
        elif low in {"the", "this"} and i + 1 < len(toks) and toks[i + 1].low in main.heads and \
                not (i + 2 < len(toks) and toks[i + 2].low == "of"):
            repl, width = main.name, 2
        if repl is not None:
            out.append(sentence[last:t.start])
            out.append(repl)
            last = toks[i + width - 1].end
            i += width
            continue
        i += 1
    out.append(sentence[last:])
    return "".join(out)


# ------------------------------------------------------------------ rule triples
