"""`polyrag complete run` on a workspace: run completion, keep the curator's earlier decisions, write files.

Iterative runs: accepted-but-not-applied proposals are carried into the new file unchanged (same
id); rejected ones — by command or by editing the file — are remembered in state.json, and a new
cluster whose medoid is within `rejected_threshold` cosine of a remembered medoid (or of a carried
accepted one) is not proposed again. Terms already applied are in the ontology by then, so the
coverage test drops their clusters by itself.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from completion.names import local_name
from completion.pipeline import CompletionResult, Embed, PlotData, run_completion
from completion.proposals_file import ProposalsDoc
from completion.review import CompletionFiles, remember
from completion.target import OntologyTarget
from completion.types import KGTriple
from pyramid.config import CompletionSettings
from pyramid.progress import Progress
from pyramid.workspace import atomic_write_bytes, atomic_write_json


def phrase_embedder(embedder, cfg: CompletionSettings) -> Embed:
    """`embed(texts)` for phrases: the workspace embedder, or a copy with the phrase instruction."""
    if cfg.phrase_prompt:
        from pyramid.embeddings import Embedder

        settings = embedder.cfg.model_copy(update={"document_prompt": cfg.phrase_prompt})
        cache = embedder.cache
        embedder = Embedder(settings, None)
        embedder.cache = cache        # same vectors file; the key includes the prompt
    return lambda texts: embedder.embed(list(texts))


def run_in_workspace(files: CompletionFiles, target: OntologyTarget, triples: Sequence[KGTriple], embed: Embed,
                     cfg: CompletionSettings, progress: Progress | None = None) -> CompletionResult:
    with files.ws.writing("complete run"):
        start = time.perf_counter()
        state = files.state()
        old = files.load() if files.proposals.exists() else ProposalsDoc()   # a broken file is refused
        for p in old.proposals:
            remember(state, p)
        pending = [p for p in old.proposals if p.status == "accepted"]
        avoid = [r.medoid for r in state.rejected] + [p.medoid for p in pending]
        avoid_vecs = embed(avoid) if avoid else np.zeros((0, 1), np.float32)
        view = target.view()
        result = run_completion(view, triples, embed, cfg, rejected=avoid_vecs, first_id=state.next_id,
                                progress=progress)
        state.next_id += len(result.drafts)
        state.runs += 1
        new = [d.proposal for d in result.drafts if d.proposal.covered_by is None]
        covered = [d.proposal for d in result.drafts if d.proposal.covered_by is not None]
        assertions = files.load_assertions({p.id for p in pending})
        assertions.update({d.proposal.id: d.assertions for d in result.drafts if d.proposal.covered_by is None})
        made = datetime.now(UTC).isoformat(timespec="seconds")
        doc = ProposalsDoc(run={"made": made, "run": state.runs, "triples": len(triples),
                                "pca_dim": result.stats["pca_dim"], "k": result.stats["k"],
                                "region": f"{cfg.region} ({result.stats['region_phrases']} phrases)"},
                           classes=sorted(local_name(c) if c.startswith(view.base) else c for c in view.classes),
                           proposals=pending + new, covered=covered)
        files.save_assertions(assertions)
        files.save(doc)
        files.save_state(state)
        atomic_write_json(files.run, {"made": made, "settings": cfg.model_dump(), **result.stats,
                                      "suppressed": result.suppressed})
        save_plot(files.plot, result.plot)
        files.ws.record_step("complete", seconds=time.perf_counter() - start, layer="completion",
                             counts={"proposals": len(new), "pending": len(pending), "covered": len(covered),
                                     "runs": state.runs})
        return result


def save_plot(path: Path, p: PlotData) -> None:
    """The run's 2-D picture data, for `polyrag complete plot` (numpy arrays, no pickles)."""
    import io

    buf = io.BytesIO()
    np.savez_compressed(buf, onto_xy=p.onto_xy, kg_xy=p.kg_xy, kg_counts=p.kg_counts, kg_high=p.kg_high,
                        medoid_xy=p.medoid_xy, onto_text=np.array(p.onto_text, dtype=object).astype(str),
                        medoid_label=np.array(p.medoid_label, dtype=object).astype(str))
    atomic_write_bytes(path, buf.getvalue())
