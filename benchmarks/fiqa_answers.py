"""`polyrag bench fiqa-answers`: FiQA questions answered by the text layer, scored as in the PolyRAG paper.

Per way of answering (benchmarks.text_answers): BLEU-2 and BLEU-4 (sacrebleu sentence BLEU against the
gold answers, mean), BERT similarity (MiniLM cosine to the closest gold answer, mean), HitRate (a gold
passage among the cited documents), abstentions, model calls, tokens and seconds per question.

Abstention check: every question is asked again of the index without its own gold passages
(`WithoutDocs`); the report gives the share that abstain there and the share of answerable questions
(full index) that abstain, at the configured `query.abstain_below`, and the same two shares over a sweep
of thresholds (the support of each question is recorded, so the sweep costs nothing), and how well the
support separates the two at all (ROC AUC, and the operating point where 10% of answerable ones abstain).

The FiQA passages are indexed once into `reports/.cache/fiqa-answers-ws` (re-indexing is by content
hash, so a re-run embeds nothing). Questions are answered with the LLM cache off.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.fiqa import load_questions
from benchmarks.metrics import abstention_rates, bleu, separation
from benchmarks.report import ignore_cache_dir, md_table, write_report
from benchmarks.text_answers import NEEDS_KG, WithoutDocs, ask_mode, cited_docs, default_mode, unsupported_words
from pyramid.config import SETTINGS_FILE, load_settings
from pyramid.corpus import Document, load_documents
from pyramid.errors import InputError
from pyramid.progress import NullProgress, Progress
from pyramid.session import Session
from pyramid.workspace import Workspace

NAME = "fiqa-answers"
MODES = ("default", "extractive", "rewrite", "direct")  # K²RAG needs a KG: FiQA has none built (bench multihop has it)
SWEEP = (0.4, 0.45, 0.5, 0.53, 0.55, 0.6, 0.65)


def support_of(ans: Any) -> float:
    for st in ans.trace:
        if st.step == "text.compose":
            return float(st.input["support"])
    raise ValueError("answer has no text.compose step")


def report_name(questions_file: Path | None, name: str = NAME) -> str:
    """Another question file gets a report of its own beside the dev questions' (<name>-<stem>)."""
    return name if questions_file is None or Path(questions_file).name == "questions_dev.jsonl" \
        else f"{name}-{Path(questions_file).stem}"


def with_gold_answers(questions: list[dict], docs: dict[str, str], path: Path) -> list[dict]:
    """FiQA's gold answers are its gold passages' text: a question file that gives only the passages'
    ids (our held-out questions: no corpus text copied out of the data directory) gets them here."""
    for q in questions:
        missing = [d for d in q["gold_docids"] if d not in docs]
        if missing:
            raise InputError(f"question {q['qid']}: no passage {', '.join(missing)} in the corpus", path=path,
                             field="gold_docids")
        q.setdefault("gold_answers", [docs[d] for d in q["gold_docids"]])
    return questions


def open_workspace(root: Path, corpus: list[Document], progress: Progress) -> Workspace:
    root = Path(root)
    ignore_cache_dir(root)
    ws = Workspace.open(root, create=True)
    session = Session(ws)
    session.text.add_documents(corpus, progress=progress)
    return ws


def score_answers(session: Session, questions: list[dict], answers: list[Any], seconds: list[float],
                  usages: list[Any]) -> dict[str, Any]:
    golds = [q["gold_answers"] for q in questions]
    texts = [a.text or "-" for a in answers]
    hv = session.embedder.embed(texts)
    sims = []
    for v, gold in zip(hv, golds):
        gv = session.embedder.embed(gold)
        sims.append(float(np.max(gv @ v)))
    hit = [bool(set(cited_docs(a)) & set(q["gold_docids"])) for a, q in zip(answers, questions)]
    return {"bleu2": statistics.fmean(bleu(t, g, 2) for t, g in zip(texts, golds)),
            "bleu4": statistics.fmean(bleu(t, g, 4) for t, g in zip(texts, golds)),
            "bert_similarity": statistics.fmean(sims), "hit_rate": statistics.fmean(hit),
            "abstained": statistics.fmean(a.abstained for a in answers),
            "grounded": statistics.fmean(not unsupported_words(a, session.text.tokenize) for a in answers),
            "llm_calls": statistics.fmean(u.calls + u.cache_hits for u in usages),
            "tokens": statistics.fmean(u.cost_tokens for u in usages),
            "seconds": statistics.median(seconds), "words": statistics.fmean(len(t.split()) for t in texts)}


def run(data_dir: Path, out_dir: Path, *, questions_file: Path | None = None, workspace: Path | None = None,
        limit: int | None = None, modes: tuple[str, ...] = MODES, progress: Progress | None = None
        ) -> dict[str, Any]:
    progress = progress or NullProgress()
    data_dir = Path(data_dir)
    qpath = questions_file or data_dir / "questions_dev.jsonl"
    corpus = load_documents(data_dir / "corpus.jsonl", id_field="docid").documents
    questions = with_gold_answers(load_questions(qpath)[:limit], {d.id: d.text for d in corpus}, qpath)
    ws = open_workspace(workspace or Path(out_dir) / ".cache" / "fiqa-answers-ws", corpus,
                        progress)
    session = Session(Workspace(ws.root, load_settings(ws.root / SETTINGS_FILE, llm={"cache": False})))
    results: dict[str, Any] = {}
    per_question: list[dict[str, Any]] = [{"qid": q.get("qid"), "question": q["question"]} for q in questions]
    supports: list[float] = []
    for mode in modes:
        if mode in NEEDS_KG:
            continue
        ask = ask_mode(session, mode)
        task = progress.task(f"fiqa-answers: {mode}", len(questions))
        answers, seconds, usages = [], [], []
        for q, pq in zip(questions, per_question):
            t0 = time.perf_counter()
            with session.meter.scope() as usage:
                ans = ask(q["question"])
            seconds.append(time.perf_counter() - t0)
            answers.append(ans)
            usages.append(usage.model_copy())
            pq[mode] = {"answer": ans.text[:300], "cited": cited_docs(ans)[:5], "abstained": ans.abstained}
            task.advance()
        task.done()
        if not supports:
            supports = [support_of(a) for a in answers]
        results[mode] = score_answers(session, questions, answers, seconds, usages)

    # abstention: the same questions, each asked of the index without its own gold passages (no model)
    task = progress.task("fiqa-answers: gold passages removed", len(questions))
    removed = []
    for q, pq in zip(questions, per_question):
        ans = ask_mode(session, "extractive", WithoutDocs(session.text, set(q["gold_docids"])))(q["question"])
        removed.append(support_of(ans))
        pq["support"], pq["support_removed"] = supports[len(removed) - 1] if supports else None, removed[-1]
        task.advance()
    task.done()
    threshold = session.settings.query.abstain_below
    data = {"llm": session.llm.name, "default": default_mode(session), "questions": len(questions),
            "questions_file": str(qpath),
            "answer_words": session.settings.query.answer_words, "modes": results,
            "abstention": {"configured": abstention_rates(supports, removed, threshold),
                           "sweep": [abstention_rates(supports, removed, t) for t in SWEEP],
                           "separation": separation(supports, removed),
                           "support_answerable": _quartiles(supports), "support_removed": _quartiles(removed)},
            "per_question": per_question}
    write_report(Path(out_dir), report_name(questions_file), data, markdown(data))
    return data


def _quartiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    q1, med, q3 = np.percentile(values, [25, 50, 75])
    return {"q1": float(q1), "median": float(med), "q3": float(q3)}


def markdown(d: dict[str, Any]) -> str:
    head = ["answer", "BLEU-2", "BLEU-4", "BERT sim", "HitRate", "abstained", "grounded", "LLM calls/q", "tokens/q",
            "s/q (median)", "words"]
    rows = [[m, r["bleu2"], r["bleu4"], r["bert_similarity"], r["hit_rate"], r["abstained"], r["grounded"], r["llm_calls"],
             r["tokens"], r["seconds"], r["words"]] for m, r in d["modes"].items()]
    ab = d["abstention"]
    conf = ab["configured"]
    sweep = md_table(["abstain below", "abstain, gold removed", "abstain, answerable"],
                     [[s["threshold"], s["abstain_removed"], s["abstain_answerable"]] for s in ab["sweep"]])
    return "\n".join([
        f"# FiQA answers — {d['questions']} questions ({Path(d['questions_file']).name}), LLM {d['llm']}", "",
        md_table(head, rows), "",
        f"The default (`query.text_answer`) with this model: {d.get('default', '?')}.", "",
        f"Abstention at the configured threshold ({conf['threshold']}): {conf['abstain_removed']:.1%} of questions "
        f"abstain when their gold passages are removed; {conf['abstain_answerable']:.1%} of answerable ones do.",
        f"Support (median) answerable {ab['support_answerable'].get('median', 0):.3f}, gold removed "
        f"{ab['support_removed'].get('median', 0):.3f}.", "", sweep, "", *_separation_line(ab.get("separation")), ""])


def _separation_line(sep: dict[str, float] | None) -> list[str]:
    if not sep:
        return []
    return [f"Whatever the threshold, the support tells the two apart at ROC AUC {sep['roc_auc']:.3f}: where "
            f"{sep['abstain_answerable']:.1%} of answerable questions abstain (below {sep['threshold']:.3f}), "
            f"{sep['abstain_removed']:.1%} of those with their gold passages removed do."]
