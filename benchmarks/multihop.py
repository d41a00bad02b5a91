"""`polyrag bench multihop`: the waterfall against K²RAG's three naive pipelines on the multi-hop set.

The workspace is built once from `multihop_kg/documents.csv` (text layer + KG extraction with the
configured LLM) in `reports/.cache/multihop-ws` and reused while the file and the build settings are
unchanged. Each dev question is answered by every pipeline; an answer is scored, as in K²RAG, by the
cosine similarity of its MiniLM embedding to the reference answer's (mean and quartiles), and timed.
Questions are answered with the LLM cache off, so every pipeline pays for its own calls and times
are comparable; tokens are counted cache-blind (`Usage.cost_tokens`) wherever a cache is on.

"every layer" is what running each built layer on every question costs (`benchmarks.costs`); the
waterfall's share of that is the token target's figure.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.costs import every_layer_tokens
from benchmarks.report import ignore_cache_dir, md_table, write_report
from benchmarks.text_answers import MODES, ask_mode, default_mode, unsupported_words
from pyramid.config import SETTINGS_FILE, load_settings
from pyramid.errors import InputError
from pyramid.progress import NullProgress, Progress
from pyramid.session import Session
from pyramid.types import Answer
from pyramid.workspace import Workspace
from querying.waterfall import built_layers

NAME = "multihop"
NAIVE = ("semantic", "keyword", "hybrid")  # K²RAG's naive pipelines; hybrid is the ablation's "direct"
PIPELINES = ("waterfall", *NAIVE, *(m for m in MODES if m != "direct"))
BUILD_COST = "build-cost.json"   # the cost of the build run that extracted the KG, kept for the report


def load_questions(path: Path) -> list[dict[str, Any]]:
    out = []
    for lineno, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                q = json.loads(line)
                _ = q["question"], q["reference_answer"]
            except (ValueError, KeyError, TypeError) as err:
                raise InputError(f"not a multihop question ({err})", path=path, line=lineno) from None
            out.append(q)
    return out


def answerer(name: str) -> Callable[[Session, str], Answer]:
    if name == "waterfall":
        from querying.waterfall import answer_waterfall
        return lambda s, q: answer_waterfall(s, q)
    if name in NAIVE:
        from querying.naive import answer_naive
        return lambda s, q: answer_naive(q, s.text, s.llm, name)  # type: ignore[arg-type]
    return lambda s, q: ask_mode(s, name)(q)


def quartiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "q1": 0.0, "median": 0.0, "q3": 0.0}
    q1, med, q3 = np.percentile(values, [25, 50, 75])
    return {"mean": float(statistics.fmean(values)), "q1": float(q1), "median": float(med), "q3": float(q3)}


def ensure_workspace(root: Path, documents: Path, progress: Progress, docs_limit: int | None) -> tuple[Workspace, dict]:
    """The multihop workspace (text + KG), built on first use; returns it with its build cost."""
    from pyramid.build import build_pyramid
    from pyramid.corpus import load_documents
    from pyramid.kg.extractors import choose as resolve_mode
    from pyramid.workspace import atomic_write_text

    root = Path(root)
    ignore_cache_dir(root)
    ws = Workspace.open(root, create=True)
    session = Session(ws)
    docs = load_documents(documents, fmt="csv").documents[:docs_limit]
    result = build_pyramid(session, docs, steps=("text", "kg"), progress=progress)
    this_run = {s.step: {**s.usage.to_dict(), "model_seconds": s.usage.seconds, "seconds": s.seconds}
                for s in result.steps}
    saved = root / BUILD_COST
    if result.usage.calls or not saved.exists():  # the run that did the work is the one to report
        atomic_write_text(saved, json.dumps(this_run, indent=1))
    return ws, {"documents": len(docs), "kg_mode": resolve_mode(session.settings.kg.mode, session.llm),
                "steps": json.loads(saved.read_text()),
                "pending": result.pending}


def run(data_dir: Path, out_dir: Path, *, workspace: Path | None = None, limit: int | None = None,
        docs_limit: int | None = None, pipelines: tuple[str, ...] = PIPELINES,
        progress: Progress | None = None) -> dict[str, Any]:
    progress = progress or NullProgress()
    data_dir = Path(data_dir) / "multihop_kg"
    questions = load_questions(data_dir / "questions_dev.jsonl")[:limit]
    ws, build_cost = ensure_workspace(workspace or Path(out_dir) / ".cache" / "multihop-ws",
                                      data_dir / "documents.csv", progress, docs_limit)
    # No LLM cache while answering: pipelines share prompts (the waterfall's direct sub-answer is the
    # hybrid pipeline's prompt), and a cache hit would make the later pipeline look free.
    session = Session(Workspace(ws.root, load_settings(ws.root / SETTINGS_FILE, llm={"cache": False})))
    refs = session.embedder.embed([q["reference_answer"] for q in questions])

    results: dict[str, Any] = {}
    per_question: list[dict[str, Any]] = [{"id": q.get("id"), "question": q["question"],
                                           "reference": q["reference_answer"]} for q in questions]
    for name in pipelines:
        ask = answerer(name)
        task = progress.task(f"multihop: {name}", len(questions))
        rows = []
        for q, pq in zip(questions, per_question):
            t0 = time.perf_counter()
            with session.meter.scope() as usage:
                ans = ask(session, q["question"])
            rows.append({"text": ans.text, "layer": ans.layer, "abstained": ans.abstained,
                         "grounded": not unsupported_words(ans, session.text.tokenize),
                         "seconds": time.perf_counter() - t0,
                         "calls": usage.calls + usage.cache_hits, "tokens": usage.cost_tokens})
            pq[name] = {"answer": ans.text[:300], "layer": ans.layer}
            task.advance()
        task.done()
        vecs = session.embedder.embed([r["text"] or "-" for r in rows])
        sims = [float(np.dot(a, b)) for a, b in zip(vecs, refs)]
        for pq, sim in zip(per_question, sims):
            pq[name]["similarity"] = round(sim, 4)
        results[name] = {"similarity": quartiles(sims),
                         "seconds": quartiles([r["seconds"] for r in rows]),
                         "llm_calls": statistics.fmean(r["calls"] for r in rows) if rows else 0.0,
                         "tokens": statistics.fmean(r["tokens"] for r in rows) if rows else 0.0,
                         "layers": dict(Counter(r["layer"] for r in rows)),
                         "abstained": statistics.fmean(r["abstained"] for r in rows) if rows else 0.0,
                         "grounded": statistics.fmean(r["grounded"] for r in rows) if rows else 0.0}

    every = []
    if "waterfall" in pipelines:
        task = progress.task("multihop: every layer on every question (cost)", len(questions))
        for q in questions:
            every.append(every_layer_tokens(session, q["question"], built_layers(session)))
            task.advance()
        task.done()
    data = {"llm": session.llm.name, "default": default_mode(session), "questions": len(questions),
            "build": build_cost, "pipelines": results,
            "every_layer_tokens": statistics.fmean(every) if every else None, "per_question": per_question}
    write_report(Path(out_dir), NAME, data, markdown(data))
    return data


def markdown(d: dict[str, Any]) -> str:
    head = ["pipeline", "mean cos", "Q1", "median", "Q3", "s/question (median)", "LLM calls/q", "tokens/q",
            "abstained", "grounded", "answered at"]
    rows = []
    for name, r in d["pipelines"].items():
        sim = r["similarity"]
        layers = ", ".join(f"{k} {v}" for k, v in sorted(r["layers"].items()))
        rows.append([name, sim["mean"], sim["q1"], sim["median"], sim["q3"], r["seconds"]["median"],
                     r["llm_calls"], r["tokens"], r.get("abstained", 0.0), r.get("grounded", 0.0), layers])
    b = d["build"]
    lines = [f"# Multi-hop QA — {d['questions']} dev questions, LLM {d['llm']}", "",
             md_table(head, rows), "",
             f"The text layer's default (`query.text_answer`) with this model: {d.get('default', '?')}; the "
             f"waterfall answers with it.", ""]
    if d.get("every_layer_tokens") and "waterfall" in d["pipelines"]:
        w = d["pipelines"]["waterfall"]["tokens"]
        lines.append(f"Every layer on every question (KG layer + the full K²RAG path): {d['every_layer_tokens']:.0f} "
                     f"tokens/question; the waterfall spends {w:.0f} ({w / d['every_layer_tokens']:.0%} of it).")
        lines.append("")
    parts = [f"{step} {info['seconds']:.0f} s, {info['calls']} LLM calls, "
             f"{info['prompt_tokens'] + info['completion_tokens']:,} tokens" for step, info in b["steps"].items()]
    lines.append(f"Workspace: {b['documents']} documents, KG extraction mode {b['kg_mode']}; build cost: "
                 f"{'; '.join(parts)}.")
    if b.get("pending"):
        lines.append(f"Pending after the build: {'; '.join(b['pending'])}.")
    return "\n".join(lines)
