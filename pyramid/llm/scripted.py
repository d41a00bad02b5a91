"""Scripted provider for control-flow tests: canned replies keyed by prompt text.

Each rule is (needle, reply): the rule matches when `needle` occurs in the last user message.
Exactly one rule must match; no match or several matches raise `ScriptedMiss`, so a test that
reaches an unexpected prompt fails loudly instead of getting a made-up answer. A reply is a string
(returned as is), a JSON-able value (returned encoded), or a `Seq` of replies used in turn. In a JSON
file, {"$seq": [...]} stands for a `Seq`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pyramid.errors import InputError
from pyramid.llm.base import JSONSchema, LLMError, Message, RawReply


class ScriptedMiss(LLMError):
    """The scripted provider met a prompt no rule (or more than one rule) covers."""


class Seq:
    """Successive replies for one rule (e.g. an invalid reply, then a valid one); running out raises."""

    def __init__(self, *replies: Any) -> None:
        self.replies = list(replies)


class ScriptedProvider:
    name = "scripted"

    def __init__(self, rules: dict[str, Any] | list[tuple[str, Any]], model: str = "script") -> None:
        self.rules = list(rules.items()) if isinstance(rules, dict) else list(rules)
        self.model = model
        self.calls: list[list[Message]] = []

    @classmethod
    def from_file(cls, path: Path) -> ScriptedProvider:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise InputError(f"cannot read scripted replies ({err})", path=path) from None
        if not isinstance(data, dict):
            raise InputError("expected a JSON object {needle: reply}", path=path)
        rules = {k: Seq(*v["$seq"]) if isinstance(v, dict) and set(v) == {"$seq"} else v for k, v in data.items()}
        return cls(rules, model=Path(path).name)

    def generate(self, messages: list[Message], *, schema: JSONSchema | None, max_tokens: int,
                 temperature: float, seed: int) -> RawReply:
        self.calls.append(messages)
        prompt = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
        hits = [reply for needle, reply in self.rules if needle in prompt]
        if len(hits) != 1:
            what = "no scripted reply" if not hits else f"{len(hits)} scripted replies"
            raise ScriptedMiss(f"{what} for prompt: {prompt[:300]!r}")
        reply = hits[0]
        if isinstance(reply, Seq):
            if not reply.replies:
                raise ScriptedMiss(f"scripted replies used up for prompt: {prompt[:300]!r}")
            reply = reply.replies.pop(0)
        text = reply if isinstance(reply, str) else json.dumps(reply)
        prompt_tokens = sum(len(m["content"].split()) for m in messages)
        return RawReply(text, prompt_tokens, len(text.split()))
