"""Query plans → SPARQL: every compiled plan parses (Oxigraph's own parser) and uses only schema
terms, the IRIs the plan names and the two built-ins the compiler adds (property-based, hypothesis);
unknown terms are refused with the nearest names."""

from __future__ import annotations

import json
import re

import jsonschema
import pyoxigraph as ox
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid.vocab import Vocab
from querying.sparql_plan import (
    OPS,
    RDFS_LABEL,
    XSD_DOUBLE,
    Constraint,
    PlanError,
    QueryPlan,
    Rank,
    Step,
    check_plan,
    compile_plan,
    plan_json_schema,
)

EX = "http://example.org/"


def polyu_like_vocab() -> Vocab:
    c = lambda n: (EX + n, "class", "", "", (), ())
    return Vocab.from_terms([
        c("STAFF"), c("COURSE"), c("DEPARTMENT"), c("FACULTY"),
        (EX + "works_for", "object", "", "", (EX + "STAFF",), (EX + "FACULTY",)),
        (EX + "offered_by", "object", "", "", (EX + "COURSE",), (EX + "FACULTY",)),
        (EX + "belongs_to", "object", "", "", (EX + "DEPARTMENT",), (EX + "FACULTY",)),
        (EX + "has_name", "datatype", "", "", (EX + "STAFF",), ()),
        (EX + "has_research_interest", "datatype", "", "", (EX + "STAFF",), ()),
        (EX + "has_credit_value", "datatype", "", "", (EX + "COURSE",), ()),
        # a second namespace sharing a local name: the short names must stay unique
        ("http://other.org/onto#has_name", "datatype", "name", "", (), ()),
    ], {EX + "DEPARTMENT": {EX + "FACULTY"}})


VOCAB = polyu_like_vocab()
PARSER = ox.Store()
CLASSES = [t.name for t in VOCAB.classes]
OBJECTS = [t.name for t in VOCAB.properties if t.kind == "object"]
DATATYPES = [t.name for t in VOCAB.properties if t.kind == "datatype"]
instance_iris = st.builds(lambda s: EX + s, st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,12}", fullmatch=True))


@st.composite
def constraints(draw) -> Constraint:
    hops = draw(st.lists(st.builds(Step, property=st.sampled_from(OBJECTS), inverse=st.booleans()), max_size=2))
    if draw(st.booleans()):  # ends in entities
        path = hops + [draw(st.builds(Step, property=st.sampled_from(OBJECTS), inverse=st.booleans()))]
        return Constraint(path=path, op=draw(st.sampled_from(["eq", "ne"])),
                          values=draw(st.lists(instance_iris, min_size=1, max_size=3)))
    path = hops + [Step(property=draw(st.sampled_from(DATATYPES)))]
    op = draw(st.sampled_from(OPS))
    if op in ("lt", "le", "gt", "ge"):
        values = [repr(v) for v in draw(st.lists(st.floats(allow_nan=False, allow_infinity=False, width=32),
                                                 min_size=1, max_size=2))]
    else:
        values = draw(st.lists(st.text(max_size=30), min_size=1, max_size=3))
    return Constraint(path=path, op=op, values=values)


plans = st.builds(QueryPlan, target=st.sampled_from(CLASSES), constraints=st.lists(constraints(), max_size=3),
                  returns=st.lists(st.sampled_from(DATATYPES), max_size=2, unique=True),
                  candidates=st.lists(instance_iris, max_size=4), count=st.booleans())


rank_paths = st.builds(lambda hops, last: hops + last,
                       st.lists(st.builds(Step, property=st.sampled_from(OBJECTS), inverse=st.booleans()), max_size=1),
                       st.one_of(st.builds(lambda s: [s], st.builds(Step, property=st.sampled_from(OBJECTS),
                                                                    inverse=st.booleans())),
                                 st.builds(lambda n: [Step(property=n)], st.sampled_from(DATATYPES))))
ranked = st.builds(QueryPlan, target=st.sampled_from(CLASSES), constraints=st.lists(constraints(), max_size=2),
                   candidates=st.lists(instance_iris, max_size=4),
                   rank=st.builds(Rank, path=rank_paths, counted=st.one_of(st.none(), st.sampled_from(CLASSES)),
                                  order=st.sampled_from(["most", "fewest"]),
                                  having=st.one_of(st.none(), st.tuples(st.sampled_from(["gt", "ge", "lt", "le"]),
                                                                        st.floats(-1e6, 1e6)))))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=st.one_of(plans, ranked), limit=st.one_of(st.none(), st.integers(1, 10_000)))
def test_every_compiled_plan_parses_and_uses_only_schema_terms(plan: QueryPlan, limit):
    query = compile_plan(plan, VOCAB, limit=limit)
    PARSER.query(query)  # raises SyntaxError if Oxigraph cannot parse it
    allowed = {t.iri for t in VOCAB.terms.values()} | {RDFS_LABEL, XSD_DOUBLE} | set(plan.candidates)
    allowed |= {v for c in plan.constraints for v in c.values}
    # IRIs outside string literals (a value may itself read "<0>")
    outside = re.sub(r'"(?:[^"\\]|\\.)*"', '""', query)
    used = set(re.findall(r"<([^<>\s\"]+)>", outside))
    assert used <= allowed, used - allowed


def test_plan_semantics_on_a_small_store():
    store = ox.Store()
    data = f"""
    @prefix ex: <{EX}> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
    ex:SD a ex:DEPARTMENT ; rdfs:label "School of Design" ; ex:belongs_to ex:FX .
    ex:FX a ex:FACULTY ; rdfs:label "Other faculties" .
    ex:s1 a ex:STAFF ; rdfs:label "Ann" ; ex:works_for ex:SD ; ex:has_research_interest "Interaction Design" .
    ex:s2 a ex:STAFF ; rdfs:label "Bo" ; ex:works_for ex:SD ; ex:has_research_interest "Robotics" .
    ex:c1 a ex:COURSE ; rdfs:label "SD101" ; ex:offered_by ex:SD ; ex:has_credit_value 3 .
    """
    store.load(data.encode(), ox.RdfFormat.TURTLE)

    def labels(plan: QueryPlan) -> set[str]:
        return {r["x_label"].value for r in store.query(compile_plan(plan, VOCAB))}

    works_for_sd = Constraint(path=[Step(property="works_for")], values=[EX + "SD"])
    assert labels(QueryPlan(target="STAFF", constraints=[works_for_sd])) == {"Ann", "Bo"}
    assert labels(QueryPlan(target="STAFF", constraints=[works_for_sd], candidates=[EX + "s2"])) == {"Bo"}
    design = Constraint(path=[Step(property="has_research_interest")], op="contains", values=["DESIGN"])
    assert labels(QueryPlan(target="STAFF", constraints=[design])) == {"Ann"}
    # faculty of a staff member's department: two steps walked backwards from the faculty
    via = Constraint(path=[Step(property="belongs_to", inverse=True), Step(property="works_for", inverse=True)],
                     values=[EX + "s1"])
    assert labels(QueryPlan(target="FACULTY", constraints=[via])) == {"Other faculties"}
    credits = Constraint(path=[Step(property="has_credit_value")], op="ge", values=["3"])
    assert labels(QueryPlan(target="COURSE", constraints=[credits])) == {"SD101"}
    count = compile_plan(QueryPlan(target="STAFF", constraints=[works_for_sd], count=True), VOCAB)
    assert next(iter(store.query(count)))["count"].value == "2"



def test_a_ranked_plan_orders_by_how_many_each_reaches():
    store = ox.Store()
    store.load(f"""
    @prefix ex: <{EX}> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
    ex:D1 a ex:DEPARTMENT ; rdfs:label "Optics" . ex:D2 a ex:DEPARTMENT ; rdfs:label "Acoustics" .
    ex:D3 a ex:DEPARTMENT ; rdfs:label "Empty" .
    ex:a a ex:STAFF ; ex:works_for ex:D1 ; ex:has_research_interest "lenses", "lasers", "fibres" .
    ex:b a ex:STAFF ; ex:works_for ex:D1 ; ex:has_research_interest "lasers" .
    ex:c a ex:STAFF ; ex:works_for ex:D2 .
    """.encode(), ox.RdfFormat.TURTLE)

    def ranked(plan: QueryPlan) -> list[tuple[str, str]]:
        return [(r["x"].value.removeprefix(EX), r["n"].value) for r in store.query(compile_plan(plan, VOCAB))]

    staff = [Step(property="works_for", inverse=True)]
    assert ranked(QueryPlan(target="DEPARTMENT", rank=Rank(path=staff, counted="STAFF"))) == [("D1", "2"), ("D2", "1")]
    assert ranked(QueryPlan(target="DEPARTMENT", rank=Rank(path=staff, order="fewest")))[0] == ("D2", "1")
    past_one = Rank(path=staff, having=("gt", 1))
    assert ranked(QueryPlan(target="DEPARTMENT", rank=past_one)) == [("D1", "2")]
    interests = Rank(path=[Step(property="has_research_interest")])
    assert ranked(QueryPlan(target="STAFF", rank=interests))[0] == ("a", "3")
    assert any("counts or ranks" in p for p in check_plan(QueryPlan(target="STAFF", rank=interests, count=True), VOCAB))
    inner = Rank(path=[Step(property="has_research_interest"), Step(property="works_for")])
    assert any("can only end its path" in p for p in check_plan(QueryPlan(target="STAFF", rank=inner), VOCAB))


def test_unknown_terms_are_refused_with_the_nearest_names():
    plan = QueryPlan(target="STAF", constraints=[Constraint(path=[Step(property="work_for")], values=[EX + "SD"])],
                     returns=["has_nam"])
    problems = check_plan(plan, VOCAB)
    assert any("class 'STAF' does not exist; nearest: STAFF" in p for p in problems)
    assert any("property 'work_for' does not exist; nearest: works_for" in p for p in problems)
    assert any("'has_nam' does not exist; nearest: has_name" in p for p in problems)
    with pytest.raises(PlanError, match="nearest: works_for"):
        compile_plan(plan, VOCAB)


def test_misuse_of_known_terms_is_refused():
    bad_op = QueryPlan(target="STAFF", constraints=[Constraint(path=[Step(property="works_for")], op="contains",
                                                               values=[EX + "SD"])])
    assert any("takes op eq or ne" in p for p in check_plan(bad_op, VOCAB))
    not_iri = QueryPlan(target="STAFF", constraints=[Constraint(path=[Step(property="works_for")],
                                                                values=["School of Design"])])
    assert any("not an IRI" in p for p in check_plan(not_iri, VOCAB))
    injected = QueryPlan(target="STAFF", candidates=["http://x.org/a> } DROP ALL { <b"])
    assert any("not an IRI" in p for p in check_plan(injected, VOCAB))
    words = QueryPlan(target="COURSE", constraints=[Constraint(path=[Step(property="has_credit_value")], op="lt",
                                                               values=["three"])])
    assert any("needs numbers" in p for p in check_plan(words, VOCAB))


def test_json_schema_enums_are_schema_terms():
    schema = plan_json_schema(VOCAB)
    jsonschema.Draft202012Validator.check_schema(schema)
    props = schema["properties"]
    assert set(props["target"]["enum"]) == set(CLASSES)
    step = props["constraints"]["items"]["properties"]["path"]["items"]["properties"]["property"]
    assert set(step["enum"]) == set(OBJECTS) | set(DATATYPES)
    assert "has_name" in step["enum"] and "onto:has_name" in step["enum"]  # unique short names
    plan = {"target": "STAFF", "constraints": [{"path": [{"property": "works_for", "inverse": False}], "op": "eq",
                                                "values": [EX + "SD"]}], "returns": [], "count": False}
    jsonschema.validate(plan, schema)
    compile_plan(QueryPlan.model_validate(plan), VOCAB)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**plan, "target": "PERSON"}, schema)
    assert json.dumps(schema)  # serialisable as sent to a provider
