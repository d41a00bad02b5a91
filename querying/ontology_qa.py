"""The ontology layer's answerer (Query_onto): question → plan or raw SPARQL → safe run → Answer.

    plan mode (default): link what the question names, enumerate and score the readings the schema
                         allows (querying/planning/), compile the best one (querying/sparql_plan.py);
                         the model only picks among readings too close to call
    raw mode:            the model writes SPARQL from the schema; every IRI is checked and one repair
                         is allowed (querying/sparql_raw.py)

Both run through the layer's read-only, time-limited, row-capped `select`. The layer answers when
the query returns rows and no more distinct answers than `ontology.max_rows`; with MCQ/MAQ options,
when the rows support at least one option (`selected`). Otherwise the Answer has layer "none" and
keeps its trace and evidence for the next layer.
"""

from __future__ import annotations

import re
import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pyramid.config import OntologySettings
from pyramid.embeddings import Embedder
from pyramid.errors import Hint, InputError, PolyragError, QueryTimeout, WorkspaceError
from pyramid.llm import LLM, LLMError
from pyramid.ontology.labels import LabelLink
from pyramid.ontology.layer import OntologyLayer
from pyramid.ontology.rdfio import text_rows
from pyramid.ontology.store import DOCUMENT_GRAPH
from pyramid.reading.terms import shape_named
from pyramid.session import Session
from pyramid.types import Answer, Handover, LayerName, SparqlEvidence, Tracer, TraceStep, check_question
from pyramid.usage import UsageMeter
from querying.ontology_context import RDF_TYPE, OntologyContext, contexts
from querying.options import Value, select_options
from querying.planning.planner import ReadingPlanner
from querying.planning.polar import polar
from querying.planning.records import MAX_ANCHOR_IRIS, Neighbourhood, PlanDraft
from querying.shapes import ADDRESS_SHAPES, SHAPE_NAMES, asked_shape, holds_shape
from querying.sparql_plan import QueryPlan, compile_plan, first_ordered

if TYPE_CHECKING:
    from querying.sparql_raw import RawResult

Mode = Literal["plan", "raw", "auto"]
SHOWN = 50  # answers written out in an answer's text; all of them are in its evidence rows
EVIDENCE_ROWS = 5  # rows kept in an answer's evidence per answer `ontology.max_rows` allows
TRACE_ERRORS = 200  # characters of the raw query's errors in the trace
TRACE_ANSWER = 80  # characters of the answer in the decide step's outcome
STALE = " (the last generation's names: the store's new ones are being indexed)"
MODEL_MARGIN = 0.03  # `ontology.reading_margin` when unset and the model is not the tiny default


class OntologyAnswerer:
    """The ontology layer's answerer (querying.answerers.Answerer): plan or raw SPARQL, safe run, decide."""

    name: LayerName = "ontology"

    def __init__(self, layer: OntologyLayer, llm: LLM, embedder: Embedder, cfg: OntologySettings,
                 meter: UsageMeter, cache_dir: Path, *, mode: Mode = "plan", background: bool = False) -> None:
        if mode not in ("plan", "raw", "auto"):
            raise InputError(f"unknown SPARQL mode '{mode}'", hint=Hint(param="sparql", values="plan, raw or auto"))
        self.layer, self.llm, self.embedder, self.cfg = layer, llm, embedder, cfg
        self.meter, self.cache_dir, self.mode = meter, cache_dir, mode
        self.background = background  # a server's: a new generation's indexes are built beside the requests

    @classmethod
    def from_session(cls, session: Session, *, mode: Mode = "plan") -> OntologyAnswerer:
        return cls(session.ontology, session.llm, session.embedder, session.settings.ontology, session.meter,
                   session.ws.path("cache"), mode=mode, background=session.serving)

    def _read_from_pages(self) -> bool:
        """The layer's instances were read from documents (graphs "doc:…"), not imported as a whole."""
        return any(name.startswith(DOCUMENT_GRAPH) for name in self.layer.store.graphs())

    def select(self, query: str, *, distinct: bool = False) -> list[dict[str, str]]:
        """SELECT through the layer's safe path (the read-only check, the query process, timeout, row cap);
        `distinct`: our own query, which removes repeated rows itself (no set copy of the graphs)."""
        return text_rows(self.layer.select(query, timeout_s=self.cfg.timeout_s, row_cap=self.cfg.row_cap,
                                           distinct=distinct, lane="question"))

    def uses(self, iris) -> Neighbourhood | None:
        """What the data joins these instances to (planning.records.Neighbourhood): their attributes and
        neighbours by one query through the safe path (the timeout bounds a hub; on a timeout the
        readings fall back to the schema's paths), the second step from the context's class links."""
        values = "VALUES ?a { " + " ".join(f"<{i}>" for i in list(iris)[:MAX_ANCHOR_IRIS]) + " }"
        try:
            # the anchors inside every branch: a branch is evaluated on its own, and one without them scans
            query = (f"SELECT DISTINCT ?p ?w ?c WHERE {{ "
                     f"{{ {values} ?a ?p ?o FILTER(isLiteral(?o)) BIND(\"attr\" AS ?w) }} UNION "
                     f"{{ {values} ?a ?p ?m FILTER(isIRI(?m) && ?p != <{RDF_TYPE}>) ?m a ?c BIND(\"out\" AS ?w) }} UNION "
                     f"{{ {values} ?m ?p ?a FILTER(?p != <{RDF_TYPE}>) ?m a ?c BIND(\"in\" AS ?w) }} }}")
            rows = self.select(query, distinct=True)
        except (QueryTimeout, WorkspaceError):  # a hub too costly to list: the schema's paths serve; a refusal is raised
            return None
        links = self.context().links
        one = frozenset((r["p"], r["w"], r["c"]) for r in rows if r["w"] != "attr")
        two = frozenset((p, w, mid, q, v, c) for p, w, mid in one for q, v, c in links.get(mid, ()))
        return Neighbourhood(frozenset(r["p"] for r in rows if r["w"] == "attr"), one, two)

    def _raw_first(self) -> bool:
        """`auto`: the model writes the query first, unless it is the tiny default model."""
        from pyramid.summarise import is_tiny_default

        return self.mode == "auto" and not is_tiny_default(self.llm)

    def margin(self) -> float:
        """`ontology.reading_margin`, or by the model when unset (see its description)."""
        if self.cfg.reading_margin is not None:
            return self.cfg.reading_margin
        from pyramid.summarise import is_tiny_default

        return 0.0 if is_tiny_default(self.llm) else MODEL_MARGIN

    def compile(self, plan: QueryPlan, ctx: OntologyContext) -> str:
        return compile_plan(plan, ctx.vocab, limit=self.cfg.row_cap)

    def context(self) -> OntologyContext:
        """The indexes of the store's current generation (querying.ontology_context), or, while a server
        rebuilds them in the background after a write, the last generation's."""
        return contexts.get(self.layer, self.cache_dir, background=self.background)

    def answer(self, question: str, handover: Handover | None = None, *,
               options: list[str] | None = None) -> Answer:
        """Answer from the ontology layer; layer "none" when it cannot (see the module docstring)."""
        tracer = Tracer(self.meter)
        finish = partial(self._finish, question, tracer, time.perf_counter())
        with tracer.step("ontology.context", "ontology") as rec:
            ctx = self.context()
            rec.outcome = f"{len(ctx.vocab.classes)} classes, {len(ctx.vocab.properties)} properties, " \
                          f"{len(ctx.index)} labelled instances" + (STALE if ctx.stale else "")
        option_links = [ctx.index.link(o) for o in options] if options else []

        draft: PlanDraft | None = None
        if self._raw_first():
            raw, failed = self._raw(question, ctx, tracer)
            if failed is None and raw is not None and raw.query and raw.rows:
                return self._run(question, options, option_links, None, raw.rows, raw.query, None, ctx, tracer, finish)
            # auto: the model's query failed, did not fit the schema or found nothing; the plan answers
            tracer.steps.append(TraceStep(step="ontology.fallback", layer="ontology",
                                          outcome="the model's query gave no rows; planned by method"))
        if self.mode in ("plan", "auto"):
            draft, failed = self._plan(question, options, ctx, tracer)
            if failed is not None:  # after the step closed, so the trace holds it
                return finish(f"The ontology layer could not plan this question ({failed}).", False, [], None, failed)
            assert draft is not None
            if draft.plan is None:
                return finish(f"The ontology layer has no query for this question: {draft.reason}.", False, [], None)
            plan, rows, query = draft.plan, draft.rows, self.compile(draft.plan, ctx)
        else:
            raw, failed = self._raw(question, ctx, tracer)
            if failed is not None:
                return finish(f"The ontology layer could not write a query ({failed}).", False, [], None, failed)
            assert raw is not None
            if not raw.query:
                return finish("The model's SPARQL did not fit the ontology: " + "; ".join(raw.errors), False, [],
                              None)
            plan, rows, query = None, raw.rows, raw.query
        return self._run(question, options, option_links, plan, rows, query, draft, ctx, tracer, finish)

    def _finish(self, question: str, tracer: Tracer, start: float, text: str, answered: bool,
                evidence: list[SparqlEvidence], selected: list[int] | None,
                failed: PolyragError | None = None) -> Answer:
        """The Answer, with the trace so far and the time since `start`."""
        if failed is not None:
            # a failure, not a "no answer": the waterfall's note and `--json` name the layer that failed
            tracer.steps.append(TraceStep(step="ontology.error", layer="ontology",
                                          outcome=f"error: {type(failed).__name__}: {failed}"))
        return Answer(question=question, text=text, layer="ontology" if answered else "none",
                      pipeline=f"ontology-{self.mode}", selected=selected if answered else None, evidence=evidence,
                      trace=tracer.steps, usage=tracer.total(), ms=round((time.perf_counter() - start) * 1000, 1))

    def _plan(self, question: str, options: list[str] | None, ctx: OntologyContext,
              tracer: Tracer) -> tuple[PlanDraft | None, LLMError | None]:
        """Plan mode: the readings' draft, or the model's failure while choosing among them."""
        draft, failed = None, None
        with tracer.step("ontology.plan", "ontology", options=len(options or [])) as rec:
            planner = ReadingPlanner(ctx.vocab, ctx.index, ctx.values, self.embedder, self.llm,
                                     margin=self.margin(), value_classes=ctx.value_classes, single=ctx.single,
                                     held=ctx.held)
            try:
                draft = planner.draft(question, options, run=lambda p: self.select(self.compile(p, ctx), distinct=True),
                                      uses=self.uses)
                rec.input.update(draft.trace())
                rec.outcome = "planned" if draft.plan else f"no plan: {draft.reason}"
            except LLMError as err:
                rec.outcome, failed = f"error: {err}", err
        return draft, failed

    def _raw(self, question: str, ctx: OntologyContext, tracer: Tracer
             ) -> tuple[RawResult | None, LLMError | QueryTimeout | None]:
        """Raw mode: the model's SPARQL (checked, one repair), or its failure."""
        from querying.sparql_raw import write_query

        raw, failed = None, None
        with tracer.step("ontology.raw", "ontology") as rec:
            try:
                raw = write_query(self.llm, question, ctx.vocab, ctx.index, self.select,
                                  known_prefixes=self.layer.prefixes, namespace=self.layer.schema.namespace)
                rec.input.update({"attempts": raw.attempts, "errors": raw.errors})
                rec.outcome = "valid query" if raw.query else \
                    f"no valid query: {'; '.join(raw.errors)[:TRACE_ERRORS]}"
            except (LLMError, QueryTimeout) as err:  # the model failing, or its query running too long
                rec.outcome, failed = f"error: {err}", err
        return raw, failed

    def _run(self, question: str, options: list[str] | None, option_links: list[list[LabelLink]],
             plan: QueryPlan | None, rows: list[dict[str, str]] | None, query: str, draft: PlanDraft | None,
             ctx: OntologyContext, tracer: Tracer, finish) -> Answer:
        """Run the query (unless the planner's evidence run already has its rows) and decide."""
        failed = None
        with tracer.step("ontology.run", "ontology") as rec:
            try:
                rows = rows if rows is not None else self.select(query, distinct=plan is not None)
                rec.outcome = f"{len(rows)} rows"
            except PolyragError as err:
                rec.outcome, failed = f"error: {err}", err
        if failed is not None:
            evidence = [SparqlEvidence(plan=_plan_dict(plan), query=query)]
            return finish(f"The ontology query failed: {failed}", False, evidence, None, failed)
        assert rows is not None
        if plan is not None and plan.rank is not None and plan.rank.having is None and not plan.rank.every:
            # the first place, ties included
            rows = [r for r in rows if r.get("n") == rows[0].get("n")]
        if plan is not None and plan.order is not None:  # the first k by their value, ties included
            rows = first_ordered(rows, plan.order.k, plan.order.skip)
        evidence = [SparqlEvidence(plan=_plan_dict(plan), query=query, rows=rows[:self.cfg.max_rows * EVIDENCE_ROWS])]
        if not rows and not options and draft is not None and polar(draft, rows) is False:
            # a yes/no question whose reading finds nothing: the answer is no
            return finish(f"No — {draft.best.spelled() if draft.best else ''} Nothing found.", True, evidence, None)
        if plan is not None and plan.count and not plan.aggregate and _none_counted(rows) and self._read_from_pages():
            # facts read from pages are what the pages said: that none was read says nothing of the world
            with tracer.step("ontology.decide", "ontology", max_rows=self.cfg.max_rows) as rec:
                rec.outcome = "empty: none counted, and the facts were read from pages"
            return finish(_EXPLAIN["empty"], False, evidence, None)
        shape = asked_shape(question)
        # a property named for the shape in the plan — what it returns, or what it asks of the things ("which
        # gardeners have no phone number") — is taken at its word, whatever its values look like
        named = plan is not None and any((p := ctx.vocab.get(r)) is not None and shape_named(p) == shape
                                         for r in plan.properties())
        if shape in ADDRESS_SHAPES and rows and not named and not (plan is not None and (plan.count or plan.aggregate)) \
                and not any(holds_shape(v, shape) for labels, values in _group(rows).values() for v in labels + values):
            # an e-mail address, a web address or a phone number asked for, and the reading found other values:
            # it read another relation (a person's title for their address) — right or absent
            with tracer.step("ontology.decide", "ontology") as rec:
                rec.outcome = f"empty: the values found hold no {SHAPE_NAMES[shape]}"
            return finish(f"The ontology's values for this question hold no {SHAPE_NAMES[shape]}.", False, evidence,
                          None)
        answer = _decide(question, rows, plan, options, option_links, self.cfg.max_rows, tracer, finish, evidence,
                         name_of=ctx.index.name_of)
        verdict = polar(draft, rows) if draft is not None and not options and answer.layer == "ontology" else None
        if verdict is not None:  # a yes/no question: say which, with what was found
            answer.text = f"{'Yes' if verdict else 'No'} — {draft.best.spelled() if draft.best else ''} {answer.text}"
        return answer


def answer_ontology(session: Session, question: str, *, options: list[str] | None = None,
                    mode: Mode = "plan") -> Answer:
    """The ontology layer alone, on a session's layer and model."""
    return OntologyAnswerer.from_session(session, mode=mode).answer(check_question(question), options=options)


def context(session: Session) -> OntologyContext:
    return OntologyAnswerer.from_session(session).context()


def _plan_dict(plan: QueryPlan | None) -> dict | None:
    return plan.model_dump() if plan is not None else None


def _decide(question: str, rows: list[dict[str, str]], plan: QueryPlan | None, options: list[str] | None,
            option_links: list[list[LabelLink]], max_rows: int, tracer: Tracer, finish, evidence,
            name_of=lambda iri: None) -> Answer:
    # The Answer is built after the step closes, so the trace it copies includes this step.
    with tracer.step("ontology.decide", "ontology", max_rows=max_rows) as rec:
        text, answered, selected = _verdict(rows, plan, options, option_links, max_rows)
        rec.outcome = text if not answered else \
            f"answered: {text[:TRACE_ANSWER]}" + (f" (options {selected})" if selected is not None else "")
        if answered:
            text = _answer_text(_group(rows), options, selected, name_of) if not (
                plan and (plan.count or plan.aggregate)) else text
    return finish(text if answered else _EXPLAIN.get(text.split(":")[0], text), answered, evidence, selected)


_EXPLAIN = {"empty": "The ontology has no answer to this question.",
            "too broad": "The ontology query matched too many answers to be one; not answered here.",
            "no option": "The ontology's answers match none of the options."}


def _number(text: str) -> float | None:
    """An option or a count as a number ("3", "3.0", "3 units"); None when it does not start with one."""
    head = text.strip().split(" ", 1)[0].replace(",", "")
    try:
        return float(head)
    except ValueError:
        return None


def _none_counted(rows: list[dict[str, str]]) -> bool:
    """A count's rows say nothing was counted."""
    return not rows or _number(tidy(next(iter(rows[0].values()), "0"))) == 0


def _verdict(rows: list[dict[str, str]], plan: QueryPlan | None, options: list[str] | None,
             option_links: list[list[LabelLink]], max_rows: int) -> tuple[str, bool, list[int] | None]:
    """(outcome, answered, selected options) from the rows and the `ontology.max_rows` rule."""
    if not rows or all(not r for r in rows):
        return "empty: not answered here", False, None
    if plan is not None and plan.returns and not plan.aggregate and not any(k.startswith("r") for r in rows for k in r):
        return "empty: the asked attribute is not stored", False, None  # the subject found, its value not
    if plan is not None and (plan.count or plan.aggregate):
        count = tidy(next(iter(rows[0].values()), "0"))
        if not options:
            return count, True, None
        # the options that are this number; none of them: the count answers no option here
        chosen = [i for i, o in enumerate(options) if _number(o) is not None and _number(o) == _number(count)]
        return (count, True, chosen) if chosen else (f"no option: the count is {count}", False, None)
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
            if bucket is not None and tidy(v) not in bucket:
                bucket.append(tidy(v))
    return out


_LONG_DECIMAL = re.compile(r"-?\d+\.\d{7,}")


def tidy(value: str) -> str:
    """A computed number as people read it ("19.999999999999996" → "20.0"); anything else unchanged."""
    return str(round(float(value), 6)) if _LONG_DECIMAL.fullmatch(value) else value


def _answer_text(answers: dict[str, tuple[list[str], list[str]]], options: list[str] | None,
                 selected: list[int] | None, name_of=lambda iri: None) -> str:
    """What was found, one answer per item: 'label: value; value' (without an rdfs:label, the name the
    label index knows it by — ub:name, has_name —, else the IRI)."""
    items = []
    for iri, (labels, values) in answers.items():
        name = labels[0] if labels else (name_of(iri) or iri)
        items.append(f"{name}: {'; '.join(values)}" if values else name)
    text = " | ".join(items[:SHOWN])
    if len(items) > SHOWN:  # the rest are in the evidence rows
        text += f" | … and {len(items) - SHOWN} more"
    if options and selected:
        text += " — options supported: " + "; ".join(f"{i}. {options[i]}" for i in selected)
    return text
