"""Malformed inputs and bad arguments (issue 16): each one is one clear message naming the problem,
a non-zero exit, and a workspace left byte for byte as it was; valid but unusual input is read."""

from __future__ import annotations

import hashlib
import json
import os
import time

import pytest
from conftest import run_cli

from commands.common import read_lines
from pyramid.corpus import load_documents
from pyramid.errors import InputError, WorkspaceError
from pyramid.kg.importer import read_triples
from pyramid.ontology.rdfio import check_entities, read_rdf
from pyramid.types import check_question
from pyramid.workspace import Workspace

RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"


def snapshot(root):
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and "cache" not in p.parts and p.name != ".lock"}


def one_error(code, err, pattern=None):
    """Exit 2, exactly one `error:` line, no traceback; `pattern` found in the (unwrapped) message."""
    text = " ".join(err.split())
    assert code == 2, err
    assert "Traceback" not in err and err.count("error:") == 1, err
    if pattern is not None:
        assert pattern in text, text


# ------------------------------------------------------------------ 1. JSONL split on "\n" only

SEPARATORS = ["\u2028", "\u2029", "\u0085"]


def test_jsonl_keeps_line_separators_inside_strings(tmp_path):
    f = tmp_path / "seps.jsonl"
    # raw separators (ensure_ascii=False), a CRLF line and a blank line: all valid JSON Lines
    rows = [json.dumps({"id": f"d{i}", "text": f"before{sep}after"}, ensure_ascii=False)
            for i, sep in enumerate(SEPARATORS)]
    f.write_bytes(("\r\n".join(rows[:2]) + "\n\n" + rows[2] + "\n").encode("utf-8"))
    docs = load_documents(f).documents
    assert [(d.id, d.text) for d in docs] == [(f"d{i}", f"before{sep}after") for i, sep in enumerate(SEPARATORS)]


def test_jsonl_line_numbers_count_newlines_only(tmp_path):
    f = tmp_path / "bad.jsonl"
    f.write_text(json.dumps({"id": "a", "text": "x\u2028y\u0085z"}, ensure_ascii=False) + "\n\n"
                 + '{"id": "b", "text": oops}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.jsonl, line 3: not valid JSON"):
        load_documents(f)


def test_kg_import_jsonl_keeps_line_separators(tmp_path):
    f = tmp_path / "t.jsonl"
    f.write_text("\n".join(json.dumps({"subject": "Ada", "relation": "wrote", "object": f"Notes{sep}G"},
                                      ensure_ascii=False) for sep in SEPARATORS)
                 + '\n{"subject": "A", "relation": }\n', encoding="utf-8")
    read = read_triples(f)
    assert [r.line for r in read.rows] == [1, 2, 3] and [e.line for e in read.errors] == [4]


def test_question_files_are_split_on_newlines_only(tmp_path):
    f = tmp_path / "q.txt"
    f.write_text("Who wrote\u2028the notes?\r\n\nWhat is\u0085G?\n", encoding="utf-8")
    assert read_lines(f, "questions") == ["Who wrote\u2028the notes?", "What is\u0085G?"]
    g = tmp_path / "latin.txt"
    g.write_bytes(b"ok\ncaf\xe9?\n")
    with pytest.raises(InputError, match=r"questions file .*latin\.txt, line 2: not UTF-8"):
        read_lines(g, "questions")


def test_csv_keeps_a_line_separator_inside_a_cell(tmp_path):
    f = tmp_path / "c.csv"
    f.write_text("id,text\na,one\u2028two\nb,three\n", encoding="utf-8")
    assert [(d.id, d.text) for d in load_documents(f, id_field="id").documents] == \
        [("a", "one\u2028two"), ("b", "three")]


# ------------------------------------------------------------------ 2. CSV rows without their text

def test_csv_row_without_its_text_column_is_an_error_with_its_line(tmp_path):
    f = tmp_path / "short.csv"
    f.write_text('id,source,text\na,web,hello\nb,"x\ny","multi\nline"\nc,web\n', encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_documents(f, id_field="id")
    assert str(exc.value) == ("short.csv, line 6, field 'text': 2 values for 3 columns: no value for column 'text'"
                              .replace("short.csv", str(f)))


def test_csv_row_without_its_id_column_is_an_error(tmp_path):
    f = tmp_path / "noid.csv"
    f.write_text("text,id\nhello,a\nbye\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"noid\.csv, line 3, field 'id': 1 values for 2 columns: no value for "
                                         r"column 'id'"):
        load_documents(f, id_field="id")


def test_empty_csv_cells_are_skipped_with_their_lines(tmp_path):
    f = tmp_path / "c.csv"
    f.write_text('text,source\nfirst,a\n"",b\n\n  ,c\n', encoding="utf-8")
    res = load_documents(f)
    assert [d.id for d in res.documents] == ["c-1"]
    assert res.skipped_empty == ["c-2", "c-3"] and res.skipped_lines == [3, 5]
    assert res.describe_skipped() == "c-2 (line 3), c-3 (line 5)"


def test_index_names_the_short_row_and_the_skipped_lines(workspace, tmp_path, capsys):
    short = tmp_path / "short.csv"
    short.write_text("source,text\na,Green bonds fund climate projects.\nb\n", encoding="utf-8")
    before = snapshot(workspace.root)
    code, out, err = run_cli(["index", workspace.root, "--docs", short], capsys)
    one_error(code, err, f"{short}, line 3, field 'text': 1 values for 2 columns: no value for column 'text'")
    assert snapshot(workspace.root) == before
    empty = tmp_path / "empty.csv"
    empty.write_text('source,text\na,Green bonds fund climate projects.\nb,""\n', encoding="utf-8")
    code, out, err = run_cli(["index", workspace.root, "--docs", empty], capsys)
    assert code == 0, err
    assert "skipped 1 empty documents: empty-2 (line 3)" in err and "indexed 1 new" in out


# ------------------------------------------------------------------ 3. RDF/XML entity bombs

def rdfxml(doctype: str, value: str) -> bytes:
    return (f'<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [\n{doctype}\n]>\n'
            f'<rdf:RDF xmlns:rdf="{RDF_NS}" xmlns:ex="http://example.org/">\n'
            f'  <rdf:Description rdf:about="http://example.org/a"><ex:p>{value}</ex:p></rdf:Description>\n'
            '</rdf:RDF>\n').encode()


def laughs(levels: int = 9, width: int = 10, ref: str = "&{};") -> bytes:
    """A "billion laughs" file: entity l{n} is `width` copies of l{n-1}, so l8 expands to 10^9 'lol's."""
    decls = ['<!ENTITY l0 "lol">'] + [f'<!ENTITY l{i} "{ref.format(f"l{i - 1}") * width}">'
                                      for i in range(1, levels)]
    return rdfxml("\n".join(decls), f"&l{levels - 1};")


def test_entity_bomb_is_refused_before_any_parser_runs(tmp_path):
    path = tmp_path / "bomb.rdf"
    for data in (laughs(), laughs(ref="&#38;{};")):  # the second hides its references behind &#38;
        assert len(data) < 1500
        start = time.perf_counter()
        with pytest.raises(InputError, match=r"bomb\.rdf, line 3: invalid RDF/XML: its XML entities would "
                                             r"expand to more than 16 MB"):
            check_entities(data, path)
        assert time.perf_counter() - start < 1.0


@pytest.mark.parametrize("doctype, reason", [
    ('<!ENTITY a "&b;">\n<!ENTITY b "x&a;">', "entity 'a' refers to itself"),
    ('<!ENTITY ext SYSTEM "file:///etc/passwd">', "external entity 'ext' would read another file or URL"),
    ('<!ENTITY % p "x">', "parameter entity '%p' declared"),
])
def test_dangerous_entity_declarations_are_refused(tmp_path, doctype, reason):
    path = tmp_path / "e.rdf"
    path.write_bytes(rdfxml(doctype, "x"))
    with pytest.raises(InputError, match=reason):
        read_rdf(path)


def test_namespace_entities_as_protege_writes_them_still_load(tmp_path):
    path = tmp_path / "onto.owl"
    path.write_bytes(rdfxml('<!ENTITY ex "http://example.org/" >\n<!ENTITY lol "lol">', "&lol;&lol;")
                     .replace(b'rdf:about="http://example.org/a"', b'rdf:about="&ex;a"'))
    quads = read_rdf(path).quads
    assert [(q.subject.value, q.object.value) for q in quads] == [("http://example.org/a", "lollol")]


def test_ontology_import_of_a_bomb_is_one_error_and_changes_nothing(workspace, tmp_path, capsys):
    bomb = tmp_path / "laughs.rdf"
    bomb.write_bytes(laughs())
    with pytest.raises(InputError):  # the guard first, in process: never hand a bomb to the CLI unguarded
        check_entities(bomb.read_bytes(), bomb)
    before = snapshot(workspace.root)
    start = time.perf_counter()
    code, out, err = run_cli(["ontology", "import", workspace.root, bomb], capsys)
    one_error(code, err, f"{bomb}, line 3: invalid RDF/XML: its XML entities would expand")
    assert time.perf_counter() - start < 10
    assert snapshot(workspace.root) == before


# ------------------------------------------------------------------ 4. non-UTF-8 text on the command line

def test_lone_surrogate_in_a_question_is_one_error():
    with pytest.raises(InputError, match=r"not valid UTF-8 text \(byte 0xff at character 4\)"):
        check_question("caf\udcff?")  # how Python decodes the byte 0xff from argv
    with pytest.raises(InputError, match=r"lone surrogate U\+D800"):
        check_question("x\ud800")


@pytest.mark.parametrize("args", [
    ["search", "{ws}", "caf\udcff"],
    ["ask", "{ws}", "caf\udcff"],
    ["kg", "search", "{ws}", "caf\udcff"],
    ["sparql", "{ws}", 'SELECT * WHERE { ?s ?p "caf\udcff" }'],
])
def test_non_utf8_arguments_are_one_error(workspace, capsys, args):
    before = snapshot(workspace.root)
    code, out, err = run_cli([a.replace("{ws}", str(workspace.root)) for a in args], capsys)
    one_error(code, err, "is not valid UTF-8 text (byte 0xff at character")
    assert snapshot(workspace.root) == before


def test_query_file_that_is_not_utf8_is_one_error(workspace, tmp_path, capsys):
    q = tmp_path / "q.rq"
    q.write_bytes(b'SELECT * WHERE { ?s ?p "caf\xe9" }')
    code, out, err = run_cli(["sparql", workspace.root, f"@{q}"], capsys)
    one_error(code, err, "q.rq: the query file is not UTF-8 text (byte 0xe9 at offset 27)")


# ------------------------------------------------------------------ 5. counts and time limits

@pytest.mark.parametrize("args, option", [
    (["search", "{ws}", "q", "-k", "-3"], "-k"),
    (["search", "{ws}", "q", "-k", "0"], "-k"),
    (["ask", "{ws}", "q", "-k", "-1"], "-k"),
    (["kg", "search", "{ws}", "q", "-k", "-3"], "-k"),
    (["kg", "build", "{ws}", "--limit", "-1"], "--limit"),
    (["kg", "stats", "{ws}", "--top", "-2"], "--top"),
    (["ontology", "extract", "{ws}", "--limit", "-5"], "--limit"),
    (["sparql", "{ws}", "ASK {}", "--limit", "-1"], "--limit"),
    (["sparql", "{ws}", "ASK {}", "--timeout", "-1"], "--timeout"),
    (["sparql", "{ws}", "ASK {}", "--timeout", "nan"], "--timeout"),
    (["sparql", "{ws}", "ASK {}", "--timeout", "inf"], "--timeout"),
    (["sparql", "{ws}", "ASK {}", "--timeout", "0"], "--timeout"),
])
def test_negative_counts_and_bad_timeouts_are_refused(workspace, capsys, args, option):
    before = snapshot(workspace.root)
    code, out, err = run_cli([a.replace("{ws}", str(workspace.root)) for a in args], capsys)
    assert code == 2 and "Traceback" not in err
    assert f"Invalid value for '{option}'" in " ".join(err.split()), err
    assert snapshot(workspace.root) == before


# ------------------------------------------------------------------ 6. the lock never follows a link

def test_symlinked_lock_is_refused_and_its_target_untouched(workspace, tmp_path, capsys):
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    lock = workspace.root / ".lock"
    lock.unlink()
    lock.symlink_to(victim)
    with pytest.raises(WorkspaceError, match=r"\.lock is a symbolic link"):
        with Workspace(workspace.root).writing("test"):
            pass
    triples = tmp_path / "t.jsonl"
    triples.write_text(json.dumps({"subject": "Ada", "relation": "wrote", "object": "Notes"}) + "\n")
    before = snapshot(workspace.root)
    code, out, err = run_cli(["kg", "import", workspace.root, triples, "--resolve", "exact"], capsys)
    one_error(code, err, f"{lock} is a symbolic link")
    assert victim.read_text() == "keep me\n" and lock.is_symlink()
    assert snapshot(workspace.root) == before


def test_dangling_symlink_and_hard_link_locks_are_refused(workspace, tmp_path):
    lock = workspace.root / ".lock"
    lock.unlink()
    lock.symlink_to(tmp_path / "nowhere")
    with pytest.raises(WorkspaceError, match="is a symbolic link"):
        with Workspace(workspace.root).writing("test"):
            pass
    assert not (tmp_path / "nowhere").exists()
    lock.unlink()
    other = tmp_path / "other.txt"
    other.write_text("keep me too\n")
    os.link(other, lock)
    with pytest.raises(WorkspaceError, match="is a hard link to another file"):
        with Workspace(workspace.root).writing("test"):
            pass
    assert other.read_text() == "keep me too\n"


# ------------------------------------------------------------------ 7. document ids with control characters

@pytest.mark.parametrize("doc_id, shown", [("a\nb", r"'a\\nb'.*U\+000A"), ("tab\there", r"U\+0009"),
                                           ("nul\x00", r"U\+0000"), ("sep\u2028", r"U\+2028"),
                                           ("  ", "empty document id")])
def test_control_characters_in_document_ids_are_refused(tmp_path, doc_id, shown):
    f = tmp_path / "ids.jsonl"
    f.write_text(json.dumps({"id": "ok", "text": "fine"}) + "\n" + json.dumps({"id": doc_id, "text": "t"}) + "\n")
    with pytest.raises(InputError, match=rf"ids\.jsonl, line 2, field 'id': .*{shown}"):
        load_documents(f)


def test_control_characters_in_csv_ids_and_file_names_are_refused(tmp_path):
    f = tmp_path / "ids.csv"
    f.write_text('id,text\nok,fine\n"x\ny",t\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"ids\.csv, line 3, field 'id': document id 'x\\ny'"):
        load_documents(f, id_field="id")
    d = tmp_path / "pages"
    d.mkdir()
    (d / "bad\nname.txt").write_text("text")
    with pytest.raises(InputError, match=r"bad\nname\.txt: document id 'bad\\nname\.txt' contains a control"):
        load_documents(d)


def test_kg_import_refuses_a_doc_id_with_a_newline(tmp_path):
    f = tmp_path / "t.jsonl"
    f.write_text(json.dumps({"subject": "A", "relation": "r", "object": "B"}) + "\n"
                 + json.dumps({"subject": "A", "relation": "r", "object": "C", "doc_id": "x\ny"}) + "\n")
    read = read_triples(f)
    assert [r.line for r in read.rows] == [1]
    assert [str(e) for e in read.errors] == ["line 2: field 'doc_id': document id 'x\\ny' contains a control "
                                             "character (U+000A); ids must be one line of printable text"]


@pytest.mark.parametrize("command", [["index", "{ws}"], ["build", "{ws}", "--layers", "text,kg"]])
def test_a_bad_document_id_leaves_the_workspace_unchanged(workspace, tmp_path, capsys, command):
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"id": "good", "text": "Green bonds fund climate projects."}) + "\n"
                    + json.dumps({"id": "bad\nid", "text": "A mortgage is a loan."}) + "\n")
    before = snapshot(workspace.root)
    args = [a.replace("{ws}", str(workspace.root)) for a in command]
    code, out, err = run_cli([*args, "--docs", docs], capsys)
    one_error(code, err, f"{docs}, line 2, field 'id': document id 'bad\\nid' contains a control character")
    assert snapshot(workspace.root) == before


def test_an_rdf_file_with_one_huge_line_is_one_error(tmp_path):
    # the parser's buffer is bounded (16 MB): past it pyoxigraph raises MemoryError, which is the file's
    # fault, said as such
    path = tmp_path / "one-line.ttl"
    path.write_bytes(b"<http://example.org/a> <http://example.org/b> \"" + b"x" * (17 << 20) + b"\" .\n")
    with pytest.raises(InputError, match=r"one-line\.ttl: invalid Turtle: a single token or line is too long"):
        read_rdf(path)
