"""The schema in words: each class's names ('course', and 'subject', the word its properties share),
a property's words, and which class or property a few of the question's words name."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from pyramid.reading.english import (
    AUXILIARIES,
    COPULAS,
    DETERMINERS,
    MODALS,
    PERSON,
    PREPOSITIONS,
    PROPERTY_NAME_FUNCTION_WORDS,
    RELATIVES,
    REQUEST_VERBS,
    STOPWORDS,
    SUBJECT_PRONOUNS,
    VERBS,
)
from pyramid.vocab import Term, Vocab, word_forms
from querying.planning.cues import one_of
from querying.planning.records import PLACEHOLDERS, Anchor
from querying.planning.vectors import QueryVectors
from querying.planning.weights import LIKENESS_MARGIN, SCHEMA_WORD
from querying.planning.wording import forms, masked

ALIAS_SHARE = 2           # datatype properties of a class that must share a word for it to be another name of the class
STEM = 5                  # a property word this long names the property inside a longer word too
MAX_ASKED_WORDS = 4       # words after "which"/"what" that may name the class asked for
TIED = 1e-6               # likenesses this close are one (a subclass reads as its class: it inherits it)
PERSON_NOUN = "person"    # the noun every person is, in the one form `forms` gives "people"


JOINERS = {"or", "and", ","}  # what joins two names of kinds into one choice ("a hospital or clinic")
VERB_OPENERS = SUBJECT_PRONOUNS | AUXILIARIES | MODALS | {"to"}  # what a verb, never a noun, follows
PHRASE_ENDS = STOPWORDS | PREPOSITIONS | AUXILIARIES | MODALS | RELATIVES  # words a noun phrase ends before


# English asks for things of a kind with an interrogative determiner ("which ward …"), with a request
# verb and a determiner ("Name the town of …", "List every ward …", "Give me the …") or with "who/what"
# and a copula before a definite noun ("Who is the lead clinician of …"): the noun phrase after it
ASKED_PHRASE = re.compile(
    r"\b(?:which|what)\s+(?P<which>.*)"
    rf"|^\W*(?:please\s+)?{one_of(REQUEST_VERBS)}\s+(?:(?:me|us)\s+)?{one_of(DETERMINERS | {'all', 'every', 'each'})}"
    r"\s+(?P<request>.*)"
    rf"|^\W*(?:who|what)\s+{one_of(COPULAS)}\s+(?:the|a|an)\s+(?P<copula>.*)", re.IGNORECASE)


def shared_word(vocab: Vocab, cls: Term) -> str | None:
    """The word the class's datatype properties share, when there is one ('course' whose properties
    are has_subject_code, has_subject_title … is also 'subject')."""
    counts: dict[str, int] = {}
    for p in vocab.properties_of(cls.iri, "datatype"):
        if p.domains and vocab.fit(cls.iri, p.domains) == 1.0:
            for w in set(p.words.split()) - PROPERTY_NAME_FUNCTION_WORDS:
                counts[w] = counts.get(w, 0) + 1
    alias = [w for w, n in sorted(counts.items(), key=lambda kv: -kv[1])
             if n >= ALIAS_SHARE and w not in cls.words.split()]
    return alias[0] if alias else None


def _verb_at(tokens: Sequence[str], i: int) -> bool:
    """The word at `i` follows what only a verb follows: a subject pronoun, "to", an auxiliary or a modal,
    or a named thing opening the question or following one of those ("does X work", "X works")."""
    before = tokens[i - 1] if i > 0 else ""
    if before in VERB_OPENERS:
        return True
    return before.upper() in PLACEHOLDERS and (i < 2 or tokens[i - 2] in VERB_OPENERS | {","})


def class_names(vocab: Vocab, cls: Term, last_words: dict[str, set[str]] | None = None,
                aliases: bool = True) -> tuple[str, ...]:
    """Every name of a class: its label, its local name, its other labels, each alternative of a name
    that offers two ("ward or unit": 'ward', 'unit'), its names' last word where no other class's name
    ends with it ("healthcare site": 'site' — English puts a name's kind last), the word its
    properties share (with `aliases`), and the noun a relation's name gives it ("made by studio":
    'studio')."""
    alternatives = cls.alternatives
    heads = {a.split()[-1] for a in alternatives if len(a.split()) > 1}
    last_words = last_words if last_words is not None else name_heads(vocab)
    others = {w for c, ws in last_words.items() if c != cls.iri for w in ws}
    unique = [h for h in sorted(heads) if forms(h) and forms(h)[0] not in others]
    alias = shared_word(vocab, cls) if aliases else None
    taken = others | {forms(a.split()[-1])[0] for a in alternatives if a.split()}
    given = [n for n in range_nouns(vocab).get(cls.iri, ()) if forms(n)[0] not in taken]
    return tuple(dict.fromkeys([cls.words, *alternatives, *unique, *([alias] if alias else []), *given]))


def name_heads(vocab: Vocab) -> dict[str, set[str]]:
    """Each class's names' last words (one form each): what `class_names` compares across classes."""
    return {c.iri: {forms(a.split()[-1])[0] for a in c.alternatives if a.split() and forms(a.split()[-1])}
            for c in vocab.classes}


def range_nouns(vocab: Vocab) -> dict[str, tuple[str, ...]]:
    """The nouns object properties give their ranges: a name that ends in a preposition and a noun
    ("made by *studio*", "belongs to *site*") names what it leads to by that noun — never an "of"
    complement ("country of *birth*" is a country) — where only one class is named so."""
    given: dict[str, set[str]] = {}
    for p in vocab.properties:
        words = p.words.split()
        if p.kind == "object" and len(p.ranges) == 1 and len(words) >= 3 and words[-2] in PREPOSITIONS \
                and words[-2] != "of" and words[-1] not in STOPWORDS | PREPOSITIONS:
            given.setdefault(words[-1], set()).add(p.ranges[0])
    out: dict[str, tuple[str, ...]] = {}
    for noun, ranges in sorted(given.items()):
        if len(ranges) == 1:
            out[next(iter(ranges))] = (*out.get(next(iter(ranges)), ()), noun)
    return out


def class_words(vocab: Vocab, cls: Term) -> str:
    """The class's name in one phrase, for the trace and the model: 'course (subject)'."""
    alias = shared_word(vocab, cls)
    return f"{cls.words} ({alias})" if alias else cls.words


def property_words(p: Term) -> str:
    """'has credit value' → 'credit value'; 'works for' stays."""
    return p.words.removeprefix("has ")


class SchemaNames:
    """The vocabulary's names, worked out once per planner, and the questions put to them: does a set
    of words name this class or property, which class do these words or the question's "which …" ask
    for, which classes of a set are the specific ones."""

    def __init__(self, vocab: Vocab, vectors: QueryVectors, aliases: bool = True) -> None:
        """`aliases`: a class is also named by the word its properties share (see `class_names`)."""
        self.vocab, self.vectors = vocab, vectors
        self.class_words = {c.iri: class_words(vocab, c) for c in vocab.classes}
        heads = name_heads(vocab)
        self.class_names = {c.iri: class_names(vocab, c, heads, aliases) for c in vocab.classes}
        # every class's and property's words: what a span naming the schema rather than a value says
        self.schema_words = sorted({*self.class_words.values(), *(property_words(p) for p in vocab.properties)})
        self._schema_forms = {f for w in self.schema_words for f in forms(w)}
        self._people_named = False

    def name_people(self) -> None:
        """Give "person" ("people", "persons") as a name to the class whose names read most as a person's,
        where no class is named so: "how many people work in X" asks for employees where the schema's
        only people are employees. Only a clear likeliest class (its subclasses read as it does; the
        next class at least `weights.LIKENESS_MARGIN` behind) is named so; worked out once, when a
        question first says the word (it embeds every class's name)."""
        if self._people_named:
            return
        self._people_named = True
        if self.person_class() is not None:
            return
        likeness = self.likeness({c.iri for c in self.vocab.classes}, PERSON, comments=True)
        best = max(likeness.values(), default=0.0)
        top = [c for c, v in likeness.items() if v >= best - TIED]
        # the likeliest classes' shared class: themselves when one is above the others ("physician" and
        # "surgeon" both read as people: the clinician they both are)
        shared = set.intersection(*({c, *self.vocab.ancestors(c)} for c in top)) if top else set()
        root = next((c for c in shared if not any(c in self.vocab.ancestors(o) for o in shared if o != c)), None)
        if root is None:
            return
        runner_up = max((v for c, v in likeness.items() if c != root and root not in self.vocab.ancestors(c)),
                        default=0.0)
        if best - runner_up >= LIKENESS_MARGIN:
            self.class_names[root] = (*self.class_names[root], PERSON_NOUN)

    def person_class(self) -> str | None:
        """The class named "person" by one of its names (see `name_people`), if one is."""
        return next((c for c, names in self.class_names.items() if any(forms(n) == (PERSON_NOUN,) for n in names)),
                    None)

    def schema_says(self, text: str) -> bool:
        """Every word of `text` is a word of some class's or property's name ("percentage" where a
        property is a pass percentage)."""
        return bool(forms(text)) and set(forms(text)) <= self._schema_forms

    def names(self, cls: str, words: set[str]) -> bool:
        """The words hold one of the class's names whole ("subjects" names COURSE, also called subject)."""
        return any(set(forms(n)) <= words for n in self.class_names.get(cls, ()) if forms(n))

    def names_property(self, prop: str, words: set[str]) -> bool:
        """The question's words hold a content word of the property's name, or a word built on it
        ("research", "researchers" for has_research_interest; "interested" for interest)."""
        term = self.vocab.get(prop)
        own = set(forms(property_words(term))) - STOPWORDS if term else set()
        # (either way round: "advises" says "advised", "teacher" says "teaches"; a stem this long is one word's)
        return any(w == p or min(len(p), len(w)) >= STEM and (w.startswith(p) or p.startswith(w))
                   for w in words for p in own)

    def likeness(self, classes: set[str], probe: str, *, comments: bool = False) -> dict[str, float]:
        """How much each class's name, or a name of a class above it, reads as `probe` says (cosine with
        english.PERSON, a person; english.PLACE, a place): an associate professor is a person because
        the schema says a professor is one. With `comments`, each name with what the class's comment
        says of it ("weaver. Someone who weaves rugs")."""
        order = sorted({a for c in classes for a in (c, *self.vocab.ancestors(c)) if a in self.class_words})
        if not order:
            return {}
        texts = [self.vocab.by_iri[c].text if comments else self.class_words[c] for c in order]
        sims = self.vectors.embed(texts) @ self.vectors.embed([probe])[0]
        own = dict(zip(order, map(float, sims)))
        return {c: max([own.get(c, 0.0)] + [own[a] for a in self.vocab.ancestors(c) if a in own]) for c in classes}

    def class_spans(self, question: str) -> list[tuple[int, int]]:
        """Words of the question that name a class of the schema ('faculty', 'subjects'): they say
        what is asked for, they are not values (PolyU has a position "Faculty")."""
        names = {w for c in self.vocab.classes for n in (*c.names, self.class_words[c.iri]) for w in
                 re.findall(r"\w+", n.lower())}
        return [(m.start(), m.end()) for m in re.finditer(r"\w+", question) if word_forms(m.group().lower()) & names]

    def specific(self, classes: set[str]) -> set[str]:
        """The classes that are not a superclass of another one in the set."""
        return {c for c in classes if not any(c in self.vocab.ancestors(o) for o in classes if o != c)}

    def short(self, iri: str) -> str:
        """A term's local name for the trace (the IRI when the vocabulary lacks it)."""
        t = self.vocab.get(iri)
        return t.name if t else iri

    def asked_words(self, question: str, anchors: Sequence[Anchor]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """What the question asks for in words (`ASKED_PHRASE`): its first few words after the asking word
        and their noun phrase, up to its first function word or named thing ("town" of "town of the
        hospital"), one form each; both empty when nothing is asked for by a noun."""
        found = ASKED_PHRASE.search(masked(question, anchors))
        if found is None:
            return (), ()
        words = re.findall(r"\w+", found.group(found.lastgroup or "which"))
        ends = [i for i, w in enumerate(words) if w.lower() in PHRASE_ENDS or w in PLACEHOLDERS]
        # after "which" a verb may come first ("which employs more staff"): no noun phrase is asked for
        verb_first = found.lastgroup == "which" and bool(words) and words[0].lower() in VERBS | AUXILIARIES
        phrase = [] if verb_first else words[:ends[0] if ends else len(words)][:MAX_ASKED_WORDS]
        return forms(" ".join(words[:MAX_ASKED_WORDS])), forms(" ".join(phrase))

    def asked_class(self, question: str, anchors: Sequence[Anchor]) -> str | None:
        """The class the question asks for by one of its names ("which subject …", "Name the town of …",
        "Who is the lead clinician of …"): the longest name the asked words begin with, else the longest
        one inside their noun phrase (a lead clinician is a clinician); None when those words name no
        class ("what is …", "which of …")."""
        after, phrase = self.asked_words(question, anchors)
        return self._longest_name(lambda nf: after[:len(nf)] == nf) or (self._longest_name(
            lambda nf: any(phrase[i:i + len(nf)] == nf for i in range(len(phrase)))) if phrase else None)

    def _longest_name(self, fits: Callable[[tuple[str, ...]], bool]) -> str | None:
        """The class with the longest name (one form per word) that `fits`."""
        best, size = None, 0
        for iri, names in self.class_names.items():
            for name in names:
                name_forms = forms(name)
                if name_forms and len(name_forms) > size and fits(name_forms):
                    best, size = iri, len(name_forms)
        return best

    def named_class_groups(self, text: str) -> list[set[str]]:
        """The classes a text names by one of their names, the most specific of each span, in groups:
        names joined by "or", "and" or a comma ("a hospital or clinic") are one group, any of which
        may be meant."""
        raw = re.findall(r"\w+|,", text)
        tokens = [forms(w)[0] if forms(w) else "" for w in raw]
        spans: list[tuple[int, int, str]] = []
        for iri, names in self.class_names.items():
            for name in names:
                nf = forms(name)
                spans += [(i, i + len(nf), iri) for i in range(len(tokens)) if nf and tuple(tokens[i:i + len(nf)]) == nf]
        # a class's name used as a verb ("does X *work* for", "to work") names no thing
        spans = [sp for sp in spans if not _verb_at([w.lower() for w in raw], sp[0])]
        # a span inside a longer one is that one's word ("nurse" in "clinical nurse specialist")
        spans = [s for s in spans if not any(o != s and o[0] <= s[0] and s[1] <= o[1] and o[1] - o[0] > s[1] - s[0]
                                             for o in spans)]
        groups: list[tuple[int, set[str]]] = []
        for start, end, iri in sorted(spans):
            joined = groups and all(t in JOINERS for t in tokens[groups[-1][0]:start])
            if joined:
                groups[-1] = (end, groups[-1][1] | {iri})
            else:
                groups.append((end, {iri}))
        return [self.specific(g) for _, g in groups]

    def class_named_by(self, words: str) -> str | None:
        """The class these few words name ("departments", "staff members"), by its names or nearly;
        of several, the one named by the most words ("undergraduate students" names the undergraduate
        student, not the student)."""
        if not words:
            return None
        word_set = set(forms(words))
        whole = [(len(own), c.iri) for c in self.vocab.classes for n in self.class_names[c.iri]
                 if (own := set(forms(n))) and own <= word_set]
        if whole:
            return max(whole, key=lambda t: t[0])[1]
        names = [(c.iri, n) for c in self.vocab.classes for n in self.class_names[c.iri]]
        sims = self.vectors.embed([n for _, n in names]) @ self.vectors.embed([words])[0]
        best = int(np.argmax(sims))
        return names[best][0] if sims[best] >= SCHEMA_WORD else None

    def attributes_said(self, words: set[str]) -> list[Term]:
        """The datatype properties the question names whole by one of their names of two or more content
        words ("email address", "room number"): one word alone ("name") is too common to say which."""
        return [p for p in self.vocab.properties if p.kind == "datatype" and p.domains and any(
            len(own := set(forms(n)) - STOPWORDS - {"has"}) >= 2 and own <= words for n in p.names)]

    def attribute_named_by(self, words: str) -> Term | None:
        """The datatype property these few words name ("research interests"), by its name's words."""
        word_set = set(forms(words))
        named = [p for p in self.vocab.properties if p.kind == "datatype" and p.domains
                 and (own := set(forms(property_words(p))) - STOPWORDS) and own <= word_set]
        return max(named, key=lambda p: len(p.words), default=None)
