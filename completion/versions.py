"""Schema versions: every apply writes the whole schema and a diff against the previous version.

WS/completion/history/
    v0000.nt            the schema before the first apply (the baseline)
    v0001.nt, v0001.diff  the schema after apply 1 and a unified diff of v0000 → v0001
    log.jsonl           one line per version: number, time, proposals applied, counts
Schemas are sorted N-Triples lines written by pyoxigraph (completion.target.nt_lines): every statement
of the schema, with its blank nodes (under their store labels, stable across versions), language tags
and datatypes, so a version file parses back to the same graph and a diff is exactly the statements
added or removed.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from pathlib import Path

from pyramid.workspace import atomic_write_text


@dataclass
class Version:
    number: int
    created: str
    proposals: list[str]
    added: int
    removed: int
    instances: int = 0

    @property
    def name(self) -> str:
        return f"v{self.number:04d}"


class SchemaHistory:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.log = self.root / "log.jsonl"

    def versions(self) -> list[Version]:
        if not self.log.exists():
            return []
        return [Version(**json.loads(line)) for line in self.log.read_text(encoding="utf-8").splitlines()
                if line.strip()]

    def current(self) -> int:
        vs = self.versions()
        return vs[-1].number if vs else 0

    def schema(self, number: int) -> list[str]:
        path = self.root / f"v{number:04d}.nt"
        return path.read_text(encoding="utf-8").splitlines() if path.exists() else []

    def diff(self, number: int) -> str:
        path = self.root / f"v{number:04d}.diff"
        return path.read_text(encoding="utf-8") if path.exists() else ""

    def record(self, before: list[str], after: list[str], *, created: str, proposals: list[str],
               instances: int) -> Version:
        """Write the next version (and the baseline first, on the first apply)."""
        number = self.current() + 1
        if number == 1 and not (self.root / "v0000.nt").exists():
            atomic_write_text(self.root / "v0000.nt", "\n".join(before) + "\n")
        diff = list(difflib.unified_diff(before, after, f"v{number - 1:04d}", f"v{number:04d}", lineterm="", n=0))
        added = sum(1 for d in diff if d.startswith("+") and not d.startswith("+++"))
        removed = sum(1 for d in diff if d.startswith("-") and not d.startswith("---"))
        version = Version(number, created, proposals, added, removed, instances)
        atomic_write_text(self.root / f"{version.name}.nt", "\n".join(after) + "\n")
        atomic_write_text(self.root / f"{version.name}.diff", "\n".join(diff) + "\n")
        lines = [json.dumps(v.__dict__) for v in [*self.versions(), version]]
        atomic_write_text(self.log, "\n".join(lines) + "\n")
        return version

    def drop_last(self) -> Version:
        """Forget the last version (an undone apply): its files are kept aside as `*.undone`."""
        versions = self.versions()
        last = versions[-1]
        for suffix in (".nt", ".diff"):
            path = self.root / f"{last.name}{suffix}"
            if path.exists():
                path.replace(path.with_name(f"{last.name}.undone{suffix}"))
        lines = [json.dumps(v.__dict__) for v in versions[:-1]]
        atomic_write_text(self.log, "\n".join(lines) + "\n" if lines else "")
        return last
