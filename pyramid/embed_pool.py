"""Bulk embedding in worker processes, one torch thread each.

Why: on 2 cores, one process running MiniLM with torch's two intra-op threads spends a share of its
time keeping the threads in step (a batch is only 32 short texts); two processes with one thread
each, each on its own slices, take 26% less time for `polyrag bench kg-import` here, with the same
vectors to the bit in float32 (README *Scale*; in bfloat16 a text's vector moves ~1e-3 with its
batch). Python threads do not give this (+5%: the GIL). A worker starts in ~5–9 s (torch and the
model), so `Embedder` uses the pool only for calls with at least `embeddings.pool_above` texts, and
keeps it for later calls.

    pool = EncodePool(model_path, exclude_prompt=False, workers=2, batch_size=32, bf16=False)
    for vecs in pool.map([["a", "b"], ["c"]], prompt=""): ...   # in order
    pool.close()
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import numpy as np

__all__ = ["BrokenProcessPool", "EncodePool", "bfloat16_native", "cores", "encode", "load_sentence_transformer"]

_MODEL = None  # the worker process's model, set by _start
_BATCH = 32
_BF16 = False


def cores() -> int:
    """CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def bfloat16_native() -> bool:
    """Whether this CPU multiplies bfloat16 in hardware (AMX tiles or AVX-512 BF16), where torch's
    bfloat16 autocast is ~2x faster than float32; elsewhere it is emulated and slower. Read from
    /proc/cpuinfo (Linux; False elsewhere) so that asking does not import torch."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.startswith("flags"):
                    return bool({"amx_bf16", "avx512_bf16"} & set(line.split(":", 1)[-1].split()))
    except OSError:
        pass
    return False


def load_sentence_transformer(path: str, *, exclude_prompt: bool):
    """A sentence-transformers model from a local path, with the hub switched off; `exclude_prompt`:
    an INSTRUCTOR-style instruction conditions the tokens but is not pooled. `ValueError`/`OSError`
    from sentence-transformers pass through (the caller says which model it was)."""
    # Switch the hub off before sentence-transformers/transformers import huggingface_hub.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import transformers
    from sentence_transformers import SentenceTransformer
    try:
        from sentence_transformers.sentence_transformer.modules import Pooling
    except ImportError:  # sentence-transformers < 6
        from sentence_transformers.models import Pooling

    transformers.utils.logging.disable_progress_bar()  # no "Loading weights" bar per load
    model = SentenceTransformer(path, device="cpu", local_files_only=True)
    if exclude_prompt:
        for module in model:
            if isinstance(module, Pooling):
                module.include_prompt = False
    return model


def encode(model, texts: Sequence[str], prompt: str, batch_size: int, *, bf16: bool = False) -> np.ndarray:
    """Unit float32 rows; the one call both the embedder and the workers make. `bf16`: the forward
    pass under torch's bfloat16 autocast (matrix products in bfloat16, accumulated in float32)."""
    import contextlib

    import torch

    arithmetic = torch.autocast("cpu", dtype=torch.bfloat16) if bf16 else contextlib.nullcontext()
    with arithmetic:
        vecs = model.encode(list(texts), batch_size=batch_size, prompt=prompt or None, normalize_embeddings=True,
                            convert_to_numpy=True, show_progress_bar=False)
    vecs = np.ascontiguousarray(vecs, dtype=np.float32)
    if bf16:  # normalised in bfloat16: made unit again in float32
        vecs /= np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
    return vecs


def _start(path: str, exclude_prompt: bool, batch_size: int, bf16: bool) -> None:
    global _MODEL, _BATCH, _BF16
    import torch

    torch.set_num_threads(1)  # the point of the pool: one thread per process, one process per core
    _MODEL, _BATCH, _BF16 = load_sentence_transformer(path, exclude_prompt=exclude_prompt), batch_size, bf16


def _encode_in_worker(texts: list[str], prompt: str) -> np.ndarray:
    return encode(_MODEL, texts, prompt, _BATCH, bf16=_BF16)


class EncodePool:
    """Up to `workers` processes, spawned as work arrives (not forked: a forked torch can hang), each
    loading the model once."""

    def __init__(self, path: str, *, exclude_prompt: bool, workers: int, batch_size: int, bf16: bool = False) -> None:
        self._pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                         initializer=_start, initargs=(path, exclude_prompt, batch_size, bf16))

    def map(self, slices: Sequence[Sequence[str]], prompt: str) -> Iterator[np.ndarray]:
        """Each slice's vectors, in order, as they finish; `BrokenProcessPool` if a worker died."""
        return self._pool.map(_encode_in_worker, [list(s) for s in slices], [prompt] * len(slices))

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
