"""Kùzu backend: an embedded database in the workspace (`WS/kg/graph.kuzu`), the default.

Edges are bulk-written with `COPY REL FROM` a temporary CSV: measured here, `UNWIND … MATCH …
CREATE` of edges costs ~2 ms per row in Kùzu 0.11 (100k edges: 5 minutes) against ~1 s for 100k
by COPY. An upsert therefore deletes the edges with those ids first, then copies the new rows.
Read-only opens (retrieval) use Kùzu's own read-only mode, so a question can never write.

An upsert is one Kùzu transaction (entities, edge deletions, COPY), so a failure leaves the graph
as it was. Measured on Kùzu 0.11.3: a statement that fails inside a manual transaction rolls the
whole transaction back by itself (a later ROLLBACK finds none), but an explicit ROLLBACK *after a
successful COPY REL* also drops the edges that were there before. So the CSV is written before the
transaction starts, COPY is its last statement, and ROLLBACK is only ever sent before COPY ran.
COPY takes its file as a string literal (Kùzu cannot bind it as a parameter), so the path is
escaped: a workspace under `/home/o'brien/` must not break the statement.
"""

from __future__ import annotations

import csv
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pyramid.errors import Hint
from pyramid.kg.store import CypherStore, GraphStoreError, Q, chunked

SCHEMA = (
    "CREATE NODE TABLE IF NOT EXISTS Entity(id STRING, name STRING, norm STRING, type STRING, PRIMARY KEY(id))",
    "CREATE REL TABLE IF NOT EXISTS REL(FROM Entity TO Entity, id STRING, relation STRING, canonical STRING, "
    "props STRING, chunk_id STRING, doc_id STRING, confidence DOUBLE)",
)
COPY_COLUMNS = ("s", "o", "id", "relation", "canonical", "props", "chunk_id", "doc_id", "confidence")
BUFFER_POOL_BYTES = 512 * 1024 * 1024  # Kùzu's default reserves most of RAM; a KG layer needs far less


def cypher_string(text: str) -> str:
    """A single-quoted Cypher string literal (backslash and quote escaped), for what cannot be a parameter."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


class KuzuStore(CypherStore):
    backend = "kuzu"
    id_batch = 5000  # Kùzu takes large parameters; fewer round trips

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        import kuzu

        self.path = Path(path)
        self.read_only = read_only
        if read_only and not self.path.exists():
            raise GraphStoreError(f"no knowledge graph at {self.path} yet", hint=Hint(action="build_kg"))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = kuzu.Database(str(self.path), read_only=read_only, buffer_pool_size=BUFFER_POOL_BYTES)
            self._conn = kuzu.Connection(self._db)
        except RuntimeError as err:
            raise GraphStoreError(f"cannot open the Kùzu graph at {self.path}: {err} "
                                  "(another process may be writing it)") from None
        if not read_only:
            for stmt in SCHEMA:
                self._conn.execute(stmt)

    def _iter(self, query: str, params: dict[str, Any] | None = None) -> Iterator[dict]:
        result = self._conn.execute(query, params or {})
        names = result.get_column_names()
        while result.has_next():
            yield dict(zip(names, result.get_next()))
        result.close()

    def _run(self, query: str, params: dict[str, Any] | None = None, *, write: bool = False) -> list[dict]:
        self._check(query, write)
        return list(self._iter(query, params))

    def _write(self, entity_rows: list[dict[str, Any]], triple_rows: list[dict[str, Any]]) -> None:
        fd, tmp = tempfile.mkstemp(prefix=".rel-", suffix=".csv", dir=self.path.parent)
        copied = False
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                writer = csv.writer(fh)
                writer.writerow(COPY_COLUMNS)
                for r in triple_rows:
                    writer.writerow([r[c] if r[c] is not None else "" for c in COPY_COLUMNS])
            self._conn.execute("BEGIN TRANSACTION")
            try:
                for part in chunked(entity_rows, 20000):
                    self._run(Q["upsert_entities"], {"rows": list(part)}, write=True)
                if triple_rows:
                    for part in chunked([r["id"] for r in triple_rows], self.id_batch):
                        self._run(Q["delete_triples"], {"ids": list(part)}, write=True)
                    copied = True  # from here on, never ROLLBACK (see the module docstring)
                    # COPY reads "" as NULL: exactly what an absent chunk_id/doc_id should be.
                    self._conn.execute(f"COPY REL FROM {cypher_string(tmp)} (HEADER=true)")
                self._conn.execute("COMMIT")
            except BaseException:
                if not copied:
                    self._rollback()
                raise
        except (RuntimeError, OSError) as err:  # Kùzu's errors (the failed statement took the transaction
            # with it), or the temporary file could not be written (before the transaction began)
            raise GraphStoreError(f"writing {len(triple_rows)} triples to the Kùzu graph at {self.path} failed, "
                                  f"nothing was written: {' '.join(str(err).split())[:300]}") from None
        finally:
            os.unlink(tmp)

    def _rollback(self) -> None:
        try:
            self._conn.execute("ROLLBACK")
        except RuntimeError:
            pass  # the failed statement already rolled the transaction back

    def close(self) -> None:
        if getattr(self, "_conn", None) is not None:
            self._conn.close()
            self._db.close()
            self._conn = None
