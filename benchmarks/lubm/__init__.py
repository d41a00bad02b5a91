"""`polyrag bench lubm`: our store + reasoner beside rdflib + owlrl on generated LUBM data.

Both sides do the same work in the same run, each timed:
  load         ours: schema load + `import_instances` of each university file (parse, report, bulk write);
               rdflib: `Graph.parse` of the ontology and the same files
  materialise  ours: `OntologyLayer.reason()` (read the asserted graphs as N-Triples text — from memory
               when this process wrote them, else dumped by Oxigraph —, fixpoint, write the inferred graph);
               owlrl: `DeductiveClosure(OWLRL_Semantics).expand(graph)`
  queries      the 14 LUBM queries: ours through `OntologyLayer.query` (safety check, query process,
               JSON rows); rdflib's `Graph.query`, each stopped after `reference_timeout` seconds
Answer sets are compared twice: with rdflib's own answers (where it finished in time) and with
owlrl's closure evaluated by Oxigraph (so a mismatch there can only come from the reasoning).
A stopped rdflib query counts its time limit, so the speed ratio is then a lower bound.
A second table sets our materialisation beside the same rules written as SPARQL INSERTs iterated to a
fixpoint in Oxigraph, in memory and on disk (`sparql_rules.py`), and beside the Rust OWL 2 RL reasoner
`reasonable` (a dev dependency; its row is left out where it is not installed), with their answers
checked against ours. Wall seconds are the figures; CPU seconds beside them (this process, threads
included; the queries' are the query process's) say what a step costs when other work shares the machine.
"""

from __future__ import annotations

import signal
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.lubm.answers import answer_key
from benchmarks.lubm.generator import generate
from benchmarks.lubm.queries import QUERIES
from benchmarks.lubm.sparql_rules import sparql_fixpoint

ONTOLOGY = Path(__file__).resolve().parents[3] / "shared" / "data" / "lubm" / "univ-bench.owl"


class _Stopped(Exception):
    pass


@contextmanager
def _time_limit(seconds: float):
    """rdflib is pure Python, so an alarm signal stops it between bytecodes (main thread only)."""
    def stop(*_):
        raise _Stopped()
    try:
        old = signal.signal(signal.SIGALRM, stop)
    except ValueError:  # not the main thread: no limit
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _child_cpu(layer) -> float:
    """CPU seconds the layer's query process has used so far (Linux /proc; 0 elsewhere)."""
    import os

    worker = getattr(layer.store, "_worker", None)
    proc = getattr(worker, "_proc", None)
    try:
        fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (AttributeError, OSError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def ours(ontology: Path, data: list[Path], workdir: Path) -> dict[str, Any]:
    """Load, reason and answer with the ontology layer in a fresh workspace."""
    from pyramid.ontology.layer import OntologyLayer
    from pyramid.workspace import Workspace

    layer = OntologyLayer(Workspace.init(workdir / "ws"))
    try:
        start, cpu = time.perf_counter(), time.process_time()
        layer.load_schema(ontology)
        for path in data:
            layer.import_instances(path)
        load_s, load_cpu = time.perf_counter() - start, time.process_time() - cpu
        cpu = time.process_time()
        report = layer.reason()
        materialise_cpu = time.process_time() - cpu
        answers, times = {}, {}
        layer.query("ASK { ?s ?p ?o }")  # starts the query process: a one-off, not a query's cost
        cpu, child = time.process_time(), _child_cpu(layer)
        for name, q in QUERIES.items():
            t = time.perf_counter()
            res = layer.query(q, row_cap=10**9, timeout_s=600)
            times[name] = time.perf_counter() - t
            answers[name] = {answer_key(r[v] for v in res.variables) for r in res.rows}
        query_cpu = time.process_time() - cpu + _child_cpu(layer) - child
        return {"load_s": load_s, "materialise_s": report.seconds, "fixpoint_s": report.reason_seconds,
                "asserted": report.asserted, "inferred": report.inferred, "query_s": times, "answers": answers,
                "cpu_s": {"load": load_cpu, "materialise": materialise_cpu, "queries": query_cpu}}
    finally:
        layer.close()


def reasonable_closure(ontology: Path, data: list[Path], workdir: Path) -> dict[str, Any] | None:
    """The Rust OWL 2 RL reasoner `reasonable` on the same data (None when it is not installed): its
    load (it parses Turtle/N3 files itself: the ontology and the data are written as one N-Triples
    file, which is Turtle) and its `reason()` (which returns the whole closure as rdflib terms), timed
    apart; its closure is then queried by Oxigraph, so its answers compare with ours."""
    try:
        import reasonable
    except ImportError:
        return None
    import pyoxigraph as ox

    from pyramid.ontology.rdfio import to_python

    onto = ox.serialize([ox.Triple(q.subject, q.predicate, q.object)
                         for q in ox.parse(path=str(ontology), format=ox.RdfFormat.RDF_XML)],
                        format=ox.RdfFormat.N_TRIPLES)
    ttl = workdir / "reasonable-input.ttl"
    with ttl.open("wb") as f:
        f.write(onto)
        for path in data:
            f.write(path.read_bytes())
    start = time.perf_counter()
    reasoner = reasonable.PyReasoner()
    reasoner.load_file(str(ttl))
    load_s = time.perf_counter() - start
    start = time.perf_counter()
    closure = reasoner.reason()
    materialise_s = time.perf_counter() - start
    ttl.unlink()
    store = ox.Store()
    store.bulk_extend(_to_oxigraph(closure))
    answers = {}
    for name, q in QUERIES.items():
        result = store.query(q)
        names = [v.value for v in result.variables]
        answers[name] = {answer_key(to_python(sol[n]) for n in names) for sol in result}
    version = getattr(reasonable, "__version__", None) or _version("reasonable")
    return {"version": version, "load_s": load_s, "materialise_s": materialise_s, "closure": len(store),
            "answers": answers}


def _version(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "?"


def _cpu_line(a: dict[str, Any]) -> str:
    cpu = a["cpu_s"]
    return (f"CPU seconds (this process with its threads; the queries': the query process and this one): load "
            f"{cpu['load']:.2f}, materialise {cpu['materialise']:.2f}, 14 queries {cpu['queries']:.2f}, total "
            f"{sum(cpu.values()):.2f} — below the wall seconds when other work shares the machine's 2 cores.")


def _reasonable_row(r: dict[str, Any] | None, a: dict[str, Any]) -> list[Any]:
    if r is None:
        return ["reasonable (Rust OWL 2 RL): not installed (`pip install reasonable==0.4.4`)", "—", "—", "—", "—", "—"]
    equal = sum(r["answers"][n] == a["answers"][n] for n in QUERIES)
    return [f"reasonable {r['version']} (Rust OWL 2 RL; `reason()` with its result as rdflib terms)",
            r["materialise_s"], f"{r['load_s'] + r['materialise_s']:.3f} (its own parse {r['load_s']:.2f})", "—",
            f"closure {r['closure']:,}", f"{equal}/14"]


def reference(ontology: Path, data: list[Path], query_timeout: float) -> dict[str, Any]:
    """rdflib + owlrl (OWL 2 RL closure), then the queries in rdflib and in Oxigraph over the closure."""
    import owlrl
    import pyoxigraph as ox
    import rdflib

    from pyramid.ontology.rdfio import to_python

    graph = rdflib.Graph()
    start = time.perf_counter()
    graph.parse(ontology, format="xml")
    for path in data:
        graph.parse(path, format="nt")
    load_s = time.perf_counter() - start
    asserted = len(graph)
    start = time.perf_counter()
    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics).expand(graph)
    materialise_s = time.perf_counter() - start
    answers, times, stopped = {}, {}, []
    for name, q in QUERIES.items():
        t = time.perf_counter()
        if query_timeout <= 0:  # closure only (tests): rdflib's own query evaluation skipped
            stopped.append(name)
            times[name] = 0.0
            continue
        try:
            with _time_limit(query_timeout):
                answers[name] = {answer_key(row) for row in graph.query(q)}
        except _Stopped:
            stopped.append(name)
        times[name] = time.perf_counter() - t
    closure = ox.Store()
    closure.extend(_to_oxigraph(graph))
    on_oxigraph = {}
    for name, q in QUERIES.items():
        result = closure.query(q)
        names = [v.value for v in result.variables]
        on_oxigraph[name] = {answer_key(to_python(sol[n]) for n in names) for sol in result}
    return {"load_s": load_s, "materialise_s": materialise_s, "asserted": asserted, "closure": len(graph),
            "query_s": times, "stopped": stopped, "answers": answers, "closure_answers": on_oxigraph}


def _to_oxigraph(graph):
    """owlrl's closure as Oxigraph quads; its generalised triples (literal subjects) are left out."""
    import pyoxigraph as ox
    import rdflib

    def term(t):
        if isinstance(t, rdflib.URIRef):
            return ox.NamedNode(str(t))
        if isinstance(t, rdflib.BNode):
            return ox.BlankNode(str(t))
        if t.language:
            return ox.Literal(str(t), language=t.language)
        return ox.Literal(str(t), datatype=ox.NamedNode(str(t.datatype))) if t.datatype else ox.Literal(str(t))

    for s, p, o in graph:
        if isinstance(s, (rdflib.URIRef, rdflib.BNode)) and isinstance(p, rdflib.URIRef):
            yield ox.Quad(term(s), term(p), term(o))


def run(universities: int, out_dir: Path, *, departments: int | None = None, seed: int = 0,
        reference_timeout: float = 60.0, ontology: Path = ONTOLOGY, with_reference: bool = True) -> dict[str, Any]:
    """`with_reference=False` (for LUBM(10) and up, where rdflib + owlrl would take hours): ours beside
    the same rules as SPARQL INSERTs in an in-memory Oxigraph, whose answers are the check; the report
    is `lubm-<universities>`."""
    if not with_reference:
        return run_at_scale(universities, out_dir, departments=departments, seed=seed, ontology=ontology)
    from benchmarks.report import md_table, write_report

    with tempfile.TemporaryDirectory() as tmp:
        data = generate(universities, Path(tmp) / "data", seed=seed, departments=departments)
        triples = sum(1 for p in data for line in p.open(encoding="utf-8") if line.strip())
        a = ours(ontology, data, Path(tmp))
        rules = {"memory": sparql_fixpoint(ontology, data, QUERIES),
                 "disk": sparql_fixpoint(ontology, data, QUERIES, on_disk=Path(tmp) / "rules-store")}
        rust = reasonable_closure(ontology, data, Path(tmp))
        b = reference(ontology, data, reference_timeout)
    rows, per_query = [], {}
    for name in QUERIES:
        mine = a["answers"][name]
        rdflib_equal = None if name in b["stopped"] else mine == b["answers"][name]
        closure_equal = mine == b["closure_answers"][name]
        per_query[name] = {"answers": len(mine), "reference_answers": len(b["closure_answers"][name]),
                           "equal_owlrl_closure": closure_equal, "equal_rdflib": rdflib_equal,
                           "ours_ms": round(a["query_s"][name] * 1000, 2),
                           "rdflib_ms": round(b["query_s"][name] * 1000, 2), "rdflib_stopped": name in b["stopped"]}
        rdflib_cell = f"{b['query_s'][name] * 1000:,.1f}" + (" (stopped)" if name in b["stopped"] else "")
        rows.append([name, len(mine), len(b["closure_answers"][name]), "yes" if closure_equal else "**NO**",
                     "—" if rdflib_equal is None else ("yes" if rdflib_equal else "**NO**"),
                     f"{a['query_s'][name] * 1000:,.1f}", rdflib_cell])
    ours_q, ref_q = sum(a["query_s"].values()), sum(b["query_s"].values())
    ours_total = a["load_s"] + a["materialise_s"] + ours_q
    ref_total = b["load_s"] + b["materialise_s"] + ref_q
    equal = sum(q["equal_owlrl_closure"] for q in per_query.values())
    lower = " (lower bound: stopped queries count their limit)" if b["stopped"] else ""
    summary = [
        ["load (s)", a["load_s"], b["load_s"], b["load_s"] / a["load_s"]],
        ["materialise (s)", a["materialise_s"], b["materialise_s"], b["materialise_s"] / a["materialise_s"]],
        ["14 queries (s)", ours_q, ref_q, ref_q / ours_q],
        ["total (s)", ours_total, ref_total, ref_total / ours_total],
    ]
    alternatives = [
        ["ours: in-memory semi-naive fixpoint (`pyramid/ontology/reasoner.py`)", a["fixpoint_s"],
         a["materialise_s"], "—", f"{a['inferred']:,} (named classes only)", "—"],
        *[[f"SPARQL INSERT rules to a fixpoint, Oxigraph {'in memory' if k == 'memory' else 'on disk (RocksDB)'}",
           r["materialise_s"], "—", r["rounds"], f"{r['closure'] - r['asserted']:,}",
           f"{sum(r['answers'][n] == a['answers'][n] for n in QUERIES)}/14"] for k, r in rules.items()],
        _reasonable_row(rust, a),
        ["owlrl over rdflib (OWL 2 RL, all rules)", b["materialise_s"], "—", "—", f"{b['closure'] - b['asserted']:,}",
         f"{sum(b['closure_answers'][n] == a['answers'][n] for n in QUERIES)}/14"],
    ]
    md = "\n\n".join([
        f"# LUBM({universities}, seed {seed})" + (f", {departments} departments per university" if departments else ""),
        f"{triples:,} generated triples + univ-bench.owl; ours inferred {a['inferred']:,} triples "
        f"(fixpoint {a['fixpoint_s']:.2f} s of the {a['materialise_s']:.2f} s), owlrl's closure holds "
        f"{b['closure']:,} triples (from {b['asserted']:,}).",
        md_table(["step", "ours", "rdflib + owlrl", "speed-up ×"], summary),
        f"All 14 equal: {'yes' if equal == len(QUERIES) else 'no'} ({equal}/14 equal to owlrl's closure); "
        f"total speed-up {ref_total / ours_total:,.1f}×{lower}.",
        md_table(["query", "answers (ours)", "answers (owlrl closure)", "equal (closure)", "equal (rdflib)",
                  "ours ms", "rdflib ms"], rows),
        f"rdflib queries are stopped after {reference_timeout:g} s. Ours: load = schema + import (parse, report, "
        "bulk write), materialise = read the asserted graphs + fixpoint + write inferred graph, queries through "
        "the safe path (check, query process, rows as JSON). " + _cpu_line(a),
        "## Materialisation: the alternatives on the same data",
        md_table(["materialiser", "fixpoint (s)", "with store read + write (s)", "rounds", "new triples",
                  "14 answers equal to ours"], alternatives),
        (f"The SPARQL rules (`benchmarks/lubm/sparql_rules.py`) are the same entailments as ours, one INSERT "
         f"each, all run each round until a round adds nothing. They take "
         f"{rules['memory']['materialise_s'] / a['fixpoint_s']:.1f}× our fixpoint's time in an in-memory "
         f"Oxigraph and {rules['disk']['materialise_s'] / a['fixpoint_s']:.1f}× in an on-disk store like the "
         f"workspace's ({rules['disk']['materialise_s'] / a['materialise_s']:.1f}× our whole step with its store "
         "read and write). Their closure also holds types of anonymous restriction classes, which ours uses "
         "but does not write."),
        _reasonable_sentence(rust, a),
    ])
    result = {"universities": universities, "departments": departments, "seed": seed, "triples": triples,
              "ours": {k: v for k, v in a.items() if k != "answers"},
              "reference": {k: v for k, v in b.items() if k not in ("answers", "closure_answers")},
              "sparql_rules": {k: {x: y for x, y in r.items() if x != "answers"} |
                               {"answers_equal_ours": sum(r["answers"][n] == a["answers"][n] for n in QUERIES)}
                               for k, r in rules.items()},
              "reasonable": _reasonable_json(rust, a),
              "queries": per_query, "all_equal": equal == len(QUERIES),
              "speedup_total": ref_total / ours_total, "speedup_is_lower_bound": bool(b["stopped"])}
    write_report(out_dir, "lubm", result, md)
    return result


def run_at_scale(universities: int, out_dir: Path, *, departments: int | None = None, seed: int = 0,
                 ontology: Path = ONTOLOGY) -> dict[str, Any]:
    """Ours (load, materialise, the 14 queries) and the answer check by the SPARQL rules in memory."""
    from benchmarks.report import md_table, write_report

    with tempfile.TemporaryDirectory() as tmp:
        data = generate(universities, Path(tmp) / "data", seed=seed, departments=departments)
        triples = sum(1 for p in data for line in p.open(encoding="utf-8") if line.strip())
        a = ours(ontology, data, Path(tmp))
        check = sparql_fixpoint(ontology, data, QUERIES)
        rust = reasonable_closure(ontology, data, Path(tmp))
    equal = {n: a["answers"][n] == check["answers"][n] for n in QUERIES}
    total = a["load_s"] + a["materialise_s"] + sum(a["query_s"].values())
    rows = [[n, len(a["answers"][n]), len(check["answers"][n]), "yes" if equal[n] else "**NO**",
             f"{a['query_s'][n] * 1000:,.1f}"] for n in QUERIES]
    name = f"lubm-{universities}"
    md = "\n\n".join([
        f"# LUBM({universities}, seed {seed})" + (f", {departments} departments per university" if departments else ""),
        f"{triples:,} generated triples + univ-bench.owl; ours inferred {a['inferred']:,} triples. rdflib + owlrl "
        "are not run at this size (hours); the answers are checked against the same rules run as SPARQL "
        f"INSERTs to a fixpoint in an in-memory Oxigraph ({check['materialise_s']:.1f} s, {check['rounds']} rounds).",
        md_table(["step", "seconds"], [["load (schema + import)", a["load_s"]],
                                        ["materialise (read + fixpoint + write)", a["materialise_s"]],
                                        ["of which the fixpoint", a["fixpoint_s"]],
                                        ["14 queries (safe path)", sum(a["query_s"].values())], ["total", total]]),
        f"All 14 answer sets equal to the rules': {'yes' if all(equal.values()) else 'no'} "
        f"({sum(equal.values())}/14). " + _cpu_line(a),
        md_table(["query", "answers (ours)", "answers (SPARQL rules)", "equal", "ours ms"], rows),
        _reasonable_sentence(rust, a),
    ])
    result = {"universities": universities, "departments": departments, "seed": seed, "triples": triples,
              "ours": {k: v for k, v in a.items() if k != "answers"},
              "sparql_rules_memory": {k: v for k, v in check.items() if k != "answers"},
              "queries": {n: {"answers": len(a["answers"][n]), "equal_rules": equal[n],
                              "ours_ms": round(a["query_s"][n] * 1000, 2)} for n in QUERIES},
              "all_equal": all(equal.values()), "total_s": total, "reasonable": _reasonable_json(rust, a)}
    write_report(out_dir, name, result, md)
    return result


def _reasonable_sentence(r: dict[str, Any] | None, a: dict[str, Any]) -> str:
    if r is None:
        return "`reasonable` (the Rust OWL 2 RL reasoner) is not installed here, so it was not measured."
    equal = sum(r["answers"][n] == a["answers"][n] for n in QUERIES)
    return (f"`reasonable` {r['version']} on the same data: its own parse {r['load_s']:.2f} s, `reason()` "
            f"{r['materialise_s']:.2f} s (closure of {r['closure']:,} triples; {equal}/14 answer sets equal to ours), "
            f"against our fixpoint's {a['fixpoint_s']:.2f} s and our whole materialise step's "
            f"{a['materialise_s']:.2f} s (store read and write included).")


def _reasonable_json(r: dict[str, Any] | None, a: dict[str, Any]) -> dict[str, Any] | None:
    if r is None:
        return None
    return {k: v for k, v in r.items() if k != "answers"} | {
        "answers_equal_ours": sum(r["answers"][n] == a["answers"][n] for n in QUERIES)}
