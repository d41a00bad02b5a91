"""The protocol every knowledge layer follows, so a build is one loop with no per-layer branches.

    layer.name                      "text" | "kg" | "ontology"
    layer.exists                    the layer holds something
    layer.stats() -> dict           counts for `polyrag stats` and the server
    layer.removal_unit              what remove_documents counts ("text documents", "KG triples", ...)
    layer.remove_documents(ids, progress) -> int
    layer.check(request)            refuse a bad request before anything is written (one message)
    layer.update(request) -> list[StepReport]   bring the layer up to date with the corpus
    layer.parts() -> list[Part]     the state an update may change, kept by the build journal until
                                    every layer has committed (pyramid.workspace.BuildJournal)

`BuildRequest` carries what a build gives every layer: the documents this build added or changed
(already in the corpus store), the model, the progress display and the per-layer options. Each
layer takes what it needs and reports one `StepReport` per step it ran (the ontology runs up to
three: schema, extract, reason), timed with the model usage inside it by `timed_step`.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pyramid.progress import NullProgress, Progress
from pyramid.types import LayerName
from pyramid.usage import Usage, UsageMeter

if TYPE_CHECKING:
    from pyramid.corpus import Document
    from pyramid.llm import LLM
    from pyramid.workspace import Part


@dataclass
class BuildRequest:
    docs: list[Document] = field(default_factory=list)  # added or changed by this build
    llm: LLM | None = None
    meter: UsageMeter | None = None     # where the steps' model usage is counted
    progress: Progress = field(default_factory=NullProgress)
    kg_mode: str | None = None          # KG extraction mode (None: kg.mode)
    schema: Any = None                  # a loaded pyramid.ontology.schema.Schema to make current
    schema_path: Path | None = None     # the file it came from (its digest decides whether it changed)
    # the pages' schema-aware reading (doc id -> PageReading), made on first use and shared by the KG and
    # ontology steps; None when there is no schema to read against
    readings: Callable[[], dict[str, Any]] | None = None


@dataclass
class StepReport:
    step: str
    seconds: float = 0.0
    usage: Usage = field(default_factory=Usage)
    outcome: str = ""
    pending: list[str] = field(default_factory=list)  # "kg: 2 chunks failed …": a rerun retries them


@runtime_checkable
class Layer(Protocol):
    name: LayerName
    removal_unit: str

    @property
    def exists(self) -> bool: ...
    def stats(self) -> dict[str, Any]: ...
    def remove_documents(self, doc_ids: list[str], progress: Progress | None = None) -> int: ...
    def check(self, request: BuildRequest) -> None: ...
    def update(self, request: BuildRequest) -> list[StepReport]: ...
    def parts(self) -> list[Part]: ...


@contextlib.contextmanager
def timed_step(name: str, meter: UsageMeter | None, reports: list[StepReport]) -> Iterator[StepReport]:
    """Times one step and appends its report, with the model usage inside it, to `reports` (a failed
    step too, with outcome "failed" unless the step set one)."""
    rec, start, failed = StepReport(name), time.perf_counter(), True
    scope = meter.scope() if meter is not None else contextlib.nullcontext(Usage())
    with scope as usage:
        try:
            yield rec
            failed = False
        finally:
            rec.seconds = round(time.perf_counter() - start, 3)
            rec.usage = usage.model_copy()
            rec.outcome = rec.outcome or ("failed" if failed else "")
            reports.append(rec)
