"""`polyrag build`: the whole pyramid from documents, bottom-up, in one resumable command.

    documents → [summarise (K²RAG §3.1.1)] → corpus + text layer → KG extraction (f_kg)
              → schema → ontology instance extraction (f_ins) → reasoning

Every step is resumable on its own terms (the text layer embeds only new or changed documents, the
KG and f_ins extractors journal each chunk), so running the command again after an interruption or
a failed chunk redoes only what is missing. Each step's time and LLM usage is returned and written
to the manifest (step "build"); the CLI prints them as the final cost summary.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pyramid.corpus import Document
from pyramid.errors import Hint, WorkspaceError
from pyramid.layers import BuildRequest, Layer, StepReport, timed_step
from pyramid.progress import NullProgress, Progress
from pyramid.session import Session
from pyramid.summarise import make_summariser
from pyramid.types import LAYERS, LayerName
from pyramid.usage import Usage

STEPS: tuple[LayerName, ...] = tuple(reversed(LAYERS))  # bottom-up: text, kg, ontology


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
    steps: list[StepReport] = field(default_factory=list)
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


def layers_of(session: Session, names: tuple[LayerName, ...] = STEPS) -> list[Layer]:
    """The session's layers in build order (bottom-up), those named only."""
    return [layer for layer in (session.text, session.kg, session.ontology) if layer.name in names]


def remove_documents(session: Session, doc_ids: list[str], progress: Progress | None = None) -> dict[str, int]:
    """Drop documents from every layer that holds them (no model needed) and from the corpus: the
    text layer's chunks, the KG's triples, the ontology's per-document graphs (inferences recomputed)."""
    progress = progress or NullProgress()
    with session.ws.writing("remove"):
        gone = {layer.removal_unit: layer.remove_documents(doc_ids, progress) for layer in layers_of(session)}
        session.corpus.update([], remove=doc_ids)
    return gone


def build_pyramid(session: Session, docs: list[Document] | None = None, *, schema: Path | None = None,
                  remove: list[str] | None = None, steps: tuple[LayerName, ...] = STEPS, mode: str | None = None,
                  summarise: bool | None = None, progress: Progress | None = None) -> BuildResult:
    """Add `docs` (and drop `remove`) and bring every layer in `steps` up to date, bottom-up.

    `schema` (an OWL/RDFS file) becomes the workspace schema when it differs from the one loaded;
    without any schema the ontology step is skipped with a note. `mode` is the KG extraction mode
    (default kg.mode); `summarise` overrides `corpus.summarise`.
    """
    progress = progress or NullProgress()
    ws, result = session.ws, BuildResult()
    docs = list(docs or [])
    chosen = layers_of(session, steps if not docs else tuple(dict.fromkeys(("text", *steps))))  # type: ignore[arg-type]
    request = BuildRequest(docs=docs, llm=None, meter=session.meter, progress=progress, kg_mode=mode,
                           schema_path=schema)
    if schema is not None:
        from pyramid.ontology.schema import Schema
        request.schema = Schema.load(schema)
    for layer in chosen:  # bad options stop the build before anything is written
        layer.check(request)
    with ws.writing("build"):
        if docs and (session.settings.corpus.summarise if summarise is None else summarise):
            docs, result.summary = summarise_documents(docs, session, progress)
            request.docs = docs
        if not docs and not remove and not len(session.corpus):
            raise WorkspaceError(f"workspace {ws.root} has no documents", hint=Hint(param="docs", values="PATH"))
        if remove:
            with timed_step("remove", session.meter, result.steps) as rec:
                gone = remove_documents(session, remove, progress)
                rec.outcome = "dropped " + ", ".join(f"{v} {k}" for k, v in gone.items())
        # The corpus first: each layer brings itself up to date with it, so a layer that fails here
        # is caught up by the next build.
        session.corpus.update(docs)
        request.llm = session.llm  # the model file loads on its first call only
        if session.settings.ontology.extract_method == "read":  # one reading of the pages, both layers
            request.readings = session.readings(progress, request.schema)
        for layer in chosen:
            reports = layer.update(request)
            result.steps += reports
            result.pending += [p for r in reports for p in r.pending]
        ws.record_step("build", seconds=result.seconds, usage=result.usage)
    return result
