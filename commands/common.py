"""What every command module shares: consoles, argument types, opening a workspace, printing."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

out = Console()
err = Console(stderr=True)

WorkspaceArg = Annotated[Path, typer.Argument(help="workspace directory")]
WorkspaceOpt = Annotated[Path, typer.Option("--workspace", "-w", help="workspace directory (default: the "
                                            "current directory)")]
ReportDir = Annotated[Path, typer.Option("--out", help="report directory")]
DATA = Path("../shared/data")


def open_session(workspace: Path, *, create: bool = False):
    """A Session on the workspace (models load lazily, on first use)."""
    from pyramid.session import Session
    from pyramid.workspace import Workspace

    return Session(Workspace.open(workspace, create=create))


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False, default=str) + "\n")


def e(value: Any) -> str:
    """User data (names, relations, ids, paths) printed through rich: '[chunk c0]' is text, not markup."""
    return escape(str(value))


def read_lines(path: Path, what: str) -> list[str]:
    """The non-empty lines of a text file; one InputError naming the file when it cannot be read."""
    from pyramid.errors import InputError

    try:
        return [q.strip() for q in path.read_text(encoding="utf-8").splitlines() if q.strip()]
    except FileNotFoundError:
        raise InputError(f"{what}: file not found", path=path) from None
    except (OSError, UnicodeDecodeError) as problem:
        raise InputError(f"cannot read {what} ({problem})", path=path) from None


def split_list(value: str) -> list[str]:
    """'a, b,c' -> ['a', 'b', 'c']"""
    return [x.strip() for x in value.split(",") if x.strip()]


def command_group(app: typer.Typer, name: str, help: str) -> typer.Typer:
    """The `name` command group of `app`, created (with `help`) if nothing registered it yet."""
    for info in app.registered_groups:
        if info.name == name and info.typer_instance is not None:
            return info.typer_instance
    group = typer.Typer(help=help, no_args_is_help=True)
    app.add_typer(group, name=name)
    return group
