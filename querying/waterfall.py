"""The waterfall (PolyRAG Algorithm 1): ontology → knowledge graph → text, first layer that answers.

- Ontology: answered when the query returns rows and not more than `ontology.max_rows`.
- KG: top-k triples and the sufficiency check; when insufficient its triples still feed the text path
  (the typed `Handover`).
- Text: the K²RAG path (`querying.k2rag`), or the hybrid naive path when the KG found nothing.

Layers can be switched off (`layers=`), which gives the paper's ablations (O, K, T, O+T, K+T, O+K,
all). A layer that is not built is skipped. A layer that fails with one of the project's errors (a
model error, a store that does not answer, a query timeout: `PolyragError`) is recorded in the trace
and the question goes on to the next layer; any other exception is a bug and is raised.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from pyramid.errors import PolyragError
from pyramid.session import Session
from pyramid.types import Answer, Handover, LayerName, TraceStep, TripleEvidence, check_question
from pyramid.usage import UsageMeter
from querying.answerers import Answerer, AskOptions, answerers


def built_layers(session: Session) -> set[str]:
    """Layers the workspace has content for, from the manifest's per-layer counts."""
    layers = session.ws.manifest().get("layers", {})
    return {name for name, counts in layers.items() if any(isinstance(v, int) and v > 0 for v in counts.values())}


def run_waterfall(question: str, chain: Sequence[Answerer], *, present: set[str], meter: UsageMeter,
                  options: list[str] | None = None) -> Answer:
    """Ask each answerer of `chain` in turn (a checked question); the first that answers wins."""
    start = time.perf_counter()
    steps: list[TraceStep] = []
    handover = Handover()

    def ms() -> float:
        return round((time.perf_counter() - start) * 1000, 1)

    with meter.scope() as total:
        for answerer in chain:
            layer = answerer.name
            if layer not in present:
                steps.append(TraceStep(step=f"{layer}.skip", layer=layer, outcome="layer not built in this workspace"))
                continue
            t0 = time.perf_counter()
            try:
                ans = answerer.answer(question, handover, options=options)
            except PolyragError as err:  # the project's errors only: a bug is not a reason to pass the question on
                steps.append(TraceStep(step=f"{layer}.error", layer=layer, ms=round((time.perf_counter() - t0) * 1e3, 2),
                                       outcome=f"error: {type(err).__name__}: {err}"))
                continue
            steps.extend(ans.trace)
            if layer == "kg":
                handover = Handover(triples=[e for e in ans.evidence if isinstance(e, TripleEvidence)])
            if ans.layer != "none":
                return ans.model_copy(update={"trace": steps, "usage": total.model_copy(), "pipeline": "waterfall",
                                              "ms": ms()})
    missing = [a.name for a in chain if a.name not in present]
    failed = [f"{st.layer} failed: {st.outcome.split(': ', 2)[-1]}" for st in steps if st.step.endswith(".error")]
    note = "; ".join(([f"not built here: {', '.join(missing)}"] if missing else []) + failed)
    note = f" ({note})" if note else ""
    return Answer(question=question, text=f"No layer could answer this question{note}.", layer="none",
                  pipeline="waterfall", evidence=list(handover.triples), trace=steps, usage=total.model_copy(),
                  ms=ms())


def answer_waterfall(session: Session, question: str, *, layers: Sequence[LayerName] | None = None,
                     options: list[str] | None = None, mindful: bool = False, sparql_mode: str | None = None,
                     chain: Sequence[Answerer] | None = None) -> Answer:
    """The waterfall over the session's layers (`layers`, default query.layers); `chain` replaces
    the registry's answerers (tests)."""
    question = check_question(question)
    names = list(layers or session.settings.query.layers)
    chain = chain if chain is not None else answerers(session, names, AskOptions(sparql_mode=sparql_mode,
                                                                                 mindful=mindful))
    return run_waterfall(question, chain, present=built_layers(session), meter=session.meter, options=options)
