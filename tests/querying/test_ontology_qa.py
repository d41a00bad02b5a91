"""The ontology layer's answerer over the real PolyU ontology (imported once per module into a real
Oxigraph-backed workspace, reasoned). Control flow runs with the scripted LLM (canned replies keyed by
prompt text; a provider without rules proves a path makes no LLM call): plan mode, the model's small
choice, raw mode's repair loop. One end-to-end `ask --layer ontology` runs the real SmolLM2 model.
Gold options were read off the AcadChall dev file / the Turtle file by hand."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT, run_cli

from pyramid.config import load_settings
from pyramid.errors import QueryRefused
from pyramid.llm.scripted import ScriptedProvider, Seq
from pyramid.session import Session
from pyramid.workspace import Workspace
from querying import ontology_context
from querying.ontology_qa import answer_ontology, context

EX = "http://example.org/"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"


@pytest.fixture(scope="module")
def polyu_ws(tmp_path_factory, shared_data) -> Workspace:
    ws = Workspace.init(tmp_path_factory.mktemp("polyu") / "ws")
    s = Session(ws)
    s.ontology.import_instances(shared_data / "polyu" / "polyu_onto.ttl")
    s.ontology.reason()
    return ws


@pytest.fixture(scope="module")
def academic_polyu_ws(tmp_path_factory, shared_data) -> Workspace:
    """The shipped academic schema (STAFF labelled "staff member", altLabel "staff", with seven
    subclasses) over the PolyU instances."""

    ws = Workspace.init(tmp_path_factory.mktemp("academic") / "ws")
    s = Session(ws)
    s.ontology.load_schema(ROOT / "ontology_schemas" / "academic.ttl")
    s.ontology.import_instances(shared_data / "polyu" / "polyu_onto.ttl")
    s.ontology.reason()
    return ws


def session(ws: Workspace, embedder, rules=None, **ontology) -> Session:
    # the scripted model stands in for the default one: no close call goes to it unless a test says so
    ontology = {"reading_margin": 0.0, **ontology}
    settings = load_settings(ws.root / "polyrag.toml", llm={"cache": False}, ontology=ontology)
    return Session(Workspace(ws.root, settings), provider=ScriptedProvider(rules or {}), embedder=embedder)


def gold_count(s: Session, body: str) -> int:
    """Gold by a fixed SPARQL count over `?c` (not by the planner under test)."""
    return int(next(iter(s.ontology.select_trusted(
        f"PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE {{ {body} }}")))["n"])


SD_STAFF = ["Henry Duh", "Prof. Daniel T.L. SHEK", "Dr Yijing LI", "Vincie PY Lee", "Shera Hyunyim Park",
            "Ms Jin HUANG", "Dr Richard LI", "WONG Wai On 黃偉安 (Dr)"]
FACULTIES = ["Faculty of Health and Social Sciences", "Faculty of Humanities", "OtherFaculties",
             "Faculty of Construction and Environment", "Faculty of Business", "Faculty of Engineering",
             "Faculty of Science", "None of the above"]


def test_plan_mode_answers_mcq_and_maq_without_the_model(polyu_ws, embedder):
    s = session(polyu_ws, embedder)  # no scripted rules: any LLM call would raise
    maq = answer_ontology(s, "Which of the following staff members work for the School of Design?", options=SD_STAFF)
    assert maq.layer == "ontology" and maq.selected == [0, 3, 4] and maq.usage.calls == 0
    ev = maq.evidence[0]
    assert ev.kind == "sparql" and ev.plan["target"] == "STAFF" and "works_for" in ev.query and ev.rows
    assert [t.step for t in maq.trace] == ["ontology.context", "ontology.plan", "ontology.run", "ontology.decide"]
    two_hops = answer_ontology(s, "Which faculty does the department of Dr Shuran ZHANG belong to?", options=FACULTIES)
    assert two_hops.selected == [4] and "belongs_to" in two_hops.evidence[0].query
    literal = answer_ontology(s, "Which of the following staff members have research interests in mechatronics?",
                              options=["Y.M. Li", "ZHANG Dan", "Dr Huang Bolong", "Stephen J. Wang",
                                       "Ir Prof. K.L. Yung", "Dr Huang Xinyan", "Dr Joe CHING",
                                       "Ir Dr Duo Wai-chi WONG"])
    assert literal.selected == [0, 1, 4]
    free = answer_ontology(s, 'Which department offers the subject AAE6203 "Mathematics for Aircraft Structure, '
                              'Guidance, Navigation, and Control"?')
    assert free.layer == "ontology" and free.text == "Department of Aeronautical and Aviation Engineering"
    attribute = answer_ontology(s, "What is the credit value of AAE6203?")
    assert attribute.layer == "ontology" and attribute.text.endswith(": 3")


# Questions in our own words (none of these wordings is in the AcadChall files): the readings are
# found from what the question names and the schema's paths, not from how it is phrased.
@pytest.mark.parametrize("question,expected", [
    ("Which unit is in charge of the subject AAE6203?", "Department of Aeronautical and Aviation Engineering"),
    ("AAE6203 — who runs it?", "Department of Aeronautical and Aviation Engineering"),
    ("Dr Shuran ZHANG's department sits in which faculty?", "Faculty of Business"),
    ("Under which faculty does AAE6203 fall?", "Faculty of Engineering"),
    ("At what level is AAE6203 pitched?", "6"),
    ("How many credits does one earn for AAE6203?", "3"),
])
def test_open_questions_in_unseen_wordings(polyu_ws, embedder, question, expected):
    s = session(polyu_ws, embedder)
    ans = answer_ontology(s, question)
    assert ans.layer == "ontology" and expected in ans.text and ans.usage.calls == 0, (ans.text, ans.trace[1].input)


def test_a_name_that_is_also_a_value_is_read_as_the_value_the_question_names(polyu_ws, embedder):
    """"Information Technology" titles a course and is a research interest of several staff: a
    question about research reads the interest; one that does not name it reads the course."""
    s = session(polyu_ws, embedder)
    gold = {r["s"] for r in s.ontology.select_trusted(
        f'SELECT ?s WHERE {{ ?s <{EX}has_research_interest> ?v FILTER(LCASE(STR(?v)) = "information technology") }}')}
    research = answer_ontology(s, "Name the academics for whom information technology is a research topic.")
    assert research.evidence[0].plan["target"] == "STAFF" and len(gold) >= 2
    assert {r["x"] for r in research.evidence[0].rows} == gold
    course = answer_ontology(s, "Which department puts on Information Technology?")
    assert course.evidence[0].plan["target"] == "DEPARTMENT"


def test_a_faculty_question_takes_the_second_hop_even_without_options(polyu_ws, embedder):
    # works_for is ranged on FACULTY and DEPARTMENT is a subclass of FACULTY: the one-step reading
    # returns the department, which is a "faculty" only through the axiom; the answer is the faculty
    s = session(polyu_ws, embedder)
    ans = answer_ontology(s, "Which faculty is Dr Shuran ZHANG in?")
    assert ans.text == "Faculty of Business" and "belongs_to" in ans.evidence[0].query


def test_counts_are_counted(polyu_ws, embedder):
    s = session(polyu_ws, embedder)
    gold = s.ontology.select_trusted(f"SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE {{ ?s <{EX}works_for> <{EX}SD> }}")
    ans = answer_ontology(s, "How many people are on the payroll of the School of Design?")
    assert ans.layer == "ontology" and ans.text == gold[0]["n"] and "COUNT" in ans.evidence[0].query
    listed = answer_ontology(s, "List the people on the payroll of the School of Design.")
    assert "COUNT" not in listed.evidence[0].query and "Henry Duh" in listed.text


def test_a_count_with_options_chooses_the_option_that_is_its_number(polyu_ws, embedder):
    s = session(polyu_ws, embedder)
    n = int(s.ontology.select_trusted(
        f"SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE {{ ?s <{EX}works_for> <{EX}SD> }}")[0]["n"])
    question = "How many people are on the payroll of the School of Design?"
    options = [str(n + 2), str(n), str(n - 1), "None of the above"]
    ans = answer_ontology(s, question, options=options)
    assert ans.layer == "ontology" and ans.selected == [1]
    # no option is the count: the layer chooses none and passes the question down
    missed = answer_ontology(s, question, options=[str(n + 1), str(n + 3)])
    assert missed.layer == "none" and not missed.selected


def test_a_count_counts_the_noun_after_its_cue(polyu_ws, embedder):
    # the question names the departments, but what it counts is people: the staff of the faculty's
    # departments (two steps), not the departments
    s = session(polyu_ws, embedder)
    gold = s.ontology.select_trusted(
        f"SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE {{ ?s <{EX}works_for> ?d . ?d <{EX}belongs_to> <{EX}FB> }}")
    ans = answer_ontology(s, "Tally up the people on the books of the Faculty of Business's departments.")
    assert ans.layer == "ontology" and ans.text == gold[0]["n"] and int(gold[0]["n"]) > 20, ans.trace[1].input
    units = answer_ontology(s, "Tally up the departments of the Faculty of Business.")
    assert "works_for" not in units.evidence[0].query and "COUNT" in units.evidence[0].query


def test_options_are_evidence_of_what_is_asked(polyu_ws, embedder):
    # the wording alone leans to another reading; the options (staff) settle the answer class
    s = session(polyu_ws, embedder)
    ans = answer_ontology(s, "Which of these names belong with the School of Design?", options=SD_STAFF)
    assert ans.evidence[0].plan["target"] == "STAFF" and ans.selected == [0, 3, 4]


@pytest.mark.parametrize("question,expected", [
    ("Where is Jiyan Dai based?", "Department of Applied Physics"),
    ("Where does Prof. Daniel T.L. SHEK hold his post?", "Department of Applied Social Sciences"),
])
def test_where_asks_for_a_place_or_a_body_not_a_value(polyu_ws, embedder, question, expected):
    # MiniLM puts these nearer "what is the position of X?" than "X works for which department?"; English
    # asks for a place or a body with "where", so a value reading that the question does not name loses
    s = session(polyu_ws, embedder)
    ans = answer_ontology(s, question)
    assert ans.text == expected and "works_for" in ans.evidence[0].query, ans.trace[1].input


def test_where_may_ask_for_a_value_whose_property_says_a_place(polyu_ws, embedder):
    # "graduated from" ends on a preposition of place: its value is a place, and "where" may ask for it
    s = session(polyu_ws, embedder)
    ans = answer_ontology(s, "Where did Dr. Shuran ZHANG get the doctorate?")
    assert "graduated_from" in ans.evidence[0].query, ans.trace[1].input


def test_a_class_with_two_names_is_read_under_the_nearer_one(polyu_ws, embedder):
    # COURSE's properties all say "subject": "which course (subject) offered by X?" reads like neither
    # name, and lost "What does X offer?" to the staff who work there
    s = session(polyu_ws, embedder)
    ans = answer_ontology(s, "What does the Department of Applied Physics offer?")
    assert ans.evidence[0].plan["target"] == "COURSE" and "offered_by" in ans.evidence[0].query, ans.trace[1].input


def test_the_words_outside_a_name_survive_however_many_readings_share_it(polyu_ws, embedder):
    # every reading of one anchor carries it: masking each copy in turn once cut the words after it
    from querying.planning.planner import ReadingPlanner
    from querying.planning.wording import words_outside

    s = session(polyu_ws, embedder)
    ctx = context(s)
    planner = ReadingPlanner(ctx.vocab, ctx.index, ctx.values, embedder, s.llm)
    question = "Where does Jiyan Dai lecture nowadays?"
    names = [a for a in planner.anchors(question) if not a.is_value]
    assert [a.text for a in names] == ["Jiyan Dai"]
    assert {"lecture", "nowaday"} <= words_outside(question, names * 3)


def test_a_code_and_a_shared_title_side_by_side_name_the_one_subject_both_fit(polyu_ws, embedder):
    # PolyU has two subjects titled "Intelligent Transportation Systems" (LSGI3213, LSGI's; EE4019, EEE's):
    # the code beside the title says which one is meant
    s = session(polyu_ws, embedder)
    ans = answer_ontology(s, "For LSGI3213 (Intelligent Transportation Systems), who is the organising department?")
    assert ans.text == "Department of Land Surveying and Geo-Informatics", ans.trace[1].input
    assert f"<{EX}lsgi3213>" in ans.evidence[0].query and "ee4019" not in ans.evidence[0].query


@pytest.mark.parametrize("question", ["What rank does Prof. Shuran ZHANG hold?", "What is Dr. Shuran ZHANG's rank?"])
def test_the_title_before_a_name_is_part_of_the_name_not_of_the_question(polyu_ws, embedder, question):
    # left in the question, "Prof." pulls it towards FACULTY and "Dr." towards degrees; the rank asked
    # for is the stored position
    s = session(polyu_ws, embedder)
    gold = {r["v"] for r in s.ontology.select_trusted(
        f'SELECT ?v WHERE {{ ?s <{EX}has_position> ?v ; <{EX}has_name> ?n FILTER(CONTAINS(STR(?n), "Shuran")) }}')}
    ans = answer_ontology(s, question)
    assert gold and "has_position" in ans.evidence[0].query and ans.text.endswith(": " + gold.pop()), ans.text


def test_a_value_the_question_states_is_not_what_it_asks(polyu_ws, embedder):
    s = session(polyu_ws, embedder)
    ans = answer_ontology(s, "Who is behind AAE6203 (Mathematics for Aircraft Structure, Guidance, Navigation, "
                             "and Control)?")
    assert "has_subject_title" not in ans.evidence[0].query


def test_a_bare_class_word_names_that_class_not_a_subclass(academic_polyu_ws, embedder):
    s = session(academic_polyu_ws, embedder)  # no scripted rules: any LLM call would raise
    bare = answer_ontology(s, "Which staff work for the School of Design?")
    assert bare.usage.calls == 0 and bare.evidence[0].plan["target"] == "STAFF" and bare.evidence[0].rows
    mcq = answer_ontology(s, "Which of the following staff work for the School of Design?", options=SD_STAFF)
    assert mcq.layer == "ontology" and mcq.selected == [0, 3, 4] and mcq.usage.calls == 0


def test_a_question_naming_the_class_it_asks_for_gets_that_class_or_nothing(polyu_ws, embedder):
    """"Which subject …" asks for subjects: where the only readings of what it names answer with staff
    (a research interest only staff hold), the layer passes the question on rather than name a person."""
    s = session(polyu_ws, embedder)  # no scripted rules: any LLM call would raise
    topic = "3D building model-based pedestrian positioning"
    other = answer_ontology(s, f"Which subject is about {topic}?")
    assert other.layer == "none" and "asks for a course" in other.trace[-1].outcome
    staff = answer_ontology(s, f"Which staff work on {topic}?")
    assert staff.layer == "ontology" and staff.evidence[0].plan["target"] == "STAFF" and staff.evidence[0].rows


def test_empty_or_too_broad_is_not_answered_here(polyu_ws, embedder):
    s = session(polyu_ws, embedder, max_rows=10)
    broad = answer_ontology(s, "Which staff members work for the School of Design?")
    assert broad.layer == "none" and broad.trace[-1].outcome.startswith("too broad: 58 answers")
    assert broad.evidence and broad.selected is None  # the evidence stays for the next layer
    empty = answer_ontology(s, "Which staff members have research interests in underwater basket weaving?")
    assert empty.layer == "none"


def test_the_model_only_picks_among_close_readings(polyu_ws, embedder):
    # a margin as wide as the scale: every question is a close call, so the model picks, by number,
    # among readings written out in full
    s = session(polyu_ws, embedder, {"Which reading matches": {"choice": 2}}, reading_margin=1.0)
    ans = answer_ontology(s, "Who works on proteomics?")
    assert ans.usage.calls == 1
    prompt = s.llm.provider.calls[0][-1]["content"]
    second = next(line for line in prompt.splitlines() if line.startswith("2. "))[3:]
    assert ans.trace[1].input["decisions"]["reading"].startswith(second)
    assert "chosen by the model" in ans.trace[1].input["decisions"]["choice"]
    # with the default margin the same question is no close call: no model
    plain = answer_ontology(session(polyu_ws, embedder), "Who has research interests in proteomics?")
    assert plain.usage.calls == 0 and "Prof. Zhou Lei" in plain.text
    # a count asked for is answered by a count alone: a list of the same staff answers no "how many"
    count = answer_ontology(s, "How many staff have research interests in proteomics?")
    assert count.usage.calls == 0 and count.text.strip().isdigit(), count.text


def test_raw_mode_feeds_errors_back_for_one_repair(polyu_ws, embedder):
    wrong = {"sparql": "SELECT ?x ?label WHERE { ?x ex:work_for ex:SD ; a ex:STAF ; rdfs:label ?label }"}
    right = {"sparql": "SELECT ?x ?label WHERE { ?x ex:works_for ex:SD ; a ex:STAFF ; rdfs:label ?label } LIMIT 5"}
    s = session(polyu_ws, embedder, {"Write one SPARQL SELECT": wrong, "This query is wrong": right})
    ans = answer_ontology(s, "Name five staff members of the School of Design.", mode="raw")
    assert ans.usage.calls == 2 and ans.layer == "ontology" and len(ans.evidence[0].rows) == 5
    repair = s.llm.provider.calls[1][-1]["content"]
    assert "property work_for does not exist; nearest: works_for" in repair
    assert "class STAF does not exist; nearest: STAFF" in repair

    # a repair that is still wrong: not answered, the errors are in the trace, exactly two calls
    s = session(polyu_ws, embedder, {"Write one SPARQL SELECT": wrong, "This query is wrong": wrong})
    ans = answer_ontology(s, "Name five staff members of the School of Design.", mode="raw")
    assert ans.layer == "none" and ans.usage.calls == 2
    assert any("nearest: works_for" in e for e in ans.trace[-1].input["errors"])


def test_a_query_that_fails_when_run_is_a_layer_failure_not_a_silent_miss(polyu_ws, embedder, monkeypatch):
    from pyramid.errors import QueryTimeout
    from querying.waterfall import answer_waterfall

    right = {"sparql": "SELECT ?x ?label WHERE { ?x ex:works_for ex:SD ; a ex:STAFF ; rdfs:label ?label } LIMIT 5"}
    s = session(polyu_ws, embedder, {"Write one SPARQL SELECT": right})
    checks = s.ontology.select

    def costly(query, **kw):  # the IRI checks run; the question's own query times out
        if "LIMIT 5" in query:
            raise QueryTimeout("the query ran longer than 0.1 s and was stopped")
        return checks(query, **kw)

    monkeypatch.setattr(s.ontology, "select", costly)
    ans = answer_ontology(s, "Name five staff members of the School of Design.", mode="raw")
    assert ans.layer == "none" and ans.trace[-1].step == "ontology.error"
    assert "QueryTimeout" in ans.trace[-1].outcome
    # the waterfall's closing note names the layer that failed (only the ontology layer here)
    whole = answer_waterfall(s, "Name five staff members of the School of Design.", layers=["ontology"],
                             sparql_mode="raw")
    assert whole.layer == "none" and "ontology failed: the query ran longer" in whole.text, whole.text


def test_raw_mode_never_runs_a_write(polyu_ws, embedder):
    drop = {"sparql": "DELETE WHERE { ?s ?p ?o }"}
    s = session(polyu_ws, embedder, {"Write one SPARQL SELECT": drop, "This query is wrong": Seq(drop)})
    before = s.ontology.store.count()
    # refused before anything parses or runs it, refused again after the repair: the layer's error
    with pytest.raises(QueryRefused, match="SPARQL update"):
        answer_ontology(s, "Remove everything.", mode="raw")
    assert s.ontology.store.count() == before and len(s.llm.provider.calls) == 2


def test_context_follows_store_changes(polyu_ws, embedder):
    s = session(polyu_ws, embedder)
    first = context(s)
    assert context(s) is first  # cached per layer while the store is unchanged
    assert first.index.fingerprint == s.ontology.store.generation == first.values.fingerprint


def test_values_that_are_other_subjects_codes_answer_which_subject(polyu_ws, embedder):
    """has_pre_requisite is a datatype property whose values are course codes ("BRE217"): the context
    finds that from the data (no other property's values name other instances), and a question asking
    "which subject/course" may be answered by it (gold read off polyu_onto.ttl: bre415 → BRE206)."""
    s = session(polyu_ws, embedder)
    assert context(s).value_classes == {EX + "has_pre_requisite": EX + "COURSE"}
    for question in ("Before enrolling in BRE415, which course has to be completed?",
                     "Which subject is required ahead of BRE415?"):
        ans = answer_ontology(s, question)
        assert ans.layer == "ontology" and "BRE206" in ans.text, (question, ans.text, ans.trace[1].input)


@pytest.mark.parametrize("question,expected,not_expected", [
    ("What qualification has Alan Kan earned?", "Master of Design", "University of Technology"),
    ("What academic degree does Aimee Lin have?", "BA in Accounting", "Polytechnic"),
    ("From which university did Ada Lo graduate?", "Oklahoma State University", "Bachelor"),
])
def test_a_property_named_by_a_verb_phrase_is_read_as_one(polyu_ws, embedder, question, expected, not_expected):
    """obtained_degree and graduated_from are read "X obtained what degree?" / "X graduated from
    what?": a question about a qualification is the degree, one about a university the institution
    (values read off polyu_onto.ttl by hand)."""
    ans = answer_ontology(session(polyu_ws, embedder), question)
    assert ans.layer == "ontology" and expected in ans.text and not_expected not in ans.text, \
        (ans.text, ans.trace[1].input)


def test_attribute_readings_in_words():
    from querying.planning.enumerate import attribute_words

    assert attribute_words("obtained degree") == ("X obtained what degree?", "what degree?")
    assert attribute_words("graduated from") == ("X graduated from what?", "graduated from what?")
    assert attribute_words("credit value") == ("what is the credit value of X?", "what credit value?")
    assert attribute_words("need") == ("what is the need of X?", "what need?")  # one word: a noun


def test_a_number_beside_its_property_word_is_that_property_value(polyu_ws, embedder):
    """"level 4", "2 credits": a number next to a word of a datatype property's name constrains that
    property (gold by fixed SPARQL here, not by the planner)."""
    s = session(polyu_ws, embedder)

    level4 = gold_count(s, f"?c <{EX}offered_by> <{EX}COMP> ; <{EX}has_subject_level> ?l FILTER(STR(?l) = \"4\")")
    every = gold_count(s, f"?c <{EX}offered_by> <{EX}COMP>")
    assert 0 < level4 < every
    ans = answer_ontology(s, "How many subjects at level 4 does the Department of Computing run?")
    assert ans.layer == "ontology" and str(level4) in ans.text and str(every) not in ans.text, ans.text
    two = gold_count(s, f"?c <{EX}offered_by> <{EX}AMA> ; <{EX}has_credit_value> ?v FILTER(STR(?v) = \"2\")")
    ans = answer_ontology(s, "Which Department of Applied Mathematics subjects carry 2 credits?")
    assert ans.layer == "ontology" and "has_credit_value" in ans.evidence[0].query
    assert len({r["x"] for r in ans.evidence[0].rows}) == two
    # a number beside a class word names no value: "the 3 subjects" is not level 3
    plain = answer_ontology(s, "Which of the 3 subjects below does the Department of Computing offer?")
    assert "has_subject_level" not in plain.evidence[0].query


def test_superlatives_of_quantity_rank_what_the_question_asks_for(polyu_ws, embedder):
    """"the most …", "the fewest …", "the largest number of …" followed by a class's (or an
    attribute's) name rank the asked class by how many each reaches; ties are all answered. Gold by
    fixed SPARQL here, not by the planner."""
    s = session(polyu_ws, embedder)

    def top(query: str, fewest: bool = False) -> tuple[set[str], str]:
        rows = list(s.ontology.select_trusted(query))
        counts = {r["l"]: int(r["n"]) for r in rows}
        best = (min if fewest else max)(counts.values())
        return {label for label, n in counts.items() if n == best}, str(best)

    faculties, n = top(f"SELECT ?l (COUNT(DISTINCT ?d) AS ?n) WHERE {{ ?d <{EX}belongs_to> ?f . ?d a <{EX}DEPARTMENT> . "
                       f"?f a <{EX}FACULTY> ; <{LABEL}> ?l }} GROUP BY ?l")
    ans = answer_ontology(s, "Which faculty is home to the most departments?")
    assert ans.layer == "ontology" and all(f in ans.text for f in faculties) and f": {n}" in ans.text, ans.text
    depts, n = top(f"SELECT ?l (COUNT(DISTINCT ?c) AS ?n) WHERE {{ ?c <{EX}offered_by> ?d ; a <{EX}COURSE> . "
                   f"?d a <{EX}DEPARTMENT> ; <{LABEL}> ?l }} GROUP BY ?l", fewest=True)
    ans = answer_ontology(s, "Which department runs the fewest subjects?")
    assert ans.layer == "ontology" and all(d in ans.text for d in depts) and f": {n}" in ans.text, ans.text
    people, n = top(f"SELECT ?l (COUNT(DISTINCT ?v) AS ?n) WHERE {{ ?x <{EX}has_research_interest> ?v ; "
                    f"a <{EX}STAFF> ; <{LABEL}> ?l }} GROUP BY ?l")
    ans = answer_ontology(s, "Which academic lists the largest number of research interests?")
    assert ans.layer == "ontology" and all(x in ans.text for x in people) and f": {n}" in ans.text, ans.text
    # a comparative ranks the instances the question names, and only those
    ans = answer_ontology(s, "Between the Department of Computing and the School of Design, which employs more staff?")
    comp, sd = (gold_count(s, f"?c <{EX}works_for> <{EX}{d}> ; a <{EX}STAFF>") for d in ("COMP", "SD"))
    winner = "Department of Computing" if comp > sd else "School of Design"
    assert ans.layer == "ontology" and ans.text == f"{winner}: {max(comp, sd)}", ans.text
    # a threshold keeps every instance past it; beside a property's word it compares the value instead
    rows = s.ontology.select_trusted(f"SELECT ?l (COUNT(DISTINCT ?c) AS ?n) WHERE {{ ?c <{EX}offered_by> ?d ; "
                                     f"a <{EX}COURSE> . ?d a <{EX}DEPARTMENT> ; <{LABEL}> ?l }} GROUP BY ?l")
    busy = {r["l"] for r in rows if int(r["n"]) > 150}
    ans = answer_ontology(s, "Name the departments running over 150 subjects.")
    assert ans.layer == "ontology" and {a.split(":")[0] for a in ans.text.split(" | ")} == busy, ans.text
    heavy = gold_count(s, f"?c <{EX}offered_by> <{EX}COMP> ; <{EX}has_credit_value> ?v FILTER(xsd:double(?v) >= 6)")
    ans = answer_ontology(s, "Which Department of Computing subjects are worth at least 6 credits?")
    assert ans.layer == "ontology" and len({r["x"] for r in ans.evidence[0].rows}) == heavy > 0, ans.text
    # "most" that is no superlative of quantity ranks nothing
    plain = answer_ontology(s, "What are the most recent research interests of Dr Paul WANG?")
    assert plain.evidence and plain.evidence[0].plan["rank"] is None


@pytest.mark.parametrize("question,verdict", [
    ("Is AAE6203 run by the Department of Aeronautical and Aviation Engineering?", "Yes"),
    ("Is AAE6203 run by the School of Design?", "No"),
    ("Has Dr Shuran ZHANG got a research interest in corporate governance?", "Yes"),
    ("Is AAE6203 pitched at level 3?", "No"),  # it is level 6 (polyu_onto.ttl)
])
def test_a_yes_no_question_is_answered_yes_or_no_with_what_was_found(polyu_ws, embedder, question, verdict):
    ans = answer_ontology(session(polyu_ws, embedder), question)
    assert ans.layer == "ontology" and ans.text.startswith(f"{verdict} — "), (ans.text, ans.trace[1].input)


def test_a_new_process_reads_the_context_from_the_workspace(polyu_ws, embedder, monkeypatch):
    context(session(polyu_ws, embedder))  # written to WS/cache by the first use
    from pyramid.ontology.labels import LabelIndex
    from pyramid.ontology.values import ValueIndex

    def rebuilt(*args, **kwargs):
        raise AssertionError("rebuilt instead of read from the cache")

    monkeypatch.setattr(LabelIndex, "from_select", classmethod(rebuilt))
    monkeypatch.setattr(ValueIndex, "from_select", classmethod(rebuilt))
    monkeypatch.setattr(ontology_context, "class_links", rebuilt)
    monkeypatch.setattr(ontology_context, "value_classes", rebuilt)
    fresh = session(polyu_ws, embedder)  # a new layer object: nothing in memory
    assert len(context(fresh).index) > 3000


def test_a_store_change_invalidates_the_cached_context(tmp_path, shared_data, embedder):
    import shutil

    ws = Workspace.init(tmp_path / "ws")
    shutil.copy(shared_data / "polyu" / "polyu_onto.ttl", tmp_path / "a.ttl")
    s = session(ws, embedder)
    s.ontology.import_instances(tmp_path / "a.ttl")
    before = context(s)
    (tmp_path / "b.ttl").write_text('@prefix base: <http://example.org/> .\n'
                                   'base:NEW1 a base:STAFF ; <http://www.w3.org/2000/01/rdf-schema#label> '
                                   '"Dr Quillon Fairweather" ; base:works_for base:SD .\n', encoding="utf-8")
    s.ontology.import_instances(tmp_path / "b.ttl")
    after = context(session(ws, embedder))
    assert after.index.fingerprint != before.index.fingerprint
    assert after.index.link("Quillon Fairweather") and not before.index.link("Quillon Fairweather")


@pytest.mark.llm
@pytest.mark.slow
def test_ask_layer_ontology_end_to_end_with_the_real_model(polyu_ws, capsys, monkeypatch):
    """`polyrag ask WS ... --layer ontology --json` with the default SmolLM2 model. A margin as wide as
    the scale makes the question a close call, so the real model picks among the readings (its one
    constrained decision); whatever it picks, the answer is one of those readings' and no traceback."""
    monkeypatch.setenv("POLYRAG_ONTOLOGY__READING_MARGIN", "1.0")
    code, out, err = run_cli(["ask", polyu_ws.root, "Who works on proteomics?",
                              "--layer", "ontology", "--json"], capsys)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["usage"]["calls"] + answer["usage"]["cache_hits"] == 1
    plan = next(t for t in answer["trace"] if t["step"] == "ontology.plan")
    assert plan["input"]["decisions"]["choice"].startswith("chosen by the model")
    monkeypatch.delenv("POLYRAG_ONTOLOGY__READING_MARGIN")
    code, out, _ = run_cli(["ask", polyu_ws.root, "Who has research interests in proteomics?", "--layer",
                            "ontology", "--explain"], capsys)
    assert code == 0 and "layer: ontology" in out and "ontology.plan" in out and "Prof. Zhou Lei" in out


@pytest.mark.parametrize("question,counted", [
    ("Count up the lecturers employed by X.", "lecturers employed"),
    ("What is the total number of modules X provides?", "modules"),
    ("How many in all?", ""),
    ("Give the count of research groups in X.", "research groups"),
    # a quantity noun used as a noun counts the word before it; used as a verb, what follows
    ("What is the combined lecturer count across X?", "lecturer"),
    ("What is X's student tally?", "student"),
    ("Please count the visitors to X.", "visitors"),
    ("How many subjects does X run in total?", "subjects"),
])
def test_the_counted_noun_follows_the_quantity_cue(question, counted):
    from querying.planning.cues import counted_noun
    assert counted_noun(question) == counted


@pytest.mark.parametrize("masked,subject", [
    ("Which body looks after X?", True),          # the noun acts on X: a thing, not a value of X
    ("What office signs off X?", True),
    ("What topics does X study?", False),         # an auxiliary before X: the noun is the object
    ("Which grade is X pitched at?", False),
    ("Which of these people run X?", False),      # picking among options, not a noun phrase
    ("What is X's role?", False),
])
def test_a_noun_after_which_is_the_subject_only_without_an_auxiliary(masked, subject):
    from querying.planning.cues import WHICH_SUBJECT
    assert bool(WHICH_SUBJECT.search(masked)) is subject


@pytest.mark.parametrize("question,prop", [
    # MiniLM puts each nearer a value of the subject (its description) than the department running it
    ("Which body looks after AAE6203?", "offered_by"),
    ("What unit delivers AAE6203?", "offered_by"),
    # …and a role nearer the department one works for: "as" asks for what one is, a value
    ("Dr Yijing LI is hired as what?", "has_position"),
    ("What is Vincie PY Lee employed as?", "has_position"),
    # the noun is the verb's object here: a value may answer, and does
    ("What topics does Henry Duh study?", "has_research_interest"),
])
def test_the_grammar_of_the_question_says_a_thing_or_a_value(polyu_ws, embedder, question, prop):
    s = session(polyu_ws, embedder)
    ans = answer_ontology(s, question)
    assert ans.layer == "ontology" and f"{EX}{prop}>" in ans.evidence[0].query, ans.trace[1].input


def test_a_headcount_is_a_count(polyu_ws, embedder):
    s = session(polyu_ws, embedder)
    gold = gold_count(s, f"?c <{EX}works_for> <{EX}SD>")
    ans = answer_ontology(s, "What is the headcount of the School of Design?")
    assert ans.layer == "ontology" and ans.text == str(gold) and gold > 10, ans.trace[1].input


def test_a_count_is_named_by_its_noun_not_by_a_class_on_the_way(polyu_ws, embedder):
    # "departments" here is the way to the staff, not what is counted ("staff count")
    s = session(polyu_ws, embedder)
    gold = gold_count(s, f"?c <{EX}works_for> ?d . ?d <{EX}belongs_to> <{EX}FB>")
    ans = answer_ontology(s, "What is the combined staff count of the Faculty of Business's departments?")
    assert ans.layer == "ontology" and ans.text == str(gold) and gold > 20, ans.trace[1].input


def test_a_fresh_ask_the_ontology_answers_loads_no_heavy_library(polyu_ws, embedder):
    """The waterfall builds every layer's answerer, but an ontology answer needs neither torch (the
    numpy encoder embeds the question) nor bm25s/scipy (the text layer's index, ~0.6 s to import)."""
    import subprocess
    import sys

    context(session(polyu_ws, embedder))  # the cached context, as a user's second question finds it
    code = ("import sys, cli\nsys.argv = ['polyrag', *sys.argv[1:]]\ntry:\n    cli.main()\nexcept SystemExit:\n"
            "    pass\nprint('HEAVY', [m for m in ('torch', 'sentence_transformers', 'bm25s', 'scipy') "
            "if m in sys.modules], file=sys.stderr)\n")
    out = subprocess.run([sys.executable, "-c", code, "ask", str(polyu_ws.root), "Which department offers AAE6203?"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT,
                         check=False)
    assert "layer: ontology" in out.stdout and "HEAVY []" in out.stderr, (out.stdout[-1500:], out.stderr[-1500:])


def test_a_count_the_data_never_reaches_is_a_zero_not_another_count(polyu_ws, embedder):
    # the School of Design offers no subject in the PolyU file: the schema's offered_by step is still the
    # reading, and its count is 0 (before, the data's paths alone read it as the school's faculties: 1)
    s = session(polyu_ws, embedder)
    assert gold_count(s, f"?c <{EX}offered_by> <{EX}SD>") == 0
    ans = answer_ontology(s, "How many subjects are taught by the School of Design?")
    assert ans.layer == "ontology" and ans.text == "0" and "offered_by" in ans.evidence[0].query, ans.trace[1].input


CRAFTS = """@prefix : <http://example.org/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:COURSE a owl:Class . :DEPARTMENT a owl:Class .
:offered_by a owl:ObjectProperty ; rdfs:domain :COURSE ; rdfs:range :DEPARTMENT .
:has_subject_title a owl:DatatypeProperty ; rdfs:domain :COURSE .
:has_name a owl:DatatypeProperty ; rdfs:domain :DEPARTMENT .
:ceramics a :DEPARTMENT ; :has_name "Department of Ceramics" .
:textiles a :DEPARTMENT ; :has_name "Department of Textiles" .
:kiln a :COURSE ; :has_subject_title "Kiln Firing" ; :offered_by :ceramics .
:glaze a :COURSE ; :has_subject_title "Glaze Chemistry" ; :offered_by :ceramics .
:loom a :COURSE ; :has_subject_title "Loom Weaving" ; :offered_by :textiles .
:glass a :COURSE ; :has_subject_title "Glassblowing" .
"""


def test_a_zero_counted_for_a_question_that_asks_for_no_number_is_no_answer(tmp_path, embedder):
    # Glassblowing has no department in the data: asked which department (not how many), the zero count
    # is the only reading of that step, and "0" would answer a question nobody asked
    ws = Workspace.init(tmp_path / "ws")
    (tmp_path / "crafts.ttl").write_text(CRAFTS, encoding="utf-8")
    Session(ws).ontology.import_instances(tmp_path / "crafts.ttl")
    s = session(ws, embedder)
    options = ["Department of Textiles", "Department of Ceramics"]
    for question in ("Glassblowing — which department is responsible for it?", "Which department runs Glassblowing?"):
        ans = answer_ontology(s, question, options=options)
        assert ans.text != "0" and not any("COUNT" in e.query for e in ans.evidence), (question, ans.trace[1].input)
        assert ans.layer == "none", (question, ans.text)
    # a question that asks for a number still gets its zero, and a subject with a department its department
    assert answer_ontology(s, "How many departments offer Glassblowing?").text == "0"
    assert answer_ontology(s, "Which department runs Loom Weaving?", options=options).selected == [0]


def test_a_value_in_the_plural_names_the_kind_of_answer(polyu_ws, embedder):
    # "associate professors" is a stored position in the plural; kept as words when scored, it makes
    # "which staff has that position and works for X?" the reading, not X's faculty
    s = session(polyu_ws, embedder)
    ans = answer_ontology(s, "Which associate professors work at the School of Design?")
    assert ans.layer == "ontology", ans.trace[1].input
    query = ans.evidence[0].query
    assert f"{EX}has_position>" in query and f"{EX}works_for>" in query, ans.trace[1].input


def test_a_one_word_name_with_a_possessive_is_found(polyu_ws, embedder):
    s = session(polyu_ws, embedder)
    ans = answer_ontology(s, "Name OtherFaculties's departments.")
    assert ans.layer == "ontology" and f"{EX}OtherFaculties>" in ans.evidence[0].query, ans.trace[1].input
    assert "School of Design" in ans.text


def test_a_stored_role_that_holds_a_unit_name_is_read_whole(polyu_ws, embedder):
    # "head of the Department of Computing" is a stored position: the class word inside the unit's name
    # belongs to the name, so the whole role is a value, not "head" beside a department
    s = session(polyu_ws, embedder)
    gold = {r["l"] for r in s.ontology.select_trusted(
        f'SELECT ?l WHERE {{ ?s <{EX}has_position> "Head of the Department of Computing" ; <{LABEL}> ?l }}')}
    ans = answer_ontology(s, "Which staff member is head of the Department of Computing?")
    assert gold and ans.layer == "ontology" and f"{EX}has_position>" in ans.evidence[0].query, ans.trace[1].input
    assert set(ans.text.split(" | ")) == gold


@pytest.mark.parametrize("question,prop,subject,reading", [
    ("COMP2011 requires which prerequisite?", "has_pre_requisite", "comp2011", "pre requisite"),
    ("What degree does Prof. Daniel T.L. SHEK have?", "obtained_degree", "APSS14", "obtained what degree"),
])
def test_an_attribute_the_thing_lacks_is_no_answer_not_another_attribute(polyu_ws, embedder, question, prop, subject,
                                                                         reading):
    # the data holds no value of that attribute for this subject/person: the reading is still the
    # attribute's (before, only attributes held were read, and the level / the department's subjects won)
    s = session(polyu_ws, embedder)
    assert gold_count(s, f"<{EX}{subject}> <{EX}{prop}> ?c") == 0
    ans = answer_ontology(s, question)
    plan = next(st for st in ans.trace if st.step == "ontology.plan")
    assert ans.layer == "none" and "no answer" in ans.text, plan.input
    assert reading in plan.input["readings"][0], plan.input


MUSEUM = """@prefix : <http://example.org/museum/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
:Exhibition a owl:Class ; rdfs:label "exhibition" .
:Gallery a owl:Class ; rdfs:label "gallery" .
:shownIn a owl:ObjectProperty ; rdfs:domain :Exhibition ; rdfs:range :Gallery ; rdfs:label "shown in" .
:openedOn a owl:DatatypeProperty ; rdfs:domain :Exhibition ; rdfs:range xsd:date ; rdfs:label "opened on" .
:curator a owl:DatatypeProperty ; rdfs:domain :Exhibition ; rdfs:range xsd:string .
:tides a :Exhibition ; rdfs:label "Charting the Tides" ; :shownIn :north ; :openedOn "2019-04-02"^^xsd:date ;
    :curator "Ines Marlow" .
:north a :Gallery ; rdfs:label "North Hall" .
"""


def own_ontology(tmp_path, name: str, ttl: str) -> Workspace:
    """A workspace whose schema and instances are one Turtle file of our own."""
    ws = Workspace.init(tmp_path / name)
    (tmp_path / f"{name}.ttl").write_text(ttl, encoding="utf-8")
    s = Session(ws)
    s.ontology.load_schema(tmp_path / f"{name}.ttl")
    s.ontology.import_instances(tmp_path / f"{name}.ttl")
    return ws


def test_a_question_asking_when_gets_a_time_or_nothing(tmp_path, polyu_ws, embedder):
    """"When …?" asks for a time: answered from a property that holds one (a date range here), and passed
    on where no reading gives a time — the department someone works for is no answer to when they joined."""
    ans = answer_ontology(session(own_ontology(tmp_path, "museum", MUSEUM), embedder), "When did Charting the Tides open?")
    assert ans.layer == "ontology" and "2019-04-02" in ans.text, ans.trace[-1].outcome
    ans = answer_ontology(session(polyu_ws, embedder), "When did Jiyan Dai join the Department of Applied Physics?")
    assert ans.layer == "none" and "asks when" in ans.trace[-1].outcome, ans.text


CLINIC = """@prefix : <http://example.org/clinic/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
:Ward a owl:Class ; rdfs:label "ward or unit" .
:Carer a owl:Class ; rdfs:label "carer" .
:Midwife a owl:Class ; rdfs:subClassOf :Carer ; rdfs:label "midwife" .
:postedTo a owl:ObjectProperty ; rdfs:domain :Carer ; rdfs:range :Ward ; rdfs:label "is posted to" .
:runBy a owl:ObjectProperty ; rdfs:domain :Ward ; rdfs:range :Carer ; rdfs:label "is run by" .
:mailbox a owl:DatatypeProperty ; rdfs:domain :Carer ; rdfs:range xsd:string ; rdfs:label "contact e-mail" .
:registered a owl:DatatypeProperty ; rdfs:domain :Carer ; rdfs:range xsd:gYear ; rdfs:label "year registered" .
:ada a :Midwife ; rdfs:label "Ada Quist" ; :postedTo :lark ; :mailbox "ada@clinic.example" ; :registered "2009" .
:lark a :Ward ; rdfs:label "Lark Unit" .
"""


def test_a_question_asking_for_a_thing_is_not_answered_with_a_value(tmp_path, embedder):
    """"Which unit …?" (a class named by one alternative of its label "ward or unit") and "Who …?" ask for
    things: the data's values (a year, an e-mail address) are no answer, and where no reading gives a
    thing the layer passes the question down rather than answer another one."""
    s = session(own_ontology(tmp_path, "clinic", CLINIC), embedder)
    ans = answer_ontology(s, "Ada Quist is posted to which unit?")
    assert ans.layer == "ontology" and "Lark Unit" in ans.text and "2009" not in ans.text, ans.text
    # the data says nobody runs Lark Unit: no value of Ada's stands in for the person asked for
    ans = answer_ontology(s, "Who runs the unit that Ada Quist is posted to?")
    assert ans.layer == "none" and "ada@clinic.example" not in ans.text, ans.text
    assert "2009" in answer_ontology(s, "In which year did Ada Quist register?").text
