"""f_ins instance extraction (pyramid/ontology/extract.py). The LLM is the scripted one (canned
replies keyed by prompt text) for control flow; the embedder (MiniLM), the Oxigraph store and the
ontology layer are real."""

from __future__ import annotations

import pytest
from conftest import ROOT

from pyramid.config import load_settings
from pyramid.corpus import Document
from pyramid.corpus_store import CorpusStore
from pyramid.llm.scripted import ScriptedProvider, Seq
from pyramid.ontology.extract import extract_instances
from pyramid.ontology.extractors.chunk import FactExtractor, instances_schema, pairs_of
from pyramid.session import Session
from pyramid.vocab import Vocab
from pyramid.workspace import Workspace

EX = "http://example.org/"
SCHEMA = f"""@prefix ex: <{EX}> . @prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:STAFF a owl:Class . ex:DEPARTMENT a owl:Class . ex:COURSE a owl:Class .
ex:works_for a owl:ObjectProperty ; rdfs:domain ex:STAFF ; rdfs:range ex:DEPARTMENT .
ex:has_research_interest a owl:DatatypeProperty ; rdfs:domain ex:STAFF .
ex:has_position a owl:DatatypeProperty ; rdfs:domain ex:STAFF .
ex:offered_by a owl:ObjectProperty ; rdfs:domain ex:COURSE ; rdfs:range ex:DEPARTMENT .
ex:has_subject_title a owl:DatatypeProperty ; rdfs:domain ex:COURSE .
ex:has_credit_value a owl:DatatypeProperty ; rdfs:domain ex:COURSE .
"""
INSTANCES = f"""@prefix ex: <{EX}> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:COMP a ex:DEPARTMENT ; rdfs:label "Department of Computing" .
ex:s1 a ex:STAFF ; rdfs:label "Alice CHEN" .
"""
DOCS = [Document("d1", "Dr. Alice Chen is an Associate Professor in the Department of Computing. Her research "
                       "interests include knowledge graphs and question answering. Dr Bob Lam also works for the "
                       "Department of Computing."),
        Document("d2", "The subject COMP1001 Introduction to Programming carries 3 credits and is offered by "
                       "the Department of Computing.")]
STAFF_REPLY = {"instances": [
    {"class": "STAFF", "name": "Dr. Alice Chen", "facts": [
        {"property": "has_research_interest", "value": "knowledge graphs"},
        {"property": "works_for", "value": "Department of Computing"}]},
    {"class": "STAFF", "name": "Bob Lam", "facts": [{"property": "works_for", "value": "Department of Computing"}]},
    {"class": "STAFF", "name": "Carol Invented", "facts": [{"property": "has_research_interest",
                                                            "value": "robotics"}]}]}
COURSE_REPLY = {"instances": [{"class": "COURSE", "name": "COMP1001", "facts": [
    {"property": "has_subject_title", "value": "Introduction to Programming"},
    {"property": "offered_by", "value": "Department of Computing"}]}]}


@pytest.fixture
def onto_ws(tmp_path, embedder) -> Workspace:
    ws = Workspace.init(tmp_path / "ws")
    (tmp_path / "schema.ttl").write_text(SCHEMA, encoding="utf-8")
    (tmp_path / "people.ttl").write_text(INSTANCES, encoding="utf-8")
    s = Session(ws, embedder=embedder)
    s.ontology.load_schema(tmp_path / "schema.ttl")
    s.ontology.import_instances(tmp_path / "people.ttl")
    with ws.writing("test"):
        CorpusStore(ws).update(DOCS)
    return ws


def session(ws: Workspace, embedder, rules) -> Session:
    # the paper's one call per chunk (the grounded default is tested in tests/pyramid/kg/test_kg_extractors.py)
    settings = load_settings(ws.root / "polyrag.toml", llm={"cache": False},
                             ontology={"extract_pairs": 3, "extract_method": "chunk"})
    return Session(Workspace(ws.root, settings), provider=ScriptedProvider(rules), embedder=embedder)


def run(s: Session):
    return extract_instances(s.ws, s.ontology, s.llm, s.embedder, select=s.ontology.select_trusted)


def rows(s: Session, query: str) -> set[tuple]:
    return {tuple(r.values()) for r in s.ontology.store.run_trusted(query).rows}


def test_pairs_and_reply_schema_come_from_the_ontology():
    vocab = Vocab.from_terms([(EX + "STAFF", "class", "", "", (), ()), (EX + "COURSE", "class", "", "", (), ()),
                              (EX + "has_position", "datatype", "", "", (EX + "STAFF",), ())])
    pairs = pairs_of(vocab)
    assert [(p.cls.name, p.prop.name, p.phrase) for p in pairs] == [("STAFF", "has_position", "staff has position")]
    schema = instances_schema(pairs)["properties"]["instances"]["items"]["properties"]
    assert schema["class"]["enum"] == ["STAFF"]
    assert schema["facts"]["items"]["properties"]["property"]["enum"] == ["has_position"]


def test_one_call_per_chunk_with_preselected_pairs_linking_and_resume(onto_ws, embedder):
    # d2's replies are not JSON on every attempt (1 + 2 retries): its chunk fails, the build goes on
    s = session(onto_ws, embedder, {"Alice Chen is an": STAFF_REPLY, "COMP1001 Introduction": Seq("oops", "{", "[]")})
    r = run(s)
    prompts = [m[-1]["content"] for m in s.llm.provider.calls]
    assert len([p for p in prompts if "Alice Chen is an" in p]) == 1       # one call for the chunk, all pairs
    staff_prompt = next(p for p in prompts if "Alice Chen is an" in p)
    asked = {line[2:].split(":")[0] for line in staff_prompt.splitlines() if line.startswith("- ")}
    assert len(asked) == 3 and {"STAFF.works_for", "STAFF.has_research_interest"} <= asked
    assert "COURSE.has_credit_value" not in asked
    assert (r.documents, r.chunks_extracted, r.failed_chunks, r.documents_pending) == (1, 1, ["d2#0"], 1)
    assert r.dropped == 1                                  # "Carol Invented" is not in the chunk
    assert r.linked == 1 and r.minted == 1                 # Alice → ex:s1; Bob Lam is new
    graphs = s.ontology.store.graphs()
    assert "doc:d1" in graphs and "doc:d2" not in graphs   # provenance: one named graph per document
    assert rows(s, f"SELECT ?v WHERE {{ <{EX}s1> <{EX}has_research_interest> ?v }}") == {("knowledge graphs",)}
    assert rows(s, f"SELECT ?d WHERE {{ <{EX}s1> <{EX}works_for> ?d }}") == {(EX + "COMP",)}  # linked, not minted
    bob = rows(s, f"""SELECT ?b ?d WHERE {{ ?b a <{EX}STAFF> ; <http://www.w3.org/2000/01/rdf-schema#label> "Bob Lam" ;
                                          <{EX}works_for> ?d }}""")
    assert len(bob) == 1 and next(iter(bob))[1] == EX + "COMP" and next(iter(bob))[0].startswith(EX + "staff_bob_lam")

    # the next run retries only the failed chunk
    s2 = session(onto_ws, embedder, {"COMP1001 Introduction": COURSE_REPLY})
    r2 = run(s2)
    assert len(s2.llm.provider.calls) == 1 and r2.chunks_resumed == 0 and r2.documents == 1 and not r2.failed_chunks
    course_prompt = s2.llm.provider.calls[0][-1]["content"]
    assert {line[2:].split(":")[0] for line in course_prompt.splitlines() if line.startswith("- ")} == \
        {"COURSE.has_subject_title", "COURSE.offered_by", "COURSE.has_credit_value"}
    assert "doc:d2" in s2.ontology.store.graphs()
    course = rows(s2, f"""SELECT ?t ?d WHERE {{ ?c a <{EX}COURSE> ; <{EX}has_subject_title> ?t ; <{EX}offered_by> ?d }}""")
    assert course == {("Introduction to Programming", EX + "COMP")}
    # and a third run has nothing left to do
    s3 = session(onto_ws, embedder, {})
    assert run(s3).chunks == 0 and s3.llm.provider.calls == []


def test_pair_preselection_offers_each_property_once_with_the_class_the_text_names(embedder, tmp_path):
    """On the shipped academic schema (151 pairs, STAFF with 7 subclasses) the six pairs asked for
    are six different properties; works_for is among them for a sentence that says 'works for'."""

    from pyramid.ontology.schema import Schema

    root = ROOT
    vocab = Vocab.from_schema(Schema.load(root / "ontology_schemas" / "academic.ttl"))
    extractor = FactExtractor(None, embedder, vocab, None, pairs_per_chunk=6)
    text = ("Dr Alice Wong works for the School of Design. Her research interest is sustainable product design "
            "for ageing communities.")
    chosen = [(p.cls.name, p.prop.name) for p in extractor.select_pairs(text)]
    props = [prop for _, prop in chosen]
    assert len(props) == 6 and len(set(props)) == 6
    assert ("STAFF", "works_for") in chosen and ("STAFF", "has_research_interest") in chosen  # no rank named
    ranked = extractor.select_pairs("Dr Alice Wong is an associate professor. She works for the School of Design.")
    assert ("AssociateProfessor", "works_for") in [(p.cls.name, p.prop.name) for p in ranked]
    course = extractor.select_pairs("The subject COMP1001 Introduction to Programming is offered by the "
                                    "Department of Computing.")
    assert "offered_by" in [p.prop.name for p in course]


def test_documents_removed_from_the_corpus_lose_their_instances(onto_ws, embedder):
    s = session(onto_ws, embedder, {"Alice Chen is an": STAFF_REPLY, "COMP1001 Introduction": COURSE_REPLY})
    run(s)
    # a graph written by someone else (completion's accepted instances) must survive the pruning
    s.ontology.add_instances("completion:P0001", [(EX + "s1", EX + "has_position", "Professor")])
    s.ontology.reason()
    course = rows(s, f"SELECT ?c WHERE {{ ?c <{EX}has_subject_title> ?t }}")
    assert len(course) == 1
    course_iri = next(iter(course))[0]
    with onto_ws.writing("test"):
        CorpusStore(onto_ws).update([], remove=["d2"])

    s2 = session(onto_ws, embedder, {})  # nothing to extract: any LLM call would raise
    r = run(s2)
    graphs = s2.ontology.store.graphs()
    assert r.removed == 1 and s2.llm.provider.calls == []
    assert "doc:d2" not in graphs and "doc:d1" in graphs and "doc:completion:P0001" in graphs
    assert rows(s2, f"SELECT ?p ?o WHERE {{ <{course_iri}> ?p ?o }}") == set()  # inferred triples gone too
    assert s2.ontology.inferred_state() == "fresh"

    # the document comes back: its graph is written again (its state was dropped with it), from the
    # chunk journal, so without a new LLM call
    with onto_ws.writing("test"):
        CorpusStore(onto_ws).update([DOCS[1]])
    s3 = session(onto_ws, embedder, {})
    r3 = run(s3)
    assert (r3.documents, r3.chunks_resumed, s3.llm.provider.calls) == (1, 1, [])
    assert "doc:d2" in s3.ontology.store.graphs()
    assert rows(s3, f"SELECT ?t WHERE {{ <{course_iri}> <{EX}has_subject_title> ?t }}") == \
        {("Introduction to Programming",)}


def test_a_resumed_run_knows_the_names_the_stopped_run_minted(embedder):
    """A stopped run's chunks are journalled but their documents not yet written: the resumed run must
    link a later mention to the IRI minted then (typed under a compatible class), not mint a second one."""
    from pyramid.ontology.extractors.base import RDF_TYPE, RDFS_LABEL, Fact
    from pyramid.ontology.extractors.linker import Linker
    from pyramid.ontology.labels import LabelIndex

    index = LabelIndex.from_rows([(EX + "s1", "Alice CHEN")], [(EX + "s1", EX + "STAFF")])
    linker = Linker(index, embedder, 0.9, EX)
    minted = EX + "professor_ben_okafor_1a2b3c"
    linker.recall([Fact(minted, RDF_TYPE, EX + "PROFESSOR", False), Fact(minted, RDFS_LABEL, "Ben Okafor", True),
                   Fact(minted, EX + "works_for", EX + "COMP", False),
                   # an instance the store already holds is found through the index: not remembered as minted
                   Fact(EX + "s1", RDF_TYPE, EX + "STAFF", False), Fact(EX + "s1", RDFS_LABEL, "Alice Chen", True)])
    assert linker.minted == {(EX + "PROFESSOR", "ben okafor"): minted}
    assert linker.link("Ben  Okafor", EX + "PROFESSOR") == (minted, False)
