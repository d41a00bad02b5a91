"""The ontology layer's answerer (Query_onto): question → plan or raw SPARQL → safe run → Answer.

    plan mode (default): link entities, draft a QueryPlan (querying/onto_planner.py), compile it
                         (querying/sparql_plan.py) — the model only settles what the wording leaves open
    raw mode:            the model writes SPARQL from the schema; every IRI is checked and one repair
                         is allowed (querying/sparql_raw.py)

Both run through the layer's read-only, time-limited, row-capped `select`. The layer answers when
the query returns rows and no more distinct answers than `ontology.max_rows`; with MCQ/MAQ options,
when the rows support at least one option (`selected`). Otherwise the Answer has layer "none" and
keeps its trace and evidence for the next layer.
"""

from __future__ import annotations

import time
import weakref
from dataclasses import dataclass
from typing import Literal

from pyramid.errors import PolyragError
from pyramid.llm import LLMError
from pyramid.ontology.labels import LabelIndex, Link
from pyramid.ontology.rdfio import text_rows
from pyramid.ontology.vocab import Vocab
from pyramid.session import Session
from pyramid.types import Answer, SparqlEvidence, Tracer, check_question
from querying.onto_planner import Planner, TermVectors
from querying.options import Value, select_options
from querying.sparql_plan import QueryPlan, compile_plan

Mode = Literal["plan", "raw"]
LABELS_CACHE = "ontology-labels.json"


# ------------------------------------------------------------------ per-session context
@dataclass
class OntologyContext:
    """What answering needs from the layer, built once per session: the vocabulary, the label
    index (persisted in the workspace cache, keyed by the layer's build steps) and the term vectors."""

    vocab: Vocab
    index: LabelIndex
    vectors: TermVectors

    def planner(self, session: Session) -> Planner:
        return Planner(self.vocab, self.index, self.vectors, session.llm)


_contexts: weakref.WeakKeyDictionary[Session, OntologyContext] = weakref.WeakKeyDictionary()


def select_fn(session: Session):
    """SELECT through the layer's safe path (the read-only check, the query process, timeout, row cap)."""
    cfg = session.settings.ontology

    def run(query: str) -> list[dict[str, str]]:
        return text_rows(session.ontology.select(query, timeout_s=cfg.timeout_s, row_cap=cfg.row_cap))
    return run


def context(session: Session) -> OntologyContext:
    """Built once per session and again whenever the store changes (its registry generation)."""
    layer = session.ontology
    fp = layer.store.generation
    ctx = _contexts.get(session)
    if ctx is None or ctx.index.fingerprint != fp:
        vocab = Vocab.from_schema(layer.schema)
        path = session.ws.path("cache", LABELS_CACHE)
        index = LabelIndex.load(path, fp)
        if index is None:
            index = LabelIndex.from_select(layer.select_trusted, fingerprint=fp)
            path.parent.mkdir(parents=True, exist_ok=True)
            index.save(path)  # a cache file: written atomically, no workspace lock needed
        ctx = OntologyContext(vocab, index, TermVectors(vocab, session.embedder))
        _contexts[session] = ctx
    return ctx


# ------------------------------------------------------------------ answering
def answer_ontology(session: Session, question: str, *, options: list[str] | None = None,
                    mode: Mode = "plan") -> Answer:
    """Answer from the ontology layer; layer "none" when it cannot (see the module docstring)."""
    question = check_question(question)
    if mode not in ("plan", "raw"):
        raise PolyragError(f"unknown SPARQL mode '{mode}' (choose plan or raw)")
    start = time.perf_counter()
    tracer = Tracer(session.meter)
    max_rows = session.settings.ontology.max_rows

    def finish(text: str, answered: bool, evidence: list[SparqlEvidence], selected: list[int] | None) -> Answer:
        return Answer(question=question, text=text, layer="ontology" if answered else "none",
                      pipeline=f"ontology-{mode}", selected=selected if answered else None, evidence=evidence,
                      trace=tracer.steps, usage=tracer.total(), ms=round((time.perf_counter() - start) * 1000, 1))

    with tracer.step("ontology.context", "ontology") as rec:
        ctx = context(session)
        rec.outcome = f"{len(ctx.vocab.classes)} classes, {len(ctx.vocab.properties)} properties, " \
                      f"{len(ctx.index)} labelled instances"
    option_links = [ctx.index.link(o) for o in options] if options else []

    plan: QueryPlan | None = None
    if mode == "plan":
        with tracer.step("ontology.plan", "ontology", options=len(options or [])) as rec:
            try:
                draft = ctx.planner(session).draft(question, options)
            except LLMError as err:
                rec.outcome = f"error: {err}"
                return finish(f"The ontology layer could not plan this question ({err}).", False, [], None)
            rec.input.update(draft.trace())
            plan = draft.plan
            rec.outcome = "planned" if plan else f"no plan: {draft.reason}"
        if plan is None:
            return finish(f"The ontology layer has no query for this question: {draft.reason}.", False, [], None)
        with tracer.step("ontology.compile", "ontology") as rec:
            query = compile_plan(plan, ctx.vocab, limit=session.settings.ontology.row_cap)
            rec.outcome = f"{len(query.splitlines())} lines of SPARQL"
    else:
        from querying.sparql_raw import write_query

        with tracer.step("ontology.raw", "ontology") as rec:
            try:
                layer = session.ontology
                raw = write_query(session.llm, question, ctx.vocab, ctx.index, select_fn(session),
                                  known_prefixes=layer.prefixes, namespace=layer.schema.namespace)
            except LLMError as err:
                rec.outcome = f"error: {err}"
                return finish(f"The ontology layer could not write a query ({err}).", False, [], None)
            rec.input.update({"attempts": raw.attempts, "errors": raw.errors})
            rec.outcome = "valid query" if raw.query else f"no valid query: {'; '.join(raw.errors)[:200]}"
        if not raw.query:
            return finish("The model's SPARQL did not fit the ontology: " + "; ".join(raw.errors), False, [], None)
        query = raw.query

    with tracer.step("ontology.run", "ontology") as rec:
        try:
            rows = select_fn(session)(query)
        except PolyragError as err:
            rec.outcome = f"error: {err}"
            evidence = [SparqlEvidence(plan=_plan_dict(plan), query=query)]
            return finish(f"The ontology query failed: {err}", False, evidence, None)
        rec.outcome = f"{len(rows)} rows"
    evidence = [SparqlEvidence(plan=_plan_dict(plan), query=query, rows=rows[:max_rows * 5])]
    return _decide(question, rows, plan, options, option_links, max_rows, tracer, finish, evidence)


def _plan_dict(plan: QueryPlan | None) -> dict | None:
    return plan.model_dump() if plan is not None else None


def _decide(question: str, rows: list[dict[str, str]], plan: QueryPlan | None, options: list[str] | None,
            option_links: list[list[Link]], max_rows: int, tracer: Tracer, finish, evidence) -> Answer:
    # The Answer is built after the step closes, so the trace it copies includes this step.
    with tracer.step("ontology.decide", "ontology", max_rows=max_rows) as rec:
        text, answered, selected = _verdict(rows, plan, options, option_links, max_rows)
        rec.outcome = text if not answered else \
            f"answered: {text[:80]}" + (f" (options {selected})" if selected is not None else "")
        if answered:
            text = _answer_text(_group(rows), options, selected) if not (plan and plan.count) else text
    return finish(text if answered else _EXPLAIN.get(text.split(":")[0], text), answered, evidence, selected)


_EXPLAIN = {"empty": "The ontology has no answer to this question.",
            "too broad": "The ontology query matched too many answers to be one; not answered here.",
            "no option": "The ontology's answers match none of the options."}


def _verdict(rows: list[dict[str, str]], plan: QueryPlan | None, options: list[str] | None,
             option_links: list[list[Link]], max_rows: int) -> tuple[str, bool, list[int] | None]:
    """(outcome, answered, selected options) from the rows and the `ontology.max_rows` rule."""
    if not rows or all(not r for r in rows):
        return "empty: not answered here", False, None
    if plan is not None and plan.count:
        return next(iter(rows[0].values()), "0"), True, None
    answers = _group(rows)
    if len(answers) > max_rows:
        return f"too broad: {len(answers)} answers > {max_rows}", False, None
    if not options:
        return f"{len(answers)} answers", True, None
    values = [Value(text, iri) for iri, (labels, vals) in answers.items() for text in labels + vals] + \
             [Value(iri, iri) for iri in answers]
    ids = [{lk.iri for lk in links} for links in option_links]
    selected = select_options(options, values, option_ids=ids, allow_none=True)
    if not selected:
        return f"no option: {len(answers)} answers, none of them among the options", False, None
    return f"{len(answers)} answers", True, selected


def _group(rows: list[dict[str, str]]) -> dict[str, tuple[list[str], list[str]]]:
    """Distinct answers (?x, else the first column) → (their labels, their other values)."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    for r in rows:
        key = r.get("x") or next(iter(r.values()))
        labels, values = out.setdefault(key, ([], []))
        for var, v in r.items():
            bucket = labels if var == "x_label" else values if var != "x" else None
            if bucket is not None and v not in bucket:
                bucket.append(v)
    return out


def _answer_text(answers: dict[str, tuple[list[str], list[str]]], options: list[str] | None,
                 selected: list[int] | None) -> str:
    """What was found, one answer per item: 'label: value; value' (the IRI when there is no label)."""
    items = []
    for iri, (labels, values) in answers.items():
        name = labels[0] if labels else iri
        items.append(f"{name}: {'; '.join(values)}" if values else name)
    text = " | ".join(items)
    if options and selected:
        text += " — options supported: " + "; ".join(f"{i}. {options[i]}" for i in selected)
    return text
