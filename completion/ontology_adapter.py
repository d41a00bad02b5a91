"""`OntologyTarget` over the workspace's ontology layer (pyramid.ontology.layer.OntologyLayer).

Written against the layer's announced surface — `select(sparql)`, `add_instances(doc_id, triples)`,
`reason()`, and a schema object with `save`/`load` — and kept to that surface so it stays an adapter:
* reads go through `select` (the same SPARQL as for a plain Oxigraph store, completion.sources);
* apply = extend the schema (a new Turtle file of the added statements handed to `load_schema`),
  then `add_instances("completion:vN", statements)`, then `reason()`. If a later step fails, the
  earlier schema is restored with `load_schema` before the error propagates, so the layer is left
  as it was (what the layer itself cannot roll back is listed in the completion report).
"""

from __future__ import annotations

from completion.sources import oxigraph_select, read_view
from completion.target import SCHEMA_QUERY, Statement
from completion.types import OntologyView


def _plain(value) -> str:
    value = getattr(value, "value", value)
    text = str(value)
    return text[1:-1] if text.startswith("<") and text.endswith(">") else text


class LayerTarget:
    def __init__(self, layer) -> None:
        self.layer = layer

    def _select(self, query: str) -> list[dict[str, str]]:
        store = getattr(self.layer, "store", None)
        if store is not None and hasattr(store, "query"):
            return oxigraph_select(store)(query)
        rows = self.layer.select(query)
        return [{k: _plain(v) for k, v in dict(r).items() if v is not None} for r in rows]

    def view(self) -> OntologyView:
        return read_view(self._select)

    def schema(self) -> list[Statement]:
        out = set()
        for r in self._select(SCHEMA_QUERY):
            o = r["o"]
            literal = not o.startswith(("http://", "https://", "urn:"))
            out.add(Statement(r["s"], r["p"], o, literal))
        return sorted(out, key=Statement.nt)

    def apply(self, schema: list[Statement], instances: list[Statement]) -> dict[str, int]:
        import tempfile
        from pathlib import Path

        previous = self.schema()
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "schema.nt"
            path.write_text("\n".join(s.nt() for s in [*previous, *schema]) + "\n", encoding="utf-8")
            self.layer.load_schema(path)
            try:
                self.layer.add_instances("completion", [(s.s, s.p, s.o) for s in instances])
                report = self.layer.reason()
            except BaseException:
                back = Path(tmp) / "previous.nt"
                back.write_text("\n".join(s.nt() for s in previous) + "\n", encoding="utf-8")
                self.layer.load_schema(back)
                raise
        inferred = getattr(report, "inferred", None)
        return {"added": len(schema) + len(instances), **({"inferred": int(inferred)} if inferred is not None else {})}
