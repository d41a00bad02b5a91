"""Clusters of high-priority KG phrases → proposals a curator can read, edit, accept or reject.

A cluster becomes
* a new **attribute** when most of its triples' subjects are typed: domain = the class most of
  those subjects belong to; range = a class when most objects link to instances of one class
  (an object property), else a literal (xsd:decimal when ≥ 90% of the objects are numbers,
  xsd:string otherwise); or
* a new **class** when most subjects are untyped: its instances are those subjects.
The suggested name and label come from the medoid's relation text (attributes) or the cluster's
most frequent subject (classes); the evidence is the member triples with their source chunks.

Two hygiene rules keep the list for curators short:
* a class needs instances: a cluster whose untyped subjects have fewer than MIN_CLASS_INSTANCES
  distinct names (by `name_key`) is one entity talked about a lot ('PolyU has ...'), not a class,
  and is not proposed;
* a cluster where at least half the triples use a relation made only of function words ('has',
  'is a', 'is in') is marked `generic`: its meaning is in the objects, not the relation, so it
  cannot be named as one attribute. It is still listed, after the specific proposals.

Ranking (`score`): the number of distinct subjects the proposal would give a value to, times the
mean priority of its triples relative to the mean over all proposals. Distinct subjects rather than
triples, because an attribute is schema worth adding when many individuals have it, not when one
page repeats one person's facts; the priority factor keeps the paper's divergence in the ordering.
Order: specific proposals by score, then generic ones, then the covered ones (not proposals).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field

from completion.linking import Typing
from completion.names import class_name, name_key, snake_name
from completion.types import KGTriple
from pyramid.reading.english import FUNCTION_WORDS
from pyramid.types import TripleEvidence

Status = Literal["proposed", "accepted", "rejected", "applied"]
MIN_CLASS_INSTANCES = 3
_NUMBER = re.compile(r"^[\s$€£¥HK]*[-+]?\d[\d,]*(\.\d+)?\s*%?$")


class RelationWording(BaseModel):
    """A relation as the KG words it, with how many of the proposal's triples do."""

    text: str
    count: int


class InstanceSample(BaseModel):
    subject: str                  # the KG name
    subject_iri: str | None = None
    object: str
    object_iri: str | None = None


class Proposal(BaseModel):
    """One proposed schema term, as written to (and read back from) the proposals file."""

    id: str
    status: Status = "proposed"
    kind: Literal["attribute", "class"]
    name: str
    label: str
    domain: str | None = None      # class (local name when in the base namespace) for attributes
    range: str | None = None       # class, or xsd:string / xsd:decimal
    rank: int = 0
    score: float = 0.0
    priority: float = 0.0          # mean priority (−Pr) of the member triples
    medoid: str = ""
    triples: int = 0
    subjects: int = 0
    typed_subjects: int = 0
    relations: list[RelationWording] = Field(default_factory=list)
    evidence: list[TripleEvidence] = Field(default_factory=list)   # member triples with their sources
    instances: int = 0
    instance_sample: list[InstanceSample] = Field(default_factory=list)
    covered_by: str | None = None  # an existing attribute this cluster only rewords
    generic: bool = False          # most triples use a relation of function words only ('has', 'is a')
    why: str | None = None         # the curator's reason (for a rejection, or an acceptance)
    decided: str | None = None
    decided_by: str | None = None  # who accepted or rejected it (written into the RDF on apply)
    version: int | None = None     # the schema version an applied proposal went into


@dataclass
class Assertion:
    """An instance-level statement a proposal would add when applied."""

    subject: str
    subject_iri: str | None
    subject_cls: str | None
    object: str
    object_iri: str | None
    triple_id: str


@dataclass
class ProposalDraft:
    """A proposal plus everything apply needs that is too long for the file."""

    proposal: Proposal
    assertions: list[Assertion] = field(default_factory=list)
    medoid_vector: np.ndarray | None = None
    value_share: float = 0.0     # share of typed triples restating an existing attribute's values


def short(iri: str | None, base: str) -> str | None:
    if iri is None:
        return None
    return iri[len(base):] if iri.startswith(base) and "/" not in iri[len(base):] else iri


def _range_of(objects: Sequence[str], object_typing: Typing, base: str) -> tuple[str, bool]:
    classes = object_typing.class_counts(objects)
    if classes:
        cls, n = classes.most_common(1)[0]
        if n * 2 >= len(objects):
            return short(cls, base) or cls, True
    numeric = sum(1 for o in objects if _NUMBER.match(o))
    return ("xsd:decimal" if numeric >= 0.9 * max(len(objects), 1) else "xsd:string"), False


def build_draft(pid: str, triple_ids: np.ndarray, triples: Sequence[KGTriple], typing: Typing,
                object_typing: Typing, *, medoid_phrase: str, medoid_relation: str, priority: float,
                base: str, evidence_shown: int) -> ProposalDraft | None:
    """The proposal for one cluster, given the indices of its member triples; None when the cluster
    is one entity rather than a class (see MIN_CLASS_INSTANCES)."""
    members = [triples[int(i)] for i in triple_ids]
    subj_classes = Counter(typing.cls(t.subject) for t in members)
    typed = sum(n for c, n in subj_classes.items() if c)
    subjects = {t.subject for t in members}
    typed_subjects = {s for s in subjects if typing.cls(s)}
    relations = Counter(" ".join(t.relation.split()) for t in members)
    if typed * 2 >= len(members):
        domain = next(c for c, _ in subj_classes.most_common() if c)
        rng, is_object = _range_of([t.object for t in members], object_typing, base)
        kind, name, label = "attribute", snake_name(medoid_relation), medoid_relation
        assertions = [Assertion(t.subject, typing.iri(t.subject), typing.cls(t.subject), t.object,
                                object_typing.iri(t.object) if is_object else None, t.id)
                      for t in members if typing.cls(t.subject) == domain]
    else:
        untyped_names = [t.subject for t in members if not typing.cls(t.subject)]
        if len({name_key(n) for n in untyped_names}) < MIN_CLASS_INSTANCES:
            return None
        top_subject = Counter(untyped_names).most_common(1)[0][0]
        domain, rng = None, None
        kind, name, label = "class", class_name(top_subject), " ".join(top_subject.split()).lower()
        untyped = dict.fromkeys(t.subject for t in members if not typing.cls(t.subject))
        assertions = [Assertion(s, None, None, "", None, "") for s in untyped]
    n_inst = len({(a.subject, a.object) for a in assertions})
    light = sum(n for r, n in relations.items() if is_function_words(r))
    proposal = Proposal(
        id=pid, kind=kind, name=name, label=label, domain=short(domain, base), range=rng,
        priority=float(priority), medoid=medoid_phrase, triples=len(members), subjects=len(subjects),
        typed_subjects=len(typed_subjects),
        relations=[RelationWording(text=r, count=n) for r, n in relations.most_common(10)],
        evidence=[TripleEvidence(triple_id=t.id, subject=t.subject, relation=t.relation, object=t.object,
                                 chunk_id=t.chunk_id, doc_id=t.doc_id) for t in members[:evidence_shown]],
        generic=light * 2 >= len(members), instances=n_inst,
        instance_sample=[InstanceSample(subject=a.subject, subject_iri=a.subject_iri, object=a.object,
                                        object_iri=a.object_iri) for a in assertions[:evidence_shown]])
    return ProposalDraft(proposal, assertions)


def rank_drafts(drafts: list[ProposalDraft]) -> list[ProposalDraft]:
    """Order by score (see module doc), set `rank` 1..n; covered drafts are ranked after the rest."""
    if not drafts:
        return drafts
    mean_pri = float(np.mean([max(d.proposal.priority, 0.0) for d in drafts])) or 1.0
    for d in drafts:
        p = d.proposal
        distinct = p.typed_subjects if p.kind == "attribute" else p.subjects
        p.score = round(distinct * max(p.priority, 0.0) / mean_pri, 4)
    drafts.sort(key=lambda d: (d.proposal.covered_by is not None, d.proposal.generic, -d.proposal.score,
                               d.proposal.id))
    for i, d in enumerate(drafts, 1):
        d.proposal.rank = i
    return drafts


def is_function_words(relation: str) -> bool:
    words = re.findall(r"[a-z]+", relation.lower())
    return all(w in FUNCTION_WORDS for w in words)


def display_name(p: Proposal) -> str:
    if p.kind == "class":
        return f"class {p.name}"
    return f"{p.domain}.{p.name} → {p.range}"
