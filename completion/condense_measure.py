"""Before/after figures of a condensation: relations, triples, facts kept, and the tokens a reader
(or an LLM) needs to see the top-10 triples for a sample of questions.

Counting facts. A fact is a distinct (subject, object) pair of the input, subject and object with
case and spacing folded. After condensation a fact is
* **connected** when some edge still joins the pair (condensation never deletes a pair's last edge,
  so this is 100% by construction and shown only as a check), and
* **kept** when, in addition, one of the pair's original relation texts is at least `tau`
  cosine-similar to the words of the canonical relation it now carries — the canonical still says
  what the triple said. The default tau = 0.6 sits between paraphrases and unrelated relations
  as MiniLM scores them ('has degree' / 'obtained degree' 0.93, 'studied at' / 'graduated from' 0.73;
  'has a PhD from' / 'has research interest' 0.49). Shares at 0.5 and 0.7 are reported too.

Top-10 tokens. Triples are ranked for each question by BM25 over their text (bm25s, the text
layer's tokenizer) — model-free, so the figure does not depend on which triples happen to be
embedded; before: 's relation o' per triple, after: 's canonical words o' per merged edge. Tokens
are counted with the embedding model's tokenizer.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from completion.condensation import Condensation, fold, relation_text
from completion.types import KGTriple

TAUS = (0.5, 0.6, 0.7)
DEFAULT_TAU = 0.6


@dataclass
class FactCounts:
    relations_before: int
    relations_after: int
    triples_before: int
    triples_after: int
    facts: int
    connected: int
    kept: dict[float, int]

    def share(self, tau: float = DEFAULT_TAU) -> float:
        return self.kept[tau] / self.facts if self.facts else 1.0


def count_facts(triples: Sequence[KGTriple], cond: Condensation) -> FactCounts:
    best: dict[tuple[str, str], float] = defaultdict(lambda: -1.0)
    for t in triples:
        key = (fold(t.subject), fold(t.object))
        best[key] = max(best[key], cond.similarity.get(relation_text(t.relation), -1.0))
    connected = {(fold(e.subject), fold(e.object)) for e in cond.edges}
    sims = np.array([best[k] if k in connected else -1.0 for k in best])
    return FactCounts(
        relations_before=len({t.relation for t in triples}),     # raw strings, as the data's README counts
        relations_after=len({e.canonical for e in cond.edges}),
        triples_before=len(triples), triples_after=len(cond.edges), facts=len(best),
        connected=sum(1 for k in best if k in connected),
        kept={tau: int((sims >= tau).sum()) for tau in TAUS})


def _bm25_top(lines: list[str], questions: Sequence[str], k: int) -> list[list[int]]:
    import bm25s

    from pyramid.text_layer import Bm25Tokenizer

    tok = Bm25Tokenizer()
    bm = bm25s.BM25()
    bm.index([tok(x) or [""] for x in lines], show_progress=False)
    out = []
    for q in questions:
        scores = bm.get_scores(tok(q) or [""])
        top = np.argsort(-scores, kind="stable")[:k]
        out.append([int(i) for i in top if scores[i] > 0])
    return out


@dataclass
class TokenCounts:
    questions: int
    tokens_before: float        # mean tokens of the top-10 lines per question
    tokens_after: float
    facts_before: float         # mean distinct (subject, object) facts among the top 10
    facts_after: float


def count_tokens(triples: Sequence[KGTriple], cond: Condensation, questions: Sequence[str],
                 n_tokens: Callable[[str], int], k: int = 10) -> TokenCounts:
    before = [f"{t.subject} {t.relation} {t.object}" for t in triples]
    after = [f"{e.subject} {e.canonical.replace('_', ' ')} {e.object}" for e in cond.edges]
    pairs_b = [(fold(t.subject), fold(t.object)) for t in triples]
    pairs_a = [(fold(e.subject), fold(e.object)) for e in cond.edges]
    tb, ta, fb, fa = [], [], [], []
    for lines, pairs, toks, facts in ((before, pairs_b, tb, fb), (after, pairs_a, ta, fa)):
        for top in _bm25_top(lines, questions, k):
            toks.append(sum(n_tokens(lines[i]) for i in top))
            facts.append(len({pairs[i] for i in top}))
    mean = (lambda xs: float(np.mean(xs)) if xs else 0.0)
    return TokenCounts(len(questions), mean(tb), mean(ta), mean(fb), mean(fa))


def minilm_token_counter() -> Callable[[str], int]:
    """Token counts with the default embedding model's own tokenizer (no model load, no torch)."""
    from tokenizers import Tokenizer

    from pyramid.embeddings import default_model_dir

    tok = Tokenizer.from_file(str(default_model_dir() / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return lambda text: len(tok.encode(text, add_special_tokens=False).ids)
