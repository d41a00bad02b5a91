"""Saved web pages (pyramid.markup and the corpus loader): HTML turned into the lines the reader and
the text layer read. Pages written here; no model."""

from __future__ import annotations

import json

from pyramid.corpus import load_documents
from pyramid.markup import html_to_text, looks_like_html

PAGE = """<!DOCTYPE html>
<html><head><title>Lotte Brandvik | Staff | Harbour College</title>
<style>td { padding: 2px } /* <p>not text</p> */</style>
<script>document.write("<li>nor this</li>");</script></head>
<body><nav><a href="/">Home</a> &gt; <a href="/staff">Staff</a></nav>
<h1>Lotte Brandvik</h1>
<table>
  <tr><th>Rank</th><td>Senior Lecturer</td></tr>
  <tr><th>School</th><td><a href="/s/naval">School of Naval Design</a></td></tr>
</table>
<h2>Fields of study</h2>
<ul><li>hull form&nbsp;optimisation</li><li>sail plans &amp; rigging</li></ul>
<dl><dt>Room</dt><dd>B&nbsp;214</dd></dl>
<p>She came to the college in 2009.<br>She also coaches the rowing team.</p>
<table><thead><tr><th>Code</th><th>Course</th></tr></thead>
<tbody><tr><td>ND210</td><td>Small craft</td></tr></tbody></table>
</body></html>"""


def test_a_page_becomes_lines_as_a_reader_sees_them():
    assert looks_like_html(PAGE)
    text, title = html_to_text(PAGE)
    assert title == "Lotte Brandvik"  # the first heading; the head's title carries the site's name
    assert text.splitlines() == [
        "Home > Staff",
        "Lotte Brandvik",
        "| Rank | Senior Lecturer |",
        "| School | School of Naval Design |",
        "Fields of study",
        "- hull form optimisation",
        "- sail plans & rigging",
        "Room",
        "B 214",
        "She came to the college in 2009.",
        "She also coaches the rowing team.",
        "| Code | Course |",
        "|---|---|",  # a row of header cells is marked as the table's header
        "| ND210 | Small craft |",
    ]


def test_text_that_merely_mentions_a_tag_or_compares_is_not_html():
    assert not looks_like_html("Use <b> for bold. If a < b and b > c then a < c.")
    assert not looks_like_html("The ratio x<y holds; see section <3> of the report.")


def test_the_loader_reads_saved_pages_from_a_folder_and_from_jsonl(tmp_path):
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "brandvik.html").write_text(PAGE, encoding="utf-8")
    (folder / "notes.txt").write_text("Plain notes about <nothing> in particular.", encoding="utf-8")
    docs = {d.id: d for d in load_documents(folder).documents}
    assert set(docs) == {"brandvik.html", "notes.txt"}
    page = docs["brandvik.html"]
    assert page.metadata["title"] == "Lotte Brandvik"
    assert "| Rank | Senior Lecturer |" in page.text.splitlines() and "<" not in page.text
    assert docs["notes.txt"].text == "Plain notes about <nothing> in particular."
    # a JSONL record keeps the title it gives; an empty page (markup only) is skipped as empty
    rows = [{"id": "p1", "title": "Dr L. Brandvik", "text": PAGE},
            {"id": "p2", "text": "<html><body><div><p></p></div></body></html>"}]
    path = tmp_path / "pages.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    loaded = load_documents(path)
    assert [d.id for d in loaded.documents] == ["p1"] and loaded.skipped_empty == ["p2"]
    assert loaded.documents[0].metadata["title"] == "Dr L. Brandvik"
