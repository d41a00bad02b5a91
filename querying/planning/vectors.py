"""The planner's query embeddings: each text embedded once per planner, the texts a call lacks sent
together in their first-seen order (the embedder caches by text; the batches are part of the result)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pyramid.embeddings import Embedder


class QueryVectors:
    """Query vectors by text, shared by every stage of one planner."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._vectors: dict[str, np.ndarray] = {}

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One unit row per text (in order); texts not seen before are embedded in one call."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if missing:
            for t, v in zip(missing, self.embedder.embed(missing, kind="query")):
                self._vectors[t] = v
        return np.stack([self._vectors[t] for t in texts]) if texts else np.zeros((0, 1), np.float32)

    def __getitem__(self, text: str) -> np.ndarray:
        """A text's vector, already embedded by `embed`."""
        return self._vectors[text]
