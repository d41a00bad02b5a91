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
from pyramid.errors import WorkspaceError
from pyramid.kg.journal import ExtractionJournal, chunk_hash
from pyramid.llm import LLM, LLMError
from pyramid.ontology.labels import STOPWORDS, LabelIndex, fold_word, fold_words
from pyramid.ontology.vocab import Term, Vocab, names_class, word_forms
from pyramid.progress import NullProgress, Progress
from pyramid.prompts import load_prompt
from pyramid.usage import Usage
from pyramid.workspace import Workspace, atomic_write_json

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
MAX_INSTANCES, MAX_FACTS = 8, 6
MAX_TOKENS = 400
LEXICAL_WEIGHT = 0.2  # added to a pair's cosine when all its property's words are in the chunk
JOURNAL, STATE = "extract.jsonl", "extract-state.json"
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


class InstanceExtractor:
    """f_ins over chunks: pair pre-selection, one structured call per chunk, checks, linking."""

    def __init__(self, llm: LLM, embedder: Embedder, vocab: Vocab, linker: Linker, *, pairs_per_chunk: int = 6,
                 min_grounding: float = 0.5) -> None:
        self.llm, self.embedder, self.vocab, self.linker = llm, embedder, vocab, linker
        self.pairs = pairs_of(vocab)
        if not self.pairs:
            raise WorkspaceError("the ontology has no class-attribute pairs (no property with a domain): "
                                 "load a schema first with `polyrag ontology load-schema`")
        self.pair_vectors = embedder.embed([p.phrase for p in self.pairs])
        self.k, self.min_grounding = pairs_per_chunk, min_grounding
        self.prompt = load_prompt("pyramid.ontology", "f_ins")

    @property
    def version(self) -> str:
        """Part of each chunk's journal hash: a new prompt or schema re-extracts."""
        names = ",".join(sorted(f"{p.cls.name}.{p.prop.name}" for p in self.pairs))
        return hashlib.sha256((self.prompt.version + names).encode()).hexdigest()[:12]

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

    def extract(self, chunk: Chunk) -> ChunkInstances:
        """One LLM call for the chunk; raises LLMError when the reply fails its schema after retries."""
        pairs = self.select_pairs(chunk.text)
        listed = "\n".join(f"- {p.cls.name}.{p.prop.name}: {p.phrase}" for p in pairs)
        with self.llm.meter.scope() as usage:
            reply = self.llm.complete(self.prompt.render(text=chunk.text, pairs=listed), instances_schema(pairs),
                                      max_tokens=MAX_TOKENS).parsed
        out = ChunkInstances(chunk.id, chunk.doc_id, [p.phrase for p in pairs], [], usage.model_copy())
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
                      limit: int | None = None) -> ExtractReport:
    """f_ins over the workspace's documents (new or changed ones); resumable (see module docstring).

    `layer` is the OntologyLayer (its schema vocabulary, `add_instances`); `select` reads the store
    for the label index.
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
            raise WorkspaceError(f"workspace {ws.root} has no documents; add them with "
                                 "`polyrag index WS --docs PATH` first")
        docs = docs[:limit] if limit else docs
        vocab = Vocab.from_schema(layer.schema)
        index = LabelIndex.from_select(select)
        namespace = getattr(layer.schema, "namespace", "") or "urn:polyrag:instance:"
        linker = Linker(index, embedder, cfg.link_threshold, namespace)
        extractor = InstanceExtractor(llm, embedder, vocab, linker, pairs_per_chunk=cfg.extract_pairs,
                                      min_grounding=cfg.extract_min_grounding)
        todo = [d for d in docs if state.get(d.id) != f"{d.content_hash}:{extractor.version}"]
        chunker = Chunker(embedder.tokenizer, cfg.extract_chunk_size, cfg.extract_chunk_overlap)
        chunks = chunker.chunk_many(todo) if todo else []
        journal = InstanceJournal(ws.layer_dir("ontology") / JOURNAL, extractor.version)
        pending = [c for c in chunks if not journal.done(c)]
        report.chunks, report.chunks_resumed = len(chunks), len(chunks) - len(pending)
        task = progress.task("extracting instances (f_ins)", len(pending))
        for chunk in pending:
            try:
                ex = extractor.extract(chunk)
                journal.record_instances(chunk, ex)
                report.chunks_extracted += 1
            except LLMError as err:  # journalled; the next run retries this chunk
                journal.record_failed(chunk, f"{type(err).__name__}: {err}")
            task.advance()
        task.done()

        by_doc: dict[str, list[Chunk]] = {}
        for c in chunks:
            by_doc.setdefault(c.doc_id, []).append(c)
        for d in todo:
            cs = by_doc.get(d.id, [])
            if not all(journal.done(c) for c in cs):
                report.failed_chunks += [c.id for c in cs if not journal.done(c)]
                report.documents_pending += 1
                continue
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
        report.seconds = time.perf_counter() - start
        ws.record_step("ontology.extract", seconds=report.seconds, usage=usage,
                       counts=None, done=not report.failed_chunks)
    report.usage = usage.model_copy()
    return report


def _read_state(path) -> dict[str, str]:
    import json

    if not path.exists():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError as err:
        raise WorkspaceError(f"{path}: not valid JSON ({err}); delete it to extract again") from None
