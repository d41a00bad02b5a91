"""Grounded extraction with the real default model (SmolLM2-135M through llama-cpp-python): the demo
corpus built as `polyrag build` builds it (text, KG with `kg.mode = auto`, schema, f_ins, reasoning),
then facts checked that were verified by reading the documents. With this model `auto` is the
grounded mode: the rules read every demo sentence, and the model settles the f_ins close calls."""

from __future__ import annotations

import pytest
from conftest import ROOT

from pyramid.corpus import load_documents
from pyramid.session import Session

EX = "http://example.org/"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"


@pytest.mark.llm
@pytest.mark.slow
def test_demo_corpus_kg_and_ontology_hold_the_facts_a_reader_finds(workspace, embedder):
    from pyramid.build import build_pyramid
    from pyramid.config import load_settings
    from pyramid.workspace import Workspace

    # the model-backed sentence extraction on the demo's prose (the default reads each page by its shape instead)
    ws = Workspace(workspace.root, load_settings(workspace.root / "polyrag.toml",
                                                 ontology={"extract_method": "grounded"}))
    s = Session(ws, embedder=embedder)
    docs = load_documents(ROOT / "examples" / "demo" / "documents.jsonl").documents
    r = build_pyramid(s, docs, schema=ROOT / "ontology_schemas" / "academic.ttl")
    assert not r.pending
    kg_step = next(x for x in r.steps if x.step == "kg")
    assert kg_step.outcome.startswith("grounded mode")

    kg = {(t.subject.name, t.relation, t.object.name) for t in s.kg.store().iter_triples()}
    assert ("Dr Ben Okafor", "is an assistant professor in", "Department of Computing") in kg
    assert ("COMP3010 Information Retrieval", "offered by", "Department of Computing") in kg
    assert ("Department of Computing", "belongs to", "Faculty of Engineering") in kg
    # the placeholder words of a prompt and entities used as relations are gone
    assert not any(t[0] == "Subject" or t[1] in {t[0], t[2]} for t in kg)
    s.kg.close()

    def holds(subject: str, prop: str, value: str) -> bool:
        q = f"""ASK {{ ?s <{LABEL}> "{subject}" ; <{EX}{prop}> ?o . ?o <{LABEL}> "{value}" }}"""
        return bool(s.ontology.store.run_trusted(q).rows[0]["ask"])

    assert holds("Ben Okafor", "works_for", "Department of Computing")
    assert holds("COMP3010 Information Retrieval", "offered_by", "Department of Computing")
    assert holds("COMP3010 Information Retrieval", "taught_by", "Ben Okafor")
    assert holds("Alice Chen", "head_of", "Department of Computing")
    assert holds("Alice Chen", "works_for", "Department of Computing")      # head_of ⊑ works_for, reasoned
    assert holds("Department of Physics", "belongs_to", "Faculty of Science")
    # no instance is named after a staff member unless it is one (the old f_ins made "Alice Chen" a unit)
    q = f"""ASK {{ ?u a <{EX}AcademicUnit> ; <{LABEL}> "Alice Chen" }}"""
    assert not s.ontology.store.run_trusted(q).rows[0]["ask"]
