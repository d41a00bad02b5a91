"""f_ins (PolyRAG eq. 1): instances of the schema's class-attribute pairs, extracted from each chunk.

    chunk ─ embed ─ the `ontology.extract_pairs` class-attribute pairs most similar to it
          ─ ONE structured call: {"instances": [{"class", "name", "facts": [{"property", "value"}]}]}
            (class and property are enums of the pre-selected pairs: the model cannot name a term
             the schema lacks, and one call covers every pair of the chunk)
          ─ checks without a model: a property must fit its instance's class; a name or value must be
            written in the chunk (`ontology.extract_min_grounding`), else the model invented it
          ─ linking: the label index (case, accents, titles, word order, typos), then embedding
            similarity ≥ `ontology.link_threshold` among labels of the same class; else a new IRI
          ─ triples into the document's own named graph (`OntologyLayer.add_instances`), so
            removing or re-extracting a document replaces exactly what it contributed

`ontology.extract_method = grounded` (the default) replaces the one call per chunk with a schema-aware
reading that needs the model only for close calls:

    chunk ─ pyramid/grounding.py: sentences, pronouns → the document's main entity, rule triples
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

Documents that left the corpus lose their graph (and the inferences resting on it) at the start of
each run. Resumable: every chunk's outcome is journalled (`WS/ontology/extract.jsonl`); a chunk whose reply
fails its schema after the client's retries is journalled as failed, the build goes on, and the next
run retries it. A document is written to the store once all its chunks have succeeded.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyoxigraph as ox

from pyramid.chunker import Chunk, Chunker
from pyramid.corpus_store import CorpusStore
from pyramid.embeddings import Embedder
from pyramid.errors import Hint, WorkspaceError
from pyramid.kg.journal import ExtractionJournal, chunk_hash, run_chunks
from pyramid.llm import LLM
from pyramid.ontology.labels import STOPWORDS, LabelIndex, fold_word, fold_words
from pyramid.ontology.vocab import Term, Vocab, names_class, word_forms
from pyramid.progress import NullProgress, Progress
from pyramid.prompts import load_prompt
from pyramid.usage import Usage
from pyramid.workspace import Workspace, atomic_write_json, crash_point

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
MAX_INSTANCES, MAX_FACTS = 8, 6
MAX_TOKENS = 400
MIN_SIMILARITY = 0.45   # grounded: weakest relation-to-property similarity that asserts a datatype fact
CLOSE_CALL = 0.03       # grounded: two properties this close in similarity are a decision for the model
BACKWARDS_PENALTY = 0.05  # grounded: a triple read backwards must beat the forward reading by this much
LEXICAL_WEIGHT = 0.2  # added to a pair's cosine when all its property's words are in the chunk
JOURNAL, STATE = "extract.jsonl", "extract-state.json"
WRITE_BATCH = 500       # read: page graphs written (and switched) together
_WORD = re.compile(r"\w+", re.UNICODE)
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")


@dataclass(frozen=True)
class Pair:
    """A class-attribute pair of the schema, read as a phrase: 'staff has research interest',
    'staff works for department' (an object property's range completes the phrase)."""

    cls: Term
    prop: Term
    range_words: str = ""

    @property
    def phrase(self) -> str:
        return " ".join(x for x in (self.cls.words, self.prop.words, self.range_words) if x)


@dataclass
class Fact:
    subject: str          # IRI
    property: str         # IRI
    value: str            # IRI (object property) or literal text
    literal: bool

    def triple(self) -> ox.Triple:
        obj = ox.Literal(self.value) if self.literal else ox.NamedNode(self.value)
        return ox.Triple(ox.NamedNode(self.subject), ox.NamedNode(self.property), obj)


@dataclass
class ChunkInstances:
    chunk_id: str
    doc_id: str
    pairs: list[str]                      # the pre-selected pairs' phrases (what was asked for)
    facts: list[Fact]
    usage: Usage
    dropped: int = 0                      # names/values not written in the chunk, facts off-schema
    linked: int = 0                       # names linked to existing IRIs
    minted: int = 0                       # names given a new IRI


@dataclass
class ExtractReport:
    documents: int = 0
    chunks: int = 0
    chunks_extracted: int = 0
    chunks_resumed: int = 0
    failed_chunks: list[str] = field(default_factory=list)
    documents_pending: int = 0
    removed: int = 0                      # documents no longer in the corpus whose graphs were dropped
    facts: int = 0
    dropped: int = 0
    linked: int = 0
    minted: int = 0
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)   # read: what the pages say against the schema


def pairs_of(vocab: Vocab) -> list[Pair]:
    """Every class with every property whose domain fits it (declared on it or a superclass)."""
    out = []
    for c in vocab.classes:
        for p in vocab.properties:
            if p.domains and vocab.fit(c.iri, p.domains) == 1.0:
                rng = vocab.get(p.ranges[0]) if p.kind == "object" and p.ranges else None
                out.append(Pair(c, p, rng.words if rng is not None else ""))
    return out


def instances_schema(pairs: list[Pair]) -> dict[str, Any]:
    """The reply's JSON schema: class and property names are enums of the pre-selected pairs."""
    classes = sorted({p.cls.name for p in pairs})
    props = sorted({p.prop.name for p in pairs})
    fact = {"type": "object", "properties": {"property": {"enum": props},
                                             "value": {"type": "string", "minLength": 1, "maxLength": 120}},
            "required": ["property", "value"], "additionalProperties": False}
    inst = {"type": "object", "properties": {
        "class": {"enum": classes}, "name": {"type": "string", "minLength": 1, "maxLength": 80},
        "facts": {"type": "array", "items": fact, "maxItems": MAX_FACTS}},
        "required": ["class", "name", "facts"], "additionalProperties": False}
    return {"type": "object", "properties": {"instances": {"type": "array", "items": inst,
                                                           "maxItems": MAX_INSTANCES}},
            "required": ["instances"], "additionalProperties": False}


def grounding(text: str, chunk_words: set[str]) -> float:
    words = fold_words(text)
    return sum(w in chunk_words for w in words) / len(words) if words else 0.0


def slug(text: str) -> str:
    return "_".join(fold_words(text))[:60] or "x"


class Linker:
    """Name → IRI of an existing instance of the class (label index, then embeddings), else a new IRI."""

    def __init__(self, index: LabelIndex, embedder: Embedder, threshold: float, namespace: str) -> None:
        self.index, self.embedder, self.threshold, self.namespace = index, embedder, threshold, namespace
        self._vectors: dict[str, tuple[list[str], np.ndarray]] = {}
        self.minted: dict[tuple[str, str], str] = {}  # (class, folded name) → IRI minted in this run

    def _class_vectors(self, cls_iri: str) -> tuple[list[str], np.ndarray]:
        if cls_iri not in self._vectors:
            entries = [e for e in self.index.entries if cls_iri in e.classes and not e.acronym]
            iris = [e.iri for e in entries]
            matrix = self.embedder.embed([e.surface for e in entries]) if entries else np.zeros((0, 1), np.float32)
            self._vectors[cls_iri] = (iris, matrix)
        return self._vectors[cls_iri]

    def recall(self, facts: Iterable[Fact]) -> None:
        """Know again the names a stopped run minted: their chunks' facts are journalled but not yet in the
        store (nor in the label index), and without them a resumed run mints a second IRI for a person
        one chunk typed Professor and a later one AcademicStaff."""
        known = {e.iri for e in self.index.entries}
        types: dict[str, str] = {}
        labels: dict[str, str] = {}
        for f in facts:
            if f.property == RDF_TYPE:
                types.setdefault(f.subject, f.value)
            elif f.property == RDFS_LABEL:
                labels.setdefault(f.subject, f.value)
        for iri, cls in types.items():
            if iri in labels and iri not in known:
                self.minted.setdefault((cls, " ".join(fold_words(labels[iri]))), iri)

    def link(self, name: str, cls_iri: str) -> tuple[str, bool]:
        """(IRI, True if it is an existing instance)."""
        hits = self.index.link(name, classes=[cls_iri], limit=1)
        if hits and hits[0].score >= self.threshold:
            return hits[0].iri, True
        key = (cls_iri, " ".join(fold_words(name)))
        if key in self.minted:
            return self.minted[key], False
        iris, matrix = self._class_vectors(cls_iri)
        if iris:
            sims = np.dot(matrix, self.embedder.embed_one(name, kind="document"))
            best = int(np.argmax(sims))
            if sims[best] >= self.threshold:
                return iris[best], True
        cls_name = re.split(r"[#/]", cls_iri)[-1].lower()
        digest = hashlib.sha1(f"{cls_iri}\x00{key[1]}".encode()).hexdigest()[:6]
        iri = f"{self.namespace}{cls_name}_{slug(name)}_{digest}"
        self.minted[key] = iri
        return iri, False


@dataclass
class _Asked:
    """What the model said about one chunk, before the checks and the linking."""
    title: str
    pairs: list[Pair]
    reply: dict[str, Any] | None
    usage: Usage | None


class InstanceExtractor:
    """f_ins over chunks: pair pre-selection, one structured call per chunk, checks, linking."""

    def __init__(self, llm: LLM, embedder: Embedder, vocab: Vocab, linker: Linker, *, pairs_per_chunk: int = 6,
                 min_grounding: float = 0.5, method: str = "chunk", schema=None) -> None:
        self.llm, self.embedder, self.vocab, self.linker = llm, embedder, vocab, linker
        self.method = method
        # sub-properties (works_for ⊒ head_of): a weak link between two typed instances gets the general one
        self.super_props = {p.iri: set(p.parents) for p in schema.properties.values()} if schema is not None else {}
        self.pairs = pairs_of(vocab)
        if not self.pairs:
            raise WorkspaceError("the ontology has no class-attribute pairs (no property with a domain)",
                                 hint=Hint(action="load_schema"))
        self.pair_vectors = embedder.embed([p.phrase for p in self.pairs])
        self.k, self.min_grounding = pairs_per_chunk, min_grounding
        self.prompt = load_prompt("pyramid.ontology", "f_ins")

    @property
    def version(self) -> str:
        """Part of each chunk's journal hash: a new prompt or schema re-extracts."""
        names = ",".join(sorted(f"{p.cls.name}.{p.prop.name}" for p in self.pairs))
        extra = ""
        if self.method == "grounded":
            from pyramid.grounding import RULES_VERSION
            extra = f"grounded:{RULES_VERSION}:{MIN_SIMILARITY}:{CLOSE_CALL}:{BACKWARDS_PENALTY}:" + \
                load_prompt("pyramid.ontology", "f_choose").version
        return hashlib.sha256((self.prompt.version + names + extra).encode()).hexdigest()[:12]

    def select_pairs(self, chunk_text: str) -> list[Pair]:
        """One pair per property, for the properties most similar to one of the chunk's sentences
        (embedding cosine), best first.

        Per sentence, not per chunk: a chunk mixes topics, and a pair stated in one sentence
        ("her research interests include …") drowns in the average of the whole chunk. One pair per
        property: a property's pairs differ only in their class and score alike, so ranking pairs
        filled every slot with has_research_interest on six kinds of staff. Its class is the most
        specific one the chunk names ("associate professor"), else the most general one it has."""
        sentences = [x for x in _SENTENCE.split(chunk_text) if x.strip()] or [chunk_text]
        sims = np.dot(self.pair_vectors, self.embedder.embed(sentences).T).max(axis=1)
        sims = sims + LEXICAL_WEIGHT * self._stated(chunk_text)
        by_prop: dict[str, list[int]] = {}
        for i in np.argsort(-sims, kind="stable"):
            by_prop.setdefault(self.pairs[i].prop.iri, []).append(int(i))
        chosen = []
        for idxs in list(by_prop.values())[: self.k]:  # dicts keep insertion order: best property first
            named = [i for i in idxs if names_class(chunk_text, self.pairs[i].cls)]
            depth = [len(self.vocab.ancestors(self.pairs[i].cls.iri)) for i in named or idxs]
            pick = (named or idxs)[depth.index(max(depth) if named else min(depth))]
            chosen.append(self.pairs[pick])
        return chosen

    def _stated(self, text: str) -> np.ndarray:
        """Per pair, the share of its property's own words written in `text` (singular or plural).
        MiniLM scores a sentence mostly by who it is about, so 'Dr Alice Wong works for the School of
        Design' is nearer 'staff has works in' than 'staff works for academic unit'; the words settle it."""
        forms = {f for w in _WORD.findall(text.lower()) for f in word_forms(w)}
        out = np.zeros(len(self.pairs), dtype=np.float32)
        for i, p in enumerate(self.pairs):
            words = set(p.prop.words.split()) - STOPWORDS - {"has", "is"}
            if words:
                out[i] = sum(bool(word_forms(w) & forms) for w in words) / len(words)
        return out

    def extract(self, chunk: Chunk, title: str = "") -> ChunkInstances:
        """Facts of one chunk (`title`: its document's, naming its main entity). Raises LLMError when
        a reply fails its schema after retries."""
        return self.settle(chunk, self.ask(chunk, title))

    def ask(self, chunk: Chunk, title: str = "") -> _Asked:
        """The model's part of `extract`, which shares no state: safe to run for several chunks at once."""
        if self.method == "grounded":  # reads and links in one pass: all of it is settled in order
            return _Asked(title, [], None, None)
        pairs = self.select_pairs(chunk.text)
        listed = "\n".join(f"- {p.cls.name}.{p.prop.name}: {p.phrase}" for p in pairs)
        with self.llm.meter.scope() as usage:
            reply = self.llm.complete(self.prompt.render(text=chunk.text, pairs=listed), instances_schema(pairs),
                                      max_tokens=MAX_TOKENS).parsed
        return _Asked(title, pairs, reply, usage.model_copy())

    def settle(self, chunk: Chunk, asked: _Asked) -> ChunkInstances:
        """The checks and the linking of what `ask` got (the linker mints instances: one chunk at a time)."""
        if self.method == "grounded":
            return GroundedReader(self).extract(chunk, asked.title)
        pairs, reply = asked.pairs, asked.reply
        out = ChunkInstances(chunk.id, chunk.doc_id, [p.phrase for p in pairs], [], asked.usage)
        words = {fold_word(m.group()) for m in _WORD.finditer(chunk.text)}
        asked = {p.prop.name for p in pairs}
        for inst in reply["instances"]:
            cls = self.vocab.get(inst["class"])
            if cls is None or grounding(inst["name"], words) < self.min_grounding:
                out.dropped += 1
                continue
            facts = []
            for f in inst["facts"]:
                prop = self.vocab.get(f["property"])
                # any asked property whose domain takes the instance's class (one of the asked ones)
                if prop is None or prop.name not in asked or self.vocab.fit(cls.iri, prop.domains) < 1.0 or \
                        grounding(f["value"], words) < self.min_grounding:
                    out.dropped += 1
                    continue
                facts.append((prop, " ".join(f["value"].split())))
            if not facts:
                continue  # a bare name with nothing the schema asks for adds nothing
            subject, existing = self.linker.link(inst["name"], cls.iri)
            out.linked += existing
            out.minted += not existing
            if not existing:
                out.facts += [Fact(subject, RDF_TYPE, cls.iri, False),
                              Fact(subject, RDFS_LABEL, " ".join(inst["name"].split()), True)]
            for prop, value in facts:
                if prop.kind == "object" and prop.ranges:
                    target, known = self.linker.link(value, prop.ranges[0])
                    if not known:
                        out.facts += [Fact(target, RDF_TYPE, prop.ranges[0], False), Fact(target, RDFS_LABEL, value, True)]
                    out.facts.append(Fact(subject, prop.iri, target, False))
                else:
                    out.facts.append(Fact(subject, prop.iri, value, True))
        return out


# ------------------------------------------------------------------ grounded f_ins
_NUMBER = re.compile(r"^\d+(\.\d+)?$")
_YEAR = re.compile(r"^\d{4}$")


class GroundedReader:
    """The grounded f_ins of one extractor (see the module docstring)."""

    def __init__(self, ex: InstanceExtractor) -> None:
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
        from pyramid.grounding import CODE, CODE_WORDS

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
        from pyramid.grounding import CODE, read

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
        from pyramid.normalise import strip_titles

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


# ------------------------------------------------------------------ the journal and the build
class InstanceJournal(ExtractionJournal):
    """The KG build's journal (one JSON line per chunk outcome, last line wins), holding facts."""

    def __init__(self, path, version: str) -> None:
        super().__init__(path)
        self.version = version

    def _hash(self, chunk: Chunk) -> str:
        return f"{chunk_hash(chunk)}:{self.version}"

    def done(self, chunk: Chunk) -> bool:
        e = self.entries.get(chunk.id)
        return e is not None and e["status"] == "ok" and e["hash"] == self._hash(chunk)

    def record_instances(self, chunk: Chunk, ex: ChunkInstances) -> None:
        self._append({"chunk_id": chunk.id, "doc_id": chunk.doc_id, "hash": self._hash(chunk), "status": "ok",
                      "pairs": ex.pairs, "facts": [f.__dict__ for f in ex.facts], "usage": ex.usage.to_dict(),
                      "dropped": ex.dropped, "linked": ex.linked, "minted": ex.minted})

    def record_failed(self, chunk: Chunk, error: str) -> None:
        self._append({"chunk_id": chunk.id, "doc_id": chunk.doc_id, "hash": self._hash(chunk),
                      "status": "failed", "error": error[:500]})

    def facts(self, chunk_id: str) -> list[Fact]:
        return [Fact(**f) for f in self.entries[chunk_id].get("facts", [])]


def extract_instances(ws: Workspace, layer, llm: LLM, embedder: Embedder, *,
                      select: Callable[[str], Iterable[dict[str, str]]], progress: Progress | None = None,
                      limit: int | None = None, readings=None) -> ExtractReport:
    """f_ins over the workspace's documents (new or changed ones); resumable (see module docstring).

    `layer` is the OntologyLayer (its schema vocabulary, `add_instances`); `select` reads the store
    for the label index. With `ontology.extract_method = read` the instances come from the pages'
    schema-aware reading (pyramid.ontology.pages), `readings` when the build already made it.
    """
    progress = progress or NullProgress()
    cfg = ws.settings.ontology
    start = time.perf_counter()
    report = ExtractReport()
    with ws.writing("ontology.extract"), llm.meter.scope() as usage:
        docs = CorpusStore(ws).documents()
        state_path = ws.layer_dir("ontology") / STATE
        state = _read_state(state_path)
        # Documents gone from the corpus take their instances (and the inferences on them) along.
        # Only graphs this extractor wrote (its state names them): completion writes "doc:" graphs too.
        gone = sorted(set(state) - {d.id for d in docs})
        if gone:
            report.removed = layer.remove_documents(gone)
            state = {k: v for k, v in state.items() if k not in set(gone)}
            atomic_write_json(state_path, state)
        if not docs:
            if gone:
                report.seconds = time.perf_counter() - start
                return report
            raise WorkspaceError(f"workspace {ws.root} has no documents",
                                 hint=Hint(action="add_documents", target=str(ws.root)))
        docs = docs[:limit] if limit else docs
        if cfg.extract_method == "read":
            _from_readings(ws, layer, embedder, docs, state, state_path, report, readings, progress)
            report.seconds = time.perf_counter() - start
            ws.record_step("ontology.extract", seconds=report.seconds, usage=usage, counts=None, done=True)
            report.usage = usage.model_copy()
            return report
        vocab = Vocab.from_schema(layer.schema)
        index = LabelIndex.from_select(select)
        namespace = getattr(layer.schema, "namespace", "") or "urn:polyrag:instance:"
        linker = Linker(index, embedder, cfg.link_threshold, namespace)
        extractor = InstanceExtractor(llm, embedder, vocab, linker, pairs_per_chunk=cfg.extract_pairs,
                                      min_grounding=cfg.extract_min_grounding, method=cfg.extract_method,
                                      schema=layer.schema)
        todo = [d for d in docs if state.get(d.id) != f"{d.content_hash}:{extractor.version}"]
        chunker = Chunker(embedder.tokenizer, cfg.extract_chunk_size, cfg.extract_chunk_overlap)
        chunks = chunker.chunk_many(todo) if todo else []
        journal = InstanceJournal(ws.layer_dir("ontology") / JOURNAL, extractor.version)
        report.chunks = len(chunks)
        linker.recall(f for c in chunks if journal.done(c) for f in journal.facts(c.id))
        # the model calls in parallel, the linking (which mints instances) in chunk order
        run = run_chunks(todo, chunks, journal.done, extractor.ask, journal.record_instances,
                         journal.record_failed, progress, "extracting instances (f_ins)",
                         concurrency=llm.concurrency, settle=extractor.settle)
        report.chunks_extracted, report.chunks_resumed = run.extracted, run.resumed
        report.failed_chunks, report.documents_pending = run.failed_chunks, run.pending_documents
        for d, cs in run.complete:
            facts = [f for c in cs for f in journal.facts(c.id)]
            for c in cs:
                e = journal.entries[c.id]
                report.dropped += e.get("dropped", 0)
                report.linked += e.get("linked", 0)
                report.minted += e.get("minted", 0)
            unique = {(f.subject, f.property, f.value, f.literal): f for f in facts}
            layer.add_instances(d.id, [f.triple() for f in unique.values()])
            report.facts += len(facts)
            report.documents += 1
            state[d.id] = f"{d.content_hash}:{extractor.version}"
            atomic_write_json(state_path, state)  # per document: a stopped run keeps what it wrote
            crash_point("ontology.state")
        report.seconds = time.perf_counter() - start
        ws.record_step("ontology.extract", seconds=report.seconds, usage=usage,
                       counts=None, done=not report.failed_chunks)
    report.usage = usage.model_copy()
    return report


def _from_readings(ws: Workspace, layer, embedder: Embedder, docs, state: dict[str, str], state_path,
                   report: ExtractReport, readings, progress: Progress) -> None:
    """Each page's reading as its graph, written only where it changed (what the corpus teaches can
    change how an unchanged page reads, so every page is linked again; only the parse is cached)."""
    from pyramid.ontology.pages import instance_triples, read_corpus

    got = readings() if readings is not None else read_corpus(ws, layer.schema, embedder, docs, progress)
    namespace = getattr(layer.schema, "namespace", "") or "urn:polyrag:instance:"
    task = progress.task("writing instances (read)", len(docs))
    batch: dict[str, list] = {}
    digests: dict[str, str] = {}

    def flush() -> None:  # the graphs switch together, then the state says so: a stop loses a batch at most
        if batch:
            layer.add_instances_many(batch)
            state.update(digests)
            atomic_write_json(state_path, state)
            batch.clear()
            digests.clear()

    for d in docs:
        reading = got.get(d.id)
        rows = instance_triples(reading, namespace) if reading is not None else []
        digest = "read:" + hashlib.sha256(repr(rows).encode()).hexdigest()[:16]
        report.chunks += 1
        if state.get(d.id) == digest:
            report.chunks_resumed += 1
        else:
            batch[d.id] = [ox.Triple(ox.NamedNode(s), ox.NamedNode(p), ox.Literal(o) if lit else ox.NamedNode(o))
                           for s, p, o, lit in rows]
            digests[d.id] = digest
            report.chunks_extracted += 1
            if len(batch) >= WRITE_BATCH:
                flush()
        if reading is not None:
            report.facts += len(reading.facts)
            report.minted += len(reading.mentions) + 1
        report.documents += 1
        task.advance()
    flush()
    task.done()
    report.notes = range_notes(layer.schema, got.values())


def range_notes(schema, readings) -> list[str]:
    """How the pages' objects sit against the schema's declared ranges: values of a property that are
    all of a narrower class than its range (works_for ranged on FACULTY, read as departments) are
    said, since a question about the range class will find them too (after reasoning)."""
    from collections import Counter

    seen: dict[str, Counter] = {}
    for r in readings:
        for f in r.facts:
            if f.is_object and f.value_class:
                seen.setdefault(f.prop, Counter())[f.value_class] += 1
    notes = []
    for prop, counts in sorted(seen.items()):
        declared = schema.ranges_of(prop)
        top, n = counts.most_common(1)[0]
        if declared and top not in declared and n >= 0.8 * sum(counts.values()):
            notes.append(f"{schema.short(prop)}: {n} of {sum(counts.values())} values are "
                         f"{schema.short(top)}, its range says {', '.join(map(schema.short, declared))}")
    return notes


def _read_state(path) -> dict[str, str]:
    import json

    if not path.exists():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError as err:
        raise WorkspaceError(f"{path}: not valid JSON ({err}); delete it to extract again") from None
