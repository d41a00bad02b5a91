"""Which class a name's words say: each class's own words ("Department of …" names a department), the
word a name of the form "School of …" starts with, and the shapes a class's names may all share."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from pyramid.normalise import codes_in, fold, name_key
from pyramid.reading.english import (
    ARTICLES,
    ARTICLES_INDEFINITE,
    DETERMINERS,
    INVARIANT_NOUNS,
    NAME_HEAD_PREPOSITIONS,
    NAME_JOINERS,
    PREPOSITIONS,
)
from pyramid.reading.values import MAX_ITEM_WORDS, name_before_noun
from pyramid.vocab import IRREGULAR_PLURALS, Vocab, singular, word_forms

_ASKING = frozenset({"which", "what", "whose"})  # a wh-word that takes a noun: "which department"
MAX_LABEL_WORDS = 3       # a field label naming its values' class is a noun phrase this short
HEAD_AND_PREPOSITION = 2  # "School of": a name with a head word has more words than these two


class ClassWords:
    """Each class's words (singular), and the corpus's page titles: whether some words name a thing of
    the schema's classes, and which class."""

    def __init__(self, vocab: Vocab, titles: dict[str, str]) -> None:
        self.vocab = vocab
        self.titles = titles    # name key → page title, for every page of the corpus
        # each class's names as word sets: its label's, its local name's ("screen actor", "actor"), and
        # what its comment defines it as ("A studio or company that …")
        self.by_name = {c.iri: [ws for n in c.names if (ws := _stems(n))] for c in vocab.classes}
        for cls, names in genus_names(vocab).items():
            self.by_name[cls] += [_stems(n) for n in names]
        self.by_class = {c: set().union(*sets) for c, sets in self.by_name.items()}
        self.elided = elided_heads(vocab)

    def class_word(self, text: str) -> str | None:
        """The most specific class one of whose names the text holds ("Department of …" → DEPARTMENT;
        "actor" → a class labelled "screen actor" whose local name is Actor)."""
        words = _stems(text)
        split = text.split()
        if len(split) > 1 and all(w[:1].isupper() or w in NAME_JOINERS for w in split) and split[0][:1].isupper():
            # one thing is not named by its class's plural: "Vesperline Films" is a studio, not a film;
            # "Parks and Open Spaces" a department, no park (a label's plural, "Genres:", still names the
            # class of what it lists)
            for w in split:
                if _plural(w):
                    words -= _stems(w)
        # the class whose name holds the most of the text's words ("research group" is a research group, not
        # research), then the most specific
        named = {c: max(len(ws) for ws in sets if ws <= words) for c, sets in self.by_name.items()
                 if any(ws <= words for ws in sets)}
        return max(named, key=lambda c: (named[c], len(self.vocab.ancestors(c)))) if named else None

    def label_class(self, label: str, *, head: bool = False) -> str | None:
        """The class a field's label names for the things under it ("Studio:", "Home department:"; with
        `head`, a label that is a class name's last word alone, "Specialty:"). A label of more words is a
        phrase about the page's entity ("What has the company produced?"), not a name of its values' kind; nor
        is a role held in a thing of the class ("Head of unit:")."""
        words = label.rstrip("?").split()
        asks = next((i for i, w in enumerate(words[:2]) if w.lower() in _ASKING), None)
        if asks is not None:
            # a question asks for a thing of the class its wh-word takes ("In which department …?"), not
            # for one its clause talks about ("What has the company produced?")
            return self.class_word(" ".join(words[asks + 1:asks + 3]))
        if len(words) > MAX_LABEL_WORDS or relational(label, self.class_word) or \
                (len(words) > 1 and words[-1].lower() in PREPOSITIONS):
            # "Head of unit:" is someone holding a role in one, not a unit; "Teaching assistant for:" names
            # the role its values are what it is for, not their class
            return None
        return self.class_word(label) or (self.head_named(label, min_words=1) if head and len(words) == 1 else None)

    def kind_said(self, complement: str) -> str | None:
        """The class a copula's complement says the entity is: its first conjunct's head word is the
        class's own ("assistant professor" → an assistant professor class; "professor and head" → the
        professor class; not "faculty member", whose head is "member")."""
        first = re.split(r",|\band\b|\bor\b", fold(complement))[0].split()
        if not first or relational(" ".join(first), self.class_word):  # "head of department": a role in one
            return None
        cls = self.class_word(" ".join(first))
        if cls is not None and singular(first[-1]) in self.by_class[cls]:
            return cls
        # "one of the departments", "one of the harbour offices": the head of a class's name; "a fourth-year
        # undergraduate": a class's name said without its head
        return self.head_named(first[-1], min_words=1) or self.elided.get(singular(first[-1]))

    def kind_word(self, noun: str) -> str | None:
        """The class a common noun names: a class's word, the head of a class's name ("departments" for
        "council department"), or the rest of a name whose head is another class's ("an undergraduate": an
        undergraduate student, where "student" names a class of its own)."""
        return self.class_word(noun) or self.head_named(noun, min_words=1) or \
            self.elided.get(singular(fold(noun)))

    def head_named(self, title: str, *, min_words: int = 2) -> str | None:
        """The class whose name's head word is the title's last word ("Golden Heron Prize" → the class
        named "festival prize"; "Walnut Unit" → the one named "ward or unit"): English puts a name's kind
        last. Of several classes with that head (hospital, general hospital), the most general. A field's
        label may be the head word alone ("Specialty:" over the things of "medical specialty")."""
        words = fold(title).split()
        if len(words) < min_words:
            return None
        last = singular(words[-1])
        heads = [c.iri for c in self.vocab.classes
                 if any(min(word_forms(name_head(alt)), key=len) == last for alt in c.alternatives if fold(alt))]
        return min(heads, key=lambda c: len(self.vocab.ancestors(c))) if heads else None

    def common_kind(self, value: str) -> tuple[str, list[str]] | None:
        """A common noun of a class's kind after the names of its things ("the drama genre", "the romance
        and horror genres"): the class, and the things named (split at "and", "or", commas). Only where
        the kind word is written in lower case — "Harrowfield General Hospital" is one name, not a
        hospital called Harrowfield."""
        words = value.split()
        if len(words) < 2 or not words[-1].isalpha() or not words[-1].islower() or \
                {w.lower() for w in words} & (DETERMINERS - ARTICLES):
            return None  # "its lead clinician" describes (a possessive), it names no one
        # the kind word against each class name's last word, in any of their forms ("genres", "genre")
        heads = [c.iri for c in self.vocab.classes for alt in c.alternatives
                 if fold(alt) and word_forms(words[-1]) & word_forms(name_head(alt))]
        cls = min(heads, key=lambda c: len(self.vocab.ancestors(c))) if heads else None
        before = " ".join(w for w in words[:-1] if w.lower() not in ARTICLES | ARTICLES_INDEFINITE)
        if cls is None or not before or any(ch.isdigit() for ch in before) or self.class_word(before):
            return None
        parts = [p.strip() for p in re.split(r",|\band\b|\bor\b", before) if p.strip()]
        return (cls, parts) if parts else None

    def leading_kind(self, value: str) -> tuple[str, list[str]] | None:
        """A plural class word before the names of its things ("Councillors Ann Lee and Bo Wu"): the class,
        and the names. Plural only: "Councillor Ann Lee" is one person with a title."""
        words = value.split()
        first = words[0].lower() if words else ""
        if len(words) < 3 or singular(first) == first or not first.isalpha():
            return None
        heads = [c.iri for c in self.vocab.classes for alt in c.alternatives
                 if fold(alt) and name_head(alt) == singular(first)]
        parts = [p.strip() for p in re.split(r",|\band\b|\bor\b", " ".join(words[1:])) if p.strip()]
        if not heads or not parts or not all(p[:1].isupper() for p in parts):
            return None
        return min(heads, key=lambda c: len(self.vocab.ancestors(c))), parts

    def named_exactly(self, value: str) -> str | None:
        """The class a value is, word for word, a name of ("Type: outpatient clinic", "Role: a nurse"):
        its label, its local name's words or another label, after an article; the most specific."""
        key = " ".join(w for w in fold(value).split() if w not in ARTICLES | ARTICLES_INDEFINITE)
        named = [c.iri for c in self.vocab.classes if key and any(fold(n) == key for n in c.names)]
        if not named and len(key.split()) == 1:  # "Level: Undergraduate", a name said without its head
            return self.elided.get(singular(key))
        return max(named, key=lambda c: len(self.vocab.ancestors(c))) if named else None

    def named_with_label(self, label: str, value: str) -> str | None:
        """The class a field's value names with a word of its label ("Student type: Undergraduate" → the
        class named "undergraduate student"; "Course level: Graduate" → "graduate course")."""
        words = [w for w in fold(label).split() if w not in ARTICLES | ARTICLES_INDEFINITE]
        if len(value.split()) > MAX_LABEL_WORDS or len(words) > MAX_LABEL_WORDS:
            return None
        return next((c for w in words for c in [self.named_exactly(f"{value} {w}"), self.named_exactly(f"{w} {value}")]
                     if c and self.named_exactly(value) is None), None)

    def only_class_words(self, text: str) -> bool:
        """The text names a class and holds nothing but classes' words ("Department", "Faculty")."""
        return bool(self.class_word(text)) and \
            {singular(w) for w in fold(text).split()} <= set().union(*self.by_class.values())

    def names_thing(self, text: str) -> bool:
        """The words name a thing of the schema's classes: a class word in them, or another page's title
        (with the nouns after it that say what it is to someone: "the Harbour Works team")."""
        if self.class_word(text) or name_key(text) in self.titles:
            return True
        bare = name_before_noun(text)
        return bare is not None and name_key(bare[0]) in self.titles


def genus_names(vocab: Vocab) -> dict[str, list[str]]:
    """What each class's comment defines it as, where it is written as a definition ("A studio or company
    that finances …": studio, company): the nouns of its first phrase and those joined to it. Not a name
    of the class or of a class above it ("A person known for directing" says it is a person), not one
    that two classes share, nor the head of a partitive ("A kind of story")."""
    from pyramid.reading.english import parser

    found: dict[str, list[str]] = {}
    for c in vocab.classes:
        doc = parser()(c.comment) if c.comment else None
        first = next(iter(doc.noun_chunks), None) if doc is not None else None
        if first is None or first.start > 1 or first.root.pos_ == "PRON" or \
                (first.end < len(doc) and doc[first.end].lower_ == "of"):
            continue
        joined = {first.root.i}
        for t in doc:  # "a ward, unit or suite": the nouns joined to the first one
            if t.dep_ == "conj" and t.head.i in joined and t.pos_ in ("NOUN", "PROPN"):
                joined.add(t.i)
        chunks = [ch for ch in doc.noun_chunks if ch.root.i in joined]
        found[c.iri] = [doc[ch.start + (ch[0].pos_ == "DET"):ch.end].text for ch in chunks]
    taken = {frozenset(_stems(n)) for c in vocab.classes for n in c.names}
    counts = Counter(frozenset(_stems(n)) for names in found.values() for n in names)
    out = {}
    for cls, names in found.items():
        above = [_stems(n) for a in vocab.ancestors(cls) for n in found.get(a, [])]
        kept = [n for n in names if (key := frozenset(_stems(n))) and key not in taken and counts[key] == 1
                and not any(key <= a for a in above)]  # "a doctor who operates" under "a qualified doctor"
        if kept:
            out[cls] = kept
    return out


def elided_heads(vocab: Vocab) -> dict[str, str]:
    """Class names English says without their head, where the head names a class above it: "undergraduate"
    for a class named "undergraduate student" under a class named "student" (its genus, so the head adds
    nothing the modifier leaves open). A word that two classes could stand for, or that names a class
    itself, stands for none."""
    one_word = {c.iri: {fold(n) for n in c.names if len(fold(n).split()) == 1} for c in vocab.classes}
    taken = set().union(*one_word.values()) if one_word else set()
    found: dict[str, set[str]] = {}
    modifies: dict[str, set[str]] = {}  # every class a word opens a two-word name of, whatever its head
    for c in vocab.classes:
        genus = {w for a in vocab.ancestors(c.iri) for w in one_word.get(a, ())}
        for n in c.names:
            words = fold(n).split()
            if len(words) == 2:
                modifies.setdefault(words[0], set()).add(c.iri)
                if singular(words[1]) in genus and words[0] not in taken and words[0].isalpha():
                    found.setdefault(words[0], set()).add(c.iri)
    return {w: next(iter(cs)) for w, cs in found.items() if len(cs) == 1 and len(modifies[w]) == 1}


def _stems(text: str) -> set[str]:
    return {singular(w) for w in fold(text).split()}


def name_head(name: str) -> str:
    """A class name's head noun: its last word, or the word before its "of" or "for" ("head of service" is
    a head, "centre for research" a centre)."""
    words = fold(name).split()
    cut = next((i for i, w in enumerate(words) if w in ("of", "for") and i > 0), len(words))
    return words[cut - 1] if words else ""


def _plural(word: str) -> bool:
    folded = fold(word)
    return (folded in IRREGULAR_PLURALS or (folded.endswith("s") and not folded.endswith("ss"))) and \
        folded not in INVARIANT_NOUNS and singular(folded) != folded


def head_word(name: str) -> str:
    """The word a name of the form "School of …" / "Centre for …" starts with; "" for other names."""
    words = name_key(name).split()
    return words[0] if len(words) > HEAD_AND_PREPOSITION and words[1] in NAME_HEAD_PREPOSITIONS - {"and"} else ""


def relational(value: str, class_word: Callable[[str], str | None]) -> bool:
    """"Head of the Department of X" names a role held in the department, not the department: a class
    word only after the phrase's head and its "of" (the head of "Department of X" is "Department")."""
    head, sep, rest = value.partition(" of ")
    return bool(sep) and class_word(head) is None and class_word(rest) is not None


def common_phrase(text: str) -> bool:
    """No word of it is capitalised or a number: a common noun phrase ("work on plant immunity", "the
    department"), which in a sentence describes something rather than names it."""
    return not any(w[:1].isupper() or w[:1].isdigit() for w in text.split())


def name_like(title: str) -> bool:
    """A title that can be a name: short, no address in it."""
    return len(title.split()) <= MAX_ITEM_WORDS and "://" not in title and "www." not in title


def title_shapes(class_named: Callable[[str], str | None], cls: str) -> dict[str, Callable[[str], bool]]:
    """Tests of a title's shape that a class's names may all pass: named with the class's word, a code."""
    return {"class word": lambda t: class_named(t) == cls, "code": lambda t: bool(codes_in(t))}
