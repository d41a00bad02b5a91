"""Thin adapters from a workspace's layers to completion's typed inputs and targets.

KG: `KGLayer.store().iter_triples()` → `KGTriple`s (the relation text as extracted; the id, chunk and
document kept for evidence). Ontology: the ontology layer (pyramid.ontology.layer) adapted to the
`OntologyTarget` protocol; until that layer is present in the installation, completion on a
workspace says so instead of guessing.
"""

from __future__ import annotations

from completion.errors import CompletionError
from completion.types import KGTriple


def kg_triples(session) -> list[KGTriple]:
    from completion.condense_ws import require_kg

    require_kg(session)
    return [KGTriple(t.id, t.subject.name, t.relation, t.object.name, t.chunk_id, t.doc_id)
            for t in session.kg.store().iter_triples()]


def ontology_target(session):
    """The workspace's ontology as an `OntologyTarget`."""
    try:
        import pyramid.ontology.layer  # noqa: F401
    except ImportError:
        raise CompletionError("the ontology layer is not available in this installation "
                              "(pyramid.ontology.layer); completion needs it to read and extend the schema") from None
    from completion.ontology_adapter import LayerTarget

    return LayerTarget(session.ontology)
