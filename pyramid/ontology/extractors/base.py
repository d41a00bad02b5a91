"""What every instance (f_ins) extraction strategy shares: the protocol, the job a build gives it, the
facts it writes, its report and the chunk journal.

    class InstanceExtractor(Protocol):
        name: str                                   # its ontology.extract_method value
        def extract(docs, job: InstanceJob) -> None # writes each document's graph, fills job.report
        def outcome(report) -> str                  # the build's one-line account of it

Each document's instances go into its own named graph (`OntologyLayer.add_instances`), so removing
or re-extracting a document replaces exactly what it contributed; `job.state` records, per document,
the key it was extracted under (written as the work goes, so a stopped run keeps what it wrote).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pyoxigraph as ox

from pyramid.chunk_journal import ExtractionJournal, chunk_hash
from pyramid.chunker import Chunk
from pyramid.corpus import Document
from pyramid.embeddings import Embedder
from pyramid.llm import LLM
from pyramid.ontology.labels import fold_words
from pyramid.progress import Progress
from pyramid.usage import Usage
from pyramid.vocab import Select
from pyramid.workspace import Workspace

if TYPE_CHECKING:
    from pyramid.config import OntologySettings
    from pyramid.reading.corpus import ReadingsProvider

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
JOURNAL, STATE = "extract.jsonl", "extract-state.json"
DEFAULT_NAMESPACE = "urn:polyrag:instance:"  # instances of a schema that declares no namespace of its own
MAX_SLUG = 60


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


@dataclass
class InstanceJob:
    """What a build gives a strategy: the workspace and its ontology layer (schema, `add_instances`),
    the model and embedder, the store's reader (`select`, for the label index), the settings, what
    earlier runs extracted (`state`, written back to `state_path`), the pages' reading, the report
    to fill and the progress display."""

    ws: Workspace
    layer: Any
    llm: LLM
    embedder: Embedder
    select: Select
    settings: OntologySettings
    state: dict[str, str]
    state_path: Path
    report: ExtractReport
    progress: Progress
    readings: ReadingsProvider | None = None

    @property
    def namespace(self) -> str:
        return getattr(self.layer.schema, "namespace", "") or DEFAULT_NAMESPACE


class InstanceExtractor(Protocol):
    name: str

    def extract(self, docs: list[Document], job: InstanceJob) -> None: ...
    def outcome(self, report: ExtractReport) -> str: ...


class InstanceJournal(ExtractionJournal):
    """The chunk journal (one JSON line per chunk outcome, last line wins) with the facts each chunk
    gave; its hash holds the extractor's version."""

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

    def record_failure(self, chunk: Chunk, error: str) -> None:
        self._append({"chunk_id": chunk.id, "doc_id": chunk.doc_id, "hash": self._hash(chunk),
                      "status": "failed", "error": error[:500]})

    def facts(self, chunk_id: str) -> list[Fact]:
        return [Fact(**f) for f in self.entries[chunk_id].get("facts", [])]


_WORD = re.compile(r"\w+", re.UNICODE)


def grounding(text: str, chunk_words: set[str]) -> float:
    words = fold_words(text)
    return sum(w in chunk_words for w in words) / len(words) if words else 0.0


def slug(text: str) -> str:
    return "_".join(fold_words(text))[:MAX_SLUG] or "x"
