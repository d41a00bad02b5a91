"""The ontology store on a SPARQL 1.1 server: the same interface as the embedded `OntologyStore`
(pyramid.ontology.backends.OntologyBackend), the same logical graphs and physical graph IRIs.

    store = RemoteStore(ws.layer_dir("ontology"), settings.ontology, require_write=..., build_pending=...)

Where things live. The triples: on the server, one named graph per logical graph version
(urn:polyrag:graph:<name>:<random>). The registry (graphs.json: which version of each graph is live,
counts, digests, the generation) stays in the workspace as for the embedded store, tagged with the
server it describes. So a write is as atomic for readers as there: the new version is loaded into a
graph no query reads (every query's dataset is the registered graphs, sent as default-graph-uri),
then the registry file is switched, then the old version is dropped.

What this workspace wrote on the server is listed in remote-graphs.json before it is written (a
crash leaves nothing unlisted) and outside the build's rollback, so the next write drops leftovers
and only its own graphs: other data on a shared server is never touched. While a build journal is
open the old versions are kept, so the rollback's registry still names graphs that exist.

Safety. A question's or a user's query passes the same text check as on the embedded store
(pyramid.ontology.safety.check_query: no update, SERVICE, FROM) before anything is sent, and is sent
to the query endpoint only, under a client-side deadline (pyramid.ontology.sparql_http). The update
endpoint receives only text this module writes: INSERT DATA of parsed terms and DROP of its own graphs.

Loading: a Graph Store Protocol PUT per graph when `graph_store_url` is set, else SPARQL Update in
batches of `update_batch_bytes` / `update_batch_triples`; triples with blank nodes go together in one INSERT {...} WHERE {}
(Virtuoso refuses blank nodes in INSERT DATA, and one request keeps a blank node one node).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from pyramid.config import OntologySettings
from pyramid.errors import WorkspaceError
from pyramid.ontology.query_pool import Lane
from pyramid.ontology.query_worker import QueryResult
from pyramid.ontology.rdfio import NTriples, to_python, to_w3c
from pyramid.ontology.sparql_http import SparqlHttp, SparqlServerError
from pyramid.ontology.store import REGISTRY, GraphInfo, GraphRegistry, plan_replacement

OWNED = "remote-graphs.json"
NO_GRAPH = "urn:polyrag:graph:none"   # the dataset of a store with no graph: reads as empty
PAGE_ROWS = 10_000                    # Virtuoso's default ResultSetMaxRows: no page may be cut by it
REPLY_BYTES = 64_000_000              # a question's result, as the embedded query process bounds it


def _nt(t: Any) -> str:
    return f"{t.subject} {t.predicate} {t.object} ."


def _has_bnode(t: Any) -> bool:
    return isinstance(t.subject, ox.BlankNode) or isinstance(t.object, ox.BlankNode)


_GRAPH_FORMS = ("CONSTRUCT", "DESCRIBE")


def query_form(query: str) -> str:
    """SELECT, ASK, CONSTRUCT or DESCRIBE: the first such keyword (the safety check's tokens)."""
    from pyramid.ontology.safety import READ_FORMS, tokens

    return next((tok.upper() for kind, tok, _ in tokens(query) if kind == "word" and tok.upper() in READ_FORMS),
                "SELECT")


def with_prefixes(query: str, prefixes: dict[str, str] | None) -> str:
    """The query with PREFIX lines for the given prefixes it does not declare (the embedded store
    passes them to Oxigraph as defaults; a server only reads the text)."""
    from pyramid.ontology.safety import tokens

    toks = tokens(query)  # the safety check's tokenizer: a PREFIX in a comment or string is not one
    declared = {toks[i + 1][1].split(":", 1)[0] for i, (kind, tok, _) in enumerate(toks[:-1])
                if kind == "word" and tok.upper() == "PREFIX" and toks[i + 1][0] == "pname"}
    lines = [f"PREFIX {p}: <{iri}>" for p, iri in (prefixes or {}).items() if p not in declared]
    return (" ".join(lines) + "\n" + query) if lines else query


class RemoteStore(GraphRegistry):
    def __init__(self, root: Path, settings: OntologySettings, *, require_write: Callable[[], None] | None = None,
                 build_pending: Callable[[], bool] = lambda: False) -> None:
        self.root = Path(root)
        self.path = self.root / "store"   # where an embedded store would be; never created here
        self.settings = settings
        self.server_reasons = settings.server_reasons
        self._require_write = require_write or (lambda: None)
        self._build_pending = build_pending
        self._store_tag = {"backend": "sparql", "query_url": settings.query_url, "update_url": settings.update_url}
        self._client = SparqlHttp(settings.query_url, settings.update_url, settings.graph_store_url,
                                  user=settings.user, password=settings.password.get_secret_value())
        self._check_registry()

    def _check_registry(self) -> None:
        reg = self._registry()
        tag = reg.get("store") or {}
        if reg["graphs"] and tag.get("query_url") != self.settings.query_url:
            where = f"the SPARQL server at {tag['query_url']}" if tag else "the embedded Oxigraph store"
            raise WorkspaceError(f"{self.root / REGISTRY} lists the graphs of {where}, not of "
                                 f"{self.settings.query_url}: point ontology.query_url back there, or move the file "
                                 "aside and build the ontology layer again")

    # ------------------------------------------------------------------ reading
    def _dataset(self, graphs: list[str] | None) -> list[str]:
        return self._iris(graphs) or [NO_GRAPH]

    def _read(self, query: str, *, timeout_s: float, row_cap: int | None, prefixes: dict[str, str] | None,
              graphs: list[str] | None, typed: bool = False, max_bytes: int | None = None) -> QueryResult:
        start = time.perf_counter()
        reply = self._client.query(with_prefixes(query, prefixes), dataset=self._dataset(graphs), timeout_s=timeout_s,
                                   row_cap=row_cap, max_bytes=max_bytes, graph_result=query_form(query) in _GRAPH_FORMS)
        ms = round((time.perf_counter() - start) * 1000, 2)
        if reply.boolean is not None:
            return QueryResult("ASK", ["ask"], [{"ask": reply.boolean}], ms=ms)
        convert = to_w3c if typed else to_python
        rows = [{k: convert(v) for k, v in row.items()} for row in reply.rows]
        return QueryResult(reply.kind, reply.variables, rows, reply.truncated, ms)

    def run_query(self, query: str, *, timeout_s: float, row_cap: int | None, prefixes: dict[str, str] | None = None,
                  graphs: list[str] | None = None, typed: bool = False, distinct: bool = False,
                  lane: Lane = "user") -> QueryResult:
        """A user's or a question's query: checked read-only here, then sent to the query endpoint only,
        stopped after timeout_s, capped at row_cap (`distinct` and `lane` change nothing: the server keeps
        its own default graph and its own queue)."""
        from pyramid.ontology.safety import check_query

        check_query(query, prefixes)
        return self._read(query, timeout_s=timeout_s, row_cap=row_cap, prefixes=prefixes, graphs=graphs, typed=typed,
                          max_bytes=REPLY_BYTES)

    def select(self, query: str, *, timeout_s: float, row_cap: int | None, prefixes: dict[str, str] | None = None,
               graphs: list[str] | None = None) -> list[dict[str, Any]]:
        return self.run_query(query, timeout_s=timeout_s, row_cap=row_cap, prefixes=prefixes, graphs=graphs).rows

    def run_trusted(self, query: str, *, graphs: list[str] | None = None, row_cap: int | None = None,
                    prefixes: dict[str, str] | None = None) -> QueryResult:
        """Our own fixed queries (stats, labels, benchmarks): no text check; the query endpoint still."""
        return self._read(query, timeout_s=self.settings.http_timeout_s, row_cap=row_cap, prefixes=prefixes,
                          graphs=graphs)

    def quads(self, names: Iterable[str] | None = None) -> Iterator[ox.Quad]:
        """Quads of the given logical graphs (all registered ones by default), read in pages."""
        graphs = self.graphs()
        chosen = graphs.values() if names is None else [graphs[n] for n in names if n in graphs]
        for info in chosen:
            graph, offset = ox.NamedNode(info.iri), 0
            while True:
                page = self._client.query(f"SELECT ?s ?p ?o WHERE {{ GRAPH <{info.iri}> {{ ?s ?p ?o }} }} "
                                          f"LIMIT {PAGE_ROWS} OFFSET {offset}", dataset=[info.iri],
                                          timeout_s=self.settings.http_timeout_s).rows
                for r in page:
                    yield ox.Quad(r["s"], r["p"], r["o"], graph)
                offset += len(page)
                if len(page) < PAGE_ROWS:
                    break
            if offset < info.triples:  # a server row limit below PAGE_ROWS would cut pages short
                raise SparqlServerError(f"read {offset:,} of the {info.triples:,} triples of graph {info.name} from "
                                        f"{self.settings.query_url}: its result-size limit is below {PAGE_ROWS:,} rows")

    def ntriples(self, names: Iterable[str] | None = None) -> NTriples:
        """The same triples as text (the reasoner's input)."""
        return NTriples.from_triples(self.quads(names))

    # ------------------------------------------------------------------ writing
    def writer(self):
        """The embedded store's raw handle has no remote equivalent; reached only when an embedded
        database directory is still in the workspace (the layer's checkpoint copies it)."""
        raise WorkspaceError(f"{self.path} holds an embedded Oxigraph store while ontology.backend = \"sparql\": "
                             "move it aside")

    def replace_graph(self, name: str, triples: Iterable | NTriples, *, source: str = "") -> GraphInfo:
        return self.replace_graphs({name: (triples if isinstance(triples, NTriples) else list(triples), source)})[name]

    def replace_graphs(self, contents: dict[str, tuple[list | NTriples, str]]) -> dict[str, GraphInfo]:
        """Each name's content made its (triples, source); loaded into fresh graphs, then one registry switch."""
        graphs = self.graphs()
        out, pending, changed_source = plan_replacement(graphs, contents)
        if pending or changed_source:
            self._require_write()
        if not pending:
            if changed_source:
                self._save_registry(graphs)
            return out
        self._own(graphs, [graph.value for _, graph, _, _, _ in pending])
        for _, graph, quads, _, _ in pending:
            self._load(graph.value, quads)
        now = datetime.now(UTC).isoformat(timespec="seconds")
        for name, graph, quads, source, digest in pending:
            out[name] = graphs[name] = GraphInfo(name, graph.value, len(quads), source, now, digest)
        self._save_registry(graphs)
        self._collect(graphs)
        return out

    def remove_graph(self, name: str) -> bool:
        graphs = self.graphs()
        if name not in graphs:
            return False
        self._require_write()
        del graphs[name]
        self._save_registry(graphs)
        self._collect(graphs)
        return True

    def _load(self, iri: str, quads: list[ox.Quad] | NTriples) -> None:
        timeout = self.settings.http_timeout_s
        if self.settings.graph_store_url:
            if len(quads):
                body = quads.data() if isinstance(quads, NTriples) else ox.serialize(
                    [ox.Triple(q.subject, q.predicate, q.object) for q in quads], format=ox.RdfFormat.N_TRIPLES)
                self._client.put_graph(iri, body, timeout_s=timeout)
            return
        if isinstance(quads, NTriples):
            graph = ox.NamedNode(iri)
            quads = [ox.Quad(t.subject, t.predicate, t.object, graph) for t in quads.triples()]
        blank = [_nt(q) for q in quads if _has_bnode(q)]
        if blank:  # one request: a blank node label means one node only within it
            self._client.update(f"INSERT {{ GRAPH <{iri}> {{\n" + "\n".join(blank) + "\n} } WHERE {}", timeout_s=timeout)
        batch: list[str] = []
        size = 0
        for q in quads:
            if _has_bnode(q):
                continue
            line = _nt(q)
            if batch and (size + len(line) > self.settings.update_batch_bytes
                          or len(batch) >= self.settings.update_batch_triples):
                self._insert(iri, batch)
                batch, size = [], 0
            batch.append(line)
            size += len(line) + 1
        if batch:
            self._insert(iri, batch)

    def _insert(self, iri: str, lines: list[str]) -> None:
        self._client.update(f"INSERT DATA {{ GRAPH <{iri}> {{\n" + "\n".join(lines) + "\n} }",
                            timeout_s=self.settings.http_timeout_s)

    # ------------------------------------------------------------------ the graphs this workspace owns
    def _owned(self) -> set[str]:
        path = self.root / OWNED
        if not path.exists():
            return set()
        try:
            return set(json.loads(path.read_text(encoding="utf-8"))["graphs"])
        except (ValueError, KeyError) as err:
            raise WorkspaceError(f"{path}: not a list of graphs ({err})") from None

    def _save_owned(self, iris: set[str]) -> None:
        from pyramid.workspace import atomic_write_json

        atomic_write_json(self.root / OWNED, {"store": self._store_tag, "graphs": sorted(iris)})

    def _own(self, graphs: dict[str, GraphInfo], new: list[str]) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self._save_owned(self._owned() | {g.iri for g in graphs.values()} | set(new))

    def _collect(self, graphs: dict[str, GraphInfo]) -> None:
        """Drop the graphs this workspace wrote that the registry no longer names (old versions,
        leftovers of a crash or a rolled-back build); none while a build may still roll back."""
        if self._build_pending():
            return
        owned, live = self._owned(), {g.iri for g in graphs.values()}
        dead = sorted(owned - live)
        if dead:
            self._client.update(" ;\n".join(f"DROP SILENT GRAPH <{iri}>" for iri in dead),
                                timeout_s=self.settings.http_timeout_s)
        self._save_owned(live)

    def close(self) -> None:
        self._client.close()
