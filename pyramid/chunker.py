"""The K²RAG chunker (eq. 1): windows of S tokens, consecutive windows sharing exactly O tokens.

Token counts come from the embedding model's own tokenizer, so a 256-token chunk is what the
embedder sees. Windows start at 0, S−O, 2(S−O), …; the first window that reaches the end of the
document is the last one (it may be shorter than S, and always holds tokens its predecessor lacks).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyramid.corpus import Document
from pyramid.errors import ConfigError


@dataclass(frozen=True)
class Chunk:
    id: str          # "<doc_id>#<index>"
    doc_id: str
    index: int
    text: str
    start_char: int
    end_char: int
    n_tokens: int


def windows(n_tokens: int, size: int, overlap: int) -> list[tuple[int, int]]:
    """Half-open token ranges [start, end) covering 0..n_tokens."""
    if size <= 0 or not 0 <= overlap < size:
        raise ConfigError(f"chunk overlap must be in [0, size): got size={size}, overlap={overlap}")
    out: list[tuple[int, int]] = []
    step = size - overlap
    start = 0
    while start < n_tokens:
        end = min(start + size, n_tokens)
        out.append((start, end))
        if end == n_tokens:
            break
        start += step
    return out


def _plain_tokenizer(tokenizer: Any) -> Any:
    """A copy of the fast tokenizer's backend with truncation and padding off (offsets needed)."""
    from tokenizers import Tokenizer

    backend = getattr(tokenizer, "backend_tokenizer", tokenizer)
    plain = Tokenizer.from_str(backend.to_str())
    plain.no_truncation()
    plain.no_padding()
    return plain


class Chunker:
    def __init__(self, tokenizer: Any, size: int, overlap: int) -> None:
        windows(0, size, overlap)  # validates size/overlap early
        self.size, self.overlap = size, overlap
        self._tok = _plain_tokenizer(tokenizer)

    def count_tokens(self, text: str) -> int:
        return len(self._tok.encode(text, add_special_tokens=False).ids)

    def _spans(self, offsets: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
        return [(offsets[s][0], offsets[e - 1][1], e - s) for s, e in windows(len(offsets), self.size, self.overlap)]

    def split_text(self, text: str) -> list[str]:
        """The window texts of `text` (e.g. a summary split for K²RAG's sub-questions)."""
        return [text[a:b] for a, b, _ in self._spans(self._tok.encode(text, add_special_tokens=False).offsets)]

    def chunk(self, doc: Document) -> list[Chunk]:
        return self.chunk_many([doc])

    def chunk_many(self, docs: list[Document]) -> list[Chunk]:
        out: list[Chunk] = []
        encodings = self._tok.encode_batch([d.text for d in docs], add_special_tokens=False)
        for doc, enc in zip(docs, encodings):
            for i, (a, b, n) in enumerate(self._spans(enc.offsets)):
                out.append(Chunk(f"{doc.id}#{i}", doc.id, i, doc.text[a:b], a, b, n))
        return out
