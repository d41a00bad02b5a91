"""Forward-chaining materialisation: RDFS plus the OWL RL subset LUBM needs, to a fixpoint, in memory.

    result = materialise(triples)         # every asserted triple: schema, imports, documents
    result.text -> rdfio.NTriples         # entailed triples not asserted (named classes only), as text
    result.inferred -> list[ox.Triple]    # the same as pyoxigraph triples
    result.seconds, result.rounds (facts processed), result.rules (what the schema contributed)

`triples`: an `rdfio.NTriples` (the store's `ntriples()`: what the layer passes), pyoxigraph
triples or quads, or (s, p, o) tuples of pyoxigraph terms or of N-Triples term strings.

Rules (names from the OWL 2 RL rule tables):
  RDFS   rdfs2/3 domain and range, rdfs5/7 subPropertyOf, rdfs9/11 subClassOf (both also transitive
         over the schema itself: the inferred graph holds the closed hierarchy)
  OWL RL prp-inv1/2 inverseOf, prp-symp SymmetricProperty, prp-trp TransitiveProperty,
         prp-eqp1/2 and cax-eqc1/2 equivalentProperty/equivalentClass, cls-int1/2 intersectionOf,
         cls-svf1/2 someValuesFrom (incl. owl:Thing), cls-uni unionOf
Not covered (say so rather than pretend): sameAs, allValuesFrom, hasValue, cardinalities, property
chains, disjointness checks. Types of anonymous classes (restrictions) are used during reasoning
but not written out.

Why in memory: every new fact is pushed through the rules that can use it (a worklist, so each fact
is joined once — semi-naive evaluation), with the schema compiled into dictionaries first. Terms are
their N-Triples text (`<iri>`, `_:b`, `"lit"…`), so a store's dump is read with one `str.split` a line
and the result is written back as text that Oxigraph loads in Rust: no Python object per term on
either side. Measured by `polyrag bench lubm` (reports/lubm.md, reports/lubm-10.md), on the same data:
the same rules as SPARQL INSERTs iterated to a fixpoint in Oxigraph (benchmarks/lubm/sparql_rules.py)
reach the same 14 answer sets several times slower in memory and over ten times slower on disk, where
every INSERT is a transaction; the Rust OWL 2 RL reasoner `reasonable` 0.4.4 (all of OWL 2 RL) reaches
them too, but its own parse and `reason()` take about 4x this fixpoint's CPU on LUBM(1) (it hands its
closure back as rdflib terms), so it is measured beside ours, not used.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

import pyoxigraph as ox

from pyramid.ontology.rdfio import OWL, RDF, RDFS, NTriples

_TYPE, _SUBCLASS, _SUBPROP = RDF + "type", RDFS + "subClassOf", RDFS + "subPropertyOf"


@dataclass
class Inference:
    text: NTriples
    asserted: int
    seconds: float
    rounds: int                                   # facts taken from the worklist
    rules: dict[str, int] = field(default_factory=dict)

    @property
    def inferred(self) -> list[ox.Triple]:
        return self.text.triples()


def _as_text(triples: Iterable) -> Iterable:
    """(s, p, o) N-Triples term strings from any of the accepted forms."""
    if isinstance(triples, NTriples):
        return triples
    return ((s, p, o) if isinstance(s, str) else (str(s), str(p), str(o))
            for s, p, o in ((t.subject, t.predicate, t.object) if hasattr(t, "subject") else t for t in triples))


def _named(term: str) -> bool:
    return term[0] == "<" and term[1] != "<"  # an IRI, not a triple term <<( … )>>


@dataclass
class _Rules:
    """The schema compiled into lookup tables: what each fact of the fixpoint is joined with."""

    sup: dict[str, set[str]]                    # class -> direct superclasses (and equivalents)
    inters: dict[str, list[str]]                # class -> the classes it is the intersection of
    in_inter: dict[str, list[str]]              # class -> the intersections it is a member of
    svf_by_prop: dict[str, list[tuple[str, str]]]    # p -> [(someValuesFrom restriction, filler)]
    svf_by_filler: dict[str, list[tuple[str, str]]]  # filler -> [(p, restriction)]
    psup: dict[str, set[str]]                   # property -> superproperties (and equivalents)
    inv: dict[str, set[str]]                    # property -> inverses
    dom: dict[str, set[str]]
    rng: dict[str, set[str]]
    transitive: set[str]
    symmetric: set[str]
    indexed_in: set[str]                        # properties whose reverse index is needed
    used: set[str]                              # properties some rule reads or writes
    thing: str


def _list_members(first: dict[str, str], rest: dict[str, str], nil: str, head: str) -> list[str]:
    out, seen = [], set()
    while head != nil and head in first and head not in seen:
        seen.add(head)
        out.append(first[head])
        head = rest.get(head, nil)
    return out


def _iri(name: str) -> str:
    return f"<{name}>"


def _compile(by_pred: dict[str, list[tuple[str, str]]]) -> _Rules:
    def pairs(name: str) -> list[tuple[str, str]]:
        return by_pred.get(_iri(name), [])

    first, rest, nil = dict(pairs(RDF + "first")), dict(pairs(RDF + "rest")), _iri(RDF + "nil")
    sup: dict[str, set[str]] = defaultdict(set)
    for c, d in pairs(_SUBCLASS):
        sup[c].add(d)
    for a, b in pairs(OWL + "equivalentClass"):
        sup[a].add(b)
        sup[b].add(a)
    inters: dict[str, list[str]] = {}
    for c, lst in pairs(OWL + "intersectionOf"):
        inters[c] = _list_members(first, rest, nil, lst)
        sup[c].update(inters[c])                             # cls-int2
    for c, lst in pairs(OWL + "unionOf"):
        for m in _list_members(first, rest, nil, lst):
            sup[m].add(c)                                    # cls-uni
    in_inter: dict[str, list[str]] = defaultdict(list)
    for c, ms in inters.items():
        for m in ms:
            in_inter[m].append(c)
    on_prop = dict(pairs(OWL + "onProperty"))
    svf_by_prop: dict[str, list[tuple[str, str]]] = defaultdict(list)
    svf_by_filler: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for r, filler in pairs(OWL + "someValuesFrom"):
        if r in on_prop:
            svf_by_prop[on_prop[r]].append((r, filler))
            svf_by_filler[filler].append((on_prop[r], r))
    psup: dict[str, set[str]] = defaultdict(set)
    for p, q in pairs(_SUBPROP):
        psup[p].add(q)
    for p, q in pairs(OWL + "equivalentProperty"):
        psup[p].add(q)
        psup[q].add(p)
    inv: dict[str, set[str]] = defaultdict(set)
    for p, q in pairs(OWL + "inverseOf"):
        inv[p].add(q)
        inv[q].add(p)
    dom: dict[str, set[str]] = defaultdict(set)
    for p, c in pairs(RDFS + "domain"):
        dom[p].add(c)
    rng: dict[str, set[str]] = defaultdict(set)
    for p, c in pairs(RDFS + "range"):
        rng[p].add(c)
    typed = by_pred.get(_iri(_TYPE), [])
    transitive = {s for s, o in typed if o == _iri(OWL + "TransitiveProperty")}
    symmetric = {s for s, o in typed if o == _iri(OWL + "SymmetricProperty")}
    indexed_in = transitive | set(svf_by_prop)
    # a property no rule reads (as a premise) nor writes (as a conclusion) — names, e-mail addresses —
    # never joins anything: its asserted triples are neither indexed nor pushed through the rules
    used = (set(psup) | set(inv) | symmetric | set(dom) | set(rng) | indexed_in
            | {q for qs in psup.values() for q in qs} | {q for qs in inv.values() for q in qs})
    return _Rules(sup, inters, in_inter, svf_by_prop, svf_by_filler, psup, inv, dom, rng, transitive, symmetric,
                  indexed_in, used, _iri(OWL + "Thing"))


class _Fixpoint:
    """The facts, their indexes and the worklist. Every asserted fact goes in (`assert_all`) before
    the fixpoint starts, so a fact `run` adds is new: it is recorded as inferred then, with no set of
    the asserted ones to check."""

    def __init__(self, rules: _Rules, literal: set[str]) -> None:
        self.rules, self.literal = rules, literal
        self.types: dict[str, set[str]] = defaultdict(set)
        self.out: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self.into: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self.work: list[tuple] = []
        self.new_types: list[tuple[str, str]] = []
        self.new_edges: list[tuple[str, str, str]] = []

    def assert_all(self, by_pred: dict[str, list[tuple[str, str]]], type_node: str) -> None:
        types, work, used, indexed_in = self.types, self.work, self.rules.used, self.rules.indexed_in
        for p, ps in by_pred.items():
            if p == type_node:
                for x, c in ps:
                    tx = types[x]
                    if c not in tx:
                        tx.add(c)
                        work.append((x, c))
                continue
            if p not in used:
                continue
            out_p, into_p = self.out[p], (self.into[p] if p in indexed_in else None)
            for s, o in ps:
                so = out_p[s]
                if o not in so:
                    so.add(o)
                    if into_p is not None:
                        into_p[o].add(s)
                    work.append((p, s, o))

    def run(self) -> int:
        """Push every fact through the rules that can use it; returns the facts processed. The hot
        loop reads locals only (attribute lookups would cost it a third more)."""
        R, types, out, into, work, literal = self.rules, self.types, self.out, self.into, self.work, self.literal
        new_types, new_edges, indexed_in = self.new_types, self.new_edges, R.indexed_in
        sup, in_inter, inters, svf_by_filler, svf_by_prop = R.sup, R.in_inter, R.inters, R.svf_by_filler, R.svf_by_prop
        psup, inv, symmetric, dom, rng, transitive, thing = R.psup, R.inv, R.symmetric, R.dom, R.rng, R.transitive, R.thing

        def add_type(x: str, c: str) -> None:
            tx = types[x]
            if c not in tx:
                tx.add(c)
                work.append((x, c))
                new_types.append((x, c))

        def add_edge(p: str, s: str, o: str) -> None:
            so = out[p][s]
            if o not in so:
                so.add(o)
                if p in indexed_in:
                    into[p][o].add(s)
                work.append((p, s, o))
                new_edges.append((p, s, o))

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
        return rounds


def _closure(graph: dict[str, set[str]]) -> Iterable[tuple[str, str]]:
    """Every (a, b) with b reachable from a (schema closure, rdfs5 and rdfs11, over named terms)."""
    for a in list(graph):
        seen, todo = set(), list(graph[a])
        while todo:
            b = todo.pop()
            if b not in seen:
                seen.add(b)
                todo += graph.get(b, ())
        for b in seen - {a}:
            yield a, b


def materialise(triples: Iterable) -> Inference:
    start = time.perf_counter()
    # Terms are their N-Triples text: Python caches a string's hash, so sets and dicts of terms cost
    # what sets of interned integers would, without the interning pass.
    T = _iri(_TYPE)
    by_pred: dict[str, list[tuple[str, str]]] = defaultdict(list)
    n = 0
    for s, p, o in _as_text(triples):
        by_pred[p].append((s, o))
        n += 1
    literal = {o for ps in by_pred.values() for _, o in ps if o[0] == '"'}
    rules = _compile(by_pred)
    fix = _Fixpoint(rules, literal)
    fix.assert_all(by_pred, T)
    rounds = fix.run()
    types = fix.types
    inferred = [f"{x} {T} {c}" for x, c in fix.new_types if _named(c) and x not in literal]
    n_types = len(inferred)
    # (an rdf:type reached as an edge, through a sub-property of rdf:type, is left to the types: it may
    # be asserted, and the inferred graph holds nothing asserted — the query process relies on that)
    inferred += [f"{s} {p} {o}" for p, s, o in fix.new_edges
                 if _named(p) and s not in literal and not (p == T and o in types.get(s, ()))]
    n_edges = len(inferred) - n_types
    asserted_sub = set(by_pred.get(_iri(_SUBCLASS), []))
    asserted_subp = set(by_pred.get(_iri(_SUBPROP), []))
    sub_node, subp_node = _iri(_SUBCLASS), _iri(_SUBPROP)
    for a, b in _closure({c: {d for d in ds if _named(d)} for c, ds in rules.sup.items() if _named(c)}):
        if (a, b) not in asserted_sub:
            inferred.append(f"{a} {sub_node} {b}")
    for a, b in _closure({p: {q for q in qs if _named(q)} for p, qs in rules.psup.items() if _named(p)}):
        if (a, b) not in asserted_subp:
            inferred.append(f"{a} {subp_node} {b}")
    summary = {"types": n_types, "relations": n_edges, "schema": len(inferred) - n_types - n_edges,
               "transitive_properties": len(rules.transitive),
               "inverse_pairs": len(by_pred.get(_iri(OWL + "inverseOf"), [])),
               "some_values_from": sum(map(len, rules.svf_by_prop.values())), "intersections": len(rules.inters)}
    return Inference(NTriples(list(dict.fromkeys(inferred))), n, time.perf_counter() - start, rounds, summary)
