"""`polyrag build`: the whole pyramid from documents, bottom-up, in one resumable command.

    documents → [summarise (K²RAG §3.1.1)] → corpus + text layer → KG extraction (f_kg)
              → schema → ontology instance extraction (f_ins) → reasoning

Every step is resumable on its own terms (the text layer embeds only new or changed documents, the
KG and f_ins extractors journal each chunk), so running the command again after an interruption or
a failed chunk redoes only what is missing. Each step's time and LLM usage is returned and written
to the manifest (step "build"); the CLI prints them as the final cost summary.

All layers or none: the build (and `remove_documents`) runs inside a build journal
(pyramid.workspace.BuildJournal) holding each layer's state as it was before. An exception or Ctrl-C
puts every layer back before the error propagates; a SIGKILL leaves the journal, and the next command
that writes rolls it back first. So the corpus is never ahead of a layer after a failed build, and
the rerun is cheap: the extraction journals and the model and embedding caches are kept. While a
build runs, the manifest's "build" entry says which layers it has updated and which are behind.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pyramid.corpus import Document
from pyramid.errors import Hint, WorkspaceError
from pyramid.layers import BuildRequest, Layer, StepReport, timed_step
from pyramid.progress import NullProgress, Progress
from pyramid.session import Session
from pyramid.summarise import make_summariser
from pyramid.types import LAYERS, LayerName
from pyramid.usage import Usage
from pyramid.workspace import MANIFEST, BuildJournal, Part, crash_point

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
    recovered: str = ""     # a stopped build this one rolled back before it began

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
                "pending": self.pending, "recovered": self.recovered, "seconds": round(self.seconds, 3),
                "usage": self.usage.to_dict()}


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

    def summary(d: Document) -> str:
        return summariser.summarise(d.text, cfg.summary_words) or d.text

    workers = session.llm.concurrency if summariser.name != "extractive" else 1
    with ThreadPoolExecutor(max_workers=workers) as pool:  # model calls at once, results in order
        texts = pool.map(summary, docs) if workers > 1 else map(summary, docs)
        for d, text in zip(docs, texts, strict=True):
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
    text layer's chunks, the KG's triples, the ontology's per-document graphs (inferences recomputed).
    All or none, like a build."""
    progress = progress or NullProgress()
    with session.ws.writing("remove"):
        _after_lock(session)
        with all_or_none(session, layers_of(session), "remove"):
            gone = {layer.removal_unit: layer.remove_documents(doc_ids, progress) for layer in layers_of(session)}
            session.corpus.update([], remove=doc_ids)
    return gone


class _BuildNote:
    """The manifest's account of a running build: the layers updated so far and those behind (silent
    inside an outer journal, whose note it is)."""

    def __init__(self, session: Session, step: str, started: str, names: list[str], *, active: bool = True) -> None:
        self.session, self.step, self.started, self.active = session, step, started, active
        self.behind, self.updated = list(names), []
        self.note("running")

    def note(self, state: str, **fields) -> None:
        if self.active:
            self.session.ws.note_build(state, step=self.step, started=self.started, updated=self.updated,
                                       behind=self.behind, **fields)

    def updated_layer(self, name: str) -> None:
        if name in self.behind:
            self.behind.remove(name)
            self.updated.append(name)
            self.note("running")


@contextlib.contextmanager
def all_or_none(session: Session, layers: list[Layer], step: str) -> Iterator[_BuildNote]:
    """Run the block inside a build journal over the corpus, `layers` and the manifest: on any
    exception (Ctrl-C too) every one of them is put back before it propagates. Inside an open journal
    (a build that removes documents) it is the outer journal's block. Needs the workspace lock."""
    ws = session.ws
    names = ["corpus", *(layer.name for layer in layers)]
    started = datetime.now(UTC).isoformat(timespec="seconds")
    if ws.journal_open:
        yield _BuildNote(session, step, started, names, active=False)
        return
    journal = BuildJournal(ws)
    journal.begin(step, [Part(MANIFEST, "file"), *session.corpus.parts(), *(p for la in layers for p in la.parts())])
    ws.journal_open = True
    try:
        yield _BuildNote(session, step, started, names)
    except BaseException as err:
        _release(session, err)
        reason = "interrupted" if isinstance(err, KeyboardInterrupt) else f"{type(err).__name__}: {err}"
        if journal.rollback() is None:  # a store is still open here: the next command that writes does it
            ws.note_build("failed", step=step, started=started, reason=reason[:300],
                          rollback="by the next command that writes")
        else:
            ws.note_build("rolled back", step=step, started=started, reason=reason[:300])
        raise
    finally:
        ws.journal_open = False
    journal.commit()


def _after_lock(session: Session) -> str:
    """Taking the lock may have rolled back a stopped build: the session's layers read again."""
    journal, session.ws.recovered = session.ws.recovered, None
    if journal is None:
        return ""
    _forget(session)
    return f"rolled back the {journal['step']} started {journal['started']} first"


def _release(session: Session, err: BaseException) -> None:
    """Before a rollback swaps files: close the stores this process has open and forget what it read.
    The traceback's finished frames may still hold an open Oxigraph store (RocksDB closes when its last
    reference goes), so their locals are cleared; the traceback itself stays printable."""
    import gc
    import traceback

    seen: set[int] = set()
    while err is not None and id(err) not in seen:  # the exception and those it was raised from
        seen.add(id(err))
        if err.__traceback__ is not None:
            traceback.clear_frames(err.__traceback__)
        err = err.__cause__ or err.__context__  # type: ignore[assignment]
    _forget(session)
    gc.collect()


def _forget(session: Session) -> None:
    """Drop the session's layers (closing their stores): rebuilt from disk on next use."""
    for name in ("text", "kg", "ontology", "corpus"):
        obj = session.__dict__.pop(name, None)  # Session's cached properties
        if obj is not None and hasattr(obj, "close"):
            obj.close()


def choose_extraction(session: Session, request: BuildRequest, *, with_kg: bool = True) -> None:
    """The one place a build settles how it extracts: the pages are read once, for both layers, when
    the instance method takes their reading; the KG mode (auto: read when there is a reading, else by
    the model) is settled here and the layers take it as it is."""
    from pyramid.kg.extractors import choose
    from pyramid.ontology.extractors import BY_SHAPE, reads_pages

    method = session.settings.ontology.extract_method
    if reads_pages(method):
        request.readings = session.readings(request.progress, request.schema)
    assert request.llm is not None
    if with_kg:
        request.kg_mode = choose(request.kg_mode or session.settings.kg.mode, request.llm,
                                 can_read=request.readings is not None, by_shape=method == BY_SHAPE)


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
    request = BuildRequest(docs=docs, llm=None, meter=session.meter, progress=progress, kg_mode=mode,
                           schema_path=schema)
    if schema is not None:
        from pyramid.ontology.schema import Schema
        request.schema = Schema.load(schema)
    with ws.writing("build"):
        # the layers are read once the lock is held: taking it may have rolled back a stopped build
        result.recovered = _after_lock(session)
        chosen = layers_of(session, steps if not docs else tuple(dict.fromkeys(("text", *steps))))  # type: ignore[arg-type]
        for layer in chosen:  # bad options stop the build before anything is written
            layer.check(request)
        if docs and (session.settings.corpus.summarise if summarise is None else summarise):
            docs, result.summary = summarise_documents(docs, session, progress)
            request.docs = docs
        if not docs and not remove and not len(session.corpus):
            raise WorkspaceError(f"workspace {ws.root} has no documents", hint=Hint(param="docs", values="PATH"))
        with all_or_none(session, layers_of(session) if remove else chosen, "build") as journal:
            if remove:
                with timed_step("remove", session.meter, result.steps) as rec:
                    gone = remove_documents(session, remove, progress)
                    rec.outcome = "dropped " + ", ".join(f"{v} {k}" for k, v in gone.items())
            # The corpus first: each layer brings itself up to date with it. A layer that fails rolls
            # every one back (the corpus too); a chunk that fails is pending, retried by the next build.
            session.corpus.update(docs)
            crash_point("build.corpus")
            journal.updated_layer("corpus")
            request.llm = session.llm  # the model file loads on its first call only
            choose_extraction(session, request, with_kg=any(layer.name == "kg" for layer in chosen))
            for layer in chosen:
                reports = layer.update(request)
                result.steps += reports
                result.pending += [p for r in reports for p in r.pending]
                crash_point("build.layer")
                journal.updated_layer(layer.name)
            ws.record_step("build", seconds=result.seconds, usage=result.usage)
            # layers holding documents back (failed chunks) are behind the corpus until a rerun
            journal.behind = sorted({p.split(":", 1)[0] for p in result.pending})
            journal.note("done", pending=result.pending)
    return result
