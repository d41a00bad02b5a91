"""`polyrag bench domain`: the pyramid built from any domain's pages and schema, then measured.

    pages.jsonl + schema.ttl ─ build_pyramid with the defaults (or --extract-method)
        ├─ build seconds, model calls per page
        ├─ extraction (with --gold): each page's main entity against the gold entity the page is
        │  `about`, precision/recall/F1 per property, and the share of pages typed with its gold class
        ├─ questions through the waterfall: choice F1 (MCQ/MAQ), open accuracy (every gold string in
        │  the answer), wrong answers (answered, nothing right) per layer and per kind
        └─ a fresh `polyrag ask` process: cold-ask seconds

The pages may carry `about` (the gold IRI of the page's main entity) and `layout`: both are taken
out before the build sees the pages. Nothing here knows a domain: the development domains
(`benchmarks/domains`, `bench make-domain`) are one input among any other.
"""

from __future__ import annotations

import json
import re
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from benchmarks import acadchall
from benchmarks.pages import (
    Counts,
    Gold,
    compare,
    document_triples,
    entity_classes,
    entity_facts,
    load_gold,
    main_entity,
)
from benchmarks.report import md_table, write_report
from pyramid.progress import NullProgress, Progress
from pyramid.reading.terms import iso_date
from pyramid.session import Session
from pyramid.types import LAYERS, Answer
from pyramid.workspace import atomic_write_text

NAME = "domain"
HIDDEN = ("about", "layout")   # page fields for scoring only


def namespace(iri: str) -> str:
    cut = max(iri.rfind("#"), iri.rfind("/"))
    return iri[:cut + 1]


def read_pages(path: Path) -> list[dict[str, Any]]:
    from pyramid.errors import InputError

    rows = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as err:
                raise InputError(f"not valid JSON ({err.msg})", path=path, line=n) from None
    return rows


def build_copy(pages: Sequence[Mapping[str, Any]], target: Path) -> Path:
    """The pages as the build sees them: without the scoring fields."""
    body = "".join(json.dumps({k: v for k, v in p.items() if k not in HIDDEN}, ensure_ascii=False) + "\n"
                   for p in pages)
    if not target.exists() or target.read_text(encoding="utf-8") != body:
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(target, body)
    return target


# ------------------------------------------------------------------ extraction
def score_extraction(pages: Sequence[Mapping[str, Any]], gold: Gold, docs: Mapping[str, list],
                     labels: Mapping[str, Sequence[str]], ns: str) -> dict[str, Any]:
    """Per property and overall (counts summed): each page's main entity against its `about` entity;
    per layout too, and the share of pages whose main entity has the gold class."""
    per_prop: dict[str, Counts] = defaultdict(Counts)
    per_layout: dict[str, Counts] = defaultdict(Counts)
    typed: dict[str, list[int]] = defaultdict(list)
    for page in pages:
        about = page.get("about")
        if not about:
            continue
        triples = docs.get(str(page["id"])) or []
        subject = main_entity(triples, page.get("title"))
        got = entity_facts(triples, subject, labels, ns) if subject else {}
        want = gold.facts.get(about, {})
        layout = str(page.get("layout", "?"))
        classes = {c[len(ns):] for c in gold.classes.get(about, ()) if c.startswith(ns)}
        if classes:
            typed[layout].append(int(bool(entity_classes(triples, subject, ns) & classes)))
        for prop, c in compare(want, got, page.get("text")).items():
            per_prop[prop].add(c)
            per_layout[layout].add(c)
    overall = Counts()
    for c in per_prop.values():
        overall.add(c)
    return {"properties": {p: c.to_dict() for p, c in sorted(per_prop.items())}, "overall": overall.to_dict(),
            "layouts": {k: {**c.to_dict(), "typed": sum(typed[k]) / len(typed[k]) if typed[k] else None}
                        for k, c in sorted(per_layout.items())},
            "typed": sum(map(sum, typed.values())) / max(1, sum(map(len, typed.values())))}


# ------------------------------------------------------------------ questions
def _said(value: str, text: str) -> bool:
    """A gold string in an answer: as whole words, case folded (a count '3' is not the '3' of '13'); a gold
    day also as xsd:date writes it ("28 June 2025" is said by "2025-06-28")."""
    forms = [value.strip().casefold(), *filter(None, [iso_date(value)])]
    return any(re.search(rf"(?<!\w){re.escape(f)}(?!\w)", text.casefold()) is not None for f in forms)


def score_question(q: Mapping[str, Any], ans: Answer, seconds: float) -> dict[str, Any]:
    if "answer" not in q:
        return {**acadchall.score(q, ans, seconds), "kind": q.get("kind", "?"), "type": q.get("type", "MCQ")}
    golds = q["answer"] if isinstance(q["answer"], list) else [q["answer"]]
    # what the user reads, not the evidence's rows: a value only a row holds was not answered
    found = sum(_said(str(g), ans.text) for g in golds) / len(golds) if acadchall.answered(ans) else 0.0
    return {**acadchall._row(q, ans, seconds, found, found, found), "gold": golds, "kind": q.get("kind", "?"),
            "type": "open"}


def answer_all(session: Session, questions: Sequence[Mapping[str, Any]],
               progress: Progress) -> list[dict[str, Any]]:
    answer = acadchall.waterfall_answerer(LAYERS)
    rows = []
    task = progress.task("questions (ontology → KG → text)", len(questions))
    for q in questions:
        t0 = time.perf_counter()
        ans = answer(session, q["question"], q.get("options") or [])
        rows.append({**score_question(q, ans, time.perf_counter() - t0), "question": q["question"],
                     "answer": ans.text[:200]})
        task.advance()
    task.done()
    return rows


def summarise_questions(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    choice = [r for r in rows if r["type"] != "open"]
    open_ = [r for r in rows if r["type"] == "open"]
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_kind[f"{r['kind']} · {'open' if r['type'] == 'open' else 'options'}"].append(r)
    return {"choice": acadchall.summarise(choice)["overall"] if choice else None,
            "open": acadchall.summarise(open_)["overall"] if open_ else None,
            "kinds": {k: acadchall.summarise(v)["overall"] for k, v in sorted(by_kind.items())}}


# ------------------------------------------------------------------ the run
def run(pages: Path, schema: Path, questions: Path | None, out_dir: Path, *, gold: Path | None = None,
        workspace: Path | None = None, extract_method: str | None = None, name: str | None = None,
        progress: Progress | None = None) -> dict[str, Any]:
    from benchmarks.pages import ensure_workspace

    progress = progress or NullProgress()
    out_dir = Path(out_dir)
    name = name or Path(pages).parent.name or Path(pages).stem
    rows = read_pages(pages)
    loaded = acadchall.load_questions(questions) if questions else []  # a bad file fails before the build
    root = Path(workspace or out_dir / ".cache" / f"domain-{name}-ws")
    source = build_copy(rows, root.parent / f"domain-{name}-pages.jsonl")
    overrides = {"ontology": {"extract_method": extract_method}} if extract_method else {}
    ws, build = ensure_workspace(root, source, Path(schema), progress=progress, overrides=overrides)
    session = Session(ws)
    extraction = None
    if gold is not None:
        about = next((p["about"] for p in rows if p.get("about")), None)
        ns = namespace(about) if about else ""
        docs, labels = document_triples(session.ontology.store)
        extraction = score_extraction(rows, load_gold(Path(gold), ns), docs, labels, ns)
    answered = answer_all(session, loaded, progress)
    session.ontology.close()
    cold = acadchall.cold_ask_seconds(ws.root, loaded[0]["question"], LAYERS) if loaded else None
    data = {"name": name, "pages_file": str(pages), "schema": str(schema), "pages": len(rows),
            "layouts": dict(sorted(_count(p.get("layout", "?") for p in rows).items())),
            "build": {k: build[k] for k in ("documents", "wall_seconds", "llm_calls", "llm_calls_per_page",
                                            "ontology_method", "kg_mode", "counts")},
            "extraction": extraction, "questions": summarise_questions(answered) if answered else None,
            "cold_ask_seconds": cold, "per_question": answered}
    write_report(out_dir, f"{NAME}-{name}", data, markdown(data))
    return data


def _count(items) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for i in items:
        out[str(i)] += 1
    return dict(out)


def _n(v: Any) -> Any:
    return "—" if v is None else v


def _prf(c: Mapping[str, Any]) -> list:
    return [c["predicted"], c["correct"], c["gold"], c["found"], _n(c["precision"]), _n(c["recall"]), _n(c["f1"])]


def _answered(b: Mapping[str, Any]) -> list:
    return [b["questions"], b["f1"], b["answered"], ", ".join(f"{k} {v}" for k, v in sorted(b["layers"].items())),
            ", ".join(f"{k} {v}" for k, v in sorted(b["wrong"].items())) or "none", b["wrong_rate"]]


def markdown(d: Mapping[str, Any]) -> str:
    b = d["build"]
    lines = [f"# Domain {d['name']}: {d['pages']} pages ({', '.join(f'{v} {k}' for k, v in d['layouts'].items())})",
             "", f"Build: {b['wall_seconds']:.1f} s wall for {b['documents']} documents; ontology extraction "
             f"{b['ontology_method']}, KG {b['kg_mode']}; model calls {b['llm_calls']} "
             f"({b['llm_calls_per_page']:.2f} per page). Cold `polyrag ask`: {_n(d['cold_ask_seconds'])} s wall "
             "(median of 3).", ""]
    x = d.get("extraction")
    head = ["extracted", "correct", "gold", "found", "precision", "recall", "F1"]
    if x:
        lines += ["## Extraction against the gold graph", "",
                  md_table(["property", *head], [[p, *_prf(c)] for p, c in x["properties"].items()]
                           + [["**all**", *_prf(x["overall"])]]), "",
                  md_table(["layout", *head, "main entity typed right"],
                           [[k, *_prf(c), _n(c["typed"])] for k, c in x["layouts"].items()]), "",
                  f"Main entity typed with its gold class: {x['typed']:.3f} of pages.", ""]
    q = d.get("questions")
    if q:
        cols = ["questions", "F1 / accuracy", "answered", "answered at", "wrong (answered, nothing right)",
                "wrong rate"]
        lines += ["## Questions through the waterfall", "",
                  md_table(["set", *cols], [[k, *_answered(q[k])] for k in ("choice", "open") if q.get(k)]), "",
                  md_table(["kind · type", *cols], [[k, *_answered(v)] for k, v in q["kinds"].items()]), "",
                  "Choice: F1 of the chosen options; open: the share of gold strings the answer's text says, as "
                  "whole words (no precision: an open answer that also names wrong things is not marked down).", ""]
    return "\n".join(lines)
