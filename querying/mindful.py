"""Mindful-RAG over the KG (seed 003, steps 1–7): small structured calls, each step's output fed to
the next.

  1. key entities and key words   (LLM)                 → 2, 3; the entities anchor 4, the words rank 5
  2. intent and answer type       (LLM, given 1)        → 3, 5, 6, 7
  3. context: the topic           (LLM, given 1 and 2)  → 5 (ranking and prompt), 7
  4. candidate relations          (no model: 1's entities found in the graph by name, else the top
                                   triples' entities the question names; their 1-hop edges)
  5. intent filter, context rank  (no model first: each relation by its best triple's cosine to
                                   question + intent + context + key words, plus KEYWORD_WEIGHT for
                                   the key words it shares; then the LLM picks from that list, its
                                   picks first)
  6. constraint alignment         (LLM names time / place / current / aggregation given the intent;
                                   `ground` keeps what the question's words bear out; `align`
                                   applies it without a model: year and place filters, "current"
                                   = latest first and superseded facts dropped, count / max / min /
                                   list computed over the aligned triples)
  7. answer, intent check         (Query_kg over the aligned triples, an aggregate answering in its
                                   place; LLM yes/no against intent and context; on "no", steps 5–7
                                   once more with the next relations)

Small decisions keep it runnable on the default 135M model, whose fields are often filled at
random: that is why every constraint is grounded in the question before it filters anything, and a
constraint no triple mentions filters nothing. The sufficiency decision is the plain KG answerer's
(`querying.kg_qa.judge`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Collection
from dataclasses import dataclass, field

from pyramid.config import KGSettings
from pyramid.embeddings import Embedder
from pyramid.kg.index import TripleHit
from pyramid.kg.layer import KGLayer
from pyramid.kg.model import Entity, Triple, normalise_name
from pyramid.llm import LLM
from pyramid.prompts import load_prompt
from pyramid.reading.english import PRESENT_TENSE_AUXILIARIES, PRESENT_TIME_WORDS, TIME_WORDS
from pyramid.types import Answer, Tracer
from pyramid.usage import UsageMeter
from querying.kg_qa import content_terms, finish, judge, named_in
from querying.question_names import question_names

RELATIONS_PER_TRY = 5
MAX_CANDIDATES = 200    # 1-hop edges read from the store
# Rank bonus of a relation holding every key word: cosines of the candidate relations of one entity
# lie within ~0.2 of each other with MiniLM, so a shared key word decides between near ties only.
KEYWORD_WEIGHT = 0.2
_STR = {"type": "string", "maxLength": 80}
_LIST = {"type": "array", "maxItems": 6, "items": _STR}


def _obj(props: dict) -> dict:
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


AGGREGATIONS = ["none", "count", "max", "min", "list"]
SCHEMAS = {
    "entities": _obj({"entities": _LIST, "keywords": _LIST}),
    "intent": _obj({"intent": _STR, "answer_type": {"enum": ["person", "organisation", "place", "time", "number",
                                                             "thing", "yes/no", "list"]}}),
    "context": _obj({"context": _STR}),
    "relations": _obj({"relations": {"type": "array", "maxItems": RELATIONS_PER_TRY,
                                     "items": {"type": "integer", "minimum": 1}}}),
    "constraints": _obj({"time": {"type": "string", "maxLength": 40}, "place": {"type": "string", "maxLength": 60},
                         "current": {"type": "boolean"}, "aggregation": {"enum": AGGREGATIONS}}),
    "check": _obj({"matches": {"type": "boolean"}}),
}
_YEAR = re.compile(r"\b(1\d{3}|20\d{2})\b")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_WORDS = re.compile(r"\w+")
# What the question's own words must say before a constraint is applied.
AGGREGATION_CUES = {"count": re.compile(r"\b(how many|number of|count)\b"),
                    "max": re.compile(r"\b(most|highest|largest|biggest|greatest|maximum|top)\b"),
                    "min": re.compile(r"\b(least|fewest|lowest|smallest|minimum)\b"),
                    "list": re.compile(r"\b(list|all|every)\b")}
# A triple says it holds now: "currently plays for", {"status": "current"}, {"until": "present"}.
CURRENT_MARK = re.compile(r"\b(current|currently|now|present|incumbent)\b", re.IGNORECASE)


@dataclass
class Constraints:
    time: str = ""
    place: str = ""
    current: bool = False
    aggregation: str = "none"


@dataclass
class Aligned:
    triples: list[Triple]                                 # kept, in order
    answer: str = ""                                      # the aggregate (count / max / min / list), if asked
    used: list[Triple] = field(default_factory=list)      # the triples behind `answer`


def _words(text: str) -> set[str]:
    return set(_WORDS.findall(normalise_name(text)))


def ground(c: Constraints, question: str) -> Constraints:
    """Step 6's constraints as far as the question bears them out: the years it names, a place whose
    words it holds, "current" when it says so (or the model says so of a present-tense question),
    and an aggregation its words ask for ("how many" → count, "most" → max, "least" → min, "all" →
    list; the model's choice wins among the aggregations the words allow)."""
    q = question.lower()
    qwords = set(_WORDS.findall(q))
    place = c.place.strip() if _words(c.place) and _words(c.place) <= _words(question) else ""
    current = bool(qwords & PRESENT_TIME_WORDS) or (c.current and bool(qwords & PRESENT_TENSE_AUXILIARIES))
    asked = [a for a, cue in AGGREGATION_CUES.items() if cue.search(q)]
    aggregation = c.aggregation if c.aggregation in asked else (asked[0] if asked else "none")
    return Constraints(" ".join(_YEAR.findall(question)), place, current, aggregation)


def _years(t: Triple) -> set[int]:
    return {int(y) for y in _YEAR.findall(t.text())}


def _ends(t: Triple, anchors: Collection[str]) -> tuple[Entity, Entity]:
    """(the end the question is about, the end that answers it): the object answers, unless the
    question is about the object and not the subject."""
    if t.object.id in anchors and t.subject.id not in anchors:
        return t.object, t.subject
    return t.subject, t.object


def _quantity(t: Triple, anchors: Collection[str]) -> float | None:
    """The number a max/min compares: a non-time property, else the relation ("scored 8 goals in"),
    else the answering end's name ("27 goals"); years are times, not quantities."""
    texts = [str(v) for k, v in sorted(t.properties.items()) if k.lower() not in TIME_WORDS]
    texts += [t.relation, _ends(t, anchors)[1].name]
    for text in texts:
        for m in _NUMBER.finditer(text):
            if not _YEAR.fullmatch(m.group()):
                return float(m.group().replace(",", ""))
    return None


def _current(triples: list[Triple], anchors: Collection[str]) -> list[Triple]:
    """Latest first, triples marked current before all; a dated triple is dropped when the same
    entity holds the same relation with a later year (superseded). Undated triples stay."""
    def key(t: Triple) -> tuple[str, str]:
        return _ends(t, anchors)[0].id, t.canonical

    newest: dict[tuple[str, str], int] = {}
    for t in triples:
        newest[key(t)] = max(newest.get(key(t), 0), max(_years(t), default=0))
    kept = [t for t in triples if not _years(t) or max(_years(t)) >= newest[key(t)]]
    marked = {t.id for t in kept if CURRENT_MARK.search(f"{t.relation} {' '.join(map(str, t.properties.values()))}")}
    return sorted(kept, key=lambda t: (t.id not in marked, -max(_years(t), default=0)))


def _aggregate(triples: list[Triple], kind: str, anchors: Collection[str],
               order: list[str]) -> tuple[str, list[Triple]]:
    """count / list: the answering ends of the best-ranked relation (first in `order`) still present;
    max / min: the triple with the largest / smallest quantity among all of them."""
    if kind in ("count", "list") and triples:
        top = next(r for r in order if any(t.relation == r for t in triples))
        triples = [t for t in triples if t.relation == top]
        answers: dict[str, str] = {}
        for t in triples:
            end = _ends(t, anchors)[1]
            answers.setdefault(end.id, end.name)
        names = list(answers.values())
        if kind == "list":
            return ", ".join(names), triples
        return f"{len(names)} ({', '.join(names[:10])})", triples
    if kind in ("max", "min"):
        valued = [(q, t) for t in triples if (q := _quantity(t, anchors)) is not None]
        if valued:
            pick = (max if kind == "max" else min)(valued, key=lambda v: v[0])[1]
            return _ends(pick, anchors)[1].name, [pick]
    return "", []


def align(triples: list[Triple], c: Constraints, anchors: Collection[str] = ()) -> Aligned:
    """Step 6 without a model, over `triples` in ranked order: keep the triples naming a year of
    `c.time` and the words of `c.place` (a constraint no triple mentions filters nothing); for
    `current`, latest first and superseded triples dropped; then the aggregation over what is left.
    `anchors` are the ids of the entities the question is about (the other end of a triple answers)."""
    order = list(dict.fromkeys(t.relation for t in triples))
    out = list(triples)
    years = {int(y) for y in _YEAR.findall(c.time)}
    if years:
        out = [t for t in out if years & _years(t)] or out
    place = _words(c.place)
    if place:
        out = [t for t in out if place <= _words(t.text())] or out
    if c.current:
        out = _current(out, anchors)
    answer, used = _aggregate(out, c.aggregation, anchors, order)
    return Aligned(out, answer, used)


def rank_relations(by_relation: dict[str, list[Triple]], scores: dict[str, float], keywords: set[str]) -> list[str]:
    """Step 5's model-free order: a relation's best triple cosine (to question + intent + context +
    key words) plus KEYWORD_WEIGHT × the share of the key words (stemmed) its text holds."""
    def score(r: str) -> float:
        shared = len(keywords & set(content_terms(r))) / len(keywords) if keywords else 0.0
        return max(scores.get(t.id, 0.0) for t in by_relation[r]) + KEYWORD_WEIGHT * shared

    return sorted(by_relation, key=lambda r: -score(r))


def _ask(llm: LLM, name: str, tracer: Tracer, step: str, **values) -> dict:
    with tracer.step(f"kg.mindful.{step}", "kg") as rec:
        out = llm.complete(load_prompt("querying", f"kg_mindful_{name}").render(**values), SCHEMAS[name],
                           max_tokens=120).parsed
        rec.outcome = str(out)[:200]
    return out


def link_entities(kg: KGLayer, question: str, names: list[str], hits: list[TripleHit]) -> list[str]:
    """Step 4's anchors: KG entity ids named by step 1 (by normalised name), else the top triples'
    entities that the question names, else the best triple's ends."""
    store = kg.store()
    norms = [normalise_name(n) for n in names if n.strip()]
    ids = [e.id for e in store.entities(norms)] if norms else []
    if not ids:
        qnames = question_names(question)
        ids = list(dict.fromkeys(e.id for h in hits for e in (h.triple.subject, h.triple.object)
                                 if named_in(e.name, qnames, e.type)))
    if not ids and hits:
        ids = [hits[0].triple.subject.id, hits[0].triple.object.id]
    return ids


def key_terms(keywords: list[str], entities: list[str], question: str) -> set[str]:
    """Step 1's key words as stemmed terms the question holds (a word the model made up ranks
    nothing); none left → the question's own content words outside the entity names."""
    qterms = set(content_terms(question))
    names = set(content_terms(" ".join(entities)))
    return (set(content_terms(" ".join(keywords))) & qterms) - names or qterms - names


def answer_mindful(kg: KGLayer, llm: LLM, embedder: Embedder, cfg: KGSettings, meter: UsageMeter, question: str,
                   *, options: list[str] | None = None, k: int | None = None) -> Answer:
    start = time.perf_counter()
    k = k or cfg.k
    tracer = Tracer(meter)
    ents = _ask(llm, "entities", tracer, "1_entities", question=question)
    listed = {"entities": ", ".join(ents["entities"]) or "(none)", "keywords": ", ".join(ents["keywords"]) or "(none)"}
    intent = _ask(llm, "intent", tracer, "2_intent", question=question, **listed)
    intent_text = f"{intent['intent']} ({intent['answer_type']})"
    context = _ask(llm, "context", tracer, "3_context", question=question, entities=listed["entities"],
                   intent=intent_text)["context"]
    keywords = key_terms(ents["keywords"], ents["entities"], question)

    with tracer.step("kg.mindful.4_candidates", "kg") as rec:
        focus = " ".join([question, intent["intent"], context, *ents["keywords"]])
        qv = embedder.embed_one(focus, kind="query")
        top = kg.search(question, k=k, query_vector=qv)
        anchors = link_entities(kg, question, ents["entities"], top)
        candidates = kg.store().neighbours(anchors, hops=1, limit=MAX_CANDIDATES) or [h.triple for h in top]
        by_relation: dict[str, list[Triple]] = {}
        for t in candidates:
            by_relation.setdefault(t.relation, []).append(t)
        rec.outcome = f"{len(anchors)} entities, {len(candidates)} triples, {len(by_relation)} relations"
    with tracer.step("kg.mindful.5_rank", "kg", keywords=sorted(keywords)) as rec:
        scores = kg.index.score([t.id for t in candidates], qv)
        ranked = rank_relations(by_relation, scores, keywords)
        rec.outcome = "; ".join(ranked[:RELATIONS_PER_TRY * 2])[:200]
    raw = _ask(llm, "constraints", tracer, "6_constraints", question=question, intent=intent_text)
    cons = ground(Constraints(raw["time"], raw["place"], raw["current"], raw["aggregation"]), question)

    tried: set[str] = set()
    verdict, hits = None, []
    for attempt in (1, 2):
        pool = [r for r in ranked if r not in tried]
        if not pool:
            break
        shown = pool[:RELATIONS_PER_TRY * 2]
        picked = _ask(llm, "relations", tracer, f"5_relations_try{attempt}", question=question, intent=intent_text,
                      context=context, keywords=listed["keywords"],
                      relations="\n".join(f"{i}. {r}" for i, r in enumerate(shown, 1)))["relations"]
        chosen = [shown[i - 1] for i in dict.fromkeys(picked) if 1 <= i <= len(shown)]
        chosen = [*chosen, *(r for r in shown if r not in chosen)][:RELATIONS_PER_TRY]
        tried.update(chosen)
        with tracer.step(f"kg.mindful.6_align_try{attempt}", "kg", constraints=cons.__dict__) as rec:
            ordered = [t for r in chosen for t in sorted(by_relation[r], key=lambda t: -scores.get(t.id, 0.0))]
            aligned = align(ordered, cons, anchors)
            rec.outcome = f"{len(aligned.triples)} triples after alignment" + \
                (f"; {cons.aggregation} = {aligned.answer}" if aligned.answer else "")
        if not aligned.triples:
            continue
        # the triples behind an aggregate first; then latest first for "current", else by cosine
        first = {t.id for t in aligned.used}
        hits = sorted((TripleHit(t, scores.get(t.id, 0.0), "mindful") for t in aligned.triples),
                      key=lambda h: (h.triple.id not in first, 0.0 if cons.current else -h.score))[:k]
        verdict = judge(llm, question, hits, tracer, mode=cfg.sufficiency, min_score=cfg.min_score,
                        overlap_yes=cfg.overlap_yes, shaped=False)
        if not verdict.sufficient:
            continue
        if aligned.answer:
            verdict.text, verdict.cited = aligned.answer, aligned.used[:k]
        ok = _ask(llm, "check", tracer, f"7_check_try{attempt}", question=question, intent=intent_text,
                  context=context, answer=verdict.text)["matches"]
        if ok:
            break
        verdict.sufficient = False  # the answer misses the intent: one more try with the next relations
    return finish(question, hits or [*top], llm, cfg, tracer, start, options, pipeline="mindful",
                  verdict=verdict if hits else None)
