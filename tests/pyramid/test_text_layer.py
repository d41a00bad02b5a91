"""Text layer: hybrid scoring against independently computed components; incremental indexing."""

from __future__ import annotations

import json

import bm25s
import numpy as np
import pytest

from pyramid.corpus import Document
from pyramid.errors import WorkspaceError
from pyramid.text_layer import TextLayer

DOCS = [
    Document("fin", "Bonds pay a fixed coupon; a bond's price falls when interest rates rise."),
    Document("tax", "Capital gains tax applies when you sell shares for more than you paid for them."),
    Document("astro", "The observatory opens on Fridays; visitors can watch Jupiter and Saturn."),
    Document("cook", "Simmer the tomato sauce for twenty minutes and season it with basil."),
    Document("loan", "A mortgage is a loan secured by a house; the interest rate may be fixed or variable."),
]


@pytest.fixture
def layer(workspace, embedder) -> TextLayer:
    text = TextLayer(workspace, embedder)
    text.add_documents(DOCS)
    return text


def test_sparse_scores_equal_bm25s_own_scoring(layer):
    reference = bm25s.BM25()
    reference.index([layer.tokenize(c.text) for c in layer.chunks], show_progress=False)
    for q in ["interest rates and bonds", "Jupiter observatory", "basil", "zebra"]:
        toks = layer.tokenize(q)
        expected = reference.get_scores(toks) if any(t in reference.vocab_dict for t in toks) else 0 * layer.matrix[:, 0]
        np.testing.assert_allclose(layer.sparse_scores(q), expected, rtol=1e-5)


@pytest.mark.parametrize("lam", [0.0, 0.2, 0.5, 0.8, 1.0])
def test_hybrid_score_is_lambda_mix_of_cosine_and_max_normalised_bm25(layer, embedder, lam):
    q = "Does a bond's price go down when interest rates go up?"
    qv = embedder.embed_one(q)
    cos = np.array([float(embedder.embed_one(c.text, kind="document") @ qv) for c in layer.chunks])
    bm = layer.sparse_scores(q)
    expected = lam * cos + (1 - lam) * bm / bm.max()
    hits = layer.search(q, k=len(DOCS), lam=lam, query_vector=qv)
    order = [layer.chunks.index(h.chunk) for h in hits]
    np.testing.assert_allclose([h.score for h in hits], expected[order], rtol=1e-4, atol=1e-5)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert max(h.sparse_norm for h in hits) == pytest.approx(1.0)


def test_excluded_documents_are_scored_as_if_they_were_not_indexed(layer, embedder):
    q = "Does a bond's price go down when interest rates go up?"
    qv = embedder.embed_one(q)
    assert layer.search(q, k=1, query_vector=qv)[0].chunk.doc_id == "fin"  # the keyword best, hidden below
    hits = layer.search(q, k=5, lam=0.5, query_vector=qv, exclude={"fin", "nowhere"})
    assert [h.chunk.doc_id for h in hits if h.chunk.doc_id == "fin"] == [] and len(hits) == 4
    # the keyword part is normalised by the best BM25 among the documents left ("loan" shares
    # "interest rate"), not by the hidden document's
    bm = layer.sparse_scores(q)
    rest = [i for i, c in enumerate(layer.chunks) if c.doc_id != "fin"]
    assert max(h.sparse_norm for h in hits) == pytest.approx(1.0)
    for h in hits:
        assert h.score == pytest.approx(0.5 * h.dense + 0.5 * h.sparse / bm[rest].max(), abs=1e-5)
    assert layer.search(q, exclude=[d.id for d in DOCS]) == []


def test_keyword_only_and_semantic_only_rankings(layer):
    # λ=0: only documents containing a query term score above zero
    hits = layer.search("basil tomato", k=5, lam=0.0)
    assert hits[0].chunk.doc_id == "cook" and all(h.score == 0 for h in hits[1:])
    # λ=1: a paraphrase with no shared term still finds the right document
    hits = layer.search("stargazing night for the public", k=1, lam=1.0)
    assert hits[0].chunk.doc_id == "astro" and hits[0].sparse == 0


def test_query_without_known_terms_does_not_divide_by_zero(layer):
    hits = layer.search("zzzz qqqq", k=3, lam=0.8)
    assert all(np.isfinite(h.score) for h in hits) and all(h.sparse_norm == 0 for h in hits)


def test_adding_documents_embeds_only_new_chunks(layer, embedder, monkeypatch):
    seen: list[str] = []
    original = embedder.encode_raw

    def counting(texts, prompt=""):
        seen.extend(texts)
        return original(texts, prompt)

    monkeypatch.setattr(embedder, "encode_raw", counting)
    monkeypatch.setattr(embedder, "cache", None)  # count model work, not cache hits
    before = layer.matrix.copy()
    new = Document("new", "Index funds track a market index at a low cost.")
    changed = Document("cook", "Bake the bread at 220 degrees for thirty minutes.")
    report = layer.add_documents([*DOCS[:3], new, changed])  # 3 unchanged, 1 new, 1 changed
    assert sorted(seen) == sorted([new.text, changed.text])
    assert (report.documents_added, report.documents_replaced, report.documents_unchanged) == (1, 1, 3)
    fin = [i for i, c in enumerate(layer.chunks) if c.doc_id == "fin"][0]
    np.testing.assert_array_equal(layer.matrix[fin], before[0])  # old vectors copied, not recomputed
    assert layer.search("bread oven", k=1)[0].chunk.doc_id == "cook"
    assert sum(c.doc_id == "cook" for c in layer.chunks) == 1


def test_failed_indexing_leaves_the_layer_as_it_was(layer, embedder, monkeypatch):
    gen = layer.ws.generations("text").current()
    manifest = (layer.ws.root / "manifest.json").read_bytes()

    def broken(*a, **k):
        raise RuntimeError("model crashed")

    monkeypatch.setattr(embedder, "embed", broken)
    with pytest.raises(RuntimeError):
        layer.add_documents([Document("x", "something new")])
    assert layer.ws.generations("text").current() == gen
    assert (layer.ws.root / "manifest.json").read_bytes() == manifest
    fresh = TextLayer(layer.ws, embedder).load()
    assert [c.doc_id for c in fresh.chunks] == [c.doc_id for c in layer.chunks]


def test_removal_and_persistence(layer, embedder):
    layer.add_documents([], remove=["tax"])
    reopened = TextLayer(layer.ws, embedder).load()
    assert "tax" not in {c.doc_id for c in reopened.chunks} and len(reopened.chunks) == reopened.matrix.shape[0]
    assert json.loads((layer.ws.root / "manifest.json").read_text())["layers"]["text"]["documents"] == 4
    with pytest.raises(WorkspaceError, match="unknown document ids: nope"):
        layer.add_documents([], remove=["nope"])


def test_search_on_an_empty_workspace_says_what_to_do(workspace, embedder):
    with pytest.raises(WorkspaceError, match="no text layer yet") as err:
        TextLayer(workspace, embedder).search("anything")
    assert err.value.hint.action == "add_documents" and err.value.hint.target == str(workspace.root)


def test_corpus_store_keeps_full_documents_for_the_other_layers(workspace):
    from pyramid.corpus_store import CorpusStore

    store = CorpusStore(workspace)
    change = store.update(DOCS)
    assert change.added == [d.id for d in DOCS]
    edited = Document("cook", "Bake bread.")
    change = CorpusStore(workspace).update([DOCS[0], edited], remove=["tax"])
    assert (change.unchanged, change.changed, change.removed) == (["fin"], ["cook"], ["tax"])
    again = CorpusStore(workspace)
    assert {d.id: d.text for d in again.documents()} == {"fin": DOCS[0].text, "astro": DOCS[2].text,
                                                         "cook": "Bake bread.", "loan": DOCS[4].text}
