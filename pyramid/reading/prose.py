"""Prose read by a dependency parser (spaCy's en_core_web_sm): in a sentence whose subject is the page's
entity (its name, or a pronoun or "the department", "this subject" standing for it), every value the verb
reaches — an object, the object of a preposition, a copula's complement, a number with its noun ("a level
2 subject of 3 credits") — with the words that lead to it from the verb as its context ("obtained …
from", "belongs to", "level"). A count whose noun may mean one of the schema's properties is kept from a
sentence about someone else too ("Students who pass gain 3 credits"), marked as said aside."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace

from pyramid.normalise import BRACKETED_CODE, codes_in, fold, name_key, strip_titles
from pyramid.reading.english import (
    CARDINALS,
    DEFINITE_DETERMINERS,
    ENTITY_PRONOUNS,
    FINITE_VERB_TAGS,
    MONTHS,
    NAME_HEAD_PREPOSITIONS,
    NAME_PREPOSITIONS,
    NAME_RUN_JOINERS,
    PARTITIVE_HEADS,
    PREDICATE_OPENING_TAGS,
    PREDICATIVE_AS,
    SUBJECT_PRONOUNS,
    TITLES,
    parser,
    past_participle,
)
from pyramid.reading.identity import without_code
from pyramid.reading.page import Segment
from pyramid.reading.terms import is_date, phone_spans, shape_of
from pyramid.reading.values import YEAR

_ENTITY_LABELS = {"ORG", "FAC", "GPE", "LOC", "NORP", "PERSON"}  # NER kinds that name a thing
_VALUE_DEPS = ("dobj", "pobj", "attr", "oprd", "acomp", "appos")  # a verb reaches a value through these
_WORD_NUMBER = re.compile(r"^([^\W\d_]{3,})-(\d+)$")  # "level-6", "year-2": a word and its number as one token
NAME_SHARE = 0.5          # a subject holding this share of the title's name words names the page's entity
COUNTED_WORDS_BEFORE = 2  # the nouns this close before a number ("level 3 subject") go with what it counts
MIN_LIST_COMMAS = 2       # a broken-up comma list has at least this many commas ("a, b, c")
LONG_LIST_COMMAS = 4      # a list this long after its verb is read from that verb, wherever the parser roots it
SHORT_NAME_CHARS = 3      # a one-word name this short is too likely a plain word to be stood in by "It"
_SENTENCE_ENDS = ".!?:;"     # the marks that may end a sentence in prose
_CLOSERS = "\"'”’)]"          # closing quotes and brackets, which stay with the sentence they close
_KEPT_PUNCTUATION = "-'&()"  # marks a value keeps inside it ("Hong Kong-based", "Arts & Design", "(HK)")


class ProseReader:
    """What a page's sentences state about its entity: the parser's tree read from the verb down."""

    def __init__(self, names_thing: Callable[[str], bool],
                 class_word: Callable[[str], str | None] = lambda text: None,
                 kind_word: Callable[[str], str | None] | None = None, known_names: Iterable[str] = ()) -> None:
        self._names_thing = names_thing  # the words name a thing of the schema's classes (a class word, a title)
        self.class_word = class_word    # the class a name's own words say ("Department of …"), if any
        # the class a common noun names: a class's word, or a class name's head ("departments")
        self.kind_word = kind_word or class_word
        # names the corpus gives its pages that a parser splits ("Topics in Genetics", "Introduction to …")
        self._known = _known_names_pattern(known_names)
        self._stood: dict[str, str] = {}   # this page's stand-ins for them while it is parsed

    def names_thing(self, text: str) -> bool:
        return self._names_thing(_restored(text, self._stood) if self._stood else text)

    @property
    def nlp(self):
        """spaCy's small English pipeline (tagger, parser, NER), from its PyPI package; loaded on the
        first page with prose."""
        return parser()

    def verbless(self, text: str) -> bool:
        """The words hold no finite verb: a value said as a sentence ("The Department of X.", "Mostly
        a, b using c and d."), not a clause; a participle inside a noun phrase ("methods using x") is no
        clause's verb."""
        return not any(t.tag_ in FINITE_VERB_TAGS for t in self.nlp(text))

    def nounish(self, text: str) -> bool:
        """The words hold no verb of any form: a label or a name, not a clause ("News release", not "Posted")."""
        return not any(t.pos_ in ("VERB", "AUX") for t in self.nlp(text)) if text.strip() else True

    def predicate_only(self, text: str) -> bool:
        """A clause with its subject left out, as lists of a thing's points write them ("Run by the
        council", "Holds up to 70", "In the old town"): it opens with a verb that is no gerund (a topic
        such as "Learning analytics" is a noun phrase) or with a preposition."""
        doc = self.nlp(text)
        if len(doc) < 2:
            return False
        if doc[0].tag_ in PREDICATE_OPENING_TAGS or doc[0].pos_ == "ADP":
            return True
        # a capitalised verb alone at the start reads as a noun to the tagger ("Lies in …"): with a subject
        # before it, a verb that agrees with "it" shows itself
        said = self.nlp(f"It {text[:1].lower()}{text[1:]}")
        return len(said) > 2 and said[1].tag_ == "VBZ"

    def answered(self, text: str, title: str) -> str | None:
        """What an answer said as a clause about something other than the entity states: a name said to be
        what was asked ("Ann Lee is the head of service." → "Ann Lee") or doing something to the entity
        ("Ann Lee manages the centre." → "Ann Lee"), else its end ("Collection day is
        Wednesday." → "Wednesday", "Postcodes there begin HF1." → "HF1"; English puts the new word last).
        None where the clause's subject stands for the entity (the sentence is read as prose) or the clause
        ends in no object, complement or prepositional object."""
        doc = self.nlp(text)
        root = next(iter(doc.sents)).root if len(doc) else None
        subjects = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")] if root is not None else []
        if root is None or root.pos_ not in ("VERB", "AUX") or len(subjects) != 1 or subjects[0].pos_ == "PRON" or \
                (subjects[0].pos_ == "PROPN" and self._about_entity(subjects[0], title)) or \
                self._named_whole(subjects[0], title):
            # (a common noun in an answer, "the gauge there", is the thing asked about, not the entity; a title
            # the tagger takes for common nouns, "Readings in Biochemistry is …", is the entity's name)
            return None
        if subjects[0].pos_ == "PROPN" and root.lemma_ == "be":
            return _name_run(_span(subjects[0])).text.strip(" ,.") or None
        if subjects[0].pos_ == "PROPN" and any(c.dep_ == "dobj" and self._about_entity(c, title) for c in root.children):
            # "Harbour Launches operates the route.", "Ann Lee manages it.": the name doing it to the entity (the
            # proper nouns before the subject are its name, however the parser hangs them)
            start = subjects[0].i
            while start > 0 and doc[start - 1].pos_ == "PROPN":
                start -= 1
            return doc[start:subjects[0].i + 1].text.strip(" ,.") or None
        if subjects[0].pos_ != "NOUN":
            return None
        ends = [c for c in root.children if c.dep_ in ("dobj", "attr", "oprd")]
        ends += [o for c in root.children if c.dep_ in ("prep", "agent") for o in c.children if o.dep_ == "pobj"]
        last = max(ends, key=lambda t: t.right_edge.i, default=None)
        if last is None:
            return None
        start = last.left_edge.i
        if start > 2 and doc[start - 1].text == ")" and doc[start - 3].text == "(" and \
                shape_of(doc[start - 3:last.right_edge.i + 1].text) is not None:
            start -= 3  # a bracketed group the value is dialled with: "(555) 342-6916", not "342-6916"
        return doc[start:last.right_edge.i + 1].text.strip(" ,.") or None

    def without_lead_words(self, text: str) -> str:
        """An answer without the adverbs, determiners and prepositions that open it ("Mostly a, b and c"
        → "a, b and c", "The Department of X" → "Department of X", "On the Heron Ward" → "Heron Ward",
        "Since 2004" → "2004"): the question said the relation, the answer its value."""
        doc = self.nlp(text)
        lead = next((t.i for t in doc if t.pos_ not in ("ADV", "DET", "ADP")), len(doc))
        return doc[lead:].text if 0 < lead < len(doc) else text

    def read(self, prose: list[str], title: str) -> tuple[list[Segment], list[str]]:
        """The values the sentences state, and the sentences themselves (for what is left over: the
        description). The page's name is stood in by a pronoun before parsing (`_stand_in`)."""
        out: list[Segment] = []
        sentences: list[str] = []
        if prose:
            text, addresses = _addresses_stood_in(_stand_in(" ".join(_closed(p) for p in prose), title))
            # (a coded title's name without its code is the page's own, parsed as written and matched as its name:
            # "CHEM 360 — Foundations of Physical Chemistry" says "Foundations of Physical Chemistry is a course …")
            text, self._stood = _names_stood_in(text, self._known, {name_key(without_code(title) or title)})
            try:
                doc = parse_in_sentences(self.nlp, text)
                for n, sent in enumerate(doc.sents):
                    sentences.append(_restored(_restored(sent.text.strip(), self._stood), addresses))
                    if sent.text.strip().endswith("?"):
                        continue  # a question states nothing ("Where did X study as an undergraduate?")
                    said = [_address_restored(_name_restored(seg, self._stood), addresses)
                            for seg in self._sentence(sent, title, n)]
                    out += list(dict.fromkeys(said))  # one sentence says a thing once, however it is reached
            finally:
                self._stood = {}
        return out, sentences


    @staticmethod
    def _named_whole(subject, title: str) -> bool:
        """The subject's phrase is the entity's whole name, word for word."""
        return bool(name_key(title)) and name_key(_span(subject).text) == name_key(title)

    def _about_entity(self, subject, title: str) -> bool:
        """The sentence's subject stands for the page's entity: a pronoun ("it", "she"), the entity's
        name, or a definite common noun phrase ("the department", "this painting") — not a phrase
        naming someone else ("her student Ola Berg")."""
        if subject.pos_ == "PRON":
            return True
        span = _span(subject)
        if subject.head.i > subject.i:
            # the subject's own phrase ends at its verb: an apposition the parser hangs on it from
            # further right ("The research of X spans a; [b], c") is not part of it
            span = span.doc[span.start:max(subject.i + 1, min(span.end, subject.head.i))]
        words = set(fold(span.text).split()) - ENTITY_PRONOUNS
        if not words:
            return True
        key = set(name_key(title).split())
        named = set(name_key(span.text).split())  # "Wai-ming" is two of the name's words, as in its key
        if key and len(named & key) / len(key) >= NAME_SHARE:
            return True
        if codes_in(span.text) and words <= key:
            return True  # the entity's code alone stands for it ("AAE1002 carries 3 credits")
        if words <= key and all(t.pos_ == "PROPN" or t.is_upper for t in span if t.is_alpha) and \
                self.class_word(title) is None:
            # part of the entity's own name, as a proper noun ("Wen has published on …" on Chih-yung Wen's
            # page): a name with no class word in it is called by its parts (a surname in capitals, "WEN",
            # is one whatever the tagger makes of it)
            return True
        determined = any(t.dep_ == "det" and t.lower_ in DEFINITE_DETERMINERS for t in span)
        # or a thing of the entity's: "its projects", "current projects by X" (X stood in by a pronoun)
        # ("her bachelor's degree": the pronoun is the possessive noun's)
        owned = any(c.dep_ == "poss" and (c.pos_ == "PRON" or c.pos_ == "NOUN" and
                                          any(k.dep_ == "poss" and k.pos_ == "PRON" for k in c.children)) or
                    c.dep_ == "prep" and any(o.dep_ == "pobj" and o.pos_ == "PRON" for o in c.children)
                    for c in subject.children)
        # the noun's own words decide, not what is said after it ("The actor, born in Canada, …")
        return subject.pos_ == "NOUN" and (determined or owned) and \
            not any(t.pos_ == "PROPN" for t in span if t.i <= subject.i)

    def _clause(self, sent, title: str) -> tuple | None:
        """The clause about the page's entity — its verb, its subjects, and the words the subjects take
        up (no values of their own) —, or None when the sentence's subject is someone else."""
        root = _lead_verb(sent) or sent.root
        subjects = [t for t in root.children if t.dep_ in ("nsubj", "nsubjpass")]
        if subjects and _extraposed(subjects[0], root):
            return None  # "It is a privilege to serve …": the "it" stands for the clause after, not the entity
        if subjects and not self._about_entity(subjects[0], title):
            # what someone reports of the entity ("Records show that it is home to X", "Officials said it
            # has 20 beds"): the reported clause is the sentence about it
            reported = next((c for c in root.children if c.dep_ == "ccomp" and any(
                k.dep_ in ("nsubj", "nsubjpass") and self._about_entity(k, title) for k in c.children)), None)
            if reported is None:
                return None
            root = reported
            subjects = [t for t in root.children if t.dep_ in ("nsubj", "nsubjpass")]
        taken = {t.i for s in subjects for t in s.subtree if t.i < root.i}
        # … but a clause said of the entity's stand-in ("The ward, which is part of X, …") states its facts
        taken -= {t.i for s in subjects for c in s.children if _relative_on(c) for t in c.subtree}
        # … but not the words in apposition to the entity's stand-in ("It, Senior Lecturer, teaches …"), nor a
        # participle said of it ("The actor, born in 1943 in Canada, has …")
        taken -= {t.i for s in subjects if s.lower_ == "it" for a in s.children if a.dep_ == "appos" for t in a.subtree}
        taken -= {t.i for s in subjects for a in s.children if a.dep_ == "acl" and a.tag_ == "VBN" for t in a.subtree}
        # … nor what the stand-in's own phrase says of it: "Lecturer It of the Department of X presented …"
        taken -= {t.i for s in subjects if s.lower_ == "it" for a in s.children if a.dep_ == "prep" for t in a.subtree}
        return root, subjects, taken

    def _sentence(self, sent, title: str, n: int) -> list[Segment]:
        """What a sentence about the page's entity states: every value its verb reaches (an object, a
        preposition's object, a copula's complement, a number with its noun), with the words that lead
        there. Values inside a clause with a subject of its own ("… that costs account for one third")
        are about something else."""
        found = self._clause(sent, title)
        if found is None:
            root = _lead_verb(sent) or sent.root
            subject = next(t for t in root.children if t.dep_ in ("nsubj", "nsubjpass"))
            return self._entity_as_object(sent, subject, title, n) + _counts_aside(sent, n) + \
                self._addresses_given(sent, title, n)
        root, subjects, taken = found
        # the entity's stand-in may be the subject, or the root of a sentence the parser lost ("It, who is a
        # physician, qualified …")
        holders = subjects + ([root] if root.lower_ == "it" else [])
        out: list[Segment] = [k for s in holders for rel in s.children if rel.dep_ == "relcl"
                              for k in _kind_in_relative(rel, n)] + self._kinds_named(sent, subjects, root, n)
        out += _whole_value_segments(sent, root, subjects, taken, n) + _title_before(subjects, n) + \
            _said_in_description(subjects, n)
        listed = _list_segment(sent, root, subjects, n)
        if listed is not None:
            out.append(listed[0])
            taken.update(listed[1])
        # a name the parser hangs from its last word ("by the Department of X and Y Engineering": "Department"
        # a modifier of "Engineering") is the value of that word: the objects inside it are no values of their own
        inner = {t.i for e in sent.ents if e.label_ in _ENTITY_LABELS and e.root.dep_ in _VALUE_DEPS
                 for t in e.root.subtree if t.i < e.root.i and t.i >= e.start}
        objects: dict[int, str] = {}  # the verb's direct objects that are values: token → value
        for tok in sent:
            if (tok.i in taken and not _WORD_NUMBER.match(tok.text)) or _in_other_clause(tok, root):
                continue
            if (m := _WORD_NUMBER.match(tok.text)) is not None:
                # "a level-6 subject" (in the entity's subject too: "This level-6 subject is …"): the word
                # names what the number is
                out.append(Segment(m.group(1), m.group(2), "prose", number=True, sentence=n))
                taken.add(tok.i)
                continue
            if _cardinal(tok) is not None and tok.dep_ in ("nummod", "appos", "attr", "dobj", "pobj", "npadvmod"):
                head = tok.head
                if tok.dep_ == "nummod" and head.pos_ in ("NOUN", "PROPN"):
                    context = _counted_noun(tok)
                else:
                    context = " ".join(w.text for w in _path(tok, root) if _cardinal(w) is None)
                out.append(Segment(context, _cardinal(tok) or tok.text, "prose", number=True, sentence=n))
                taken.add(tok.i)
            elif tok.dep_ in _VALUE_DEPS and (tok.pos_ in ("NOUN", "PROPN", "X") or _address(tok)) and \
                    tok.i not in inner:
                if any(c.dep_ == "nummod" and _cardinal(c) is not None for c in tok.children):
                    continue  # "at level 3": the number is the value, the noun its context (below)
                if tok.dep_ == "attr" and any(c.dep_ == "expl" for c in tok.head.children):
                    continue  # "there is a bus every 15 minutes": what exists is no complement of the entity
                if _member_of_name(tok):
                    continue  # "is a member of the Kestrel group": the name is the value, "member of" says how
                if _partitive_set(tok):
                    continue  # "one of the eight districts": what the entity is (a kind, read above), no value
                span = _value_span(tok, self.names_thing)
                if self.names_thing(span.text):
                    span = _name_run(span)
                # (an address is no common noun, whatever tag the parser gives it: "ann@x.org")
                bare = len(span) == 1 and tok.pos_ == "NOUN" and tok.text.islower() and not _address(tok)
                if bare and ((tok.dep_ == "attr" and _shares_subject(tok.head, root)) or _predicative_as(tok, root, objects)) \
                        and not any(t.i in taken for t in span) and self.kind_word(tok.text):
                    # "X is a lecturer in …", "X works as a nurse": the bare noun names a class — what the
                    # entity is
                    out.append(Segment(tok.text, tok.text, "prose", sentence=n, complement=True))
                if any(t.i in taken for t in span) or not span.text.strip() or bare:
                    continue  # "a subject": a bare common noun says nothing ("a PhD", "an MBA" do)
                taken.update(t.i for t in span)
                value = span.text.strip(" ,.")
                if tok.dep_ == "dobj" and tok.head == root:
                    objects[tok.i] = value
                mention = any(e.start <= tok.i < e.end and e.label_ in _ENTITY_LABELS for e in sent.ents)
                contexts = [f"{_noun_words(o)} {tok.head.text}" for o in _coordinated_objects(tok, root, objects)] or \
                    [_context_of(tok, root, subjects, objects, value)]
                out += [Segment(context, value, "prose", mention=mention, sentence=n,
                                complement=context == value and tok.dep_ == "attr") for context in contexts]
        return out + _counts_aside(sent, n, lambda tok: tok.i not in taken and _in_other_clause(tok, root))

    def _kinds_named(self, sent, subjects: list, root, n: int) -> list[Segment]:
        """What the entity is, said by a noun that names a class: the definite noun standing for it
        ("The actor, born in 1943, …"), a title before its name ("Director Ama Ruiz spoke …", the name
        stood in by "It"), a copula's complement with words after it ("It is an actor born in 1954")."""
        # (a plural, "the full professors are A and B", stands for those it lists, not for the page's one entity)
        nouns = [s for s in subjects if s.pos_ == "NOUN" and s.tag_ != "NNS" and any(t.dep_ == "det" for t in s.children)]
        nouns += [t for t in sent if t.i + 1 < sent.end and sent.doc[t.i + 1].lower_ == "it" and
                  sent.doc[t.i + 1] in subjects and t.pos_ in ("NOUN", "PROPN") and t.head == root]
        # ("There are 39 students in …" says what there is, not what the entity is)
        # (… "a district of Hollinsford" is a district, but "a member of the X Group" no "faculty member": a noun
        # before a named thing's "of" names a kind only by a class's own name, not as the head of a longer one)
        nouns += [t for t in root.children if t.dep_ == "attr" and t.pos_ == "NOUN" and t.text.islower()
                  and any(c.dep_ in ("acl", "prep", "relcl") or (c.dep_ == "amod" and c.i > t.i) for c in t.children)
                  and not any(c.dep_ == "expl" for c in root.children)
                  and (not _member_of_name(t) or self.class_word(t.text))]
        # "works as a facility manager for the council": the noun of a predicative "as", without what follows it
        nouns += [o for p in root.children if p.dep_ == "prep" and p.lower_ == PREDICATIVE_AS
                  for o in p.children if o.dep_ == "pobj" and o.pos_ == "NOUN" and o.text.islower() and
                  not any(c.dep_ == "poss" for c in o.children) and
                  any(c.dep_ in ("acl", "prep", "relcl", "amod") and c.i > o.i for c in o.children)]
        kinds = [k for t in nouns if self.kind_word(t.text) for k in _kind_phrase(t, n)]
        # "Northgate is one of the eight districts of …": one of the things of a kind is a thing of it
        partitive = [o for t in root.children if t.dep_ == "attr" and t.lower_ == "one"
                     for p in t.children if p.dep_ == "prep" and p.lower_ == "of"
                     for o in p.children if o.dep_ == "pobj" and o.pos_ == "NOUN" and self.kind_word(o.text)]
        return kinds + [k for o in partitive for k in _kind_phrase(o, n, counted=False)]

    def _addresses_given(self, sent, title: str, n: int) -> list[Segment]:
        """"Residents can write to Councillor Lee at ann@x.org": an e-mail or web address said in a sentence
        about someone else that names the entity (its stand-in, or most of its name's words) is the
        entity's, its shape saying what it is; so is one in a sentence that names nothing else ("More
        information is online at www.x.org"); a sentence naming someone else too gives none."""
        names = [t for t in sent if t.pos_ in ("PRON", "PROPN") and t.dep_ not in ("nsubj", "nsubjpass")]
        key = set(name_key(title).split())
        proper = [t for t in sent if t.pos_ == "PROPN" and not _any_address(t)]
        ours = any(t.lower_ in ("it", "its") for t in names) or not proper or (key and len(
            set(name_key(" ".join(t.text for t in proper)).split()) & key) / len(key) >= NAME_SHARE)
        others = any(e.label_ == "PERSON" and not set(name_key(e.text).split()) <= key for e in sent.ents)
        if not ours or others:
            return []
        root = sent.root
        return [Segment(" ".join(w.text for w in _path(tok, root) if w.pos_ in ("VERB", "AUX", "ADP")) or tok.head.text,
                        tok.text, "prose", sentence=n) for tok in sent if _any_address(tok)]

    def _entity_as_object(self, sent, subject, title: str, n: int) -> list[Segment]:
        """"The Department of X runs MRN4410": a named thing does something to the page's entity, which
        is the object. The thing is a value of the entity through the verb read backwards, as a passive
        ("run by"); which property, the types decide (what the entity's class can point to)."""
        root = sent.root
        objects = [t for t in root.children if t.dep_ in ("dobj", "attr")]
        span = _span(subject)
        if not self.names_thing(span.text):
            return []
        active = ""
        if objects and self._about_entity(objects[0], title):
            verb = root.pos_ == "VERB"
            context, active = (f"{past_participle(root.text)} by", root.text) if verb else (f"{root.text} by", "")
        elif (held := self._entity_held(root, title)) is not None:
            context = held  # "Ann Lee is in charge of the hall": the relation the prepositions say, the types its way
        else:
            return []
        words = [t for t in _name_run(span) if not (t.dep_ == "det" and t.i == span.start)]
        value = span.doc[words[0].i:words[-1].i + 1].text.strip(" ,.") if words else ""
        return [Segment(context, value, "prose", mention=True, sentence=n, active=active)] if value else []

    def _entity_held(self, root, title: str) -> str | None:
        """The words of a copula's preposition phrase that end in the entity ("is in charge of the hall" → "in
        charge of"): a noun between two prepositions says the relation; None where none ends in it."""
        if root.lemma_ != "be":
            return None
        for p in (c for c in root.children if c.dep_ == "prep"):
            for o in (c for c in p.children if c.dep_ == "pobj" and c.pos_ == "NOUN"):
                for p2 in (c for c in o.children if c.dep_ == "prep"):
                    if any(c.dep_ == "pobj" and self._about_entity(c, title) for c in p2.children):
                        return f"{p.text} {o.text} {p2.text}"
        return None


def _said_in_description(subjects: list, n: int) -> list[Segment]:
    """What a description standing for the entity says of it ("The 91-minute feature film by Ann Lee
    opened …", "The 120-bed hospital in Leeds …"): a count before its noun, and a name after a preposition
    other than a name's own "of" ("Department of X" is one name) — each with the noun's word as its
    context ("film by", "minute")."""
    out: list[Segment] = []
    for s in (s for s in subjects if s.pos_ == "NOUN"):
        for c in s.children:
            if c.dep_ == "prep" and c.lower_ not in NAME_PREPOSITIONS:
                out += [Segment(f"{s.text} {c.text}", run.text.strip(" ,."), "prose", mention=True, sentence=n)
                        for o in c.children if o.dep_ == "pobj" and o.pos_ == "PROPN"
                        for run in [_name_run(_span(o))] if run.text.strip()]
            elif c.dep_ in ("compound", "amod") and c.i < s.i:
                out += [Segment(c.text, value, "prose", number=True, sentence=n) for k in c.children
                        if k.dep_ == "nummod" and (value := _cardinal(k)) is not None]
    return out


def _title_before(subjects: list, n: int) -> list[Segment]:
    """The title a name is written after ("Senior Lecturer Ann Lee presented …", the name stood in by
    "It"): what the entity is, as a complement says it; an honorific alone ("Dr") is no title."""
    out = []
    for s in subjects:
        run = [c for c in s.children if c.dep_ == "compound" and c.i < s.i]
        if s.lower_ != "it" or not run or run[-1].i != s.i - 1:
            continue
        run = list(s.doc[run[0].left_edge.i:s.i])
        if any(t.dep_ not in ("compound", "amod", "nmod") for t in run):
            continue
        words = [t for t in run if fold(t.text).strip(".") not in TITLES]
        if words and all(t.text[:1].isupper() for t in words):
            value = s.doc[words[0].i:s.i].text
            out.append(Segment(value, value, "prose", sentence=n, complement=True))
    return out


def _context_of(tok, root, subjects: list, objects: dict[int, str], value: str) -> str:
    """The words that lead from the verb to a value: what the value is said to be of the entity."""
    if tok.dep_ == "pobj" and tok.head.head in subjects:
        return tok.head.text  # "Lecturer It of the Department of X presented …": of the entity itself
    if (tok.dep_ == "attr" and (_shares_subject(tok.head, root) or any(c.dep_ == "nsubj" and _stands_for_entity(c)
                                                                        for c in tok.head.children))) or \
            (tok.dep_ == "appos" and tok.head.lower_ == "it"):
        # "X is Chairperson", "X, Chairperson, …" (X stood in by "It"): what the entity is —
        # its role, its kind; "Her research interests are a, b": what the noun of hers is
        context = _noun_words(subjects[0]) if subjects and _said_through(subjects[0]) and \
            tok.head == root else value
    elif _predicative_as(tok, root, objects):
        # "X serves as Chairperson", "X joined the unit as Chairperson": what the entity is, said
        # by the verb with its "as" (of the entity, not of the unit it joined)
        context = " ".join(w.text for w in _path(tok, root) if w.pos_ in ("VERB", "AUX")) + " as"
    elif (of := _object_of_prep(tok, root, objects)) is not None:
        # "obtained a PhD from Lund University": what the verb reached is the PhD; the place is
        # where the PhD is from, said of it ("PhD from"), not of the verb ("obtained from")
        context = f"{objects[of]} {tok.head.text}"
    else:
        words = [w for w in _path(tok, root) if w.pos_ in ("VERB", "AUX", "ADP") or _relational_noun(w, tok)]
        verb = tok.head.head if tok.head.dep_ == "prep" else None
        if words and verb is not None and verb.pos_ in ("VERB", "AUX"):
            # the verb's plain object says what the preposition's value is to it ("treats patients
            # under Y": Y is the kind of care, not what the ward is under)
            words += [c for c in verb.children if c.dep_ == "dobj" and c.pos_ == "NOUN" and c.i not in objects]
        context = " ".join(w.text for w in sorted(words, key=lambda w: w.i)) or \
            " ".join(w.text for w in _path(tok, root))
        if subjects and _said_through(subjects[0]):
            # "The research of X spans …", "Her undergraduate degree is from X": the noun the entity is said
            # through is what is stated
            context = f"{_noun_words(subjects[0])} {context}"
    return context


def _partitive_set(tok) -> bool:
    """The set a copula's partitive takes its part from ("is one of the eight districts of X")."""
    of = tok.head
    return tok.dep_ == "pobj" and of.lower_ == "of" and of.head.dep_ == "attr" and \
        (of.head.lower_ in PARTITIVE_HEADS or of.head.like_num)


def _member_of_name(tok) -> bool:
    """A copula's complement that is one of a named thing's members or parts ("a member of the Kestrel
    group", "a part of Old Town"): an indefinite common noun whose "of" takes a capitalised name."""
    return tok.dep_ == "attr" and tok.pos_ == "NOUN" and tok.text.islower() and \
        any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in tok.children) and \
        any(c.dep_ == "prep" and c.lower_ == "of" and any(o.dep_ == "pobj" and any(w.text[:1].isupper() for w in o.subtree)
                                                         for o in c.children) for c in tok.children)


def _relational_noun(word, tok) -> bool:
    """The common noun whose preposition leads to the value says the relation ("holds the post of X",
    "took on the role of X", "a member of X"): it belongs in the context, as the verb does."""
    prep = tok.head
    return tok.dep_ == "pobj" and prep.dep_ == "prep" and word.i == prep.head.i and word.pos_ == "NOUN" \
        and word.text.islower()


MAX_HOUSE_DIGITS = 4     # a house number is short


def _whole_value_segments(sent, root, subjects: list, taken: set[int], n: int) -> list[Segment]:
    """A date, a phone number, a street address: one value each, though the parser splits them into
    numbers and words (their tokens are then taken)."""
    out = []
    for span in _whole_values(sent):
        if not any(t.i in taken for t in span):
            context = " ".join(w.text for w in _path(span.root, root) if w.pos_ in ("VERB", "AUX", "ADP")
                               and not (span.start <= w.i < span.end)) or root.text
            if subjects and _said_through(subjects[0]):
                context = f"{_noun_words(subjects[0])} {context}"  # "The address is 19 Mill Road": what is said
            out.append(Segment(context, span.text, "prose", sentence=n))
            taken.update(t.i for t in span)
    return out


def _whole_values(sent) -> list:
    """Spans the parser splits that are one value: a calendar date ("1992-07-06", "17 May 2004", "May 17,
    2004": a date entity of that shape, its month a month's name) and a phone number (numbers in a row)."""
    doc = sent.doc
    # the entities the tagger saw, and around each month's name the spans of a written date's shapes
    spans = list(sent.ents) + [doc[max(sent.start, t.i + a):min(sent.end, t.i + b)] for t in sent if t.lower_ in MONTHS
                               for a, b in ((-1, 2), (0, 3), (0, 4))]
    out: list = []
    for span in sorted(spans, key=lambda s: -len(s)):
        if is_date(span.text) and not any(o.start < span.end and span.start < o.end for o in out):
            out.append(span)
    # a phone number as it is dialled, brackets and dashes and all ("(555) 342-7008"), whatever the tokens
    for a, b in phone_spans(sent.text):
        span = doc.char_span(sent.start_char + a, sent.start_char + b, alignment_mode="expand")
        if span is not None and not any(o.start < span.end and span.start < o.end for o in out):
            out.append(span)
    return out + [a for a in _street_addresses(sent) if not any(o.start < a.end and a.start < o.end for o in out)]


def _street_addresses(sent) -> list:
    """A house number before a street's capitalised name ("at 19 Mill Race Road"): one value, no count of
    a road. A year is no house number ("1924 Olympic Games"), nor a code's number ("COMP 5327 Advanced …")."""
    out = []
    for tok in sent:
        before = sent.doc[tok.i - 1] if tok.i > sent.start else None
        if not (tok.text.isdigit() and len(tok.text) <= MAX_HOUSE_DIGITS) or tok.i + 1 >= sent.end or \
                (before is not None and before.text[:1].isupper()):
            continue  # (after a capitalised word the number is a code's or a name's: "COMP 5327 Advanced …")
        end = tok.i + 1
        while end < sent.end and sent.doc[end].is_alpha and sent.doc[end].text[:1].isupper():
            end += 1
        if end - tok.i > 1 and not YEAR.match(tok.text):
            out.append(sent.doc[tok.i:end])
    return out


def _kind_in_relative(rel, n: int) -> list[Segment]:
    """"X, who is a physician, …", "X, who works as a surgeon, …": what the entity is, said in a relative
    clause on it (a copula's complement or a predicative "as"), as a complement of its own."""
    for tok in rel.children:
        noun = tok if tok.dep_ == "attr" else next((o for o in tok.children if o.dep_ == "pobj"), None) \
            if tok.dep_ == "prep" and tok.lower_ == PREDICATIVE_AS else None
        if noun is not None and noun.pos_ in ("NOUN", "PROPN") and not any(c.dep_ == "poss" for c in noun.children):
            return _kind_phrase(noun, n)
    return []


def _kind_phrase(noun, n: int, counted: bool = True) -> list[Segment]:
    """The noun with the words before it, no article ("a clinical nurse specialist born in …" → "clinical
    nurse specialist"), as a complement: what the entity is said to be. Not `counted`: without the
    number before it either ("the eight districts" → "districts")."""
    skip = ("det",) if counted else ("det", "nummod")
    text = " ".join(t.text for t in noun.subtree if t.dep_ not in skip and t.i <= noun.i)
    return [Segment(text, text, "prose", sentence=n, complement=True)] if text else []


def _predicative_as(tok, root, objects: dict[int, str]) -> bool:
    """The object of an "as" said of the sentence's subject: "as" on the verb, or on the verb's direct
    object ("joined [the unit] as Chairperson") — English's predicative "as" names a role or a kind."""
    prep = tok.head
    # "has Dr X as its lead clinician": a role held in the entity ("its") is said of the object, not of it
    owned = any(c.dep_ == "poss" for c in tok.children)
    return tok.dep_ == "pobj" and prep.lower_ == "as" and prep.dep_ == "prep" and not owned and \
        (prep.head == root or prep.head.i in objects)


def _object_of_prep(tok, root, objects: dict[int, str]) -> int | None:
    """The direct object (a value already read) a preposition's object is said of: the preposition hangs
    from that object, or from the verb beside it ("obtained [a PhD] [from X]")."""
    prep = tok.head
    if tok.dep_ != "pobj" or prep.dep_ != "prep":
        return None
    if prep.head.i in objects:
        return prep.head.i
    if prep.head == root:
        return next((c.i for c in root.children if c.i in objects and c.i < prep.i), None)
    return None


def _span(tok):
    return tok.doc[min(t.i for t in tok.subtree):max(t.i for t in tok.subtree) + 1]


def _value_span(tok, names_thing):
    """The value a token heads: its subtree without what leads on to other values — a preposition
    phrase naming a thing ("Chairperson [in the Department of …]", "PhD in Accounting [from Lingnan
    University]"), a clause ("a subject [offered by …]"), a number with the words it counts — and
    without determiners."""
    cut = []
    for a in tok.children:
        if a.dep_ == "advmod" and a.i > tok.i and a.pos_ == "ADV":
            cut.append(a)  # "a professor [there]", "a lecturer [now]": said of the clause, no part of the value
        elif a.dep_ in ("acl", "relcl") or (a.dep_ == "nummod" and _cardinal(a) is not None):
            cut.append(a)
            cut += [w for w in tok.children
                    if w.dep_ in ("nmod", "compound") and a.i - COUNTED_WORDS_BEFORE <= w.i < a.i]
        elif a.dep_ == "prep" and not (tok.text[:1].isupper() and a.lower_ in NAME_HEAD_PREPOSITIONS
                                       and not (a.lower_ != "of" and _name_ends_at(tok))):
            objs = [w for w in a.children if w.dep_ == "pobj"]
            if any(names_thing(_span(o).text) or o.pos_ == "PROPN" for o in objs) or \
                    any(_cardinal(w) is not None for w in a.subtree):
                cut.append(a)
    # a predicate joined to the value ("practises Neurology [and qualified in 1987]"): said of the entity,
    # no part of the value
    for a in tok.children:
        if a.dep_ == "conj" and (a.pos_ in ("VERB", "AUX") or (a.pos_ == "ADJ" and any(
                c.dep_ == "prep" for c in a.children))):
            cut += [a, *(c for c in tok.children if c.dep_ == "cc" and c.i < a.i)]
    # deeper down too: "Director of … Programme [in the School of …]", "the Department of X[, where they …]"
    cut += [t for t in tok.subtree if t.dep_ == "prep" and t.i != tok.i and t.lower_ not in NAME_HEAD_PREPOSITIONS and
            any(names_thing(_span(o).text) for o in t.children if o.dep_ == "pobj")]
    cut += [t for t in tok.subtree if t.dep_ == "relcl" and t.i != tok.i]
    if tok.pos_ == "PROPN":
        # "the department's Marine Biology Unit": the name is the value, whose it is is said around it (a
        # capitalised possessor is the name's own word: "the Miners' Track", "Saint Brendan's University")
        cut += [a for a in tok.children if a.dep_ == "poss" and a.i < tok.i and a.text.islower()]
    cut_ids = {w.i for a in cut for w in a.subtree}
    keep = [t for t in tok.subtree if t.i not in cut_ids]
    keep = [t for t in keep if t.dep_ not in ("det", "punct") or t.text in _KEPT_PUNCTUATION]
    if not keep:
        return tok.doc[tok.i:tok.i + 1]
    return tok.doc[min(t.i for t in keep):max(t.i for t in keep) + 1]


# an e-mail or web address inside a sentence: the small parser mistags such long tokens (as a verb, a
# sentence's root) and breaks the sentence around them; a plain name stands in for each while parsing
_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:https?://|www\.)[^\s,;]*[^\s,;.)]")
_ADDRESS_STAND_IN = "Address{}"
_ADDRESS_NAME = re.compile(r"^Address\d+$")


def _addresses_stood_in(text: str) -> tuple[str, dict[str, str]]:
    found: dict[str, str] = {}

    def stand_in(m: re.Match) -> str:
        name = _ADDRESS_STAND_IN.format(len(found))
        found[name] = m.group(0)
        return name
    return _ADDRESS.sub(stand_in, text), found


_NAME_STAND_IN = "Kname{}"
MIN_KNOWN_NAME_WORDS = 3  # a known name is stood in when the parser may split it: words, one in lower case


def _known_names_pattern(names: Iterable[str]) -> re.Pattern | None:
    """The corpus's names that hold a word in lower case or a bracket ("Topics in Genetics", "Department of
    Physics"), longest first, as one pattern."""
    kept = sorted({n.strip() for n in names if len(n.split()) >= MIN_KNOWN_NAME_WORDS and n[:1].isupper() and
                   any(w.islower() or not w.isalnum() for w in n.split()[1:])}, key=len, reverse=True)
    # (with the code a page writes after it in brackets, "Topics in Genetics (BIOL 432)": the parser takes a
    # bracketed code for a clause of its own and loses the list it stands in)
    code = rf"(?:\s*{BRACKETED_CODE})?"
    return re.compile("|".join(rf"(?<![\w-]){re.escape(n)}{code}(?![\w-])" for n in kept)) if kept else None


def _names_stood_in(text: str, known: re.Pattern | None, own: set[str] = frozenset()) -> tuple[str, dict[str, str]]:
    """The corpus's known names in the text replaced by one proper noun each while it is parsed, as the
    page's own name is by "It": the parser then hangs a list of them ("taking Topics in Genetics, Advanced
    Plant Biology and Readings in Cell Biology") as the list it is, not at its inner prepositions. The page's
    own names (`own`, as `name_key`s) stay as written."""
    found: dict[str, str] = {}
    if known is None:
        return text, found

    def stand_in(m: re.Match) -> str:
        if name_key(m.group(0)) in own:
            return m.group(0)
        name = _NAME_STAND_IN.format(len(found))
        found[name] = m.group(0)
        return name
    return known.sub(stand_in, text), found


def _name_restored(seg: Segment, names: dict[str, str]) -> Segment:
    if not names:
        return seg
    value = _restored(seg.value, names)
    return replace(seg, value=value, context=_restored(seg.context, names), mention=seg.mention or value != seg.value)


def _restored(text: str, addresses: dict[str, str]) -> str:
    for name in sorted(addresses, key=len, reverse=True):  # "Address10" before "Address1"
        text = re.sub(rf"\b{name}\b", lambda m, name=name: addresses[name], text)
    return text


def _address_restored(seg: Segment, addresses: dict[str, str]) -> Segment:
    if not addresses:
        return seg
    value = _restored(seg.value, addresses)
    return replace(seg, value=value, context=_restored(seg.context, addresses),
                   mention=seg.mention and value == seg.value)  # an address names no thing


def _address(tok) -> bool:
    """An e-mail or web address as one token (the parser tags them as anything: a noun, a number)."""
    return bool(tok.like_email or tok.like_url)


def _any_address(tok) -> bool:
    """An address as a token, as written or as its stand-in while parsing ("Address0")."""
    return _address(tok) or bool(_ADDRESS_NAME.match(tok.text))


def _name_ends_at(tok) -> bool:
    """The token ends a name the parser's recogniser saw: "Ines Varga [for the label …]" is a person and a
    phrase about her work, not one name as "Centre for …" is (a name's "of" stays inside it)."""
    nxt = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
    return bool(tok.ent_type_) and (nxt is None or nxt.ent_iob_ != "I")


def _stand_in(text: str, title: str) -> str:
    """The page's own name replaced by "It" before parsing: names with commas, initials or characters
    the parser has never seen ("Cheung Kwong-chak, Gary is …") break its sentences; a pronoun never does,
    and a sentence whose subject is a pronoun is about the page's entity."""
    variants = sorted({v for v in (title.strip(), strip_titles(title))
                       if len(v.split()) >= 2 or len(v) > SHORT_NAME_CHARS},
                      key=len, reverse=True)
    for v in variants:
        pattern = rf"(?i)(?<![\w-])(?:the\s+)?{re.escape(v)}(?![\w-])('s)?"
        text = re.sub(pattern, lambda m: "Its" if m.group(1) else "It", text)
    return text


def _closed(paragraph: str) -> str:
    """A paragraph ended by a full stop where it ends in none ("Welcome to my page"): paragraphs are
    joined for one parse, and only an end mark may end a sentence (`parse_in_sentences`)."""
    text = paragraph.rstrip()
    return text if not text or text.rstrip(_CLOSERS)[-1:] in tuple(_SENTENCE_ENDS) else text + "."


def parse_in_sentences(nlp, text: str):
    """`text` parsed where only an end mark ('.', '!', '?', ':', ';', with closing quotes or brackets
    after it) may end a sentence. The parser alone cuts long comma lists at a capitalised item or a
    bracket ("…, keratomileusis (LASIK), gene scans, …", "…, Mass Spectrometry, In Vivo Detection …"),
    and the cut loses the list's tail; a list is one sentence however long."""
    doc = nlp.make_doc(text)
    for tok in doc[1:]:
        before = doc[tok.i - 1]
        k = tok.i - 1
        while k > 0 and (doc[k].text in _CLOSERS or doc[k].is_space):
            k -= 1
        if doc[k].text[-1:] not in _SENTENCE_ENDS and "\n" not in before.text + before.whitespace_ + tok.text:
            tok.is_sent_start = False
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    return doc


def _noun_words(noun) -> str:
    """A noun with the compounds and adjectives before it ("research interests" of "her research
    interests"), and a common noun's possessive that makes it a kind ("master's degree"), without
    determiners and possessive pronouns or names."""
    words = [c for c in noun.children if c.i < noun.i and (c.dep_ in ("compound", "amod") or
                                                           (c.dep_ == "poss" and c.pos_ == "NOUN"))]
    words += [k for c in words if c.dep_ == "poss" for k in c.children if k.dep_ == "case"]
    text = "".join(w.text_with_ws for w in sorted([*words, noun], key=lambda w: w.i)).strip()
    doing = _doing_to_entity(noun)
    return f"{text} {doing.text}" if doing is not None else text


def _doing_to_entity(noun):
    """The participle after a noun whose object is the entity ("students taking it"): the relation the noun's
    things hold to the entity; None where there is none."""
    return next((c for c in noun.children if c.dep_ == "acl" and c.tag_ == "VBG" and
                 any(o.dep_ == "dobj" and o.lower_ == "it" for o in c.children)), None)


def _coordinated_objects(tok, root, objects: dict[int, str]) -> list:
    """The nouns a preposition's object is said of when it follows coordinated objects of the verb ("took her
    master's degree and her doctorate at X": X is where each was taken), each; [] for any other."""
    prep = tok.head
    if tok.dep_ != "pobj" or prep.dep_ != "prep":
        return []
    noun = prep.head
    while noun.dep_ == "conj" and noun.head.i != noun.i:
        noun = noun.head
    if noun.i not in objects and not (noun == root and (noun := next((c for c in root.children if c.i in objects
                                                                       and c.i < prep.i), None)) is not None):
        return []
    nouns = [noun, *(c for c in noun.conjuncts if c.pos_ == "NOUN")]
    return nouns if len(nouns) > 1 else []


def _said_through(subject) -> bool:
    """A common noun the entity is said through: "the research of X", "projects by X", "her projects",
    and "the address" said to be a name or a number ("The address is 19 Mill Road", "The venue is Kiln
    Yard"): the page's entity's address, its venue."""
    if subject.pos_ != "NOUN":
        return False
    if any(c.dep_ in ("prep", "poss") for c in subject.children) or _doing_to_entity(subject) is not None:
        return True
    verb = subject.head
    definite = any(c.dep_ == "det" and c.lower_ in DEFINITE_DETERMINERS for c in subject.children)
    return definite and verb.lemma_ == "be" and \
        any(c.dep_ == "attr" and (c.left_edge.text[:1].isupper() or c.left_edge.like_num) for c in verb.children)


def _name_run(span):
    """A name cut short by the parse ("Department of Building Environment and [Energy Engineering]"):
    extended over the capitalised words that follow it, and over "and", "of", "&" between them."""
    doc, end = span.doc, span.end
    while end < len(doc) and doc[end].is_sent_start is not True:
        word = doc[end]
        if word.text[:1].isupper() and word.is_alpha:
            end += 1
        elif word.lower_ in NAME_RUN_JOINERS and end + 1 < len(doc) and doc[end + 1].text[:1].isupper() \
                and doc[end + 1].is_alpha and doc[end + 1].pos_ != "AUX":
            end += 2
        else:
            break
    return doc[span.start:end]


def _cardinal(tok) -> str | None:
    """A counted number's digits ("3", "three" → "3"); None for anything else, ordinals, fractions
    ("one third") and list markers ("1)", "(2)") included."""
    after = tok.doc[tok.i + 1].text if tok.i + 1 < len(tok.doc) else ""
    if after == ")" or (after == "." and (tok.is_sent_start or tok.i == 0)):
        return None  # "1)", and "2." opening a line; "at level 3." ends a sentence
    if any(c.dep_ == "prep" and c.lower_ == "of" for c in tok.children):
        return None  # a part of a set, not a count: "one of the units", "two of its subjects"
    of = tok.head.head if tok.dep_ == "nummod" and tok.head.dep_ == "pobj" else None
    if of is not None and of.lower_ == "of" and (of.head.lower_ in PARTITIVE_HEADS or of.head.like_num):
        return None  # the size of the set a part is taken from: "one of the two councillors for X"
    if tok.text.isdigit():
        return tok.text
    word = CARDINALS.get(tok.lower_)
    if word is not None and not (tok.head.i != tok.i and tok.head.like_num and tok.head.i > tok.i):
        return word
    return None


def _counts_aside(sent, n: int, where: Callable[[object], bool] = lambda tok: True) -> list[Segment]:
    """The counts of a sentence (or of its clauses `where` says) about someone else, each with its noun
    ("Students who pass gain 3 credits": "credits", 3) — the entity's when the noun plainly means one
    of its properties."""
    return [Segment(_counted_noun(tok), _cardinal(tok) or tok.text, "prose", number=True, sentence=n, aside=True)
            for tok in sent if tok.dep_ == "nummod" and tok.head.pos_ == "NOUN" and _cardinal(tok) is not None
            and where(tok)]


def _lead_verb(sent):
    """In a sentence that lists values with semicolons, the verb before the first semicolon that has a
    subject: the parser may root such a sentence at a verb inside an item ("… spans a; b ameliorates
    c; d"), which would hide the clause that states the list. None for other sentences."""
    semis = [t.i for t in sent if t.text == ";"]
    if sent.root.pos_ in ("NOUN", "PROPN"):
        # a fronted time the parser roots the sentence at ("This term the student is taking …"): the clause it
        # hangs on the noun, with a subject of its own and no relative word, is the sentence's
        clause = next((c for c in sent.root.children if c.dep_ in ("relcl", "acl") and c.pos_ in ("VERB", "AUX")
                       and c.i > sent.root.i and any(k.dep_ in ("nsubj", "nsubjpass") for k in c.children)
                       and not any(k.tag_ in ("WDT", "WP", "WP$", "WRB") or k.lower_ == "that" for k in c.subtree
                                   if k.i < c.i)), None)
        if clause is not None:
            return clause
    if not semis:
        # … or with a long comma list after its verb: the parser roots it inside an item too ("X has
        # published on a, b, …, charge transfer induced hydrogen bonding, …")
        lead = next((t for t in sent if t.pos_ in ("VERB", "AUX") and t.dep_ != "aux"
                     and any(c.dep_ in ("nsubj", "nsubjpass") and c.i < t.i for c in t.children)), None)
        if lead is None or lead == sent.root or sum(t.text == "," for t in sent if t.i > lead.i) < LONG_LIST_COMMAS:
            return None
        return lead
    return next((t for t in sent if t.i < semis[0] and t.pos_ in ("VERB", "AUX")
                 and any(c.dep_ in ("nsubj", "nsubjpass") for c in t.children)), None)


def _list_segment(sent, root, subjects: list, n: int) -> tuple[Segment, set[int]] | None:
    """"X spans a; b; c": one list value from the first object to the end (the parser hangs the items
    anywhere: objects, conjuncts of the verb, appositions of the subject), and the words it takes up."""
    listed = _semicolon_list(sent, root)
    if listed is None:
        return None
    # the words from the verb to the list's first value (not to a word inside it: "self-directed")
    head = next((t for t in listed if t.dep_ in ("dobj", "attr", "oprd", "pobj")), listed[0])
    context = " ".join(w.text for w in _path(head, root) if w.pos_ in ("VERB", "AUX", "ADP")) or root.text
    if subjects and _said_through(subjects[0]):
        context = f"{_noun_words(subjects[0])} {context}"
    return Segment(context, listed.text.strip(" ,."), "prose", sentence=n), {t.i for t in listed}


def _semicolon_list(sent, root):
    """The span of a list of values after the verb (the first object's left edge to the sentence's
    end): its items separated by semicolons, or a comma list the parser broke up — an item hung on the
    verb as an object or a modifier of its own, no verb after the first item ("published on a,
    time-resolved b, c"); None when the sentence has no such list."""
    first = next((t for t in sent if t.i > root.i and t.dep_ in ("dobj", "attr", "oprd", "pobj")
                  and t.pos_ in ("NOUN", "PROPN", "X")), None)
    if first is None:
        return None
    start = min(t.i for t in first.subtree if t.dep_ not in ("det", "punct")) if len(list(first.subtree)) else first.i
    end = sent.end
    while end > start and sent.doc[end - 1].is_punct:
        end -= 1
    span = sent.doc[start:end]
    if ";" in span.text:
        return span
    if first.dep_ not in ("pobj", "dobj"):
        return None  # a list after a preposition or as the object ("published on a, b, c", "covers a, b, c")
    # up to a phrase the verb takes besides the list ("… on a, b, c at the Department of X")
    # — after the list's last comma: a preposition before it is inside an item ("on design of drugs by
    # protein engineering, biotechnology, …"); a capitalised one opens an item's title ("…, In Vivo …")
    last_comma = max((t.i for t in span if t.text == ","), default=first.i)
    end = next((t.i for t in span if t.i > last_comma and t.dep_ == "prep" and t.head == root
                and not _opens_title(t)), end)
    span = sent.doc[start:end]
    while len(span) and span[-1].is_punct:
        span = span[:-1]
    inside = {t.i for t in first.subtree}
    # (a list the parser rooted elsewhere, inside an item, is broken up by its own account)
    broken = root != sent.root or any(t.i not in inside and t.head == root and (_opens_title(t) or (
        t.dep_ in ("dobj", "npadvmod", "appos", "conj", "dep") and t.pos_ in ("NOUN", "PROPN"))) for t in span)
    commas = sum(t.text == "," for t in span)
    # a clause of its own opens with its verb after the comma or "and" ("…, b and teaches c"); a verb
    # after a noun is inside an item ("charge transfer induced hydrogen bonding")
    finite = any(t.tag_ in FINITE_VERB_TAGS and t.i > span.start and
                 (sent.doc[t.i - 1].text == "," or sent.doc[t.i - 1].pos_ == "CCONJ") for t in span)
    return span if broken and commas >= MIN_LIST_COMMAS and not finite else None


def _opens_title(tok) -> bool:
    """A capitalised preposition inside a sentence: the first word of a title said as a list's item
    ("In Vivo Detection of …", "On Demand Services"), which the parser takes for a phrase of the verb."""
    return tok.pos_ == "ADP" and tok.text[:1].isupper() and tok.i > tok.sent.start and \
        tok.doc[tok.i - 1].text in (",", ";")


def _counted_noun(tok) -> str:
    """"a level 3 subject of 3 credits": the noun a number counts, with the words just before the number."""
    before = [w for w in tok.head.children if w.dep_ in ("nmod", "compound", "amod") and w.i < tok.i]
    return " ".join(w.text for w in before + [tok.head])


def _extraposed(subject, root) -> bool:
    """ "It is a pleasure to welcome you", "It is important that …": a copula whose "it" stands for the
    infinitive or the clause its complement (or the copula) takes — English's extraposition."""
    if subject.lower_ != "it" or root.lemma_ != "be":
        return False
    heads = [root, *(c for c in root.children if c.dep_ in ("attr", "acomp"))]
    return any(c.dep_ in ("xcomp", "ccomp", "acl") and c.pos_ in ("VERB", "AUX") and
               any(k.dep_ in ("aux", "mark") and k.lower_ in ("to", "that") for k in c.children)
               for h in heads for c in h.children)


def _shares_subject(verb, root) -> bool:
    """The verb is the sentence's, or one joined to it with no subject of its own ("X has taught here since
    2015 and is now a professor") or with the sentence's own pronoun again ("I joined X in 2023, and I am now
    a professor"): what it says, it says of the sentence's subject."""
    if verb == root:
        return True
    if verb.dep_ != "conj" or verb.head != root:
        return False
    own = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass", "expl")]
    return not own or (len(own) == 1 and own[0].lower_ in _pronoun_subjects(root))


def _pronoun_subjects(root) -> set[str]:
    """The personal pronouns the verb has as its subject."""
    return {c.lower_ for c in root.children if c.dep_ in ("nsubj", "nsubjpass") and c.lower_ in SUBJECT_PRONOUNS}


def _stands_for_entity(subject) -> bool:
    """A personal pronoun (or the stand-in for the entity's name): on a page about one thing, it."""
    return subject.pos_ == "PRON" and subject.lower_ in ENTITY_PRONOUNS


def _in_other_clause(tok, root) -> bool:
    """Between the value and the sentence's verb is a clause with a subject of its own — unless that
    subject is a pronoun for the entity ("…, where they are Professor") or a relative pronoun standing
    for what the entity is said to be ("X is one of the units that make up Y": X makes up Y; "X is a
    chemist who works at Y"), or for the entity itself ("The ward, which is part of Y, …")."""
    t = tok.head
    # (a clause joined on with the sentence's own pronoun subject, "I joined X in 2023, and I am now …", says more
    # of the same one)
    said = _pronoun_subjects(root)
    while t.i != root.i and t.head.i != t.i:
        if t.pos_ in ("VERB", "AUX") and any(c.dep_ in ("nsubj", "nsubjpass") and not _stands_for_entity(c)
                                             and not (c.lower_ in said and t.dep_ == "conj")
                                             for c in t.children) and not _says_of_complement(t, root) and \
                not (_relative_on(t) and t.head.head.i == root.i and t.head.dep_ in ("nsubj", "nsubjpass")):
            return True
        t = t.head
    return False


def _relative_on(clause) -> bool:
    """A relative clause set off by a comma whose subject is its relative pronoun ("…, which is part of Y,"):
    it says something of the noun it hangs on."""
    subject = next((c for c in clause.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    comma = clause.doc[clause.left_edge.i - 1] if clause.left_edge.i > 0 else None
    return clause.dep_ == "relcl" and subject is not None and subject.tag_ in ("WDT", "WP") and \
        comma is not None and comma.text == ","


def _says_of_complement(clause, root) -> bool:
    """A relative clause ("that make up Y") whose subject is its relative pronoun and whose noun is the
    complement of the sentence's copula ("is one of the units", "is a chemist"), or inside it."""
    subject = next((c for c in clause.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if clause.dep_ != "relcl" or subject is None or subject.tag_ not in ("WDT", "WP"):
        return False
    if root.lemma_ != "be" and root.pos_ != "AUX":
        return False
    t = clause.head
    while t.i != root.i and t.head.i != t.i:
        if t.dep_ == "attr" and t.head.i == root.i:
            return True
        t = t.head
    return False


def _path(tok, root) -> list:
    """The words from the verb down to a value: prepositions, verbs and the nouns passed through."""
    words = []
    t = tok.head
    while t is not None and t != tok:
        if t.dep_ in ("prep", "agent") or t.pos_ in ("VERB", "AUX", "NOUN", "PROPN", "ADP"):
            words.append(t)
        # a verb joined to the first one ("is part of X and treats patients under Y") is a predicate of
        # its own: the first verb's words are not what leads to its values
        if t == root or t.head == t or (t.dep_ in ("conj", "relcl") and t.pos_ in ("VERB", "AUX")):
            break
        t = t.head
    return sorted(words, key=lambda w: w.i)
