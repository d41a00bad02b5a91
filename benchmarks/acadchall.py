"""`polyrag bench acadchall`: AcadChall-style MCQ/MAQ questions over the imported PolyU ontology.

Per question: precision, recall and F1 of the chosen option set against the gold set
(`benchmarks.metrics.set_prf`; an empty choice scores 0), whether the layer answered, LLM calls and
tokens, seconds. Reported as means overall and per template, with the layer that answered.

The workspace holds `polyu/polyu_onto.ttl` imported and reasoned; it is built on first use in
`reports/.cache/acadchall-ws` (or `--workspace`) and reused while the source file is unchanged.
`run(..., layers=[...])` answers through the waterfall over those layers instead of the ontology
layer alone, and `answerer=` takes any `(session, question, options) -> Answer`, so the same
scoring serves the later full-pyramid run.

The report also measures the label index on perturbed real labels (`linker_accuracy`).
"""

from __future__ import annotations

import hashlib
import json
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.metrics import set_prf
from benchmarks.report import clear_for_rebuild, ignore_cache_dir, md_table, write_report
from pyramid.errors import InputError
from pyramid.progress import NullProgress, Progress
from pyramid.session import Session
from pyramid.types import Answer
from pyramid.workspace import Workspace, atomic_write_text

Answerer = Callable[[Session, str, list[str]], Answer]
NAME = "acadchall"
STAMP = "acadchall-source.json"


def load_questions(path: Path) -> list[dict[str, Any]]:
    """AcadChall questions (question, options, answers) or open ones (question, answer): one JSON a line."""
    out = []
    for lineno, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            q = json.loads(line)
            _ = q["question"], (q["answer"] if "answer" in q else (q["options"], q["answers"]))
        except (json.JSONDecodeError, KeyError, TypeError) as err:
            raise InputError(f"not an AcadChall question ({err})", path=path, line=lineno) from None
        out.append(q)
    return out


def wording(q: dict[str, Any]) -> str:
    """The wording a question is written in: `meta.wording` when the file says, else its lower-case
    words (the question without what it names): 'which department offers', '— which faculty'."""
    given = (q.get("meta") or {}).get("wording") or q.get("wording")
    if given:
        return str(given)
    words = [w.strip("?.,\"'()") for w in q["question"].split()]
    lead = words[:1] if len(words) > 1 and words[1].islower() else []  # "Who teaches …", not "Advanced …"
    kept = lead + [w for w in words[1:] if w.islower() or w in ("—", "-")]
    return " ".join(w.lower() for w in kept[:5] if w)


# ------------------------------------------------------------------ the workspace
def _digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def ensure_workspace(root: Path, ontology_file: Path, progress: Progress | None = None,
                     kg_file: Path | None = None) -> Workspace:
    """A workspace holding `ontology_file` imported and reasoned (and `kg_file` imported into the KG
    layer when given); rebuilt when a file changed."""
    root = Path(root)
    stamp = root / STAMP
    want = {"file": str(Path(ontology_file).resolve()), "sha256": _digest(ontology_file)}
    if kg_file is not None:
        want.update(kg_file=str(Path(kg_file).resolve()), kg_sha256=_digest(kg_file))
    if stamp.exists() and json.loads(stamp.read_text(encoding="utf-8")) == want:
        # the benchmark measures today's defaults, not those written when its cache was made
        from pyramid.config import render_default_toml

        atomic_write_text(root / "polyrag.toml", render_default_toml())
        return Workspace.open(root)
    clear_for_rebuild(root, stamp)
    ignore_cache_dir(root)
    ws = Workspace.init(root)
    session = Session(ws)
    session.ontology.import_instances(Path(ontology_file), progress=progress)
    session.ontology.reason()
    if kg_file is not None:
        session.kg.import_file(Path(kg_file), on_error="skip", progress=progress)
    atomic_write_text(stamp, json.dumps(want))
    return Workspace.open(root)


# ------------------------------------------------------------------ scoring
def ontology_answerer(mode: str = "plan") -> Answerer:
    def answer(session: Session, question: str, options: list[str]) -> Answer:
        from querying.ontology_qa import answer_ontology
        return answer_ontology(session, question, options=options, mode=mode)  # type: ignore[arg-type]
    return answer


def waterfall_answerer(layers: Sequence[str], mode: str = "plan") -> Answerer:
    def answer(session: Session, question: str, options: list[str]) -> Answer:
        from querying.waterfall import answer_waterfall
        return answer_waterfall(session, question, layers=list(layers), options=options, sparql_mode=mode)
    return answer


def answered(ans: Answer) -> bool:
    """A layer gave an answer: not none, and not an abstention that shows the closest passage it found
    (the user reads "the documents do not seem to answer this")."""
    return ans.layer != "none" and not ans.abstained


def _row(q: dict[str, Any], ans: Answer, seconds: float, p: float, r: float, f: float) -> dict[str, Any]:
    return {"id": q.get("id"), "template": q.get("template") or q.get("kind", "?"), "type": q.get("type", "open"),
            "wording": wording(q), "answered": answered(ans), "layer": ans.layer,
            "precision": p, "recall": r, "f1": f, "llm_calls": ans.usage.calls + ans.usage.cache_hits,
            "cache_hits": ans.usage.cache_hits, "tokens": ans.usage.cost_tokens, "seconds": round(seconds, 3)}


def score(q: dict[str, Any], ans: Answer, seconds: float) -> dict[str, Any]:
    """MCQ/MAQ: precision/recall/F1 of the chosen options; an open question: its gold string in the answer."""
    if "answer" in q:
        hit = float(q["answer"].strip().lower() in ans.text.lower())
        return {**_row(q, ans, seconds, hit, hit, hit), "gold": q["answer"]}
    chosen, gold = set(ans.selected or []), set(q["answers"])
    p, r, f = set_prf(chosen, gold)
    row = _row(q, ans, seconds, p, r, f)
    # a choice question is answered by a choice: a text that selects no option answered none
    return {**row, "answered": row["answered"] and bool(chosen), "selected": sorted(chosen), "gold": sorted(gold)}


def open_score(q: dict[str, Any], ans: Answer) -> tuple[float, float, float]:
    """An MCQ/MAQ question asked without its options: the entities the answer names against the gold
    options' labels. Precision counts only the answer's entities that are among the options (the
    entities the question's author knows the truth about: a true answer left out of the list is no
    error); recall is over the gold options."""
    from querying.options import supports

    if ans.layer == "none":
        return 0.0, 0.0, 0.0
    named = {i for i, o in enumerate(q["options"]) if supports(o, ans.text) or
             any(supports(o, str(v)) for e in ans.evidence if e.kind == "sparql" for row in e.rows for v in row.values())}
    return set_prf(named, set(q["answers"]))


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def mean(key: str, rs: list[dict]) -> float:
        return float(statistics.fmean(r[key] for r in rs)) if rs else 0.0

    def block(rs: list[dict]) -> dict[str, Any]:
        layers: dict[str, int] = defaultdict(int)
        wrong: dict[str, int] = defaultdict(int)   # per layer: answered, and nothing it names is right
        for r in rs:
            layers[r["layer"]] += 1
            if r["answered"] and r["f1"] == 0.0:
                wrong[r["layer"]] += 1
        out = {"questions": len(rs), "precision": mean("precision", rs), "recall": mean("recall", rs),
               "f1": mean("f1", rs), "answered": mean("answered", rs), "llm_calls": mean("llm_calls", rs),
               "tokens": mean("tokens", rs), "seconds": mean("seconds", rs),
               "seconds_p50": float(statistics.median([r["seconds"] for r in rs])) if rs else 0.0,
               "median_llm_calls": float(statistics.median([r["llm_calls"] for r in rs])) if rs else 0.0,
               "median_llm_calls_answered": float(statistics.median([r["llm_calls"] for r in rs if r["answered"]]))
               if any(r["answered"] for r in rs) else 0.0, "layers": dict(layers), "wrong": dict(wrong),
               "wrong_rate": sum(wrong.values()) / len(rs) if rs else 0.0}
        if any("open_f1" in r for r in rs):
            out["open_f1"] = mean("open_f1", [r for r in rs if "open_f1" in r])
        return out

    by_t: dict[str, list[dict]] = defaultdict(list)
    by_w: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_t[r["template"]].append(r)
        by_w[f"{r['template']} · {r['wording']}"].append(r)
    return {"overall": block(rows), "templates": {t: block(rs) for t, rs in sorted(by_t.items())},
            "wordings": {w: block(rs) for w, rs in sorted(by_w.items())}}


# ------------------------------------------------------------------ linker accuracy
def _perturb(label: str, rng: random.Random) -> tuple[str, str]:
    """A realistic variant of a person's label and what was done to it."""
    words = label.split()
    kind = rng.choice(["swap", "case", "title", "typo", "accent", "suffix"])
    if kind == "suffix":
        # the PolyU pages write "WONG Wai On 黃偉安 (Dr)" and "WONG Wai On" for one person
        plain = " ".join(w for w in words if w.isascii() and w not in ("(Dr)", "(Prof.)"))
        return (plain if plain != label else f"{label} (Dr)"), kind
    if kind == "swap" and len(words) >= 2:
        return " ".join(words[1:] + words[:1]), kind
    if kind == "case":
        return label.lower() if rng.random() < 0.5 else label.upper(), kind
    if kind == "title":
        return f"{rng.choice(['Dr', 'Prof.', 'Ir', 'Mr', 'Ms'])} {label}", kind
    if kind == "typo" and len(label) >= 8:
        i = rng.randrange(1, len(label) - 1)
        while not label[i].isalpha():
            i = (i + 1) % len(label)
        return label[:i] + label[i + 1:], "typo"  # one letter dropped
    return label.replace("a", "á", 1).replace("o", "ö", 1), "accent"


def linker_accuracy(index, *, staff_class: str | None = None, n: int = 400, seed: int = 0) -> dict[str, Any]:
    """Accuracy of `index.link` on perturbed real labels. A hit: an IRI carrying the original label is
    among the links returned (several when duplicate records share a name: PolyU has "Leung Chi-hong"
    and "Dr Chi Hong LEUNG" as two IRIs); top-1 is also reported. Labels written only in CJK
    characters are left out (the index matches Latin-script names)."""
    rng = random.Random(seed)
    by_label: dict[str, set[str]] = defaultdict(set)
    for e in index.entries:
        if not e.acronym and (staff_class is None or staff_class in e.classes) and len(e.surface) <= 40 \
                and any(ch.isascii() and ch.isalpha() for ch in e.surface):
            by_label[e.surface].add(e.iri)
    labels = sorted(by_label)
    sample = rng.sample(labels, min(n, len(labels)))
    per_kind: dict[str, list[int]] = defaultdict(list)
    top1: list[int] = []
    failures = []
    start = time.perf_counter()
    for label in sample:
        variant, kind = _perturb(label, rng)
        links = index.link(variant)
        ok = any(lk.iri in by_label[label] for lk in links)
        top1.append(int(bool(links) and links[0].iri in by_label[label]))
        per_kind[kind].append(int(ok))
        if not ok and len(failures) < 10:
            failures.append({"label": label, "variant": variant, "got": [lk.label for lk in links[:2]]})
    ms = (time.perf_counter() - start) * 1000 / max(1, len(sample))
    total = [x for v in per_kind.values() for x in v]
    return {"n": len(total), "accuracy": statistics.fmean(total) if total else 0.0,
            "top1": statistics.fmean(top1) if top1 else 0.0,
            "by_kind": {k: {"n": len(v), "accuracy": statistics.fmean(v)} for k, v in sorted(per_kind.items())},
            "ms_per_link": round(ms, 3), "failures": failures}


# ------------------------------------------------------------------ the run
def run(data_dir: Path, out_dir: Path, *, ontology_file: Path | None = None, workspace: Path | None = None,
        layers: Sequence[str] = ("ontology",), mode: str = "plan", answerer: Answerer | None = None,
        limit: int | None = None, name: str | None = None, progress: Progress | None = None,
        questions_file: Path | None = None, open_answers: bool = False) -> dict[str, Any]:
    """Score `answerer` (default: the ontology layer, or the waterfall when `layers` has more than it)
    on `questions_file` (default: the AcadChall dev file). `open_answers`: each MCQ/MAQ question is also
    asked without its options (open-answer F1, `open_score`)."""
    progress = progress or NullProgress()
    data_dir = Path(data_dir)
    source = Path(questions_file) if questions_file else data_dir / "acadchall" / "questions_dev.jsonl"
    questions = load_questions(source)[:limit]
    ontology_file = ontology_file or data_dir / "polyu" / "polyu_onto.ttl"
    layers = list(layers)
    # the KG is imported only when a layer below the ontology is asked for (its own cached workspace)
    kg_file = data_dir / "polyu" / "poly_kg.json" if set(layers) - {"ontology"} else None
    default_ws = out_dir / ".cache" / ("acadchall-ws" if kg_file is None else "acadchall-pyramid-ws")
    ws = ensure_workspace(workspace or default_ws, ontology_file, progress, kg_file=kg_file)
    session = Session(ws)
    if answerer is None:
        answerer = ontology_answerer(mode) if layers == ["ontology"] else waterfall_answerer(layers, mode)
    label = "+".join(layers)
    warm = time.perf_counter()
    from querying.ontology_qa import context
    ctx = context(session)  # vocabulary, label and value indexes: once per run, reported apart
    setup_s = time.perf_counter() - warm

    rows, details = [], []
    task = progress.task(f"AcadChall {source.name} ({label}, {mode})", len(questions))
    for q in questions:
        t0 = time.perf_counter()
        ans = answerer(session, q["question"], q.get("options") or [])
        row = score(q, ans, time.perf_counter() - t0)
        detail = {"question": q["question"], "answer": ans.text[:300],
                  "sparql": next((e.query for e in ans.evidence if e.kind == "sparql"), None),
                  "trace": [f"{s.step}: {s.outcome}"[:200] for s in ans.trace]}
        if open_answers and "options" in q:
            free = answerer(session, q["question"], [])
            row["open_f1"] = open_score(q, free)[2]
            detail["open_answer"] = free.text[:300]
        rows.append(row)
        details.append({**row, **detail})
        task.advance()
    task.done()
    summary = summarise(rows)
    every = None
    if len(layers) > 1:  # the waterfall's token target: against every layer run on every question
        from benchmarks.costs import every_layer_tokens
        from querying.waterfall import built_layers

        built = built_layers(session)

        task = progress.task("AcadChall: every layer on every question (cost)", len(questions))
        costs = []
        for q in questions:
            costs.append(every_layer_tokens(session, q["question"], set(layers) & built, q.get("options")))
            task.advance()
        task.done()
        every = statistics.fmean(costs) if costs else 0.0
    linking = linker_accuracy(ctx.index, staff_class=_staff_class(ctx))
    cold = cold_ask_seconds(ws.root, questions[0]["question"], layers) if questions else None
    data = {"layers": layers, "mode": mode, "llm": session.llm.name, "questions": len(questions),
            "source": source.name, "setup_seconds": round(setup_s, 3), **summary, "every_layer_tokens": every,
            "cold_ask_seconds": cold, "linker": linking, "per_question": details}
    stem = "" if questions_file is None else "-" + source.stem.replace("questions_", "")
    report_name = name or (f"{NAME}-ontology{stem}" if layers == ["ontology"] else f"{NAME}-{'-'.join(layers)}{stem}")
    write_report(out_dir, report_name, data, markdown(data))
    return data


def cold_ask_seconds(root: Path, question: str, layers: Sequence[str], runs: int = 3) -> float:
    """Median wall time of a fresh `polyrag ask` process (interpreter start, imports, reading the
    workspace's cached context, the question): what a user waits for at the command line."""
    import subprocess
    import sys

    times = []
    args = ["ask", str(root), question, *(["--layer", layers[0]] if len(layers) == 1 else ["--layers", ",".join(layers)])]
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import sys, cli; sys.argv[0] = 'polyrag'; cli.main()", *args],
                       capture_output=True, timeout=600, check=False)
        times.append(time.perf_counter() - t0)
    return round(statistics.median(times), 2)


def _staff_class(ctx) -> str | None:
    """The class with the most labelled instances that look like people's names (STAFF in PolyU)."""
    t = ctx.vocab.get("STAFF")
    return t.iri if t else None


def markdown(d: dict[str, Any]) -> str:
    o = d["overall"]
    head = ["template", "questions", "precision", "recall", "F1", "answered", "LLM calls/q", "tokens/q", "s/q"]
    opened = "open_f1" in o
    if opened:
        head.insert(5, "open-answer F1")

    def row(name: str, b: dict) -> list:
        cells = [name, b["questions"], b["precision"], b["recall"], b["f1"], b["answered"], b["llm_calls"],
                 b["tokens"], b["seconds"]]
        if opened:
            cells.insert(5, b.get("open_f1", ""))
        return cells

    lines = [f"# AcadChall {d.get('source', 'questions_dev.jsonl')} — layers: {'+'.join(d['layers'])} "
             f"({d['mode']} mode), LLM {d['llm']}", "",
             md_table(head, [row("**all**", o)] + [row(t, b) for t, b in d["templates"].items()]), "",
             (f"Answered at: {', '.join(f'{k} {v}' for k, v in sorted(o['layers'].items()))}; wrong (answered, "
              f"F1 0): {', '.join(f'{k} {v}' for k, v in sorted(o.get('wrong', {}).items())) or 'none'} "
              f"({o.get('wrong_rate', 0.0):.1%} of questions; unanswered counted apart, as 'none'); LLM calls per "
              f"question: median {o.get('median_llm_calls', 0.0):.1f}, mean {o['llm_calls']:.2f}; seconds per "
              f"question in-process: p50 {o.get('seconds_p50', 0.0) * 1000:.0f} ms; a fresh `polyrag ask` process: "
              f"{d.get('cold_ask_seconds') or 0:.2f} s wall (median of 3); one-off setup in this process "
              f"(vocabulary, label and value indexes): {d['setup_seconds']:.2f} s."
              + (" Open-answer F1: each question asked again without its options; the entities the answer "
                 "names against the gold options (precision over the options it names)." if opened else "")), "",
             "By wording:", "",
             md_table(["template · wording", "questions", "F1", "answered"],
                      [[w, b["questions"], b["f1"], b["answered"]] for w, b in d.get("wordings", {}).items()]), ""]
    if d.get("every_layer_tokens") is not None:
        every, spent = d["every_layer_tokens"], o["tokens"]
        share = f" ({spent / every:.1%} of it)" if every else ""
        lines += [(f"Every layer run on every question ({'+'.join(d['layers'])}, the PolyRAG code's way): "
                   f"{every:.0f} tokens/question; the waterfall spends {spent:.0f}{share}. Tokens are counted "
                   "as if uncached."), ""]
    lk = d["linker"]
    lines += [(f"## Label index on {lk['n']} perturbed real staff labels: accuracy {lk['accuracy']:.3f} (the "
               f"record is among the links), top-1 {lk['top1']:.3f}; {lk['ms_per_link']:.2f} ms per lookup"), "",
              md_table(["perturbation", "n", "accuracy"], [[k, v["n"], v["accuracy"]] for k, v in lk["by_kind"].items()])]
    return "\n".join(lines)
