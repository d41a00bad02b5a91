"""One error hierarchy: the command line prints these as one line and exits non-zero, no traceback.

The library words its errors for any caller (a program, the server, the command line): what is
wrong, never which flag or command to type. What the user can do about it travels as a `Hint` (an
action and/or a parameter by their library names); `str(err)` says it in library words, and the
command line renders it with its own (`polyrag index WS --docs PATH`, `--format`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# What each action means, said for a library caller; the command line has its own table.
ACTIONS = {
    "add_documents": "add documents first",
    "build_kg": "build or import the knowledge graph first",
    "sync_kg": "rebuild the triple index from the graph store",
    "migrate_kg": "convert the Kùzu graph to LadybugDB",
    "load_schema": "load a schema first",
    "reason": "recompute the inferred graph",
    "run_completion": "run completion first",
    "accept_proposal": "accept a proposal first",
    "init_workspace": "create the workspace, or add documents to it, first",
    "index_long_text": "put long texts into the corpus instead",
    "rebuild_kg": "build the knowledge graph again",
    "rerun_completion": "run completion again",
    "rename_proposal": "accept the proposal again under a new name",
    "fix_proposals": ("fix the edit, or delete the file to start over without its decisions (every completion "
                      "step, a new run included, refuses the file until then)"),
}


@dataclass(frozen=True)
class Hint:
    """What the user can do: `action` (a key of ACTIONS), `param` (a parameter by its library name,
    such as "format" or "id_field") with the `values` it takes, and the `target` (a workspace path)."""

    action: str | None = None
    param: str | None = None
    values: str | None = None
    target: str | None = None

    def __str__(self) -> str:
        parts = []
        if self.action:
            parts.append(ACTIONS.get(self.action, self.action.replace("_", " ")))
        if self.param:
            parts.append(f"set {self.param}" + (f" ({self.values})" if self.values else ""))
        return "; ".join(parts)


class PolyragError(Exception):
    """An error a user can act on; its message names the problem (file, line, field)."""

    exit_code = 2

    def __init__(self, message: str = "", *, hint: Hint | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message + (f" ({self.hint})" if self.hint else "")


class ConfigError(PolyragError):
    """Invalid settings (the TOML file or a POLYRAG_* variable)."""


class WorkspaceError(PolyragError):
    """A missing, empty or malformed workspace."""


class WorkspaceLocked(WorkspaceError):
    """Another process holds the workspace's write lock."""


class InputError(PolyragError):
    """Bad input data: a file that is missing, unreadable or malformed.

    `where` renders as `file:line` (or just `file`) in front of the message.
    """

    def __init__(self, message: str, *, path: str | Path | None = None, line: int | None = None,
                 field: str | None = None, hint: Hint | None = None) -> None:
        self.path, self.line, self.field, self.reason = path, line, field, message
        where = ""
        if path is not None:
            where = str(path) + (f", line {line}" if line is not None else "")
            if field is not None:
                where += f", field '{field}'"
            where += ": "
        super().__init__(where + message, hint=hint)

    def at(self, path: str | Path) -> InputError:
        """The same error said of another source (the file a query text was read from, say)."""
        return InputError(self.reason, path=path, line=self.line, field=self.field, hint=self.hint)


class QueryRefused(PolyragError):
    """A query that could write, load or reach the network, refused before it runs."""


class QueryTimeout(PolyragError):
    """A query ran longer than its time limit and was stopped."""


class StoreBusy(PolyragError):
    """Every query process was busy for longer than a query may wait for one (a 503 under serve)."""
