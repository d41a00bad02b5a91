"""A SQLite file opened on first use: the caches (LLM replies, embeddings) share it.

Opening a workspace must not write to it (a refused command leaves every byte as it was), so the
file, its directory and its table are created only when something is first read or written.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pyramid.errors import WorkspaceError


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


log = logging.getLogger(__name__)
T = TypeVar("T")

# SQLite primary result codes that say the file is not the cache we wrote: SQLITE_ERROR from our own
# fixed statements (a table or column missing), SQLITE_CORRUPT, SQLITE_MISMATCH, SQLITE_NOTADB.
# Not SQLITE_BUSY (another process writes), SQLITE_READONLY or SQLITE_IOERR: setting aside cannot help.
BROKEN_CODES = frozenset({1, 11, 20, 26})
SIDECARS = ("", "-wal", "-shm")  # a stale WAL next to a new file must not be replayed into it


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
