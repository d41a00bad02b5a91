"""`polyrag bench scale` (issue 14): what the pyramid does when it grows, measured here.

- parallel model calls: a KG + f_ins build of a few documents against a loopback OpenAI-compatible
  server that takes a fixed time per request (benchmarks.fake_llm), `llm.concurrency` 1 and 4;
- the ANN graph (pyramid.ann) at 1,000,000 synthetic 384-d vectors (benchmarks.ann): build time,
  recall@10 of the graph's candidates against exact search, and time per query;
- FiQA retrieval with the graph forced on against exact search (R@10, nDCG@10): the fusion is the
  same, so any loss is the graph's.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.report import md_table, write_report
from pyramid.progress import NullProgress, Progress

NAME = "scale"
TOWNS = ["Arlow", "Brisk", "Corran", "Dunmore", "Elvey", "Fenwick", "Garth", "Holm", "Iver", "Jarrow", "Kelso",
         "Lorne", "Morva", "Nairn", "Oban", "Penrith"]


def parallel_build(docs: int, delay_s: float, levels: tuple[int, ...] = (1, 4)) -> dict[str, Any]:
    from benchmarks.fake_llm import slow_server
    from pyramid.build import build_pyramid
    from pyramid.config import load_settings
    from pyramid.corpus import Document
    from pyramid.session import Session
    from pyramid.workspace import Workspace

    corpus = [Document(f"h{i}", f"The {t} Harbour serves the town of {t}mouth. It opened in {1850 + i} and "
                                f"Captain {TOWNS[(i + 1) % len(TOWNS)]}son ran it for decades.")
              for i, t in enumerate((TOWNS * (docs // len(TOWNS) + 1))[:docs])]
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for level in levels:
            with slow_server(delay_s) as server:
                root = Path(tmp) / f"c{level}" / "ws"
                Workspace.init(root)
                settings = load_settings(root / "polyrag.toml", llm={
                    "provider": "openai", "base_url": server.url, "model": "slow", "cache": False,
                    "concurrency": level})
                session = Session(Workspace(root, settings))
                session.text.add_documents(corpus)  # the text layer first: the timing is the model's part
                start = time.perf_counter()
                build_pyramid(session, corpus, steps=("kg",))
                seconds = time.perf_counter() - start
                session.kg.close()
                out.append({"concurrency": level, "requests": server.requests, "most_at_once": server.most_at_once,
                            "seconds": round(seconds, 2), "requests_per_s": round(server.requests / seconds, 2)})
    base = out[0]["requests_per_s"]
    for row in out:
        row["speed-up"] = round(row["requests_per_s"] / base, 2)
    return {"documents": docs, "delay_s": delay_s, "rows": out}


def ann(vectors: int, queries: int, ef_values: tuple[int, ...] = (64, 128, 256, 512)) -> dict[str, Any]:
    from benchmarks.ann import exact_top, synthetic
    from pyramid.ann import DenseGraph

    data, qs = synthetic(vectors, queries)
    truth = exact_top(data, qs, 10)
    start = time.perf_counter()
    graph = DenseGraph.build(data)
    build_s = time.perf_counter() - start
    exact_ms = []
    for q in qs[:50]:
        t0 = time.perf_counter()
        sims = data @ q
        np.argpartition(-sims, 10)[:10]
        exact_ms.append((time.perf_counter() - t0) * 1000)
    rows = []
    for ef in ef_values:
        found, times = [], []
        for q in qs:
            t0 = time.perf_counter()
            ids = graph.candidates(q, 10, ef=ef)
            times.append((time.perf_counter() - t0) * 1000)
            found.append(set(ids.tolist()))
        recall = float(np.mean([len(f & set(t.tolist())) / 10 for f, t in zip(found, truth, strict=True)]))
        rows.append({"ef": ef, "recall@10": round(recall, 4), "p50_ms": round(float(np.percentile(times, 50)), 3),
                     "p95_ms": round(float(np.percentile(times, 95)), 3)})
    return {"vectors": vectors, "queries": queries, "build_s": round(build_s, 1),
            "exact_p50_ms": round(float(np.percentile(exact_ms, 50)), 1), "rows": rows}


def fiqa_with_graph(data_dir: Path, limit: int | None) -> dict[str, Any]:
    from benchmarks.fiqa import evaluate, load_questions
    from pyramid.ann import DenseGraph
    from pyramid.corpus import load_documents
    from pyramid.embeddings import Embedder
    from pyramid.text_layer import TextLayer
    from pyramid.workspace import Workspace

    docs = load_documents(data_dir / "corpus.jsonl", id_field="docid").documents
    questions = load_questions(data_dir / "questions_dev.jsonl")[:limit]
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace.open(Path(tmp) / "ws", create=True)
        embedder = Embedder(ws.settings.embeddings, ws.path("cache", "embeddings.sqlite"))
        text = TextLayer(ws, embedder)
        text.add_documents(docs)
        qvecs = embedder.embed([q["question"] for q in questions], kind="query", use_cache=False)
        lam = ws.settings.text.lam
        exact = evaluate(text, questions, qvecs, lam)
        text.graph = DenseGraph.build(np.asarray(text.matrix))  # forced on, whatever text.ann_above says
        graph = evaluate(text, questions, qvecs, lam)
    return {"questions": len(questions), "chunks": len(text.chunks), "exact": exact, "graph": graph}


def run(data_dir: Path, out_dir: Path, *, vectors: int = 1_000_000, queries: int = 200, docs: int = 16,
        delay_s: float = 0.2, progress: Progress | None = None) -> dict[str, Any]:
    progress = progress or NullProgress()
    task = progress.task("scale: parallel build, ANN, FiQA with the graph", 3)
    data: dict[str, Any] = {"parallel": parallel_build(docs, delay_s)}
    task.advance()
    data["ann"] = ann(vectors, queries)
    task.advance()
    data["fiqa"] = fiqa_with_graph(data_dir / "fiqa", None)
    task.advance()
    task.done()
    write_report(out_dir, NAME, data, markdown(data))
    return data


def markdown(d: dict[str, Any]) -> str:
    p, a, f = d["parallel"], d["ann"], d["fiqa"]
    lines = ["# Scale", "",
             f"## Parallel model calls in a build ({p['documents']} documents, KG step, a loopback server that "
             f"takes {p['delay_s']:g} s per request)", "",
             md_table(["llm.concurrency", "requests", "most at once", "seconds", "requests/s", "speed-up"],
                      [[r["concurrency"], r["requests"], r["most_at_once"], r["seconds"], r["requests_per_s"],
                        r["speed-up"]] for r in p["rows"]]), "",
             f"## ANN graph (faiss HNSW, M=16) at {a['vectors']:,} synthetic 384-d vectors", "",
             f"Built in {a['build_s']} s; exact search (one matrix product) p50 {a['exact_p50_ms']} ms per query; "
             f"{a['queries']} held-out queries.", "",
             md_table(["efSearch", "recall@10", "p50 ms", "p95 ms"],
                      [[r["ef"], r["recall@10"], r["p50_ms"], r["p95_ms"]] for r in a["rows"]]), "",
             f"## FiQA retrieval, graph forced on ({f['questions']} questions, {f['chunks']} chunks)", "",
             md_table(["dense index", "R@10", "nDCG@10", "MRR@10"],
                      [[name, round(f[key]["recall@10"], 4), round(f[key]["ndcg@10"], 4), round(f[key]["mrr@10"], 4)]
                       for name, key in (("exact matrix", "exact"), ("ANN graph", "graph"))]), ""]
    return "\n".join(lines)
