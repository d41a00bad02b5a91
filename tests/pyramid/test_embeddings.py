"""Embedder: unit float32 vectors, disk cache by text hash, INSTRUCTOR-style prompts not pooled."""

from __future__ import annotations

import numpy as np
import pytest

from pyramid import embeddings
from pyramid.config import EmbeddingSettings
from pyramid.embed_pool import BrokenProcessPool, EncodePool
from pyramid.embeddings import Embedder


def test_vectors_are_unit_float32_and_cached(tmp_path):
    e = Embedder(EmbeddingSettings(), tmp_path / "e.sqlite")
    texts = ["green bonds", "a house loan", "green bonds"]
    v = e.embed(texts)
    assert v.dtype == np.float32 and v.shape == (3, 384)
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, rtol=1e-5)
    np.testing.assert_array_equal(v[0], v[2])
    calls = []
    e.encode_raw = lambda t, p="": calls.append(list(t)) or np.zeros((len(t), 384), np.float32)
    again = Embedder(EmbeddingSettings(), tmp_path / "e.sqlite")
    again._model = e._model
    again.encode_raw = e.encode_raw
    np.testing.assert_array_equal(again.embed(texts), v)     # all from the disk cache
    assert calls == []
    again.embed(["something new"])
    assert calls == [["something new"]]


def test_instruction_prompt_is_excluded_from_pooling(embedder):
    """INSTRUCTOR style: the instruction conditions the tokens but is not averaged into the vector."""
    instruction = "Represent the finance question for retrieving answers: "
    e = Embedder(EmbeddingSettings(query_prompt=instruction, precision="float32"))  # as the check below
    text = "how are dividends taxed"
    got = e.embed_one(text, kind="query", use_cache=False)
    # Independent computation: token embeddings of instruction+text, mean over the text's tokens only.
    model = e.model
    features = model.tokenize([instruction + text])
    n_prompt = len(model.tokenizer(instruction, add_special_tokens=False)["input_ids"]) + 1  # + [CLS]
    import torch
    with torch.no_grad():
        tokens = model[0](features)["token_embeddings"][0]
    mask = features["attention_mask"][0].bool().clone()
    mask[:n_prompt] = False
    expected = tokens[mask].mean(0).numpy()
    expected /= np.linalg.norm(expected)
    np.testing.assert_allclose(got, expected, atol=1e-5)
    plain = embedder.embed_one(text, use_cache=False)
    assert float(plain @ got) < 0.999  # the instruction did change the vector


# -- bulk embedding in worker processes (pyramid.embed_pool)
_WORDS = ["harbour", "ledger", "orchard", "quarry", "lantern", "meadow", "ferry", "granary", "kiln", "mill"]
BULK = [f"the {a} beside the {b}" for a in _WORDS for b in _WORDS[:4]] + ["the kiln beside the harbour"]


def _fake_vectors(texts, prompt=""):
    """Deterministic unit vectors per text (control-flow tests: which path ran, not the model)."""
    out = np.array([[len(t), sum(map(ord, t)) % 97, 1.0] + [0.0] * 381 for t in texts], np.float32)
    return out / np.linalg.norm(out, axis=1, keepdims=True)


@pytest.mark.slow
def test_bulk_embedding_in_worker_processes_gives_the_same_vectors(tmp_path, monkeypatch):
    """Two real worker processes (one torch thread each) embed the slices of a large call: the
    vectors are those of this process, in the input's order, repeats included, and cached. In float32,
    where a text's vector does not depend on the batch it shares (bfloat16's does, at ~1e-3)."""
    monkeypatch.setattr(embeddings, "ENCODE_SLICE", 7)  # several slices, so order across workers counts
    settings = EmbeddingSettings(workers=2, pool_above=20, precision="float32")
    pooled = Embedder(settings, tmp_path / "pool.sqlite")
    seen = []
    got = pooled.embed(BULK, progress=seen.append)
    assert isinstance(pooled._pool, EncodePool)
    assert sum(seen) == len(BULK)
    here = Embedder(EmbeddingSettings(workers=1, precision="float32")).embed(BULK, use_cache=False)
    np.testing.assert_allclose(got, here, atol=1e-6)
    np.testing.assert_array_equal(got[-1], got[BULK.index("the kiln beside the harbour")])
    again = Embedder(settings, tmp_path / "pool.sqlite")
    monkeypatch.setattr(again, "encode_raw", lambda t, p="": pytest.fail(f"embedded again: {t}"))
    np.testing.assert_array_equal(again.embed(BULK), got)  # every slice reached the disk cache
    assert again._pool is None  # nothing left to encode: no workers started


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(a * b, axis=1)


@pytest.mark.slow
def test_bfloat16_vectors_are_float32_ones_to_four_nines_and_cached_apart(tmp_path, monkeypatch):
    """`precision = "bfloat16"`: the forward pass runs in bfloat16, here and in the worker processes;
    its vectors are unit rows within cosine 0.9999 of float32's but not equal to them (the other
    arithmetic did run), and a float32 embedder does not take them from the shared cache."""
    texts = [f"a {a} and a {b}" for a in _WORDS for b in _WORDS][:80]  # > 64: not the numpy encoder's job
    exact = Embedder(EmbeddingSettings(workers=1, precision="float32")).embed(texts, use_cache=False)
    half = Embedder(EmbeddingSettings(workers=1, precision="bfloat16"), tmp_path / "e.sqlite")
    assert half.bf16
    got = half.embed(texts)
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, rtol=1e-5)
    cos = _cosines(got, exact)
    assert cos.min() > 0.9999 and not np.array_equal(got, exact), cos
    full = Embedder(EmbeddingSettings(workers=1, precision="float32"), tmp_path / "e.sqlite")
    np.testing.assert_allclose(full.embed(texts), exact, atol=1e-6)  # computed again, not bfloat16's
    monkeypatch.setattr(embeddings, "ENCODE_SLICE", 7)
    pooled = Embedder(EmbeddingSettings(workers=2, pool_above=10, precision="bfloat16"))
    in_workers = pooled.embed(texts, use_cache=False)
    assert isinstance(pooled._pool, EncodePool)
    cos = _cosines(in_workers, exact)
    assert cos.min() > 0.9999 and np.abs(in_workers - exact).max() > 1e-5, cos


def test_auto_precision_follows_the_cpu(monkeypatch):
    monkeypatch.setattr(embeddings, "bfloat16_native", lambda: True)
    assert Embedder(EmbeddingSettings()).bf16 and not Embedder(EmbeddingSettings(precision="float32")).bf16
    monkeypatch.setattr(embeddings, "bfloat16_native", lambda: False)
    assert not Embedder(EmbeddingSettings()).bf16 and Embedder(EmbeddingSettings(precision="bfloat16")).bf16


def test_a_small_call_stays_in_this_process(monkeypatch):
    monkeypatch.setattr(embeddings, "EncodePool", lambda *a, **k: pytest.fail("a pool was started"))
    e = Embedder(EmbeddingSettings(workers=2, pool_above=len(BULK) + 1))
    monkeypatch.setattr(e, "encode_raw", _fake_vectors)
    np.testing.assert_array_equal(e.embed(BULK, use_cache=False), _fake_vectors(BULK))
    one = Embedder(EmbeddingSettings(workers=1, pool_above=1))  # workers=1: never a pool
    monkeypatch.setattr(one, "encode_raw", _fake_vectors)
    np.testing.assert_array_equal(one.embed(BULK, use_cache=False), _fake_vectors(BULK))


def test_a_dead_worker_is_given_up_and_the_rest_embedded_here(monkeypatch):
    """Scripted pool: the first slice comes back, then a worker dies (as when the kernel kills it)."""
    started = []

    class DyingPool:
        def __init__(self, *args, **kwargs):
            started.append(kwargs)

        def map(self, slices, prompt):
            yield _fake_vectors(slices[0])
            raise BrokenProcessPool("a worker was killed")

        def close(self):
            started.append("closed")

    monkeypatch.setattr(embeddings, "EncodePool", DyingPool)
    monkeypatch.setattr(embeddings, "ENCODE_SLICE", 5)
    e = Embedder(EmbeddingSettings(workers=2, pool_above=10))
    here = []
    monkeypatch.setattr(e, "encode_raw", lambda t, p="": here.append(len(t)) or _fake_vectors(t))
    with pytest.warns(RuntimeWarning, match="worker processes failed"):
        got = e.embed(BULK, use_cache=False)
    np.testing.assert_array_equal(got, _fake_vectors(BULK))
    assert sum(here) == len(set(BULK)) - 5  # all but the slice the pool returned
    assert started[-1] == "closed" and e._pool is False
    e.embed(BULK[:12], use_cache=False)  # later large calls stay here: no second pool
    assert len([s for s in started if s != "closed"]) == 1
