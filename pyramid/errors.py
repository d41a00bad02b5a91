"""One error hierarchy: the CLI prints `str(err)` for these and exits non-zero, no traceback."""

from __future__ import annotations

from pathlib import Path


class PolyragError(Exception):
    """An error a user can act on; its message names the problem (file, line, field)."""

    exit_code = 2


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
                 field: str | None = None) -> None:
        self.path, self.line, self.field = path, line, field
        where = ""
        if path is not None:
            where = str(path) + (f", line {line}" if line is not None else "")
            if field is not None:
                where += f", field '{field}'"
            where += ": "
        super().__init__(where + message)


class QueryRefused(PolyragError):
    """A query that could write, load or reach the network, refused before it runs."""
