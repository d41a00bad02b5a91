"""What every command module shares: consoles, argument types, opening a workspace, printing."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

out = Console()
err = Console(stderr=True)

WorkspaceArg = Annotated[Path, typer.Argument(help="workspace directory")]
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
    """The non-empty lines of a text file; one InputError naming the file (and line) when it cannot be read."""
    from pyramid.corpus import _read_utf8
    from pyramid.errors import InputError

    try:
        text = _read_utf8(Path(path))
    except InputError as problem:
        raise InputError(f"{what} file {problem.message}") from None  # its hint is about corpora
    # "\n" only: str.splitlines would cut a question at a U+2028 or U+0085 inside it
    return [q.strip() for q in text.split("\n") if q.strip()]


def positive_seconds(value: float | None) -> float | None:
    """Typer callback for a time limit: -1, 0, nan, inf and more than a week (config.MAX_SECONDS) are
    refused before anything runs."""
    from pyramid.config import MAX_SECONDS

    if value is not None and not (math.isfinite(value) and 0 < value <= MAX_SECONDS):
        raise typer.BadParameter(f"expected seconds > 0 and at most {MAX_SECONDS:g}, got {value:g}")
    return value


OutputOpt = Annotated[Path | None, typer.Option("--output", "-o", help="file to write (written whole or not at "
                                                 "all); default: standard output")]


def emit(data: bytes, output: Path | None) -> None:
    """`data` to `output` (a temporary file renamed into place) or to standard output."""
    if output is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    from pyramid.errors import InputError
    from pyramid.workspace import atomic_write_bytes

    try:
        atomic_write_bytes(Path(output), data)
    except OSError as problem:
        raise InputError(f"cannot write ({problem.strerror})", path=output) from None
    err.print(f"wrote {len(data):,} bytes to {escape(str(output))}")


def unit_interval(value: float | None) -> float | None:
    """Typer callback for a weight in [0, 1]: nan passes click's range check, so it is refused here."""
    if value is not None and not (math.isfinite(value) and 0 <= value <= 1):
        raise typer.BadParameter(f"expected a number from 0 to 1, got {value:g}")
    return value


def check_utf8(text: str, what: str) -> str:
    """`text` unchanged, or one InputError when it holds non-UTF-8 bytes from the command line (lone
    surrogates), which would otherwise fail deep inside, in a hash, a print or the query engine."""
    from pyramid.errors import InputError

    try:
        text.encode("utf-8")
    except UnicodeEncodeError as problem:
        code = ord(text[problem.start])
        bad = f"byte 0x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"lone surrogate U+{code:04X}"
        raise InputError(f"the {what} is not valid UTF-8 text ({bad} at character {problem.start + 1})") from None
    return text


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
