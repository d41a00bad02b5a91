"""A workspace: one directory holding one pyramid.

Layout::

    WS/polyrag.toml        settings (see pyramid.config)
    WS/manifest.json       versions, counts, build steps done, timings, LLM usage
    WS/.lock               write lock (flock) + who holds it
    WS/cache/              llm.sqlite, embeddings.sqlite
    WS/text/ kg/ ontology/ one directory per layer

Writers take the lock (`with ws.writing("index"):`); a second writer gets `WorkspaceLocked` naming
the holder. The lock is an OS-level flock, so a crashed writer never leaves a stale lock behind.
Every file is written to a temporary name in the same directory and renamed into place; layers
made of several files commit them together as a *generation* directory switched by one atomic
rename of a pointer file, so readers and crashes only ever see a whole generation.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import socket
import stat
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pyramid import __version__
from pyramid.config import SETTINGS_FILE, Settings, load_settings, render_default_toml
from pyramid.errors import Hint, WorkspaceError, WorkspaceLocked
from pyramid.usage import Usage

MANIFEST = "manifest.json"
LOCK = ".lock"
CURRENT = "CURRENT"


# ---------------------------------------------------------------- atomic files

def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to `path` via a temp file in the same directory, fsync, rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: Path, obj: Any) -> None:
    atomic_write_text(path, json.dumps(obj, indent=2, ensure_ascii=False, default=str) + "\n")


# ---------------------------------------------------------------- generations

class Generations:
    """Multi-file state of one layer, committed as a whole.

    `commit()` yields a fresh directory to fill; on success it becomes the current generation
    (pointer file renamed into place) and generations older than the previous one are removed.
    On an exception the new directory is deleted and the current generation is untouched.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def current(self) -> Path | None:
        pointer = self.root / CURRENT
        if not pointer.exists():
            return None
        gen = self.root / pointer.read_text().strip()
        if not gen.is_dir():
            raise WorkspaceError(f"{pointer} points to missing directory {gen.name}")
        return gen

    def _number(self, name: str) -> int:
        return int(name.split("-", 1)[1])

    @contextlib.contextmanager
    def commit(self) -> Iterator[Path]:
        self.root.mkdir(parents=True, exist_ok=True)
        existing = sorted((p for p in self.root.glob("gen-*") if p.is_dir()), key=lambda p: self._number(p.name))
        nxt = (self._number(existing[-1].name) + 1) if existing else 1
        tmp = Path(tempfile.mkdtemp(prefix=".gen-tmp-", dir=self.root))
        try:
            yield tmp
            final = self.root / f"gen-{nxt:06d}"
            os.replace(tmp, final)
            atomic_write_text(self.root / CURRENT, final.name + "\n")
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        keep = {final.name}
        if existing:
            keep.add(existing[-1].name)  # a reader may still be opening the previous one
        for old in self.root.glob("gen-*"):
            if old.name not in keep:
                shutil.rmtree(old, ignore_errors=True)


# ---------------------------------------------------------------- lock

@dataclass
class LockHolder:
    pid: int
    host: str
    command: str
    step: str
    since: str

    def describe(self) -> str:
        return f"pid {self.pid} on {self.host} ({self.step}: {self.command}) since {self.since}"


class WorkspaceLock:
    """Exclusive, non-blocking flock on WS/.lock; the file's content names the holder."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fh: Any = None

    def _open(self) -> Any:
        """The lock file, opened without following a link: the holder's note is written into it, so a
        `.lock` pointing elsewhere (symlink, hard link, FIFO) would empty or block the file it names."""
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        try:
            fd = os.open(self.path, flags, 0o644)
        except OSError as err:
            if self.path.is_symlink():
                raise WorkspaceError(f"{self.path} is a symbolic link; the write lock never follows one "
                                     "(remove it: it is recreated as a plain file)") from None
            raise WorkspaceError(f"cannot open the lock file {self.path} ({err.strerror})") from None
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
            os.close(fd)
            kind = "a hard link to another file" if stat.S_ISREG(st.st_mode) else "not a regular file"
            raise WorkspaceError(f"{self.path} is {kind}; the write lock needs its own plain file "
                                 "(remove it: it is recreated)")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "r+", encoding="utf-8")

    def acquire(self, step: str) -> None:
        fh = self._open()
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.seek(0)
            raw = fh.read()
            fh.close()
            try:
                holder = LockHolder(**json.loads(raw)).describe()
            except (ValueError, TypeError):
                holder = "another process (holder unknown)"
            raise WorkspaceLocked(f"workspace {self.path.parent} is being written by {holder}; "
                                  "wait for it to finish") from None
        info = LockHolder(pid=os.getpid(), host=socket.gethostname(), command=" ".join(sys.argv)[:200],
                          step=step, since=datetime.now(UTC).isoformat(timespec="seconds"))
        fh.seek(0)
        fh.truncate()
        fh.write(json.dumps(info.__dict__))
        fh.flush()
        self._fh = fh

    def release(self) -> None:
        if self._fh is not None:
            self._fh.seek(0)
            self._fh.truncate()
            fcntl.flock(self._fh.fileno(), fcntl.LOCK_UN)
            self._fh.close()
            self._fh = None


# ---------------------------------------------------------------- workspace

class Workspace:
    """Paths, settings, lock and manifest of one pyramid directory."""

    def __init__(self, root: Path | str, settings: Settings | None = None) -> None:
        self.root = Path(root)
        self._settings = settings
        self._lock = WorkspaceLock(self.root / LOCK)
        self._lock_depth = 0

    # -- creation / opening
    @classmethod
    def init(cls, root: Path | str) -> Workspace:
        """Create the directory (if needed) with a commented default `polyrag.toml`."""
        root = Path(root)
        if root.exists() and not root.is_dir():
            raise WorkspaceError(f"{root} exists and is not a directory")
        root.mkdir(parents=True, exist_ok=True)
        toml = root / SETTINGS_FILE
        if not toml.exists():
            atomic_write_text(toml, render_default_toml())
        ws = cls(root)
        if not (root / MANIFEST).exists():
            with ws.writing("init"):
                ws.save_manifest(ws.manifest())
        return ws

    @classmethod
    def open(cls, root: Path | str, *, create: bool = False, settings: Settings | None = None) -> Workspace:
        """Open an existing workspace; with `create`, make it first. Missing → clear error."""
        root = Path(root)
        if not (root / MANIFEST).exists() and not (root / SETTINGS_FILE).exists():
            if create:
                cls.init(root)
            elif not root.exists():
                raise WorkspaceError(f"workspace {root} does not exist",
                                     hint=Hint(action="init_workspace", target=str(root)))
            else:
                raise WorkspaceError(f"{root} is not a PolyRAG workspace (no {MANIFEST} or {SETTINGS_FILE})")
        return cls(root, settings)

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            self._settings = load_settings(self.root / SETTINGS_FILE)
        return self._settings

    def path(self, *parts: str) -> Path:
        return self.root.joinpath(*parts)

    def layer_dir(self, layer: str) -> Path:
        return self.root / layer

    def generations(self, layer: str) -> Generations:
        return Generations(self.layer_dir(layer))

    # -- lock
    @contextlib.contextmanager
    def writing(self, step: str) -> Iterator[Workspace]:
        """Hold the write lock for the block (re-entrant within one Workspace object)."""
        if self._lock_depth == 0:
            self.root.mkdir(parents=True, exist_ok=True)
            self._lock.acquire(step)
        self._lock_depth += 1
        try:
            yield self
        finally:
            self._lock_depth -= 1
            if self._lock_depth == 0:
                self._lock.release()

    def _require_lock(self) -> None:
        if self._lock_depth == 0:
            raise RuntimeError("workspace writes need `with workspace.writing(step):`")

    # -- manifest
    def manifest(self) -> dict[str, Any]:
        path = self.root / MANIFEST
        if path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except ValueError as err:
                raise WorkspaceError(f"{path}: not valid JSON ({err})") from None
        else:
            data = {}
        data.setdefault("format", 1)
        data.setdefault("created", datetime.now(UTC).isoformat(timespec="seconds"))
        data.setdefault("versions", {})
        data.setdefault("layers", {})
        data.setdefault("steps", {})
        return data

    def save_manifest(self, data: dict[str, Any]) -> None:
        self._require_lock()
        data["versions"]["polyrag"] = __version__
        data["updated"] = datetime.now(UTC).isoformat(timespec="seconds")
        atomic_write_json(self.root / MANIFEST, data)

    def record_step(self, step: str, *, seconds: float, usage: Usage | None = None,
                    counts: dict[str, Any] | None = None, layer: str | None = None,
                    versions: dict[str, str] | None = None, done: bool = True) -> None:
        """Note a finished build step (timing, LLM usage, counts) and a layer's counts in the manifest."""
        data = self.manifest()
        entry = data["steps"].get(step, {"runs": 0})
        entry.update(done=done, seconds=round(seconds, 3), runs=entry["runs"] + 1,
                     finished=datetime.now(UTC).isoformat(timespec="seconds"))
        if usage is not None:
            entry["usage"] = usage.to_dict()
        data["steps"][step] = entry
        if layer is not None and counts is not None:
            data["layers"][layer] = counts
        if versions:
            data["versions"].update(versions)
        self.save_manifest(data)


@contextlib.contextmanager
def timed() -> Iterator[dict[str, float]]:
    """`with timed() as t: ...; t["seconds"]`."""
    box = {"seconds": 0.0}
    start = time.perf_counter()
    try:
        yield box
    finally:
        box["seconds"] = time.perf_counter() - start
