"""What running every layer on every question costs: the baseline of the waterfall's token target.

The PolyRAG paper's code answers each question at every layer; the waterfall stops at the first
layer that answers. `every_layer_tokens` runs each built layer on the question regardless of what
the layers above decided — the ontology layer, the KG layer (sufficiency and answer), the full K²RAG
text path on the KG's triples — and returns the tokens spent, counted cache-blind
(`Usage.cost_tokens`) so that a warm cache cannot flatter either side.
"""

from __future__ import annotations

from pyramid.session import Session
from pyramid.types import Tracer, TripleEvidence


def every_layer_tokens(session: Session, question: str, layers: set[str], options: list[str] | None = None) -> int:
    from querying.answerers import answer_kg
    from querying.k2rag import answer_text_path
    from querying.ontology_qa import answer_ontology

    with session.meter.scope() as usage:
        if "ontology" in layers:
            answer_ontology(session, question, options=options)
        triples: list[TripleEvidence] = []
        if "kg" in layers:
            kg = answer_kg(session, question, options=options)
            triples = [e for e in kg.evidence if isinstance(e, TripleEvidence)]
        if "text" in layers:
            answer_text_path(session.text, session.llm, session.embedder, session.settings.query, question,
                             triples, Tracer(session.meter))
    return usage.cost_tokens
