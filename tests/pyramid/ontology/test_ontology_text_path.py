"""Large graphs pass between the import, the store and the reasoner as N-Triples text (rdfio.NTriples),
not as Python objects: the text path must hold the same triples, reports and inferences as the
object path it replaced, keep blank nodes one node across graphs, and the store's in-memory copy of
what it wrote must equal what another process reads from disk. Inputs are written here."""

from __future__ import annotations

import re

import pyoxigraph as ox
import pytest

from pyramid.ontology.layer import OntologyLayer
from pyramid.ontology.rdfio import NTriples, nt_literal, read_rdf
from pyramid.ontology.reasoner import materialise
from pyramid.ontology.store import OntologyStore, plan_replacement

EX = "http://ex.org/"
TTL = """@prefix : <http://ex.org/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:Chair owl:intersectionOf ( :Person [ a owl:Restriction ; owl:onProperty :headOf ; owl:someValuesFrom :Dept ] ) .
:worksFor rdfs:domain :Person .
:headOf rdfs:subPropertyOf :worksFor .
"""


def test_text_holds_the_same_triples_as_the_objects(tmp_path):
    path = tmp_path / "mixed.ttl"
    path.write_text('@prefix : <http://ex.org/> .\n:a :p "say \\"hi\\"\\n"@en , "x y" , 3 ; :q [ :r :b ] .\n'
                    ':a :p "x y" .\n', encoding="utf-8")
    objects, text = read_rdf(path), read_rdf(path, as_text=True)
    assert text.quads == [] and text.prefixes == objects.prefixes == {"": EX}
    def canonical(triples) -> set[str]:  # each parse names the one blank node afresh
        return {re.sub(r"_:\w+", "_:B", str(t)) for t in triples}

    as_objects = [ox.Triple(q.subject, q.predicate, q.object) for q in objects.quads]
    assert canonical(text.ntriples.triples()) == canonical(as_objects) and len(canonical(as_objects)) == 5  # one repeated
    assert len(text.ntriples) == len(objects.quads) == 6
    assert canonical(" ".join(t) for t in text.ntriples) == canonical(as_objects)


def test_a_quad_file_keeps_its_triples_without_graph_names(tmp_path):
    path = tmp_path / "q.nq"
    path.write_text(f"<{EX}a> <{EX}p> <{EX}b> <{EX}g1> .\n<{EX}a> <{EX}p> <{EX}c> .\n", encoding="utf-8")
    assert sorted(read_rdf(path, as_text=True).ntriples.lines) == [f"<{EX}a> <{EX}p> <{EX}b>", f"<{EX}a> <{EX}p> <{EX}c>"]


@pytest.mark.parametrize(("term", "expected"), [
    ('"plain"', ("plain", "")), ('"chat"@fr', ("chat", "@fr")),
    ('"1"^^<http://www.w3.org/2001/XMLSchema#integer>', ("1", "^^<http://www.w3.org/2001/XMLSchema#integer>")),
    ('"a \\"q\\" \\\\ \\n \\u00e9\\U0001F600"', ('a "q" \\ \n é\U0001F600', "")),
])
def test_literal_terms_read_back_their_value(term, expected):
    assert nt_literal(term) == expected


def test_the_text_digest_is_the_digest_of_the_same_triples_as_objects():
    triples = [ox.Triple(ox.NamedNode(EX + "a"), ox.NamedNode(EX + "p"), ox.Literal("v\n")),
               ox.Triple(ox.NamedNode(EX + "a"), ox.NamedNode(EX + "p"), ox.NamedNode(EX + "b"))]
    _, (by_objects,), _ = plan_replacement({}, {"g": (triples, "")})
    _, (by_text,), _ = plan_replacement({}, {"g": (NTriples.from_triples(reversed(triples * 2)), "")})
    assert by_objects[4] == by_text[4]  # order and repeats do not change the content


def test_the_reasoner_reads_every_input_form_alike():
    quads = list(ox.parse(TTL + ":x a :Person ; :headOf :d . :d a :Dept .", ox.RdfFormat.TURTLE))
    text = NTriples.from_triples(quads)
    results = [materialise(form).text.lines for form in
               (quads, text, list(text), [(q.subject, q.predicate, q.object) for q in quads])]
    assert all(sorted(r) == sorted(results[0]) for r in results)
    assert f"<{EX}x> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{EX}Chair>" in results[0]


def test_blank_nodes_stay_one_node_from_the_import_to_the_inferences(workspace, tmp_path):
    """Oxigraph's bulk loader renames blank nodes; a graph with blank nodes is written with its labels
    kept, so an inference about a blank node (from the reasoner's copy) joins with the imported facts."""
    schema = tmp_path / "schema.ttl"
    schema.write_text(TTL, encoding="utf-8")
    data = tmp_path / "data.ttl"
    data.write_text("@prefix : <http://ex.org/> .\n[ a :Person ; :headOf :d ; :name \"anon\" ] .\n:d a :Dept .\n",
                    encoding="utf-8")
    layer = OntologyLayer(workspace)
    try:
        layer.load_schema(schema)
        layer.import_instances(data)
        layer.reason()
        rows = layer.select(f"SELECT ?n WHERE {{ ?x a <{EX}Chair> ; <{EX}worksFor> <{EX}d> ; <{EX}name> ?n }}")
        assert rows == [{"n": "anon"}]
    finally:
        layer.close()


def test_what_the_store_remembers_is_what_another_process_reads(workspace, tmp_path):
    data = tmp_path / "big.nt"
    data.write_text("".join(f"<{EX}s{i}> <{EX}p> \"v {i}\" .\n<{EX}s{i}> <{EX}q> <{EX}s{i + 1}> .\n"
                            for i in range(3000)), encoding="utf-8")
    layer = OntologyLayer(workspace)
    try:
        layer.import_instances(data)
        remembered = layer.store.ntriples(["import:big"])
        assert len(layer.store._texts) == 1  # written as text in this process: not read back from disk
        fresh = OntologyStore(workspace.layer_dir("ontology"))
        assert fresh._texts == {}
        from_disk = fresh.ntriples(["import:big"])
        assert sorted(remembered.lines) == sorted(from_disk.lines) and len(from_disk) == 6000
        assert layer.store.count("import:big") == 6000
    finally:
        layer.close()


def test_a_triple_written_twice_is_counted_once(workspace, tmp_path):
    data = tmp_path / "twice.nt"
    data.write_text(f"<{EX}a> <{EX}p> <{EX}b> .\n<{EX}a> <{EX}p> <{EX}b> .\n<{EX}a> <{EX}p> <{EX}c> .\n",
                    encoding="utf-8")
    layer = OntologyLayer(workspace)
    try:
        report = layer.import_instances(data)
        assert report.triples_in_file == 3 and report.instance_triples == 2
        assert layer.store.count("import:twice") == 2 == len(list(layer.store.quads(["import:twice"])))
    finally:
        layer.close()


def test_the_inferred_graph_holds_nothing_asserted():
    """The query process leaves a fresh inferred graph out of its scan for triples held twice, which
    is right only if the reasoner never writes an asserted triple — also one reached as an edge
    through a sub-property of rdf:type."""
    ttl = (TTL + ":isA rdfs:subPropertyOf <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> ."
           " :x :isA :Person ; a :Person . :y :isA :Person . :z :headOf :d .")
    quads = list(ox.parse(ttl, ox.RdfFormat.TURTLE))
    asserted = {str(ox.Triple(q.subject, q.predicate, q.object)) for q in quads}
    inferred = materialise(quads).text.lines
    rdf_type = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
    assert f"<{EX}y> {rdf_type} <{EX}Person>" in inferred and f"<{EX}z> {rdf_type} <{EX}Person>" in inferred
    assert not asserted & set(inferred)


def test_a_fresh_inferred_graph_is_left_out_of_the_overlap_scan(workspace, monkeypatch):
    from pyramid.ontology.query_worker import QueryWorker

    seen: list = []
    real = QueryWorker.run

    def spy(self, query, **kw):
        seen.append(kw.get("disjoint"))
        return real(self, query, **kw)

    monkeypatch.setattr(QueryWorker, "run", spy)
    layer = OntologyLayer(workspace)
    try:
        layer.add_instances("one", [(f"{EX}x", f"{EX}headOf", f"{EX}d"),
                                    (f"{EX}headOf", "http://www.w3.org/2000/01/rdf-schema#domain", f"{EX}Person")])
        layer.reason()
        layer.select("ASK { ?s ?p ?o }")
        assert seen[-1] == [layer.store.graphs()["inferred"].iri]
        layer.add_instances("another", [(f"{EX}y", f"{EX}headOf", f"{EX}d")])  # inferred now stale
        layer.select("ASK { ?s ?p ?o }")
        assert seen[-1] == []
    finally:
        layer.close()


def test_a_query_that_drops_repeats_itself_reads_the_graphs_without_a_set_copy(workspace, monkeypatch):
    """Two graphs holding one triple: a user's query sees it once (the union copied as a set); the
    answerer's own queries (SELECT DISTINCT, COUNT(DISTINCT)) skip the copy, which a fresh process
    would otherwise make before its first answer, and their rows are the same."""
    from pyramid.ontology.query_worker import QueryWorker

    prepared: list = []
    real = QueryWorker._prepare

    def spy(self, *a, **kw):
        prepared.append(a)
        return real(self, *a, **kw)

    monkeypatch.setattr(QueryWorker, "_prepare", spy)
    layer = OntologyLayer(workspace)
    try:
        layer.add_instances("one", [(f"{EX}x", f"{EX}headOf", f"{EX}d")])
        layer.add_instances("two", [(f"{EX}x", f"{EX}headOf", f"{EX}d"), (f"{EX}y", f"{EX}headOf", f"{EX}d")])
        query = f"SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE {{ ?s <{EX}headOf> ?o }}"
        assert layer.select(query, distinct=True)[0]["n"] == 2 and prepared == []
        assert len(layer.select(f"SELECT DISTINCT ?s WHERE {{ ?s <{EX}headOf> ?o }}", distinct=True)) == 2
        assert prepared == []
        assert len(layer.select(f"SELECT ?s WHERE {{ ?s <{EX}headOf> ?o }}")) == 2 and len(prepared) == 1
    finally:
        layer.close()
