"""The configured graph store: Kùzu (embedded, default) or Neo4j. Kept apart from store.py, which the
backends themselves import, so no module imports one that imports it back."""

from __future__ import annotations

from pathlib import Path

from pyramid.config import KGSettings
from pyramid.kg.store import GraphStore


def make_store(cfg: KGSettings, kg_dir: Path, *, read_only: bool = False) -> GraphStore:
    """The configured backend: Kùzu in `kg_dir` (default) or Neo4j at `cfg.neo4j_uri`."""
    if cfg.backend == "neo4j":
        from pyramid.kg.neo4j_store import Neo4jStore
        return Neo4jStore.from_settings(cfg, read_only=read_only)
    from pyramid.kg.kuzu_store import KuzuStore
    return KuzuStore(kg_dir / "graph.kuzu", read_only=read_only)
