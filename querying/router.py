"""`ask`: route a question to the waterfall (default), one layer, or one naive text pipeline.

Layer answerers share one contract: they return an `Answer`; `layer` is the answering layer when
it answered, and "none" when it did not (its trace and any evidence it found are still there, so
the next layer can use them).
"""

from __future__ import annotations

from typing import Literal

from pyramid.errors import InputError
from pyramid.session import Session
from pyramid.types import Answer, check_question

LayerChoice = Literal["ontology", "kg", "text"]


def check_options(options: list[str] | None) -> list[str] | None:
    if not options:
        return None
    options = [o.strip() for o in options]
    if len(options) < 2:
        raise InputError(f"an options list needs at least two options (got {len(options)}); "
                         "ask without --options for a free answer")
    if any(not o for o in options):
        raise InputError("an option is empty")
    return options


def ask(session: Session, question: str, *, layer: LayerChoice | None = None, pipeline: str | None = None,
        layers: list[str] | None = None, options: list[str] | None = None, mindful: bool = False,
        sparql_mode: str = "plan", k: int | None = None) -> Answer:
    """One layer (`layer`), one naive text pipeline (`pipeline`), or else the waterfall over `layers`."""
    question = check_question(question)
    opts = check_options(options)
    if layer is None and pipeline is None:
        from querying.waterfall import answer_waterfall
        return answer_waterfall(session, question, layers=layers, options=opts, mindful=mindful,
                                sparql_mode=sparql_mode)
    if layer == "ontology":
        from querying.ontology_qa import answer_ontology
        return answer_ontology(session, question, options=opts, mode=sparql_mode)  # type: ignore[arg-type]
    if layer == "kg":
        from querying.kg_qa import answer_kg
        return answer_kg(session, question, options=opts, mindful=mindful, k=k)
    from querying.naive import PIPELINE_LAMBDA, answer_naive
    pipeline = pipeline or "hybrid"
    if pipeline not in PIPELINE_LAMBDA:
        raise InputError(f"unknown pipeline '{pipeline}' (choose {', '.join(PIPELINE_LAMBDA)})")
    return answer_naive(question, session.text, session.llm, pipeline, k)  # type: ignore[arg-type]
