"""`kg.mode = grounded`: the rules (`kg.mode = rules`), plus one small model call per sentence they
cannot read (`llm_for="all"`: every sentence).

The call's subject and object are enums of the sentence's candidate spans (pyramid.reading.rules
.candidates), and its relation must be written in the sentence outside them — else the words between
the two spans replace it; a relation equal to an entity is dropped. Built for a tiny model: it
decides only what the rules could not, and cannot name a thing the sentence does not.
"""

from __future__ import annotations

import re

from pyramid.kg.extractors.base import MAX_SENTENCE_TRIPLES, MAX_TOKENS, json_object
from pyramid.kg.extractors.rules import RulesExtractor
from pyramid.kg.model import RawTriple, canonical_name, normalise_name
from pyramid.plugins import Entry, Registry
from pyramid.prompts import load_prompt
from pyramid.reading.rules import ReadSentence, candidates

_WORD = re.compile(r"\w+", re.UNICODE)
MAX_GAP_WORDS = 8  # the words between subject and object stand for the relation when this few


class GroundedExtractor(RulesExtractor):
    name = "grounded"
    prompts = ("f_sentence",)

    def sentence_triples(self, sent: ReadSentence) -> list[RawTriple]:
        rules = [] if self.llm_for == "all" else self.rule_triples(sent)
        if rules and self.llm_for == "residue":
            return rules
        cands = candidates(sent)
        if len(cands) < 2:
            return rules  # nothing to relate: no call
        return rules + self._sentence(sent.text, cands)

    def _sentence(self, sentence: str, cands: list[str]) -> list[RawTriple]:
        schema = json_object({"triples": {"type": "array", "maxItems": MAX_SENTENCE_TRIPLES, "items": json_object({
            "subject": {"enum": cands}, "relation": {"type": "string", "minLength": 1, "maxLength": 50},
            "object": {"enum": cands}})}})
        listed = "\n".join(f"- {c}" for c in cands)
        messages = load_prompt("pyramid.kg", "f_sentence").render(sentence=sentence, candidates=listed)
        reply = self.llm.complete(messages, schema, max_tokens=MAX_TOKENS["f_sentence"]).parsed
        out = []
        for t in reply["triples"]:
            rel = grounded_relation(sentence, t["subject"], " ".join(t["relation"].split()), t["object"], cands)
            if rel:
                out.append(RawTriple(t["subject"], rel, t["object"], canonical=canonical_name(rel)))
        return out


def grounded_relation(sentence: str, subject: str, relation: str, obj: str, entities: list[str]) -> str:
    """The relation if it is written in the sentence outside the subject and object and is no entity;
    else the words between subject and object when they are 1–8 words of the sentence; else ""."""
    folded = lambda x: [w for w in _WORD.findall(normalise_name(x))]
    if normalise_name(subject) == normalise_name(obj):
        return ""
    ent = {normalise_name(e) for e in entities}
    sent_words, ends = set(folded(sentence)), set(folded(subject)) | set(folded(obj))
    words = folded(relation)
    # a relation that swallows a name ('belongs to the Faculty of Engineering at') is no relation;
    # lowercase candidate phrases may share a word with one ('twinned' / 'twinned with') and do not count
    names = [normalise_name(e) for e in entities if not e.islower() and len(normalise_name(e)) > 2]
    inside = any(re.search(rf"\b{re.escape(e)}\b", normalise_name(relation)) for e in names)
    if words and any(len(w) > 1 and w.isalpha() for w in words) and normalise_name(relation) not in ent and \
            set(words) <= sent_words and not set(words) <= ends and not inside:
        return relation
    low = sentence.lower()
    i, j = low.find(subject.lower()), low.find(obj.lower())
    if i >= 0 and j > i + len(subject):
        gap = sentence[i + len(subject):j].strip(" ,;:")
        gap = re.sub(r"\b(the|a|an)$", "", gap, flags=re.IGNORECASE).strip()
        n = len(gap.split())
        if 1 <= n <= MAX_GAP_WORDS and normalise_name(gap) not in ent and "," not in gap and \
                not any(re.search(rf"\b{re.escape(e)}\b", normalise_name(gap)) for e in names):
            return gap
    return ""


def register(registry: Registry) -> None:
    registry.register(Entry("grounded", GroundedExtractor.from_settings,
                            "the rules plus one enum-constrained model call per sentence they cannot read"))
