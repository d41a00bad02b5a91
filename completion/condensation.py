"""KG condensation (PolyRAG §3.3): same-meaning relation phrases get one canonical relation, and
triples that become identical are merged — reversibly.

Steps (model-free `cluster` mode; `llm` mode replaces step 1's decision, see condense_llm):
1. **Anchors.** Every ontology class-attribute pair is an anchor. Its k nearest KG triples (by the
   cosine of their 'subject relation' phrase to the anchor's phrase) are looked at; those whose
   relation text is at least `threshold` cosine-similar to the anchor's attribute words take the
   anchor's name as canonical ('has research interests in' → has_research_interest).
2. **Groups.** All relation texts are clustered with complete linkage at distance 1 − threshold,
   so every two members of a group are at least `threshold` similar (average linkage would let a
   chain of small steps join unrelated phrases). A group holding anchored texts takes the anchor
   name; otherwise its canonical is its most frequent text, as a name.
3. **Cap.** If more than `max_relations` groups remain, the largest `max_relations` groups (by
   triples; anchored groups always kept) stay and every relation text of the others joins the kept
   group whose centroid is nearest to it. These forced joins are flagged and their similarity
   recorded, so the loss of meaning is measured, not hidden (`fidelity`).
4. **Merge.** Triples with the same subject, canonical relation and object (case and spacing
   folded) become one edge; it lists the merged ones (id, original relation, chunk, document), and
   every edge keeps its own original relation text, so `expand` restores the KG exactly.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from completion.linking import Typing
from completion.names import humanise, local_name, snake_name
from completion.phrases import kg_phrases, pair_phrase
from completion.types import ClassAttribute, KGTriple
from pyramid.normalise import fold

Embed = Callable[[list[str]], np.ndarray]


def relation_text(relation: str) -> str:
    return " ".join(relation.split())


_PASSIVE = re.compile(r"\b(\w+(ed|en|wn)|by)\s+by\b|\bby$", re.IGNORECASE)


def passive(text: str) -> bool:
    """'offered by', 'is taught by' read right-to-left: merging them with 'offers' or 'teaches' would
    swap subject and object, however close their embeddings are (MiniLM puts them at ~0.8)."""
    return bool(_PASSIVE.search(text.strip()))


@dataclass
class RelationGroup:
    canonical: str
    members: dict[str, int]                 # relation text → triples using it
    anchor: str | None = None               # the ontology attribute it was named after
    forced: dict[str, float] = field(default_factory=dict)   # texts joined by the cap → similarity

    @property
    def triples(self) -> int:
        return sum(self.members.values())


@dataclass
class MergedEdge:
    """One edge of the condensed KG."""

    id: str
    subject: str
    relation: str                           # its own original text
    canonical: str
    object: str
    chunk_id: str | None = None
    doc_id: str | None = None
    merged: list[KGTriple] = field(default_factory=list)   # the triples folded into this edge


@dataclass
class Condensation:
    groups: list[RelationGroup]
    canonical_of: dict[str, str]            # relation text → canonical
    edges: list[MergedEdge]
    similarity: dict[str, float]            # relation text → cosine to its canonical's text

    def expand(self) -> list[KGTriple]:
        """The original triples, restored from the condensed edges (the reversibility guarantee)."""
        out: list[KGTriple] = []
        for e in self.edges:
            out.append(KGTriple(e.id, e.subject, e.relation, e.object, e.chunk_id, e.doc_id))
            out.extend(e.merged)
        return out


def anchor_assignments(anchors: Sequence[ClassAttribute], triples: Sequence[KGTriple], typing: Typing,
                       embed: Embed, *, k: int, threshold: float,
                       rel_vec: dict[str, np.ndarray]) -> dict[str, tuple[str, float]]:
    """Relation text → (anchor attribute name, similarity) for the anchors' k nearest triples."""
    if not anchors or not triples:
        return {}
    phrases = kg_phrases(triples, typing)
    p_vec = embed(phrases.texts)
    members = phrases.members()
    a_texts = [pair_phrase(a) for a in anchors]
    a_vec = embed(a_texts)
    words_vec = embed([humanise(a.attribute, a.attribute_label) for a in anchors])
    best: dict[str, tuple[str, float]] = {}
    for a, av, wv in zip(anchors, a_vec, words_vec):
        order = np.argsort(-(p_vec @ av), kind="stable")
        taken = 0
        for idx in order:
            if taken >= k:
                break
            taken += int(phrases.counts[idx])
            for ti in members[idx]:
                rel = relation_text(triples[int(ti)].relation)
                sim = float(rel_vec[rel] @ wv)
                if passive(rel) != passive(humanise(a.attribute, a.attribute_label)):
                    continue
                if sim >= threshold and sim > best.get(rel, ("", -1.0))[1]:
                    best[rel] = (local_name(a.attribute), sim)
    return best


def _complete_linkage(vectors: np.ndarray, threshold: float) -> np.ndarray:
    from scipy.cluster.hierarchy import fcluster, linkage
    from scipy.spatial.distance import pdist

    if len(vectors) < 2:
        return np.zeros(len(vectors), dtype=np.int64)
    dist = np.clip(pdist(vectors.astype(np.float64), "cosine"), 0.0, 2.0)
    return fcluster(linkage(dist, "complete"), 1.0 - threshold, "distance").astype(np.int64) - 1


def group_relations(counts: Counter[str], rel_vec: dict[str, np.ndarray], *, threshold: float, max_relations: int,
                    anchored: dict[str, tuple[str, float]], anchor_words: dict[str, np.ndarray] | None = None,
                    decided: dict[str, str] | None = None) -> list[RelationGroup]:
    """Steps 2 and 3 of the module doc. `anchor_words` (anchor name → vector of its words) names a
    group after an anchor when the group's centroid is `threshold`-similar to it; `decided`
    (text → canonical) comes from the LLM mode."""
    anchor_words = anchor_words or {}
    a_names = list(anchor_words)
    a_mat = np.array([anchor_words[n] for n in a_names]) if a_names else None
    decided = decided or {}
    texts = [t for t in counts if t not in anchored and t not in decided]
    groups: dict[str, RelationGroup] = {}

    def add(canonical: str, text: str, anchor: str | None = None) -> None:
        g = groups.setdefault(canonical, RelationGroup(canonical, {}, anchor))
        g.members[text] = counts[text]

    for text, (anchor, _) in anchored.items():
        add(anchor, text, anchor)
    for text, canonical in decided.items():
        add(canonical, text)
    if texts:
        labels = _complete_linkage(np.array([rel_vec[t] for t in texts]), threshold)
        clusters: dict[tuple[int, bool], list[str]] = defaultdict(list)
        for t, lab in zip(texts, labels):
            clusters[(int(lab), passive(t))].append(t)      # never one group across voices
        for (_, is_passive), members in clusters.items():
            top = max(members, key=lambda t: (counts[t], t))
            canonical, anchor = snake_name(top, max_words=8), None
            if a_mat is not None:
                sims = a_mat @ _centroid(RelationGroup("", {t: counts[t] for t in members}), rel_vec)
                j = int(np.argmax(sims))
                if sims[j] >= threshold and passive(a_names[j].replace("_", " ")) == is_passive:
                    canonical = anchor = a_names[j]
            for t in members:
                add(canonical, t, anchor)
    return _cap(list(groups.values()), rel_vec, max_relations)


def _cap(groups: list[RelationGroup], rel_vec: dict[str, np.ndarray], max_relations: int) -> list[RelationGroup]:
    if len(groups) <= max_relations:
        return groups
    groups.sort(key=lambda g: (g.anchor is None, -g.triples, g.canonical))
    kept, rest = groups[:max_relations], groups[max_relations:]
    cents = np.array([_centroid(g, rel_vec) for g in kept])
    for g in rest:
        for text, n in g.members.items():
            sims = cents @ rel_vec[text]
            j = int(np.argmax(sims))
            kept[j].members[text] = n
            kept[j].forced[text] = float(sims[j])
    return kept


def _centroid(g: RelationGroup, rel_vec: dict[str, np.ndarray]) -> np.ndarray:
    w = np.array(list(g.members.values()), dtype=np.float64)
    v = (np.array([rel_vec[t] for t in g.members]) * w[:, None]).sum(axis=0)
    return (v / (np.linalg.norm(v) or 1.0)).astype(np.float32)


def merge_triples(triples: Sequence[KGTriple], canonical_of: dict[str, str]) -> list[MergedEdge]:
    edges: dict[tuple[str, str, str], MergedEdge] = {}
    for t in triples:
        canonical = canonical_of[relation_text(t.relation)]
        key = (fold(t.subject), canonical, fold(t.object))
        edge = edges.get(key)
        if edge is None:
            edges[key] = MergedEdge(t.id, t.subject, t.relation, canonical, t.object, t.chunk_id, t.doc_id)
        else:
            edge.merged.append(t)
    return list(edges.values())


def condense(triples: Sequence[KGTriple], anchors: Sequence[ClassAttribute], typing: Typing, embed: Embed, *,
             k: int = 50, threshold: float = 0.8, max_relations: int = 400,
             decided: dict[str, str] | None = None) -> Condensation:
    """Condense `triples`; `decided` (relation text → canonical) overrides steps 1–2 (LLM mode)."""
    counts = Counter(relation_text(t.relation) for t in triples)
    texts = sorted(counts)
    vecs = embed(texts) if texts else np.zeros((0, 1), np.float32)
    rel_vec = dict(zip(texts, vecs))
    anchored = anchor_assignments(anchors, triples, typing, embed, k=k, threshold=threshold, rel_vec=rel_vec)
    decided = {t: c for t, c in (decided or {}).items() if t in counts}
    anchored = {t: a for t, a in anchored.items() if t not in decided}
    a_names = list(dict.fromkeys(local_name(a.attribute) for a in anchors))
    words = [humanise(n) for n in a_names]
    anchor_words = dict(zip(a_names, embed(words))) if a_names else {}
    groups = group_relations(counts, rel_vec, threshold=threshold, max_relations=max_relations,
                             anchored=anchored, anchor_words=anchor_words, decided=decided)
    canonical_of = {t: g.canonical for g in groups for t in g.members}
    # Similarity of each text to its canonical's words: the per-relation fidelity of the condensation.
    names = sorted({g.canonical for g in groups})
    name_vec = dict(zip(names, embed([n.replace("_", " ") for n in names]))) if names else {}
    similarity = {t: float(rel_vec[t] @ name_vec[c]) for t, c in canonical_of.items()}
    return Condensation(groups, canonical_of, merge_triples(triples, canonical_of), similarity)
