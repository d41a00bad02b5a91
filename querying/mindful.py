"""Mindful-RAG over the KG (seed 003, steps 1–7), each step a small structured call or no call.

  1. key entities and key words           (LLM, schema)
  2. intent: what is asked, answer type   (LLM, schema)
  3. context: the topic                   (LLM, schema)
  4. candidate relations within one hop   (no model: entities linked by name, else through the top
                                           triples; their 1-hop edges from the graph store)
  5. intent-based filtering and ranking   (LLM picks relation numbers; the rest ranked by cosine to
                                           question + intent, so a poor pick still leaves an order)
  6. constraint alignment                 (LLM names time / place / "current" / aggregation; the
                                           filtering itself is model-free)
  7. answer, then check it matches the    (Query_kg over the aligned triples; LLM yes/no check;
     intent, with one retry                on "no", steps 5–7 once more with the next relations)

Small decisions keep it runnable on the default 135M model; the sufficiency decision is the same
checked one as the plain KG answerer (`querying.kg_qa.judge`).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from pyramid.kg.index import TripleHit
from pyramid.kg.model import Triple, normalise_name
from pyramid.llm import LLM
from pyramid.prompts import load_prompt
from pyramid.session import Session
from querying.answer import Answer, Tracer
from querying.kg_qa import finish, judge, named_in, question_names

RELATIONS_PER_TRY = 5
MAX_CANDIDATES = 200    # 1-hop edges read from the store
_STR = {"type": "string", "maxLength": 80}
_LIST = {"type": "array", "maxItems": 6, "items": _STR}


def _obj(props: dict) -> dict:
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


SCHEMAS = {
    "entities": _obj({"entities": _LIST, "keywords": _LIST}),
    "intent": _obj({"intent": _STR, "answer_type": {"enum": ["person", "organisation", "place", "time", "number",
                                                             "thing", "yes/no", "list"]}}),
    "context": _obj({"context": _STR}),
    "relations": _obj({"relations": {"type": "array", "maxItems": RELATIONS_PER_TRY,
                                     "items": {"type": "integer", "minimum": 1}}}),
    "constraints": _obj({"time": {"type": "string", "maxLength": 40}, "place": {"type": "string", "maxLength": 60},
                         "current": {"type": "boolean"},
                         "aggregation": {"enum": ["none", "count", "max", "min", "list"]}}),
    "check": _obj({"matches": {"type": "boolean"}}),
}
_YEAR = re.compile(r"\b(1\d{3}|20\d{2})\b")


@dataclass
class Constraints:
    time: str = ""
    place: str = ""
    current: bool = False
    aggregation: str = "none"


def _ask(llm: LLM, name: str, tracer: Tracer, step: str, **values) -> dict:
    with tracer.step(f"kg.mindful.{step}", "kg") as rec:
        out = llm.complete(load_prompt("querying", f"kg_mindful_{name}").render(**values), SCHEMAS[name],
                           max_tokens=120).parsed
        rec.outcome = str(out)[:200]
    return out


def align(triples: list[Triple], c: Constraints) -> list[Triple]:
    """Step 6, model-free: keep triples agreeing with a named year/place (when any does); for
    'current' put the most recent first. A constraint no triple mentions filters nothing."""
    out = triples
    years = set(_YEAR.findall(c.time))
    if years:
        hit = [t for t in out if years & set(_YEAR.findall(t.text()))]
        out = hit or out
    if c.place.strip():
        words = set(re.findall(r"\w+", normalise_name(c.place)))
        hit = [t for t in out if words and words <= set(re.findall(r"\w+", normalise_name(t.text())))]
        out = hit or out
    if c.current:
        def latest(t: Triple) -> int:
            return max((int(y) for y in _YEAR.findall(t.text())), default=0)
        out = sorted(out, key=latest, reverse=True)
    return out


def link_entities(session: Session, question: str, names: list[str], hits: list[TripleHit]) -> list[str]:
    """Step 4's anchors: KG entity ids named by step 1 (by normalised name), else the top triples'
    entities that the question names, else the best triple's ends."""
    store = session.kg.store()
    norms = [normalise_name(n) for n in names if n.strip()]
    ids = [e.id for e in store.entities(norms)] if norms else []
    if not ids:
        qwords = question_names(question)
        ids = list(dict.fromkeys(e.id for h in hits for e in (h.triple.subject, h.triple.object)
                                 if named_in(e.name, qwords)))
    if not ids and hits:
        ids = [hits[0].triple.subject.id, hits[0].triple.object.id]
    return ids


def answer_mindful(session: Session, question: str, *, options: list[str] | None = None,
                   k: int | None = None) -> Answer:
    start = time.perf_counter()
    llm, kg, cfg = session.llm, session.kg, session.settings.kg
    tracer = Tracer(session.meter)
    ents = _ask(llm, "entities", tracer, "1_entities", question=question)
    intent = _ask(llm, "intent", tracer, "2_intent", question=question)
    _ask(llm, "context", tracer, "3_context", question=question)
    intent_text = f"{intent['intent']} ({intent['answer_type']})"

    with tracer.step("kg.mindful.4_candidates", "kg") as rec:
        qv = session.embedder.embed_one(question + " " + intent["intent"], kind="query")
        top = kg.search(question, k=k or cfg.k, query_vector=qv)
        anchors = link_entities(session, question, ents["entities"], top)
        candidates = kg.store().neighbours(anchors, hops=1, limit=MAX_CANDIDATES) or [h.triple for h in top]
        by_relation: dict[str, list[Triple]] = {}
        for t in candidates:
            by_relation.setdefault(t.relation, []).append(t)
        relations = list(by_relation)
        rec.outcome = f"{len(anchors)} entities, {len(candidates)} triples, {len(relations)} relations"

    # Model-free order: each relation by its best triple's cosine to question + intent.
    scores = kg.index.score([t.id for t in candidates], qv)
    best = {r: max(scores.get(t.id, 0.0) for t in ts) for r, ts in by_relation.items()}
    by_cosine = sorted(relations, key=lambda r: -best[r])
    cons_raw = _ask(llm, "constraints", tracer, "6_constraints", question=question)
    cons = Constraints(cons_raw["time"], cons_raw["place"], cons_raw["current"], cons_raw["aggregation"])

    tried: set[str] = set()
    verdict, hits = None, []
    for attempt in (1, 2):
        pool = [r for r in by_cosine if r not in tried]
        if not pool:
            break
        shown = pool[:RELATIONS_PER_TRY * 2]
        numbered = "\n".join(f"{i}. {r}" for i, r in enumerate(shown, 1))
        picked = _ask(llm, "relations", tracer, f"5_relations_try{attempt}", question=question,
                      intent=intent_text, relations=numbered)["relations"]
        chosen = [shown[i - 1] for i in dict.fromkeys(picked) if 1 <= i <= len(shown)]
        chosen += [r for r in shown if r not in chosen]
        chosen = chosen[:RELATIONS_PER_TRY]
        tried.update(chosen)
        with tracer.step(f"kg.mindful.6_align_try{attempt}", "kg", constraints=cons.__dict__) as rec:
            triples = align([t for r in chosen for t in by_relation[r]], cons)
            rec.outcome = f"{len(triples)} triples after alignment"
        hits = sorted((TripleHit(t, scores.get(t.id, 0.0), "mindful") for t in triples), key=lambda h: -h.score)
        hits = hits[: k or cfg.k]
        if cons.aggregation == "count" and triples:
            tracer.steps[-1].outcome += f"; count = {len({t.object.id for t in triples})}"
        verdict = judge(llm, question, hits, tracer, mode=cfg.sufficiency, min_score=cfg.min_score,
                        overlap_yes=cfg.overlap_yes)
        if cons.aggregation == "count" and verdict.sufficient:
            verdict.text = f"{len({t.object.id for t in triples})} ({verdict.text})"
        if not verdict.sufficient:
            continue
        ok = _ask(llm, "check", tracer, f"7_check_try{attempt}", question=question, intent=intent_text,
                  answer=verdict.text)["matches"]
        if ok:
            break
        verdict.sufficient = False  # the answer misses the intent: one more try with the next relations
    return finish(question, hits or [*top], session, tracer, start, options, pipeline="mindful",
                  verdict=verdict if hits else None)
