"""`polyrag bench pages`: the pyramid built from a domain's web pages, then measured.

    pages_dev.jsonl + polyu_schema.ttl ─ build_pyramid (text, KG, ontology: the workspace's defaults)
        ├─ build cost: seconds per step, LLM calls and tokens, model calls per page
        ├─ extraction: each page's main entity in its graph "doc:<page id>" against the gold facts
        │  of that entity in polyu/polyu_onto.ttl, precision/recall/F1 per property
        └─ AcadChall questions through the waterfall on the built workspace (benchmarks.acadchall)

Only the scoring reads the gold ontology; the build sees the pages and the schema alone. The
workspace (default `reports/.cache/pages-ws`) is rebuilt when the pages file, the schema, `limit` or
the build settings (defaults + POLYRAG_* environment) change; a build that stopped half-way is resumed.

Gold of a page: `staff-me30` is `base:ME30`, `dept-aae` is `base:AAE`, `subject-comp3423` is both
`base:comp3423` (the course's facts) and `base:COMP3423` (its `a base:COURSE`): a page's entity is
every gold subject whose local name is the page's code, case folded. Literals are compared by their
lexical form, object values by their rdfs:label, both folded by `pyramid.normalise.fold`; the gold
keeps its noise (single letters under has_position, empty strings), and the report says how many
gold values are written in the page at all (the recall a perfect reader could reach).
"""

from __future__ import annotations

import hashlib
import json
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from benchmarks import acadchall
from benchmarks.report import clear_for_rebuild, ignore_cache_dir, md_table, write_report
from pyramid.progress import NullProgress, Progress
from pyramid.session import Session
from pyramid.types import LAYERS
from pyramid.workspace import Workspace, atomic_write_text

NAME = "pages"
NS = "http://example.org/"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
# reported first, in this order; any other property either side has follows
PROPERTIES = ("works_for", "offered_by", "belongs_to", "has_research_interest", "has_subject_code",
              "has_subject_title", "has_position", "has_subject_level", "has_credit_value", "obtained_degree",
              "graduated_from")
STAMP = "pages-source.json"      # what the workspace was built from; "status": building | built
BUILD_RECORD = "pages-build.json"  # the cost of the build that did the work, kept for reuse
SETTING_SECTIONS = ("llm", "embeddings", "corpus", "text", "kg", "ontology")  # those a build depends on
# pages about one entity each are read by the schema-aware reader (pyramid.reading.page_reader): the
# ontology's instances and, through kg.mode auto, the KG's triples; no model
OVERRIDES = {"ontology": {"extract_method": "read"}}

Select = Callable[[str], list[dict[str, str]]]
Values = list[tuple[str, ...]]    # one value per item; an object value's alternatives are its labels
Facts = dict[str, Values]         # property (local name) -> values


@dataclass(frozen=True)
class Triple:
    s: str
    p: str
    o: str
    literal: bool


# ------------------------------------------------------------------ gold
def _local(iri: str) -> str:
    from pyramid.ontology.rdfio import local_name

    return local_name(iri)


def prop_name(iri: str, ns: str = NS) -> str:
    return iri[len(ns):] if iri.startswith(ns) else iri


_GOLD_FACTS = f"""SELECT ?s ?p (STR(?o) AS ?v) (isIRI(?o) AS ?obj) ?l WHERE {{
  ?s ?p ?o . FILTER(?p != <{RDF_TYPE}> && ?p != <{RDFS_LABEL}>)
  OPTIONAL {{ ?o <{RDFS_LABEL}> ?l }} }}"""
_GOLD_TYPES = f"SELECT ?s ?c WHERE {{ ?s <{RDF_TYPE}> ?c }}"


@dataclass
class Gold:
    """The gold facts per subject IRI and the subjects' classes, indexed by folded local name."""

    facts: dict[str, Facts]
    classes: dict[str, set[str]]
    ns: str = NS

    def iris(self, page_id: str) -> list[str]:
        """Gold subjects of a page: those whose local name is the page's code (`staff-me30` → ME30),
        case folded (a course's facts and its typing sit on two IRIs differing in case)."""
        code = page_id.split("-", 1)[1].casefold() if "-" in page_id else page_id.casefold()
        return sorted(self._by_code.get(code, ()))

    @cached_property
    def _by_code(self) -> dict[str, set[str]]:
        index: dict[str, set[str]] = defaultdict(set)
        for iri in set(self.facts) | set(self.classes):
            if iri.startswith(self.ns):
                index[iri[len(self.ns):].casefold()].add(iri)
        return dict(index)

    def page_facts(self, page_id: str) -> Facts:
        out: Facts = defaultdict(list)
        for iri in self.iris(page_id):
            for p, vals in self.facts.get(iri, {}).items():
                out[p].extend(vals)
        return dict(out)

    def page_classes(self, page_id: str) -> set[str]:
        return {prop_name(c, self.ns) for iri in self.iris(page_id) for c in self.classes.get(iri, ())}


def gold_from_select(select: Select, ns: str = NS) -> Gold:
    """Gold facts from any store read through `select` (text rows): per subject, per property, each
    value as its lexical form (literals) or its labels (objects; the local name when unlabelled)."""
    grouped: dict[tuple[str, str, str], list[str]] = {}
    is_obj: dict[tuple[str, str, str], bool] = {}
    for r in select(_GOLD_FACTS):
        key = (r["s"], r["p"], r["v"])
        grouped.setdefault(key, [])
        is_obj[key] = r.get("obj") == "true"
        if "l" in r:
            grouped[key].append(r["l"])
    facts: dict[str, Facts] = defaultdict(lambda: defaultdict(list))
    for (s, p, v), labels in grouped.items():
        alts = (tuple(dict.fromkeys(labels)) or (_local(v),)) if is_obj[(s, p, v)] else (v,)
        facts[s][prop_name(p, ns)].append(alts)
    classes: dict[str, set[str]] = defaultdict(set)
    for r in select(_GOLD_TYPES):
        classes[r["s"]].add(r["c"])
    return Gold({s: dict(f) for s, f in facts.items()}, dict(classes), ns)


def load_gold(path: Path, ns: str = NS) -> Gold:
    """The gold ontology file, parsed into an in-memory store (never a workspace)."""
    import pyoxigraph as ox

    from pyramid.ontology.query_worker import execute
    from pyramid.ontology.rdfio import text_rows

    store = ox.Store()
    store.bulk_load(path=str(path), format=ox.RdfFormat.TURTLE)
    return gold_from_select(lambda q: text_rows(execute(store, q, row_cap=None).rows), ns)


# ------------------------------------------------------------------ the extracted side
def document_triples(store) -> tuple[dict[str, list[Triple]], dict[str, tuple[str, ...]]]:
    """Each document's graph ("doc:<id>") of an OntologyStore as triples, and every IRI's labels
    across those graphs."""
    graphs = {name: g for name, g in store.graphs().items() if name.startswith("doc:")}
    doc_of = {g.iri: name[len("doc:"):] for name, g in graphs.items()}
    docs: dict[str, list[Triple]] = {d: [] for d in doc_of.values()}
    labels: dict[str, list[str]] = defaultdict(list)
    import pyoxigraph as ox

    for q in store.quads(list(graphs)):
        t = Triple(q.subject.value, q.predicate.value, q.object.value, isinstance(q.object, ox.Literal))
        docs[doc_of[q.graph_name.value]].append(t)
        if t.p == RDFS_LABEL and t.o not in labels[t.s]:
            labels[t.s].append(t.o)
    return docs, {k: tuple(v) for k, v in labels.items()}


def main_entity(triples: Sequence[Triple], title: str | None = None) -> str | None:
    """The page's main entity: the subject with the most triples in the page's graph (the extractor
    marks none); a tie goes to the subject labelled with the page's title, then to the smaller IRI."""
    from pyramid.normalise import fold

    count = Counter(t.s for t in triples)
    if not count:
        return None
    want = fold(title) if title else None
    titled = {t.s for t in triples if t.p == RDFS_LABEL and want and fold(t.o) == want}
    return min(count, key=lambda s: (-count[s], s not in titled, s))


def entity_facts(triples: Iterable[Triple], subject: str, labels: Mapping[str, Sequence[str]],
                 ns: str = NS) -> Facts:
    """`subject`'s facts per property (type and label left out): literals as written, objects by
    their labels (the local name when unlabelled)."""
    out: Facts = defaultdict(list)
    for t in triples:
        if t.s != subject or t.p in (RDF_TYPE, RDFS_LABEL):
            continue
        out[prop_name(t.p, ns)].append((t.o,) if t.literal else (tuple(labels.get(t.o, ())) or (_local(t.o),)))
    return dict(out)


def entity_classes(triples: Iterable[Triple], subject: str | None, ns: str = NS) -> set[str]:
    return {prop_name(t.o, ns) for t in triples if t.s == subject and t.p == RDF_TYPE}


# ------------------------------------------------------------------ comparison
@dataclass
class Counts:
    predicted: int = 0   # distinct extracted values
    correct: int = 0     # … that equal a gold value
    gold: int = 0        # distinct gold values
    found: int = 0       # … that some extracted value equals
    in_text: int = 0     # … written in the page (folded, as whole words)

    def add(self, other: Counts) -> None:
        for k in self.__dataclass_fields__:
            setattr(self, k, getattr(self, k) + getattr(other, k))

    def to_dict(self) -> dict[str, Any]:
        # undefined (None, shown as —) rather than 0 when nothing was extracted or nothing is gold
        p = self.correct / self.predicted if self.predicted else None
        r = self.found / self.gold if self.gold else None
        f = None if p is None or r is None else (2 * p * r / (p + r) if p + r else 0.0)
        return {**self.__dict__, "precision": p, "recall": r, "f1": f,
                "text_ceiling": self.in_text / self.gold if self.gold else None}


def _folded(values: Values) -> list[frozenset[str]]:
    from pyramid.normalise import fold

    items = (frozenset(x for x in (fold(a) for a in alts) if x) for alts in values)
    return list(dict.fromkeys(i for i in items if i))


def compare(gold: Facts, got: Facts, text: str | None = None) -> dict[str, Counts]:
    """Per property: an extracted value is correct when its folded form (one of an object's labels)
    equals a gold value's; a gold value is found when some extracted value equals it. Values that
    fold to nothing (the gold's empty strings, lone punctuation) are left out on both sides."""
    from pyramid.normalise import fold

    page = f" {fold(text)} " if text is not None else ""
    out: dict[str, Counts] = {}
    for prop in sorted(set(gold) | set(got)):
        g, e = _folded(gold.get(prop, [])), _folded(got.get(prop, []))
        g_all, e_all = frozenset().union(*g), frozenset().union(*e)
        c = Counts(predicted=len(e), correct=sum(bool(x & g_all) for x in e), gold=len(g),
                   found=sum(bool(x & e_all) for x in g),
                   in_text=sum(any(f" {v} " in page for v in x) for x in g) if text is not None else 0)
        if c.predicted or c.gold:
            out[prop] = c
    return out


def ordered(props: Iterable[str]) -> list[str]:
    props = set(props)
    return [p for p in PROPERTIES if p in props] + sorted(props - set(PROPERTIES))


def score_extraction(pages: Sequence[dict[str, str]], gold: Gold, docs: Mapping[str, list[Triple]],
                     labels: Mapping[str, Sequence[str]], ns: str = NS) -> dict[str, Any]:
    """Extraction P/R/F1 per property and overall (micro: counts summed), per page kind, and the
    share of pages whose main entity carries the gold class. A page without a graph extracted nothing."""
    per_prop: dict[str, Counts] = defaultdict(Counts)
    per_kind: dict[str, Counts] = defaultdict(Counts)
    typed: dict[str, list[int]] = defaultdict(list)
    no_graph, no_gold, misses = 0, 0, []
    for page in pages:
        pid, kind = page["id"], page["id"].split("-", 1)[0]
        triples = docs.get(pid)
        no_graph += triples is None
        triples = triples or []
        subject = main_entity(triples, page.get("title"))
        got = entity_facts(triples, subject, labels, ns) if subject else {}
        want = gold.page_facts(pid)
        no_gold += not gold.iris(pid)
        wanted_class = gold.page_classes(pid)
        if wanted_class:
            typed[kind].append(int(bool(entity_classes(triples, subject, ns) & wanted_class)))
        for prop, c in compare(want, got, page.get("text")).items():
            per_prop[prop].add(c)
            per_kind[kind].add(c)
            if c.found < c.gold and len(misses) < 12 and prop in PROPERTIES:
                misses.append({"page": pid, "property": prop, "gold": [list(v) for v in want.get(prop, [])][:4],
                               "extracted": [list(v) for v in got.get(prop, [])][:4]})
    overall, listed = Counts(), Counts()
    for prop, c in per_prop.items():
        overall.add(c)
        if prop in PROPERTIES:
            listed.add(c)
    return {"pages": len(pages), "pages_without_graph": no_graph, "pages_without_gold": no_gold,
            "properties": {p: per_prop[p].to_dict() for p in ordered(per_prop)},
            "overall": overall.to_dict(), "listed": listed.to_dict(),
            "kinds": {k: per_kind[k].to_dict() for k in sorted(per_kind)},
            "typed": {k: {"pages": len(v), "share": statistics.fmean(v)} for k, v in sorted(typed.items())},
            "misses": misses}


# ------------------------------------------------------------------ the workspace
def _digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def build_settings_digest(overrides: Mapping[str, Mapping[str, Any]] = OVERRIDES) -> str:
    """The settings a build depends on (defaults + POLYRAG_* environment + `overrides`), as a digest."""
    from pyramid.config import load_settings

    s = load_settings(None)
    dump = {k: {**getattr(s, k).model_dump(mode="json"), **overrides.get(k, {})} for k in SETTING_SECTIONS}
    return hashlib.sha256(json.dumps(dump, sort_keys=True).encode()).hexdigest()[:16]


def reader_digest() -> str:
    """The reading code's source (pyramid/reading and the two extractors that take its readings): a
    build read by other code is not reused."""
    import pyramid.reading
    from pyramid.kg.extractors import read as kg_read
    from pyramid.ontology.extractors import read as ontology_read

    files = sorted(Path(pyramid.reading.__path__[0]).glob("*.py")) + [Path(kg_read.__file__), Path(ontology_read.__file__)]
    return hashlib.sha256(b"".join(f.read_bytes() for f in files)).hexdigest()[:16]


def select_pages(docs: Sequence, limit: int | None) -> list:
    """The first `limit` pages (all when None), plus every department page so departments exist."""
    return [d for i, d in enumerate(docs) if limit is None or i < limit or d.id.startswith("dept-")]


def ensure_workspace(root: Path, pages_file: Path, schema_file: Path, *, limit: int | None = None,
                     progress: Progress | None = None,
                     overrides: Mapping[str, Mapping[str, Any]] = OVERRIDES) -> tuple[Workspace, dict[str, Any]]:
    """The workspace built from the pages with the default settings but `overrides` (resumed when a
    build stopped half-way; rebuilt when the pages, the schema, `limit` or the build settings
    changed); returns it with its build record."""
    from pyramid.build import build_pyramid
    from pyramid.config import render_default_toml
    from pyramid.corpus import load_documents

    root, progress = Path(root), progress or NullProgress()
    want = {"pages": str(Path(pages_file).resolve()), "pages_sha256": _digest(pages_file),
            "schema": str(Path(schema_file).resolve()), "schema_sha256": _digest(schema_file),
            "limit": limit, "settings": build_settings_digest(overrides), "reader": reader_digest()}
    stamp = root / STAMP
    old = json.loads(stamp.read_text(encoding="utf-8")) if stamp.exists() else None
    if old is not None and old.get("source") == want and old.get("status") == "built":
        atomic_write_text(root / "polyrag.toml", render_default_toml(overrides))  # today's defaults, as it was built
        return Workspace.open(root), json.loads((root / BUILD_RECORD).read_text(encoding="utf-8"))
    resumed = old is not None and old.get("source") == want
    if not resumed:
        clear_for_rebuild(root, stamp)
    ignore_cache_dir(root)
    ws = Workspace.open(root) if resumed else Workspace.init(root)
    atomic_write_text(root / "polyrag.toml", render_default_toml(overrides))
    ws = Workspace.open(root)
    atomic_write_text(stamp, json.dumps({"source": want, "status": "building"}))
    docs = select_pages(load_documents(pages_file, fmt="jsonl").documents, limit)
    session = Session(ws)
    start = time.perf_counter()
    result = build_pyramid(session, docs, schema=Path(schema_file), progress=progress)
    wall = time.perf_counter() - start
    from pyramid.kg.extractors import choose as resolve_mode

    usage = result.usage
    calls = usage.calls + usage.cache_hits
    record = {"documents": len(docs), "resumed": resumed, "wall_seconds": round(wall, 3), **result.to_dict(),
              "llm": session.llm.name, "kg_mode": resolve_mode(session.settings.kg.mode, session.llm,
                                                                  can_read=session.ontology.exists),
              "ontology_method": session.settings.ontology.extract_method,
              "llm_calls": calls, "llm_calls_per_page": calls / len(docs) if docs else 0.0,
              "tokens_per_page": usage.cost_tokens / len(docs) if docs else 0.0,
              "counts": {"ontology": session.ontology.stats().get("instances", {}),
                         "ontology_documents": sum(n.startswith("doc:") for n in session.ontology.store.graphs())}}
    session.ontology.close()
    atomic_write_text(root / BUILD_RECORD, json.dumps(record, indent=1, default=str))
    if not result.pending:  # something left to retry: the next run resumes instead of reusing
        atomic_write_text(stamp, json.dumps({"source": want, "status": "built"}))
    return Workspace.open(root), record


# ------------------------------------------------------------------ questions
def answer_questions(session: Session, questions: Sequence[dict[str, Any]], *, label: str = "",
                     layers: Sequence[str] = LAYERS, progress: Progress | None = None) -> dict[str, Any]:
    """AcadChall questions through the waterfall (or one layer), scored and summarised by
    benchmarks.acadchall."""
    progress = progress or NullProgress()
    answer = acadchall.waterfall_answerer(layers)
    rows = []
    task = progress.task(f"AcadChall {label} ({' → '.join(layers)})", len(questions))
    for q in questions:
        t0 = time.perf_counter()
        ans = answer(session, q["question"], q.get("options") or [])
        rows.append({**acadchall.score(q, ans, time.perf_counter() - t0), "answer": ans.text[:200]})
        task.advance()
    task.done()
    return {"source": label, **acadchall.summarise(rows), "per_question": rows}


# ------------------------------------------------------------------ the run
def run(data_dir: Path, out_dir: Path, *, pages: Path | None = None, questions: Sequence[Path] | None = None,
        limit: int | None = None, workspace: Path | None = None, progress: Progress | None = None) -> dict[str, Any]:
    """Build from the pages (or reuse the build), score the extraction against the gold ontology,
    answer the AcadChall files through the waterfall; writes reports/pages.{json,md}."""
    from pyramid.corpus import load_documents

    progress = progress or NullProgress()
    data_dir, out_dir = Path(data_dir), Path(out_dir)
    pages_file = Path(pages) if pages else data_dir / "polyu_pages" / "pages_dev.jsonl"
    schema_file = data_dir / "polyu_pages" / "polyu_schema.ttl"
    gold_file = data_dir / "polyu" / "polyu_onto.ttl"
    q_files = [Path(q) for q in questions] if questions else \
        [data_dir / "acadchall" / "questions_dev.jsonl", data_dir / "acadchall" / "questions_dev_wordings.jsonl"]
    loaded = {f: acadchall.load_questions(f) for f in q_files}  # a bad file fails before the build

    ws, build = ensure_workspace(workspace or out_dir / ".cache" / "pages-ws", pages_file, schema_file,
                                 limit=limit, progress=progress)
    session = Session(ws)
    built = {d.id for d in session.corpus.documents()}
    page_rows = [{"id": d.id, "title": str(d.metadata.get("title", "")), "text": d.text}
                 for d in load_documents(pages_file, fmt="jsonl").documents if d.id in built]

    t0 = time.perf_counter()
    gold = load_gold(gold_file)
    docs, labels = document_triples(session.ontology.store)
    extraction = score_extraction(page_rows, gold, docs, labels)
    extraction["seconds"] = round(time.perf_counter() - t0, 3)

    from querying.ontology_qa import context

    warm = time.perf_counter()
    context(session)  # vocabulary, label and value indexes: once, reported apart
    setup = time.perf_counter() - warm
    answered = {f.name: answer_questions(session, qs, label=f.name, progress=progress) for f, qs in loaded.items()}
    # the KG built from the same reading, asked alone: is it a real fallback when the ontology misses?
    kg_alone = {f.name: answer_questions(session, qs, label=f.name, layers=("kg",), progress=progress)
                for f, qs in loaded.items()}
    session.ontology.close()

    data = {"pages_file": str(pages_file), "limit": limit, "pages": len(page_rows),
            "page_kinds": dict(Counter(p["id"].split("-", 1)[0] for p in page_rows)),
            "build": build, "extraction": extraction, "qa_setup_seconds": round(setup, 3), "acadchall": answered,
            "acadchall_kg_alone": kg_alone}
    # the dev pages report as `pages`, another pages file (our layouts: bench make-pages) beside it
    name = NAME if pages is None else f"{NAME}-{Path(pages).stem}"
    write_report(out_dir, name, data, markdown(data))
    return data


def _num(v: Any) -> Any:
    return "—" if v is None else v


def _answers(runs: dict[str, Any]) -> list[str]:
    """The overall table of one way of answering, then its per-template table per file."""
    lines = [md_table(["file", "questions", "precision", "recall", "F1", "answered", "answered at",
                       "wrong (answered, F1 0)", "LLM calls/q (mean)", "median", "s/q"],
                      [[f, a["overall"]["questions"], a["overall"]["precision"], a["overall"]["recall"],
                        a["overall"]["f1"], a["overall"]["answered"],
                        ", ".join(f"{k} {v}" for k, v in sorted(a["overall"]["layers"].items())),
                        ", ".join(f"{k} {v}" for k, v in sorted(a["overall"].get("wrong", {}).items())) or "none",
                        a["overall"]["llm_calls"], a["overall"]["median_llm_calls"], a["overall"]["seconds"]]
                       for f, a in runs.items()]), ""]
    for f, a in runs.items():
        lines += [f"{f} per template:", "",
                  md_table(["template", "questions", "F1", "answered", "answered at", "LLM calls/q"],
                           [[t, b_["questions"], b_["f1"], b_["answered"],
                             ", ".join(f"{k} {v}" for k, v in sorted(b_["layers"].items())), b_["llm_calls"]]
                            for t, b_ in a["templates"].items()]), ""]
    return lines


def markdown(d: dict[str, Any]) -> str:
    b, x = d["build"], d["extraction"]
    kinds = ", ".join(f"{v} {k}" for k, v in sorted(d["page_kinds"].items()))
    lines = [f"# The pyramid built from {Path(d['pages_file']).name} ({d['pages']} pages: {kinds}"
             f"{'; first ' + str(d['limit']) + ' + every department' if d['limit'] else ''})", "",
             f"LLM {b['llm']}; KG extraction mode {b['kg_mode']}, ontology extraction {b['ontology_method']}"
             f"{'; resumed build' if b.get('resumed') else ''}.", "",
             "## Build", "",
             md_table(["step", "seconds", "LLM calls", "cached", "tokens", "outcome"],
                      [[s["step"], s["seconds"], s["usage"]["calls"], s["usage"]["cache_hits"],
                        s["usage"]["prompt_tokens"] + s["usage"]["completion_tokens"] + s["usage"]["cached_tokens"],
                        s["outcome"][:90]] for s in b["steps"]]
                      + [["**total**", b["seconds"], b["usage"]["calls"], b["usage"]["cache_hits"],
                          b["usage"]["prompt_tokens"] + b["usage"]["completion_tokens"] + b["usage"]["cached_tokens"],
                          f"wall {b['wall_seconds']:.1f} s"]]), "",
             (f"Model calls per page: {b['llm_calls_per_page']:.2f} ({b['llm_calls']} calls over {b['documents']} "
              f"pages); tokens per page: {b['tokens_per_page']:.0f}; seconds per page: "
              f"{b['wall_seconds'] / max(1, b['documents']):.2f}."
              + (f" Pending: {'; '.join(b['pending'])}." if b.get("pending") else "")), "",
             "## Extraction against the gold ontology", "",
             ("Each page's main entity (the subject with the most triples in its graph) against the gold "
              "entity's facts; values folded; 'in text' = share of gold values written in the page (a "
              "perfect reader's recall)."), ""]
    head = ["property", "extracted", "correct", "gold", "found", "precision", "recall", "F1", "in text"]

    def row(name: str, c: dict) -> list:
        return [name, c["predicted"], c["correct"], c["gold"], c["found"], _num(c["precision"]), _num(c["recall"]),
                _num(c["f1"]), _num(c["text_ceiling"])]

    lines += [md_table(head, [row(p, c) for p, c in x["properties"].items()]
                       + [row("**the listed properties**", x["listed"]), row("**all**", x["overall"])]), "",
              md_table(["page kind", "extracted", "correct", "gold", "found", "precision", "recall", "F1",
                        "in text", "main entity typed right"],
                       [row(k, c) + [_num(x["typed"].get(k, {}).get("share"))] for k, c in x["kinds"].items()]), "",
              (f"Pages without a graph: {x['pages_without_graph']}; pages without a gold entity: "
               f"{x['pages_without_gold']}."), "",
              "## AcadChall through the waterfall (ontology → KG → text) on this workspace", "",
              *_answers(d["acadchall"])]
    if d.get("acadchall_kg_alone"):
        lines += ["## The KG layer alone on this workspace (option-aware; the triples of the same reading)", "",
                  *_answers(d["acadchall_kg_alone"])]
    lines.append(f"One-off question-answering setup (indexes): {d['qa_setup_seconds']:.2f} s.")
    return "\n".join(lines)
