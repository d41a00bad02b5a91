"""Benchmark reports: one JSON (everything) and one markdown (the tables) per run."""

from __future__ import annotations

import json
import platform
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pyramid import __version__
from pyramid.workspace import atomic_write_text


def machine() -> dict[str, Any]:
    import os

    return {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform(),
            "polyrag": __version__, "date": datetime.now(UTC).isoformat(timespec="seconds")}


def md_table(headers: list[str], rows: list[list[Any]]) -> str:
    def cell(v: Any) -> str:
        if isinstance(v, float):
            return f"{v:.3f}" if abs(v) < 1000 else f"{v:,.0f}"
        return str(v)

    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    out += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(out)


def write_report(out_dir: Path, name: str, data: dict[str, Any], markdown: str) -> tuple[Path, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    data = {"benchmark": name, "machine": machine(), **data}
    jpath, mpath = out_dir / f"{name}.json", out_dir / f"{name}.md"
    atomic_write_text(jpath, json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")
    atomic_write_text(mpath, markdown.rstrip() + "\n")
    return jpath, mpath


def clear_for_rebuild(root: Path, stamp: Path) -> None:
    """Empty `root` before a benchmark rebuilds its workspace there — only a workspace this benchmark
    made (it holds `stamp`) or one in a reports cache: any other directory with files in it is refused,
    so that `--workspace` pointed at a user's own workspace never deletes it."""
    import shutil

    from pyramid.errors import WorkspaceError

    root = Path(root)
    if not root.exists() or not any(root.iterdir()):
        return
    if not Path(stamp).exists() and root.parent.name != ".cache":
        raise WorkspaceError(f"{root} is not a workspace this benchmark made (no {Path(stamp).name}); "
                             "give an empty or new directory")
    shutil.rmtree(root)


def ignore_cache_dir(root: Path) -> None:
    """A benchmark's workspace under reports/.cache stays out of git, even where the repository's
    .gitignore is older than the benchmark."""
    root = Path(root)
    if root.parent.name == ".cache":
        root.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(root.parent / ".gitignore", "*\n")
