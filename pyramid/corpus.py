"""Documents and their loaders: JSONL, CSV, a directory of .txt/.md files, or one text file.

Every problem is an `InputError` naming the file, the line and the field, raised before anything
is written, so a bad corpus never leaves a workspace half-updated.
"""

from __future__ import annotations

import csv
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pyramid.errors import Hint, InputError

Format = Literal["auto", "jsonl", "csv", "dir", "text"]
ID_FIELDS = ("id", "docid", "doc_id", "_id")  # tried in order when no id field is named
TEXT_SUFFIXES = (".txt", ".md")


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
    skipped_empty: list[str] = field(default_factory=list)  # ids (or line refs) of empty texts


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
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        raise InputError(f"not UTF-8 text (byte 0x{raw[err.start]:02x} at offset {err.start}); "
                         "convert it with e.g. `iconv -t UTF-8`", path=path, line=line) from None


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

    def add(self, doc_id: str, text: str, metadata: dict[str, Any], line: int | None) -> None:
        if not text.strip():
            self.result.skipped_empty.append(doc_id)
            return
        if doc_id in self._seen:
            first = self._seen[doc_id]
            raise InputError(f"duplicate document id '{doc_id}'" + (f" (first on line {first})" if first else ""),
                             path=self.path, line=line)
        _check_size(text, self.max_mb, self.path, line, doc_id)
        self._seen[doc_id] = line
        self.result.documents.append(Document(doc_id, text, metadata))


def _load_jsonl(path: Path, c: _Collector, id_field: str | None, text_field: str) -> None:
    for lineno, line in enumerate(_read_utf8(path).splitlines(), start=1):
        if not line.strip():
            continue
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
        c.add(str(rec[idf]), text, meta, lineno)


def _load_csv(path: Path, c: _Collector, id_field: str | None, text_field: str) -> None:
    text = _read_utf8(path)
    dialect = "excel-tab" if path.suffix.lower() == ".tsv" else "excel"
    reader = csv.DictReader(text.splitlines(keepends=True), dialect=dialect)
    columns = reader.fieldnames or []
    if text_field not in columns:
        raise InputError(f"no column '{text_field}' (columns: {', '.join(columns) or 'none'})", path=path, line=1,
                         hint=Hint(param="text_field"))
    if id_field is not None and id_field not in columns:
        raise InputError(f"no id column '{id_field}' (columns: {', '.join(columns)})", path=path, line=1)
    row_no = 0
    try:
        for row in reader:
            row_no += 1
            if None in row:
                raise InputError(f"{len(columns) + len(row[None])} values for {len(columns)} columns",
                                 path=path, line=reader.line_num)
            doc_id = row[id_field] if id_field else f"{path.stem}-{row_no}"
            meta = {k: v for k, v in row.items() if k not in (id_field, text_field)}
            c.add(doc_id, row[text_field] or "", meta, reader.line_num)
    except csv.Error as err:
        raise InputError(f"malformed CSV ({err})", path=path, line=reader.line_num) from None


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
