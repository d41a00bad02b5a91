"""`kg.mode = single`: one structured call per chunk returns its triples (the multi-hop KG-RAG seed
paper's way). Untyped: asking for types in the same call made the tiny model worse."""

from __future__ import annotations

from pyramid.kg.extractors.base import ChunkTripleExtractor, from_array
from pyramid.kg.model import RawTriple, canonical_name
from pyramid.plugins import Entry, Registry


class SingleCallExtractor(ChunkTripleExtractor):
    name = "single"
    prompts = ("f_single",)

    def raw_triples(self, text: str, title: str) -> list[RawTriple]:
        out = [from_array(item) for item in self.call("f_single", text=text)["triples"]]
        for tr in (t for t in out if t is not None):
            tr.canonical = canonical_name(tr.relation)
        return [t for t in out if t is not None]


def register(registry: Registry) -> None:
    registry.register(Entry("single", SingleCallExtractor.from_settings,
                            "one structured call per chunk"))
