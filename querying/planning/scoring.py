"""Stage 3, score: each reading against the question — the embedding cosine of the question (its
anchors masked the same way) with the reading and with what it answers with, what of the question
it covers, the classes and properties the question names in its own words, the question's cues
(a number, someone, a place, a role, a ranking), and how far the options are of its answer class."""

from __future__ import annotations

import numpy as np

from pyramid.ontology.labels import LabelLink
from pyramid.vocab import Vocab
from querying.planning.anchors import strength
from querying.planning.cues import COORDINATED, LOCATIVE, POLAR, QuestionCues
from querying.planning.names import SchemaNames
from querying.planning.records import COSINE_DIGITS, SHARE_DIGITS, Anchor, QuestionReading
from querying.planning.vectors import QueryVectors
from querying.planning.weights import (
    ASKS,
    COUNT_BONUS,
    COVER,
    EMPTY,
    MISFIT,
    NAMED,
    OPTION_CLASS,
    PLACE,
    POLAR_FIT,
    POLAR_ORDER,
    RANK_BONUS,
    RELATION_SAID,
    STEP_COST,
    SUBCLASS_OPTION,
    UNNAMED_VALUE,
)
from querying.planning.wording import (
    agent_said,
    asker_is_agent,
    first_is_subject,
    forms,
    masked,
    names_content_words,
    names_whole,
    values_spelled,
    words_outside,
)


class ReadingScorer:
    """Gives every reading its score and records the terms in its evidence."""

    def __init__(self, vocab: Vocab, names: SchemaNames, vectors: QueryVectors,
                 single: frozenset[tuple[str, str]] = frozenset()) -> None:
        self.vocab, self.names, self.vectors = vocab, names, vectors
        self.single = single  # (object property IRI, "out" | "in"): held once per thing at that end

    def score(self, question: str, readings: list[QuestionReading], option_links: list[list[LabelLink]]) -> None:
        masks = [masked(question, r.anchors, values=False) for r in readings]
        qv = self.vectors.embedder.embed(list(dict.fromkeys(masks)), kind="query")
        qidx = {m: i for i, m in enumerate(dict.fromkeys(masks))}
        rv = self.vectors.embed([values_spelled(r.text, r.anchors) for r in readings])
        av = self.vectors.embed([r.asks for r in readings])
        extra = [t for r in readings for text, said in r.variants for t in (values_spelled(text, r.anchors), said)]
        if extra:
            self.vectors.embed(extra)
        # Does the question ask for a number, or for someone? Its cues say (see QuestionCues), read
        # with the instances every reading names masked
        named = [a for a in {a.spans: a for r in readings for a in r.anchors}.values() if not a.is_value]
        cues = QuestionCues.read(question, named)
        polar = bool(POLAR.match(question))
        cv = self.vectors.embed([cues.counted])[0] if cues.counted else None
        words = words_outside(question, [a for r in readings for a in r.anchors if not a.is_value])
        weight = {a.spans: strength(a) for r in readings for a in r.anchors}
        total = sum(weight.values()) or 1.0
        for i, r in enumerate(readings):
            sem, asks = self._likeness(r, qv[qidx[masks[i]]], rv[i], av[i], cv)
            cover = sum({a.spans: weight[a.spans] for a in r.anchors}.values()) / total
            r.evidence["sem"], r.evidence["asks"], r.evidence["cover"] = \
                round(sem, COSINE_DIGITS), round(asks, COSINE_DIGITS), round(cover, SHARE_DIGITS)
            r.score = (sem + ASKS * asks + COVER * cover - STEP_COST * (r.steps - 1)
                       - MISFIT * (1 - r.evidence.get("fit", 1.0)))
            self._by_cues(r, cues, words)
            if self._says_a_step(r, words):
                # the question's own verb names a relation the reading walks ("the facilities that X manages"):
                # among near ties, the reading that walks it
                r.evidence["relation_said"] = 1.0
                r.score += RELATION_SAID
            if r.evidence.get("unheld") and not r.evidence.get("said") and not self._relation_said(r, words):
                # a step the data never takes from X, read only where the question says that relation
                r.evidence["unheld"] = 0.0
                r.score -= EMPTY
            if r.plan.count and self._one_each(r) and not self._relation_said(r, words):
                # "how many" along a relation every X has once ("in charge of" a ward) counts one, always:
                # the question meant another relation, unless it says this one
                r.evidence["one_each"] = -1.0
                r.score -= EMPTY
            if polar:
                self._polar_fit(r, named, question)
            elif self._against_word_order(r, question):
                r.evidence["wh_order"] = -1.0
                r.score -= POLAR_ORDER
            if option_links:
                share = self._option_share(r, option_links)
                r.evidence["options_of_class"] = round(share, SHARE_DIGITS)
                r.score += OPTION_CLASS * share

    def _likeness(self, r: QuestionReading, q: np.ndarray, reading: np.ndarray, answers: np.ndarray,
                  counted: np.ndarray | None) -> tuple[float, float]:
        """The question's cosine with the reading and with what it answers with, each the best over
        the names of its answer class."""
        sem, asks = float(np.dot(q, reading)), float(np.dot(q, answers))
        for text, said in r.variants:
            sem = max(sem, float(np.dot(q, self.vectors[values_spelled(text, r.anchors)])))
            asks = max(asks, float(np.dot(q, self.vectors[said])))
        if counted is not None and r.plan.count and r.answer_class:
            # what a count counts is the noun after its cue, not the whole question ("count the
            # people in X's departments" counts people): that noun against the counted class
            asks = float(np.dot(counted, self.vectors.embed([self.names.class_words[r.answer_class]])[0]))
        return sem, asks

    def _by_cues(self, r: QuestionReading, cues: QuestionCues, words: set[str]) -> None:
        """The terms the question's own words and cues add to a reading's score."""
        # the question's own words name the answer's class, a class on the way, or the attribute
        classes = ((r.answer_class,) if r.answer_class else ()) + r.mids
        named = [self.names.names(c, words) for c in classes]
        # … or a class a property of the reading defines ("Who chairs X?": whoever is the head of X is a chair),
        # where no class of the reading already names it
        defined = {c for name in r.plan.properties() if (t := self.vocab.get(name)) for c in self.vocab.defines.get(t.iri, ())}
        named += [True for c in defined if self.names.names(c, words) and
                  not any(self.vocab.compatible(c, k) and self.names.names(k, words) for k in classes)]
        if cues.counted and r.plan.count and r.answer_class:
            # what a count counts is named by its noun only: "how many academics across X's
            # *departments*" names the departments on the way, not as what is counted
            named[0] = self.names.names(r.answer_class, cues.counted_words)
        agent = r.kind == "attribute" and agent_said(r.prop, words)  # "Who operates X?": "operated by"
        if r.prop:
            named.append(names_whole(r.property_names(), words) or agent)
        if r.evidence.get("verb"):  # an absence read off the relation's verb (see absence._forward)
            named.append(True)
        if r.value_class:  # values that are other instances' codes: "which subject must come first?"
            named.append(any(set(forms(n)) <= words for n in self.names.class_names[r.value_class]))
        if any(named):
            r.evidence["named"] = float(sum(named))
            r.score += NAMED * sum(named)
        if cues.which and r.kind == "attribute" and not any(named) and not (
                names_content_words(r.property_names())) & words:
            r.evidence["which"] = 1.0
            r.score -= UNNAMED_VALUE
        if cues.role and r.kind == "members":
            r.evidence["as_what"] = 1.0
            r.score -= EMPTY
        if cues.someone and r.kind == "attribute" and not agent:  # "who …?" asks for someone, not a value
            r.evidence["who"] = 1.0
            r.score -= EMPTY
        if cues.place and r.kind == "attribute" and not any(named) and \
                not any(LOCATIVE.search(n) for n in r.property_names()):
            # "where …?" asks for a place or a body; a value only when the question names its property
            # ("where did X obtain a degree" names obtained_degree) or the property is a place's
            r.evidence["where"] = 1.0
            r.score -= PLACE
        if r.plan.rank is not None:  # only made for a superlative, a comparative or a threshold
            r.evidence["rank"] = 1.0
            r.score += RANK_BONUS
        if r.plan.count:  # a count only for a question that asks for a number
            r.evidence["quantity"] = float(cues.quantity)
            r.score += COUNT_BONUS if cues.quantity else -EMPTY

    def _polar_fit(self, r: QuestionReading, named: list[Anchor], question: str) -> None:
        """A yes/no question's other named things are what the reading's answers must hold (polar.py).
        A value the question does not name says yes to nothing it asks ("Has X ever borrowed anything?"
        is not yes because X has a membership fee)."""
        used = {a.spans for a in r.anchors}
        others = [a for a in named if a.spans not in used]
        if r.kind == "attribute" and not r.plan.aggregate and not r.evidence.get("named") and \
                not names_content_words(r.property_names()) & words_outside(question, named):
            r.evidence["polar_value"] = -1.0
            r.score -= EMPTY
        if not others:
            if self._through_a_third(r, question):
                r.evidence["polar_order"] = -1.0
                r.score -= POLAR_ORDER
            return
        if r.kind == "attribute":
            r.evidence["polar_fit"] = -1.0
            r.score -= POLAR_FIT
        elif r.answer_class and any(self.vocab.compatible(r.answer_class, c) for a in others for c in a.classes):
            r.evidence["polar_fit"] = 1.0
            r.score += POLAR_FIT
        if r.kind == "members" and len(r.anchors) == 1 and self._reversed(r, others[0], question):
            r.evidence["polar_order"] = -1.0
            r.score -= POLAR_ORDER

    def _against_word_order(self, r: QuestionReading, question: str) -> bool:
        """A one-step reading of a relation between things of one kind ("reports to", staff to staff),
        whose ends only English word order tells apart, that answers with the other end from the one the
        question asks for ("Who does X report to?" read as "which staff report to X")."""
        if r.kind != "members" or len(r.plan.constraints) != 1 or len(r.plan.constraints[0].path) != 1:
            return False
        step = r.plan.constraints[0].path[0]
        p = self.vocab.get(step.property)
        if p is None or p.kind != "object" or not p.domains or not p.ranges or \
                not any(self.vocab.compatible(d, g) for d in p.domains for g in p.ranges):
            return False
        agent = asker_is_agent(question, p.names)
        # the reading's answer does what the relation says when it is the subject of a relation named
        # actively, or the object of one named by a passive ("is supervised by")
        return agent is not None and agent != ((not step.inverse) != p.words.endswith(" by"))

    def _one_each(self, r: QuestionReading) -> bool:
        """A one-step reading whose anchor has at most one thing at the other end in all the data: the
        answer's step points at the anchor ("in": no anchor has two), or leaves it ("out")."""
        if len(r.plan.constraints) != 1 or len(r.plan.constraints[0].path) != 1:
            return False
        step = r.plan.constraints[0].path[0]
        p = self.vocab.get(step.property)
        return p is not None and (p.iri, "out" if step.inverse else "in") in self.single

    def _says_a_step(self, r: QuestionReading, words: set[str]) -> bool:
        """Some step of the reading (of any length) is a property the question names whole."""
        props = [self.vocab.get(st.property) for c in r.plan.constraints for st in c.path]
        return any(p is not None and p.kind == "object" and names_whole(p.names, words) for p in props)

    def _relation_said(self, r: QuestionReading, words: set[str]) -> bool:
        """Some name of the reading's (one-step) relation is said whole by the question's words."""
        props = [self.vocab.get(c.path[0].property) for c in r.plan.constraints if len(c.path) == 1]
        return any(p is not None and names_whole(p.names, words) for p in props)

    @staticmethod
    def _through_a_third(r: QuestionReading, question: str) -> bool:
        """"Is A <relation> B?" read as "is something <relation> both A and B": every constraint one step
        of the same property from the answer, while the question says the relation once, between A and
        B (not "A and B", whose coordination does share it)."""
        steps = [c.path for c in r.plan.constraints]
        if r.kind != "members" or len(steps) < 2 or any(len(p) != 1 for p in steps) or \
                len({p[0].property for p in steps}) != 1:
            return False
        spans = sorted(a.spans[0] for a in r.anchors if a.spans)
        return not any(COORDINATED.fullmatch(question[b:c].strip()) for (_, b), (c, _) in zip(spans, spans[1:]))

    def _reversed(self, r: QuestionReading, other: Anchor, question: str) -> bool:
        """A one-step reading of "Is A <relation> B?" that makes B the relation's subject where the
        question's own words make it A (or the other way round)."""
        if len(r.plan.constraints) != 1 or len(r.plan.constraints[0].path) != 1:
            return False
        step = r.plan.constraints[0].path[0]
        p = self.vocab.get(step.property)
        x = r.anchors[0]
        if p is None or not x.spans or not other.spans:
            return False
        (xa, xb), (ya, yb) = x.spans[0], other.spans[0]
        first = first_is_subject(question[min(xb, yb):max(xa, ya)], p.names, p.words.endswith(" by"))
        if first is None:
            return False
        # the reading's answer (where `other` must be) is the subject of a step walked forward
        return (not step.inverse) != ((ya < xa) == first)

    def _option_share(self, r: QuestionReading, option_links: list[list[LabelLink]]) -> float:
        """How far the options are things of the kind the reading answers with: 1 for an option of the
        answer class itself, ½ for one of a subclass of it; for a value reading, options naming no instance."""
        if r.plan.count:
            return 0.0
        if r.answer_class is None:
            return sum(not links for links in option_links) / len(option_links)
        cls = r.answer_class

        def fit(links: list[LabelLink]) -> float:
            specific = self.names.specific({c for lk in links for c in lk.classes if self.vocab.get(c)})
            return 1.0 if cls in specific else SUBCLASS_OPTION if any(
                cls in self.vocab.ancestors(c) for c in specific) else 0.0
        return sum(fit(links) for links in option_links) / len(option_links)
