"""Completion on a workspace: the ontology layer as completion's target (LayerTarget) on a real
Oxigraph store, and the curator's commands through the CLI on a small workspace (real LadybugDB, real MiniLM).

Expected values come from the fixture's construction (20 staff, 2 topics each, 12 home pages) and from
rdflib's graph isomorphism, never from the code under test."""

from __future__ import annotations

import json
import re

import pytest
import rdflib
from completion_fixtures import BASE, instances_ttl, kg_json_rows, kg_triples, schema_ttl, website_triples
from conftest import run_cli
from rdflib.compare import isomorphic

from completion.apply import apply_accepted
from completion.linking import NameLinker
from completion.ontology_adapter import LayerTarget
from completion.proposals import Assertion, Proposal
from completion.proposals_file import ProposalsDoc
from completion.review import CompletionFiles, accept
from completion.target import XSD, Statement
from completion.versions import SchemaHistory
from completion.workspace_io import ontology_target
from pyramid.config import Settings
from pyramid.ontology.layer import OntologyLayer
from pyramid.ontology.store import SCHEMA
from pyramid.session import Session
from pyramid.workspace import Workspace

RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
EMAIL = Proposal(id="P0001", kind="attribute", name="has_email_address", label="has email address",
                 domain="STAFF", range="xsd:string", medoid="staff has email address", triples=2)
LAB = Proposal(id="P0002", kind="class", name="Lab", label="lab", medoid="AI Lab is a lab in", triples=2)
ASSERTIONS = {"P0001": [Assertion("Dr Ada CHAN", BASE + "S00", BASE + "STAFF", "ada@example.edu", None, "t1"),
                        Assertion("Prof. Ben WONG", BASE + "S01", BASE + "STAFF", "ben@example.edu", None, "t2")],
              "P0002": [Assertion("AI Lab", None, None, "", None, ""), Assertion("Wind Lab", None, None, "", None, "")]}


def _graph(text: str, fmt: str) -> rdflib.Graph:
    return rdflib.Graph().parse(data=text, format=fmt)


def _schema_graph(layer) -> rdflib.Graph:
    """The store's schema graph as rdflib reads pyoxigraph's N-Triples of it."""
    import pyoxigraph as ox

    quads = [ox.Triple(q.subject, q.predicate, q.object) for q in layer.store.quads([SCHEMA])]
    return _graph(ox.serialize(quads, format=ox.RdfFormat.N_TRIPLES).decode(), "nt")


def _schema_lines(layer) -> list[str]:
    return sorted(f"{q.subject} {q.predicate} {q.object}" for q in layer.store.quads([SCHEMA]))


def _without(graph: rdflib.Graph, *subjects: str) -> rdflib.Graph:
    out = rdflib.Graph()
    for t in graph:
        if str(t[0]) not in subjects:
            out.add(t)
    return out


def _count(layer, query: str) -> int:
    return int(layer.store.run_trusted(query).rows[0]["n"])


@pytest.fixture
def files_dir(tmp_path):
    (tmp_path / "schema.ttl").write_text(schema_ttl(), encoding="utf-8")
    (tmp_path / "instances.ttl").write_text(instances_ttl(), encoding="utf-8")
    return tmp_path


@pytest.fixture
def layer_ws(workspace, files_dir):
    """A workspace whose ontology layer holds the schema (with the extras), the individuals, inferences,
    and a proposals file with EMAIL and LAB accepted."""
    layer = OntologyLayer(workspace)
    layer.load_schema(files_dir / "schema.ttl")
    layer.import_instances(files_dir / "instances.ttl")
    layer.reason()
    files = CompletionFiles(workspace)
    with workspace.writing("test"):
        files.save(ProposalsDoc(classes=["DEPARTMENT", "STAFF"], proposals=[EMAIL, LAB]))
        files.save_assertions(ASSERTIONS)
    return layer, files


def test_view_reads_past_the_query_row_cap(workspace, files_dir):
    ws = Workspace(workspace.root, Settings(ontology={"row_cap": 5}))
    layer = OntologyLayer(ws)
    layer.load_schema(files_dir / "schema.ttl")
    layer.import_instances(files_dir / "instances.ttl")
    view = LayerTarget(layer).view()
    # 20 staff × (has_name, has_position, works_for); 20 staff + 2 departments
    assert len(view.facts) == 60 and len(view.instances) == 22
    assert len(layer.select("SELECT ?s WHERE { ?s ?p ?o }")) == 5     # question queries stay capped


def test_apply_adds_to_the_schema_losslessly_and_versions_round_trip(layer_ws, files_dir):
    layer, files = layer_ws
    original = _graph(schema_ttl(), "turtle")
    accept(files, "P0001")
    rep = apply_accepted(files, LayerTarget(layer))
    assert rep.version.number == 1
    hist = files.history
    assert isomorphic(_graph((hist / "v0000.nt").read_text(), "nt"), original)
    after = _graph((hist / "v0001.nt").read_text(), "nt")
    assert isomorphic(after, _schema_graph(layer))
    assert isomorphic(_without(after, BASE + "has_email_address"), original)
    # the pieces a rewrite loses, looked at one by one
    header = rdflib.URIRef(BASE + "staff-ontology")
    version = after.value(header, rdflib.OWL.versionInfo)
    assert version.datatype == rdflib.XSD.decimal and str(version) == "2.5"
    langs = {c.language for c in after.objects(rdflib.URIRef(BASE + "has_position"), rdflib.RDFS.comment)}
    assert langs == {"en", "zh"}
    restriction = next(o for o in after.objects(rdflib.URIRef(BASE + "STAFF"), rdflib.RDFS.subClassOf))
    assert isinstance(restriction, rdflib.BNode)
    assert after.value(restriction, rdflib.OWL.someValuesFrom) == rdflib.URIRef(BASE + "DEPARTMENT")
    diff = SchemaHistory(hist).diff(1).splitlines()
    removed = [d for d in diff if d.startswith("-") and not d.startswith("---")]
    added = [d for d in diff if d.startswith("+") and not d.startswith("+++")]
    # the term (type, label, domain, range) and its provenance (source, creator, created): nothing else
    assert removed == [] and all(d.startswith(f"+<{BASE}has_email_address>") for d in added)
    assert sorted(d.split()[1] for d in added) == sorted(
        ["<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>", "<http://www.w3.org/2000/01/rdf-schema#label>",
         "<http://www.w3.org/2000/01/rdf-schema#domain>", "<http://www.w3.org/2000/01/rdf-schema#range>",
         "<http://purl.org/dc/terms/source>", "<http://purl.org/dc/terms/creator>",
         "<http://purl.org/dc/terms/created>"])


def test_two_applies_keep_both_sets_of_instances(layer_ws):
    layer, files = layer_ws
    target = ontology_target(Session(files.ws))
    accept(files, "P0001")
    apply_accepted(files, target)
    accept(files, "P0002")
    apply_accepted(files, target)
    emails = _count(layer, f"SELECT (COUNT(*) AS ?n) WHERE {{ ?s <{BASE}has_email_address> ?o }}")
    labs = _count(layer, f"SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {{ ?x a <{BASE}Lab> }}")
    assert (emails, labs) == (2, 2)
    assert [v.number for v in SchemaHistory(files.history).versions()] == [1, 2]
    assert layer.inferred_state() == "fresh"


def test_rollback_after_a_failure_restores_the_exact_schema(layer_ws, monkeypatch):
    layer, files = layer_ws
    before_lines = _schema_lines(layer)
    graphs_before = set(layer.store.graphs())
    real = layer.reason
    calls = []

    def fail_once():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("reasoner crashed")
        return real()

    monkeypatch.setattr(layer, "reason", fail_once)
    accept(files, "P0001")
    accept(files, "P0002")
    with pytest.raises(RuntimeError, match="reasoner crashed"):
        apply_accepted(files, LayerTarget(layer))
    assert _schema_lines(layer) == before_lines                                # same blank-node labels too
    assert set(layer.store.graphs()) == graphs_before                           # no proposal graph left
    assert not files.history.exists()
    assert {p.status for p in files.load().proposals} == {"accepted"}
    assert layer.inferred_state() == "fresh"
    rep = apply_accepted(files, LayerTarget(layer))                             # and it works afterwards
    assert rep.version.number == 1


def test_datatype_values_stay_literals_with_their_datatype(layer_ws):
    layer, _ = layer_ws
    page, salary, colleague = BASE + "has_page", BASE + "has_salary", BASE + "works_with"
    LayerTarget(layer).apply([], {"P0009": [
        Statement(BASE + "S00", page, "https://example.edu/~ada", literal=True),
        Statement(BASE + "S00", salary, "12.5", literal=True, datatype=XSD + "decimal"),
        Statement(BASE + "S00", colleague, BASE + "S01")]})
    rows = layer.store.run_trusted(
        f"SELECT ?p (isLiteral(?o) AS ?lit) (STR(DATATYPE(?o)) AS ?dt) (STR(?o) AS ?v) WHERE {{ "
        f"<{BASE}S00> ?p ?o FILTER(?p IN (<{page}>, <{salary}>, <{colleague}>)) }}").rows
    got = {r["p"]: (r["lit"], r.get("dt"), r["v"]) for r in rows}
    assert got == {page: (True, XSD + "string", "https://example.edu/~ada"),
                   salary: (True, XSD + "decimal", "12.5"),
                   colleague: (False, None, BASE + "S01")}


def test_inferred_graph_is_fresh_when_reasoning_changes_nothing(layer_ws):
    layer, _ = layer_ws
    layer.add_instances("note", [(BASE + "S00", RDFS_LABEL, "Ada")])
    assert layer.inferred_state() == "stale"
    before = layer.store.graphs()["inferred"].digest
    layer.reason()                                   # a label infers nothing: same inferred triples
    assert layer.store.graphs()["inferred"].digest == before
    assert layer.inferred_state() == "fresh" and not layer.stats()["inferred_stale"]


def _proposals(ws_dir):
    return CompletionFiles(Workspace.open(ws_dir)).load().proposals


def _with(proposals, words: str):
    return [p for p in proposals if any(words in r.text for r in p.relations)]


def test_curator_commands_on_a_workspace(files_dir, tmp_path, capsys):
    ws = tmp_path / "pyramid"
    kg = tmp_path / "kg.json"
    kg.write_text(json.dumps(kg_json_rows(kg_triples() + website_triples())), encoding="utf-8")
    for args in (["ontology", "load-schema", ws, files_dir / "schema.ttl"],
                 ["ontology", "import", ws, files_dir / "instances.ttl"], ["kg", "import", ws, kg]):
        code, out, err = run_cli(args, capsys)
        assert code == 0, err

    code, out, err = run_cli(["complete", "run", ws], capsys)      # default settings: k by silhouette
    assert code == 0, err
    proposals = _proposals(ws)
    # near-paraphrases end in one proposal each, all their wordings together
    interest, website = _with(proposals, "research interest"), _with(proposals, "website")
    assert len(interest) == 1 and len(website) == 1
    assert {r.text for r in website[0].relations} == {"has personal website", "has a personal website",
                                                      "personal website is"}
    code, out, err = run_cli(["complete", "show", ws, interest[0].id], capsys)
    assert code == 0 and re.search(r"\[chunk c\d+, document d\d+\]", out), out

    for pid, name in ((interest[0].id, "has_research_interest"), (website[0].id, "has_website")):
        assert run_cli(["complete", "accept", ws, pid, "--name", name, "--by", "curator-ann",
                        "--why", f"staff pages state {name}"], capsys)[0] == 0
        code, out, err = run_cli(["complete", "apply", ws], capsys)   # two applies in a row
        assert code == 0, err
    layer = Session(Workspace.open(ws)).ontology
    assert _count(layer, f"SELECT (COUNT(*) AS ?n) WHERE {{ ?s <{BASE}has_research_interest> ?o }}") == 40
    assert _count(layer, f"SELECT (COUNT(*) AS ?n) WHERE {{ ?s <{BASE}has_website> ?o "
                         "FILTER(isLiteral(?o)) }") == 12
    history = CompletionFiles(Workspace.open(ws)).history
    after = _graph((history / "v0002.nt").read_text(), "nt")
    assert isomorphic(_without(after, BASE + "has_research_interest", BASE + "has_website"),
                      _graph(schema_ttl(), "turtle"))
    code, out, err = run_cli(["ontology", "stats", ws], capsys)
    assert code == 0 and "stale" not in out

    # a rename brings its own label; the decision is in the RDF (Dublin Core terms)
    rows = layer.store.run_trusted(f"SELECT ?l ?who ?why ?src WHERE {{ <{BASE}has_website> "
                                   "<http://www.w3.org/2000/01/rdf-schema#label> ?l ; "
                                   "<http://purl.org/dc/terms/creator> ?who ; <http://purl.org/dc/terms/description> "
                                   "?why ; <http://purl.org/dc/terms/source> ?src }").rows
    assert [(r["l"], r["who"], r["why"]) for r in rows] == [("has website", "curator-ann",
                                                              "staff pages state has_website")], rows
    assert rows[0]["src"] == f"PolyRAG completion proposal {website[0].id}"
    # undo the last apply: the schema of v0001 again, the website facts gone, the proposal accepted again
    code, out, err = run_cli(["complete", "undo", ws], capsys)
    assert code == 0 and "undid schema version 2" in out, err
    layer = Session(Workspace.open(ws)).ontology
    assert _count(layer, f"SELECT (COUNT(*) AS ?n) WHERE {{ ?s <{BASE}has_website> ?o }}") == 0
    assert _count(layer, f"SELECT (COUNT(*) AS ?n) WHERE {{ ?s <{BASE}has_research_interest> ?o }}") == 40
    v1 = _graph((history / "v0001.nt").read_text(), "nt")
    assert isomorphic(_graph("\n".join(LayerTarget(layer).schema()) + "\n", "nt"), v1)
    assert next(p for p in _proposals(ws) if p.id == website[0].id).status == "accepted"
    code, out, err = run_cli(["complete", "apply", ws], capsys)      # and again: version 2 anew
    assert code == 0 and "schema version 2" in out, err
    layer = Session(Workspace.open(ws)).ontology
    assert _count(layer, f"SELECT (COUNT(*) AS ?n) WHERE {{ ?s <{BASE}has_website> ?o FILTER(isLiteral(?o)) }}") == 12

    code, out, err = run_cli(["complete", "run", ws], capsys)      # iterative: applied terms not proposed
    assert code == 0, err
    assert not _with(_proposals(ws), "research interest") and not _with(_proposals(ws), "website")
    code, out, err = run_cli(["complete", "plot", ws], capsys)
    assert code == 0 and (ws / "completion" / "completion.png").read_bytes()[:4] == b"\x89PNG"

    code, out, err = run_cli(["kg", "condense", ws], capsys)
    assert code == 0 and "distinct relations" in out, err
    code, out, err = run_cli(["kg", "condense", ws, "--undo"], capsys)
    assert code == 0 and "condensation undone" in out, err


def test_individuals_keep_their_most_specific_class_after_reasoning(workspace, files_dir):
    # DEPARTMENT ⊑ UNIT: the reasoner types every department as a UNIT too, which must not make
    # 'Department of Computing' ambiguous to the name linker
    schema = files_dir / "schema2.ttl"
    schema.write_text(schema_ttl() + "\nbase:UNIT a owl:Class .\nbase:DEPARTMENT rdfs:subClassOf base:UNIT .\n",
                      encoding="utf-8")
    layer = OntologyLayer(workspace)
    layer.load_schema(schema)
    layer.import_instances(files_dir / "instances.ttl")
    layer.reason()
    assert bool(layer.store.run_trusted(f"ASK {{ <{BASE}COMP> a <{BASE}UNIT> }}").rows[0]["ask"])
    view = LayerTarget(layer).view()
    assert {i.cls for i in view.instances if i.iri == BASE + "COMP"} == {BASE + "DEPARTMENT"}
    typing = NameLinker(view.instances).link(["Department of Computing"])
    assert typing.cls("Department of Computing") == BASE + "DEPARTMENT"
