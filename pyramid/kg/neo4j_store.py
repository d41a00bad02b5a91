"""Neo4j backend through the official `neo4j` driver (bolt:// or neo4j:// URI).

Writes go in batches bounded by the bytes of their parameters (`kg.neo4j_batch_bytes`); reads run
as READ-routed queries. Connection problems become one `GraphStoreError` naming the URI. Tested
in CI against FalkorDB's Bolt server (which ignores the database name and cannot roll back), and
against a real Neo4j when `NEO4J_URI` is set.
"""

from __future__ import annotations

import json
from typing import Any

from pyramid.config import KGSettings
from pyramid.kg.store import CypherStore, GraphStoreError, Q

# Tried in order; the first that the server accepts wins. Neo4j 5 takes the uniqueness constraint;
# FalkorDB refuses it and takes a plain index. Indexes only speed lookups up, so a server refusing
# all of them still works.
SCHEMA_VARIANTS = (
    ("CREATE CONSTRAINT polyrag_entity_id IF NOT EXISTS FOR (e:Entity) REQUIRE e.id IS UNIQUE",
     "CREATE INDEX FOR (e:Entity) ON (e.id)"),
    ("CREATE INDEX polyrag_entity_norm IF NOT EXISTS FOR (e:Entity) ON (e.norm)",
     "CREATE INDEX FOR (e:Entity) ON (e.norm)"),
    ("CREATE INDEX polyrag_rel_id IF NOT EXISTS FOR ()-[r:REL]-() ON (r.id)",
     "CREATE INDEX FOR ()-[r:REL]-() ON (r.id)"),
    ("CREATE INDEX polyrag_rel_doc IF NOT EXISTS FOR ()-[r:REL]-() ON (r.doc_id)",
     "CREATE INDEX FOR ()-[r:REL]-() ON (r.doc_id)"),
)

BOLT_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


def byte_batches(rows: list[dict[str, Any]], max_bytes: int) -> list[list[dict[str, Any]]]:
    """Rows grouped so each group's JSON stays under `max_bytes` (a lone larger row goes alone)."""
    out: list[list[dict[str, Any]]] = []
    cur: list[dict[str, Any]] = []
    size = 0
    for r in rows:
        n = len(json.dumps(r, ensure_ascii=False).encode()) + 1
        if cur and size + n > max_bytes:
            out.append(cur)
            cur, size = [], 0
        cur.append(r)
        size += n
    if cur:
        out.append(cur)
    return out


class Neo4jStore(CypherStore):
    backend = "neo4j"

    def __init__(self, uri: str, user: str, password: str, *, database: str = "", read_only: bool = False,
                 batch_bytes: int = 32768, timeout_s: float = 10.0) -> None:
        import neo4j
        from neo4j.exceptions import (
            AuthError,
            ConfigurationError,
            DriverError,
            Neo4jError,
            ServiceUnavailable,
        )

        self.uri, self.database, self.read_only = uri, database or None, read_only
        self.batch_bytes = batch_bytes
        # Keep each `IN $ids` list well under the byte budget (ids are ~17 bytes).
        self.id_batch = max(10, min(100, batch_bytes // 40))
        self._neo4j = neo4j
        if not uri:
            raise GraphStoreError("kg.backend is 'neo4j' but kg.neo4j_uri is empty "
                                  "(set POLYRAG_KG__NEO4J_URI=bolt://host:7687)")
        if uri.split("://", 1)[0] not in BOLT_SCHEMES:
            # The driver would also take http:// (its preview Query API, needing aiohttp): refused here.
            raise GraphStoreError(f"kg.neo4j_uri {uri!r} is not a usable Neo4j URI: "
                                  f"use one of {', '.join(s + '://' for s in BOLT_SCHEMES)}")
        try:
            self._driver = neo4j.GraphDatabase.driver(uri, auth=(user, password), connection_timeout=timeout_s,
                                                      max_transaction_retry_time=timeout_s)
            self._driver.verify_connectivity()
        except AuthError:
            raise GraphStoreError(f"Neo4j at {uri} refused user '{user}': wrong user or password "
                                  "(kg.neo4j_user, POLYRAG_KG__NEO4J_PASSWORD)") from None
        except (ServiceUnavailable, OSError) as err:
            raise GraphStoreError(f"cannot reach Neo4j at {uri}: {_short(err)}") from None
        except (ConfigurationError, ValueError) as err:
            raise GraphStoreError(f"kg.neo4j_uri {uri!r} is not a usable Neo4j URI: {_short(err)}") from None
        except (Neo4jError, DriverError) as err:
            raise GraphStoreError(f"Neo4j at {uri} refused the connection: {_short(err)}") from None
        if not read_only:
            self._ensure_schema()

    @classmethod
    def from_settings(cls, cfg: KGSettings, *, read_only: bool = False) -> Neo4jStore:
        return cls(cfg.neo4j_uri, cfg.neo4j_user, cfg.neo4j_password.get_secret_value(),
                   database=cfg.neo4j_database, read_only=read_only, batch_bytes=cfg.neo4j_batch_bytes,
                   timeout_s=cfg.neo4j_timeout_s)

    def _ensure_schema(self) -> None:
        from neo4j.exceptions import Neo4jError

        for variants in SCHEMA_VARIANTS:
            for stmt in variants:
                try:
                    self._driver.execute_query(stmt, database_=self.database)
                    break
                except Neo4jError:
                    continue  # not this dialect, or the index exists already

    def _run(self, query: str, params: dict[str, Any] | None = None, *, write: bool = False) -> list[dict]:
        from neo4j.exceptions import DriverError, Neo4jError, ServiceUnavailable

        self._check(query, write)
        routing = self._neo4j.RoutingControl.WRITE if write else self._neo4j.RoutingControl.READ
        try:
            records, _, _ = self._driver.execute_query(query, params or {}, database_=self.database,
                                                       routing_=routing)
        except ServiceUnavailable as err:
            raise GraphStoreError(f"lost the connection to Neo4j at {self.uri}: {_short(err)}") from None
        except (Neo4jError, DriverError) as err:
            raise GraphStoreError(f"Neo4j at {self.uri} failed a query: {_short(err)}") from None
        return [r.data() for r in records]

    def _write(self, entity_rows: list[dict[str, Any]], triple_rows: list[dict[str, Any]]) -> None:
        # Batches in auto-commit queries: FalkorDB (the CI server) cannot roll back, so one
        # transaction would promise what it cannot keep. A rerun of the same upsert repairs a
        # partial one (MERGE on ids).
        for query, rows in ((Q["upsert_entities"], entity_rows), (Q["upsert_triples"], triple_rows)):
            for part in byte_batches(rows, self.batch_bytes):
                self._run(query, {"rows": part}, write=True)

    def close(self) -> None:
        if getattr(self, "_driver", None) is not None:
            self._driver.close()
            self._driver = None


def _short(err: BaseException) -> str:
    text = getattr(err, "message", None) or str(err) or type(err).__name__
    return " ".join(str(text).split())[:300]
