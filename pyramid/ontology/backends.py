"""Ontology store backends behind one interface: the embedded Oxigraph directory (default) or any
SPARQL 1.1 server (`ontology.backend = "sparql"`, pyramid.ontology.remote_store).

    store = open_store(root, settings, require_write=ws._require_lock, build_pending=...)

`OntologyBackend` is exactly what the layer, the question answerer, completion and the commands call
on `layer.store`; both `OntologyStore` and `RemoteStore` implement it. Each keeps the registry
(graphs.json: logical graph -> physical graph IRI) in the workspace, so graph names, the generation
and the "inferred is stale" bookkeeping are the same whatever holds the triples.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import pyoxigraph as ox

from pyramid.config import OntologySettings
from pyramid.errors import ConfigError, WorkspaceError
from pyramid.ontology.query_pool import Lane
from pyramid.ontology.query_worker import QueryResult
from pyramid.ontology.rdfio import NTriples
from pyramid.ontology.store import REGISTRY, GraphInfo, OntologyStore


@runtime_checkable
class OntologyBackend(Protocol):
    path: Path               # embedded: the database directory; remote: a path that never exists
    server_reasons: bool     # True: the server derives inferences itself; the inferred graph stays empty

    @property
    def generation(self) -> str: ...
    def graphs(self) -> dict[str, GraphInfo]: ...
    def has_graph(self, name: str) -> bool: ...
    def count(self, name: str | None = None) -> int: ...
    def quads(self, names: Iterable[str] | None = None) -> Iterator[ox.Quad]: ...
    def ntriples(self, names: Iterable[str] | None = None) -> NTriples: ...
    def run_query(self, query: str, *, timeout_s: float, row_cap: int | None,
                  prefixes: dict[str, str] | None = None, graphs: list[str] | None = None,
                  typed: bool = False, distinct: bool = False, lane: Lane = "user") -> QueryResult: ...
    def select(self, query: str, *, timeout_s: float, row_cap: int | None, prefixes: dict[str, str] | None = None,
               graphs: list[str] | None = None) -> list[dict[str, Any]]: ...
    def run_trusted(self, query: str, *, graphs: list[str] | None = None, row_cap: int | None = None,
                    prefixes: dict[str, str] | None = None) -> QueryResult: ...
    def replace_graph(self, name: str, triples: Iterable | NTriples, *, source: str = "") -> GraphInfo: ...
    def replace_graphs(self, contents: dict[str, tuple[list | NTriples, str]]) -> dict[str, GraphInfo]: ...
    def remove_graph(self, name: str) -> bool: ...
    def close(self) -> None: ...


def open_store(root: Path, settings: OntologySettings, *, require_write: Callable[[], None] | None = None,
               build_pending: Callable[[], bool] = lambda: False) -> OntologyBackend:
    """The configured backend over the workspace's ontology directory `root`. `build_pending`: a
    build journal is open (a remote store then keeps replaced graphs until it commits, for the rollback)."""
    if settings.backend == "sparql":
        from pyramid.ontology.remote_store import RemoteStore

        missing = [k for k in ("query_url", "update_url") if not getattr(settings, k)]
        if missing:
            raise ConfigError(f"ontology.backend = \"sparql\" needs ontology.{' and ontology.'.join(missing)} "
                              "(POLYRAG_ONTOLOGY__QUERY_URL, POLYRAG_ONTOLOGY__UPDATE_URL)")
        return RemoteStore(root, settings, require_write=require_write, build_pending=build_pending)
    _refuse_remote_registry(Path(root))
    return OntologyStore(root, require_write=require_write, memory_mb=settings.memory_mb,
                         query_processes=settings.query_processes, queue_wait_s=settings.queue_wait_s)


def _refuse_remote_registry(root: Path) -> None:
    """A registry written for a SPARQL server names graphs the embedded directory does not hold: read
    there, the ontology would silently look empty."""
    import json

    path = root / REGISTRY
    try:
        tag = json.loads(path.read_text(encoding="utf-8")).get("store") if path.exists() else None
    except ValueError:
        return  # the store itself reports a malformed registry
    if tag:
        raise WorkspaceError(f"{path} lists graphs on the SPARQL server at {tag.get('query_url')}, but "
                             "ontology.backend is \"oxigraph\": set ontology.backend = \"sparql\" with that "
                             "server's URLs, or move the file aside and build the ontology layer again")
