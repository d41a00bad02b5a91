"""OWL/RDFS schemas shipped with PolyRAG (Turtle files)."""
