"""`polyrag build`: the whole pyramid from documents, bottom-up, in one resumable command.

    documents → [summarise (K²RAG §3.1.1)] → corpus + text layer → KG extraction (f_kg)
              → schema → ontology instance extraction (f_ins) → reasoning

Every step is resumable on its own terms (the text layer embeds only new or changed documents, the
KG and f_ins extractors journal each chunk), so running the command again after an interruption or
a failed chunk redoes only what is missing. Each step's time and LLM usage is returned and written
to the manifest (step "build"); the CLI prints them as the final cost summary.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

from pyramid.corpus import Document
from pyramid.errors import WorkspaceError
from pyramid.progress import NullProgress, Progress
from pyramid.session import Session
from pyramid.summarise import is_tiny_default, make_summariser
from pyramid.usage import Usage

Step = Literal["text", "kg", "ontology"]
STEPS: tuple[Step, ...] = ("text", "kg", "ontology")


@dataclass
class StepCost:
    step: str
    seconds: float
    usage: Usage
    outcome: str


@dataclass
class SummaryStats:
    """Build-time summarisation: how much smaller the corpus became."""

    summariser: str
    documents: int
    words_before: int
    words_after: int
    shortened: int          # documents whose summary is shorter than the original
    seconds: float

    @property
    def reduction(self) -> float:
        return 1.0 - self.words_after / self.words_before if self.words_before else 0.0


@dataclass
class BuildResult:
    steps: list[StepCost] = field(default_factory=list)
    summary: SummaryStats | None = None
    pending: list[str] = field(default_factory=list)   # "kg: 2 chunks failed" etc.: re-run to retry

    @property
    def usage(self) -> Usage:
        total = Usage()
        for s in self.steps:
            total.add(s.usage)
        return total

    @property
    def seconds(self) -> float:
        return sum(s.seconds for s in self.steps)

    def to_dict(self) -> dict:
        return {"steps": [{"step": s.step, "seconds": s.seconds, "outcome": s.outcome, "usage": s.usage.to_dict()}
                          for s in self.steps],
                "summary": None if self.summary is None else {**asdict(self.summary), "reduction": self.summary.reduction},
                "pending": self.pending, "seconds": round(self.seconds, 3), "usage": self.usage.to_dict()}


def summarise_documents(docs: list[Document], session: Session, progress: Progress | None = None
                        ) -> tuple[list[Document], SummaryStats]:
    """Each document replaced by its summary (K²RAG §3.1.1); the original size kept in metadata.

    The summariser is `query.summariser` (extractive for the tiny default model): a summary of an
    already short document is the document itself.
    """
    progress = progress or NullProgress()
    cfg = session.settings.corpus
    summariser = make_summariser(session.settings.query.summariser, session.llm)
    start = time.perf_counter()
    out, before, after, shortened = [], 0, 0, 0
    task = progress.task(f"summarising documents ({summariser.name})", len(docs))
    for d in docs:
        text = summariser.summarise(d.text, cfg.summary_words) or d.text
        n0, n1 = len(d.text.split()), len(text.split())
        before, after, shortened = before + n0, after + n1, shortened + (n1 < n0)
        out.append(Document(d.id, text, {**d.metadata, "summarised": summariser.name, "original_words": n0}))
        task.advance()
    task.done()
    return out, SummaryStats(summariser.name, len(docs), before, after, shortened,
                             round(time.perf_counter() - start, 3))


def remove_documents(session: Session, doc_ids: list[str], progress: Progress | None = None) -> dict[str, int]:
    """Drop documents from every layer that holds them (no model needed): the text layer and the
    corpus, the KG's triples, the ontology's per-document graphs (inferences recomputed)."""
    progress = progress or NullProgress()
    with session.ws.writing("remove"):
        report = session.text.add_documents([], progress=progress, remove=doc_ids)
        session.corpus.update([], remove=doc_ids)
        kg = session.kg.remove_documents(doc_ids, progress) if session.kg.exists else 0
        onto = session.ontology.remove_documents(doc_ids) if session.ontology.exists else 0
    return {"text documents": report.documents_removed, "KG triples": kg, "ontology graphs": onto}


KG_MODES = ("auto", "cascade", "single", "grounded", "rules")


def check_kg_mode(session: Session, requested: str | None = None) -> str:
    """The requested (or configured) mode, refused with one message when unknown; needs no model."""
    mode = requested or session.settings.kg.mode
    if mode not in KG_MODES:
        raise WorkspaceError(f"unknown KG extraction mode '{mode}' (choose {', '.join(KG_MODES)})")
    return mode


def kg_mode(session: Session, requested: str | None = None) -> Literal["cascade", "single", "grounded", "rules"]:
    mode = check_kg_mode(session, requested)
    if mode == "auto":
        # grounded: best F1 with the tiny model in `polyrag bench extraction` (reports/extraction.md)
        return "grounded" if is_tiny_default(session.llm) else "cascade"
    return mode  # type: ignore[return-value]


def _file_digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def build_pyramid(session: Session, docs: list[Document] | None = None, *, schema: Path | None = None,
                  remove: list[str] | None = None, steps: tuple[Step, ...] = STEPS, mode: str | None = None,
                  summarise: bool | None = None, progress: Progress | None = None) -> BuildResult:
    """Add `docs` (and drop `remove`) and bring every layer in `steps` up to date, bottom-up.

    `schema` (an OWL/RDFS file) becomes the workspace schema when it differs from the one loaded;
    without any schema the ontology step is skipped with a note. `summarise` overrides
    `corpus.summarise`.
    """
    progress = progress or NullProgress()
    ws, result = session.ws, BuildResult()
    docs = list(docs or [])
    # bad options stop the build before anything is written
    if "kg" in steps:
        check_kg_mode(session, mode)
    schema_obj = None
    if schema is not None:
        from pyramid.ontology.schema import Schema
        schema_obj = Schema.load(schema)  # a malformed schema stops the build before anything is written
    with ws.writing("build"):
        if docs and (session.settings.corpus.summarise if summarise is None else summarise):
            docs, result.summary = summarise_documents(docs, session, progress)
        if not docs and not remove and not len(session.corpus):
            raise WorkspaceError(f"workspace {ws.root} has no documents; give --docs PATH")

        if remove:
            with _step(result, "remove", session) as rec:
                gone = remove_documents(session, remove, progress)
                rec.outcome = "dropped " + ", ".join(f"{v} {k}" for k, v in gone.items())
        if "text" in steps or docs:
            with _step(result, "text", session) as rec:
                report = session.text.add_documents(docs, progress=progress)
                session.corpus.update(docs)
                rec.outcome = (f"{report.documents_added} new, {report.documents_replaced} changed documents; "
                               f"{report.chunks_added} chunks embedded, {report.chunks_total} in all")

        if "kg" in steps:
            with _step(result, "kg", session) as rec:
                chosen = kg_mode(session, mode)
                r = session.kg.build(session.llm, mode=chosen, progress=progress)
                rec.outcome = (f"{chosen} mode: {r.chunks_extracted} chunks extracted, {r.chunks_resumed} resumed; "
                               f"graph {r.totals.get('triples', 0)} triples, {r.totals.get('entities', 0)} entities")
                if r.failed_chunks:
                    result.pending.append(f"kg: {len(r.failed_chunks)} chunks failed ({', '.join(r.failed_chunks[:3])})")

        if "ontology" in steps:
            _ontology_steps(session, result, schema, schema_obj, progress)

        ws.record_step("build", seconds=result.seconds, usage=result.usage)
    return result


def _ontology_steps(session: Session, result: BuildResult, schema: Path | None, schema_obj, progress: Progress) -> None:
    from pyramid.ontology.extract import extract_instances

    layer = session.ontology
    if schema is not None and session.ws.manifest()["versions"].get("schema_sha256") != _file_digest(schema):
        with _step(result, "ontology.schema", session) as rec:
            loaded = layer.load_schema(schema_obj)
            rec.outcome = f"{len(loaded.schema.classes)} classes, {len(loaded.schema.properties)} properties"
            session.ws.record_step("ontology.schema", seconds=loaded.seconds,
                                   versions={"schema_sha256": _file_digest(schema)})
    if not layer.exists:
        result.steps.append(StepCost("ontology", 0.0, Usage(), "skipped: no schema (give --schema FILE)"))
        return
    with _step(result, "ontology.extract", session) as rec:
        r = extract_instances(session.ws, layer, session.llm, session.embedder, select=layer.select_trusted,
                              progress=progress)
        rec.outcome = (f"{r.chunks_extracted} chunks extracted, {r.chunks_resumed} resumed; {r.facts} facts "
                       f"({r.linked} linked, {r.minted} new instances)")
        if r.failed_chunks:
            result.pending.append(f"ontology: {len(r.failed_chunks)} chunks failed ({', '.join(r.failed_chunks[:3])})")
    if layer.inferred_state() != "fresh":
        with _step(result, "ontology.reason", session) as rec:
            rec.outcome = layer.reason().render()


class _Rec:
    outcome = ""


@contextlib.contextmanager
def _step(result: BuildResult, name: str, session: Session) -> Iterator[_Rec]:
    """Times one build step and adds it, with the LLM usage inside it, to `result` (failed ones too)."""
    rec, start, failed = _Rec(), time.perf_counter(), True
    with session.meter.scope() as usage:
        try:
            yield rec
            failed = False
        finally:
            result.steps.append(StepCost(name, round(time.perf_counter() - start, 3), usage.model_copy(),
                                         rec.outcome or ("failed" if failed else "")))
