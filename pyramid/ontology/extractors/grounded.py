"""`ontology.extract_method = grounded` (the default; `auto` takes it for text that is no page about one entity):
f_ins without the one call per chunk, a schema-aware reading that needs the model only for close calls:

    chunk ─ pyramid/reading (rules, names): sentences, pronouns → the document's main entity, rule triples
          ─ typing from cues, not from the model: Dr/Prof → staff classes, "is an assistant professor"
            → that subclass, the head word of a name ("Department of …", "… University") → the class
            with that name, a course code → the class named "course"/"subject"; instances already in
            the store keep their class (label index)
          ─ each triple → the property whose domain fits the subject's class and whose range fits the
            object (object properties: the object must be typed with the range class; datatype
            properties: integer/year/URI ranges need a value of that shape, and a value that is just
            the subject's own name is dropped), read forwards or backwards ('the department's head is
            Prof. X' → head_of(X, department)), chosen by MiniLM similarity of the relation to the
            property's words and comment; below `MIN_SIMILARITY` nothing is asserted, except that two
            typed instances linked by a weak relation get the most general fitting object property;
            when the two best properties are within `CLOSE_CALL` the model picks one of them (enum)
          ─ a course named "CODE Title" gets its code and title properties; a rank stated with a
            copula ("is a lecturer") also fills the staff member's position property
          ─ linking and the document's named graph as above
"""

from __future__ import annotations

import re

import numpy as np

from pyramid.chunker import Chunk
from pyramid.normalise import CODE_TOKEN as CODE
from pyramid.normalise import strip_titles
from pyramid.ontology.extractors.base import RDF_TYPE, RDFS_LABEL, ChunkInstances, Fact
from pyramid.ontology.extractors.chunk import ChunkFacts, FactExtractor, _Asked
from pyramid.ontology.labels import fold_words
from pyramid.plugins import Entry, Registry
from pyramid.prompts import load_prompt
from pyramid.reading.names import CODE_WORDS
from pyramid.reading.rules import RULES_VERSION, read
from pyramid.vocab import Term, word_forms

MIN_SIMILARITY = 0.45   # weakest relation-to-property similarity that asserts a datatype fact
CLOSE_CALL = 0.03       # two properties this close in similarity are a decision for the model
BACKWARDS_PENALTY = 0.05  # a triple read backwards must beat the forward reading by this much

_NUMBER = re.compile(r"^\d+(\.\d+)?$")
_YEAR = re.compile(r"^\d{4}$")


class GroundedChunkReader:
    """The grounded f_ins of one chunk for one extractor (see the module docstring)."""

    def __init__(self, ex: GroundedFactExtractor) -> None:
        self.ex, self.vocab = ex, ex.vocab
        cache = getattr(ex, "_grounded_cache", None)
        if cache is None:
            props = [p for p in self.vocab.properties if p.domains]
            words = ex.embedder.embed([p.words for p in props])
            texts = ex.embedder.embed([p.text for p in props])
            # class names of one or two words ('department', 'assistant professor', 'subject'), longest first
            by_name: dict[str, str] = {}
            for c in self.vocab.classes:
                for n in c.names:
                    by_name.setdefault(n, c.iri)
            cache = ex._grounded_cache = (props, words, texts, by_name, {})
        self.props, self.pwords, self.ptexts, self.class_by_name, self.rel_vectors = cache

    # -- typing
    def cue_class(self, name: str) -> str | None:
        words = re.findall(r"[\w-]+", name)
        if not words:
            return None
        low = [w.lower() for w in words]
        if CODE.match(words[0]):
            return next((self.class_by_name[w] for w in CODE_WORDS if w in self.class_by_name), None)
        title = {"prof": "professor", "professor": "professor", "dr": "staff", "mr": "staff", "ms": "staff",
                 "mrs": "staff"}.get(low[0].rstrip("."))
        if title:
            return self.class_by_name.get(title) or self.class_by_name.get("staff member")
        head = low[low.index("of") - 1] if "of" in low and low.index("of") > 0 else low[-1]
        for form in word_forms(head):
            if form in self.class_by_name and (words[0][:1].isupper()):
                return self.class_by_name[form]
        hits = self.ex.linker.index.link(name, fuzzy=False, limit=1)
        if hits and hits[0].classes:
            return hits[0].classes[0]
        return None

    def rank_class(self, value: str) -> str | None:
        """'an assistant professor' → AssistantProfessor (a class name written as a copula's object)."""
        text = " ".join(w for w in re.findall(r"\w+", value.lower()) if w not in {"a", "an", "the"})
        return self.class_by_name.get(text)

    def narrower(self, a: str | None, b: str | None) -> str | None:
        """The more specific of two compatible classes (a when they conflict)."""
        if a is None or b is None:
            return a or b
        if b in self.vocab.ancestors(a) or a == b:
            return a
        if a in self.vocab.ancestors(b):
            return b
        return a

    # -- property choice
    def _rel_vector(self, rel: str) -> np.ndarray:
        if rel not in self.rel_vectors:
            self.rel_vectors[rel] = self.ex.embedder.embed_one(rel, kind="document")
        return self.rel_vectors[rel]

    def _value_fits(self, prop: Term, value: str, subject: str) -> bool:
        if fold_words(value) == fold_words(subject) or not fold_words(value):
            return False  # the subject's own name is no value of it
        rng = prop.ranges[0].rsplit("#", 1)[-1] if prop.ranges else "string"
        if rng in ("integer", "int", "decimal", "double", "float", "nonNegativeInteger", "positiveInteger"):
            return bool(_NUMBER.match(value.strip()))
        if rng == "gYear":
            return bool(_YEAR.match(value.strip()))
        if rng == "anyURI":
            return value.strip().startswith(("http://", "https://", "www."))
        return True

    def choose(self, s: str, rel: str, o: str, types: dict[str, str | None]) -> tuple[str, Term, str] | None:
        """(subject, property, value) for one triple, or None (see the module docstring)."""
        q = self._rel_vector(rel)
        sims = np.maximum(np.dot(self.pwords, q), np.dot(self.ptexts, q))
        options: list[tuple[float, Term, str, str]] = []
        weak_links: list[tuple[Term, str, str]] = []
        for i, p in enumerate(self.props):
            for subj, obj, back in ((s, o, False), (o, s, True)):
                cs, co = types.get(subj), types.get(obj)
                if cs is None or self.vocab.fit(cs, p.domains) < 0.5:
                    continue
                if p.kind == "object":
                    if co is None or not p.ranges or self.vocab.fit(co, p.ranges) < 0.5:
                        continue
                    weak_links.append((p, subj, obj))
                elif back or not self._value_fits(p, obj, subj) or (co is not None and any(
                        self.vocab.fit(co, q.ranges) == 1.0 for q in self.props if q.kind == "object" and q.ranges
                        and self.vocab.fit(cs, q.domains) >= 0.5)):
                    continue  # a typed instance that an object property of the subject takes is no literal
                options.append((float(sims[i]) - (BACKWARDS_PENALTY if back else 0.0), p, subj, obj))
        options.sort(key=lambda x: -x[0])
        if options and options[0][0] >= MIN_SIMILARITY:
            best = options[0]
            rivals = [x for x in options[1:] if best[0] - x[0] <= CLOSE_CALL and x[1].iri != best[1].iri]
            if rivals and self.ex.llm is not None:
                best = self._ask(s, rel, o, [best, *rivals[:2]])
            return best[2], best[1], best[3]
        # two typed instances joined by 'is a lecturer in' / 'at': the most general fitting object property
        # (only a prepositional link: 'won the Faculty of Business Teaching Award' says nothing of the kind)
        if weak_links and rel.split()[-1].lower() in ("in", "at", "of", "for", "with"):
            general = [x for x in weak_links if not (self.ex.super_props.get(x[0].iri, set()) &
                                                     {y[0].iri for y in weak_links})]
            p, subj, obj = (general or weak_links)[0]
            if not any(x[0].iri != p.iri and x[1] == subj for x in general[1:]):
                return subj, p, obj
        return None

    def _ask(self, s: str, rel: str, o: str, options: list[tuple[float, Term, str, str]]):
        """The model's one decision: which of 2–3 readings the sentence's words mean (an enum)."""
        readings = [f"{subj} {p.words} {obj}" for _, p, subj, obj in options]
        prompt = load_prompt("pyramid.ontology", "f_choose").render(fact=f"{s} {rel} {o}",
                                                                    readings="\n".join(f"- {r}" for r in readings))
        schema = {"type": "object", "properties": {"reading": {"enum": readings}}, "required": ["reading"],
                  "additionalProperties": False}
        reply = self.ex.llm.complete(prompt, schema, max_tokens=60).parsed
        return options[readings.index(reply["reading"])]

    # -- the chunk
    def extract(self, chunk: Chunk, title: str) -> ChunkInstances:
        with self.ex.llm.meter.scope() as usage:
            sentences = read(chunk.text, title)
            triples = [t for sent in sentences for t in sent.triples]
            names = list(dict.fromkeys(x for t in triples for x in (t.subject, t.object)))
            types: dict[str, str | None] = {n: self.cue_class(n) for n in names}
            facts: list[tuple[str, Term, str]] = []
            position = next((p for p in self.props if p.kind == "datatype" and
                             {"position", "rank", "post"} & set(p.words.split())), None)
            for t in triples:  # ranks first: they refine the subject's class
                rank = self.rank_class(t.object) if t.relation.split()[0].lower() in ("is", "was", "are") else None
                if rank is not None:
                    types[t.object] = None  # 'a professor' is the subject's class, not an instance
                if rank is not None and (types.get(t.subject) is None or self.vocab.compatible(rank, types[t.subject])):
                    types[t.subject] = self.narrower(rank, types.get(t.subject))
                    if position is not None and self.vocab.fit(types[t.subject], position.domains) >= 0.5:
                        facts.append((t.subject, position, t.object))
            for t in triples:
                if self.rank_class(t.object) is not None and t.relation.split()[0].lower() in ("is", "was", "are"):
                    continue
                got = self.choose(t.subject, t.relation, t.object, types)
                if got is None:
                    continue
                subj, prop, value = got
                facts.append(got)
                if prop.kind == "object":  # the range refines the instances' classes (taught_by → AcademicStaff)
                    types[value] = self.narrower(prop.ranges[0], types.get(value)) if \
                        self.vocab.compatible(prop.ranges[0], types.get(value) or prop.ranges[0]) else types.get(value)
                    if prop.domains and self.vocab.compatible(prop.domains[0], types.get(subj) or prop.domains[0]):
                        types[subj] = self.narrower(prop.domains[0], types.get(subj))
            # a course named "CODE Title": its code and title properties
            for n, c in list(types.items()):
                words = n.split()
                if c is None or not words or not CODE.match(words[0]):
                    continue
                for p in self.props:
                    if p.kind != "datatype" or self.vocab.fit(c, p.domains) < 1.0:
                        continue
                    if p.words.endswith(" code"):
                        facts.append((n, p, words[0]))
                    elif p.words.endswith(" title") and len(words) > 1:
                        facts.append((n, p, " ".join(words[1:])))
        out = ChunkInstances(chunk.id, chunk.doc_id, [], [], usage.model_copy())
        self._to_facts(out, facts, types)
        return out

    def _to_facts(self, out: ChunkInstances, facts: list[tuple[str, Term, str]], types: dict[str, str | None]) -> None:
        def label(name: str) -> str:
            return strip_titles(name)  # 'Prof. Alice Chen' is labelled 'Alice Chen' (the index folds titles anyway)

        iris: dict[str, str] = {}

        def iri_of(name: str) -> str:
            if name not in iris:
                cls, folded = types[name], " ".join(fold_words(label(name)))
                # one person typed AssistantProfessor in her page and AcademicStaff in a course page is
                # one instance: an IRI minted in this run under a compatible class is reused
                iri = next((v for (c, f), v in self.ex.linker.minted.items()
                            if f == folded and self.vocab.compatible(c, cls)), None)
                if iri is None:
                    iri, existing = self.ex.linker.link(label(name), cls)
                    out.linked += existing
                    out.minted += not existing
                else:
                    out.linked += 1
                # every document graph types and labels what it names, so it stands alone when
                # another document (and its graph) is removed
                out.facts.extend([Fact(iri, RDF_TYPE, cls, False), Fact(iri, RDFS_LABEL, label(name), True)])
                iris[name] = iri
            return iris[name]

        for subj, prop, value in dict.fromkeys(facts):
            if types.get(subj) is None:
                out.dropped += 1
                continue
            s_iri = iri_of(subj)
            if prop.kind == "object":
                out.facts.append(Fact(s_iri, prop.iri, iri_of(value), False))
            else:
                out.facts.append(Fact(s_iri, prop.iri, " ".join(value.split()), True))
        # typed instances the chunk names with no fact still get their class (a department, a university)
        for name, cls in types.items():
            if cls is not None and name not in iris:
                iri_of(name)


class GroundedFactExtractor(FactExtractor):
    """`FactExtractor` whose chunks are read by rule and linked by meaning and types, the model asked
    only to settle a close call: nothing is asked ahead (`ask`); all of it is settled in chunk order."""

    def version_extra(self) -> str:
        return (f"grounded:{RULES_VERSION}:{MIN_SIMILARITY}:{CLOSE_CALL}:{BACKWARDS_PENALTY}:" +
                load_prompt("pyramid.ontology", "f_choose").version)

    def ask(self, chunk: Chunk, title: str = "") -> _Asked:
        return _Asked(title, [], None, None)  # reads and links in one pass (`settle`)

    def settle(self, chunk: Chunk, asked: _Asked) -> ChunkInstances:
        return GroundedChunkReader(self).extract(chunk, asked.title)


class GroundedFacts(ChunkFacts):
    name = "grounded"
    extractor_class = GroundedFactExtractor


def register(registry: Registry) -> None:
    registry.register(Entry("grounded", GroundedFacts, "sentences read by rule, linked to the schema by meaning "
                            "and types; the model only for a close call"))
