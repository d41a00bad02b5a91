"""`polyrag bench analytics`: analytical questions (superlatives, top-k, filters, counts, aggregates,
groups, negation, yes/no, several attributes, names as written, derived values) over an ontology,
scored by result set.

    schema.ttl + instances.ttl ─ a fresh workspace (load the schema, import the instances)
        └─ each question through the ontology layer alone (plan mode, the offline default):
           its SPARQL, its rows, model calls, milliseconds

Scoring. A question's gold is a list of rows, each the values one answer row must hold. An answer
row matches a gold row when it holds all of that row's values (numbers compared to two decimals,
strings case-folded); precision is the share of answer rows that match one, recall the share of gold
rows matched. A yes/no question's answer is its verdict. A question with no gold (a derived value the
plan language cannot say) is right when unanswered; one whose gold is empty, when nothing is found.
"Wrong" is an answer that matches no gold row, counted apart from the unanswered: a wrong answer is
worse than none.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from benchmarks.report import md_table, write_report
from pyramid.progress import NullProgress, Progress
from pyramid.types import Answer, SparqlEvidence

NAME = "analytics"
LABEL_COLUMNS = ("x_label",)  # what names an answer, not what answers


def normal(value: Any) -> str:
    """A value as scoring compares it: a number to two decimals, else case-folded text."""
    from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

    text = str(value).strip()
    try:  # half up from the digits as written: "0.285" and 0.28500000000000003 are both 0.29
        number = Decimal(text.replace(",", ""))
    except InvalidOperation:
        return text.casefold()
    return str(number.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)) if number.is_finite() else text.casefold()


def answer_rows(answer: Answer) -> list[set[str]]:
    """The rows an answer gives, each as the set of its values: the verdict of a yes/no question,
    else the rows of its SPARQL evidence (labels left out)."""
    if answer.layer != "ontology":
        return []
    head = answer.text.split(" ", 1)[0].strip("—,.").casefold()
    if head in ("yes", "no"):
        return [{head}]
    rows = [r for e in answer.evidence if isinstance(e, SparqlEvidence) for r in e.rows]
    return [{normal(v) for k, v in r.items() if k not in LABEL_COLUMNS} for r in rows]


def score(gold: list[list[str]] | None, rows: list[set[str]], answered: bool) -> dict[str, Any]:
    """Precision, recall and F1 of one answer's rows against the gold rows; `wrong` when answered and
    nothing right (or answered where no answer is right)."""
    if gold is None:
        return {"p": float(not answered), "r": float(not answered), "f1": float(not answered), "wrong": answered}
    if not gold:  # nothing is the answer: right when nothing is found, wrong when something is
        return {"p": float(not rows), "r": float(not rows), "f1": float(not rows), "wrong": bool(rows)}
    if not answered:
        return {"p": 0.0, "r": 0.0, "f1": 0.0, "wrong": False}
    wanted = [{normal(v) for v in g} for g in gold]
    hit_rows = sum(any(w <= r for w in wanted) for r in rows)
    hit_gold = sum(any(w <= r for r in rows) for w in wanted)
    p = hit_rows / len(rows) if rows else 0.0
    r = hit_gold / len(wanted) if wanted else float(not rows)
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return {"p": p, "r": r, "f1": f1, "wrong": f1 == 0.0}


def build_workspace(schema: Path, instances: Iterable[Path], root: Path):
    """A fresh workspace holding the ontology: (session, answerer)."""
    from pyramid.session import Session
    from pyramid.workspace import Workspace
    from querying.ontology_qa import OntologyAnswerer

    ws = Workspace.init(root)
    session = Session(ws)
    session.ontology.load_schema(schema)
    for path in instances:
        session.ontology.import_instances(path)
    session.ontology.reason()  # the class hierarchy: a laptop is a product
    return session, OntologyAnswerer.from_session(session)


def run_questions(answerer, questions: list[dict[str, Any]], progress: Progress) -> list[dict[str, Any]]:
    """Each question through the ontology layer, scored."""
    out = []
    task = progress.task("analytics questions", total=len(questions))
    for q in questions:
        start = time.perf_counter()
        a = answerer.answer(q["question"])
        ms = (time.perf_counter() - start) * 1000
        answered = a.layer == "ontology"
        result = score(q.get("gold"), answer_rows(a), answered)
        queries = [e.query for e in a.evidence if isinstance(e, SparqlEvidence)]
        out.append({"id": q.get("id"), "kind": q["kind"], "question": q["question"], "answered": answered,
                    **{k: round(v, 3) if isinstance(v, float) else v for k, v in result.items()},
                    "calls": a.usage.calls, "ms": round(ms, 1), "answer": a.text[:300],
                    "sparql": queries[0] if queries else None})
        task.advance()
    task.done()
    return out


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def of(rs: list[dict[str, Any]]) -> dict[str, Any]:
        n = len(rs) or 1
        return {"questions": len(rs), "p": round(sum(r["p"] for r in rs) / n, 3),
                "r": round(sum(r["r"] for r in rs) / n, 3), "f1": round(sum(r["f1"] for r in rs) / n, 3),
                "answered": round(sum(r["answered"] for r in rs) / n, 3),
                "wrong": round(sum(r["wrong"] for r in rs) / n, 3),
                "calls_median": statistics.median([r["calls"] for r in rs]) if rs else 0,
                "ms_p50": round(statistics.median([r["ms"] for r in rs]), 1) if rs else 0.0}
    kinds: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        kinds[r["kind"]].append(r)
    return {"all": of(rows), "kinds": {k: of(v) for k, v in sorted(kinds.items())}}


def markdown(domains: dict[str, dict[str, Any]]) -> str:
    lines = ["# Analytical questions over an ontology (`polyrag bench analytics`)", "",
             "Result-set F1 (an answer row matches a gold row when it holds all its values), share answered, "
             "share answered wrongly (answered, nothing right: worse than no answer), median model calls and "
             "p50 milliseconds in-process, per question kind. The ontology layer alone, plan mode, offline "
             "defaults. The generated SPARQL of every question is in the JSON report.", ""]
    for name, d in domains.items():
        s = d["summary"]
        lines += [f"## {name}", "", f"{s['all']['questions']} questions: mean F1 **{s['all']['f1']}**, answered "
                  f"{s['all']['answered']:.0%}, wrong **{s['all']['wrong']:.1%}**, median model calls "
                  f"{s['all']['calls_median']}, p50 {s['all']['ms_p50']} ms.", ""]
        lines.append(md_table(["kind", "questions", "P", "R", "F1", "answered", "wrong", "p50 ms"],
                          [[k, v["questions"], v["p"], v["r"], v["f1"], f"{v['answered']:.0%}", f"{v['wrong']:.0%}",
                            v["ms_p50"]]
                           for k, v in s["kinds"].items()]))
        lines.append("")
    return "\n".join(lines)


def generate(seed: int = 11) -> tuple[str, str, list[dict[str, Any]]]:
    """The catalogue domain: (schema Turtle, instance Turtle, questions)."""
    import random

    from benchmarks.analytics.catalogue import build, instances_ttl, schema_ttl
    from benchmarks.analytics.catalogue_questions import questions

    cat = build(seed)
    return schema_ttl(), instances_ttl(cat), questions(cat, random.Random(seed))


def other_wordings(seed: int = 11) -> list[dict[str, Any]]:
    """The catalogue's questions in other wordings (see catalogue_questions.other_wordings)."""
    import random

    from benchmarks.analytics.catalogue import build
    from benchmarks.analytics.catalogue_questions import other_wordings as make

    return make(build(seed), random.Random(seed + 1))


def generate_library(seed: int = 13) -> tuple[str, str, list[dict[str, Any]]]:
    """The library network, held out (see benchmarks.analytics.library): (schema Turtle, instance
    Turtle, questions)."""
    import random

    from benchmarks.analytics.library import build, instances_ttl, schema_ttl
    from benchmarks.analytics.library_questions import questions

    lib = build(seed)
    return schema_ttl(), instances_ttl(lib), questions(lib, random.Random(seed))


def library_files(root: Path) -> tuple[Path, Path, list[dict[str, Any]]]:
    """The library network written under `root`: (schema, instances, questions)."""
    return _written(root, *generate_library())


def catalogue_files(root: Path) -> tuple[Path, Path, list[dict[str, Any]]]:
    """The catalogue domain written under `root`: (schema, instances, questions)."""
    return _written(root, *generate())


def _written(root: Path, schema_ttl: str, instances_ttl: str,
             questions: list[dict[str, Any]]) -> tuple[Path, Path, list[dict[str, Any]]]:
    root.mkdir(parents=True, exist_ok=True)
    (root / "schema.ttl").write_text(schema_ttl, encoding="utf-8")
    (root / "instances.ttl").write_text(instances_ttl, encoding="utf-8")
    return root / "schema.ttl", root / "instances.ttl", questions


def run(out_dir: Path, *, data: Path | None = None, limit: int | None = None, kinds: set[str] | None = None,
        progress: Progress | None = None) -> dict[str, Any]:
    """The catalogue (ours), the library network (held out: a schema and wordings the planner was not
    developed on), and the PolyU ontology and LUBM when `data` holds them (PolyU's workspace cached
    under out_dir/.cache, rebuilt when the file changes)."""
    progress = progress or NullProgress()

    def chosen(questions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [q for q in questions if kinds is None or q["kind"] in kinds][:limit]

    domains: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="polyrag-analytics-") as tmp:
        schema, instances, questions = catalogue_files(Path(tmp) / "catalogue")
        session, answerer = build_workspace(schema, [instances], Path(tmp) / "ws")
        answerer.answer("How many products are there?")  # loads the model-free indexes: not a question's cost
        rows = run_questions(answerer, chosen(questions), progress)
        domains["catalogue (ours)"] = {"summary": summary(rows), "questions": rows}
        rows = run_questions(answerer, chosen(other_wordings()), progress)
        domains["catalogue, other wordings"] = {"summary": summary(rows), "questions": rows}
    domains.update(_library(chosen, progress))
    onto = Path(data or "") / "polyu" / "polyu_onto.ttl"
    if data is not None and onto.exists():
        from benchmarks.acadchall import ensure_workspace
        from benchmarks.analytics.polyu import questions as polyu_questions
        from pyramid.session import Session
        from querying.ontology_qa import OntologyAnswerer

        ws = ensure_workspace(Path(out_dir) / ".cache" / "analytics-polyu-ws", onto, progress=progress)
        session = Session(ws)
        answerer = OntologyAnswerer.from_session(session)
        qs = polyu_questions(lambda q: answerer.select(q))
        answerer.answer("How many faculties are there?")  # loads the indexes once
        rows = run_questions(answerer, chosen(qs), progress)
        domains["PolyU ontology"] = {"summary": summary(rows), "questions": rows}
    schema_owl = Path(data or "") / "lubm" / "univ-bench.owl"
    if data is not None and schema_owl.exists():
        domains.update(_lubm(schema_owl, chosen, progress))
    write_report(out_dir, NAME, {"domains": domains}, markdown(domains))
    return domains


def _lubm(schema_owl: Path, chosen, progress: Progress) -> dict[str, Any]:
    """A generated LUBM university in a fresh workspace, asked the LUBM questions and their other wordings."""
    from benchmarks.analytics import lubm
    from benchmarks.lubm.generator import generate as generate_lubm

    out = {}
    with tempfile.TemporaryDirectory(prefix="polyrag-analytics-lubm-") as tmp:
        files = generate_lubm(1, Path(tmp) / "data", departments=lubm.DEPARTMENTS)
        session, answerer = build_workspace(schema_owl, files, Path(tmp) / "ws")
        answerer.answer("How many departments are there?")  # loads the indexes once
        for name, make in (("LUBM (one university)", lubm.questions), ("LUBM, other wordings", lubm.other_wordings)):
            rows = run_questions(answerer, chosen(make(lambda q: answerer.select(q))), progress)
            out[name] = {"summary": summary(rows), "questions": rows}
    return out


def _library(chosen, progress: Progress) -> dict[str, Any]:
    """The library network in a fresh workspace of its own, asked its questions (held out)."""
    with tempfile.TemporaryDirectory(prefix="polyrag-analytics-library-") as tmp:
        schema, instances, questions = library_files(Path(tmp) / "library")
        session, answerer = build_workspace(schema, [instances], Path(tmp) / "ws")
        answerer.answer("How many towns are there?")  # loads the model-free indexes: not a question's cost
        rows = run_questions(answerer, chosen(questions), progress)
    return {"library (held out)": {"summary": summary(rows), "questions": rows}}
