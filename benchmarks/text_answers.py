"""The text layer's ways of answering, side by side (the ablation `bench fiqa-answers` and `bench
multihop` report), and the index-without-the-gold-passages used by the abstention check.

    default       `query.text_answer` as configured (auto: extractive with the tiny default model,
                  rewrite with any other; querying.k2rag.resolve_text_answer)
    extractive    the question's best sentences, cited (querying.compose), no model; a fact question's
                  one best sentence in the question's frame
    rewrite       those sentences joined by the model (a fact question: the model completes its frame),
                  kept only when it adds no content word
    direct        the model answers from the top chunks (K²RAG's hybrid naive path)
    k2rag         K²RAG over the KG layer's triples: summaries, sub-questions, final answer
    k2rag-nosum   the same without the two summaries
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyramid.session import Session
from pyramid.text_layer import Hit, TextLayer
from pyramid.types import Answer, Handover, TripleEvidence
from querying.k2rag import TextAnswerer

MODES = ("default", "extractive", "rewrite", "direct", "k2rag", "k2rag-nosum")
NEEDS_KG = ("k2rag", "k2rag-nosum")


class WithoutDocs:
    """A text layer that never returns chunks of `excluded` documents: the index with those documents
    removed (`TextLayer.search(exclude=…)`: the keyword part normalised among the rest, as it would be
    without them), but for BM25's corpus statistics (a few of hundreds of passages move them little)."""

    def __init__(self, inner: TextLayer, excluded: set[str]) -> None:
        self.inner, self.excluded = inner, excluded

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def search(self, query: str, *, k: int | None = None, lam: float | None = None, **kw: Any) -> list[Hit]:
        return self.inner.search(query, k=k, lam=lam, exclude=self.excluded, **kw)


def text_answerer(session: Session, mode: str, text: TextLayer | WithoutDocs | None = None,
                  **query: Any) -> TextAnswerer:
    """The text layer's answerer for `mode`; `query`: settings of `[query]` changed for this bench only."""
    cfg = session.settings.query.model_copy(update=query)
    if mode == "k2rag-nosum":
        cfg = cfg.model_copy(update={"k2rag_summaries": False})
    return TextAnswerer(text or session.text, session.llm, session.embedder, cfg, session.meter)  # type: ignore[arg-type]


def kg_handover(session: Session, question: str) -> Handover:
    """The KG layer's triples for `question` (what the waterfall hands the text layer)."""
    from querying.answerers import answer_kg

    ans = answer_kg(session, question)
    return Handover(triples=[e for e in ans.evidence if isinstance(e, TripleEvidence)])


def ask_mode(session: Session, mode: str, text: TextLayer | WithoutDocs | None = None, **query: Any
             ) -> Callable[[str], Answer]:
    """A function answering one question the `mode` way (`query`: as `text_answerer`'s)."""
    answerer = text_answerer(session, mode, text, **query)
    if mode in NEEDS_KG:
        return lambda q: answerer.answer(q, kg_handover(session, q), mode="generate")
    if mode == "default":
        return lambda q: answerer.answer(q)
    kind = "generate" if mode == "direct" else mode
    return lambda q: answerer.answer(q, mode=kind)  # type: ignore[arg-type]


def default_mode(session: Session) -> str:
    """What `default` resolves to with the session's settings and model."""
    from querying.k2rag import resolve_text_answer

    return resolve_text_answer(session.settings.query.text_answer, session.llm)


def unsupported_words(ans: Answer, tokenize) -> list[str]:
    """Content words of the answer that neither the question nor any evidence it was given holds (chunks,
    triples): what the model added. An abstention or an extractive answer has none by construction."""
    from querying.compose import added_words

    if ans.abstained:
        return []
    sources = [ans.question]
    for e in ans.evidence:
        sources.append(e.text if e.kind == "chunk" else f"{e.subject} {e.relation} {e.object}" if e.kind == "triple"
                       else " ".join(str(v) for row in e.rows for v in row.values()))
    return added_words(ans.text, sources, tokenize)


def cited_docs(ans: Answer) -> list[str]:
    """The documents an answer cites: its citations', or, for a generated answer, the chunks it was given."""
    if ans.citations:
        return list(dict.fromkeys(c.doc_id for c in ans.citations))
    return list(dict.fromkeys(e.doc_id for e in ans.evidence if e.kind == "chunk"))
