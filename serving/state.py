"""What every endpoint of one workspace shares: its session, the lock that makes a request one
generation (serving.app's HTTP API, serving.chat, serving.mcp_tools, serving.pages), and the schema
as the pages and tools show it."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from pyramid.session import Session
from pyramid.workspace import Workspace


class Server:
    """One workspace's session, shared by the requests; `lock` makes each request one generation."""

    def __init__(self, workspace: Path) -> None:
        self.ws = Workspace.open(workspace)
        self.session = Session(self.ws)
        self.session.serving = True
        self.lock = threading.RLock()

    def ask(self, question: str, **kwargs: Any):
        """The question routed (querying.router.ask: layer, layers, options, sparql_mode, k) on one
        generation of every layer: the Answer every endpoint returns."""
        from querying.router import ask as route

        with self.lock:
            self.refresh()
            return route(self.session, question, **kwargs)

    def search(self, q: str, k: int, lam: float | None = None) -> list[dict[str, Any]]:
        """The text layer's hybrid search, as the endpoints return it."""
        with self.lock:
            self.refresh()
            hits = self.session.text.search(q, k=k, lam=lam)
        return [{"chunk_id": h.chunk.id, "doc_id": h.chunk.doc_id, "score": round(h.score, 6),
                 "dense": round(h.dense, 6), "sparse": round(h.sparse, 6), "text": h.chunk.text} for h in hits]

    def kg_search(self, q: str, k: int) -> list[dict[str, Any]]:
        """The KG's triple search, as the endpoints return it."""
        with self.lock:
            self.refresh()
            hits = self.session.kg.search(q, k=k)
        return [{"subject": h.triple.subject.name, "relation": h.triple.relation, "object": h.triple.object.name,
                 "score": round(h.score, 6), "doc_id": h.triple.doc_id, "chunk_id": h.triple.chunk_id} for h in hits]

    def refresh(self) -> None:
        """The last committed generation of each layer (cheap when nothing changed)."""
        if self.ws.generations("text").current() is not None:
            self.session.text.load()
        if self.session.kg.exists:
            self.session.kg.index.load()


def schema_summary(session: Session) -> dict[str, Any]:
    """The ontology's classes and properties (IRI, short name, label, comment, domains, ranges)."""
    from pyramid.vocab import Vocab

    vocab = Vocab.from_schema(session.ontology.schema)
    classes = [{"iri": t.iri, "name": t.name, "label": t.label, "comment": t.comment,
                "subclass_of": sorted(vocab.parents.get(t.iri, ()))} for t in vocab.classes]
    props = [{"iri": t.iri, "name": t.name, "kind": t.kind, "label": t.label, "comment": t.comment,
              "domains": list(t.domains), "ranges": list(t.ranges)} for t in vocab.properties]
    return {"prefixes": dict(session.ontology.prefixes or {}), "classes": classes, "properties": props}
