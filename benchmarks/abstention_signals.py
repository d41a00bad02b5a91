"""`polyrag bench abstention-signals`: which evidence tells an answerable question from one whose
answer was taken out of the index — the study behind `query.abstain_below`.

Every question is looked at twice: over the whole index (answerable) and over the index without its gold
passages (`TextLayer.search(exclude=…)`, as in `bench fiqa-answers`). For each look a set of signals is
computed from the retrieval alone (no model call); each signal's ROC AUC says how well it separates the two
looks on its own, and a logistic regression over all of them (cross-validated, the two looks of a question
always in the same fold) says what they give together. The signals are query-performance predictors from
the IR literature, adapted to one hybrid index:

- `support` — what the text layer abstains on (the answer's `text.compose` support);
- `hybrid`, `cosine` — the best chunk's hybrid score and its cosine to the question;
- `gap` — the best cosine less the second's; `spread` — the standard deviation of the top 10 cosines
  (normalised query commitment: a clear answer stands out);
- `z` — the best cosine in standard deviations above the mean over every chunk;
- `csls` — the best cosine corrected for hubness (twice it, less the chunk's and the question's mean
  cosine to their 10 nearest neighbours);
- `agreement` — documents shared by the dense and the keyword top 5; `keyword_rank` — minus the rank,
  by BM25, of the dense search's best document;
- `coherence` — mean cosine among the top 3 chunks (answers to one question resemble each other);
- `robust`, `stable` — the question asked again with each word left out: the mean of the best cosines,
  and the share of those whose best document is the whole question's.

With `llm_check` the configured model is asked, for each look, the text layer's own yes/no
(`query.answer_check`, querying/answer_check.py: do the sentences the answer would be made of answer the
question?): `llm_check` is its vote, and `support, then the model` the text layer with the check on — the
support, a no ranking below every yes. The report is then `abstention-signals-llm[-<questions>]`.
"""

from __future__ import annotations

import statistics
from collections.abc import Collection
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.fiqa import load_questions
from benchmarks.fiqa_answers import open_workspace, report_name, support_of
from benchmarks.metrics import separation
from benchmarks.report import md_table, write_report
from benchmarks.text_answers import WithoutDocs, ask_mode
from pyramid.corpus import load_documents
from pyramid.embeddings import Embedder
from pyramid.progress import NullProgress, Progress
from pyramid.session import Session
from pyramid.text_layer import TextLayer

NAME = "abstention-signals"
TOP = 10          # chunks the spread, the neighbours and the coherence look at
AGREE_TOP = 5     # documents compared between the dense and the keyword ranking
FOLDS = 10


def signals(text: TextLayer, embedder: Embedder, question: str, exclude: Collection[str] = ()) -> dict[str, float]:
    """The retrieval signals of one question over the index without the `exclude` documents."""
    matrix, chunks = text.matrix, text.chunks
    docs = np.array([c.doc_id for c in chunks])
    hidden = np.isin(docs, list(exclude)) if exclude else np.zeros(len(chunks), dtype=bool)
    q = embedder.embed_one(question, kind="query")
    dense = matrix @ q
    dense[hidden] = -np.inf
    sparse = text.sparse_scores(question)
    sparse[hidden] = 0.0
    by_dense = np.argsort(-dense, kind="stable")
    by_keyword = np.argsort(-sparse, kind="stable")
    top = dense[by_dense[:TOP]]
    top = top[np.isfinite(top)]
    live = dense[~hidden]
    best = int(by_dense[0])
    hybrid = text.search(question, k=1, query_vector=q, exclude=exclude)
    # each top chunk's cosines to the chunks left, its own 1.0 last
    neighbours = np.sort(matrix[by_dense[:min(3, len(top))]] @ matrix[~hidden].T, axis=1)
    dense_docs = list(dict.fromkeys(docs[by_dense[:TOP * 2]]))
    keyword_docs = list(dict.fromkeys(docs[by_keyword[:200]]))
    words = question.split()
    out = {"hybrid": hybrid[0].score if hybrid else 0.0, "cosine": float(top[0]),
           "gap": float(top[0] - top[1]) if len(top) > 1 else float(top[0]),
           "spread": float(top.std()), "z": float((top[0] - live.mean()) / (live.std() or 1.0)),
           "csls": float(2 * top[0] - _mean(neighbours[0, -TOP - 1:-1]) - np.sort(live)[-TOP:].mean()),
           "agreement": float(len(set(dense_docs[:AGREE_TOP]) & set(keyword_docs[:AGREE_TOP]))),
           "keyword_rank": -float(keyword_docs.index(docs[best]) if docs[best] in keyword_docs else len(keyword_docs)),
           "coherence": _mean([float(matrix[a] @ matrix[b]) for i, a in enumerate(by_dense[:3])
                               for b in by_dense[i + 1:min(3, len(top))]])}
    if len(words) > 2:
        variants = embedder.embed([" ".join(words[:i] + words[i + 1:]) for i in range(len(words))], kind="query")
        scores = matrix @ variants.T
        scores[hidden] = -np.inf
        out["robust"] = float(scores.max(axis=0).mean())
        out["stable"] = float(np.mean(docs[scores.argmax(axis=0)] == docs[best]))
    else:
        out["robust"], out["stable"] = out["cosine"], 1.0
    return out


def _split(values: list[float], answerable: list[bool]) -> tuple[list[float], list[float]]:
    """A signal's values on the answerable looks, then on the gold-removed ones."""
    return [v for v, a in zip(values, answerable) if a], [v for v, a in zip(values, answerable) if not a]


def _mean(values: Any) -> float:
    return float(np.mean(values)) if len(values) else 0.0


def combined(rows: list[dict[str, float]], answerable: list[bool], groups: list[int]) -> list[float]:
    """Cross-validated probabilities of a logistic regression over every signal (a question's two looks
    never split between training and scoring)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold, cross_val_predict
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    keys = sorted(rows[0])
    x = np.array([[r[k] for k in keys] for r in rows])
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    folds = min(FOLDS, len(set(groups)))
    return cross_val_predict(model, x, answerable, groups=groups, cv=GroupKFold(folds), method="predict_proba")[:, 1].tolist()


def checked(ans: Any) -> float:
    """1.0 when the answer's `text.check` step says the sentences answer the question, else 0.0."""
    return next((float(bool(st.input["answered"])) for st in ans.trace if st.step == "text.check"), 0.0)


def run(data_dir: Path, out_dir: Path, *, questions_file: Path | None = None, workspace: Path | None = None,
        limit: int | None = None, llm_check: bool = False, progress: Progress | None = None) -> dict[str, Any]:
    progress = progress or NullProgress()
    data_dir = Path(data_dir)
    qpath = questions_file or data_dir / "questions_dev.jsonl"
    corpus = load_documents(data_dir / "corpus.jsonl", id_field="docid").documents
    questions = load_questions(qpath)[:limit]
    ws = open_workspace(workspace or Path(out_dir) / ".cache" / "fiqa-answers-ws", corpus, progress)
    session = Session(ws)
    session.text.load()
    # with the check: always asked (no abstention on the support first), so that every look has a vote
    query = {"answer_check": "llm", "abstain_below": 0.0} if llm_check else {}
    rows: list[dict[str, float]] = []
    answerable: list[bool] = []
    groups: list[int] = []
    task = progress.task("abstention signals", len(questions))
    for n, q in enumerate(questions):
        for gone in ((), tuple(q["gold_docids"])):
            row = signals(session.text, session.embedder, q["question"], gone)
            text = WithoutDocs(session.text, set(gone)) if gone else None
            ans = ask_mode(session, "extractive", text, **query)(q["question"])
            row["support"] = support_of(ans)
            if llm_check:
                row["llm_check"] = checked(ans)
            rows.append(row)
            answerable.append(not gone)
            groups.append(n)
        task.advance()
    task.done()
    looks = {key: _split([r[key] for r in rows], answerable) for key in sorted(rows[0])}
    table = {key: separation(*pair) for key, pair in looks.items()}
    table["all (logistic regression)"] = separation(*_split(combined(rows, answerable, groups), answerable))
    if llm_check:
        table["support, then the model"] = separation(*_split(
            [r["support"] - (1.0 - r["llm_check"]) for r in rows], answerable))
    data = {"questions": len(questions), "questions_file": str(qpath), "signals": table,
            "model": session.llm.provider.model if llm_check else None,
            "model_says_no": {"answerable": 1 - _mean(looks["llm_check"][0]), "removed": 1 - _mean(looks["llm_check"][1])}
            if llm_check else None,
            "medians": {key: {"answerable": statistics.median(yes), "removed": statistics.median(no)}
                        for key, (yes, no) in looks.items()}}
    write_report(Path(out_dir), report_name(questions_file, f"{NAME}-llm" if llm_check else NAME), data,
                 markdown(data))
    return data


def markdown(d: dict[str, Any]) -> str:
    ranked = sorted(d["signals"].items(), key=lambda kv: -kv[1]["roc_auc"])
    rows = [[k, s["roc_auc"], s["abstain_removed"], d["medians"].get(k, {}).get("answerable", ""),
             d["medians"].get(k, {}).get("removed", "")] for k, s in ranked]
    return "\n".join([
        f"# Abstention signals — {d['questions']} questions ({Path(d['questions_file']).name}), each asked of the "
        "whole index and of the index without its gold passages", "",
        md_table(["signal", "ROC AUC", "abstain, gold removed, where 10% of answerable abstain", "median answerable",
                  "median removed"], rows), "",
        "ROC AUC 0.5 is chance; abstaining on 80% of removed questions at 10% of answerable ones needs about 0.93 (two "
        "normal score distributions of equal spread: d′ = z(0.8) + z(0.9) = 2.12).", "",
        *([f"The model ({d['model']}) asked whether the answer's sentences answer the question said no to "
           f"{d['model_says_no']['answerable']:.1%} of answerable looks and {d['model_says_no']['removed']:.1%} of "
           "gold-removed ones (`llm_check`); `support, then the model` is the text layer with "
           "`query.answer_check = \"llm\"`.", ""] if d.get("model") else [])])
