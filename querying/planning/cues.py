"""The question's cues: what its grammar says it asks for, read with English's closed classes (how
many, the most, more than, who, where, an auxiliary opening a yes/no question), never with a question
set's wording. The patterns, the functions that read them, and `QuestionCues`, what scoring needs."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pyramid.reading.english import (
    AFTER_A_NOUN,
    AUXILIARIES,
    BEFORE_COUNTED_NOUN,
    CARDINALS,
    DETERMINERS,
    LESS_WORDS,
    MORE_WORDS,
    PLACE_PREPOSITIONS,
    PREPOSITIONS,
    STOPWORDS,
)
from querying.planning.records import PLACEHOLDERS, Anchor
from querying.planning.wording import forms, masked
from querying.sparql_plan import Aggregate


def one_of(words) -> str:
    """An alternation of whole words, in a fixed order (each use ends in a word boundary or the end,
    so the order never changes what matches)."""
    return "(?:" + "|".join(sorted(words)) + ")"


# "number of" counts what follows it ("the number of wards"), not one thing's number ("the switchboard
# number of the hospital": a determiner after "of")
_NUMBER_OF = r"number\s+of(?!\s+(?:the|a|an|this|that|its|his|her|their)\b)"
QUANTITY = re.compile(rf"\b(how\s+many|how\s+much|{_NUMBER_OF}|"
                      r"count|counts|counting|total|amount\s+of|tally|"
                      r"head\s?counts?)\b",
                      re.IGNORECASE)
# …of them, those that count things (not "how much", an amount; not a total of values)
COUNTING = re.compile(rf"\b(how\s+many|{_NUMBER_OF}|count|counts|counting)\b", re.IGNORECASE)
# …and those that ask for an amount: a value ("How much did X cost?"), never a count of things
AMOUNT = re.compile(r"\b(how\s+much|amount\s+of)\b|"
                    # …or "what" as the object of a verb of measure ("What did X cost to make?", "What does Y
                    # weigh?"): English's verbs that take an amount
                    r"\bwhat\s+(?:did|does|do|will|would|could)\s+.+?\s+(?:cost|weigh|measure|earn|gross)\b",
                    re.IGNORECASE)


# …and a number of any kind: a quantity, a size, or a degree asked with "how" ("How long is X?", "How old …")
NUMBER_ASKED = re.compile(r"\b(?:size\s+of|how\s+(?:big|large|long|tall|old|far|heavy|wide|deep|high|often))\b",
                          re.IGNORECASE)
# …of them, the measures no time or date gives ("how high"; not "how long", "how old", "how often")
SIZE_ASKED = re.compile(r"\bhow\s+(?:tall|far|heavy|wide|deep|high)\b", re.IGNORECASE)


# a question that opens by asking for a thing, someone or a place ("Which faculty has the largest number of
# departments?", "Who teaches the course with a total of 3 credits?") asks for no number, whatever it says after
_ASKS_A_THING = re.compile(r"^\W*(?:(?:to|by|for|with|from|of|in|at|on)\s+)?(?:which|who|whom|whose|where)\b",
                           re.IGNORECASE)


def asks_a_number(text: str) -> bool:
    """Does the question ask for a number (a count, an amount, a size, a degree)? Then no thing answers it."""
    if _ASKS_A_THING.match(text):
        return False
    plain = SUPERLATIVE.sub(" ", text)  # "the largest number of staff" ranks
    return bool(QUANTITY.search(plain) or NUMBER_ASKED.search(plain) or AMOUNT.search(plain))


def asks_number_of_things(text: str) -> bool:
    """Does the question ask for a number a count may give? A quantity cue, less an amount asked for
    ("how much") where nothing is counted."""
    return bool(QUANTITY.search(text)) and not (AMOUNT.search(text) and not COUNTING.search(text))
# the superlatives of quantity (English's closed set): "the most departments", "the fewest staff"
_NUMBER_RANKED = r"(?:largest|greatest|highest|biggest|smallest|lowest)\s+number\s+of"
SUPERLATIVE = re.compile(rf"\b(most|fewest|least|{_NUMBER_RANKED})\b", re.IGNORECASE)
# "the smallest number of students" ranks a count, not a value called number
NUMBER_RANKED = re.compile(rf"\b{_NUMBER_RANKED}\b", re.IGNORECASE)
FEWEST = re.compile(r"fewest|least|fewer|less|(?:smallest|lowest)\s+number\s+of", re.IGNORECASE)
# English's auxiliary verbs (a closed class): a question opening with one is a yes/no question
AUXILIARY = one_of(AUXILIARIES)
POLAR = re.compile(rf"\s*{AUXILIARY}\b", re.IGNORECASE)
COMPARATIVE = re.compile(r"\b(more|fewer|less)\b", re.IGNORECASE)
THRESHOLD = re.compile(r"\b(more\s+than|fewer\s+than|less\s+than|at\s+least|at\s+most|over|under)\s+"
                       rf"(\d+|{one_of(CARDINALS)})\b",
                       re.IGNORECASE)
# a threshold's words → its comparison; the rest ("fewer than", "less than", "under") are "lt"
THRESHOLD_OPS = {"more than": "gt", "over": "gt", "at least": "ge", "at most": "le"}
THRESHOLD_REACH = 16      # characters before a number within which its threshold's words begin ("at least 3")
COUNTED_WORDS = 2         # "how many staff members …": the noun after the cue names what is counted
WHO = re.compile(r"\b(who|whom)\b", re.IGNORECASE)  # English asks for a person or a body with these
# …and opening the question with one (or closing it: "X is led by whom?") it asks for nothing else; a
# relative "who" ("the e-mail of the person who leads X") asks for what comes before it
# ("Whose …", "Under whose supervision …": the possessive asks for the someone who has it)
ASKS_WHO = re.compile(r"^\W*(?:(?:to|by|for|with|from|of|under)\s+)?(?:who|whom|whose)\b|\b(?:who|whom)\s*\?\s*$",
                      re.IGNORECASE)
WHERE = re.compile(r"\bwhere\b", re.IGNORECASE)     # …and for a place or a body with this
ASKS_WHERE = re.compile(r"^\W*where\b", re.IGNORECASE)  # …opening the question (not a relative "where")
# …and for a time with these, opening the question ("When did …", "In which year …", "What date …")
WHEN = re.compile(r"^\W*(?:since\s+)?when\b|^\W*(?:(?:in|on|at|since|by)\s+)?(?:what|which)\s+"
                  r"(?:year|date|day|month|time|season|decade|century)\b", re.IGNORECASE)
# "Which unit teaches X?": an interrogative determiner with a noun, then a verb and no auxiliary before
# the named thing — the noun is the clause's subject, a thing that acts on X, not a value of X ("What
# topics does X study?" has its noun as the object: a value may answer). English's closed classes only.
WHICH_SUBJECT = re.compile(rf"\b(?:which|what)\s+(?!{AUXILIARY}\b|of\b)[^\W\d](?:(?!\b{AUXILIARY}\b)[^?])*?"
                           rf"\b[XYZ]\b", re.IGNORECASE)
# "X is employed as what?", "What does X serve as?": a predicative "as" asks for a role or a kind, a
# value of X, never another thing X is linked to
AS_WHAT = re.compile(r"\bas\s+(?:an?\s+)?(?:what|which)\b|\bas\s*\?\s*$", re.IGNORECASE)
# a property whose name ends in one of these says a place or a source (see weights.PLACE)
LOCATIVE = re.compile(rf"\b({'|'.join(sorted(PLACE_PREPOSITIONS))})$")
# a number as the question writes it (not inside a code or a version: "COMP5923", "3.2.1")
NUMBER_TOKEN = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]*\d)")
_NOUN_CUE = re.compile(r"(?:head\s?)?counts?|tally|total", re.IGNORECASE)
_AFTER_NOUN = re.compile(rf"\s*(?:$|[?.!,;:]|{one_of(AFTER_A_NOUN)}\b)", re.IGNORECASE)


# the words that compare a value with a number ("above", "less than", "at least"; english.MORE_WORDS and
# LESS_WORDS), as a regex alternation, and the test each makes
COMPARING = one_of(w.replace(" ", r"\s+") for w in (*MORE_WORDS, *LESS_WORDS))
_BOUNDS = {"at least": "ge", "at most": "le", "up to": "le"}


def comparison_op(words: str) -> str:
    """"more than" → gt, "at least" → ge, "under" → lt, "up to" → le."""
    said = " ".join(words.lower().split())
    return _BOUNDS.get(said, "gt" if said in MORE_WORDS else "lt")


# a value derived from others (a difference, a ratio, a share, "how much heavier … than"): no plan says
# one, so the layer passes the question down rather than answer one of the values it is made from
DERIVED = re.compile(r"\b(difference|ratio|percentage|percent|proportion|fraction)\b|\b(?:what|the)\s+(share)\s+of\b"
                     r"|\bhow\s+much\s+(more|less|[^\W\d_]+er)\b|\bhow\s+many\s+(more|fewer|less)\b|\bby\s+how\s+(much|many)\b",
                     re.IGNORECASE)


# one value over many: "the average price", "the total weight", "what do they cost together" (the
# words after the cue, or the verb before it, say what is totalled); TOTALS: the cue → its aggregate
TOTAL = re.compile(r"\b(?P<fn>average|mean|total|sum|combined|maximum|minimum)\b(?:\s+of)?\s+"
                        r"(?:the\s+|all\s+)?(?P<words>[^\W\d_]+(?:\s+[^\W\d_]+)?)"
                        # "what do all our monitors cost together?": the verb before says what is summed
                        r"|\b(?P<words2>[^\W\d_]+)\s+(?P<fn2>together|altogether|in\s+total)\b",
                        re.IGNORECASE)
TOTALS: dict[str, Aggregate] = {"average": "avg", "mean": "avg", "total": "sum", "sum": "sum",
                                    "combined": "sum", "maximum": "max", "minimum": "min", "together": "sum",
                                    "altogether": "sum", "in total": "sum"}

def total_cue(text: str) -> re.Match | None:
    """The question's total (TOTAL), unless what it totals is a count ("the combined staff count" counts)."""
    for m in TOTAL.finditer(text):
        words = (m.group("words") or m.group("words2") or "").lower()
        if not COUNTING.search(m.group(0)) and not re.search(r"\b(?:count|tally|number)\b", m.group(0), re.IGNORECASE) \
                and words.split()[0] not in STOPWORDS:
            return m
    return None


# a count per group: "in each department", "per supplier", "for every ward"
GROUPED = re.compile(r"\b(?:each|every|per)\s+(?P<group>[^\W\d_]+)", re.IGNORECASE)
# rounding asked for: "rounded to the nearest euro" (0 places), "to two decimal places", "rounded to 1
# decimal" — the phrase is an instruction on the answer, not a superlative ("nearest") or a number
ROUNDED = re.compile(r",?\s*\b(?:rounded|round(?:ed)?\s+off|given)?\s*\bto\s+(?:the\s+nearest\s+(?:whole\s+)?"
                     r"(?P<whole>[^\W\d_]+)|(?P<n>\d|one|two|three|four)\s+decimal(?:\s+places?)?)\b", re.IGNORECASE)
# "the nearest ten/hundred/thousand" rounds to tens: no decimal places say it
_ROUND_TENS = frozenset({"ten", "tens", "hundred", "hundreds", "thousand", "thousands", "million"})


def rounding(question: str) -> tuple[int | None, tuple[int, int] | None]:
    """(decimal places, the phrase's span) of a rounding the question asks for; (None, None) when none
    or one no count of decimal places says."""
    m = ROUNDED.search(question)
    if m is None:
        return None, None
    if m.group("whole"):
        return (None, None) if m.group("whole").lower() in _ROUND_TENS else (0, m.span())
    n = m.group("n").lower()
    return int(CARDINALS.get(n, n)), m.span()


# a list of things asked at once ("the price, weight and release date of X")
# what stands between two coordinated names ("A and B", "A, B", "A or B"): they share one relation
COORDINATED = re.compile(r"(?:,\s*)?(?:and|or|nor|as\s+well\s+as|and\s+also)|,|&", re.IGNORECASE)
LISTED = re.compile(r"\w\s*,\s*\w|\w\s+and\s+\w", re.IGNORECASE)
# several values asked for by one plural or collective noun: "all the contact details of X", "every
# dimension of Y", "what are the contact details of X"
GROUP_ASKED = re.compile(r"\b(?:(?:all|every|each)\s+(?:of\s+)?|what\s+are\s+)(?:the\s+|his\s+|her\s+|their\s+|its\s+)?"
                         r"(?P<noun>(?:[^\W\d_]+\s+)??[^\W\d_]+)\s+(?:of|for|on)\b", re.IGNORECASE)


def comparison(cue: re.Match) -> tuple[str, float]:
    """A threshold's comparison and number: "more than 100" → (gt, 100), "at most 5" → (le, 5)."""
    words = " ".join(cue.group(1).lower().split())
    number = cue.group(2).lower()
    return THRESHOLD_OPS.get(words, "lt"), float(CARDINALS.get(number, number))


def counted_noun(question: str, cue: re.Pattern = QUANTITY) -> str:
    """The words after the last quantity cue that has any ("number of staff members across …" →
    'staff members'): determiners skipped, up to COUNTED_WORDS words, stopping at a function word,
    a placeholder or punctuation. Empty when nothing follows the cue."""
    for m in reversed(list(cue.finditer(question))):
        compound = _compound_before(question, m)
        if compound:
            return compound
        if words := noun_after(question[m.end():]):
            return words
    return ""


def noun_after(text: str) -> str:
    """The noun a text opens with, determiners skipped, up to COUNTED_WORDS words, stopping at a
    function word, a placeholder or punctuation ("the staff members of X" → 'staff members')."""
    words: list[str] = []
    for w in re.findall(r"[\w'-]+|[^\w\s]", text):
        lw = w.lower()
        if not words and lw in STOPWORDS | BEFORE_COUNTED_NOUN:
            continue
        if lw in STOPWORDS or w in PLACEHOLDERS or not re.match(r"\w", w) or len(words) == COUNTED_WORDS:
            break
        words.append(lw)
    return " ".join(words)


def _compound_before(question: str, cue: re.Match) -> str:
    """'the total *staff* count of …', 'X's *student* tally?': a quantity noun used as a noun (followed by a
    preposition, a verb 'be' or the end, not by what a verb 'count' takes) counts the word before it."""
    if not _NOUN_CUE.fullmatch(cue.group(1)) or not _AFTER_NOUN.match(question[cue.end():]):
        return ""
    before = re.search(r"([^\W\d_]+)\s+$", question[:cue.start()])
    word = before.group(1) if before else ""
    if not word or word.lower() in STOPWORDS | BEFORE_COUNTED_NOUN or word in PLACEHOLDERS:
        return ""
    return word.lower()


# A thing named inside a phrase about another thing: "the person who supervises X", "the course that X assists
# with", "the department X belongs to" (a reduced relative: a verb after X), "Where did X's advisor get …"
# (a possessor before a do-question's verb). English's relative words, determiners and prepositions mark these.
_WORD = r"[^\W\d_]+"
_IN_NOUN_PHRASE = rf"(?!(?i:{one_of(PREPOSITIONS | DETERMINERS)})\b){_WORD}"
_EMBEDDING = re.compile(
    rf"\b(?i:the|a|an)\s+(?P<np>(?:{_IN_NOUN_PHRASE}\s+){{0,3}}?{_IN_NOUN_PHRASE})\s+"
    rf"(?:(?i:(?:(?:of|to|for|from|with|by|at|in|on|under)\s+)?(?:who|whom|that|which|whose|where))\s+"
    rf"(?:{_WORD}\s+){{0,4}}?(?P<rel>X)\b|(?P<reduced>X)\s+(?i:is|are|was|were|{_WORD}(?:s|ed))\b)")
# …unless the phrase is what the question asks for: "Who is the person who …", "Name the course that …"
_ASKED_PHRASE = re.compile(rf"^\W*(?:(?i:who|what|which)\s+(?i:is|are|was|were)\s+|"
                           rf"(?!(?i:who|what|which|where|when|how|whose|whom)\b)(?:{_WORD}\s+){{1,2}})$")
_POSSESSOR = re.compile(rf"\b(?i:did|does|do)\s+X(?:'s|’s|')\s+"
                        rf"(?P<np>{_WORD}(?:\s+{_WORD})??)\s+{_WORD}")


def embedding_phrase(text: str) -> tuple[str, bool] | None:
    """The noun phrase about another thing that the placeholder X is said inside (`text`: the question with
    one named thing masked as X), and whether its clause has no relative word (then the noun may be X's own
    kind: "the subject X comes under …"); None where X is said plainly."""
    for m in _EMBEDDING.finditer(text):
        if m.group("reduced") and not text[:m.start()].strip():
            continue  # a reduced clause opening the question is its subject and main verb ("The X runs for …")
        if not _ASKED_PHRASE.match(text[:m.start()]):
            return m.group("np"), bool(m.group("reduced"))
    m = _POSSESSOR.search(text)
    return (m.group("np"), False) if m else None


@dataclass(frozen=True)
class QuestionCues:
    """Does the question ask for a number (and of what), for someone, for a place, for a value by a
    noun that acts on what it names, or for a role? English marks these with closed sets of words (how
    many, number of, count …; who, whom): grammar, not a wording of any question set. Embedding probes
    for the same distinctions separated the questions less well (measured)."""

    quantity: bool
    counted: str              # the noun a quantity cue counts, "" when none
    someone: bool
    place: bool
    which: bool
    role: bool

    @classmethod
    def read(cls, question: str, named: Sequence[Anchor]) -> QuestionCues:
        """The cues of the question with the instances it names masked (`named`)."""
        text = masked(question, named)
        # not inside a name ("Count Basie"), nor a superlative's ("the largest number of staff" ranks)
        plain = SUPERLATIVE.sub(" ", text)
        quantity = asks_number_of_things(plain)
        return cls(quantity=quantity, counted=counted_noun(plain) if quantity else "",
                   someone=bool(WHO.search(text)), place=bool(WHERE.search(text)),
                   which=bool(WHICH_SUBJECT.search(text)), role=bool(AS_WHAT.search(text)))

    @property
    def counted_words(self) -> set[str]:
        """The counted noun's words, one form each."""
        return {forms(w)[0] for w in self.counted.split()}
