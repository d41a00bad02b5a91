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
