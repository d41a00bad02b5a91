"""`OntologyTarget` over the workspace's ontology layer (pyramid.ontology.layer.OntologyLayer).

Reads are completion's own fixed queries, so they go through the store's trusted path
(`run_trusted`: in-process, no row cap, no timeout) — the layer's `select` caps rows and time for
queries that come from a question, and would cut PolyU's 42k value facts at the cap.

Apply adds, it never rebuilds:
* each proposal's instances go into a graph of their own, "doc:completion:<proposal id>" (so a
  second apply keeps the first one's instances, and a proposal's facts can be told apart later);
* the schema graph becomes the existing schema triples exactly as stored (header, blank-node
  restrictions, language tags, datatypes) plus the new terms, through `load_schema`, which re-runs
  reasoning when an inferred graph exists (otherwise `reason()` creates it);
* on any failure the proposal graphs are removed and the previous schema (the same triples, the
  same prefixes, the same source) is loaded back before the error propagates.
"""

from __future__ import annotations

from completion.sources import read_view
from completion.target import Instances, Statement, nt_lines
from completion.types import OntologyView

COMPLETION_DOC = "completion:"


class LayerTarget:
    def __init__(self, layer) -> None:
        self.layer = layer

    def _select(self, query: str) -> list[dict[str, str]]:
        return self.layer.select_trusted(query)

    def view(self) -> OntologyView:
        return read_view(self._select)

    def schema(self) -> list[str]:
        return nt_lines(self.layer.schema.triples)

    def apply(self, schema: list[Statement], instances: Instances) -> dict[str, int]:
        from pyramid.ontology.schema import Schema
        from pyramid.ontology.store import SCHEMA

        layer = self.layer
        current = layer.schema
        info = layer.store.graphs().get(SCHEMA)
        source = info.source if info else "schema"
        previous = Schema(current.triples, prefixes=current.prefixes, source=source)
        extended = Schema([*current.triples, *(s.triple() for s in schema)], prefixes=current.prefixes,
                          source=f"{source.split(' + completion')[0]} + completion")
        written: list[str] = []
        try:
            for pid, facts in instances.items():
                if facts:
                    written.append(COMPLETION_DOC + pid)   # before the write: a half-written graph is removed too
                    layer.add_instances(written[-1], [s.triple() for s in facts])
            loaded = layer.load_schema(extended)             # reasons again when an inferred graph exists
            inferred = loaded.inferred
            if inferred is None and layer.inferred_state() != "fresh":
                inferred = layer.reason().inferred
        except BaseException:
            for doc in written:
                layer.remove_document(doc)
            layer.load_schema(previous)
            raise
        added = len(extended.triples) - len(current.triples) + sum(len(f) for f in instances.values())
        return {"added": added, **({"inferred": int(inferred)} if inferred is not None else {})}

    def unapply(self, schema_lines: list[str], proposal_ids: list[str]) -> None:
        """Undo an apply: its proposals' instance graphs removed and the schema put back to
        `schema_lines` (N-Triples, as the history recorded it before that apply)."""
        import pyoxigraph as ox

        from pyramid.ontology.schema import Schema
        from pyramid.ontology.store import SCHEMA

        layer = self.layer
        current = layer.schema
        info = layer.store.graphs().get(SCHEMA)
        source = (info.source if info else "schema").split(" + completion")[0]
        triples = [q.triple if hasattr(q, "triple") else q
                   for q in ox.parse("\n".join(schema_lines) + "\n", format=ox.RdfFormat.N_TRIPLES)]
        for pid in proposal_ids:
            layer.remove_document(COMPLETION_DOC + pid)
        layer.load_schema(Schema(triples, prefixes=current.prefixes, source=source))
