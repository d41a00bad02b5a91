"""Any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp server) via the `openai` client.

Every fault ends in an `LLMError` that names the endpoint: HTTP errors, timeouts, refused
connections, and 200 replies that carry no usable answer (a body that is not JSON, no choices,
empty content). Transient faults are retried here, with backoff, honouring Retry-After; the
`openai` client's own retries are off so that all faults follow one policy.
"""

from __future__ import annotations

import email.utils
import json
import random
import time
from pathlib import Path
from typing import Any

from pyramid.llm.base import JSONSchema, LLMError, LLMUnavailable, Message, RawReply
from pyramid.llm.endpoints import MODES, EndpointMemory, default_path

RETRY_STATUSES = frozenset({408, 409, 429})   # and every 5xx
# How servers refuse a response_format they do not know: llama-cpp-python answers 500, older vLLM
# 400, FastAPI-based servers 422.
FORMAT_REFUSALS = frozenset({400, 422, 500})
MAX_BACKOFF_S = 8.0
MAX_RETRY_AFTER_S = 60.0  # a longer Retry-After is not waited for: our own backoff applies instead


class _Fault(Exception):
    """One failed attempt; `final` is the error raised when no attempt is left."""

    def __init__(self, final: LLMError, retry: bool, wait_s: float | None = None) -> None:
        super().__init__(str(final))
        self.final = final
        self.retry = retry
        self.wait_s = wait_s


def _clip(text: str, n: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[:n] + "…"


def _retry_after(headers: Any) -> float | None:
    """Seconds the server asked us to wait (Retry-After in seconds or as a date, or retry-after-ms)."""
    try:
        if headers.get("retry-after-ms"):
            return float(headers["retry-after-ms"]) / 1000
        value = headers.get("retry-after")
        if not value:
            return None
        try:
            return float(value)
        except ValueError:
            when = email.utils.parsedate_to_datetime(value)
            return when.timestamp() - time.time()
    except (TypeError, ValueError, OverflowError):
        return None


def _content_text(content: Any) -> str | None:
    """The message text; some servers send a list of parts instead of a string."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
        return "".join(parts) if parts else None
    return None


def _tokens(usage: Any, field: str) -> int:
    value = usage.get(field) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and value >= 0 else 0


class OpenAICompatProvider:
    name = "openai"

    def __init__(self, base_url: str, model: str, api_key: str = "", *, timeout_s: float = 60.0,
                 max_retries: int = 3, structured_output: str = "auto", retry_backoff_s: float = 0.5,
                 capability_file: Path | None | bool = True) -> None:
        """`structured_output`: "auto" uses what was learned about this endpoint (else json_schema)
        and switches once if the endpoint refuses it; "json_schema" or "json_object" is used as is.
        `capability_file`: where learned modes persist; True = the user's cache dir, None/False = nowhere.
        """
        import openai

        if not base_url:
            raise LLMUnavailable("llm.provider is 'openai' but llm.base_url is empty "
                                 "(set POLYRAG_LLM__BASE_URL, e.g. http://localhost:8000/v1)")
        if not model:
            raise LLMUnavailable("llm.provider is 'openai' but llm.model is empty (set POLYRAG_LLM__MODEL)")
        if structured_output not in ("auto", *MODES):
            raise ValueError(f"structured_output must be auto, json_schema or json_object, not {structured_output!r}")
        self.base_url = base_url
        self.model = model
        self.timeout_s = timeout_s
        self.max_retries = max(0, max_retries)
        self.retry_backoff_s = retry_backoff_s
        self._memory = EndpointMemory(default_path() if capability_file is True else (capability_file or None))
        self._may_switch = structured_output == "auto"
        learned = self._memory.structured_output(base_url, model) if self._may_switch else None
        self.structured_output = learned or ("json_schema" if structured_output == "auto" else structured_output)
        # Set once a structured request succeeded in this process: from then on a refusal of the same
        # form is a fault of that request (prompt too long, server down), not of the form.
        self._confirmed = False
        self._openai = openai
        try:
            self._client = openai.OpenAI(base_url=base_url, api_key=api_key or "not-needed", timeout=timeout_s,
                                         max_retries=0)
        except (ValueError, TypeError) as err:  # e.g. a base_url httpx cannot parse
            raise LLMUnavailable(f"LLM endpoint {base_url!r} is not a usable URL ({err})") from None

    def generate(self, messages: list[Message], *, schema: JSONSchema | None, max_tokens: int,
                 temperature: float, seed: int) -> RawReply:
        attempts = self.max_retries + 1
        may_switch = schema is not None and self._may_switch and not self._confirmed
        for attempt in range(attempts):
            try:
                return self._attempt(messages, schema, max_tokens, temperature, seed, may_switch)
            except _Fault as fault:
                if not fault.retry or attempt + 1 == attempts:
                    err = fault.final
                    if fault.retry and attempts > 1:
                        err.message += f" (after {attempts} attempts)"
                    raise err from None
                wait = fault.wait_s
                if wait is None or not 0 <= wait <= MAX_RETRY_AFTER_S:
                    wait = min(self.retry_backoff_s * 2 ** attempt, MAX_BACKOFF_S) * random.uniform(0.75, 1.0)
                time.sleep(wait)
            may_switch = False  # the other form is tried at most once per call
        raise AssertionError("unreachable")

    def _attempt(self, messages, schema, max_tokens, temperature, seed, may_switch: bool) -> RawReply:
        mode = self.structured_output
        try:
            raw = self._post(messages, schema, max_tokens, temperature, seed, mode)
        except self._openai.APIStatusError as first:
            if not (may_switch and first.status_code in FORMAT_REFUSALS):
                raise self._fault(first) from None
            other = next(m for m in MODES if m != mode)
            try:
                raw = self._post(messages, schema, max_tokens, temperature, seed, other)
            except self._openai.APIStatusError:
                raise self._fault(first) from None   # the other form is no better: report the first
            except self._openai.OpenAIError as err:
                raise self._fault(err) from None
            self.structured_output = other
            self._memory.remember(self.base_url, self.model, other)
        except self._openai.OpenAIError as err:
            raise self._fault(err) from None
        if schema is not None:
            self._confirmed = True
        return self._reply(raw)

    def _post(self, messages, schema, max_tokens, temperature, seed, mode: str):
        kwargs = {}
        if schema is not None and mode == "json_schema":
            kwargs["response_format"] = {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema}}
        elif schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": schema}
        # The raw response: the body is parsed here, so a malformed one becomes a clear error.
        return self._client.chat.completions.with_raw_response.create(
            model=self.model, messages=messages, max_tokens=max_tokens, temperature=temperature, seed=seed,
            **kwargs).http_response

    def _fault(self, err: Exception) -> _Fault:
        oa, url = self._openai, self.base_url
        if isinstance(err, oa.APITimeoutError):
            return _Fault(LLMUnavailable(f"LLM endpoint {url} timed out (no reply within {self.timeout_s:g} s)"),
                          retry=True)
        if isinstance(err, oa.APIConnectionError):
            return _Fault(LLMUnavailable(f"LLM endpoint {url} is unreachable ({err.__cause__ or err})"), retry=True)
        if not isinstance(err, oa.APIStatusError):
            return _Fault(LLMError(f"LLM endpoint {url} failed: {_clip(str(err))}"), retry=False)
        code = err.status_code
        body = err.body
        if isinstance(body, dict):  # openai hands over the "error" object of an OpenAI-style body
            detail = _clip(body.get("message") or body)
        else:
            detail = _clip(body or err.message)
        if code in (401, 403):
            return _Fault(LLMUnavailable(f"LLM endpoint {url} rejected the API key ({code}: {detail}; "
                                         "set POLYRAG_LLM__API_KEY)"), retry=False)
        if code == 404:
            return _Fault(LLMUnavailable(f"LLM endpoint {url}: model '{self.model}' or route not found "
                                         f"({detail})"), retry=False)
        what = "is rate-limiting requests" if code == 429 else "answered"
        retry = code in RETRY_STATUSES or code >= 500
        return _Fault(LLMError(f"LLM endpoint {url} {what} (HTTP {code}): {detail}"), retry=retry,
                      wait_s=_retry_after(err.response.headers) if retry else None)

    def _reply(self, response) -> RawReply:
        """The reply from a 200 response; a body without a usable answer is a retryable fault."""
        def bad(problem: str) -> _Fault:
            return _Fault(LLMError(f"LLM endpoint {self.base_url} sent a malformed reply: {problem}"), retry=True)

        try:
            body = json.loads(response.content)
        except ValueError:  # also invalid UTF-8
            kind = response.headers.get("content-type", "no content type")
            raise bad(f"the body is not JSON ({kind}: {_clip(response.text, 80)!r})") from None
        if not isinstance(body, dict):
            raise bad(f"the body is a JSON {type(body).__name__}, not an object")
        if "error" in body and "choices" not in body:  # some servers report errors with status 200
            error = body["error"]
            raise bad(f"an error: {_clip(error.get('message', error) if isinstance(error, dict) else error)}")
        choices = body.get("choices")
        if not isinstance(choices, list) or not choices:
            raise bad("no choices")
        choice = choices[0] if isinstance(choices[0], dict) else {}
        message = choice.get("message")
        if not isinstance(message, dict):
            raise bad("the first choice has no message")
        text = _content_text(message.get("content"))
        if not text or not text.strip():
            refusal, reason = message.get("refusal"), choice.get("finish_reason")
            if isinstance(refusal, str) and refusal:  # OpenAI's structured outputs say why here
                raise bad(f"the model refused: {_clip(refusal)}")
            raise bad("empty content" + (f" (finish_reason {reason})" if isinstance(reason, str) else ""))
        usage = body.get("usage")
        return RawReply(text, _tokens(usage, "prompt_tokens"), _tokens(usage, "completion_tokens"))
