"""One completion run over typed inputs: phrases → priority → region → k-medoids → ranked drafts.

No workspace and no store here: the caller passes the ontology view, the KG triples and an `embed`
function, so tests and the benchmark run the same code as `polyrag complete run`.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from threadpoolctl import threadpool_limits

from completion.clustering import cluster
from completion.coverage import AttributeValues
from completion.divergence import Priority, check_counts, compute_priority, select_region
from completion.errors import CompletionError
from completion.linking import NameLinker, Typing
from completion.names import local_name
from completion.phrases import KGPhrases, kg_phrases, ontology_phrases, pair_phrase
from completion.proposals import ProposalDraft, build_draft, rank_drafts
from completion.types import KGTriple, OntologyView
from pyramid.config import CompletionSettings
from pyramid.progress import NullProgress, Progress

Embed = Callable[[list[str]], np.ndarray]


@dataclass
class PlotData:
    """2-D coordinates (first two PCA axes of the completion space) for the Figure-2-like plot."""

    onto_xy: np.ndarray
    onto_text: list[str]
    kg_xy: np.ndarray
    kg_counts: np.ndarray
    kg_high: np.ndarray        # bool: in the high-priority region
    medoid_xy: np.ndarray
    medoid_label: list[str]


@dataclass
class CompletionResult:
    drafts: list[ProposalDraft]
    stats: dict
    plot: PlotData
    suppressed: list[str] = field(default_factory=list)
    typing: Typing | None = None


def _medoid_relation(phrase_triples: np.ndarray, triples: Sequence[KGTriple]) -> str:
    rel = Counter(" ".join(triples[int(i)].relation.split()) for i in phrase_triples)
    return rel.most_common(1)[0][0]


def run_completion(view: OntologyView, triples: Sequence[KGTriple], embed: Embed, cfg: CompletionSettings, *,
                   rejected: Sequence[np.ndarray] = (), first_id: int = 1,
                   progress: Progress | None = None) -> CompletionResult:
    """Rank candidate new schema terms; `rejected` holds medoid vectors never to propose again."""
    progress = progress or NullProgress()
    timings: dict[str, float] = {}
    t0 = time.perf_counter()

    o_texts = ontology_phrases(view.pairs)
    check_counts(len(o_texts), len(triples))   # exact KG phrase count checked once they are built
    linker = NameLinker(view.instances)
    typing = linker.link(t.subject for t in triples)
    phrases = kg_phrases(triples, typing, view)
    if phrases.typed_triples == 0:
        raise CompletionError(
            f"none of the KG's {phrases.subjects} distinct subjects links to one of the ontology's "
            f"{len(view.instances)} named individuals, so no KG phrase reads like a class-attribute "
            "phrase; import the ontology's instances (with labels) or a KG about them first")
    check_counts(len(o_texts), len(phrases.texts))
    object_typing = linker.link(t.object for t in triples)
    timings["phrases"] = time.perf_counter() - t0

    t = time.perf_counter()
    task = progress.task("embedding phrases", len(o_texts) + len(phrases.texts))
    o_vec = embed(o_texts)
    task.advance(len(o_texts))
    k_vec = embed(phrases.texts)
    task.advance(len(phrases.texts))
    task.done()
    timings["embed"] = time.perf_counter() - t

    # One BLAS thread: measured on these 2-core machines, OpenBLAS's default threads made the PCA's
    # SVD of ~6.7k×384 phrases take 16 s instead of 0.5 s whenever another process held a core.
    with threadpool_limits(1):
        t = time.perf_counter()
        pri = compute_priority(o_vec, k_vec, phrases.counts, variance=cfg.pca_variance, max_dim=cfg.max_dim,
                               estimator=cfg.covariance)
        n_o = len(o_texts)
        kg_rows = n_o + np.arange(len(phrases.texts))
        region = select_region(pri, kg_rows, phrases.counts, rule=cfg.region, value=cfg.region_value,
                               cap=cfg.max_region)
        timings["priority"] = time.perf_counter() - t

        t = time.perf_counter()
        clusters = cluster(k_vec[region], k=cfg.k, k_min=cfg.k_min, k_max=cfg.k_max, seed=cfg.seed)
        timings["kmedoids"] = time.perf_counter() - t

    t = time.perf_counter()
    drafts, suppressed, dropped = _drafts(view, triples, phrases, typing, object_typing, pri, region, clusters,
                                            o_vec, k_vec, cfg, rejected, first_id)
    timings["proposals"] = time.perf_counter() - t
    timings["total"] = time.perf_counter() - t0

    values = pri.values()
    stats = {
        "ontology_phrases": n_o, "kg_phrases": len(phrases.texts), "kg_triples": len(triples),
        "typed_triples": phrases.typed_triples, "typed_subjects": phrases.typed_subjects,
        "subjects": phrases.subjects, "ambiguous_subjects": len(typing.ambiguous),
        "typed_classes": {local_name(c): n for c, n in
                          Counter(typing.cls(x.subject) for x in triples if typing.cls(x.subject)).most_common()},
        "pca_dim": pri.reduction.dim, "pca_explained": round(pri.reduction.explained, 4),
        "pca_rule": pri.reduction.reason, "covariance": pri.estimator,
        "shrinkage": {k: round(v, 4) for k, v in pri.shrinkage.items()},
        "priority_finite": bool(np.all(np.isfinite(pri.key()))),
        "kg_positive_priority": int((pri.sign[kg_rows] > 0).sum()),
        "region_rule": cfg.region, "region_value": cfg.region_value, "region_phrases": len(region),
        "region_triples": int(phrases.counts[region].sum()),
        "k": clusters.k, "silhouette": round(clusters.silhouette, 4), "k_tried": clusters.tried,
        "proposals": sum(1 for d in drafts if d.proposal.covered_by is None),
        "covered": sum(1 for d in drafts if d.proposal.covered_by is not None),
        "suppressed_rejected": len(suppressed), "dropped_clusters": dropped,
        "priority_range": [float(values[kg_rows].min()), float(values[kg_rows].max())],
        "seconds": {k: round(v, 3) for k, v in timings.items()},
    }
    plot = _plot_data(pri, o_texts, o_vec, phrases, region, drafts, k_vec)
    return CompletionResult(drafts, stats, plot, suppressed, typing)


def _drafts(view: OntologyView, triples: Sequence[KGTriple], phrases: KGPhrases, typing: Typing,
            object_typing: Typing, pri: Priority, region: np.ndarray, clusters, o_vec: np.ndarray,
            k_vec: np.ndarray, cfg: CompletionSettings, rejected: Sequence[np.ndarray],
            first_id: int) -> tuple[list[ProposalDraft], list[str], dict[str, int]]:
    n_o = len(o_vec)
    members = phrases.members()
    values = pri.values()
    rej = np.asarray(rejected, dtype=np.float32).reshape(-1, k_vec.shape[1]) if len(rejected) else None
    values_index = AttributeValues(view)
    drafts: list[ProposalDraft] = []
    suppressed: list[str] = []
    too_small = entities = 0
    next_id = first_id
    for c in range(clusters.k):
        rows = region[clusters.labels == c]                       # KG phrase indices of this cluster
        if len(rows) == 0:
            continue
        med = int(region[clusters.medoids[c]])
        counts = phrases.counts[rows]
        if counts.sum() < cfg.min_support:
            too_small += 1
            continue
        mvec = k_vec[med]
        if rej is not None and float(np.max(rej @ mvec)) >= cfg.rejected_threshold:
            suppressed.append(phrases.texts[med])
            continue
        triple_ids = np.concatenate([members[r] for r in rows])
        mean_pri = float(np.dot(values[rows + n_o], counts) / counts.sum())
        draft = build_draft(f"P{next_id:04d}", triple_ids, triples, typing, object_typing,
                            medoid_phrase=phrases.texts[med],
                            medoid_relation=_medoid_relation(members[med], triples),
                            priority=mean_pri, base=view.base, evidence_shown=cfg.evidence_shown)
        if draft is None:
            entities += 1
            continue
        sims = o_vec @ mvec
        best = int(np.argmax(sims))
        if float(sims[best]) >= cfg.covered_threshold:
            draft.proposal.covered_by = local_name(view.pairs[_pair_index(view, best)].attribute)
        else:
            attr, share = values_index.covering([triples[int(i)] for i in triple_ids], typing,
                                                cfg.covered_value_share)
            draft.value_share = share
            if attr is not None:
                draft.proposal.covered_by = local_name(attr)
        draft.medoid_vector = mvec
        drafts.append(draft)
        next_id += 1
    return rank_drafts(drafts), suppressed, {"below_min_support": too_small, "single_entity": entities}


def _pair_index(view: OntologyView, phrase_index: int) -> int:
    """Map a distinct ontology phrase index back to the first pair that reads that way."""
    seen: dict[str, int] = {}
    for i, p in enumerate(view.pairs):
        seen.setdefault(pair_phrase(p), i)
    return list(seen.values())[phrase_index]


def _plot_data(pri: Priority, o_texts: list[str], o_vec: np.ndarray, phrases: KGPhrases,
               region_rows: np.ndarray, drafts: list[ProposalDraft], k_vec: np.ndarray) -> PlotData:
    red = pri.reduction

    # The first two PCA axes of the completion space itself, so the picture shows the geometry the
    # Gaussians were fitted in.
    def xy(v: np.ndarray) -> np.ndarray:
        return red.transform(v)[:, :2] if len(v) else np.zeros((0, 2))

    high = np.zeros(len(phrases.texts), dtype=bool)
    high[region_rows] = True
    ranked = [d for d in drafts if d.proposal.covered_by is None]
    med = np.array([d.medoid_vector for d in ranked]) if ranked else np.zeros((0, k_vec.shape[1]))
    return PlotData(onto_xy=xy(o_vec), onto_text=o_texts, kg_xy=xy(k_vec), kg_counts=phrases.counts,
                    kg_high=high, medoid_xy=xy(med),
                    medoid_label=[f"{d.proposal.id} {d.proposal.name}" for d in ranked])
