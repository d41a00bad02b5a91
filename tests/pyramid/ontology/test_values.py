"""The value index (pyramid.ontology.values) on values written here."""

from __future__ import annotations

from pyramid.ontology.values import ValueIndex
from pyramid.vocab import Vocab

EX = "http://example.org/"


def index_of(cls: str, props: list[str], rows: dict[str, int]) -> ValueIndex:
    """A value index over one class with datatype `props`, every property query answering `rows`
    (value → how many subjects hold it)."""
    vocab = Vocab.from_terms([(EX + cls, "class", "", "", (), ())] +
                             [(EX + p, "datatype", "", "", (EX + cls,), ()) for p in props])
    return ValueIndex.from_select(lambda query: [{"v": v, "n": str(n)} for v, n in rows.items()], vocab)


def test_a_value_cut_at_its_conjunction_is_found_without_it():
    """A list split badly leaves "and coral reef ecology" in the store; a question writes the
    topic without the "and", and the stored value is what the query must compare with."""
    index = index_of("Person", ["studies"], {"and coral reef ecology": 1, "tidal flats": 2})
    [m] = index.matches("Who works on coral reef ecology?")
    assert (m.text, m.exact, m.stored) == ("coral reef ecology", True, ("and coral reef ecology",))


def test_a_word_inside_a_long_text_is_not_a_value_the_question_names():
    """A word found only inside a sentence-long literal (a note stored where a code was expected) is
    not a value; inside a short value it is ("reef" in "coral reef ecology")."""
    index = index_of("Course", ["requires", "topic"],
                     {"learners who previously passed the foundation module are exempted from it": 1,
                      "coral reef ecology": 3})
    assert index.matches("Which module must be passed before BIO3001?") == []
    assert {m.text for m in index.matches("Who teaches reef ecology?")} == {"reef ecology"}


def test_a_value_written_in_the_plural_is_found():
    """'the senior lecturers' names the stored value 'Senior Lecturer' (its last word singular)."""
    index = index_of("Person", ["rank"], {"senior lecturer": 4, "reader": 1})
    [m] = index.matches("Which senior lecturers teach harbour law?")
    assert (m.text, m.exact, m.prop) == ("senior lecturers", True, "rank")
    # not a plural of the value: at most a word inside it, never the value itself
    assert not any(m.exact for m in index.matches("Which senior lectures are recorded?"))
