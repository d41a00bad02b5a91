"""Stage 5, the model: only when the best readings are too close to call (`ontology.reading_margin`),
it picks one of them, each written out in full — a small constrained choice."""

from __future__ import annotations

from pyramid.llm import LLM
from pyramid.prompts import load_prompt
from querying.planning.records import PlanDraft, QuestionReading

MAX_CHOICES = 4           # readings put before the model, at most
CHOICE_TOKENS = 12        # room for the reply {"choice": n}
CLOSE_CALL = 2            # readings within the margin that make a close call
CHOICE_SCHEMA = {"type": "object", "properties": {"choice": {"type": "integer", "minimum": 1,
                                                             "maximum": MAX_CHOICES}},
                 "required": ["choice"], "additionalProperties": False}


def choose(d: PlanDraft, question: str, readings: list[QuestionReading], llm: LLM | None,
           margin: float) -> QuestionReading:
    """The best reading, or the model's pick among those within `margin` of it; the draft's
    decisions say which."""
    top = [r for r in readings[:MAX_CHOICES] if readings[0].score - r.score < margin]
    if len(top) < CLOSE_CALL or llm is None:
        d.decisions["choice"] = "best score" + ("" if len(top) < CLOSE_CALL else
                                                f" ({len(top)} within the margin; no model)")
        return readings[0]
    numbered = "\n".join(f"{i}. {r.spelled()}" for i, r in enumerate(top, 1))
    reply = llm.complete(load_prompt("querying", "ontology_choice").render(
        question=question, readings=numbered), CHOICE_SCHEMA, max_tokens=CHOICE_TOKENS).parsed
    pick = reply["choice"] - 1 if 1 <= reply["choice"] <= len(top) else 0
    d.decisions["choice"] = f"chosen by the model among {len(top)} close readings"
    return top[pick]
