"""The extraction journal and the one journalled chunk loop, shared by the KG's and the ontology's
chunk extractors, so a stopped build resumes.

One JSON line per finished chunk (`WS/kg/extract-<mode>.jsonl`, `WS/ontology/extract.jsonl`),
flushed and fsynced as it is written: {chunk_id, doc_id, hash, version, status: ok|failed, what was
extracted | error, usage}. The last line of a chunk wins. A chunk is skipped on resume when its last
entry is `ok` for the same text hash and extractor version (prompts, schemas, model); failed chunks
(e.g. a reply that failed its schema after the retries) are tried again. What a layer's entries hold
is the layer's (`record_ok` takes it as a dict); `run_chunks` runs any extractor over the chunks.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyramid.chunker import Chunk
from pyramid.corpus import Document
from pyramid.errors import WorkspaceError
from pyramid.llm import LLMError
from pyramid.progress import Progress
from pyramid.workspace import crash_point


def chunk_hash(chunk: Chunk) -> str:
    return hashlib.sha256(chunk.text.encode("utf-8")).hexdigest()[:16]


class ExtractionJournal:
    def __init__(self, path: Path, version: str = "") -> None:
        self.path, self.version = Path(path), version
        self.entries: dict[str, dict[str, Any]] = {}
        if self.path.exists():
            with open(self.path, encoding="utf-8") as fh:
                for lineno, line in enumerate(fh, 1):
                    if not line.strip():
                        continue
                    try:
                        e = json.loads(line)
                        self.entries[e["chunk_id"]] = e
                    except (ValueError, KeyError):
                        # a line cut by a crash mid-write is the last one: ignore it, else refuse
                        if fh.readline():
                            raise WorkspaceError(f"{self.path}, line {lineno}: unreadable journal entry; "
                                                 "delete the file to extract again") from None

    def done(self, chunk: Chunk) -> bool:
        e = self.entries.get(chunk.id)
        return (e is not None and e["status"] == "ok" and e["hash"] == chunk_hash(chunk)
                and e.get("version", "") == self.version)

    def failed(self) -> list[str]:
        return [cid for cid, e in self.entries.items() if e["status"] == "failed"]

    def _append(self, entry: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry, ensure_ascii=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        self.entries[entry["chunk_id"]] = entry
        crash_point("journal.appended")

    def record_ok(self, chunk: Chunk, extracted: dict[str, Any]) -> None:
        """`extracted`: what the chunk gave, as the layer writes it (chunk_id and doc_id included)."""
        self._append({**extracted, "hash": chunk_hash(chunk), "version": self.version, "status": "ok"})

    def record_failure(self, chunk: Chunk, error: str) -> None:
        self._append({"chunk_id": chunk.id, "doc_id": chunk.doc_id, "hash": chunk_hash(chunk),
                      "version": self.version, "status": "failed", "error": error[:500]})


@dataclass
class ChunkRun:
    """One journalled pass over the chunks of some documents (KG extraction and f_ins share it)."""

    extracted: int = 0                     # chunks extracted by this pass
    resumed: int = 0                       # chunks an earlier pass had done (journal)
    complete: list[tuple[Document, list[Chunk]]] = field(default_factory=list)  # every chunk done
    failed_chunks: list[str] = field(default_factory=list)
    pending_documents: int = 0             # held back until their failed chunks succeed


def run_chunks(docs: list[Document], chunks: list[Chunk], done: Callable[[Chunk], bool],
               extract: Callable[..., Any], record_ok: Callable[[Chunk, Any], None],
               record_failed: Callable[[Chunk, str], None], progress: Progress, description: str, *,
               concurrency: int = 1, settle: Callable[[Chunk, Any], Any] | None = None) -> ChunkRun:
    """Extract every chunk the journal has not done; an LLM error is journalled as a failure (the next
    run retries the chunk) and the pass goes on. A document is complete once all its chunks are done.

    With `concurrency` > 1, `extract` runs for that many chunks at once (threads: the model calls are
    what waits), while `settle` (work that shares state, such as linking names to instances) and the
    journal run here, one chunk at a time in chunk order, so the outcome is the sequential one."""
    run = ChunkRun()
    pending = [c for c in chunks if not done(c)]
    run.resumed = len(chunks) - len(pending)
    titles = {d.id: str(d.metadata.get("title", "")) for d in docs}  # names the main entity (grounded)
    task = progress.task(description, len(pending))

    def work(chunk: Chunk) -> tuple[Any, LLMError | None]:
        try:
            return extract(chunk, title=titles.get(chunk.doc_id, "")), None
        except LLMError as err:
            return None, err

    pool = ThreadPoolExecutor(max_workers=concurrency) if concurrency > 1 and len(pending) > 1 else None
    try:
        if pool is None:
            results: Iterator[tuple[Chunk, tuple[Any, LLMError | None]]] = ((c, work(c)) for c in pending)
        else:
            futures = [(c, pool.submit(work, c)) for c in pending]
            results = ((c, f.result()) for c, f in futures)
        for chunk, (value, error) in results:
            if error is None and settle is not None:
                try:
                    value = settle(chunk, value)
                except LLMError as err:
                    error = err
            if error is None:
                record_ok(chunk, value)
                run.extracted += 1
            else:
                record_failed(chunk, f"{type(error).__name__}: {error}")
            task.advance()
    finally:
        if pool is not None:  # stopped early (an error, Ctrl-C): calls not yet sent are not sent
            pool.shutdown(wait=False, cancel_futures=True)
    task.done()
    by_doc: dict[str, list[Chunk]] = {}
    for c in chunks:
        by_doc.setdefault(c.doc_id, []).append(c)
    for d in docs:
        cs = by_doc.get(d.id, [])
        if all(done(c) for c in cs):
            run.complete.append((d, cs))
        else:
            run.failed_chunks += [c.id for c in cs if not done(c)]
            run.pending_documents += 1
    return run
