"""The English rule reader (pyramid/reading: sentences, names, rules), the deterministic part of the
grounded extraction modes. Expectations are written by hand from the sentences."""

from __future__ import annotations

from pyramid.reading.names import main_entity, name_spans, resolve
from pyramid.reading.rules import candidates, read, rule_triples
from pyramid.reading.sentences import split_sentences, tokenize


def triples(sentence: str) -> set[tuple[str, str, str]]:
    return {(t.subject, t.relation, t.object) for t in rule_triples(sentence)}


def test_sentences_split_at_full_stops_but_not_after_titles_or_abbreviations():
    text = ("Prof. Alice Chen is a professor. She received her PhD in 2009! Dr. Okafor met the St. Louis Blues. "
            "Rangers F.C. is blue")
    assert [s.text for s in split_sentences(text)] == [
        "Prof. Alice Chen is a professor.", "She received her PhD in 2009!",
        "Dr. Okafor met the St. Louis Blues.", "Rangers F.C. is blue"]
    s = split_sentences(text)[1]
    assert text[s.start:s.end] == s.text


def test_main_entity_is_the_title_when_written_else_the_first_subject():
    person = main_entity("Dr Ben Okafor is an assistant professor.", "Dr Ben Okafor")
    assert (person.name, person.person) == ("Dr Ben Okafor", True)
    dept = main_entity("The Department of Computing belongs to the Faculty of Engineering.", "Department of Computing")
    assert (dept.person, dept.heads) == (False, {"department"})
    course = main_entity("COMP3010 Information Retrieval is a subject.", "COMP3010 Information Retrieval")
    assert course.heads == {"subject", "course", "module"}
    # a news title that the text does not write is no entity: the first sentence's subject is
    lab = main_entity("The Northbridge AI Lab opened in September 2021.", "AI Lab opens")
    assert lab.name == "Northbridge AI Lab" and lab.heads == {"lab"}


def test_pronouns_and_the_head_word_resolve_to_the_main_entity():
    alice = main_entity("Prof. Alice Chen is a professor.", "Prof. Alice Chen")
    assert resolve("She received her PhD from the University of Edinburgh.", alice) == \
        "Prof. Alice Chen received her PhD from the University of Edinburgh."   # 'her' inside stays
    assert resolve("Her research interests are ontologies.", alice) == "Prof. Alice Chen's research interests are ontologies."
    dept = main_entity("The Department of Computing is big.", "Department of Computing")
    assert resolve("Its head is Prof. Alice Chen.", dept) == "Department of Computing's head is Prof. Alice Chen."
    assert resolve("The department offers programmes.", dept) == "Department of Computing offers programmes."
    # 'the department of X' is another department; 'she' never names a department
    assert resolve("The department of Physics is near. She left.", dept) == "The department of Physics is near. She left."
    course = main_entity("COMP3010 Information Retrieval is a subject.", "COMP3010 Information Retrieval")
    assert resolve("The subject is taught by Dr Ben Okafor.", course) == \
        "COMP3010 Information Retrieval is taught by Dr Ben Okafor."


def test_candidate_spans_are_names_codes_and_counted_nouns():
    toks = tokenize("Dr Ben Okafor teaches COMP3010 Information Retrieval and supervises four PhD students.")
    assert [(s.text, s.kind) for s in name_spans(toks)] == [
        ("Dr Ben Okafor", "name"), ("COMP3010 Information Retrieval", "code"), ("four PhD students", "number")]
    toks = tokenize("Visitors look at the Moon, Jupiter and Saturn from the Department of Accounting and Finance.")
    # a sentence's first capitalised word is kept: it is the subject ('Visitors'); 'and' joins inside
    # a name with 'of' only
    assert [s.text for s in name_spans(toks)] == ["Visitors", "Moon", "Jupiter", "Saturn",
                                                  "Department of Accounting and Finance"]
    toks = tokenize("Salt Lake City hosted the Winter 2002 Olympics with Prof. Rahul Mehta.")
    assert [s.text for s in name_spans(toks)] == ["Salt Lake City", "Winter 2002 Olympics", "Prof. Rahul Mehta"]


def test_candidates_for_the_model_leave_out_pieces_of_listed_names():
    sent = read("The Department of Computing belongs to the Faculty of Engineering.")[0]
    assert candidates(sent) == ["Department of Computing", "Faculty of Engineering"]


def test_rule_triples_read_subject_verb_group_and_objects():
    assert triples("The primary diet of jaguars includes deer, capybaras, and fish.") == {
        ("jaguars", "primary diet includes", "deer"), ("jaguars", "primary diet includes", "capybaras"),
        ("jaguars", "primary diet includes", "fish")}
    assert triples("The primary language spoken in Canada is English.") == {
        ("English", "is the primary language spoken in", "Canada")}
    assert triples("Philipp Lahm was the captain of the German national team that won the FIFA World Cup in 2014.") == {
        ("Philipp Lahm", "was the captain of", "German national team"), ("German national team", "won", "FIFA World Cup")}
    assert triples("Prof. Rahul Mehta is a chair professor and head of the Department of Physics.") == {
        ("Prof. Rahul Mehta", "is a", "chair professor"), ("Prof. Rahul Mehta", "is head of", "Department of Physics")}


def test_rule_triples_after_resolution_name_the_main_entity():
    doc = ("Dr Ben Okafor is an assistant professor in the Department of Computing. He obtained his PhD from "
           "University College London. Dr Okafor teaches COMP3010 Information Retrieval.")
    got = {(t.subject, t.relation, t.object) for s in read(doc, "Dr Ben Okafor") for t in s.triples}
    assert ("Dr Ben Okafor", "is an assistant professor in", "Department of Computing") in got
    assert ("Dr Ben Okafor", "obtained his PhD from", "University College London") in got
    assert ("Dr Ben Okafor", "teaches", "COMP3010 Information Retrieval") in got   # 'Dr Okafor' → the full name
