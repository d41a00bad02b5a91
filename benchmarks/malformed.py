"""Malformed inputs (issue 16, item 3): bad files generated for every command that reads one, each
run through the command line against a built workspace.

A case holds when the command exits non-zero with one `error:` line and no traceback, the message
names the file (and where in it, for a file whose content is at fault), and every byte of the
workspace is as it was. The generator is the same for the test (all kinds but the huge ones) and for
`polyrag bench reliability` (all kinds).

Bad-file kinds: missing, empty, binary, not UTF-8, truncated, a broken record, duplicate ids,
a directory or a symlink loop where a file belongs, an unreadable file (only where permissions are
enforced: not as root), and huge (one 24 MB line).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import random
import re
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Valid samples, one per input format: every bad file is one of these spoilt, or no file at all.
DOCS = [("river-1", "The Ouse floods the valley most winters; the town raised its banks in 1998."),
        ("river-2", "Salmon returned to the upper river after the weir was removed."),
        ("river-3", "The ferry across the estuary stopped running when the bridge opened.")]
SAMPLES: dict[str, str] = {
    "jsonl-docs": "".join(json.dumps({"id": i, "text": t}) + "\n" for i, t in DOCS),
    "csv-docs": "id,text\n" + "".join(f'{i},"{t}"\n' for i, t in DOCS),
    "jsonl-kg": "".join(json.dumps({"subject": s, "relation": r, "object": o}) + "\n" for s, r, o in
                        [("Ouse", "flows through", "York"), ("York", "lies in", "Yorkshire"),
                         ("Ouse", "joins", "Trent")]),
    "json-kg": json.dumps([{"subject": "Ouse", "relation": "flows through", "object": "York"},
                           {"subject": "York", "relation": "lies in", "object": "Yorkshire"}], indent=1) + "\n",
    "csv-kg": "subject,relation,object\nOuse,flows through,York\nYork,lies in,Yorkshire\n",
    "turtle": ("@prefix ex: <http://example.org/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
               "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
               "ex:River a owl:Class ; rdfs:label \"river\" .\n"
               "ex:Town a owl:Class ; rdfs:label \"town\" .\n"
               "ex:passes a owl:ObjectProperty ; rdfs:domain ex:River ; rdfs:range ex:Town .\n"
               "ex:ouse a ex:River ; rdfs:label \"Ouse\" ; ex:passes ex:york .\n"
               "ex:york a ex:Town ; rdfs:label \"York\" .\n"),
    "rdfxml": ('<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"\n'
               '  xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#" xmlns:ex="http://example.org/">\n'
               '  <rdf:Description rdf:about="http://example.org/ouse">\n'
               '    <rdfs:label>Ouse</rdfs:label>\n    <ex:passes rdf:resource="http://example.org/york"/>\n'
               '  </rdf:Description>\n</rdf:RDF>\n'),
    "jsonld": json.dumps({"@id": "http://example.org/ouse",
                          "http://www.w3.org/2000/01/rdf-schema#label": "Ouse",
                          "http://example.org/passes": {"@id": "http://example.org/york"}}, indent=1) + "\n",
    "ntriples": ('<http://example.org/ouse> <http://www.w3.org/2000/01/rdf-schema#label> "Ouse" .\n'
                 '<http://example.org/ouse> <http://example.org/passes> <http://example.org/york> .\n'),
    "query": "SELECT ?s WHERE {\n  ?s ?p ?o\n}\nLIMIT 3\n",
}
SUFFIX = {"jsonl-docs": ".jsonl", "csv-docs": ".csv", "jsonl-kg": ".jsonl", "json-kg": ".json", "csv-kg": ".csv",
          "turtle": ".ttl", "rdfxml": ".rdf", "jsonld": ".jsonld", "ntriples": ".nt", "query": ".rq"}

# (command, its arguments with {ws} and {file}, the formats it reads)
INPUTS: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = [
    ("index", ("index", "{ws}", "--docs", "{file}"), ("jsonl-docs", "csv-docs")),
    ("build --docs", ("build", "{ws}", "--docs", "{file}", "--layers", "text"), ("jsonl-docs",)),
    ("build --schema", ("build", "{ws}", "--docs", "{good}", "--schema", "{file}", "--layers", "text,ontology"),
     ("turtle",)),
    ("kg import", ("kg", "import", "{ws}", "{file}"), ("jsonl-kg", "json-kg", "csv-kg")),
    ("ontology import", ("ontology", "import", "{ws}", "{file}"), ("turtle", "rdfxml", "jsonld", "ntriples")),
    ("ontology load-schema", ("ontology", "load-schema", "{ws}", "{file}"), ("turtle", "rdfxml")),
    ("sparql @file", ("sparql", "{ws}", "@{file}"), ("query",)),
]


def _truncate(text: str) -> bytes:
    """Cut inside the second record (past the first line), where a reader can say the line."""
    data = text.encode()
    first = data.index(b"\n") + 1
    return data[:first + max(3, (len(data) - first) // 3)]


def _broken(fmt: str, text: str) -> bytes:
    """The second record (line 2 of the data) spoilt in the format's own way, the rest intact."""
    lines = text.splitlines(keepends=True)
    spoil = {"jsonl-docs": '{"id": "river-9", "text": \n', "jsonl-kg": '{"subject": "Ouse", "relation": }\n',
             "csv-docs": 'river-9,"an open quote\n', "csv-kg": 'Ouse,"flows\n',
             "json-kg": '  {"subject": "Ouse" "relation": "x"},\n', "turtle": "ex:tees a ex:River ; ;; rdfs:label .\n",
             "rdfxml": '  <rdf:Description rdf:about="http://example.org/tees">\n',
             "jsonld": ' "@id": http://example.org/tees,\n', "ntriples": "<http://example.org/tees> <p> .\n",
             "query": "  ?s ?p\n"}[fmt]
    at = {"turtle": 4, "rdfxml": 4, "query": 1}.get(fmt, 1)
    return "".join(lines[:at] + [spoil] + lines[at:]).encode()


def _not_utf8(text: str) -> bytes:
    lines = text.encode().split(b"\n")
    lines[1] = lines[1].replace(b"e", b"\xe9", 1) if b"e" in lines[1] else lines[1] + b"\xff"
    return b"\n".join(lines)


def _duplicate_ids(fmt: str, text: str) -> bytes | None:
    # CSV documents take their ids from row numbers unless --id-field names a column: no duplicates there
    if fmt == "jsonl-docs":
        return (text + json.dumps({"id": DOCS[0][0], "text": "A second text under the first id."}) + "\n").encode()
    return None


@dataclass(frozen=True)
class Case:
    command: str
    fmt: str
    kind: str
    args: tuple[str, ...]
    located: bool            # the message must say where in the file (line, or byte offset)
    make: Callable[[Path], None]

    @property
    def name(self) -> str:
        return f"{self.command} · {self.fmt} · {self.kind}"


def _writer(data: bytes) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(data)


def _loop(path: Path) -> None:
    other = path.with_name(path.name + ".other")
    os.symlink(other, path)
    os.symlink(path, other)


def _unreadable(text: str) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        path.write_text(text)
        path.chmod(0)
    return make


def _directory(path: Path) -> None:
    path.mkdir()
    (path / "inside.bin").write_bytes(b"\x00\x01\x02 not text \xff\xfe")


def generate(*, huge: bool = False, seed: int = 0) -> list[Case]:
    """Every bad file for every input: all kinds but the huge one unless `huge`."""
    rng = random.Random(seed)
    cases = []
    for command, args, formats in INPUTS:
        for fmt in formats:
            text = SAMPLES[fmt]
            kinds: list[tuple[str, Callable[[Path], None] | None, bool]] = [
                ("missing", None, False),
                ("empty", _writer(b""), False),
                ("binary", _writer(bytes(rng.randrange(256) for _ in range(4096)) + b"\x00" * 64), False),
                ("not UTF-8", _writer(_not_utf8(text)), True),
                ("truncated", _writer(_truncate(text)), fmt != "query"),
                ("broken record", _writer(_broken(fmt, text)), fmt != "query"),
                ("a directory", _directory, False),
                ("a symlink loop", _loop, False),
            ]
            dup = _duplicate_ids(fmt, text)
            if dup is not None:
                kinds.append(("duplicate ids", _writer(dup), True))
            if os.geteuid() != 0:  # root reads a mode-0 file anyway: the case cannot be made
                kinds.append(("unreadable", _unreadable(text), False))
            if huge:
                kinds.append(("huge", _writer(b"x" * (24 << 20)), False))
            for kind, make, located in kinds:
                cases.append(Case(command, fmt, kind, args, located, make or (lambda path: None)))
    return cases


def snapshot(root: Path) -> dict[str, str]:
    """Every file's hash, the lock and the caches aside (a cache may learn; it never decides)."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != ".lock" and "cache" not in p.parts}


def run_cli(args: list[str]) -> tuple[int, str, str]:
    """The `polyrag` entry point in this process: (exit code, stdout, stderr); an exception that
    escapes it is a traceback a user would have seen, returned as stderr with code None."""
    import traceback

    import cli

    old, out, err = sys.argv, io.StringIO(), io.StringIO()
    sys.argv = ["polyrag", *args]
    code: Any = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            cli.main()
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except Exception:  # noqa: BLE001 - the finding itself
        return None, out.getvalue(), err.getvalue() + traceback.format_exc()
    finally:
        sys.argv = old
    return code, out.getvalue(), err.getvalue()


def prepare(root: Path) -> Path:
    """A workspace with all three kinds of content the bad files could spoil: text, KG, ontology."""
    root.mkdir(parents=True, exist_ok=True)
    ws = root / "ws"
    good = {fmt: root / f"good-{fmt}{SUFFIX[fmt]}" for fmt in ("jsonl-docs", "jsonl-kg", "turtle")}
    for fmt, path in good.items():
        path.write_text(SAMPLES[fmt])
    for args in (["index", str(ws), "--docs", str(good["jsonl-docs"])],
                 ["kg", "import", str(ws), str(good["jsonl-kg"])],
                 ["ontology", "import", str(ws), str(good["turtle"])]):
        code, _, err = run_cli(args)
        if code != 0:
            raise RuntimeError(f"preparing the workspace failed: {' '.join(args)}: {err}")
    return ws


def verdict(case: Case, code: int | None, err: str, path: Path, changed: bool) -> str | None:
    """Why the case failed, or None when it held."""
    flat = " ".join(err.split())
    if code is None or "Traceback" in err:
        return "traceback: " + err.strip().splitlines()[-1][:160]
    if code == 0:
        return "accepted (exit 0)"
    errors = len(re.findall(r"(?m)^\s*error:", err))
    if errors != 1:
        return f"{errors} error lines: {flat[:160]}"
    if path.name not in flat:
        return f"the file is not named: {flat[:160]}"
    if case.located and not any(w in flat for w in ("line", "offset", "row")):
        return f"no line or offset: {flat[:160]}"
    if changed:
        return "the workspace changed"
    return None


def run_cases(cases: list[Case], scratch: Path, progress: Callable[[], None] | None = None) -> list[dict[str, Any]]:
    """Run each case against one prepared workspace; a case that changed it is reported and the
    workspace put back from a pristine copy, so the next case starts clean."""
    ws = prepare(scratch / "prepared")
    pristine = scratch / "pristine"
    shutil.copytree(ws, pristine, symlinks=True)
    good = scratch / "prepared" / "good-jsonl-docs.jsonl"
    rows = []
    for n, case in enumerate(cases):
        folder = scratch / f"case{n:04d}"
        folder.mkdir()
        path = folder / f"input{SUFFIX[case.fmt]}"
        case.make(path)
        before = snapshot(ws)
        args = [a.replace("{ws}", str(ws)).replace("{good}", str(good)).replace("{file}", str(path))
                for a in case.args]
        code, _, err = run_cli(args)
        changed = snapshot(ws) != before
        if changed:
            shutil.rmtree(ws)
            shutil.copytree(pristine, ws, symlinks=True)
        why = verdict(case, code, err, path, changed)
        rows.append({"command": case.command, "format": case.fmt, "kind": case.kind, "held": why is None,
                     "why": why, "message": " ".join(err.split())[:300]})
        if progress is not None:
            progress()
    return rows
