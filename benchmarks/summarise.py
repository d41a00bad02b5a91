"""`polyrag bench summarise`: what build-time summarisation (K²RAG §3.1.1) saves.

For each corpus the same documents are built twice into fresh workspaces (cold LLM cache, the text
layer and KG extraction, the configured LLM and summariser): once as they are, once summarised to
`corpus.summary_words` words first. Reported: words, text chunks, KG extraction LLM calls,
tokens and seconds of each step, and the saving. Models are loaded by an untimed warm-up build first.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.report import md_table, write_report
from pyramid.progress import NullProgress, Progress

NAME = "summarise"


def _build(docs, summarise: bool, progress: Progress) -> dict[str, Any]:
    from pyramid.build import build_pyramid
    from pyramid.session import Session
    from pyramid.workspace import Workspace

    root = Path(tempfile.mkdtemp(prefix="polyrag-summarise-"))
    try:
        session = Session(Workspace.init(root / "ws"))
        r = build_pyramid(session, docs, steps=("text", "kg"), summarise=summarise, progress=progress)
        layers = session.ws.manifest()["layers"]
        steps = {s.step: {"seconds": s.seconds, "calls": s.usage.calls, "tokens": s.usage.cost_tokens}
                 for s in r.steps}
        words = r.summary.words_after if r.summary else sum(len(d.text.split()) for d in docs)
        return {"words": words, "text_chunks": layers.get("text", {}).get("chunks", 0),
                "summary_seconds": r.summary.seconds if r.summary else 0.0,
                "steps": steps, "seconds": r.seconds + (r.summary.seconds if r.summary else 0.0),
                "summariser": r.summary.summariser if r.summary else None,
                "triples": layers.get("kg", {}).get("triples", 0)}
    finally:
        shutil.rmtree(root, ignore_errors=True)


def run(corpora: list[tuple[str, Path, str, int | None]], out_dir: Path, *,
        progress: Progress | None = None) -> dict[str, Any]:
    """`corpora`: (name, path, format, first N documents)."""
    from pyramid.corpus import load_documents

    progress = progress or NullProgress()
    rows = []
    warm = False
    for name, path, fmt, limit in corpora:
        if not warm:  # load MiniLM and the LLM once, untimed, so the first timed build does not pay for it
            _build(load_documents(path, fmt=fmt).documents[:1], False, progress)  # type: ignore[arg-type]
            warm = True
        docs = load_documents(path, fmt=fmt).documents[:limit]  # type: ignore[arg-type]
        full = _build(docs, False, progress)
        short = _build(docs, True, progress)
        rows.append({"corpus": name, "documents": len(docs), "full": full, "summarised": short})
    data = {"corpora": rows}
    write_report(Path(out_dir), NAME, data, markdown(data))
    return data


def markdown(d: dict[str, Any]) -> str:
    head = ["corpus", "docs", "build", "summariser", "words", "text chunks", "KG LLM calls", "KG tokens",
            "KG s", "text s", "total s", "triples"]
    rows = []
    for c in d["corpora"]:
        for kind in ("full", "summarised"):
            r = c[kind]
            kg, text = r["steps"].get("kg", {}), r["steps"].get("text", {})
            rows.append([c["corpus"], c["documents"], kind, r["summariser"] or "—", r["words"], r["text_chunks"],
                         kg.get("calls", 0), kg.get("tokens", 0), kg.get("seconds", 0.0), text.get("seconds", 0.0),
                         r["seconds"], r["triples"]])
    lines = ["# Build-time summarisation (K²RAG §3.1.1)", "", md_table(head, rows), ""]
    for c in d["corpora"]:
        f, s = c["full"], c["summarised"]
        red = 1 - s["words"] / f["words"] if f["words"] else 0.0
        saved = 1 - s["seconds"] / f["seconds"] if f["seconds"] else 0.0
        lines.append(f"- {c['corpus']}: {red:.0%} fewer words, build time {saved:+.0%} saved "
                     f"({f['seconds']:.0f} s → {s['seconds']:.0f} s, summarising included).")
    return "\n".join(lines)
