"""The configured graph store: LadybugDB (embedded, default), Kùzu (embedded, read for workspaces built
with it) or Neo4j. Kept apart from store.py, which the backends themselves import, so no module imports
one that imports it back."""

from __future__ import annotations

from pathlib import Path

from pyramid.config import KGSettings
from pyramid.errors import Hint
from pyramid.kg.store import GraphStore, GraphStoreError


def make_store(cfg: KGSettings, kg_dir: Path, *, read_only: bool = False) -> GraphStore:
    """The configured backend: an embedded engine's graph in `kg_dir`, or Neo4j at `cfg.neo4j_uri`."""
    if cfg.backend == "neo4j":
        from pyramid.kg.neo4j_store import Neo4jStore
        return Neo4jStore.from_settings(cfg, read_only=read_only)
    from pyramid.kg.embedded_store import ENGINES, EmbeddedStore

    path = kg_dir / ENGINES[cfg.backend].file
    old = kg_dir / ENGINES["kuzu"].file
    if cfg.backend == "ladybug" and not path.exists() and old.exists():
        # never a new, empty graph beside the one the workspace was built with
        raise GraphStoreError(f"the knowledge graph of {kg_dir.parent} was built with Kùzu ({old}), which is "
                              "archived upstream; it can be converted to LadybugDB, or read as it is with "
                              'kg.backend = "kuzu"', hint=Hint(action="migrate_kg", target=str(kg_dir.parent)))
    return EmbeddedStore(path, engine=cfg.backend, read_only=read_only)
