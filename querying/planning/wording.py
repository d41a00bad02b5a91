"""The question and the readings as words: anchors masked as placeholders, values written out, and
one form per word for comparing names."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pyramid.normalise import fold
from pyramid.reading.english import AUXILIARIES, COPULAS, IRREGULAR, PREPOSITIONS, STOPWORDS
from pyramid.vocab import singular, word_forms
from querying.planning.records import PLACEHOLDERS, Anchor


def forms(text: str) -> tuple[str, ...]:
    """The words of a text in one form each (singular where one exists), for comparing names."""
    return tuple(singular(w) for w in fold(text).split())


def masked(question: str, anchors: Sequence[Anchor], *, values: bool = True) -> str:
    """The question with its anchors' spans as placeholders (values left as words if not `values`)."""
    # each span once, however many readings carry its anchor (masking a copy again cuts the text)
    unique = list({a.spans: a for a in anchors}.values())
    spans = sorted(((s, e, ph) for ph, a in zip(PLACEHOLDERS, unique) if values or not a.is_value
                    for s, e in a.spans), reverse=True)
    for s, e, ph in spans:
        question = question[:s] + ph + question[e:]
    return question


def values_spelled(text: str, anchors: Sequence[Anchor]) -> str:
    """A reading's words with its values written out: what a value says ("assistant professors") is
    part of what the question asks, so both are compared with their values in words."""
    for ph, a in zip(PLACEHOLDERS, anchors):
        if a.is_value:
            text = re.sub(rf"\b{ph}\b", lambda _m, t=a.text: t, text, count=1)
    return text


def words_outside(question: str, anchors: Sequence[Anchor]) -> set[str]:
    """The question's words (one form each) outside the spans of the instances it names."""
    text = masked(question, anchors)
    return {forms(w)[0] for w in re.findall(r"\w+", text) if w not in PLACEHOLDERS and fold(w)}


def property_content_words(prop_words: str) -> set[str]:
    """A property's words that carry its meaning (one form each): 'has subject code' → {subject, code}."""
    return set(forms(prop_words)) - STOPWORDS - {"has"}


def names_content_words(names: Sequence[str]) -> set[str]:
    """The content words of any of a property's names: a question that says one of them says the property."""
    return {w for n in names for w in property_content_words(n)}


def names_whole(names: Sequence[str], words: set[str]) -> bool:
    """Some name of the property is said whole (every word of it, "has" aside)."""
    return any(set(forms(n)) - {"has"} <= words for n in names)


def all_forms(text: str) -> set[str]:
    """Every form of every word of a text ('provides' gives provide, provides, provid): two texts share
    a word when their sets meet, whichever form each one's shortest is."""
    return {f for w in fold(text).split() for f in word_forms(w)}


_VERB_ENDING = re.compile(r"(?:ing|e?s|e?d|e)$")


def verb_stems(words: Iterable[str]) -> set[str]:
    """Each word less the endings of English's verb forms ("operates", "operated" → "operat"; "dye",
    "dyed" → "dy"; "runs" → "run"), for telling two forms of one verb from two verbs."""
    return {w[:len(w) - len(m.group())] if (m := _VERB_ENDING.search(w)) and len(w) - len(m.group()) >= 2 else w
            for w in words}


def agent_said(prop_words: str, words: Iterable[str]) -> bool:
    """A property named by a participle and "by" holds the agent ("operated by": a company's name, where
    the schema keeps no thing for it): does the question say its verb, in any form ("Who operates …?")?
    Such a value answers "who"."""
    name = prop_words.split()
    return len(name) == 2 and name[1] == "by" and bool(verb_stems(name[:1]) & verb_stems(words))


def says_every_word(prop_words: str, text_forms: set[str]) -> bool:
    """Every content word of a property's name is said in the text (`all_forms` of it), in any form."""
    own = [w for w in fold(prop_words).split() if w not in STOPWORDS and w != "has"]
    return bool(own) and all(word_forms(w) & text_forms for w in own)


def first_is_subject(text: str, names: Sequence[str], passive_name: bool) -> bool | None:
    """Whether, where `text` (the words between two things) uses a word of the relation's names, the
    thing said first is the relation's subject: "A is a part of B" yes, "A is headed by B" of a relation
    named "heads" no (the question's passive), "A is headed by B" of one named "is headed by" yes. None
    when no word of the relation stands between them."""
    own = {f for n in names for w in property_content_words(n) for f in word_forms(w)}
    for m in re.finditer(r"[^\W\d_]+", text):
        if all_forms(m.group()) & own:
            return passive_at(text, m.end()) == passive_name
    return None


_AUX = "|".join(sorted(AUXILIARIES))
_COPULA = "|".join(sorted(COPULAS))
_PARTICIPLES = "|".join(sorted(IRREGULAR))
# "Who does X report to?", "To whom does X report?", "Which unit does X head?": the asking word is the
# verb's object (do-support puts X, the subject, after the auxiliary)
WH_OBJECT = re.compile(r"^\W*(?:(?:to|for|from|with|by|of|under)\s+)?(?:who|whom|which|what)\b(?:\s+[^\W\d_]+){0,3}?"
                       r"\s+(?:do|does|did)\s", re.IGNORECASE)
# "Which university is X part of?", "Who is X married to?": a preposition left at the end of the question
# has the asking phrase as its object, so X, after the copula, is the subject
WH_STRANDED = re.compile(rf"^\W*(?:who|whom|which|what)\b(?:\s+[^\W\d_]+){{0,3}}?\s+(?:{_COPULA})\s.+\s"
                         rf"(?:{'|'.join(sorted(PREPOSITIONS))})\W*$", re.IGNORECASE)
# "Who reports to X?", "Which staff member supervises X?", "Which staff were hired by X?": the asking
# word (and its noun, never an auxiliary) is the subject, of a verb or of a copula and a participle
WH_SUBJECT = re.compile(rf"^\W*(?:who|(?:which|what)\s+(?!(?:{_AUX})\b)[^\W\d_]+(?:\s+(?!(?:{_AUX})\b)[^\W\d_]+)?)"
                        rf"\s+(?:(?!(?:{_AUX})\b)[^\W\d_]+\b|(?:{_COPULA})\s+(?:[^\W\d_]+(?:ed|en)|{_PARTICIPLES})\b)",
                        re.IGNORECASE)


def asker_is_agent(question: str, names: Sequence[str]) -> bool | None:
    """Whether what a wh-question asks for does what the relation's verb says ("Who supervises X?" yes,
    "Who does X supervise?" no, "Which staff were hired by X?" no: the passive turns it round); None where
    the question does not use the relation's verb or English word order does not say."""
    own = {f for n in names for w in property_content_words(n) for f in word_forms(w)}
    verb = next((m for m in re.finditer(r"[^\W\d_]+", question) if all_forms(m.group()) & own), None)
    if verb is None:
        return None
    if WH_STRANDED.match(question) or WH_OBJECT.match(question):
        subject: bool | None = False
    else:
        subject = True if WH_SUBJECT.match(question) else None
    return None if subject is None else subject != passive_at(question, verb.end())


def passive_at(text: str, end: int) -> bool:
    """The verb ending at `end` is said in the passive: "by" follows it ("taken by nobody")."""
    return re.match(r"\s+by\b", text[end:]) is not None

