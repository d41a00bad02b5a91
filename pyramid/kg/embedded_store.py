"""The embedded graph store: LadybugDB (the default, `WS/kg/graph.lbug`), or Kùzu, which LadybugDB
continues (`WS/kg/graph.kuzu`: read for workspaces built with it; `polyrag kg migrate` converts one).

Kùzu was archived upstream in October 2025 (0.11.3 is its last release); LadybugDB keeps its design,
its Cypher and its Python API, so one class drives both (`engine`). The two cannot be loaded in one
process (their bindings register the same native types), so a process uses one engine, and
`kg migrate` reads the Kùzu graph in a child process (`python -m pyramid.kg.embedded_store export`).

Edges are bulk-written with `COPY REL FROM` a temporary CSV: measured on Kùzu 0.11, `UNWIND … MATCH
… CREATE` of edges costs ~2 ms per row (100k edges: 5 minutes) against ~1 s for 100k by COPY. An
upsert therefore deletes the edges with those ids first, then copies the new rows. Read-only opens
(retrieval) use the engine's own read-only mode, so a question can never write.

An upsert is one transaction (entities, edge deletions, COPY), so a failure leaves the graph as it
was. Measured on Kùzu 0.11.3 and kept for LadybugDB (the contract suite checks it): a statement that
fails inside a manual transaction rolls the whole transaction back by itself (a later ROLLBACK finds
none), but an explicit ROLLBACK *after a successful COPY REL* also drops the edges that were there
before. So the CSV is written before the transaction starts, COPY is its last statement, and
ROLLBACK is only ever sent before COPY ran. COPY takes its file as a string literal (it cannot be a
parameter), so the path is escaped: a workspace under `/home/o'brien/` must not break the statement.
"""

from __future__ import annotations

import csv
import importlib
import os
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
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
BUFFER_POOL_BYTES = 512 * 1024 * 1024  # the engines' default reserves most of RAM; a KG layer needs far less


@dataclass(frozen=True)
class Engine:
    module: str  # the Python package
    title: str   # as messages name it
    file: str    # the database's file in WS/kg/ (its write-ahead log is `<file>.wal`)


ENGINES = {"ladybug": Engine("ladybug", "LadybugDB", "graph.lbug"),
           "kuzu": Engine("kuzu", "Kùzu", "graph.kuzu")}


def cypher_string(text: str) -> str:
    """A single-quoted Cypher string literal (backslash and quote escaped), for what cannot be a parameter."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


class EmbeddedStore(CypherStore):
    id_batch = 5000  # the embedded engines take large parameters; fewer round trips

    def __init__(self, path: Path, *, engine: str = "ladybug", read_only: bool = False) -> None:
        self.engine = ENGINES[engine]
        self.backend = engine
        self.path = Path(path)
        self.read_only = read_only
        if read_only and not self.path.exists():
            raise GraphStoreError(f"no knowledge graph at {self.path} yet", hint=Hint(action="build_kg"))
        db_api = _load(self.engine)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = db_api.Database(str(self.path), read_only=read_only, buffer_pool_size=BUFFER_POOL_BYTES)
            self._conn = db_api.Connection(self._db)
        except RuntimeError as err:
            raise GraphStoreError(f"cannot open the {self.engine.title} graph at {self.path}: {err} "
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
        except (RuntimeError, OSError) as err:  # the engine's errors (the failed statement took the
            # transaction with it), or the temporary file could not be written (before the transaction began)
            raise GraphStoreError(f"writing {len(triple_rows)} triples to the {self.engine.title} graph at "
                                  f"{self.path} failed, nothing was written: {' '.join(str(err).split())[:300]}"
                                  ) from None
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


def _load(engine: Engine):
    """The engine's package; one that cannot load next to the other one loaded says so."""
    other = [e for e in ENGINES.values() if e != engine and e.module in sys.modules]
    if other:
        raise GraphStoreError(f"{engine.title} cannot be opened in a process that has opened {other[0].title} "
                              "(their native bindings clash); open it in another process")
    try:
        return importlib.import_module(engine.module)
    except ImportError as err:
        raise GraphStoreError(f"{engine.title} is not installed ({err}); install the `{engine.module}` package") \
            from None


def export_lines(path: Path, engine: str) -> Iterator[str]:
    """Every triple of the graph at `path` as `triple_to_json` lines (what `kg migrate` carries over)."""
    from pyramid.kg.model import triple_to_json

    store = EmbeddedStore(path, engine=engine, read_only=True)
    try:
        for t in store.iter_triples():
            yield triple_to_json(t)
    finally:
        store.close()


def main(argv: list[str]) -> int:
    """`python -m pyramid.kg.embedded_store export ENGINE GRAPH OUT`: the child process of `kg migrate`."""
    if len(argv) != 4 or argv[0] != "export" or argv[1] not in ENGINES:
        print("usage: python -m pyramid.kg.embedded_store export ladybug|kuzu GRAPH OUT", file=sys.stderr)
        return 2
    try:
        with open(argv[3], "w", encoding="utf-8") as fh:
            fh.writelines(line + "\n" for line in export_lines(Path(argv[2]), argv[1]))
    except GraphStoreError as err:
        print(str(err), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
