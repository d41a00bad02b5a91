"""The label index on the real PolyU labels (../shared/data/polyu/polyu_onto.ttl, read in place).

The expected IRIs below were read off the Turtle file by hand, not computed by the index."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from pyramid.ontology.labels import LabelIndex, bag_key, codes_in, fold_words

EX = "http://example.org/"


@pytest.fixture(scope="module")
def index(shared_data) -> LabelIndex:
    store = ox.Store()
    store.bulk_load(path=str(shared_data / "polyu" / "polyu_onto.ttl"), format=ox.RdfFormat.TURTLE)

    def select(query: str):
        res = store.query(query)
        names = res.variables
        return [{v.value: r[v].value for v in names if r[v] is not None} for r in res]
    return LabelIndex.from_select(select, fingerprint="polyu")


def iris(links) -> set[str]:
    return {lk.iri.removeprefix(EX) for lk in links}


def test_normalisation_drops_titles_accents_cjk_and_order():
    assert fold_words("WONG Wai On 黃偉安 (Dr)") == ["wong", "wai", "on"]
    assert fold_words("Ir Prof. K.L. Yung") == ["k", "l", "yung"]
    assert fold_words("Mia Münster") == ["mia", "munster"]
    assert bag_key("Chen Alice") == bag_key("Dr Alice CHEN")
    assert fold_words("Dr") == ["dr"]  # a name made only of a title keeps it
    assert codes_in("ELC1012/ELC1013 and APSS 5051") == ["ELC1012", "ELC1013", "APSS5051"]


@pytest.mark.parametrize("mention, expected", [
    ("WONG Wai On 黃偉安 (Dr)", {"ME37", "ME38"}),        # exact, and the record without "(Dr)"
    ("wong wai on", {"ME37", "ME38"}),                  # case
    ("Wai On Wong", {"ME37", "ME38"}),                  # word order
    ("Dr Chih-yung Wen", {"AAE1"}),                     # title added, case
    ("Chih-yung Wenn", {"AAE1"}),                       # a typo
    ("Chih-yun WEN", {"AAE1"}),                         # a letter dropped
    ("Mia Munster", {"SD26"}),                          # accent dropped
    ("Münster Mia", {"SD26"}),                          # accent and order
    ("Prof Zhou Lei", {"ABCT17"}),                      # "Prof." written without the dot
    ("School of Design", {"SD"}),
    ("COMP", {"COMP"}),                                 # upper-case acronym = IRI local name
    ("AAE6203", {"aae6203"}),                           # a subject code
    ("APSS 5051 Community Psychology in Chinese Societies", {"apss5051"}),  # code + title, as options write it
])
def test_link_tolerates_real_variants(index, mention, expected):
    assert iris(index.link(mention)) == expected


def test_duplicate_records_under_one_name_are_all_returned(index):
    # "Leung Chi-hong" and "Dr Chi Hong LEUNG" are two PolyU records of one name; a mention in a
    # third word order matches both by their word bags
    assert len(index.link("Hong Leung Chi")) == 2


def test_common_words_do_not_link(index):
    assert index.link("me") == []  # not the Department of Mechanical Engineering (base:ME)
    assert index.link("the") == []


def test_class_filter(index):
    assert index.link("Ir Prof. K.L. Yung", classes=[EX + "COURSE"]) == []
    assert iris(index.link("Ir Prof. K.L. Yung", classes=[EX + "STAFF"]))


def test_mentions_in_questions(index):
    ms = index.mentions("Which faculty does the department of Dr Shuran ZHANG belong to?")
    assert [(m.text, iris(m.links)) for m in ms] == [("Shuran ZHANG", {"AF72"})]
    ms = index.mentions('Which department offers the subject AAE6203 "Mathematics for Aircraft Structure, '
                        'Guidance, Navigation, and Control"?')
    assert {frozenset(iris(m.links)) for m in ms} == {frozenset({"aae6203"})}
    ms = index.mentions("Which of the following staff members work for the English Language Centre?")
    assert [iris(m.links) for m in ms] == [{"ELC"}]
    assert index.mentions("Which of the following staff members have research interests in me?") == []


def test_persisted_index_is_used_only_with_its_fingerprint(index, tmp_path):
    path = tmp_path / "labels.json"
    index.save(path)
    again = LabelIndex.load(path, "polyu")
    assert again is not None and iris(again.link("Wai On Wong")) == {"ME37", "ME38"}
    assert LabelIndex.load(path, "another store") is None


def test_a_mention_stops_at_the_name(index):
    """The possessive is the question's grammar, and a word beside a misspelt name is not part of it:
    the fuzzy tier forgives a typo inside a name, not a word more at its edge."""
    [m] = index.mentions("Where does Chih-yung WEN's lab sit?")
    assert m.text == "Chih-yung WEN" and iris(m.links) == {"AAE1"}
    [m] = index.mentions("Is Chih-yung Wenn's rank known?")
    assert m.text == "Chih-yung Wenn" and iris(m.links) == {"AAE1"}


def test_a_lone_surname_is_a_name_after_a_title():
    people = LabelIndex.from_rows([(EX + "p1", "Dr Okonkwo"), (EX + "p2", "Halvorsen Marit")],
                                  [(EX + "p1", EX + "STAFF"), (EX + "p2", EX + "STAFF")])
    assert [(m.text, iris(m.links)) for m in people.mentions("Which unit is Dr Okonkwo attached to?")] == \
        [("Okonkwo", {"p1"})]
    assert people.mentions("Which unit is Okonkwo attached to?") == []  # a lone capitalised word is not


def test_a_part_of_a_longer_name_names_it_as_people_write_names():
    """After a title, a surname names whoever's label ends in it ("Dr Okafor"); a first name before a
    preposition inside the question names whoever's label starts with it ("Ines from Legal"). A part
    shared by more than a few names, or a capitalised word elsewhere, names nobody."""
    people = LabelIndex.from_rows([(EX + "p1", "Ines Okafor"), (EX + "p2", "Bram Teller"), (EX + "p3", "Ines Vale")],
                                  [(EX + p, EX + "STAFF") for p in ("p1", "p2", "p3")])
    found = people.mentions("What is the phone of Dr Okafor?")
    assert [(m.text, iris(m.links)) for m in found] == [("Okafor", {"p1"})]
    assert found[0].links[0].tier == "fuzzy"  # a part is never as sure as a whole name
    assert [iris(m.links) for m in people.mentions("Where does Ines from Legal sit?")] == [{"p1", "p3"}]
    assert people.mentions("Where does Teller work?") == []  # no title, no preposition after it
    assert people.mentions("Ines is here.") == []  # the question's first word is no name by itself


def test_a_saved_index_names_people_by_a_part_as_the_built_one_does(tmp_path):
    """A new process reads the saved index (`polyrag ask` after the first): "Dr Okafor" must still name
    Ines Okafor there, not only in the process that built the index."""
    people = LabelIndex.from_rows([(EX + "p1", "Ines Okafor"), (EX + "p2", "Bram Teller"), (EX + "p3", "Ines Vale")],
                                  [(EX + p, EX + "STAFF") for p in ("p1", "p2", "p3")], fingerprint="g1")
    people.save(tmp_path / "labels.json")
    again = LabelIndex.load(tmp_path / "labels.json", "g1")
    assert again is not None
    assert [(m.text, iris(m.links)) for m in again.mentions("What is the phone of Dr Okafor?")] == [("Okafor", {"p1"})]
    assert [iris(m.links) for m in again.mentions("Where does Ines from Legal sit?")] == [{"p1", "p3"}]


def test_a_lone_word_in_cjk_letters_is_a_name():
    """A name written in its own script is one \\w+ run and no English word: it is looked up whole,
    where a lone lower-case English word never is."""
    people = LabelIndex.from_rows([(EX + "p1", "陳美玲教授"), (EX + "p2", "Marit Halvorsen")],
                                  [(EX + "p1", EX + "STAFF"), (EX + "p2", EX + "STAFF")])
    assert [(m.text, iris(m.links)) for m in people.mentions("Which courses does 陳美玲教授 teach?")] == \
        [("陳美玲教授", {"p1"})]
    assert people.mentions("Which courses does 王小明 teach?") == []  # a CJK word that is no label


def test_a_conjunction_joins_two_names_it_is_no_typo_inside_one(index):
    """"Business or the Faculty" is one letter from "Faculty of Business" to a fuzzy matcher; the
    "or" the label lacks says it is the end of one name and the start of another."""
    found = [(m.text, iris(m.links)) for m in index.mentions("Has the Faculty of Business or the Faculty of Science "
                                                               "got more departments?")]
    assert found == [("Faculty of Business", {"FB"}), ("Faculty of Science", {"FS"})], found


def test_a_class_has_instances_of_its_own_only_where_one_is_filed_under_no_subclass():
    """Every boat below is a ketch or a sloop (the reasoner files them under boat too): boat has none of
    its own; a harbour office filed as a building only gives building one."""
    e = "http://example.org/e/"
    types = [(e + "k", e + "Ketch"), (e + "k", e + "Boat"), (e + "s", e + "Sloop"), (e + "s", e + "Boat"),
             (e + "o", e + "Building"), (e + "w", e + "Warehouse"), (e + "w", e + "Building")]
    idx = LabelIndex.from_rows([(e + "k", "Kittiwake"), (e + "s", "Skua"), (e + "o", "Harbour Office"),
                                (e + "w", "Net Store")], types)
    assert not idx.has_own(e + "Boat", frozenset({e + "Ketch", e + "Sloop"}))
    assert idx.has_own(e + "Building", frozenset({e + "Warehouse"}))
