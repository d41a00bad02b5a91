"""`polyrag bench extraction`: extraction quality against hand-labelled gold, per method.

Gold (benchmarks/gold/, written by reading the texts): KG facts of the 14 demo documents and of the
first 40 multihop documents; ontology facts of the demo documents under ontology_schemas/academic.ttl.
The rules of pyramid/reading/rules.py were written while reading those same texts, so their figures there
are in-sample; `multihop-heldout` (rows 41–60, gold written before the rules were run on them, rules
not changed afterwards) is the out-of-sample check. The dependency-parse reader (pyramid/reading/parse.py)
was likewise developed on demo and multihop rows 1–40 only, and run on the held-out rows once, after.

KG methods (pyramid/kg/extractors/, one module per mode): `rules` (no model; sentences read by spaCy's dependency
parse, pyramid/reading/parse.py), `rules-regex` (no model; the English-surface regex rules of
pyramid/reading/rules.py, the reader before the parse), `rules-both` (both readers' triples together),
`grounded` (rules plus the model on the sentences the rules cannot read, under enums of the
sentence's spans), `grounded-llm` (the model on every sentence under the same enums and checks, no
rule triples: what the model itself adds), `single` and `cascade` (the paper's methods). Ontology
methods (`ontology.extract_method`): `chunk` (one f_ins call per chunk, the paper's) and `grounded`
(which reads sentences with the regex rules: pyramid/ontology/extract.py calls grounding.read).

Matching, one-to-one per document (greedy, best relation similarity first):
- names: case, accents, punctuation, titles (Dr, Prof) and function words dropped; the Jaccard
  overlap of the remaining words ≥ NAME_THRESHOLD (0.5) with one of the gold alternatives
  ('COMP3010' ~ 'COMP3010|COMP3010 Information Retrieval'; 'Department of Physics' ≁ 'Department
  of Computing': 1/3);
- KG relations: MiniLM cosine ≥ REL_THRESHOLD (0.6) to one of the gold wordings ('is head of' ~
  'head is' 0.82, 'hosts research groups in' ~ 'hosts research in' 0.87; 'works on' ≁ 'teaches'
  0.22, 'won' ≁ 'scored' 0.54); a gold triple with inverse wordings also matches [object, inverse,
  subject];
- ontology facts: the same property (or one a sub-property of the other: head_of ~ works_for), an
  inverse property read backwards (taught_by ~ teaches), subject and value names matched as above;
  typing: an extracted (name, class) is right when the class is the gold class or one of its
  superclasses (less specific but true); recall counts gold instances given exactly their class.

Costs: LLM calls and tokens (cache-blind: a warm cache cannot flatter) and wall seconds per document.
"""

from __future__ import annotations

import json
import re
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.report import md_table, write_report
from pyramid.corpus import Document, load_documents
from pyramid.ontology.labels import fold_word
from pyramid.progress import NullProgress, Progress

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT / "benchmarks" / "gold"
DEMO = ROOT / "examples" / "demo" / "documents.jsonl"
SCHEMA = ROOT / "ontology_schemas" / "academic.ttl"
MULTIHOP = ROOT.parent / "shared" / "data" / "multihop_kg" / "documents.csv"
NAME_THRESHOLD = 0.5
REL_THRESHOLD = 0.6
KG_METHODS = ("rules", "rules-regex", "rules-both", "grounded", "grounded-llm", "single", "cascade")
ONTO_METHODS = ("chunk", "grounded")
_DROP = {"dr", "prof", "professor_title", "mr", "mrs", "ms", "the", "a", "an", "of", "and", "s", "in", "at", "on",
         "for", "to", "its", "his", "her", "their"}


# ------------------------------------------------------------------ matching
def name_words(text: str) -> set[str]:
    return {fold_word(w) for w in re.findall(r"\w+", text)} - _DROP - {""}


def name_match(extracted: str, gold: str) -> bool:
    a = name_words(extracted)
    for alt in gold.split("|"):
        b = name_words(alt)
        if a and b and len(a & b) / len(a | b) >= NAME_THRESHOLD:
            return True
    return False


@dataclass
class Counts:
    tp: int = 0
    extracted: int = 0
    gold: int = 0

    def add(self, other: Counts) -> None:
        self.tp, self.extracted, self.gold = self.tp + other.tp, self.extracted + other.extracted, self.gold + other.gold

    def prf(self) -> dict[str, float]:
        p = self.tp / self.extracted if self.extracted else 0.0
        r = self.tp / self.gold if self.gold else 0.0
        return {"precision": round(p, 3), "recall": round(r, 3), "f1": round(2 * p * r / (p + r), 3) if p + r else 0.0,
                "tp": self.tp, "extracted": self.extracted, "gold": self.gold}


class RelationSimilarity:
    """MiniLM cosine between relation phrases (cached per phrase)."""

    def __init__(self, embedder) -> None:
        self.embedder, self.vec = embedder, {}

    def prepare(self, phrases) -> None:
        todo = sorted({p for p in phrases if p not in self.vec})
        if todo:
            for p, v in zip(todo, self.embedder.embed(todo)):
                self.vec[p] = v

    def __call__(self, a: str, alts: str) -> float:
        self.prepare([a, *alts.split("|")])
        return max(float(np.dot(self.vec[a], self.vec[b])) for b in alts.split("|"))


def score_kg(extracted: list[tuple[str, str, str]], gold: list[list[str]], sim: RelationSimilarity
             ) -> tuple[Counts, list[dict]]:
    """One document: greedy one-to-one matching (see module docstring)."""
    ex = list({(" ".join(name_words(s)), r.lower().strip(), " ".join(name_words(o))): (s, r, o)
               for s, r, o in extracted}.values())
    pairs = []
    for i, (s, r, o) in enumerate(ex):
        for j, g in enumerate(gold):
            best = 0.0
            if name_match(s, g[0]) and name_match(o, g[2]):
                best = sim(r, g[1])
            if len(g) > 3 and g[3] and name_match(o, g[0]) and name_match(s, g[2]):
                best = max(best, sim(r, g[3]))
            if best >= REL_THRESHOLD:
                pairs.append((best, i, j))
    used_e, used_g, matches = set(), set(), []
    for best, i, j in sorted(pairs, reverse=True):
        if i not in used_e and j not in used_g:
            used_e.add(i)
            used_g.add(j)
            matches.append({"extracted": ex[i], "gold": gold[j], "similarity": round(best, 3)})
    return Counts(len(matches), len(ex), len(gold)), errors(ex, gold, used_e, used_g)


def errors(ex: list, gold: list, used_e: set[int], used_g: set[int]) -> dict[str, list]:
    """What to audit: extracted facts that matched no gold fact, gold facts nothing matched."""
    return {"unmatched_extracted": [ex[i] for i in range(len(ex)) if i not in used_e],
            "missed_gold": [gold[j] for j in range(len(gold)) if j not in used_g]}


# ------------------------------------------------------------------ data
def load_gold(name: str) -> dict[str, Any]:
    out = {}
    for line in (GOLD / name).read_text(encoding="utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            out[d["doc"]] = d
    return out


def corpus(name: str, limit: int | None = None) -> list[Document]:
    if name == "demo":
        docs = load_documents(DEMO).documents
    elif name == "multihop":
        docs = load_documents(MULTIHOP, fmt="csv").documents[:40]
    elif name == "multihop-heldout":
        docs = load_documents(MULTIHOP, fmt="csv").documents[40:60]
    else:
        raise ValueError(f"unknown corpus {name!r} (demo, multihop, multihop-heldout)")
    return docs[:limit] if limit else docs


# ------------------------------------------------------------------ runs
def _llm(ws_root: Path, warm_cache: Path | None):
    from pyramid.config import load_settings
    from pyramid.llm import make_llm
    from pyramid.usage import UsageMeter

    settings = load_settings(None)
    cache = warm_cache if warm_cache is not None else ws_root / "llm.sqlite"
    return make_llm(settings.llm, cache_path=cache, meter=UsageMeter())


def run_kg(method: str, docs: list[Document], gold: dict[str, Any], embedder, sim: RelationSimilarity,
           warm_cache: Path | None, progress: Progress) -> dict[str, Any]:
    from pyramid.chunker import Chunker
    from pyramid.config import KGSettings
    from pyramid.kg.extractors import TRIPLE_EXTRACTORS
    from pyramid.kg.extractors.grounded import GroundedExtractor
    from pyramid.kg.extractors.rules import RulesExtractor
    from pyramid.llm import LLMError

    cfg = KGSettings()
    chunker = Chunker(embedder.tokenizer, cfg.chunk_size, cfg.chunk_overlap)
    totals, per_doc, failed = Counts(), [], 0
    with tempfile.TemporaryDirectory(prefix="polyrag-bench-extraction-") as tmp:
        llm = _llm(Path(tmp), warm_cache)
        if method == "grounded-llm":  # the model on every sentence, not only where the rules read nothing
            extractor = GroundedExtractor(llm, cfg.min_grounding, llm_for="all")
        elif method.startswith("rules-"):  # the other sentence readers: regex, both
            extractor = RulesExtractor(llm, cfg.min_grounding, reader=method.removeprefix("rules-"))  # type: ignore[arg-type]
        else:
            extractor = TRIPLE_EXTRACTORS.get(method).build(llm, cfg)
        task = progress.task(f"extraction benchmark: {method}", len(docs))
        seconds, calls, tokens = 0.0, 0, 0
        for d in docs:
            triples = []
            start = time.perf_counter()
            with llm.meter.scope() as u:
                for chunk in chunker.chunk(d):
                    try:
                        ex = extractor.extract_chunk(chunk, title=d.metadata.get("title", ""))
                        triples += [(t.head, t.relation, t.tail) for t in ex.triples]
                    except LLMError:
                        failed += 1
            elapsed = time.perf_counter() - start
            seconds, calls, tokens = seconds + elapsed, calls + u.calls + u.cache_hits, tokens + u.cost_tokens
            c, detail = score_kg(triples, gold.get(d.id, {}).get("triples", []), sim)
            totals.add(c)
            per_doc.append({"doc": d.id, **c.prf(), "seconds": round(elapsed, 2), **detail})
            task.advance()
        task.done()
        llm_name = llm.name
    n = max(len(docs), 1)
    return {"method": method, "llm": llm_name if not method.startswith("rules") else "none", **totals.prf(),
            "calls_per_doc": round(calls / n, 2), "tokens_per_doc": round(tokens / n, 1),
            "seconds_per_doc": round(seconds / n, 2), "failed_chunks": failed, "documents": per_doc}


def _ontology_facts(layer, doc_ids: list[str]) -> tuple[dict[str, list[tuple[str, str, str]]], set[tuple[str, str]]]:
    """Per document graph: (subject label, property local name, value label or literal); and every
    (name, class) asserted by extraction."""
    import pyoxigraph as ox

    store = layer.store
    graphs = [g for g in store.graphs() if g.startswith("doc:")]
    labels: dict[str, str] = {}
    for q in store.quads(graphs):
        if q.predicate.value.endswith("#label"):
            labels.setdefault(q.subject.value, q.object.value)
    local = lambda iri: re.split(r"[#/]", iri)[-1]
    facts: dict[str, list[tuple[str, str, str]]] = {}
    types: set[tuple[str, str]] = set()
    for d in doc_ids:
        out = []
        if f"doc:{d}" in graphs:
            for q in store.quads([f"doc:{d}"]):
                s, p, o = q.subject.value, local(q.predicate.value), q.object
                if p == "type":
                    types.add((labels.get(s, local(s)), local(o.value)))
                elif p != "label":
                    value = o.value if isinstance(o, ox.Literal) else labels.get(o.value, local(o.value))
                    out.append((labels.get(s, local(s)), p, value))
        facts[d] = out
    return facts, types


def _schema_relations() -> tuple[dict[str, set[str]], dict[str, str]]:
    import rdflib

    g = rdflib.Graph().parse(SCHEMA)
    local = lambda x: re.split(r"[#/]", str(x))[-1]
    supers: dict[str, set[str]] = {}
    for s, o in g.subject_objects(rdflib.RDFS.subPropertyOf):
        supers.setdefault(local(s), set()).add(local(o))
    inverse = {}
    for s, o in g.subject_objects(rdflib.OWL.inverseOf):
        inverse[local(s)], inverse[local(o)] = local(o), local(s)
    return supers, inverse


def _class_ancestors() -> dict[str, set[str]]:
    import rdflib

    g = rdflib.Graph().parse(SCHEMA)
    local = lambda x: re.split(r"[#/]", str(x))[-1]
    parents: dict[str, set[str]] = {}
    for s, o in g.subject_objects(rdflib.RDFS.subClassOf):
        parents.setdefault(local(s), set()).add(local(o))

    def up(c: str) -> set[str]:
        out, todo = set(), [c]
        while todo:
            for p in parents.get(todo.pop(), ()):
                if p not in out:
                    out.add(p)
                    todo.append(p)
        return out
    return {c: up(c) for c in set(parents) | {o for v in parents.values() for o in v}}


def score_ontology(extracted: list[tuple[str, str, str]], gold_doc: dict[str, Any]) -> tuple[Counts, list[dict]]:
    supers, inverse = _schema_relations()
    gold = [(i["name"], f[0], f[1]) for i in gold_doc.get("instances", []) for f in i["facts"]]
    ex = list(dict.fromkeys(extracted))

    def same_prop(a: str, b: str) -> bool:
        return a == b or b in supers.get(a, ()) or a in supers.get(b, ())

    pairs = []
    for i, (s, p, o) in enumerate(ex):
        for j, (gs, gp, go) in enumerate(gold):
            fwd = same_prop(p, gp) and name_match(s, gs) and name_match(o, go)
            back = p in inverse and same_prop(inverse[p], gp) and name_match(o, gs) and name_match(s, go)
            if fwd or back:
                pairs.append((i, j))
    used_e, used_g, matches = set(), set(), []
    for i, j in pairs:
        if i not in used_e and j not in used_g:
            used_e.add(i)
            used_g.add(j)
            matches.append({"extracted": ex[i], "gold": gold[j]})
    return Counts(len(matches), len(ex), len(gold)), errors(ex, gold, used_e, used_g)


def score_typing(types: set[tuple[str, str]], gold: dict[str, Any]) -> dict[str, Any]:
    ancestors = _class_ancestors()
    wanted: dict[str, str] = {}
    for d in gold.values():
        for inst in d["instances"]:
            cur = wanted.get(inst["name"])
            # the most specific class any document supports
            if cur is None or cur in ancestors.get(inst["class"], ()):
                wanted[inst["name"]] = inst["class"]
    right = sum(any(name_match(n, g) and (c == cls or c in ancestors.get(cls, ())) for g, cls in wanted.items())
                for n, c in types)
    exact = sum(any(name_match(n, g) and c == cls for n, c in types) for g, cls in wanted.items())
    p = right / len(types) if types else 0.0
    r = exact / len(wanted) if wanted else 0.0
    return {"precision": round(p, 3), "recall": round(r, 3), "f1": round(2 * p * r / (p + r), 3) if p + r else 0.0,
            "extracted": len(types), "gold_instances": len(wanted), "exact": exact, "right": right}


def run_ontology(method: str, docs: list[Document], gold: dict[str, Any], embedder, warm_cache: Path | None,
                 progress: Progress) -> dict[str, Any]:
    from pyramid.config import load_settings
    from pyramid.ontology.extract import extract_instances
    from pyramid.session import Session
    from pyramid.workspace import Workspace

    with tempfile.TemporaryDirectory(prefix="polyrag-bench-onto-") as tmp:
        ws = Workspace.init(Path(tmp) / "ws")
        settings = load_settings(ws.root / "polyrag.toml", ontology={"extract_method": method})
        ws = Workspace(ws.root, settings)
        s = Session(ws, embedder=embedder)
        if warm_cache is not None:
            from pyramid.llm import make_llm
            s.llm = make_llm(settings.llm, cache_path=warm_cache, meter=s.meter)
        s.ontology.load_schema(SCHEMA)
        s.corpus.update(docs)
        start = time.perf_counter()
        r = extract_instances(s.ws, s.ontology, s.llm, s.embedder, select=s.ontology.select_trusted,
                              progress=progress)
        elapsed = time.perf_counter() - start
        facts, types = _ontology_facts(s.ontology, [d.id for d in docs])
        llm_name = s.llm.name
    totals, per_doc = Counts(), []
    for d in docs:
        c, detail = score_ontology(facts.get(d.id, []), gold.get(d.id, {}))
        totals.add(c)
        per_doc.append({"doc": d.id, **c.prf(), **detail})
    n = max(len(docs), 1)
    u = r.usage
    return {"method": method, "llm": llm_name, **totals.prf(), "typing": score_typing(types, gold),
            "calls_per_doc": round((u.calls + u.cache_hits) / n, 2), "tokens_per_doc": round(u.cost_tokens / n, 1),
            "seconds_per_doc": round(elapsed / n, 2), "failed_chunks": len(r.failed_chunks),
            "types": sorted(types), "documents": per_doc}


def run(out_dir: Path, *, kg_methods: tuple[str, ...] = KG_METHODS, onto_methods: tuple[str, ...] = ONTO_METHODS,
        corpora: tuple[str, ...] = ("demo", "multihop", "multihop-heldout"), limit: int | None = None,
        warm_cache: Path | None = None,
        progress: Progress | None = None, name: str = "extraction", previous: Path | None = None) -> dict[str, Any]:
    """`previous`: an earlier report (JSON) whose rows for methods not run now are kept (and marked),
    so a change to one method does not re-run the others' model calls."""
    from benchmarks.kg import _embedder

    progress = progress or NullProgress()
    emb = _embedder()
    sim = RelationSimilarity(emb)
    kg: dict[str, dict[str, Any]] = {}
    for c in corpora:
        gold = load_gold(f"{c.replace('-', '_')}_kg.jsonl")
        docs = corpus(c, limit)
        kg[c] = {m: run_kg(m, docs, gold, emb, sim, warm_cache, progress) for m in kg_methods}
    onto = {}
    if onto_methods and "demo" in corpora:
        gold = load_gold("demo_ontology.jsonl")
        docs = corpus("demo", limit)
        onto = {m: run_ontology(m, docs, gold, emb, warm_cache, progress) for m in onto_methods}
    kept: list[str] = []
    if previous is not None:
        old = json.loads(Path(previous).read_text(encoding="utf-8"))
        when = old.get("machine", {}).get("date", "an earlier run")
        for c, methods in old.get("kg", {}).items():
            for m, row in methods.items():
                if c in kg and m not in kg[c]:
                    kg[c][m] = {**row, "from_run": row.get("from_run", when)}
                    kept.append(f"KG {c} / {m}")
        for m, row in old.get("ontology", {}).items():
            if m not in onto and onto_methods is not None:
                onto[m] = {**row, "from_run": row.get("from_run", when)}
                kept.append(f"ontology / {m}")
        order = {m: i for i, m in enumerate(KG_METHODS)}
        kg = {c: dict(sorted(ms.items(), key=lambda x: order.get(x[0], 99))) for c, ms in kg.items()}
        onto = dict(sorted(onto.items(), key=lambda x: ONTO_METHODS.index(x[0]) if x[0] in ONTO_METHODS else 99))
    data = {"thresholds": {"name_jaccard": NAME_THRESHOLD, "relation_cosine": REL_THRESHOLD}, "kept_rows": kept,
            "cache": "warm (shared)" if warm_cache else "cold", "limit": limit, "kg": kg, "ontology": onto}
    write_report(out_dir, name, data, markdown(data))
    return data


def markdown(data: dict[str, Any]) -> str:
    th = data["thresholds"]
    intro = ("Hand-labelled gold in `benchmarks/gold/`. A triple matches a gold triple when subject and object "
             f"match (words folded, titles and function words dropped, Jaccard ≥ {th['name_jaccard']}) and the "
             f"relation is MiniLM-cosine ≥ {th['relation_cosine']} to a gold wording (ontology facts: the same "
             "property). One-to-one per document. Calls and tokens per document are cache-blind; seconds are "
             f"wall time per document ({data['cache']} LLM cache).")
    lines = ["# Extraction quality (`polyrag bench extraction`)", "", intro, ""]
    if data.get("kept_rows"):
        rows = [d for ms in data["kg"].values() for d in ms.values()] + list(data["ontology"].values())
        whens = sorted({d["from_run"] for d in rows if d.get("from_run")})
        lines += [f"Rows kept from an earlier run of the same, unchanged code ({', '.join(whens)}): "
                  + "; ".join(data["kept_rows"]) + ".", ""]
    for c, methods in data["kg"].items():
        n_gold = next(iter(methods.values()))["gold"] if methods else 0
        lines += [f"## KG triples: {c} ({n_gold} gold triples)", "",
                  md_table(["method", "precision", "recall", "F1", "extracted", "matched", "LLM calls/doc",
                            "tokens/doc", "s/doc", "failed chunks"],
                           [[m, d["precision"], d["recall"], d["f1"], d["extracted"], d["tp"], d["calls_per_doc"],
                             d["tokens_per_doc"], d["seconds_per_doc"], d["failed_chunks"]]
                            for m, d in methods.items()]), ""]
    if data["ontology"]:
        first = next(iter(data["ontology"].values()))
        title = (f"## Ontology facts: demo ({first['gold']} gold facts, "
                 f"{first['typing']['gold_instances']} gold instances)")
        lines += [title, "",
                  md_table(["method", "precision", "recall", "F1", "extracted", "matched", "typing P", "typing R",
                            "LLM calls/doc", "tokens/doc", "s/doc", "failed chunks"],
                           [[m, d["precision"], d["recall"], d["f1"], d["extracted"], d["tp"], d["typing"]["precision"],
                             d["typing"]["recall"], d["calls_per_doc"], d["tokens_per_doc"], d["seconds_per_doc"],
                             d["failed_chunks"]] for m, d in data["ontology"].items()]), ""]
    return "\n".join(lines)
