"""The provider protocol and the typed errors callers handle."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from pyramid.errors import PolyragError
from pyramid.usage import Usage

Message = dict[str, str]  # {"role": "system"|"user"|"assistant", "content": str}
JSONSchema = dict[str, Any]


class LLMError(PolyragError):
    """Any failure of an LLM call the caller may handle (a layer records it and moves on)."""


class LLMUnavailable(LLMError):
    """The model cannot be reached or loaded (endpoint down, wrong key, missing file)."""


class LLMSchemaError(LLMError):
    """The structured reply failed its JSON schema on every attempt."""

    def __init__(self, message: str, last_reply: str) -> None:
        super().__init__(message)
        self.last_reply = last_reply


@dataclass
class RawReply:
    """One generation as a provider returns it."""

    text: str
    prompt_tokens: int
    completion_tokens: int


@dataclass
class Completion:
    """What `LLM.complete` returns: text, the parsed object when a schema was given, usage."""

    text: str
    parsed: Any = None
    usage: Usage = field(default_factory=Usage)
    cached: bool = False


@runtime_checkable
class LLMProvider(Protocol):
    """One raw call to a model. Validation, retries, caching and accounting live in `LLM`."""

    name: str    # provider kind, part of the cache key
    model: str   # model identity (file name or endpoint model), part of the cache key

    def generate(self, messages: list[Message], *, schema: JSONSchema | None, max_tokens: int,
                 temperature: float, seed: int) -> RawReply: ...
