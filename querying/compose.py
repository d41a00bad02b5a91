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
the index without its gold passages): the best chunk's hybrid score (ROC AUC 0.774) did as well as its
cosine alone and better than the best sentence's cosine, gaps between ranks, the question terms the
chunk covers or a hubness-corrected cosine; a logistic regression over all of them reached 0.789 and
SmolLM2-135M asked "does this text answer the question?" under a yes/no schema was at chance (0.509;
README, *Abstention*) — that check is `query.answer_check` (querying/answer_check.py), off by default.

A fact question ("What was the X of Y?", "Who is …", "Where were … held?") has a frame (`question_frame`):
its extractive answer is the one best sentence under the question turned round ("As to what the X of Y
was: <sentence>", `framed`), other questions get the best sentences up to the word budget.

An extractive answer cannot say anything its sources do not: that is why it is the default for the tiny
local model (measured: `polyrag bench multihop`, `bench fiqa-answers`). `rewrite` lets the model join the
sentences — or, for a fact question, complete the frame ("The X of Y was …") — and keeps its text only when
every content word in it is in the cited sentences or the question (`added_words`), else the extractive
answer stands.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from pyramid.embeddings import Embedder
from pyramid.reading.english import FACT_WH_WORDS, MODALS
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
# a fact question is answered by the sentence that answers it and at most this many in all; the other
# chosen sentences stay as citations (a reader wants the fact, not a passage about everything near it)
FACT_SENTENCES = 3

Tokenize = Callable[[str], list[str]]
Admit = Callable[[str, Hit], bool]  # may this sentence of this chunk answer the question?


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
    set_aside: int = 0       # sentences the question's checks did not admit (querying.shapes)

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


def _candidates(hits: list[Hit], admit: Admit | None = None) -> tuple[list[tuple[str, int, int]], int]:
    """The sentences of the chunks, each once, in rank order; and how many `admit` set aside."""
    seen: set[str] = set()
    out, set_aside = [], 0
    for rank, h in enumerate(hits):
        for pos, s in enumerate(split_sentences(h.chunk.text)):
            key = " ".join(s.lower().split())
            if key in seen or len(s.split()) < 3:  # chunk overlap repeats sentences; fragments answer nothing
                continue
            if s.rstrip(" \"'”’)").endswith("?"):  # a question (an FAQ's, an interview's) answers nothing
                continue
            seen.add(key)
            if admit is not None and not admit(s, h):
                set_aside += 1
                continue
            out.append((s, rank, pos))
    return out, set_aside


def compose(question: str, hits: list[Hit], embedder: Embedder, tokenize: Tokenize, max_words: int,
            admit: Admit | None = None) -> Composition:
    """The question's best sentences from `hits` (ranked chunks), up to `max_words` words; with `admit`,
    only the sentences it admits (a fact question's: querying.shapes)."""
    cands, set_aside = _candidates(hits, admit)
    if not cands:
        return Composition(retrieval=max((h.score for h in hits), default=0.0), set_aside=set_aside)
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
                       missing=sorted(qterms - held), set_aside=set_aside)


@dataclass(frozen=True)
class Frame:
    """A fact question turned round into the start of its answer ("What was the X of Y?" → "the X of Y",
    "was"). Plain grammar (a wh-word, a form of "be", the subject; "where/when" + "be" + subject +
    participle), so it holds for any question of that shape; other questions have no frame."""

    wh: str           # what | who | which | where | when
    subject: str      # as the question wrote it ("the jersey number of the player who …")
    verb: str         # "was", "were held"
    prep: str = ""    # "in" after a where-participle

    @property
    def heading(self) -> str:
        """'As to what the X of Y was' — names what is asked without claiming an answer."""
        return f"As to {self.wh} {self.subject} {self.verb}"

    @property
    def lead(self) -> str:
        """'The X of Y was' — the start of a stated answer (a completed rewrite)."""
        s = f"{self.subject} {self.verb} {self.prep}".strip()
        return s[0].upper() + s[1:]


_SECOND_QUESTION = re.compile(r"\s*,?\s+and\s+(?:what|who|whom|whose|which|where|when|how|why)\b.*$", re.I | re.S)
_WH_BE = re.compile(r"^(what|which|who|whom)\s+(is|was|are|were)\s+(.+)$", re.I | re.S)
_WH_PLACE = re.compile(r"^(where|when)\s+(is|was|are|were)\s+(.+?)\s+(\w+)$", re.I | re.S)
_PARTICIPLE = re.compile(r"^(?:\w+ed|\w+en|held|born|built|made|found|set|hosted|located|founded|signed|won)$", re.I)


_ANAPHOR = re.compile(r"^(?:he|she|it|they|his|her|its|their|this|these|those)\b", re.I)


def question_frame(question: str, tokenize: Tokenize | None = None) -> Frame | None:
    """The question's frame (see `Frame`), or None when the question is not a fact question of that shape.
    A second coordinated question ("… and what was his role?") is left out of the frame."""
    q = _SECOND_QUESTION.sub("", " ".join(question.split()).rstrip(" ?.!"))
    m = _WH_BE.match(q)
    if m:
        wh, verb, subject = m.group(1).lower(), m.group(2).lower(), m.group(3)
        frame = Frame("who" if wh == "whom" else wh, subject, verb)
    else:
        m = _WH_PLACE.match(q)
        if not m or not _PARTICIPLE.match(m.group(4)):
            return None
        wh, verb, subject, part = m.group(1).lower(), m.group(2).lower(), m.group(3), m.group(4)
        frame = Frame(wh, subject, f"{verb} {part}", "in" if wh == "where" else "")  # when: "in 1896", "on 4 May"
    if tokenize is not None and not tokenize(frame.subject):  # "What is it?": nothing to frame
        return None
    return frame


def framed(comp: Composition, frame: Frame) -> tuple[str, list[Citation]]:
    """The extractive answer in the question's frame: what is asked, then the one sentence that bears on it
    most ("As to what the X of Y was: <sentence>"), cited; a sentence that opens with a pronoun brings
    the sentence before it in its chunk (who "he" is). One sentence, because a fact question wants one
    fact, not a passage (measured, `bench multihop`: one sentence 0.853 mean cosine, two 0.838, the plain
    120-word extractive answer 0.724)."""
    best = max(comp.chosen, key=lambda c: c.relevance)
    said = [best.text]
    if _ANAPHOR.match(best.text) and best.position > 0:  # "He was the captain …": say who first
        said.insert(0, split_sentences(best.hit.chunk.text)[best.position - 1])
    cites = [Citation(sentence=t, chunk_id=best.hit.chunk.id, doc_id=best.hit.chunk.doc_id) for t in said]
    return f"{frame.heading}: {' '.join(said)}", cites


def asks_for_a_fact(question: str) -> bool:
    """A question that opens with a wh-word asking for a thing, a person, a place or a time ("Which
    subject covers X?", "Who leads Y?") or with "how many", and holds no modal ("Where can I find …"
    asks for advice)."""
    words = re.findall(r"[a-z']+", question.lower())
    opens = bool(words) and (words[0] in FACT_WH_WORDS or words[:2] == ["how", "many"])
    return opens and not MODALS & set(words)


def leading(comp: Composition, n: int = FACT_SENTENCES) -> tuple[str, list[Citation]]:
    """A fact question's extractive answer: the most relevant sentence first (after the one before it
    in its chunk when it opens with a pronoun), then the next most relevant that name their subject, `n`
    in all; every chosen sentence stays a citation, the answer's first."""
    ranked = sorted(comp.chosen, key=lambda c: -c.relevance)
    best = ranked[0]
    said = [(best.text, best.hit)]
    if _ANAPHOR.match(best.text) and best.position > 0:  # "It covers …": say what "it" is first
        said.insert(0, (split_sentences(best.hit.chunk.text)[best.position - 1], best.hit))
    for c in ranked[1:]:
        if len(said) >= n:
            break
        # a further sentence that opens with a pronoun would name no one ("He works on …" from another page)
        if c.text not in {t for t, _ in said} and not _ANAPHOR.match(c.text):
            said.append((c.text, c.hit))
    answer = {t for t, _ in said}
    cites = [Citation(sentence=t, chunk_id=h.chunk.id, doc_id=h.chunk.doc_id) for t, h in said]
    cites += [c for c in comp.citations if c.sentence not in answer]
    return " ".join(t for t, _ in said), cites


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
