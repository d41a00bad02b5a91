"""The shape of the value a fact question asks for, and whether a text holds a value of that shape.

English says the shape with closed classes and a few nouns: a number for "how many", "how much" or "the
number of"; a time for "when" or "in what year"; an e-mail address, a web address or a phone number for
the noun that names one ("X's phone number", "the e-mail address of Y"); a count is said beside the noun it
counts ("two weekly sessions"). A sentence that holds no value
of the shape asked for answers another question ("What is X's phone number?" answered "Hello, I'm X."),
so a text answer is made only of sentences that hold one, and none means no answer: a wrong answer is
worse than none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pyramid.reading.english import CARDINALS, MONTHS, NUMBER_WORDS, SCALE_WORDS, WEEKDAYS
from pyramid.reading.terms import phones_in, shape_of
from querying.compose import asks_for_a_fact
from querying.options import counts_said
from querying.planning.cues import COUNTING, QUANTITY, WHEN, counted_noun, embedding_phrase
from querying.question_names import norm_words, question_names

if TYPE_CHECKING:
    from querying.asked_kind import Things

Shape = Literal["number", "time", "email", "web", "phone"]
ADDRESS_SHAPES: frozenset[Shape] = frozenset({"email", "web", "phone"})  # the ways to reach someone or something
SHAPE_NAMES: dict[Shape, str] = {"number": "number", "time": "time", "email": "e-mail address",
                                 "web": "web address", "phone": "phone number"}

# the nouns that name a shaped value, as a question asks for one ("the e-mail address", "a phone number",
# "its website"); a noun that only may name one ("link", "mail", "web") needs the noun after it
_ASKED: tuple[tuple[Shape, re.Pattern[str]], ...] = (
    ("email", re.compile(r"\be-?mail(?:\s+address)?\b|\bmail\s+address\b", re.IGNORECASE)),
    # … or a number said with the verb of dialling it ("Which number should I call to reach X?")
    ("phone", re.compile(r"\b(?:(?:tele)?phone|tel|fax|mobile)\s+(?:number|no)\b|\b(?:tele)?phone\b|"
                         r"\bnumbers?\b.*\b(?:call|ring|dial|text)\b|\b(?:call|ring|dial)\b.*\bnumbers?\b", re.IGNORECASE)),
    ("web", re.compile(r"\b(?:website|homepage|webpage|url|web\s+(?:address|page|site))\b|"
                       # "Where can I read about X online?", "Where is X on the web?"
                       r"\bwhere\b.*\b(?:online|on\s+the\s+(?:web|internet))\b", re.IGNORECASE)),
)
_NUMBER_WORDS = NUMBER_WORDS | set(CARDINALS)
# "…, in millions of US dollars?", "In thousands of euros, …": an amount asked in a scale of a unit, said
# apart from the clause by a comma or the question's start
_IN_SCALE = re.compile(r"(?:^|,)\s*[Ii]n\s+(?:" + "|".join(sorted({w + "s" for w in SCALE_WORDS.values()}))
                       + r")\s+of\b")
_WORD = re.compile(r"[A-Za-z]+|\d+")
# a time in digits: a year, a clock time, a day of the month ("1852", "7.30pm", "19:00", "the 4th"); other
# digits (a phone number, a price) say no time
_TIME_DIGITS = re.compile(r"(?<![\d.,])[12]\d{3}(?!\d|[.,]\d)|\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b|"
                          r"\b\d{1,2}(?:st|nd|rd|th)\b", re.IGNORECASE)
# …and in words: English's closed classes of times (months, weekdays, seasons, parts of the day, how often)
_TIME_WORDS = MONTHS | WEEKDAYS | {w + "s" for w in WEEKDAYS} | frozenset({
    "spring", "summer", "autumn", "fall", "winter", "weekend", "weekends", "morning", "mornings", "afternoon",
    "afternoons", "evening", "evenings", "night", "nights", "noon", "midday", "midnight", "daily", "weekly",
    "fortnightly", "monthly", "yearly", "annually", "today", "tomorrow", "yesterday", "ago", "century", "decade"})
_MONTH = "(?:" + "|".join(sorted(MONTHS)) + ")"
_DATE = re.compile(rf"\b\d{{4}}-\d{{1,2}}-\d{{1,2}}\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\b,?(?:\s+\d{{4}})?|"
                   rf"\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b,?(?:\s+\d{{4}})?|\b{_MONTH}\s+\d{{4}}\b", re.IGNORECASE)
_TOKEN_EDGES = "<>()[],;:.!?\"'“”‘’"


def asked_shape(question: str) -> Shape | None:
    """The shape of the value `question` asks for, or None when its grammar says none."""
    for shape, pattern in _ASKED:
        if pattern.search(question):
            return shape
    if WHEN.search(question):
        return "time"
    if QUANTITY.search(question) or _IN_SCALE.search(question):
        return "number"
    return None


def holds_shape(text: str, shape: Shape, ignore: set[str] | frozenset[str] = frozenset()) -> bool:
    """Does `text` hold a value of `shape`? A number in digits or words ("two", not the "one" of "one of
    the parks"); a time as a year, a clock time, a day of the month or a word of time ("May", "Tuesdays",
    "summer", "weekly"); an address or a phone number as `shape_of` reads one. Words in `ignore` (those of
    the question's own names) hold no number or time."""
    if shape == "time":
        return any(m.group(0).lower() not in ignore for m in _TIME_DIGITS.finditer(text)) or \
            any(w.lower() in _TIME_WORDS - ignore for w in _WORD.findall(text))
    if shape == "number":
        words = [w.lower() for w in _WORD.findall(_DATE.sub(" ", text))]  # a date is no count nor amount
        return any(w not in ignore and (w.isdigit() or (w in _NUMBER_WORDS and words[i + 1:i + 2] != ["of"]))
                   for i, w in enumerate(words))
    if shape == "phone":
        return bool(phones_in(text))
    return any(shape_of(w.strip(_TOKEN_EDGES)) == shape for w in text.split())


@dataclass(frozen=True)
class Asked:
    """What a fact question's answer must hold: a value of the shape asked for, and — where the question
    names things — a passage that names one of them (all the words of one name: "Amina Pennock" is not
    named by "Sunita manages Saltworks Park", "Saltworks Hall" not by "buses run through Saltworks")."""

    shape: Shape | None
    names: tuple[tuple[str, ...], ...] = ()
    fact: bool = False       # a fact question: its answer is its best sentence and at most two more
    counted: tuple[str, ...] = ()  # the noun a count asks about ("weekly sessions"): its number is said beside it
    things: Things | None = None   # the things of the kind it asks for by name ("which department …")
    written: tuple[tuple[str, ...], ...] = ()  # every name the question writes: none of them is a thing asked for
    # the phrase about another thing a name is said inside ("the person who supervises X"): what is asked is that
    # other thing's, and no passage about X says it ("" where every name is said plainly)
    said_of: str = ""

    def __bool__(self) -> bool:
        return self.shape is not None or bool(self.names) or bool(self.things) or bool(self.said_of)

    def holds(self, text: str) -> bool:
        """Does `text` hold the value asked for? A value of the shape (not only inside a name the question
        writes: the "Two" of "Two Amber Nights" is no count), a count beside the noun it counts, a thing of
        the kind asked for (besides those the question names)."""
        if self.shape is not None and not holds_shape(text, self.shape, ignore={w for n in self.names for w in n}):
            return False
        if self.things and not self.things.named_in(text, self.written):
            return False
        return not self.counted or bool(counts_said(self.counted, text))  # "Route 3 runs …" counts no sessions

    def admits(self, sentence: str, passage: str) -> bool:
        """May `sentence`, from `passage`, answer? It holds the value asked for; its passage names what is
        asked about. None where what is asked is another thing's, two steps from what the question names."""
        if self.said_of or not self.holds(sentence):
            return False
        if not self.names:
            return True
        words = set(norm_words(passage))
        return any(set(name) <= words for name in self.names)

    def says(self, names: bool = True) -> str:
        """What no admitted sentence held, for an abstention's reason (`names`: and what it names)."""
        if self.said_of:
            return f"names the {self.said_of} the question asks about (two steps from what it names)"
        parts = [f"says how many {' '.join(self.counted)}" if self.counted else
                 f"holds the {SHAPE_NAMES[self.shape]} asked for"] if self.shape else []
        if self.things:
            parts.append(f"names a {self.things.kind}")
        if names and self.names:
            parts.append("is in a passage naming " + " or ".join(" ".join(n) for n in self.names))
        return " and ".join(parts)


def asked(question: str, framed: bool, things: Things | None = None) -> Asked:
    """The checks for `question`'s answer: the shape its grammar asks for; the names it writes when it is
    a fact question (one thing, person, place, time or number is asked for: it has a frame, opens with a
    wh-word that asks for one, or asks for a shape); `things`, those of the kind it asks for by name
    (querying.asked_kind)."""
    shape = asked_shape(question)
    fact = framed or shape is not None or asks_for_a_fact(question)
    written = question_names(question).spans
    # a thing asked for by its kind is a fact asked of what the question names ("Name the studio behind X")
    fact = fact or things is not None
    spans = written if fact else ()
    # a name of several words says what is asked about; a capitalised word alone may be a unit ("US
    # dollars") or a request ("Name the …"), and counts only where the question writes no longer name
    longer = tuple(n for n in spans if len(n) > 1)
    counted = tuple(counted_noun(question, COUNTING).split()) if shape == "number" and COUNTING.search(question) else ()
    said_of = next((p for n in written if (p := _said_of(question, n))), "")
    return Asked(shape, longer or spans, fact, counted, things, written if things else (), said_of)


def _said_of(question: str, name: tuple[str, ...]) -> str:
    """The phrase about another thing the name is said inside by a relative word or as a possessor
    (querying.planning.cues.embedding_phrase), or "". A clause with no relative word is left alone: without the
    name's class, "the subject X is …" cannot be told from "the course X is a TA for"."""
    pattern = r"\W+(?:\w+\W+){0,2}?".join(re.escape(w) for w in name)
    m = re.search(rf"\b{pattern}\b", question, re.IGNORECASE) if name else None
    if m is None or not m.group(0)[:1].isupper() or m.group(0) == "I":
        return ""
    said = embedding_phrase(question[:m.start()] + "X" + question[m.end():])
    return said[0] if said and not said[1] else ""
