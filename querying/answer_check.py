"""The text layer's model check: do the sentences an answer would be made of answer the question?

Retrieval's support (querying.compose) cannot tell the question's own answer from a close neighbour's:
on FiQA with the gold passages removed, a related passage scores like an answer (README, *Abstention*).
A model that reads the sentences may; one call under a yes/no schema, after the support passed and
before any answer is written, when `query.answer_check = "llm"`. Off by default: SmolLM2-135M's yes/no
is at chance, and whether a stronger model's helps is a measurement (`polyrag bench abstention-signals
--llm-check` gives its ROC AUC and what it adds to the support on any configured endpoint), not a guess.
A reply that fails its schema counts as yes: a broken check does not silence an answer the support let
through.
"""

from __future__ import annotations

from dataclasses import dataclass

from pyramid.llm import LLM, LLMSchemaError
from pyramid.prompts import load_prompt

CHECK_SCHEMA = {"type": "object", "properties": {"answered": {"type": "boolean"}},
                "required": ["answered"], "additionalProperties": False}
CHECK_MAX_TOKENS = 16


@dataclass(frozen=True)
class Check:
    answered: bool
    why: str


def check_answer(llm: LLM, question: str, sentences: list[str]) -> Check:
    """The model's yes/no on whether `sentences` answer `question`."""
    prompt = load_prompt("querying", "answer_check").render(
        sentences="\n".join(f"- {s}" for s in sentences), question=question)
    try:
        reply = llm.complete(prompt, CHECK_SCHEMA, max_tokens=CHECK_MAX_TOKENS).parsed
    except LLMSchemaError as err:
        return Check(True, f"the reply failed its schema, counted as yes ({str(err)[:80]})")
    answered = bool(reply["answered"])
    return Check(answered, "the model says the sentences answer the question" if answered
                 else "the model says the sentences do not answer the question")
