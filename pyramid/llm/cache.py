"""SQLite cache of LLM replies, keyed by everything that determines the reply.

The cache files of a workspace (this one, the embedding cache) hold nothing that cannot be computed
again, so an unreadable one (not SQLite, corrupt pages, other tables or columns) never stops a
command: `pyramid.sqlite.DisposableSQLite` sets it aside as `<name>.corrupt-<timestamp>`, logs one warning (printed
on stderr when the caller configured no logging) and starts a new one.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

from pyramid.llm.base import RawReply
from pyramid.sqlite import DisposableSQLite


def cache_key(provider: str, model: str, params: dict[str, Any], messages: list[dict[str, str]],
              schema: dict[str, Any] | None) -> str:
    """sha256 of a canonical JSON of provider, model, parameters, full prompt and schema."""
    blob = json.dumps({"provider": provider, "model": model, "params": params, "messages": messages,
                       "schema": schema}, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class LLMCache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._sql = DisposableSQLite(
            path, "CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, model TEXT, text TEXT, "
                  "prompt_tokens INTEGER, completion_tokens INTEGER, created REAL DEFAULT (unixepoch()))",
            probe="SELECT key, model, text, prompt_tokens, completion_tokens, created FROM replies LIMIT 0",
            what="LLM cache")

    def get(self, key: str) -> RawReply | None:
        row = self._sql.run(lambda db: db.execute(
            "SELECT text, prompt_tokens, completion_tokens FROM replies WHERE key=?", (key,)).fetchone())
        if not row or not isinstance(row[0], str):  # a row of another shape is a miss, not a crash later
            return None
        tokens = [v if isinstance(v, int) else 0 for v in row[1:]]
        return RawReply(row[0], *tokens)

    def put(self, key: str, model: str, reply: RawReply) -> None:
        def write(db: sqlite3.Connection) -> None:
            db.execute("INSERT OR REPLACE INTO replies (key, model, text, prompt_tokens, completion_tokens)"
                       " VALUES (?,?,?,?,?)", (key, model, reply.text, reply.prompt_tokens, reply.completion_tokens))
            db.commit()

        self._sql.run(write)

    def __len__(self) -> int:
        return self._sql.run(lambda db: db.execute("SELECT COUNT(*) FROM replies").fetchone()[0])

    def close(self) -> None:
        self._sql.close()
