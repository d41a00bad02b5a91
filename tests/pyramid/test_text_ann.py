"""The text layer's ANN graph (issue 14, item 4): from `text.ann_above` chunks a faiss HNSW graph is
built with the generation and proposes the dense candidates; the hybrid score stays exact. Real
MiniLM, bm25s and faiss. Recall and speed at 1M vectors are `polyrag bench scale`'s."""

from __future__ import annotations

import random

import pytest

from pyramid.config import load_settings
from pyramid.corpus import Document
from pyramid.errors import WorkspaceError
from pyramid.text_layer import GRAPH, TextLayer
from pyramid.workspace import Workspace

SUBJECTS = ["the lighthouse", "the orchard", "the tram line", "the glassworks", "the reservoir", "the abbey",
            "the salt marsh", "the paper mill", "the observatory", "the ferry pier", "the quarry", "the market hall"]
EVENTS = ["was rebuilt after a storm", "closed for repairs in winter", "hired twelve new workers",
          "opened a small museum", "flooded during the spring tide", "won a regional prize",
          "changed owners twice", "was painted a pale green"]


def corpus(n: int, seed: int = 1) -> list[Document]:
    rng = random.Random(seed)
    return [Document(f"d{i}", f"In {1900 + i % 97}, {rng.choice(SUBJECTS)} {rng.choice(EVENTS)}. "
                              f"Later {rng.choice(SUBJECTS)} {rng.choice(EVENTS)}.") for i in range(n)]


def layer(root, embedder, **text) -> TextLayer:
    if not root.exists():
        Workspace.init(root)
    settings = load_settings(root / "polyrag.toml", text=text)
    return TextLayer(Workspace(root, settings), embedder)


QUERIES = ["When did the lighthouse flood?", "museum at the glassworks", "workers hired by the paper mill",
           "storm damage to the abbey", "who owned the quarry", "the observatory's prize"]


@pytest.mark.slow
def test_the_graph_gives_the_exact_ranking_on_its_candidates(tmp_path, embedder):
    docs = corpus(400)
    exact = layer(tmp_path / "exact", embedder)
    exact.add_documents(docs)
    ann = layer(tmp_path / "ann", embedder, ann_above=0, ann_candidates=20, ann_ef=64)
    ann.add_documents(docs)
    gen = ann.ws.generations("text").current()
    assert (gen / GRAPH).is_file() and not (exact.ws.generations("text").current() / GRAPH).exists()
    assert ann.graph is not None and len(ann.graph) == len(ann.chunks) == 400
    same = 0
    for q in QUERIES:
        a, b = exact.search(q, k=5), ann.search(q, k=5)
        # a chunk both return has the same score: the candidates are scored exactly
        scores = {h.chunk.id: h.score for h in a}
        assert all(abs(h.score - scores[h.chunk.id]) < 1e-5 for h in b if h.chunk.id in scores)
        same += [h.chunk.id for h in a] == [h.chunk.id for h in b]
    assert same >= len(QUERIES) - 1, same


@pytest.mark.slow
def test_new_documents_join_the_graph_and_a_removal_rebuilds_it(tmp_path, embedder):
    ann = layer(tmp_path / "ws", embedder, ann_above=0)
    ann.add_documents(corpus(50))
    ann.add_documents(corpus(80)[50:])
    assert len(ann.graph) == len(ann.chunks) == 80
    ann.add_documents([], remove=["d3", "d4"])
    assert len(ann.graph) == len(ann.chunks) == 78
    hit = ann.search(ann.chunks[-1].text, k=1)[0]
    assert hit.chunk.id == ann.chunks[-1].id  # a chunk finds itself after the rebuild


def test_below_the_threshold_there_is_no_graph(tmp_path, embedder):
    small = layer(tmp_path / "ws", embedder, ann_above=100)
    small.add_documents(corpus(20))
    assert small.graph is None and not (small.ws.generations("text").current() / GRAPH).exists()


def test_a_damaged_graph_is_one_error(tmp_path, embedder):
    ann = layer(tmp_path / "ws", embedder, ann_above=0)
    ann.add_documents(corpus(30))
    (ann.ws.generations("text").current() / GRAPH).write_bytes(b"not a faiss index")
    fresh = TextLayer(ann.ws, embedder)
    with pytest.raises(WorkspaceError, match="text layer in .* is unreadable"):
        fresh.load()
