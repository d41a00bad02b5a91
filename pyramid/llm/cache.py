"""SQLite cache of LLM replies, keyed by everything that determines the reply."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from pyramid.llm.base import RawReply


def cache_key(provider: str, model: str, params: dict[str, Any], messages: list[dict[str, str]],
              schema: dict[str, Any] | None) -> str:
    """sha256 of a canonical JSON of provider, model, parameters, full prompt and schema."""
    blob = json.dumps({"provider": provider, "model": model, "params": params, "messages": messages,
                       "schema": schema}, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class LLMCache:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, model TEXT, text TEXT, "
                         "prompt_tokens INTEGER, completion_tokens INTEGER, created REAL DEFAULT (unixepoch()))")
        self._db.commit()

    def get(self, key: str) -> RawReply | None:
        with self._lock:
            row = self._db.execute("SELECT text, prompt_tokens, completion_tokens FROM replies WHERE key=?",
                                   (key,)).fetchone()
        return RawReply(*row) if row else None

    def put(self, key: str, model: str, reply: RawReply) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO replies (key, model, text, prompt_tokens, completion_tokens)"
                             " VALUES (?,?,?,?,?)", (key, model, reply.text, reply.prompt_tokens,
                                                     reply.completion_tokens))
            self._db.commit()

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM replies").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
