"""The KG layer's answerer: top-k triples (Emb_kg), then Query_kg's "sufficient?" decision.

    question → top-k triples → signals (no model) + LLM {sufficient, answer, facts}
             → decision → layer "kg" with the cited triples, or "none" with every retrieved triple

The tiny default model's yes/no is unreliable in both directions (NOTES-llama.md), so it is checked
by signals that need no model:

  * entity match — a retrieved triple's subject or object is named in the question: most of its
                   name's words, or a person's first or last name alone ("Alice" names "Alice Smith");
  * score        — the best triple's cosine reaches `kg.min_score`;
  * overlap      — the share of the question's content words (stemmed, stop-worded) that one
                   retrieved triple covers.

`kg.sufficiency` chooses the decision:

  combined        entity match AND score AND (LLM says yes OR overlap ≥ kg.overlap_yes)
  signals         entity match AND score AND overlap ≥ kg.overlap_yes; the LLM only writes the
                  answer, and is not called when the signals say no
  llm             the LLM's yes/no alone
  auto (default)  signals with the tiny default model, combined with any other model

The gate drops the LLM's confident yes over unrelated triples; the overlap term rescues its no
when one triple plainly restates the question. `polyrag bench kg-sufficiency` measures llm, signals
and combined on labelled questions: SmolLM2-135M said yes to 24 of 30 questions, including 15 of
the 20 unanswerable ones, so with that model its vote only added false positives — hence `auto`.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from pyramid.config import KGSettings
from pyramid.kg.index import TripleHit
from pyramid.kg.layer import KGLayer
from pyramid.kg.model import Triple
from pyramid.llm import LLM, LLMSchemaError
from pyramid.normalise import fold
from pyramid.ontology.labels import fold_words
from pyramid.prompts import load_prompt
from pyramid.reading.english import NAME_FILLERS, QUESTION_SCAFFOLDING
from pyramid.reading.terms import shape_of
from pyramid.text_layer import Bm25Tokenizer
from pyramid.types import Answer, Tracer, TraceStep, TripleEvidence
from pyramid.usage import UsageMeter
from querying.options import counted_noun_of_options, counted_options, is_none_option, says_noun, select_options
from querying.question_names import QuestionNames, norm_words, question_names
from querying.shapes import asked

SUFFICIENCY_SCHEMA = {
    "type": "object",
    "properties": {"sufficient": {"type": "boolean"},
                   "answer": {"type": "string", "maxLength": 300},
                   "facts": {"type": "array", "maxItems": 5, "items": {"type": "integer", "minimum": 1}}},
    "required": ["sufficient", "answer", "facts"], "additionalProperties": False}
ANSWER_MAX_TOKENS = 160
ENTITY_COVERAGE = 0.8   # share of an entity name's words that must appear in the question to link it

_DIGITS = re.compile(r"\d+")
_PERSONISH = re.compile(r"^[^\W\d_][^\W\d_ .'’-]*(?:[ .'’-]+[^\W\d_]+)*\.?$")  # letters, spaces, . ' -
_tokenize = Bm25Tokenizer()  # the text layer's BM25 analysis: lower-case, stop-worded, stemmed
# Question scaffolding that no fact restates (BM25's stop list keeps some of these).
QUESTION_TERMS = frozenset(_tokenize(" ".join(QUESTION_SCAFFOLDING)))


def content_terms(text: str) -> list[str]:
    """The words that carry meaning: stemmed, stop-worded, without question scaffolding."""
    return [w for w in _tokenize(text) if w not in QUESTION_TERMS]


def triple_line(t: Triple) -> str:
    return t.text() + "."


ANSWER_GROUNDING = 0.5  # share of the answer's content words the retrieved triples must hold


def grounded_in(answer: str, triples: list[Triple], about: list[Triple] | None = None, question: str = "") -> bool:
    """Is `answer` written from `triples`? At least ANSWER_GROUNDING of its content words occur in them (in
    those `about` what the question names and those joined to them, when given), and of those it adds to the
    `question`'s; every number it writes occurs in those `about` what the question names (all of them when
    not given). The tiny model's answer field holds "false", a made-up date or a word salad often enough
    (seen on the demo), and another event's price beside the right words ("around 3.00 euros", seen on
    the city domain), that an answer the triples do not carry is replaced by the triples themselves."""
    terms = set(content_terms(answer))
    if not terms:
        return False
    # the words come from what the question names or what that joins to, not from a namesake's facts beside
    # them ("Adaeze Jovanovic belongs to the Department of Mathematics", from Priya Jovanovic's)
    # (… under any of their names: "X Laboratory (FSN3419 (ABCT3419))" is "ABCT3419 X Laboratory" written otherwise)
    ends = {e.name for t in about or () for e in (t.subject, t.object)}
    near = [t for t in triples if any(e.name in ends or any(same_thing(e.name, n) for n in ends)
                                      for e in (t.subject, t.object))] if about else triples
    held = {w for t in near for w in _tokenize(t.text())}
    numbers = {n for t in (triples if about is None else about) for n in _DIGITS.findall(t.text())}
    # what the answer adds to the question's own words is what it asserts: that must be held too
    new = terms - set(content_terms(question))
    return len(terms & held) / len(terms) >= ANSWER_GROUNDING and set(_DIGITS.findall(answer)) <= numbers and \
        (not new or len(new & held) / len(new) >= ANSWER_GROUNDING)


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


def named_in(name: str, names: QuestionNames, type: str = "") -> bool:
    """Is the entity `name` named in the question? Yes when ENTITY_COVERAGE of its content words are
    among the question's name words, or — for a person-like name (two to four words of letters, no
    filler, type PERSON or unknown; not an e-mail address or a title in brackets) — when one name of
    the question lies wholly inside it and holds its first or last word: "Where does Alice live?"
    names "Alice Smith", "Alice Jones" does not."""
    all_words = norm_words(name)
    words = [w for w in all_words if w not in NAME_FILLERS] or all_words
    if not words:
        return False
    if sum(w in names.words for w in words) / len(words) >= ENTITY_COVERAGE:
        return True
    if not 2 <= len(words) <= 4 or len(words) != len(all_words) or type not in ("", "PERSON") \
            or not _PERSONISH.match(name):
        return False
    ends = {w for w in (words[0], words[-1]) if len(w) >= 3}
    return any(set(sp) <= set(words) and ends & set(sp) for sp in names.spans)


def whole_names_first(found: Sequence[str], names: QuestionNames) -> set[str]:
    """Of the entity names `found` for a question, those that hold only part of a plain name the
    question writes, when another holds all of it: with "Eric Yim" in the graph, "Yim" is someone
    else. A name joined by "of"/"and" lends its words alone (see `holds_rare`)."""
    words = {n: set(norm_words(n)) for n in found}
    partial: set[str] = set()
    for span in names.spans:
        whole = set(span)
        if span in names.joined or not any(whole <= w for w in words.values()):
            continue
        partial |= {n for n, w in words.items() if w & whole and not whole <= w}
    return partial


def compute_signals(question: str, hits: list[TripleHit]) -> Signals:
    names = question_names(question)
    linked = list(dict.fromkeys(e.name for h in hits for e in (h.triple.subject, h.triple.object)
                                if named_in(e.name, names, e.type)))
    partial = whole_names_first(linked, names)
    linked = [n for n in linked if n not in partial]
    qterms = set(content_terms(question))
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
    llm_error: str = ""     # the LLM reply failed its schema (its vote counted as no)


def judge(llm: LLM, question: str, hits: list[TripleHit], tracer: Tracer, *, mode: str, min_score: float,
          overlap_yes: float, shaped: bool = True) -> Verdict:
    """Signals, the Query_kg call, and the decision; traced as kg.signals and kg.sufficiency. `shaped`: the
    answer must hold the value of the shape asked for (Mindful-RAG computes counts after, and checks them
    against the question's intent itself)."""
    triples = [h.triple for h in hits]
    with tracer.step("kg.signals", "kg") as rec:
        sig = compute_signals(question, hits)
        rec.input.update(sig.to_dict())
        rec.outcome = f"entity match {sig.entity_match}, top score {sig.top_score:.2f}, overlap {sig.overlap:.2f}"
    llm_yes, text, cited_idx = False, "", []
    mode = resolve_mode(mode, llm)
    with tracer.step("kg.sufficiency", "kg", mode=mode, triples=len(triples)) as rec:
        # In signals mode the LLM only writes the answer, with the plain K²RAG answer prompt over the
        # triples (its yes/no would be ignored, and the tiny model often never closes the longer
        # JSON reply: three attempts); no call at all when the signals say no.
        failed = ""
        if mode == "signals":
            if decide("signals", False, sig, min_score, overlap_yes)[0]:
                text = llm.complete(load_prompt("querying", "answer").render(
                    context="\n".join("- " + triple_line(t) for t in triples), question=question),
                    max_tokens=ANSWER_MAX_TOKENS).text.strip()
        else:
            try:
                reply = llm.complete(load_prompt("querying", "kg_sufficiency").render(
                    facts=format_facts(triples), question=question), SUFFICIENCY_SCHEMA,
                    max_tokens=ANSWER_MAX_TOKENS).parsed
                llm_yes, text = bool(reply["sufficient"]), reply["answer"].strip()
                cited_idx = [i - 1 for i in dict.fromkeys(reply["facts"]) if 1 <= i <= len(triples)]
            except LLMSchemaError as err:
                # The tiny model sometimes never closes its JSON: its vote counts as "no" and the
                # answer falls back to the cited triples, rather than losing what the signals found.
                failed = f"{type(err).__name__}: {err}"
        ok, why = decide(mode, llm_yes, sig, min_score, overlap_yes)
        if failed:
            why += f" (the LLM reply failed its schema, counted as no: {failed[:120]})"
        # in every mode: a strong model can be told by a document to say something else
        about = [t for t in triples if t.subject.name in sig.linked or t.object.name in sig.linked]
        if ok and text and not grounded_in(text, triples, about, question):
            why += f"; the LLM's answer {text[:60]!r} is not in the triples, so the triples answer"
            text, cited_idx = "", []
        cited = [triples[i] for i in cited_idx]
        if ok and not cited:
            # The model cited nothing: those naming a question entity among the top 5 (the best triple where none
            # does: a namesake's fact ranked first is no fact of the one asked about).
            cited = [t for t in triples[:5] if t.subject.name in sig.linked or t.object.name in sig.linked][:3] \
                or triples[:1]
        # a number, a time, an address: the answer must hold one (querying.shapes; the KG links names itself)
        wanted = asked(question, framed=True)
        if ok and shaped and wanted.shape and not wanted.holds(" ".join([text, *map(triple_line, cited)])):
            ok, why = False, why + f"; no cited triple {wanted.says(names=False)}"
        rec.outcome = ("sufficient: " if ok else "insufficient: ") + why
    if ok and not text:
        text = " ".join(triple_line(t) for t in cited)
    return Verdict(ok, text, cited, sig, llm_yes, why, failed)


def order_evidence(hits: list[TripleHit], cited: list[Triple]) -> list[TripleEvidence]:
    """Cited triples first (in citation order), then the other retrieved ones by score."""
    rank = {t.id: i for i, t in enumerate(cited)}
    ordered = sorted(hits, key=lambda h: (rank.get(h.triple.id, len(rank)), -h.score))
    return evidence(ordered)


def answer_triples(kg: KGLayer, llm: LLM, cfg: KGSettings, meter: UsageMeter, question: str, *,
                   options: list[str] | None = None, k: int | None = None) -> Answer:
    """Answer from the KG layer; `layer="none"` (with the retrieved triples) when they are not enough.
    With options, each option is first checked against the triples that join it to what the question
    names (`option_support`); the supported ones answer, with those triples as the evidence."""
    start = time.perf_counter()
    tracer = Tracer(meter)
    if options:
        with tracer.step("kg.options", "kg", options=len(options), k=OPTION_K) as rec:
            selected, support = option_support(kg, question, options)
            rec.outcome = (f"options {selected} supported by {len(support)} triples" if selected
                           else "no option joined to what the question names")
        if selected:
            cited = [h.triple for h in support]
            text = "; ".join(dict.fromkeys(triple_line(t) for t in cited[:5]))
            return Answer(question=question, text=text, layer="kg", pipeline="kg-options", selected=selected,
                          evidence=evidence(support), trace=tracer.steps, usage=tracer.total(),
                          ms=round((time.perf_counter() - start) * 1000, 1))
    with tracer.step("kg.retrieve", "kg", k=k or cfg.k, expand=cfg.expand) as rec:
        hits = kg.search(question, k=k or cfg.k, expand=cfg.expand)
        rec.outcome = f"{len(hits)} triples" + (f", best {hits[0].score:.2f}" if hits else "")
    return finish(question, hits, llm, cfg, tracer, start, options, pipeline="kg")


OPTION_K = 10  # triples retrieved to find an option's entity
OPTION_TRIPLES = 300  # of its triples read, at most
COMMON_SHARE = 0.6  # a thing joined to more than this share of the options supports none of them
RARE = 100          # a term held by at most this many entity names of the KG names a thing, not a kind


def _name_words(text: str) -> frozenset[str]:
    return frozenset(fold_words(text))


def same_thing(option: str, name: str) -> bool:
    """Does a KG entity's name name the option? The same words once titles, case, accents and a CJK
    rendering are set aside ("ZHANG Dan" = "ZHANG Dan 張丹 (Prof.)"), or one name of two words or
    more wholly inside the other. An e-mail, web address or phone number is only itself."""
    if shape_of(option) is not None or shape_of(name) is not None:
        # an address is the value itself: "www.steinkar-hut.example" names no "Steinkar Hut", whose words it holds
        return option.strip().casefold() == name.strip().casefold()
    a, b = _name_words(option), _name_words(name)
    if not a or not b:
        return False
    return a == b or (min(len(a), len(b)) >= 2 and (a <= b or b <= a))


_TERM_COUNTS: dict[int, tuple[object, Counter]] = {}


def name_term_counts(kg: KGLayer) -> Counter:
    """How many names and relations of the KG hold each content term, once per index generation. A
    word that a thousand of them hold ("staff", "department", "interest") names a kind of thing or a
    relation; one that ten hold ("mechatronics") names a thing."""
    index = kg.index.load()
    key = id(index)
    cached = _TERM_COUNTS.get(key)
    if cached is None or cached[0] is not index.triples:
        counts: Counter = Counter()
        for t in index.triples:
            for text in (t.subject.name, t.relation, t.object.name):
                counts.update(set(content_terms(text)))
        _TERM_COUNTS.clear()
        cached = _TERM_COUNTS[key] = (index.triples, counts)
    return cached[1]


def option_support(kg: KGLayer, question: str, options: Sequence[str]) -> tuple[list[int], list[TripleHit]]:
    """The options a triple joins to what the question names: for each option, the triples retrieved
    for the option and the question together; one supports the option when one of its ends is the
    option and the other end is named by the question (its name words are the question's, or its
    content words all occur in the question: "mechatronics")."""
    names = question_names(question)
    terms = set(content_terms(question))
    counts = name_term_counts(kg)
    # the question's rare terms name what it is about ("proteomics"); its common ones name kinds
    # ("staff", "department"): an end holding most of the rare ones is named by the question
    rare = {w for w in terms if counts[w] <= RARE} - {w for o in options for w in content_terms(o)}
    real = [i for i, o in enumerate(options) if o.strip() and not is_none_option(o)]
    # a count's options are numbers: a triple's number supports one only where its relation names what is
    # counted ("bedCount" for "how many beds", never for "how many clinicians")
    noun = counted_noun_of_options(question, options)
    found: dict[int, list[tuple[TripleHit, str]]] = {}
    store = kg.store()
    for i in real:
        # the option's own entities (found by its name), then every triple they take part in
        hits = kg.search(options[i], k=OPTION_K)
        ids = list(dict.fromkeys(e.id for h in hits for e in (h.triple.subject, h.triple.object)
                                 if same_thing(options[i], e.name)))
        triples = store.neighbours(ids, hops=1, limit=OPTION_TRIPLES) if ids else []
        scores = kg.index.score([t.id for t in triples], kg.embedder.embed_one(question, kind="query"))
        for t in sorted(triples, key=lambda t: -scores.get(t.id, 0.0)):
            if noun is not None and not says_noun(noun, t.relation):
                continue
            h = TripleHit(t, scores.get(t.id, 0.0), "option")
            for mine, other in ((t.subject, t.object), (t.object, t.subject)):
                # (an address names nothing a question asks about, whatever words its domain holds)
                if same_thing(options[i], mine.name) and not same_thing(options[i], other.name) and \
                        shape_of(other.name) is None and \
                        (named_in(other.name, names, other.type) or holds_rare(other.name, rare, names)):
                    found.setdefault(i, []).append((h, fold(other.name)))
                    break
    partial = whole_names_first([end for pairs in found.values() for _, end in pairs], names)
    found = {i: kept for i, pairs in found.items() if (kept := [(h, end) for h, end in pairs if end not in partial])}
    selected, support = _uncommon(found, len(real))
    if not selected:  # no option one step from what the question names: try two steps through a middle
        selected, support = _uncommon(_two_steps(kg, question, names, rare, options, real), len(real))
    return selected, support


def holds_rare(name: str, rare: set[str], names: QuestionNames) -> bool:
    """Does the entity hold one of the question's rare terms ("proteomics")? A term the question writes
    inside a plain name counts only with that whole name: "Yim" of "Eric Yim, JP" does not make "Derek
    YIM" the one asked about, nor "Tsang" of "KC Tsang" "Daniel C.W. Tsang". A name joined by "of" or
    "and" says what its thing is about ("Department of Rehabilitation Sciences"): its words count alone."""
    terms = set(content_terms(name))
    held = rare & terms
    for span in names.spans:
        if span in names.joined:
            continue
        words = set(content_terms(" ".join(span)))
        if held & words and not words <= terms:
            held -= words
    return bool(held)


def _uncommon(found: dict[int, list[tuple[TripleHit, str]]], n_options: int) -> tuple[list[int], list[TripleHit]]:
    """The options with support, less support through a thing joined to most of the options: that
    tells none of them apart ("X is a staff member", "Y is a department" for a question about staff
    members or departments)."""
    ends: dict[str, set[int]] = {}
    for i, pairs in found.items():
        for _, end in pairs:
            ends.setdefault(end, set()).add(i)
    common = {end for end, who in ends.items() if len(who) > COMMON_SHARE * n_options}
    selected, support = [], []
    for i in sorted(found):
        kept = [h for h, end in found[i] if end not in common]
        if kept:
            selected.append(i)
            support.extend(kept[:2])
    return selected, support


def _two_steps(kg: KGLayer, question: str, names: QuestionNames, rare: set[str], options: Sequence[str],
               real: Sequence[int]) -> dict[int, list[tuple[TripleHit, str]]]:
    """Options two triples away from what the question names ("the faculty of X's department": X works
    for D, D belongs to F): the question's own entities (found by search, named by the question), the
    things one step from them, and the triples from those things to an option. Each option's support is
    the pair of triples; the middle thing is its end for the common-evidence check."""
    hits = kg.search(question, k=OPTION_K)
    ends = {e.id: e.name for h in hits for e in (h.triple.subject, h.triple.object)
            if named_in(e.name, names, e.type) or holds_rare(e.name, rare, names)}
    partial = whole_names_first(list(ends.values()), names)
    own = [i for i, name in ends.items() if name not in partial]
    if not own:
        return {}
    store = kg.store()
    first: dict[str, Triple] = {}  # a middle thing → the triple joining it to the question's entity
    for t in store.neighbours(own, hops=1, limit=OPTION_TRIPLES):
        for mid, end in ((t.subject, t.object), (t.object, t.subject)):
            if end.id in own and mid.id not in own:
                first.setdefault(mid.id, t)
    found: dict[int, list[tuple[TripleHit, str]]] = {}
    for t in store.neighbours(list(first), hops=1, limit=OPTION_TRIPLES) if first else []:
        for mid, end in ((t.subject, t.object), (t.object, t.subject)):
            if mid.id not in first or end.id in own:
                continue
            for i in real:
                if same_thing(options[i], end.name) and not same_thing(options[i], mid.name):
                    found.setdefault(i, []).extend([(TripleHit(first[mid.id], 0.0, "option"), fold(mid.name)),
                                                    (TripleHit(t, 0.0, "option"), fold(mid.name))])
    return found


def finish(question: str, hits: list[TripleHit], llm: LLM, cfg: KGSettings, tracer: Tracer, start: float,
           options: list[str] | None, *, pipeline: str, verdict: Verdict | None = None) -> Answer:
    """Judge `hits` (unless a verdict is given) and build the Answer."""
    if not hits:
        tracer.steps.append(TraceStep(step="kg.sufficiency", layer="kg", outcome="insufficient: no triples"))
        return Answer(question=question, text="The knowledge graph holds nothing on this question.", layer="none",
                      pipeline=pipeline, trace=tracer.steps, usage=tracer.total(),
                      ms=round((time.perf_counter() - start) * 1000, 1))
    v = verdict or judge(llm, question, hits, tracer, mode=cfg.sufficiency, min_score=cfg.min_score,
                         overlap_yes=cfg.overlap_yes)
    selected = None
    if options and v.sufficient:
        # the cited facts, the answer, and every retrieved fact about an entity the question names
        about = [h.triple for h in hits if {h.triple.subject.name, h.triple.object.name} & set(v.signals.linked)]
        support = [*v.cited, *about]
        # a count's options by the number said beside the counted noun; else the ends by name (an option
        # is usually an entity), the whole facts, and the answer
        selected = counted_options(question, options, [triple_line(t) for t in support] + [v.text])
        if selected is None:
            selected = select_options(options, [n for t in support for n in (t.object.name, t.subject.name)]
                                      + [triple_line(t) for t in support] + [v.text])
    answered = v.sufficient
    text = v.text if answered else "The retrieved triples are not enough to answer."
    if options and answered and not selected:
        # an answer naming none of the options answers no choice question: the text layer may (the
        # ontology hands such a question down the same way)
        tracer.steps.append(TraceStep(step="kg.options", layer="kg", input={"answer": v.text[:200]},
                                      outcome="the answer supports none of the options: handed down"))
        answered, text = False, "The knowledge graph's answer supports none of the options."
    return Answer(question=question, text=text, layer="kg" if answered else "none", pipeline=pipeline,
                  selected=selected if answered else None, evidence=order_evidence(hits, v.cited if v.sufficient else []),
                  trace=tracer.steps, usage=tracer.total(), ms=round((time.perf_counter() - start) * 1000, 1))
