"""LLM mode of condensation: f_con decides, per anchor, which nearby relation phrases are the anchor's
attribute and which others belong together (structured output, schema below). Its decisions
replace steps 1–2 of the model-free mode for the phrases it places; the rest is clustered as usual.

The tiny default model's answers are checked, not trusted: the schema only admits the listed phrases
(and the code drops any other, for providers without constrained decoding), a group mixing active and
passive phrases is dropped (it would swap subjects and objects), and a canonical name is reduced to
snake_case words. A call that fails its schema leaves that anchor's phrases to the clustering.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from completion.condensation import Embed, passive
from completion.linking import Typing
from completion.names import humanise, local_name, snake_name
from completion.phrases import KGPhrases, kg_phrases, pair_phrase
from completion.types import ClassAttribute, KGTriple
from pyramid.llm import LLM
from pyramid.llm.base import LLMError
from pyramid.prompts import load_prompt

MAX_PHRASES = 30     # relation phrases shown per anchor (the tiny model's context is 4k tokens)



def schema_for(relations: list[str]) -> dict:
    """The reply schema, with the listed phrases as an enum: constrained decoding cannot invent a
    phrase, and a small model cannot run on past the list (it did, without the enum)."""
    phrase = {"type": "string", "enum": relations}
    return {
        "type": "object",
        "properties": {
            "same": {"type": "array", "items": phrase, "maxItems": len(relations)},
            "groups": {"type": "array", "maxItems": 5, "items": {
                "type": "object",
                "properties": {"canonical": {"type": "string", "maxLength": 40},
                               "relations": {"type": "array", "items": phrase, "maxItems": len(relations)}},
                "required": ["canonical", "relations"]}},
        },
        "required": ["same", "groups"],
    }


def neighbourhood(anchor_vec: np.ndarray, phrases: KGPhrases, phrase_vecs: np.ndarray,
                  triples: Sequence[KGTriple], k: int) -> list[str]:
    """Distinct relation phrases of the anchor's k nearest triples, most frequent first."""
    order = np.argsort(-(phrase_vecs @ anchor_vec), kind="stable")
    members = phrases.members()
    seen: Counter[str] = Counter()
    taken = 0
    for idx in order:
        if taken >= k:
            break
        taken += int(phrases.counts[idx])
        seen.update(" ".join(triples[int(t)].relation.split()) for t in members[idx])
    return [r for r, _ in seen.most_common(MAX_PHRASES)]


def f_con(llm: LLM, anchor: ClassAttribute, relations: list[str]) -> dict[str, str]:
    """Relation text → canonical name, as decided by the model for one anchor (validated)."""
    if not relations:
        return {}
    attr_words = humanise(anchor.attribute, anchor.attribute_label)
    messages = load_prompt("completion", "f_con").render(
        attribute=attr_words, cls=humanise(anchor.cls, anchor.cls_label),
        relations="\n".join(f"- {r}" for r in relations))
    reply = llm.complete(messages, schema=schema_for(relations)).parsed
    allowed = set(relations)
    out: dict[str, str] = {}
    for r in reply.get("same", []):
        if r in allowed and passive(r) == passive(attr_words):
            out[r] = local_name(anchor.attribute)
    for g in reply.get("groups", []):
        members = [r for r in g.get("relations", []) if r in allowed and r not in out]
        if len(members) < 2 or len({passive(r) for r in members}) > 1:
            continue
        name = snake_name(g.get("canonical", "") or members[0], max_words=8)
        for r in members:
            out[r] = name
    return out


def llm_decisions(llm: LLM, anchors: Sequence[ClassAttribute], triples: Sequence[KGTriple], typing: Typing,
                  embed: Embed, k: int) -> tuple[dict[str, str], int]:
    """All anchors' decisions merged (first anchor wins a phrase), and how many calls failed."""
    decided: dict[str, str] = {}
    failures = 0
    phrases = kg_phrases(triples, typing)
    p_vec = embed(phrases.texts)
    a_vec = embed([pair_phrase(a) for a in anchors]) if anchors else []
    for anchor, av in zip(anchors, a_vec):
        try:
            got = f_con(llm, anchor, neighbourhood(av, phrases, p_vec, triples, k))
        except LLMError:
            failures += 1       # this anchor's phrases fall back to the clustering
            continue
        for r, name in got.items():
            decided.setdefault(r, name)
    return decided, failures
