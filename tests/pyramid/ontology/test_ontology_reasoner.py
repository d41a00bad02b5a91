"""Materialisation rule by rule on small hand-written ontologies (expected triples written by hand)."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from pyramid.ontology.reasoner import materialise

HEAD = """@prefix : <http://ex.org/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
"""


def infer(ttl: str) -> set[tuple[str, str, str]]:
    quads = ox.parse(HEAD + ttl, ox.RdfFormat.TURTLE)
    out = set()
    for t in materialise(quads).inferred:
        o = t.object.value if isinstance(t.object, ox.NamedNode) else repr(t.object.value)
        out.add((t.subject.value.rsplit("/", 1)[1], t.predicate.value.rsplit("/", 1)[1].split("#")[-1],
                 o.rsplit("/", 1)[-1]))
    return out


CASES = {
    "subClassOf chain (rdfs9, rdfs11)": (
        ":A rdfs:subClassOf :B . :B rdfs:subClassOf :C . :x a :A .",
        {("x", "type", "B"), ("x", "type", "C"), ("A", "subClassOf", "C")}),
    "subPropertyOf (rdfs7, rdfs5)": (
        ":p rdfs:subPropertyOf :q . :q rdfs:subPropertyOf :r . :x :p :y .",
        {("x", "q", "y"), ("x", "r", "y"), ("p", "subPropertyOf", "r")}),
    "domain and range; literals never typed (rdfs2, rdfs3)": (
        ':p rdfs:domain :D ; rdfs:range :R . :x :p :y . :name rdfs:range :R . :x :name "lit" .',
        {("x", "type", "D"), ("y", "type", "R")}),
    "inverseOf both ways (prp-inv1/2)": (
        ":p owl:inverseOf :q . :x :p :y . :u :q :v .",
        {("y", "q", "x"), ("v", "p", "u")}),
    "TransitiveProperty (prp-trp)": (
        ":p a owl:TransitiveProperty . :a :p :b . :b :p :c . :c :p :d .",
        {("a", "p", "c"), ("a", "p", "d"), ("b", "p", "d")}),
    "SymmetricProperty (prp-symp)": (
        ":p a owl:SymmetricProperty . :a :p :b .",
        {("b", "p", "a")}),
    "equivalentClass both directions (cax-eqc1/2)": (
        ":A owl:equivalentClass :B . :x a :A . :y a :B .",
        {("x", "type", "B"), ("y", "type", "A"), ("A", "subClassOf", "B"), ("B", "subClassOf", "A")}),
    "equivalentProperty (prp-eqp1/2)": (
        ":p owl:equivalentProperty :q . :x :p :y .",
        {("x", "q", "y"), ("p", "subPropertyOf", "q"), ("q", "subPropertyOf", "p")}),
    "intersectionOf + someValuesFrom (cls-int1, cls-svf1) like LUBM's Chair": (
        (":Chair owl:intersectionOf ( :Person [ a owl:Restriction ; owl:onProperty :headOf ; owl:someValuesFrom :Dept ] ) ."
         " :x a :Person ; :headOf :d . :d a :Dept . :y a :Person ; :headOf :e ."),
        {("x", "type", "Chair"), ("Chair", "subClassOf", "Person")}),
    "intersection members of a member (cls-int2)": (
        ":C owl:intersectionOf ( :A :B ) . :x a :C .",
        {("x", "type", "A"), ("x", "type", "B"), ("C", "subClassOf", "A"), ("C", "subClassOf", "B")}),
    "someValuesFrom owl:Thing (cls-svf2) through an equivalence": (
        (":Parent owl:equivalentClass [ a owl:Restriction ; owl:onProperty :hasChild ; owl:someValuesFrom owl:Thing ] ."
         " :x :hasChild :y ."),
        {("x", "type", "Parent")}),
    "unionOf members are subclasses (cls-uni)": (
        ":U owl:unionOf ( :A :B ) . :x a :A .",
        {("x", "type", "U"), ("A", "subClassOf", "U"), ("B", "subClassOf", "U")}),
    "rules feed each other: subproperty → inverse → domain → subclass": (
        (":headOf rdfs:subPropertyOf :worksFor . :worksFor owl:inverseOf :employs . :employs rdfs:domain :Org ."
         " :Org rdfs:subClassOf :Agent . :x :headOf :d ."),
        {("x", "worksFor", "d"), ("d", "employs", "x"), ("d", "type", "Org"), ("d", "type", "Agent")}),
}


@pytest.mark.parametrize("name", CASES)
def test_rule(name):
    ttl, expected = CASES[name]
    assert infer(ttl) == expected


def test_nothing_asserted_is_repeated_and_fixpoint_is_stable():
    ttl = ":A rdfs:subClassOf :B . :x a :A . :x a :B ."
    assert infer(ttl) == set()  # (x a B) is asserted, not inferred
    quads = list(ox.parse(HEAD + ":p a owl:TransitiveProperty . :a :p :b . :b :p :c .", ox.RdfFormat.TURTLE))
    first = materialise(quads).inferred
    again = materialise([*quads, *(ox.Quad(t.subject, t.predicate, t.object) for t in first)]).inferred
    assert again == []  # the closure is closed
