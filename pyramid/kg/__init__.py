"""The knowledge-graph layer (K): extracted triples in Kùzu or Neo4j, searched by embedding similarity.

    model.py      Entity, Triple, RelationCount, StoreStats; normalised names and deterministic ids
    store.py      GraphStore protocol + the portable Cypher both backends run
    kuzu_store.py / neo4j_store.py   the two backends; backends.py picks the configured one
    extract.py    f_kg: the f_par → f_ent → f_rel → f_dis cascade, or one call per chunk
    resolve.py    entity resolution (normalisation, then embedding similarity, types respected)
    journal.py    per-chunk extraction journal (resumable builds)
    importer.py   JSON / JSONL / CSV triple files
    index.py      Emb_kg: triple vectors, top-k cosine, incremental sync from the store
    layer.py      KGLayer: build, import, search, stats (the pyramid.layers.Layer protocol)
"""
