"""The waterfall (PolyRAG Algorithm 1): ontology → knowledge graph → text, first layer that answers.

- Ontology: answered when the query returns rows and not more than `ontology.max_rows`.
- KG: top-k triples and the sufficiency check; when insufficient its triples still feed the text path.
- Text: the K²RAG path (`querying.k2rag`), or the hybrid naive path when the KG found nothing.

Layers can be switched off (`layers=`), which gives the paper's ablations (O, K, T, O+T, K+T, O+K,
all). A layer that is not built is skipped, and one that fails (LLM error, timeout, unreachable
store) is recorded in the trace; either way the question goes on to the next layer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from pyramid.session import Session
from pyramid.types import Answer, TraceStep, Tracer, TripleEvidence, check_question

ORDER = ("ontology", "kg", "text")
Answerer = Callable[..., Answer]


def built_layers(session: Session) -> set[str]:
    """Layers the workspace has content for, from the manifest's per-layer counts."""
    layers = session.ws.manifest().get("layers", {})
    return {name for name, counts in layers.items() if any(isinstance(v, int) and v > 0 for v in counts.values())}


def _default_answerer(layer: str) -> Answerer:
    if layer == "ontology":
        from querying.ontology_qa import answer_ontology
        return answer_ontology
    from querying.kg_qa import answer_kg
    return answer_kg


def answer_waterfall(session: Session, question: str, *, layers: Sequence[str] | None = None,
                     options: list[str] | None = None, mindful: bool = False, sparql_mode: str = "plan",
                     answerers: dict[str, Answerer] | None = None) -> Answer:
    question = check_question(question)
    enabled = [layer for layer in ORDER if layer in (layers or session.settings.query.layers)]
    start = time.perf_counter()
    steps: list[TraceStep] = []
    kg_evidence: list[TripleEvidence] = []
    present = built_layers(session)
    calls = dict(answerers or {})

    with session.meter.scope() as total:
        for layer in ("ontology", "kg"):
            if layer not in enabled:
                continue
            if layer not in present:
                steps.append(TraceStep(step=f"{layer}.skip", layer=layer, outcome="layer not built in this workspace"))
                continue
            t0 = time.perf_counter()
            try:
                kwargs = {"options": options}
                kwargs.update({"mode": sparql_mode} if layer == "ontology" else {"mindful": mindful})
                ans = (calls.get(layer) or _default_answerer(layer))(session, question, **kwargs)
            except Exception as err:  # noqa: BLE001 — any failure of one layer hands over to the next
                steps.append(TraceStep(step=f"{layer}.error", layer=layer, ms=round((time.perf_counter() - t0) * 1e3, 2),
                                       outcome=f"error: {type(err).__name__}: {err}"))
                continue
            steps.extend(ans.trace)
            if layer == "kg":
                kg_evidence = [e for e in ans.evidence if isinstance(e, TripleEvidence)]
            if ans.layer != "none":
                return ans.model_copy(update={"trace": steps, "usage": total.model_copy(), "pipeline": "waterfall",
                                              "ms": round((time.perf_counter() - start) * 1000, 1)})
        if "text" in enabled and "text" in present:
            from querying.k2rag import answer_text_path

            tracer = Tracer(session.meter)
            text, chunk_ev = answer_text_path(session, question, kg_evidence, tracer)
            steps.extend(tracer.steps)
            selected = _select(options, text, [e.text for e in chunk_ev]) if options else None
            return Answer(question=question, text=text, layer="text", pipeline="waterfall", selected=selected,
                          evidence=[*kg_evidence, *chunk_ev], trace=steps, usage=total.model_copy(),
                          ms=round((time.perf_counter() - start) * 1000, 1))
        if "text" in enabled:
            steps.append(TraceStep(step="text.skip", layer="text", outcome="layer not built in this workspace"))
    missing = [layer for layer in enabled if layer not in present]
    note = f" (not built here: {', '.join(missing)})" if missing else ""
    return Answer(question=question, text=f"No layer could answer this question{note}.", layer="none",
                  pipeline="waterfall", evidence=list(kg_evidence), trace=steps, usage=total.model_copy(),
                  ms=round((time.perf_counter() - start) * 1000, 1))


def _select(options: list[str], answer: str, evidence: list[str]) -> list[int]:
    """The options the text layer's answer supports; if it names none, those of the best chunk. Not
    every retrieved chunk: ten chunks mention nearly every option of a question about them."""
    from querying.options import select_options  # shared option matcher

    return select_options(options, [answer]) or select_options(options, evidence[:1])
