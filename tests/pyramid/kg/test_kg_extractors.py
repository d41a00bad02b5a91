"""Control flow of the grounded extraction modes: the KG `grounded` and `rules` modes through the KG
layer's build, and grounded f_ins through `extract_instances`. The LLM is the scripted one (canned
replies keyed by prompt text; an unexpected prompt raises), so these tests also prove which
sentences reach the model; the embedder (MiniLM), LadybugDB and Oxigraph are real."""

from __future__ import annotations

import pytest
from conftest import ROOT
from kg_fixtures import kg_session

from pyramid.corpus import Document
from pyramid.kg.extractors.grounded import GroundedExtractor, grounded_relation
from pyramid.kg.extractors.rules import RulesExtractor
from pyramid.kg.extractors.single import SingleCallExtractor
from pyramid.llm.scripted import ScriptedProvider

READABLE = {"okafor": "Dr Ben Okafor is an assistant professor in the Department of Computing. "
                      "He teaches COMP3010 Information Retrieval."}
# no verb: neither reader (regex rules, dependency parse) reads anything, so this sentence goes to the
# model (the parser reads "Paris, France: twinned with Rome.", which the regex rules could not)
RESIDUE = "Paris, France, and its twin town Rome."


def kg_triples(s) -> set[tuple[str, str, str]]:
    return {(t.subject.name, t.relation, t.object.name) for t in s.kg.store().iter_triples()}


def test_grounded_mode_asks_nothing_when_the_rules_read_every_sentence(workspace, embedder):
    s = kg_session(workspace, embedder, {}, READABLE)   # no rule: any LLM call would raise
    r = s.kg.build(s.llm, mode="grounded")
    assert r.usage.calls == 0 and not r.failed_chunks
    got = kg_triples(s)
    assert ("Dr Ben Okafor", "is an assistant professor in", "Department of Computing") in got
    assert ("Dr Ben Okafor", "teaches", "COMP3010 Information Retrieval") in got   # 'He' resolved


def test_grounded_mode_sends_only_unread_sentences_and_checks_the_reply(workspace, embedder):
    reply = {"triples": [
        {"subject": "Paris", "relation": "twin town", "object": "Rome"},      # written there: kept
        {"subject": "Paris", "relation": "Paris", "object": "France"},          # an entity as relation; the
        #                                        words between the two are only ',': dropped
        {"subject": "France", "relation": "located in", "object": "Paris"}]}   # not written: dropped
    s = kg_session(workspace, embedder, {"Sentence: Paris, France": reply},
                   {**READABLE, "paris": RESIDUE})
    r = s.kg.build(s.llm, mode="grounded")
    prompts = [m[-1]["content"] for m in s.llm.provider.calls]
    assert len(prompts) == 1 and r.usage.calls == 1          # one call: the residue sentence only
    assert "- Paris\n- France" in prompts[0]                   # its candidate spans, listed
    got = kg_triples(s)
    assert ("Paris", "twin town", "Rome") in got
    assert not any(t[0] == "France" or t[1] == "Paris" for t in got)


def test_the_model_cannot_name_an_entity_outside_the_candidates(embedder):
    """The reply schema's enums are the sentence's candidates: a reply naming another entity fails
    validation (then the chunk is journalled as failed by the build, as with any schema failure)."""
    from pyramid.chunker import Chunk
    from pyramid.llm import LLMSchemaError
    from pyramid.llm.client import LLM

    bad = {"triples": [{"subject": "Berlin", "relation": "twinned with", "object": "Rome"}]}
    llm = LLM(ScriptedProvider({"Sentence: Paris": bad}), schema_retries=0)
    ex = GroundedExtractor(llm)
    with pytest.raises(LLMSchemaError):
        ex.extract_chunk(Chunk("p#0", "p", 0, RESIDUE, 0, len(RESIDUE), 6))


def test_llm_for_all_asks_for_every_sentence_and_rules_mode_never(embedder):
    from pyramid.chunker import Chunk
    from pyramid.llm.client import LLM

    text = READABLE["okafor"]
    empty = {"triples": []}
    llm = LLM(ScriptedProvider({"Sentence: Dr Ben Okafor is": empty, "Sentence: Dr Ben Okafor teaches": empty}))
    out = GroundedExtractor(llm, llm_for="all").extract_chunk(Chunk("o#0", "o", 0, text, 0, len(text), 30),
                                                             title="Dr Ben Okafor")
    assert len(llm.provider.calls) == 2 and out.triples == []   # no rule triples in this variant
    silent = LLM(ScriptedProvider({}))
    ruled = RulesExtractor(silent).extract_chunk(Chunk("o#0", "o", 0, text, 0, len(text), 30))
    assert silent.provider.calls == [] and len(ruled.triples) >= 2
    # the versions differ: switching mode or variant re-extracts
    assert len({x(silent).version for x in (RulesExtractor, GroundedExtractor, SingleCallExtractor)}) == 3
    assert GroundedExtractor(silent).version != GroundedExtractor(silent, llm_for="all").version


# ------------------------------------------------------------------ grounded f_ins
COURSE = Document("comp3010", "COMP3010 Information Retrieval is a 3-credit undergraduate subject offered by the "
                              "Department of Computing. The subject is taught by Dr Ben Okafor.",
                  {"title": "COMP3010 Information Retrieval"})


def test_grounded_f_ins_types_from_cues_checks_ranges_and_asks_no_model(tmp_path, embedder):
    from pyramid.config import load_settings
    from pyramid.ontology.extract import extract_instances
    from pyramid.session import Session
    from pyramid.workspace import Workspace

    ws = Workspace.init(tmp_path / "ws")
    ws = Workspace(ws.root, load_settings(ws.root / "polyrag.toml", llm={"cache": False}))
    s = Session(ws, provider=ScriptedProvider({}), embedder=embedder)   # any call would raise
    s.ontology.load_schema(ROOT / "ontology_schemas" / "academic.ttl")
    s.corpus.update([COURSE])
    r = extract_instances(s.ws, s.ontology, s.llm, s.embedder, select=s.ontology.select_trusted)
    assert r.documents == 1 and not r.failed_chunks and s.llm.provider.calls == []
    ex = "http://example.org/"
    q = f"""SELECT ?p ?v WHERE {{ ?c a <{ex}COURSE> ; <http://www.w3.org/2000/01/rdf-schema#label> ?l ; ?p ?x .
              OPTIONAL {{ ?x <http://www.w3.org/2000/01/rdf-schema#label> ?xl }} BIND(COALESCE(?xl, STR(?x)) AS ?v)
              FILTER(?l = "COMP3010 Information Retrieval") }}"""
    facts = {(r_["p"].rsplit("/", 1)[-1], r_["v"]) for r_ in s.ontology.store.run_trusted(q).rows}
    assert ("offered_by", "Department of Computing") in facts
    assert ("taught_by", "Ben Okafor") in facts                  # 'the subject' resolved; the title dropped
    assert ("has_credit_value", "3") in facts
    assert ("has_subject_code", "COMP3010") in facts and ("has_subject_title", "Information Retrieval") in facts
    types = {(r_["l"], r_["c"].rsplit("/", 1)[-1]) for r_ in s.ontology.store.run_trusted(
        "SELECT ?l ?c WHERE { ?i a ?c ; <http://www.w3.org/2000/01/rdf-schema#label> ?l }").rows}
    # typed from cues and from the range of taught_by, never from a model
    assert ("Department of Computing", "DEPARTMENT") in types and ("Ben Okafor", "AcademicStaff") in types
    assert not any(label == "3" for label, _ in types)           # a number is a literal, no instance


def test_a_relation_must_be_written_in_the_sentence_outside_its_ends():
    sentence = "Dr Ben Okafor teaches COMP3010 at Northbridge University."
    ents = ["Dr Ben Okafor", "COMP3010", "Northbridge University"]
    assert grounded_relation(sentence, "Dr Ben Okafor", "teaches", "COMP3010", ents) == "teaches"
    # an entity used as the relation, or words the sentence lacks: the words between the ends instead
    assert grounded_relation(sentence, "Dr Ben Okafor", "Dr Ben Okafor", "COMP3010", ents) == "teaches"
    assert grounded_relation(sentence, "Dr Ben Okafor", "works for", "COMP3010", ents) == "teaches"
    # the placeholder words of a prompt ('relation') are not in the sentence, and nothing lies between
    # these ends in this order: dropped
    assert grounded_relation(sentence, "COMP3010", "relation", "Dr Ben Okafor", ents) == ""
    # a relation that swallows another entity is no relation
    assert grounded_relation(sentence, "Dr Ben Okafor", "teaches COMP3010 at", "Northbridge University", ents) == ""
    assert grounded_relation(sentence, "COMP3010", "subject", "COMP3010", ents) == ""   # a self-loop
