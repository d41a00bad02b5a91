"""The ontology layer (O): OWL/RDFS schema + instances in an on-disk Oxigraph store, queried with SPARQL."""
