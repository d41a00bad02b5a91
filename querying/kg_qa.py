"""The KG layer's answerer: top-k triples (Emb_kg), then Query_kg's "sufficient?" decision.

    question → top-k triples → signals (no model) + LLM {sufficient, answer, facts}
             → decision → layer "kg" with the cited triples, or "none" with every retrieved triple

The tiny default model's yes/no is unreliable in both directions (NOTES-llama.md), so with
`kg.sufficiency = "combined"` (default) it is checked by signals that need no model:

  * entity match — a retrieved triple's subject or object is named in the question;
  * score        — the best triple's cosine reaches `kg.min_score`;
  * overlap      — the share of the question's content words (stemmed, stop-worded) that one
                   retrieved triple covers.

  sufficient = entity match AND score AND (LLM says yes OR overlap ≥ kg.overlap_yes)

The gate drops the LLM's confident yes over unrelated triples; the overlap term rescues its no
when one triple plainly restates the question. `polyrag bench kg-sufficiency` measures the three
modes (llm, signals, combined) on labelled questions: SmolLM2-135M said yes to 27 of 30 questions,
including most unanswerable ones, so its vote only added false positives. `kg.sufficiency = "auto"`
(default) therefore uses the signals alone with that model — the LLM then only writes the answer,
and is not called at all when the signals say no — and the combined rule with any other model.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from pyramid.kg.index import TripleHit
from pyramid.kg.model import Triple, normalise_name
from pyramid.llm import LLM
from pyramid.prompts import load_prompt
from pyramid.session import Session
from pyramid.text_layer import Bm25Tokenizer
from querying.answer import Answer, Tracer, TraceStep, TripleEvidence, check_question
from querying.options import select_options

SUFFICIENCY_SCHEMA = {
    "type": "object",
    "properties": {"sufficient": {"type": "boolean"},
                   "answer": {"type": "string", "maxLength": 300},
                   "facts": {"type": "array", "maxItems": 5, "items": {"type": "integer", "minimum": 1}}},
    "required": ["sufficient", "answer", "facts"], "additionalProperties": False}
ANSWER_MAX_TOKENS = 160
ENTITY_COVERAGE = 0.8   # share of an entity name's words that must appear in the question to link it
WH_WORDS = frozenset("what who whom whose which when where why how did does do is are was were can".split())
NAME_FILLERS = frozenset("of and the for in on at de du la le von van".split())  # "Department of X"

_WORD = re.compile(r"\w+", re.UNICODE)
_tokenize = Bm25Tokenizer()  # the text layer's BM25 analysis: lower-case, stop-worded, stemmed
# Question scaffolding that no fact restates (BM25's stop list keeps some of these).
QUESTION_TERMS = frozenset(_tokenize("did does do what who whom whose which when where why how many much "
                                     "name list tell according"))


def triple_line(t: Triple) -> str:
    return t.text() + "."


def format_facts(triples: list[Triple]) -> str:
    return "\n".join(f"{i}. {triple_line(t)}" for i, t in enumerate(triples, 1))


def evidence(hits: list[TripleHit]) -> list[TripleEvidence]:
    return [TripleEvidence(triple_id=h.triple.id, subject=h.triple.subject.name, relation=h.triple.relation,
                           object=h.triple.object.name, score=round(h.score, 4), chunk_id=h.triple.chunk_id,
                           doc_id=h.triple.doc_id) for h in hits]


# ------------------------------------------------------------------------------ signals (no model)
@dataclass
class Signals:
    linked: list[str] = field(default_factory=list)   # retrieved entities named in the question
    top_score: float = 0.0
    overlap: float = 0.0                              # best single-triple coverage of the question's words

    @property
    def entity_match(self) -> bool:
        return bool(self.linked)

    def to_dict(self) -> dict:
        return {"linked": self.linked[:10], "entity_match": self.entity_match, "top_score": round(self.top_score, 4),
                "overlap": round(self.overlap, 3)}


def question_names(question: str) -> set[str]:
    """The normalised words of the names in a question: words written with a capital, a digit or
    a non-Latin script, less a leading question word. Measured on `bench kg-sufficiency`: matching
    every question word linked common-noun entities ("research", "students") for 7 of 10 questions
    about people absent from the KG. A question written all in lower case falls back to all words."""
    words = question.split()
    if words and words[0].lower().strip("?,.") in WH_WORDS:
        words = words[1:]
    named = [w for w in words if w[:1].isupper() or w[:1].isdigit() or (w[:1] and ord(w[0]) >= 0x2E80)]
    if not any(w[:1].isupper() or w[:1].isdigit() for w in question.split()):
        named = words
    return set(_WORD.findall(normalise_name(" ".join(named))))


def named_in(name: str, names: set[str]) -> bool:
    """Are (nearly) all of an entity name's content words among the question's name words?"""
    words = [w for w in _WORD.findall(normalise_name(name)) if w not in NAME_FILLERS] or \
        _WORD.findall(normalise_name(name))
    if not words:
        return False
    return sum(w in names for w in words) / len(words) >= ENTITY_COVERAGE


def compute_signals(question: str, hits: list[TripleHit]) -> Signals:
    names = question_names(question)
    linked = list(dict.fromkeys(e.name for h in hits for e in (h.triple.subject, h.triple.object)
                                if named_in(e.name, names)))
    qterms = set(_tokenize(question)) - QUESTION_TERMS
    overlap = max((len(qterms & set(_tokenize(h.triple.text()))) / len(qterms) for h in hits), default=0.0) \
        if qterms else 0.0
    return Signals(linked, max((h.score for h in hits), default=0.0), overlap)


def resolve_mode(mode: str, llm: LLM) -> str:
    """`auto` → signals for the tiny default model, combined otherwise (see the module docstring)."""
    if mode != "auto":
        return mode
    from pyramid.summarise import is_tiny_default

    return "signals" if is_tiny_default(llm) else "combined"


def decide(mode: str, llm_yes: bool, s: Signals, min_score: float, overlap_yes: float) -> tuple[bool, str]:
    """(sufficient, why) under `mode` = combined | llm | signals."""
    gate = s.entity_match and s.top_score >= min_score
    if mode == "llm":
        return llm_yes, f"LLM said {'yes' if llm_yes else 'no'}"
    if mode == "signals":
        ok = gate and s.overlap >= overlap_yes
        return ok, f"signals: entity match {s.entity_match}, score {s.top_score:.2f}, overlap {s.overlap:.2f}"
    if not gate:
        why = "no retrieved triple names an entity of the question" if not s.entity_match else \
            f"best triple score {s.top_score:.2f} < {min_score}"
        return False, f"{why} (LLM said {'yes' if llm_yes else 'no'})"
    if llm_yes:
        return True, f"LLM said yes; entity match ({', '.join(s.linked[:3])})"
    if s.overlap >= overlap_yes:
        return True, f"LLM said no, but one triple covers {s.overlap:.0%} of the question's words"
    return False, f"LLM said no; overlap {s.overlap:.2f} < {overlap_yes}"


# ------------------------------------------------------------------------------ the decision
@dataclass
class Verdict:
    sufficient: bool
    text: str
    cited: list[Triple]
    signals: Signals
    llm_yes: bool
    why: str


def judge(llm: LLM, question: str, hits: list[TripleHit], tracer: Tracer, *, mode: str, min_score: float,
          overlap_yes: float) -> Verdict:
    """Signals, the Query_kg call, and the decision; traced as kg.signals and kg.sufficiency."""
    triples = [h.triple for h in hits]
    with tracer.step("kg.signals", "kg") as rec:
        sig = compute_signals(question, hits)
        rec.input.update(sig.to_dict())
        rec.outcome = f"entity match {sig.entity_match}, top score {sig.top_score:.2f}, overlap {sig.overlap:.2f}"
    llm_yes, text, cited_idx = False, "", []
    mode = resolve_mode(mode, llm)
    with tracer.step("kg.sufficiency", "kg", mode=mode, triples=len(triples)) as rec:
        # In signals mode the LLM only writes the answer: no call when the signals already say no.
        if mode != "signals" or decide("signals", False, sig, min_score, overlap_yes)[0]:
            reply = llm.complete(load_prompt("querying", "kg_sufficiency").render(
                facts=format_facts(triples), question=question), SUFFICIENCY_SCHEMA,
                max_tokens=ANSWER_MAX_TOKENS).parsed
            llm_yes, text = bool(reply["sufficient"]), reply["answer"].strip()
            cited_idx = [i - 1 for i in dict.fromkeys(reply["facts"]) if 1 <= i <= len(triples)]
        ok, why = decide(mode, llm_yes, sig, min_score, overlap_yes)
        rec.outcome = ("sufficient: " if ok else "insufficient: ") + why
    cited = [triples[i] for i in cited_idx]
    if ok and not cited:
        # The model cited nothing: cite the triples naming a question entity (else the best one).
        cited = [t for t in triples if t.subject.name in sig.linked or t.object.name in sig.linked][:3] or triples[:1]
    if ok and not text:
        text = " ".join(triple_line(t) for t in cited)
    return Verdict(ok, text, cited, sig, llm_yes, why)


def order_evidence(hits: list[TripleHit], cited: list[Triple]) -> list[TripleEvidence]:
    """Cited triples first (in citation order), then the other retrieved ones by score."""
    rank = {t.id: i for i, t in enumerate(cited)}
    ordered = sorted(hits, key=lambda h: (rank.get(h.triple.id, len(rank)), -h.score))
    return evidence(ordered)


def answer_kg(session: Session, question: str, *, options: list[str] | None = None, mindful: bool = False,
              k: int | None = None) -> Answer:
    """Answer from the KG layer; `layer="none"` (with the retrieved triples) when they are not enough."""
    question = check_question(question)
    if mindful:
        from querying.mindful import answer_mindful
        return answer_mindful(session, question, options=options, k=k)
    start = time.perf_counter()
    cfg = session.settings.kg
    tracer = Tracer(session.meter)
    with tracer.step("kg.retrieve", "kg", k=k or cfg.k, expand=cfg.expand) as rec:
        hits = session.kg.search(question, k=k or cfg.k, expand=cfg.expand)
        rec.outcome = f"{len(hits)} triples" + (f", best {hits[0].score:.2f}" if hits else "")
    return finish(question, hits, session, tracer, start, options, pipeline="kg")


def finish(question: str, hits: list[TripleHit], session: Session, tracer: Tracer, start: float,
           options: list[str] | None, *, pipeline: str, verdict: Verdict | None = None) -> Answer:
    """Judge `hits` (unless a verdict is given) and build the Answer."""
    cfg = session.settings.kg
    if not hits:
        tracer.steps.append(TraceStep(step="kg.sufficiency", layer="kg", outcome="insufficient: no triples"))
        return Answer(question=question, text="The knowledge graph holds nothing on this question.", layer="none",
                      pipeline=pipeline, trace=tracer.steps, usage=tracer.total(),
                      ms=round((time.perf_counter() - start) * 1000, 1))
    v = verdict or judge(session.llm, question, hits, tracer, mode=cfg.sufficiency, min_score=cfg.min_score,
                         overlap_yes=cfg.overlap_yes)
    selected = None
    if options and v.sufficient:
        # the cited facts, the answer, and every retrieved fact about an entity the question names
        about = [h.triple for h in hits if {h.triple.subject.name, h.triple.object.name} & set(v.signals.linked)]
        support = [*v.cited, *about]
        # the ends by name (an option is usually an entity), the whole facts, and the answer
        selected = select_options(options, [n for t in support for n in (t.object.name, t.subject.name)]
                                  + [triple_line(t) for t in support] + [v.text])
    text = v.text if v.sufficient else "The retrieved triples are not enough to answer."
    return Answer(question=question, text=text, layer="kg" if v.sufficient else "none", pipeline=pipeline,
                  selected=selected, evidence=order_evidence(hits, v.cited if v.sufficient else []),
                  trace=tracer.steps, usage=tracer.total(), ms=round((time.perf_counter() - start) * 1000, 1))
