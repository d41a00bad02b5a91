"""Forward-chaining materialisation: RDFS plus the OWL RL subset LUBM needs, to a fixpoint, in memory.

    result = materialise(triples)         # every asserted triple: schema, imports, documents
    result.inferred -> list[ox.Triple]    # entailed triples not asserted (named classes only)
    result.seconds, result.rounds (facts processed), result.rules (what the schema contributed)

Rules (names from the OWL 2 RL rule tables):
  RDFS   rdfs2/3 domain and range, rdfs5/7 subPropertyOf, rdfs9/11 subClassOf (both also transitive
         over the schema itself: the inferred graph holds the closed hierarchy)
  OWL RL prp-inv1/2 inverseOf, prp-symp SymmetricProperty, prp-trp TransitiveProperty,
         prp-eqp1/2 and cax-eqc1/2 equivalentProperty/equivalentClass, cls-int1/2 intersectionOf,
         cls-svf1/2 someValuesFrom (incl. owl:Thing), cls-uni unionOf
Not covered (say so rather than pretend): sameAs, allValuesFrom, hasValue, cardinalities, property
chains, disjointness checks. Types of anonymous classes (restrictions) are used during reasoning
but not written out.

Why in memory: terms are interned to integers and every new fact is pushed through the rules that
can use it (a worklist, so each fact is joined once — semi-naive evaluation), with the schema
compiled into dictionaries first. Measured on LUBM(1) by `polyrag bench lubm` (reports/lubm.md):
the same rules as SPARQL INSERTs iterated to a fixpoint in Oxigraph (benchmarks/lubm/sparql_rules.py)
reach the same 14 answer sets but take 1.8× this fixpoint's time in an in-memory store (5.9 s against
3.3 s) and 16× in an on-disk store like the workspace's (53 s), where every INSERT is a transaction —
12× this whole step including its store read and bulk write (4.5 s).
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

import pyoxigraph as ox

from pyramid.ontology.rdfio import OWL, RDF, RDFS

_TYPE, _SUBCLASS, _SUBPROP = RDF + "type", RDFS + "subClassOf", RDFS + "subPropertyOf"


@dataclass
class Inference:
    inferred: list[ox.Triple]
    asserted: int
    seconds: float
    rounds: int                                   # facts taken from the worklist
    rules: dict[str, int] = field(default_factory=dict)


class _Terms:
    """Term <-> integer id; literals are remembered so they never get a type."""

    def __init__(self) -> None:
        self.ids: dict = {}
        self.terms: list = []
        self.literal: set[int] = set()

    def id(self, term) -> int:
        i = self.ids.get(term)
        if i is None:
            i = self.ids[term] = len(self.terms)
            self.terms.append(term)
            if isinstance(term, ox.Literal):
                self.literal.add(i)
        return i


def materialise(triples: Iterable) -> Inference:
    start = time.perf_counter()
    terms = _Terms()
    tid = terms.id
    T = tid(ox.NamedNode(_TYPE))
    by_pred: dict[int, list[tuple[int, int]]] = defaultdict(list)
    n = 0
    for t in triples:
        s, p, o = (t.subject, t.predicate, t.object) if hasattr(t, "subject") else t
        by_pred[tid(p)].append((tid(s), tid(o)))
        n += 1

    def iri(name: str) -> int:
        return tid(ox.NamedNode(name))

    def pairs(name: str) -> list[tuple[int, int]]:
        return by_pred.get(iri(name), [])

    first, rest = dict(pairs(RDF + "first")), dict(pairs(RDF + "rest"))
    nil = iri(RDF + "nil")

    def members(head: int) -> list[int]:
        out, seen = [], set()
        while head != nil and head in first and head not in seen:
            seen.add(head)
            out.append(first[head])
            head = rest.get(head, nil)
        return out

    # ---- compile the schema into lookup tables
    sup: dict[int, set[int]] = defaultdict(set)             # class -> direct superclasses
    for c, d in pairs(_SUBCLASS):
        sup[c].add(d)
    for a, b in pairs(OWL + "equivalentClass"):
        sup[a].add(b)
        sup[b].add(a)
    inters: dict[int, list[int]] = {}
    for c, lst in pairs(OWL + "intersectionOf"):
        inters[c] = members(lst)
        sup[c].update(inters[c])                             # cls-int2
    for c, lst in pairs(OWL + "unionOf"):
        for m in members(lst):
            sup[m].add(c)                                    # cls-uni
    in_inter: dict[int, list[int]] = defaultdict(list)
    for c, ms in inters.items():
        for m in ms:
            in_inter[m].append(c)
    on_prop = dict(pairs(OWL + "onProperty"))
    thing = iri(OWL + "Thing")
    svf_by_prop: dict[int, list[tuple[int, int]]] = defaultdict(list)   # p -> [(restriction, filler)]
    svf_by_filler: dict[int, list[tuple[int, int]]] = defaultdict(list)  # filler -> [(p, restriction)]
    for r, filler in pairs(OWL + "someValuesFrom"):
        if r in on_prop:
            svf_by_prop[on_prop[r]].append((r, filler))
            svf_by_filler[filler].append((on_prop[r], r))
    psup: dict[int, set[int]] = defaultdict(set)
    for p, q in pairs(_SUBPROP):
        psup[p].add(q)
    for p, q in pairs(OWL + "equivalentProperty"):
        psup[p].add(q)
        psup[q].add(p)
    inv: dict[int, set[int]] = defaultdict(set)
    for p, q in pairs(OWL + "inverseOf"):
        inv[p].add(q)
        inv[q].add(p)
    dom: dict[int, set[int]] = defaultdict(set)
    for p, c in pairs(RDFS + "domain"):
        dom[p].add(c)
    rng: dict[int, set[int]] = defaultdict(set)
    for p, c in pairs(RDFS + "range"):
        rng[p].add(c)
    typed = by_pred.get(T, [])
    transitive = {s for s, o in typed if o == iri(OWL + "TransitiveProperty")}
    symmetric = {s for s, o in typed if o == iri(OWL + "SymmetricProperty")}
    indexed_in = transitive | set(svf_by_prop)               # properties whose reverse index is needed

    # ---- facts and indexes
    types: dict[int, set[int]] = defaultdict(set)
    out: dict[int, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    into: dict[int, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    asserted_types: set[tuple[int, int]] = set()
    asserted_edges: set[tuple[int, int, int]] = set()
    work: list[tuple] = []
    literal = terms.literal

    def add_type(x: int, c: int) -> None:
        tx = types[x]
        if c not in tx:
            tx.add(c)
            work.append((x, c))

    def add_edge(p: int, s: int, o: int) -> None:
        so = out[p][s]
        if o not in so:
            so.add(o)
            if p in indexed_in:
                into[p][o].add(s)
            work.append((p, s, o))

    for p, ps in by_pred.items():
        if p == T:
            for x, c in ps:
                asserted_types.add((x, c))
                add_type(x, c)
        else:
            for s, o in ps:
                asserted_edges.add((p, s, o))
                add_edge(p, s, o)

    rounds = 0
    while work:
        fact = work.pop()
        rounds += 1
        if len(fact) == 2:
            x, c = fact
            for d in sup.get(c, ()):
                add_type(x, d)
            for i in in_inter.get(c, ()):
                if all(m in types[x] for m in inters[i]):
                    add_type(x, i)
            for p, r in svf_by_filler.get(c, ()):
                for s in into[p].get(x, ()):
                    add_type(s, r)
            continue
        p, s, o = fact
        for q in psup.get(p, ()):
            add_edge(q, s, o)
        for q in inv.get(p, ()):
            if s not in literal and o not in literal:
                add_edge(q, o, s)
        if p in symmetric and o not in literal:
            add_edge(p, o, s)
        for d in dom.get(p, ()):
            add_type(s, d)
        if o not in literal:
            for r in rng.get(p, ()):
                add_type(o, r)
        if p in transitive:
            for z in list(out[p].get(o, ())):
                add_edge(p, s, z)
            for w in list(into[p].get(s, ())):
                add_edge(p, w, o)
        for r, filler in svf_by_prop.get(p, ()):
            if filler == thing or filler in types.get(o, ()):
                add_type(s, r)

    # ---- schema closure (rdfs5, rdfs11) over named terms
    def closure(graph: dict[int, set[int]]) -> Iterable[tuple[int, int]]:
        for a in list(graph):
            seen, todo = set(), list(graph[a])
            while todo:
                b = todo.pop()
                if b not in seen:
                    seen.add(b)
                    todo += graph.get(b, ())
            for b in seen - {a}:
                yield a, b

    named = lambda i: isinstance(terms.terms[i], ox.NamedNode)
    asserted_sub = set(pairs(_SUBCLASS))
    asserted_subp = set(pairs(_SUBPROP))
    inferred: list[ox.Triple] = []
    term = terms.terms
    type_node = term[T]
    for x, cs in types.items():
        for c in cs:
            if (x, c) not in asserted_types and named(c) and x not in literal:
                inferred.append(ox.Triple(term[x], type_node, term[c]))
    n_types = len(inferred)
    for p, by_s in out.items():
        pn = term[p]
        if not isinstance(pn, ox.NamedNode):
            continue
        for s, os_ in by_s.items():
            if s in literal:
                continue
            for o in os_:
                if (p, s, o) not in asserted_edges:
                    inferred.append(ox.Triple(term[s], pn, term[o]))
    n_edges = len(inferred) - n_types
    sub_node, subp_node = ox.NamedNode(_SUBCLASS), ox.NamedNode(_SUBPROP)
    for a, b in closure({c: {d for d in ds if named(d)} for c, ds in sup.items() if named(c)}):
        if (a, b) not in asserted_sub:
            inferred.append(ox.Triple(term[a], sub_node, term[b]))
    for a, b in closure({p: {q for q in qs if named(q)} for p, qs in psup.items() if named(p)}):
        if (a, b) not in asserted_subp:
            inferred.append(ox.Triple(term[a], subp_node, term[b]))
    rules = {"types": n_types, "relations": n_edges, "schema": len(inferred) - n_types - n_edges,
             "transitive_properties": len(transitive), "inverse_pairs": len(pairs(OWL + "inverseOf")),
             "some_values_from": sum(map(len, svf_by_prop.values())), "intersections": len(inters)}
    return Inference(inferred, n, time.perf_counter() - start, rounds, rules)
