"""What every KG extraction strategy shares: the protocol, the job a build gives it, what it returns,
and the base of the strategies that read chunk by chunk (journalled, resumable, checked).

    class TripleExtractor(Protocol):
        name: str                                    # its kg.mode value
        unit: str                                    # what a build counts ("chunks extracted")
        def extract(docs, job: TripleJob) -> ExtractedTriples

`ChunkTripleExtractor` does the chunk loop for a strategy that only says how one chunk's text reads
(`raw_triples`): the journal (`WS/kg/extract-<name>.jsonl`), the model calls in parallel, and the
checks without a model — a triple whose ends do not occur in the chunk is an invention of the model
and is dropped (`kg.min_grounding`), duplicates (head, canonical relation, tail) are dropped.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pyramid.chunk_journal import ExtractionJournal, run_chunks
from pyramid.chunker import Chunk, Chunker
from pyramid.corpus import Document
from pyramid.kg.model import RawTriple, Sourced, canonical_name, normalise_name
from pyramid.llm import LLM
from pyramid.progress import Progress
from pyramid.prompts import load_prompt
from pyramid.usage import Usage

if TYPE_CHECKING:
    from pyramid.config import KGSettings
    from pyramid.reading.corpus import ReadingsProvider

Resolve = Literal["embedding", "exact"]
ENTITY_TYPES = ["PERSON", "ORGANIZATION", "PLACE", "EVENT", "WORK", "DATE", "NUMBER", "CONCEPT", "OTHER"]
UNTYPED = {"", "OTHER"}  # a type that says nothing conflicts with no type
# Bounds measured against SmolLM2-135M: it fills every list to its maximum, and a list that does not
# fit MAX_TOKENS is cut mid-JSON (a schema failure and a retry), so the lists stay short.
MAX_STATEMENTS, MAX_ENTITIES, MAX_TRIPLES = 5, 8, 5
# Generated tokens per call: the bounded lists above fit; a rambling reply is cut sooner.
MAX_TOKENS = {"f_par": 220, "f_ent": 160, "f_rel": 220, "f_dis": 160, "f_single": 220, "f_sentence": 160}
MAX_SENTENCE_TRIPLES = 3

_TRIPLE = {"type": "array", "minItems": 3, "maxItems": 4,
           "items": {"type": "string", "minLength": 1, "maxLength": 50}}
# Triples are short arrays [subject, relation, object, optional "key: value"], not objects: with
# named fields SmolLM2-135M wrote field and type names into the values ("relation": "head", a
# relation "NUMBER"); with arrays it kept to the text (tried on the first multihop documents).


def json_object(props: dict[str, Any]) -> dict[str, Any]:
    """A JSON schema object whose every property is required and nothing else is allowed."""
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


SCHEMAS: dict[str, dict[str, Any]] = {
    "f_par": json_object({"statements": {"type": "array", "minItems": 1, "maxItems": MAX_STATEMENTS,
                                         "items": {"type": "string", "minLength": 3, "maxLength": 120}}}),
    "f_ent": json_object({"entities": {"type": "array", "minItems": 1, "maxItems": MAX_ENTITIES,
                                       "items": json_object({"name": {"type": "string", "minLength": 1, "maxLength": 40},
                                                             "type": {"enum": ENTITY_TYPES}})}}),
    "f_rel": json_object({"triples": {"type": "array", "minItems": 1, "maxItems": MAX_TRIPLES, "items": _TRIPLE}}),
    "f_dis": json_object({"relations": {"type": "array", "maxItems": MAX_TRIPLES,
                                        "items": json_object({"relation": {"type": "string", "maxLength": 50},
                                                              "canonical": {"type": "string", "maxLength": 40}})}}),
    "f_single": json_object({"triples": {"type": "array", "minItems": 1, "maxItems": MAX_TRIPLES, "items": _TRIPLE}}),
}


# ------------------------------------------------------------------ the protocol
@dataclass
class TripleJob:
    """What a KG build gives a strategy: the model, where the layer keeps its journals, how to chunk,
    what the last builds loaded (document id → key), the pages' reading, the progress display."""

    llm: LLM
    directory: Path
    chunker: Chunker
    loaded: dict[str, str]
    progress: Progress
    readings: ReadingsProvider | None = None


@dataclass
class ExtractedTriples:
    """What a strategy read: the documents to (re)load now, the key each is recorded under, their
    triples, how their entities are resolved, and the counts a build reports."""

    ready: list[Document] = field(default_factory=list)
    keys: dict[str, str] = field(default_factory=dict)
    items: list[Sourced] = field(default_factory=list)
    resolve: Resolve = "embedding"
    chunks: int = 0
    chunks_extracted: int = 0
    chunks_resumed: int = 0
    failed_chunks: list[str] = field(default_factory=list)
    documents_pending: int = 0
    dropped_ungrounded: int = 0
    duplicates_dropped: int = 0


class TripleExtractor(Protocol):
    name: str
    unit: str

    def extract(self, docs: list[Document], job: TripleJob) -> ExtractedTriples: ...


# ------------------------------------------------------------------ chunk by chunk
@dataclass
class ChunkExtraction:
    chunk_id: str
    doc_id: str
    triples: list[RawTriple]
    usage: Usage
    dropped_ungrounded: int = 0
    duplicates_dropped: int = 0


def extraction_to_json(ex: ChunkExtraction) -> dict[str, Any]:
    return {"chunk_id": ex.chunk_id, "doc_id": ex.doc_id, "triples": [asdict(t) for t in ex.triples],
            "usage": ex.usage.to_dict(), "dropped_ungrounded": ex.dropped_ungrounded,
            "duplicates_dropped": ex.duplicates_dropped}


class TripleJournal(ExtractionJournal):
    """The chunk journal with the triples each chunk gave."""

    def triples(self, chunk_id: str) -> list[RawTriple]:
        return [RawTriple.from_dict(t) for t in self.entries[chunk_id].get("triples", [])]

    def record(self, chunk: Chunk, ex: ChunkExtraction) -> None:
        self.record_ok(chunk, extraction_to_json(ex))


_WORD = re.compile(r"\w+", re.UNICODE)


def grounding(name: str, text_words: set[str]) -> float:
    """Share of a name's words that occur in the chunk (1.0 = written there)."""
    words = _WORD.findall(normalise_name(name))
    return sum(w in text_words for w in words) / len(words) if words else 0.0


def from_array(item: list[str], types: dict[str, str] | None = None) -> RawTriple | None:
    """[subject, relation, object, optional "key: value"] → RawTriple (None if an end is empty)."""
    head, relation, tail = (" ".join(x.split()) for x in item[:3])
    props: dict[str, str] = {}
    if len(item) > 3 and item[3].strip():
        key, sep, value = item[3].partition(":")
        key = "_".join(key.lower().split()) if sep and value.strip() else "detail"
        props[key] = " ".join((value if sep and value.strip() else item[3]).split())
    if not (head and relation and tail):
        return None
    if normalise_name(relation) in (normalise_name(head), normalise_name(tail)):
        return None  # the model repeated an entity as the relation
    types = types or {}
    return RawTriple(head, relation, tail, types.get(normalise_name(head), ""), types.get(normalise_name(tail), ""),
                     props)


def dedupe(triples: list[RawTriple]) -> list[RawTriple]:
    """One triple per (head, canonical relation, tail), the first kept (f_dis: drop duplicates)."""
    seen: dict[tuple[str, str, str], RawTriple] = {}
    for t in triples:
        key = (normalise_name(t.head), t.canonical or canonical_name(t.relation), normalise_name(t.tail))
        if key[0] == key[2]:
            continue  # a self-loop from a small model repeating the head
        seen.setdefault(key, t)
    return list(seen.values())


class ChunkTripleExtractor:
    """A strategy that reads each chunk on its own: subclasses say how (`raw_triples`), which prompts
    they call (`prompts`, part of the version) and what else their version rests on (`version_parts`)."""

    name = ""
    unit = "chunks extracted"
    prompts: tuple[str, ...] = ()

    def __init__(self, llm: LLM, min_grounding: float = 0.5) -> None:
        self.llm, self.min_grounding = llm, min_grounding

    @classmethod
    def from_settings(cls, llm: LLM, cfg: KGSettings) -> ChunkTripleExtractor:
        """How the registry builds it for a build: the model and the KG settings."""
        return cls(llm, cfg.min_grounding)

    def version_parts(self) -> list[str]:
        return []

    @property
    def version(self) -> str:
        """Changes with the prompts, schemas, strategy, grounding, rules and model: a new version re-extracts."""
        parts = [self.name, str(self.min_grounding), self.llm.name, json.dumps([SCHEMAS, MAX_TOKENS], sort_keys=True),
                 *(load_prompt("pyramid.kg", n).version for n in self.prompts), *self.version_parts()]
        return hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:12]

    def call(self, name: str, **values: Any) -> dict[str, Any]:
        """One structured model call with the prompt `name` and its schema."""
        messages = load_prompt("pyramid.kg", name).render(**values)
        return self.llm.complete(messages, SCHEMAS[name], max_tokens=MAX_TOKENS[name]).parsed

    def raw_triples(self, text: str, title: str) -> list[RawTriple]:
        raise NotImplementedError

    def extract_chunk(self, chunk: Chunk, title: str = "") -> ChunkExtraction:
        """Triples of one chunk (`title`: its document's, naming the main entity). Raises LLMError
        (e.g. a reply failing its schema after retries)."""
        with self.llm.meter.scope() as usage:
            raw = self.raw_triples(chunk.text, title)
        words = set(_WORD.findall(normalise_name(chunk.text)))
        kept, dropped = [], 0
        for tr in raw:
            tr.confidence = round((grounding(tr.head, words) + grounding(tr.tail, words)) / 2, 3)
            if tr.confidence < self.min_grounding:
                dropped += 1
            else:
                kept.append(tr)
        unique = dedupe(kept)
        return ChunkExtraction(chunk.id, chunk.doc_id, unique, usage.model_copy(), dropped, len(kept) - len(unique))

    def extract(self, docs: list[Document], job: TripleJob) -> ExtractedTriples:
        """Every chunk of the documents that changed (text or this version) since they were loaded,
        journalled; a document is ready once all its chunks are."""
        out = ExtractedTriples(resolve="embedding")
        out.keys = {d.id: f"{d.content_hash}:{self.version}" for d in docs}
        todo = [d for d in docs if job.loaded.get(d.id) != out.keys[d.id]]
        chunks = job.chunker.chunk_many(todo) if todo else []
        out.chunks = len(chunks)
        journal = TripleJournal(job.directory / f"extract-{self.name}.jsonl", self.version)
        run = run_chunks(todo, chunks, journal.done, self.extract_chunk, journal.record, journal.record_failure,
                         job.progress, f"extracting triples ({self.name})", concurrency=job.llm.concurrency)
        out.chunks_extracted, out.chunks_resumed = run.extracted, run.resumed
        out.failed_chunks, out.documents_pending = run.failed_chunks, run.pending_documents
        for d, cs in run.complete:
            out.ready.append(d)
            for c in cs:
                entry = journal.entries[c.id]
                out.dropped_ungrounded += entry.get("dropped_ungrounded", 0)
                out.duplicates_dropped += entry.get("duplicates_dropped", 0)
                out.items += [Sourced(t, d.id, c.id) for t in journal.triples(c.id)]
        return out
