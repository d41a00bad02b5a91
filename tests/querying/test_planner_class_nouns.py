"""A class noun said as a relation ("the director of X"): the property declared with that class at its
end is what the noun means; one that reaches the class only through a wider class (a cast of persons,
some of whom direct elsewhere) is the weaker reading. A theatre of our own; gold read by eye from the
Turtle below; no model call."""

from __future__ import annotations

import pytest

from querying.ontology_qa import answer_ontology
from tests.querying.test_ontology_qa import own_ontology, session

THEATRE = """@prefix : <http://example.org/theatre/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
:Play a owl:Class ; rdfs:label "stage play" .
:Person a owl:Class ; rdfs:label "person" .
:Director a owl:Class ; rdfs:subClassOf :Person ; rdfs:label "stage director" .
:stagedBy a owl:ObjectProperty ; rdfs:domain :Play ; rdfs:range :Director ; rdfs:label "is staged by" .
:castMember a owl:ObjectProperty ; rdfs:domain :Play ; rdfs:range :Person ; rdfs:label "has in its cast" .
:yearBorn a owl:DatatypeProperty ; rdfs:domain :Person ; rdfs:range xsd:gYear ; rdfs:label "year of birth" .
:salt a :Play ; rdfs:label "Salt Harbour" ; :stagedBy :ola ; :castMember :pia, :rob .
:ola a :Director ; rdfs:label "Ola Brandt" ; :yearBorn "1950" .
:pia a :Director ; rdfs:label "Pia Lund" ; :yearBorn "1961" .
:rob a :Person ; rdfs:label "Rob Tane" ; :yearBorn "1977" .
"""


@pytest.fixture(scope="module")
def theatre(tmp_path_factory, embedder):
    ws = own_ontology(tmp_path_factory.mktemp("theatre"), "theatre", THEATRE)
    s = session(ws, embedder)
    s.ontology.reason()
    return s


@pytest.mark.parametrize("question", ["The director of Salt Harbour was born in what year?",
                                      "In what year was the director of Salt Harbour born?"])
def test_the_director_of_a_play_is_who_stages_it_not_a_director_in_its_cast(theatre, question):
    ans = answer_ontology(theatre, question)
    assert ans.usage.calls == 0
    assert ans.layer == "ontology" and "1950" in ans.text and "1961" not in ans.text, (ans.text, ans.trace[1].input)
