"""pyramid.normalise: the one fold, title list and code rule, and the layers that key names with it.

Expected keys below are written by hand. The KG and label-index checks go through the functions those
layers call (`Entity.named`, `LabelIndex.from_rows(...).link`), no model involved.
"""

from __future__ import annotations

from completion.names import class_name, snake_name
from completion.names import name_key as bag_of_name
from pyramid.kg.model import Entity, canonical_name
from pyramid.normalise import ascii_fold, codes_in, fold, name_key, strip_titles
from pyramid.ontology.labels import LabelIndex, folded_key

EX = "http://example.org/"


def test_titles_before_and_after_a_name_fall_away():
    assert name_key("Dr Amara Osei") == name_key("Amara Osei") == name_key("Prof. Amara Osei") == "amara osei"
    assert name_key("Associate Professor Amara Osei") == "amara osei"   # a rank beside a title goes too
    assert name_key("Professor Emeritus Amara Osei") == "amara osei"
    assert name_key("OSEI Amara (Dr)") == "osei amara"
    assert name_key("Amara Osei, PhD") == "amara osei"
    assert strip_titles("Ir Prof. Amara Osei") == "Amara Osei"          # words kept as written


def test_what_is_not_a_title_stays():
    assert name_key("Dr") == "dr"                                       # never empty
    assert name_key("Professor of Marine Biology") == "professor of marine biology"   # a role, not a name
    assert name_key("Assistant Professor (Marine Biology)") == "assistant professor marine biology"
    assert name_key("Chair of Senate") == "chair of senate"             # a rank alone is a word
    assert name_key("Dr Hon Ka Wai") == "hon ka wai"                    # Hon: a Cantonese given name here
    assert name_key("10 PhD") == "10 phd"                               # a count, not a name with letters
    assert name_key("The Tate Modern") == "tate modern"                 # articles carry nothing
    assert name_key("Museum of the Moving Image") == name_key("Museum of Moving Image")


def test_accents_fold_and_other_alphabets_are_transliterated_not_deleted():
    assert fold("Zoë ÅNGSTRÖM") == fold("zoe angstrom") == "zoe angstrom"
    assert name_key("Dr Renée Müller-Lüdenscheidt") == "renee muller ludenscheidt"
    assert fold("Ирина") == "irina"
    assert fold("Kwame’s  lab!") == "kwame lab"                          # possessive and punctuation


def test_cjk_letters_are_kept_so_different_chinese_names_differ():
    a, b = fold("何嘉欣 Ho Ka Yan"), fold("何家恩 Ho Ka Yan")
    assert a == "何嘉欣 ho ka yan" and b == "何家恩 ho ka yan"
    assert name_key("Ms 何嘉欣 Ho Ka Yan") != name_key("何家恩 Ho Ka Yan")
    assert fold("何嘉欣") != fold("何家恩") and fold("何嘉欣")
    assert fold("何嘉欣。") == "何嘉欣"                                   # CJK punctuation is punctuation


def test_codes_are_found_and_canonical():
    assert codes_in("take acct 2050 or FIN3010/fin3011 first") == ["ACCT2050", "FIN3010", "FIN3011"]


def test_kg_entities_and_ontology_labels_of_one_person_share_the_key():
    kg = [Entity.named(n) for n in ("Dr Amara Osei", "Prof. Amara Osei", "AMARA OSEI")]
    assert {e.norm for e in kg} == {"amara osei"} and len({e.id for e in kg}) == 1
    assert folded_key("Assoc. Prof. Amara Osei") == kg[0].norm
    index = LabelIndex.from_rows([(EX + "p1", "Amara OSEI (Dr)"), (EX + "p2", "Kofi Mensah")],
                                 [(EX + "p1", EX + "STAFF"), (EX + "p2", EX + "STAFF")])
    for name in ("Dr Amara Osei", "Prof. Amara Osei", "amara osei"):
        assert [lk.iri for lk in index.link(name, fuzzy=False)] == [EX + "p1"]
    assert Entity.named("José Núñez").id == Entity.named("Jose Nunez").id


def test_label_index_keeps_two_chinese_names_with_one_romanisation_apart():
    index = LabelIndex.from_rows([(EX + "s1", "何嘉欣 Ho Ka Yan"), (EX + "s2", "何家恩 Ho Ka Yan")],
                                 [(EX + "s1", EX + "STAFF"), (EX + "s2", EX + "STAFF")])
    assert [lk.iri for lk in index.link("Dr 何嘉欣 Ho Ka Yan", fuzzy=False)] == [EX + "s1"]
    assert [lk.iri for lk in index.link("何家恩", fuzzy=False)] == [EX + "s2"]
    assert {lk.iri for lk in index.link("Ho Ka Yan", fuzzy=False)} == {EX + "s1", EX + "s2"}  # ambiguous
    (m,) = index.mentions("Who supervises 何家恩 Ho Ka Yan this year?")
    assert m.text == "何家恩 Ho Ka Yan" and m.iris == [EX + "s2"]
    # the KG keeps the CJK rendering too: the two are two entities
    assert Entity.named("何嘉欣 Ho Ka Yan").id != Entity.named("何家恩 Ho Ka Yan").id


def test_a_possessive_in_a_question_meets_the_label():
    index = LabelIndex.from_rows([(EX + "h1", "St Hilda's College")], [(EX + "h1", EX + "COLLEGE")])
    (m,) = index.mentions("Where is St Hilda's College located?", fuzzy=False)
    assert m.text == "St Hilda's College" and m.iris == [EX + "h1"]


def test_completion_keys_and_identifiers_use_the_same_fold():
    assert bag_of_name("NG Wing Sze 吳詠詩 (Ms)") == bag_of_name("Wing Sze Ng") == frozenset({"ng", "wing", "sze"})
    assert snake_name("est membre de l'équipe") == "est_membre_de_l_equipe"
    assert canonical_name("est membre de l'équipe") == "est_membre_de_l_equipe"
    assert class_name("the Café Society") == "CafeSociety"
    assert ascii_fold("中心") == "zhong xin"   # identifiers are ASCII; CJK read one character at a time


def test_a_title_closing_a_two_word_name_falls_away_unless_a_rank_stands_before_it():
    assert name_key("OSEI Kwame-Ato Professor") == name_key("Osei Kwame-Ato Prof.") == "osei kwame ato"
    assert name_key("Harbour Chair Professor") == "harbour chair professor"    # a named chair: a role


def test_the_index_forgives_a_post_nominal_out_of_place_and_a_slip_in_a_cjk_rendering():
    index = LabelIndex.from_rows([(EX + "p1", "Kwame Boateng, JP"), (EX + "p2", "LAU Mei Ling 劉美玲 (Dr)")],
                                 [(EX + "p1", EX + "STAFF"), (EX + "p2", EX + "STAFF")])
    assert [lk.iri for lk in index.link("Boateng, JP Kwame")] == [EX + "p1"]
    assert [lk.iri for lk in index.link("LAU Mei Lin 劉美 (Dr)")] == [EX + "p2"]    # a letter and a character short
    assert index.link("LAU Mei Ling 陳泰民") == []                               # another person's characters
