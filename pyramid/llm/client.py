"""`LLM`: the one object callers use. Validates structured replies, retries, caches and counts."""

from __future__ import annotations

import json
import time
from functools import lru_cache
from typing import Any

from pyramid.llm.base import Completion, JSONSchema, LLMProvider, LLMSchemaError, Message, RawReply
from pyramid.llm.cache import LLMCache, cache_key
from pyramid.usage import Usage, UsageMeter

# A retry at temperature 0 would repeat the same invalid reply; retries sample a little instead.
RETRY_TEMPERATURE = 0.4


@lru_cache(maxsize=256)
def _validator(schema_json: str):
    import jsonschema  # on the first structured call: its import costs a plain question ~0.15 s

    schema = json.loads(schema_json)
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    cls.check_schema(schema)
    return cls(schema)


def parse_structured(text: str, schema: JSONSchema) -> Any:
    """The reply parsed and checked against `schema`; raises ValueError with the reason."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"reply is not JSON ({err.msg} at char {err.pos})") from None
    errors = sorted(_validator(json.dumps(schema, sort_keys=True)).iter_errors(obj), key=lambda e: e.path)
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.absolute_path) or "(root)"
        raise ValueError(f"reply fails its schema at {where}: {e.message}")
    return obj


class LLM:
    def __init__(self, provider: LLMProvider, *, cache: LLMCache | None = None, meter: UsageMeter | None = None,
                 max_tokens: int = 512, temperature: float = 0.0, seed: int = 0, schema_retries: int = 2,
                 concurrency: int = 1) -> None:
        self.provider = provider
        # requests a build may send at once; 1 for a provider that serves one call at a time (local model)
        self.concurrency = 1 if getattr(provider, "serial", False) else concurrency
        self.cache = cache
        self.meter = meter or UsageMeter()
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.seed = seed
        self.schema_retries = schema_retries

    @property
    def name(self) -> str:
        return f"{self.provider.name}:{self.provider.model}"

    def complete(self, messages: list[Message], schema: JSONSchema | None = None, *,
                 max_tokens: int | None = None, temperature: float | None = None) -> Completion:
        """Text (and the parsed object when `schema` is given) for `messages`.

        Raises LLMSchemaError after `schema_retries` extra attempts, LLMUnavailable if the model
        cannot be reached. Only valid replies are cached.
        """
        max_tokens = max_tokens or self.max_tokens
        temperature = self.temperature if temperature is None else temperature
        params = {"max_tokens": max_tokens, "temperature": temperature, "seed": self.seed}
        key = cache_key(self.provider.name, self.provider.model, params, messages, schema)
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                usage = Usage(cache_hits=1, cached_tokens=hit.prompt_tokens + hit.completion_tokens)
                self.meter.record(usage)
                parsed = parse_structured(hit.text, schema) if schema is not None else None
                return Completion(hit.text, parsed, usage, cached=True)

        usage = Usage()
        last_reason, reply = "", RawReply("", 0, 0)
        try:
            for attempt in range(1 + (self.schema_retries if schema is not None else 0)):
                start = time.perf_counter()
                reply = self.provider.generate(
                    messages, schema=schema, max_tokens=max_tokens,
                    temperature=temperature if attempt == 0 else max(temperature, RETRY_TEMPERATURE),
                    seed=self.seed + attempt)
                usage.add(Usage(calls=1, prompt_tokens=reply.prompt_tokens,
                                completion_tokens=reply.completion_tokens,
                                seconds=time.perf_counter() - start))
                if schema is None:
                    parsed = None
                    break
                try:
                    parsed = parse_structured(reply.text, schema)
                    break
                except ValueError as err:
                    last_reason = str(err)
            else:
                raise LLMSchemaError(f"{self.name}: structured reply failed after {usage.calls} attempts: "
                                     f"{last_reason}", reply.text)
        finally:
            self.meter.record(usage)
        if self.cache is not None:
            self.cache.put(key, self.provider.model, reply)
        return Completion(reply.text, parsed, usage, cached=False)
