"""The text layer's answerer, and the K²RAG text path (K²RAG Algorithm 2) it runs when it generates.

`TextAnswerer` retrieves, composes the question's best sentences (querying.compose), abstains when
their support is low, and answers the `query.text_answer` way: extractive (auto with the tiny default
model), rewrite (auto with any other) or generate (below). The K²RAG path is used when the KG layer
found triples but not enough:

    KG results → summarise → split into 128-token chunks (overlap 10) → one sub-question per chunk
    → hybrid retrieval per sub-question (λ=0.8, k=10) → a sub-answer each → summarise the
    sub-answers → final answer from the KG summary + the summarised sub-answers.

With no KG results it falls back to the hybrid naive path and says so in the trace. The
sub-question fan-out runs with bounded concurrency (`query.concurrency`); its calls are traced as
one step, because usage cannot be told apart per thread.

One addition to K²RAG (`query.subquestion_with_question`, on by default): the question itself is
answered beside the generated sub-questions, so the final context always holds the direct
retrieval's answer. SmolLM2-135M's sub-questions drift from the question ("When do visitors come
to the observatory?" became "What do visitors see ...?" on the demo), and then no sub-answer is
about what was asked.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Literal

from pyramid.chunker import Chunker
from pyramid.config import QuerySettings
from pyramid.embeddings import Embedder
from pyramid.llm import LLM, LLMSchemaError
from pyramid.prompts import load_prompt
from pyramid.summarise import make_summariser
from pyramid.text_layer import Hit, TextLayer
from pyramid.types import Answer, ChunkEvidence, Citation, Handover, LayerName, Tracer, TraceStep, TripleEvidence
from pyramid.usage import UsageMeter
from querying.answer_check import check_answer
from querying.compose import (
    Composition,
    Frame,
    Tokenize,
    abstention_text,
    added_words,
    compose,
    framed,
    leading,
    off_question,
    question_frame,
    repetitive,
    split_sentences,
)
from querying.naive import ANSWER_MAX_TOKENS, answer_from_chunks, answer_from_context, chunk_evidence
from querying.options import counted_options, nearest_said, select_options
from querying.shapes import asked

if TYPE_CHECKING:
    from querying.asked_kind import Things

SUBQUESTION_SCHEMA = {"type": "object", "properties": {"question": {"type": "string", "maxLength": 200}},
                      "required": ["question"], "additionalProperties": False}
TextAnswerMode = Literal["extractive", "rewrite", "generate"]
MAX_SUBQUESTIONS = 4  # bounds the fan-out (and its cost) whatever the summary length
COMPLETE_MAX_TOKENS = 60  # a frame's completion is one short sentence


def triples_as_text(triples: list[TripleEvidence]) -> str:
    return "\n".join(f"{t.subject} {t.relation} {t.object}." for t in triples)


class TextAnswerer:
    """The text layer's answerer (querying.answerers.Answerer). How it answers is `query.text_answer`
    (`resolve_text_answer`): extractive or rewrite (querying.compose: cited sentences, no model or one
    checked call), or generate (K²RAG over the KG's handover, the hybrid naive path without one). In
    every mode the evidence's support is measured first and, below `query.abstain_below`, the answer
    says it does not know and shows what it found (`abstained`), before any model call; above it, with
    `query.answer_check` on, the model's no to "do these sentences answer it?" abstains too."""

    name: LayerName = "text"

    def __init__(self, text: TextLayer | Callable[[], TextLayer], llm: LLM, embedder: Embedder, cfg: QuerySettings,
                 meter: UsageMeter, kinds: Callable[[str], Things | None] | None = None) -> None:
        # a callable: the layer is loaded (its BM25 index fitted) only when a question reaches it
        self._text, self.llm, self.embedder, self.cfg, self.meter = text, llm, embedder, cfg, meter
        self.kinds = kinds  # the things of the kind a question asks for by name (querying.asked_kind)

    @property
    def text(self) -> TextLayer:
        if callable(self._text):
            self._text = self._text()
        return self._text

    def answer(self, question: str, handover: Handover | None = None, *,
               options: list[str] | None = None, mode: TextAnswerMode | None = None) -> Answer:
        start = time.perf_counter()
        handover = handover or Handover()
        tracer = Tracer(self.meter)
        mode = mode or resolve_text_answer(self.cfg.text_answer, self.llm)
        with tracer.step("text.retrieve", "text", lam=self.text.cfg.lam, k=self.text.cfg.answer_k) as rec:
            hits = self.text.search(question, k=self.text.cfg.answer_k)
            rec.outcome = f"{len(hits)} chunks" + ("" if handover.triples else "; no KG results")
        frame = question_frame(question, self.text.tokenize)
        # a fact question is answered only by sentences that hold the shape it asks for, from passages that
        # name what it asks about (querying.shapes): a sentence about something else answers another question
        things = self.kinds(question) if self.kinds else None
        wanted = asked(question, framed=frame is not None, things=things.offered(options) if things else things)
        with tracer.step("text.compose", "text", words=self.cfg.answer_words) as rec:
            comp = compose(question, hits, self.embedder, self.text.tokenize, self.cfg.answer_words,
                           admit=(lambda s, h: wanted.admits(s, h.chunk.text)) if wanted else None)
            rec.input["support"] = comp.support
            rec.outcome = (f"{len(comp.chosen)} sentences; support {comp.support:.3f} (relevance {comp.relevance:.3f}, "
                           f"coverage {comp.coverage:.3f})")
        citations = comp.citations
        # a count said beside the noun it counts, in a passage naming what is asked about, answers however
        # little of the question's wording the sentence shares ("The 21-minute short film …")
        gated = comp.support < self.cfg.abstain_below and not (wanted.counted and comp.chosen)
        why = (f"support {comp.support:.3f} < {self.cfg.abstain_below}" if gated
               else f"no sentence of the {len(hits)} chunks {wanted.says()}" if not comp.chosen and comp.set_aside
               else "no sentence to answer with" if not comp.chosen else self._check(question, comp, tracer))
        if why:
            tracer.steps.append(TraceStep(step="text.abstain", layer="text", input={"missing": comp.missing},
                                          outcome=why))
            # the closest passage shown is the closest of all, where the question's checks admitted none
            closest = comp if comp.chosen else compose(question, hits, self.embedder, self.text.tokenize,
                                                       self.cfg.answer_words)
            text, pipeline, chunks, abstained = abstention_text(closest), "abstain", chunk_evidence(hits), True
        elif mode == "generate":
            text, chunks = answer_text_path(self.text, self.llm, self.embedder, self.cfg, question,
                                            handover.triples, tracer, hits=hits)
            pipeline, citations, abstained = "k2rag" if handover.triples else "hybrid", [], False
        else:
            if mode == "extractive":
                text, citations = framed(comp, frame) if frame else \
                    leading(comp) if wanted.fact else (comp.text, citations)
            else:
                text, citations = rewrite(question, comp, self.llm, self.text.tokenize, self.embedder, tracer,
                                          frame=frame)
            pipeline, chunks, abstained = mode, chunk_evidence(hits), False
        selected = None
        if options:
            # a count's options by the number said beside the counted noun (options.counted_options)
            counted = counted_options(question, options, [text, *(e.text for e in chunks[:1])])
            selected = select_answered(options, text, [e.text for e in chunks]) if counted is None else counted
            if wanted.shape == "time" and not abstained:  # one time of one thing: the option said beside it
                selected = nearest_said(options, selected, text, wanted.names)
        return Answer(question=question, text=text, layer="text", pipeline=pipeline, selected=selected,
                      citations=citations, abstained=abstained, evidence=[*handover.triples, *chunks],
                      trace=tracer.steps, usage=tracer.total(), ms=round((time.perf_counter() - start) * 1000, 1))

    def _check(self, question: str, comp: Composition, tracer: Tracer) -> str:
        """The model's yes/no on the sentences (`query.answer_check`); why to abstain, or "" to answer."""
        if self.cfg.answer_check != "llm":
            return ""
        with tracer.step("text.check", "text", sentences=len(comp.chosen)) as rec:
            check = check_answer(self.llm, question, [c.text for c in comp.chosen])
            rec.input["answered"] = check.answered
            rec.outcome = check.why
        return "" if check.answered else check.why


def resolve_text_answer(mode: str, llm: LLM) -> TextAnswerMode:
    """`auto` → extractive for the tiny default model (SmolLM2-135M), rewrite for any other. Measured with
    the tiny model (`bench multihop`, `bench fiqa-answers`): its generated answers (direct, K²RAG) loop and
    invent; the extractive answer — a fact question's one best sentence in the question's frame, other
    questions' best sentences — scores at least as well as its checked rewrite on both benches at no model
    call, and states nothing its sources do not (a checked rewrite can still join cited words into a wrong
    claim). A stronger endpoint rewrites; K²RAG stays available as `generate`."""
    from pyramid.summarise import is_tiny_default

    if mode == "auto":
        return "extractive" if is_tiny_default(llm) else "rewrite"
    return mode  # type: ignore[return-value]


def _complete_reply(reply: str, frame: Frame) -> str:
    """The span a frame completion adds: the reply's first sentence, without the frame when the model
    repeated it."""
    text = " ".join(reply.replace("\n", " ").split()).lstrip("-* ")
    if text.lower().startswith(frame.lead.lower()):
        text = text[len(frame.lead):].strip()
    first = split_sentences(text)
    return first[0].rstrip(" .") if first else ""


def _holding(comp: Composition, span: str, tokenize: Tokenize) -> list[Citation]:
    """The citations whose sentence holds a content word of a frame completion's span (all, if none does)."""
    words = set(tokenize(span))
    held = [c for c, cand in zip(comp.citations, comp.chosen) if words & set(tokenize(cand.text))]
    return held or comp.citations


def rewrite(question: str, comp: Composition, llm: LLM, tokenize: Tokenize, embedder: Embedder,
            tracer: Tracer, *, frame: Frame | None = None) -> tuple[str, list[Citation]]:
    """The model joins the chosen sentences (or, for a fact question with a frame, completes the frame's
    answer from them: "The X of Y was …"); its reply stands only if it adds no content word, still answers
    the question (a reply that repeats an instruction found in a cited sentence does not) and, completing a
    frame, says something the question does not. Else the extractive answer stands (framed when it can be).
    Returns the text and its citations."""
    fallback = framed(comp, frame) if frame else (comp.text, comp.citations)
    sentences = "\n".join(f"- {c.text}" for c in comp.chosen)
    with tracer.step("text.rewrite", "text", sentences=len(comp.chosen), frame=frame.lead if frame else None) as rec:
        if frame:
            span = _complete_reply(llm.complete(load_prompt("querying", "complete").render(
                sentences=sentences, question=question, lead=frame.lead), max_tokens=COMPLETE_MAX_TOKENS).text, frame)
            reply = f"{frame.lead} {span}." if span else ""
            says_nothing = bool(span) and not (set(tokenize(span)) - set(tokenize(question)))
        else:
            reply = llm.complete(load_prompt("querying", "rewrite").render(sentences=sentences, question=question),
                                 max_tokens=ANSWER_MAX_TOKENS).text.strip()
            says_nothing = False
        extra = added_words(reply, [question, *(c.text for c in comp.chosen)], tokenize)
        loops = bool(reply) and not extra and not says_nothing and repetitive(reply)
        drifts = (bool(reply) and not extra and not says_nothing and not loops
                  and off_question(reply, question, comp, embedder))
        if reply and not extra and not says_nothing and not loops and not drifts:
            rec.outcome = "rewritten; every content word is in the cited sentences or the question"
            return reply, (_holding(comp, span, tokenize) if frame else comp.citations)
        why = (f"adds {', '.join(extra[:6])}" if extra else "says only what the question says" if says_nothing
               else "repeats itself" if loops else "no longer answers the question" if drifts else "empty")
        rec.outcome = f"rewrite kept out ({why}); the extractive answer stands"
    return fallback


def select_answered(options: list[str], answer: str, evidence: list[str]) -> list[int]:
    """The options the text layer's answer supports; if it names none, those of the best chunk. Not
    every retrieved chunk: ten chunks mention nearly every option of a question about them."""
    return select_options(options, [answer]) or select_options(options, evidence[:1])


def answer_text_path(text: TextLayer, llm: LLM, embedder: Embedder, cfg: QuerySettings, question: str,
                     kg_evidence: list[TripleEvidence], tracer: Tracer, *, hits: list[Hit] | None = None
                     ) -> tuple[str, list[ChunkEvidence]]:
    """(answer text, chunk evidence). Caller owns the Answer and the trace. `hits`: the question's own
    retrieval, when the caller has it. Without `query.k2rag_summaries` the triples and the sub-answers
    go to the final prompt as they are."""
    if not kg_evidence:
        if hits is None:
            with tracer.step("text.retrieve", "text", pipeline="hybrid", lam=text.cfg.lam,
                             k=text.cfg.answer_k) as rec:
                hits = text.search(question, k=text.cfg.answer_k)
                rec.outcome = f"no KG results: hybrid naive path, {len(hits)} chunks"
        return answer_from_chunks(question, hits, llm, tracer), chunk_evidence(hits)

    summariser = make_summariser(cfg.summariser, llm)
    kg_text = triples_as_text(kg_evidence)
    with tracer.step("text.summarise_kg", "text", triples=len(kg_evidence), summariser=summariser.name,
                     summaries=cfg.k2rag_summaries) as rec:
        kg_summary = summariser.summarise(kg_text, cfg.summary_words) if cfg.k2rag_summaries else kg_text
        rec.outcome = f"{len(kg_summary.split())} words"

    chunker = Chunker(embedder.tokenizer, cfg.subquestion_chunk, cfg.subquestion_overlap)
    pieces = chunker.split_text(kg_summary)[:MAX_SUBQUESTIONS]
    prompt = load_prompt("querying", "subquestion")

    unwritten: list[str] = []

    def subquestion(piece: str) -> str:
        try:
            return llm.complete(prompt.render(question=question, chunk=piece), SUBQUESTION_SCHEMA,
                                max_tokens=80).parsed["question"].strip() or question
        except LLMSchemaError as err:
            # a small model may run out of tokens inside its JSON on every retry: the question itself
            # is asked for that piece, and the trace says so, rather than the whole answer failing
            unwritten.append(str(err))
            return question

    def sub(sq: str) -> tuple[str, list[Hit], str]:
        hits = text.search(sq, k=cfg.subquestion_k, lam=text.cfg.lam)
        inner = Tracer(llm.meter)  # sub-answers are traced by the enclosing step
        return sq, hits, answer_from_chunks(sq, hits[: text.cfg.answer_k], llm, inner)

    with tracer.step("text.subquestions", "text", chunks=len(pieces), k=cfg.subquestion_k,
                     with_question=cfg.subquestion_with_question) as rec:
        with ThreadPoolExecutor(max_workers=cfg.concurrency) as pool:
            asked = list(pool.map(subquestion, pieces))
            if cfg.subquestion_with_question:
                asked = [question, *asked]
            results = list(pool.map(sub, list(dict.fromkeys(asked))))
        rec.input["subquestions"] = [sq for sq, _, _ in results]
        rec.outcome = f"{len(results)} sub-answers" + (
            f"; {len(unwritten)} sub-question(s) the model could not write (the question asked instead)"
            if unwritten else "")

    with tracer.step("text.summarise_answers", "text", summariser=summariser.name) as rec:
        joined = "\n".join(a for _, _, a in results)
        answers_summary = summariser.summarise(joined, cfg.summary_words) if cfg.k2rag_summaries else joined
        rec.outcome = f"{len(answers_summary.split())} words"

    best: dict[str, Hit] = {}
    for _, hits, _ in results:
        for h in hits:
            if h.chunk.id not in best or h.score > best[h.chunk.id].score:
                best[h.chunk.id] = h
    ranked = sorted(best.values(), key=lambda h: -h.score)
    final = answer_from_context(question, f"- {kg_summary}\n- {answers_summary}", llm, tracer,
                                source="KG summary + summarised sub-answers")
    return final, chunk_evidence(ranked)
