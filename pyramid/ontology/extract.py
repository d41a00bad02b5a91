"""Instance extraction (f_ins, PolyRAG eq. 1) over the workspace's documents: the strategy
`ontology.extract_method` names (pyramid.ontology.extractors: grounded, chunk, read, or a plug-in's),
run where the corpus changed.

Documents that left the corpus lose their graph (and the inferences resting on it) at the start of
each run; the strategy writes each document's instances into its own named graph and records what it
extracted in `WS/ontology/extract-state.json`, so a stopped run resumes and an unchanged document is
not extracted again.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from pyramid.corpus_store import CorpusStore
from pyramid.embeddings import Embedder
from pyramid.errors import Hint, WorkspaceError
from pyramid.llm import LLM
from pyramid.ontology.extractors import INSTANCE_EXTRACTORS
from pyramid.ontology.extractors.base import STATE, ExtractReport, InstanceJob
from pyramid.progress import NullProgress, Progress
from pyramid.vocab import Select
from pyramid.workspace import Workspace, atomic_write_json


def extract_instances(ws: Workspace, layer, llm: LLM, embedder: Embedder, *, select: Select,
                      progress: Progress | None = None, limit: int | None = None, readings=None,
                      method: str | None = None) -> ExtractReport:
    """f_ins over the workspace's documents (new or changed ones) by `method` (default
    `ontology.extract_method`); resumable (see the module docstring).

    `layer` is the OntologyLayer (its schema vocabulary, `add_instances`); `select` reads the store
    for the label index. `readings` is the pages' schema-aware reading when the build already made it
    (pyramid.reading.corpus), for the methods that take it.
    """
    progress = progress or NullProgress()
    cfg = ws.settings.ontology
    strategy = INSTANCE_EXTRACTORS.get(method or cfg.extract_method).build()
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
        strategy.extract(docs, InstanceJob(ws, layer, llm, embedder, select, cfg, state, state_path, report,
                                           progress, readings))
        report.seconds = time.perf_counter() - start
        ws.record_step("ontology.extract", seconds=report.seconds, usage=usage,
                       counts=None, done=not report.failed_chunks)
    report.usage = usage.model_copy()
    return report


def outcome(method: str, report: ExtractReport) -> str:
    """The build's one-line account of a run of `method`."""
    return INSTANCE_EXTRACTORS.get(method).build().outcome(report)


def _read_state(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError as err:
        raise WorkspaceError(f"{path}: not valid JSON ({err}); delete it to extract again") from None
