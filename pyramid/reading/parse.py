"""Triples read off a dependency parse (spaCy `en_core_web_sm`), the KG `rules` reader.

    text → sentences and f_par (pyramid/reading/names.py: pronouns and "the <head word>" → the
    document's main entity) → spaCy parse of each resolved sentence → for every predicate (a verb,
    or a copula with its complement): its subjects × the objects it reaches, the relation being the
    words on the way, as written

What is read, by construction of the tree rather than by word lists:
- subject–verb–object, the relation being the verb group (auxiliaries, negation, particle) and the
  prepositions on the path to the object ("was drafted in", "fed on", "is taught by");
- passive voice and agents ("is offered by X"), copula + noun ("X is the capital of Y" → (X, is the
  capital of, Y); "X is an assistant professor in Y" → that, and (X, is an, assistant professor));
- a relational noun on the path folds into the relation when a name ends it ("built on the site of
  X", "recognized as one of the greatest examples of X"), and a short bare object folds into the
  relation of the preposition after it ("received her PhD from X", "hosts research groups in X");
- "The <noun> of X <verb> Y" → (X, <noun> <verb>, Y); "The <noun> <participle> in X is Y" →
  (Y, is the <noun> <participle> in, X); "Y's <noun> is Z" → (Y, <noun> is, Z);
- appositions ("Salt Lake City, Utah" → is in; "East Germany (the GDR)" → is; "his play, Death of a
  Salesman": the name stands for the noun), relative and participle clauses (", which studies X",
  "that won X", ", built on X": their subject is the noun they modify), conjunctions of subjects,
  verbs and objects (each object its own triple), numbers with their noun ("8 goals"; "a 3-credit
  subject" → (S, has credit, 3));
- a bare year is a qualifier, not an object ("won the Cup in 2019").

Spans are the parse's noun phrases (compounds, modifiers, name-internal "of" chains), NER telling
names from common nouns. No rule keys on a corpus's words. Nothing here calls a model;
`polyrag bench extraction` measures it against the regex rules of pyramid/reading/rules.py.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from pyramid.normalise import CODE_TOKEN as CODE
from pyramid.reading import rules
from pyramid.reading.english import (
    COPULAS,
    MEANS_PREPOSITIONS,
    NAME_PREPOSITIONS,
    POSSESSIVES_PERSON,
    POSSESSIVES_THING,
    RELATIVE_PRONOUNS,
    SPACY_MODEL,
    word_parser,
)
from pyramid.reading.names import MainEntity, main_entity, name_spans, resolve
from pyramid.reading.rules import ReadSentence, RuleTriple, _canonical
from pyramid.reading.sentences import split_sentences, tokenize
from pyramid.reading.values import YEAR as _YEAR

_NAME_LABELS = {"PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE"}
_DATE_LABELS = {"DATE", "TIME"}
_SUBJ = {"nsubj", "nsubjpass", "csubj", "csubjpass"}
_LEFT_MODS = {"compound", "amod", "nummod", "nmod", "quantmod", "npadvmod"}
MAX_BARE_WORDS = 4


nlp = word_parser  # the dependency parse this reader reads (english.word_parser)


# ------------------------------------------------------------------ spans
def _ent(tok) -> bool:
    return tok.ent_type_ in _NAME_LABELS and tok.ent_iob_ != "O"


def _is_name(tok) -> bool:
    return tok.pos_ == "PROPN" or _ent(tok) or bool(CODE.match(tok.text))


def _cap(tok) -> bool:
    return tok.text[:1].isupper() or tok.text[:1].isdigit()


def _same_entity(a, b) -> bool:
    """b continues the named entity a starts or is in ('San Francisco War Memorial and Performing Arts')."""
    lo, hi = sorted((a.i, b.i))
    return a.ent_iob_ != "O" and all(a.doc[i].ent_iob_ == "I" for i in range(lo + 1, hi + 1))


def _name_prep(prep) -> bool:
    """A preposition inside a name: 'Department of Computing', 'Rights of Man and of the Citizen',
    'Hôtel de Ville'; another preposition only inside one named entity ('Pulitzer Prize for Drama')."""
    pobj = [c for c in prep.children if c.dep_ == "pobj"]
    if not pobj or not _cap(pobj[0]) or pobj[0].pos_ not in ("PROPN", "NOUN", "NUM", "X"):
        return False
    if prep.lower_ in NAME_PREPOSITIONS:
        return True
    return _same_entity(prep.head, max(pobj[0].subtree, key=lambda t: t.i))


def _collect(head, keep: set[int], with_of: bool) -> None:
    keep.add(head.i)
    for c in head.lefts:
        if c.dep_ in _LEFT_MODS:
            keep.update(t.i for t in c.subtree if not (t.dep_ == "advmod" and t.head.dep_ in ("nummod", "quantmod")))
    name = _is_name(head)
    for c in head.rights:
        if c.dep_ == "prep" and (_name_prep(c) if name else (with_of and c.lower_ == "of" and c.i == head.i + 1)):
            _collect_prep(c, keep, with_of)
        elif c.dep_ == "compound" or (c.dep_ in ("nummod", "appos") and c.i == head.i + 1 and c.pos_ == "NUM"):
            keep.update(t.i for t in c.subtree)  # 'jersey number 1', 'Luna 2'
        elif c.dep_ == "conj" and name and _is_name(c) and (_same_entity(head, c) or (
                head.dep_ == "pobj" and head.head.lower_ == "of" and _is_name(head.head.head))):
            # one name with 'and' inside: 'Department of Accounting and Finance'
            keep.update(t.i for t in c.subtree)


def _collect_prep(prep, keep: set[int], with_of: bool) -> None:
    keep.add(prep.i)
    for c in prep.children:
        if c.dep_ == "pobj":
            _collect(c, keep, with_of)
        elif c.dep_ == "conj" and c.pos_ == "ADP":   # 'of Man and of the Citizen'
            _collect_prep(c, keep, with_of)


def np_tokens(head, *, with_of: bool = True) -> list:
    """The noun phrase of a head token: its left modifiers (not determiners or possessives), the head,
    a name's internal preposition chain ('Department of Computing'), a common noun's 'of' phrase when
    `with_of` ('evaluation of search systems')."""
    keep: set[int] = set()
    _collect(head, keep, with_of)
    toks = [head.doc[i] for i in range(min(keep), max(keep) + 1)]
    while toks and (toks[0].pos_ in ("DET", "PUNCT", "CCONJ", "ADP", "PRON") or toks[0].dep_ in ("predet", "case",
                                                                                                 "poss")
                    or toks[0].lower_ in ("no", "fewer", "than", "more", "least", "at")):
        toks = toks[1:]
    while toks and (toks[-1].pos_ in ("DET", "PUNCT", "CCONJ", "ADP") or toks[-1].dep_ == "case"):
        toks = toks[:-1]
    return toks


def _text(toks) -> str:
    out = ""
    for k, t in enumerate(toks):
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        adjacent = nxt is not None and nxt.i == t.i + 1 and t.i >= 0
        out += t.text + (t.whitespace_ if adjacent else " ")
    return " ".join(out.replace(" ,", ",").split())


def _has_name(tok) -> bool:
    return any(_is_name(t) for t in np_tokens(tok))


def _date_only(tok) -> bool:
    """A year ('in 2019', 'from 1997 to 2002') or a time ('from 8 pm') qualifies a fact; it is no object."""
    toks = np_tokens(tok)
    return bool(toks) and (all(_YEAR.match(t.text) or (t.ent_type_ in _DATE_LABELS and t.like_num) for t in toks)
                           or all(t.ent_type_ == "TIME" for t in toks))


def _conjuncts(tok) -> list:
    """The token and the ones coordinated with it after it, not those inside one name."""
    return [tok, *[c for c in tok.conjuncts if c.i > tok.i and not (_is_name(tok) and _same_entity(tok, c))]]


def _verb_group(p) -> list:
    """Auxiliaries, negation and particle around a predicate: 'was built', 'can look', 'fed on'."""
    words = [c for c in p.children if c.dep_ in ("aux", "auxpass", "neg") and c.i < p.i and c.lower_ != "to"]
    words.append(p)
    words += [c for c in p.children if c.dep_ == "prt"]
    return sorted(words, key=lambda t: t.i)


def _is_predicate(tok) -> bool:
    if tok.pos_ == "VERB" and tok.dep_ not in ("aux", "auxpass", "amod", "compound"):
        # a free participle ('..., combining X and Y') elaborates; it states no fact of its own
        return not (tok.dep_ == "advcl" and tok.tag_ == "VBG" and not any(c.dep_ in _SUBJ for c in tok.children))
    return tok.pos_ == "AUX" and tok.dep_ not in ("aux", "auxpass") and \
        any(c.dep_ in ("attr", "acomp", "prep", "oprd") for c in tok.children)


def _copula(p) -> bool:
    return p.pos_ == "AUX" and p.lower_ in COPULAS


class _Word:
    """A word that is no token of the sentence (a relation prefix)."""

    def __init__(self, text: str) -> None:
        self.text, self.whitespace_, self.i = text, " ", -1


# ------------------------------------------------------------------ the reading of one sentence
class _Reader:
    def __init__(self, sent, k: int, main: MainEntity | None) -> None:
        self.sent, self.k, self.main = sent, k, main
        self.out: list[RuleTriple] = []
        self.done_subjects: set[int] = set()
        self.folded: set[int] = set()   # participles read as part of a relation ('the language spoken in')
        self.sub = self._resolution()

    # -- f_par on the tree: what stands for the main entity
    def _resolution(self) -> dict[int, str]:
        """Tokens that stand for the main entity, by names.resolve's policy: he/she (a person or an
        entity of unknown kind), it (not a person), his/her/its before a subject's noun, 'the/this
        <head word>' not followed by 'of'; and a mention of the entity's own name."""
        main, out = self.main, {}
        if main is None:
            # 'X won the Cup, where he scored': he/she is the sentence's first person named as a subject
            person = next((t for t in self.sent if t.dep_ in _SUBJ and t.ent_type_ == "PERSON"), None)
            if person is not None:
                for t in self.sent:
                    if t.lower_ in ("he", "she") and t.i > person.i:
                        out[t.i] = self.name(person)
            return out
        person_ok, thing_ok = main.person or not main.heads, not main.person
        for t in self.sent:
            low = t.lower_
            if (person_ok and low in ("he", "she")) or (thing_ok and low == "it"):
                out[t.i] = main.name
            elif t.dep_ == "poss" and ((person_ok and low in POSSESSIVES_PERSON) or
                                       (thing_ok and low in POSSESSIVES_THING)):
                out[t.i] = main.name
            elif t.pos_ == "NOUN" and low in main.heads and any(c.dep_ == "det" and c.lower_ in ("the", "this")
                                                                 for c in t.children) and \
                    not any(c.dep_ == "prep" and c.lower_ == "of" for c in t.children):
                out[t.i] = main.name
        return out

    def name(self, tok, with_of: bool = True) -> str:
        if tok.i in self.sub:
            return self.sub[tok.i]
        return _text(np_tokens(tok, with_of=with_of))

    def add(self, s: str, r: str, o: str) -> None:
        r = " ".join(r.split())
        if s and r and o and s.lower() != o.lower():
            self.out.append(RuleTriple(s, r, o, self.k))

    # -- subjects
    def subjects(self, p, depth: int = 0) -> list:
        if depth > 4:
            return []
        subj = [c for c in p.children if c.dep_ in _SUBJ]
        if subj:
            s = subj[0]
            if s.lower_ in RELATIVE_PRONOUNS and p.dep_ == "relcl":
                return _conjuncts(p.head)
            return _conjuncts(s)
        if p.dep_ in ("relcl", "acl"):
            head = p.head
            if head.dep_ == "attr" and _copula(head.head):
                return self.subjects(head.head, depth + 1)   # 'X is a subject offered by Y'
            return [head]
        if p.dep_ in ("conj", "xcomp", "advcl", "pcomp", "ccomp"):
            h = p.head
            while h.dep_ == "prep":
                h = h.head
            return self.subjects(h, depth + 1) if h.pos_ in ("VERB", "AUX") else []
        return []

    def subject_text(self, s, copula: bool) -> tuple[str, str]:
        """(subject, relation prefix): 'The primary diet of jaguars' → ('jaguars', 'primary diet');
        "its head" (copula) → (the entity, 'head'); 'The primary material used in the construction of
        X is' → ('X', 'primary material used in the construction of'); a definite common noun of a
        copula in a document about one entity ('The prerequisite is X') → (the entity, 'prerequisite')."""
        if s.i in self.sub:
            return self.sub[s.i], ""
        if s.pos_ == "PRON":
            return "", ""   # a pronoun that names nobody known
        if _is_name(s) or s.pos_ == "NUM":
            return self.name(s), ""
        noun = _text(np_tokens(s, with_of=False))
        of = [c for c in s.children if c.dep_ == "prep" and c.lower_ == "of"]
        pobj = [c for c in of[0].children if c.dep_ == "pobj"] if of else []
        if pobj:
            return self.name(pobj[0]), noun
        poss = [c for c in s.children if c.dep_ == "poss"]
        if poss and (poss[0].i in self.sub or poss[0].pos_ != "PRON"):
            owner = self.name(poss[0])
            if copula:
                return owner, noun
            if poss[0].pos_ != "PRON":
                self.add(owner, "has", noun)
            return noun, ""
        for acl in (c for c in s.children if c.dep_ == "acl"):
            names = [t for t in acl.subtree if _is_name(t) and t.dep_ == "pobj"]
            if names:
                self.folded.add(acl.i)
                n = names[-1]
                first = min(t.i for t in np_tokens(n))
                words = [t for t in s.doc[min(x.i for x in s.subtree):first]
                         if t.dep_ not in ("det", "punct") and t.i not in self.sub]
                return self.name(n), _text(words)
        definite = any(c.dep_ == "det" and c.lower_ == "the" for c in s.children)
        if copula and definite and self.main is not None and len(noun.split()) <= 2 and \
                not any(c.dep_ in ("acl", "relcl", "prep") for c in s.children) and \
                any(c.dep_ == "attr" and _has_name(c) for c in s.head.children):
            return self.main.name, noun
        return noun, ""

    # -- objects
    def objects(self, node, rel: list, subj: str, copula: bool, fronted: int = -1, named: bool = False) -> None:
        """Walk from a predicate (or a preposition, complement) to the noun phrases it reaches."""
        kids = sorted(node.children, key=lambda t: t.i)
        bare = None   # a short bare object that folds into the relation of a preposition after it
        first_obj = None
        for c in kids:
            if c.i < fronted and not any(_is_name(t) for t in c.subtree):
                continue   # 'In addition to X, S ...': a fronted phrase frames the sentence
            if c.dep_ in ("dobj", "attr", "oprd", "dative") and c.pos_ in ("NOUN", "PROPN", "NUM", "X", "ADJ"):
                if c.lower_ in RELATIVE_PRONOUNS:
                    continue
                if c.dep_ == "dobj" and self._bare(c) and any(
                        k.dep_ == "prep" and k.i > c.i and self._reaches(k) and k.lower_ not in MEANS_PREPOSITIONS for k in kids):
                    bare = c
                    continue
                first_obj = first_obj or c
                for o in _conjuncts(c):
                    self.obj(o, rel, subj, copula and c.dep_ == "attr")
            elif c.dep_ == "conj" and c.pos_ in ("NOUN", "PROPN") and first_obj is not None:
                self.obj(c, rel, subj, False)   # an object list the parser hung on the verb
            elif c.dep_ in ("prep", "agent"):
                if any(k.dep_ == "pcomp" and k.pos_ == "VERB" for k in c.children) and node.pos_ == "VERB" and \
                        not any(k.dep_ == "pobj" for k in c.children):
                    # 'before joining X', 'by building Y': a clause of its own under the same subject
                    for k in c.children:
                        if k.dep_ == "pcomp":
                            self.objects(k, _verb_group(k), subj, False)
                    continue
                folds = bare is not None and c.lower_ not in MEANS_PREPOSITIONS
                words = rel + (np_tokens(bare, with_of=False) if folds else []) + [c]
                self.prep(c, words, subj)
            elif c.dep_ == "acomp":
                if any(k.dep_ in ("prep", "xcomp") for k in c.children):
                    self.objects(c, rel + [c], subj, False)
                elif copula and c.pos_ == "ADJ" and named and not any(k.dep_ == "advmod" for k in c.children):
                    # 'The colour of X is red and white': the adjectives are the value
                    self.add(subj, _text(rel), _text(list(c.subtree)))
            elif c.dep_ == "xcomp" and c.pos_ in ("VERB", "AUX"):
                to = [t for t in c.children if t.dep_ == "aux" and t.lower_ == "to"]
                self.objects(c, rel + to + _verb_group(c), subj, False)

    def preps_of(self, o) -> list:
        """Prepositions saying something of an object: its own after it, those hung on a word of its
        name ('the Faculty of Engineering at X'), and a first conjunct's placed after this, the last
        one ('a professor and head of X': 'of X' is the head's)."""
        span = np_tokens(o, with_of=False) if not _is_name(o) else np_tokens(o)
        end = max([o.i, *(t.i for t in span)])
        out = [c for t in [o, *span] for c in t.children if c.dep_ == "prep" and c.i > end]
        later = [c for c in o.conjuncts if c.i > o.i]
        if later:
            out = [c for c in out if c.i < min(x.i for x in later)]
        else:
            for first in (c for c in o.conjuncts if c.i < o.i):
                out += [c for c in first.children if c.dep_ == "prep" and c.i > o.i]
        return sorted(set(out), key=lambda t: t.i)

    def _bare(self, tok) -> bool:
        """A short object with no article, number or name ('research groups in', 'her PhD from'): it
        says how the verb relates, not what to."""
        if tok.conjuncts or len(np_tokens(tok, with_of=False)) > MAX_BARE_WORDS:
            return False
        if any(c.dep_ == "poss" and c.pos_ == "PRON" for c in tok.children):
            return True
        if _is_name(tok) or tok.pos_ != "NOUN":
            return False
        return not any(c.dep_ in ("det", "nummod", "poss") for c in tok.children)

    def _reaches(self, prep) -> bool:
        return any(c.dep_ in ("pobj", "pcomp") and not _date_only(c) and c.pos_ != "ADJ" for c in prep.children)

    def prep(self, prep, rel: list, subj: str) -> None:
        for c in prep.children:
            if c.dep_ == "pobj":
                if c.pos_ == "ADJ":
                    continue   # 'in particular'
                for o in _conjuncts(c):
                    self.obj(o, rel, subj, False)
            elif c.dep_ == "pcomp":
                if c.pos_ in ("VERB", "AUX"):
                    self.objects(c, rel + _verb_group(c), subj, False)
                else:
                    self.prep(c, rel + [c], subj)
            elif c.dep_ == "prep":   # 'out of', 'from under'
                self.prep(c, rel + [c], subj)
            elif c.dep_ == "conj" and c.pos_ == "ADP":   # 'published in X and at Y'
                self.prep(c, rel[:-1] + [c], subj)

    def obj(self, o, rel: list, subj: str, attr: bool) -> None:
        """One object: emitted, or folded into the relation when it is a relational noun on the way
        to a name ('the site of X', 'one of the greatest examples of X', 'the captain of X')."""
        if o.i in self.sub:
            self.add(subj, _text(rel), self.sub[o.i])
            return
        if o.pos_ == "PRON" or _date_only(o):
            return
        rel_text = _text(rel)
        appos = [c for c in o.children if c.dep_ == "appos"]
        if appos and not _is_name(o) and _is_name(appos[0]):
            self.add(subj, rel_text, self.name(appos[0]))   # 'his play, Death of a Salesman': the name
            return
        name = _is_name(o)
        preps = self.preps_of(o)
        acls = [c for c in o.children if c.dep_ == "acl" and c.pos_ == "VERB"]
        det = [c.lower_ for c in o.children if c.dep_ == "det"]
        indefinite = bool(det) and det[0] in ("a", "an")
        relational = not name and (o.pos_ == "NUM" or o.lower_ == "one" or "the" in det or attr)
        fold = [p for p in preps if relational and self._reaches(p) and p.lower_ not in MEANS_PREPOSITIONS and
                any(_is_name(t) for t in p.subtree)]
        fold_acl = [a for a in acls if relational and "the" in det and any(_is_name(t) for t in a.subtree)]
        bare = not name and not attr and not indefinite and self._bare(o) and \
            any(self._reaches(p) and p.lower_ not in MEANS_PREPOSITIONS for p in preps)
        self.folded.update(a.i for a in fold_acl)
        if fold or fold_acl or bare:
            if attr and indefinite:   # 'is an assistant professor in X' also says what S is
                self.add(subj, rel_text, self.name(o, with_of=False))
            head_words = [_Word(t.lower_) if t.dep_ == "det" else t for t in o.subtree
                          if t.i <= o.i and t.dep_ not in ("punct", "poss")]
            for p in fold or ([] if fold_acl else [p for p in preps if self._reaches(p) and p.lower_ not in MEANS_PREPOSITIONS]):
                self.prep(p, rel + head_words + [p], subj)
            for a in fold_acl:
                self.objects(a, rel + head_words + _verb_group(a), subj, False)
            return
        text = self.name(o, with_of=not name)
        owner = [c for c in o.children if c.dep_ == "poss" and c.pos_ != "PRON"]
        if owner and not name:   # "leads the department's research centre": the department has one
            self.add(self.name(owner[0]), "has", self.name(o, with_of=False))
        for m in o.subtree:   # 'a 3-credit subject' → (S, has credit, 3)
            hit = re.match(r"^(\d+(?:\.\d+)?)-([a-z]+)$", m.text)
            if hit and m.i < o.i:
                self.add(subj, f"has {hit.group(2)}", hit.group(1))
        self.add(subj, rel_text, text)
        for c in o.children:
            if c.dep_ == "appos" and _is_name(c) and name:
                self.appos(o, c)
            elif c.dep_ == "appos" and not name and c.pos_ == "NOUN":
                self.add(subj, rel_text, self.name(c))   # 'quantum optics, single-photon sources'
        for p in preps:
            if not self._reaches(p):
                continue
            if not name and p.lower_ != "of" and indefinite and not attr:
                self.prep(p, [p], text)   # 'operates a teaching observatory on the roof of X': where it is
            elif name and p.lower_ in ("at", "in") and any(_is_name(t) for t in p.subtree):
                self.prep(p, [p], text)   # 'the Faculty of Engineering at X'

    def appos(self, a, b) -> None:
        """'Salt Lake City, Utah' → is in (a place after a comma says where); 'East Germany (the GDR)' → is."""
        paren = any(t.text == "(" for t in a.doc[a.i:b.i])
        place = b.ent_type_ in ("GPE", "LOC") and not paren
        self.add(self.name(a), "is in" if place else "is", self.name(b))

    # -- the sentence
    def read(self) -> list[RuleTriple]:
        for tok in self.sent:
            if tok.dep_ == "appos" and _is_name(tok) and _is_name(tok.head) and tok.head.dep_ in _SUBJ | {"ROOT"}:
                self.appos(tok.head, tok)
        preds = [p for p in self.sent if _is_predicate(p)]
        for p in sorted(preds, key=lambda p: not _copula(p)):   # inverted copulas claim their subject first
            self.predicate(p)
        seen, out = set(), []
        for t in self.out:
            key = (t.subject.lower(), t.relation.lower(), t.object.lower())
            if key not in seen:
                seen.add(key)
                out.append(t)
        return out

    def predicate(self, p) -> None:
        copula = _copula(p)
        if (p.dep_ in ("relcl", "acl") and p.head.i in self.done_subjects) or p.i in self.folded:
            return
        subjects = self.subjects(p)
        if not subjects:
            return
        vg = _verb_group(p)
        fronted = min((s.i for s in subjects if s.head == p), default=-1)
        for s in subjects:
            if copula and s.dep_ in _SUBJ and self.inverted(p, s):
                continue
            name, prefix = self.subject_text(s, copula)
            if not name:
                continue
            rel = ([_Word(prefix)] if prefix else []) + vg
            named = bool(prefix) or _is_name(s) or s.i in self.sub
            self.objects(p, rel, name, copula, fronted, named)

    def inverted(self, p, s) -> bool:
        """'The primary language spoken in X is Y' → (Y, is the primary language spoken in, X); 'The first
        object to reach X was Y' → (Y, was the first object to reach, X): a described subject, a name
        as complement."""
        attrs = [c for c in p.children if c.dep_ == "attr" and _has_name(c)]
        mods = [c for c in s.children if c.dep_ in ("acl", "relcl")]
        if _is_name(s) or not attrs or not mods or s.i in self.sub:
            return False
        self.done_subjects.add(s.i)
        before = [_Word(t.lower_) if t.dep_ == "det" else t for t in s.subtree
                  if t.i <= s.i and t.text not in (",", "(", ")")]
        if not any(t.text in ("the", "a", "an") for t in before):
            before = [_Word("the"), *before]
        found = _Reader(self.sent, self.k, self.main)
        for m in mods:
            aux = [t for t in m.children if t.dep_ == "aux"]
            found.objects(m, [p, *before, *aux, m], self.name(attrs[0]), False)
        self.out += found.out
        return bool(found.out)


def parse_triples(sent, k: int = 0, main: MainEntity | None = None) -> list[RuleTriple]:
    """Triples of one parsed sentence (pronouns and 'the <head word>' read as the main entity)."""
    return _Reader(sent, k, main).read()


def triples_of(sentence: str, main: MainEntity | None = None) -> list[RuleTriple]:
    """Parse one sentence and read its triples (tests, one-off use)."""
    return parse_triples(nlp()(sentence), 0, main)


def read(text: str, title: str = "") -> list[ReadSentence]:
    """pyramid.reading.rules.read with the parse's triples instead of the regex rules' (the same sentences,
    resolved text and candidate spans for the model). The parser reads the sentence as written, its
    pronouns resolved on the tree by the same policy (a parse of "X's head is" is worse than of
    "Its head is")."""
    main = main_entity(text, title)
    sents = split_sentences(text)
    out = []
    for k, (s, doc) in enumerate(zip(sents, nlp().pipe([x.text for x in sents]), strict=True)):
        resolved = resolve(s.text, main)
        triples = [_canonical(t, main) for t in parse_triples(doc, k, main)]
        out.append(ReadSentence(k, s.text, resolved, name_spans(tokenize(resolved)), triples))
    return out


def read_with(reader: str, text: str, title: str = "") -> list[ReadSentence]:
    """Sentences read by `reader` (pyramid.kg.extractors READERS): regex, parse, or both (the parse's
    triples after the rules', per sentence)."""
    if reader == "regex":
        return rules.read(text, title)
    parsed = read(text, title)
    if reader == "parse":
        return parsed
    for a, b in zip(rules.read(text, title), parsed, strict=True):
        b.triples = a.triples + [t for t in b.triples if t not in a.triples]
    return parsed


# Part of the KG extractor's version: a change here re-extracts old journals.
PARSE_VERSION = hashlib.sha256(Path(__file__).read_bytes() + SPACY_MODEL.encode()).hexdigest()[:12]
