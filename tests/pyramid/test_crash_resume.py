"""Crash-resume suite (issue 16, item 2): `polyrag build` stopped at many points, then run again,
ends with the pyramid an uninterrupted build makes — documents, chunks, text vectors, KG triples and
index, ontology quads, and the answers to three fixed questions.

Each build runs as its own process. It is stopped by the fault hook in pyramid.workspace.crash_point
(POLYRAG_TEST_KILL_AT=point@n[:INT|:ERR]): the process sends itself SIGKILL (or SIGINT, or raises) the
n-th time it passes a named point between two writes — the corpus, text and KG index generations, the
LadybugDB upsert, the KG and f_ins journals and states, every ontology graph switch, the manifest, the build
journal itself. The uninterrupted baseline lists the points it passes (POLYRAG_TEST_TRACE_POINTS), and
`test_kill_points_span_the_build` checks the chosen ones exist and are spread over the whole run.

Two kinds of build are stopped: a first build of six documents into an empty workspace, and an
incremental one (five documents built, then one added and one changed), where a rollback has old state
to put back. Every case starts from a copy of the baseline's caches (embeddings, model replies), so
the builds are fast and the model answers from its cache; what is tested is the layers' state.

Runs the real LadybugDB, Oxigraph and MiniLM; the questions asked of the KG and text layers call the local
model once each in the baselines (cached after). The journal's own tests at the end are fast.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import ROOT

from pyramid import workspace as wsmod
from pyramid.errors import WorkspaceLocked
from pyramid.workspace import BuildJournal, Generations, Part, Workspace

SCHEMA = """\
@prefix : <http://example.org/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

:University a owl:Class ; rdfs:label "university" .
:AcademicUnit a owl:Class ; rdfs:label "academic unit" .
:FACULTY a owl:Class ; rdfs:subClassOf :AcademicUnit ; rdfs:label "faculty" .
:DEPARTMENT a owl:Class ; rdfs:subClassOf :AcademicUnit ; rdfs:label "department" .
:STAFF a owl:Class ; rdfs:label "staff member" .
:AcademicStaff a owl:Class ; rdfs:subClassOf :STAFF ; rdfs:label "academic staff" .
:Professor a owl:Class ; rdfs:subClassOf :AcademicStaff ; rdfs:label "professor" .
:Lecturer a owl:Class ; rdfs:subClassOf :AcademicStaff ; rdfs:label "lecturer" .
:COURSE a owl:Class ; rdfs:label "course" .

:works_for a owl:ObjectProperty ; rdfs:label "works for" ; rdfs:domain :STAFF ; rdfs:range :AcademicUnit .
:head_of a owl:ObjectProperty ; rdfs:subPropertyOf :works_for ; rdfs:label "is head of" ;
    rdfs:domain :STAFF ; rdfs:range :AcademicUnit .
:belongs_to a owl:ObjectProperty ; rdfs:label "belongs to" ; rdfs:domain :DEPARTMENT ; rdfs:range :FACULTY .
:offered_by a owl:ObjectProperty ; rdfs:label "offered by" ; rdfs:domain :COURSE ; rdfs:range :AcademicUnit .
:teaches a owl:ObjectProperty ; rdfs:label "teaches" ; rdfs:domain :AcademicStaff ; rdfs:range :COURSE ;
    owl:inverseOf :taught_by .
:taught_by a owl:ObjectProperty ; rdfs:label "taught by" ; rdfs:domain :COURSE ; rdfs:range :AcademicStaff .
:has_research_interest a owl:DatatypeProperty ; rdfs:label "has research interest" ;
    rdfs:domain :STAFF ; rdfs:range xsd:string .
:obtained_degree a owl:DatatypeProperty ; rdfs:label "obtained degree" ; rdfs:domain :STAFF ; rdfs:range xsd:string .
:has_subject_code a owl:DatatypeProperty ; rdfs:label "has subject code" ; rdfs:domain :COURSE ;
    rdfs:range xsd:string .
:has_subject_title a owl:DatatypeProperty ; rdfs:label "has subject title" ; rdfs:domain :COURSE ;
    rdfs:range xsd:string .
:has_subject_description a owl:DatatypeProperty ; rdfs:label "has subject description" ;
    rdfs:comment "What the course covers." ; rdfs:domain :COURSE ; rdfs:range xsd:string .
"""

FIRST = [  # the incremental build's starting point
    ("dept-history", "Department of History",
     "The Department of History belongs to the Faculty of Humanities at Eastfield University. Its head is "
     "Prof. Laura Bennett. The department teaches modern European history, economic history and public history."),
    ("dept-chemistry", "Department of Chemistry",
     "The Department of Chemistry is part of the Faculty of Science at Eastfield University. The head of the "
     "department is Prof. Omar Haddad. It runs laboratories for organic synthesis and materials chemistry."),
    ("staff-laura-bennett", "Prof. Laura Bennett",
     "Prof. Laura Bennett is a professor in the Department of History. She teaches HIST2100 Modern Europe. Her "
     "research interests are urban history and the history of science. She obtained her PhD from the "
     "University of Leeds."),
    ("staff-tom-reyes", "Dr Tom Reyes",
     "Dr Tom Reyes is a lecturer in the Department of Chemistry. He teaches CHEM1010 General Chemistry. His "
     "research interests are catalysis and green chemistry."),
    ("course-hist2100", "HIST2100 Modern Europe",
     "HIST2100 Modern Europe is a course offered by the Department of History. It is taught by Prof. Laura "
     "Bennett. The course covers European history from 1789 to 1945."),
]
FULL = [d for d in FIRST if d[0] != "staff-tom-reyes"] + [  # one document changed, one added
    ("staff-tom-reyes", "Dr Tom Reyes",
     "Dr Tom Reyes is a lecturer in the Department of Chemistry. He teaches CHEM1010 General Chemistry and "
     "CHEM2200 Organic Chemistry. His research interests are catalysis and green chemistry."),
    ("course-chem1010", "CHEM1010 General Chemistry",
     "CHEM1010 General Chemistry is a course offered by the Department of Chemistry. It is taught by Dr Tom "
     "Reyes. The course covers atomic structure, chemical bonding and reactions in solution."),
]
QUESTIONS = [  # (question, --layer): the waterfall (ontology), the KG and the text layer each answer one
    ("Which department does Dr Tom Reyes work for?", None),
    ("Who is the head of the Department of Chemistry?", "kg"),
    ("What does CHEM1010 cover?", "text"),
]
LAYERS = {"corpus", "text", "kg", "ontology"}

# Stops of the first build (6 documents, 6 KG chunks, 6 f_ins chunks), in the order it passes them.
FIRST_BUILD_KILLS = [
    "manifest.saved@1",          # the new workspace's first manifest, before the build journal
    "journal.begun@1",           # journal written, nothing else
    "gen.switched@1",            # corpus generation switched
    "build.corpus@1",
    "gen.renamed@2",             # text generation renamed into place, pointer not switched
    "text.committed@1",          # text pointer switched, its manifest counts not written
    "build.layer@1",             # text layer done
    "journal.appended@3",        # in KG extraction
    "kg.deleted@1",
    "kg.loaded@1",               # LadybugDB upserted, index not synced
    "gen.switched@3",            # KG index switched
    "kg.synced@1",               # manifest written, KG state not
    "build.layer@2",
    "ontology.schema@1",         # schema graph switched, its prefixes and manifest not
    "ontology.schema.loaded@1",  # schema loaded, its digest not recorded
    "journal.appended@9",        # in f_ins
    "ontology.instances@1",      # the first document's graph switched
    "ontology.instances@3",      # a document's graph switched, the extractor's state not
    "ontology.state@5",
    "ontology.inferred@1",       # inferred graph switched, manifest not
    "build.layer@3",
    "journal.committing@1",      # every layer done, manifest says done, journal not committed
    "journal.retired@1",         # committed; the old journal not yet deleted
]
# Stops of the incremental build (one document added, one changed): a rollback has old state to restore.
NEXT_BUILD_KILLS = ["journal.begun@1", "text.committed@1", "kg.loaded@1", "ontology.instances@2",
                    "journal.committing@1"]
INTERRUPTS = [("first", "gen.renamed@2"), ("first", "kg.loaded@1"), ("first", "journal.appended@10"),
              ("next", "build.corpus@1"), ("next", "ontology.inferred@1")]


# ------------------------------------------------------------------ running the CLI

def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("POLYRAG_TEST_")}
    return {**env, **extra}


def polyrag(*args, kill_at: str | None = None, trace: Path | None = None) -> subprocess.CompletedProcess:
    # the builds stopped here extract by sentence (grounded), whose chunk journal has the points to stop at; the
    # default reads these pages by shape
    extra = {"POLYRAG_ONTOLOGY__EXTRACT_METHOD": "grounded"}
    if kill_at:
        extra["POLYRAG_TEST_KILL_AT"] = kill_at
    if trace:
        extra["POLYRAG_TEST_TRACE_POINTS"] = str(trace)
    # SIGINT back to its default in the child: a run started in the background by a shell inherits it
    # ignored, and Python then never turns it into KeyboardInterrupt (the Ctrl-C cases would pass nothing)
    return subprocess.run([sys.executable, "-c", "import cli; cli.main()", *map(str, args)], cwd=ROOT,
                          env=_env(**extra), capture_output=True, text=True, timeout=300,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def build(ws: Path, docs: Path, schema: Path, **kw) -> subprocess.CompletedProcess:
    return polyrag("build", ws, "--docs", docs, "--schema", schema, "--json", **kw)


def answers(ws: Path) -> list[tuple[str | None, str]]:
    out = []
    for question, layer in QUESTIONS:
        r = polyrag("ask", ws, question, "--json", *(["--layer", layer] if layer else []))
        assert r.returncode in (0, 2), r.stderr[-2000:]  # 2: the asked layer could not answer (said so)
        answer = json.loads(r.stdout)
        out.append((answer["layer"], answer["text"]))
    return out


# ------------------------------------------------------------------ the pyramid, read from disk

def _current(layer_dir: Path) -> Path | None:
    pointer = layer_dir / "CURRENT"
    return layer_dir / pointer.read_text().strip() if pointer.exists() else None


def pyramid(ws: Path) -> dict:
    """Everything a build makes, in comparable form; None for a layer that does not exist."""
    import numpy as np
    import pyoxigraph as ox

    out: dict = {}
    gen = _current(ws / "corpus")
    out["documents"] = None if gen is None else sorted((gen / "documents.jsonl").read_text("utf-8").splitlines())
    gen = _current(ws / "text")
    out["chunks"] = None if gen is None else (gen / "chunks.jsonl").read_text("utf-8").splitlines()
    out["text_docs"] = None if gen is None else json.loads((gen / "docs.json").read_text("utf-8"))
    out["text_vectors"] = None if gen is None else hashlib.sha256(np.load(gen / "dense.npy").tobytes()).hexdigest()
    gen = _current(ws / "kg" / "index")
    if gen is None:
        out["kg_index"] = None
    else:
        rows = (gen / "triples.jsonl").read_text("utf-8").splitlines()
        vectors = np.load(gen / "vectors.npy")
        out["kg_index"] = sorted((row, hashlib.sha256(v.tobytes()).hexdigest()) for row, v in zip(rows, vectors))
    out["kg_triples"] = out["kg_entities"] = None
    if (ws / "kg" / "graph.lbug").exists():
        import ladybug

        db = ladybug.Database(str(ws / "kg" / "graph.lbug"), read_only=True)
        conn = ladybug.Connection(db)
        try:
            for key, query in (("kg_triples", "MATCH (a:Entity)-[r:REL]->(b:Entity) RETURN a.id, r.id, "
                                "r.relation, r.canonical, r.props, r.chunk_id, r.doc_id, r.confidence, b.id"),
                               ("kg_entities", "MATCH (e:Entity) RETURN e.id, e.name, e.norm, e.type")):
                result, rows = conn.execute(query), []
                while result.has_next():
                    rows.append(json.dumps(result.get_next()))
                out[key] = sorted(rows)
        finally:
            conn.close()
            db.close()
    registry = ws / "ontology" / "graphs.json"
    graphs = json.loads(registry.read_text("utf-8"))["graphs"] if registry.exists() else {}
    out["ontology_graphs"] = {name: g["triples"] for name, g in graphs.items()} or None
    out["ontology_quads"] = None
    if graphs:
        name_of = {g["iri"]: name for name, g in graphs.items()}  # physical graph IRIs differ per build
        store = ox.Store.read_only(str(ws / "ontology" / "store"))
        out["ontology_quads"] = sorted(
            f"{name_of[q.graph_name.value]} {q.subject} {q.predicate} {q.object}" for q in store
            if q.graph_name.value in name_of and not isinstance(q.subject, ox.BlankNode)
            and not isinstance(q.object, ox.BlankNode))
        del store
    return out


def manifest(ws: Path) -> dict:
    return json.loads((ws / "manifest.json").read_text("utf-8"))


def assert_same(got: dict, want: dict) -> None:
    differ = [k for k in want if got.get(k) != want[k]]
    assert not differ, f"differs from the uninterrupted build: {differ}"


# ------------------------------------------------------------------ baselines

class Baseline:
    def __init__(self, trace: list[str], state: dict, answers: list, counts: dict, cache: Path) -> None:
        self.trace, self.state, self.answers, self.counts, self.cache = trace, state, answers, counts, cache


def _points(trace_file: Path) -> list[str]:
    seen: Counter = Counter()
    out = []
    for name in trace_file.read_text("utf-8").split():
        seen[name] += 1
        out.append(f"{name}@{seen[name]}")
    return out


def _baseline(ws: Path, docs: Path, schema: Path, trace: Path, keep: Path) -> Baseline:
    r = build(ws, docs, schema, trace=trace)
    assert r.returncode == 0, r.stderr[-2000:]
    got = answers(ws)
    shutil.copytree(ws / "cache", keep)  # embeddings and model replies, the asks' too
    return Baseline(_points(trace), pyramid(ws), got, manifest(ws)["layers"], keep)


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    root = tmp_path_factory.mktemp("crash")
    schema = root / "schema.ttl"
    schema.write_text(SCHEMA, encoding="utf-8")
    files = {}
    for name, docs in (("first", FIRST), ("full", FULL)):
        files[name] = root / f"{name}.jsonl"
        files[name].write_text("".join(json.dumps({"id": i, "title": t, "text": x}) + "\n" for i, t, x in docs),
                               encoding="utf-8")
    first = _baseline(root / "base-first", files["full"], schema, root / "trace-first", root / "cache-first")
    # the incremental build starts from five documents built; its cases start from copies of it
    start = root / "start"
    shutil.copytree(first.cache, start / "cache")
    r = build(start, files["first"], schema)
    assert r.returncode == 0, r.stderr[-2000:]
    shutil.copytree(start, root / "base-next")
    before = pyramid(start)
    following = _baseline(root / "base-next", files["full"], schema, root / "trace-next", root / "cache-next")
    assert following.state != before and following.state["text_vectors"] != before["text_vectors"]
    return {"root": root, "schema": schema, "docs": files["full"], "first": first, "next": following,
            "start": start, "before": before}


def _workspace(suite, kind: str, name: str) -> Path:
    """A fresh workspace for one case: empty (first build) or the five-document one (next build), with
    the baseline's caches."""
    ws = suite["root"] / "cases" / f"{kind}-{name}"
    if kind == "first":
        ws.mkdir(parents=True)
    else:
        shutil.copytree(suite["start"], ws, ignore=shutil.ignore_patterns("cache"))
    shutil.copytree(suite[kind].cache, ws / "cache")
    return ws


def _resume_and_compare(suite, kind: str, ws: Path) -> dict:
    """Run the build again to completion: the pyramid, the answers and the manifest's counts are the
    uninterrupted build's, and no journal is left."""
    base: Baseline = suite[kind]
    r = build(ws, suite["docs"], suite["schema"])
    assert r.returncode == 0, r.stderr[-2000:]
    assert_same(pyramid(ws), base.state)
    assert answers(ws) == base.answers
    m = manifest(ws)
    assert m["layers"] == base.counts
    assert m["build"]["state"] == "done" and m["build"]["behind"] == []
    assert not [p.name for p in ws.iterdir() if p.name.startswith(".build")]
    return json.loads(r.stdout)


# ------------------------------------------------------------------ the cases

@pytest.mark.slow
@pytest.mark.llm
def test_kill_points_span_the_build(suite):
    """Every stop the suite uses is a point the uninterrupted build passes, and they are spread over it:
    no stretch of more than an eighth of the run goes without one."""
    for kind, kills in (("first", FIRST_BUILD_KILLS), ("next", NEXT_BUILD_KILLS)):
        trace = suite[kind].trace
        missing = [k for k in kills if k not in trace]
        assert not missing, f"{kind} build never passes {missing}"
        if kind == "first":
            at = sorted(trace.index(k) for k in kills)
            gaps = [b - a for a, b in zip([0, *at], [*at, len(trace) - 1])]
            assert max(gaps) <= len(trace) / 8, (gaps, len(trace))
    for kind, point in INTERRUPTS:
        assert point in suite[kind].trace


@pytest.mark.slow
@pytest.mark.llm
@pytest.mark.parametrize("point", FIRST_BUILD_KILLS)
def test_sigkill_during_a_first_build_then_resume(suite, point):
    ws = _workspace(suite, "first", "kill-" + point)
    r = build(ws, suite["docs"], suite["schema"], kill_at=point)
    assert r.returncode == -9, (r.returncode, r.stderr[-2000:])
    if (ws / ".build" / "journal.json").exists() and point != "journal.begun@1":
        note = manifest(ws)["build"]  # stopped mid-build: the manifest says which layers are behind
        assert note["state"] in ("running", "done") and set(note["updated"]) | set(note["behind"]) == LAYERS
        assert note["state"] == "running" or point == "journal.committing@1"
    out = _resume_and_compare(suite, "first", ws)
    if point not in ("manifest.saved@1", "journal.retired@1"):
        assert out["recovered"].startswith("rolled back the build started")


@pytest.mark.slow
@pytest.mark.llm
@pytest.mark.parametrize("point", NEXT_BUILD_KILLS)
def test_sigkill_during_an_incremental_build_then_resume(suite, point):
    ws = _workspace(suite, "next", "kill-" + point)
    r = build(ws, suite["docs"], suite["schema"], kill_at=point)
    assert r.returncode == -9, (r.returncode, r.stderr[-2000:])
    assert (ws / ".build" / "journal.json").exists()
    _resume_and_compare(suite, "next", ws)


@pytest.mark.slow
@pytest.mark.llm
@pytest.mark.parametrize(("kind", "point"), INTERRUPTS)
def test_ctrl_c_rolls_every_layer_back_then_resume(suite, kind, point):
    """SIGINT: exit 130, and every layer is already as it was before the build (nothing half-applied
    for a reader to see); the rerun completes it."""
    ws = _workspace(suite, kind, "int-" + point)
    r = build(ws, suite["docs"], suite["schema"], kill_at=point + ":INT")
    assert r.returncode == 130, (r.returncode, r.stderr[-2000:])
    assert "Traceback" not in r.stderr
    before = suite["before"] if kind == "next" else dict.fromkeys(suite["first"].state)
    assert_same(pyramid(ws), before)
    note = manifest(ws)["build"]
    assert note["state"] == "rolled back" and note["reason"] == "interrupted"
    _resume_and_compare(suite, kind, ws)


@pytest.mark.slow
@pytest.mark.llm
def test_a_failing_kg_step_leaves_no_layer_ahead(suite):
    """A fault in the KG step (after the text layer and the corpus took the new documents, with the
    LadybugDB graph open and half-written) puts the corpus and text layer back too; the rerun completes."""
    ws = _workspace(suite, "next", "kg-fault")
    r = build(ws, suite["docs"], suite["schema"], kill_at="kg.loaded@1:ERR")
    assert r.returncode != 0 and "injected fault at kg.loaded" in r.stderr
    assert_same(pyramid(ws), suite["before"])
    note = manifest(ws)["build"]
    assert note["state"] == "rolled back" and "injected fault" in note["reason"]
    _resume_and_compare(suite, "next", ws)


@pytest.mark.slow
@pytest.mark.llm
def test_a_kill_during_the_rollback_is_finished_by_the_next_run(suite):
    ws = _workspace(suite, "next", "rollback-killed")
    assert build(ws, suite["docs"], suite["schema"], kill_at="ontology.instances@1").returncode == -9
    r = build(ws, suite["docs"], suite["schema"], kill_at="journal.rollback@6")  # half the parts put back
    assert r.returncode == -9, (r.returncode, r.stderr[-2000:])
    assert (ws / ".build" / "journal.json").exists()
    _resume_and_compare(suite, "next", ws)


# ------------------------------------------------------------------ the build journal itself (fast)

def _files(root: Path) -> dict[str, str]:
    """Every file as a reader sees it: generations no pointer names are left for the next commit to
    collect (a reader may still be reading the one a rollback replaced)."""
    def seen(p: Path) -> bool:
        gen = next((q for q in p.relative_to(root).parents if q.name.startswith("gen-")), None)
        return gen is None or (root / gen.parent / "CURRENT").is_file() and \
            (root / gen.parent / "CURRENT").read_text().strip() == gen.name
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != ".lock" and not str(p.relative_to(root)).startswith(".build") and seen(p)}


def _layers(ws: Workspace) -> list[Part]:
    """One part of each kind, and parts that do not exist yet."""
    with ws.gens_commit("g") as d:
        (d / "a").write_text("old a")
    (ws.root / "state.json").write_text("old state")
    (ws.root / "t").mkdir()
    (ws.root / "t" / "x").write_text("old x")
    return [Part("g", "gens"), Part("state.json", "file"), Part("t", "tree"), Part("h", "gens"),
            Part("new.txt", "file"), Part("u", "tree")]


def _change_everything(ws: Workspace) -> None:
    for i in range(2):  # two commits: the generation the build began with is collected
        with ws.gens_commit("g") as d:
            (d / "a").write_text(f"new a {i}")
    with ws.gens_commit("h") as d:
        (d / "b").write_text("new layer")
    (ws.root / "state.json").write_text("new state")
    (ws.root / "t" / "x").write_text("new x")
    (ws.root / "t" / "y").write_text("new y")
    (ws.root / "new.txt").write_text("new file")
    (ws.root / "u").mkdir()
    (ws.root / "u" / "z").write_text("new tree")


class _WS(Workspace):
    def gens_commit(self, name: str):
        return Generations(self.root / name).commit()


@pytest.fixture
def journal_ws(tmp_path, monkeypatch):
    monkeypatch.setattr(wsmod, "_passes", {})
    ws = _WS.init(tmp_path / "ws")
    with ws.writing("test"):
        parts = _layers(ws)
    return ws, parts


def test_rollback_puts_every_kind_of_part_back(journal_ws):
    ws, parts = journal_ws
    before = _files(ws.root)
    with ws.writing("build"):
        journal = BuildJournal(ws)
        journal.begin("build", parts)
        _change_everything(ws)
        assert _files(ws.root) != before
        assert journal.rollback() is not None
    after = _files(ws.root)
    assert after == before and (ws.root / "g" / "CURRENT").read_text().strip() == "gen-000001"
    assert not [p.name for p in ws.root.iterdir() if p.name.startswith(".build")]


def test_commit_keeps_the_changes_and_no_journal(journal_ws):
    ws, parts = journal_ws
    with ws.writing("build"):
        journal = BuildJournal(ws)
        journal.begin("build", parts)
        _change_everything(ws)
        changed = _files(ws.root)
        journal.commit()
    assert _files(ws.root) == changed and (ws.root / "g" / "CURRENT").read_text().strip() == "gen-000003"
    assert not [p.name for p in ws.root.iterdir() if p.name.startswith(".build")]


def test_any_writer_rolls_back_a_build_stopped_mid_way(journal_ws):
    """A build killed mid-way leaves its journal; the next command that takes the lock, whatever it
    is, puts every part back first and says so in the manifest."""
    ws, parts = journal_ws
    before = _files(ws.root)
    with ws.writing("build"):
        BuildJournal(ws).begin("build", parts)
        _change_everything(ws)
    # (the lock is released as a killed process's would be; the journal stays)
    other = Workspace(ws.root)
    with other.writing("kg.import"):
        assert other.recovered is not None and other.recovered["step"] == "build"
    note = other.manifest().pop("build")
    assert note["state"] == "rolled back" and "stopped before it finished" in note["reason"]
    after = _files(ws.root)
    after["manifest.json"] = before["manifest.json"]  # the note aside
    assert after == before


def test_a_rollback_stopped_half_way_is_finished_by_the_next_writer(journal_ws, monkeypatch):
    ws, parts = journal_ws
    before = _files(ws.root)
    with ws.writing("build"):
        journal = BuildJournal(ws)
        journal.begin("build", parts)
        _change_everything(ws)
        monkeypatch.setenv("POLYRAG_TEST_KILL_AT", "journal.rollback@3:ERR")
        with pytest.raises(OSError, match="injected fault"):
            journal.rollback()
        monkeypatch.delenv("POLYRAG_TEST_KILL_AT")
    assert (ws.root / ".build" / "journal.json").exists()
    with Workspace(ws.root).writing("build"):
        pass
    after = _files(ws.root)
    after["manifest.json"] = before["manifest.json"]
    assert after == before


def test_recovery_waits_for_the_lock(journal_ws):
    """Only the lock holder rolls back: a second writer meets the lock error and touches nothing."""
    ws, parts = journal_ws
    with ws.writing("build"):
        BuildJournal(ws).begin("build", parts)
        _change_everything(ws)
        changed = _files(ws.root)
        with pytest.raises(WorkspaceLocked):
            with Workspace(ws.root).writing("other"):
                pass
        assert _files(ws.root) == changed


@pytest.mark.slow
@pytest.mark.llm
def test_a_fault_inside_an_oxigraph_write_rolls_back_in_process(suite, monkeypatch):
    """The fault comes with the Oxigraph store open in the failing frames (RocksDB closes when its last
    reference goes): the rollback must not move the store's files from under it. Then the same session
    builds again to the uninterrupted result."""
    from pyramid.build import build_pyramid
    from pyramid.corpus import load_documents
    from pyramid.ontology.store import OntologyStore
    from pyramid.session import Session

    ws = _workspace(suite, "next", "oxigraph-fault")
    collect = OntologyStore._collect

    def fail_once(self, store, graphs):
        monkeypatch.setattr(OntologyStore, "_collect", collect)
        raise RuntimeError("disk failed inside an Oxigraph write")

    monkeypatch.setattr(OntologyStore, "_collect", fail_once)
    from pyramid.config import load_settings

    # (read by sentence, as the suite's baselines are: see `polyrag`)
    session = Session(Workspace(ws, load_settings(ws / "polyrag.toml", ontology={"extract_method": "grounded"})))
    docs = load_documents(suite["docs"]).documents
    with pytest.raises(RuntimeError, match="inside an Oxigraph write"):
        build_pyramid(session, docs, schema=suite["schema"])
    assert_same(pyramid(ws), suite["before"])
    assert manifest(ws)["build"]["state"] == "rolled back"
    build_pyramid(session, docs, schema=suite["schema"])
    session.kg.close()
    session.ontology.close()
    assert_same(pyramid(ws), suite["next"].state)
    assert answers(ws) == suite["next"].answers
