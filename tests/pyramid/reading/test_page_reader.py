"""The schema-aware page reader (pyramid.reading.page_reader) on pages written here, in layouts that no
data file has: a table, a label line with bullets, "A | B" and dash fields, facts after a sentence on
one line, and prose read by spaCy's parser. Real MiniLM and the real parser; no LLM anywhere.

Two schemas: the PolyU schema as released (with its mistakes: works_for ranged on FACULTY) and a
small museum schema of our own, so nothing here can lean on the university's vocabulary."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyramid.ontology.schema import Schema
from pyramid.reading.page_reader import PageReader, Segment
from pyramid.reading.values import is_list, list_items
from pyramid.vocab import Vocab

EX = "http://example.org/"
MUSEUM = "http://museum.example/"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"

MUSEUM_TTL = """@prefix m: <http://museum.example/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
m:Gallery a owl:Class .
m:Artwork a owl:Class .
m:Artist a owl:Class .
m:displayed_in a owl:ObjectProperty ; rdfs:domain m:Artwork ; rdfs:range m:Gallery .
m:created_by a owl:ObjectProperty ; rdfs:domain m:Artwork ; rdfs:range m:Artist .
m:year_created a owl:DatatypeProperty ; rdfs:domain m:Artwork ; rdfs:range xsd:integer .
m:medium a owl:DatatypeProperty ; rdfs:domain m:Artwork ; rdfs:comment "the material the work is made of" .
m:nationality a owl:DatatypeProperty ; rdfs:domain m:Artist .
m:movement a owl:DatatypeProperty ; rdfs:domain m:Artist ; rdfs:comment "art movements or styles" .
"""


@pytest.fixture(scope="module")
def polyu(shared_data, embedder) -> PageReader:
    schema = Schema.load(Path(shared_data) / "polyu_pages" / "polyu_schema.ttl")
    return PageReader(Vocab.from_schema(schema), embedder, titles=[
        "Department of Marine Cartography", "Faculty of Ocean Studies", "Dr Wen-Li Haraldsen"])


@pytest.fixture(scope="module")
def museum(tmp_path_factory, embedder) -> PageReader:
    path = tmp_path_factory.mktemp("museum") / "museum.ttl"
    path.write_text(MUSEUM_TTL, encoding="utf-8")
    return PageReader(Vocab.from_schema(Schema.load(path)), embedder)


def assert_harbour(got: dict[str, list[str]]) -> None:
    """The three facts every layout of the "Harbour at Dusk" page states."""
    assert {k: got.get(k) for k in ("medium", "year_created", "displayed_in")} == {
        "medium": ["oil on canvas"], "year_created": ["1889"], "displayed_in": ["Gallery of Northern Light"]}


def schema_reader(directory: Path, ttl: str, embedder, titles: list[str] | None = None) -> PageReader:
    """A reader over a schema written in a test (saved to `directory`), knowing the corpus's titles."""
    path = directory / "schema.ttl"
    path.write_text(ttl, encoding="utf-8")
    return PageReader(Vocab.from_schema(Schema.load(path)), embedder, titles=titles)


def read_titled(directory: Path, ttl: str, embedder, pages: list[tuple[str, str]]) -> dict:
    """Every (title, text) page read as one corpus against a schema written in a test: title → its reading."""
    reader = schema_reader(directory, ttl, embedder, [t for t, _ in pages])
    return dict(zip((t for t, _ in pages), reader.read_all(pages)))


def facts(reading) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for f in reading.facts:
        out.setdefault(f.prop.rsplit("/", 1)[-1], []).append(f.value)
    return out


def test_a_table_page_of_a_staff_member(polyu):
    text = ("| Item | Detail |\n|---|---|\n| Academic rank | Associate Professor |\n"
            "| Unit | Department of Marine Cartography |\n"
            "| Areas of research | tidal mapping; sonar imaging; coastal erosion |\n")
    r = polyu.read("Dr Wen-Li Haraldsen", text)
    got = facts(r)
    assert r.cls == EX + "STAFF"
    assert got["works_for"] == ["Department of Marine Cartography"]
    assert sorted(got["has_research_interest"]) == ["coastal erosion", "sonar imaging", "tidal mapping"]
    # the department is a thing pointed to, typed by the class its name carries
    assert r.mentions["Department of Marine Cartography"] == EX + "DEPARTMENT"


def test_a_vague_label_read_by_what_its_value_resembles(polyu):
    """MiniLM puts "Academic rank" nearer obtained_degree than has_position; pages whose label says
    "Position" plainly teach what positions look like, and the value's resemblance decides."""
    pages = [("Dr Ann Vale", "Position: Professor\nUnit: Department of Marine Cartography"),
             ("Dr Bo Lind", "Position: Lecturer\nUnit: Department of Marine Cartography"),
             ("Dr Wen-Li Haraldsen", "| Item | Detail |\n|---|---|\n| Academic rank | Associate Professor |\n")]
    reader = PageReader(polyu.vocab, polyu.embedder)
    readings = reader.read_all(pages)
    assert facts(readings[2]).get("has_position") == ["Associate Professor"]
    assert "obtained_degree" not in facts(readings[2])


def test_label_line_with_bullets_and_dash_fields(polyu):
    text = ("Course number — MRN4410\nName of the course — Charting Reefs\nUnits of credit — 4\n"
            "Year of study — 3\nRun by — Department of Marine Cartography\nBefore taking it:\n"
            "- MRN2100\n- MRN3100\n")
    r = polyu.read("MRN4410 Charting Reefs", text)
    got = facts(r)
    assert r.cls == EX + "COURSE"
    assert got["has_subject_code"] == ["MRN4410"]
    assert got["has_subject_title"] == ["Charting Reefs"]
    assert got["has_credit_value"] == ["4"]
    assert got["offered_by"] == ["Department of Marine Cartography"]
    assert "works_for" not in got          # a course works for nobody: the class decides


def test_a_table_header_names_columns_and_a_bare_label_line_heads_bullets(polyu):
    """A markdown table's first row names its columns ("Field | Value"): no fact. A label on a line
    of its own, with no colon, owns the bullets under it."""
    text = ("| Field | Value |\n|---|---|\n| Home unit | Department of Marine Cartography |\n\n"
            "Research interests\n• tidal mapping\n• sonar imaging\n")
    got = facts(polyu.read("Dr Wen-Li Haraldsen", text))
    assert sorted(got["has_research_interest"]) == ["sonar imaging", "tidal mapping"]
    assert "Value" not in {v for vals in got.values() for v in vals}


def test_a_sentence_whose_subject_is_the_code_alone_or_whose_object_is_the_entity(polyu):
    """The code alone stands for the course; a sentence-final number is a value, not a list marker;
    a department that "runs" the course points to it backwards, the types choosing offered_by."""
    text = ("The Department of Marine Cartography runs MRN4410 Charting Reefs. "
            "MRN4410 carries 4 credits and is taught at level 3.")
    r = polyu.read("MRN4410 Charting Reefs", text)
    got = facts(r)
    assert got.get("has_credit_value") == ["4"] and got.get("has_subject_level") == ["3"]
    assert got.get("offered_by") == ["Department of Marine Cartography"]


def test_a_title_that_ends_with_its_code(polyu):
    r = polyu.read("Charting Reefs (MRN4410)", "Units of credit — 4\nRun by — Department of Marine Cartography")
    got = facts(r)
    assert got.get("has_subject_code") == ["MRN4410"] and got.get("has_subject_title") == ["Charting Reefs"]


def test_a_vague_label_still_speaks_for_each_item_of_its_list(polyu):
    """"Topics" alone is near research interests; "Topics: sonar imaging" is not: each item of a list
    under a vague label keeps what the label alone says."""
    reader = PageReader(polyu.vocab, polyu.embedder)
    readings = reader.read_all([
        ("Dr Ann Vale", "Research interests: coral bleaching; kelp forests\nPosition: Professor"),
        ("Dr Wen-Li Haraldsen", "Topics | reef mapping; sonar imaging; tidal flats\nPosition | Lecturer")])
    assert sorted(facts(readings[1]).get("has_research_interest", [])) == ["reef mapping", "sonar imaging",
                                                                           "tidal flats"]


def test_a_sentence_that_states_through_a_noun_of_the_entity(polyu):
    """"The research of X spans …": the subject is the entity's research, and that noun says what the
    values are."""
    text = "The research of Dr Wen-Li Haraldsen spans reef mapping; sonar imaging; tidal flats."
    got = facts(polyu.read("Dr Wen-Li Haraldsen", text))
    assert sorted(got.get("has_research_interest", [])) == ["reef mapping", "sonar imaging", "tidal flats"]


def test_prose_read_by_the_parser(polyu):
    text = ("The Department of Marine Cartography is part of the Faculty of Ocean Studies. "
            "It was founded to chart the harbour and now trains hydrographers.")
    r = polyu.read("Department of Marine Cartography", text)
    assert r.cls == EX + "DEPARTMENT"
    assert facts(r)["belongs_to"] == ["Faculty of Ocean Studies"]
    assert r.mentions["Faculty of Ocean Studies"] == EX + "FACULTY"


def test_prose_about_someone_else_states_nothing_of_the_page(polyu):
    text = ("Research interests: sea charts\nDr Wen-Li Haraldsen teaches in the Department of Marine Cartography. "
            "Her former student Ola Berg works for the Faculty of Ocean Studies.")
    r = polyu.read("Dr Wen-Li Haraldsen", text)
    assert facts(r).get("works_for") == ["Department of Marine Cartography"]


def test_a_field_after_a_sentence_on_one_line(polyu):
    text = "Dr Wen-Li Haraldsen charts the sea floor. Research topics: reef mapping, acoustic surveys."
    got = facts(polyu.read("Dr Wen-Li Haraldsen", text))
    assert sorted(got["has_research_interest"]) == ["acoustic surveys", "reef mapping"]


def test_another_domain_by_meaning_and_type(museum):
    text = ("Made of: oil on canvas\nPainted in: 1889\nHanging in: Gallery of Northern Light\n"
            "The painting was created by Ingrid Solberg.")
    r = museum.read("Harbour at Dusk", text)
    got = facts(r)
    assert r.cls == MUSEUM + "Artwork"
    assert got["medium"] == ["oil on canvas"]
    assert got["year_created"] == ["1889"]
    assert got["displayed_in"] == ["Gallery of Northern Light"]


def test_learning_types_a_name_seen_only_in_prose(polyu):
    """'Institute of …' carries no class word; pages whose field names the class teach the head word."""
    pages = [("Dr A Person", "Unit: Institute of Tides\nPosition: Lecturer"),
             ("Dr B Person", "Unit: Institute of Winds\nPosition: Lecturer"),
             ("Dr C Person", "Dr C Person works for the Institute of Currents.")]
    reader = PageReader(polyu.vocab, polyu.embedder)
    readings = reader.read_all(pages)
    assert facts(readings[2]).get("works_for") == ["Institute of Currents"]


@pytest.mark.parametrize("value,items", [
    ("a; b, c; d", ["a", "b, c", "d"]),
    ("rivers, lakes and deltas", ["rivers", "lakes", "deltas"]),
    ("maps / charts", ["maps", "charts"]),
    # spaced middle dots or bullets part an inline list; its items may hold commas
    ("reef surveys · tides, currents and swell · ice charts", ["reef surveys", "tides, currents and swell", "ice charts"]),
    ("glazes • kilns", ["glazes", "kilns"]),
])
def test_list_items(value, items):
    assert is_list(value) and list_items(value) == items


def test_a_sentence_with_commas_is_not_a_list():
    assert not is_list("The unit, founded long ago by a group of sailors who mapped the coast, grew quickly over time")


# ------------------------------------------------------------------ the build, read once for both layers
BUILD_PAGES = [
    ("page-1", "Department of Marine Cartography", "Part of: Faculty of Ocean Studies\nOffice: Pier 4"),
    ("page-2", "Dr Wen-Li Haraldsen",
     "Academic rank — Lecturer\nUnit — Department of Marine Cartography\nResearch topics — tides; reefs"),
    ("page-3", "MRN4410 Charting Reefs",
     "MRN4410 Charting Reefs is a subject offered by the Department of Marine Cartography. It carries 4 credits."),
]


def test_build_reads_each_page_once_for_both_layers_without_a_model(workspace, embedder, shared_data):
    """A scripted LLM with no rules: any model call fails the test."""
    from conftest import scripted_llm

    from pyramid.build import build_pyramid
    from pyramid.config import load_settings
    from pyramid.corpus import Document
    from pyramid.reading import corpus as page_readings
    from pyramid.session import Session
    from pyramid.workspace import Workspace

    ws = Workspace(workspace.root, load_settings(workspace.root / "polyrag.toml",
                                                 ontology={"extract_method": "read"}))
    schema = Path(shared_data) / "polyu_pages" / "polyu_schema.ttl"
    docs = [Document(i, text, {"title": t}) for i, t, text in BUILD_PAGES]
    parsed: list[str] = []
    real_segment = PageReader.segment

    def counting(self, title, text):
        parsed.append(title)
        return real_segment(self, title, text)

    PageReader.segment = counting  # type: ignore[method-assign]
    try:
        s = Session(ws, embedder=embedder)
        s.__dict__["llm"] = scripted_llm([])
        r = build_pyramid(s, docs, schema=schema)
        assert sorted(parsed) == sorted(t for _, t, _ in BUILD_PAGES)   # one parse per page, two layers
        steps = {x.step: x for x in r.steps}
        assert steps["kg"].outcome.startswith("read mode") and r.usage.calls == 0
        # the schema's mistakes, said: works_for is ranged on FACULTY, the pages give departments
        assert "works_for: 1 of 1 values are base:DEPARTMENT, its range says base:FACULTY" in \
            steps["ontology.extract"].outcome

        kg = {(t.subject.name, t.relation, t.object.name) for t in s.kg.store().iter_triples()}
        assert ("Wen-Li Haraldsen", "works for", "Department of Marine Cartography") in kg
        assert ("MRN4410 Charting Reefs", "offered by", "Department of Marine Cartography") in kg
        s.kg.close()

        q = f"""SELECT DISTINCT ?v WHERE {{ ?s <{LABEL}> "MRN4410 Charting Reefs" ; <{EX}offered_by> ?o .
                 ?o <{LABEL}> ?v }}"""
        assert [row["v"] for row in s.ontology.store.run_trusted(q).rows] == ["Department of Marine Cartography"]
        # the department is one instance, whichever page named it
        q = f"""SELECT (COUNT(DISTINCT ?d) AS ?n) WHERE {{ ?d <{LABEL}> "Department of Marine Cartography" }}"""
        assert int(s.ontology.store.run_trusted(q).rows[0]["n"]) == 1

        # a second build parses nothing and rewrites nothing
        parsed.clear()
        s2 = Session(ws, embedder=embedder)
        s2.__dict__["llm"] = scripted_llm([])
        r2 = build_pyramid(s2, [], schema=schema)
        assert parsed == []
        assert "0 pages read" in {x.step: x for x in r2.steps}["kg"].outcome
        assert (ws.root / page_readings.CACHE).exists()
    finally:
        PageReader.segment = real_segment  # type: ignore[method-assign]



def test_a_long_semicolon_list_after_the_verb_is_one_list_value(polyu):
    """Long items (one with a verb of its own) can make the parser root the sentence inside the list;
    the clause before the first semicolon still states every item, and a proper noun inside an item
    does not make the subject someone else."""
    text = ("The research interests of Dr Wen-Li Haraldsen include acoustic seabed classification; Kalman filters for "
            "AUV navigation; a survey design that reduces echo sounder drift in shallow estuaries; tide gauges.")
    got = facts(polyu.read("Dr Wen-Li Haraldsen", text))
    assert {"acoustic seabed classification", "Kalman filters for AUV navigation", "tide gauges"} <= \
        set(got.get("has_research_interest", []))


def test_a_role_of_a_unit_is_not_the_unit_and_a_vague_list_is_not_a_name(polyu):
    """"Director of the Department of X" is a post held in the department; a list under a vague label
    gives no name (the name comes from the page's title)."""
    reader = PageReader(polyu.vocab, polyu.embedder)
    readings = reader.read_all([
        ("Dr Ann Vale", "Position: Professor\nUnit: Department of Marine Cartography\n"
                        "Research interests: coral bleaching; kelp forests"),
        ("Dr Wen-Li Haraldsen", "Roles held | Lecturer; Director of the Department of Marine Cartography\n"
                                "Unit | Department of Marine Cartography\nSpecialism\n• reef mapping\n• tidal flats")])
    got = facts(readings[1])
    assert got.get("works_for") == ["Department of Marine Cartography"]
    assert "Director of the Department of Marine Cartography" not in got.get("works_for", [])
    assert got.get("has_name") == ["Dr Wen-Li Haraldsen"]
    assert "reef mapping" in got.get("has_research_interest", [])


def test_a_title_that_is_a_sentence_or_an_address_does_not_type_the_page(polyu):
    """A page titled with a sentence that mentions a department is still the person's page."""
    reader = PageReader(polyu.vocab, polyu.embedder)
    readings = reader.read_all([
        ("Dr Ann Vale", "Position: Professor\nUnit: Department of Marine Cartography\n"
                        "Research interests: coral bleaching; kelp forests"),
        ("Vale lectures on tides as an Associate Professor in the Department of Marine Cartography here.",
         "Position: Associate Professor\nUnit: Department of Marine Cartography\n"
         "Research interests: tidal flats; harbour charts")])
    assert readings[1].cls == EX + "STAFF"
    assert facts(readings[1]).get("works_for") == ["Department of Marine Cartography"]


def test_several_fields_on_one_line_are_each_read(museum):
    # a catalogue line holding every field, separated by commas
    fields = ["Artist: Ingrid Solvang", "Medium: oil on linen", "Created: 1911", "Shown in: North Gallery"]
    r = museum.read("The Salt Marsh at Dusk", ", ".join(fields))
    got = facts(r)
    assert r.cls == MUSEUM + "Artwork"
    assert got["displayed_in"] == ["North Gallery"] and got["medium"] == ["oil on linen"]
    assert got["year_created"] == ["1911"]
    assert got == facts(museum.read("The Salt Marsh at Dusk", "\n".join(fields)))  # as if one field per line


def test_a_list_item_holding_a_colon_is_not_a_field_of_its_own(museum):
    # "Impressionism: late" is one movement of the list, not a label and a value
    r = museum.read("Ingrid Solvang", "Nationality: Norwegian\nMovements: Realism, Impressionism: late, Symbolism")
    got = facts(r)
    assert "Impressionism" not in got and "Impressionism: late" in got["movement"], got


def test_key_equals_value_lines_are_fields(polyu):
    text = ("name = Dr Wen-Li Haraldsen\nrank = Associate Professor\nunit = Department of Marine Cartography\n"
            "interests = tidal mapping; sonar imaging")
    r = polyu.read("Dr Wen-Li Haraldsen", text)
    got = facts(r)
    assert r.cls == EX + "STAFF"
    assert got["works_for"] == ["Department of Marine Cartography"]
    assert sorted(got["has_research_interest"]) == ["sonar imaging", "tidal mapping"]


def test_a_card_of_name_lines_is_read_line_by_line_and_its_values_learnt_from_linked_fields(polyu):
    """A directory card states each value on its own line, with no label and no verb: run together as
    one sentence the lines said nothing. Which property an unlabelled value is, the reader learns from
    fields elsewhere whose page class settled what a vague label meant ("title" on a staff page, whose
    name is given apart, is no name)."""
    pages = [(f"Dr {n} Okonkwo-Berg", f"name = Dr {n} Okonkwo-Berg\ntitle = {rank}\n"
                                      "unit = Department of Marine Cartography\ninterests = tidal mapping; sonar imaging")
             for n, rank in (("Ada", "Senior Lecturer"), ("Bo", "Principal Lecturer"), ("Cy", "Senior Lecturer"),
                             ("Di", "Reader"), ("Ed", "Principal Lecturer"))]
    pages.append(("Dr Femi Okonkwo-Berg", "Dr Femi Okonkwo-Berg\nPrincipal Lecturer\nDepartment of Marine Cartography"))
    reader = PageReader(polyu.vocab, polyu.embedder, titles=["Department of Marine Cartography"])
    readings = reader.read_all(pages)
    card = readings[-1]
    assert card.cls == EX + "STAFF"
    assert facts(card).get("works_for") == ["Department of Marine Cartography"]
    assert facts(card).get("has_position") == ["Principal Lecturer"], facts(card)


def test_one_heading_line_is_no_card(polyu):
    # a lone capitalised line before prose is a heading: the prose after it is still one sentence
    r = polyu.read("Dr Wen-Li Haraldsen", "Biography\nDr Wen-Li Haraldsen works for the Department of Marine "
                                          "Cartography.")
    assert facts(r).get("works_for") == ["Department of Marine Cartography"]
    assert "Biography" not in str(r.facts)


def test_a_relative_clause_about_what_the_entity_is_speaks_of_the_entity(polyu):
    # "X is one of the units that make up Y": X makes up Y; the "one" of "one of" counts nothing
    r = polyu.read("Department of Marine Cartography",
                   "The Department of Marine Cartography is one of the units that make up the Faculty of Ocean "
                   "Studies.")
    got = facts(r)
    assert r.cls == EX + "DEPARTMENT"
    assert got.get("belongs_to") == ["Faculty of Ocean Studies"]
    assert "1" not in [v for vs in got.values() for v in vs]


def test_only_a_fields_whole_value_is_learnt_from_a_linked_field(polyu):
    """A linked field teaches its property what values look like only with its whole value: the items
    of a list ("interests = a; b; c") say less about the property than one value does
    (they had taught a subject's level what research topics look like)."""
    reader = PageReader(polyu.vocab, polyu.embedder, titles=["Department of Marine Cartography"])
    pages = [reader.segment(f"Dr {n} Okonkwo-Berg",
                            f"name = Dr {n} Okonkwo-Berg\ntitle = Principal Lecturer\n"
                            "unit = Department of Marine Cartography\ninterests = tidal mapping; sonar imaging; kelp")
             for n in ("Ada", "Bo")]
    reader.study(pages)
    readings = [reader.link(p) for p in pages]
    linked = {f.prop for r in readings for f in r.facts if f.value == "tidal mapping"}
    assert linked, [r.facts for r in readings]  # the items were linked to some property …
    reader.examples.clear()
    reader.learn_linked(pages, readings)
    learnt = {v for vs in reader.examples.values() for v in vs}
    assert "Principal Lecturer" in learnt and not learnt & {"tidal mapping", "sonar imaging", "kelp"}, learnt


def test_tab_and_double_slash_separate_fields_as_a_colon_and_a_line_break_do(museum):
    by_colon = facts(museum.read("Harbour at Dusk", "Made of: oil on canvas\nPainted in: 1889\n"
                                                     "Hanging in: Gallery of Northern Light"))
    # a table's rows copied as text: label, tab, value
    by_tab = museum.read("Harbour at Dusk", "Made of\toil on canvas\nPainted in\t1889\nHanging in\tGallery of Northern Light")
    # one line of parts: the name, then fields
    by_slashes = museum.read("Harbour at Dusk", "Harbour at Dusk // Made of: oil on canvas // Painted in: 1889 // "
                                                "Hanging in: Gallery of Northern Light")
    assert by_colon["year_created"] == ["1889"] and by_colon["displayed_in"] == ["Gallery of Northern Light"]
    assert facts(by_tab) == by_colon and facts(by_slashes) == by_colon
    assert by_tab.cls == by_slashes.cls == MUSEUM + "Artwork"
    # an address keeps its "//"
    segs, _ = museum.segments("Harbour at Dusk", "Catalogue: https://museum.example/works/17")
    assert [(s.context, s.value) for s in segs] == [("Catalogue", "https://museum.example/works/17")]


def test_a_question_line_is_the_label_of_the_values_under_it_but_not_of_a_sentence(museum):
    text = ("What is Harbour at Dusk made of?\noil on canvas\nWhich room shows it?\nGallery of Northern Light\n"
            "When was it painted?\n1889")
    segs, _ = museum.segments("Harbour at Dusk", text)
    assert [(s.context, s.value, s.kind) for s in segs] == [
        ("What is made of", "oil on canvas", "field"), ("Which room shows it", "Gallery of Northern Light", "field"),
        ("When was it painted", "1889", "field")]
    got = facts(museum.read("Harbour at Dusk", text))
    assert got["displayed_in"] == ["Gallery of Northern Light"] and got["year_created"] == ["1889"]
    # an FAQ whose answer is a sentence is prose: the question labels nothing
    segs, sentences = museum.segments("Harbour at Dusk", "Why is it famous?\nIt was the first harbour scene shown "
                                                         "in the city.")
    assert all(s.kind == "prose" for s in segs) and len(sentences) == 2


def test_a_property_whose_plain_values_are_numbers_takes_no_word(polyu):
    """"Tier" is near the subjects' level in meaning, but the pages' plainly labelled levels are all
    numbers: a word under "Tier" is no level (and no evidence that the page is a subject's)."""
    subjects = [(f"MC{n}01 Tidal Mapping {n}", f"Subject code: MC{n}01\nSubject level: {n}\nCredits: 3")
                for n in range(1, 7)]
    reader = PageReader(polyu.vocab, polyu.embedder)
    readings = reader.read_all([*subjects, ("Dr Wen-Li Haraldsen", "Tier: Senior Lecturer\n"
                                                                    "Unit: Department of Marine Cartography")])
    assert all(facts(r)["has_subject_level"] == [str(n)] for n, r in enumerate(readings[:6], 1))
    assert "has_subject_level" not in facts(readings[6]) and readings[6].cls != EX + "COURSE"


def test_a_title_without_what_every_name_of_a_class_carries_is_doubted_for_that_class(polyu):
    """The pages teach that subjects are titled with a code and departments named with their class
    word (every name given under a label naming the class carries it); a person's page whose only
    typed value is a unit is then no department's nor subject's page, however its label leans
    (works_for and belongs_to both take a department)."""
    depts = [(f"Department of {w}", f"Faculty: Faculty of Ocean Studies\nAbout: teaching and research in {w.lower()}")
             for w in ("Marine Cartography", "Tidal Physics", "Coastal Law", "Harbour Design", "Sea Ice Studies")]
    subjects = [(f"MC{n}01 Tidal Mapping {n}", f"Subject code: MC{n}01\nSubject level: {n}\nCredits: 3")
                for n in range(1, 7)]
    # a label naming the class types its values whatever words they hold: all of them carry "Department"
    staff = [(f"Dr {name}", f"Position: Lecturer\nHome department: {dept}") for name, (dept, _) in
             zip(("Ann Vale", "Bo Lind", "Cai Rong", "Dag Moe", "Eir Sand"), depts)]
    person = ("Dr Ottar Brekke", "Belongs to: Department of Tidal Physics")
    reader = PageReader(polyu.vocab, polyu.embedder)
    readings = reader.read_all([*depts, *subjects, *staff, person])
    assert {"class word"} <= reader.title_shapes[EX + "DEPARTMENT"] and "code" in reader.title_shapes[EX + "COURSE"]
    assert set(reader._shape_doubts("Dr Ottar Brekke")) >= {EX + "DEPARTMENT", EX + "COURSE"}
    assert reader._shape_doubts("Department of Harbour Design") == [EX + "COURSE"]
    assert [r.cls for r in readings[:5]] == [EX + "DEPARTMENT"] * 5
    assert readings[-1].cls == EX + "STAFF" and facts(readings[-1])["works_for"] == ["Department of Tidal Physics"]


def test_a_long_dotted_list_under_a_question_is_its_answer(museum):
    """A question over one long line of short items split by dots: values, however many words the
    line runs to (a line of prose that long stays prose)."""
    styles = ["fauvism", "cubism", "orphism", "vorticism", "rayonism", "suprematism", "constructivism",
              "de stijl", "purism", "precisionism", "surrealism", "magic realism", "art deco", "social realism",
              "abstract expressionism", "colour field painting", "hard-edge painting", "op art", "pop art",
              "minimalism", "land art"]
    line = " · ".join(styles)
    assert len(line.split()) > 25
    segs, _ = museum.segments("Vera Osk", f"Which movements did Vera Osk belong to?\n{line}")
    assert [(s.kind, s.value) for s in segs] == [("field", line)]
    got = facts(museum.read("Vera Osk", f"Which movements did Vera Osk belong to?\n{line}"))
    assert sorted(got["movement"]) == sorted(styles)
    # a long sentence under a question is still prose
    prose = ("Vera Osk moved between many circles of painters over her long life, and the critics who "
             "followed her never agreed on a single name for what she did, though several of them tried "
             "hard to find one in their reviews of her shows in the northern cities")
    segs, _ = museum.segments("Vera Osk", f"Which movements did she belong to?\n{prose}")
    assert all(s.kind == "prose" for s in segs)


def test_a_thing_of_the_entitys_stands_for_it_as_a_subject(polyu):
    """"Current projects by X deal with a, b and c" and "Her studies concern …": the subject is a thing
    of the page's entity, so what the verb reaches is said of the entity (here: research interests)."""
    for text in ("Position: Lecturer\nRecent projects by Dr Wen-Li Haraldsen deal with tidal mapping, sonar "
                 "imaging and coastal erosion.",
                 "Position: Lecturer\nHer projects deal with tidal mapping, sonar imaging and coastal erosion."):
        r = polyu.read("Dr Wen-Li Haraldsen", text)
        assert r.cls == EX + "STAFF"
        assert sorted(facts(r).get("has_research_interest", [])) == ["coastal erosion", "sonar imaging",
                                                                     "tidal mapping"], text
    # a named someone else's projects are not the entity's
    got = facts(polyu.read("Dr Wen-Li Haraldsen", "Position: Lecturer\nProjects by Ola Berg deal with tidal mapping."))
    assert "has_research_interest" not in got


def test_labels_on_their_own_lines_over_their_values(museum, polyu):
    """A definition list or a two-column table flattened to text: label line, value line, label line, …"""
    text = "Harbour at Dusk\nMedium\noil on canvas\nYear created\n1889\nGallery\nGallery of Northern Light"
    segs, _ = museum.segments("Harbour at Dusk", text)
    assert [(s.kind, s.context, s.value) for s in segs] == [
        ("field", "Medium", "oil on canvas"), ("field", "Year created", "1889"),
        ("field", "Gallery", "Gallery of Northern Light")]
    got = facts(museum.read("Harbour at Dusk", text))
    assert_harbour(got)
    # a label that ends with a colon needs no partner to be one
    segs, _ = museum.segments("Harbour at Dusk", "Made of:\nbronze and gilt")
    assert [(s.kind, s.context, s.value) for s in segs] == [("field", "Made of", "bronze and gilt")]
    # a field line is no label of the line under it
    segs, _ = museum.segments("Harbour at Dusk", "Medium: oil on canvas\nYear: 1889\nPainted from a rowing boat "
                                                 "in the harbour at dusk.")
    assert ("field", "Medium", "oil on canvas") in [(s.kind, s.context, s.value) for s in segs]
    assert not any(s.context.startswith(("Medium:", "Year:")) for s in segs)
    # a card's lines are values, not labels: one line that could read as a label pairs with nothing
    segs, _ = polyu.segments("Dr Wen-Li Haraldsen", "Dr Wen-Li Haraldsen\nAssociate Professor\n"
                                                    "Department of Marine Cartography")
    assert [s.value for s in segs] == ["Associate Professor", "Department of Marine Cartography"]
    assert all(s.kind == "prose" for s in segs)


def test_a_spaced_hyphen_parts_a_label_from_its_value(museum):
    got = facts(museum.read("Harbour at Dusk", "Made of - oil on canvas\nPainted in - 1889\n"
                                                "Hanging in - Gallery of Northern Light"))
    assert_harbour(got)
    # a place with its country, or a code with its name, is no field
    for line in ("Bergen - Norway", "MC101 - Charts of the North Sea"):
        assert museum._field(line, "Harbour at Dusk") is None


def test_a_saved_web_page_is_read_like_any_other(polyu):
    from pyramid.markup import html_to_text

    page = ("<html><head><title>People | Ocean College</title></head><body><h1>Dr Wen-Li Haraldsen</h1>"
            "<dl><dt>Academic rank</dt><dd>Associate Professor</dd><dt>Department</dt>"
            "<dd>Department of Marine Cartography</dd><dt>Research interests</dt>"
            "<dd>tidal mapping, sonar imaging</dd></dl></body></html>")
    text, title = html_to_text(page)
    r = polyu.read(title, text)
    got = facts(r)
    assert title == "Dr Wen-Li Haraldsen" and r.cls == EX + "STAFF"
    assert got["works_for"] == ["Department of Marine Cartography"]
    assert sorted(got["has_research_interest"]) == ["sonar imaging", "tidal mapping"]


def test_markdown_bold_labels_and_a_line_of_pipe_parted_values(museum, polyu):
    got = facts(museum.read("Harbour at Dusk", "**Made of:** oil on canvas\n**Painted in**: 1889\n"
                                                "__Hanging in:__ Gallery of Northern Light"))
    assert_harbour(got)
    # three or more parts split by " | " on a line that is no table row: each part a line of its own, a
    # number with its noun ("3 credits") read as one
    r = polyu.read("MC2031 Tidal Charts", "MC2031 | Tidal Charts | 3 credits | Level 2 | "
                                          "Department of Marine Cartography")
    got = facts(r)
    assert r.cls == EX + "COURSE"
    assert got["offered_by"] == ["Department of Marine Cartography"]
    assert got["has_credit_value"] == ["3"] and "2" in got["has_subject_level"]


def test_a_list_of_mostly_plain_values_makes_its_few_names_values_too(polyu):
    """A list states one property: under "Areas of expertise", a faculty's name among topics is one
    more topic, not a unit the person works for (nor a faculty the page's entity belongs to)."""
    r = polyu.read("Dr Wen-Li Haraldsen", "Position: Lecturer\nUnit: Department of Marine Cartography\n"
                                          "Areas of expertise: tidal mapping, sonar imaging, coastal erosion, "
                                          "Faculty of Ocean Studies, wave energy")
    got = facts(r)
    assert r.cls == EX + "STAFF"
    assert got["works_for"] == ["Department of Marine Cartography"]
    assert "Faculty of Ocean Studies" in got["has_research_interest"]
    # a list of names of things stays a list of links
    got = facts(polyu.read("Dr Wen-Li Haraldsen", "Position: Lecturer\nUnits: Department of Marine Cartography, "
                                                  "Faculty of Ocean Studies"))
    assert sorted(got["works_for"]) == ["Department of Marine Cartography", "Faculty of Ocean Studies"]


def test_the_entity_named_inside_a_sentence_is_not_a_thing_it_links_to(polyu):
    """A parser may hang the course's own code and title on the unit before them ("Offered by the
    Department of X, GLS5327 (Coastal Navigation) is open to …"); the course links to no piece of itself."""
    title = "Coastal Navigation (GLS5327)"
    for value in ("GLS5327 (Coastal Navigation)", "GLS5327", "Coastal Navigation"):
        options = polyu.candidates(Segment("Offered by", value, "prose", mention=True), title)
        assert not any(f.is_object for opts in options for _, f in opts), value
    options = polyu.candidates(Segment("Offered by", "Department of Marine Cartography", "prose", mention=True), title)
    assert options[0][0][1].prop == EX + "offered_by"


def test_many_links_to_names_of_no_known_class_do_not_outvote_the_page_class(polyu):
    """A profile padded with sentences naming bodies of no class the schema knows ("was appointed
    Pacific Charting Union") is still a person's page: such weak links count once, not once each."""
    reader = PageReader(polyu.vocab, polyu.embedder)
    people = {"Dr Ines Aaltonen": "Lecturer", "Prof Rauno Okoro": "Professor", "Dr Tamsin Vey": "Senior Lecturer",
              "Dr Joaquim Sarr": "Associate Professor", "Prof Lia Ferreira": "Chair Professor",
              "Dr Osei Brandt": "Assistant Professor"}
    pages = [(name, f"Position: {post}\nUnit: Department of Marine Cartography\n"
                    f"Research interests: sea ice; reef mapping; {name.split()[-1]} charts")
             for name, post in people.items()]
    bodies = ("Norwegian Hydrographic Service (2001-2004)", "University of Bergen (1995-1998)",
              "Pacific Charting Union", "Tidal Dynamics Quarterly", "Baltic Survey Office (1990-1994)",
              "University of Tromso (1988-1990)", "Arctic Mapping Council", "Coastal Atlas Trust")
    noisy = ("Among the staff of the Department of Marine Cartography is Dr Mirela Oyelaran, whose office is "
             "by the harbour. Dr Mirela Oyelaran was appointed Senior Lecturer. "
             + " ".join(f"Dr Mirela Oyelaran was appointed {body}." for body in bodies))
    readings = reader.read_all([*pages, ("Dr Mirela Oyelaran", noisy)])
    assert readings[-1].cls == EX + "STAFF"
    got = facts(readings[-1])
    assert got["works_for"] == ["Department of Marine Cartography"]
    assert "belongs_to" not in got


def test_a_count_said_of_someone_else_is_the_entitys_when_its_noun_means_a_property(polyu):
    """"Participants who pass collect 4 credits": the sentence is about the students, the credits
    are the course's. A count whose noun means none of its properties ("18 learners") is not."""
    reader = PageReader(polyu.vocab, polyu.embedder)
    [reading] = reader.read_all([(
        "Sounding Methods (GLS2210)",
        "Run by the Department of Marine Cartography, GLS2210 (Sounding Methods) welcomes any student. "
        "Participants who pass collect 4 credits. A tutor meets 18 learners every week.")])
    got = facts(reading)
    assert reading.cls == EX + "COURSE"
    assert got["has_credit_value"] == ["4"]
    assert "18" not in [v for vals in got.values() for v in vals]


def test_words_in_apposition_to_the_entity_are_what_it_is(polyu):
    """"Dr Y, Senior Lecturer, teaches in …": the words in apposition to the entity's name are what it
    is, read by what they resemble (the corpus's positions), as "Dr Y is Senior Lecturer" would be."""
    reader = PageReader(polyu.vocab, polyu.embedder)
    posts = {"Dr Ines Aaltonen": "Lecturer", "Prof Rauno Okoro": "Professor", "Dr Tamsin Vey": "Senior Lecturer",
             "Dr Joaquim Sarr": "Associate Professor", "Prof Lia Ferreira": "Chair Professor"}
    pages = [(name, f"Position: {post}\nUnit: Department of Marine Cartography") for name, post in posts.items()]
    text = "Dr Mirela Oyelaran, Principal Lecturer, teaches charting in the Department of Marine Cartography."
    readings = reader.read_all([*pages, ("Dr Mirela Oyelaran", text)])
    got = facts(readings[-1])
    assert readings[-1].cls == EX + "STAFF"
    assert got["has_position"] == ["Principal Lecturer"]
    assert got["works_for"] == ["Department of Marine Cartography"]


def test_a_one_row_table_under_a_header_row_is_a_record(museum):
    """A record laid out across: the header row labels the cells of the one row below it."""
    [reading] = museum.read_all([("Harbour at Dusk",
                                  "| Work | Medium | Year | Shown in |\n|---|---|---|---|\n"
                                  "| Harbour at Dusk | oil on canvas | 1889 | Gallery of Northern Light |")])
    assert_harbour(facts(reading))


def test_the_name_as_a_heading_and_a_word_joined_to_its_number(polyu):
    """The page's name on a line of its own does not run into the sentence after it, and "level-2"
    is a level of 2."""
    reader = PageReader(polyu.vocab, polyu.embedder)
    [reading] = reader.read_all([("GLS2210 Sounding Methods",
                                  "GLS2210 Sounding Methods\nThis level-2 subject carries 4 credits.\n"
                                  "It is run by the Department of Marine Cartography.")])
    got = facts(reading)
    assert got["has_subject_level"] == ["2"]
    assert got["has_credit_value"] == ["4"]


def test_a_clause_whose_subject_is_a_pronoun_for_the_entity_speaks_of_it(polyu):
    """"They teach in X, where they are Principal Lecturer": the relative clause's subject is the
    person again, so its complement is what the person is."""
    reader = PageReader(polyu.vocab, polyu.embedder)
    posts = {"Dr Ines Aaltonen": "Lecturer", "Prof Rauno Okoro": "Professor", "Dr Tamsin Vey": "Senior Lecturer",
             "Dr Joaquim Sarr": "Associate Professor", "Prof Lia Ferreira": "Chair Professor"}
    pages = [(name, f"Position: {post}\nUnit: Department of Marine Cartography") for name, post in posts.items()]
    text = ("Dr Mirela Oyelaran came to the city in 2011. They teach in the Department of Marine Cartography, "
            "where they are Principal Lecturer.")
    readings = reader.read_all([*pages, ("Dr Mirela Oyelaran", text)])
    got = facts(readings[-1])
    assert got["has_position"] == ["Principal Lecturer"]
    assert got["works_for"] == ["Department of Marine Cartography"]


def test_a_breadcrumb_puts_the_page_under_the_crumb_before_it(polyu):
    reader = PageReader(polyu.vocab, polyu.embedder)
    [reading] = reader.read_all([("Department of Marine Cartography",
                                  "Home > Faculty of Ocean Studies > Department of Marine Cartography\n\n"
                                  "Welcome to our pages.")])
    assert reading.cls == EX + "DEPARTMENT"
    assert facts(reading)["belongs_to"] == ["Faculty of Ocean Studies"]


def test_a_name_the_corpus_once_typed_does_not_type_a_label_or_split_a_name(polyu):
    """One page's stray values — "Research" and "Coastal Studies" given as units — make those names
    things, but a label "research:" still heads plain values, and "Department of Tides and Coastal
    Studies" is still one department."""
    reader = PageReader(polyu.vocab, polyu.embedder)
    readings = reader.read_all([
        ("Dr Ines Aaltonen", "Position: Lecturer\nDepartment: Research\nFaculty: Coastal Studies"),
        ("Dr Mirela Oyelaran", "person: Dr Mirela Oyelaran\nroles: Professor\n"
                               "department: Department of Tides and Coastal Studies\n"
                               "research:\n  - tidal modelling\n  - sonar imaging\n  - coral reefs")])
    got = facts(readings[1])
    assert got["works_for"] == ["Department of Tides and Coastal Studies"]
    assert sorted(got["has_research_interest"]) == ["coral reefs", "sonar imaging", "tidal modelling"]


def test_a_name_the_parser_hangs_from_its_last_word_is_read_whole(polyu):
    # spaCy makes "School" a modifier of "Technology" and "Glass Design" the object of "of": the value is
    # the whole name, not the words inside it
    for unit in ("School of Glass Design and Kiln Technology", "Department of Textile Arts and Fashion Technology"):
        r = polyu.read("GDK2101 Lampworking Basics", f"GDK2101 Lampworking Basics\nThis level-2 subject is worth "
                       f"3 credits.\nIt is taught by the {unit}.")
        assert facts(r).get("offered_by") == [unit], facts(r)
    assert r.mentions[unit] == EX + "DEPARTMENT"  # typed by its class word, no longer by the range alone


def test_a_vague_label_means_the_property_its_values_are_given_elsewhere(polyu):
    """A column header MiniLM cannot place ("Capacity") is read by what it holds: the values under it
    are, on other pages, what sentences say people serve as — so the label means that property, for
    every value under it, one seen elsewhere or not."""
    ranks = ("Senior Lecturer", "Associate Professor", "Assistant Professor", "Senior Lecturer", "Associate Professor")
    pages = [(f"Dr {n} Okonkwo-Berg", f"Dr {n} Okonkwo-Berg works in the Department of Marine Cartography. She "
                                      f"also serves as {rank}. Research interests: tidal mapping")
             for n, rank in zip(("Ada", "Bo", "Cy", "Di", "Ed"), ranks)]
    column = ("Senior Lecturer", "Assistant Professor", "Associate Professor", "Senior Lecturer", "Visiting Hydrographer")
    pages += [(f"Dr {n} Lindqvist", f"Unit: Department of Marine Cartography\nCapacity: {rank}")
              for n, rank in zip(("Femi", "Gus", "Hal", "Ivo", "Jo"), column)]
    reader = PageReader(polyu.vocab, polyu.embedder, titles=["Department of Marine Cartography"])
    readings = reader.read_all(pages)
    said = [facts(r).get("has_position") for r in readings[:5]]
    assert said == [[rank] for rank in ranks], said  # the sentences are read as positions …
    assert reader.label_means == {"capacity": EX + "has_position"}, reader.label_means
    for r, rank in zip(readings[5:], column):
        assert facts(r).get("has_position") == [rank], (r.entity, r.facts)  # … and so is the column


def test_a_long_linked_value_teaches_nothing(polyu):
    """A field's whole value of many words is a sentence or a list left whole: learnt as an example it
    would make any value sharing one of its words look like the property's ("renewable energy" like a
    position, for a long list of committee seats on energy boards)."""
    reader = PageReader(polyu.vocab, polyu.embedder, titles=["Department of Marine Cartography"])
    long_title = "Principal Lecturer and Chair of the Harbour Survey Board, Member of the Tidal Energy Panel"
    pages = [reader.segment(f"Dr {n} Okonkwo-Berg", f"name = Dr {n} Okonkwo-Berg\ntitle = {rank}\n"
                                                    "unit = Department of Marine Cartography")
             for n, rank in (("Ada", "Principal Lecturer"), ("Bo", long_title))]
    reader.study(pages)
    readings = [reader.link(p) for p in pages]
    assert [facts(r).get("has_position") for r in readings] == [["Principal Lecturer"], [long_title]], \
        [r.facts for r in readings]  # both are read as positions …
    reader.examples.clear()
    reader.learn_linked(pages, readings)
    assert reader.examples == {EX + "has_position": ["Principal Lecturer"]}, reader.examples  # … one teaches


def test_a_column_of_things_keeps_its_link_though_a_noisy_list_elsewhere_holds_one(polyu):
    """A department's name caught in someone's list of roles is, there, one more role; the column that
    names each person's department is still a column of departments: a label whose values were linked as
    things keeps its link, and a label comes to mean only a plain-valued property."""
    pages = [(f"Dr {n} Okonkwo-Berg", "Home unit: Department of Marine Cartography\nRoles: Senior Lecturer; "
                                      "Examiner; Warden; Department of Marine Cartography\n"
                                      "Research interests: tidal mapping")
             for n in ("Ada", "Bo", "Cy", "Di", "Ed", "Fay")]
    reader = PageReader(polyu.vocab, polyu.embedder, titles=["Department of Marine Cartography"])
    readings = reader.read_all(pages)
    assert "home unit" not in reader.label_means, reader.label_means
    for r in readings:
        assert facts(r).get("works_for") == ["Department of Marine Cartography"], (r.entity, r.facts)


def test_a_capitalised_one_word_object_is_a_value_where_a_bare_common_noun_is_not(polyu):
    """"She obtained a PhD from …": the parser calls "PhD" a common noun, and one common noun after an
    article usually says nothing ("teaches a subject"); a capitalised one (a degree, a rank) does."""
    r = polyu.read("Dr Ada Okonkwo-Berg", "Dr Ada Okonkwo-Berg works in the Department of Marine Cartography. "
                                          "She obtained a PhD from Lund University.")
    assert "PhD" in facts(r).get("obtained_degree", []), r.facts
    r = polyu.read("Dr Ada Okonkwo-Berg", "Dr Ada Okonkwo-Berg works in the Department of Marine Cartography. "
                                          "She teaches a subject on tidal mapping.")
    assert not any(f.value.lower() in ("subject", "a subject") for f in r.facts), r.facts


def test_where_the_object_came_from_is_said_of_the_object_not_of_the_verb(polyu):
    """"She obtained a PhD from Lund University": the verb reaches the degree; the university is where the
    degree is from. Read through the verb ("obtained from") both would be degrees; read through the object
    ("PhD from") the university is where she graduated, whatever the verb."""
    for sentence, degree, place in (("She obtained a PhD from Lund University.", "PhD", "Lund University"),
                                    ("She completed a Master of Philosophy at Aalto University.",
                                     "Master of Philosophy", "Aalto University"),
                                    ("She gained the Bachelor of Science in Geodesy from Lund University.",
                                     "Bachelor of Science", "Lund University")):
        r = polyu.read("Dr Ada Okonkwo-Berg", "Dr Ada Okonkwo-Berg works in the Department of Marine Cartography. "
                                              + sentence)
        assert facts(r).get("graduated_from") == [place], (sentence, r.facts)
        assert place not in facts(r).get("obtained_degree", []), (sentence, r.facts)
        if sentence.startswith("She obtained"):  # the verb that means the degree property reaches the degree
            assert facts(r).get("obtained_degree") == [degree], (sentence, r.facts)


def test_items_of_a_vague_column_are_read_as_the_values_they_are_like(polyu):
    """Topics under a header MiniLM cannot place ("Looks into"), none of them said word for word on another
    page, are each most like research interests other pages list plainly: each is read as one."""
    plain = [("coastal erosion", "tidal mapping"), ("seabed sonar imaging", "harbour dredging"),
             ("storm surge forecasting", "wave energy"), ("mangrove restoration", "salt marsh ecology"),
             ("estuary sediment transport", "ocean acidification"), ("kelp forest monitoring", "sea level rise")]
    pages = [(f"Dr {n} Okonkwo-Berg", f"Dept: Department of Marine Cartography\nResearch interests: {a}; {b}")
             for n, (a, b) in zip(("Ada", "Bo", "Cy", "Di", "Ed", "Fay"), plain)]
    column = [("coastal erosion modelling", "tidal mapping surveys"), ("seabed sonar mapping", "harbour dredging works"),
              ("storm surge prediction", "wave energy converters"), ("mangrove forest restoration", "salt marsh ecosystems"),
              ("estuarine sediment transport", "kelp forest surveys")]
    pages += [(f"Dr {n} Lindqvist", f"Dept: Department of Marine Cartography\nLooks into: {a}; {b}")
              for n, (a, b) in zip(("Gus", "Hal", "Ivo", "Jo", "Kit"), column)]
    reader = PageReader(polyu.vocab, polyu.embedder, titles=["Department of Marine Cartography"])
    before = [reader.link(reader.segment(t, x)) for t, x in pages[6:]]
    assert not any(facts(r).get("has_research_interest") for r in before), [r.facts for r in before]
    readings = reader.read_all(pages)
    for r, pair in zip(readings[6:], column):
        assert sorted(facts(r).get("has_research_interest", [])) == sorted(pair), (r.entity, r.facts)


def test_a_column_of_degrees_and_universities_reads_each_as_what_it_is(polyu):
    """One header over degrees and the universities that gave them ("Schooling: PhD; Lund University"): the
    degrees are like the degrees sentences elsewhere say were obtained, the universities like the places
    they were obtained from — each item is read as its own kind, not the whole column as one."""
    said = [("PhD", "University of Bergen"), ("MSc", "University of Tromso"), ("BSc", "Aalto University"),
            ("MPhil", "Lund University"), ("PhD", "University of Oslo"), ("BEng", "Uppsala University")]
    pages = [(f"Dr {n} Okonkwo-Berg", f"Dr {n} Okonkwo-Berg works in the Department of Marine Cartography. "
                                      f"She obtained a {d} from {u}.")
             for n, (d, u) in zip(("Ada", "Bo", "Cy", "Di", "Ed", "Fay"), said)]
    column = [("PhD", "University of Bergen"), ("MSc", "Lund University"), ("BSc", "University of Oslo"),
              ("PhD", "Aalto University"), ("MPhil", "University of Tromso")]
    pages += [(f"Dr {n} Lindqvist", f"Dept: Department of Marine Cartography\nPosition: Lecturer\nSchooling: {d}; {u}")
              for n, (d, u) in zip(("Gus", "Hal", "Ivo", "Jo", "Kit"), column)]
    reader = PageReader(polyu.vocab, polyu.embedder, titles=["Department of Marine Cartography"])
    readings = reader.read_all(pages)
    assert "schooling" not in reader.label_means, reader.label_means
    for r, (degree, place) in zip(readings[6:], column):
        got = facts(r)
        assert got.get("obtained_degree") == [degree] and got.get("graduated_from") == [place], (r.entity, r.facts)


def test_a_column_most_of_whose_items_are_what_it_is_read_as_keeps_its_odd_ones(polyu):
    """A vague header read as positions ("Formation"), whose items other pages mostly say are positions,
    is a column of positions: the odd item that elsewhere is a research topic stays a position here — one
    column of one site states one thing — and is not read on its own."""
    ranks = ("Senior Lecturer", "Associate Professor", "Assistant Professor", "Senior Lecturer", "Associate Professor",
             "Assistant Professor")
    pages = [(f"Dr {n} Okonkwo-Berg", f"Dr {n} Okonkwo-Berg works in the Department of Marine Cartography. She "
                                      f"serves as {rank}. Research interests: tidal mapping; wave energy")
             for n, rank in zip(("Ada", "Bo", "Cy", "Di", "Ed", "Fay"), ranks)]
    column = [("Senior Lecturer", "Associate Professor"), ("Assistant Professor", "Senior Lecturer"),
              ("Associate Professor", "tidal mapping"), ("Senior Lecturer", "Assistant Professor"),
              ("Associate Professor", "Senior Lecturer")]
    pages += [(f"Dr {n} Lindqvist", f"Dept: Department of Marine Cartography\nResearch interests: coral reefs\n"
                                   f"Formation: {a}; {b}")
              for n, (a, b) in zip(("Gus", "Hal", "Ivo", "Jo", "Kit"), column)]
    reader = PageReader(polyu.vocab, polyu.embedder, titles=["Department of Marine Cartography"])
    readings = reader.read_all(pages)
    assert not any(label == "formation" for label, _ in reader.value_means), reader.value_means
    assert "tidal mapping" in facts(readings[8]).get("has_position", []), readings[8].facts


# ------------------------------------------------------------------ prose-first pages (issue 40)
def test_a_question_and_its_answer_on_one_line_are_a_field(museum):
    """An FAQ written question, then answer, on one line: the question is the label, the answer its value
    (without its article)."""
    text = "Which gallery shows it? The Gallery of Northern Light.\nWhat is it made of? Oil on canvas."
    got = facts(museum.read("Harbour at Dusk", text))
    assert got.get("displayed_in") == ["Gallery of Northern Light"] and got.get("medium") == ["Oil on canvas"]


def test_an_interview_in_the_first_person(polyu):
    """Q:/A: marks say who speaks; the answer is a sentence about the page's entity ("I")."""
    text = "Meet the team\n\nQ: What is your job here?\nA: I am a Senior Lecturer in the Department of Marine Cartography."
    got = facts(polyu.read("Dr Wen-Li Haraldsen", text))
    assert got.get("has_position") == ["Senior Lecturer"]
    assert got.get("works_for") == ["Department of Marine Cartography"]


def test_a_predicative_as_and_a_relational_noun_say_the_role(polyu):
    """"joined X as Y", "holds the post of Y at X": Y is what the entity is (its role), X where it works."""
    joined = facts(polyu.read("Dr Wen-Li Haraldsen", "Dr Wen-Li Haraldsen joined the Department of Marine "
                                                     "Cartography as Principal Lecturer. Her research covers tidal "
                                                     "mapping."))
    assert joined.get("has_position") == ["Principal Lecturer"]
    assert joined.get("works_for") == ["Department of Marine Cartography"]
    held = facts(polyu.read("Dr Wen-Li Haraldsen", "She holds the post of Chief Hydrographer at the Department "
                                                   "of Marine Cartography. Her research covers tidal mapping."))
    assert held.get("has_position") == ["Chief Hydrographer"]


def test_a_blank_line_ends_a_heading_and_a_run_in_heading_is_no_part_of_the_sentence(polyu):
    segments, sentences = polyu.segments("Dr Wen-Li Haraldsen", "About my work\n\nI teach in the Department of Marine "
                                                                "Cartography.\nResearch. My projects look at tidal mapping.")
    said = [(s.context, s.value) for s in segments]
    assert ("teach in", "Department of Marine Cartography") in said and ("projects look at", "tidal mapping") in said
    assert sentences[0] == "About my work."  # its own sentence: the heading does not run into the next one
    # "What is Dr." is no heading: the abbreviation belongs to the name after it
    segments, _ = polyu.segments("Dr. Wen-Li Haraldsen", "What is Dr. Wen-Li Haraldsen's role?\nPrincipal Lecturer")
    assert [(s.context, s.value) for s in segments] == [("What is role", "Principal Lecturer")]


def test_the_surname_alone_stands_for_a_person_named_without_a_class_word(polyu):
    text = "Colleagues met the survey team at the harbour open day.\n\nHaraldsen teaches in the Department of Marine Cartography."
    segments, _ = polyu.segments("Dr Wen-Li Haraldsen", text)
    assert [(s.context, s.value) for s in segments] == [("teaches in", "Department of Marine Cartography")]
    # a department's page: a word of its name alone is no stand-in for it
    segments, _ = polyu.segments("Department of Marine Cartography", "Cartography draws on the Faculty of Ocean Studies.")
    assert segments == []


def test_an_answer_listing_topics_is_a_list_though_a_participle_is_in_it(polyu):
    """A verbless answer ending in a full stop is a list of values; "charts made using altimetry" holds
    participles, not a clause's verb."""
    text = ("Q: What keeps you busy?\nA: Mostly tidal mapping, seabed sonar imaging, charts made using satellite "
            "altimetry and storm surge forecasting.")
    segments, _ = polyu.segments("Dr Wen-Li Haraldsen", text)
    assert [(s.kind, s.value) for s in segments] == [
        ("field", "tidal mapping, seabed sonar imaging, charts made using satellite altimetry and storm surge forecasting")]


def test_a_relation_said_with_a_preposition_of_topic_is_not_one_named_with_another(polyu):
    """"published on" names topics; a property named "published in" holds venues: the verb alone does not
    link them. "works in" and "works for" stay one relation."""
    got = facts(polyu.read("Dr Wen-Li Haraldsen", "Dr Wen-Li Haraldsen works in the Department of Marine "
                                                  "Cartography. She has published on tidal mapping and storm surge "
                                                  "forecasting."))
    assert got.get("works_for") == ["Department of Marine Cartography"]
    assert "has_published_in" not in got, got


def test_a_bio_in_prose_against_a_schema_with_ranks_as_classes(embedder):
    """The shipped academic schema makes ranks classes (Lecturer ⊑ … ⊑ staff): "X is a lecturer" says the
    entity's class and its position, not a thing it links to; "Her research interests are a and b" says
    what the noun of hers is; a property named for an e-mail address takes no "PhD"."""
    from conftest import ROOT

    reader = PageReader(Vocab.from_schema(Schema.load(ROOT / "ontology_schemas" / "academic.ttl")), embedder)
    r = reader.read("Dr Ines Marlow", "Dr Ines Marlow is a lecturer in the Department of Marine Cartography. Her "
                                      "research interests are tidal mapping and sonar imaging. She received her PhD "
                                      "from Aalto University in 2011.")
    got = facts(r)
    assert r.cls.endswith("/Lecturer"), r.cls
    assert got.get("has_position") == ["lecturer"] and got.get("works_for") == ["Department of Marine Cartography"]
    interests = " ; ".join(got.get("has_research_interest", []))
    assert "tidal mapping" in interests and "sonar imaging" in interests, got
    assert "has_email" not in got and "colleague_of" not in got, got


def test_a_line_that_opens_with_the_pages_own_code_is_no_field(polyu):
    """A catalogue entry on the page "Charting Reefs (MRN4410)": "MRN4410: …" names the page, it labels
    nothing — the sentences after it state the facts."""
    r = polyu.read("Charting Reefs (MRN4410)", "MRN4410: Charting Reefs. Taught within the Department of Marine "
                                               "Cartography. A level 3 subject worth 4 credits.")
    got = facts(r)
    assert got.get("offered_by") == ["Department of Marine Cartography"], got
    assert got.get("has_credit_value") == ["4"] and got.get("has_subject_level") == ["3"], got
