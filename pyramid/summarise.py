"""Summarisers: the configured LLM, or an extractive one that needs no model.

The extractive summariser keeps the sentences most central to the text (summed TF-IDF cosine to
the other sentences, a one-step TextRank), in their original order, until a word budget is spent;
a sentence that shares no term with any other is never picked. It is
the default when the LLM is the tiny local model: a 135M model's abstractive summaries drop and
invent facts, while picking sentences cannot invent anything.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from pyramid.llm import LLM
from pyramid.prompts import load_prompt
from pyramid.reading.sentences import split_sentences


def sentences(text: str) -> list[str]:
    """The sentences of a text, its whitespace folded: a title or an initial before a full stop ("Prof.
    Rahul Mehta", "the U.S. Treasury") does not end one (the splitter the extraction uses)."""
    return [s.text for s in split_sentences(" ".join(text.split()), prose=True)]


class Summariser(Protocol):
    name: str

    def summarise(self, text: str, max_words: int) -> str: ...


class ExtractiveSummariser:
    name = "extractive"

    def summarise(self, text: str, max_words: int) -> str:
        sents = sentences(text)
        if sum(len(s.split()) for s in sents) <= max_words or len(sents) <= 1:
            return " ".join(sents)
        from sklearn.feature_extraction.text import TfidfVectorizer

        try:
            tfidf = TfidfVectorizer(stop_words="english").fit_transform(sents)
        except ValueError:  # only stop words: nothing to rank by
            return " ".join(sents)[: max_words * 8]
        sim = (tfidf @ tfidf.T).toarray()
        np.fill_diagonal(sim, 0.0)
        centrality = sim.sum(axis=1)
        chosen, used = [], 0
        for i in np.argsort(-centrality, kind="stable"):
            if centrality[i] <= 0 and chosen:
                break
            n = len(sents[i].split())
            if used + n > max_words and chosen:
                continue
            chosen.append(i)
            used += n
            if used >= max_words:
                break
        return " ".join(sents[i] for i in sorted(chosen))


class LLMSummariser:
    name = "llm"

    def __init__(self, llm: LLM) -> None:
        self.llm = llm

    def summarise(self, text: str, max_words: int) -> str:
        if len(text.split()) <= max_words:
            return text.strip()
        messages = load_prompt("pyramid", "summarise").render(text=text, words=max_words)
        # ~1.4 tokens per English word, plus room to finish the last sentence
        return self.llm.complete(messages, max_tokens=int(max_words * 1.6) + 16).text.strip()


def is_tiny_default(llm: LLM) -> bool:
    """True when the LLM is SmolLM2-135M (the default), whose summaries are unreliable — whichever provider
    serves it (the local GGUF, or a llama.cpp / vLLM server through the OpenAI-compatible provider): the
    `auto` choices depend on the model, not on the transport."""
    return "135m" in llm.provider.model.lower()


def make_summariser(kind: str, llm: LLM | None) -> Summariser:
    """kind: "llm", "extractive" or "auto" (extractive for the tiny default model, else the LLM)."""
    if kind == "extractive" or llm is None or (kind == "auto" and is_tiny_default(llm)):
        return ExtractiveSummariser()
    if kind in ("llm", "auto"):
        return LLMSummariser(llm)
    raise ValueError(f"unknown summariser '{kind}' (llm, extractive, auto)")
