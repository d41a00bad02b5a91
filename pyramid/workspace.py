"""A workspace: one directory holding one pyramid.

Layout::

    WS/polyrag.toml        settings (see pyramid.config)
    WS/manifest.json       versions, counts, build steps done, timings, LLM usage
    WS/.lock               write lock (flock) + who holds it
    WS/cache/              llm.sqlite, embeddings.sqlite
    WS/text/ kg/ ontology/ one directory per layer
    WS/.build/             while a build runs: its journal and the layers' state before it (BuildJournal)

Writers take the lock (`with ws.writing("index"):`); a second writer gets `WorkspaceLocked` naming
the holder. The lock is an OS-level flock, so a crashed writer never leaves a stale lock behind.
Every file is written to a temporary name in the same directory and renamed into place; layers
made of several files commit them together as a *generation* directory switched by one atomic
rename of a pointer file, so readers and crashes only ever see a whole generation. A command that
writes several layers (build, remove) commits them all or none through the build journal.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib
import json
import logging
import os
import shutil
import socket
import stat
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pyramid import __version__
from pyramid.config import SETTINGS_FILE, Settings, load_settings, process_environment, render_default_toml
from pyramid.errors import Hint, WorkspaceError, WorkspaceLocked
from pyramid.usage import Usage

log = logging.getLogger(__name__)
MANIFEST = "manifest.json"
LOCK = ".lock"
CURRENT = "CURRENT"
_passes: dict[str, int] = {}


def crash_point(name: str) -> None:
    """Test hook between two writes: with POLYRAG_TEST_KILL_AT=name[@n][:INT|:ERR] the process sends
    itself SIGKILL (or SIGINT, or raises OSError) the n-th time (default 1st) it passes `name`, so the
    crash-resume suite stops a build at named places instead of guessing times;
    POLYRAG_TEST_TRACE_POINTS=FILE appends each point passed to FILE (how the suite lists them).
    Both are read through pyramid.config.process_environment (some microseconds a pass)."""
    env = process_environment()
    if env.test_trace_points:
        with open(env.test_trace_points, "a", encoding="utf-8") as fh:
            fh.write(name + "\n")
    spec = env.test_kill_at
    if not spec:
        return
    target, _, sig = spec.partition(":")
    point, _, nth = target.partition("@")
    if point != name:
        return
    _passes[name] = _passes.get(name, 0) + 1
    if _passes[name] == int(nth or 1):
        import signal

        if sig.upper() == "ERR":
            raise OSError(f"injected fault at {name}")
        os.kill(os.getpid(), signal.SIGINT if sig.upper() == "INT" else signal.SIGKILL)


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

    def pointer(self) -> str | None:
        """The current generation's name as the pointer says (without checking it exists)."""
        pointer = self.root / CURRENT
        if not pointer.exists():
            return None
        return pointer.read_text().strip() or None

    @contextlib.contextmanager
    def commit(self) -> Iterator[Path]:
        self.root.mkdir(parents=True, exist_ok=True)
        for stale in self.root.glob(".gen-tmp-*"):  # a stopped writer's unfinished one (callers hold the lock)
            shutil.rmtree(stale, ignore_errors=True)
        before = self.pointer()
        existing = sorted((p for p in self.root.glob("gen-*") if p.is_dir()), key=lambda p: self._number(p.name))
        nxt = (self._number(existing[-1].name) + 1) if existing else 1
        tmp = Path(tempfile.mkdtemp(prefix=".gen-tmp-", dir=self.root))
        try:
            yield tmp
            fsync_tree(tmp)  # the files are on disk before the rename makes them a generation
            final = self.root / f"gen-{nxt:06d}"
            os.replace(tmp, final)
            crash_point("gen.renamed")
            atomic_write_text(self.root / CURRENT, final.name + "\n")
            crash_point("gen.switched")
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        # the one that was current stays, since a reader may still be opening it (after a rolled-back
        # build it is not the highest-numbered one)
        keep = {final.name, before}
        for old in self.root.glob("gen-*"):
            if old.name not in keep:
                shutil.rmtree(old, ignore_errors=True)


def fsync_tree(root: Path) -> None:
    """fsync every file under `root`, then the directories (files written with plain open/np.save)."""
    for dirpath, _, files in os.walk(root):
        for name in files:
            fd = os.open(os.path.join(dirpath, name), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        fsync_dir(Path(dirpath))


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# ---------------------------------------------------------------- build journal: every layer or none

JOURNAL_DIR = ".build"         # the running build's journal.json and its copies of the state before it (snap/)
_JOURNAL_TMP = ".build-tmp-"   # a journal still being written: no layer was touched yet
_JOURNAL_OLD = ".build-old-"   # a committed or rolled-back journal being deleted


@dataclass
class Part:
    """A piece of layer state a build may change, kept as it was until the build commits.

    gens: a `Generations` directory (the current generation is hard-linked: a generation never
    changes once committed); file: copied (state files, the Kùzu database); tree: a directory that
    `snapshot(dst)` copies (the Oxigraph store makes its own checkpoint); undo: state outside the
    workspace (a graph on a Neo4j server) that cannot be copied: before changing it, the layer writes
    what puts it back into `BuildJournal.undo_file(path)`, and a rollback calls `restore` (a
    "module:function" taking the workspace and that file; named, not passed, because the rollback
    may run in a later process)."""

    path: str                                          # relative to the workspace root; undo: a name
    kind: Literal["gens", "file", "tree", "undo"]
    snapshot: Callable[[Path], None] | None = None     # tree: writes the copy at dst (default: a plain copy)
    busy: Callable[[], bool] | None = None             # still open in this process: not to be swapped now
    restore: str | None = None                         # undo: "module:function(ws, undo_file)"


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:  # another file system
        shutil.copy2(src, dst)


UNDO_DIR = "undo"


class BuildJournal:
    """Makes a command that writes several layers (build, remove) all-or-none.

    `begin(parts)` copies every part as it is (hard links where files never change) into
    WS/.build/snap/ and then renames the finished journal into place; `commit()` renames it away (the
    commit point); `rollback()` puts every part back. A build stopped by SIGKILL leaves WS/.build
    behind: the next writer (any command taking the lock) rolls it back before it writes, so every
    layer is again as it was before that build. The expensive work survives a rollback: extraction
    journals, the embedding and model caches are outside the parts, so the rerun only rewrites.
    Each rollback step is idempotent (a copy is consumed by the rename that puts it back), so a stop
    during a rollback is finished by the next writer."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.dir = ws.root / JOURNAL_DIR
        self._parts: list[Part] = []

    @property
    def pending(self) -> bool:
        return (self.dir / "journal.json").is_file()

    def begin(self, step: str, parts: list[Part]) -> None:
        self.ws._require_lock()
        self.recover()
        tmp = Path(tempfile.mkdtemp(prefix=_JOURNAL_TMP, dir=self.ws.root))
        try:
            entries = [self._keep(part, tmp / "snap") for part in parts]
            atomic_write_json(tmp / "journal.json", {
                "step": step, "pid": os.getpid(), "command": " ".join(sys.argv)[:200],
                "started": datetime.now(UTC).isoformat(timespec="seconds"), "parts": entries})
            fsync_tree(tmp)
            os.replace(tmp, self.dir)
            fsync_dir(self.ws.root)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        self._parts = parts
        crash_point("journal.begun")

    def _keep(self, part: Part, snap: Path) -> dict[str, Any]:
        live, dst = self.ws.root / part.path, snap / part.path
        entry: dict[str, Any] = {"path": part.path, "kind": part.kind, "existed": False}
        if part.kind == "undo":
            entry["restore"] = part.restore
        elif part.kind == "gens":
            name = Generations(live).pointer()
            entry.update(existed=name is not None, gen=name)
            if name is not None:
                shutil.copytree(live / name, dst / name, copy_function=_link_or_copy)
        elif part.kind == "file":
            if live.is_file():
                entry["existed"] = True
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(live, dst)
        elif live.exists():
            entry["existed"] = True
            dst.parent.mkdir(parents=True, exist_ok=True)
            if part.snapshot is not None:
                part.snapshot(dst)
            else:
                shutil.copytree(live, dst)
        return entry

    def undo_file(self, name: str) -> Path | None:
        """Where an undo part named `name` writes what restores its outside state; None when no
        build journal is open (a command that writes outside a build has no rollback to prepare)."""
        if not self.pending:
            return None
        (self.dir / UNDO_DIR).mkdir(exist_ok=True)
        return self.dir / UNDO_DIR / name

    def commit(self) -> None:
        crash_point("journal.committing")
        self._retire()

    def rollback(self) -> dict[str, Any] | None:
        """Every part as it was when the build began; returns the journal (what was rolled back), or
        None without touching anything when a part is still open in this process (a store whose
        files would be swapped under it): the journal stays and the next writer rolls it back."""
        if any(p.busy is not None and p.busy() for p in self._parts):
            return None
        journal = json.loads((self.dir / "journal.json").read_text(encoding="utf-8"))
        snap, trash = self.dir / "snap", self.dir / "trash"
        for e in journal["parts"]:  # state outside the workspace first: its undo files live in the journal
            undo = self.dir / UNDO_DIR / e["path"]
            if e["kind"] == "undo" and undo.exists():
                module, _, name = e["restore"].partition(":")
                getattr(importlib.import_module(module), name)(self.ws, undo)
                undo.unlink()  # restored: a stop from here on does not restore it twice
                crash_point("journal.undone")
        for i, e in enumerate(journal["parts"]):
            live, dst = self.ws.root / e["path"], snap / e["path"]
            if e["kind"] == "undo":
                continue
            if e["kind"] == "gens":
                if e["existed"]:
                    gen = e["gen"]
                    if (dst / gen).is_dir() and not (live / gen).is_dir():
                        live.mkdir(parents=True, exist_ok=True)
                        os.replace(dst / gen, live / gen)
                    atomic_write_text(live / CURRENT, gen + "\n")
                else:
                    (live / CURRENT).unlink(missing_ok=True)  # the layer did not exist: it reads as absent
            elif e["kind"] == "file":
                if not e["existed"]:
                    live.unlink(missing_ok=True)
                elif dst.exists():  # gone: put back by an earlier, stopped rollback
                    os.replace(dst, live)
            elif not e["existed"]:
                shutil.rmtree(live, ignore_errors=True)
            elif dst.exists():
                if live.exists():
                    trash.mkdir(exist_ok=True)
                    os.replace(live, trash / f"{i}-{uuid.uuid4().hex[:8]}")
                os.replace(dst, live)
            crash_point("journal.rollback")
        self._retire()
        return journal

    def recover(self) -> dict[str, Any] | None:
        """Roll back a build that was stopped before it committed (its journal is still here) and
        delete leftovers of journals; returns the rolled-back journal, if any."""
        journal = self.rollback() if self.pending else None
        if self.dir.exists():  # not a journal (renamed in only when complete): a leftover
            shutil.rmtree(self.dir, ignore_errors=True)
        for leftover in [*self.ws.root.glob(_JOURNAL_TMP + "*"), *self.ws.root.glob(_JOURNAL_OLD + "*")]:
            shutil.rmtree(leftover, ignore_errors=True)
        return journal

    def _retire(self) -> None:
        old = self.ws.root / f"{_JOURNAL_OLD}{uuid.uuid4().hex[:8]}"
        os.replace(self.dir, old)
        fsync_dir(self.ws.root)
        crash_point("journal.retired")
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
        self.recovered: dict[str, Any] | None = None  # the stopped build rolled back when the lock was taken
        self.journal_open = False  # a build journal is open in this process (pyramid.build.all_or_none)

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
        ws = cls(root, settings)
        _ = ws.settings  # read now: a broken config is one error from every command, not only those that use it
        return ws

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
            if self._lock_depth == 1:
                self.recovered = None
                self._recover()
                self.manifest()  # a manifest that cannot be read is said now, before anything is written
            yield self
        finally:
            self._lock_depth -= 1
            if self._lock_depth == 0:
                self._lock.release()

    def _recover(self) -> None:
        """Before any write: a build stopped before it committed (killed, power cut) is rolled back,
        so no command ever works on top of a half-applied build."""
        if not any(name.startswith(JOURNAL_DIR) for name in os.listdir(self.root)):
            return
        journal = self.recovered = BuildJournal(self).recover()
        if journal is not None:
            reason = f"stopped before it finished (pid {journal['pid']})"
            self.note_build("rolled back", step=journal["step"], started=journal["started"], reason=reason)
            log.warning("warning: the %s started %s %s; every layer was put back as it was before it",
                        journal["step"], journal["started"], reason)

    def note_build(self, state: str, **fields: Any) -> None:
        """The manifest's "build" entry: running / done / rolled back, the layers it updated and
        those still behind (what a reader of a stopped build's workspace should know)."""
        data = self.manifest()
        data["build"] = {"state": state, **fields, "at": datetime.now(UTC).isoformat(timespec="seconds")}
        self.save_manifest(data)

    def _require_lock(self) -> None:
        if self._lock_depth == 0:
            raise RuntimeError("workspace writes need `with workspace.writing(step):`")

    # -- manifest
    def manifest(self) -> dict[str, Any]:
        path = self.root / MANIFEST
        if path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (ValueError, OSError) as err:
                raise WorkspaceError(f"{path}: not readable JSON ({err}); nothing was written. Restore it, or move "
                                     "it aside and the next write starts a new one") from None
            if not isinstance(data, dict):
                raise WorkspaceError(f"{path}: not a JSON object; nothing was written. Restore it, or move it "
                                     "aside and the next write starts a new one")
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
        crash_point("manifest.saved")

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
