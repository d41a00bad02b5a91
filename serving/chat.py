"""An OpenAI-compatible chat endpoint, so existing chat front ends and the `openai` client can ask.

    POST /v1/chat/completions   {model, messages, stream?}: the last user message is the question,
                                answered by the waterfall (as POST /ask); `stream: true` sends the
                                answer as server-sent events (chat.completion.chunk, then [DONE])
    GET  /v1/models             the models: "polyrag" (the waterfall) and "polyrag-<layer>" (one layer)

The reply is a standard chat completion; what PolyRAG adds travels in one extra top-level field,
`polyrag`: {layer, answered, evidence, citations, trace, usage} (on the last chunk when streaming).
Earlier messages are not read: each question is answered from the pyramid alone. Reads need no token,
as the other reading endpoints (serving.auth guards only what writes).
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any, Literal

from fastapi import FastAPI, HTTPException
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from pyramid.types import Answer

MODEL = "polyrag"
LAYER_MODELS = {f"{MODEL}-{layer}": layer for layer in ("ontology", "kg", "text")}
STREAM_WORDS = 8  # words per streamed chunk


class ContentPart(BaseModel):
    type: str
    text: str | None = None


class ChatMessage(BaseModel):
    role: Literal["system", "user", "assistant", "tool", "developer"]
    content: str | list[ContentPart] | None = None


class ChatRequest(BaseModel):
    model: str = Field(MODEL, max_length=200)
    messages: list[ChatMessage] = Field(min_length=1, max_length=200)
    stream: bool = False


def question_of(req: ChatRequest) -> str:
    """The last user message's text (text parts joined); 400 when there is none."""
    for msg in reversed(req.messages):
        if msg.role != "user":
            continue
        content = msg.content
        text = content if isinstance(content, str) else \
            " ".join(p.text or "" for p in content or [] if p.type == "text")
        if text.strip():
            return text.strip()
    raise HTTPException(400, "no user message with text: the last user message is the question")


def _extra(answer: Answer) -> dict[str, Any]:
    return {"layer": answer.layer, "answered": answer.layer != "none",
            **answer.model_dump(mode="json", include={"evidence", "citations", "trace", "usage"})}


def completion(answer: Answer, model: str) -> dict[str, Any]:
    return {"id": f"chatcmpl-{uuid.uuid4().hex}", "object": "chat.completion", "created": int(time.time()),
            "model": model, "choices": [{"index": 0, "message": {"role": "assistant", "content": answer.text},
                                         "finish_reason": "stop"}],
            "usage": {"prompt_tokens": answer.usage.prompt_tokens, "completion_tokens": answer.usage.completion_tokens,
                      "total_tokens": answer.usage.prompt_tokens + answer.usage.completion_tokens},
            MODEL: _extra(answer)}


def chunks(answer: Answer, model: str) -> Iterator[str]:
    """The answer as server-sent events: a role chunk, the text a few words at a time, a last chunk with
    finish_reason "stop" and the `polyrag` field, then [DONE]."""
    head = {"id": f"chatcmpl-{uuid.uuid4().hex}", "object": "chat.completion.chunk", "created": int(time.time()),
            "model": model}

    def event(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> str:
        body = {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}], **extra}
        return f"data: {json.dumps(body, ensure_ascii=False)}\n\n"

    yield event({"role": "assistant", "content": ""})
    words = answer.text.split(" ")
    for i in range(0, len(words), STREAM_WORDS):
        yield event({"content": (" " if i else "") + " ".join(words[i:i + STREAM_WORDS])})
    yield event({}, "stop", **{MODEL: _extra(answer)})
    yield "data: [DONE]\n\n"


def add_chat(app: FastAPI, server) -> None:
    """The two routes on `app`, answering from `server` (serving.state.Server)."""

    @app.get("/v1/models")
    def models() -> dict[str, Any]:
        created = int(time.time())
        return {"object": "list", "data": [{"id": m, "object": "model", "created": created, "owned_by": MODEL}
                                           for m in (MODEL, *LAYER_MODELS)]}

    @app.post("/v1/chat/completions", response_model=None)
    def chat(req: ChatRequest) -> dict[str, Any] | StreamingResponse:
        if req.model != MODEL and req.model not in LAYER_MODELS:
            raise HTTPException(404, f"unknown model {req.model!r}: {', '.join((MODEL, *LAYER_MODELS))}")
        question = question_of(req)
        answer = server.ask(question, layer=LAYER_MODELS.get(req.model))
        if req.stream:
            return StreamingResponse(chunks(answer, req.model), media_type="text/event-stream")
        return completion(answer, req.model)
