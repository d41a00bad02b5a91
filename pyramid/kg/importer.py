"""Reading triple files for `polyrag kg import`: a JSON array, JSON Lines, or CSV.

Field names (first found wins): subject = subject|sub|head|s, relation = relation|rel|predicate|
p, object = object|obj|tail|o; optional subject_type, object_type, properties (an object; in CSV
a JSON text), doc_id (or source), chunk_id, confidence. A JSON number or boolean is read as its
JSON text (`{"obj": 5}` → "5", `1.50` → "1.50", `true` → "true"); null, objects and arrays in
subject/relation/object are malformed. Every row is checked before anything is
written; a malformed row is reported with its line number, and `on_error` decides: "abort"
(default: nothing is imported) or "skip" (the good rows are imported, the bad ones listed).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pyramid.corpus import MAX_JSON_DEPTH, _read_utf8, id_problem, json_too_deep, jsonl_lines
from pyramid.errors import Hint, InputError
from pyramid.kg.model import RawTriple

OnError = Literal["abort", "skip"]
ALIASES = {"subject": ("subject", "sub", "head", "s"), "relation": ("relation", "rel", "predicate", "p"),
           "object": ("object", "obj", "tail", "o")}
MAX_FIELD = 1000  # characters: longer "names" are text, not entities


@dataclass
class ImportRow:
    line: int
    triple: RawTriple
    doc_id: str | None = None
    chunk_id: str | None = None


@dataclass
class RowError:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class ImportRead:
    rows: list[ImportRow] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)


def _pick(rec: dict[str, Any], role: str) -> tuple[str | None, Any]:
    for name in ALIASES[role]:
        if name in rec:
            return name, rec[name]
    return None, None


# Numbers are kept as written (parse hooks), so "1.50" stays "1.50" and 10**30 stays exact.
_DECODER = json.JSONDecoder(parse_int=str, parse_float=str)
_JSON_KIND = {dict: "an object", list: "an array"}


def _scalar(value: Any) -> Any:
    """A JSON boolean as its JSON text; anything else unchanged (numbers arrive as text already)."""
    return ("true" if value else "false") if isinstance(value, bool) else value


def _row(rec: Any, line: int) -> ImportRow:
    """One record → ImportRow; ValueError with the reason when malformed."""
    if not isinstance(rec, dict):
        raise ValueError(f"expected an object with subject, relation and object, got {type(rec).__name__}")
    values = {}
    for role in ("subject", "relation", "object"):
        name, value = _pick(rec, role)
        if name is None:
            raise ValueError(f"no {role} field (looked for {', '.join(ALIASES[role])}; found "
                             f"{', '.join(rec) or 'nothing'})")
        if value is None:
            raise ValueError(f"field '{name}': null or missing (a CSV row shorter than its header?)")
        value = _scalar(value)
        if not isinstance(value, str):
            raise ValueError(f"field '{name}': expected a string, number or boolean, got "
                             f"{_JSON_KIND.get(type(value), type(value).__name__)}")
        value = " ".join(value.split())
        if not value:
            raise ValueError(f"field '{name}': empty {role}")
        if len(value) > MAX_FIELD:
            raise ValueError(f"field '{name}': {len(value)} characters (at most {MAX_FIELD})")
        values[role] = value
    props = rec.get("properties") or {}
    if isinstance(props, str):
        try:
            props = _DECODER.decode(props)
        except ValueError:
            raise ValueError("field 'properties': not a JSON object") from None
    if not isinstance(props, dict):
        raise ValueError("field 'properties': expected an object")
    confidence = rec.get("confidence", 1.0)
    try:
        confidence = float(confidence if confidence not in ("", None) else 1.0)
    except (TypeError, ValueError):
        raise ValueError(f"field 'confidence': not a number ({confidence!r})") from None
    doc = rec.get("doc_id") or rec.get("source")
    for name, value, what in (("doc_id" if rec.get("doc_id") else "source", doc, "document id"),
                              ("chunk_id", rec.get("chunk_id"), "chunk id")):
        problem = id_problem(str(value), what) if value else None
        if problem:  # a newline in an id breaks the graph store's CSV load
            raise ValueError(f"field '{name}': {problem}")
    return ImportRow(line, RawTriple(values["subject"], values["relation"], values["object"],
                                     str(rec.get("subject_type") or "").upper(),
                                     str(rec.get("object_type") or "").upper(),
                                     {str(k): str(_scalar(v)) for k, v in props.items()}, confidence=confidence),
                     str(doc) if doc else None, str(rec.get("chunk_id") or "") or None)


def _json_array(text: str) -> list[tuple[int, Any]]:
    """(line, element) for each element of a top-level JSON array, keeping line numbers."""
    dec = _DECODER
    i, n, out = 0, len(text), []
    line, counted = 1, 0

    def line_at(pos: int) -> int:
        nonlocal line, counted
        line += text.count("\n", counted, pos)
        counted = pos
        return line

    def skip_ws(pos: int) -> int:
        while pos < n and text[pos] in " \t\r\n":
            pos += 1
        return pos

    i = skip_ws(i)
    if i >= n or text[i] != "[":
        raise InputError("expected a JSON array of triples (or use .jsonl for one triple per line)", line=line_at(i))
    i = skip_ws(i + 1)
    if i < n and text[i] == "]":
        return out
    while True:
        try:
            obj, end = dec.raw_decode(text, i)
        except json.JSONDecodeError as err:
            raise InputError(f"not valid JSON ({err.msg})", line=line_at(err.pos)) from None
        out.append((line_at(i), obj))
        i = skip_ws(end)
        if i < n and text[i] == ",":
            i = skip_ws(i + 1)
        elif i < n and text[i] == "]":
            return out
        else:
            raise InputError("expected ',' or ']' after an element", line=line_at(i))


def read_triples(path: Path, fmt: str = "auto") -> ImportRead:
    """Every row of the file, good ones parsed and bad ones listed; raises InputError if unreadable."""
    path = Path(path)
    text = _read_utf8(path)
    if fmt == "auto":
        fmt = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}.get(path.suffix.lower(), "")
        if not fmt:
            raise InputError("cannot tell the format from the name", path=path,
                             hint=Hint(param="format", values="json|jsonl|csv"))
    out = ImportRead()
    records: list[tuple[int, Any]] = []
    if fmt == "json":
        if (deep := json_too_deep(text, MAX_JSON_DEPTH + 1)) is not None:  # + the array around the rows
            raise InputError(f"arrays or objects nested deeper than {MAX_JSON_DEPTH}", path=path,
                             line=text.count("\n", 0, deep) + 1)
        try:
            records = _json_array(text)
        except InputError as err:
            raise InputError(str(err).split(": ", 1)[-1], path=path, line=err.line) from None
    elif fmt == "jsonl":
        for lineno, line in jsonl_lines(text):  # "\n" only: U+2028 may sit in a JSON string
            if line.strip():
                if (deep := json_too_deep(line)) is not None:
                    out.errors.append(RowError(lineno, f"arrays or objects nested deeper than {MAX_JSON_DEPTH} "
                                                       f"(at column {deep + 1})"))
                    continue
                try:
                    records.append((lineno, _DECODER.decode(line)))
                except json.JSONDecodeError as err:
                    out.errors.append(RowError(lineno, f"not valid JSON ({err.msg} at column {err.colno})"))
    elif fmt == "csv":
        # strict: a quote left open would swallow the rest of the file into one cell
        reader = csv.DictReader(io.StringIO(text, newline=""), strict=True)
        try:
            if not reader.fieldnames:
                raise InputError("empty CSV file (a header row is needed)", path=path)
            for rec in reader:
                line = reader.line_num
                if None in rec:
                    out.errors.append(RowError(line, f"{len(reader.fieldnames) + len(rec[None])} cells, header "
                                                     f"has {len(reader.fieldnames)}"))
                    continue
                records.append((line, rec))
        except csv.Error as err:
            raise InputError(f"malformed CSV ({err})", path=path, line=max(reader.line_num, 1)) from None
    else:
        raise InputError(f"unknown format '{fmt}' (json, jsonl, csv)", path=path)
    for line, rec in records:
        try:
            out.rows.append(_row(rec, line))
        except ValueError as err:
            out.errors.append(RowError(line, str(err)))
    out.errors.sort(key=lambda e: e.line)
    return out


def check_errors(read: ImportRead, path: Path, on_error: OnError) -> None:
    """Abort (InputError naming the first bad lines) unless skipping was asked for."""
    if read.errors and on_error == "abort":
        shown = "; ".join(str(e) for e in read.errors[:5])
        more = f" (and {len(read.errors) - 5} more)" if len(read.errors) > 5 else ""
        raise InputError(f"{len(read.errors)} malformed rows, nothing imported: {shown}{more}. "
                         "Fix them, or skip them to import the other rows", path=path,
                         hint=Hint(param="on_error", values="skip"))
    if not read.rows:
        raise InputError("no triples found" + (f" ({len(read.errors)} malformed rows)" if read.errors else ""),
                         path=path)
