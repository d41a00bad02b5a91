"""K²RAG's three naive pipelines: retrieve chunks (semantic λ=1, keyword λ=0, hybrid λ=0.8), answer."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Literal

from pyramid.llm import LLM, LLMError
from pyramid.prompts import load_prompt
from pyramid.types import Answer, ChunkEvidence, Tracer, check_question

if TYPE_CHECKING:  # the text layer loads only for a question that reaches it (a cold ask stays quick)
    from pyramid.text_layer import Hit, TextLayer

Pipeline = Literal["semantic", "keyword", "hybrid"]
PIPELINE_LAMBDA: dict[str, float | None] = {"semantic": 1.0, "keyword": 0.0, "hybrid": None}  # None = settings
ANSWER_MAX_TOKENS = 160


def format_context(hits: list[Hit]) -> str:
    return "\n".join("- " + " ".join(h.chunk.text.split()) for h in hits)


def chunk_evidence(hits: list[Hit]) -> list[ChunkEvidence]:
    return [ChunkEvidence(chunk_id=h.chunk.id, doc_id=h.chunk.doc_id, score=round(h.score, 4),
                          dense=round(h.dense, 4), sparse=round(h.sparse, 4), text=h.chunk.text)
            for h in hits]


def answer_from_context(question: str, context: str, llm: LLM, tracer: Tracer, **inputs: object) -> str:
    """The K²RAG answer prompt over `context`, traced as step "text.answer"."""
    with tracer.step("text.answer", "text", **inputs) as rec:
        reply = llm.complete(load_prompt("querying", "answer").render(context=context, question=question),
                             max_tokens=ANSWER_MAX_TOKENS)
        if not reply.text.strip():  # a blank answer is the model failing, not an answer
            raise LLMError(f"the model ({llm.name}) returned an empty answer")
        rec.outcome = "answered"
    return reply.text.strip()


def answer_from_chunks(question: str, hits: list[Hit], llm: LLM, tracer: Tracer) -> str:
    return answer_from_context(question, format_context(hits), llm, tracer, chunks=[h.chunk.id for h in hits])


def answer_naive(question: str, text: TextLayer, llm: LLM, pipeline: Pipeline = "hybrid",
                 k: int | None = None) -> Answer:
    """Answer from the top-k chunks (k defaults to text.answer_k) with the K²RAG answer prompt."""
    question = check_question(question)
    start = time.perf_counter()
    tracer = Tracer(llm.meter)
    lam = PIPELINE_LAMBDA[pipeline]
    lam = text.cfg.lam if lam is None else lam
    k = k or text.cfg.answer_k
    with tracer.step("text.retrieve", "text", pipeline=pipeline, lam=lam, k=k) as rec:
        hits = text.search(question, k=k, lam=lam)
        rec.outcome = f"{len(hits)} chunks"
    answer = answer_from_chunks(question, hits, llm, tracer)
    return Answer(question=question, text=answer, layer="text", pipeline=pipeline, evidence=chunk_evidence(hits),
                  trace=tracer.steps, usage=tracer.total(), ms=round((time.perf_counter() - start) * 1000, 1))
