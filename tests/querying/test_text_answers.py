"""The text layer's answers: composed from cited sentences, rewritten only when the rewrite adds no
word, and "I don't know" when the evidence is weak. A real text layer (MiniLM + BM25) over passages
written here; the LLM is the scripted one (canned replies keyed by prompt text; an unexpected prompt
raises) except in the test marked `llm`, which runs the real local model."""

from __future__ import annotations

import pytest
from conftest import run_cli

from benchmarks.fiqa import load_questions
from benchmarks.fiqa_answers import report_name, with_gold_answers
from benchmarks.metrics import abstention_rates, bleu, separation
from benchmarks.text_answers import WithoutDocs, cited_docs
from pyramid.config import load_settings
from pyramid.corpus import Document
from pyramid.errors import InputError
from pyramid.llm.scripted import ScriptedProvider
from pyramid.session import Session
from pyramid.workspace import Workspace
from querying.compose import Frame, added_words, compose, question_frame, repetitive, split_sentences
from querying.k2rag import TextAnswerer, resolve_text_answer
from querying.waterfall import answer_waterfall

DOCS = [
    Document("lighthouse", "The Kestrel Point lighthouse was built in 1873 by the harbour board. Its lamp can be "
                           "seen from 22 nautical miles away. Visitors may climb the tower on summer weekends."),
    Document("bakery", "Marrow Lane Bakery opens at six in the morning. Its rye loaf rises on a sourdough starter "
                       "kept alive since 1951. The bakery is closed on Mondays."),
    Document("glacier", "The Tarn glacier has retreated 400 metres since 1990. Its meltwater feeds the Ossel river, "
                        "which floods the valley farms every spring."),
    Document("lighthouse-copy", "Visitors may climb the tower on summer weekends. Tickets are sold at the gate."),
]
Q_LAMP = "From how far away can the lamp of the Kestrel Point lighthouse be seen?"
Q_ABSENT = "Which team won the 2010 chess olympiad in Khanty-Mansiysk?"
Q_BUILT = "What was the building year of the Kestrel Point lighthouse?"  # a fact question: it has a frame
COMPLETE = "Complete the answer using words from the sentences"  # the frame-completion prompt's needle


@pytest.fixture(scope="module")
def root(tmp_path_factory, embedder):
    ws = Workspace.init(tmp_path_factory.mktemp("answers") / "ws")
    Session(ws, provider=ScriptedProvider({}), embedder=embedder).text.add_documents(DOCS)
    return ws.root


def session(root, embedder, rules=None, **query) -> Session:
    settings = load_settings(root / "polyrag.toml", llm={"cache": False}, query=query)
    return Session(Workspace(root, settings), provider=ScriptedProvider(rules or {}), embedder=embedder)


def answerer(s: Session) -> TextAnswerer:
    return TextAnswerer(s.text, s.llm, s.embedder, s.settings.query, s.meter)


def test_the_extractive_answer_is_the_sentence_that_answers_cited_by_its_chunk(root, embedder):
    s = session(root, embedder, answer_words=12)  # room for one sentence; no rules: a model call would raise
    a = answerer(s).answer(Q_LAMP, mode="extractive")
    assert a.text == "Its lamp can be seen from 22 nautical miles away."
    assert [(c.doc_id, c.chunk_id) for c in a.citations] == [("lighthouse", "lighthouse#0")]
    assert a.usage.calls == 0 and not a.abstained and a.pipeline == "extractive"


def test_sentences_are_said_once_and_in_the_order_their_chunk_has_them(root, embedder):
    s = session(root, embedder)
    hits = s.text.search("When can visitors climb the lighthouse tower and what does the lamp do?", k=4)
    comp = compose("When can visitors climb the lighthouse tower?", hits, s.embedder, s.text.tokenize, 200)
    texts = [c.text for c in comp.chosen]
    assert texts.count("Visitors may climb the tower on summer weekends.") == 1  # two documents hold it
    light = [c.position for c in comp.chosen if c.hit.chunk.doc_id == "lighthouse"]
    assert light == sorted(light) and len(light) >= 2


def test_a_title_an_initial_or_a_closing_quote_stays_in_its_sentence():
    """Answers are whole sentences: "Prof." or "U.K." before a name is no sentence's end, a closing quote
    after a full stop is the sentence's own, and a semicolon joins clauses of one sentence."""
    text = ('The lecture is given by Dr. Amara Osei. Her notes cite the U.K. Office for Budget Responsibility; '
            'they are dense. She said "rates will fall." Nobody agreed?! W. Brandt disagreed.')
    assert split_sentences(text) == [
        "The lecture is given by Dr. Amara Osei.",
        "Her notes cite the U.K. Office for Budget Responsibility; they are dense.",
        'She said "rates will fall."', "Nobody agreed?!", "W. Brandt disagreed."]


def test_split_sentences_ends_a_sentence_at_a_list_line_and_cuts_unpunctuated_runs():
    assert split_sentences("Three things matter:\n- price\n- fees. Then taxes.") == [
        "Three things matter:", "- price", "- fees.", "Then taxes."]
    run = " ".join(["word"] * 170)
    assert [len(p.split()) for p in split_sentences(run)] == [80, 80, 10]


def test_a_rewrite_that_adds_a_fact_is_kept_out_and_the_extractive_answer_stands(root, embedder):
    made_up = "The lamp can be seen from 30 nautical miles by passing ships."
    s = session(root, embedder, {"Answer in one or two sentences": made_up}, answer_words=12)
    a = answerer(s).answer(Q_LAMP, mode="rewrite")
    assert a.text == "Its lamp can be seen from 22 nautical miles away."
    step = next(st for st in a.trace if st.step == "text.rewrite")
    assert "kept out" in step.outcome and "30" in step.outcome and a.usage.calls == 1


def test_a_rewrite_in_the_sentences_own_words_is_kept(root, embedder):
    reply = "The Kestrel Point lamp can be seen from 22 nautical miles."
    s = session(root, embedder, {"Answer in one or two sentences": reply}, answer_words=12)
    a = answerer(s).answer(Q_LAMP, mode="rewrite")
    assert a.text == reply and a.citations[0].doc_id == "lighthouse"


def test_a_rewrite_that_loops_is_kept_out(root, embedder):
    loop = "The lamp is the lamp is the lamp is the lamp is the lamp is the lamp."
    s = session(root, embedder, {"Answer in one or two sentences": loop}, answer_words=12)
    a = answerer(s).answer(Q_LAMP, mode="rewrite")
    assert a.text == "Its lamp can be seen from 22 nautical miles away."
    assert repetitive(loop) and not repetitive("Its lamp can be seen from 22 nautical miles away.")


def test_added_words_are_content_words_missing_from_every_source(root, embedder):
    tok = session(root, embedder).text.tokenize
    assert added_words("The bakery opens at six.", ["Marrow Lane Bakery opens at six in the morning."], tok) == []
    assert added_words("The bakery opens at seven.", ["Marrow Lane Bakery opens at six."], tok) == ["seven"]


def test_a_question_the_documents_do_not_answer_abstains_and_shows_what_was_found(root, embedder):
    s = session(root, embedder)  # no rules: abstaining must come before any model call
    a = answer_waterfall(s, Q_ABSENT, layers=["text"])
    assert a.layer == "text" and a.abstained and a.usage.calls == 0
    assert a.text.startswith("The documents do not seem to answer this.") and "closest passage" in a.text
    step = next(st for st in a.trace if st.step == "text.abstain")
    assert step.layer == "text" and f"< {s.settings.query.abstain_below}" in step.outcome
    assert a.evidence  # what it found is still shown


def test_an_answerable_question_does_not_abstain_and_zero_never_abstains_on_support(root, embedder):
    assert not answerer(session(root, embedder)).answer(Q_LAMP, mode="extractive").abstained
    zero = answerer(session(root, embedder, abstain_below=0.0))
    never = zero.answer("which team won the chess olympiad?", mode="extractive")  # names nothing to look for
    assert not never.abstained and never.citations
    # …but a fact question whose names no passage holds is still not answered (querying.shapes)
    named = zero.answer(Q_ABSENT, mode="extractive")
    assert named.abstained and "naming" in next(st for st in named.trace if st.step == "text.abstain").outcome


CHECK = "Do the sentences above answer this question itself"  # the answer check's needle
# a question the passages come near without answering: the lamp's range is there, its colour is not
Q_COLOUR = "What colour is the light of the Kestrel Point lighthouse lamp?"


def test_with_the_answer_check_on_a_no_from_the_model_abstains_after_the_support_passed(root, embedder):
    s = session(root, embedder, {CHECK: {"answered": False}}, answer_check="llm", answer_words=12)
    a = answerer(s).answer(Q_COLOUR, mode="extractive")
    assert a.abstained and a.pipeline == "abstain" and a.usage.calls == 1
    compose_step = next(st for st in a.trace if st.step == "text.compose")
    assert compose_step.input["support"] >= s.settings.query.abstain_below  # retrieval alone would have answered
    check = next(st for st in a.trace if st.step == "text.check")
    assert check.input["answered"] is False
    assert "do not answer" in next(st for st in a.trace if st.step == "text.abstain").outcome
    assert "closest passage" in a.text and a.evidence


def test_with_the_answer_check_on_a_yes_answers_and_off_asks_nothing(root, embedder):
    yes = answerer(session(root, embedder, {CHECK: {"answered": True}}, answer_check="llm", answer_words=12))
    a = yes.answer(Q_LAMP, mode="extractive")
    assert not a.abstained and a.usage.calls == 1 and a.text == "Its lamp can be seen from 22 nautical miles away."
    # the prompt shows the model the sentences the answer is made of
    assert "22 nautical miles" in yes.llm.provider.calls[-1][-1]["content"]
    off = answerer(session(root, embedder, answer_words=12)).answer(Q_COLOUR, mode="extractive")  # no rules
    assert off.usage.calls == 0 and all(st.step != "text.check" for st in off.trace)
    # below the support threshold the check is never asked: abstaining needs no model
    low = answerer(session(root, embedder, answer_check="llm")).answer(Q_ABSENT, mode="extractive")
    assert low.abstained and low.usage.calls == 0


def test_an_answer_check_reply_that_fails_its_schema_counts_as_yes(root, embedder):
    s = session(root, embedder, {CHECK: "sure, probably"}, answer_check="llm", answer_words=12)
    a = answerer(s).answer(Q_LAMP, mode="extractive")
    assert not a.abstained and a.text == "Its lamp can be seen from 22 nautical miles away."
    assert "counted as yes" in next(st for st in a.trace if st.step == "text.check").outcome


def test_without_docs_hides_a_document_as_if_it_were_not_indexed(root, embedder):
    s = session(root, embedder)
    assert s.text.search(Q_LAMP, k=1)[0].chunk.doc_id == "lighthouse"
    hidden = WithoutDocs(s.text, {"lighthouse"})
    assert all(h.chunk.doc_id != "lighthouse" for h in hidden.search(Q_LAMP, k=4))
    a = TextAnswerer(hidden, s.llm, s.embedder, s.settings.query, s.meter).answer(Q_LAMP, mode="extractive")
    assert "lighthouse" not in cited_docs(a) and "22 nautical" not in a.text
    # its keyword scores are those of an index without it: the best remaining chunk's is the top (1.0)
    q = "Can visitors climb the lighthouse tower?"
    keyword, other = sorted(s.text.search(q, k=2), key=lambda h: -h.sparse_norm)
    assert {keyword.chunk.doc_id, other.chunk.doc_id} == {"lighthouse", "lighthouse-copy"}
    assert keyword.sparse_norm == 1.0 > other.sparse_norm > 0
    rest = WithoutDocs(s.text, {keyword.chunk.doc_id}).search(q, k=1)[0]
    assert rest.chunk.doc_id == other.chunk.doc_id and rest.sparse_norm == pytest.approx(1.0)


def test_a_fact_question_is_turned_round_into_the_start_of_its_answer():
    tok = lambda t: [w for w in t.lower().split() if w not in {"it", "the", "a"}]  # noqa: E731
    f = question_frame("What was the opening year of the museum that houses the Ardent Clock?")
    assert f == Frame("what", "the opening year of the museum that houses the Ardent Clock", "was")
    assert f.heading == "As to what the opening year of the museum that houses the Ardent Clock was"
    assert f.lead == "The opening year of the museum that houses the Ardent Clock was"
    # a second, coordinated question is left out
    assert question_frame("Who is the keeper of the Tarn observatory, and what does she study?") == Frame(
        "who", "the keeper of the Tarn observatory", "is")
    placed = question_frame("Where were the harbour lanterns of Ossel made?")
    assert placed == Frame("where", "the harbour lanterns of Ossel", "were made", "in")
    assert placed.lead == "The harbour lanterns of Ossel were made in"
    assert question_frame("When was the Tarn footbridge opened?").lead == "The Tarn footbridge was opened"
    for other in ("How far can the lamp be seen?", "Which team won the chess olympiad?",
                  "Where is the Ossel river", "Why do glaciers retreat?"):
        assert question_frame(other) is None, other
    assert question_frame("What is it?", tok) is None  # nothing to frame


def test_a_fact_questions_extractive_answer_is_its_best_sentence_in_the_questions_frame(root, embedder):
    s = session(root, embedder)  # no rules: a model call would raise
    a = answerer(s).answer(Q_BUILT, mode="extractive")
    assert a.text == ("As to what the building year of the Kestrel Point lighthouse was: "
                      "The Kestrel Point lighthouse was built in 1873 by the harbour board.")
    assert [(c.doc_id, c.sentence) for c in a.citations] == [
        ("lighthouse", "The Kestrel Point lighthouse was built in 1873 by the harbour board.")]
    assert a.usage.calls == 0 and not a.abstained


def test_a_framed_sentence_that_opens_with_a_pronoun_brings_the_sentence_before_it(root, embedder):
    q = "What is the distance in nautical miles from which the Kestrel Point lamp can be seen?"
    a = answerer(session(root, embedder)).answer(q, mode="extractive")
    said = ["The Kestrel Point lighthouse was built in 1873 by the harbour board.",
            "Its lamp can be seen from 22 nautical miles away."]
    assert a.text == ("As to what the distance in nautical miles from which the Kestrel Point lamp can be seen is: "
                      + " ".join(said))
    assert [c.sentence for c in a.citations] == said


def test_a_fact_questions_rewrite_completes_the_frame_from_the_cited_words(root, embedder):
    reply = "The building year of the Kestrel Point lighthouse was 1873."
    a = answerer(session(root, embedder, {COMPLETE: reply})).answer(Q_BUILT, mode="rewrite")
    assert a.text == reply and a.usage.calls == 1
    # cited: the sentences that hold the words it added, not every sentence it was shown
    assert [c.sentence for c in a.citations] == ["The Kestrel Point lighthouse was built in 1873 by the harbour board."]
    # the model may give the missing words alone: the frame is put in front
    a = answerer(session(root, embedder, {COMPLETE: "1873, by the harbour board.\nMore."})).answer(Q_BUILT, mode="rewrite")
    assert a.text == "The building year of the Kestrel Point lighthouse was 1873, by the harbour board."


@pytest.mark.parametrize("reply, why", [
    ("The building year of the Kestrel Point lighthouse was 1875.", "adds 1875"),
    ("the building year of the Kestrel Point lighthouse", "says only what the question says"),
    ("", "empty")])
def test_a_frame_completion_that_adds_a_fact_or_says_nothing_is_kept_out(root, embedder, reply, why):
    a = answerer(session(root, embedder, {COMPLETE: reply})).answer(Q_BUILT, mode="rewrite")
    assert a.text.startswith("As to what the building year of the Kestrel Point lighthouse was: ")
    step = next(st for st in a.trace if st.step == "text.rewrite")
    assert "kept out" in step.outcome and why in step.outcome


def test_auto_answers_extractively_with_the_tiny_model_and_rewrites_with_any_other(root, embedder):
    tiny = Session(Workspace(root, load_settings(root / "polyrag.toml", llm={"cache": False})),
                   provider=ScriptedProvider({}, model="SmolLM2-135M-Instruct.Q4_1.gguf"), embedder=embedder)
    assert resolve_text_answer("auto", tiny.llm) == "extractive"
    assert resolve_text_answer("auto", session(root, embedder).llm) == "rewrite"
    assert resolve_text_answer("generate", tiny.llm) == "generate"


def test_bleu_and_abstention_rates():
    ref = "the rye loaf rises on a starter kept alive since 1951"
    assert bleu(ref, [ref], 4) == pytest.approx(1.0)
    assert bleu("glaciers retreat in warm decades", [ref], 4) < 0.05
    assert 0 < bleu("the rye loaf rises on a starter", [ref], 2) < 1
    rates = abstention_rates([0.7, 0.6, 0.4, 0.8], [0.3, 0.45, 0.55], 0.5)
    assert rates == {"threshold": 0.5, "abstain_removed": pytest.approx(2 / 3), "abstain_answerable": 0.25}


def test_separation_gives_the_roc_auc_and_the_best_share_at_a_fixed_cost():
    answerable = [0.9, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5, 0.45, 0.2]
    removed = [0.1, 0.3, 0.4, 0.5, 0.62]
    sep = separation(answerable, removed, answerable_share=0.1)
    # of the 50 (answerable, removed) pairs, counted by hand, 9 rank the removed one higher and one ties (0.5)
    assert sep["roc_auc"] == pytest.approx(1 - 9.5 / 50)
    # one answerable question in ten may abstain: the threshold is the second-lowest support (0.45)
    assert sep["threshold"] == 0.45 and sep["abstain_answerable"] == pytest.approx(0.1)
    assert sep["abstain_removed"] == pytest.approx(3 / 5)
    assert separation([], removed) == {}
    perfect = separation([0.8, 0.9], [0.1, 0.2], answerable_share=0.0)
    assert perfect["roc_auc"] == 1.0 and perfect["abstain_removed"] == 1.0 and perfect["abstain_answerable"] == 0.0


def test_a_question_file_gets_its_gold_answers_from_the_corpus_and_bad_lines_are_named(tmp_path):
    good = tmp_path / "q.jsonl"
    good.write_text('{"question": "How old is the rye starter?", "gold_docids": ["bakery"]}\n\n'
                    '{"qid": "b", "question": "Is the bakery open on Mondays?", "gold_docids": ["bakery"], '
                    '"gold_answers": ["No."]}\n', encoding="utf-8")
    docs = {d.id: d.text for d in DOCS}
    qs = with_gold_answers(load_questions(good), docs, good)
    assert [q["qid"] for q in qs] == ["1", "b"]  # a missing qid is the line's number
    assert qs[0]["gold_answers"] == [docs["bakery"]] and qs[1]["gold_answers"] == ["No."]
    assert report_name(None) == "fiqa-answers" and report_name(good) == "fiqa-answers-q"
    assert report_name(good, "abstention-signals") == "abstention-signals-q"
    for line, field in (('{"gold_docids": ["bakery"]}', "question"), ('{"question": "Why?", "gold_docids": []}',
                        "gold_docids"), ('{"question": "Why?", "gold_docids": "bakery"}', "gold_docids")):
        bad = tmp_path / "bad.jsonl"
        bad.write_text('{"question": "Fine?", "gold_docids": ["bakery"]}\n' + line + "\n", encoding="utf-8")
        with pytest.raises(InputError) as err:
            load_questions(bad)
        assert (err.value.line, err.value.field) == (2, field)
    unknown = [{"qid": "7", "question": "Why?", "gold_docids": ["bakery", "mill"]}]
    with pytest.raises(InputError, match="question 7: no passage mill"):
        with_gold_answers(unknown, docs, good)


def test_ask_prints_citations_and_says_when_it_abstained(root, capsys, monkeypatch):
    monkeypatch.setenv("POLYRAG_QUERY__TEXT_ANSWER", "extractive")
    code, out, err = run_cli(["ask", root, Q_LAMP, "--layer", "text"], capsys)
    assert code == 0, err
    assert "[1] chunk lighthouse#0 (document lighthouse)" in out and "abstained" not in out
    code, out, err = run_cli(["ask", root, Q_ABSENT, "--layer", "text"], capsys)
    assert code == 0, err
    assert "abstained:" in out and "do not seem to answer" in " ".join(out.split())


@pytest.mark.llm
@pytest.mark.slow
def test_with_the_real_model_a_rewrite_never_holds_a_word_its_sources_lack(root, embedder):
    s = Session(Workspace(root, load_settings(root / "polyrag.toml", llm={"cache": False})), embedder=embedder)
    for q in (Q_LAMP, "Since when has the Marrow Lane Bakery kept its sourdough starter?"):
        a = answerer(s).answer(q, mode="rewrite")
        assert not a.abstained and a.usage.calls == 1
        sources = [q, *(c.sentence for c in a.citations)]
        assert added_words(a.text, sources, s.text.tokenize) == []
    assert "22" in answerer(s).answer(Q_LAMP, mode="rewrite").text


def test_a_fact_question_is_answered_by_its_best_sentence_and_two_more_at_most(root, embedder):
    """"Which …?" asks for a fact: the answer leads with the sentence that answers it, says at most three
    and none that opens with a pronoun from elsewhere; every chosen sentence stays cited. An advice
    question ("Where can I …") and a "how" question get the passage."""
    from querying.compose import asks_for_a_fact

    s = session(root, embedder, answer_words=200)  # room for every sentence; no rules: a model call would raise
    q = "Which lighthouse was built by the harbour board?"
    a = answerer(s).answer(q, mode="extractive")
    said = split_sentences(a.text)
    assert said[0] == "The Kestrel Point lighthouse was built in 1873 by the harbour board." and len(said) <= 3
    assert not any(t.startswith(("Its ", "It ")) for t in said[1:]), said
    cited = [c.sentence for c in a.citations]
    assert cited[:len(said)] == said and len(cited) > len(said)  # the rest stay as citations
    assert asks_for_a_fact("Who leads the bakery?") and asks_for_a_fact("How many towers are there?")
    assert not asks_for_a_fact("Where can I buy rye bread?") and not asks_for_a_fact("How do glaciers retreat?")


def test_a_question_written_on_a_page_is_never_an_answer(tmp_path, embedder):
    """An FAQ page repeats the question it answers: the question, closest to what is asked by its words,
    states nothing; the answer is the sentence after it."""
    ws = Workspace.init(tmp_path / "faq")
    s = Session(ws, provider=ScriptedProvider({}), embedder=embedder)
    s.text.add_documents([Document("ferry", "Ferry questions. Q: When does the ferry to Skarn Island leave? A: The "
                                            "boat for Skarn Island sails at 7.40 every morning from pier two.")])
    hits = s.text.search("When does the ferry to Skarn Island leave?", k=2)
    comp = compose("When does the ferry to Skarn Island leave?", hits, s.embedder, s.text.tokenize, 200)
    texts = [c.text for c in comp.chosen]
    assert texts and not any(t.rstrip().endswith("?") for t in texts), texts
    assert any("7.40" in t for t in texts), texts
