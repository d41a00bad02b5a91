"""HermiT (owlready2's, on this machine's Java) checks the extended schema before apply: a proposal
that makes a class unsatisfiable is refused with the class named, and nothing is written; an ordinary
one applies. The schemas are written here."""

from __future__ import annotations

import shutil

import pytest

from completion.apply import check_with_reasoner
from completion.dl_check import hermit, introduced
from completion.errors import ReviewError
from completion.target import OWL, RDF_TYPE, RDFS, Statement

EX = "http://example.org/"
# Visitors have some award; visitors and members are disjoint. Nothing wrong yet: has_award has no domain.
SCHEMA = [
    f"<{EX}Member> <{RDF_TYPE}> <{OWL}Class> .",
    f"<{EX}Visitor> <{RDF_TYPE}> <{OWL}Class> .",
    f"<{EX}Visitor> <{OWL}disjointWith> <{EX}Member> .",
    f"<{EX}Visitor> <{RDFS}subClassOf> _:r .",
    f"_:r <{RDF_TYPE}> <{OWL}Restriction> .",
    f"_:r <{OWL}onProperty> <{EX}has_award> .",
    f"_:r <{OWL}someValuesFrom> <{OWL}Thing> .",
    f"<{EX}has_award> <{RDF_TYPE}> <{OWL}ObjectProperty> .",
]

pytestmark = pytest.mark.skipif(shutil.which("java") is None, reason="no Java runtime for HermiT on this machine")


def test_hermit_finds_what_a_new_domain_makes_unsatisfiable():
    before = hermit(SCHEMA)
    assert before.consistent and before.unsatisfiable == []
    # a curator accepts has_award with domain Member: every visitor becomes a member, which it cannot be
    after = hermit([*SCHEMA, f"<{EX}has_award> <{RDFS}domain> <{EX}Member> ."])
    assert after.consistent and after.unsatisfiable == [EX + "Visitor"]
    assert introduced(before, after) == ["unsatisfiable: Visitor (equivalent to owl:Nothing: no individual "
                                         "can be in them)"]


def test_apply_is_refused_with_the_class_named_and_allowed_otherwise():
    clash = [Statement(EX + "has_award", RDFS + "domain", EX + "Member")]
    with pytest.raises(ReviewError, match="HermiT refuses the extended schema: unsatisfiable: Visitor"):
        check_with_reasoner(SCHEMA, clash, "auto")
    fine = [Statement(EX + "has_email", RDF_TYPE, OWL + "DatatypeProperty"),
            Statement(EX + "has_email", RDFS + "domain", EX + "Member")]
    assert check_with_reasoner(SCHEMA, fine, "auto").startswith("HermiT: consistent, no class made unsatisfiable")
    assert "off" in check_with_reasoner(SCHEMA, clash, "off")
