"""SQLite cache of LLM replies, keyed by everything that determines the reply."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pyramid.llm.base import RawReply
from pyramid.sqlite import LazySQLite


def cache_key(provider: str, model: str, params: dict[str, Any], messages: list[dict[str, str]],
              schema: dict[str, Any] | None) -> str:
    """sha256 of a canonical JSON of provider, model, parameters, full prompt and schema."""
    blob = json.dumps({"provider": provider, "model": model, "params": params, "messages": messages,
                       "schema": schema}, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class LLMCache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._sql = LazySQLite(path, "CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, model TEXT, "
                               "text TEXT, prompt_tokens INTEGER, completion_tokens INTEGER, "
                               "created REAL DEFAULT (unixepoch()))")

    def get(self, key: str) -> RawReply | None:
        with self._sql.lock:
            row = self._sql.db.execute("SELECT text, prompt_tokens, completion_tokens FROM replies WHERE key=?",
                                   (key,)).fetchone()
        return RawReply(*row) if row else None

    def put(self, key: str, model: str, reply: RawReply) -> None:
        with self._sql.lock:
            self._sql.db.execute("INSERT OR REPLACE INTO replies (key, model, text, prompt_tokens, completion_tokens)"
                             " VALUES (?,?,?,?,?)", (key, model, reply.text, reply.prompt_tokens,
                                                     reply.completion_tokens))
            self._sql.db.commit()

    def __len__(self) -> int:
        with self._sql.lock:
            return self._sql.db.execute("SELECT COUNT(*) FROM replies").fetchone()[0]

    def close(self) -> None:
        self._sql.close()
