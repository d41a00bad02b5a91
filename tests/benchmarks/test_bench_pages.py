"""`benchmarks.pages`' scoring on a tiny hand-made corpus: four pages and a gold TTL written for this
test (a department, two staff members, one course), and a real Oxigraph store (through the ontology
layer) holding what an extractor might have written for them. No model runs here: the build itself
is measured by `polyrag bench pages`."""

from __future__ import annotations

import pytest

from benchmarks import pages as bench
from benchmarks.pages import Triple
from pyramid.ontology.layer import OntologyLayer
from pyramid.workspace import Workspace

EX = "http://example.org/"
TYPE, LABEL = bench.RDF_TYPE, bench.RDFS_LABEL

PAGES = [
    {"id": "dept-geo", "title": "Department of Geomancy",
     "text": "Department of Geomancy\nFaculty: Faculty of Earth Arts\nWe read the land."},
    {"id": "staff-geo1", "title": "Prof. Ilse MARROW",
     "text": "Prof. Ilse MARROW teaches in the Department of Geomancy. She studies ley lines and "
             "standing stones. Position: Chair Professor."},
    {"id": "staff-geo2", "title": "Dr Tomas Reed",
     "text": "Name: Dr Tomas Reed\nDepartment: Department of Geomancy\nResearch Interests: dowsing"},
    {"id": "subject-geo2101", "title": "GEO2101 Reading Landscapes",
     "text": "Subject Code: GEO2101\nSubject Title: Reading Landscapes\nCredit Value: 3\nLevel: 2\n"
             "Offered by: Department of Geomancy"},
]

# Laid out like polyu_onto.ttl: upper-case IRIs for departments and staff, a course's facts on the
# lower-case IRI and its typing on the upper-case one, some noise (a lone letter, an empty string).
GOLD_TTL = """@prefix base: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

base:FEA a base:FACULTY ; rdfs:label "Faculty of Earth Arts" .
base:GEO a base:DEPARTMENT ; rdfs:label "Department of Geomancy" ; base:belongs_to base:FEA .
base:GEO1 a base:STAFF ; rdfs:label "Prof. Ilse MARROW" ;
    base:has_name "Prof. Ilse MARROW" ;
    base:works_for base:GEO ;
    base:has_position "Chair Professor", "C", "" ;
    base:has_research_interest "ley lines", "standing stones", "star charts" .
base:GEO2 a base:STAFF ; rdfs:label "Dr Tomas Reed" ;
    base:works_for base:GEO ;
    base:has_research_interest "Dowsing" .
base:GEO2101 a base:COURSE .
base:geo2101 rdfs:label "GEO2101" ;
    base:has_subject_code "GEO2101" ;
    base:has_subject_title "Reading Landscapes" ;
    base:has_credit_value 3 ;
    base:has_subject_level 2 ;
    base:offered_by base:GEO .
base:geo2102 base:has_subject_code "GEO2102" .
"""


@pytest.fixture(scope="module")
def gold(tmp_path_factory):
    path = tmp_path_factory.mktemp("gold") / "gold.ttl"
    path.write_text(GOLD_TTL, encoding="utf-8")
    return bench.load_gold(path)


def extracted() -> dict[str, list[tuple[str, str, str]]]:
    """What an extractor might have written: minted IRIs of its own, some right, some wrong."""
    dept, fac = EX + "dept_geomancy", EX + "fac_earth_arts"
    marrow, reed, course = EX + "staff_ilse_marrow", EX + "staff_tomas_reed", EX + "course_geo2101"
    return {
        "dept-geo": [(dept, TYPE, EX + "DEPARTMENT"), (dept, LABEL, "Department of Geomancy"),
                     (dept, EX + "belongs_to", fac), (fac, TYPE, EX + "FACULTY"),
                     (fac, LABEL, "Faculty of Earth Arts")],
        "staff-geo1": [(marrow, TYPE, EX + "STAFF"), (marrow, LABEL, "Ilse MARROW"),
                       (marrow, EX + "works_for", dept),
                       (marrow, EX + "has_research_interest", "Ley Lines"),      # right, other case
                       (marrow, EX + "has_research_interest", "standing-stones"),  # right, punctuation
                       (marrow, EX + "has_research_interest", "teaching"),        # wrong
                       (marrow, EX + "has_position", "Chair Professor"),
                       (dept, TYPE, EX + "DEPARTMENT"), (dept, LABEL, "Department of Geomancy")],
        # a tie (two subjects, two triples each): the one labelled with the page's title wins
        "staff-geo2": [(dept, TYPE, EX + "DEPARTMENT"), (dept, LABEL, "Department of Geomancy"),
                       (reed, TYPE, EX + "DEPARTMENT"), (reed, LABEL, "Dr Tomas Reed")],
        "subject-geo2101": [(course, TYPE, EX + "COURSE"), (course, LABEL, "GEO2101 Reading Landscapes"),
                            (course, EX + "has_subject_code", "GEO2101"),
                            (course, EX + "has_subject_title", "Reading Landscapes"),
                            (course, EX + "has_credit_value", "3"),
                            (course, EX + "has_subject_level", "Level 2"),       # not the gold's form
                            (course, EX + "offered_by", EX + "dept_unlabelled")],  # no label in the store
    }


@pytest.fixture
def store(workspace):
    layer = OntologyLayer(workspace)
    for doc, triples in extracted().items():
        layer.add_instances(doc, triples)
    layer.add_instances("other-note", [(EX + "x", LABEL, "not a page")])
    yield layer.store
    layer.close()


def test_gold_maps_page_ids_to_iris_case_folded(gold):
    assert gold.iris("staff-geo1") == [EX + "GEO1"]
    assert gold.iris("dept-geo") == [EX + "GEO"]
    assert gold.iris("subject-geo2101") == [EX + "GEO2101", EX + "geo2101"]
    assert gold.iris("staff-geo9") == []
    assert gold.page_classes("subject-geo2101") == {"COURSE"}


def test_gold_facts_literals_lexical_objects_by_label(gold):
    course = gold.page_facts("subject-geo2101")
    assert course["has_credit_value"] == [("3",)]          # a typed integer by its lexical form
    assert course["offered_by"] == [("Department of Geomancy",)]
    assert "has_subject_description" not in course
    staff = gold.page_facts("staff-geo1")
    assert sorted(v for (v,) in staff["has_position"]) == ["", "C", "Chair Professor"]
    assert staff["works_for"] == [("Department of Geomancy",)]
    assert "label" not in staff and all(p != TYPE for p in staff)
    assert gold.page_facts("dept-geo") == {"belongs_to": [("Faculty of Earth Arts",)]}


def test_document_triples_reads_each_page_graph(store):
    docs, labels = bench.document_triples(store)
    assert set(docs) == {"dept-geo", "staff-geo1", "staff-geo2", "subject-geo2101", "other-note"}
    assert len(docs["staff-geo1"]) == 9
    assert labels[EX + "dept_geomancy"] == ("Department of Geomancy",)
    lit = {t.o: t.literal for t in docs["subject-geo2101"]}
    assert lit["GEO2101"] is True and lit[EX + "dept_unlabelled"] is False


def test_main_entity_most_triples_then_title(store):
    docs, _ = bench.document_triples(store)
    assert bench.main_entity(docs["staff-geo1"], "Prof. Ilse MARROW") == EX + "staff_ilse_marrow"
    assert bench.main_entity(docs["dept-geo"]) == EX + "dept_geomancy"
    assert bench.main_entity(docs["staff-geo2"], "Dr Tomas Reed") == EX + "staff_tomas_reed"
    assert bench.main_entity(docs["staff-geo2"], "Department of Geomancy") == EX + "dept_geomancy"
    assert bench.main_entity([]) is None


def test_entity_facts_objects_by_label():
    ts = [Triple("s", EX + "works_for", "d", False), Triple("s", EX + "works_for", EX + "Unnamed", False),
          Triple("s", EX + "has_position", "Lecturer", True), Triple("s", TYPE, EX + "STAFF", False),
          Triple("s", LABEL, "Ann", True), Triple("d", LABEL, "Dept A", True)]
    got = bench.entity_facts(ts, "s", {"d": ("Dept A", "Department A")})
    assert got == {"works_for": [("Dept A", "Department A"), ("Unnamed",)], "has_position": [("Lecturer",)]}


def test_compare_per_property_folded():
    gold = {"has_research_interest": [("ley lines",), ("standing stones",), ("star charts",)],
            "has_position": [("Chair Professor",), ("C",), ("",)],
            "works_for": [("Department of Geomancy",)]}
    got = {"has_research_interest": [("Ley Lines",), ("standing-stones",), ("teaching",), ("LEY LINES",)],
           "works_for": [("Dept. Geomancy", "Department of  Geomancy")],
           "has_name": [("Ilse",)]}
    c = bench.compare(gold, got, text="She studies ley lines, standing stones. Chair Professor")
    ri = c["has_research_interest"]
    assert (ri.predicted, ri.correct, ri.gold, ri.found, ri.in_text) == (3, 2, 3, 2, 2)
    assert ri.to_dict()["precision"] == pytest.approx(2 / 3) and ri.to_dict()["recall"] == pytest.approx(2 / 3)
    pos = c["has_position"].to_dict()  # the empty gold value is dropped; nothing extracted
    assert (pos["gold"], pos["found"], pos["precision"], pos["recall"], pos["f1"]) == (2, 0, None, 0.0, None)
    assert c["works_for"].correct == 1 and c["works_for"].found == 1   # one label of the object matches
    name = c["has_name"].to_dict()
    assert (name["predicted"], name["precision"], name["recall"]) == (1, 0.0, None)


def test_score_extraction_end_to_end(store, gold):
    docs, labels = bench.document_triples(store)
    out = bench.score_extraction(PAGES + [{"id": "staff-geo9", "title": "Nobody", "text": ""}],
                                 gold, docs, labels)
    props = out["properties"]
    assert list(props)[:3] == ["works_for", "offered_by", "belongs_to"]   # the listed order first
    assert (props["works_for"]["gold"], props["works_for"]["found"]) == (2, 1)   # Reed's page: wrong entity
    assert (props["offered_by"]["predicted"], props["offered_by"]["correct"]) == (1, 0)  # unlabelled object
    assert props["belongs_to"]["f1"] == 1.0
    assert props["has_research_interest"]["correct"] == 2 and props["has_research_interest"]["gold"] == 4
    assert props["has_subject_level"]["found"] == 0 and props["has_credit_value"]["found"] == 1
    assert props["has_name"]["found"] == 0
    assert out["pages_without_graph"] == 1 and out["pages_without_gold"] == 1
    assert out["typed"]["staff"]["share"] == 0.5          # Reed's entity was typed DEPARTMENT
    assert out["typed"]["subject"]["share"] == 1.0
    overall = out["overall"]
    assert overall["predicted"] == sum(p["predicted"] for p in props.values())
    assert overall["correct"] == 8 and overall["predicted"] == 11


def test_select_pages_keeps_every_department():
    class D:
        def __init__(self, i):
            self.id = i
    docs = [D("dept-a"), D("staff-a1"), D("staff-a2"), D("dept-b"), D("subject-b1"), D("dept-c")]
    assert [d.id for d in bench.select_pages(docs, 2)] == ["dept-a", "staff-a1", "dept-b", "dept-c"]
    assert len(bench.select_pages(docs, None)) == 6


def test_workspace_refuses_to_wipe_a_foreign_directory(tmp_path):
    from pyramid.errors import WorkspaceError

    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    pages_file, schema = tmp_path / "p.jsonl", tmp_path / "s.ttl"
    pages_file.write_text('{"id": "dept-x", "text": "x"}\n')
    schema.write_text("")
    with pytest.raises(WorkspaceError):
        bench.ensure_workspace(tmp_path / "mine", pages_file, schema)
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"


def test_the_acadchall_bench_refuses_to_wipe_a_workspace_it_did_not_make(tmp_path):
    # `bench acadchall --workspace` pointed at a workspace built by `build` or `bench pages` used to delete it
    from benchmarks import acadchall
    from pyramid.errors import WorkspaceError

    mine = Workspace.init(tmp_path / "built")
    (mine.root / "notes.txt").write_text("keep me")
    onto = tmp_path / "o.ttl"
    onto.write_text("")
    with pytest.raises(WorkspaceError, match="not a workspace this benchmark made"):
        acadchall.ensure_workspace(mine.root, onto)
    assert (mine.root / "notes.txt").read_text() == "keep me"
