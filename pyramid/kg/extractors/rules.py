"""`kg.mode = rules`: triples read without a model, sentence by sentence.

    text → sentences, pronouns and "the <head word>" → the document's main entity
         (pyramid.reading.names) → triples off spaCy's dependency parse of each sentence
         (pyramid.reading.parse: subject–verb–object, passives, copulas, appositions, relative
         clauses, conjunctions); `reader="regex"` reads with the English-surface rules instead
         (pyramid.reading.rules), `"both"` takes both readers' triples
"""

from __future__ import annotations

from typing import Literal

from pyramid.kg.extractors.base import ChunkTripleExtractor
from pyramid.kg.model import RawTriple, canonical_name
from pyramid.llm import LLM
from pyramid.plugins import Entry, Registry
from pyramid.reading.parse import PARSE_VERSION, read_with
from pyramid.reading.rules import RULES_VERSION, ReadSentence

# How a sentence is read: regex = the English-surface rules of pyramid/reading/rules.py; parse =
# spaCy's dependency parse; both = their triples together.
Reader = Literal["regex", "parse", "both"]
READERS: tuple[Reader, ...] = ("regex", "parse", "both")
READER: Reader = "parse"   # measured better on both development corpora (`polyrag bench extraction`)
LLMFor = Literal["residue", "all"]


class RulesExtractor(ChunkTripleExtractor):
    name = "rules"

    def __init__(self, llm: LLM, min_grounding: float = 0.5, *, reader: Reader = READER,
                 llm_for: LLMFor = "residue") -> None:
        if reader not in READERS:
            raise ValueError(f"unknown sentence reader {reader!r} (choose {', '.join(READERS)})")
        super().__init__(llm, min_grounding)
        self.reader, self.llm_for = reader, llm_for

    def version_parts(self) -> list[str]:
        parts = [RULES_VERSION, self.llm_for]
        if self.reader != "regex":
            parts += [self.reader, PARSE_VERSION]
        return parts

    def raw_triples(self, text: str, title: str) -> list[RawTriple]:
        out: list[RawTriple] = []
        for sent in read_with(self.reader, text, title):
            out += self.sentence_triples(sent)
        return out

    def sentence_triples(self, sent: ReadSentence) -> list[RawTriple]:
        return self.rule_triples(sent)

    @staticmethod
    def rule_triples(sent: ReadSentence) -> list[RawTriple]:
        return [RawTriple(t.subject, t.relation, t.object, canonical=canonical_name(t.relation)) for t in sent.triples]


def register(registry: Registry) -> None:
    registry.register(Entry("rules", RulesExtractor.from_settings, "deterministic sentence reading, no model"))
