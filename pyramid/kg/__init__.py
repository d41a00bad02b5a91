"""The knowledge-graph layer (K): extracted triples in LadybugDB or Neo4j, searched by embedding similarity.

    model.py      Entity, Triple, RawTriple, Sourced, RelationCount, StoreStats; names and deterministic ids
    store.py      GraphStore protocol + the portable Cypher both backends run
    embedded_store.py / neo4j_store.py   the backends (LadybugDB, and Kùzu for old workspaces; Neo4j);
                  backends.py picks the configured one; migrate.py converts a Kùzu graph to LadybugDB
    extractors/   f_kg strategies, one module each (cascade, single, rules, grounded, read), registered
                  by name (kg.mode) like plug-ins; the chunk journal they share is pyramid/chunk_journal.py
    resolve.py    entity resolution (normalisation, then embedding similarity, types respected)
    importer.py   JSON / JSONL / CSV triple files
    index.py      Emb_kg: triple vectors, top-k cosine, incremental sync from the store
    layer.py      KGLayer: build, import, search, stats (the pyramid.layers.Layer protocol)
"""
