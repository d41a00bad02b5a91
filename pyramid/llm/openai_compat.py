"""Any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp server) via the `openai` client."""

from __future__ import annotations

from pyramid.llm.base import JSONSchema, LLMError, LLMUnavailable, Message, RawReply


class OpenAICompatProvider:
    name = "openai"

    def __init__(self, base_url: str, model: str, api_key: str = "", *, timeout_s: float = 60.0,
                 max_retries: int = 3, structured_output: str = "json_schema") -> None:
        import openai

        if not base_url:
            raise LLMUnavailable("llm.provider is 'openai' but llm.base_url is empty "
                                 "(set POLYRAG_LLM__BASE_URL, e.g. http://localhost:8000/v1)")
        if not model:
            raise LLMUnavailable("llm.provider is 'openai' but llm.model is empty (set POLYRAG_LLM__MODEL)")
        self.base_url = base_url
        self.model = model
        self.structured_output = structured_output
        self._openai = openai
        # The client retries connection errors, 408/409/429 and 5xx with exponential backoff.
        self._client = openai.OpenAI(base_url=base_url, api_key=api_key or "not-needed", timeout=timeout_s,
                                     max_retries=max_retries)

    def generate(self, messages: list[Message], *, schema: JSONSchema | None, max_tokens: int,
                 temperature: float, seed: int) -> RawReply:
        oa = self._openai
        try:
            try:
                out = self._create(messages, schema, max_tokens, temperature, seed)
            except oa.APIStatusError as first:
                if schema is None or self.structured_output != "json_schema" or first.status_code in (401, 403):
                    raise
                # Some servers (llama-cpp-python's answers 500, older vLLM 400) only know
                # {"type": "json_object", "schema": ...}; try that once and keep it if it works.
                try:
                    out = self._create(messages, schema, max_tokens, temperature, seed, "json_object")
                except oa.APIStatusError:
                    raise first from None
                self.structured_output = "json_object"
        except oa.APITimeoutError:
            raise LLMUnavailable(f"LLM endpoint {self.base_url} timed out") from None
        except oa.APIConnectionError as err:
            raise LLMUnavailable(f"LLM endpoint {self.base_url} is unreachable ({err.__cause__ or err})") from None
        except oa.AuthenticationError:
            raise LLMUnavailable(f"LLM endpoint {self.base_url} rejected the API key "
                                 "(set POLYRAG_LLM__API_KEY)") from None
        except oa.NotFoundError as err:
            raise LLMUnavailable(f"LLM endpoint {self.base_url}: model '{self.model}' or route not found "
                                 f"({err.message})") from None
        except oa.APIStatusError as err:
            raise LLMError(f"LLM endpoint {self.base_url} answered {err.status_code}: {err.message}") from None
        usage = out.usage
        return RawReply(out.choices[0].message.content or "",
                        usage.prompt_tokens if usage else 0, usage.completion_tokens if usage else 0)

    def _create(self, messages: list[Message], schema: JSONSchema | None, max_tokens: int, temperature: float,
                seed: int, mode: str | None = None):
        mode = mode or self.structured_output
        kwargs = {}
        if schema is not None and mode == "json_schema":
            kwargs["response_format"] = {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema}}
        elif schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": schema}
        return self._client.chat.completions.create(model=self.model, messages=messages, max_tokens=max_tokens,
                                                    temperature=temperature, seed=seed, **kwargs)
