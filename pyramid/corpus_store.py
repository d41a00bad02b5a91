"""The workspace's own copy of its documents (full text), the source every layer is built from.

`polyrag index` / `polyrag build` put documents here; the KG and ontology extractors read them back
(their own chunking, S=300/O=100 for KG extraction). One generation file, rewritten on change.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from pyramid.corpus import Document
from pyramid.errors import WorkspaceError
from pyramid.workspace import Part, Workspace

LAYER = "corpus"


@dataclass
class CorpusChange:
    added: list[str]
    changed: list[str]
    unchanged: list[str]
    removed: list[str]


class CorpusStore:
    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self._docs: dict[str, Document] | None = None

    def _load(self) -> dict[str, Document]:
        if self._docs is None:
            gen = self.ws.generations(LAYER).current()
            docs: dict[str, Document] = {}
            if gen is not None:
                try:
                    with open(gen / "documents.jsonl", encoding="utf-8") as fh:
                        for line in fh:
                            d = json.loads(line)
                            docs[d["id"]] = Document(d["id"], d["text"], d.get("metadata", {}))
                except (OSError, ValueError, KeyError) as err:
                    raise WorkspaceError(f"corpus in {gen} is unreadable ({err})") from None
            self._docs = docs
        return self._docs

    def parts(self) -> list[Part]:
        """What an update changes (pyramid.workspace.BuildJournal)."""
        return [Part(LAYER, "gens")]

    def documents(self) -> list[Document]:
        return list(self._load().values())

    def get(self, doc_id: str) -> Document | None:
        return self._load().get(doc_id)

    def __len__(self) -> int:
        return len(self._load())

    def diff(self, docs: list[Document], remove: list[str] | None = None) -> CorpusChange:
        """What `update(docs, remove)` would do, without doing it."""
        have = self._load()
        change = CorpusChange([], [], [], [])
        for d in docs:
            old = have.get(d.id)
            if old is None:
                change.added.append(d.id)
            elif old.content_hash != d.content_hash:
                change.changed.append(d.id)
            else:
                change.unchanged.append(d.id)
        for doc_id in remove or ():
            if doc_id not in have:
                raise WorkspaceError(f"cannot remove unknown document id: {doc_id}")
            change.removed.append(doc_id)
        return change

    def update(self, docs: list[Document], remove: list[str] | None = None) -> CorpusChange:
        """Add new, replace changed, drop `remove`; one atomic generation. Needs the workspace lock."""
        change = self.diff(docs, remove)
        if not (change.added or change.changed or change.removed):
            return change
        with self.ws.writing("corpus"):
            merged = {k: v for k, v in self._load().items() if k not in set(change.removed)}
            for d in docs:
                merged[d.id] = d
            with self.ws.generations(LAYER).commit() as gen:
                with open(gen / "documents.jsonl", "w", encoding="utf-8") as fh:
                    for d in merged.values():
                        fh.write(json.dumps({"id": d.id, "text": d.text, "metadata": d.metadata},
                                            ensure_ascii=False) + "\n")
            self._docs = merged
        return change
