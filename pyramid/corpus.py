"""Documents and their loaders: JSONL, CSV, a directory of .txt/.md files, or one text file.

Every problem is an `InputError` naming the file, the line and the field, raised before anything
is written, so a bad corpus never leaves a workspace half-updated.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pyramid.errors import Hint, InputError
from pyramid.markup import html_to_text, looks_like_html

Format = Literal["auto", "jsonl", "csv", "dir", "text"]
ID_FIELDS = ("id", "docid", "doc_id", "_id")  # tried in order when no id field is named
TEXT_SUFFIXES = (".txt", ".md", ".html", ".htm")
# Control characters and line/paragraph separators: an id holding one breaks every line-based store
# and file the layers write (the KG step failed on a newline after the text layer was committed).
_BAD_ID_CHAR = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


@dataclass(frozen=True)
class Document:
    id: str
    text: str
    metadata: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @property
    def content_hash(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()[:16]


@dataclass
class LoadResult:
    documents: list[Document]
    skipped_empty: list[str] = field(default_factory=list)  # ids of empty texts
    skipped_lines: list[int | None] = field(default_factory=list)  # their lines (None: a whole file)

    def describe_skipped(self, limit: int = 5) -> str:
        """'a (line 3), b (line 7)' for the first `limit` skipped documents."""
        shown = [doc_id + (f" (line {line})" if line is not None else "")
                 for doc_id, line in zip(self.skipped_empty[:limit], self.skipped_lines[:limit], strict=False)]
        more = len(self.skipped_empty) - len(shown)
        return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _read_utf8(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError("file not found", path=path) from None
    except IsADirectoryError:
        raise InputError("is a directory", path=path, hint=Hint(param="format", values="dir")) from None
    except OSError as err:
        raise InputError(f"cannot read ({err.strerror})", path=path) from None
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")  # a BOM is not part of the first field
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        raise InputError(f"not UTF-8 text (byte 0x{raw[err.start]:02x} at offset {err.start}); "
                         "convert it with e.g. `iconv -t UTF-8`", path=path, line=line) from None


def jsonl_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) of a JSON Lines text. Split on "\n" only: str.splitlines also breaks at
    U+2028, U+2029 and U+0085, which JSON allows raw inside strings."""
    for lineno, line in enumerate(text.split("\n"), start=1):
        yield lineno, line.removesuffix("\r")


# arrays and objects inside one another in one record: documents and triples need two or three; the
# parser's own recursion fails at a few thousand (RecursionError, a traceback), so it is checked first
MAX_JSON_DEPTH = 32
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def json_too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> int | None:
    """The offset at which a JSON text nests arrays and objects deeper than `limit`, or None."""
    if text.count("[") + text.count("{") <= limit:
        return None
    depth = 0
    for m in _JSON_TOKEN.finditer(text):
        tok = m.group()
        if tok in "[{":
            depth += 1
            if depth > limit:
                return m.start()
        elif tok in "]}":
            depth -= 1
    return None


def id_problem(doc_id: str, what: str = "document id") -> str | None:
    """Why `doc_id` cannot be an id (empty, or a control character such as a newline), or None."""
    if not doc_id.strip():
        return f"empty {what}"
    bad = _BAD_ID_CHAR.search(doc_id)
    if bad:
        return (f"{what} {doc_id!r} contains a control character (U+{ord(bad.group()):04X}); "
                "ids must be one line of printable text")
    return None


def check_doc_id(doc_id: str, path: Path, line: int | None, field: str | None = None) -> None:
    problem = id_problem(doc_id)
    if problem:
        raise InputError(problem, path=path, line=line, field=field)


def _check_size(doc_text: str, limit_mb: float, path: Path, line: int | None, doc_id: str) -> None:
    size = len(doc_text.encode("utf-8"))
    if size > limit_mb * 1024 * 1024:
        raise InputError(f"document '{doc_id}' is {size / 1024 / 1024:.1f} MB, above the limit of {limit_mb:g} MB "
                         "(corpus.max_document_mb); split it into smaller documents or raise the limit",
                         path=path, line=line)


def detect_format(path: Path) -> Format:
    if path.is_dir():
        return "dir"
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        return "jsonl"
    if suffix in (".csv", ".tsv"):
        return "csv"
    if suffix in TEXT_SUFFIXES:
        return "text"
    raise InputError("cannot tell the format from the name", path=path,
                     hint=Hint(param="format", values="jsonl|csv|dir|text"))


class _Collector:
    """Gathers documents, refusing duplicate ids and oversized texts, skipping empty ones."""

    def __init__(self, path: Path, max_mb: float) -> None:
        self.path, self.max_mb = path, max_mb
        self.result = LoadResult([])
        self._seen: dict[str, int | None] = {}

    def add(self, doc_id: str, text: str, metadata: dict[str, Any], line: int | None,
            id_field: str | None = None) -> None:
        check_doc_id(doc_id, self.path, line, id_field)
        if looks_like_html(text):  # a saved web page: its text, laid out line by line (pyramid.markup)
            text, title = html_to_text(text)
            if title and not metadata.get("title"):
                metadata = {**metadata, "title": title}
        if not text.strip():
            self.result.skipped_empty.append(doc_id)
            self.result.skipped_lines.append(line)
            return
        if doc_id in self._seen:
            first = self._seen[doc_id]
            raise InputError(f"duplicate document id '{doc_id}'" + (f" (first on line {first})" if first else ""),
                             path=self.path, line=line)
        _check_size(text, self.max_mb, self.path, line, doc_id)
        self._seen[doc_id] = line
        self.result.documents.append(Document(doc_id, text, metadata))


def _load_jsonl(path: Path, c: _Collector, id_field: str | None, text_field: str) -> None:
    for lineno, line in jsonl_lines(_read_utf8(path)):
        if not line.strip():
            continue
        if (deep := json_too_deep(line)) is not None:
            raise InputError(f"arrays or objects nested deeper than {MAX_JSON_DEPTH} (at column {deep + 1})",
                             path=path, line=lineno)
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as err:
            raise InputError(f"not valid JSON ({err.msg} at column {err.colno})", path=path, line=lineno) from None
        if not isinstance(rec, dict):
            raise InputError("expected a JSON object", path=path, line=lineno)
        idf = id_field or next((f for f in ID_FIELDS if f in rec), None)
        if idf is None or idf not in rec:
            raise InputError(f"no id field (looked for {id_field or ', '.join(ID_FIELDS)}; found "
                             f"{', '.join(rec) or 'nothing'})", path=path, line=lineno,
                             hint=Hint(param="id_field"))
        if text_field not in rec:
            raise InputError(f"missing (found {', '.join(rec) or 'nothing'})", path=path, line=lineno,
                             field=text_field, hint=Hint(param="text_field"))
        text = rec[text_field]
        if not isinstance(text, str):
            raise InputError(f"expected a string, got {type(text).__name__}", path=path, line=lineno,
                             field=text_field)
        meta = {k: v for k, v in rec.items() if k not in (idf, text_field)}
        c.add(str(rec[idf]), text, meta, lineno, idf)


def _load_csv(path: Path, c: _Collector, id_field: str | None, text_field: str) -> None:
    dialect = "excel-tab" if path.suffix.lower() == ".tsv" else "excel"
    # newline="" leaves line breaks inside quoted cells to the csv module (and U+2028 inside a cell alone)
    # strict: a quote left open swallows the rest of the file into one cell; refuse it, do not index it
    reader = csv.reader(io.StringIO(_read_utf8(path), newline=""), dialect=dialect, strict=True)
    end = 0  # the last line of the previous record: a record starts on the next one

    def records() -> Iterator[tuple[int, list[str]]]:
        nonlocal end
        try:
            for values in reader:
                start, end = end + 1, reader.line_num
                yield start, values
        except csv.Error as err:
            raise InputError(f"malformed CSV ({err})", path=path, line=end + 1) from None

    rows = records()
    columns = next((values for _, values in rows if values), [])
    if text_field not in columns:
        raise InputError(f"no column '{text_field}' (columns: {', '.join(columns) or 'none'})", path=path, line=1,
                         hint=Hint(param="text_field"))
    if id_field is not None and id_field not in columns:
        raise InputError(f"no id column '{id_field}' (columns: {', '.join(columns)})", path=path, line=1)
    row_no = 0
    for line, values in rows:
        if not values:
            continue  # a blank line
        row_no += 1
        if len(values) > len(columns):
            raise InputError(f"{len(values)} values for {len(columns)} columns", path=path, line=line)
        row = dict(zip(columns, values, strict=False))
        for needed in (text_field, id_field):
            if needed is not None and needed not in row:  # a short row: not an empty text, a broken one
                raise InputError(f"{len(values)} values for {len(columns)} columns: no value for column "
                                 f"'{needed}'", path=path, line=line, field=needed)
        doc_id = row[id_field] if id_field else f"{path.stem}-{row_no}"
        meta = {k: row.get(k) for k in columns if k not in (id_field, text_field)}
        c.add(doc_id, row[text_field], meta, line, id_field)


def _load_text_file(path: Path, c: _Collector, doc_id: str) -> None:
    c.add(doc_id, _read_utf8(path), {"file": str(path)}, None)


def load_documents(path: str | Path, *, fmt: Format = "auto", id_field: str | None = None,
                   text_field: str = "text", max_document_mb: float = 5.0) -> LoadResult:
    """Documents from `path`; raises InputError on anything malformed and on an empty corpus."""
    path = Path(path)
    if not path.exists():
        raise InputError("not found", path=path)
    fmt = detect_format(path) if fmt == "auto" else fmt
    c = _Collector(path, max_document_mb)
    if fmt == "jsonl":
        _load_jsonl(path, c, id_field, text_field)
    elif fmt == "csv":
        _load_csv(path, c, id_field, text_field)
    elif fmt == "text":
        _load_text_file(path, c, path.stem)
    elif fmt == "dir":
        if not path.is_dir():
            raise InputError("not a directory", path=path)
        for file in sorted(p for p in path.rglob("*") if p.suffix.lower() in TEXT_SUFFIXES and p.is_file()):
            c.path = file
            _load_text_file(file, c, file.relative_to(path).as_posix())
        c.path = path
    else:
        raise InputError(f"unknown format '{fmt}' (jsonl, csv, dir, text)", path=path)
    if not c.result.documents:
        extra = f" ({len(c.result.skipped_empty)} empty ones skipped)" if c.result.skipped_empty else ""
        raise InputError(f"no documents found{extra}", path=path)
    return c.result
