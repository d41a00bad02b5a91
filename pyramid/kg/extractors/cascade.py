"""`kg.mode = cascade`: the PolyRAG paper's f_kg, four structured calls per chunk.

    f_par (statements) → f_ent (typed entities) → f_rel (triples among them) → f_dis (canonical
    relations; skipped when a chunk has fewer than two relations, and it may only map relations it
    was given)
"""

from __future__ import annotations

from pyramid.kg.extractors.base import UNTYPED, ChunkTripleExtractor, from_array
from pyramid.kg.model import RawTriple, canonical_name, normalise_name
from pyramid.plugins import Entry, Registry


def _type(t: str) -> str:
    return "" if t in UNTYPED else t


class CascadeExtractor(ChunkTripleExtractor):
    name = "cascade"
    prompts = ("f_par", "f_ent", "f_rel", "f_dis")

    def raw_triples(self, text: str, title: str) -> list[RawTriple]:
        statements = [" ".join(s.split()) for s in self.call("f_par", text=text)["statements"] if s.strip()]
        if not statements:
            return []
        listed = "\n".join(f"- {s}" for s in statements)
        entities = self.call("f_ent", statements=listed)["entities"]
        types = {normalise_name(e["name"]): _type(e["type"]) for e in entities}
        names = "; ".join(dict.fromkeys(e["name"].strip() for e in entities if e["name"].strip()))
        if not names:
            return []
        triples = [from_array(item, types) for item in self.call("f_rel", entities=names, statements=listed)["triples"]]
        return self._disambiguate([t for t in triples if t is not None])

    def _disambiguate(self, triples: list[RawTriple]) -> list[RawTriple]:
        relations = list(dict.fromkeys(t.relation for t in triples))
        mapping: dict[str, str] = {}
        # With fewer than two distinct relations there is nothing to merge: the call is skipped.
        if len(relations) >= 2:
            numbered = "\n".join(f"{i}. {r}" for i, r in enumerate(relations, 1))
            given = {r.lower(): r for r in relations}
            for m in self.call("f_dis", relations=numbered)["relations"]:
                rel = given.get(" ".join(m["relation"].split()).lower())
                canon = canonical_name(m["canonical"]) if m["canonical"].strip() else ""
                if rel is not None and canon:  # a mapping for a relation it was not given is ignored
                    mapping[rel] = canon
        for t in triples:
            t.canonical = mapping.get(t.relation) or canonical_name(t.relation)
        return triples


def register(registry: Registry) -> None:
    registry.register(Entry("cascade", CascadeExtractor.from_settings,
                            "f_par → f_ent → f_rel → f_dis, four structured calls per chunk (the paper)"))
