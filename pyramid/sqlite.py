"""A SQLite file opened on first use: the caches (LLM replies, embeddings) share it.

Opening a workspace must not write to it (a refused command leaves every byte as it was), so the
file, its directory and its table are created only when something is first read or written.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path


class LazySQLite:
    def __init__(self, path: Path, create_sql: str) -> None:
        self.path = Path(path)
        self.create_sql = create_sql
        self.lock = threading.Lock()  # callers hold it around their statements
        self._conn: sqlite3.Connection | None = None

    @property
    def db(self) -> sqlite3.Connection:
        if self._conn is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(self.create_sql)
            conn.commit()
            self._conn = conn
        return self._conn

    def close(self) -> None:
        with self.lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
