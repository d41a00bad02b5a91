"""`ontology.extract_method = chunk`: f_ins (PolyRAG eq. 1), the instances of the schema's
class-attribute pairs from each chunk, with one structured call.

    chunk ─ embed ─ the `ontology.extract_pairs` class-attribute pairs most similar to it
          ─ ONE structured call: {"instances": [{"class", "name", "facts": [{"property", "value"}]}]}
            (class and property are enums of the pre-selected pairs: the model cannot name a term
             the schema lacks, and one call covers every pair of the chunk)
          ─ checks without a model: a property must fit its instance's class; a name or value must be
            written in the chunk (`ontology.extract_min_grounding`), else the model invented it
          ─ linking (linker.py): the label index, then embedding similarity among labels of the class
          ─ triples into the document's own named graph

Resumable: every chunk's outcome is journalled (`WS/ontology/extract.jsonl`); a chunk whose reply
fails its schema after the client's retries is journalled as failed, the build goes on, and the next
run retries it. A document is written to the store once all its chunks have succeeded.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from pyramid.chunk_journal import run_chunks
from pyramid.chunker import Chunk, Chunker
from pyramid.corpus import Document
from pyramid.embeddings import Embedder
from pyramid.errors import Hint, WorkspaceError
from pyramid.llm import LLM
from pyramid.ontology.extractors.base import (
    JOURNAL,
    RDF_TYPE,
    RDFS_LABEL,
    ChunkInstances,
    ExtractReport,
    Fact,
    InstanceJob,
    InstanceJournal,
    grounding,
)
from pyramid.ontology.extractors.linker import Linker
from pyramid.ontology.labels import STOPWORDS, LabelIndex, fold_word
from pyramid.plugins import Entry, Registry
from pyramid.prompts import load_prompt
from pyramid.usage import Usage
from pyramid.vocab import Term, Vocab, names_class, word_forms
from pyramid.workspace import atomic_write_json, crash_point

MAX_INSTANCES, MAX_FACTS = 8, 6
MAX_TOKENS = 400
LEXICAL_WEIGHT = 0.2  # added to a pair's cosine when all its property's words are in the chunk
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


@dataclass
class _Asked:
    """What the model said about one chunk, before the checks and the linking."""
    title: str
    pairs: list[Pair]
    reply: dict[str, Any] | None
    usage: Usage | None


class FactExtractor:
    """f_ins of one chunk: pair pre-selection, one structured call, checks, linking."""

    def __init__(self, llm: LLM, embedder: Embedder, vocab: Vocab, linker: Linker, *, pairs_per_chunk: int = 6,
                 min_grounding: float = 0.5, schema=None) -> None:
        self.llm, self.embedder, self.vocab, self.linker = llm, embedder, vocab, linker
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
        return hashlib.sha256((self.prompt.version + names + self.version_extra()).encode()).hexdigest()[:12]

    def version_extra(self) -> str:
        return ""

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
        pairs = self.select_pairs(chunk.text)
        listed = "\n".join(f"- {p.cls.name}.{p.prop.name}: {p.phrase}" for p in pairs)
        with self.llm.meter.scope() as usage:
            reply = self.llm.complete(self.prompt.render(text=chunk.text, pairs=listed), instances_schema(pairs),
                                      max_tokens=MAX_TOKENS).parsed
        return _Asked(title, pairs, reply, usage.model_copy())

    def settle(self, chunk: Chunk, asked: _Asked) -> ChunkInstances:
        """The checks and the linking of what `ask` got (the linker mints instances: one chunk at a time)."""
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


class ChunkFacts:
    """The strategy: a `FactExtractor` (`extractor_class`) over every chunk of the documents that
    changed, the model calls in parallel, the linking (which mints instances) in chunk order."""

    name = "chunk"
    extractor_class: type[FactExtractor] = FactExtractor

    def extract(self, docs: list[Document], job: InstanceJob) -> None:
        cfg, report, state = job.settings, job.report, job.state
        vocab = Vocab.from_schema(job.layer.schema)
        index = LabelIndex.from_select(job.select)
        linker = Linker(index, job.embedder, cfg.link_threshold, job.namespace)
        extractor = self.extractor_class(job.llm, job.embedder, vocab, linker, pairs_per_chunk=cfg.extract_pairs,
                                         min_grounding=cfg.extract_min_grounding, schema=job.layer.schema)
        todo = [d for d in docs if state.get(d.id) != f"{d.content_hash}:{extractor.version}"]
        chunker = Chunker(job.embedder.tokenizer, cfg.extract_chunk_size, cfg.extract_chunk_overlap)
        chunks = chunker.chunk_many(todo) if todo else []
        journal = InstanceJournal(job.ws.layer_dir("ontology") / JOURNAL, extractor.version)
        report.chunks = len(chunks)
        linker.recall(f for c in chunks if journal.done(c) for f in journal.facts(c.id))
        run = run_chunks(todo, chunks, journal.done, extractor.ask, journal.record_instances,
                         journal.record_failure, job.progress, "extracting instances (f_ins)",
                         concurrency=job.llm.concurrency, settle=extractor.settle)
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
            job.layer.add_instances(d.id, [f.triple() for f in unique.values()])
            report.facts += len(facts)
            report.documents += 1
            state[d.id] = f"{d.content_hash}:{extractor.version}"
            atomic_write_json(job.state_path, state)  # per document: a stopped run keeps what it wrote
            crash_point("ontology.state")

    def outcome(self, r: ExtractReport) -> str:
        return (f"{r.chunks_extracted} chunks extracted, {r.chunks_resumed} resumed; {r.facts} facts "
                f"({r.linked} linked, {r.minted} new instances)")


def register(registry: Registry) -> None:
    registry.register(Entry("chunk", ChunkFacts, "one f_ins call per chunk over the class-attribute pairs "
                            "nearest it (the paper's)"))
