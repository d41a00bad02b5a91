"""Embedder: unit float32 vectors, disk cache by text hash, INSTRUCTOR-style prompts not pooled."""

from __future__ import annotations

import numpy as np

from pyramid.config import EmbeddingSettings
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
    e = Embedder(EmbeddingSettings(query_prompt=instruction))
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
