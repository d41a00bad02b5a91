"""The types every room shares, at the bottom of the import order: the layer names, the one `Answer`
type every path returns (text, the layer that answered, evidence, trace, usage), its evidence and
trace types, and the question check."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable, Iterator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from pyramid.usage import Usage, UsageMeter

LayerName = Literal["ontology", "kg", "text"]
LAYERS: tuple[LayerName, ...] = ("ontology", "kg", "text")  # top-down: the order questions go in
Layer = Literal["ontology", "kg", "text", "none"]           # who answered; "none" = no layer did


def check_layers(names: Iterable[str], param: str = "layers") -> list[LayerName]:
    """The names as layer names, in the order given; an InputError naming the first unknown one
    (`param`: the parameter they came from, for the hint)."""
    from pyramid.errors import Hint, InputError

    out: list[LayerName] = []
    for name in names:
        if name not in LAYERS:
            raise InputError(f"unknown layer '{name}'", hint=Hint(param=param, values=", ".join(LAYERS)))
        out.append(name)  # type: ignore[arg-type]
    return out


class ChunkEvidence(BaseModel):
    kind: Literal["chunk"] = "chunk"
    chunk_id: str
    doc_id: str
    score: float
    dense: float | None = None
    sparse: float | None = None
    text: str = ""


class TripleEvidence(BaseModel):
    kind: Literal["triple"] = "triple"
    triple_id: str
    subject: str
    relation: str
    object: str
    score: float | None = None
    chunk_id: str | None = None
    doc_id: str | None = None


class SparqlEvidence(BaseModel):
    kind: Literal["sparql"] = "sparql"
    plan: dict[str, Any] | None = None
    query: str
    rows: list[dict[str, Any]] = Field(default_factory=list)


Evidence = Annotated[ChunkEvidence | TripleEvidence | SparqlEvidence, Field(discriminator="kind")]


class Handover(BaseModel):
    """What a layer that did not answer passes down with the question: the KG's retrieved triples
    (K²RAG summarises them and asks sub-questions from them)."""

    triples: list[TripleEvidence] = Field(default_factory=list)


class TraceStep(BaseModel):
    step: str                       # e.g. "text.retrieve", "text.answer", "ontology.plan"
    layer: Layer | None = None
    input: dict[str, Any] = Field(default_factory=dict)
    outcome: str = ""               # "answered", "empty", "insufficient", "error: ...", ...
    usage: Usage = Field(default_factory=Usage)
    ms: float = 0.0


class Citation(BaseModel):
    """One sentence of a composed text answer and the chunk it was taken from."""

    sentence: str
    chunk_id: str
    doc_id: str


class Answer(BaseModel):
    question: str
    text: str
    layer: Layer
    pipeline: str = "waterfall"
    selected: list[int] | None = None   # MCQ/MAQ: indices of the chosen options
    citations: list[Citation] = Field(default_factory=list)  # text answers: where each sentence came from
    abstained: bool = False             # the layer found evidence but judged it does not answer the question
    evidence: list[Evidence] = Field(default_factory=list)
    trace: list[TraceStep] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    ms: float = 0.0


class Tracer:
    """Records trace steps with the LLM usage and time spent inside each."""

    def __init__(self, meter: UsageMeter) -> None:
        self.meter = meter
        self.steps: list[TraceStep] = []

    def total(self) -> Usage:
        out = Usage()
        for s in self.steps:
            out.add(s.usage)
        return out

    @contextlib.contextmanager
    def step(self, name: str, layer: Layer | None = None, **inputs: Any) -> Iterator[TraceStep]:
        rec = TraceStep(step=name, layer=layer, input=inputs)
        start = time.perf_counter()
        with self.meter.scope() as usage:
            try:
                yield rec
            except Exception as err:
                rec.outcome = rec.outcome or f"error: {err}"
                raise
            finally:
                rec.usage = usage.model_copy()
                rec.ms = round((time.perf_counter() - start) * 1000, 2)
                self.steps.append(rec)


MAX_QUESTION_CHARS = 2000  # longer "questions" are documents; index them instead


def check_question(question: str) -> str:
    """The question stripped; an InputError for empty or oversized questions."""
    from pyramid.errors import Hint, InputError

    q = (question or "").strip()
    if not q:
        raise InputError("the question is empty")
    try:  # a lone surrogate (non-UTF-8 bytes on the command line) would fail later, in every hash and print
        q.encode("utf-8")
    except UnicodeEncodeError as err:
        code = ord(q[err.start])
        what = f"byte 0x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"lone surrogate U+{code:04X}"
        raise InputError(f"the question is not valid UTF-8 text ({what} at character {err.start + 1}); "
                         "pass it as UTF-8") from None
    if len(q) > MAX_QUESTION_CHARS:
        raise InputError(f"the question is {len(q):,} characters long; the limit is {MAX_QUESTION_CHARS:,}",
                         hint=Hint(action="index_long_text"))
    return q
