"""Integration: index the whole FiQA dev corpus and check retrieval quality against a measured floor.

`polyrag bench fiqa-retrieval` measured recall@10 = 0.789 and nDCG@10 = 0.714 at λ=0.8 (README); the
floors sit a little below so that a real regression (tokenisation, normalisation, chunking) fails."""

from __future__ import annotations

import pytest

from benchmarks.fiqa import evaluate, load_questions
from pyramid.corpus import load_documents
from pyramid.text_layer import TextLayer

RECALL10_FLOOR = 0.77
NDCG10_FLOOR = 0.69


@pytest.mark.slow
def test_fiqa_dev_recall_at_10_is_above_the_measured_floor(workspace, embedder, shared_data):
    docs = load_documents(shared_data / "fiqa" / "corpus.jsonl").documents
    text = TextLayer(workspace, embedder)
    report = text.add_documents(docs)
    assert report.documents_added == 865 and report.chunks_total >= 865
    questions = load_questions(shared_data / "fiqa" / "questions_dev.jsonl")
    qvecs = embedder.embed([q["question"] for q in questions], kind="query")
    hybrid = evaluate(text, questions, qvecs, 0.8)
    assert hybrid["recall@10"] >= RECALL10_FLOOR
    assert hybrid["ndcg@10"] >= NDCG10_FLOOR
    keyword = evaluate(text, questions, qvecs, 0.0)
    assert hybrid["recall@10"] > keyword["recall@10"]  # the dense term earns its place
