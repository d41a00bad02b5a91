"""Text answers composed from the evidence: the question's best sentences, each cited, and a support
score that says when the evidence does not answer the question.

    chunks (hybrid retrieval) → sentences → score each against the question
        relevance = W_DENSE · cos(question, sentence)          (MiniLM, meaning)
                  + W_OVERLAP · share of the question's terms in the sentence   (stemmed, no stopwords)
                  + W_CHUNK · the chunk's hybrid score / the best chunk's       (retrieval's own judgement)
    → greedy by relevance, a sentence too close in meaning to one already taken is skipped (redundancy),
      until `query.answer_words` words → in reading order (chunk by chunk, sentence order kept).

    support = the best chunk's hybrid retrieval score (λ·cosine + (1−λ)·BM25 / the query's best BM25)

Support was chosen by measurement (`polyrag bench fiqa-answers`, FiQA dev, each question asked again of
the index without its gold passages): the best chunk's hybrid score told the two apart better (ROC AUC
0.815) than its cosine alone (0.764), the best sentence's cosine (0.732), the question terms the answer
covers (0.604), a logistic regression over all of these (0.786, cross-validated) or SmolLM2-135M asked
"does this text answer the question?" under a yes/no schema (0.49: chance).

An extractive answer cannot say anything its sources do not: that is why it is the default for the tiny
local model (measured: `polyrag bench multihop`, `bench fiqa-answers`). `rewrite` lets the model join the
sentences and keeps its text only when every content word in it is in the cited sentences or the question
(`added_words`), else the extractive answer stands.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from pyramid.embeddings import Embedder
from pyramid.summarise import sentences
from pyramid.text_layer import Hit
from pyramid.types import Citation

W_DENSE, W_OVERLAP, W_CHUNK = 0.5, 0.25, 0.25
REDUNDANT_COS = 0.9      # two sentences this close in meaning say the same thing: keep the first
MAX_SENTENCE_WORDS = 80  # longer "sentences" (lists, unpunctuated text) are cut into pieces of this size
# A rewrite built only from cited words can still answer something else (an injected instruction among
# the cited sentences, repeated back): it must stay at least this share as close in meaning to the
# question as the best cited sentence is.
REWRITE_KEEPS = 0.5

Tokenize = Callable[[str], list[str]]


@dataclass(frozen=True)
class Candidate:
    text: str
    hit: Hit
    rank: int          # the chunk's rank in retrieval
    position: int      # the sentence's position in its chunk
    relevance: float
    cosine: float


@dataclass
class Composition:
    chosen: list[Candidate] = field(default_factory=list)
    retrieval: float = 0.0   # the best chunk's hybrid score: the support
    relevance: float = 0.0   # best chosen sentence's cosine to the question
    coverage: float = 0.0    # share of the question's terms that the chosen sentences hold
    missing: list[str] = field(default_factory=list)  # question terms no chosen sentence holds

    @property
    def support(self) -> float:
        return round(self.retrieval, 4)

    @property
    def text(self) -> str:
        return " ".join(c.text for c in self.chosen)

    @property
    def citations(self) -> list[Citation]:
        return [Citation(sentence=c.text, chunk_id=c.hit.chunk.id, doc_id=c.hit.chunk.doc_id) for c in self.chosen]


def split_sentences(text: str) -> list[str]:
    """Sentences of a chunk: line breaks end a sentence too (lists, fields); overlong ones are cut."""
    out: list[str] = []
    for line in re.split(r"\n\s*\n|\n(?=\s*[-*•\d])", text):
        for s in sentences(line):
            words = s.split()
            out.extend(" ".join(words[i:i + MAX_SENTENCE_WORDS]) for i in range(0, len(words), MAX_SENTENCE_WORDS))
    return out


def _candidates(hits: list[Hit]) -> list[tuple[str, int, int]]:
    seen: set[str] = set()
    out = []
    for rank, h in enumerate(hits):
        for pos, s in enumerate(split_sentences(h.chunk.text)):
            key = " ".join(s.lower().split())
            if key in seen or len(s.split()) < 3:  # chunk overlap repeats sentences; fragments answer nothing
                continue
            seen.add(key)
            out.append((s, rank, pos))
    return out


def compose(question: str, hits: list[Hit], embedder: Embedder, tokenize: Tokenize, max_words: int) -> Composition:
    """The question's best sentences from `hits` (ranked chunks), up to `max_words` words."""
    cands = _candidates(hits)
    if not cands:
        return Composition()
    qterms = set(tokenize(question))
    qv = embedder.embed_one(question, kind="query")
    vecs = embedder.embed([s for s, _, _ in cands], kind="document")
    cos = vecs @ qv
    best_chunk = max(h.score for h in hits) or 1.0
    terms = [set(tokenize(s)) for s, _, _ in cands]
    overlap = np.array([len(qterms & t) / len(qterms) if qterms else 0.0 for t in terms])
    prior = np.array([max(hits[r].score, 0.0) / best_chunk for _, r, _ in cands])
    rel = W_DENSE * cos + W_OVERLAP * overlap + W_CHUNK * prior

    taken: list[int] = []
    words = 0
    for i in np.argsort(-rel, kind="stable"):
        if taken and float(np.max(vecs[taken] @ vecs[i])) >= REDUNDANT_COS:
            continue
        n = len(cands[i][0].split())
        if taken and words + n > max_words:
            continue
        taken.append(int(i))
        words += n
        if words >= max_words:
            break
    # reading order: chunks in the order their first chosen sentence ranked, sentences in text order
    first = {}
    for order, i in enumerate(taken):
        first.setdefault(cands[i][1], order)
    taken.sort(key=lambda i: (first[cands[i][1]], cands[i][2]))
    chosen = [Candidate(text=cands[i][0], hit=hits[cands[i][1]], rank=cands[i][1], position=cands[i][2],
                        relevance=float(rel[i]), cosine=float(cos[i])) for i in taken]
    held = set().union(*(terms[i] for i in taken)) if taken else set()
    return Composition(chosen=chosen, retrieval=max(h.score for h in hits), relevance=round(float(max(cos[i] for i in taken)), 4),
                       coverage=round(len(qterms & held) / len(qterms), 4) if qterms else 1.0,
                       missing=sorted(qterms - held))


def added_words(answer: str, sources: list[str], tokenize: Tokenize) -> list[str]:
    """Content words (stemmed) of `answer` that none of `sources` holds: what a rewrite made up."""
    held: set[str] = set()
    for s in sources:
        held.update(tokenize(s))
    return sorted({t for t in tokenize(answer) if t not in held})


def off_question(answer: str, question: str, comp: Composition, embedder: Embedder) -> bool:
    """True when `answer` is much further from the question in meaning than the evidence it rewrites
    (see REWRITE_KEEPS)."""
    cos = float(embedder.embed_one(answer, kind="document") @ embedder.embed_one(question, kind="query"))
    return cos < REWRITE_KEEPS * comp.relevance


def repetitive(text: str, n: int = 3) -> bool:
    """True when a third or more of the text's word n-grams repeat an earlier one: a small model's loop
    ("The answer is that the answer is that …") adds no word but says nothing either."""
    words = text.lower().split()
    grams = [tuple(words[i:i + n]) for i in range(len(words) - n + 1)]
    return len(grams) >= 6 and 1 - len(set(grams)) / len(grams) >= 1 / 3


def abstention_text(comp: Composition) -> str:
    """What an abstaining answer says: that it does not know, and the closest thing it found."""
    if not comp.chosen:
        return "The documents hold nothing on this question."
    best = max(comp.chosen, key=lambda c: c.relevance)
    return (f"The documents do not seem to answer this. The closest passage found (chunk {best.hit.chunk.id}): "
            f"\u201c{best.text}\u201d")
