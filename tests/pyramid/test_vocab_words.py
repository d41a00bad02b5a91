"""`pyramid.vocab.word_forms`: a plural meets its singular by English morphology (-es after a sibilant
or an o, -ies for -y, else -s), so "trees" and "tree" share a form and "boxes" and "box" do too."""

from __future__ import annotations

from pyramid.vocab import word_forms
from querying.planning.wording import forms


def test_a_plural_and_its_singular_share_their_shortest_form():
    for plural, singular in (("trees", "tree"), ("genres", "genre"), ("prices", "price"), ("courses", "course"),
                             ("boxes", "box"), ("churches", "church"), ("heroes", "hero"), ("faculties", "faculty"),
                             ("departments", "department")):
        assert forms(plural) == forms(singular), (plural, forms(plural), forms(singular))


def test_no_form_cuts_into_the_stem():
    assert "tre" not in word_forms("trees") and "pric" not in word_forms("prices")
    assert "box" in word_forms("boxes") and "class" in word_forms("classes")
