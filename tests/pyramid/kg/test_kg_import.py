"""`polyrag kg import`: JSON / JSONL / CSV triples, malformed rows with line numbers under
--on-error abort|skip, re-import replaces. No LLM; real MiniLM and LadybugDB."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from pyramid.errors import Hint, InputError
from pyramid.kg.importer import read_triples
from pyramid.kg.layer import KGLayer


def test_the_polyu_file_reads_with_its_four_empty_objects_reported(shared_data):
    read = read_triples(shared_data / "polyu" / "poly_kg.json")
    assert len(read.rows) + len(read.errors) == 27527
    assert [e.line for e in read.errors] == [21732, 30557, 50657, 83732]
    assert all("empty object" in e.message for e in read.errors)
    assert read.rows[0].triple.head == "Dr Margo Louise Turnbull" and read.rows[0].line == 2


def test_json_array_errors_carry_line_numbers(tmp_path):
    f = tmp_path / "t.json"
    f.write_text('[\n {"sub": "A", "rel": "r", "obj": "B"},\n {"sub": "A", "rel": "  ", "obj": "C"},\n'
                 ' {"head": "X", "relation": "r", "tail": [3]},\n "text"\n]\n')
    read = read_triples(f)
    assert len(read.rows) == 1
    assert [(e.line, e.message) for e in read.errors] == [
        (3, "field 'rel': empty relation"), (4, "field 'tail': expected a string, number or boolean, got an array"),
        (5, "expected an object with subject, relation and object, got str")]
    f.write_text('[\n {"sub": "A", "rel": "r", "obj": "B"},\n {"sub": "A" "rel": "r"}\n]')
    with pytest.raises(InputError, match=r"t\.json, line 3: not valid JSON"):
        read_triples(f)


@pytest.mark.parametrize("suffix", ["json", "jsonl"])
def test_json_numbers_and_booleans_read_as_their_text(tmp_path, suffix):
    recs = ['{"sub": "Ronaldo", "rel": "scored", "obj": 8, "properties": {"share": 0.25, "penalty": false}}',
            '{"sub": "Ligue 1", "rel": "has teams", "obj": 18.50}',
            '{"sub": 2002, "rel": "is a leap year", "obj": true, "confidence": 0.5}',
            '{"sub": "A", "rel": "r", "obj": null}',
            '{"sub": "A", "rel": {"text": "r"}, "obj": "B"}']
    f = tmp_path / f"t.{suffix}"
    f.write_text("\n".join(recs) + "\n" if suffix == "jsonl" else "[\n" + ",\n".join(recs) + "\n]\n")
    read = read_triples(f)
    got = [(r.triple.head, r.triple.relation, r.triple.tail) for r in read.rows]
    assert got == [("Ronaldo", "scored", "8"), ("Ligue 1", "has teams", "18.50"), ("2002", "is a leap year", "true")]
    assert read.rows[0].triple.properties == {"share": "0.25", "penalty": "false"}
    assert read.rows[2].triple.confidence == 0.5
    first = 1 if suffix == "jsonl" else 2
    assert [(e.line, e.message) for e in read.errors] == [
        (first + 3, "field 'obj': null or missing (a CSV row shorter than its header?)"),
        (first + 4, "field 'rel': expected a string, number or boolean, got an object")]


def test_jsonl_and_csv(tmp_path):
    j = tmp_path / "t.jsonl"
    j.write_text('{"subject": "A", "relation": "r", "object": "B", "properties": {"year": 2020}}\n{oops\n')
    read = read_triples(j)
    assert read.rows[0].triple.properties == {"year": "2020"} and read.errors[0].line == 2
    c = tmp_path / "t.csv"
    c.write_text('subject,relation,object,doc_id,confidence\nA,"likes, a lot",B,d1,0.5\nC,,D,d1,\nE,r,F,d2,high\n')
    read = read_triples(c)
    assert (read.rows[0].triple.relation, read.rows[0].doc_id, read.rows[0].triple.confidence) == \
        ("likes, a lot", "d1", 0.5)
    assert [(e.line, e.message) for e in read.errors] == [(3, "field 'relation': empty relation"),
                                                          (4, "field 'confidence': not a number ('high')")]


def test_import_aborts_or_skips_and_reimport_replaces(workspace, embedder, tmp_path):
    f = tmp_path / "kg.jsonl"
    rows = [{"sub": "Dr Wang Wenyi", "rel": "research interest includes", "obj": "drug delivery"},
            {"sub": "Wang Wenyi", "rel": "works at", "obj": "PolyU"},
            {"sub": "PolyU", "rel": "", "obj": "x"}]
    f.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    kg = KGLayer(workspace, embedder)
    with pytest.raises(InputError, match=r"kg\.jsonl: 1 malformed rows, nothing imported: line 3: field 'rel': "
                                         r"empty relation\. Fix them, or skip them") as exc:
        kg.import_file(f)
    assert exc.value.hint == Hint(param="on_error", values="skip")
    assert not kg.exists and not (kg.dir / "graph.lbug").exists()
    r = kg.import_file(f, on_error="skip")
    assert r.skipped == ["line 3: field 'rel': empty relation"]
    assert (r.totals["triples"], r.totals["entities"]) == (2, 3)   # "Dr Wang Wenyi" = "Wang Wenyi"
    assert r.loaded.resolution["exact_merges"] == 1
    f.write_text(json.dumps(rows[0]) + "\n")
    r = kg.import_file(f)
    assert r.totals["triples"] == 1 and len(kg.index) == 1


def test_cli_import_messages(workspace, tmp_path, capsys):
    f = tmp_path / "bad.csv"
    f.write_text("sub,rel,obj\nA,likes,B\nC,,D\n")
    code, out, err = run_cli(["kg", "import", workspace.root, f], capsys)
    assert code == 2 and "line 3: field 'rel': empty relation" in err and "Traceback" not in err
    assert "(pass --on-error skip)" in err                     # the hint, in the command line's words
    code, out, err = run_cli(["kg", "import", workspace.root, f, "--on-error", "skip"], capsys)
    assert code == 0 and "imported 1 triples" in out and "skipped 1 malformed rows" in out
    code, out, err = run_cli(["kg", "stats", workspace.root, "--json"], capsys)
    assert json.loads(out)["triples"] == 1


def test_stats_lists_likely_duplicates_but_not_differing_numbers_or_types(workspace, tmp_path, capsys):
    """Pairs MiniLM puts ≥ 0.85 apart but below the 0.92 merge threshold are listed (Real Madrid /
    Real Madrid CF: 0.90, Paris Saint-Germain / Paris Saint Germain FC: 0.89, measured); Ligue 1 /
    Ligue 2 (0.93) differ in a number and the two Parises in type, so neither is a likely duplicate."""
    rows = [("Karim Benzema", "played for", "Real Madrid", ""), ("Vinicius Junior", "plays for", "Real Madrid CF", ""),
            ("Kylian Mbappe", "played for", "Paris Saint-Germain", ""),
            ("Lionel Messi", "played for", "Paris Saint Germain FC", ""),
            ("Paris Saint-Germain", "won", "Ligue 1", ""), ("Le Havre", "won", "Ligue 2", ""),
            ("Paris", "is the capital of", "France", "PLACE"), ("Paris", "was a prince of", "Troy", "PERSON")]
    f = tmp_path / "kg.jsonl"
    f.write_text("".join(json.dumps({"sub": s, "rel": r, "obj": o, "subject_type": ty}) + "\n" for s, r, o, ty in rows))
    assert run_cli(["kg", "import", workspace.root, f], capsys)[0] == 0
    code, out, _ = run_cli(["kg", "stats", workspace.root, "--json"], capsys)
    stats = json.loads(out)
    assert code == 0 and stats["entities"] == 15                # nothing was merged at import
    assert {frozenset(p[:2]) for p in stats["likely_duplicates"]} == {
        frozenset({"Real Madrid", "Real Madrid CF"}), frozenset({"Paris Saint-Germain", "Paris Saint Germain FC"})}
    assert all(0.85 <= p[2] < 0.92 for p in stats["likely_duplicates"])
    code, out, _ = run_cli(["kg", "stats", workspace.root], capsys)
    assert code == 0 and "likely duplicate entities: " in out and "Real Madrid ~ Real Madrid CF" in out.replace("\n", " ")
