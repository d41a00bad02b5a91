"""`ask`: route a question to the waterfall (default), one layer, or one naive text pipeline.

The question is checked here, once; the answerers (querying.answerers) take it as it is. Layer
answerers share one contract: they return an `Answer`; `layer` is the answering layer when it
answered, and "none" when it did not (its trace and any evidence it found are still there).
"""

from __future__ import annotations

import time

from pyramid.errors import Hint, InputError, PolyragError
from pyramid.session import Session
from pyramid.types import Answer, LayerName, TraceStep, check_question
from querying.answerers import AskOptions, answerers


def check_options(options: list[str] | None) -> list[str] | None:
    if not options:
        return None
    options = [o.strip() for o in options]
    if len(options) < 2:
        raise InputError(f"an options list needs at least two options (got {len(options)}); without options "
                         "the answer is free")
    if any(not o for o in options):
        raise InputError("an option is empty")
    return options


def ask(session: Session, question: str, *, layer: LayerName | None = None, pipeline: str | None = None,
        layers: list[LayerName] | None = None, options: list[str] | None = None, mindful: bool = False,
        sparql_mode: str | None = None, k: int | None = None) -> Answer:
    """One layer's answerer (`layer`), one naive text pipeline (`pipeline`, K²RAG's baselines), or else the
    waterfall over `layers`."""
    question = check_question(question)
    opts = check_options(options)
    how = AskOptions(sparql_mode=sparql_mode, mindful=mindful, k=k)
    if layer is None and pipeline is None:
        from querying.waterfall import built_layers, run_waterfall

        chain = answerers(session, layers or session.settings.query.layers, how)
        return run_waterfall(question, chain, present=built_layers(session), meter=session.meter, options=opts)
    from querying.naive import PIPELINE_LAMBDA, answer_naive
    if pipeline is not None and pipeline not in PIPELINE_LAMBDA:
        raise InputError(f"unknown pipeline '{pipeline}'", hint=Hint(param="pipeline", values=", ".join(PIPELINE_LAMBDA)))
    who: LayerName = layer or "text"
    start = time.perf_counter()
    with session.meter.scope() as used:
        try:
            if pipeline is None:
                return answerers(session, [who], how)[0].answer(question, options=opts)
            return answer_naive(question, session.text, session.llm, pipeline, k)  # type: ignore[arg-type]
        except PolyragError as err:  # as in the waterfall: the layer's failure is the answer's trace, not a crash
            if err.hint is not None:  # the user can act on it (build this, sync that): the error itself says how
                raise
            ms = round((time.perf_counter() - start) * 1000, 1)
            return Answer(question=question, text=f"No layer could answer this question ({who} failed: {err}).",
                          layer="none", pipeline=pipeline or who, usage=used.model_copy(), ms=ms,
                          trace=[TraceStep(step=f"{who}.error", layer=who, ms=ms,
                                           outcome=f"error: {type(err).__name__}: {err}")])
