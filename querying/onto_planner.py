"""Question → QueryPlan, with the model deciding as little as possible (Query_onto, plan mode).

Decided without a model:
  * entities   — the label index links the question's mentions (and the MCQ options) to IRIs;
  * count      — "how many" / "number of";
  * target     — the class named after the wh-word ("Which department …", "… of the following staff
                 members"), matched to class words by embedding similarity, or the class most options
                 link to;
  * constraint — property paths (1 or 2 steps) joining the target class to each linked entity's class,
                 through domains and ranges; a path through a class the question names ("the
                 department of Dr X") is preferred; without an entity, a datatype property chosen by
                 embedding similarity of its words to the question, its value the words after them.
The model is asked only when the top candidates are too close to call (`MARGIN`): choose one of 2–4
readings of the question written in words, or pick the literal value out of the question (checked
against the question's own words). Every choice is recorded in `Draft.decisions`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from pyramid.embeddings import Embedder
from pyramid.llm import LLM
from pyramid.ontology.labels import STOPWORDS, LabelIndex, Link, Mention, fold_word
from pyramid.ontology.vocab import Term, Vocab, name_match, names_class, word_forms
from pyramid.prompts import load_prompt
from querying.sparql_plan import Constraint, QueryPlan, Step

MARGIN = 0.04          # cosine gap under which two candidates are too close to call without the model
MIN_CLASS_SIM = 0.45   # the focus words must be at least this close to a class's words to name it
MIN_PROP_SIM = 0.25    # a datatype property this far from the question is not what it asks about
MAX_CHOICES = 4
_WORD = re.compile(r"\w+", re.UNICODE)
_WH = re.compile(r"^\s*(which|what|who|whom|whose|how many|list|name|give|find)\b(\s+of\s+the\s+following)?",
                 re.IGNORECASE)
_COUNT = re.compile(r"\b(how many|number of|count of|count the)\b", re.IGNORECASE)
_LEAD = frozenset(["in", "on", "of", "about", "for", "with", "from", "at", "by", "as", "to", "the", "a", "an"])
_VERBS = frozenset("""is are was were does do did has have had can could will would offer offers offered work works worked
                    belong belongs teach teaches taught hold holds study studies""".split())
CHOICE_SCHEMA = {"type": "object", "properties": {"choice": {"type": "integer", "minimum": 1,
                                                             "maximum": MAX_CHOICES}},
                 "required": ["choice"], "additionalProperties": False}
VALUE_SCHEMA = {"type": "object", "properties": {"value": {"type": "string", "maxLength": 80}},
                "required": ["value"], "additionalProperties": False}


@dataclass
class PathOption:
    steps: list[Step]
    score: float
    words: str                    # the path in words, for the trace and the model's choice

    def describe(self, target: Term, entity: str) -> str:
        return f"{target.words} where {self.words} {entity}"


@dataclass
class Draft:
    question: str
    plan: QueryPlan | None
    decisions: dict[str, str] = field(default_factory=dict)   # what was decided, and how
    mentions: list[Mention] = field(default_factory=list)
    option_links: list[list[Link]] = field(default_factory=list)
    reason: str = ""                                          # why there is no plan

    def trace(self) -> dict:
        return {"decisions": self.decisions, "reason": self.reason,
                "mentions": [{"text": m.text, "iris": m.iris[:5], "tier": m.links[0].tier} for m in self.mentions]}


class TermVectors:
    """Unit vectors of every class's and property's words, embedded once per vocabulary."""

    def __init__(self, vocab: Vocab, embedder: Embedder) -> None:
        self.vocab, self.embedder = vocab, embedder
        terms = list(vocab.terms.values())
        self.names = [t.name for t in terms]
        self.matrix = embedder.embed([t.text for t in terms]) if terms else np.zeros((0, 1), np.float32)
        self.row = {n: i for i, n in enumerate(self.names)}

    def similarity(self, text: str, names: list[str]) -> dict[str, float]:
        if not names or not text.strip():
            return {n: 0.0 for n in names}
        q = self.embedder.embed_one(text, kind="query")
        idx = [self.row[n] for n in names]
        sims = np.dot(self.matrix[idx], q)
        return {n: float(s) for n, s in zip(names, sims)}


class Planner:
    def __init__(self, vocab: Vocab, index: LabelIndex, vectors: TermVectors, llm: LLM | None) -> None:
        self.vocab, self.index, self.vectors, self.llm = vocab, index, vectors, llm

    # ------------------------------------------------------------------ entry point
    def draft(self, question: str, options: list[str] | None = None) -> Draft:
        d = Draft(question, None, mentions=self.index.mentions(question))
        if options:
            d.option_links = [self.index.link(o) for o in options]
        count = bool(_COUNT.search(question))
        d.decisions["count"] = "yes (wording)" if count else "no"
        focus, rest = focus_words(question, d.mentions)
        entities = self._entities(d.mentions)
        attribute = self._attribute_question(focus, entities, d)
        if attribute is not None:
            # "What is the credit value of AAE6203?": the entity's own property, not a search
            cls, ent, prop = attribute
            d.plan = QueryPlan(target=cls.name, candidates=ent.iris, returns=[prop.name])
            return d
        target = self._target(focus, d)
        if target is None:
            d.reason = "no class of the ontology matches what the question asks for"
            return d
        constraints: list[Constraint] = []
        candidates: list[str] = []
        for ent in entities:
            if target.iri in self._specific(ent.classes):
                candidates = ent.iris  # the question names an instance of the class it asks about
                continue
            path = self._path(question, rest, target, ent, d)
            if path is not None:
                constraints.append(Constraint(path=path.steps, op="eq", values=ent.iris))
        if not constraints and not candidates:
            literal = self._literal(question, rest, target, d)
            if literal is None:
                d.reason = d.reason or "no entity of the question links to the ontology, and no property fits"
                return d
            constraints.append(literal)
        if options and not candidates:
            candidates = self._option_candidates(d.option_links, target)
        d.plan = QueryPlan(target=target.name, constraints=constraints, candidates=candidates, count=count)
        return d

    # ------------------------------------------------------------------ target class
    def _target(self, focus: str, d: Draft) -> Term | None:
        classes = [c.name for c in self.vocab.classes]
        if not classes:
            return None
        sims = self.vectors.similarity(focus, classes) if focus else {}
        named = self._named_class(focus)  # the class's own word in the question is as clear as it gets
        if named is not None:
            d.decisions["target"] = named[1]
            return named[0]
        ranked = sorted(sims.items(), key=lambda kv: -kv[1])
        voted = self._option_class(d.option_links)
        if ranked and ranked[0][1] >= MIN_CLASS_SIM and (len(ranked) == 1 or ranked[0][1] - ranked[1][1] >= MARGIN):
            d.decisions["target"] = f"{ranked[0][0]} (focus {focus!r}, similarity {ranked[0][1]:.2f})"
            return self.vocab.terms[ranked[0][0]]
        if voted is not None:
            d.decisions["target"] = f"{voted.name} (the class most options link to)"
            return voted
        top = [n for n, s in ranked[:MAX_CHOICES] if s >= MIN_CLASS_SIM * 0.6]
        if len(top) >= 2:
            pick = self._choose(d, "target", d.question, [f"a {self.vocab.terms[n].words}" for n in top])
            return self.vocab.terms[top[pick]]
        if top:
            d.decisions["target"] = f"{top[0]} (only candidate, similarity {sims[top[0]]:.2f})"
            return self.vocab.terms[top[0]]
        return None

    def _named_class(self, focus: str) -> tuple[Term, str] | None:
        """The class the focus words name, and how. A name equal to the focus ('staff' = STAFF's
        altLabel) beats one the focus merely contains, a longer name a shorter one, and among equals
        the more general class wins: a bare 'staff' means STAFF, not one of its subclasses."""
        best: tuple[tuple[int, int, int], Term, str] | None = None
        for cls in self.vocab.classes:
            found = name_match(focus, cls, self._aliases(cls.name))
            if found is None:
                continue
            exact, length, name = found
            rank = (exact, length, -len(self.vocab.ancestors(cls.iri)))
            if best is None or rank > best[0]:
                how = "exactly" if exact else "in"
                best = (rank, cls, f"{cls.name} (named {how} {focus!r}: {name!r})")
        return None if best is None else (best[1], best[2])

    def _aliases(self, cls_name: str) -> set[str]:
        """Words that name a class through its properties: a word in two or more of its datatype
        properties' names ('subject' in has_subject_code, has_subject_title … names COURSE)."""
        cls = self.vocab.terms[cls_name]
        counts: dict[str, int] = {}
        for p in self.vocab.properties_of(cls.iri, "datatype"):
            if p.domains and self.vocab.fit(cls.iri, p.domains) == 1.0:
                for w in set(p.words.split()) - STOPWORDS - {"has", "is"}:
                    counts[w] = counts.get(w, 0) + 1
        return {w for w, n in counts.items() if n >= 2}

    def _specific(self, classes: list[str]) -> set[str]:
        """The classes that are not a superclass of another one in the list (COMP: DEPARTMENT, not
        FACULTY), so 'Which faculty does the Department of Computing belong to?' is a path question."""
        return {c for c in classes if not any(c in self.vocab.ancestors(o) for o in classes if o != c)}

    def _option_class(self, option_links: list[list[Link]]) -> Term | None:
        """The most specific class that at least half of the options link to."""
        if not option_links:
            return None
        votes: dict[str, int] = {}
        for links in option_links:
            for c in {c for lk in links for c in lk.classes}:
                votes[c] = votes.get(c, 0) + 1
        best = [c for c, n in votes.items() if n * 2 >= len(option_links) and self.vocab.get(c)]
        if not best:
            return None
        # among the well-supported classes, the most specific (a subclass beats its superclass)
        best.sort(key=lambda c: (-votes[c], -len(self.vocab.ancestors(c))))
        return self.vocab.get(best[0])

    # ------------------------------------------------------------------ entity constraints
    def _entities(self, mentions: list[Mention]) -> list[Entity]:
        """Mentions grouped by the IRIs they name (a code and its quoted title are one subject)."""
        groups: dict[tuple[str, ...], Entity] = {}
        for m in mentions:
            key = tuple(sorted(m.iris))
            if key in groups:
                groups[key].texts.append(m.text)
            else:
                groups[key] = Entity([m.text], m.iris, sorted(m.classes))
        return list(groups.values())

    def _paths(self, target: Term, ent: Entity) -> list[tuple[list[Step], list[str], float]]:
        """Property paths (≤ 2 steps) from the target class to the entity's classes: (steps, the
        classes passed through, the product of the domain/range fits along the way)."""
        objs = [p for p in self.vocab.properties if p.kind == "object"]
        ent_classes = [c for c in ent.classes if self.vocab.get(c)]

        def hops(cls: str) -> list[tuple[Step, tuple[str, ...], float]]:
            out = []
            for p in objs:
                if (f := self.vocab.fit(cls, p.domains)) > 0:
                    out.append((Step(property=p.name), p.ranges, f))
                if (f := self.vocab.fit(cls, p.ranges)) > 0:
                    out.append((Step(property=p.name, inverse=True), p.domains, f))
            return out

        def lands(declared: tuple[str, ...]) -> float:
            """How well the entity fits where a hop lands."""
            return max((self.vocab.fit(c, declared) for c in ent_classes), default=0.8)

        found: list[tuple[list[Step], list[str], float]] = []
        for s1, land1, f1 in hops(target.iri):
            if (f := lands(land1)) > 0:
                found.append(([s1], [], f1 * f))
            for mid in self.vocab.classes:
                fm = self.vocab.fit(mid.iri, land1) if mid.iri != target.iri else 0.0
                if fm == 0:
                    continue
                for s2, land2, f2 in hops(mid.iri):
                    if s2.property != s1.property and (f := lands(land2)) > 0:
                        found.append(([s1, s2], [mid.iri], f1 * fm * f2 * f))
        return found

    def _path(self, question: str, rest: str, target: Term, ent: Entity, d: Draft) -> PathOption | None:
        found = self._paths(target, ent)
        if not found:
            return None
        named = {c.iri for c in self.vocab.classes if names_class(rest, c)}
        sims = self.vectors.similarity(rest or question, [p.name for p in self.vocab.properties])
        options: list[PathOption] = []
        for steps, mids, fit in found:
            words = " then ".join(_step_words(self.vocab.terms[s.property], s.inverse) for s in steps)
            score = float(np.mean([sims[s.property] for s in steps]))
            score -= 0.15 * (len(steps) - 1)              # shorter readings first …
            score += 0.3 * sum(m in named for m in mids)  # … unless the question names the class between
            score -= 0.2 * (1 - fit)                      # domains and ranges that only may fit
            options.append(PathOption(steps, round(score, 4), words))
        options.sort(key=lambda o: -o.score)
        name = " / ".join(ent.texts[:1])
        if len(options) == 1 or options[0].score - options[1].score >= MARGIN:
            d.decisions[f"path to {name!r}"] = f"{options[0].words} (score {options[0].score:.2f})"
            return options[0]
        top = options[:MAX_CHOICES]
        pick = self._choose(d, f"path to {name!r}", question, [o.describe(target, name) for o in top])
        return top[pick]

    def _option_candidates(self, option_links: list[list[Link]], target: Term) -> list[str]:
        """IRIs of the options that are instances of the target class (restricts the answer to them)."""
        out: list[str] = []
        for links in option_links:
            out += [lk.iri for lk in links if any(self.vocab.compatible(c, target.iri) for c in lk.classes)]
        return list(dict.fromkeys(out))

    # ------------------------------------------------------------------ attribute / literal
    def _attribute_question(self, focus: str, entities: list[Entity], d: Draft
                            ) -> tuple[Term, Entity, Term] | None:
        """(class, entity, datatype property) when the focus words name a property of a named
        entity better than they name any class: 'What is the credit value of AAE6203?'."""
        if not focus or not entities or any(names_class(focus, c) for c in self.vocab.classes):
            return None
        class_best = max(self.vectors.similarity(focus, [c.name for c in self.vocab.classes]).values(), default=0.0)
        best: tuple[float, Term, Entity, Term] | None = None
        for ent in entities:
            for cls_iri in ent.classes:
                cls = self.vocab.get(cls_iri)
                props = self.vocab.properties_of(cls_iri, "datatype") if cls else []
                for name, sim in self.vectors.similarity(focus, [p.name for p in props]).items():
                    # the most specific class that has the property wins a tie (DEPARTMENT over FACULTY)
                    rank = sim + 0.001 * len(self.vocab.ancestors(cls_iri))
                    if sim >= MIN_PROP_SIM and (best is None or rank > best[0]):
                        best = (rank, cls, ent, self.vocab.terms[name])  # type: ignore[arg-type]
        if best is None or best[0] < class_best:
            return None
        _, cls, ent, prop = best
        d.decisions["attribute"] = f"{prop.name} of {ent.texts[0]!r} ({cls.name}; focus {focus!r}, " \
                                   f"similarity {best[0]:.2f} > best class {class_best:.2f})"
        return cls, ent, prop

    def _literal(self, question: str, rest: str, target: Term, d: Draft) -> Constraint | None:
        props = self.vocab.properties_of(target.iri, "datatype")
        if not props:
            return None
        sims = self.vectors.similarity(rest or question, [p.name for p in props])
        ranked = [(n, s) for n, s in sorted(sims.items(), key=lambda kv: -kv[1]) if s >= MIN_PROP_SIM]
        if not ranked:
            return None
        if len(ranked) == 1 or ranked[0][1] - ranked[1][1] >= MARGIN:
            prop = self.vocab.terms[ranked[0][0]]
            d.decisions["property"] = f"{prop.name} (similarity {ranked[0][1]:.2f})"
        else:
            top = [n for n, _ in ranked[:MAX_CHOICES]]
            prop = self.vocab.terms[top[self._choose(d, "property", question,
                                                     [f"{target.words} {self.vocab.terms[n].words} …" for n in top])]]
        number = compared_number(question)
        if number is not None:
            op, value = number
            d.decisions["value"] = f"{op} {value} (a number in the question)"
            return Constraint(path=[Step(property=prop.name)], op=op, values=[value])  # type: ignore[arg-type]
        value = value_after(question, prop) or self._ask_value(question, prop, d)
        if not value:
            d.reason = f"no value for {prop.name} found in the question"
            return None
        d.decisions.setdefault("value", f"{value!r} (the words after the property's)")
        return Constraint(path=[Step(property=prop.name)], op="contains", values=[value])

    # ------------------------------------------------------------------ the model's small decisions
    def _choose(self, d: Draft, what: str, question: str, readings: list[str]) -> int:
        """Index of the reading the model picks; the first (best-scored) one without a model."""
        if self.llm is None:
            d.decisions[what] = f"{readings[0]} (best score; no model)"
            return 0
        numbered = "\n".join(f"{i}. {r}" for i, r in enumerate(readings, 1))
        reply = self.llm.complete(load_prompt("querying", "ontology_choice").render(
            question=question, readings=numbered), CHOICE_SCHEMA, max_tokens=12).parsed
        pick = reply["choice"] - 1 if 1 <= reply["choice"] <= len(readings) else 0
        d.decisions[what] = f"{readings[pick]} (chosen by the model among {len(readings)})"
        return pick

    def _ask_value(self, question: str, prop: Term, d: Draft) -> str:
        if self.llm is None:
            return ""
        reply = self.llm.complete(load_prompt("querying", "ontology_value").render(
            question=question, property=prop.words), VALUE_SCHEMA, max_tokens=40).parsed
        value = " ".join(reply["value"].split()).strip(" ?.\"'")
        # The model may only copy words of the question; anything else is invented.
        qwords = {fold_word(w) for w in _WORD.findall(question)}
        if not value or not all(fold_word(w) in qwords for w in _WORD.findall(value)):
            d.decisions["value"] = f"model's value {value!r} is not in the question; dropped"
            return ""
        d.decisions["value"] = f"{value!r} (picked out by the model)"
        return value


@dataclass
class Entity:
    """One thing the question names: its mentions' texts, the IRIs they link to, their classes."""

    texts: list[str]
    iris: list[str]
    classes: list[str]


# ------------------------------------------------------------------ wording helpers (no model)

_NUMBER = re.compile(r"\b(more than|greater than|over|above|at least|less than|fewer than|under|below|at most|"
                     r"exactly)?\s*(-?\d+(?:\.\d+)?)\s*(or more|or less|or fewer)?\b", re.IGNORECASE)
_OPS = {"more than": "gt", "greater than": "gt", "over": "gt", "above": "gt", "at least": "ge",
        "less than": "lt", "fewer than": "lt", "under": "lt", "below": "lt", "at most": "le", "exactly": "eq",
        "or more": "ge", "or less": "le", "or fewer": "le"}


def compared_number(question: str) -> tuple[str, str] | None:
    """('gt', '5') for 'more than 5 credits'; ('eq', '3') for a bare number; None without a number.
    Numbers inside codes (AAE6203) are not numbers of the question."""
    for m in _NUMBER.finditer(question):
        start = m.start(2)
        if start > 0 and question[start - 1].isalnum():
            continue
        word = (m.group(1) or m.group(3) or "").lower()
        return _OPS.get(word, "eq"), m.group(2)
    return None


def focus_words(question: str, mentions: list[Mention]) -> tuple[str, str]:
    """(the words naming what is asked for, the question without those words and the mentions).

    'Which of the following staff members work for the School of Design?' → ('staff members',
    'work for the ?'); 'How many subjects does COMP offer?' → ('subjects', 'does offer?').
    """
    text = question
    for m in sorted(mentions, key=lambda m: -m.start):
        text = text[:m.start] + " " + text[m.end:]
    wh = _WH.match(text) or re.match(r"^\s*(how many)\b", text, re.IGNORECASE)
    after = text[wh.end():] if wh else text
    if wh and wh.group(1).lower() in ("who", "whom"):
        return "person", " ".join(after.split())
    words = after.split()
    # "What is the credit value of …", "What are the research interests of …"
    while words and words[0].lower() in ("is", "are", "was", "were", "the"):
        words = words[1:]
    focus: list[str] = []
    for w in words:
        bare = w.strip("?,.;:!\"'").lower()
        if not bare or bare in _VERBS or (bare in STOPWORDS and bare not in ("the",)) or len(focus) >= 3:
            break
        if bare != "the":
            focus.append(w.strip("?,.;:!\"'"))
    rest = " ".join(words[len(focus):]) if wh else text
    if wh and not focus:
        rest = after
    return " ".join(focus), " ".join(rest.split())


def value_after(question: str, prop: Term) -> str:
    """The words after the last question word that belongs to the property's words, minus leading
    prepositions: 'have research interests in mechatronics?' (has_research_interest) → 'mechatronics'."""
    pwords = {f for w in _WORD.findall(prop.words) for f in word_forms(w)} - STOPWORDS - {"has"}
    tokens = list(_WORD.finditer(question))
    last = max((i for i, t in enumerate(tokens) if word_forms(t.group().lower()) & pwords), default=None)
    if last is None:
        return ""
    tail = tokens[last + 1:]
    while tail and tail[0].group().lower() in _LEAD:
        tail = tail[1:]
    if not tail:
        return ""
    return question[tail[0].start():tail[-1].end()].strip()


def _step_words(p: Term, inverse: bool) -> str:
    return f"(is what) {p.words}" if inverse else p.words
