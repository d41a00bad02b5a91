"""LLM usage accounting: calls, cache hits, tokens and seconds, per build step or per question."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from pydantic import BaseModel


class Usage(BaseModel):
    calls: int = 0            # requests that reached the model (cache misses)
    cache_hits: int = 0       # requests answered from the cache
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0      # wall time spent in the model (cache hits cost ~0)
    cached_tokens: int = 0    # tokens of the replies served from the cache, as they cost when first made

    @property
    def cost_tokens(self) -> int:
        """Tokens this work costs without a cache: what benchmarks compare, so a warm cache cannot flatter."""
        return self.prompt_tokens + self.completion_tokens + self.cached_tokens

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, other: Usage) -> None:
        self.calls += other.calls
        self.cache_hits += other.cache_hits
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.seconds += other.seconds
        self.cached_tokens += other.cached_tokens

    def __add__(self, other: Usage) -> Usage:
        out = self.model_copy()
        out.add(other)
        return out

    def to_dict(self) -> dict:
        d = self.model_dump()
        d["seconds"] = round(d["seconds"], 3)
        return d

    def line(self) -> str:
        """One human line, e.g. for the cost line after a build step."""
        return (f"{self.calls} LLM calls ({self.cache_hits} cached), {self.prompt_tokens} prompt + "
                f"{self.completion_tokens} completion tokens, {self.seconds:.1f} s in the model")


class UsageMeter:
    """Collects usage; `scope()` blocks see only what happened inside them (nesting allowed)."""

    def __init__(self) -> None:
        self.total = Usage()
        self._scopes: list[Usage] = []
        self._lock = threading.Lock()

    def record(self, usage: Usage) -> None:
        with self._lock:
            self.total.add(usage)
            for scope in self._scopes:
                scope.add(usage)

    @contextlib.contextmanager
    def scope(self) -> Iterator[Usage]:
        box = Usage()
        with self._lock:
            self._scopes.append(box)
        try:
            yield box
        finally:
            with self._lock:
                # by identity: Usage is a pydantic model, so `==` compares values
                self._scopes = [s for s in self._scopes if s is not box]
