"""Entity resolution: normalisation, embedding similarity (the real MiniLM), type conflicts,
links to stored entities. No LLM."""

from __future__ import annotations

from pyramid.kg.model import Entity, canonical_name, normalise_name
from pyramid.kg.resolve import EntityResolver


def test_normalisation_folds_case_punctuation_and_titles():
    assert normalise_name("Dr Margo Louise Turnbull") == "margo louise turnbull"
    assert normalise_name("Ir Prof. Keith K.C. Chan") == "keith k c chan"
    assert normalise_name("SUN Yuxiang 孫宇翔 (Dr)") == "sun yuxiang 孫宇翔"
    assert normalise_name("The Hong Kong Polytechnic University") == "hong kong polytechnic university"
    assert normalise_name("St. Louis Blues") == "st louis blues"   # "St." is a name here, not a title
    assert normalise_name("Dr") == "dr"                             # never empty
    assert canonical_name("is a Member of") == "is_a_member_of"


def test_exact_stage_merges_spellings_but_not_conflicting_types():
    got, rep = EntityResolver(None, 0.9).resolve([("Dr XUE Haiyang", "PERSON"), ("Xue Haiyang", ""),
                                                  ("Paris", "PLACE"), ("Paris", "PERSON"), ("paris", "")])
    assert got[("Dr XUE Haiyang", "PERSON")] == got[("Xue Haiyang", "")]
    assert got[("Xue Haiyang", "")].type == "PERSON"            # the unknown type learns the known one
    assert got[("Paris", "PLACE")].id != got[("Paris", "PERSON")].id
    assert got[("paris", "")].id in {got[("Paris", "PLACE")].id, got[("Paris", "PERSON")].id}
    assert rep.type_conflicts_refused == 1 and rep.new_entities == 3


def test_embedding_stage_merges_above_the_threshold_only(embedder):
    mentions = [("Real Madrid", "ORGANIZATION"), ("Real Madrid C.F.", "ORGANIZATION"),
                ("2002 FIFA World Cup", "EVENT"), ("2006 FIFA World Cup", "EVENT")]
    loose, rep = EntityResolver(embedder, 0.85).resolve(mentions)
    assert loose[mentions[0]] == loose[mentions[1]] and rep.embedding_merges == 1
    assert loose[mentions[2]] != loose[mentions[3]]
    strict, rep = EntityResolver(embedder, 0.99).resolve(mentions)
    assert strict[mentions[0]] != strict[mentions[1]] and rep.embedding_merges == 0


def test_embedding_never_merges_conflicting_types(embedder):
    m = [("Amazon", "ORGANIZATION"), ("Amazon", "PLACE"), ("Amazon.com", "PLACE")]
    got, rep = EntityResolver(embedder, 0.5).resolve(m)
    assert got[m[0]].id != got[m[1]].id and got[m[0]].id != got[m[2]].id
    assert rep.type_conflicts_refused >= 1


def test_mentions_link_to_stored_entities_and_two_stored_ones_never_fuse(embedder):
    stored = [Entity.named("Real Madrid", "ORGANIZATION"), Entity.named("Real Madrid CF", "ORGANIZATION")]
    got, rep = EntityResolver(embedder, 0.5).resolve([("REAL MADRID", ""), ("Madrid club", "")], stored)
    assert got[("REAL MADRID", "")] == stored[0]
    assert rep.linked_existing >= 1
    assert len({stored[0].id, stored[1].id}) == 2


def test_numbers_and_unseen_characters_must_agree_before_an_embedding_merge(embedder):
    m = [("+852 2766 5679", ""), ("+852 2766 5697", ""), ("維多利亞灣", ""), ("维多利亚港", ""),
         ("Ligue 1", "EVENT"), ("Ligue 2", "EVENT")]
    got, rep = EntityResolver(embedder, 0.9).resolve(m)
    assert len({e.id for e in got.values()}) == 6
    assert rep.unseen_mismatch_refused >= 3 and rep.embedding_merges == 0
