"""The numpy MiniLM encoder (pyramid/minilm.py) computes what sentence-transformers computes, and the
embedder uses it for questions without importing torch. Real model files from the package."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np

from pyramid.embeddings import default_model_dir
from pyramid.minilm import NumpyBert, readable

TEXTS = ["Which lab runs the seismology course?", "陳大文 Chan Tai Man", "x",
         "A long passage about harbour logistics and container throughput. " * 40]


def test_numpy_and_sentence_transformers_agree(embedder):
    light = NumpyBert.load(default_model_dir())
    assert light is not None
    ours = light.encode(TEXTS)
    theirs = embedder.model.encode(TEXTS, normalize_embeddings=True, convert_to_numpy=True)
    cos = (ours * theirs).sum(1)
    assert ours.shape == theirs.shape and np.all(cos > 0.9999), cos
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


def test_a_folder_that_is_not_a_mean_pooled_bert_is_not_read(tmp_path):
    model = tmp_path / "m"
    model.mkdir()
    (model / "modules.json").write_text(json.dumps([{"type": "sentence_transformers.models.Transformer"},
                                                    {"type": "sentence_transformers.models.Pooling"}]))
    assert not readable(model) and NumpyBert.load(model) is None
    assert readable(default_model_dir())


def test_a_question_is_embedded_without_importing_torch():
    code = ("import sys\nfrom pyramid.config import EmbeddingSettings\nfrom pyramid.embeddings import Embedder\n"
            "v = Embedder(EmbeddingSettings()).embed_one('Who chairs the senate?')\n"
            "print(v.shape[0], 'torch' in sys.modules, 'sentence_transformers' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split() == ["384", "False", "False"], out.stderr[-2000:]
