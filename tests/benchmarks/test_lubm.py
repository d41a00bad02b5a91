"""LUBM: the generator follows the UBA rules deterministically, and on a small LUBM (one university,
two departments) every one of the 14 queries answers exactly as over owlrl's OWL 2 RL closure
(the reference reasoner; both closures queried with Oxigraph so only the reasoning is compared;
rdflib's own query evaluation is left to the benchmark, where its Q2 and Q9 take minutes)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from benchmarks.lubm import ours, reference
from benchmarks.lubm.generator import generate, university
from benchmarks.lubm.queries import QUERIES


def test_generator_is_deterministic_and_seeded():
    assert university(0, seed=1, departments=1) == university(0, seed=1, departments=1)
    assert university(0, seed=1, departments=1) != university(0, seed=2, departments=1)


def test_generator_follows_the_uba_ranges():
    lines = university(0, seed=3)
    types = Counter(m.group(1) for l in lines if (m := re.search(r"univ-bench.owl#(\w+)> \.$", l)))
    depts = types["Department"]
    assert 15 <= depts <= 25
    for kind, (lo, hi) in {"FullProfessor": (7, 10), "AssociateProfessor": (10, 14),
                           "AssistantProfessor": (8, 11), "Lecturer": (5, 7), "ResearchGroup": (10, 20)}.items():
        assert lo * depts <= types[kind] <= hi * depts, kind
    faculty = sum(types[k] for k in ("FullProfessor", "AssociateProfessor", "AssistantProfessor", "Lecturer"))
    assert 8 * faculty <= types["UndergraduateStudent"] <= 14 * faculty
    assert 3 * faculty <= types["GraduateStudent"] <= 4 * faculty
    heads = [l for l in lines if "#headOf>" in l]
    assert len(heads) == depts and all("/FullProfessor" in h for h in heads)


@pytest.fixture(scope="module")
def small_lubm(tmp_path_factory, shared_data):
    tmp = tmp_path_factory.mktemp("lubm")
    data = generate(1, tmp / "data", seed=0, departments=2)
    ontology = shared_data / "lubm" / "univ-bench.owl"
    return data, ours(ontology, data, tmp), reference(ontology, data, query_timeout=0)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(QUERIES))
def test_every_lubm_query_equals_the_reference(small_lubm, name):
    _, mine, ref = small_lubm
    assert mine["answers"][name] == ref["closure_answers"][name]


@pytest.mark.slow
def test_answers_match_counts_read_off_the_data(small_lubm):
    data, mine, _ = small_lubm
    text = data[0].read_text(encoding="utf-8")
    typed = Counter(re.findall(r"univ-bench.owl#(\w+)> \.$", text, re.MULTILINE))
    assert len(mine["answers"]["Q14"]) == typed["UndergraduateStudent"]
    assert len(mine["answers"]["Q6"]) == typed["UndergraduateStudent"] + typed["GraduateStudent"]
    assert len(mine["answers"]["Q11"]) == typed["ResearchGroup"]     # transitive subOrganizationOf
    assert len(mine["answers"]["Q12"]) == typed["Department"] == 2    # one chair (head) per department
    assert all(n > 0 for n in map(len, mine["answers"].values()))


@pytest.mark.slow
def test_the_sparql_rule_alternative_reaches_the_same_answers(small_lubm, shared_data):
    """The benchmark's other materialiser (the same rules as SPARQL INSERTs to a fixpoint in Oxigraph)
    is only a fair comparison if it computes the same closure: all 14 answer sets equal ours."""
    from benchmarks.lubm.sparql_rules import sparql_fixpoint

    data, mine, _ = small_lubm
    rules = sparql_fixpoint(shared_data / "lubm" / "univ-bench.owl", data, QUERIES)
    assert rules["rounds"] >= 2 and rules["closure"] > rules["asserted"]
    assert {n: len(rules["answers"][n]) for n in QUERIES} == {n: len(mine["answers"][n]) for n in QUERIES}
    assert all(rules["answers"][n] == mine["answers"][n] for n in QUERIES)


@pytest.mark.slow
def test_the_bench_at_scale_checks_answers_without_rdflib(tmp_path, shared_data):
    """`bench lubm --no-reference` (LUBM(10) and up): no rdflib; its own report, answers checked."""
    import json

    from benchmarks.lubm import run

    result = run(1, tmp_path, departments=1, with_reference=False, ontology=shared_data / "lubm" / "univ-bench.owl")
    assert result["all_equal"] and "reference" not in result
    saved = json.loads((tmp_path / "lubm-1.json").read_text())
    assert saved["queries"]["Q14"]["answers"] > 0 and saved["sparql_rules_memory"]["rounds"] >= 2
