"""The knowledge-graph layer (K): extracted triples in Kùzu or Neo4j, searched by embedding similarity."""
