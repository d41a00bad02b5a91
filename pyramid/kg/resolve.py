"""Entity resolution: mentions → entities, in two stages, never across conflicting types.

1. Normalisation: mentions with the same `normalise_name` (case, punctuation, titles folded) are
   one entity — unless their types conflict (PERSON "Paris" is not PLACE "Paris").
2. Embedding similarity: the remaining distinct names are embedded (MiniLM, cached) and pairs with
   cosine ≥ `threshold` are merged, most similar first, as long as the merged group still has at
   most one non-empty type and at most one entity that already exists in the store (two stored
   entities were kept apart before; resolution never fuses them after the fact).

Embedding similarity is blind to two things, so they must agree exactly before it may merge:
numbers ("+852 2766 5679" vs "… 5697", "Ligue 1" vs "Ligue 2" score ≥ 0.99 with MiniLM) and
characters outside MiniLM's vocabulary (CJK names become [UNK] and score 1.0), wherever both
names carry them. Both were found
in the PolyU import's merges (`polyrag bench kg-search` lists a sample).

A name's type may be unknown (""); an unknown type is compatible with every type, and the merged
entity takes the known one. The pairs refused because of a type conflict are counted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from pyramid.embeddings import Embedder
from pyramid.kg.model import Entity, entity_id, normalise_name

_DIGITS = re.compile(r"\d+")
BLOCK = 1024  # rows of the similarity matrix computed at once (memory: BLOCK × names floats)


@dataclass
class ResolutionReport:
    mentions: int = 0
    names: int = 0                  # distinct (name, type) mentions
    exact_merges: int = 0           # names folded into another by normalisation
    embedding_merges: int = 0       # groups joined by embedding similarity
    linked_existing: int = 0        # names resolved to an entity already in the store
    type_conflicts_refused: int = 0
    unseen_mismatch_refused: int = 0  # similar by embedding, but numbers or CJK characters differ
    new_entities: int = 0
    merged_pairs: list[tuple[str, str, float]] = field(default_factory=list)  # (name, into, cosine), a sample

    def to_dict(self) -> dict:
        d = dict(self.__dict__)
        d["merged_pairs"] = [list(p) for p in self.merged_pairs[:50]]
        return d


class _Groups:
    """Union-find over names, tracking each group's types and stored entity."""

    def __init__(self, types: list[str], stored: list[Entity | None]) -> None:
        self.parent = list(range(len(types)))
        self.types = [{t} - {""} for t in types]
        self.stored = [[s] if s is not None else [] for s in stored]

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def can_join(self, a: int, b: int) -> tuple[bool, bool]:
        """(allowed, refused for a type conflict)."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False, False
        if len(self.types[ra] | self.types[rb]) > 1:
            return False, True
        return len(self.stored[ra]) + len(self.stored[rb]) <= 1, False

    def join(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        self.parent[rb] = ra
        self.types[ra] |= self.types[rb]
        self.stored[ra] += self.stored[rb]


def _unseen(norm: str) -> tuple[tuple[str, ...], str]:
    """What the embedding cannot tell apart: the numbers, and characters beyond Latin/Greek/Cyrillic."""
    return tuple(_DIGITS.findall(norm)), "".join(c for c in norm if ord(c) >= 0x2E80)


def similar_pairs(vecs: np.ndarray, threshold: float) -> list[tuple[float, int, int]]:
    """(cosine, i, j) with i < j for every pair of unit rows at least `threshold` alike, most alike first."""
    pairs: list[tuple[float, int, int]] = []
    for start in range(0, len(vecs), BLOCK):
        sims = np.dot(vecs[start:start + BLOCK], vecs.T)
        rows, cols = np.nonzero(sims >= threshold)
        for r, c in zip(rows.tolist(), cols.tolist()):
            if c < start + r:  # each unordered pair once, never a row with itself
                pairs.append((float(sims[r, c]), c, start + r))
    pairs.sort(key=lambda p: -p[0])
    return pairs


def compatible(a: Entity, b: Entity) -> bool:
    """May these two be one entity, as far as types, numbers and unseen characters tell?"""
    return not types_conflict(a.type, b.type) and not _unseen_conflict(a.norm, b.norm)


def _unseen_conflict(a: str, b: str) -> bool:
    """Both names carry numbers (or CJK text) and they differ; one side without them is no conflict."""
    return any(x and y and x != y for x, y in zip(_unseen(a), _unseen(b)))


def types_conflict(a: str, b: str) -> bool:
    return bool(a) and bool(b) and a != b


class EntityResolver:
    def __init__(self, embedder: Embedder | None, threshold: float) -> None:
        """`embedder=None` resolves by normalisation only."""
        self.embedder, self.threshold = embedder, threshold

    def resolve(self, mentions: Iterable[tuple[str, str]], existing: Sequence[Entity] = (),
                progress=None) -> tuple[dict[tuple[str, str], Entity], ResolutionReport]:
        """Map each (name, type) mention to an Entity; `existing` are the store's entities."""
        report = ResolutionReport()
        counts: dict[tuple[str, str], int] = {}
        for m in mentions:
            key = (" ".join(m[0].split()), m[1])
            counts[key] = counts.get(key, 0) + 1
            report.mentions += 1
        report.names = len(counts)

        # Stage 1: one node per (norm, type) — the stored entities first, so mentions link to them.
        nodes: list[tuple[str, str, str]] = []           # (norm, display name, type)
        stored: list[Entity | None] = []
        index: dict[tuple[str, str], int] = {}
        for e in existing:
            index[(e.norm, e.type)] = len(nodes)
            nodes.append((e.norm, e.name, e.type))
            stored.append(e)
        by_norm: dict[str, list[int]] = {}
        for i, (norm, _, _) in enumerate(nodes):
            by_norm.setdefault(norm, []).append(i)
        of_mention: dict[tuple[str, str], int] = {}
        # Most frequent spelling first: it names the entity.
        for (name, typ), _ in sorted(counts.items(), key=lambda kv: -kv[1]):
            norm = normalise_name(name) or name.lower()
            same = [i for i in by_norm.get(norm, []) if not types_conflict(nodes[i][2], typ)]
            if same:
                # prefer an exact type match, then a typed node over an untyped one
                i = min(same, key=lambda j: (nodes[j][2] != typ, nodes[j][2] == ""))
                if stored[i] is None:  # another spelling of a name met in this batch
                    report.exact_merges += 1
                if not nodes[i][2] and typ:
                    nodes[i] = (nodes[i][0], nodes[i][1], typ)
            else:
                if by_norm.get(norm):
                    report.type_conflicts_refused += 1
                i = len(nodes)
                nodes.append((norm, name, typ))
                stored.append(None)
                by_norm.setdefault(norm, []).append(i)
            of_mention[(name, typ)] = i

        groups = _Groups([n[2] for n in nodes], stored)
        if self.embedder is not None and len(nodes) > 1:
            self._embedding_stage(nodes, groups, report, progress)

        # One Entity per group: a stored entity keeps its id and name (with a type learnt now).
        entity_of_root: dict[int, Entity] = {}
        used_ids: set[str] = {e.id for e in existing}
        for i in range(len(nodes)):
            r = groups.find(i)
            if r in entity_of_root:
                continue
            norm, name = nodes[r][0], nodes[r][1]  # the group's first node names it
            group_type = next(iter(groups.types[r]), "")
            if groups.stored[r]:
                s = groups.stored[r][0]
                entity_of_root[r] = Entity(s.id, s.name, s.norm, s.type or group_type)
            else:
                eid = entity_id(norm)
                if eid in used_ids:  # same name, another type: a distinct entity needs a distinct id
                    eid = entity_id(f"{norm}\x1f{group_type}")
                used_ids.add(eid)
                entity_of_root[r] = Entity(eid, name, norm, group_type)
                report.new_entities += 1
        out = {m: entity_of_root[groups.find(i)] for m, i in of_mention.items()}
        report.linked_existing = sum(1 for i in set(of_mention.values()) if groups.stored[groups.find(i)])
        return out, report

    def _embedding_stage(self, nodes: list[tuple[str, str, str]], groups: _Groups, report: ResolutionReport,
                         progress) -> None:
        task = progress.task("embedding entity names", len(nodes)) if progress else None
        # The normalised names are embedded: titles and punctuation only add noise to the cosine.
        vecs = self.embedder.embed([n[0] or n[1] for n in nodes], kind="document",
                                   progress=task.advance if task else None)
        if task:
            task.done()
        pairs = similar_pairs(vecs, self.threshold)
        for sim, a, b in pairs:
            if nodes[a][0] == nodes[b][0]:
                continue  # same normalised name: stage 1 already decided (a type conflict)
            if _unseen_conflict(nodes[a][0], nodes[b][0]):
                report.unseen_mismatch_refused += 1
                continue
            ok, conflict = groups.can_join(a, b)
            if conflict:
                report.type_conflicts_refused += 1
            if ok:
                groups.join(a, b)
                report.embedding_merges += 1
                if len(report.merged_pairs) < 200:
                    report.merged_pairs.append((nodes[b][1], nodes[a][1], round(sim, 4)))
