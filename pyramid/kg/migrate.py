"""`polyrag kg migrate WS`: a knowledge graph built with Kùzu (archived upstream) into LadybugDB.

    report = migrate_to_ladybug(layer, progress) -> MigrateReport

Kùzu and LadybugDB cannot be loaded in one process, so a child process reads the Kùzu graph
(`python -m pyramid.kg.embedded_store export kuzu …`) into a JSONL file of triples; this process
writes them into a new LadybugDB graph beside it (a temporary name, renamed into place once written
and closed), sets `kg.backend = "ladybug"` in the workspace's polyrag.toml and records the new store
in the triple index (nothing is embedded again: the triples' texts are unchanged). All under the
workspace's write lock. The Kùzu graph is left where it was; remove it once satisfied. Entities
that no triple uses are not carried over (nothing reads them).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pyramid.config import set_toml_key
from pyramid.errors import Hint, InputError
from pyramid.kg.embedded_store import ENGINES, EmbeddedStore
from pyramid.kg.index import TripleIndex
from pyramid.kg.model import triple_from_json
from pyramid.kg.store import GraphStoreError, chunked
from pyramid.progress import NullProgress, Progress

if TYPE_CHECKING:
    from pyramid.kg.layer import KGLayer

BATCH = 20_000  # triples per upsert (one transaction each)


@dataclass
class MigrateReport:
    source: str
    target: str
    triples: int
    seconds: float


def migrate_to_ladybug(layer: KGLayer, progress: Progress | None = None) -> MigrateReport:
    progress = progress or NullProgress()
    start = time.perf_counter()
    src, dst = layer.dir / ENGINES["kuzu"].file, layer.dir / ENGINES["ladybug"].file
    if not src.exists():
        raise InputError(f"no Kùzu graph at {src}: nothing to migrate")
    if dst.exists():
        raise InputError(f"{dst} exists already: move it aside to migrate {src} again")
    with layer.ws.writing("kg.migrate"):
        layer.close()
        dump = layer.dir / ".migrate-triples.jsonl"
        staged = layer.dir / (".migrating-" + dst.name)
        try:
            _export(src, dump)
            with open(dump, encoding="utf-8") as fh:
                triples = [triple_from_json(line) for line in fh if line.strip()]
            task = progress.task("copying triples into LadybugDB", len(triples))
            store = EmbeddedStore(staged, engine="ladybug")
            try:
                for part in chunked(triples, BATCH):
                    store.upsert([], part)
                    task.advance(len(part))
            finally:
                store.close()
            task.done()
            os.replace(staged, dst)
        finally:
            for leftover in (dump, staged, staged.with_name(staged.name + ".wal")):
                leftover.unlink(missing_ok=True)
        set_toml_key(layer.ws.root / "polyrag.toml", "kg", "backend", "ladybug")
        # the same texts, so nothing is embedded again: only the store the index mirrors is recorded anew
        TripleIndex(layer.dir / "index", layer.embedder, "ladybug").load().sync(triples)
    return MigrateReport(str(src), str(dst), len(triples), round(time.perf_counter() - start, 1))


def _export(src: Path, out: Path) -> None:
    """The Kùzu graph's triples into `out`, read in a child process (see the module docstring)."""
    done = subprocess.run([sys.executable, "-m", "pyramid.kg.embedded_store", "export", "kuzu", str(src), str(out)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        why = " ".join((done.stderr or done.stdout).split())[-300:]
        raise GraphStoreError(f"reading the Kùzu graph at {src} failed, nothing was written: {why}",
                              hint=Hint(action="rebuild_kg"))
