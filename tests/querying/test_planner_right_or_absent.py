"""The planner answers what was asked or passes the question down, on a library schema of our own
(branches, the towns they stand in, librarians, the genres a branch collects; an inverse pair; one
genre also filed, wrongly, as a town — as a misread page leaves it). The scripted model has no rules:
every test proves its path makes no model call."""

from __future__ import annotations

from pyramid.ontology.schema import Schema
from pyramid.vocab import Vocab
from querying.ontology_qa import answer_ontology, context
from querying.planning.asked import AskedKeeper
from querying.planning.names import SchemaNames
from querying.planning.records import PlanDraft, QuestionReading
from querying.planning.vectors import QueryVectors
from querying.sparql_plan import QueryPlan, compile_plan
from tests.querying.test_ontology_qa import own_ontology, session

LIBRARY = """@prefix : <http://example.org/library/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
:Branch a owl:Class ; rdfs:label "library branch" .
:Town a owl:Class ; rdfs:label "town or village" .
:Librarian a owl:Class ; rdfs:label "librarian" .
:Genre a owl:Class ; rdfs:label "genre" .
:inTown a owl:ObjectProperty ; rdfs:domain :Branch ; rdfs:range :Town ; rdfs:label "stands in" .
:staffs a owl:ObjectProperty ; rdfs:domain :Librarian ; rdfs:range :Branch ; rdfs:label "works at branch" .
:managedBy a owl:ObjectProperty ; rdfs:domain :Branch ; rdfs:range :Librarian ; rdfs:label "is managed by" .
:manages a owl:ObjectProperty ; rdfs:domain :Librarian ; rdfs:range :Branch ; rdfs:label "manages" ;
    owl:inverseOf :managedBy .
:collects a owl:ObjectProperty ; rdfs:domain :Branch ; rdfs:range :Genre ; rdfs:label "keeps a collection of" .
:Firm a owl:Class ; rdfs:label "bookseller" .
:buysFrom a owl:ObjectProperty ; rdfs:domain :Branch ; rdfs:range :Firm ; rdfs:label "buys its books from vendor" .
:founded a owl:DatatypeProperty ; rdfs:domain :Firm ; rdfs:range xsd:gYear ; rdfs:label "year founded" .
:deskPhone a owl:DatatypeProperty ; rdfs:domain :Branch ; rdfs:range xsd:string ; rdfs:label "desk telephone" .
:quay a :Branch ; rdfs:label "Quayside Library" ; :inTown :harlow ; :managedBy :odile ; :deskPhone "01700 400100" ;
    :buysFrom :inkwell .
:vale a :Branch ; rdfs:label "Vale Road Library" ; :collects :sea_charts ; :managedBy :odile .
:harlow a :Town ; rdfs:label "Harlow Cross" .
:inkwell a :Firm ; rdfs:label "Inkwell & Daughters" ; :founded "1921" .
:odile a :Librarian ; rdfs:label "Odile Fenn" ; :staffs :quay ; :manages :quay, :vale .
:bram a :Librarian ; rdfs:label "Bram Tully" ; :staffs :quay .
:sea_charts a :Genre, :Town ; rdfs:label "Sea Charts" .
:kiosk a :Branch ; rdfs:label "Pier Kiosk" ; :inTown :sea_charts .
"""


def library(tmp_path, embedder):
    return session(own_ontology(tmp_path, "library", LIBRARY), embedder)


def test_a_request_or_a_copula_names_the_class_asked_for(tmp_path, embedder):
    """"Name the town of …" and "Who is the head librarian of …" ask for a town and a librarian as
    "which town" does: the branch one step away is no answer; the thing two steps away is."""
    s = library(tmp_path, embedder)
    ans = answer_ontology(s, "Name the town of the branch that Bram Tully works at.")
    assert ans.layer == "ontology" and "Harlow Cross" in ans.text and "Quayside" not in ans.text, ans.text
    ans = answer_ontology(s, "Who is the head librarian of the branch Bram Tully works at?")
    assert ans.layer == "ontology" and "Odile Fenn" in ans.text and "Quayside" not in ans.text, ans.text


def test_a_path_back_to_what_the_question_names_does_not_answer_with_it(tmp_path, embedder):
    """Two steps through an inverse pair lead back to the start (the branches managed by whoever manages
    Vale Road Library include Vale Road Library): what the question names is never its answer."""
    s = library(tmp_path, embedder)
    ans = answer_ontology(s, "Which other branch is managed by the librarian who manages Vale Road Library?")
    assert ans.layer == "ontology" and "Quayside Library" in ans.text and "Vale Road" not in ans.text, ans.text


def test_a_relation_the_question_names_and_the_data_lacks_is_passed_down(tmp_path, embedder):
    """"What does X keep a collection of?" names `collects` by its words: answered where the data holds
    it; where it does not, no reading through other relations answers instead (the layer says why)."""
    s = library(tmp_path, embedder)
    ans = answer_ontology(s, "What does Vale Road Library keep a collection of?")
    assert ans.layer == "ontology" and "Sea Charts" in ans.text, ans.text
    ans = answer_ontology(s, "What does Quayside Library keep a collection of?")
    assert ans.layer == "none" and "collects" in ans.trace[-1].outcome, ans.text


def test_a_neighbour_filed_under_a_class_its_property_rules_out_is_not_that_class(tmp_path, embedder):
    """Sea Charts is a genre Vale Road collects, and also filed as a town (a misreading elsewhere): the
    town Vale Road stands in is not Sea Charts — the range of `collects` says what its objects are."""
    s = library(tmp_path, embedder)
    ans = answer_ontology(s, "Which town is Vale Road Library in?")
    assert "Sea Charts" not in ans.text, ans.text
    assert "Sea Charts" in answer_ontology(s, "Which town is Pier Kiosk in?").text


def test_an_excluded_iri_is_filtered_from_the_answers(tmp_path, embedder):
    s = library(tmp_path, embedder)
    plan = QueryPlan(target="Branch", exclude=["http://example.org/library/vale"])
    query = compile_plan(plan, context(s).vocab)
    assert "FILTER(?x NOT IN (<http://example.org/library/vale>))" in query
    labels = {r["x_label"] for r in s.ontology.select_trusted(query)}
    assert labels == {"Quayside Library", "Pier Kiosk"}, labels



def test_an_attribute_of_the_thing_one_step_away_that_the_question_names(tmp_path, embedder):
    """"Which number do I ring for the branch that X works at?" asks for the branch's attribute, not for
    the branch; "the desk number of the branch" is one thing's number, not a count."""
    s = library(tmp_path, embedder)
    for question in ("Which number do I ring for the branch that Bram Tully works at?",
                     "Give the desk number of the branch Bram Tully works at."):
        ans = answer_ontology(s, question)
        assert ans.layer == "ontology" and "01700 400100" in ans.text, (question, ans.text)


def test_kinds_joined_by_or_are_one_choice(tmp_path, embedder):
    """"the branch or town": either kind may be meant; naming both asks for no path through both."""
    s = library(tmp_path, embedder)
    ans = answer_ontology(s, "Name the librarian of the branch or town called Quayside Library.")
    assert "question names" not in ans.trace[-1].outcome, ans.trace[-1].outcome


def test_a_relation_names_what_it_leads_to(tmp_path, embedder):
    """"buys its books from vendor" names its range a vendor: "the vendor of X" is the bookseller X buys
    from, and its year is asked of it, not of X."""
    s = library(tmp_path, embedder)
    ans = answer_ontology(s, "In which year was the vendor of Quayside Library founded?")
    assert ans.layer == "ontology" and "1921" in ans.text, ans.text


def test_where_asks_for_a_place_not_the_thing_it_talks_about(tmp_path, embedder):
    s = library(tmp_path, embedder)
    ans = answer_ontology(s, "Where is the branch that Bram Tully works at?")
    assert ans.layer == "ontology" and "Harlow Cross" in ans.text and "Quayside" not in ans.text, ans.text



def test_a_count_of_things_is_no_value_of_them(tmp_path, embedder):
    """"How many branches does X manage?" counts branches: a value of theirs (a desk number) is no
    answer; "How many minutes …" counts no class, and a value may answer it."""
    (tmp_path / "library.ttl").write_text(LIBRARY, encoding="utf-8")
    vocab = Vocab.from_schema(Schema.load(tmp_path / "library.ttl"))
    keeper = AskedKeeper(vocab, SchemaNames(vocab, QueryVectors(embedder)))
    branch = "http://example.org/library/Branch"
    count = QuestionReading("members", QueryPlan(target="Branch", count=True), "how many library branch …?", (), 1,
                            branch)
    phone = QuestionReading("attribute", QueryPlan(target="Branch", returns=["deskPhone"]), "what is the desk …?", (),
                            2, None, prop="desk telephone")
    kept = keeper.of_counted(PlanDraft("q", None), "How many branches does X manage?", [], [count, phone])
    assert kept == [count]
    kept = keeper.of_counted(PlanDraft("q", None), "How many minutes does X run?", [], [count, phone])
    assert kept == [count, phone]


def test_a_class_name_used_as_a_verb_names_no_thing(tmp_path, embedder):
    """A schema with a class "work" (LUBM has one): "does X work for" uses the word as a verb; "the works
    of X" names the class."""
    (tmp_path / "works.ttl").write_text(LIBRARY + ":Work a owl:Class ; rdfs:label \"work\" .\n", encoding="utf-8")
    vocab = Vocab.from_schema(Schema.load(tmp_path / "works.ttl"))
    names = SchemaNames(vocab, QueryVectors(embedder))
    work = "http://example.org/library/Work"
    assert not any(work in g for g in names.named_class_groups("Which branch does X work at?"))
    assert not any(work in g for g in names.named_class_groups("X works at which branch?"))
    assert any(work in g for g in names.named_class_groups("Name the works of X."))


def test_how_much_asks_for_an_amount_that_no_count_of_things_gives(tmp_path, embedder):
    """"How much did X spend …" asks for an amount: the schema holds none, so the question is passed down,
    not answered by counting the vendors X buys from; "how many vendors" is a count."""
    s = library(tmp_path, embedder)
    ans = answer_ontology(s, "How much did Quayside Library spend buying from its vendor?")
    assert ans.layer == "none", ans.text
    ans = answer_ontology(s, "What did the vendor of Quayside Library cost to hire?")  # a verb of measure
    assert ans.layer == "none", ans.text
    ans = answer_ontology(s, "How many vendors does Quayside Library buy from?")
    assert ans.layer == "ontology" and ans.text.strip() == "1", ans.text


def test_a_relation_is_asked_by_any_of_its_names(tmp_path, embedder):
    """The schema names "staffs" by its label ("works at branch") and its local name ("staffs"): a
    question that uses the local name's verb counts who staffs the branch, not who manages it."""
    s = library(tmp_path, embedder)
    ans = answer_ontology(s, "How many librarians staff Quayside Library?")
    assert ans.layer == "ontology" and ans.text.strip() == "2", ans.text


REELS = """@prefix : <http://example.org/reels/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:Film a owl:Class ; rdfs:label "motion picture" .
:ShortFilm a owl:Class ; rdfs:subClassOf :Film ; rdfs:label "short film" .
:LongFilm a owl:Class ; rdfs:subClassOf :Film ; rdfs:label "feature length film" .
:Studio a owl:Class ; rdfs:label "studio" .
:madeBy a owl:ObjectProperty ; rdfs:domain :Film ; rdfs:range :Studio ; rdfs:label "made by studio" .
:lark a :Studio ; rdfs:label "Larkspur Pictures" .
:moth a :ShortFilm ; rdfs:label "Moth Season" ; :madeBy :lark .
:tide a :LongFilm ; rdfs:label "Tide Against Us" ; :madeBy :lark .
:reel a :LongFilm ; rdfs:label "Reel of Ash" ; :madeBy :lark .
:loose a :Film ; rdfs:label "Loose Ends" .
"""


def test_films_are_answered_by_every_kind_of_film_their_names_say_is_one(tmp_path, embedder):
    """"films" asks for every film: a short film and a feature length film are films by their names (the
    head noun), so the films of a studio are all of them, not one subclass's."""
    s = session(own_ontology(tmp_path, "reels", REELS), embedder)
    s.ontology.reason()  # a short film is filed as a film too
    ans = answer_ontology(s, "List the films made by Larkspur Pictures.")
    assert ans.layer == "ontology" and all(f in ans.text for f in ("Moth Season", "Tide Against Us", "Reel of Ash")), \
        ans.text


def test_an_address_asked_for_is_answered_by_one_or_not_at_all(tmp_path, embedder):
    """No e-mail, web address or librarian's phone is stored: whatever else a reading finds of the thing
    asked about (a branch's manager, a librarian's town, a firm's founding year) holds no address, and
    the layer passes the question down. The branch's desk telephone is stored, and answers."""
    s = library(tmp_path, embedder)
    for question in ("What is the e-mail address of Vale Road Library?", "What is the telephone number for Odile Fenn?",
                     "What is the website of Inkwell & Daughters?", "Which website does Vale Road Library have?"):
        ans = answer_ontology(s, question)
        # (passed down because the values found hold no address, or because the reading that means the
        # question, the branch's own address, finds nothing for it)
        assert ans.layer == "none" and ("hold no" in ans.text or "finds nothing" in ans.text), (question, ans.text)
    ans = answer_ontology(s, "What is the phone number of Quayside Library?")
    assert ans.layer == "ontology" and "01700 400100" in ans.text, ans.text


LESSONS = """@prefix : <http://example.org/lessons/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:Person a owl:Class ; rdfs:label "person" .
:Pupil a owl:Class ; rdfs:subClassOf :Person ; rdfs:label "pupil" .
:Lesson a owl:Class ; rdfs:label "music lesson" .
:attends a owl:ObjectProperty ; rdfs:domain :Person ; rdfs:range :Lesson ; rdfs:label "attends" .
:ann a :Pupil ; rdfs:label "Ann Sorrel" ; :attends :harp .
:bob a :Person ; rdfs:label "Bob Teague" ; :attends :lute .
:harp a :Lesson ; rdfs:label "Harp for Beginners" .
:lute a :Lesson ; rdfs:label "Lute Consort" .
:oboe a :Lesson ; rdfs:label "Oboe Reeds" .
"""


def test_no_thing_of_a_narrower_class_is_not_the_absence_of_the_wider_one(tmp_path, embedder):
    """"Not attended by any pupil": the relation runs from any person, and a plan cannot narrow its far end to
    pupils — the lesson no person attends (Oboe Reeds) is not the answer (Lute Consort lacks pupils too), so
    the layer passes the question down; asked of anyone, it answers."""
    s = session(own_ontology(tmp_path, "lessons", LESSONS), embedder)
    s.ontology.reason()
    assert answer_ontology(s, "Which music lessons are not attended by any pupil?").layer == "none"
    assert answer_ontology(s, "Which music lessons are not attended by anyone?").text == "Oboe Reeds"


INSTITUTE = """@prefix : <http://example.org/marine/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:Scientist a owl:Class ; rdfs:label "marine scientist" .
:Team a owl:Class ; rdfs:label "research team" .
:Vessel a owl:Class ; rdfs:label "research vessel" .
:inTeam a owl:ObjectProperty ; rdfs:domain :Scientist ; rdfs:range :Team ; rdfs:label "works for team" .
:sailsOn a owl:ObjectProperty ; rdfs:domain :Scientist ; rdfs:range :Vessel ; rdfs:label "sails on" .
:studies a owl:DatatypeProperty ; rdfs:domain :Scientist ; rdfs:label "is researching" .
:nickname a owl:DatatypeProperty ; rdfs:domain :Scientist ; rdfs:label "known on board as" .
:kelp a :Team ; rdfs:label "Kelp Forest Team" .
:reef a :Team ; rdfs:label "Reef Survey Team" .
:petrel a :Vessel ; rdfs:label "RV Petrel" .
:ana a :Scientist ; rdfs:label "Ana Sorel" ; :inTeam :kelp ; :studies "kelp forest recovery" ; :sailsOn :petrel .
:ben a :Scientist ; rdfs:label "Ben Okoro" ; :inTeam :reef ; :studies "coral bleaching" .
:cai a :Scientist ; rdfs:label "Cai Lindqvist" ; :inTeam :reef ; :studies "sea urchin grazing" .
:dov a :Scientist ; rdfs:label "Dov Adler" ; :inTeam :kelp ; :nickname "Skipper" .
:eli a :Scientist ; rdfs:label "Eli Brand" ; :inTeam :kelp ; :studies "drifting plankton" .
"""


def test_what_most_of_its_kind_hold_and_the_thing_lacks_is_not_answered_through_another_relation(tmp_path, embedder):
    """"Which topic does X work on?" means what X is researching: answered where the data holds it; of a
    scientist whose topic the data lacks (most scientists have one), the team they work for is no answer — the
    layer passes the question down and says the reading it meant found nothing."""
    s = session(own_ontology(tmp_path, "marine", INSTITUTE), embedder)
    ans = answer_ontology(s, "Which topic does Ana Sorel work on?")
    assert ans.layer == "ontology" and "kelp forest recovery" in ans.text, ans.text
    ans = answer_ontology(s, "Which topic does Dov Adler work on?")
    assert ans.layer == "none" and "finds nothing" in ans.text, ans.text
