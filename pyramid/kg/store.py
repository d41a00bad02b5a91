"""The graph store protocol, and the portable Cypher both backends run.

Data model (the same in Kùzu and Neo4j):

    (:Entity {id, name, norm, type})  -[:REL {id, relation, canonical, props, chunk_id, doc_id,
                                              confidence}]->  (:Entity)

`props` is a JSON string (Neo4j refuses map-valued properties; Kùzu wants a fixed schema).
Every query below is parameterised and uses only the Cypher both engines (and FalkorDB's Bolt
server, the CI stand-in for Neo4j) accept: MATCH/OPTIONAL MATCH, WHERE … IN $list, UNWIND $rows,
MERGE on an id, SET, DELETE, count/count(DISTINCT), ORDER BY, LIMIT. Backends differ only in
schema creation, how they bulk-write edges, and how they open read-only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol, runtime_checkable

from pyramid.errors import PolyragError
from pyramid.kg.model import Entity, RelationCount, StoreStats, Triple


class GraphStoreError(PolyragError):
    """The graph store cannot be opened or reached (message names the path or URI)."""


@runtime_checkable
class GraphStore(Protocol):
    backend: str
    read_only: bool

    def upsert(self, entities: Iterable[Entity], triples: Iterable[Triple]) -> None: ...
    def triples(self, ids: Sequence[str]) -> list[Triple]: ...
    def iter_triples(self) -> Iterator[Triple]: ...
    def entities(self, norms: Sequence[str] | None = None) -> list[Entity]: ...
    def neighbours(self, entity_ids: Sequence[str], hops: int = 1, limit: int = 200) -> list[Triple]: ...
    def relations(self) -> list[RelationCount]: ...
    def rename_relations(self, canonicals: Sequence[str], into: str) -> int: ...
    def set_canonical(self, relation_texts: Sequence[str], canonical: str) -> int: ...
    def delete_documents(self, doc_ids: Sequence[str]) -> int: ...
    def delete_triples(self, ids: Sequence[str]) -> int: ...
    def stats(self) -> StoreStats: ...
    def close(self) -> None: ...


# ------------------------------------------------------------------------------ portable Cypher
_TRIPLE_COLUMNS = ("RETURN r.id AS id, r.relation AS relation, r.canonical AS canonical, r.props AS props, "
                   "r.chunk_id AS chunk_id, r.doc_id AS doc_id, r.confidence AS confidence, "
                   "s.id AS s_id, s.name AS s_name, s.norm AS s_norm, s.type AS s_type, "
                   "o.id AS o_id, o.name AS o_name, o.norm AS o_norm, o.type AS o_type")
Q = {
    "upsert_entities": "UNWIND $rows AS r MERGE (e:Entity {id: r.id}) "
                       "SET e.name = r.name, e.norm = r.norm, e.type = r.type",
    "upsert_triples": "UNWIND $rows AS r MATCH (s:Entity {id: r.s}) MATCH (o:Entity {id: r.o}) "
                      "MERGE (s)-[x:REL {id: r.id}]->(o) SET x.relation = r.relation, x.canonical = r.canonical, "
                      "x.props = r.props, x.chunk_id = r.chunk_id, x.doc_id = r.doc_id, x.confidence = r.confidence",
    "delete_triples": "MATCH ()-[r:REL]->() WHERE r.id IN $ids DELETE r",
    "count_ids": "MATCH ()-[r:REL]->() WHERE r.id IN $ids RETURN count(r) AS n",
    "triples_by_id": "MATCH (s:Entity)-[r:REL]->(o:Entity) WHERE r.id IN $ids " + _TRIPLE_COLUMNS,
    "all_triples": "MATCH (s:Entity)-[r:REL]->(o:Entity) " + _TRIPLE_COLUMNS,
    # Two directed queries rather than one undirected pattern: each can use the id index, and the
    # direction of every edge comes back unambiguous.
    "out_of": "MATCH (s:Entity)-[r:REL]->(o:Entity) WHERE s.id IN $ids " + _TRIPLE_COLUMNS + " LIMIT $limit",
    "into": "MATCH (s:Entity)-[r:REL]->(o:Entity) WHERE o.id IN $ids " + _TRIPLE_COLUMNS + " LIMIT $limit",
    "entities": "MATCH (e:Entity) RETURN e.id AS id, e.name AS name, e.norm AS norm, e.type AS type",
    "entities_by_norm": "MATCH (e:Entity) WHERE e.norm IN $norms "
                        "RETURN e.id AS id, e.name AS name, e.norm AS norm, e.type AS type",
    "relations": "MATCH ()-[r:REL]->() RETURN r.canonical AS canonical, r.relation AS relation, count(*) AS n",
    "count_canonical": "MATCH ()-[r:REL]->() WHERE r.canonical IN $names RETURN count(r) AS n",
    "rename": "MATCH ()-[r:REL]->() WHERE r.canonical IN $names SET r.canonical = $into",
    "count_relation_text": "MATCH ()-[r:REL]->() WHERE r.relation IN $texts RETURN count(r) AS n",
    "set_canonical": "MATCH ()-[r:REL]->() WHERE r.relation IN $texts SET r.canonical = $into",
    "count_docs": "MATCH ()-[r:REL]->() WHERE r.doc_id IN $docs RETURN count(r) AS n",
    "delete_docs": "MATCH ()-[r:REL]->() WHERE r.doc_id IN $docs DELETE r",
    # Entities left without any edge go with their last triple (OPTIONAL MATCH + count, not
    # EXISTS {}: FalkorDB has no existential subqueries).
    "delete_orphans": "MATCH (e:Entity) OPTIONAL MATCH (e)-[r:REL]-() WITH e, count(r) AS n WHERE n = 0 DELETE e",
    "count_entities": "MATCH (e:Entity) RETURN count(e) AS n",
    "edge_stats": "MATCH ()-[r:REL]->() RETURN count(r) AS n, count(DISTINCT r.relation) AS relations, "
                  "count(DISTINCT r.canonical) AS canonical, count(DISTINCT r.doc_id) AS documents",
}


# Clauses that change a graph or reach outside it; none may appear in a query run for reading.
_WRITE_CLAUSE = re.compile(r"\b(CREATE|MERGE|SET|DELETE|DETACH|REMOVE|DROP|COPY|LOAD|CALL|FOREACH|ALTER|INSTALL)\b",
                           re.IGNORECASE)


def entity_row(e: Entity) -> dict[str, Any]:
    return {"id": e.id, "name": e.name, "norm": e.norm, "type": e.type}


def triple_row(t: Triple) -> dict[str, Any]:
    return {"id": t.id, "s": t.subject.id, "o": t.object.id, "relation": t.relation, "canonical": t.canonical,
            "props": t.props_json(), "chunk_id": t.chunk_id, "doc_id": t.doc_id, "confidence": float(t.confidence)}


def triple_from_row(row: dict[str, Any]) -> Triple:
    def end(p: str) -> Entity:
        return Entity(row[f"{p}_id"], row[f"{p}_name"] or "", row[f"{p}_norm"] or "", row[f"{p}_type"] or "")

    return Triple(row["id"], end("s"), row["relation"], end("o"), row["canonical"] or "",
                  json.loads(row["props"] or "{}"), row["chunk_id"] or None, row["doc_id"] or None,
                  float(row["confidence"] if row["confidence"] is not None else 1.0))


def chunked(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for i in range(0, len(items), size):
        yield items[i:i + size]


class CypherStore:
    """The operations of `GraphStore`, written once over `_run(query, params, write)`."""

    backend = "cypher"
    read_only = False
    # ids per `IN $ids` list: keeps every parameter small (FalkorDB's Bolt server crashes on ~4 KB).
    id_batch = 100

    # -- what a backend provides
    def _run(self, query: str, params: dict[str, Any] | None = None, *, write: bool = False) -> list[dict]:
        raise NotImplementedError

    def _iter(self, query: str, params: dict[str, Any] | None = None) -> Iterator[dict]:
        yield from self._run(query, params)

    def _write(self, entity_rows: list[dict[str, Any]], triple_rows: list[dict[str, Any]]) -> None:
        """Write entities, then triples (each replaced whole by id); all-or-nothing where the backend can."""
        raise NotImplementedError

    def close(self) -> None:
        pass

    # -- helpers
    def _require_write(self) -> None:
        if self.read_only:
            raise GraphStoreError(f"the {self.backend} store was opened read-only")

    def _check(self, query: str, write: bool) -> None:
        """A write needs `write=True` on a writable store; a read query may not contain a write clause.
        Kùzu enforces read-only itself, but FalkorDB's Bolt server runs a write sent with READ routing
        (measured), so the guard is ours: no query run for reading can write, whatever the server does."""
        if write:
            self._require_write()
        elif _WRITE_CLAUSE.search(query):
            raise GraphStoreError(f"refused a query with a write clause on the read path of the {self.backend} "
                                  f"store: {query[:120]}")

    def _sum_by_ids(self, count_q: str, write_q: str, key: str, values: Sequence[str], **extra: Any) -> int:
        n = 0
        for part in chunked(list(dict.fromkeys(values)), self.id_batch):
            n += int(self._run(count_q, {key: list(part)})[0]["n"])
            self._run(write_q, {key: list(part), **extra}, write=True)
        return n

    # -- GraphStore
    def upsert(self, entities: Iterable[Entity], triples: Iterable[Triple]) -> None:
        """Entities by id (name/norm/type overwritten), then triples by id (replaced whole)."""
        self._require_write()
        triples = list({t.id: t for t in triples}.values())
        ents = {e.id: e for e in entities}
        for t in triples:  # an edge's ends must exist before the edge
            ents.setdefault(t.subject.id, t.subject)
            ents.setdefault(t.object.id, t.object)
        if ents or triples:
            self._write([entity_row(e) for e in ents.values()], [triple_row(t) for t in triples])

    def triples(self, ids: Sequence[str]) -> list[Triple]:
        found: dict[str, Triple] = {}
        for part in chunked(list(dict.fromkeys(ids)), self.id_batch):
            for row in self._run(Q["triples_by_id"], {"ids": list(part)}):
                found[row["id"]] = triple_from_row(row)
        return [found[i] for i in ids if i in found]

    def iter_triples(self) -> Iterator[Triple]:
        for row in self._iter(Q["all_triples"]):
            yield triple_from_row(row)

    def entities(self, norms: Sequence[str] | None = None) -> list[Entity]:
        if norms is None:
            rows = self._run(Q["entities"])
        else:
            rows = [r for part in chunked(list(dict.fromkeys(norms)), self.id_batch)
                    for r in self._run(Q["entities_by_norm"], {"norms": list(part)})]
        return [Entity(r["id"], r["name"] or "", r["norm"] or "", r["type"] or "") for r in rows]

    def neighbours(self, entity_ids: Sequence[str], hops: int = 1, limit: int = 200) -> list[Triple]:
        """Edges touching the entities, then their neighbours' edges, out to `hops` (breadth first)."""
        seen: dict[str, Triple] = {}
        frontier, visited = list(dict.fromkeys(entity_ids)), set(entity_ids)
        for _ in range(max(hops, 0)):
            nxt: list[str] = []
            for part in chunked(frontier, self.id_batch):
                for q in ("out_of", "into"):
                    for row in self._run(Q[q], {"ids": list(part), "limit": limit}):
                        t = triple_from_row(row)
                        seen.setdefault(t.id, t)
                        for e in (t.subject.id, t.object.id):
                            if e not in visited:
                                visited.add(e)
                                nxt.append(e)
                    if len(seen) >= limit:
                        return list(seen.values())[:limit]
            frontier = nxt
            if not frontier:
                break
        return list(seen.values())[:limit]

    def relations(self) -> list[RelationCount]:
        rows = self._run(Q["relations"])
        out = [RelationCount(r["canonical"], r["relation"], int(r["n"])) for r in rows]
        return sorted(out, key=lambda x: (-x.count, x.canonical, x.relation))

    def rename_relations(self, canonicals: Sequence[str], into: str) -> int:
        """Give every edge whose canonical name is in `canonicals` the name `into` (relation text kept)."""
        self._require_write()
        into = into.strip()
        if not into:
            raise ValueError("the new canonical relation name is empty")
        return self._sum_by_ids(Q["count_canonical"], Q["rename"], "names", canonicals, into=into)

    def set_canonical(self, relation_texts: Sequence[str], canonical: str) -> int:
        """Give every edge whose relation text is in `relation_texts` the canonical name `canonical`."""
        self._require_write()
        canonical = canonical.strip()
        if not canonical:
            raise ValueError("the canonical relation name is empty")
        return self._sum_by_ids(Q["count_relation_text"], Q["set_canonical"], "texts", relation_texts,
                                into=canonical)

    def delete_documents(self, doc_ids: Sequence[str]) -> int:
        """Drop the triples from these documents, then entities left without edges; returns triples dropped."""
        self._require_write()
        if not doc_ids:
            return 0
        n = self._sum_by_ids(Q["count_docs"], Q["delete_docs"], "docs", doc_ids)
        if n:
            self._run(Q["delete_orphans"], write=True)
        return n

    def delete_triples(self, ids: Sequence[str]) -> int:
        """Drop edges by id, then entities left without edges; returns edges dropped."""
        self._require_write()
        n = self._sum_by_ids(Q["count_ids"], Q["delete_triples"], "ids", ids) if ids else 0
        if n:
            self._run(Q["delete_orphans"], write=True)
        return n

    def stats(self) -> StoreStats:
        edges = self._run(Q["edge_stats"])[0]
        return StoreStats(entities=int(self._run(Q["count_entities"])[0]["n"]), triples=int(edges["n"]),
                          relations=int(edges["relations"]), canonical_relations=int(edges["canonical"]),
                          documents=int(edges["documents"]))
