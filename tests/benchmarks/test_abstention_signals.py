"""`bench abstention-signals`: the retrieval signals of a question with and without its answer, on
passages and questions written here (real MiniLM, no model call)."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from benchmarks.abstention_signals import signals
from pyramid.corpus import Document
from pyramid.llm.scripted import ScriptedProvider
from pyramid.session import Session
from pyramid.workspace import Workspace

PASSAGES = {
    "ferry": "The island ferry leaves the north pier every ninety minutes. A return ticket costs eleven euros "
             "and bicycles travel free.",
    "ferry-2": "Ferry crossings to the island take forty minutes; in winter the last boat leaves at six.",
    "orchard": "The orchard grows nine kinds of pear. Picking starts in late August and the cider is pressed in "
               "October.",
    "kiln": "The pottery's wood-fired kiln burns for three days. Glazes turn green where ash settles on them.",
    "choir": "The town choir rehearses on Thursday evenings in the old grain hall and welcomes new tenors.",
    "tide": "Spring tides flood the causeway twice a month, cutting the lighthouse off for about four hours.",
}
QUESTIONS = [
    ("How much is a return ticket on the island ferry?", ["ferry"]),
    ("When is the cider pressed at the orchard?", ["orchard"]),
    ("How long does the wood-fired kiln burn?", ["kiln"]),
    ("Which evening does the choir rehearse?", ["choir"]),
]


@pytest.fixture(scope="module")
def text(tmp_path_factory, embedder):
    ws = Workspace.init(tmp_path_factory.mktemp("signals") / "ws")
    s = Session(ws, provider=ScriptedProvider({}), embedder=embedder)
    s.text.add_documents([Document(k, v) for k, v in PASSAGES.items()])
    s.text.load()
    return s.text


def test_a_question_with_its_answer_indexed_scores_higher_than_without_it(text, embedder):
    question, gold = QUESTIONS[0]
    full = signals(text, embedder, question)
    gone = signals(text, embedder, question, exclude=gold)
    assert full["cosine"] > gone["cosine"] and full["hybrid"] > gone["hybrid"]
    assert full["keyword_rank"] == 0.0  # the ticket passage leads both rankings
    assert full["stable"] == 1.0        # leaving out any one word still finds it
    # without it the other ferry passage is the best left, and the neighbours' statistics stay finite
    assert all(v == v for v in gone.values())
    assert gone["stable"] < 1.0 or gone["cosine"] < full["cosine"] - 0.1


def fiqa_dir(tmp_path):
    """PASSAGES and QUESTIONS as a FiQA-format data directory."""
    data = tmp_path / "fiqa"
    data.mkdir()
    (data / "corpus.jsonl").write_text("".join(json.dumps({"docid": k, "text": v}) + "\n"
                                               for k, v in PASSAGES.items()), encoding="utf-8")
    (data / "questions_dev.jsonl").write_text("".join(json.dumps({"qid": str(n), "question": q, "gold_docids": g}) + "\n"
                                                      for n, (q, g) in enumerate(QUESTIONS)), encoding="utf-8")
    return data


def test_the_bench_writes_each_signals_separation_and_their_combination(tmp_path, capsys):
    data = fiqa_dir(tmp_path)
    out = tmp_path / "reports"
    code, _, stderr = run_cli(["bench", "abstention-signals", "--data", str(data), "--out", str(out),
                               "--workspace", str(tmp_path / "ws")], capsys)
    assert code == 0, stderr
    report = json.loads((out / "abstention-signals.json").read_text(encoding="utf-8"))
    assert report["questions"] == len(QUESTIONS)
    table = report["signals"]
    assert {"support", "cosine", "spread", "robust", "all (logistic regression)"} <= set(table)
    # four questions whose answers are plain: the best cosine alone separates the two looks of each
    assert table["cosine"]["roc_auc"] >= 0.9
    assert all(0.0 <= s["roc_auc"] <= 1.0 for s in table.values())
    assert "ROC AUC" in (out / "abstention-signals.md").read_text(encoding="utf-8")


def test_with_llm_check_the_bench_scores_the_models_yes_and_no(tmp_path, capsys, monkeypatch):
    """The scripted LLM (canned replies keyed by prompt text) stands for a model that says yes exactly when
    the sentence shown comes from the question's own passage: its vote must then separate the two looks."""
    from querying.compose import split_sentences

    data = fiqa_dir(tmp_path)
    # one rule per (sentence, question): the sentence shown last, right before the question
    rules = {f"{sentence}\n\nQuestion: {q}": {"answered": doc in gold}
             for q, gold in QUESTIONS for doc, text in PASSAGES.items() for sentence in split_sentences(text)}
    script = tmp_path / "script.json"
    script.write_text(json.dumps(rules), encoding="utf-8")
    monkeypatch.setenv("POLYRAG_LLM__PROVIDER", "scripted")
    monkeypatch.setenv("POLYRAG_LLM__SCRIPTED_FILE", str(script))
    monkeypatch.setenv("POLYRAG_QUERY__ANSWER_WORDS", "12")  # one sentence per answer
    out = tmp_path / "reports"
    code, stdout, stderr = run_cli(["bench", "abstention-signals", "--data", str(data), "--out", str(out),
                                    "--workspace", str(tmp_path / "ws"), "--llm-check"], capsys)
    assert code == 0, stderr
    report = json.loads((out / "abstention-signals-llm.json").read_text(encoding="utf-8"))
    assert not (out / "abstention-signals.json").exists()  # the retrieval-only report is not overwritten
    assert report["model"] == "script.json"  # the scripted provider names itself after its file
    assert report["model_says_no"] == {"answerable": 0.0, "removed": 1.0}
    assert report["signals"]["llm_check"]["roc_auc"] == 1.0
    assert report["signals"]["support, then the model"]["roc_auc"] == 1.0
    assert "said no to 0.0% of answerable looks and 100.0% of gold-removed ones" in stdout
