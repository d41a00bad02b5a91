"""What shape of value a question asks for, and whether a sentence holds one (querying.shapes). Inputs
written here, about a ferry crossing; no model."""

from __future__ import annotations

import pytest

from pyramid.config import load_settings
from pyramid.corpus import Document
from pyramid.llm.scripted import ScriptedProvider
from pyramid.session import Session
from pyramid.workspace import Workspace
from querying.k2rag import TextAnswerer
from querying.shapes import asked, asked_shape, holds_shape


@pytest.mark.parametrize("question, shape", [
    ("What is the phone number of the Gullhaven booking desk?", "phone"),
    ("Which telephone line takes group bookings?", "phone"),
    ("What is Petra Lund's e-mail address?", "email"),
    ("Where can I find the ferry's website?", "web"),
    ("Where can I read about the Orrin Island crossing online?", "web"),
    ("Where is the Brenmoor rowing club on the web?", "web"),
    ("Where is the Brenmoor rowing club on the internet?", "web"),
    ("How many sailings can be booked online?", "number"),             # "online" asks where only after "where"
    ("When did the Orrin Island crossing first sail?", "time"),
    ("In what year was the pier rebuilt?", "time"),
    ("How many sailings leave Gullhaven each day?", "number"),
    ("How much is a return ticket?", "number"),
    ("What did the new pier cost, in millions of pounds?", "number"),   # an amount asked in a scale of a unit
    ("In thousands of euros, what was the refit's budget?", "number"),
    ("Which island lies in Thousands of Gulls Bay?", None),             # a name, not a scale
    ("Which number should I ring to book the ferry?", "phone"),        # a number said with the verb that dials it
    ("What number do I call for lost property?", "phone"),
    ("How many people called the ferry office?", "number"),
    ("Who skippers the morning ferry?", None),
    ("Which island does the ferry serve?", None),
    ("Where does the mobile library stop?", None),      # "mobile" names a number only before "number"
    ("What links the pier to the harbour?", None),
])
def test_the_shape_a_question_asks_for_is_read_from_its_grammar_and_shape_nouns(question, shape):
    assert asked_shape(question) == shape


@pytest.mark.parametrize("text, shape, holds", [
    ("Call the booking desk on 0161 555 0192 for group fares.", "phone", True),
    ("Hello, I'm Petra, and I run bookings for the ferry.", "phone", False),
    ("The crossing opened on 4 May 1907.", "phone", False),                # a date is no phone number
    ("Write to bookings@gullhaven.example for a group fare.", "email", True),
    ("Bookings open at https://gullhaven.example/fares today.", "web", True),
    ("Bookings open at https://gullhaven.example/fares today.", "email", False),
    ("The pier was rebuilt in 1952.", "time", True),
    ("The last sailing leaves at 19:30.", "time", True),
    ("Sailings are cancelled on Tuesdays in winter.", "time", True),
    ("Call 0161 555 0192 for fares.", "time", False),                      # digits, but no time
    ("Gullhaven is one of the busiest ports on the coast.", "number", False),  # "one of": no count
    ("Three sailings leave Gullhaven each day.", "number", True),
    ("A return ticket costs £12.", "number", True),
    ("The crew are friendly and the café sells soup.", "number", False),
    ("Gullhaven ferry sails on 2025-06-14 and again on 4 July 2025.", "number", False),  # dates: no amount
    ("The ferry sails on 2025-06-14.", "time", True),
])
def test_a_sentence_holds_a_value_of_a_shape_or_not(text, shape, holds):
    assert holds_shape(text, shape) is holds


# ---------------------------------------------------------------- the text layer answers with a shaped sentence
# A real text layer (MiniLM + BM25) over passages written here; the scripted LLM has no rules, so any model
# call raises: the extractive answer needs none.
FERRY = [
    Document("ferry", "The Gullhaven ferry crosses the sound to Orrin Island. Boarding opens before each sailing. "
                      "The crew are friendly and the café on the Gullhaven ferry sells hot soup."),
    Document("ferry-desk", "Hello, I'm Petra Lund, and I run the booking desk for the Gullhaven ferry. "
                           "The Gullhaven ferry booking desk answers on 0161 555 0192 for group fares."),
    Document("skerry", "The Skerry ferry sails to Holm twice a day. Its desk answers on 0161 555 0777."),
]


@pytest.fixture(scope="module")
def ferry(tmp_path_factory, embedder):
    ws = Workspace.init(tmp_path_factory.mktemp("shapes") / "ws")
    s = Session(ws, provider=ScriptedProvider({}), embedder=embedder)
    s.text.add_documents(FERRY)
    return TextAnswerer(s.text, s.llm, s.embedder, load_settings(ws.root / "polyrag.toml", query={"abstain_below": 0.0}).query,
                        s.meter)


def test_a_question_for_a_phone_number_is_answered_by_the_sentence_that_holds_one(ferry):
    a = ferry.answer("What is the phone number of the Gullhaven ferry booking desk?", mode="extractive")
    assert not a.abstained and "0161 555 0192" in a.text and "Hello" not in a.text


def test_a_question_whose_shape_no_sentence_holds_is_not_answered_and_says_why(ferry):
    a = ferry.answer("What is the e-mail address of the Gullhaven ferry booking desk?", mode="extractive")
    assert a.abstained and a.layer == "text"
    assert any(s.step == "text.abstain" and "e-mail address" in s.outcome for s in a.trace)
    b = ferry.answer("When did the Gullhaven ferry first cross the sound?", mode="extractive")
    assert b.abstained and any(s.step == "text.abstain" and "time" in s.outcome for s in b.trace)


def test_a_shaped_sentence_about_something_else_does_not_answer(ferry):
    """Phone numbers abound, but no passage names the Tarbet Sound ferry: the question is not answered with
    another ferry's number."""
    a = ferry.answer("What is the phone number of the Tarbet Sound ferry?", mode="extractive")
    assert a.abstained and "0161" not in a.text.split("closest passage")[0]
    assert any(s.step == "text.abstain" and "tarbet sound" in s.outcome for s in a.trace)
    b = ferry.answer("What is the phone number of the Skerry ferry?", mode="extractive")
    assert not b.abstained and "0161 555 0777" in b.text and "0192" not in b.text


def test_a_count_said_beside_its_noun_answers_however_little_wording_it_shares(tmp_path, embedder):
    """Retrieval's support can be low for a sentence that shares few words with the question (a gate set
    high here, 0.95, to make it so); a count said beside the noun asked about, in a passage naming what is
    asked about, answers all the same. A question asking no count is still held back by the gate."""
    ws = Workspace.init(tmp_path / "ws")
    s = Session(ws, provider=ScriptedProvider({}), embedder=embedder)
    s.text.add_documents([*FERRY, Document("orrin-crossing", "Captain Ilse Varga took the Orrin Island ferry out at "
                                                               "dawn. The 40-minute crossing passes two lighthouses "
                                                               "and a seal colony. Pack a warm coat.")])
    cfg = load_settings(ws.root / "polyrag.toml", query={"abstain_below": 0.95}).query
    text = TextAnswerer(s.text, s.llm, s.embedder, cfg, s.meter)
    a = text.answer("How many minutes does the Orrin Island ferry take?", mode="extractive")
    assert not a.abstained and "40-minute" in a.text, a.text
    b = text.answer("Who took the Orrin Island ferry out at dawn?", mode="extractive")
    assert b.abstained and any(st.step == "text.abstain" and "support" in st.outcome for st in b.trace)


@pytest.mark.parametrize(("question", "said_of"), [
    ("Which village is the orchard that Ida Kerr tends in?", "orchard"),
    ("What does Ida Kerr's mentor grow?", "mentor"),
    ("Which village is Hillside Rows in?", ""),
    ("Who is the grower who mentors Ida Kerr?", ""),            # the phrase is what is asked for
    ("The faculty behind the subject Orchard Care is which one?", ""),  # no relative word: maybe an apposition
])
def test_a_name_said_of_another_thing_is_answered_by_no_passage_about_it(question, said_of):
    """What is asked is the other thing's, two steps away: the text layer admits no sentence for it."""
    wanted = asked(question, framed=False)
    assert wanted.said_of == said_of
    said = "Ida Kerr tends Hillside Rows in Orwell, where Orchard Care is taught."
    assert wanted.admits(said, said) == (not said_of)
