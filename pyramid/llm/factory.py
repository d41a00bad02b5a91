"""Build the configured LLM (provider + cache + meter) from settings."""

from __future__ import annotations

from pathlib import Path

from pyramid.config import LLMSettings
from pyramid.llm.base import LLMProvider
from pyramid.llm.cache import LLMCache
from pyramid.llm.client import LLM
from pyramid.usage import UsageMeter


def make_provider(cfg: LLMSettings) -> LLMProvider:
    if cfg.provider == "llamacpp":
        from pyramid.llm.llamacpp import LlamaCppProvider
        return LlamaCppProvider(cfg.model_path or None, n_ctx=cfg.n_ctx, n_threads=cfg.n_threads)
    if cfg.provider == "openai":
        from pyramid.llm.openai_compat import OpenAICompatProvider
        # json_schema, the default, is documented to switch when the endpoint refuses it, so it defers
        # to what was learned about the endpoint ("auto"); json_object is a firm choice and wins.
        mode = cfg.structured_output
        return OpenAICompatProvider(cfg.base_url, cfg.model, cfg.api_key.get_secret_value(),
                                    timeout_s=cfg.timeout_s, max_retries=cfg.max_retries,
                                    structured_output="auto" if mode in ("json_schema", "auto") else mode)
    from pyramid.llm.scripted import ScriptedProvider
    if not cfg.scripted_file:
        raise ValueError("llm.provider is 'scripted' but llm.scripted_file is empty")
    return ScriptedProvider.from_file(Path(cfg.scripted_file))


def make_llm(cfg: LLMSettings, *, cache_path: Path | None = None, meter: UsageMeter | None = None,
             provider: LLMProvider | None = None) -> LLM:
    """The LLM client; `provider` lets tests inject a scripted one while keeping cache and accounting."""
    cache = LLMCache(cache_path) if (cfg.cache and cache_path is not None) else None
    return LLM(provider or make_provider(cfg), cache=cache, meter=meter, max_tokens=cfg.max_tokens,
               temperature=cfg.temperature, seed=cfg.seed, schema_retries=cfg.schema_retries,
               concurrency=cfg.concurrency)
