"""`OntologyLayer`: the schema, the instance store and the reasoner of one workspace.

    layer = OntologyLayer(ws, embedder)                      # Session.ontology builds it
    layer.load_schema(path_or_schema) -> SchemaLoad           # replaces the schema graph; problems listed
    layer.schema -> Schema                                    # from the store's schema graph (cached)
    layer.import_instances(path, *, name=None, progress=None) -> InstanceImportReport
    layer.add_instances(doc_id, triples) -> int               # replaces graph "doc:<doc_id>"
    layer.remove_document(doc_id) -> bool; layer.remove_documents(ids) -> int
    layer.reason() -> ReasonReport                            # recomputes graph "inferred"
    layer.inferred_state() -> "none" | "fresh" | "stale"
    layer.stats() -> dict
    layer.select(query, *, timeout_s=None, row_cap=None) -> list[dict]   # safe: ontology.safety + limits
    layer.query(query, ...) -> QueryResult                    # the same with kind/variables/truncated
    layer.select_trusted(query) -> Rows                       # the layer's own queries: in-process, as text
    layer.prefixes -> dict[str, str]                          # rdf, rdfs, owl, xsd, the schema's, ":"

Triples for `add_instances` may be pyoxigraph Triples/Quads or (s, p, o) tuples of terms or strings;
a string object is an IRI when it starts with http://, https:// or urn:, else a plain literal.

Writes take the workspace lock themselves (re-entrant, so callers already holding it are fine) and
are recorded in the manifest as steps "ontology.*" with the layer's counts.

Inference and change: the inferred graph is derived from every other graph. Changes that can remove
or alter asserted facts (schema load, import, document removal) recompute it when it exists, so it
never holds a fact whose grounds are gone. `add_instances` only adds, so it leaves the old inferences
in place (sound, possibly incomplete) and `stats()["inferred_stale"]` says so until `reason()` runs;
an extractor adding many documents calls `reason()` once at the end.
"""

from __future__ import annotations

import hashlib
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pyoxigraph as ox

from pyramid.layers import BuildRequest, StepReport, timed_step
from pyramid.ontology.backends import OntologyBackend, open_store
from pyramid.ontology.importer import InstanceImportReport, analyse, describe
from pyramid.ontology.query_pool import Lane
from pyramid.ontology.query_worker import QueryResult
from pyramid.ontology.rdfio import STANDARD_PREFIXES, ImportLimits, read_rdf, text_rows
from pyramid.ontology.reasoner import materialise
from pyramid.ontology.schema import Schema
from pyramid.ontology.store import DOCUMENT_GRAPH, INFERRED, SCHEMA, doc_graph, import_graph, inferred_fingerprint
from pyramid.progress import NullProgress, Progress
from pyramid.types import LayerName
from pyramid.workspace import BuildJournal, Part, Workspace, atomic_write_json, crash_point

Rows = list[dict[str, str]]

_IRI_SCHEMES = ("http://", "https://", "urn:")


@dataclass
class SchemaLoad:
    schema: Schema
    problems: list[str]
    inferred: int | None = None     # set when the inferred graph was recomputed
    seconds: float = 0.0


@dataclass
class ReasonReport:
    asserted: int
    inferred: int
    seconds: float                  # whole step: read, reason, write
    reason_seconds: float           # the fixpoint computation alone
    rules: dict[str, int] = field(default_factory=dict)

    def render(self) -> str:
        detail = ", ".join(f"{k} {v:,}" for k, v in self.rules.items())
        return (f"materialised {self.inferred:,} triples from {self.asserted:,} asserted in {self.seconds:.2f} s "
                f"(fixpoint {self.reason_seconds:.2f} s; {detail})")


def _term(value: Any, *, obj: bool = False):
    if isinstance(value, (ox.NamedNode, ox.BlankNode, ox.Literal)):
        return value
    text = str(value)
    if obj and not text.startswith(_IRI_SCHEMES):
        return ox.Literal(text)
    return ox.NamedNode(text)


def as_triple(t: Any) -> ox.Triple:
    if isinstance(t, ox.Triple):
        return t
    s, p, o = (t.subject, t.predicate, t.object) if isinstance(t, ox.Quad) else t
    return ox.Triple(_term(s), _term(p), _term(o, obj=True))


def file_digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


class OntologyLayer:
    name: LayerName = "ontology"
    removal_unit = "ontology graphs"

    def __init__(self, ws: Workspace, embedder=None) -> None:
        self.ws = ws
        self.embedder = embedder  # used by the instance linker (pyramid.ontology.extract)
        self.settings = ws.settings.ontology
        # the embedded Oxigraph directory or a SPARQL server (ontology.backend), one interface
        self.store: OntologyBackend = open_store(ws.layer_dir("ontology"), self.settings, require_write=ws._require_lock,
                                                 build_pending=lambda: BuildJournal(ws).pending)
        self._schema: tuple[str, Schema] | None = None

    # ------------------------------------------------------------------ schema
    @property
    def exists(self) -> bool:
        return bool(self.store.graphs())

    @property
    def schema(self) -> Schema:
        """The workspace schema (empty when none was loaded); rebuilt when the schema graph changes."""
        info = self.store.graphs().get(SCHEMA)
        key = info.iri if info else ""
        if self._schema is None or self._schema[0] != key:
            schema = Schema.empty() if info is None else Schema.from_triples(
                (ox.Triple(q.subject, q.predicate, q.object) for q in self.store.quads([SCHEMA])),
                prefixes=self._schema_prefixes())
            self._schema = (key, schema)
        return self._schema[1]

    def _schema_prefixes(self) -> dict[str, str]:
        import json

        path = self.ws.layer_dir("ontology") / "schema-prefixes.json"
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}

    @property
    def prefixes(self) -> dict[str, str]:
        """Prefixes every query may use without declaring them."""
        schema = self.schema
        out = {**STANDARD_PREFIXES, **{k: v for k, v in schema.prefixes.items() if k}}
        if schema.namespace:
            out[""] = schema.namespace
        return out

    def load_schema(self, source: str | Path | Schema) -> SchemaLoad:
        """Make `source` the workspace schema. A malformed file raises InputError and changes nothing."""
        start = time.perf_counter()
        schema = source if isinstance(source, Schema) else Schema.load(source)
        problems = schema.validate()
        with self.ws.writing("ontology.load-schema"):
            self.store.replace_graph(SCHEMA, schema.triples, source=str(schema.source or source))
            crash_point("ontology.schema")
            atomic_write_json(self.ws.layer_dir("ontology") / "schema-prefixes.json", schema.prefixes)
            schema.save(self.ws.layer_dir("ontology") / "schema.ttl")  # a readable copy; the store is the truth
            self._schema = None
            inferred = self._refresh_inferred()
            seconds = time.perf_counter() - start
            self.ws.record_step("ontology.load-schema", seconds=seconds, counts=self._counts(), layer="ontology")
        return SchemaLoad(self.schema, problems, inferred, seconds)

    # ------------------------------------------------------------------ instances
    def import_instances(self, path: str | Path, *, name: str | None = None, reason: bool = True,
                         progress: Progress | None = None) -> InstanceImportReport:
        """Import an instance file into graph "import:<name>" (default: the file's stem); idempotent.
        `reason`: recompute the inferred graph if there is one (else it stays stale until `reason`)."""
        progress = progress or NullProgress()
        start = time.perf_counter()
        task = progress.task(f"importing {Path(path).name}", 3)
        limits = ImportLimits(self.settings.max_term_kb * 1024, self.settings.max_triples)
        parsed = read_rdf(path, as_text=True, limits=limits)  # a bad file fails here, before the lock and any write
        task.advance()
        name = name or Path(path).stem
        with self.ws.writing("ontology.import"):
            schema = self.schema
            prepared = analyse(parsed, schema)
            report = prepared.report
            if prepared.schema_triples and not schema.triples:
                self.store.replace_graph(SCHEMA, prepared.schema_triples, source=f"{path} (schema statements)")
                atomic_write_json(self.ws.layer_dir("ontology") / "schema-prefixes.json", parsed.prefixes)
                self._schema = None
                report.schema_action = "loaded as the workspace schema (there was none)"
            elif prepared.schema_triples:
                known = set(schema.triples)
                ignored = [t for t in prepared.schema_triples if t not in known]
                report.schema_ignored = [_readable(t, schema) for t in ignored]
                report.schema_action = (f"{len(ignored)} not in the workspace schema, ignored" if ignored
                                        else "all already in the workspace schema")
            else:
                report.schema_action = "none"
            task.advance()
            # Oxigraph parses and writes the text in Rust without the GIL: the report is counted meanwhile
            with ThreadPoolExecutor(1) as pool:
                written = pool.submit(self.store.replace_graph, import_graph(name), prepared.instances,
                                      source=str(path))
                describe(prepared, schema)
                info = written.result()
            report.graph = info.name
            if reason:
                self._refresh_inferred()
            task.advance()
            report.seconds = time.perf_counter() - start
            self.ws.record_step("ontology.import", seconds=report.seconds, counts=self._counts(), layer="ontology")
        task.done()
        return report

    def add_instances(self, doc_id: str, triples) -> int:
        """Make `triples` the instances extracted from document `doc_id` (replacing earlier ones)."""
        start = time.perf_counter()
        converted = list(dict.fromkeys(as_triple(t) for t in triples))
        with self.ws.writing("ontology.add-instances"):
            self.store.replace_graph(doc_graph(doc_id), converted, source=f"document {doc_id}")
            crash_point("ontology.instances")
            self.ws.record_step("ontology.add-instances", seconds=time.perf_counter() - start,
                                counts=self._counts(), layer="ontology")
        return len(converted)

    def add_instances_many(self, contents: dict[str, list]) -> int:
        """`add_instances` for many documents at once (one store write, one registry switch)."""
        start = time.perf_counter()
        with self.ws.writing("ontology.add-instances"):
            done = self.store.replace_graphs({doc_graph(d): (list(dict.fromkeys(as_triple(t) for t in ts)),
                                                             f"document {d}") for d, ts in contents.items()})
            self.ws.record_step("ontology.add-instances", seconds=time.perf_counter() - start,
                                counts=self._counts(), layer="ontology")
        return sum(g.triples for g in done.values())

    def remove_document(self, doc_id: str) -> bool:
        """Drop what document `doc_id` contributed (its graph) and the inferences resting on it."""
        return self.remove_documents([doc_id]) == 1

    def remove_documents(self, doc_ids, progress=None) -> int:
        """Drop the graphs of these documents, then recompute the inferences once; returns how many
        graphs there were."""
        if not self.exists:
            return 0
        start = time.perf_counter()
        with self.ws.writing("ontology.remove-document"):
            removed = sum(self.store.remove_graph(doc_graph(d)) for d in doc_ids)
            if removed:
                self._refresh_inferred()
                self.ws.record_step("ontology.remove-document", seconds=time.perf_counter() - start,
                                    counts=self._counts(), layer="ontology")
        return removed

    # ------------------------------------------------------------------ the Layer protocol (pyramid.layers)
    def check(self, request: BuildRequest) -> None:
        """An unknown extraction method stops the build before anything is written (the schema was
        loaded, and so validated, before)."""
        from pyramid.ontology.extractors import INSTANCE_EXTRACTORS

        INSTANCE_EXTRACTORS.get(self.settings.extract_method)

    def parts(self) -> list[Part]:
        """The store (copied by Oxigraph's checkpoint: hard links to its immutable tables, so cheap),
        its registry, the schema's files and the extractor's state; not the extraction journal, which
        a rerun after a rollback reads again."""
        from pyramid.ontology.extractors.base import STATE
        from pyramid.ontology.store import REGISTRY

        def checkpoint(dst: Path) -> None:
            with self.store.writer() as store:  # a damaged store fails here, before the build writes
                store.backup(str(dst))

        def busy() -> bool:
            """RocksDB closes only when its last reference goes: a store still open here (held by a
            traceback) would write into the directory a rollback moves away, so the rollback waits."""
            if not self.store.path.is_dir():
                return False
            try:
                ox.Store(str(self.store.path))  # fails while this process holds the store's lock
            except OSError:
                return True
            return False

        files = (REGISTRY, "schema-prefixes.json", "schema.ttl", STATE)
        return [Part("ontology/store", "tree", checkpoint, busy), *(Part(f"ontology/{f}", "file") for f in files)]

    def update(self, request: BuildRequest) -> list[StepReport]:
        """Schema (when a new one is given), instance extraction (f_ins) from the corpus, reasoning."""
        from pyramid.ontology.extract import extract_instances, outcome

        reports: list[StepReport] = []
        if request.schema is not None and request.schema_path is not None:
            digest = file_digest(request.schema_path)
            if self.ws.manifest()["versions"].get("schema_sha256") != digest:
                with timed_step("ontology.schema", request.meter, reports) as rec:
                    loaded = self.load_schema(request.schema)
                    crash_point("ontology.schema.loaded")
                    rec.outcome = f"{len(loaded.schema.classes)} classes, {len(loaded.schema.properties)} properties"
                    self.ws.record_step("ontology.schema", seconds=loaded.seconds, versions={"schema_sha256": digest})
        if not self.exists:
            reports.append(StepReport(self.name, outcome="skipped: no schema loaded"))
            return reports
        with timed_step("ontology.extract", request.meter, reports) as rec:
            assert request.llm is not None, "instance extraction needs a model"
            r = extract_instances(self.ws, self, request.llm, self.embedder, select=self.select_trusted,
                                  progress=request.progress, readings=request.readings)
            rec.outcome = outcome(self.settings.extract_method, r)
            if r.failed_chunks:
                rec.pending.append(f"ontology: {len(r.failed_chunks)} chunks failed "
                                   f"({', '.join(r.failed_chunks[:3])})")
        if self.inferred_state() != "fresh":
            with timed_step("ontology.reason", request.meter, reports) as rec:
                rec.outcome = self.reason().render()
        else:
            self.settle_manifest()
        return reports

    def settle_manifest(self) -> bool:
        """Make the manifest say what the store holds when the inferred graph is fresh but the manifest
        is behind (a build stopped between the store's commit and the manifest's write); True if it was."""
        counts = self._counts()
        m = self.ws.manifest()
        if m.get("layers", {}).get("ontology") == counts and "ontology.reason" in m.get("steps", {}):
            return False
        with self.ws.writing("ontology.reason"):
            self.ws.record_step("ontology.reason", seconds=0.0, counts=counts, layer="ontology")
        return True

    # ------------------------------------------------------------------ reasoning
    def _asserted(self) -> list[str]:
        return [n for n in self.store.graphs() if n != INFERRED]

    def _fingerprint(self) -> str:
        return inferred_fingerprint(self.store.graphs())

    def inferred_state(self) -> Literal["none", "fresh", "stale"]:
        """Whether the inferred graph exists and was derived from the asserted graphs as they are now."""
        inferred = self.store.graphs().get(INFERRED)
        if inferred is None:
            return "none"
        return "fresh" if inferred.source == self._fingerprint() else "stale"

    def _refresh_inferred(self) -> int | None:
        """Recompute the inferred graph if there is one and what it was derived from has changed."""
        return self.reason().inferred if self.inferred_state() == "stale" else None

    def reason(self) -> ReasonReport:
        """Materialise RDFS + the OWL RL subset (pyramid.ontology.reasoner) into graph "inferred"."""
        start = time.perf_counter()
        with self.ws.writing("ontology.reason"):
            # a server that reasons itself answers with its inferences: nothing to materialise
            result = materialise(() if self.store.server_reasons else self.store.ntriples(self._asserted()))
            self.store.replace_graph(INFERRED, result.text, source=self._fingerprint())
            crash_point("ontology.inferred")
            seconds = time.perf_counter() - start
            report = ReasonReport(result.asserted, len(result.text), seconds, result.seconds, result.rules)
            self.ws.record_step("ontology.reason", seconds=seconds, counts=self._counts(), layer="ontology")
        return report

    # ------------------------------------------------------------------ reading
    def query(self, query: str, *, timeout_s: float | None = None, row_cap: int | None = None,
              graphs: list[str] | None = None, typed: bool = False, distinct: bool = False,
              lane: Lane = "user") -> QueryResult:
        """A user's or a question's query (checked, timed, capped); `typed`: W3C bindings, for serialising;
        `distinct`: the query removes repeated rows itself; `lane`: whose (see OntologyStore.run_query)."""
        return self.store.run_query(query, timeout_s=timeout_s or self.settings.timeout_s,
                                    row_cap=row_cap or self.settings.row_cap, prefixes=self.prefixes, graphs=graphs,
                                    typed=typed, distinct=distinct, lane=lane)

    def select(self, query: str, *, timeout_s: float | None = None, row_cap: int | None = None,
               graphs: list[str] | None = None, distinct: bool = False, lane: Lane = "user") -> list[dict[str, Any]]:
        return self.query(query, timeout_s=timeout_s, row_cap=row_cap, graphs=graphs, distinct=distinct,
                          lane=lane).rows

    def select_trusted(self, query: str) -> Rows:
        """Our own fixed queries (labels, types, stats): in-process, no worker round trip, no safety
        check, so never a query that came from a question or a user. Values as text."""
        return text_rows(self.store.run_trusted(query).rows)

    def _counts(self) -> dict[str, Any]:
        graphs = self.store.graphs()
        schema = self.schema
        inferred = graphs.get(INFERRED)
        return {
            "classes": len(schema.classes),
            "object_properties": sum(p.kind == "object" for p in schema.properties.values()),
            "datatype_properties": sum(p.kind == "datatype" for p in schema.properties.values()),
            "schema_triples": graphs[SCHEMA].triples if SCHEMA in graphs else 0,
            "instance_triples": sum(g.triples for n, g in graphs.items() if n not in (SCHEMA, INFERRED)),
            "inferred_triples": inferred.triples if inferred else 0,
            "inferred_stale": self.inferred_state() == "stale",
            "documents": sum(n.startswith(DOCUMENT_GRAPH) for n in graphs),
            "imports": sum(n.startswith("import:") for n in graphs),
        }

    def stats(self) -> dict[str, Any]:
        """Counts, the graphs, instances per schema class (asserted + inferred) and schema problems."""
        out = self._counts()
        out["graphs"] = {n: {"triples": g.triples, "source": g.source, "loaded": g.loaded}
                         for n, g in self.store.graphs().items()}
        rows = self.store.run_trusted(
            "SELECT ?c (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a ?c } GROUP BY ?c ORDER BY DESC(?n)").rows
        classes = self.schema.classes
        out["instances"] = {self.schema.short(r["c"]): r["n"] for r in rows if r["c"] in classes}
        out["schema_problems"] = self.schema.validate()
        return out

    def close(self) -> None:
        self.store.close()


def _readable(t: ox.Triple, schema: Schema) -> str:
    def show(term) -> str:
        return schema.short(term.value) if isinstance(term, ox.NamedNode) else str(term)
    return f"{show(t.subject)} {show(t.predicate)} {show(t.object)}"
