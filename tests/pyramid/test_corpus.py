"""Loaders: JSONL, CSV, directories; every malformed input names file, line and field."""

from __future__ import annotations

import json

import pytest

from pyramid.corpus import load_documents
from pyramid.errors import Hint, InputError


def write_jsonl(path, rows):
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_jsonl_keeps_other_fields_as_metadata(tmp_path):
    f = write_jsonl(tmp_path / "c.jsonl", [{"id": "a", "text": "alpha", "lang": "en"}, {"id": 7, "text": "beta"}])
    docs = load_documents(f).documents
    assert [d.id for d in docs] == ["a", "7"]
    assert docs[0].metadata == {"lang": "en"} and docs[1].metadata == {}


def test_jsonl_finds_common_id_fields_and_names_missing_ones(tmp_path):
    f = write_jsonl(tmp_path / "c.jsonl", [{"docid": "x1", "text": "t"}])
    assert load_documents(f).documents[0].id == "x1"
    g = write_jsonl(tmp_path / "d.jsonl", [{"text": "t", "name": "n"}])
    with pytest.raises(InputError, match=r"d\.jsonl, line 1: no id field .*found text, name"):
        load_documents(g)


def test_jsonl_bad_line_is_reported_with_its_number(tmp_path):
    f = write_jsonl(tmp_path / "c.jsonl", [{"id": "a", "text": "x"}, "", '{"id": "b", "text": oops}'])
    with pytest.raises(InputError, match=r"c\.jsonl, line 3: not valid JSON"):
        load_documents(f)


def test_jsonl_missing_or_wrong_text_field(tmp_path):
    f = write_jsonl(tmp_path / "c.jsonl", [{"id": "a", "body": "x"}])
    with pytest.raises(InputError, match=r"line 1, field 'text': missing"):
        load_documents(f)
    g = write_jsonl(tmp_path / "g.jsonl", [{"id": "a", "text": 5}])
    with pytest.raises(InputError, match=r"field 'text': expected a string, got int"):
        load_documents(g)


def test_duplicate_ids_name_both_lines(tmp_path):
    f = write_jsonl(tmp_path / "c.jsonl", [{"id": "a", "text": "x"}, {"id": "a", "text": "y"}])
    with pytest.raises(InputError, match=r"line 2: duplicate document id 'a' \(first on line 1\)"):
        load_documents(f)


def test_csv_named_text_column(tmp_path):
    f = tmp_path / "c.csv"
    f.write_text('text,source\n"Hello, world",web\nSecond,\n', encoding="utf-8")
    docs = load_documents(f).documents
    assert [(d.id, d.text, d.metadata) for d in docs] == [("c-1", "Hello, world", {"source": "web"}),
                                                          ("c-2", "Second", {"source": ""})]
    with pytest.raises(InputError, match=r"c\.csv, line 1: no column 'body' \(columns: text, source\)"):
        load_documents(f, text_field="body")


def test_csv_with_too_many_values_names_the_line(tmp_path):
    f = tmp_path / "c.csv"
    f.write_text("text,source\nok,a\nbad,b,extra\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"line 3: 3 values for 2 columns"):
        load_documents(f)


def test_not_utf8_names_the_line(tmp_path):
    f = tmp_path / "c.jsonl"
    f.write_bytes(b'{"id": "a", "text": "fine"}\n{"id": "b", "text": "caf\xe9"}\n')
    with pytest.raises(InputError, match=r"c\.jsonl, line 2: not UTF-8"):
        load_documents(f)


def test_missing_file_and_empty_corpus(tmp_path):
    with pytest.raises(InputError, match=r"nope\.jsonl: not found"):
        load_documents(tmp_path / "nope.jsonl")
    f = write_jsonl(tmp_path / "e.jsonl", [{"id": "a", "text": "   "}])
    with pytest.raises(InputError, match=r"no documents found \(1 empty ones skipped\)"):
        load_documents(f)


def test_empty_texts_are_skipped_and_reported(tmp_path):
    f = write_jsonl(tmp_path / "c.jsonl", [{"id": "a", "text": ""}, {"id": "b", "text": "x"}])
    res = load_documents(f)
    assert [d.id for d in res.documents] == ["b"] and res.skipped_empty == ["a"]


def test_oversized_document_is_refused(tmp_path):
    f = write_jsonl(tmp_path / "big.jsonl", [{"id": "huge", "text": "x" * (10 * 1024 * 1024)}])
    with pytest.raises(InputError, match=r"line 1: document 'huge' is 10\.0 MB, above the limit of 5 MB"):
        load_documents(f, max_document_mb=5)


def test_directory_of_text_files(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.txt").write_text("alpha", encoding="utf-8")
    (tmp_path / "sub" / "b.md").write_text("# beta", encoding="utf-8")
    (tmp_path / "skip.bin").write_bytes(b"\x00")
    docs = load_documents(tmp_path).documents
    assert [(d.id, d.text) for d in docs] == [("a.txt", "alpha"), ("sub/b.md", "# beta")]


def test_unknown_extension_asks_for_a_format(tmp_path):
    f = tmp_path / "c.data"
    f.write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match="cannot tell the format") as exc:
        load_documents(f)
    assert exc.value.hint == Hint(param="format", values="jsonl|csv|dir|text")
