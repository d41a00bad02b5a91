"""Schema loading (every syntax), round-trips, lookups, validation and readable parse errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT

from pyramid.errors import InputError
from pyramid.ontology.schema import Schema, humanise

UB = "http://swat.cse.lehigh.edu/onto/univ-bench.owl#"
EX = "http://example.org/"

SMALL_TTL = """@prefix : <http://ex.org/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
:Person a owl:Class .
:Teacher a owl:Class ; rdfs:subClassOf :Person ; rdfs:label "teacher"@en, "enseignant"@fr .
:has_research_interest a owl:DatatypeProperty ; rdfs:domain :Person ; rdfs:range xsd:string .
:teaches a owl:ObjectProperty ; rdfs:domain :Teacher ; rdfs:range :Person ; rdfs:comment "who is taught" .
"""


@pytest.fixture(scope="module")
def univ_bench(shared_data) -> Schema:
    return Schema.load(shared_data / "lubm" / "univ-bench.owl")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_univ_bench_rdfxml_counts_match_the_data_readme(univ_bench):
    # ../shared/data/README.md: 43 classes, 25 object and 7 datatype properties
    kinds = [p.kind for p in univ_bench.properties.values()]
    assert len(univ_bench.classes) == 43
    assert kinds.count("object") == 25 and kinds.count("datatype") == 7
    assert univ_bench.namespace == UB


def test_univ_bench_structure(univ_bench):
    assert set(univ_bench.superclasses(UB + "Chair")) >= {UB + "Person", UB + "Professor", UB + "Faculty"}
    assert UB + "FullProfessor" in univ_bench.subclasses(UB + "Professor")
    sub_org = univ_bench.properties[UB + "subOrganizationOf"]
    assert sub_org.transitive and sub_org.kind == "object"
    assert UB + "degreeFrom" in univ_bench.properties[UB + "hasAlumnus"].inverse_of
    assert UB + "hasAlumnus" in univ_bench.properties[UB + "degreeFrom"].inverse_of  # recorded both ways
    assert UB + "worksFor" in univ_bench.superproperties(UB + "headOf")
    assert univ_bench.label(UB + "takesCourse") == "is taking"  # its rdfs:label


def test_labels_prefer_english_and_fall_back_to_the_local_name(tmp_path):
    s = Schema.load(write(tmp_path, "s.ttl", SMALL_TTL))
    assert s.label("http://ex.org/Teacher") == "teacher"
    assert s.label("http://ex.org/has_research_interest") == "has research interest"
    assert s.comment("http://ex.org/teaches") == "who is taught"
    assert humanise("takesCourse") == "takes course" and humanise("STAFF") == "staff"
    assert humanise("GraduateStudent") == "graduate student"


def test_properties_of_inherits_from_superclasses(tmp_path):
    s = Schema.load(write(tmp_path, "s.ttl", SMALL_TTL))
    names = {p.iri.rsplit("/", 1)[1] for p in s.properties_of("http://ex.org/Teacher")}
    assert names == {"teaches", "has_research_interest"}
    assert {p.iri.rsplit("/", 1)[1] for p in s.properties_of("http://ex.org/Person")} == {"has_research_interest"}


def test_nearest_and_resolve_tolerate_typos_and_case(univ_bench):
    assert univ_bench.nearest("takescourses", "property", 1) == [UB + "takesCourse"]
    assert univ_bench.nearest("profesor", "class", 1) == [UB + "Professor"]
    assert univ_bench.resolve("ub:Professor".replace("ub:", "")) == UB + "Professor"
    assert univ_bench.resolve(UB + "Course", "class") == UB + "Course"
    assert univ_bench.resolve("nonsense", "class") is None


@pytest.mark.parametrize("ext", ["ttl", "nt", "owl", "rdf", "jsonld"])
def test_round_trip_every_syntax(univ_bench, tmp_path, ext):
    path = tmp_path / f"copy.{ext}"
    univ_bench.save(path)
    again = Schema.load(path)
    assert again == univ_bench  # triples equal up to blank-node names (restrictions are blank nodes)
    assert again.classes == univ_bench.classes and again.properties == univ_bench.properties


def test_shipped_schemas_load_and_validate_clean():
    for name in ("academic.ttl", "finance.ttl"):
        s = Schema.load(ROOT / "ontology_schemas" / name)
        assert s.validate() == [], name
        assert all(s.properties[p].domains and s.properties[p].ranges for p in s.properties), name
        assert all(s.label(c) for c in s.classes)


def test_academic_schema_covers_the_polyu_vocabulary(shared_data):
    academic = Schema.load(ROOT / "ontology_schemas" / "academic.ttl")
    polyu_terms = [l.split()[0].removeprefix("base:") for l in
                   (shared_data / "polyu" / "polyu_onto.ttl").read_text(encoding="utf-8").splitlines()
                   if " a owl:" in l and l.startswith("base:")]
    assert len(polyu_terms) == 21  # 4 classes, 3 object + 14 datatype properties
    for term in polyu_terms:
        assert EX + term in academic.classes or EX + term in academic.properties, term


def test_validate_finds_dangling_terms_cycles_and_missing_domains(tmp_path):
    bad = write(tmp_path, "bad.ttl", """@prefix : <http://ex.org/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
:A a owl:Class ; rdfs:subClassOf :B .
:B a owl:Class ; rdfs:subClassOf :A .
:Person a owl:Class .
:p a owl:ObjectProperty ; rdfs:domain :Persn ; rdfs:range :A .
:q a owl:DatatypeProperty ; rdfs:range :A .
:r a owl:ObjectProperty ; rdfs:domain :A ; rdfs:range xsd:string ; rdfs:subPropertyOf :missing .
""")
    problems = Schema.load(bad).validate()
    text = "\n".join(problems)
    assert "Persn" in text and "nearest: Person" in text
    assert "subclass cycle" in text
    assert "property q has no domain" in text
    assert "datatype property q has the class A as range" in text
    assert "object property r has the datatype xsd:string as range" in text
    assert "property missing (related to r) is not declared" in text


def test_ntriples_and_jsonld_inputs(tmp_path):
    nt = write(tmp_path, "s.nt", '<http://ex.org/C> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> '
                                 '<http://www.w3.org/2002/07/owl#Class> .\n')
    js = write(tmp_path, "s.jsonld", '{"@id": "http://ex.org/C", "@type": "http://www.w3.org/2002/07/owl#Class",'
                                     ' "http://www.w3.org/2000/01/rdf-schema#label": "see"}')
    assert list(Schema.load(nt).classes) == ["http://ex.org/C"]
    assert Schema.load(js).label("http://ex.org/C") == "see"


def test_invalid_turtle_names_line_and_column(tmp_path):
    path = write(tmp_path, "bad.ttl", '@prefix ex: <http://e/> .\nex:a ex:b ex:c .\nex:a ex:b "open\n')
    with pytest.raises(InputError) as err:
        Schema.load(path)
    msg = str(err.value)
    assert err.value.line == 3 and "line 3" in msg and "column 11" in msg and str(path) in msg


def test_unknown_prefix_in_turtle_is_named(tmp_path):
    path = write(tmp_path, "bad.ttl", "@prefix ex: <http://e/> .\nex:a foo:b ex:c .\n")
    with pytest.raises(InputError, match=r"line 2: .*column 6: unknown prefix 'foo:'"):
        Schema.load(path)


def test_invalid_rdfxml_has_line_and_column(tmp_path):
    path = write(tmp_path, "bad.owl", '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/'
                 '02/22-rdf-syntax-ns#">\n<rdf:Description rdf:about="http://a">\n</rdf:Descriptio>\n</rdf:RDF>\n')
    with pytest.raises(InputError) as err:
        Schema.load(path)
    assert err.value.line == 4 and "column" in str(err.value)


def test_unknown_prefix_in_rdfxml_is_named(tmp_path):
    path = write(tmp_path, "bad.rdf", '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/'
                 '02/22-rdf-syntax-ns#">\n<rdf:Description rdf:about="http://a">\n  <foo:bar/>\n'
                 '</rdf:Description>\n</rdf:RDF>\n')
    with pytest.raises(InputError) as err:
        Schema.load(path)
    assert "unknown prefix 'foo:'" in str(err.value) and err.value.line == 4


def test_missing_and_empty_files(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        Schema.load(tmp_path / "nope.ttl")
    with pytest.raises(InputError, match="empty"):
        Schema.load(write(tmp_path, "empty.ttl", "  \n"))


DEFINED_TTL = """@prefix : <http://kiln.example/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:Person a owl:Class .
:Kiln a owl:Class .
:WoodKiln a owl:Class ; rdfs:subClassOf :Kiln .
:fires a owl:ObjectProperty .
:Potter a owl:Class ; owl:intersectionOf ( :Person [ a owl:Restriction ; owl:onProperty :fires ;
                                                     owl:someValuesFrom :Kiln ] ) .
:Stoker a owl:Class ; rdfs:subClassOf :Person ,
    [ a owl:Restriction ; owl:onProperty :fires ; owl:someValuesFrom :WoodKiln ] .
:Visitor a owl:Class ; rdfs:subClassOf :Person ,
    [ a owl:Restriction ; owl:onProperty :fires ; owl:allValuesFrom :Kiln ] .
:Bench a owl:Class ; rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :fires ; owl:someValuesFrom :Kiln ] .
"""


def test_a_class_a_definition_covers_by_its_restrictions_is_under_the_defined_class(tmp_path):
    """Potter ≡ Person ⊓ ∃fires.Kiln: a stoker, a person who fires some wood kiln, is a potter, though the schema
    never says so; "only kilns" (allValuesFrom) says nothing of firing any, and a bench is no person."""
    s = Schema.load(write(tmp_path, "kiln.ttl", DEFINED_TTL))
    ex = "http://kiln.example/"
    assert ex + "Potter" in s.superclasses(ex + "Stoker")
    assert ex + "Potter" not in s.superclasses(ex + "Visitor")
    assert ex + "Potter" not in s.superclasses(ex + "Bench")
    assert ex + "Potter" not in s.superclasses(ex + "Potter")
