"""Stage 2, the absence readings: made only for a question that asks for things lacking something
("Which departments have no head?", "Which staff report to nobody?", "products sold without a
warranty", "parts used in no product"). English marks absence with a closed set of words (no, none,
nobody, no one, nothing, without, never); which property is absent is not read from the wording: a
reading per property the class takes part in (an attribute it may lack, a relation it may have
none of, either way round), written in the schema's words, and the scorer picks the nearest."""

from __future__ import annotations

import re

from pyramid.reading.english import AUXILIARIES, STOPWORDS
from pyramid.vocab import Term, Vocab
from querying.planning.cues import ASKS_WHO
from querying.planning.names import SchemaNames, property_words
from querying.planning.paths import clause
from querying.planning.records import Anchor, QuestionReading
from querying.planning.wording import masked, passive_at
from querying.sparql_plan import QueryPlan, Step

# "no head", "nobody", "no one", "nothing", "none", "without a warranty", "never": absence; not "no more
# than", "not only", "no later than" (a comparison)
ABSENT = re.compile(r"\b(?:nobody|no\s+one|nothing|none|without|never|no|lacks?|lacking|missing|"
                    r"(?:do|does|did|has|have)(?:n['’]t|\s+not)\s+(?:have|got|hold|carry|come\s+with)|"
                    # "not taken by any student", "don't supervise anyone"
                    r"(?:n['’]t|not)\s+(?:[^\W\d_]+\s+){0,3}?any(?:one|body|thing)?)\b"
                    r"(?!\s+(?:more|less|later|earlier|longer|fewer|other|sooner)\b)", re.IGNORECASE)


MIN_ROLE_NOUN = 5  # an agent noun this long at least ("leader", "tutor"); "her", "per", "for" are none


def _stem(word: str) -> str:
    """A verb without its inflection, to tell one verb's forms ("reporting", "reports", "headed"; the
    participles in -en and doubled consonants: "taken", "written", "running")."""
    bare = re.sub(r"(?:ing|ed|en|es|s|e)$", "", word)
    return bare[:-1] if len(bare) > 2 and bare[-1] == bare[-2] and bare[-1] not in "aeiou" else bare


def _role_nouns(p: Term) -> set[str]:
    """The verbs whose doer a relation names as its object, by the agent nouns (-er, -or) in its names
    and comment ("has supervisor", "The employee's line manager."), each as `_stem` leaves the verb."""
    words = re.findall(r"[^\W\d_]+", " ".join([*p.names, p.comment or ""]).lower())
    return {w[:-2] for w in words if len(w) >= MIN_ROLE_NOUN and w.endswith(("er", "or"))}


class AbsenceReadings:
    """The readings of a class's things that lack a property."""

    def __init__(self, vocab: Vocab, names: SchemaNames) -> None:
        self.vocab, self.names = vocab, names

    def readings(self, question: str, anchors: list[Anchor], readings: list[QuestionReading]) -> list[QuestionReading]:
        """Empty unless the question says something is absent and asks for things of a class; every
        reading keeps what the question also names (the plain readings of that class with anchors)."""
        named = [a for a in anchors if not a.is_value]
        text = masked(question, named)
        if not ABSENT.search(text):
            return []
        target = self.names.asked_class(question, anchors)
        if target is None and ASKS_WHO.search(question):
            # "Who supervises nobody?": someone of the class the schema's people are
            self.names.name_people()
            target = self.names.person_class()
        if target is None:
            return []
        words = self.names.class_words[target]
        bases: list[QuestionReading | None] = [None, *(r for r in readings if r.kind == "members" and r.anchors
                                                       and r.answer_class == target and not r.plan.count
                                                       and r.plan.rank is None)]
        out = []
        for step, said, mids in self._lacks(target, text):
            way = self._forward(text, step.property)
            if way is not None and way == step.inverse:
                continue  # the grammar says which end is missing (see _forward)
            for base in bases:
                plan = QueryPlan(target=self.vocab.by_iri[target].name, absent=[[step]],
                                 constraints=base.plan.constraints if base is not None else [])
                text_ = said.replace("{T}", f"which {words}") + \
                    ("" if base is None else " and " + base.spelled().rstrip("?")) + "?"
                r = QuestionReading("members", plan, text_, base.anchors if base is not None else (), 1, target,
                                    clause=said, asks=f"which {words}?", mids=mids)
                r.evidence["absent"] = 1.0
                if way is not None:  # the question uses the relation's own verb: scored as naming it
                    r.evidence["verb"] = 1.0
                out.append(r)
        return out

    def _forward(self, text: str, prop: str) -> bool | None:
        """Which end of a relation the question says is missing, by English word order: the absence
        after the relation's verb is its object ("staff who report to *nobody*": forward), before it
        its subject ("staff *nobody* reports to": backwards); a passive, in the name ("is headed by")
        or in the question ("taken by nobody"), the other way round. None when the question does not
        use the relation's verb."""
        p = self.vocab.get(prop)
        neg = ABSENT.search(text)
        if p is None or p.kind != "object" or neg is None:
            return None
        own = [w for w in re.findall(r"[^\W\d_]+", p.words.lower()) if w not in STOPWORDS | AUXILIARIES]
        if not own:
            return None
        roles = _role_nouns(p)
        for m in re.finditer(r"[^\W\d_]+", text):
            stem = _stem(m.group().lower())
            # a verb whose doer the relation names by role ("supervises" where an employee has a line
            # *supervisor*) says its object does it: read as the passive "is supervised by"
            passive = p.words.endswith(" by") if stem == _stem(own[0]) else True if stem in roles else None
            if passive is not None:
                # the question's own passive ("taken by nobody") turns the order round as well
                return ((neg.end() > m.start()) != passive) != passive_at(text, m.end())
        return None

    def _lacks(self, target: str, text: str) -> list[tuple[Step, str, tuple[str, ...]]]:
        """Every property a thing of `target` may lack, with the lack in words: "{T} has no phone
        number", "{T} is headed by no employee", "no employee reports to {T}". A relation whose end
        the schema leaves open is read only where the question uses its verb ("courses nobody takes")."""
        out = []
        named = {c for g in self.names.named_class_groups(text) for c in g}

        def wider(ends: tuple[str, ...]) -> bool:
            # the question names a class narrower than the far end ("not taken by any *student*" where the
            # relation runs from any person): the absence of a person is not what it asks, and the plan
            # cannot narrow its far end
            return bool(ends) and any(ends[0] in self.vocab.ancestors(n) for n in named)

        for p in self.vocab.properties:
            if p.kind == "datatype" and self.vocab.fits(target, p.domains) and p.domains:
                out.append((Step(property=p.name), f"{{T}} has no {property_words(p)}", ()))
            elif p.kind == "object":
                said = self._forward(text, p.name) is not None
                if (p.domains or said) and self.vocab.fits(target, p.domains) and not wider(p.ranges):
                    far = self.names.class_words.get(p.ranges[0], "thing") if p.ranges else "thing"
                    step = Step(property=p.name)
                    out.append((step, clause("{T}", step, p, f"no {far}"), tuple(p.ranges[:1])))
                if (p.ranges or said) and self.vocab.fits(target, p.ranges) and not wider(p.domains):
                    far = self.names.class_words.get(p.domains[0], "thing") if p.domains else "thing"
                    step = Step(property=p.name, inverse=True)
                    out.append((step, clause("{T}", step, p, f"no {far}"), tuple(p.domains[:1])))
        return out
