"""SQLite cache of LLM replies, keyed by everything that determines the reply.

The cache files of a workspace (this one, the embedding cache) hold nothing that cannot be computed
again, so an unreadable one (not SQLite, corrupt pages, other tables or columns) never stops a
command: `DisposableSQLite` sets it aside as `<name>.corrupt-<timestamp>`, logs one warning (printed
on stderr when the caller configured no logging) and starts a new one.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pyramid.errors import WorkspaceError
from pyramid.llm.base import RawReply
from pyramid.sqlite import LazySQLite

log = logging.getLogger(__name__)
T = TypeVar("T")

# SQLite primary result codes that say the file is not the cache we wrote: SQLITE_ERROR from our own
# fixed statements (a table or column missing), SQLITE_CORRUPT, SQLITE_MISMATCH, SQLITE_NOTADB.
# Not SQLITE_BUSY (another process writes), SQLITE_READONLY or SQLITE_IOERR: setting aside cannot help.
BROKEN_CODES = frozenset({1, 11, 20, 26})
SIDECARS = ("", "-wal", "-shm")  # a stale WAL next to a new file must not be replayed into it


def cache_key(provider: str, model: str, params: dict[str, Any], messages: list[dict[str, str]],
              schema: dict[str, Any] | None) -> str:
    """sha256 of a canonical JSON of provider, model, parameters, full prompt and schema."""
    blob = json.dumps({"provider": provider, "model": model, "params": params, "messages": messages,
                       "schema": schema}, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _broken(err: sqlite3.Error) -> bool:
    code = getattr(err, "sqlite_errorcode", None)
    return isinstance(err, sqlite3.DatabaseError) and code is not None and code & 0xFF in BROKEN_CODES


class DisposableSQLite(LazySQLite):
    """A LazySQLite cache file replaced by a new one when it turns out unreadable, on opening or in
    use. `probe` is a statement that fails unless the expected table and columns are there; `what`
    names the cache in the warning ("LLM cache"). Callers run statements through `run`."""

    def __init__(self, path: Path, create_sql: str, *, probe: str, what: str) -> None:
        super().__init__(path, create_sql)
        self.probe = probe
        self.what = what
        self._inode: int | None = None  # of the file this connection opened: never set aside another's

    @property
    def db(self) -> sqlite3.Connection:
        if self._conn is None:
            try:
                self._conn = self._connect()
            except sqlite3.DatabaseError as err:
                self._recover(err)
                self._conn = self._retry(self._connect)
        return self._conn

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.exists() and not self.path.is_file():
            self._set_aside("not a regular file")  # a directory or socket where the file belongs
        try:
            self._inode = os.stat(self.path).st_ino if self.path.exists() else None
            conn = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
        except sqlite3.Error as err:  # SQLITE_CANTOPEN: permissions, a vanished directory
            raise WorkspaceError(f"cannot open the {self.what} {self.path} ({err})") from None
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(self.create_sql)
            conn.execute(self.probe).fetchall()
            conn.commit()
        except BaseException:
            conn.close()
            raise
        self._inode = os.stat(self.path).st_ino
        return conn

    def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """`fn(db)` under the lock; if the file proves unreadable, once more on a new file."""
        with self.lock:
            try:
                return fn(self.db)
            except sqlite3.DatabaseError as err:
                self._recover(err)
                return self._retry(lambda: fn(self.db))

    def _retry(self, call: Callable[[], T]) -> T:
        try:
            return call()
        except sqlite3.Error as err:  # a new file failing too is not the old file's fault: say so, once
            raise WorkspaceError(f"cannot use the {self.what} {self.path} ({err})") from None

    def _recover(self, err: sqlite3.DatabaseError) -> None:
        if not _broken(err):
            if isinstance(err, sqlite3.OperationalError):  # busy, read-only, I/O: one line, not a traceback
                raise WorkspaceError(f"cannot use the {self.what} {self.path} ({err})") from None
            raise err
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._set_aside(str(err))

    def _set_aside(self, why: str) -> None:
        try:
            current = os.stat(self.path).st_ino
        except FileNotFoundError:
            current = None
        if current is None or (self._inode is not None and current != self._inode):
            return  # another process already set it aside and started a new one
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while any(Path(f"{aside}{s}").exists() for s in SIDECARS):
            n += 1
            aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
        try:
            for suffix in SIDECARS:
                src = Path(f"{self.path}{suffix}")
                if src.exists() or src.is_symlink():
                    os.replace(src, f"{aside}{suffix}")
        except OSError as err:
            raise WorkspaceError(f"the {self.what} {self.path} is unreadable ({why}) and cannot be set aside "
                                 f"({err}); delete it: it is a cache, a new one is started") from None
        self._inode = None
        log.warning("warning: the %s %s was unreadable (%s); set aside as %s, starting a new one",
                    self.what, self.path, " ".join(why.split())[:200], aside.name)


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
