"""A BERT sentence encoder in numpy: the default embedder's forward pass without torch.

Why: importing torch and sentence-transformers costs ~7 s on these machines, more than everything
else a question needs, while MiniLM-L6 (6 layers, 384 wide) runs a short question in a few
milliseconds of numpy. `pyramid.embeddings.Embedder` uses this encoder for small batches (questions,
option lists) of a model it can read — a sentence-transformers folder whose modules are a BERT
Transformer, mean pooling and Normalize, with no prompts — and sentence-transformers for bulk
document embedding. Both compute the same function (tests compare them: cosine > 0.9999).

    enc = NumpyBert.load(model_dir)       # None when the folder is not such a model
    enc.encode(["text", ...]) -> (n, dim) float32, unit rows
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def _erf(x: np.ndarray) -> np.ndarray:
    """erf to within 1.5e-7 (Abramowitz & Stegun 7.1.26): BERT's exact GELU without importing scipy
    (the tanh form of GELU differs by ~1e-3)."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + _erf(x / np.float32(np.sqrt(2.0))))


def readable(model_dir: Path) -> bool:
    """A sentence-transformers folder this encoder computes exactly: BERT, mean pooling, Normalize."""
    try:
        modules = json.loads((model_dir / "modules.json").read_text(encoding="utf-8"))
        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        pooling = json.loads((model_dir / "1_Pooling" / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    kinds = [m.get("type", "").rsplit(".", 1)[-1] for m in modules]
    return (kinds == ["Transformer", "Pooling", "Normalize"] and config.get("model_type") == "bert"
            and config.get("hidden_act") == "gelu" and config.get("position_embedding_type", "absolute") == "absolute"
            and pooling.get("pooling_mode_mean_tokens") is True
            and not any(v for k, v in pooling.items() if k.startswith("pooling_mode_") and k != "pooling_mode_mean_tokens")
            and (model_dir / "model.safetensors").exists() and (model_dir / "tokenizer.json").exists())


class NumpyBert:
    def __init__(self, weights: dict[str, np.ndarray], config: dict, tokenizer, max_seq_length: int) -> None:
        self.w = weights
        self.layers = int(config["num_hidden_layers"])
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.dim = int(config["hidden_size"])
        self.tokenizer = tokenizer
        self.max_seq_length = max_seq_length

    @classmethod
    def load(cls, model_dir: Path) -> NumpyBert | None:
        model_dir = Path(model_dir)
        if not readable(model_dir):
            return None
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        st = json.loads((model_dir / "sentence_bert_config.json").read_text(encoding="utf-8")) \
            if (model_dir / "sentence_bert_config.json").exists() else {}
        max_len = int(st.get("max_seq_length", 256))
        tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        tok.no_padding()
        tok.enable_truncation(max_len)
        weights = {}
        for k, v in load_file(str(model_dir / "model.safetensors")).items():
            # dense weights stored transposed and contiguous: x @ W runs as one plain GEMM
            weights[k.removeprefix("bert.")] = np.ascontiguousarray(v.T if k.endswith("dense.weight") or
                                                                    k.split(".")[-2] in ("query", "key", "value")
                                                                    and k.endswith(".weight") else v,
                                                                    dtype=np.float32)
        return cls(weights, config, tok, max_len)

    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        from threadpoolctl import threadpool_limits

        # One BLAS thread: these matrices are small, and on a busy 2-core machine a second thread
        # costs more in hand-offs than it gains (~25 ms a question against ~90 ms).
        with threadpool_limits(1):
            return self._encode(texts)

    def _encode(self, texts: list[str]) -> np.ndarray:
        encs = self.tokenizer.encode_batch(list(texts))
        n = max(len(e.ids) for e in encs)
        ids = np.zeros((len(encs), n), np.int64)
        mask = np.zeros((len(encs), n), np.float32)
        for i, e in enumerate(encs):
            ids[i, :len(e.ids)] = e.ids
            mask[i, :len(e.ids)] = 1.0
        w = self.w
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n][None] \
            + w["embeddings.token_type_embeddings.weight"][0]
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps)
        b, t, d = x.shape
        h, hd = self.heads, d // self.heads
        bias = (1.0 - mask)[:, None, None, :] * np.float32(-1e9)  # padded keys get no attention
        for i in range(self.layers):
            p = f"encoder.layer.{i}."

            def dense(v: np.ndarray, name: str, p: str = p) -> np.ndarray:
                flat = v.reshape(-1, v.shape[-1])
                return (np.dot(flat, w[p + name + ".weight"]) + w[p + name + ".bias"]).reshape(*v.shape[:-1], -1)

            q = dense(x, "attention.self.query").reshape(b, t, h, hd).transpose(0, 2, 1, 3)
            k = dense(x, "attention.self.key").reshape(b, t, h, hd).transpose(0, 2, 3, 1)
            v = dense(x, "attention.self.value").reshape(b, t, h, hd).transpose(0, 2, 1, 3)
            scores = (q @ k) / np.float32(np.sqrt(hd)) + bias
            scores -= scores.max(-1, keepdims=True)
            probs = np.exp(scores)
            probs /= probs.sum(-1, keepdims=True)
            ctx = (probs @ v).transpose(0, 2, 1, 3).reshape(b, t, d)
            x = _layer_norm(dense(ctx, "attention.output.dense") + x, w[p + "attention.output.LayerNorm.weight"],
                            w[p + "attention.output.LayerNorm.bias"], self.eps)
            inner = _gelu(dense(x, "intermediate.dense"))
            x = _layer_norm(dense(inner, "output.dense") + x, w[p + "output.LayerNorm.weight"],
                            w[p + "output.LayerNorm.bias"], self.eps)
        pooled = (x * mask[:, :, None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return np.ascontiguousarray(pooled, dtype=np.float32)
