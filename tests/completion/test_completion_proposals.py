"""Phrases, name linking, k-medoids, and building and ranking proposals from clusters (no model)."""

from __future__ import annotations

import numpy as np

from completion.clustering import cluster, k_grid
from completion.linking import NameLinker
from completion.names import humanise, name_key
from completion.phrases import kg_phrases, ontology_phrases
from completion.proposals import Proposal, ProposalDraft, build_draft, rank_drafts
from completion.types import ClassAttribute, KGTriple, OntologyInstance

B = "http://example.org/"


def test_phrases_read_like_each_other():
    pairs = [ClassAttribute(B + "STAFF", B + "has_research_interest"), ClassAttribute(B + "STAFF", B + "worksFor"),
             ClassAttribute(B + "STAFF", B + "has_research_interest")]
    assert ontology_phrases(pairs) == ["staff has research interest", "staff works for"]
    assert humanise(B + "x", "Research Centre") == "research centre"
    typing = NameLinker([OntologyInstance(B + "S1", B + "STAFF", "Chih-yung WEN")]).link(
        ["Prof. Chih-yung WEN", "PolyU"])
    triples = [KGTriple("t1", "Prof. Chih-yung WEN", "has research interests in", "aerodynamics"),
               KGTriple("t2", "PolyU", "is located in", "Hung Hom"),
               KGTriple("t3", "Prof. Chih-yung WEN", "has  research interests in", "UAVs")]
    ph = kg_phrases(triples, typing)
    assert ph.texts == ["staff has research interests in", "PolyU is located in"]
    assert ph.counts.tolist() == [2, 1] and ph.typed_triples == 2 and ph.typed_subjects == 1
    assert [m.tolist() for m in ph.members()] == [[0, 2], [1]]


def test_name_linking_ignores_titles_order_script_and_refuses_ambiguity():
    assert name_key("Ir Prof. Keith K.C. Chan 陳鏡昌") == name_key("CHAN Keith K C")
    assert name_key("SUN Yuxiang 孫宇翔 (Dr)") == name_key("Yuxiang Sun")
    linker = NameLinker([OntologyInstance(B + "S1", B + "STAFF", "Keith K.C. Chan"),
                         OntologyInstance(B + "D1", B + "DEPARTMENT", "Computing"),
                         OntologyInstance(B + "S2", B + "STAFF", "Computing")])
    t = linker.link(["Ir Prof. Keith K.C. Chan 陳鏡昌", "Computing", "Someone Else"])
    assert t.cls("Ir Prof. Keith K.C. Chan 陳鏡昌") == B + "STAFF"
    assert t.cls("Computing") is None and t.ambiguous == ["Computing"]
    assert t.cls("Someone Else") is None


def _unit(v):
    v = np.asarray(v, dtype=np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_kmedoids_chooses_k_by_silhouette_and_medoids_are_members():
    rng = np.random.default_rng(0)
    centres = np.eye(8)[:4] * 5
    x = _unit(np.vstack([c + rng.normal(0, 0.3, size=(15, 8)) for c in centres]))
    res = cluster(x, k_min=2, k_max=8)
    assert res.k == 4 and 4 in res.tried and min(res.tried) == 2 and max(res.tried) == 8
    for c in range(4):   # each medoid is a point of its own cluster, and clusters follow the centres
        members = np.flatnonzero(res.labels == c)
        assert res.medoids[c] in members and len(set(members // 15)) == 1
    # the grid follows the number n of phrases: [min(k_min, max(2, n // 20)), min(k_max, n // 2, n - 1)]
    assert k_grid(16, 120, 10) == [2, 3, 4, 5] and k_grid(16, 120, 3) == [2] and k_grid(16, 120, 2) == []
    assert k_grid(16, 120, 3000) == [16, 37, 58, 78, 99, 120] and k_grid(16, 120, 100) == [5, 14, 23, 32, 41, 50]


def _typing(names_classes):
    insts = [OntologyInstance(B + f"I{i}", B + c, n) for i, (n, c) in enumerate(names_classes)]
    return NameLinker(insts)


def test_attribute_proposal_domain_range_evidence_and_instances():
    linker = _typing([("Ada Chan", "STAFF"), ("Ben Wong", "STAFF"), ("Cai Lee", "STUDENT"),
                      ("Department of Computing", "DEPARTMENT"), ("School of Design", "DEPARTMENT")])
    triples = [KGTriple("t1", "Dr Ada Chan", "heads", "Department of Computing", "c1", "d1"),
               KGTriple("t2", "Prof. Ben Wong", "is head of", "School of Design", "c2", "d1"),
               KGTriple("t3", "Cai Lee", "heads", "School of Design", "c3", "d2")]
    subj = linker.link(t.subject for t in triples)
    obj = linker.link(t.object for t in triples)
    d = build_draft("P0001", np.arange(3), triples, subj, obj, medoid_phrase="staff heads", medoid_relation="heads",
                    priority=0.5, base=B, evidence_shown=2)
    p = d.proposal
    assert (p.kind, p.domain, p.range, p.name) == ("attribute", "STAFF", "DEPARTMENT", "heads")
    assert [e.chunk_id for e in p.evidence] == ["c1", "c2"] and p.triples == 3 and p.typed_subjects == 3
    # Only subjects of the domain class get the new attribute; objects are the linked departments.
    assert [(a.subject_iri, a.object_iri) for a in d.assertions] == [(B + "I0", B + "I3"), (B + "I1", B + "I4")]


def test_literal_and_numeric_ranges_class_proposals_and_single_entities():
    linker = _typing([("Ada Chan", "STAFF"), ("Ben Wong", "STAFF")])
    nums = [KGTriple(f"t{i}", n, "has h-index", str(10 + i)) for i, n in enumerate(["Ada Chan", "Ben Wong"])]
    d = build_draft("P1", np.arange(2), nums, linker.link(["Ada Chan", "Ben Wong"]), linker.link([]),
                    medoid_phrase="staff has h-index", medoid_relation="has h-index", priority=1, base=B,
                    evidence_shown=5)
    assert d.proposal.range == "xsd:decimal"
    labs = [KGTriple(f"u{i}", s, "is a lab in", "PolyU") for i, s in enumerate(["Optics Lab", "AI Lab", "Wind Lab"])]
    none = NameLinker([]).link([])
    d = build_draft("P2", np.arange(3), labs, none, none, medoid_phrase="AI Lab is a lab in",
                    medoid_relation="is a lab in", priority=1, base=B, evidence_shown=5)
    assert d.proposal.kind == "class" and d.proposal.domain is None and len(d.assertions) == 3
    one = [KGTriple(f"v{i}", s, r, "x") for i, (s, r) in enumerate([("PolyU", "has"), ("The PolyU", "offers"),
                                                                     ("PolyU", "provides")])]
    assert build_draft("P3", np.arange(3), one, none, none, medoid_phrase="PolyU has", medoid_relation="has",
                       priority=1, base=B, evidence_shown=5) is None


def test_ranking_puts_generic_and_covered_last():
    def draft(pid, subjects, priority, generic=False, covered=None):
        return ProposalDraft(Proposal(id=pid, kind="attribute", name=pid, label=pid, domain="STAFF", typed_subjects=subjects,
                              priority=priority, generic=generic, covered_by=covered))

    ranked = rank_drafts([draft("a", 10, 1.0), draft("b", 50, 1.0, covered="has_name"), draft("c", 40, 0.1),
                          draft("d", 99, 1.0, generic=True), draft("e", 30, 1.0)])
    assert [d.proposal.id for d in ranked] == ["e", "a", "c", "d", "b"]
    assert [d.proposal.rank for d in ranked] == [1, 2, 3, 4, 5]
