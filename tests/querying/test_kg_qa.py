"""Query_kg (sufficiency + answer), options, Mindful-RAG, and `ask --layer kg`. The LLM is the
scripted one (canned replies keyed by prompt text); triples, MiniLM and LadybugDB are real."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli
from kg_fixtures import SPORTS, kg_session, t

from pyramid.kg.index import TripleHit
from pyramid.kg.model import Entity
from querying.answerers import answer_kg
from querying.kg_qa import compute_signals, decide
from querying.mindful import Constraints, align, ground, rank_relations

Q_BLUES = "Who was the captain of the St. Louis Blues?"


@pytest.fixture
def session(workspace, embedder):
    def make(rules, extra=(), **kg):
        s = kg_session(workspace, embedder, rules, **kg)
        with s.ws.writing("test"):
            store = s.kg.store(write=True)
            store.upsert([], [*SPORTS, *extra])
            s.kg._finish(store, "kg.import", 0.0, None, __import__("pyramid.progress").progress.NullProgress())
        return s
    return make


def test_yes_with_an_entity_match_answers_from_the_kg_citing_triples_and_chunks(session):
    s = session({Q_BLUES: {"sufficient": True, "answer": "Alex Pietrangelo", "facts": [1]}})
    a = answer_kg(s, Q_BLUES, k=3)
    assert a.layer == "kg" and a.text == "Alex Pietrangelo"
    first = a.evidence[0]
    assert (first.triple_id, first.chunk_id, first.doc_id) == (SPORTS[6].id, "d4#0", "d4")
    assert [st.step for st in a.trace] == ["kg.retrieve", "kg.signals", "kg.sufficiency"]
    assert a.trace[2].outcome.startswith("sufficient: LLM said yes; entity match (St. Louis Blues")
    assert a.usage.calls == 1


def test_a_yes_over_unrelated_triples_is_overruled_and_evidence_kept(session):
    q = "What is the capital of Australia?"
    s = session({q: {"sufficient": True, "answer": "Real Madrid", "facts": [1]}})
    a = answer_kg(s, q, k=3)
    assert a.layer == "none"
    assert "no retrieved triple names an entity of the question (LLM said yes)" in a.trace[2].outcome
    assert len(a.evidence) == 3 and all(e.kind == "triple" for e in a.evidence)   # for the K²RAG text path


def test_a_no_is_rescued_only_by_a_triple_restating_the_question(session):
    q = "Did Paris Saint-Germain win Ligue 1?"
    s = session({q: {"sufficient": False, "answer": "Yes, in 2019.", "facts": []}})
    a = answer_kg(s, q, k=3)
    assert a.layer == "kg" and "LLM said no, but one triple covers 83% of the question's words" in a.trace[2].outcome
    assert a.evidence[0].triple_id == SPORTS[4].id  # nothing cited: the triple naming the entity is
    q2 = "How many goals did Karim Benzema score for Real Madrid?"
    s2 = session({q2: {"sufficient": False, "answer": "", "facts": []}})
    assert answer_kg(s2, q2, k=3).layer == "none"


def test_decision_modes_on_fixed_signals():
    from querying.kg_qa import Signals

    strong, weak = Signals(["Ronaldo"], 0.7, 0.9), Signals([], 0.7, 0.9)
    assert decide("llm", True, weak, 0.4, 0.75)[0] is True
    assert decide("combined", True, weak, 0.4, 0.75)[0] is False
    assert decide("combined", False, strong, 0.4, 0.75)[0] is True
    assert decide("signals", False, strong, 0.4, 0.75)[0] is True
    assert decide("combined", True, Signals(["Ronaldo"], 0.3, 0.9), 0.4, 0.75)[0] is False


def test_signals_link_entities_named_in_the_question():
    hits = [TripleHit(SPORTS[2], 0.8), TripleHit(SPORTS[0], 0.3)]
    sig = compute_signals("What did Ronaldo win in 2002?", hits)
    assert sig.linked == ["Ronaldo"] and sig.top_score == 0.8
    assert sig.overlap == pytest.approx(2 / 3)   # "ronaldo", "2002" of "ronaldo", "win", "2002"


def test_options_select_what_the_triples_support(session):
    q = "Which trophies did Ronaldo win?"
    s = session({q: {"sufficient": True, "answer": "The Golden Shoe", "facts": [1]}})
    a = answer_kg(s, q, options=["Golden Shoe", "Stanley Cup", "Ballon d'Or"], k=3)
    assert a.layer == "kg" and a.selected == [0]


def test_a_yes_whose_answer_names_no_option_hands_the_question_down(session):
    # the triples are about Ronaldo and the model says they answer, but no option is what they say
    q = "Which of these did Ronaldo win in 2002?"
    s = session({q: {"sufficient": True, "answer": "He won the Golden Shoe.", "facts": [1]}})
    a = answer_kg(s, q, options=["Stanley Cup", "Ligue 1", "Ballon d'Or"], k=3)
    assert a.layer == "none" and a.selected is None, a.text
    assert a.trace[-1].step == "kg.options" and "handed down" in a.trace[-1].outcome
    assert any(e.kind == "triple" for e in a.evidence)  # the triples still go down to the text layer
    # the same yes with an option it names answers here
    b = answer_kg(s, q, options=["Stanley Cup", "Golden Shoe"], k=3)
    assert b.layer == "kg" and b.selected == [1], b.text


CAMPUS = [t("Mira Okafor", "works for", "Institute of Tidal Studies", doc="c1"),
          t("Institute of Tidal Studies", "belongs to", "College of Ocean Sciences", doc="c2"),
          t("Tomas Berg", "works for", "Lab of Dune Geology", doc="c3"),
          t("Lab of Dune Geology", "belongs to", "College of Earth Sciences", doc="c4")]
COLLEGES = ["College of Earth Sciences", "College of Ocean Sciences", "College of Fine Arts", "None of the above"]


def test_an_option_two_triples_from_what_the_question_names_is_found_through_the_middle(session):
    s = session({}, extra=CAMPUS)  # no rules: any model call fails the test
    a = answer_kg(s, "Under which college is the unit that employs Mira Okafor?", options=COLLEGES)
    assert a.layer == "kg" and a.selected == [1] and a.usage.calls == 0, a.text
    assert {(e.subject, e.object) for e in a.evidence if e.kind == "triple"} >= {
        ("Mira Okafor", "Institute of Tidal Studies"), ("Institute of Tidal Studies", "College of Ocean Sciences")}
    # one step still wins where there is one: the unit itself, not a college through it
    one = answer_kg(s, "Which of these units employ Tomas Berg?",
                    options=["Institute of Tidal Studies", "Lab of Dune Geology", "College of Earth Sciences"])
    assert one.selected == [1], one.text


def test_a_shared_surname_does_not_stand_for_the_person_the_question_names(session):
    # the KG knows Oren Vasquez, not Lena Vasquez: "Vasquez" is rare, but it is part of the name asked about
    s = session({"Lena Vasquez": {"sufficient": False, "answer": "", "facts": []}},
                extra=[*CAMPUS, t("Oren Vasquez", "works for", "Lab of Dune Geology", doc="c5")])
    other = answer_kg(s, "Which college is Lena Vasquez part of?", options=COLLEGES)
    assert other.layer == "none" and not other.selected, other.text
    same = answer_kg(s, "Which college is Oren Vasquez part of?", options=COLLEGES)
    assert same.selected == [0], same.text
    # a rare word the question does not write as a name still finds the thing that holds it
    topic = answer_kg(s, "Which college holds the dune geology lab?", options=COLLEGES)
    assert topic.selected == [0], topic.text
    # a name joined by "of" says what its thing is about: its rare words count alone
    from querying.kg_qa import content_terms, holds_rare
    from querying.question_names import question_names

    for question, thing, held in (("Who works for the Department of Glacier Hydrology?", "glacier melt models", True),
                                  ("Where does Mina Glacier work?", "glacier melt models", False),
                                  ("Where does Mina Glacier work?", "Mina Glacier", True)):
        assert holds_rare(thing, set(content_terms(question)), question_names(question)) is held, (question, thing)


def test_a_one_word_name_steps_aside_when_the_graph_holds_the_whole_name_asked_about(session):
    # a page gave one person only a surname ("Vasquez"); the question names Oren Vasquez, whom the KG also holds
    s = session({}, extra=[*CAMPUS, t("Oren Vasquez", "works for", "Lab of Dune Geology", doc="c5"),
                           t("Vasquez", "works for", "Institute of Tidal Studies", doc="c6")])
    a = answer_kg(s, "Which college is Oren Vasquez part of?", options=COLLEGES)
    assert a.selected == [0], a.text
    # one step away too: the unit that employs him, not the one that employs "Vasquez"
    units = answer_kg(s, "Which unit employs Oren Vasquez?", options=["Institute of Tidal Studies", "Lab of Dune Geology"])
    assert units.selected == [1], units.text
    from querying.kg_qa import whole_names_first
    from querying.question_names import question_names

    names = question_names("Is Oren Vasquez in the College of Ocean Sciences?")
    assert whole_names_first(["Vasquez", "Oren Vasquez", "Ocean Sciences"], names) == {"Vasquez"}
    # with no entity holding the whole name, a part of it still links (nothing better to prefer)
    assert whole_names_first(["Vasquez", "Mira Okafor"], names) == set()


MINDFUL = {
    "List the named entities in the question": {"entities": ["St. Louis Blues"], "keywords": ["captain", "2019"]},
    "What does the question ask for?": {"intent": "the captain's name", "answer_type": "person"},
    "what topic or domain": {"context": "ice hockey"},
    "Which relations can lead to the answer?": {"relations": [2]},
    "Which constraints does the question set?": {"time": "2019", "place": "", "current": False,
                                                 "aggregation": "none"},
    "Do the facts above answer": {"sufficient": True, "answer": "Alex Pietrangelo", "facts": [1]},
    "Does the answer give what the question asks for?": {"matches": True},
}


def test_mindful_runs_the_seven_steps_as_small_calls(session):
    s = session(MINDFUL)
    a = answer_kg(s, "Who was the captain of the St. Louis Blues in 2019?", mindful=True)
    assert a.layer == "kg" and a.pipeline == "mindful" and a.text == "Alex Pietrangelo"
    steps = [st.step for st in a.trace]
    assert steps[:4] == ["kg.mindful.1_entities", "kg.mindful.2_intent", "kg.mindful.3_context",
                         "kg.mindful.4_candidates"]
    assert "kg.mindful.7_check_try1" in steps and "kg.mindful.5_relations_try2" not in steps
    relations_prompt = [c for c in s.llm.provider.calls if "Which relations" in c[-1]["content"]][0][-1]["content"]
    assert "captain of" in relations_prompt and "won" in relations_prompt   # one hop from the Blues
    assert a.evidence[0].relation == "captain of"


def test_mindful_retries_once_when_the_answer_misses_the_intent(session):
    from pyramid.llm.scripted import Seq

    rules = dict(MINDFUL)
    rules["Does the answer give what the question asks for?"] = Seq({"matches": False}, {"matches": False})
    rules["Which relations can lead to the answer?"] = Seq({"relations": [1]}, {"relations": [1]})
    more = [t("St. Louis Blues", rel, f"Thing {i}", doc="d5") for i, rel in enumerate(
        ["plays in", "is based in", "was founded in", "is owned by", "has coach", "has arena"])]
    s = session(rules, extra=more)
    a = answer_kg(s, "Who was the captain of the St. Louis Blues in 2019?", mindful=True)
    steps = [st.step for st in a.trace]
    tries = [c[-1]["content"].split("Relations:")[1] for c in s.llm.provider.calls
             if "Which relations" in c[-1]["content"]]
    assert len(tries) == 2 and "captain of" in tries[0] and "captain of" not in tries[1]  # next relations
    assert "kg.mindful.5_relations_try2" in steps and "kg.mindful.7_check_try2" in steps
    assert a.layer == "none"


def test_ask_layer_kg_json_from_the_cli(workspace, tmp_path, capsys, monkeypatch):
    f = tmp_path / "kg.json"
    f.write_text(json.dumps([{"sub": "Alex Pietrangelo", "rel": "captain of", "obj": "St. Louis Blues"}]))
    assert run_cli(["kg", "import", workspace.root, f], capsys)[0] == 0
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({Q_BLUES: {"sufficient": True, "answer": "Alex Pietrangelo", "facts": [1]}}))
    monkeypatch.setenv("POLYRAG_LLM__PROVIDER", "scripted")
    monkeypatch.setenv("POLYRAG_LLM__SCRIPTED_FILE", str(rules))
    code, out, err = run_cli(["ask", workspace.root, Q_BLUES, "--layer", "kg", "--json"], capsys)
    assert code == 0, err
    a = json.loads(out)
    assert a["layer"] == "kg" and a["evidence"][0]["subject"] == "Alex Pietrangelo"
    assert a["evidence"][0]["doc_id"] == "import:kg.json"
    code, out, err = run_cli(["kg", "search", workspace.root, "captain", "--json"], capsys)
    assert json.loads(out)[0]["relation"] == "captain of"


def test_only_names_in_the_question_link_entities():
    from kg_fixtures import t as triple

    from querying.question_names import question_names

    assert question_names("Did Paris Saint-Germain win Ligue 1?").words == {"paris", "saint", "germain", "ligue", "1"}
    assert question_names("what did ronaldo win").words == {"did", "ronaldo", "win"}   # no capitals: all words
    generic = [TripleHit(triple("Dr Wang Wenyi", "has", "research"), 0.9),
               TripleHit(triple("Department of Computing", "offers", "Data Science"), 0.5)]
    sig = compute_signals("Dr Elena Marsh-Okafor has research interest in what?", generic)
    assert sig.linked == []                                   # "research" is a word, not a name, here
    sig = compute_signals("Which courses does the Department of Computing offer?", generic)
    assert sig.linked == ["Department of Computing"]          # filler words do not block a name


def test_auto_mode_trusts_only_the_signals_with_the_tiny_default_model(session):
    from types import SimpleNamespace

    from querying.kg_qa import resolve_mode

    tiny = SimpleNamespace(provider=SimpleNamespace(name="llamacpp", model="SmolLM2-135M-Instruct.Q4_1.gguf"))
    other = SimpleNamespace(provider=SimpleNamespace(name="openai", model="gpt-4o"))
    served = SimpleNamespace(provider=SimpleNamespace(name="openai", model="smollm2-135m-instruct"))  # same model
    assert (resolve_mode("auto", tiny), resolve_mode("auto", other), resolve_mode("llm", tiny),
            resolve_mode("auto", served)) == ("signals", "combined", "llm", "signals")
    q = "What is the capital of Australia?"
    s = session({q: {"sufficient": True, "answer": "x", "facts": [1]}}, sufficiency="signals")
    a = answer_kg(s, q, k=3)
    assert a.layer == "none" and a.usage.calls == 0          # signals said no: the LLM is not asked
    s2 = session({f"Question: {Q_BLUES}\nAnswer:": "Alex Pietrangelo"}, sufficiency="signals")
    a2 = answer_kg(s2, Q_BLUES, k=3)
    assert a2.layer == "kg" and a2.text == "Alex Pietrangelo"  # the signals decide, the LLM only answers
    prompt = s2.llm.provider.calls[0][-1]["content"]
    assert "- Alex Pietrangelo captain of St. Louis Blues" in prompt and "Do the facts" not in prompt


def test_a_first_or_last_name_alone_links_a_person():
    from querying.kg_qa import named_in
    from querying.question_names import question_names

    alice = [TripleHit(t("Alice Smith", "lives in", "Paris"), 0.7)]
    sig = compute_signals("Where does Alice live?", alice)
    assert sig.linked == ["Alice Smith"] and sig.overlap == 1.0          # "alic", "live" both in the triple
    assert decide("signals", False, sig, 0.4, 0.75)[0] is True
    assert compute_signals("Where does Dr Smith work?", alice).linked == ["Alice Smith"]
    assert compute_signals("Where does Alice Jones live?", alice).linked == []   # another Alice
    assert compute_signals("Where does Al live?", alice).linked == []            # too short to tell
    names = question_names("Which Department offers Data Science?")
    assert names.spans == (("department",), ("data", "science"))
    assert not named_in("Department of Computing", names)      # a word of a name with fillers, not a person
    assert not named_in("Alice Smith", question_names("Where does Alice live?"), "ORGANIZATION")
    assert named_in("Department of Computing", question_names("What does the Department of Computing teach?"))


def test_where_does_alice_live_is_answered_from_the_kg(session):
    q = "Where does Alice live?"
    s = session({q: "Paris"}, extra=[t("Alice Smith", "lives in", "Paris", doc="d7")], sufficiency="signals")
    a = answer_kg(s, q, k=3)
    assert a.layer == "kg" and a.text == "Paris" and a.evidence[0].subject == "Alice Smith"


# ------------------------------------------------------------------------------ Mindful-RAG step 6
RONALDO = Entity.named("Ronaldo").id
CLUBS = [t("Ronaldo", "plays for", "Real Madrid", doc="c1", props={"year": "2009"}),
         t("Ronaldo", "plays for", "Juventus", doc="c2", props={"year": "2018"}),
         t("Ronaldo", "plays for", "Al Nassr", doc="c3", props={"year": "2023"}),
         t("Ronaldo", "was born in", "Funchal", doc="c4")]
WORLD_CUP = "2002 FIFA World Cup"
GOALS = [t("Rivaldo", "scored 5 goals in", WORLD_CUP, doc="g1"), SPORTS[3],        # Ronaldo: 8
         t("Christian Vieri", "scored 4 goals in", WORLD_CUP, doc="g2"),
         t(WORLD_CUP, "was held in", "Japan", doc="g3")]
TALKS = [t("Alice Smith", "gave a talk at", "ICML", doc="a1", props={"place": "Vienna", "year": "2024"}),
         t("Alice Smith", "gave a talk at", "NeurIPS", doc="a2", props={"place": "Vancouver", "year": "2024"})]


def _objects(triples):
    return [x.object.name for x in triples]


def test_align_filters_by_year_and_place_only_when_some_triple_agrees():
    assert _objects(align(CLUBS, Constraints(time="2018")).triples) == ["Juventus"]
    assert _objects(align(CLUBS, Constraints(time="1999")).triples) == _objects(CLUBS)   # nobody says 1999
    assert _objects(align(TALKS, Constraints(place="Vienna")).triples) == ["ICML"]
    assert _objects(align(TALKS, Constraints(place="Tokyo")).triples) == ["ICML", "NeurIPS"]


def test_align_current_puts_the_latest_first_and_drops_superseded_facts():
    marked = t("Ronaldo", "currently coaches", "Portugal U21", doc="c9")
    got = align([*CLUBS, marked], Constraints(current=True), [RONALDO]).triples
    assert _objects(got) == ["Portugal U21", "Al Nassr", "Funchal"]   # Real Madrid, Juventus superseded
    # superseded is per entity and relation: two players of one club are both current
    team = Entity.named("St. Louis Blues").id
    captains = [t("Alex Pietrangelo", "captain of", "St. Louis Blues", doc="x1", props={"year": "2019"}),
                t("Ryan O'Reilly", "captain of", "St. Louis Blues", doc="x2", props={"year": "2022"})]
    assert [x.subject.name for x in align(captains, Constraints(current=True), [team]).triples] == \
        ["Ryan O'Reilly"]


def test_align_aggregates_count_list_max_min():
    again = t("Ronaldo", "plays for", "Juventus", doc="c5", props={"year": "2019"})   # same club, another fact
    count = align([*CLUBS[:3], again, CLUBS[3]], Constraints(aggregation="count"), [RONALDO])
    assert count.answer == "3 (Real Madrid, Juventus, Al Nassr)"           # the top relation only, clubs once
    assert align(CLUBS, Constraints(aggregation="list"), [RONALDO]).answer == "Real Madrid, Juventus, Al Nassr"
    cup = Entity.named(WORLD_CUP).id
    top = align(GOALS, Constraints(aggregation="max"), [cup])
    assert top.answer == "Ronaldo" and top.used == [SPORTS[3]]             # 8 > 5 > 4; the year is not a count
    assert align(GOALS, Constraints(aggregation="min"), [cup]).answer == "Christian Vieri"
    titles = [t("Real Madrid", "won", "La Liga titles", doc="l1", props={"count": "35", "year": "2024"}),
              t("Barcelona", "won", "La Liga titles", doc="l2", props={"count": "27", "year": "2025"})]
    assert align(titles, Constraints(aggregation="max"), [Entity.named("La Liga titles").id]).answer == "Real Madrid"
    players = [t("Ronaldo", "plays for", "Juventus", doc="p1"), t("Paulo Dybala", "plays for", "Juventus", doc="p2")]
    assert align(players, Constraints(aggregation="count"), [Entity.named("Juventus").id]).answer == \
        "2 (Ronaldo, Paulo Dybala)"                                          # the question is about the club
    assert align(CLUBS, Constraints(aggregation="max"), [RONALDO]).answer == ""   # nothing to compare


def test_ground_keeps_only_what_the_question_says():
    q = "Who was the captain of the St. Louis Blues in 2019?"
    assert ground(Constraints("2020", "Mars", True, "count"), q) == Constraints("2019", "", False, "none")
    q = "How many trophies did the St. Louis Blues win in St. Louis?"
    assert ground(Constraints("", "St. Louis", False, "list"), q) == Constraints("", "St. Louis", False, "count")
    assert ground(Constraints(aggregation="none"), "Who currently scores the most goals?") == \
        Constraints("", "", True, "max")
    assert ground(Constraints(current=True), "Where does Alice live?").current is True    # present tense
    assert ground(Constraints(aggregation="min"), "Which club has the most or the least fans?").aggregation == "min"


def test_step_5_ranks_by_cosine_and_key_words():
    won, plays = SPORTS[2], CLUBS[0]
    by_relation = {"won": [won], "plays for": [plays]}
    scores = {won.id: 0.60, plays.id: 0.55}
    assert rank_relations(by_relation, scores, set()) == ["won", "plays for"]
    assert rank_relations(by_relation, scores, {"play"}) == ["plays for", "won"]      # a key word decides


def mindful_rules(**replace):
    rules = {"List the named entities in the question": {"entities": ["Ronaldo"], "keywords": ["clubs", "banana"]},
             "What does the question ask for?": {"intent": "a number of clubs", "answer_type": "number"},
             "what topic or domain": {"context": "football careers"},
             "Which relations can lead to the answer?": {"relations": []},
             "Which constraints does the question set?": {"time": "", "place": "", "current": False,
                                                          "aggregation": "none"},
             "Do the facts above answer": {"sufficient": True, "answer": "Real Madrid", "facts": [1]},
             "Does the answer give what the question asks for?": {"matches": True}}
    rules.update(replace)
    return rules


def _prompt(s, needle):
    return [c[-1]["content"] for c in s.llm.provider.calls if needle in c[-1]["content"]]


def test_mindful_feeds_each_step_into_the_next_and_counts(session):
    s = session(mindful_rules(), extra=CLUBS)
    a = answer_kg(s, "How many clubs has Ronaldo played for?", mindful=True)
    assert "Named entities: Ronaldo\nKey words: clubs, banana" in _prompt(s, "What does the question ask for?")[0]
    assert "It asks for: a number of clubs (number)" in _prompt(s, "what topic or domain")[0]
    relations = _prompt(s, "Which relations can lead")[0]
    assert "Context: football careers" in relations and "1. plays for" in relations
    assert "Context: football careers" in _prompt(s, "Does the answer give")[0]
    rank = next(st for st in a.trace if st.step == "kg.mindful.5_rank")
    assert rank.input["keywords"] == ["club"]                    # "banana" is not in the question
    assert a.layer == "kg" and a.text == "3 (Real Madrid, Juventus, Al Nassr)"   # the model said "Real Madrid"
    assert {e.object for e in a.evidence[:3]} == {"Real Madrid", "Juventus", "Al Nassr"}


def test_mindful_current_answers_from_the_latest_fact(session):
    q = "Which club does Ronaldo currently play for?"
    s = session(mindful_rules(**{"Do the facts above answer": {"sufficient": True, "answer": "Al Nassr",
                                                               "facts": [1]}}), extra=CLUBS)
    a = answer_kg(s, q, mindful=True)
    facts = _prompt(s, "Do the facts above answer")[0]
    assert "Al Nassr" in facts and "Real Madrid" not in facts and "Juventus" not in facts
    assert a.layer == "kg" and a.text == "Al Nassr" and a.evidence[0].object == "Al Nassr"


def test_mindful_place_keeps_the_triples_of_that_place(session):
    q = "Which conference did Alice Smith give a talk at in Vienna?"
    s = session(mindful_rules(**{
        "List the named entities in the question": {"entities": ["Alice Smith", "Vienna"], "keywords": ["talk"]},
        "Which constraints does the question set?": {"time": "", "place": "Vienna", "current": False,
                                                     "aggregation": "none"},
        "Do the facts above answer": {"sufficient": True, "answer": "ICML", "facts": [1]}}), extra=TALKS)
    a = answer_kg(s, q, mindful=True)
    facts = _prompt(s, "Do the facts above answer")[0]
    assert "ICML" in facts and "NeurIPS" not in facts
    assert a.layer == "kg" and a.text == "ICML"


def test_mindful_max_replaces_the_models_answer_with_the_compared_one(session):
    q = "Who scored the most goals in the 2002 FIFA World Cup?"
    s = session(mindful_rules(**{
        "List the named entities in the question": {"entities": [WORLD_CUP], "keywords": ["goals"]},
        "Do the facts above answer": {"sufficient": True, "answer": "Rivaldo", "facts": [2]}}), extra=GOALS)
    a = answer_kg(s, q, mindful=True)
    assert a.layer == "kg" and a.text == "Ronaldo" and a.evidence[0].triple_id == SPORTS[3].id
    assert "Answer: Ronaldo" in _prompt(s, "Does the answer give")[0]


def test_a_reply_failing_its_schema_counts_as_no_and_the_signals_still_decide(session):
    from pyramid.llm.scripted import Seq

    q = "Did Paris Saint-Germain win Ligue 1?"
    bad = Seq("{\"sufficient\": tr", "{\"sufficient\": tr", "{\"sufficient\": tr")   # never valid JSON
    s = session({q: bad}, sufficiency="combined")   # the LLM's vote is lost; the triple restating it rescues
    a = answer_kg(s, q, k=3)
    assert a.layer == "kg" and a.text.startswith("Paris Saint-Germain won Ligue 1 (year: 2019).")  # the triple
    assert "the LLM reply failed its schema, counted as no: LLMSchemaError" in a.trace[2].outcome
    q2 = "How many goals did Karim Benzema score for Real Madrid?"     # no triple restates it: the no stands
    s2 = session({q2: Seq("oops", "oops", "oops")}, sufficiency="combined")
    a2 = answer_kg(s2, q2, k=3)
    assert a2.layer == "none" and "counted as no" in a2.trace[2].outcome


def test_signals_mode_replaces_an_answer_the_triples_do_not_hold(session):
    """The tiny model's answer field sometimes holds 'false' or a made-up date: in signals mode an
    answer whose words the retrieved triples do not carry is replaced by the triples themselves."""
    made_up = session({Q_BLUES: "2022-01-01"}, sufficiency="signals")
    a = answer_kg(made_up, Q_BLUES, k=3)
    assert a.layer == "kg" and "Alex Pietrangelo captain of St. Louis Blues" in a.text
    assert "not in the triples" in a.trace[-1].outcome


def test_signals_mode_keeps_an_answer_the_triples_hold(session):
    fine = session({Q_BLUES: "Alex Pietrangelo"}, sufficiency="signals")
    assert answer_kg(fine, Q_BLUES, k=3).text == "Alex Pietrangelo"


def test_a_number_the_triples_do_not_hold_is_not_said_and_the_triples_answer(session):
    """A price or a count near the right words ("scored 12 goals") is made up when no retrieved triple
    holds the number: the triples answer instead."""
    q = "How many goals did Ronaldo score in the 2002 FIFA World Cup?"
    made_up = session({q: "Ronaldo scored 12 goals in the 2002 FIFA World Cup."}, sufficiency="signals")
    a = answer_kg(made_up, q, k=3)
    assert a.layer == "kg" and "12" not in a.text and "scored 8 goals in" in a.text, a.text
    assert "not in the triples" in a.trace[-1].outcome


def test_a_time_asked_for_that_no_cited_triple_holds_passes_the_question_down(session):
    """"When …?" is answered by a time: triples about the right things that hold none answer another
    question, so the KG passes it down and says why."""
    q = "When did Harbour Rowing Club first train on the River Esk?"
    s = session({q: "Harbour Rowing Club trains on River Esk."}, extra=[t("Harbour Rowing Club", "trains on", "River Esk")],
                sufficiency="signals")
    a = answer_kg(s, q, k=3)
    assert a.layer == "none" and "holds the time asked for" in a.trace[-1].outcome, a.trace[-1].outcome


def test_a_count_option_is_supported_only_by_a_number_of_what_is_counted(session):
    """A triple's number supports a count's option only where its relation names what is counted: the
    club's boat count is no count of its members."""
    extra = [t("Harbour Rowing Club", "boatCount", "4"), t("Harbour Rowing Club", "memberCount", "9")]
    s = session({}, extra=extra, sufficiency="signals")
    members = answer_kg(s, "How many members does Harbour Rowing Club have?", options=["4", "9", "12"])
    assert members.selected == [1], (members.selected, members.text)
    boats = answer_kg(s, "How many boats does Harbour Rowing Club have?", options=["4", "9", "12"])
    assert boats.selected == [0], (boats.selected, boats.text)


def test_an_address_names_nothing_the_question_asks_about(session):
    """The rowing club's web address holds the word "rowing" the question says; it names no thing the
    question asks about, so it supports no option — the club's own coach does."""
    extra = [t("Harbour Rowing Club", "coachedBy", "Ines Barrow"),
             t("Quay Sailing School", "website", "www.harbour-rowing-club.example/sailing"),
             t("Ines Barrow", "worksFor", "Quay Sailing School")]
    s = session({}, extra=extra, sufficiency="signals")
    a = answer_kg(s, "Who coaches at Harbour Rowing Club?", options=["Quay Sailing School", "Ines Barrow"])
    assert a.selected == [1], (a.selected, a.text)


def test_an_answer_written_from_a_namesake_s_facts_is_replaced_by_the_facts_of_the_one_asked_about(session):
    """Two Vasquezes work in two labs: the model's answer puts the one asked about in the other's lab. The words
    it adds ("Dune Geology") are in the triples, but only in a namesake's, so her own triples answer instead."""
    q = "Which lab does Lena Vasquez work for?"
    s = session({q: "Lena Vasquez works for the Lab of Dune Geology."}, sufficiency="signals",
                extra=[t("Oren Vasquez", "works for", "Lab of Dune Geology", doc="c5"),
                       t("Lena Vasquez", "works for", "Lab of Sea Ice", doc="c6")])
    a = answer_kg(s, q, k=5)
    assert a.layer == "kg" and "Lab of Sea Ice" in a.text and "Dune Geology" not in a.text, a.text
    assert "not in the triples" in a.trace[-1].outcome


def test_an_address_option_is_supported_only_by_a_triple_that_holds_the_address(session):
    """"www.dune-geology-lab.example" holds every word of the Dune Geology Lab, which shares a building with the
    lab asked about; it is no fact of that lab's, and no support for the option. The address the lab's own
    triple holds is."""
    s = session({}, extra=[t("Lab of Sea Ice", "homepage", "www.sea-ice-lab.example", doc="c7"),
                           t("Dune Geology Lab", "shares a building with", "Lab of Sea Ice", doc="c8")])
    a = answer_kg(s, "What is the web address of the Lab of Sea Ice?",
                  options=["www.dune-geology-lab.example", "www.sea-ice-lab.example", "www.fine-arts.example",
                           "www.tidal-studies.example"])
    assert a.layer == "kg" and a.selected == [1] and a.usage.calls == 0, a.text
